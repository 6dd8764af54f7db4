#!/usr/bin/env bash
# Command 1: install whatever is missing, then serve a release build at http://127.0.0.1:8080.
# Idempotent; prints the set-up's time, then Trunk's build and its address.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
echo "serve: building and serving a release build at http://127.0.0.1:8080 (Ctrl-C to stop)" >&2
exec trunk serve --release

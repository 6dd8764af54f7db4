#!/usr/bin/env bash
# The compute module (compute/, issue 35): the web app's second WebAssembly module, which the
# compute worker runs. Built like Trunk builds the page's module (the same Cargo profile,
# wasm-bindgen for the web target, wasm-opt -Oz) into DIR as amp-compute.js and
# amp-compute_bg.wasm; tools/postbuild.mjs then hashes and compresses them with the rest.
# Usage: scripts/build-compute.sh DIR (run by scripts/postbuild.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/build-compute.sh DIR}
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
target=${CARGO_TARGET_DIR:-target}
cargo build --quiet --locked --target wasm32-unknown-unknown --profile wasm-release -p amp-compute
wasm-bindgen --target web --no-typescript --out-dir "$dir" --out-name amp-compute \
  "$target/wasm32-unknown-unknown/wasm-release/amp-compute.wasm"
wasm-opt -Oz "$dir/amp-compute_bg.wasm" -o "$dir/amp-compute_bg.wasm"

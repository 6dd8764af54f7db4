#!/usr/bin/env bash
# Installs whatever is missing to build and serve the app. Idempotent: a second run installs nothing.
# Only package registries are used (crates.io, npm). Versions:
#   Trunk 0.21.14 (0.22 needs rustc >= 1.96.1), wasm-bindgen CLI = the wasm-bindgen in Cargo.lock,
#   wasm-opt 132 from npm's binaryen (never Debian's wasm-opt 108: the page would die at start-up).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "setup: $*" >&2; exit 1; }
say() { echo "setup: $*" >&2; }

export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$WASM_BINDGEN_VERSION" ] || die "cannot read the wasm-bindgen version from Cargo.lock"

command -v cargo >/dev/null || die "cargo is missing: install Rust with rustup (https://rustup.rs) first"
command -v rustup >/dev/null || die "rustup is missing: it is needed to add the wasm32 target"
command -v npm >/dev/null || die "npm is missing: install Node.js 20 (Debian: apt-get install nodejs npm)"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || die "rustup could not add the wasm32-unknown-unknown target"
fi

if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION from crates.io (about 8 minutes, once)"
  cargo install --locked trunk --version "$TRUNK_VERSION" --force \
    || die "cargo could not install trunk $TRUNK_VERSION (needs crates.io and a C compiler; see the output above)"
fi

if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION from crates.io (about 4 minutes, once)"
  # Not --locked: one of its locked dependency versions is missing from the registry.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force \
    || die "cargo could not install wasm-bindgen-cli $WASM_BINDGEN_VERSION (see the output above)"
fi

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] \
   || [ ! -d node_modules/terser ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dev dependencies (wasm-opt, playwright-core, axe-core, terser)"
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed (needs the npm registry)"
fi

wasm-opt --version 2>/dev/null | grep -q "version 132" \
  || die "wasm-opt on PATH is not version 132 (expected node_modules/.bin/wasm-opt from npm's binaryen)"

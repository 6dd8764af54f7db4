#!/usr/bin/env bash
# Installs whatever is missing to build and serve the app. Idempotent: a second run installs nothing.
# Only package registries are used (crates.io, npm). Versions:
#   Trunk 0.21.14 (0.22 needs rustc >= 1.96.1), wasm-bindgen CLI = the wasm-bindgen in Cargo.lock,
#   wasm-opt 132 from npm's binaryen (never Debian's wasm-opt 108: the page would die at start-up).
# On a fresh machine the two build tools are compiled at once, in a quick profile (no
# optimisation, no link-time optimisation: they are build tools, and both run as fast where it
# matters: Trunk waits for cargo, wasm-bindgen takes under a second a build), while the app's
# WebAssembly compiles beside them (the same command Trunk runs, which then finds it built).
# Prints each step's time (docs/toolchain.md, "Timings of the two commands").
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "setup: $*" >&2; exit 1; }
say() { echo "setup: $*" >&2; }

CARGO_BIN=${CARGO_HOME:-$HOME/.cargo}/bin
export PATH="$PWD/node_modules/.bin:$CARGO_BIN:$PATH"
STARTED=$SECONDS

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

if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ] \
   || [ ! -d node_modules/terser ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dev dependencies (wasm-opt, playwright-core, axe-core, terser)"
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed (needs the npm registry)"
fi
wasm-opt --version 2>/dev/null | grep -q "version 132" \
  || die "wasm-opt on PATH is not version 132 (expected node_modules/.bin/wasm-opt from npm's binaryen)"

# A build tool compiled quickly: Cargo's release profile overridden (the tools' own manifests ask
# for fat LTO and one codegen unit: 17 minutes for the two here, against 4.5 this way).
quick_install() {
  local t=$SECONDS
  CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 CARGO_PROFILE_RELEASE_DEBUG=false \
    cargo install --quiet "$@" || return 1
  say "installed $2 in $((SECONDS - t)) s"
}

jobs=()
names=()
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION from crates.io (a few minutes, once)"
  # Without its default features: no update check and no TLS (it would only download tools, which
  # this project installs itself).
  quick_install --locked trunk --version "$TRUNK_VERSION" --no-default-features --force &
  jobs+=($!); names+=("trunk $TRUNK_VERSION (needs crates.io and a C compiler; see the output above)")
fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION from crates.io (a few minutes, once)"
  # Not --locked: one of its locked dependency versions is missing from the registry. Without
  # its default features: no TLS (its test runner talks to ChromeDriver on this machine over
  # plain HTTP), so no rustls and no ring to compile.
  quick_install --no-default-features wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force &
  jobs+=($!); names+=("wasm-bindgen-cli $WASM_BINDGEN_VERSION (see the output above)")
fi
if [ ${#jobs[@]} -gt 0 ]; then
  # Meanwhile the app: the page's WebAssembly exactly as Trunk builds it (Trunk.toml, index.html),
  # then the compute module and the CLI as the post-build step builds them (scripts/postbuild.sh,
  # build-compute.sh), so that the first `trunk build` finds them done. Only a head start: a
  # failure here is the build's to report.
  say "compiling the app meanwhile"
  {
    t=$SECONDS
    {
      cargo build --quiet --locked --target wasm32-unknown-unknown --profile wasm-release \
        --bin amplification-explorer --no-default-features \
        && cargo build --quiet --locked --target wasm32-unknown-unknown --profile wasm-release -p amp-compute \
        && cargo build --quiet --locked --profile tool -p amplify -p precompress
    } >/dev/null 2>&1 && say "compiled the app's two modules and the CLI in $((SECONDS - t)) s"
  } &
  head_start=$!
  for i in "${!jobs[@]}"; do
    wait "${jobs[$i]}" || die "cargo could not install ${names[$i]}"
  done
  wait "$head_start" || true
  say "build tools installed"
fi
say "ready in $((SECONDS - STARTED)) s"

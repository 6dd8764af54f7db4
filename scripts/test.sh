#!/usr/bin/env bash
# Command 2: install whatever the tests need, then run every test:
#   formatting, clippy (warnings denied, native and wasm32), native tests of all crates,
#   the reference table regenerated from mpmath and compared, browser tests (wasm-bindgen-test in
#   headless Chromium), and end-to-end tests (Playwright + system Chromium) against a release build.
# Idempotent; stops at the first failure with the step's name.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "test: $*" >&2; exit 1; }
./scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "test: installing chromium and chromium-driver from Debian" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then command -v sudo >/dev/null && SUDO=sudo || die "need root or sudo to apt-get install chromium chromium-driver"; fi
  { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium chromium-driver; } \
    || die "apt-get could not install chromium and chromium-driver (needs Debian's package mirror)"
fi

# The reference oracle runs in a virtual environment of its own (a stock Debian 12 refuses
# `pip install` into the system Python, PEP 668).
VENV=target/venv
PY=$VENV/bin/python
if [ ! -x "$PY" ]; then
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    echo "test: installing python3-venv from Debian" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then command -v sudo >/dev/null && SUDO=sudo || die "need root or sudo to apt-get install python3-venv"; fi
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq python3-venv; } \
      || die "apt-get could not install python3-venv (needs Debian's package mirror)"
  fi
  mkdir -p target
  python3 -m venv "$VENV" || die "python3 -m venv could not create $VENV"
fi
if ! "$PY" -c 'import mpmath, sys; sys.exit(mpmath.__version__ != "1.3.0")' 2>/dev/null; then
  echo "test: installing mpmath 1.3.0 from PyPI into $VENV (the reference oracle)" >&2
  "$PY" -m pip install --quiet "mpmath==1.3.0" || die "pip could not install mpmath==1.3.0 into $VENV"
fi

STARTED=$SECONDS
step() {
  local name=$1; shift
  local t=$SECONDS
  echo "==> $name" >&2
  "$@" || die "step failed: $name"
  echo "    ($name: $((SECONDS - t)) s)" >&2
}

step "format" cargo fmt --all -- --check
step "clippy, native" cargo clippy --workspace --all-targets --locked -- -D warnings
step "clippy, wasm32" cargo clippy --target wasm32-unknown-unknown -p amplification-explorer --all-targets --locked -- -D warnings
# The web build's two modules: the page's (without the heavy computations) and the compute module.
step "clippy, wasm32, the page's module" cargo clippy --target wasm32-unknown-unknown -p amplification-explorer --no-default-features --locked -- -D warnings
step "clippy, wasm32, the compute module" cargo clippy --target wasm32-unknown-unknown -p amp-compute --locked -- -D warnings
step "reference tables reproduce from mpmath" bash -c 'for g in tools/reference/*.py; do "$0" "$g" || exit 1; done; git diff --exit-code -- math/tests/data' "$PY"
step "native tests" cargo test --workspace --locked
# The runner's own per-test timeout (20 s by default) would cut a slow test short before its
# own waits (30 s each, naming what they wait for) can say what was missing.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-300}
step "browser tests (wasm-bindgen-test, headless Chromium)" cargo test --target wasm32-unknown-unknown -p amplification-explorer --test web --locked
step "release build (trunk)" trunk build --release
step "CLI release build" cargo build --release --locked -p amplify
step "end-to-end tests (Playwright, system Chromium)" node --test tests/e2e/

echo "test: all passed in $((SECONDS - STARTED)) s" >&2

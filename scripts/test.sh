#!/usr/bin/env bash
# Command 2: install whatever the tests need, then run every test. Idempotent.
#   ./scripts/test.sh           every test (what CI runs)
#   ./scripts/test.sh --quick   the quick tier for your own loop: format, native clippy, the math
#                               and model tests (no browser, no figure sweeps)
#   ./scripts/test.sh --all-references   also regenerate every mpmath reference table
#   ./scripts/test.sh --no-cache         run every native test binary, even one that already
#                                        passed byte for byte (scripts/test-cache.py)
#
# Two chains run at once, so that neither waits for the other's single-threaded phases
# (link-time optimisation, the browsers):
#   native: format; clippy and the test build in one compilation (clippy-driver as the workspace's
#           compiler: the tests are built once, linted as they are built); every native test
#           (cargo-nextest where installed), leaving out a test binary that is byte for byte one
#           that passed before, on the same data files (scripts/test-cache.py: a clean clone, as
#           in CI, runs them all); the mpmath reference tables, regenerated only where a
#           generator or its table changed (tools/reference/check.sh);
#   web:    the release build (trunk, with the CLI the tests compare against); the browser tests
#           (wasm-bindgen-test in headless Chromium), built and linted the same way for wasm32;
#           the end-to-end tests (Playwright with the system Chromium) against the release build;
# then, alone, the end-to-end tests that time the page's main thread (tests/e2e/worker.test.mjs).
# Each step prints its time; the last line the total. A failed step prints the end of its log
# (all of it in target/test-logs/) and the command exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

STARTED=$SECONDS
QUICK=""
REFERENCES=""
NO_CACHE=""
for arg in "$@"; do
  case $arg in
    --quick) QUICK=1 ;;
    --all-references) REFERENCES=--all ;;
    --no-cache) NO_CACHE=1 ;;
    *) echo "test: unknown option $arg (--quick, --all-references, --no-cache)" >&2; exit 2 ;;
  esac
done

die() { echo "test: $*" >&2; exit 1; }
CARGO_BIN=${CARGO_HOME:-$HOME/.cargo}/bin
export PATH="$PWD/node_modules/.bin:$CARGO_BIN:$PATH"

LOGS=target/test-logs
mkdir -p "$LOGS"
# Run a step with its output in target/test-logs/<name>.log; print its time, or its log's end.
step() {
  local name=$1; shift
  local log="$LOGS/${name// /-}.log" t=$SECONDS
  echo "==> $name" >&2
  if "$@" >"$log" 2>&1; then
    echo "    ($name: $((SECONDS - t)) s)" >&2
  else
    echo "test: step failed: $name ($((SECONDS - t)) s); the end of $log:" >&2
    tail -n 60 "$log" >&2
    return 1
  fi
}

# The five slowest tests of a step that ran cargo-nextest (its log has a line per test).
slowest() {
  local log="$LOGS/${1// /-}.log"
  grep -E '^ +PASS \[' "$log" 2>/dev/null | sed -E 's/^ +[A-Z]+ \[ *([0-9.]+)s\] +(\([0-9/]+\) )?/\1 s  /' \
    | sort -rn | head -n 5 | sed 's/^/      slowest: /' >&2 || true
}

# Clippy's driver as the compiler of the workspace's own crates (not of dependencies): a build
# is then linted as it compiles, so clippy and the tests share one compilation. These are the
# variables `cargo clippy -- -D warnings` sets; clippy.toml is read as under cargo clippy.
CLIPPY_DRIVER=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver || true)
[ -x "$CLIPPY_DRIVER" ] || die "clippy-driver is missing (rustup component add clippy)"
linted() { RUSTC_WORKSPACE_WRAPPER="$CLIPPY_DRIVER" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"; }

if command -v cargo-nextest >/dev/null; then
  run_tests() { linted cargo nextest run --locked --no-fail-fast --status-level pass --final-status-level slow "$@"; }
else
  run_tests() { linted cargo test --locked --no-fail-fast "$@"; }
fi

if [ -n "$QUICK" ]; then
  step "format" cargo fmt --all -- --check
  step "clippy and build, math and model" linted cargo test --locked --no-run -p amp-math -p amp-format -p amp-chart -p amp-model -p amp-figures -p amp-site --all-targets
  # The figure sweeps (every figure at every corner of its controls) are the full run's.
  if command -v cargo-nextest >/dev/null; then
    step "math and model tests" run_tests -p amp-math -p amp-format -p amp-chart -p amp-model -p amp-figures -p amp-site \
      -E 'not (binary(sweeps) & test(/::(controls|domains|capped|legends)$/))'
  else
    step "math and model tests" run_tests -p amp-math -p amp-format -p amp-chart -p amp-model -p amp-figures -p amp-site -- \
      --skip ::controls --skip ::domains --skip ::capped --skip ::legends
  fi
  echo "test: quick tier passed in $((SECONDS - STARTED)) s (the full run: ./scripts/test.sh)" >&2
  exit 0
fi

./scripts/setup.sh
SUDO=""
need_root() {
  if [ "$(id -u)" -ne 0 ]; then command -v sudo >/dev/null && SUDO=sudo || die "need root or sudo to apt-get install $*"; fi
}
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "test: installing chromium and chromium-driver from Debian" >&2
  need_root chromium chromium-driver
  { $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; } \
    >"$LOGS/apt.log" 2>&1 || { tail -n 20 "$LOGS/apt.log" >&2; die "apt-get could not install chromium and chromium-driver (needs Debian's package mirror)"; }
fi

# The reference oracle runs in a virtual environment of its own (a stock Debian 12 refuses
# `pip install` into the system Python, PEP 668).
VENV=target/venv
PY=$VENV/bin/python
if [ ! -x "$PY" ]; then
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    echo "test: installing python3-venv from Debian" >&2
    need_root python3-venv
    { $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; } \
      >"$LOGS/apt.log" 2>&1 || { tail -n 20 "$LOGS/apt.log" >&2; die "apt-get could not install python3-venv (needs Debian's package mirror)"; }
  fi
  python3 -m venv "$VENV" || die "python3 -m venv could not create $VENV"
fi
if ! "$PY" -c 'import mpmath, sys; sys.exit(mpmath.__version__ != "1.3.0")' 2>/dev/null; then
  echo "test: installing mpmath 1.3.0 from PyPI into $VENV (the reference oracle)" >&2
  "$PY" -m pip install --quiet "mpmath==1.3.0" || die "pip could not install mpmath==1.3.0 into $VENV"
fi

# The runner's own per-test timeout (20 s by default) would cut a slow test short before its
# own waits (30 s each, naming what they wait for) can say what was missing.
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-300}

native() {
  step "format" cargo fmt --all -- --check
  step "clippy and build, native" linted cargo test --workspace --all-targets --locked --no-run
  # The binaries that passed before, unchanged, on unchanged data, are left out (their record
  # is written only when every test of the run passed).
  local filter="" cached=""
  rm -f "$LOGS/test-binaries.json"
  if [ -z "$NO_CACHE" ] && command -v cargo-nextest >/dev/null && git rev-parse --git-dir >/dev/null 2>&1; then
    linted cargo nextest list --workspace --locked --list-type binaries-only --message-format json \
      >"$LOGS/test-binaries.json" 2>"$LOGS/test-binaries.log"
    filter=$(python3 scripts/test-cache.py skip "$LOGS/test-binaries.json" 2>"$LOGS/test-cache.log")
    cached=$(cat "$LOGS/test-cache.log")
  fi
  if [ -n "$filter" ]; then
    echo "    (native tests: $cached test binaries unchanged since they passed, left out; --no-cache runs them)" >&2
    step "native tests" run_tests --workspace -E "$filter" --no-tests=pass
  else
    step "native tests" run_tests --workspace
  fi
  slowest "native tests"
  if [ -f "$LOGS/test-binaries.json" ] && [ -z "$NO_CACHE" ]; then
    python3 scripts/test-cache.py record "$LOGS/test-binaries.json"
  fi
  step "reference tables reproduce from mpmath" tools/reference/check.sh "$PY" $REFERENCES
  touch "$LOGS/native.done"
}

web() {
  step "release build (trunk, and the CLI)" trunk build --release
  # The app and its tests for wasm32 (the wasm-only code: the entry point, the browser APIs),
  # linted as they are built; the compute module's code is the native one's. (Its build scripts
  # and macros share target/debug with the native chain, whose tests run meanwhile.)
  step "clippy and build, wasm32" linted cargo test --target wasm32-unknown-unknown -p amplification-explorer --all-targets --locked --no-run
  # The page's module leaves out the heavy computations (the site's `compute` feature off): the
  # stand-ins it has instead (figures/src/heavy.rs), linted for the target they ship on, beside the
  # dependencies the step above compiled (only amp-figures and amp-site compile again).
  step "clippy and build, the page module's features" linted cargo build --target wasm32-unknown-unknown --locked -p amp-site --no-default-features --features svg --lib
  # ChromeDriver gives up on a renderer that has not answered in 30 s while it loads the tests'
  # unoptimised wasm, which happens when the native tests hold both cores: that start-up failure
  # (and only it: no test has run) is retried once and said so; a failing test is never retried.
  local web_log="$LOGS/browser-tests-(wasm-bindgen-test,-headless-Chromium).log"
  if ! step "browser tests (wasm-bindgen-test, headless Chromium)" linted cargo test --target wasm32-unknown-unknown -p amplification-explorer --test web --locked; then
    grep -q "Timed out receiving message from renderer" "$web_log" && ! grep -q "^test result" "$web_log" || return 1
    echo "    (the browser did not start in time; once more)" >&2
    step "browser tests (wasm-bindgen-test, headless Chromium)" linted cargo test --target wasm32-unknown-unknown -p amplification-explorer --test web --locked
  fi
  step "end-to-end tests (Playwright, system Chromium)" e2e_tests
}

# The end-to-end tests of the live app and the pre-rendered pages; the longest ones
# (audit.test.mjs) and the compute worker's that time nothing (compute.test.mjs), one after the
# other, beside them as soon as the native chain has left a core free, else after them.
e2e_tests() {
  node --test tests/e2e/app.test.mjs tests/e2e/prerendered.test.mjs & local app=$!
  while kill -0 "$app" 2>/dev/null && [ ! -f "$LOGS/native.done" ]; do sleep 1; done
  node --test --test-concurrency=1 tests/e2e/audit.test.mjs tests/e2e/compute.test.mjs >"$LOGS/e2e-audit.log" 2>&1 & local audit=$!
  local status=0
  wait "$app" || status=1
  wait "$audit" || status=1
  cat "$LOGS/e2e-audit.log"
  return $status
}

rm -f "$LOGS/native.done"
native & NATIVE=$!
web & WEB=$!
status=0
wait $NATIVE || status=1
wait $WEB || status=1
[ $status -eq 0 ] || die "failed after $((SECONDS - STARTED)) s (logs in $LOGS/)"
# Last, on a machine with nothing else to do: these tests check that no task on the page's main
# thread takes longer than 50 ms while the reader drags a slider, which two compilers beside the
# browser would make a test of the machine.
step "end-to-end tests that time the main thread" node --test tests/e2e/worker.test.mjs \
  || die "failed after $((SECONDS - STARTED)) s (logs in $LOGS/)"
echo "test: all passed in $((SECONDS - STARTED)) s" >&2

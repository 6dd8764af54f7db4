#!/usr/bin/env bash
# Same machine, same run: times dp_accounting's PLD accountant and ours on a few cases and prints
# the comparison (their seconds / ours, and ε both ways). Not part of the build or the tests.
#   PYTHON=/tmp/dpacc/bin/python tools/external/bench_pld.sh [--repeat N] [SIGMA,Q,STEPS ...]
# PYTHON must have dp-accounting installed (see tools/external/README.md); default python3.
# Each side is timed as the fastest of N runs (default 3) after a warm-up.
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-python3}
REPEAT=3
if [ "${1:-}" = "--repeat" ]; then REPEAT=$2; shift 2; fi
if [ $# -eq 0 ]; then
  # σ,q,steps: the Opacus example, then a few corners of the grid.
  set -- 1.5,0.04,2250 1,0.01,10000 0.8,0.1,1000 5,0.001,10000 0.6,0.01,10000 2,0.1,10000
fi
"$PYTHON" -c 'import dp_accounting' 2>/dev/null \
  || { echo "bench_pld: $PYTHON cannot import dp_accounting (set PYTHON, see tools/external/README.md)" >&2; exit 1; }

CSV=$(mktemp "${TMPDIR:-/tmp}/bench_pld.XXXXXX.csv")
trap 'rm -f "$CSV"' EXIT
VERSION=$("$PYTHON" -c 'from importlib import metadata; print(metadata.version("dp-accounting"))')
echo "bench_pld: timing dp_accounting $VERSION (fastest of $REPEAT) on: $*" >&2
"$PYTHON" tools/external/dp_accounting_pld.py --repeat "$REPEAT" --cases "$@" > "$CSV"
echo "bench_pld: building and timing ours (release)" >&2
cargo build --quiet --release -p amp-math --example pld_vs_dp_accounting
cargo run --quiet --release -p amp-math --example pld_vs_dp_accounting -- "$CSV" --repeat "$REPEAT"

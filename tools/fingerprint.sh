#!/usr/bin/env bash
# The CLI's outputs as fingerprints, one line per command: "sha256  command". For refactors that
# must change nothing a user sees: run it before and after, and compare.
#   tools/fingerprint.sh [AMPLIFY] > before.txt   (AMPLIFY: default target/tool/amplify)
#   ... change ...
#   tools/fingerprint.sh [AMPLIFY] | diff before.txt -
# Every page's numbers (JSON), every figure's SVG at its defaults, the figure list with its
# parameters, and the other commands at settings of their own.
set -euo pipefail
cd "$(dirname "$0")/.."
AMPLIFY=${1:-target/tool/amplify}
[ -x "$AMPLIFY" ] || { echo "fingerprint: no $AMPLIFY (cargo build --profile tool -p amplify)" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

run() {
  local out
  out=$("$AMPLIFY" "$@" 2>&1) || out="exit $?: $out"
  printf '%s  %s\n' "$(printf '%s' "$out" | sha256sum | cut -c1-16)" "$*"
}

run figures --json
for page in home subsampling limits accuracy renyi training risk shuffling iteration; do
  run page "$page" --json
done
run page training --json --sigma 1.1 --epochs 30
run page risk --json --q 0.01
run page shuffling --json --users 1000
for id in $("$AMPLIFY" figures | awk '{print $1}'); do
  "$AMPLIFY" plot "$id" --out "$OUT/$id.svg" >/dev/null 2>&1 || echo "exit $?" >"$OUT/$id.svg"
  printf '%s  plot %s\n' "$(sha256sum <"$OUT/$id.svg" | cut -c1-16)" "$id"
done
run subsample --eps 1 --p 0.01 --json
run subsample --eps 1 --delta 1e-6 --p 0.1 --invert --json
run ratio --eps 1 --p 0.1 --json
run regime --dataset 60000 --batch 256 --epochs 60 --total-eps 3 --json
run accuracy --eps 1 --rate 0.1 --json
run rdp --mech gaussian --sigma 1 --q 0.01 --orders 1.5,2,8,32 --json
run account --mech gaussian --sigma 1 --q 0.01 --steps 1000 --delta 1e-5 --json
run account --mech gaussian --sigma 1 --q 0.01 --steps 1000 --delta 1e-5 --accountant rdp --json
run account --mech laplace --scale 2 --q 0.01 --steps 100 --delta 1e-5 --json
run train --dataset 60000 --batch 256 --epochs 60 --sigma 1.1 --delta 1e-5 --json
run train --dataset 60000 --batch 256 --epochs 10 --sigma 1.1 --delta 1e-5 --records-per-user 3 --json
run train --dataset 60000 --batch 256 --epochs 10 --sigma 1.1 --delta 1e-5 --max-batch 300 --json
run train --dataset 60000 --batch 256 --epochs 10 --sigma 1.1 --delta 1e-5 --batching shuffle --json
run train --dataset 60000 --batch 256 --epochs 10 --delta 1e-5 --target-eps 3 --json
run risk --mech gaussian --sigma 1 --q 0.01 --steps 1000 --json
run calibrate --q 0.01 --steps 1000 --delta 1e-5 --target-eps 1 --json
run calibrate --q 0.01 --steps 1000 --delta 1e-5 --target-eps 1 --accountant rdp --json
run shuffle --bound best --eps0 1 --users 10000 --delta 1e-6 --json
run shuffle --bound best --target-eps 1 --invert --users 10000 --delta 1e-6 --json
run shuffle --bound best --eps0 1 --users 10000 --rounds 10 --delta 1e-6 --json
run subsampled-rr --eps 1 --p 0.1 --json
run iteration --iterations 100 --sigma 1 --json

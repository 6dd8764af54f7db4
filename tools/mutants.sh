#!/usr/bin/env bash
# Mutation testing of the math crate's formula modules: which changes to a formula no test notices.
# A report, not part of CI (scripts/test.sh does not run it). Needs cargo-mutants from crates.io:
#   cargo install cargo-mutants --locked
# Usage, from anywhere:
#   tools/mutants.sh                      every module below
#   tools/mutants.sh limits accuracy      some of them
#   MUTANTS_ARGS="--iterate --in-place" tools/mutants.sh rdp
#                                         extra cargo-mutants options: --iterate skips the mutants an
#                                         earlier run in target/mutants/<module> caught; --in-place
#                                         mutates this tree (use a spare git worktree) and reuses its
#                                         incremental build, about twice as fast on two cores
# For each module it mutates math/src/<module>.rs (or the files of math/src/<module>/) and runs the
# math crate's unit tests and the integration tests listed for it below (the ones that exercise it;
# fewer tests than the whole suite, so the score is if anything an underestimate). Results go to
# target/mutants/<module>/mutants.out (caught.txt, missed.txt, unviable.txt, timeout.txt); the
# summary line per module is the score caught / (caught + missed). Judging which missed mutants are
# equivalent (no test could tell them apart) is left to the reader of missed.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || { echo "mutants: install cargo-mutants first (cargo install cargo-mutants --locked)" >&2; exit 1; }

tests_for() {
  case "$1" in
    subsampling) echo "properties reference with_replacement_exact shuffle_reference" ;;
    limits) echo "limits_reference limits_properties" ;;
    accuracy) echo "accuracy_reference" ;;
    rdp) echo "rdp_reference rdp_properties rdp_poisson_exact rdp_dp_accounting" ;;
    shuffle) echo "shuffle_reference shuffle_properties shuffle_published" ;;
    *) echo "" ;;
  esac
}

modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(subsampling limits accuracy rdp shuffle)
for m in "${modules[@]}"; do
  files=()
  if [ -f "math/src/$m.rs" ]; then files+=(--file "math/src/$m.rs"); fi
  if [ -d "math/src/$m" ]; then files+=(--file "math/src/$m/*.rs"); fi
  [ ${#files[@]} -gt 0 ] || { echo "mutants: no module $m" >&2; exit 1; }
  args=(--lib)
  for t in $(tests_for "$m"); do args+=(--test "$t"); done
  out="target/mutants/$m"
  mkdir -p "$out"
  # shellcheck disable=SC2086 # MUTANTS_ARGS is a list of options
  cargo mutants --package amp-math "${files[@]}" --output "$out" --no-shuffle ${MUTANTS_ARGS:-} -- "${args[@]}" >"$out/log.txt" 2>&1 || true
  dir="$out/mutants.out"
  count() { [ -f "$dir/$1.txt" ] && wc -l <"$dir/$1.txt" | tr -d ' ' || echo 0; }
  caught=$(count caught); missed=$(count missed); unviable=$(count unviable); timeout=$(count timeout)
  score=$(awk -v c="$caught" -v m="$missed" 'BEGIN { if (c + m > 0) printf "%.1f%%", 100 * c / (c + m); else print "n/a" }')
  echo "$m: caught $caught, missed $missed, unviable $unviable, timeout $timeout; score $score"
done

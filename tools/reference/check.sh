#!/usr/bin/env bash
# The mpmath reference tables (math/tests/data/<name>.csv, each written by tools/reference/<name>.py)
# reproduce from their generators. Regenerating all eleven takes about nine minutes, so each
# table is regenerated only when its generator or the table itself changed since it was last
# regenerated and found equal: tools/reference/verified.sha256 records, for each generator, the
# SHA-256 of the generator and of its table at that moment (and the mpmath version). A table whose
# two hashes match the record is the one its generator wrote; any other is regenerated and must
# equal the committed table (git diff), and then its record is updated (commit it with the change).
#
# Usage: tools/reference/check.sh PYTHON [--all]   (--all: regenerate every table)
set -euo pipefail
cd "$(dirname "$0")/../.."
py=${1:?usage: tools/reference/check.sh PYTHON [--all]}
all=${2:-}
record=tools/reference/verified.sha256
touch "$record"
mpmath=$("$py" -c 'import mpmath; print(mpmath.__version__)')
changed=0 skipped=0
for gen in tools/reference/*.py; do
  name=$(basename "$gen" .py)
  table=math/tests/data/$name.csv
  [ -f "$table" ] || { echo "reference: $gen has no table $table" >&2; exit 1; }
  line="$(sha256sum "$gen" | cut -d' ' -f1) $(sha256sum "$table" | cut -d' ' -f1) mpmath-$mpmath $name"
  if [ "$all" != "--all" ] && grep -qxF "$line" "$record"; then
    skipped=$((skipped + 1))
    continue
  fi
  t=$SECONDS
  "$py" "$gen" || { echo "reference: $gen failed" >&2; exit 1; }
  if ! git diff --quiet -- "$table"; then
    echo "reference: $table differs from the committed table after regenerating it with $gen:" >&2
    git diff --stat -- "$table" >&2
    exit 1
  fi
  echo "reference: $table reproduces from $gen ($((SECONDS - t)) s)" >&2
  grep -v " $name\$" "$record" > "$record.new" || true
  echo "$line" >> "$record.new"
  sort -k4 "$record.new" > "$record"
  rm -f "$record.new"
  changed=$((changed + 1))
done
echo "reference: $changed tables regenerated and equal, $skipped unchanged since they were (tools/reference/verified.sha256)" >&2

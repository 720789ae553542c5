#!/usr/bin/env bash
# The Spark job in local mode against one pass of the same binary: merged
# `summary` output (json and table) must equal the single-machine run, the
# count of input files aside. Installs pyspark from PyPI when missing (needs
# Java 17). Usage: examples/spark/ci.sh BINARY [MB]  (MB of generated log,
# default 20; the README's 200 MB figures come from a manual run with 200).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mb="${2:-20}"
python3 -c 'import pyspark' 2>/dev/null || python3 -m pip install -q pyspark
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_log.py" --mb "$mb" --out "$work/big.jsonl"
gzip -c "$here/../../fixtures/demo.jsonl" > "$work/demo.jsonl.gz"
# Blank the one figure a merge may report differently: the count of input files.
norm() { sed -E 's/[0-9]+ file\(s\)/FILES/; s/"files": [0-9]+/"files": FILES/' "$1"; }
check() { # name, input, format, flags...
  local name="$1" input="$2" format="$3"
  shift 3
  "$bin" --quiet summary --format "$format" "$@" "$input" > "$work/$name.one" 2>/dev/null
  local start=$SECONDS
  python3 "$here/job.py" --master 'local[2]' --binary "$bin" --input "$input" \
    --partitions 4 --format "$format" --out "$work/$name.spark" -- "$@" 2> "$work/$name.err" \
    || { cat "$work/$name.err"; exit 1; }
  if ! diff <(norm "$work/$name.one") <(norm "$work/$name.spark") > "$work/$name.diff"; then
    echo "spark $name differs from one pass:"; head -40 "$work/$name.diff"; exit 1
  fi
  echo "spark $name: merged output equals one pass ($((SECONDS - start)) s)"
}
check demo-json "$work/demo.jsonl.gz" json
check demo-table "$work/demo.jsonl.gz" table --by model
check big-json "$work/big.jsonl" json --triage 50

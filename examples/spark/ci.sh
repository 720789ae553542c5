#!/usr/bin/env bash
# The Spark job in local mode against one pass of the same binary: the merged
# `summary` (json, table), `report` page (json, and the second page by its
# cursor) and `check` decision (document and exit code) must equal the
# single-machine run, the count of input files aside. Inputs: the demo
# fixture (gzipped), agentfootprint events of interleaved runs (keyed by run
# id), a LangSmith trace (keyed by trace id) and a generated log with
# cross-partition duplicates. Installs pyspark from PyPI when missing (needs
# Java 17). Each job runs on every engine of job.py (`--engine sql`: keyed,
# sorted and piped in the JVM; `--engine python`: Python RDDs; `--engine
# files`: each file whole through the binary, given the plain inputs split
# into 4 files by turn key with partition_by_key.py, the gzipped one as it
# is), each engine's batch in one Spark context. Usage: examples/spark/ci.sh BINARY [MB]  (MB of
# generated log, default 20; .ci/run passes 200 with the binary that its
# tests built, profile `ci`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
mb="${2:-20}"
python3 -c 'import pyspark' 2>/dev/null || python3 -m pip install -q pyspark
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_log.py" --mb "$mb" --out "$work/big.jsonl"
gzip -c "$root/fixtures/demo.jsonl" > "$work/demo.jsonl.gz"
# Blank the one figure a merge may report differently: the count of input files.
norm() { sed -E 's/[0-9]+ file\(s\)/FILES/; s/"files": [0-9]+/"files": FILES/' "$1"; }
# job NAME COMMAND INPUT "MERGE FLAGS" [COMMAND FLAGS...]: one pass of COMMAND
# with both sets of flags now, and a line of the Spark batch (COMMAND FLAGS to
# every partition, MERGE FLAGS to merge); stdout and exit code must agree.
names=()
engines=(${SPARK_ENGINES:-sql python files})
for engine in "${engines[@]}"; do : > "$work/batch.$engine"; done
job() {
  local name="$1" command="$2" input="$3" merge="$4"
  shift 4
  local code=0
  # shellcheck disable=SC2086
  "$bin" --quiet "$command" "$@" $merge "$input" > "$work/$name.one" 2>/dev/null || code=$?
  echo "$code" > "$work/$name.one-exit"
  local parts="$work/parts-$(basename "$input")"
  case "$input" in
    *.gz) parts="$input" ;;
    *) [[ " ${engines[*]} " != *" files "* || -d "$parts" ]] ||
         python3 "$here/partition_by_key.py" "$input" "$parts" 4 ;;
  esac
  for engine in "${engines[@]}"; do
    local from="$input"
    [ "$engine" != files ] || from="$parts"
    printf '%q ' --input "$from" --partitions 4 --command "$command" \
      --merge "$merge" --out "$work/$name.$engine.spark" -- "$@" >> "$work/batch.$engine"
    echo >> "$work/batch.$engine"
  done
  names+=("$name")
}
cursor() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["next_cursor"] or "")' "$1"; }

job demo-report report "$work/demo.jsonl.gz" "--format json" --limit 5
job demo-report-2 report "$work/demo.jsonl.gz" "--format json" --limit 5 --cursor "$(cursor "$work/demo-report.one")"
job demo-check check "$work/demo.jsonl.gz" "--min-rate 0.9 --per-agent"
job demo-summary summary "$work/demo.jsonl.gz" "--format json"
job af-summary summary "$root/fixtures/agentfootprint/interleaved.ndjson" "--format json"
job langsmith-report report "$root/fixtures/langsmith/create_patch.jsonl" "--format json"
job big-summary summary "$work/big.jsonl" "--format table" --by model --triage 50
job big-report report "$work/big.jsonl" "--format json" --limit 40
job big-check check "$work/big.jsonl" "--format json --min-rate 0.5 --per-agent --max-invalid 100000"

for engine in "${engines[@]}"; do
start=$SECONDS
python3 "$here/job.py" --master 'local[2]' --engine "$engine" --binary "$bin" --batch "$work/batch.$engine" \
  > "$work/batch.out" 2> "$work/batch.err" || true
echo "spark batch (engine $engine): ${#names[@]} jobs in one local[2] context, $((SECONDS - start)) s"
for i in "${!names[@]}"; do
  name="${names[$i]}"
  one="$(cat "$work/$name.one-exit")"
  spark="$(sed -n "s/^job $i: exit //p" "$work/batch.out")"
  if [ "$spark" != "$one" ]; then
    echo "spark $name ($engine): exit ${spark:-none}, one pass exit $one"; tail -20 "$work/batch.err"; exit 1
  fi
  if [ "$spark" -ge 2 ]; then
    echo "spark $name ($engine) failed (exit $spark):"; tail -20 "$work/batch.err"; exit 1
  fi
  if ! diff <(norm "$work/$name.one") <(norm "$work/$name.$engine.spark") > "$work/$name.diff"; then
    echo "spark $name ($engine) differs from one pass:"; head -40 "$work/$name.diff"; exit 1
  fi
  echo "spark $name ($engine): merged output and exit $spark equal one pass"
done
done
# The files engine refuses input plainly not partitioned by turn key: the
# LangSmith fixture cut in two by lines leaves runs of one trace in both.
if [[ " ${engines[*]} " == *" files "* ]]; then
  mkdir "$work/cut"
  split -n l/2 "$root/fixtures/langsmith/create_patch.jsonl" "$work/cut/part-"
  code=0
  python3 "$here/job.py" --master 'local[1]' --engine files --binary "$bin" --input "$work/cut" \
    > /dev/null 2> "$work/cut.err" || code=$?
  if [ "$code" != 2 ] || ! grep -q "not partitioned by turn key" "$work/cut.err"; then
    echo "spark files engine took input cut by lines (exit $code):"; tail -5 "$work/cut.err"; exit 1
  fi
  echo "spark files engine: input cut by lines refused (exit $code)"
fi

#!/usr/bin/env bash
# The Spark job's throughput per core, start-up excluded: for each log shape,
# `job.py --command summary` on a SMALL and a LARGE log of that shape (the
# marginal rate is (LARGE - SMALL bytes) / (difference of wall times) /
# cores), for each engine, against the binary alone (`summary --threads 1`)
# on the LARGE log. Every Spark run's merged summary (json) is checked
# against one pass of the binary. Prints a Markdown table.
#
#   examples/spark/bench.sh BINARY
#
# Environment (all optional):
#   SIZES="200 400"        SMALL and LARGE log sizes in MB
#   SHAPES="225 2000 span" log shapes: N = gen_log.py --line-bytes N (native
#                          turns of about N bytes); span = Langfuse
#                          observations (flat span lines of about 900 bytes,
#                          scripts/gen-dialects.py on the fixture)
#   ENGINES="sql python"   job.py --engine values
#   MASTER=local[2]  CORES=2  PARTITIONS=4  ROUNDS=1 (the minimum wall of the rounds)
#   DIR=/tmp/ga-spark-bench  where the generated logs are kept
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
[[ $# == 1 ]] || { echo "usage: examples/spark/bench.sh BINARY" >&2; exit 2; }
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
SIZES=${SIZES:-"200 400"}
SHAPES=${SHAPES:-"225 2000 span"}
ENGINES=${ENGINES:-"sql python"}
MASTER=${MASTER:-local[2]}
CORES=${CORES:-2}
PARTITIONS=${PARTITIONS:-4}
ROUNDS=${ROUNDS:-1}
DIR=${DIR:-/tmp/ga-spark-bench}
read -r small large <<<"$SIZES"
mkdir -p "$DIR"
python3 -c 'import pyspark' 2>/dev/null || python3 -m pip install -q pyspark
say() { printf '%s\n' "$*" >&2; }
now() { date +%s.%N; }

log_for() { # SHAPE MB -> path
  local shape=$1 mb=$2 f
  f="$DIR/$shape-${mb}MB.jsonl"
  if [[ ! -s $f ]]; then
    say "== generating $f"
    if [[ $shape == span ]]; then
      python3 "$root/scripts/gen-dialects.py" \
        "$root/fixtures/langfuse/observations_v2/2026-03-04T09-00-00.jsonl" "$f.tmp" "$mb"
    else
      python3 "$here/gen_log.py" --mb "$mb" --line-bytes "$shape" --out "$f.tmp"
    fi
    mv "$f.tmp" "$f"
  fi
  printf '%s\n' "$f"
}
norm() { sed -E 's/"files": [0-9]+/"files": FILES/' "$1"; }
# wall ENGINE LOG: the minimum wall seconds of ROUNDS Spark runs; checks the output.
wall() {
  local engine=$1 f=$2 best="" t0 t1 t r
  "$bin" --quiet summary --format json "$f" >"$DIR/one.json"
  for ((r = 1; r <= ROUNDS; r++)); do
    cat "$f" >/dev/null
    t0=$(now)
    python3 "$here/job.py" --master "$MASTER" --engine "$engine" --binary "$bin" --input "$f" \
      --partitions "$PARTITIONS" --format json --out "$DIR/spark.json" 2>"$DIR/spark.err" ||
      { say "job.py failed:"; tail -20 "$DIR/spark.err" >&2; exit 1; }
    t1=$(now)
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    diff -q <(norm "$DIR/one.json") <(norm "$DIR/spark.json") >/dev/null ||
      { say "engine $engine on $f: merged summary differs from one pass"; exit 1; }
    if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  printf '%s\n' "$best"
}

say "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
rows=""
for shape in $SHAPES; do
  fs=$(log_for "$shape" "$small")
  fl=$(log_for "$shape" "$large")
  bs=$(stat -c %s "$fs")
  bl=$(stat -c %s "$fl")
  lines=$(wc -l <"$fl")
  cat "$fl" >/dev/null
  t0=$(now)
  "$bin" --quiet --threads 1 summary "$fl" >/dev/null
  t1=$(now)
  alone=$(awk -v b="$bl" -v a="$t0" -v c="$t1" 'BEGIN { printf "%.0f", b / 1e6 / (c - a) }')
  for engine in $ENGINES; do
    say "== $shape, engine $engine: ${small} MB"
    ts=$(wall "$engine" "$fs")
    say "   $ts s; ${large} MB"
    tl=$(wall "$engine" "$fl")
    say "   $tl s"
    rows+=$(awk -v shape="$shape" -v engine="$engine" -v bs="$bs" -v bl="$bl" -v ts="$ts" -v tl="$tl" \
      -v lines="$lines" -v cores="$CORES" -v alone="$alone" 'BEGIN {
        m = (bl - bs) / 1e6 / (tl - ts) / cores
        printf "| %s | %.0f | %s | %.1f s | %.1f s | %.1f | %s |\n", shape, bl / lines, engine, ts, tl, m, alone
      }')$'\n'
  done
done
say "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n%s, %s partitions, summary; logs of %s and %s MB; marginal = (difference of bytes) / (difference of wall) / %s cores\n\n' \
  "$MASTER" "$PARTITIONS" "$small" "$large" "$CORES"
printf '| lines | bytes a line | engine | wall, %s MB | wall, %s MB | marginal MB/s per core | binary alone, MB/s (1 thread) |\n' "$small" "$large"
printf '|---|---:|---|---:|---:|---:|---:|\n'
printf '%s' "$rows"

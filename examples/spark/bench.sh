#!/usr/bin/env bash
# The Spark job's throughput per core, start-up excluded: for each log shape,
# `job.py --command summary` on a SMALL and a LARGE log of that shape (the
# marginal rate is (LARGE - SMALL bytes) / (difference of wall times) /
# cores), for each engine, against the binary alone (`summary --threads 1`)
# on the LARGE log. Every Spark run's merged summary (json) is checked
# against one pass of the binary. Prints a Markdown table. Where a cgroup-v1
# cpuacct hierarchy is writable (root on most Linux hosts), each run's CPU
# time (user + sys of the JVM, its script processes and the driver) is
# measured too, and the marginal MB per CPU second beside the wall figure:
# on a host shared with other work, wall times stretch and CPU times do not.
#
#   examples/spark/bench.sh BINARY
#
# Environment (all optional):
#   SIZES="200 400"        SMALL and LARGE log sizes in MB
#   SHAPES="225 2000 span" log shapes: N = gen_log.py --line-bytes N (native
#                          turns of about N bytes); span = Langfuse
#                          observations (flat span lines of about 900 bytes,
#                          scripts/gen-dialects.py on the fixture)
#   ENGINES="sql python"   job.py --engine values; `files` reads the log split
#                          into PARTITIONS files by turn key (partition_by_key.py,
#                          untimed), the layout that engine needs
#   CONF="spark.driver.memory=4g"   job.py --conf settings (space-separated)
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
CONF=${CONF-"spark.driver.memory=4g"}
conf=()
for kv in $CONF; do conf+=(--conf "$kv"); done
read -r small large <<<"$SIZES"
mkdir -p "$DIR"
python3 -c 'import pyspark' 2>/dev/null || python3 -m pip install -q pyspark
say() { printf '%s\n' "$*" >&2; }
CG=/sys/fs/cgroup/cpuacct/ga-spark-bench-$$
if mkdir "$CG" 2>/dev/null; then trap 'rmdir "$CG" 2>/dev/null || true' EXIT; else CG=""; fi
cpu_ns() { if [[ -n $CG ]]; then cat "$CG/cpuacct.usage"; else echo 0; fi; }
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
# input_for ENGINE LOG: the log, or for --engine files its files by turn key.
input_for() {
  local engine=$1 f=$2
  if [[ $engine == files ]]; then
    if [[ ! -d ${f%.jsonl}.parts ]]; then
      python3 "$here/partition_by_key.py" "$f" "${f%.jsonl}.parts.tmp" "$PARTITIONS"
      mv "${f%.jsonl}.parts.tmp" "${f%.jsonl}.parts"
    fi
    f=${f%.jsonl}.parts
  fi
  printf '%s\n' "$f"
}
# run ENGINE LOG: "WALL CPU" seconds, the run of ROUNDS with the least CPU
# (the least wall without a cgroup); checks the output.
run() {
  local engine=$1 f=$2 best="" bestc="" t0 t1 c0 c1 t c r input
  "$bin" --quiet summary --format json "$f" >"$DIR/one.json" 2>/dev/null
  input=$(input_for "$engine" "$f")
  for ((r = 1; r <= ROUNDS; r++)); do
    cat "$f" >/dev/null
    c0=$(cpu_ns)
    t0=$(now)
    (
      [[ -z $CG ]] || echo "$BASHPID" >"$CG/tasks"
      exec python3 "$here/job.py" --master "$MASTER" "${conf[@]}" --engine "$engine" --binary "$bin" --input "$input" \
        --partitions "$PARTITIONS" --format json --out "$DIR/spark.json" 2>"$DIR/spark.err"
    ) || { say "job.py failed:"; tail -20 "$DIR/spark.err" >&2; exit 1; }
    t1=$(now)
    c1=$(cpu_ns)
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    c=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
    diff -q <(norm "$DIR/one.json") <(norm "$DIR/spark.json") >/dev/null ||
      { say "engine $engine on $f: merged summary differs from one pass"; exit 1; }
    if [[ -z $best ]] || awk -v a="$c" -v b="$bestc" -v x="$t" -v y="$best" \
      'BEGIN { exit !(a < b || (a == b && x < y)) }'; then best=$t; bestc=$c; fi
  done
  printf '%s %s\n' "$best" "$bestc"
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
  c0=$(cpu_ns)
  t0=$(now)
  ( [[ -z $CG ]] || echo "$BASHPID" >"$CG/tasks"; exec "$bin" --quiet --threads 1 summary "$fl" >/dev/null 2>&1 )
  t1=$(now)
  c1=$(cpu_ns)
  alone=$(awk -v b="$bl" -v a="$t0" -v c="$t1" 'BEGIN { printf "%.0f", b / 1e6 / (c - a) }')
  alonec=$(awk -v b="$bl" -v a="$c0" -v c="$c1" 'BEGIN { if (c > a) printf "%.0f", b * 1e3 / (c - a); else print "-" }')
  for engine in $ENGINES; do
    say "== $shape, engine $engine: ${small} MB"
    r=$(run "$engine" "$fs")
    read -r ts cs <<<"$r"
    say "   $ts s wall, $cs s CPU; ${large} MB"
    r=$(run "$engine" "$fl")
    read -r tl cl <<<"$r"
    say "   $tl s wall, $cl s CPU"
    rows+=$(awk -v shape="$shape" -v engine="$engine" -v bs="$bs" -v bl="$bl" -v ts="$ts" -v tl="$tl" \
      -v cs="$cs" -v cl="$cl" -v lines="$lines" -v cores="$CORES" -v alone="$alone" -v alonec="$alonec" 'BEGIN {
        m = (bl - bs) / 1e6 / (tl - ts) / cores
        mc = (cl > cs) ? sprintf("%.1f", (bl - bs) / 1e6 / (cl - cs)) : "-"
        printf "| %s | %.0f | %s | %.1f s / %.1f s | %.1f | %s / %s CPU s | %s | %s | %s |\n",
          shape, bl / lines, engine, ts, tl, m, cs, cl, mc, alone, alonec
      }')$'\n'
  done
done
say "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '\n%s, %s partitions, summary; logs of %s and %s MB; marginal = (difference of bytes) / (difference of wall) / %s cores\n\n' \
  "$MASTER" "$PARTITIONS" "$small" "$large" "$CORES"
printf '| lines | bytes a line | engine | wall, %s / %s MB | marginal MB/s per core (wall / %s) | CPU, %s / %s MB | marginal MB per CPU s | binary alone, 1 thread: MB/s | binary alone: MB per CPU s |\n' "$small" "$large" "$CORES" "$small" "$large"
printf '|---|---:|---|---:|---:|---:|---:|---:|---:|\n'
printf '%s' "$rows"

#!/usr/bin/env bash
# Throughput per input byte and peak memory of every input dialect, against
# native turn lines, in one run (issue 16: span and event dialects within
# 2x of native per byte; peak RSS flat from 100 MB to 1-2 GB).
#
# Each dialect's log is a real sample repeated with fresh ids
# (scripts/gen-dialects.py); OTLP/JSON comes from scripts/gen-otlp.py
# (collector batching) and the mapped log from the native one with its keys
# renamed, as scripts/bench.sh does. `summary --threads 2` is timed with
# /usr/bin/time over BENCH_RUNS interleaved rounds on the THROUGHPUT_MB logs
# (medians of CPU seconds, user + sys, and wall seconds), and run once on the
# MEM_MB logs for peak RSS.
#
#   BIN=target/release/grounding-audit   binary to measure
#   BENCH_DIR=/tmp/ga-bench-dialects     where the generated logs are kept
#   THROUGHPUT_MB=200  MEM_MB="100 1000"  BENCH_RUNS=3
#   DROP_MB="2000"                       logs of these sizes are deleted after
#                                        their run (2 GB a dialect adds up)
#   MEM_NO_DEDUPE=1                      also measure peak RSS with --no-dedupe
#                                        (what the open groups and blocks hold)
#   DIALECTS="native otlp phoenix agentfootprint langsmith langfuse mapped"
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/grounding-audit}
GEN=${GEN:-target/release/ga-generate}
DIR=${BENCH_DIR:-/tmp/ga-bench-dialects}
THROUGHPUT_MB=${THROUGHPUT_MB:-200}
MEM_MB=${MEM_MB:-"100 1000"}
RUNS=${BENCH_RUNS:-3}
DROP_MB=${DROP_MB:-}
MEM_NO_DEDUPE=${MEM_NO_DEDUPE:-}
DIALECTS=${DIALECTS:-"native otlp phoenix agentfootprint langsmith langfuse mapped"}
SHARED=${SHARED:-../shared}
mkdir -p "$DIR"
[[ -x $BIN && -x $GEN ]] || { echo "no binaries at $BIN and $GEN (cargo build --release --workspace)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

MAP_FILE=$DIR/mapped.map.toml
cat >"$MAP_FILE" <<'MAP'
turn_id = "/id"
agent_id = "/agent"
created_at = "/ts"
reply = "/answer"
chunks = "/retrieval/chunks"
citations = "/retrieval/citations"
tools = "/retrieval/tools"
model = "/retrieval/model"
tokens_used = "/retrieval/tokens_used"
cost_cents = "/retrieval/cost_cents"
latency_ms = "/retrieval/latency_ms"
MAP

# log_for DIALECT MB: the path of a generated log, written when missing.
log_for() {
    local d=$1 mb=$2 f=$DIR/$1-$2MB.jsonl
    if [[ ! -s $f ]]; then
        case $d in
        native) "$GEN" --bytes "${mb}MB" --seed 42 >"$f.tmp" ;;
        otlp) python3 scripts/gen-otlp.py "$f.tmp" "$mb" 42 ;;
        phoenix) python3 scripts/gen-dialects.py \
            "$SHARED/traces/phoenix-openinference-langchain/spans.jsonl" "$f.tmp" "$mb" ;;
        agentfootprint)
            cat "$SHARED"/agentfootprint/*.fileObservability.ndjson >"$DIR/af-sample.ndjson"
            python3 scripts/gen-dialects.py "$DIR/af-sample.ndjson" "$f.tmp" "$mb" ;;
        langsmith) python3 scripts/gen-dialects.py \
            "$SHARED/traces/langsmith-langchain/runs.jsonl" "$f.tmp" "$mb" ;;
        langfuse) python3 scripts/gen-dialects.py \
            fixtures/langfuse/observations_v2/2026-03-04T09-00-00.jsonl "$f.tmp" "$mb" ;;
        mapped) sed -e 's/"turn_id":/"id":/' -e 's/"agent_id":/"agent":/' \
            -e 's/"created_at":/"ts":/' -e 's/"reply":/"answer":/' \
            -e 's/"grounding":/"retrieval":/' "$(log_for native "$mb")" >"$f.tmp" ;;
        esac
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}

args_for() {
    [[ $1 == mapped ]] && echo "--map-file $MAP_FILE"
    return 0
}

# run DIALECT FILE [ARGS]: prints "cpu wall rss_kib" of one summary run.
# CPU and wall seconds come from bash's `time` (to the millisecond;
# /usr/bin/time rounds to 10 ms, about 5 % of a native 200 MB run), peak
# RSS from /usr/bin/time.
run() {
    local out TIMEFORMAT="%3U %3S %3R"
    # shellcheck disable=SC2046,SC2086
    out=$({ time /usr/bin/time -f "%M" "$BIN" --quiet --threads 2 summary $(args_for "$1") ${3:-} "$2" >/dev/null; } 2>&1 | tail -2 | tr '\n' ' ')
    awk '{printf "%.3f %.3f %d\n", $2 + $3, $4, $1}' <<<"$out"
}

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

declare -A CPU WALL SIZE
for d in $DIALECTS; do
    f=$(log_for "$d" "$THROUGHPUT_MB")
    SIZE[$d]=$(stat -c %s "$f")
    "$BIN" --quiet summary $(args_for "$d") "$f" >/dev/null # warm the page cache
done
for _ in $(seq "$RUNS"); do
    for d in $DIALECTS; do
        r=$(run "$d" "$DIR/$d-${THROUGHPUT_MB}MB.jsonl")
        CPU[$d]+="${r%% *} "
        w=${r#* }
        WALL[$d]+="${w%% *} "
    done
done
declare -A RSS
for mb in $MEM_MB; do
    for d in $DIALECTS; do
        f=$(log_for "$d" "$mb")
        r=$(run "$d" "$f")
        RSS[$d]+="$(awk '{printf "%.1f", $3 / 1024}' <<<"$r") MiB"
        if [[ -n $MEM_NO_DEDUPE ]]; then
            r=$(run "$d" "$f" --no-dedupe)
            RSS[$d]+=" / $(awk '{printf "%.1f", $3 / 1024}' <<<"$r") MiB"
        fi
        RSS[$d]+=" ($(stat -c %s "$f" | awk '{printf "%.0f", $1 / 1e6}') MB) · "
        if [[ " $DROP_MB " == *" $mb "* ]]; then rm -f "$f"; fi
    done
done

n_cpu=$(tr ' ' '\n' <<<"${CPU[native]:-}" | grep . | median || true)
n_size=${SIZE[native]:-0}
rss_head="peak RSS"
[[ -n $MEM_NO_DEDUPE ]] && rss_head="peak RSS (de-duplicating / --no-dedupe)"
echo "| dialect | log | CPU s (median of $RUNS) | MB per CPU s | × native | wall s | MB/s | $rss_head |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for d in $DIALECTS; do
    cpu=$(tr ' ' '\n' <<<"${CPU[$d]}" | grep . | median)
    wall=$(tr ' ' '\n' <<<"${WALL[$d]}" | grep . | median)
    awk -v d="$d" -v s="${SIZE[$d]}" -v c="$cpu" -v w="$wall" -v nc="$n_cpu" -v ns="$n_size" -v rss="${RSS[$d]% · }" 'BEGIN {
        per = s / 1e6 / c; nper = (nc > 0) ? ns / 1e6 / nc : 0
        printf "| %s | %.0f MB | %.3f | %.0f | %s | %.3f | %.0f | %s |\n", d, s / 1e6, c, per,
            (nper > 0) ? sprintf("%.2f", per / nper) : "—", w, s / 1e6 / w, rss }'
done

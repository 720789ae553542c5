#!/usr/bin/env bash
# The throughput and memory benchmark of issue 7. Not part of CI.
#
# From a fresh clone: builds the profile it measures (BENCH_PROFILE, `dist`
# by default: the fat-LTO build of published binaries; `release` for what
# `cargo install` builds) for
# grounding-audit and the log generator of benches/generate, generates a deterministic turn log under target/bench/
# (reused when one with the same size, seed, agents and generator source
# exists), then times with hyperfine (warm page cache) in BENCH_ROUNDS
# interleaved rounds: each round times every command below once more (a
# warm-up run, then BENCH_RUNS runs), so a drift of the host over the minutes
# of a run falls on every command alike instead of on whichever ran then:
#   grounding-audit summary, check --min-rate 0.5 (skipped until they exist),
#   report (one page), report --all --format csv  -- at --threads 1 and 2;
#   summary again on the same log with every field renamed, read through
#   --map-file (the mapped path; issue 12 wants it within 15 % of native);
#   wc -l (the floor); jq computing the verdict counts; DuckDB (Python API,
#   timed inside Python) running two queries at 1 and 2 threads: the verdict
#   counts only, and the equal work of `summary` (same fields, per agent per
#   UTC day; see scripts/bench-duckdb.py).
# It prints a Markdown table built from hyperfine's --export-json (medians of
# all BENCH_ROUNDS x BENCH_RUNS runs, MB/s, ratios, user+sys CPU; each target's
# ratio also round by round), checks that every tool agrees (verdict counts;
# DuckDB's equal-work query against `summary --format json` per agent and
# per agent and day), and measures peak RSS with /usr/bin/time -v.
#
# Environment (all optional):
#   BENCH_PROFILE=dist    cargo profile to build and measure (dist or release); the table says which
#   BENCH_MB=500          size of the timed log in MB (10^6 bytes); BENCH_MB=50 for a quick run
#   BENCH_ROUNDS=3        interleaved rounds over every command
#   BENCH_RUNS=3          timed runs per command in each round; the table shows the medians of all
#   BENCH_WARMUP=1        untimed runs before them, in each round
#   BENCH_SEED=42         generator seed
#   BENCH_AGENTS=12       generator agents
#   BENCH_JQ_MB=50        jq is timed on the first ~N MB of the log and scaled
#                         (jq runs at ~40 MB/s); >= BENCH_MB times the whole log; 0 skips jq
#   BENCH_MEM_MB="..."    log sizes (MB) for the peak-RSS lines; default "BENCH_MB 4*BENCH_MB"; "" skips
#   BENCH_INSTALL=1       install hyperfine, jq and time (apt-get) and duckdb (pip) when missing;
#                         0 never installs. hyperfine is required: without it the script stops.
#   BENCH_DIR=target/bench
#   BENCH_OTLP_MB="100 1000"  sizes (MB) of generated collector-batched OTLP/JSON logs for the
#                         span-dialect rows (time and peak RSS of summary); "" skips
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH_MB=${BENCH_MB:-500}
BENCH_ROUNDS=${BENCH_ROUNDS:-3}
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_WARMUP=${BENCH_WARMUP:-1}
BENCH_SEED=${BENCH_SEED:-42}
BENCH_AGENTS=${BENCH_AGENTS:-12}
BENCH_JQ_MB=${BENCH_JQ_MB:-50}
BENCH_MEM_MB=${BENCH_MEM_MB-"$BENCH_MB $((BENCH_MB * 4))"}
BENCH_INSTALL=${BENCH_INSTALL:-1}
BENCH_DIR=${BENCH_DIR:-target/bench}
BENCH_PROFILE=${BENCH_PROFILE:-dist}
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/$BENCH_PROFILE/grounding-audit
GEN=${CARGO_TARGET_DIR:-$ROOT/target}/$BENCH_PROFILE/ga-generate
UTIL="python3 $ROOT/scripts/bench-report.py"

mkdir -p "$BENCH_DIR"
LOG=$BENCH_DIR/bench.log
RES=$BENCH_DIR/times.tsv
MEM=$BENCH_DIR/memory.tsv
AGREE=$BENCH_DIR/agreement.txt
HF=$BENCH_DIR/hyperfine
rm -rf "$HF"
mkdir -p "$HF"
: >"$LOG"
: >"$RES"
: >"$MEM"
: >"$AGREE"

say() { printf '%s\n' "$*" >&2; }
now() { date +%s%N; }

# --- tools -------------------------------------------------------------------

APT_UPDATED=0
apt_install() {
    [[ $BENCH_INSTALL == 1 ]] || return 1
    command -v apt-get >/dev/null 2>&1 || return 1
    [[ $(id -u) == 0 ]] || return 1
    if [[ $APT_UPDATED == 0 ]]; then
        say "   apt-get update"
        apt-get update -qq >>"$LOG" 2>&1 || true
        APT_UPDATED=1
    fi
    say "   apt-get install $1"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >>"$LOG" 2>&1
}

if ! command -v hyperfine >/dev/null 2>&1 && ! apt_install hyperfine; then
    say "hyperfine (Debian package hyperfine) times every command and could not be installed"
    say "(needs root and apt-get, and BENCH_INSTALL=1): install it and rerun"
    exit 1
fi
say "== building (cargo build --profile $BENCH_PROFILE: grounding-audit and the log generator, benches/generate)"
cargo build --profile "$BENCH_PROFILE" --locked --quiet -p grounding-audit -p ga-generate

HAVE_JQ=0
if [[ $BENCH_JQ_MB != 0 ]]; then
    if command -v jq >/dev/null 2>&1 || apt_install jq; then HAVE_JQ=1; else say "   jq is not installed and could not be: skipped"; fi
fi
HAVE_TIME=0
if [[ -x /usr/bin/time ]] || apt_install time; then HAVE_TIME=1; else say "   /usr/bin/time is missing: no peak-RSS lines"; fi
HAVE_DUCKDB=0
if python3 -c 'import duckdb' >/dev/null 2>&1; then
    HAVE_DUCKDB=1
elif [[ $BENCH_INSTALL == 1 ]] && python3 -m pip install --quiet duckdb >>"$LOG" 2>&1 && python3 -c 'import duckdb' >/dev/null 2>&1; then
    HAVE_DUCKDB=1
else
    say "   DuckDB (pip install duckdb) is not available: skipped"
fi

# --- inputs ------------------------------------------------------------------

GEN_HASH=$(cat benches/generate/src/*.rs | sha256sum | cut -c1-10)
# log_for MB: the path of a generated log of MB megabytes, generating it when absent.
log_for() {
    local mb=$1
    local f="$BENCH_DIR/turns-${mb}MB-seed${BENCH_SEED}-agents${BENCH_AGENTS}-gen${GEN_HASH}.jsonl"
    if [[ -s $f ]]; then
        say "== reusing $f"
    else
        say "== generating $f"
        local t0 t1
        t0=$(now)
        "$GEN" --bytes "${mb}MB" --seed "$BENCH_SEED" --agents "$BENCH_AGENTS" >"$f.tmp"
        mv "$f.tmp" "$f"
        t1=$(now)
        say "   $(awk -v b="$(stat -c %s "$f")" -v ns=$((t1 - t0)) 'BEGIN { printf "%.0f MB in %.2f s (%.0f MB/s)", b / 1e6, ns / 1e9, b / 1e6 / (ns / 1e9) }')"
    fi
    printf '%s\n' "$f"
}

F=$(log_for "$BENCH_MB")
BYTES=$(stat -c %s "$F")
LINES=$(wc -l <"$F")

# The same log in a home-grown shape (every key the map names renamed),
# graded through a field map: the mapped dialect's hot path.
MAPPED_F=${F%.jsonl}.mapped.jsonl
MAP_FILE=$BENCH_DIR/bench.map.toml
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
if [[ ! -s $MAPPED_F ]]; then
    say "== writing $MAPPED_F"
    sed -e 's/"turn_id":/"id":/' -e 's/"agent_id":/"agent":/' -e 's/"created_at":/"ts":/' \
        -e 's/"reply":/"answer":/' -e 's/"grounding":/"retrieval":/' "$F" >"$MAPPED_F.tmp"
    mv "$MAPPED_F.tmp" "$MAPPED_F"
fi
# Timed against the native log's size: the same turns, so MB/s compare like for like.

# Which subcommands exist yet: --help must work and a run on a small log must
# not fail (`check` exits 1 when a gate fails, which is fine).
TINY=$BENCH_DIR/tiny.jsonl
"$GEN" --bytes 200k --seed "$BENCH_SEED" --agents "$BENCH_AGENTS" >"$TINY"
have_cmd() {
    "$BIN" "$1" --help >/dev/null 2>&1 || return 1
    local rc=0
    "$BIN" --quiet "$@" "$TINY" >/dev/null 2>>"$LOG" || rc=$?
    ((rc <= 1))
}
HAVE_SUMMARY=0
HAVE_CHECK=0
if have_cmd summary; then HAVE_SUMMARY=1; else say "   grounding-audit summary is not built yet: skipped"; fi
if have_cmd check --min-rate 0.5; then HAVE_CHECK=1; else say "   grounding-audit check is not built yet: skipped"; fi

JQ_F=$F
JQ_BYTES=$BYTES
if [[ $HAVE_JQ == 1 ]] && ((BENCH_JQ_MB < BENCH_MB)); then
    JQ_F=$BENCH_DIR/jq-slice-${BENCH_JQ_MB}MB-of-$(basename "$F")
    if [[ ! -s $JQ_F ]]; then
        head -n $((LINES * BENCH_JQ_MB / BENCH_MB)) "$F" >"$JQ_F.tmp"
        mv "$JQ_F.tmp" "$JQ_F"
    fi
    JQ_BYTES=$(stat -c %s "$JQ_F")
fi

# --- timing ------------------------------------------------------------------

# Every row of the table is one hyperfine (or DuckDB) export in $HF per round,
# listed in $RES as: NAME, THREADS, BYTES, highest allowed exit code, the
# export's path, the round.
ROW=0
ROUND=0
# bench NAME THREADS BYTES ALLOWED_RC CMD...: times CMD with hyperfine.
bench() {
    local name=$1 threads=$2 bytes=$3 allowed=$4
    shift 4
    ROW=$((ROW + 1))
    local json=$HF/$ROW.json cmdline extra=()
    cmdline=$(printf '%q ' "$@")
    # `check` exits 1 when its gate fails; the exit codes are checked from the export.
    if ((allowed > 0)); then extra=(--ignore-failure); fi
    say "   $name (threads $threads, round $ROUND)"
    if ! hyperfine --shell=none --style basic --warmup "$BENCH_WARMUP" --runs "$BENCH_RUNS" "${extra[@]}" \
        --export-json "$json" --command-name "$name" "${cmdline% }" >>"$LOG" 2>&1; then
        say "   $name (threads $threads) failed; see $LOG"
        return 0
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$threads" "$bytes" "$allowed" "$json" "$ROUND" >>"$RES"
}
jq_counts() { jq -n -c -f "$ROOT/scripts/bench-verdicts.jq" "$1"; }
# duckdb QUERY THREADS: DuckDB's query, timed inside Python; its answer goes to $HF/duckdb-QUERY-THREADS.out.
duckdb_run() {
    local query=$1 threads=$2
    ROW=$((ROW + 1))
    local json=$HF/$ROW.json
    say "   duckdb $query (threads $threads, round $ROUND)"
    if ! python3 "$ROOT/scripts/bench-duckdb.py" "$query" "$F" --threads "$threads" --runs "$BENCH_RUNS" \
        --warmup "$BENCH_WARMUP" --export-json "$json" >"$HF/duckdb-$query-$threads.out" 2>>"$LOG"; then
        say "   DuckDB $query (threads $threads) failed; see $LOG"
        return 0
    fi
    printf '%s\t%s\t%s\t0\t%s\t%s\n' "$(export_name "$json")" "$threads" "$BYTES" "$json" "$ROUND" >>"$RES"
}
export_name() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["command"])' "$1"; }

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
say "== warming the page cache (load average: $LOAD_BEFORE)"
cat "$F" "$JQ_F" "$MAPPED_F" >/dev/null

say "== timing: $BENCH_ROUNDS interleaved rounds; in each, hyperfine, $BENCH_WARMUP warm-up + $BENCH_RUNS runs each"
for ((ROUND = 1; ROUND <= BENCH_ROUNDS; ROUND++)); do
    for t in 1 2; do
        if [[ $HAVE_SUMMARY == 1 ]]; then
            bench "grounding-audit summary" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" summary "$F"
        fi
        if [[ $HAVE_CHECK == 1 ]]; then
            bench "grounding-audit check --min-rate 0.5" "$t" "$BYTES" 1 "$BIN" --quiet --threads "$t" check --min-rate 0.5 "$F"
        fi
        bench "grounding-audit summary --map-file (mapped log)" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" summary --map-file "$MAP_FILE" "$MAPPED_F"
        bench "grounding-audit report" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" report "$F"
        bench "grounding-audit report --all --format csv" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" report --all --format csv "$F"
    done
    bench "wc -l" 1 "$BYTES" 0 wc -l "$F"
    if [[ $HAVE_JQ == 1 ]]; then
        bench "jq (one program per line)" 1 "$JQ_BYTES" 0 jq -n -c -f "$ROOT/scripts/bench-verdicts.jq" "$JQ_F"
    fi
    if [[ $HAVE_DUCKDB == 1 ]]; then
        for t in 1 2; do
            duckdb_run verdicts "$t"
            duckdb_run equal-work "$t"
        done
    fi
done

# --- agreement on verdict counts ---------------------------------------------

say "== checking that every tool agrees on the verdict counts"
ga_counts() { "$BIN" --quiet --threads "$1" report --all --format json "$2" | $UTIL verdicts; }
REF=$(ga_counts 2 "$F")
agree() { # NAME COUNTS [REFERENCE]
    local ref=${3:-$REF}
    if [[ $2 == "$ref" ]]; then
        printf 'agree  %-52s %s\n' "$1" "$2" >>"$AGREE"
    else
        printf 'DIFFER %-52s %s (grounding-audit: %s)\n' "$1" "$2" "$ref" >>"$AGREE"
    fi
}
printf 'reference: grounding-audit --threads 2 report --all --format json (summary over all rows): %s\n' "$REF" >>"$AGREE"
agree "grounding-audit --threads 1 report --all --format json" "$(ga_counts 1 "$F")"
if [[ $HAVE_SUMMARY == 1 ]]; then
    agree "grounding-audit summary --format json" "$("$BIN" --quiet summary --format json "$F" | $UTIL verdicts)"
fi
agree "grounding-audit summary --map-file (mapped log)" "$("$BIN" --quiet summary --format json --map-file "$MAP_FILE" "$MAPPED_F" | $UTIL verdicts)"
if [[ $HAVE_CHECK == 1 ]]; then
    agree "grounding-audit check --format json" "$("$BIN" --quiet check --min-rate 0.5 --format json "$F" 2>>"$LOG" | $UTIL verdicts || true)"
fi
if [[ $HAVE_DUCKDB == 1 && $HAVE_SUMMARY == 1 ]]; then
    # Per agent (verdicts, chunks retrieved and cited, low-score citations) and
    # per agent and UTC day (turns, with retrieval, grounded).
    "$BIN" --quiet summary --format json "$F" | $UTIL cells >"$HF/summary-cells.json"
fi
for t in 1 2; do
    if [[ $HAVE_DUCKDB == 1 && -s $HF/duckdb-verdicts-$t.out ]]; then
        agree "duckdb verdict counts (threads $t)" "$($UTIL verdicts <"$HF/duckdb-verdicts-$t.out")"
    fi
    if [[ $HAVE_DUCKDB == 1 && $HAVE_SUMMARY == 1 && -s $HF/duckdb-equal-work-$t.out ]]; then
        name="duckdb equal work (threads $t) vs summary --format json"
        if same=$($UTIL same "$HF/duckdb-equal-work-$t.out" "$HF/summary-cells.json"); then
            printf 'agree  %-52s %s\n' "$name" "$same" >>"$AGREE"
        else
            printf 'DIFFER %-52s %s\n' "$name" "$same" >>"$AGREE"
        fi
    fi
done
if [[ $HAVE_JQ == 1 ]]; then
    if [[ $JQ_F == "$F" ]]; then
        agree "jq" "$(jq_counts "$JQ_F" | $UTIL verdicts)"
    else
        agree "jq (on the ${BENCH_JQ_MB} MB slice)" "$(jq_counts "$JQ_F" | $UTIL verdicts)" "$(ga_counts 2 "$JQ_F")"
    fi
fi

# --- peak memory -------------------------------------------------------------

if [[ $HAVE_TIME == 1 && -n ${BENCH_MEM_MB// /} ]]; then
    if [[ $HAVE_SUMMARY == 1 ]]; then MEM_CMD=(summary); else MEM_CMD=(report); fi
    for mb in $BENCH_MEM_MB; do
        mf=$(log_for "$mb")
        cat "$mf" >/dev/null
        for dedupe in "--no-dedupe" ""; do
            tv=$BENCH_DIR/time-v.txt
            # shellcheck disable=SC2086 # $dedupe is empty or one flag
            if /usr/bin/time -v "$BIN" --quiet --threads 2 "${MEM_CMD[@]}" $dedupe "$mf" >/dev/null 2>"$tv"; then
                rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tv")
                printf '%s\t%s\t%s\t%s\t%s\n' "$(stat -c %s "$mf")" "$(wc -l <"$mf")" "grounding-audit --threads 2 ${MEM_CMD[*]}" "${dedupe:-(dedupe)}" "$rss" >>"$MEM"
            else
                say "   /usr/bin/time -v ${MEM_CMD[*]} $dedupe on $mf failed; see $tv"
            fi
        done
    done
fi

# --- span dialects: OTLP/JSON as a collector batches it -----------------------

BENCH_OTLP_MB=${BENCH_OTLP_MB-"100 1000"}
OTLP_TABLE=""
if [[ -n ${BENCH_OTLP_MB// /} ]]; then
    OTLP_GEN_HASH=$(sha256sum scripts/gen-otlp.py | cut -c1-10)
    for mb in $BENCH_OTLP_MB; do
        of="$BENCH_DIR/otlp-${mb}MB-seed${BENCH_SEED}-gen${OTLP_GEN_HASH}.jsonl"
        if [[ ! -s $of ]]; then
            say "== generating $of"
            python3 scripts/gen-otlp.py "$of.tmp" "$mb" "$BENCH_SEED" 2>>"$LOG"
            mv "$of.tmp" "$of"
        fi
        cat "$of" >/dev/null
        json=$HF/otlp-$mb.json
        say "   summary on $of (threads 2)"
        if ! hyperfine -N --style basic --warmup "$BENCH_WARMUP" --runs "$BENCH_RUNS" --export-json "$json" \
            "$(printf '%q ' "$BIN" --quiet --threads 2 summary "$of")" >>"$LOG" 2>&1; then
            say "   summary on $of failed; see $LOG"
            continue
        fi
        rss=""
        if [[ $HAVE_TIME == 1 ]]; then
            tv=$BENCH_DIR/time-v.txt
            /usr/bin/time -v "$BIN" --quiet --threads 2 summary "$of" >/dev/null 2>"$tv" &&
                rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tv")
        fi
        OTLP_TABLE+=$($UTIL otlp-row "$json" "$(stat -c %s "$of")" "$rss")$'\n'
    done
fi

# --- report ------------------------------------------------------------------

rc=0
$UTIL table --results "$RES" --memory "$MEM" --agreement "$AGREE" --bytes "$BYTES" --lines "$LINES" \
    --rounds "$BENCH_ROUNDS" --runs "$BENCH_RUNS" --warmup "$BENCH_WARMUP" --summary "$HAVE_SUMMARY" --check "$HAVE_CHECK" \
    --log "$(basename "$F")" --profile "$BENCH_PROFILE" --load "$LOAD_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg)" || rc=$?

if [[ -n $OTLP_TABLE ]]; then
    printf '\nSpan dialect (OTLP/JSON, collector-batched, generated by scripts/gen-otlp.py): summary, 2 threads, hyperfine median of %s runs; peak RSS of one run\n\n' "$BENCH_RUNS"
    printf '| OTLP log | seconds | MB/s | peak RSS (MiB) |\n|---|---|---|---|\n'
    printf '%s' "$OTLP_TABLE"
fi
exit "$rc"

#!/usr/bin/env bash
# The throughput and memory benchmark of issue 7. Not part of CI.
#
# From a fresh clone: builds --release, generates a deterministic turn log
# under target/bench/ (reused when one with the same size, seed, agents and
# generator source exists), then times, round by round and interleaved, with
# a warm page cache:
#   grounding-audit summary, check --min-rate 0.5 (skipped until they exist),
#   report (one page), report --all --format csv  -- at --threads 1 and 2;
#   summary again on the same log with every field renamed, read through
#   --map-file (the mapped path; issue 12 wants it within 15 % of native);
#   wc -l (the floor); jq and DuckDB computing the same verdict counts.
# It prints a Markdown table of medians (seconds, MB/s, throughput relative to
# grounding-audit), checks that every tool agrees on the verdict counts, and
# measures peak RSS with /usr/bin/time -v.
#
# Environment (all optional):
#   BENCH_MB=500          size of the timed log in MB (10^6 bytes); BENCH_MB=50 for a quick run
#   BENCH_RUNS=3          rounds; the table shows medians
#   BENCH_SEED=42         generator seed
#   BENCH_AGENTS=12       generator agents
#   BENCH_JQ_MB=50        jq is timed on the first ~N MB of the log and scaled
#                         (jq runs at ~40 MB/s); >= BENCH_MB times the whole log; 0 skips jq
#   BENCH_MEM_MB="..."    log sizes (MB) for the peak-RSS lines; default "BENCH_MB 4*BENCH_MB"; "" skips
#   BENCH_INSTALL=1       install jq and time (apt-get) and duckdb (pip) when missing; 0 never installs
#   BENCH_DIR=target/bench
#   BENCH_OTLP_MB="100 1000"  sizes (MB) of generated collector-batched OTLP/JSON logs for the
#                         span-dialect rows (time and peak RSS of summary); "" skips
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH_MB=${BENCH_MB:-500}
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_SEED=${BENCH_SEED:-42}
BENCH_AGENTS=${BENCH_AGENTS:-12}
BENCH_JQ_MB=${BENCH_JQ_MB:-50}
BENCH_MEM_MB=${BENCH_MEM_MB-"$BENCH_MB $((BENCH_MB * 4))"}
BENCH_INSTALL=${BENCH_INSTALL:-1}
BENCH_DIR=${BENCH_DIR:-target/bench}
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/grounding-audit
GEN=${CARGO_TARGET_DIR:-$ROOT/target}/release/ga-generate
UTIL="python3 $ROOT/scripts/bench-report.py"

mkdir -p "$BENCH_DIR"
LOG=$BENCH_DIR/bench.log
RES=$BENCH_DIR/times.tsv
MEM=$BENCH_DIR/memory.tsv
AGREE=$BENCH_DIR/agreement.txt
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

say "== building (cargo build --release: grounding-audit and the log generator, benches/generate)"
cargo build --release --quiet -p grounding-audit -p ga-generate

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

# measure NAME THREADS BYTES ALLOWED_RC CMD...: one timed run (wall time, and
# CPU time user+sys when /usr/bin/time exists), appended to $RES.
measure() {
    local name=$1 threads=$2 bytes=$3 allowed=$4
    shift 4
    local t0 t1 rc=0 cpu=-1 tf=$BENCH_DIR/cpu.txt
    t0=$(now)
    if [[ $HAVE_TIME == 1 ]]; then
        /usr/bin/time -f '%U %S' -o "$tf" "$@" >/dev/null 2>>"$LOG" || rc=$?
    else
        "$@" >/dev/null 2>>"$LOG" || rc=$?
    fi
    t1=$(now)
    if ((rc > allowed)); then
        say "   $name (threads $threads) failed with exit $rc; see $LOG"
        return 0
    fi
    if [[ $HAVE_TIME == 1 ]]; then
        cpu=$(awk 'END { printf "%d", ($(NF - 1) + $NF) * 1e9 }' "$tf")
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$threads" "$((t1 - t0))" "$bytes" "$cpu" >>"$RES"
}
jq_counts() { jq -n -c -f "$ROOT/scripts/bench-verdicts.jq" "$1"; }
DUCK_COUNTS=""
duckdb_run() {
    local threads=$1 out
    if ! out=$(python3 "$ROOT/scripts/bench-duckdb.py" "$F" "$threads" 2>>"$LOG"); then
        say "   DuckDB (threads $threads) failed; see $LOG"
        return 0
    fi
    # The query's own wall and CPU time: interpreter start-up and `import duckdb` are left out.
    local wall cpu
    read -r wall cpu DUCK_COUNTS <<<"$out"
    printf 'duckdb (Python API)\t%s\t%s\t%s\t%s\n' "$threads" "$(awk -v s="$wall" 'BEGIN { printf "%d", s * 1e9 }')" "$BYTES" \
        "$(awk -v s="$cpu" 'BEGIN { printf "%d", s * 1e9 }')" >>"$RES"
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
say "== warming the page cache (load average: $LOAD_BEFORE)"
cat "$F" "$JQ_F" "$MAPPED_F" >/dev/null

for ((r = 1; r <= BENCH_RUNS; r++)); do
    say "== round $r/$BENCH_RUNS"
    for t in 1 2; do
        if [[ $HAVE_SUMMARY == 1 ]]; then
            measure "grounding-audit summary" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" summary "$F"
        fi
        if [[ $HAVE_CHECK == 1 ]]; then
            measure "grounding-audit check --min-rate 0.5" "$t" "$BYTES" 1 "$BIN" --quiet --threads "$t" check --min-rate 0.5 "$F"
        fi
        measure "grounding-audit summary --map-file (mapped log)" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" summary --map-file "$MAP_FILE" "$MAPPED_F"
        measure "grounding-audit report" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" report "$F"
        measure "grounding-audit report --all --format csv" "$t" "$BYTES" 0 "$BIN" --quiet --threads "$t" report --all --format csv "$F"
    done
    measure "wc -l" 1 "$BYTES" 0 wc -l "$F"
    if [[ $HAVE_JQ == 1 ]]; then
        measure "jq (one program per line)" 1 "$JQ_BYTES" 0 jq -n -c -f "$ROOT/scripts/bench-verdicts.jq" "$JQ_F"
    fi
    if [[ $HAVE_DUCKDB == 1 ]]; then
        duckdb_run 1
        duckdb_run 2
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
    agree "grounding-audit check --format json" "$("$BIN" --quiet check --min-rate 0.5 --format json "$F" | $UTIL verdicts || true)"
fi
if [[ $HAVE_DUCKDB == 1 && -n $DUCK_COUNTS ]]; then
    agree "duckdb" "$(printf '%s' "$DUCK_COUNTS" | $UTIL verdicts)"
fi
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
if [[ $HAVE_TIME == 1 && -n ${BENCH_OTLP_MB// /} ]]; then
    OTLP_GEN_HASH=$(sha256sum scripts/gen-otlp.py | cut -c1-10)
    for mb in $BENCH_OTLP_MB; do
        of="$BENCH_DIR/otlp-${mb}MB-seed${BENCH_SEED}-gen${OTLP_GEN_HASH}.jsonl"
        if [[ ! -s $of ]]; then
            say "== generating $of"
            python3 scripts/gen-otlp.py "$of.tmp" "$mb" "$BENCH_SEED" 2>>"$LOG"
            mv "$of.tmp" "$of"
        fi
        cat "$of" >/dev/null
        tv=$BENCH_DIR/time-v.txt
        best=""
        for ((r = 1; r <= BENCH_RUNS; r++)); do
            if /usr/bin/time -v "$BIN" --quiet --threads 2 summary "$of" >/dev/null 2>"$tv"; then
                wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$tv")
                rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tv")
                best+="$wall $rss"$'\n'
            else
                say "   summary on $of failed; see $tv"
            fi
        done
        if [[ -n $best ]]; then
            OTLP_TABLE+=$(printf '%s' "$best" | sort -n | awk -v b="$(stat -c %s "$of")" -v n="$BENCH_RUNS" '
                { w[NR] = $1; r[NR] = $2 } END {
                    m = w[int((NR + 1) / 2)]; rss = r[int((NR + 1) / 2)]
                    printf "| %.0f MB | %.2f | %.0f | %.1f |\n", b / 1e6, m, b / 1e6 / m, rss / 1024 }')$'\n'
        fi
    done
fi

# --- report ------------------------------------------------------------------

$UTIL table --results "$RES" --memory "$MEM" --agreement "$AGREE" --bytes "$BYTES" --lines "$LINES" \
    --jq-bytes "$JQ_BYTES" --runs "$BENCH_RUNS" --summary "$HAVE_SUMMARY" --check "$HAVE_CHECK" \
    --log "$(basename "$F")" --load "$LOAD_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ -n $OTLP_TABLE ]]; then
    printf '\nSpan dialect (OTLP/JSON, collector-batched, generated by scripts/gen-otlp.py): summary, 2 threads, median of %s\n\n' "$BENCH_RUNS"
    printf '| OTLP log | seconds | MB/s | peak RSS (MiB) |\n|---|---|---|---|\n'
    printf '%s' "$OTLP_TABLE"
fi

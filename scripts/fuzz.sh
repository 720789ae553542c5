#!/usr/bin/env bash
# Runs the fuzz targets (.ci/run only type-checks them). Needs cargo-fuzz
# (`cargo install cargo-fuzz`); only stable Rust is assumed, so the nightly
# flags cargo-fuzz passes are enabled with RUSTC_BOOTSTRAP=1.
#
#   scripts/fuzz.sh                 # every target, 600 s each, one after another
#   scripts/fuzz.sh parse_line 60   # one target, 60 s
#
# The corpus is seeded from the fixtures (one file per line; for `spans`
# and `exports` also every line and every whole file of ../shared/traces,
# for `agentfootprint_diff` every event line of ../shared/agentfootprint,
# when present) and kept in fuzz/corpus/<target> between runs; crashes land
# in fuzz/artifacts/<target>.
# A crash found here belongs in fuzz/regressions/<target>/ and as a unit test.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1

targets=(parse_line native_diff mapped_diff agentfootprint_diff markers spans exports documents message_text)
if [[ $# -ge 1 ]]; then targets=("$1"); fi
seconds="${2:-600}"
extra=()
if [[ -n "${FUZZ_JOBS:-}" ]]; then extra=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS"); fi

seed() {
    local dir="fuzz/corpus/$1"
    mkdir -p "$dir"
    local i=0
    while IFS= read -r -d '' f; do
        case "$f" in
            *.gz|*.zst) continue ;;
        esac
        while IFS= read -r line || [[ -n "$line" ]]; do
            i=$((i + 1))
            if [[ "$1" == markers ]]; then
                # The marker target reads one chunk-count byte, then text.
                printf '\003%s' "$line" > "$dir/seed-$i"
            elif [[ "$1" == mapped_diff ]]; then
                # The mapped target reads one map-choosing byte ('0'-'4'), then the line.
                printf '%d%s' $((i % 5)) "$line" > "$dir/seed-$i"
            else
                printf '%s' "$line" > "$dir/seed-$i"
            fi
        done < "$f"
    done < <(find fixtures -type f \( -name '*.jsonl' -o -name '*.ndjson' \) -print0 | sort -z)
    if [[ ( "$1" == spans || "$1" == exports ) && -d ../shared/traces ]]; then
        # Whole exports (documents) and their lines (OTLP requests, spans,
        # LangSmith runs, Langfuse observations).
        while IFS= read -r -d '' f; do
            i=$((i + 1))
            head -c 65536 "$f" > "$dir/seed-$i"
            while IFS= read -r line || [[ -n "$line" ]]; do
                i=$((i + 1))
                printf '%s' "${line:0:65536}" > "$dir/seed-$i"
            done < "$f"
        done < <(find ../shared/traces -type f \( -name '*.jsonl' -o -name '*.json' \) \
                    -not -path '*/raw/*' -print0 | sort -z)
    fi
    if [[ "$1" == documents || "$1" == message_text ]]; then
        # Whole real exports (the corpus, and ../shared/external when
        # present); for the message-text finder also their lines.
        while IFS= read -r -d '' f; do
            i=$((i + 1))
            head -c 65536 "$f" > "$dir/seed-$i"
            if [[ "$1" == message_text ]]; then
                while IFS= read -r line || [[ -n "$line" ]]; do
                    i=$((i + 1))
                    printf '%s' "${line:0:65536}" > "$dir/seed-$i"
                done < "$f"
            fi
        done < <(find tests/corpus ../shared/external -type f \( -name '*.json' -o -name '*.jsonl' \) \
                    -print0 2>/dev/null | sort -z)
    fi
    if [[ "$1" == agentfootprint_diff && -d ../shared/agentfootprint ]]; then
        # Event lines of the shared captures.
        while IFS= read -r -d '' f; do
            while IFS= read -r line || [[ -n "$line" ]]; do
                i=$((i + 1))
                printf '%s' "${line:0:65536}" > "$dir/seed-$i"
            done < "$f"
        done < <(find ../shared/agentfootprint -type f \( -name '*.ndjson' -o -name '*.jsonl' \) -print0 | sort -z)
    fi
    if [[ -d "fuzz/regressions/$1" ]]; then
        cp fuzz/regressions/"$1"/* "$dir"/ 2>/dev/null || true
    fi
}

for t in "${targets[@]}"; do
    seed "$t"
    echo "== fuzzing $t for ${seconds}s"
    # First replay the committed regressions: each must pass.
    if [[ -d "fuzz/regressions/$t" ]] && compgen -G "fuzz/regressions/$t/*" > /dev/null; then
        cargo fuzz run "$t" fuzz/regressions/"$t"/* -- -runs=0
    fi
    cargo fuzz run "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 "${extra[@]}"
done

#!/usr/bin/env bash
# Two binaries, the same outputs: every file under fixtures/ and tests/corpus/
# read by inspect, report (csv, json, all rows), summary (json, csv
# sections, markdown), check (json) and convert, with stdout, stderr and the
# exit code compared byte for byte. For changes that must not change
# behaviour (a refactor, a move between crates).
#
#   scripts/same-output.sh OLD_BINARY NEW_BINARY
#
# Prints the runs that differ and exits 1 if any does.
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1
new=$2
runs=0
differ=0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
while IFS= read -r -d '' f; do
    case "$f" in *.md | *LICENSE* | */expectations.json) continue ;; esac
    for args in \
        "inspect" \
        "report --all --format csv" \
        "report --all --format json" \
        "summary --format json" \
        "summary --format markdown" \
        "summary --format csv --section triage" \
        "check --min-rate 0 --format json" \
        "convert --to turns"; do
        runs=$((runs + 1))
        # shellcheck disable=SC2086 # the arguments are words
        for side in old new; do
            bin=$old
            [ "$side" = new ] && bin=$new
            TZ=UTC "$bin" $args "$f" >"$out/$side.out" 2>"$out/$side.err"
            echo "exit $?" >>"$out/$side.err"
        done
        if ! cmp -s "$out/old.out" "$out/new.out" || ! cmp -s "$out/old.err" "$out/new.err"; then
            differ=$((differ + 1))
            echo "differs: $args $f"
        fi
    done
done < <(find fixtures tests/corpus -type f -print0 | sort -z)
echo "$runs runs, $differ differ"
[ "$differ" = 0 ]

#!/usr/bin/env bash
# A platform engineer wiring CI: a gate on every agent, a JUnit report for
# the test tab, and a baseline that later runs must not fall below.
# Run from the repository root: GA=target/debug/grounding-audit examples/roles/ci.sh
set -euo pipefail
GA=${GA:-grounding-audit}
LOG=${1:-fixtures/demo.jsonl}
OUT=${OUT:-$(mktemp -d)}

echo "## 1. The gate: every agent at 0.6 or better, and no invented citation"
code=0
"$GA" check "$LOG" --min-rate 0.6 --per-agent --max-orphans 0 \
    --junit "$OUT/junit.xml" || code=$?
echo "exit $code"

echo "## 2. A first baseline, from a run that passes"
"$GA" check "$LOG" --min-rate 0.6 --write-baseline "$OUT/baseline.json"

echo "## 3. Later runs: no agent may drop more than 0.1 below the baseline"
"$GA" check "$LOG" --baseline "$OUT/baseline.json" --max-drop 0.1

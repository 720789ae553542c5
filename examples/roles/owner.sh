#!/usr/bin/env bash
# An owner before the weekly meeting: how grounded are the agents, which is
# worst, did the last two days get worse, and a page to show.
# Run from the repository root: GA=target/debug/grounding-audit examples/roles/owner.sh
set -euo pipefail
GA=${GA:-grounding-audit}
LOG=${1:-fixtures/demo.jsonl}
OUT=${OUT:-$(mktemp -d)}

echo "## 1. The last two days against the two before, per agent"
"$GA" summary "$LOG" --since 2d --now 2026-08-04T00:00:00Z --compare-previous

echo "## 2. The agents, for a spreadsheet"
"$GA" summary "$LOG" --format csv --section groups

echo "## 3. The page to share"
"$GA" summary "$LOG" --html "$OUT/grounding.html" --min-rate 0.8 > /dev/null
echo "wrote $OUT/grounding.html"

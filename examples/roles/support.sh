#!/usr/bin/env bash
# A support engineer with a complaint: a billing-bot customer in Berlin says
# the answer they got on the morning of 2 August was made up.
# Run from the repository root: GA=target/debug/grounding-audit examples/roles/support.sh
set -euo pipefail
GA=${GA:-grounding-audit}
LOG=${1:-fixtures/demo.jsonl}

echo "## 1. The agent's ungrounded turns that day, in the customer's time zone"
"$GA" report "$LOG" --tz Europe/Berlin --from 2026-08-02 --to 2026-08-03 \
    --agent billing-bot --verdict no_marker --verdict orphan_marker

echo "## 2. The turn from mid-morning: its verdict, why, and what the model was shown"
"$GA" explain t-11 "$LOG" --tz Europe/Berlin --show-text

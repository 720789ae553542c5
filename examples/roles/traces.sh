#!/usr/bin/env bash
# An ML engineer with traces: a Phoenix (OpenInference) span export. What is
# it, how do its turns grade, what did one turn see, and the verdicts
# written back as Phoenix annotations.
# Run from the repository root: GA=target/debug/grounding-audit examples/roles/traces.sh
set -euo pipefail
GA=${GA:-grounding-audit}
SPANS=${1:-../shared/traces/phoenix-openinference-langchain/spans.jsonl}

echo "## 1. What the file is and how to grade it"
"$GA" inspect "$SPANS"

echo "## 2. The turns, graded"
"$GA" report "$SPANS" --columns turn_id,agent_id,verdict,cited_chunks,chunk_count

echo "## 3. One invented citation, with the question and the chunks"
turn=$("$GA" report "$SPANS" --verdict orphan_marker --format jsonl --limit 1 | sed 's/^{"turn_id":"\([^"]*\)".*/\1/')
"$GA" explain "$turn" "$SPANS" --show-text

echo "## 4. The verdicts as Phoenix span annotations"
"$GA" convert "$SPANS" --to phoenix-annotations | sed -n 1,2p

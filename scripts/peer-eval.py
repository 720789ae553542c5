#!/usr/bin/env python3
"""The deterministic checks of other packages beside grounding-audit's, on
the same human labels (docs/hints.md, "Peers on the same labels").

usage: scripts/peer-eval.py BINARY [ATTRIBUTION_DEV_DIR]

Units and labels as docs/hints.md measures the hints: each labelled
`sentence` or `claim` that cites at least one chunk, all of whose cited
chunks have text; positive = labelled `unsupported` or `partial`. A check
flags a unit; precision = flagged positives / flagged, recall = flagged
positives / positives. Rows:

- grounding-audit's quote classes: the unit holds a quotation classed
  misattributed, stitched or fabricated (`evidence` support.quotes);
- Ragas `quoted_spans_alignment` (ragas.metrics.quoted_spans, no model):
  the unit holds a quoted span of at least 3 words (its default) that its
  cited chunks, joined and normalised as Ragas does, do not hold.

Needs `ragas` importable (.ci/run's judges environment has it).
"""

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from ragas.metrics.quoted_spans import quoted_spans_alignment

binary = sys.argv[1]
dev = Path(sys.argv[2] if len(sys.argv) > 2 else Path(__file__).resolve().parents[1] / "../shared/attribution/dev")
turns = {}
for line in open(dev / "turns.jsonl", encoding="utf-8"):
    t = json.loads(line)
    turns[t["turn_id"]] = t

ev = subprocess.run([binary, "evidence", str(dev / "turns.jsonl")], capture_output=True, text=True, check=True)
quotes = defaultdict(list)
for line in ev.stdout.splitlines():
    r = json.loads(line)
    s = r["support"]
    for q in s.get("quotes", []):
        if q["quote"] in ("misattributed", "stitched", "fabricated"):
            quotes[r["turn_id"]].append(q["start"])

def ragas_flags(text, chunks):
    got = quoted_spans_alignment([text], [chunks])
    return got["total"] > 0 and got["matched"] < got["total"]


rows = defaultdict(lambda: defaultdict(lambda: [0, 0]))  # check -> dataset -> [flagged, flagged positive]
positives = defaultdict(int)
units = defaultdict(int)
for line in open(dev / "labels.jsonl", encoding="utf-8"):
    u = json.loads(line)
    if u["unit"] not in ("sentence", "claim") or not u["cited"]:
        continue
    t = turns[u["turn_id"]]
    chunks = [t["grounding"]["chunks"][i - 1].get("content") for i in u["cited"] if i - 1 < len(t["grounding"]["chunks"])]
    if len(chunks) != len(u["cited"]) or not all(isinstance(c, str) for c in chunks):
        continue
    ds = u["dataset"]
    pos = u["label"] in ("unsupported", "partial")
    units[ds] += 1
    positives[ds] += pos
    text = u["text"]
    flags = {
        "grounding-audit quote classes": any(u["start"] <= s < u["end"] for s in quotes[u["turn_id"]]),
        "Ragas quoted_spans_alignment": ragas_flags(text, chunks),
    }
    for check, flagged in flags.items():
        if flagged:
            rows[check][ds][0] += 1
            rows[check][ds][1] += pos

sets = ["hagrid", "expertqa", "wice", "attributionbench"]


def cell(f, tp, p):
    prec = f"{tp / f:.2f}" if f else "–"
    return f"{f}, {prec}, {tp / p:.3f}" if p else f"{f}, {prec}, –"


print(f"units {sum(units.values())}, positives {sum(positives.values())}: " +
      ", ".join(f"{d} {positives[d]} of {units[d]}" for d in sets))
print("| check | all | HAGRID | ExpertQA | WiCE | AttributionBench |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for check, by in rows.items():
    f = sum(v[0] for v in by.values())
    tp = sum(v[1] for v in by.values())
    cells = [cell(f, tp, sum(positives.values()))] + [cell(by[d][0], by[d][1], positives[d]) for d in sets]
    print(f"| {check} | " + " | ".join(cells) + " |")

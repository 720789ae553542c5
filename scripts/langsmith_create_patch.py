#!/usr/bin/env python3
"""Writes fixtures/langsmith/create_patch.jsonl: turn 1 of the genuine
LangSmith capture (../shared/traces/langsmith-langchain/ingest_parts.jsonl)
as the SDK sent it, one run dict per create (`post`) or update (`patch`)
payload with its field parts folded in, in arrival order. The root and the
retriever arrive twice: created with `outputs: {}`, then patched with their
outputs and end time. A reader must merge the two by run id.
"""
import json, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "traces")
TRACE = "01a22ba1-f55e-731e-8981-b9b09fdcc14b"

payloads, order = {}, []
for line in open(os.path.join(TRACES, "langsmith-langchain", "ingest_parts.jsonl")):
    p = json.loads(line)
    key = (p["op"], p["run_id"])
    if key not in payloads:
        payloads[key] = {}
        order.append(key)
    if p["field"] is None:
        payloads[key].update(p["value"])
    else:
        payloads[key][p["field"]] = p["value"]
with open(os.path.join(ROOT, "fixtures", "langsmith", "create_patch.jsonl"), "w") as f:
    for key in order:
        run = payloads[key]
        if run.get("trace_id") == TRACE:
            run.pop("serialized", None)
            f.write(json.dumps(run) + "\n")

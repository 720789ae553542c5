#!/usr/bin/env python3
"""Writes the small Parquet fixtures the tests read (needs pyarrow; the
files are committed, so CI does not need it):

- fixtures/langsmith/runs.parquet: the genuine LangSmith capture
  ../shared/traces/langsmith-langchain/runs.jsonl in the bulk-export shape
  (one column per Run field; `inputs`, `outputs`, `extra`, `events` as JSON
  strings, documented as "(JSON)"; times as timestamp[us] without a zone;
  zstd, the export's default codec). A real bulk export was not available.
- fixtures/langfuse/observations_v2.parquet: the hand-made blob-export rows
  of fixtures/langfuse/observations_v2/ (snappy, pyarrow's default), times
  as strings as in the JSON export.

Usage: python3 scripts/parquet_fixtures.py [path/to/shared/traces]
"""
import datetime, glob, gzip, json, os, sys

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "traces")
JSON_COLUMNS = ("inputs", "outputs", "extra", "events", "serialized", "tags", "attachments",
                "child_run_ids", "parent_run_ids", "feedback_stats", "prompt_token_details",
                "completion_token_details", "prompt_cost_details", "completion_cost_details",
                "child_runs", "manifest_id")

def ts(v):
    if v is None:
        return None
    return datetime.datetime.fromisoformat(v.replace("Z", "+00:00")).replace(tzinfo=None)

runs = [json.loads(l) for l in open(os.path.join(TRACES, "langsmith-langchain", "runs.jsonl"))]
cols = {}
for k in runs[0]:
    vals = [r.get(k) for r in runs]
    if k in ("start_time", "end_time", "first_token_time"):
        cols[k] = pa.array([ts(v) for v in vals], pa.timestamp("us"))
    elif k in JSON_COLUMNS:
        cols[k] = pa.array([None if v is None else json.dumps(v) for v in vals], pa.string())
    elif k in ("prompt_tokens", "completion_tokens", "total_tokens"):
        cols[k] = pa.array(vals, pa.int64())
    elif k in ("total_cost", "prompt_cost", "completion_cost"):
        cols[k] = pa.array([None if v is None else str(v) for v in vals], pa.string())
    elif k == "in_dataset":
        cols[k] = pa.array(vals, pa.bool_())
    else:
        cols[k] = pa.array([None if v is None else str(v) for v in vals], pa.string())
os.makedirs(os.path.join(ROOT, "fixtures", "langsmith"), exist_ok=True)
pq.write_table(pa.table(cols), os.path.join(ROOT, "fixtures", "langsmith", "runs.parquet"),
               compression="zstd", row_group_size=12)

rows, seen = [], set()
for f in sorted(glob.glob(os.path.join(ROOT, "fixtures", "langfuse", "observations_v2", "*"))):
    data = gzip.open(f).read() if f.endswith(".gz") else open(f, "rb").read()
    for line in data.decode().splitlines():
        r = json.loads(line)
        if r["id"] not in seen:
            seen.add(r["id"])
            rows.append(r)
for r in rows:
    for k in ("metadata", "usage_details", "cost_details"):
        r[k] = json.dumps(r[k])
pq.write_table(pa.Table.from_pylist(rows),
               os.path.join(ROOT, "fixtures", "langfuse", "observations_v2.parquet"), row_group_size=5)

#!/usr/bin/env python3
"""Verdict counts of a turn log computed by DuckDB, for scripts/bench.sh.

Usage: bench-duckdb.py LOG.jsonl THREADS

Same rules as issue 2 with the default `kb` grammar: explicit schema (only the
fields the rules need), `[KB-N]` markers found with a regex on the decoded
reply, citations as the fallback when there is no reply. Prints one line:
the query's wall time and CPU time (all threads) in seconds (interpreter
start-up and `import duckdb` excluded), then the counts as JSON.
"""
import json
import sys
import time

import duckdb

QUERY = r"""
WITH t AS (
  SELECT
    coalesce(len(grounding.chunks), 0) AS n,
    CASE
      WHEN reply IS NOT NULL THEN
        list_transform(regexp_extract_all(reply, '\[KB-(\d+)\]', 1), lambda x: TRY_CAST(x AS UBIGINT))
      WHEN grounding.citations IS NOT NULL THEN
        list_transform(grounding.citations, lambda c: TRY_CAST(c."index" AS UBIGINT))
      ELSE NULL
    END AS m
  FROM read_ndjson(?, columns = {
    'type': 'VARCHAR',
    'reply': 'VARCHAR',
    'grounding': 'STRUCT(chunks STRUCT(score DOUBLE)[], citations STRUCT("index" BIGINT)[])'
  })
  WHERE type IS NULL OR type = 'turn'
), g AS (
  SELECT n, m, len(list_filter(m, lambda x: x BETWEEN 1 AND n)) AS in_range FROM t
)
SELECT
  CASE
    WHEN m IS NULL THEN 'unobserved'
    WHEN len(m) > 0 AND (n = 0 OR in_range = 0) THEN 'orphan_marker'
    WHEN n > 0 AND in_range > 0 THEN 'ok'
    WHEN n > 0 THEN 'no_marker'
    ELSE 'empty_retrieval'
  END AS verdict,
  count(*) AS turns
FROM g
GROUP BY 1
"""


def main() -> None:
    path, threads = sys.argv[1], int(sys.argv[2])
    con = duckdb.connect()
    con.execute(f"SET threads TO {threads}")
    start, cpu = time.perf_counter(), time.process_time()
    rows = con.execute(QUERY, [path]).fetchall()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    counts = {v: 0 for v in ("ok", "no_marker", "orphan_marker", "empty_retrieval", "unobserved")}
    counts.update({v: n for v, n in rows})
    print(f"{elapsed:.4f} {cpu:.4f} {json.dumps(counts, sort_keys=True)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""DuckDB's side of scripts/bench.sh: two queries over a turn log, timed inside Python.

Usage: bench-duckdb.py QUERY LOG.jsonl --threads N --runs N --warmup N --export-json FILE

QUERY is one of
  verdicts    the five verdict counts of the whole log: a light query that reads
              only the reply and the chunk and citation lists;
  equal-work  the work `summary` does for its per-agent and per-day tables: reads
              turn id, agent, created_at, reply and the chunks with their scores,
              drops repeated turn ids, and computes per agent and UTC day the
              turns, turns with retrieval, verdict counts, chunks retrieved and
              cited, and citations of chunks scored below 0.5 (`--low-score`).

Both follow the rules of issue 2 with the default `kb` grammar: explicit schema,
`[KB-N]` markers found with a regex on the decoded reply, citations as the
fallback when there is no reply. The query runs WARMUP + RUNS times in this one
process; only the query is timed (interpreter start-up and `import duckdb` are
left out). FILE gets the timings in the shape of hyperfine's `--export-json`
(times, median, mean, user and system CPU seconds), so scripts/bench-report.py
reads both the same way. Stdout gets the answer, for the agreement check:
the verdict counts as JSON, or (equal-work) the canonical per-agent and
per-agent-day document that `bench-report.py cells` makes of `summary --format json`.
"""
import argparse
import json
import os
import statistics
import time

import duckdb

VERDICTS = ("ok", "no_marker", "orphan_marker", "empty_retrieval", "unobserved")

# The markers of a turn (NULL: no answer observed) and the chunk count.
MARKERS = r"""
    coalesce(len(grounding.chunks), 0) AS n,
    CASE
      WHEN reply IS NOT NULL THEN
        list_transform(regexp_extract_all(reply, '\[KB-(\d+)\]', 1), lambda x: TRY_CAST(x AS UBIGINT))
      WHEN grounding.citations IS NOT NULL THEN
        list_transform(grounding.citations, lambda c: TRY_CAST(c."index" AS UBIGINT))
      ELSE NULL
    END AS m"""

# The verdict of a turn from m, n and its distinct in-range markers `cited`.
VERDICT = """
    CASE
      WHEN m IS NULL THEN 'unobserved'
      WHEN len(m) > 0 AND (n = 0 OR len(cited) = 0) THEN 'orphan_marker'
      WHEN n > 0 AND len(cited) > 0 THEN 'ok'
      WHEN n > 0 THEN 'no_marker'
      ELSE 'empty_retrieval'
    END AS verdict"""

QUERIES = {
    "verdicts": rf"""
WITH t AS (
  SELECT {MARKERS}
  FROM read_ndjson(?, columns = {{
    'type': 'VARCHAR',
    'reply': 'VARCHAR',
    'grounding': 'STRUCT(chunks STRUCT(score DOUBLE)[], citations STRUCT("index" BIGINT)[])'
  }})
  WHERE type IS NULL OR type = 'turn'
), g AS (
  SELECT n, m, list_filter(m, lambda x: x BETWEEN 1 AND n) AS cited FROM t
)
SELECT {VERDICT}, count(*) AS turns
FROM g
GROUP BY 1
""",
    "equal-work": rf"""
WITH t AS (
  SELECT turn_id, agent_id AS agent, CAST(created_at AS DATE) AS day,
    grounding.chunks AS chunks, {MARKERS}
  FROM read_ndjson(?, columns = {{
    'type': 'VARCHAR',
    'turn_id': 'VARCHAR',
    'agent_id': 'VARCHAR',
    'created_at': 'TIMESTAMPTZ',
    'reply': 'VARCHAR',
    'grounding': 'STRUCT(chunks STRUCT(score DOUBLE)[], citations STRUCT("index" BIGINT)[])'
  }})
  WHERE type IS NULL OR type = 'turn'
), g AS (
  SELECT turn_id, agent, day, n, m, chunks,
    list_distinct(list_filter(m, lambda x: x BETWEEN 1 AND n)) AS cited
  FROM t
), v AS (
  SELECT turn_id, agent, day, n, len(cited) AS n_cited,
    len(list_filter(cited, lambda i: chunks[i::BIGINT].score < 0.5)) AS low, {VERDICT}
  FROM g
), d AS (
  -- de-duplication by turn id, as `summary` does by default
  SELECT any_value(agent) AS agent, any_value(day) AS day, any_value(n) AS n,
    any_value(n_cited) AS n_cited, any_value(low) AS low, any_value(verdict) AS verdict
  FROM v
  GROUP BY turn_id
), r AS (
  SELECT *, verdict <> 'unobserved' AND n > 0 AS with_retrieval FROM d
)
SELECT agent, strftime(day, '%Y-%m-%d') AS day, verdict,
  count(*) AS turns,
  count(*) FILTER (WHERE with_retrieval) AS with_retrieval,
  coalesce(sum(n) FILTER (WHERE with_retrieval), 0) AS chunks_retrieved,
  coalesce(sum(n_cited) FILTER (WHERE with_retrieval), 0) AS chunks_cited,
  coalesce(sum(low) FILTER (WHERE with_retrieval), 0) AS low_confidence_citations
FROM r
GROUP BY ALL
""",
}


def verdict_counts(rows):
    counts = {v: 0 for v in VERDICTS}
    counts.update({v: n for v, n in rows})
    return counts


def cells(rows):
    """The canonical per-agent and per-agent-day document (see bench-report.py cells)."""
    agents, days = {}, {}
    for agent, day, verdict, turns, with_retrieval, retrieved, cited, low in rows:
        a = agents.setdefault(
            agent,
            {**{v: 0 for v in VERDICTS}, "chunks_retrieved": 0, "chunks_cited": 0, "low_confidence_citations": 0},
        )
        a[verdict] += turns
        a["chunks_retrieved"] += int(retrieved)
        a["chunks_cited"] += int(cited)
        a["low_confidence_citations"] += int(low)
        cell = days.setdefault(agent, {}).setdefault(day, [0, 0, 0])
        cell[0] += turns
        cell[1] += with_retrieval
        cell[2] += turns if verdict == "ok" else 0
    return {"agents": agents, "agent_days": days}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("query", choices=sorted(QUERIES))
    p.add_argument("log")
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--export-json", required=True)
    a = p.parse_args()

    con = duckdb.connect()
    con.execute(f"SET threads TO {a.threads}")
    con.execute("SET TimeZone = 'UTC'")
    sql = QUERIES[a.query]
    times, users, systems = [], [], []
    for i in range(a.warmup + a.runs):
        t0, c0 = time.perf_counter(), os.times()
        rows = con.execute(sql, [a.log]).fetchall()
        t1, c1 = time.perf_counter(), os.times()
        if i >= a.warmup:
            times.append(t1 - t0)
            users.append(c1.user - c0.user)
            systems.append(c1.system - c0.system)
    name = {"verdicts": "duckdb verdict counts", "equal-work": "duckdb equal work"}[a.query]
    result = {
        "command": name,
        "mean": statistics.mean(times),
        "median": statistics.median(times),
        "min": min(times),
        "max": max(times),
        "user": statistics.mean(users),
        "system": statistics.mean(systems),
        "times": times,
    }
    with open(a.export_json, "w") as f:
        json.dump({"results": [result]}, f, indent=2)
    answer = verdict_counts(rows) if a.query == "verdicts" else cells(rows)
    print(json.dumps(answer, sort_keys=True, separators=(",", ":")))


if __name__ == "__main__":
    main()

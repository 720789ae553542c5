#!/usr/bin/env python3
"""Helpers of scripts/bench.sh.

  bench-report.py verdicts < DOC   prints the five verdict counts of DOC as canonical JSON.
      DOC is a counts object (jq, DuckDB), a `summary`/`check` JSON document (the
      shallowest object holding all five verdicts wins), or the output of
      `report --all --format json`, which may be huge: only its tail is kept and
      the `"summary":` object near the end is read.
  bench-report.py cells < DOC      prints the per-agent and per-agent-day document of a
      `summary --format json` DOC (grouped by agent, trend by day), in the canonical
      form scripts/bench-duckdb.py prints for its equal-work query.
  bench-report.py same A B         compares two such documents: prints what agreed (exit 0)
      or the first difference (exit 1).
  bench-report.py otlp-row JSON BYTES RSS_KB   one row of the span-dialect table.
  bench-report.py table ...        prints the Markdown report (see bench.sh) from the
      hyperfine exports (`--export-json`) listed in --results.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from collections import OrderedDict

VERDICTS = ("ok", "no_marker", "orphan_marker", "empty_retrieval", "unobserved")
KEEP = 8 << 20


def canonical(counts):
    return json.dumps({v: int(counts.get(v, 0)) for v in sorted(VERDICTS)}, separators=(",", ":"))


def find_counts(doc):
    """Breadth-first: the shallowest dict holding all five verdict keys."""
    queue = [doc]
    while queue:
        node = queue.pop(0)
        if isinstance(node, dict):
            if all(isinstance(node.get(v), int) for v in VERDICTS):
                return node
            queue.extend(node.values())
        elif isinstance(node, list):
            queue.extend(node)
    return None


def verdicts():
    data = bytearray()
    truncated = False
    stream = sys.stdin.buffer
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            break
        data += chunk
        if len(data) > 2 * KEEP:
            del data[: len(data) - KEEP]
            truncated = True
    text = data.decode("utf-8", errors="replace")
    counts = None
    if not truncated:
        try:
            counts = find_counts(json.loads(text))
        except ValueError:
            counts = None
    if counts is None:
        at = text.rfind('"summary":')
        if at >= 0:
            summary, _ = json.JSONDecoder().raw_decode(text[at + len('"summary":') :])
            counts = find_counts(summary)
    if counts is None:
        sys.exit("bench-report.py: no verdict counts found in the input")
    print(canonical(counts))


def cells():
    doc = json.load(sys.stdin)
    if doc.get("group_by") != "agent" or doc.get("bucket") != "day" or doc.get("tz") != "UTC":
        sys.exit("bench-report.py cells: expected a summary grouped by agent, by UTC day")
    agents = {}
    for g in doc["groups"]:
        use = g["retrieval_use"]
        agents[g["key"]] = {
            **{v: g["verdicts"][v] for v in VERDICTS},
            "chunks_retrieved": use["chunks_retrieved"],
            "chunks_cited": use["chunks_cited"],
            "low_confidence_citations": use["low_confidence_citations"],
        }
    days = {}
    for c in doc["group_days"]:
        days.setdefault(c["key"], {})[c["day"]] = [c["turns"], c["with_retrieval"], c["grounded"]]
    print(json.dumps({"agents": agents, "agent_days": days}, sort_keys=True, separators=(",", ":")))


def first_difference(a, b, path=""):
    """The first path at which two JSON values differ, with both sides, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}/{k}: {'absent' if k not in a else a[k]} vs {'absent' if k not in b else b[k]}"
            d = first_difference(a[k], b[k], f"{path}/{k}")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a} vs {b}"


def same(a_path, b_path):
    with open(a_path) as f:
        a = json.load(f)
    with open(b_path) as f:
        b = json.load(f)
    d = first_difference(a, b)
    if d:
        print(f"first difference {d}")
        return 1
    cells_n = sum(len(days) for days in a["agent_days"].values())
    print(f"{len(a['agents'])} agents, {cells_n} agent-days identical")
    return 0


def otlp_row(json_path, nbytes, rss_kb):
    with open(json_path) as f:
        r = json.load(f)["results"][0]
    secs, nbytes = r["median"], int(nbytes)
    rss = f"{int(rss_kb) / 1024:.1f}" if rss_kb else "–"
    print(f"| {nbytes / 1e6:.0f} MB | {secs:.2f} | {nbytes / 1e6 / secs:.0f} | {rss} |")


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception:  # noqa: BLE001 - best effort, for the machine description only
        return ""


def machine():
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem_kb = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
    duck = sh("python3 -c 'import duckdb; print(duckdb.__version__)'")
    return [
        f"- CPU: {os.cpu_count()} × {cpu} (`nproc` = {sh('nproc')})",
        f"- RAM: {mem_kb / 1024 / 1024:.1f} GiB; Linux {platform.release()}",
        f"- {sh('rustc --version')}; {sh('jq --version') or 'no jq'}; DuckDB {duck or 'absent'}; {sh('wc --version | head -n 1')}",
    ]


def fmt_s(x):
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def table(a):
    # One export per command and round: a row pools the runs of every round
    # (median of all), and keeps each round's median for the ratios round by round.
    rows = OrderedDict()
    failed = []
    with open(a.results) as f:
        for line in f:
            name, threads, nbytes, allowed, path, rnd = line.rstrip("\n").split("\t")
            with open(path) as j:
                r = json.load(j)["results"][0]
            bad = [c for c in r.get("exit_codes", []) if c is None or c > int(allowed)]
            if bad:
                failed.append(f"{name} (threads {threads}, round {rnd}) exited with {sorted(set(bad), key=str)}")
                continue
            row = rows.setdefault((name, int(threads)), {"bytes": int(nbytes), "times": [], "cpu_sum": 0.0, "rounds": {}})
            n = len(r["times"])
            row["times"].extend(r["times"])
            row["cpu_sum"] += (r["user"] + r["system"]) * n
            row["rounds"][int(rnd)] = int(nbytes) / 1e6 / r["median"]
    for r in rows.values():
        r["secs"] = statistics.median(r["times"])
        r["mbps"] = r["bytes"] / 1e6 / r["secs"]
        r["cpu"] = r["cpu_sum"] / len(r["times"])
        r["n"] = len(r["times"])

    ref_name = "grounding-audit summary" if a.summary == "1" else "grounding-audit report"
    total_mb = a.bytes / 1e6
    out = [f"Build: grounding-audit of the cargo profile `{a.profile}`.", ""]
    out.append(
        f"Input: `{a.log}`, {total_mb:.0f} MB, {a.lines} turns ({a.bytes / a.lines:.0f} bytes a line); "
        f"warm page cache; {a.rounds} interleaved rounds over every command, in each hyperfine with {a.warmup} warm-up"
        f" and {a.runs} timed runs per command; medians of all {a.rounds * a.runs} runs."
    )
    out.append("")
    out.append(
        "| tool | threads | seconds (median) | MB/s | × grounding-audit | % of `wc -l` | CPU s (user+sys, mean) | MB per CPU s |"
    )
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    wc = rows.get(("wc -l", 1))
    for (name, threads), r in rows.items():
        ref = rows.get((ref_name, threads))
        ratio = f"{r['mbps'] / ref['mbps']:.2f}" if ref else "–"
        of_wc = f"{100 * r['mbps'] / wc['mbps']:.0f}" if wc else "–"
        secs, cpu = r["secs"], r["cpu"]
        label = name
        if r["bytes"] != a.bytes:
            secs = secs * a.bytes / r["bytes"]
            cpu = cpu * a.bytes / r["bytes"] if cpu is not None else None
            label += " †"
            notes.append(
                f"† timed on the first {r['bytes'] / 1e6:.0f} MB of the log ({r['secs']:.2f} s) and scaled to the whole log."
            )
        if name.startswith("duckdb"):
            notes.append(
                "DuckDB: the query's wall and CPU time inside Python (interpreter start-up and import excluded), same"
                " warm-up and runs; *verdict counts* reads the reply and chunk lists and counts verdicts,"
                " *equal work* reads what `summary` reads (turn id, agent, created_at, reply, chunks with scores),"
                " drops repeated turn ids and computes per agent and UTC day the turns, verdicts, chunks retrieved"
                " and cited and low-score citations (`scripts/bench-duckdb.py`)."
            )
        cpu_s = fmt_s(cpu) if cpu is not None else "–"
        per_cpu = f"{a.bytes / 1e6 / cpu:.0f}" if cpu else "–"
        out.append(
            f"| {label} | {threads} | {fmt_s(secs)} | {r['mbps']:.0f} | {ratio} | {of_wc} | {cpu_s} | {per_cpu} |"
        )
    out.append("")
    out.append(
        f"× grounding-audit: the tool's throughput divided by `{ref_name.split(' ', 1)[1]}` at the same thread count"
        " (above 1: faster than grounding-audit)."
    )
    if a.summary != "1":
        out.append("`summary` and `check` are not built yet: they were skipped, and `report` (one page) stands in as the reference.")
    for n in OrderedDict.fromkeys(notes):
        out.append(n)
    for f in failed:
        out.append(f"**Failed, left out of the table:** {f}.")

    checks = []

    def check(what, ok, detail):
        checks.append(f"- [{'x' if ok else ' '}] {what}: {detail}")

    def mbps(name, threads):
        r = rows.get((name, threads))
        return r["mbps"] if r else None

    def listed(values):
        return f" (rounds: {', '.join(values)})" if a.rounds >= 2 and values else ""

    def by_round(name, threads, ref_name, ref_threads, fmt):
        """The ratio of two rows round by round (each round's medians)."""
        r, ref = rows.get((name, threads)), rows.get((ref_name, ref_threads))
        if not r or not ref:
            return ""
        return listed([fmt(r["rounds"][k] / ref["rounds"][k]) for k in sorted(r["rounds"]) if k in ref["rounds"]])

    def mbps_by_round(name, threads):
        """A row's MB/s round by round (each round's median)."""
        r = rows.get((name, threads))
        return listed([f"{v:.0f}" for _, v in sorted(r["rounds"].items())]) if r else ""

    def times(x):
        return f"{x:.2f}×"

    def percent(x):
        return f"{100 * x:.0f}%"

    gate = [n for n in ("grounding-audit summary", "grounding-audit check --min-rate 0.5") if any(k[0] == n for k in rows)]
    if not gate:
        gate = ["grounding-audit report"]
    wc_mbps = mbps("wc -l", 1)
    duck_eq = mbps("duckdb equal work", 2)
    duck_v = mbps("duckdb verdict counts", 2)
    for n in gate:
        short = n[16:]
        two, one = mbps(n, 2), mbps(n, 1)
        if two and duck_eq:
            ratio = two / duck_eq
            check(f"`{short}` ≥ 2.5× DuckDB equal work (2 threads)", ratio >= 2.5,
                  times(ratio) + by_round(n, 2, "duckdb equal work", 2, times))
        if two and duck_v:
            ratio = two / duck_v
            check(f"`{short}` ≥ 1.6× DuckDB verdict counts (2 threads)", ratio >= 1.6,
                  times(ratio) + by_round(n, 2, "duckdb verdict counts", 2, times))
        if two and wc_mbps:
            check(f"`{short}` ≥ 30% of `wc -l` (2 threads)", two / wc_mbps >= 0.30,
                  percent(two / wc_mbps) + by_round(n, 2, "wc -l", 1, percent))
        if one is not None:
            check(f"`{short}` ≥ 800 MB/s on 1 thread", one >= 800,
                  f"{one:.0f} MB/s{mbps_by_round(n, 1)} (`wc -l`: {wc_mbps or 0:.0f} MB/s)")
    v = mbps("grounding-audit report --all --format csv", 2)
    if v is not None:
        check("`report --all --format csv` ≥ 1 GB/s (2 threads)", v >= 1000,
              f"{v:.0f} MB/s{mbps_by_round('grounding-audit report --all --format csv', 2)}")
    head = mbps(ref_name, 2)
    jq = next((r["mbps"] for (n, _), r in rows.items() if n.startswith("jq")), None)
    if head and jq:
        check(f"`{ref_name[16:]}` ≥ 25× jq (issue 7)", head / jq >= 25, f"{head / jq:.1f}×")
    for threads in (1, 2):
        s_, m = rows.get(("grounding-audit summary", threads)), rows.get(("grounding-audit summary --map-file (mapped log)", threads))
        if s_ and m:
            slow = m["secs"] / s_["secs"] - 1
            check(f"`summary --map-file` within 15% of native `summary` ({threads} thread(s), issue 12)", slow <= 0.15, f"{slow * 100:+.0f}% time")
    if a.summary == "1":
        for threads in (1, 2):
            s_, p = rows.get(("grounding-audit summary", threads)), rows.get(("grounding-audit report", threads))
            if s_ and p:
                slow = p["secs"] / s_["secs"] - 1
                check(f"`report` one page within 10% of `summary` ({threads} thread(s), issue 7)", slow <= 0.10, f"{slow * 100:+.0f}% time")

    mem = []
    with open(a.memory) as f:
        for line in f:
            nbytes, turns, cmd, mode, rss_kb = line.rstrip("\n").split("\t")
            mem.append((int(nbytes), int(turns), cmd, mode, int(rss_kb)))
    if mem:
        out.append("")
        out.append("Peak RSS (`/usr/bin/time -v`, 2 threads):")
        out.append("")
        out.append("| input | turns | command | mode | peak RSS (MiB) | limit (MiB) |")
        out.append("|---:|---:|---|---|---:|---:|")
        for nbytes, turns, cmd, mode, rss_kb in mem:
            limit = 40 * 2**20 if mode == "--no-dedupe" else 48 * 2**20 + 24 * turns
            rss = rss_kb * 1024
            out.append(
                f"| {nbytes / 1e6:.0f} MB | {turns} | `{cmd}` | {mode} | {rss / 2**20:.1f} | {limit / 2**20:.1f} |"
            )
            bound = "<" if mode == "--no-dedupe" else "≤"
            what = f"peak RSS `{cmd.split(' ', 3)[-1]} {mode}` on {nbytes / 1e6:.0f} MB {bound} {limit / 2**20:.1f} MiB"
            check(what, rss < limit if mode == "--no-dedupe" else rss <= limit, f"{rss / 2**20:.1f} MiB")
        if a.summary != "1":
            out.append("")
            out.append("(`summary` is not built yet: `report`, one page, was measured instead.)")

    out.append("")
    out.append("Targets (issue 16, plus the ones of issues 7 and 12 it does not replace):")
    out.append("")
    out.extend(checks if checks else ["- (nothing to check)"])

    out.append("")
    out.append("Agreement (verdict counts; DuckDB's equal-work query per agent and per agent and day):")
    out.append("")
    out.append("```")
    with open(a.agreement) as f:
        text = f.read().rstrip("\n")
    out.append(text)
    out.append("```")
    if "DIFFER" in text:
        out.append("**The tools disagree.**")

    out.append("")
    out.append("Machine:")
    out.append("")
    out.extend(machine())
    out.append(f"- build: cargo profile `{a.profile}` (Cargo.toml)")
    out.append(f"- load average (1, 5, 15 min) before / after the timed rounds: {a.load}")
    print("\n".join(out))
    return 1 if "DIFFER" in text or failed else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("verdicts")
    sub.add_parser("cells")
    sm = sub.add_parser("same")
    sm.add_argument("a")
    sm.add_argument("b")
    o = sub.add_parser("otlp-row")
    o.add_argument("json")
    o.add_argument("bytes")
    o.add_argument("rss_kb")
    t = sub.add_parser("table")
    t.add_argument("--profile", default="dist")
    for opt in ("results", "memory", "agreement", "log", "summary", "check", "load"):
        t.add_argument(f"--{opt}", required=True)
    for opt in ("bytes", "lines", "rounds", "runs", "warmup"):
        t.add_argument(f"--{opt}", type=int, required=True)
    a = p.parse_args()
    if a.cmd == "verdicts":
        verdicts()
    elif a.cmd == "cells":
        cells()
    elif a.cmd == "same":
        sys.exit(same(a.a, a.b))
    elif a.cmd == "otlp-row":
        otlp_row(a.json, a.bytes, a.rss_kb)
    else:
        sys.exit(table(a))


if __name__ == "__main__":
    main()

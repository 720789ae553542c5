#!/usr/bin/env python3
"""Helpers of scripts/bench.sh.

  bench-report.py verdicts < DOC   prints the five verdict counts of DOC as canonical JSON.
      DOC is a counts object (jq, DuckDB), a `summary`/`check` JSON document (the
      shallowest object holding all five verdicts wins), or the output of
      `report --all --format json`, which may be huge: only its tail is kept and
      the `"summary":` object near the end is read.
  bench-report.py table ...        prints the Markdown report (see bench.sh).
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
    runs = OrderedDict()
    with open(a.results) as f:
        for line in f:
            name, threads, ns, nbytes, cpu_ns = line.rstrip("\n").split("\t")
            runs.setdefault((name, int(threads)), []).append((int(ns) / 1e9, int(nbytes), int(cpu_ns) / 1e9))
    rows = {}
    for key, samples in runs.items():
        secs = statistics.median(s for s, _, _ in samples)
        cpus = [c for _, _, c in samples if c >= 0]
        cpu = statistics.median(cpus) if cpus else None
        nbytes = samples[0][1]
        rows[key] = {"secs": secs, "bytes": nbytes, "mbps": nbytes / 1e6 / secs, "cpu": cpu, "n": len(samples)}

    ref_name = "grounding-audit summary" if a.summary == "1" else "grounding-audit report"
    total_mb = a.bytes / 1e6
    out = []
    out.append(
        f"Input: `{a.log}`, {total_mb:.0f} MB, {a.lines} turns ({a.bytes / a.lines:.0f} bytes a line); "
        f"warm page cache; medians of {a.runs} interleaved rounds."
    )
    out.append("")
    out.append("| tool | threads | seconds (median) | MB/s | × grounding-audit | CPU s (user+sys) | MB per CPU s |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    notes = []
    for (name, threads), r in rows.items():
        ref = rows.get((ref_name, threads))
        ratio = f"{r['mbps'] / ref['mbps']:.2f}" if ref else "–"
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
            notes.append("DuckDB: the query's wall time inside Python (interpreter start-up and import excluded).")
        cpu_s = fmt_s(cpu) if cpu is not None else "–"
        per_cpu = f"{a.bytes / 1e6 / cpu:.0f}" if cpu else "–"
        out.append(f"| {label} | {threads} | {fmt_s(secs)} | {r['mbps']:.0f} | {ratio} | {cpu_s} | {per_cpu} |")
    out.append("")
    out.append(
        f"× grounding-audit: the tool's throughput divided by `{ref_name.split(' ', 1)[1]}` at the same thread count"
        " (above 1: faster than grounding-audit)."
    )
    if a.summary != "1":
        out.append("`summary` and `check` are not built yet: they were skipped, and `report` (one page) stands in as the reference.")
    for n in OrderedDict.fromkeys(notes):
        out.append(n)

    checks = []

    def check(what, ok, detail):
        checks.append(f"- [{'x' if ok else ' '}] {what}: {detail}")

    def mbps(name, threads):
        r = rows.get((name, threads))
        return r["mbps"] if r else None

    gate = [n for n in ("grounding-audit summary", "grounding-audit check --min-rate 0.5") if any(k[0] == n for k in rows)]
    if not gate:
        gate = ["grounding-audit report"]
    for n in gate:
        for threads, want in ((2, 1200), (1, 600)):
            v = mbps(n, threads)
            if v is not None:
                check(f"`{n[16:]}` ≥ {want} MB/s on {threads} thread(s)", v >= want, f"{v:.0f} MB/s ({v / want:.2f}× the target)")
    head = mbps(ref_name, 2)
    duck = mbps("duckdb (Python API)", 2)
    jq = next((r["mbps"] for (n, _), r in rows.items() if n.startswith("jq")), None)
    if head and duck:
        check(f"`{ref_name[16:]}` ≥ 1.3× DuckDB (2 threads)", head / duck >= 1.3, f"{head / duck:.2f}×")
    if head and jq:
        check(f"`{ref_name[16:]}` ≥ 25× jq", head / jq >= 25, f"{head / jq:.1f}×")
    if a.summary == "1":
        for threads in (1, 2):
            s, p = rows.get(("grounding-audit summary", threads)), rows.get(("grounding-audit report", threads))
            if s and p:
                slow = p["secs"] / s["secs"] - 1
                check(f"`report` one page within 10% of `summary` ({threads} thread(s))", slow <= 0.10, f"{slow * 100:+.0f}% time")
    v = mbps("grounding-audit report --all --format csv", 2)
    if v is not None:
        check("`report --all --format csv` ≥ 500 MB/s (2 threads)", v >= 500, f"{v:.0f} MB/s")

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
            limit = 64 * 2**20 if mode == "--no-dedupe" else 64 * 2**20 + 24 * turns
            rss = rss_kb * 1024
            out.append(
                f"| {nbytes / 1e6:.0f} MB | {turns} | `{cmd}` | {mode} | {rss / 2**20:.1f} | {limit / 2**20:.1f} |"
            )
            what = f"peak RSS `{cmd.split(' ', 3)[-1]} {mode}` on {nbytes / 1e6:.0f} MB ≤ {limit / 2**20:.1f} MiB"
            check(what, rss <= limit, f"{rss / 2**20:.1f} MiB")
        if a.summary != "1":
            out.append("")
            out.append("(`summary` is not built yet: `report`, one page, was measured instead.)")

    out.append("")
    out.append("Targets (issue 7):")
    out.append("")
    out.extend(checks if checks else ["- (nothing to check)"])

    out.append("")
    out.append("Verdict counts:")
    out.append("")
    out.append("```")
    with open(a.agreement) as f:
        text = f.read().rstrip("\n")
    out.append(text)
    out.append("```")
    if "DIFFER" in text:
        out.append("**The tools disagree on the verdict counts.**")

    out.append("")
    out.append("Machine:")
    out.append("")
    out.extend(machine())
    out.append(f"- load average (1, 5, 15 min) before / after the timed rounds: {a.load}")
    print("\n".join(out))
    return 1 if "DIFFER" in text else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("verdicts")
    t = sub.add_parser("table")
    for opt in ("results", "memory", "agreement", "log", "summary", "check", "load"):
        t.add_argument(f"--{opt}", required=True)
    for opt in ("bytes", "lines", "jq-bytes", "runs"):
        t.add_argument(f"--{opt}", type=int, required=True)
    a = p.parse_args()
    if a.cmd == "verdicts":
        verdicts()
    else:
        sys.exit(table(a))


if __name__ == "__main__":
    main()

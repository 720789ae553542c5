#!/usr/bin/env python3
"""The cost budget: instructions `summary` and `report --all --format csv`
execute on fixed generated logs of each input dialect, counted by valgrind's
cachegrind, held against the counts committed in benches/cost-budget.json.

Instruction counts do not drift with the machine's load the way times do, so
a change that makes a common path dearer shows here on every run, not only
when someone runs the benchmark. A count more than TOLERANCE above its
budget fails; a count more than TOLERANCE below it is reported, so the
budget can be lowered. A change that must cost more updates the budget in
the same commit (`scripts/cost.py --update`) and says why in its message.

The counts belong to one build: the `ci` profile (what `.ci/run` tests),
with the toolchain of rust-toolchain or the machine. A new compiler moves
them all; update the budget in a commit of its own then.

usage: scripts/cost.py [--update] [--bin PATH] [--gen PATH]
  --bin  the grounding-audit binary (default target/ci/grounding-audit)
  --gen  the log generator (default target/ci/ga-generate)
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET = ROOT / "benches" / "cost-budget.json"
WORK = ROOT / "target" / "cost"
SHARED = Path(os.environ.get("SHARED", ROOT.parent / "shared"))
TOLERANCE = 0.05
SIZE_MB = 2

COMMANDS = {
    "summary": ["summary", "--threads", "1", "--format", "json"],
    "report-csv": ["report", "--all", "--format", "csv", "--threads", "1"],
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def copies(sample, out, size_mb, key):
    """Repeats the lines of `sample` until `size_mb`, each copy's `key` id
    given a suffix so copies are new turns, not duplicates."""
    lines = [l for l in Path(sample).read_text(encoding="utf-8").splitlines() if l.strip()]
    target = int(size_mb * 1_000_000)
    written, k = 0, 0
    with open(out, "w", encoding="utf-8") as f:
        while written < target:
            for line in lines:
                rec = json.loads(line)
                rec[key] = f"{rec[key]}.{k}"
                text = json.dumps(rec, ensure_ascii=False) + "\n"
                f.write(text)
                written += len(text.encode())
            k += 1


def logs(gen):
    """The fixed logs, made once (same inputs, same bytes)."""
    WORK.mkdir(parents=True, exist_ok=True)
    made = {}

    def want(name, make):
        path = WORK / f"{name}.jsonl"
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            make(tmp)
            tmp.rename(path)
        made[name] = path

    # Native turn lines: multi-sentence replies with markers, chunks,
    # tool calls (the benchmark's generator).
    want("native", lambda p: p.write_bytes(
        run([gen, "--bytes", f"{SIZE_MB}MB", "--seed", "42"], capture_output=True).stdout))
    # Recorded provider calls with structured citations, quotes and streams.
    want("exchange", lambda p: copies(ROOT / "fixtures/exchange/providers.jsonl", p, SIZE_MB, "id"))
    # OpenInference spans in collector batches.
    want("otlp", lambda p: run(["python3", ROOT / "scripts/gen-otlp.py", p, str(SIZE_MB), "42"]))
    dialects = ROOT / "scripts/gen-dialects.py"
    for name, sample in [
        ("phoenix", SHARED / "traces/phoenix-openinference-langchain/spans.jsonl"),
        ("langsmith", SHARED / "traces/langsmith-langchain/runs.jsonl"),
        ("langfuse", ROOT / "fixtures/langfuse/observations_v2/2026-03-04T09-00-00.jsonl"),
    ]:
        if not sample.exists():
            sys.exit(f"cost: {sample} is missing (the captures in ../shared are needed)")
        want(name, lambda p, s=sample: run(["python3", dialects, s, p, str(SIZE_MB)]))
    return made


def instructions(binary, args, log):
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no",
         "--cachegrind-out-file=/dev/null", binary, *args, log],
        capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"cost: {' '.join(args)} {log} failed:\n{out.stderr[-2000:]}")
    m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if not m:
        sys.exit(f"cost: no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(m.group(1).replace(",", ""))


def main():
    argv = sys.argv[1:]
    update = "--update" in argv
    binary = ROOT / "target/ci/grounding-audit"
    gen = ROOT / "target/ci/ga-generate"
    for flag in ("--bin", "--gen"):
        if flag in argv:
            value = Path(argv[argv.index(flag) + 1]).resolve()
            binary, gen = (value, gen) if flag == "--bin" else (binary, value)
    counts = {}
    for name, log in logs(gen).items():
        for cmd, args in COMMANDS.items():
            counts[f"{cmd} {name}"] = instructions(binary, args, log)
    if update:
        BUDGET.write_text(json.dumps({
            "about": "Instructions (cachegrind) per command and generated log: "
                     "scripts/cost.py. Profile ci; fails above +5 %.",
            "counts": counts,
        }, indent=2) + "\n")
        print(f"cost: wrote {BUDGET.relative_to(ROOT)}")
        return
    budget = json.loads(BUDGET.read_text())["counts"]
    failed = False
    print(f"{'command and log':<28} {'budget':>14} {'now':>14} {'change':>8}")
    for key in sorted(set(budget) | set(counts)):
        b, n = budget.get(key), counts.get(key)
        if b is None or n is None:
            print(f"{key:<28} {'-' if b is None else b:>14} {'-' if n is None else n:>14}  not in both")
            failed = True
            continue
        change = n / b - 1
        mark = ""
        if change > TOLERANCE:
            mark, failed = "  OVER BUDGET", True
        elif change < -TOLERANCE:
            mark = "  below: lower the budget (scripts/cost.py --update)"
        print(f"{key:<28} {b:>14,} {n:>14,} {change:>+7.1%}{mark}")
    if failed:
        sys.exit("cost: over budget. A change that must cost more updates "
                 "benches/cost-budget.json (scripts/cost.py --update) and says why in its message.")
    print("cost: within budget")


if __name__ == "__main__":
    main()

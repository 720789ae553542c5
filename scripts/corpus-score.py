#!/usr/bin/env python3
"""Scores a build of grounding-audit against real files and what a person
reads in them (entries in the shape of tests/corpus/expectations.json).

Each file is run through `evidence -q --show-text` with its `args`, and is:
  read     exit 0, as many turns as the person counts, and each expected
           reply (its first 30 characters) with its chunk count among them;
  refused  exit 3 naming the file: not read, and said so;
  misread  anything else that exits 0 (a wrong reply, turns, or chunks);
  failed   any other exit.
A file the person finds no answer in (turns 0) is read when the tool
refuses it or grades every turn of it unobserved with no reply.

usage: corpus-score.py BINARY ENTRIES.json DIR [--verbose]
"""
import json
import subprocess
import sys


def head(s, n=30):
    return (s or "")[:n]


def classify(binary, entry, root):
    path = f"{root}/{entry['file']}"
    args = [binary, "evidence", "-q", "--show-text", *entry.get("args", []), path]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode == 3 and path in p.stderr:
        return "refused", p.stderr.strip().splitlines()[-1][:200]
    if p.returncode != 0:
        return "failed", f"exit {p.returncode}: {p.stderr.strip()[:200]}"
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    if entry["turns"] == 0:
        graded = [r["verdict"] for r in rows if r["verdict"] != "unobserved" or r.get("reply")]
        return ("read", "") if not graded else ("misread", f"{graded}: a reply where a person finds none")
    if len(rows) != entry["turns"]:
        return "misread", f"{len(rows)} turns, a person counts {entry['turns']}"
    for t in entry["traces"]:
        want, chunks = head(t.get("reply_starts")), t.get("chunks")
        found = [r for r in rows if head(r.get("reply")) == want]
        if not found:
            got = [head(r.get("reply")) for r in rows]
            return "misread", f"no reply {want!r}: {got}"
        if chunks is not None and not any(len(r.get("chunks") or []) == chunks for r in found):
            got = [len(r.get("chunks") or []) for r in found]
            return "misread", f"{want!r}: {got} chunks, a person counts {chunks}"
    return "read", ""


def main():
    binary, entries, root = sys.argv[1:4]
    verbose = "--verbose" in sys.argv
    counts = {}
    for e in json.load(open(entries)):
        kind, why = classify(binary, e, root)
        counts[kind] = counts.get(kind, 0) + 1
        if verbose:
            print(f"{kind:8} {e['file']}  {why}")
    total = sum(counts.values())
    good = counts.get("read", 0) + counts.get("refused", 0)
    print(f"{total} files: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + f"; read or refused {good}/{total}")


if __name__ == "__main__":
    main()

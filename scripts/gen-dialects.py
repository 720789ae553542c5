#!/usr/bin/env python3
"""Writes a large log in one of the record dialects by repeating a real
sample (a capture or fixture of that dialect) until SIZE_MB is reached, with
every identifier rewritten per copy, so each copy is a new set of traces,
runs or observations rather than duplicates. Used by scripts/bench-dialects.sh
for the per-dialect throughput and memory rows.

Identifiers rewritten: quoted hex ids of 16 or 32 digits (trace and span
ids), UUIDs, and agentfootprint run ids (`run-<digits>-<digits>`). The same
id gets the same replacement within one copy, so parents, traces and runs
still join up.

usage: gen-dialects.py SAMPLE OUT_PATH SIZE_MB
"""
import re
import sys

sample, out_path, size_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
target = int(size_mb * 1_000_000)

ID = re.compile(
    r'(?<=")(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
    r'|[0-9a-f]{32}|[0-9a-f]{16}|run-\d+-\d+)(?=")'
)

with open(sample, encoding="utf-8") as f:
    lines = [l.rstrip("\n") for l in f if l.strip()]
# Each line as literal parts and id tokens, cut once.
templates = []
for line in lines:
    parts, last = [], 0
    for m in ID.finditer(line):
        parts.append(line[last:m.start()])
        parts.append(None)
        parts.append(m.group(0))
        last = m.end()
    parts.append(line[last:])
    templates.append(parts)


def rewrite(token, copy):
    if token.startswith("run-"):
        return f"{token}-{copy}"
    # Same length and shape: the last 8 hex digits mixed with the copy number.
    head, tail = token[:-8], token[-8:]
    mixed = (int(tail, 16) ^ ((copy * 2654435761) & 0xFFFFFFFF)) or 1
    return f"{head}{mixed:08x}"


written = 0
copy = 0
with open(out_path, "w", encoding="utf-8") as out:
    while written < target:
        copy += 1
        cache = {}
        chunk = []
        for parts in templates:
            buf = []
            it = iter(parts)
            for p in it:
                if p is None:
                    tok = next(it)
                    r = cache.get(tok)
                    if r is None:
                        r = cache[tok] = rewrite(tok, copy)
                    buf.append(r)
                else:
                    buf.append(p)
            chunk.append("".join(buf))
        text = "\n".join(chunk) + "\n"
        out.write(text)
        written += len(text.encode("utf-8"))

"""Writes a native turn log of about --mb megabytes for the Spark job's
tests: every verdict, several agents, channels and models, days across a
month, telemetry, a few invalid and blank lines, and duplicate turns (a
`--dup` share of lines repeat an earlier turn id, often far away in the
file, half as exact copies and half as retries with another reply, so
copies fall in different input splits and must meet in one partition). Deterministic for a given --seed.
Lines average about 390 bytes; `--line-bytes 225` writes compact turns
(the shape of compact platform exports: no conversation, channel, token or
cost fields, a short reply, at most two chunks) and `--line-bytes 2000`
pads replies to about 2 KB.

    python3 gen_log.py --mb 200 --out big.jsonl [--gzip] [--line-bytes N]
"""

import argparse
import gzip
import json
import random

REPLIES = [
    ("see [KB-1] and [KB-2].", 3),
    ("no citation here", 2),
    ("made up [KB-9]", 2),
    ("hello there", 0),
    ("[KB-1]", 1),
]


def turn(rng, i, line_bytes=0):
    reply, chunks = rng.choice(REPLIES)
    if line_bytes and line_bytes < 300:
        return compact_turn(rng, i, reply, min(chunks, 2))
    doc = {
        "turn_id": f"t-{i}" if i % 7 else i,
        "agent_id": f"agent-{rng.randrange(12)}",
        "conversation_id": f"c-{i // 5}",
        "channel": rng.choice(["web", "slack", "api"]),
        "created_at": "2026-08-%02dT%02d:%02d:%02dZ"
        % (1 + rng.randrange(28), rng.randrange(24), rng.randrange(60), rng.randrange(60)),
        "model": rng.choice(["gpt-x", "claude-y", "llama-z"]),
        "latency_ms": rng.randrange(50, 20000),
        "tokens_used": rng.randrange(100, 5000),
        "cost_cents": round(rng.random() * 3, 4),
    }
    if rng.random() < 0.05:
        return json.dumps(doc)  # no reply: unobserved
    pad = rng.randrange(0, 120)
    if line_bytes > 500:
        pad = rng.randrange(line_bytes - 420, line_bytes - 20)
    doc["reply"] = reply + " " + "x" * pad
    if chunks:
        doc["grounding"] = {
            "chunks": [
                {"document_id": f"doc-{rng.randrange(500)}.md", "score": round(rng.random(), 3)}
                for _ in range(chunks)
            ]
        }
    return json.dumps(doc)


def compact_turn(rng, i, reply, chunks):
    doc = {
        "turn_id": f"t-{i}" if i % 7 else i,
        "agent_id": f"agent-{rng.randrange(12)}",
        "created_at": "2026-08-%02dT%02d:%02d:%02dZ"
        % (1 + rng.randrange(28), rng.randrange(24), rng.randrange(60), rng.randrange(60)),
        "model": rng.choice(["gpt-x", "claude-y", "llama-z"]),
        "latency_ms": rng.randrange(50, 20000),
    }
    if rng.random() < 0.05:
        return json.dumps(doc, separators=(",", ":"))
    doc["reply"] = reply + " " + "x" * rng.randrange(0, 30)
    if chunks:
        doc["grounding"] = {
            "chunks": [
                {"document_id": f"doc-{rng.randrange(500)}.md", "score": round(rng.random(), 2)}
                for _ in range(chunks)
            ]
        }
    return json.dumps(doc, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=200)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--dup", type=float, default=0.02, help="share of lines repeating an earlier turn")
    ap.add_argument("--gzip", action="store_true")
    ap.add_argument(
        "--line-bytes",
        type=int,
        default=0,
        help="about this many bytes a line: below 300 compact turns (e.g. 225), above 500 padded replies (e.g. 2000)",
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    target = int(args.mb * 1_000_000)
    opener = gzip.open if args.gzip else open
    written, i, recent = 0, 0, []
    with opener(args.out, "wt", encoding="utf-8") as f:
        while written < target:
            r = rng.random()
            if r < args.dup and recent:
                # A repeat of an earlier turn, far from its first copy: half
                # exact copies, half retries (same turn id, another reply and
                # latency), which only partitioning by turn id brings together.
                line = rng.choice(recent)
                if rng.random() < 0.5:
                    doc = json.loads(line)
                    doc["reply"] = rng.choice(REPLIES)[0]
                    doc["latency_ms"] = rng.randrange(50, 20000)
                    line = json.dumps(doc)
            elif r < args.dup + 0.001:
                line = "not json"
            elif r < args.dup + 0.002:
                line = ""
            else:
                line = turn(rng, i, args.line_bytes)
                i += 1
                if len(recent) < 4096:
                    recent.append(line)
                else:
                    recent[rng.randrange(4096)] = line
            f.write(line + "\n")
            written += len(line) + 1


if __name__ == "__main__":
    main()

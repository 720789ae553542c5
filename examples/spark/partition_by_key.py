"""Writes a log as N files partitioned by turn key: every line goes to file
`part-K.jsonl`, K the stable hash of its turn key (job.py's turn_key: turn
id, trace id, run id) modulo N, in input order. The layout `job.py --engine
files` reads exactly. Used by ci.sh and bench.sh; a pipeline that writes its
logs by turn key (a file a conversation shard, say) has this layout already.

usage: partition_by_key.py LOG OUTDIR N
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from job import stable_hash, turn_key  # noqa: E402


def main(log, outdir, n):
    os.makedirs(outdir, exist_ok=True)
    outs = [open(os.path.join(outdir, f"part-{k:05d}.jsonl"), "w", encoding="utf-8",
                 errors="surrogateescape", newline="")
            for k in range(n)]
    try:
        with open(log, encoding="utf-8", errors="surrogateescape", newline="") as f:
            for line in f:
                text = line[:-1] if line.endswith("\n") else line
                outs[stable_hash(turn_key(text)) % n].write(text + "\n")
    finally:
        for o in outs:
            o.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))

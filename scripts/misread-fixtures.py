#!/usr/bin/env python3
"""Writes fixtures/misread/: the demo log in the near-miss shapes `inspect`
and the misread warnings are tested on. Deterministic; run from the repo root."""
import copy, csv, io, json, re, datetime

src = [json.loads(l) for l in open("fixtures/demo.jsonl")]
out = "fixtures/misread/"

def lines(name, turns):
    with open(out + name, "w") as f:
        for t in turns:
            f.write(json.dumps(t, separators=(",", ":")) + "\n")

def renamed(t, old, new):
    t = copy.deepcopy(t)
    if old in t:
        t[new] = t.pop(old)
    return t

# `answer` instead of `reply`.
lines("answer.jsonl", [renamed(t, "reply", "answer") for t in src])

# Chunks at the top level instead of under `grounding`.
def top_chunks(t):
    t = copy.deepcopy(t)
    g = t.get("grounding") or {}
    if "chunks" in g:
        t["chunks"] = g.pop("chunks")
    return t
lines("top-chunks.jsonl", [top_chunks(t) for t in src])

# `[1]` citations, graded with the default kb grammar.
def numeric(t):
    t = copy.deepcopy(t)
    if isinstance(t.get("reply"), str):
        t["reply"] = re.sub(r"\[KB-(\d+)\]", r"[\1]", t["reply"])
    return t
lines("numeric.jsonl", [numeric(t) for t in src])

# Reranker logits as scores.
def logits(t):
    t = copy.deepcopy(t)
    for c in (t.get("grounding") or {}).get("chunks", []):
        if c.get("score") is not None:
            c["score"] = round(-4 + 3 * c["score"], 3)
    return t
lines("logits.jsonl", [logits(t) for t in src])

# One pretty-printed JSON array.
with open(out + "array.json", "w") as f:
    json.dump(src, f, indent=2)
    f.write("\n")

# UTF-16 LE with a byte-order mark.
text = "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in src)
with open(out + "utf16.jsonl", "wb") as f:
    f.write(b"\xff\xfe" + text.encode("utf-16-le"))

# CSV with flat columns.
buf = io.StringIO()
w = csv.writer(buf, lineterminator="\n")
w.writerow(["turn_id", "agent_id", "created_at", "reply", "chunk_ids"])
for t in src:
    chunks = (t.get("grounding") or {}).get("chunks", [])
    w.writerow([t["turn_id"], t["agent_id"], t["created_at"], t.get("reply") or "",
                ";".join(c.get("chunk_id") or "" for c in chunks)])
open(out + "turns.csv", "w").write(buf.getvalue())

# A home-grown shape: every field elsewhere, times in Unix milliseconds.
def home(t):
    ms = int(datetime.datetime.fromisoformat(t["created_at"].replace("Z", "+00:00")).timestamp() * 1000)
    g = t.get("grounding") or {}
    h = {"id": t["turn_id"], "bot": {"name": t["agent_id"]}, "ts": ms,
         "session": t.get("conversation_id"), "via": t.get("channel"),
         "retrieval": {"hits": [{"doc": c.get("document_id"), "key": c.get("chunk_id"),
                                  "relevance": c.get("score"), "text": "…"} for c in g.get("chunks", [])]}}
    if "reply" in t:
        h["output"] = {"text": t["reply"]}
    if "citations" in g:
        h["retrieval"]["cited"] = g["citations"]
    return h
lines("home-grown.jsonl", [home(t) for t in src])
with open(out + "home-grown.map.toml", "w") as f:
    f.write("""# Where grounding-audit finds each turn field in home-grown.jsonl.
turn_id = "/id"
agent_id = "/bot/name"
created_at = "/ts"            # Unix milliseconds
conversation_id = "/session"
channel = "/via"
reply = "/output/text"
chunks = "/retrieval/hits"
citations = "/retrieval/cited"

[chunk]
id = "/key"
document_id = "/doc"
score = "/relevance"
content = "/text"
""")

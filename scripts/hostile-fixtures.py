#!/usr/bin/env python3
"""Regenerates the byte-exact files of fixtures/hostile/ (the committed files
are what the tests read; this script documents how they were made).

Each file is a hostile input; fixtures/hostile/EXPECTED.json holds what the
tool must make of it, and tests/cli/hostile.rs checks every entry.
Needs the `zstd` command for the truncated zstd stream.
"""
import gzip
import json
import os
import subprocess

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "hostile")
CHUNKS = [{"document_id": "a.md", "score": 0.8}, {"document_id": "b.md", "score": 0.4}]


def turn(tid, reply="ok [KB-1]", agent="bot", **extra):
    t = {"turn_id": tid, "agent_id": agent, "created_at": "2026-08-01T10:00:00Z",
         "reply": reply, "grounding": {"chunks": CHUNKS}}
    t.update(extra)
    return json.dumps(t, ensure_ascii=False).encode()


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(HERE, exist_ok=True)
    # BOM, CRLF endings, last line without a newline.
    write("bom-crlf-no-final-newline.jsonl",
          b"\xef\xbb\xbf" + b"\r\n".join([turn("b-1"), turn("b-2"), b"", turn("b-3")]))
    # NUL bytes: raw in a string (invalid JSON), a line of NULs, NUL after the object.
    write("nul-bytes.jsonl", b"\n".join([
        turn("n-1"),
        turn("n-2", reply="a\x00b [KB-1]").replace(b"\\u0000", b"\x00"),
        b"\x00\x00\x00\x00",
        turn("n-3") + b"\x00",
        turn("n-4", reply="escaped \x00 is fine [KB-1]"),
    ]) + b"\n")
    # Invalid UTF-8: a truncated sequence inside a string, a lone continuation byte.
    write("invalid-utf8.jsonl", b"\n".join([
        turn("u-1"),
        turn("u-2", reply="caf\u00e9 [KB-1]").replace("\u00e9".encode(), b"\xc3"),
        b"\x80" + turn("u-3"),
        turn("u-4"),
    ]) + b"\n")
    # A line far over a small --max-line-bytes, between two ordinary lines;
    # and an over-long last line without a newline.
    write("long-line.jsonl", b"\n".join([
        turn("l-1"),
        turn("l-2", reply="x" * 5000 + " [KB-1]"),
        turn("l-3"),
        turn("l-4", reply="y" * 3000),
    ]))
    # Deep nesting: inside fields the tool skips (fine: d-1, d-7), inside
    # ones it reads (invalid: d-2, d-4, d-6 over serde_json's recursion
    # limit), and as the whole line (invalid).
    deep = "[" * 5000 + "]" * 5000
    write("deep-nesting.jsonl", b"\n".join([
        turn("d-1", extra_payload=None).replace(b'"extra_payload": null', b'"extra_payload": ' + deep.encode()),
        b'{"turn_id":"d-2","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x","grounding":{"chunks":[' + b"[" * 5000 + b"]" * 5000 + b"]}}",
        deep.encode(),
        b'{"turn_id":"d-4","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":' + b"[" * 5000 + b"]" * 5000 + b"}",
        turn("d-5"),
        b'{"turn_id":"d-6","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","grounding":{"citations":[{"index":' + b"[" * 5000 + b"]" * 5000 + b"}]}}",
        b'{"turn_id":"d-7","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x","grounding":{"tools":[{"status":"ok","arguments":' + b"[" * 5000 + b"]" * 5000 + b"}]}}",
    ]) + b"\n")
    # Values of the wrong type, odd JSON, numbers out of range.
    write("wrong-types.jsonl", b"\n".join([
        b"{}",
        b"null",
        b'"just a string"',
        b"42",
        b'{"turn_id":1.5,"agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x"}',
        b'{"turn_id":true,"agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x"}',
        b'{"turn_id":"w-7","agent_id":7,"created_at":"2026-08-01T10:00:00Z","reply":"x"}',
        b'{"turn_id":"w-8","agent_id":"bot","created_at":"2026-08-01T10:00:00","reply":"x"}',
        b'{"turn_id":"w-9","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":{"text":"x"}}',
        b'{"turn_id":"w-10","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x","grounding":{"chunks":{"a":1}}}',
        b'{"turn_id":"w-11","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x","grounding":{"chunks":[{"score":1e400}]}}',
        b'{"turn_id":"w-12","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x","tokens_used":-3}',
        b'{"type":5,"turn_id":"w-13"}',
        b'{"type":"turn","turn_id":"w-14","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"[KB-99999999999999999999999999]","grounding":{"chunks":[{"document_id":"a"}]}}',
        b'{"turn_id":"w-15","agent_id":"bot","created_at":"+275760-09-13T00:00:00Z","reply":"x"}',
        b'{"turn_id":"w-16","turn_id":"w-16b","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x"}',
        b'{"turn_id":9,"agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x"}',
        b'{"turn_id":"9","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"x"}',
    ]) + b"\n")
    # Hostile ids and names (terminal escapes, CR, bidi override, table
    # pipes, a spreadsheet formula, markup, quotes, newlines).
    hostile = [
        ("h-esc\u001b[31mRED", "agent\u001b]0;pwned\u0007", "doc\u001b[2J.md", "model\u001b[31m"),
        ("h-cr\rFORGED", "agent\rforged", "doc\r.md", "m\r"),
        ("h-bidi\u202etxt.exe", "agent\u202e", "\u202edoc.md", "\u2066m"),
        ("h-pipe|col|", "agent|x|", "doc|x.md", "m|"),
        ("=cmd|' /C calc'!A0", "=cmd|' /C calc'!A0", "=HYPERLINK(\"http://x\")", "@SUM(1)"),
        ("h-xml<script>alert(1)</script>", "<script>", "<b>&amp;</b>", "]]>"),
        ("h-quote\"q\"", "agent\"", "doc\".md", "\"m"),
        ("h-nl\nsecond line", "agent\nnl", "doc\n.md", "m\nn"),
        ("+h-plus", "-agent", "\tdoc", "\rmodel"),
    ]
    lines = []
    for tid, agent, doc, model in hostile:
        lines.append(json.dumps({
            "turn_id": tid, "agent_id": agent, "conversation_id": tid, "channel": agent,
            "created_at": "2026-08-01T10:00:00Z", "reply": "cites [KB-1]",
            "grounding": {"chunks": [{"document_id": doc, "chunk_id": doc + "#1", "score": 0.9}],
                          "model": model}}, ensure_ascii=True).encode())
    write("hostile-ids.jsonl", b"\n".join(lines) + b"\n")
    # A secret in replies and chunk contents, valid and invalid lines alike.
    s = "SECRET-7f3a"
    write("secrets.jsonl", b"\n".join([
        json.dumps({"turn_id": "s-1", "agent_id": "bot", "created_at": "2026-08-01T10:00:00Z",
                    "reply": f"the code is {s} [KB-1]",
                    "grounding": {"chunks": [{"document_id": "a.md", "content": f"chunk says {s}", "score": 0.9}]}}).encode(),
        json.dumps({"turn_id": "s-2", "agent_id": "bot", "created_at": "2026-08-01T10:00:00Z",
                    "reply": f"{s} without a marker",
                    "grounding": {"chunks": [{"document_id": "a.md", "content": f"{s}", "score": 0.3}],
                                  "tools": [{"name": "t", "arguments": {"q": s}, "result": s, "status": "error"}]}}).encode(),
        # Invalid lines whose errors would quote the secret.
        json.dumps({"turn_id": "s-3", "agent_id": "bot", "created_at": "2026-08-01T10:00:00Z",
                    "reply": "x", "grounding": {"chunks": [f"chunk text {s}"]}}).encode(),
        json.dumps({"turn_id": "s-4", "agent_id": "bot", "created_at": "2026-08-01T10:00:00Z",
                    "reply": "x", "grounding": {"chunks": [{"document_id": "a", "score": f"{s}"}]}}).encode(),
        json.dumps({"turn_id": "s-5", "agent_id": "bot", "created_at": "2026-08-01T10:00:00Z",
                    "reply": None, "unobserved": f"{s}"}).encode(),
        json.dumps({"turn_id": "s-6", "agent_id": "bot", "created_at": "2026-08-01T10:00:00Z",
                    "grounding": f"{s}"}).encode(),
        json.dumps({"turn_id": "s-7", "agent_id": "bot", "created_at": "2026-08-01T10:00:00Z",
                    "reply": f"{s}", "model": [s]}).encode(),
        # Broken JSON right inside the secret.
        ('{"turn_id":"s-8","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"' + s + '\\q"}').encode(),
        ('{"turn_id":"s-9","agent_id":"bot","created_at":"2026-08-01T10:00:00Z","reply":"' + s).encode(),
    ]) + b"\n")
    # Truncated compressed streams: the whole first lines, then the stream stops.
    body = b"\n".join(turn(f"z-{i}", reply=f"turn {i} [KB-1] " + "pad " * 50) for i in range(1, 201)) + b"\n"
    gz = gzip.compress(body, mtime=0)
    write("truncated.jsonl.gz", gz[: len(gz) * 2 // 3])
    zs = subprocess.run(["zstd", "-q", "-c", "--no-check"], input=body, check=True, capture_output=True).stdout
    write("truncated.jsonl.zst", zs[: len(zs) * 2 // 3])
    # A gzip stream whose trailer (CRC and length) is missing: the data is
    # complete, the stream is not.
    write("no-trailer.jsonl.gz", gz[:-8])
    # A directory holding logs and files that are not logs.
    d = os.path.join(HERE, "mixed-dir")
    os.makedirs(os.path.join(d, "sub"), exist_ok=True)
    with open(os.path.join(d, "a.jsonl"), "wb") as f:
        f.write(turn("md-1") + b"\n")
    with open(os.path.join(d, "sub", "b.ndjson"), "wb") as f:
        f.write(turn("md-2") + b"\n")
    with open(os.path.join(d, "notes.txt"), "wb") as f:
        f.write(b"not a log\n")
    with open(os.path.join(d, "export.csv"), "wb") as f:
        f.write(b"turn_id,agent_id\nx,y\n")
    with open(os.path.join(d, "sub", "c.jsonl.bak"), "wb") as f:
        f.write(turn("md-3") + b"\n")
    pathological()


def exchange(xid, request, response):
    return json.dumps({"id": xid, "created_at": "2026-03-01T10:00:00Z", "agent_id": "a",
                       "request": request, "response": response}, ensure_ascii=False).encode()


def anthropic_doc(text):
    return {"model": "claude-x", "messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": text},
         "title": "Alpha"}]}]}


def message(content):
    return {"type": "message", "role": "assistant", "content": content}


def pathological():
    """Small copies of the shapes tests/cli/bounds.rs grows (the red-team
    lines that once took quadratic time or GBs of memory)."""
    replies = [
        turn("dots", "Loading" + "." * 2000 + "done [KB-1]."),
        turn("excl", "Wow" + "!" * 2000 + "x [KB-1]."),
        turn("bracket", "xy. [" * 1000 + " [KB-1]."),
        turn("cjk", "東京。[" * 1000 + " [KB-1]."),
    ]
    write("pathological-replies.jsonl", b"\n".join(replies) + b"\n")
    n = 600
    stream = [{"type": "message_start", "message": {"id": "m", "type": "message", "role": "assistant",
                                                     "content": [], "model": "claude-x"}},
              {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}]
    stream += [{"type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": "x" * 10}}] * n
    stream += [{"type": "message_stop"}]
    cohere = [{"type": "message-start", "delta": {"message": {"role": "assistant"}}},
              {"type": "content-start", "index": 0,
               "delta": {"message": {"content": {"type": "text", "text": ""}}}}]
    cohere += [{"type": "content-delta", "index": 0,
                "delta": {"message": {"content": {"text": "y" * 10}}}}] * n
    cohere += [{"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}]
    docs = {"documents": [{"id": "d1", "data": {"text": "hi"}}]}
    span = {"type": "char_location", "cited_text": "Alpha", "document_index": 0,
            "start_char_index": 0, "end_char_index": 5}
    answer = "Café é bom. " * 100
    lines = [
        exchange("anthropic-stream", {"messages": []}, {"events": stream}),
        exchange("cohere-stream", docs, {"events": cohere}),
        exchange("whole-answer-spans", anthropic_doc("Alpha facts. " * 10),
                 message([{"type": "text", "text": "Ab cd. " * 200, "citations": [span] * 200}])),
        exchange("absent-quotes", anthropic_doc("Alpha facts ﬁ. " * n),
                 message([{"type": "text", "text": "Ab.",
                           "citations": [{"type": "char_location", "cited_text": "zz",
                                          "document_index": 0}] * n}])),
        # Distinct quotes absent from a long document: past the turn's
        # check budget, the rest are counted unchecked.
        exchange("distinct-absent-quotes", anthropic_doc("Alpha facts ﬁ. " * n),
                 message([{"type": "text", "text": "Ab.",
                           "citations": [{"type": "char_location", "cited_text": f"zz{k}",
                                          "document_index": 0} for k in range(n)]}])),
        exchange("cited-blocks", anthropic_doc("Alpha facts. "),
                 message([{"type": "text", "text": f"Élan {k}. ",
                           "citations": [{"type": "char_location", "document_index": 0}]}
                          for k in range(n)])),
        exchange("gemini-support", {}, {"candidates": [{"content": {"parts": [{"text": "Short answer."}]},
                 "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://a", "title": "a"}}],
                                       "groundingSupports": [{"segment": {"startIndex": 0, "endIndex": 5,
                                                                          "text": "z" * 2000},
                                                              "groundingChunkIndices": [0] * n}]}}]}),
        exchange("cohere-spans", docs, {"message": {"role": "assistant",
                 "content": [{"type": "text", "text": answer}],
                 "citations": [{"start": 0, "end": len(answer), "text": f"x{k}",
                                "sources": [{"type": "document", "id": "d1"}]} for k in range(100)]}}),
    ]
    write("pathological-citations.jsonl", b"\n".join(lines) + b"\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a deterministic OTLP/JSON trace file the way an OpenTelemetry
Collector's file exporter batches spans: many agent turns run concurrently,
each span is exported when it ends (children before their root), and every
batch of up to BATCH spans is one ExportTraceServiceRequest line, grouped by
resource (service) and scope. Spans carry OpenInference attributes (agent
root with the reply, a retriever with documents, an LLM call with tokens,
sometimes a tool). Used by scripts/bench.sh for the span-dialect memory and
throughput rows.

usage: gen-otlp.py OUT_PATH SIZE_MB [SEED]
"""
import json
import random
import sys

out_path, size_mb = sys.argv[1], float(sys.argv[2])
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 42)
target = int(size_mb * 1_000_000)
BATCH = 512          # spans per request line (the batch processor's send_batch_size)
CONCURRENT = 400     # turns in flight at once
AGENTS = [f"agent-{i:02d}" for i in range(12)]
WORDS = ("refund policy order shipping invoice warranty price credit plan account "
         "delivery return item customer support business days store payment").split()


def text(n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def s(v):
    return {"stringValue": v}


def attr(k, v):
    if isinstance(v, bool):
        val = {"boolValue": v}
    elif isinstance(v, int):
        val = {"intValue": str(v)}
    elif isinstance(v, float):
        val = {"doubleValue": v}
    else:
        val = s(v)
    return {"key": k, "value": val}


class Turn:
    def __init__(self, n, clock):
        self.trace = f"{rng.getrandbits(128):032x}"
        self.root = f"{rng.getrandbits(64):016x}"
        self.agent = rng.choice(AGENTS)
        self.session = f"sess-{rng.randrange(5000)}"
        self.start = clock
        self.pending = []
        t = clock
        k = rng.choice((0, 3, 3, 3, 5))
        docs = []
        if k:
            for i in range(k):
                docs += [attr(f"retrieval.documents.{i}.document.id", f"KB-{rng.randrange(1, 400)}"),
                         attr(f"retrieval.documents.{i}.document.score", round(rng.random(), 3)),
                         attr(f"retrieval.documents.{i}.document.content", text(40))]
        else:
            docs = [{"key": "retrieval.documents", "value": {"arrayValue": {}}}]
        self.pending.append(self.span("kb_search", "RETRIEVER", t, t + 20_000_000, docs))
        t += 25_000_000
        if rng.random() < 0.2:
            self.pending.append(self.span("lookup_order", "TOOL", t, t + 5_000_000,
                                          [attr("tool.name", "lookup_order")],
                                          error=rng.random() < 0.3))
            t += 6_000_000
        cites = "".join(f" [{rng.randrange(1, max(k, 1) + 2)}]" for _ in range(rng.choice((0, 1, 1, 2))))
        reply = text(rng.randrange(20, 120)) + cites + "."
        self.pending.append(self.span("chat", "LLM", t, t + 400_000_000, [
            attr("llm.model_name", "gpt-4o-mini"),
            attr("llm.token_count.prompt", rng.randrange(200, 2000)),
            attr("llm.token_count.completion", rng.randrange(20, 300)),
            attr("llm.output_messages.0.message.role", "assistant"),
            attr("llm.output_messages.0.message.content", reply),
        ]))
        t += 410_000_000
        self.pending.append(self.span(self.agent, "AGENT", clock, t, [
            attr("agent.name", self.agent), attr("session.id", self.session),
            attr("metadata.channel", rng.choice(("web", "voice", "chat"))),
            attr("input.value", text(12)), attr("output.value", reply)], root=True))
        self.end = t

    def span(self, name, kind, start, end, attrs, root=False, error=False):
        sp = {"traceId": self.trace,
              "spanId": self.root if root else f"{rng.getrandbits(64):016x}",
              "name": name, "kind": 1,
              "startTimeUnixNano": str(start), "endTimeUnixNano": str(end),
              "attributes": [attr("openinference.span.kind", kind)] + attrs,
              "status": {"code": 2} if error else {}}
        if not root:
            sp["parentSpanId"] = self.root
        return (end, sp)


def request(spans):
    by_service = {}
    for sp in spans:
        by_service.setdefault(sp[0], []).append(sp[1])
    return json.dumps({"resourceSpans": [
        {"resource": {"attributes": [attr("service.name", svc)]},
         "scopeSpans": [{"scope": {"name": "openinference.instrumentation"}, "spans": sps}]}
        for svc, sps in sorted(by_service.items())]}, separators=(",", ":"))


clock = 1_780_000_000_000_000_000
written = 0
turns = 0
queue = []        # (end time, service, span) of spans not yet exported
live = []
with open(out_path, "w") as out:
    while written < target:
        while len(live) < CONCURRENT:
            clock += rng.randrange(1_000_000, 30_000_000)
            t = Turn(turns, clock)
            turns += 1
            live.append(t)
            for end, sp in t.pending:
                queue.append((end, f"svc-{t.agent}", sp))
        queue.sort(key=lambda x: x[0])
        # Export everything that ended before the clock, in batches.
        cut = 0
        while cut < len(queue) and queue[cut][0] <= clock:
            cut += 1
        ready, queue = queue[:cut], queue[cut:]
        for i in range(0, len(ready), BATCH):
            line = request([(svc, sp) for _, svc, sp in ready[i:i + BATCH]]) + "\n"
            out.write(line)
            written += len(line)
        live = [t for t in live if t.end > clock]
        clock += 50_000_000
    queue.sort(key=lambda x: x[0])
    for i in range(0, len(queue), BATCH):
        out.write(request([(svc, sp) for _, svc, sp in queue[i:i + BATCH]]) + "\n")
print(f"{out_path}: {turns} turns", file=sys.stderr)

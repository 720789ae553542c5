#!/usr/bin/env python3
"""Writes fixtures/langfuse/: hand-made Langfuse exports built from the
documented shape (langfuse-docs blob-storage-export-fields and
export-from-ui; ../shared/dialects.md section 3). Not captured from a
server: none was available. Five traces of the toy RAG agent:

  t1 ok               cites [1], three chunks retrieved
  t2 no_marker        three chunks, no marker
  t3 orphan_marker    cites [5], three chunks ({documents, scores} output)
  t4 empty_retrieval  small talk after a failing tool (level ERROR)
  t5 orphan_marker    the retriever returned nothing, the answer cites [1]

Layouts: observations_v2/ (two export windows sharing a boundary row; the
second gzipped), legacy traces/ + observations/ (reply in the trace row),
and the UI's JSON array export (camelCase, ISO times).
"""
import gzip, json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "fixtures/langfuse"
KB = {
    "KB-1": ("policies/refunds.md", "Refunds are issued within 5 business days."),
    "KB-2": ("policies/credit.md", "Store credit is issued instantly."),
    "KB-3": ("policies/shipping.md", "Standard shipping takes 3-5 days."),
    "KB-5": ("policies/warranty.md", "The warranty covers defects for 2 years."),
    "KB-6": ("policies/express.md", "Express shipping costs 15 EUR."),
}

def docs(ids, score=0.5):
    return [{"page_content": KB[i][1], "metadata": {"chunk_id": i, "source": KB[i][0], "score": score - n / 10},
             "type": "Document"} for n, i in enumerate(ids)]

TRACES = [
    ("t1", "billing-bot", "sess-a1", ["KB-1", "KB-2", "KB-3"], "list", "Refunds reach you within 5 business days [1].", False),
    ("t2", "support-bot", "sess-b2", ["KB-5", "KB-1", "KB-3"], "list", "The warranty covers defects for two years.", False),
    ("t3", "support-bot", "sess-b2", ["KB-6", "KB-3", "KB-1"], "scores", "Express shipping costs 15 EUR [5].", False),
    ("t4", "billing-bot", "sess-a1", None, None, "Sorry, I cannot look up that order right now.", True),
    ("t5", "support-bot", "sess-c3", [], "list", "We cannot fly parcels by drone [1].", False),
]

def tid(t):
    return {"t1": "4bf92f3577b34da6a3ce929d0e0e4736", "t2": "5c0a3f4688c45eb7b4df03ae1f1f5847",
            "t3": "6d1b4a5799d56fc8c5e014bf2020a958", "t4": "7e2c5b68aae670d9d6f125c03131ba69",
            "t5": "8f3d6c79bbf781eae70236d14242cb7a"}[t]

def rows(minute):
    """Observation rows (snake_case, enriched) and trace rows of each trace."""
    obs, traces = [], []
    for n, (t, agent, sess, ids, shape, answer, tool) in enumerate(TRACES):
        trace = tid(t)
        ts = lambda ms: f"2026-03-04 09:{minute + n:02d}:{ms // 1000:02d}.{ms % 1000:03d}000"
        root = f"{n + 1:x}1b2c3d4e5f60718"
        common = {"trace_id": trace, "project_id": "proj-1", "environment": "default",
                  "session_id": sess, "user_id": "u-1", "trace_name": agent, "tags": [agent],
                  "metadata": {"channel": "web"}, "level": "DEFAULT", "status_message": "", "version": "",
                  "provided_model_name": "", "usage_details": {}, "cost_details": {}, "total_cost": 0}
        obs.append({**common, "id": root, "type": "AGENT", "name": agent, "parent_observation_id": "",
                    "is_root_observation": True, "start_time": ts(1000), "end_time": ts(4000),
                    "input": json.dumps({"question": "..."}), "output": answer, "latency": 3.0})
        if ids is not None:
            out = docs(ids) if shape == "list" else {"documents": [
                {"content": KB[i][1], "metadata": {"doc_id": KB[i][0], "id": i}} for i in ids],
                "scores": [0.8, 0.6, 0.4][:len(ids)]}
            obs.append({**common, "id": f"{n + 1:x}2c3d4e5f6071829", "type": "RETRIEVER", "name": "kb_search",
                        "parent_observation_id": root, "is_root_observation": False,
                        "start_time": ts(1200), "end_time": ts(1300), "input": "question",
                        "output": json.dumps(out), "latency": 0.1})
        if tool:
            obs.append({**common, "id": f"{n + 1:x}3d4e5f607182930", "type": "TOOL", "name": "lookup_order",
                        "parent_observation_id": root, "is_root_observation": False, "level": "ERROR",
                        "status_message": "OrderServiceError: order service unavailable",
                        "start_time": ts(1400), "end_time": ts(1500), "input": "{\"order_id\": \"A-1\"}",
                        "output": "", "latency": 0.1})
        obs.append({**common, "id": f"{n + 1:x}4e5f60718293a41", "type": "GENERATION", "name": "chat",
                    "parent_observation_id": root, "is_root_observation": False,
                    "start_time": ts(2000), "end_time": ts(3900), "input": "[]",
                    "output": json.dumps({"role": "assistant", "content": answer}),
                    "provided_model_name": "gpt-4o-mini", "usage_details": {"input": 120, "output": 20, "total": 140},
                    "cost_details": {"input": 0.0001, "output": 0.0002}, "total_cost": 0.0003, "latency": 1.9})
        traces.append({"id": trace, "timestamp": ts(1000), "name": agent, "environment": "default",
                       "project_id": "proj-1", "metadata": {"channel": "web"}, "user_id": "u-1", "session_id": sess,
                       "release": None, "version": None, "public": False, "bookmarked": False, "tags": [agent],
                       "input": json.dumps({"question": "..."}), "output": answer,
                       "created_at": ts(5000), "updated_at": ts(5000)})
    return obs, traces

def jsonl(path, items, gz=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(json.dumps(i) + "\n" for i in items).encode()
    if gz:
        with open(path, "wb") as f:
            f.write(gzip.compress(data, mtime=0))
    else:
        with open(path, "wb") as f:
            f.write(data)

obs, traces = rows(15)
# Two 20-minute windows that share a boundary row (the first trace's generation).
cut = 5
jsonl(f"{OUT}/observations_v2/2026-03-04T09-00-00.jsonl", obs[:cut])
jsonl(f"{OUT}/observations_v2/2026-03-04T09-20-00.jsonl.gz", obs[cut - 1:], gz=True)
# Legacy: observations without trace context, roots being the trace rows.
legacy = []
for o in obs:
    if o["type"] == "AGENT":
        continue
    o = {k: v for k, v in o.items() if k not in ("session_id", "user_id", "trace_name", "tags", "is_root_observation")}
    o["parent_observation_id"] = ""
    legacy.append(o)
jsonl(f"{OUT}/legacy/traces/2026-03-04T09-00-00.jsonl", traces)
jsonl(f"{OUT}/legacy/observations/2026-03-04T09-00-00.jsonl", legacy)

def camel(k):
    head, *rest = k.split("_")
    return head + "".join(w.title() for w in rest)

def iso(v):
    return v.replace(" ", "T")[:23] + "Z"

ui = []
for o in obs:
    u = {camel(k): v for k, v in o.items()}
    u["startTime"], u["endTime"] = iso(o["start_time"]), iso(o["end_time"])
    u["parentObservationId"] = o["parent_observation_id"] or None
    u.pop("isRootObservation")
    out = o["output"]
    try:
        u["output"] = json.loads(out) if out.startswith(("{", "[")) else (out or None)
    except ValueError:
        pass
    ui.append(u)
os.makedirs(OUT, exist_ok=True)
with open(f"{OUT}/ui_export.json", "w") as f:
    json.dump(ui, f, indent=2)
    f.write("\n")

//! `convert --to turns`: one turn as a native turn record. A log keeps what
//! its source held — the question, chunk text, tool arguments and results
//! as well as what grading reads — and names the marker grammar its reply
//! is written in (`markers`), so the log graded with no flags gives the
//! source's verdicts.

use crate::accumulate::details::Collected;
use crate::model::{Answer, CitationIndex, Cite, Preset, ToolCall, Turn, format_time};
use serde_json::{Map, Value, json};

/// One turn as a native turn record; `markers` is the preset its reply is
/// graded with (none for a `--marker-regex` grammar, which a line cannot name).
pub fn turn_line(c: &Collected, markers: Option<Preset>) -> Value {
    let turn = &c.detail.turn;
    let extras = &c.detail.extras;
    let mut m = Map::new();
    m.insert("turn_id".into(), json!(turn.turn_id));
    m.insert("agent_id".into(), json!(turn.agent_id));
    if let Some(conv) = &turn.conversation_id {
        m.insert("conversation_id".into(), json!(conv));
    }
    m.insert("channel".into(), json!(turn.channel));
    m.insert("created_at".into(), json!(format_time(&turn.created_at)));
    if let Some(q) = &extras.question {
        m.insert("question".into(), json!(q));
    }
    let citations = answer(turn, &mut m);
    if let Some(p) = markers
        && !m.contains_key("markers")
    {
        m.insert("markers".into(), json!(p.name()));
    }
    if let Some(e) = turn.evidence {
        m.insert("evidence".into(), json!(e.as_str()));
    }
    let mut g = grounding(c);
    if let Some(list) = citations {
        g.insert("citations".into(), list);
    }
    m.insert("grounding".into(), Value::Object(g));
    Value::Object(m)
}

/// `reply`, or `unobserved` with its reason; or the `grounding.citations`
/// returned, with the answer text as `reply` when the source held it and
/// each citation's place (`start`, `end`, `text`, `quote`, `quote_start`,
/// `quote_end`), so the line reads back to the same support checks.
fn answer(turn: &Turn<'_>, m: &mut Map<String, Value>) -> Option<Value> {
    match &turn.answer {
        Answer::Reply(r) => {
            m.insert("reply".into(), json!(r.decoded()));
            None
        }
        Answer::Unobserved(reason) => {
            m.insert("reply".into(), Value::Null);
            m.insert("unobserved".into(), json!(reason));
            None
        }
        Answer::Citations(list, _) => {
            let t = &turn.texts;
            // With the answer text: `markers: "citations"` says the list,
            // not markers in the text, grades it.
            let placed = t.answer.is_some();
            if placed {
                m.insert("reply".into(), json!(t.answer));
                m.insert("markers".into(), json!("citations"));
            } else {
                m.insert("reply".into(), Value::Null);
            }
            // Written so that reading the line back grades the same:
            // out of range as a negative index, malformed as null.
            let cites: Vec<Value> = list
                .iter()
                .enumerate()
                .map(|(k, i)| {
                    let mut o = Map::new();
                    o.insert(
                        "index".into(),
                        match i {
                            CitationIndex::Index(n) => json!(n),
                            CitationIndex::OutOfRange => json!(-1),
                            CitationIndex::Malformed => Value::Null,
                        },
                    );
                    if let (true, Some(c)) = (placed, t.cites.get(k)) {
                        place(c, &mut o);
                    }
                    Value::Object(o)
                })
                .collect();
            Some(Value::Array(cites))
        }
    }
}

/// A citation's place, in the keys a native citation reads.
fn place(c: &Cite, o: &mut Map<String, Value>) {
    if let Some((s, e)) = c.span {
        o.insert("start".into(), json!(s));
        o.insert("end".into(), json!(e));
    }
    if let Some(t) = &c.span_text {
        o.insert("text".into(), json!(&**t));
    }
    if let Some(q) = &c.quote {
        o.insert("quote".into(), json!(&**q));
    }
    if let Some((s, e)) = c.quote_at {
        o.insert("quote_start".into(), json!(s));
        o.insert("quote_end".into(), json!(e));
    }
}

/// `grounding`: chunks (with their text when the source held it), tool
/// calls in full, and telemetry.
fn grounding(c: &Collected) -> Map<String, Value> {
    let turn: &Turn<'_> = &c.detail.turn;
    let texts = &c.detail.extras.chunk_texts;
    let chunks: Vec<Value> = turn
        .chunks
        .iter()
        .enumerate()
        .map(|(i, ch)| {
            let mut o = Map::new();
            o.insert("document_id".into(), json!(ch.document_id));
            o.insert("chunk_id".into(), json!(ch.chunk_id));
            o.insert("score".into(), json!(ch.score));
            if let Some(Some(text)) = texts.get(i) {
                o.insert("content".into(), json!(text));
            }
            Value::Object(o)
        })
        .collect();
    let tools: Vec<Value> = c.detail.extras.tools.iter().map(tool).collect();
    let mut g = Map::new();
    g.insert("chunks".into(), Value::Array(chunks));
    g.insert("tools".into(), Value::Array(tools));
    g.insert("model".into(), json!(turn.model));
    g.insert("tokens_used".into(), json!(turn.tokens_used));
    g.insert("latency_ms".into(), json!(turn.latency_ms));
    if let Some(cost) = turn.cost_cents {
        g.insert("cost_cents".into(), json!(cost));
    }
    g
}

/// One tool call, with its arguments and result when the source held them.
fn tool(t: &ToolCall) -> Value {
    let mut o = Map::new();
    o.insert("name".into(), json!(t.name));
    // A call that never ended has no status: not a failure, as in the source.
    if t.status != "no_end" {
        o.insert("status".into(), json!(t.status));
    }
    o.insert("duration_ms".into(), json!(t.duration_ms));
    if let Some(a) = &t.arguments {
        o.insert("arguments".into(), a.clone());
    }
    if let Some(r) = &t.result {
        o.insert("result".into(), r.clone());
    }
    Value::Object(o)
}

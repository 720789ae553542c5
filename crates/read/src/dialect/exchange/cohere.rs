//! Cohere chat, v2 (`message.citations[].sources[]`) and v1
//! (`citations[].document_ids[]`).
//!
//! v2 chunks are the request's `documents` and the documents of its tool
//! messages (a tool message whose content is text is one document); a
//! source names its chunk by id (a tool document given without
//! one is `<tool_call_id>:<position>`), or, failing that, by its text. v1
//! chunks are the `documents` the response echoes (ids assigned as `doc_0`
//! where the request gave none), else the request's. Offsets (`start`,
//! `end`) point into the answer and do not change which chunk is cited.
//!
//! The answer is v2's `message.content[type=text]` parts (joined by a blank
//! line; a citation's `content_index` names its part, else the first text
//! part) or v1's `text`. A citation's span is `start..end` (characters, end
//! exclusive) with `text` the answer text it says they hold; a citation
//! naming several sources (or document ids) is one citation per source,
//! each with the same span.

use super::{AnswerText, Found, Reader, Source, arr, named, offset, owned, text};
use crate::model::{CitationIndex, Cite, Provider};
use serde_json::{Value, json};

/// This reader's provider: its name in every output (`markers_from`).
pub(super) const PROVIDER: Provider = Provider::named("cohere");

/// This provider as the exchange dialect reads it.
pub(super) const READER: Reader = Reader {
    provider: PROVIDER,
    shown: "Cohere",
    read: |req, resp, _| read(req, resp),
    from_events,
    last_event: Some("message-end"),
    is_body,
    is_event,
};

/// A chat response (v2's `message`, v1's `generation_id`, or its `text`
/// and `finish_reason`), or a stream's events.
fn is_body(_req: &Value, resp: &Value) -> bool {
    resp.get("message").is_some_and(|m| m.get("role").is_some())
        || resp.get("generation_id").is_some()
        || resp.get("text").is_some() && resp.get("finish_reason").is_some()
}

fn is_event(e: &Value) -> bool {
    let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
    kind == "message-start" || kind == "citation-start" || e.get("event_type").is_some()
}

/// A document given as `{id, data{...}}` (v2), `{id, text, ...}` (v1) or a
/// string; `fallback` is its id when it has none.
fn document(d: &Value, fallback: String) -> Source {
    let data = d.get("data").unwrap_or(d);
    Source {
        doc: Some(text(d, "id").unwrap_or(fallback)),
        id: text(data, "title"),
        text: data
            .as_str()
            .map(str::to_owned)
            .or_else(|| text(data, "text").or_else(|| text(data, "snippet"))),
        ..Source::default()
    }
}

/// Reads a v1 or v2 chat body.
pub(super) fn read(req: &Value, resp: &Value) -> Found {
    if resp.get("message").is_some_and(Value::is_object) {
        v2(req, resp)
    } else {
        v1(req, resp)
    }
}

fn v2(req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(PROVIDER, "v2 chat");
    for (i, d) in arr(req.get("documents")).iter().enumerate() {
        found.chunks.push(document(d, format!("doc:{i}")));
    }
    for m in arr(req.get("messages"))
        .iter()
        .filter(|m| m["role"] == "tool")
    {
        let call = m.get("tool_call_id").and_then(Value::as_str).unwrap_or("");
        // A tool result given as plain text is that call's one document.
        if let Some(t) = m.get("content").filter(|c| c.is_string()) {
            found.chunks.push(document(t, format!("{call}:0")));
            continue;
        }
        for (k, c) in arr(m.get("content")).iter().enumerate() {
            if c["type"] == "document" {
                let d = c.get("document").unwrap_or(&Value::Null);
                found.chunks.push(document(d, format!("{call}:{k}")));
            }
        }
    }
    let mut answer = AnswerText::default();
    let mut bases: Vec<Option<usize>> = Vec::new();
    for c in arr(resp.pointer("/message/content")) {
        bases.push(match c.get("text").and_then(Value::as_str) {
            Some(t) if c["type"] == "text" => Some(answer.push(t, "\n\n").0),
            _ => None,
        });
    }
    found.answer = answer.done();
    for c in arr(resp.pointer("/message/citations")) {
        let base = match offset(c, "content_index") {
            Some(i) => bases.get(i).copied().flatten(),
            None => bases.iter().find_map(|b| *b),
        };
        let place = span(c, base);
        for s in arr(c.get("sources")) {
            let cite = match s.get("id").and_then(Value::as_str) {
                Some(id) => match named(&found.chunks, 0, id) {
                    CitationIndex::OutOfRange => by_text(&found.chunks, s),
                    hit => hit,
                },
                None => CitationIndex::Malformed,
            };
            found.cite(cite, &place);
        }
    }
    found
}

/// A citation's `start..end` from `base` (none without a part to count
/// from), with the `text` it says they hold.
fn span(c: &Value, base: Option<usize>) -> Cite {
    Cite {
        span: base
            .zip(offset(c, "start").zip(offset(c, "end")))
            .map(|(b, (s, e))| (b.saturating_add(s), b.saturating_add(e))),
        span_text: owned(c, "text"),
        ..Cite::default()
    }
}

/// The chunk whose text is the text a source embeds, else out of range.
fn by_text(chunks: &[Source], s: &Value) -> CitationIndex {
    let embedded = s
        .pointer("/document/text")
        .or(s.pointer("/document/snippet"))
        .and_then(Value::as_str);
    embedded
        .and_then(|t| chunks.iter().position(|c| c.text.as_deref() == Some(t)))
        .map_or(CitationIndex::OutOfRange, |p| {
            CitationIndex::Index(p as u64 + 1)
        })
}

fn v1(req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(PROVIDER, "v1 chat");
    let echoed = arr(resp.get("documents"));
    let given = if echoed.is_empty() {
        arr(req.get("documents"))
    } else {
        echoed
    };
    for (i, d) in given.iter().enumerate() {
        found.chunks.push(document(d, format!("doc_{i}")));
    }
    found.answer = text(resp, "text");
    let base = found.answer.as_ref().map(|_| 0);
    for c in arr(resp.get("citations")) {
        let place = span(c, base);
        for id in arr(c.get("document_ids")) {
            let cite = match id.as_str() {
                Some(id) => named(&found.chunks, 0, id),
                None => CitationIndex::Malformed,
            };
            found.cite(cite, &place);
        }
    }
    found
}

/// The body a v2 stream adds up to, in any event order: each
/// `content-start`'s part at its index, then its `content-delta`s' text
/// appended in the order they came (a delta before its part's start still
/// lands on its index), and each `citation-start`'s citation (one object,
/// or a list) under `message.citations`.
pub(super) fn from_events(events: &[Value]) -> Value {
    let mut citations = Vec::new();
    let mut content: Vec<Value> = Vec::new();
    // Starts first, so a part's own (usually empty) text never overwrites
    // the deltas before it.
    let (starts, rest): (Vec<&Value>, Vec<&Value>) = events
        .iter()
        .partition(|e| e.get("type").and_then(Value::as_str) == Some("content-start"));
    for e in starts.into_iter().chain(rest) {
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        let part = e.pointer("/delta/message/content");
        // A part's index is below the number of events.
        let i = e
            .get("index")
            .and_then(Value::as_u64)
            .filter(|&i| i < events.len() as u64)
            .map(|i| i as usize);
        match (kind, part, i) {
            ("content-start", Some(p), Some(i)) => {
                if content.len() <= i {
                    content.resize(i + 1, Value::Null);
                }
                content[i] = p.clone();
            }
            ("content-delta", Some(p), Some(i)) => {
                if let Some(add) = p.get("text").and_then(Value::as_str) {
                    if content.len() <= i {
                        content.resize(i + 1, Value::Null);
                    }
                    if content[i].is_null() {
                        content[i] = json!({"type": "text"});
                    }
                    if content[i].is_object() {
                        super::append_text(&mut content[i], add);
                    }
                }
            }
            ("citation-start", ..) => match e.pointer("/delta/message/citations") {
                Some(Value::Array(list)) => citations.extend(list.iter().cloned()),
                Some(c @ Value::Object(_)) => citations.push(c.clone()),
                _ => {}
            },
            _ => {}
        }
    }
    // v1 streams end with `stream-end`, whose `response` is the whole body.
    if let Some(r) = events
        .iter()
        .rev()
        .find(|e| e["event_type"] == "stream-end")
        .and_then(|e| e.get("response"))
    {
        return r.clone();
    }
    json!({"message": {"role": "assistant", "content": content, "citations": citations}})
}

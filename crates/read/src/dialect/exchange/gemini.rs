//! Gemini and Vertex AI: `candidates[0].groundingMetadata`.
//!
//! Chunks are `groundingChunks[]` (`web{uri, title}` or
//! `retrievedContext{title, uri, text}`), in order; each support's
//! `groundingChunkIndices[]` are 0-based positions in that list. Segment
//! offsets (UTF-8 bytes, `startIndex` omitted when 0) point into the answer
//! and do not change which chunk is cited.
//!
//! The answer is the candidate's text parts (thoughts left out),
//! concatenated. A support's span is its segment's bytes (from the start of
//! part `partIndex` when it names one) turned into characters, with
//! `segment.text` the text it says they hold; a support citing several
//! chunks is one citation per chunk, each with the same span.

use super::{Found, Reader, Source, arr, at, char_of_byte, offset, owned, text};
use crate::model::{Cite, Provider};
use crate::support::chars::CharMap;
use serde_json::{Value, json};

/// This reader's provider: its name in every output (`markers_from`).
pub(super) const PROVIDER: Provider = Provider::named("gemini");

/// This provider as the exchange dialect reads it.
pub(super) const READER: Reader = Reader {
    provider: PROVIDER,
    shown: "Gemini",
    read: |req, resp, _| read(req, resp),
    from_events,
    last_event: None,
    is_body,
    is_event,
};

/// A `generateContent` response or one chunk of a stream of them.
fn is_body(_req: &Value, resp: &Value) -> bool {
    resp.get("candidates").is_some()
}

fn is_event(e: &Value) -> bool {
    e.get("candidates").is_some()
}

/// Reads a `generateContent` body.
pub(super) fn read(_req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(PROVIDER, "generateContent");
    let meta = resp
        .pointer("/candidates/0/groundingMetadata")
        .unwrap_or(&Value::Null);
    for c in arr(meta.get("groundingChunks")) {
        let (kind, inner) = match (c.get("web"), c.get("retrievedContext")) {
            (Some(w), _) => ("web", w),
            (None, Some(r)) => ("retrieved", r),
            (None, None) => ("other", c),
        };
        found.chunks.push(Source {
            doc: text(inner, "uri")
                .or_else(|| text(inner, "fileSearchStore"))
                .or_else(|| text(inner, "title")),
            id: text(inner, "title").filter(|_| kind != "other"),
            text: text(inner, "text"),
            ..Source::default()
        });
    }
    let n = found.chunks.len();
    // Each text part's first byte in the answer.
    let mut answer = String::new();
    let mut starts = Vec::new();
    let parts = arr(resp.pointer("/candidates/0/content/parts"));
    for p in parts {
        starts.push(answer.len());
        let thought = p.get("thought") == Some(&Value::Bool(true));
        if let Some(t) = p.get("text").and_then(Value::as_str).filter(|_| !thought) {
            answer.push_str(t);
        }
    }
    let has_text = parts.iter().any(|p| p.get("text").is_some());
    let map = CharMap::new(&answer);
    for s in arr(meta.get("groundingSupports")) {
        let seg = s.get("segment").unwrap_or(&Value::Null);
        let base = match offset(seg, "partIndex") {
            Some(p) => starts.get(p).copied(),
            None => Some(0),
        };
        let span = base
            .filter(|_| has_text)
            .zip(offset(seg, "endIndex"))
            .map(|(b, e)| {
                let s = b.saturating_add(offset(seg, "startIndex").unwrap_or(0));
                (
                    char_of_byte(&answer, &map, s),
                    char_of_byte(&answer, &map, b.saturating_add(e)),
                )
            });
        let place = Cite {
            span,
            span_text: owned(seg, "text"),
            ..Cite::default()
        };
        for i in arr(s.get("groundingChunkIndices")) {
            found.cite(at(Some(i), 0, n), &place);
        }
    }
    found.answer = has_text.then_some(answer);
    found
}

/// The body a `streamGenerateContent` stream adds up to: its last
/// `groundingMetadata` (sent with the last chunk), with the supports of
/// every chunk that names the same chunk list.
pub(super) fn from_events(events: &[Value]) -> Value {
    let metas: Vec<&Value> = events
        .iter()
        .filter_map(|e| e.pointer("/candidates/0/groundingMetadata"))
        .collect();
    let text: String = events
        .iter()
        .flat_map(|e| arr(e.pointer("/candidates/0/content/parts")))
        .filter(|p| p.get("thought") != Some(&Value::Bool(true)))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    let content = json!({"parts": [{"text": text}]});
    let Some(last) = metas.last() else {
        return json!({"candidates": [{"content": content}]});
    };
    let mut meta = (*last).clone();
    let supports: Vec<Value> = metas
        .iter()
        .filter(|m| m.get("groundingChunks") == last.get("groundingChunks"))
        .flat_map(|m| arr(m.get("groundingSupports")))
        .cloned()
        .collect();
    if !supports.is_empty() && meta.is_object() {
        meta["groundingSupports"] = Value::Array(supports);
    }
    json!({"candidates": [{"content": content, "groundingMetadata": meta}]})
}

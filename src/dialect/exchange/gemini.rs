//! Gemini and Vertex AI: `candidates[0].groundingMetadata`.
//!
//! Chunks are `groundingChunks[]` (`web{uri, title}` or
//! `retrievedContext{title, uri, text}`), in order; each support's
//! `groundingChunkIndices[]` are 0-based positions in that list. Segment
//! offsets (UTF-8 bytes, `startIndex` omitted when 0) point into the answer
//! and do not change which chunk is cited.

use super::{Found, Source, arr, at, text};
use crate::model::MarkersFrom;
use serde_json::{Value, json};

/// Reads a `generateContent` body.
pub(super) fn read(_req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(MarkersFrom::Gemini, "generateContent");
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
    for s in arr(meta.get("groundingSupports")) {
        for i in arr(s.get("groundingChunkIndices")) {
            found.citations.push(at(Some(i), 0, n));
        }
    }
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
    let Some(last) = metas.last() else {
        return json!({"candidates": [{}]});
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
    json!({"candidates": [{"groundingMetadata": meta}]})
}

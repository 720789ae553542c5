//! Bedrock Runtime Converse: `output.message.content[].citationsContent`.
//!
//! Chunks are the request's `document` blocks, then its `searchResult`
//! blocks (top level or inside a `toolResult`), then the web pages the
//! citations name (Nova web grounding returns no results to check them
//! against). A `documentChar`, `documentPage` or `documentChunk` location
//! names its document by `documentIndex` (0-based, counting documents only);
//! `searchResultLocation` by `searchResultIndex`; `web` by `url`.

use super::{Found, Source, arr, at, named, text};
use crate::model::{CitationIndex, MarkersFrom};
use serde_json::{Value, json};

fn given(b: &Value, docs: &mut Vec<Source>, results: &mut Vec<Source>) {
    if let Some(d) = b.get("document") {
        docs.push(Source {
            doc: text(d, "name"),
            text: d
                .pointer("/source/text")
                .and_then(Value::as_str)
                .map(str::to_owned),
            ..Source::default()
        });
    } else if let Some(r) = b.get("searchResult") {
        results.push(Source {
            doc: text(r, "source"),
            id: text(r, "title"),
            ..Source::default()
        });
    } else if let Some(t) = b.get("toolResult") {
        for c in arr(t.get("content")) {
            given(c, docs, results);
        }
    }
}

/// Reads a Converse request and response body.
pub(super) fn read(req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(MarkersFrom::Bedrock, "Converse");
    let (mut docs, mut results) = (Vec::new(), Vec::new());
    for m in arr(req.get("messages")) {
        for b in arr(m.get("content")) {
            given(b, &mut docs, &mut results);
        }
    }
    let citations: Vec<&Value> = arr(resp.pointer("/output/message/content"))
        .iter()
        .flat_map(|c| arr(c.pointer("/citationsContent/citations")))
        .collect();
    let mut web: Vec<Source> = Vec::new();
    for c in &citations {
        let Some(url) = c.pointer("/location/web/url").and_then(Value::as_str) else {
            continue;
        };
        if !web.iter().any(|w| w.doc.as_deref() == Some(url)) {
            web.push(Source {
                doc: Some(url.to_owned()),
                ..Source::default()
            });
        }
    }
    if !web.is_empty() {
        found.notes.push(format!(
            "web grounding returns no results: the chunks include the {} pages the citations name",
            web.len()
        ));
    }
    let (nd, nr) = (docs.len(), results.len());
    found.chunks = [docs, results, web].concat();
    for c in citations {
        let loc = c.get("location").unwrap_or(&Value::Null);
        let doc = ["documentChar", "documentPage", "documentChunk"]
            .iter()
            .find_map(|k| loc.get(*k));
        let cite = if let Some(d) = doc {
            at(d.get("documentIndex"), 0, nd)
        } else if let Some(s) = loc.get("searchResultLocation") {
            at(s.get("searchResultIndex"), nd, nr)
        } else if let Some(url) = loc.pointer("/web/url").and_then(Value::as_str) {
            named(&found.chunks, nd + nr, url)
        } else {
            CitationIndex::Malformed
        };
        found.citations.push(cite);
    }
    found
}

/// The body a ConverseStream adds up to: each `contentBlockDelta` frame's
/// `delta.citation` (sent before the text it supports).
pub(super) fn from_events(events: &[Value]) -> Value {
    let citations: Vec<Value> = events
        .iter()
        .filter(|e| {
            e.pointer("/headers/:event-type").and_then(Value::as_str) == Some("contentBlockDelta")
        })
        .filter_map(|e| e.pointer("/payload/delta/citation").cloned())
        .collect();
    json!({"output": {"message": {"role": "assistant",
        "content": [{"citationsContent": {"citations": citations}}]}}})
}

//! Bedrock Runtime Converse: `output.message.content[].citationsContent`.
//!
//! Chunks are the request's `document` blocks, then its `searchResult`
//! blocks (top level or inside a `toolResult`), then the web pages the
//! citations name (Nova web grounding returns no results to check them
//! against). A `documentChar`, `documentPage` or `documentChunk` location
//! names its document by `documentIndex` (0-based, counting documents only);
//! `searchResultLocation` by `searchResultIndex`; `web` by `url`.
//!
//! The answer is the response's text blocks and the generated text of its
//! `citationsContent` blocks, concatenated. A citation's span is its
//! `citationsContent` block (a block with no text, as Nova's web citations
//! after the text they support, is the point where it sits), its quote
//! `sourceContent[].text`, and a `documentChar`'s `start..end` (or a
//! `searchResultLocation`'s blocks) where that quote sits in the chunk.

use super::{AnswerText, Found, Source, arr, at, block_range, blocks, named, offset, text};
use crate::model::{CitationIndex, Cite};
use serde_json::{Value, json};

fn given(b: &Value, docs: &mut Vec<Source>, results: &mut Vec<(Source, Vec<usize>)>) {
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
        let (t, lens) = blocks(r.get("content"));
        results.push((
            Source {
                doc: text(r, "source"),
                id: text(r, "title"),
                text: Some(t),
                ..Source::default()
            },
            lens,
        ));
    } else if let Some(t) = b.get("toolResult") {
        for c in arr(t.get("content")) {
            given(c, docs, results);
        }
    }
}

/// Reads a Converse request and response body.
pub(super) fn read(req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(super::bedrock::PROVIDER, "Converse");
    let (mut docs, mut results) = (Vec::new(), Vec::new());
    for m in arr(req.get("messages")) {
        for b in arr(m.get("content")) {
            given(b, &mut docs, &mut results);
        }
    }
    let mut answer = AnswerText::default();
    let mut citations: Vec<(&Value, (usize, usize))> = Vec::new();
    for c in arr(resp.pointer("/output/message/content")) {
        if let Some(t) = c.get("text").and_then(Value::as_str) {
            answer.push(t, "");
        } else if let Some(cc) = c.get("citationsContent") {
            let (t, _) = blocks(cc.get("content"));
            let span = answer.push(&t, "");
            citations.extend(arr(cc.get("citations")).iter().map(|x| (x, span)));
        }
    }
    found.answer = answer.done();
    let mut web: Vec<Source> = Vec::new();
    for (c, _) in &citations {
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
    let (results, result_blocks): (Vec<Source>, Vec<Vec<usize>>) = results.into_iter().unzip();
    found.chunks = [docs, results, web].concat();
    for (c, span) in citations {
        let quote: Vec<&str> = arr(c.get("sourceContent"))
            .iter()
            .filter_map(|s| s.get("text").and_then(Value::as_str))
            .collect();
        let mut place = Cite {
            span: Some(span),
            quote: (!quote.is_empty()).then(|| quote.join("\n").into()),
            ..Cite::default()
        };
        let loc = c.get("location").unwrap_or(&Value::Null);
        let doc = ["documentChar", "documentPage", "documentChunk"]
            .iter()
            .find_map(|k| loc.get(*k));
        let cite = if let Some(d) = doc {
            if let Some(chars) = loc.get("documentChar") {
                place.quote_at = offset(chars, "start").zip(offset(chars, "end"));
            }
            at(d.get("documentIndex"), 0, nd)
        } else if let Some(s) = loc.get("searchResultLocation") {
            place.quote_at = offset(s, "searchResultIndex")
                .and_then(|i| result_blocks.get(i))
                .and_then(|l| block_range(l, offset(s, "start")?, offset(s, "end")?));
            at(s.get("searchResultIndex"), nd, nr)
        } else if let Some(url) = loc.pointer("/web/url").and_then(Value::as_str) {
            named(&found.chunks, nd + nr, url)
        } else {
            CitationIndex::Malformed
        };
        found.cite(cite, &place);
    }
    found
}

/// The body a ConverseStream adds up to: per `contentBlockIndex`, its
/// `contentBlockDelta` frames' `delta.text` appended and `delta.citation`s
/// (sent before the text they support) gathered; a block with citations
/// is a `citationsContent` block.
pub(super) fn from_events(events: &[Value]) -> Value {
    let mut blocks: Vec<(String, Vec<Value>)> = Vec::new();
    for e in events.iter().filter(|e| {
        e.pointer("/headers/:event-type").and_then(Value::as_str) == Some("contentBlockDelta")
    }) {
        let Some(i) = e
            .pointer("/payload/contentBlockIndex")
            .and_then(Value::as_u64)
            .filter(|&i| i < events.len() as u64)
        else {
            continue;
        };
        let i = i as usize;
        if blocks.len() <= i {
            blocks.resize(i + 1, Default::default());
        }
        let d = e.pointer("/payload/delta").unwrap_or(&Value::Null);
        if let Some(t) = d.get("text").and_then(Value::as_str) {
            blocks[i].0.push_str(t);
        }
        if let Some(c) = d.get("citation") {
            blocks[i].1.push(c.clone());
        }
    }
    let content: Vec<Value> = blocks
        .into_iter()
        .map(|(text, citations)| {
            if citations.is_empty() {
                json!({"text": text})
            } else {
                json!({"citationsContent": {"content": [{"text": text}], "citations": citations}})
            }
        })
        .collect();
    json!({"output": {"message": {"role": "assistant", "content": content}}})
}

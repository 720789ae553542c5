//! Anthropic Messages: `document` and `search_result` blocks of the request,
//! `web_search_tool_result` blocks of the conversation and the response.
//!
//! `document_index` counts the request's `document` blocks only (a document
//! that is the second block of its message is still document 0), and
//! `search_result_index` its `search_result` blocks only; a web search
//! citation names its result by URL. Character, page and block offsets point
//! into the document and do not change which chunk is cited.
//!
//! The answer is the response's text blocks, concatenated; a citation's
//! span is the block it is attached to, its quote `cited_text`, and a
//! `char_location`'s `start_char_index..end_char_index` (or a block
//! location's blocks) where that quote sits in the document's text.

use super::{
    AnswerText, Found, Reader, Source, arr, at, block_range, blocks, named, offset, owned, text,
};
use crate::model::{CitationIndex, Cite, Provider};
use serde_json::{Value, json};

/// This reader's provider: its name in every output (`markers_from`).
pub(super) const PROVIDER: Provider = Provider::named("anthropic");

/// This provider as the exchange dialect reads it.
pub(super) const READER: Reader = Reader {
    provider: PROVIDER,
    shown: "Anthropic",
    read: |req, resp, _| read(req, resp),
    from_events,
    last_event: Some("message_stop"),
    is_body,
    is_event,
};

/// A Messages API response (LangSmith's `wrap_anthropic` records it
/// without its `type`), or a stream that opens with `message_start`.
fn is_body(_req: &Value, resp: &Value) -> bool {
    let message = resp.get("type").and_then(Value::as_str) == Some("message")
        || resp.get("role").and_then(Value::as_str) == Some("assistant")
            && resp.get("stop_reason").is_some();
    message && resp.get("content").is_some_and(Value::is_array)
}

fn is_event(e: &Value) -> bool {
    e.get("type").and_then(Value::as_str) == Some("message_start")
}

/// The chunks of one conversation, by kind.
#[derive(Default)]
struct Given {
    docs: Vec<Source>,
    results: Vec<Source>,
    web: Vec<Source>,
    /// The characters of each block of a document given as `content`
    /// blocks (empty for other documents), and of each search result.
    doc_blocks: Vec<Vec<usize>>,
    result_blocks: Vec<Vec<usize>>,
}

impl Given {
    fn block(&mut self, b: &Value) {
        match b.get("type").and_then(Value::as_str) {
            Some("document") => {
                let kind = b.pointer("/source/type").and_then(Value::as_str);
                let (text, lens) = match kind {
                    Some("text") => (
                        b.pointer("/source/data")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        Vec::new(),
                    ),
                    Some("content") => {
                        let (t, lens) = blocks(b.pointer("/source/content"));
                        (Some(t), lens)
                    }
                    _ => (None, Vec::new()),
                };
                self.docs.push(Source {
                    doc: super::text(b, "title"),
                    text,
                    ..Source::default()
                });
                self.doc_blocks.push(lens);
            }
            Some("search_result") => {
                let (t, lens) = blocks(b.get("content"));
                self.results.push(Source {
                    doc: text(b, "source"),
                    id: text(b, "title"),
                    text: Some(t),
                    ..Source::default()
                });
                self.result_blocks.push(lens);
            }
            Some("tool_result") => arr(b.get("content")).iter().for_each(|c| self.block(c)),
            Some("web_search_tool_result") => {
                for r in arr(b.get("content")) {
                    self.web.push(Source {
                        doc: text(r, "url"),
                        id: text(r, "title"),
                        ..Source::default()
                    });
                }
            }
            _ => {}
        }
    }
}

/// Reads a Messages request and response body.
pub(super) fn read(req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(PROVIDER, "messages");
    let mut given = Given::default();
    for m in arr(req.get("messages")) {
        arr(m.get("content")).iter().for_each(|b| given.block(b));
    }
    let content = arr(resp.get("content"));
    content.iter().for_each(|b| given.block(b));
    let (nd, nr) = (given.docs.len(), given.results.len());
    found.notes.push(format!(
        "{nd} document blocks and {nr} search results given, {} web search results",
        given.web.len()
    ));
    let (doc_blocks, result_blocks) = (
        std::mem::take(&mut given.doc_blocks),
        std::mem::take(&mut given.result_blocks),
    );
    found.chunks = [given.docs, given.results, given.web].concat();
    let mut answer = AnswerText::default();
    for b in content.iter().filter(|b| b["type"] == "text") {
        let span = answer.push(b.get("text").and_then(Value::as_str).unwrap_or(""), "");
        for c in arr(b.get("citations")) {
            let mut place = Cite {
                span: Some(span),
                quote: owned(c, "cited_text"),
                ..Cite::default()
            };
            let blocks_of = |lists: &[Vec<usize>], key: &str| {
                let list = lists.get(offset(c, key)?)?;
                block_range(
                    list,
                    offset(c, "start_block_index")?,
                    offset(c, "end_block_index")?,
                )
            };
            let cite = match c.get("type").and_then(Value::as_str) {
                Some(kind @ ("char_location" | "page_location" | "content_block_location")) => {
                    place.quote_at = match kind {
                        "char_location" => {
                            offset(c, "start_char_index").zip(offset(c, "end_char_index"))
                        }
                        "content_block_location" => blocks_of(&doc_blocks, "document_index"),
                        _ => None,
                    };
                    at(c.get("document_index"), 0, nd)
                }
                Some("search_result_location") => {
                    place.quote_at = blocks_of(&result_blocks, "search_result_index");
                    at(c.get("search_result_index"), nd, nr)
                }
                Some("web_search_result_location") => match c.get("url").and_then(Value::as_str) {
                    Some(url) => named(&found.chunks, nd + nr, url),
                    None => CitationIndex::Malformed,
                },
                _ => CitationIndex::Malformed,
            };
            found.cite(cite, &place);
        }
    }
    found.answer = answer.done();
    found
}

/// The body a stream adds up to, in any event order: `message_start`'s
/// message and each `content_block_start`'s block at its index first, then
/// every `text_delta` appended and `citations_delta` pushed onto its block
/// by index, in the order they came (a delta before its block's start, or
/// a block that never started, still lands on its index).
pub(super) fn from_events(events: &[Value]) -> Value {
    let mut body = json!({"type": "message", "content": []});
    // A block's index is below the number of events; a larger one names no
    // block this stream could have built.
    let index = |e: &Value| {
        e.get("index")
            .and_then(Value::as_u64)
            .filter(|&i| i < events.len() as u64)
            .map(|i| i as usize)
    };
    if let Some(m) = events
        .iter()
        .filter(|e| e.get("type").and_then(Value::as_str) == Some("message_start"))
        .find_map(|e| e.get("message").filter(|m| m.is_object()))
    {
        body = m.clone();
    }
    let mut content: Vec<Value> = Vec::new();
    let place = |content: &mut Vec<Value>, i: usize| {
        if content.len() <= i {
            content.resize(i + 1, Value::Null);
        }
    };
    for e in events {
        if e.get("type").and_then(Value::as_str) == Some("content_block_start")
            && let Some(i) = index(e)
        {
            place(&mut content, i);
            content[i] = e.get("content_block").cloned().unwrap_or(Value::Null);
        }
    }
    for e in events {
        if e.get("type").and_then(Value::as_str) == Some("content_block_delta")
            && let Some(i) = index(e)
        {
            place(&mut content, i);
            delta(&mut content[i], e.get("delta").unwrap_or(&Value::Null));
        }
    }
    body["content"] = Value::Array(content);
    body
}

fn delta(block: &mut Value, d: &Value) {
    if block.is_null() {
        *block = json!({"type": "text"});
    }
    if !block.is_object() {
        return;
    }
    match d.get("type").and_then(Value::as_str) {
        Some("text_delta") => {
            let add = d.get("text").and_then(Value::as_str).unwrap_or("");
            super::append_text(block, add);
        }
        Some("citations_delta") => {
            if !block.get("citations").is_some_and(Value::is_array) {
                block["citations"] = json!([]);
            }
            if let (Some(list), Some(c)) = (block["citations"].as_array_mut(), d.get("citation")) {
                list.push(c.clone());
            }
        }
        _ => {}
    }
}

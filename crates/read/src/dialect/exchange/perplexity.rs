//! Perplexity chat completions: `citations[]` (URLs) with
//! `search_results[]` in the same order, cited by `[n]` markers in
//! `choices[0].message.content`, 1-based into `citations`.
//!
//! The markers are read by the `numeric` grammar of the marker rules, so a
//! marker past the list is out of range exactly as it is in a reply.
//!
//! The answer is the message content; a citation's span is its marker's
//! place in it (characters).

use super::{Found, Reader, Source, arr, text};
use crate::markers::{Grammar, MarkerKind, Preset};
use crate::model::{Chunk, CitationIndex, Cite, Provider};
use crate::support::chars::CharMap;
use serde_json::{Value, json};

/// This reader's provider: its name in every output (`markers_from`).
pub(super) const PROVIDER: Provider = Provider::named("perplexity");

/// This provider as the exchange dialect reads it.
pub(super) const READER: Reader = Reader {
    provider: PROVIDER,
    shown: "Perplexity",
    read: |req, resp, _| read(req, resp),
    from_events,
    last_event: None,
    is_body,
    is_event,
};

/// A chat completion (or a chunk of one) that carries citations or
/// search results; asked before OpenAI's, whose chat completions it
/// otherwise shares.
fn is_body(_req: &Value, resp: &Value) -> bool {
    is_event(resp)
}

fn is_event(e: &Value) -> bool {
    e.get("choices").is_some()
        && (e.get("citations").is_some() || e.get("search_results").is_some())
}

/// Reads a chat completion body.
pub(super) fn read(_req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(PROVIDER, "chat completions");
    let results = arr(resp.get("search_results"));
    let cites = arr(resp.get("citations"));
    let n = cites.len().max(results.len());
    for i in 0..n {
        let r = results.get(i).unwrap_or(&Value::Null);
        found.chunks.push(Source {
            doc: cites
                .get(i)
                .and_then(Value::as_str)
                .map(str::to_owned)
                .or_else(|| text(r, "url")),
            id: text(r, "title"),
            text: text(r, "snippet"),
            ..Source::default()
        });
    }
    let content = resp
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .unwrap_or("");
    let chunks: Vec<Chunk<'_>> = (1..=n as u32)
        .map(|index| Chunk {
            index,
            document_id: None,
            chunk_id: None,
            score: None,
        })
        .collect();
    let map = CharMap::new(content);
    Grammar::Preset(Preset::Numeric).scan(content, &chunks, &mut |m| {
        let cite = match m.kind {
            MarkerKind::Cited(i) => CitationIndex::Index(u64::from(i)),
            MarkerKind::OutOfRange => CitationIndex::OutOfRange,
            MarkerKind::Malformed => CitationIndex::Malformed,
        };
        let span = (map.char_at(content, m.start), map.char_at(content, m.end));
        found.cite(
            cite,
            &Cite {
                span: Some(span),
                ..Cite::default()
            },
        );
    });
    found.answer = resp
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .map(str::to_owned);
    found
}

/// The body a stream adds up to: the last message (else every delta's content), and
/// the last `citations` and `search_results` (every chunk repeats them).
pub(super) fn from_events(events: &[Value]) -> Value {
    // Each chunk carries the message so far beside its delta: the last
    // message is the whole answer, even of a stream kept only in part.
    let whole = events.iter().rev().find_map(|e| {
        e.pointer("/choices/0/message/content")
            .and_then(Value::as_str)
    });
    let content: String = match whole {
        Some(w) => w.to_owned(),
        None => events
            .iter()
            .filter_map(|e| {
                e.pointer("/choices/0/delta/content")
                    .and_then(Value::as_str)
            })
            .collect(),
    };
    let last = |k: &str| {
        events
            .iter()
            .rev()
            .find_map(|e| e.get(k))
            .cloned()
            .unwrap_or(json!([]))
    };
    json!({
        "citations": last("citations"),
        "search_results": last("search_results"),
        "choices": [{"message": {"content": content}}],
    })
}

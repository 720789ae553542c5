//! OpenAI Responses (`output[]`) and Chat Completions (`choices[]`).
//!
//! Chunks are what the response returned: `file_search_call.results` (only
//! with `include: ["file_search_call.results"]`) and `web_search_call`'s
//! `action.sources` (only with `include: ["web_search_call.action.sources"]`).
//! A `file_citation` names its chunk by `file_id`, a `url_citation` by `url`.
//! When a search ran but its results were not included, its chunks are the
//! sources the annotations name (the response holds nothing to check them
//! against), and a search that nothing cites counts as one chunk.
//!
//! Chat Completions without annotations: the chunks are the tool results
//! the request's history carries, and the answer's Markdown links to their
//! URLs cite them ([`super::links`]).
//!
//! The answer is the message's `output_text` parts (joined by a blank
//! line), or the chat message's `content`. A `url_citation`'s span is its
//! `start_index..end_index` (characters; the inline link the model wrote),
//! a `file_citation`'s the point `index`; neither says what text it spans
//! or quotes.

use super::{AnswerText, Found, Reader, Source, arr, named, offset, text};
use crate::model::{CitationIndex, Cite, Provider};
use serde_json::{Value, json};

/// This reader's provider: its name in every output (`markers_from`).
pub(super) const PROVIDER: Provider = Provider::named("openai");

/// This provider as the exchange dialect reads it.
pub(super) const READER: Reader = Reader {
    provider: PROVIDER,
    shown: "OpenAI",
    read: |req, resp, _| read(req, resp),
    from_events,
    last_event: None,
    is_body,
    is_event,
};

/// A Responses API response (`object: "response"`, or its `output`
/// items), a chat completion, or a stream of either.
fn is_body(_req: &Value, resp: &Value) -> bool {
    resp.get("object").and_then(Value::as_str) == Some("response")
        || resp.get("output").is_some_and(Value::is_array)
        || resp.get("choices").is_some()
}

fn is_event(e: &Value) -> bool {
    e.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.starts_with("response."))
        || e.get("choices").is_some()
}

/// Reads a Responses or Chat Completions body.
pub(super) fn read(req: &Value, resp: &Value) -> Found {
    if resp.get("choices").is_some() {
        return chat(req, resp);
    }
    let mut found = Found::new(PROVIDER, "responses");
    let output = arr(resp.get("output"));
    let (mut files, mut web) = (Vec::new(), Vec::new());
    let (mut files_hidden, mut web_hidden) = (0, 0);
    for o in output {
        match o.get("type").and_then(Value::as_str) {
            Some("file_search_call") => match o.get("results").and_then(Value::as_array) {
                Some(results) => files.extend(results.iter().map(|r| Source {
                    doc: text(r, "file_id"),
                    id: text(r, "filename"),
                    score: r.get("score").and_then(Value::as_f64),
                    text: text(r, "text"),
                })),
                None => files_hidden += 1,
            },
            Some("web_search_call") => match o.pointer("/action/sources").and_then(Value::as_array)
            {
                Some(sources) => web.extend(sources.iter().map(|s| Source {
                    doc: text(s, "url"),
                    ..Source::default()
                })),
                None => web_hidden += 1,
            },
            _ => {}
        }
    }
    let mut answer = AnswerText::default();
    let mut placed: Vec<(&Value, usize)> = Vec::new();
    for c in output
        .iter()
        .filter(|o| o["type"] == "message")
        .flat_map(|o| arr(o.get("content")))
    {
        let base = match c.get("text").and_then(Value::as_str) {
            Some(t) if c["type"] == "output_text" => answer.push(t, "\n\n").0,
            _ => 0,
        };
        placed.extend(arr(c.get("annotations")).iter().map(|a| (a, base)));
    }
    found.answer = answer.done();
    let annotations: Vec<&Value> = placed.iter().map(|(a, _)| *a).collect();
    let named_by = |kind: &str, key: &str| -> Vec<Source> {
        let mut out: Vec<Source> = Vec::new();
        let title = if kind == "file_citation" {
            "filename"
        } else {
            "title"
        };
        for a in annotations.iter().filter(|a| a["type"] == kind) {
            let Some(k) = text(a, key) else { continue };
            if !out.iter().any(|s| s.doc.as_deref() == Some(&k)) {
                out.push(Source {
                    doc: Some(k),
                    id: text(a, title),
                    ..Source::default()
                });
            }
        }
        out
    };
    if files_hidden > 0 {
        let cited = named_by("file_citation", "file_id");
        found.notes.push(format!(
            "{files_hidden} file searches without their results (no include of file_search_call.results): \
             their chunks are the {} files the annotations name",
            cited.len()
        ));
        files.extend(if cited.is_empty() {
            vec![Source::default(); files_hidden]
        } else {
            cited
        });
    }
    if web_hidden > 0 {
        let cited = named_by("url_citation", "url");
        found.notes.push(format!(
            "{web_hidden} web searches without their sources (no include of web_search_call.action.sources): \
             their chunks are the {} pages the annotations name",
            cited.len()
        ));
        web.extend(if cited.is_empty() {
            vec![Source::default(); web_hidden]
        } else {
            cited
        });
    }
    let nf = files.len();
    found.chunks = [files, web].concat();
    for (a, base) in placed {
        let (key, first) = match a.get("type").and_then(Value::as_str) {
            Some("file_citation") => ("file_id", 0),
            Some("url_citation") => ("url", nf),
            _ => continue,
        };
        let cite = match a.get(key).and_then(Value::as_str) {
            Some(k) => named(&found.chunks, first, k),
            None => CitationIndex::Malformed,
        };
        found.cite(cite, &place(a, base));
    }
    found
}

/// An annotation's span: `start_index..end_index` (Chat Completions nest
/// them under `url_citation`), or the point `index`, from `base`.
fn place(a: &Value, base: usize) -> Cite {
    let inner = a.get("url_citation").unwrap_or(a);
    let span = match (offset(inner, "start_index"), offset(inner, "end_index")) {
        (Some(s), Some(e)) => Some((base.saturating_add(s), base.saturating_add(e))),
        _ => offset(inner, "index").map(|i| (base.saturating_add(i), base.saturating_add(i))),
    };
    Cite {
        span,
        ..Cite::default()
    }
}

/// Chat Completions with web search (`choices[0].message.annotations[]`
/// of `url_citation {url, ...}`): the search's results are never returned,
/// so the chunks are the pages the annotations name. Without annotations,
/// the chunks are the tool results the request carries, cited by the
/// answer's links to them ([`super::links`]).
fn chat(req: &Value, resp: &Value) -> Found {
    let mut found = Found::new(PROVIDER, "chat completions");
    found.answer = text(&resp["choices"][0]["message"], "content");
    let anns = arr(resp.pointer("/choices/0/message/annotations"));
    if anns.is_empty() {
        found.chunks = super::links::tool_results(req);
        super::links::cite_links(&mut found);
        return found;
    }
    for a in anns {
        let url = a
            .pointer("/url_citation/url")
            .or(a.get("url"))
            .and_then(Value::as_str);
        let Some(url) = url else {
            found.cite(CitationIndex::Malformed, &place(a, 0));
            continue;
        };
        if !found.chunks.iter().any(|c| c.doc.as_deref() == Some(url)) {
            found.chunks.push(Source {
                doc: Some(url.to_owned()),
                ..Source::default()
            });
        }
        let cite = named(&found.chunks, 0, url);
        found.cite(cite, &place(a, 0));
    }
    found.notes.push(
        "chat completions return no search results: the chunks are the pages the annotations name"
            .to_owned(),
    );
    found
}

/// The body a Responses stream adds up to: `response.completed`'s response
/// when the stream has it, else the `output_item.done` items with the
/// `output_text.annotation.added` annotations.
pub(super) fn from_events(events: &[Value]) -> Value {
    if let Some(r) = events.iter().rev().find_map(|e| {
        matches!(
            e.get("type").and_then(Value::as_str),
            Some("response.completed" | "response.incomplete" | "response.failed")
        )
        .then(|| e.get("response"))
        .flatten()
    }) {
        return r.clone();
    }
    if events.iter().any(|e| e.get("choices").is_some()) {
        let content: String = events
            .iter()
            .filter_map(|e| {
                e.pointer("/choices/0/delta/content")
                    .and_then(Value::as_str)
            })
            .collect();
        return json!({"choices": [{"message": {"content": content, "annotations": events
            .iter()
            .flat_map(|e| arr(e.pointer("/choices/0/delta/annotations")))
            .cloned()
            .collect::<Vec<_>>()}}]});
    }
    let mut output: Vec<Value> = events
        .iter()
        .filter(|e| e["type"] == "response.output_item.done")
        .filter_map(|e| e.get("item").cloned())
        .collect();
    let added: Vec<Value> = events
        .iter()
        .filter(|e| e["type"] == "response.output_text.annotation.added")
        .filter_map(|e| e.get("annotation").cloned())
        .collect();
    let has_annotations = output
        .iter()
        .flat_map(|o| arr(o.get("content")))
        .any(|c| !arr(c.get("annotations")).is_empty());
    if !has_annotations && !added.is_empty() {
        output.push(
            json!({"type": "message", "content": [{"type": "output_text", "annotations": added}]}),
        );
    }
    json!({"object": "response", "output": output})
}

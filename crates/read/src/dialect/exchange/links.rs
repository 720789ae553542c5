//! Tool results an OpenAI-style chat request carries in its history, and an
//! answer's Markdown links to them.
//!
//! An agent that searched sends the search's results back to the model as
//! `role: "tool"` messages; they are what the answer stood on. A result
//! whose content is a JSON list of objects (Tavily, SerpAPI, most search
//! tools) is one chunk per object, named by its `url` (else `id`, else
//! `title`), with its `content`/`text`/`snippet`; any other content is one
//! chunk named by the message's `tool_call_id`.
//!
//! Answers of such agents cite by linking: `[GitHub page](https://...)`. A
//! link whose target is a retrieved result's URL (a trailing `/` aside)
//! cites it; when some result
//! has a URL, a link to any other URL names nothing retrieved and is an
//! orphan. Without results that have URLs, links are text, never citations.

use super::{Found, Source, arr, text};
use crate::model::{CitationIndex, Cite};
use serde_json::Value;

/// The chunks of the request's tool messages.
pub(super) fn tool_results(req: &Value) -> Vec<Source> {
    let mut out = Vec::new();
    for m in arr(req.get("messages"))
        .iter()
        .filter(|m| m["role"] == "tool")
    {
        let content = content(m.get("content"));
        let items = serde_json::from_str::<Value>(&content).ok();
        let results = items
            .as_ref()
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty() && a.iter().all(Value::is_object));
        match results {
            Some(results) => out.extend(results.iter().map(result)),
            None => out.push(Source {
                doc: text(m, "tool_call_id"),
                text: Some(content),
                ..Source::default()
            }),
        }
    }
    out
}

/// A message's content as text: a string, or its text parts joined.
fn content(c: Option<&Value>) -> String {
    match c {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn result(r: &Value) -> Source {
    Source {
        doc: text(r, "url")
            .or_else(|| text(r, "id"))
            .or_else(|| text(r, "title")),
        id: text(r, "title"),
        score: r.get("score").and_then(Value::as_f64),
        text: text(r, "content")
            .or_else(|| text(r, "text"))
            .or_else(|| text(r, "snippet")),
    }
}

/// Cites, for each Markdown link in the answer, the result its URL names
/// (see the module's rule); nothing when no chunk has a URL.
pub(super) fn cite_links(found: &mut Found) {
    let urls = found
        .chunks
        .iter()
        .any(|c| c.doc.as_deref().is_some_and(is_url));
    let Some(answer) = found.answer.clone().filter(|_| urls) else {
        return;
    };
    for (span, url) in links(&answer) {
        let bare = url.trim_end_matches('/');
        let index = found
            .chunks
            .iter()
            .position(|c| {
                c.doc
                    .as_deref()
                    .is_some_and(|d| d.trim_end_matches('/') == bare)
            })
            .map_or(CitationIndex::OutOfRange, |p| {
                CitationIndex::Index(p as u64 + 1)
            });
        let cite = Cite {
            span: Some(span),
            ..Cite::default()
        };
        found.cite(index, &cite);
    }
}

fn is_url(s: &str) -> bool {
    s.starts_with("https://") || s.starts_with("http://")
}

/// The Markdown links `[text](url)` of `answer`: each one's span in
/// characters and its URL. Linear: one pass over the text.
fn links(answer: &str) -> Vec<((usize, usize), &str)> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    let chars: Vec<(usize, char)> = answer.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i].1 {
            '[' => open = Some(i),
            ']' if open.is_some() && chars.get(i + 1).is_some_and(|c| c.1 == '(') => {
                let from = chars[i + 1].0 + 1;
                let close = chars[i + 2..]
                    .iter()
                    .position(|c| matches!(c.1, ')' | '[' | ']') || c.1.is_whitespace());
                // The scan goes on after where this one stopped, so no
                // character is looked at twice.
                let end = i + 2 + close.unwrap_or(chars.len() - i - 2);
                if chars.get(end).is_some_and(|c| c.1 == ')') {
                    let url = &answer[from..chars[end].0];
                    if is_url(url) {
                        out.push(((open.unwrap_or(i), end + 1), url));
                    }
                }
                i = end.saturating_sub(1);
                open = None;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn links_are_found_with_their_character_spans() {
        let a = "é [GitHub](https://g.com/x) and [b](not a url) [c](http://c.org)";
        let got = links(a);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0], ((2, 27), "https://g.com/x"));
        assert_eq!(got[1].1, "http://c.org");
    }

    #[test]
    fn search_results_are_chunks_and_links_cite_them() {
        let results = json!([{"url": "https://a.org/", "content": "A"}, {"url": "https://b.org", "content": "B"}]);
        let req = json!({"messages": [
            {"role": "user", "content": "q"},
            {"role": "tool", "tool_call_id": "c1", "content": results.to_string()},
            {"role": "tool", "tool_call_id": "c2", "content": "plain"}
        ]});
        let mut found = Found::new(
            crate::dialect::exchange::openai::PROVIDER,
            "chat completions",
        );
        found.chunks = tool_results(&req);
        assert_eq!(found.chunks.len(), 3);
        assert_eq!(found.chunks[2].doc.as_deref(), Some("c2"));
        found.answer =
            Some("See [b](https://b.org), [a](https://a.org) and [x](https://x.org).".into());
        cite_links(&mut found);
        assert_eq!(
            found.citations,
            [
                CitationIndex::Index(2),
                CitationIndex::Index(1),
                CitationIndex::OutOfRange
            ]
        );
    }

    #[test]
    fn links_are_read_in_one_pass() {
        // Unclosed link openings, each of which once scanned to the end.
        let a = "[a](".repeat(20_000) + "[b](https://b.org)";
        let got = links(&a);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].1, "https://b.org");
    }

    #[test]
    fn without_urls_in_the_results_links_are_text() {
        let mut found = Found::new(
            crate::dialect::exchange::openai::PROVIDER,
            "chat completions",
        );
        found.chunks = vec![Source {
            doc: Some("c1".into()),
            ..Source::default()
        }];
        found.answer = Some("[x](https://x.org)".into());
        cite_links(&mut found);
        assert!(found.citations.is_empty());
    }
}

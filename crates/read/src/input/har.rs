//! HAR (HTTP Archive) recordings as recorded API calls: each entry of
//! `log.entries` becomes one line of the `exchange` dialect
//! (`{id, created_at, agent_id, request, response}`), so a provider or
//! agent call recorded by a proxy, a browser or a test suite (Polly.JS)
//! grades by its citations like any recorded call.
//!
//! - `id`: the response's request-id header (`x-amzn-requestid`,
//!   `x-request-id`, `request-id`), else the entry's start time and number;
//! - `created_at`: `startedDateTime`; `agent_id`: the request URL's host;
//! - `request`: `postData.text` as JSON (`{}` when there is none);
//! - `response`: `content.text` (base64-decoded when `encoding` says so) as
//!   JSON, or, for an AWS event stream (`application/vnd.amazon.eventstream`),
//!   `{"events": [...]}` of its frames ([`super::eventstream`]); a body that
//!   is neither stays a string, which the dialect names as invalid.
//!
//! - `recorded: true`: an entry whose response is no model provider's
//!   (a search, an upload, a page) is counted as a skipped record, not
//!   named invalid.
//!
//! Every entry becomes a line, so every entry is accounted for.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

/// The entries of a HAR document, one exchange line each; None when `doc`
/// is not a HAR document (`{"log": {"entries": [...]}}`).
pub fn lines(doc: &[u8]) -> Option<Vec<u8>> {
    let doc = doc.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(doc);
    // Its first key is `log`: anything else is not parsed twice.
    let start = &doc[..doc.len().min(256)];
    memchr::memmem::find(start, b"\"log\"")?;
    let value: Value = serde_json::from_slice(doc).ok()?;
    let entries = value.pointer("/log/entries")?.as_array()?;
    let mut out = Vec::with_capacity(doc.len());
    for (k, entry) in entries.iter().enumerate() {
        serde_json::to_writer(&mut out, &line(entry, k)).ok()?;
        out.push(b'\n');
    }
    Some(out)
}

/// One entry as an exchange line.
fn line(entry: &Value, k: usize) -> Value {
    let started = entry
        .get("startedDateTime")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let request = entry.get("request").unwrap_or(&Value::Null);
    let response = entry.get("response").unwrap_or(&Value::Null);
    let id = header(
        response,
        &["x-amzn-requestid", "x-request-id", "request-id"],
    )
    .map_or_else(|| format!("{started}#{}", k + 1), str::to_owned);
    let host = request
        .get("url")
        .and_then(Value::as_str)
        .and_then(|u| u.split("://").nth(1))
        .and_then(|rest| rest.split(['/', '?']).next())
        .unwrap_or("har");
    let body = request
        .pointer("/postData/text")
        .and_then(Value::as_str)
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_else(|| json!({}));
    json!({
        "id": id,
        "created_at": started,
        "agent_id": host,
        "request": body,
        "response": content(response.get("content").unwrap_or(&Value::Null)),
        "recorded": true,
    })
}

/// A response header's value, by any of `names` (case-insensitive).
fn header<'a>(response: &'a Value, names: &[&str]) -> Option<&'a str> {
    let headers = response.get("headers")?.as_array()?;
    names.iter().find_map(|n| {
        headers.iter().find_map(|h| {
            let name = h.get("name")?.as_str()?;
            name.eq_ignore_ascii_case(n)
                .then(|| h.get("value")?.as_str())
                .flatten()
        })
    })
}

/// A response body: JSON, an AWS event stream's frames, or the text as is.
fn content(content: &Value) -> Value {
    let text = content.get("text").and_then(Value::as_str).unwrap_or("");
    let base64 = content.get("encoding").and_then(Value::as_str) == Some("base64");
    let bytes = if base64 {
        match STANDARD.decode(text.trim()) {
            Ok(b) => b,
            Err(_) => return Value::String(text.to_owned()),
        }
    } else {
        text.as_bytes().to_vec()
    };
    let mime = content
        .get("mimeType")
        .and_then(Value::as_str)
        .unwrap_or("");
    if mime.contains("eventstream")
        && let Some(events) = super::eventstream::frames(&bytes)
    {
        return json!({ "events": events });
    }
    serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_becomes_an_exchange_line() {
        let har = json!({"log": {"version": "1.2", "entries": [
            {"startedDateTime": "2025-01-01T00:00:00Z",
             "request": {"method": "POST", "url": "https://api.example.com/v1/x",
                         "postData": {"mimeType": "application/json", "text": "{\"q\": 1}"}},
             "response": {"headers": [{"name": "X-Request-Id", "value": "req-1"}],
                          "content": {"mimeType": "application/json",
                                      "text": STANDARD.encode("{\"a\": 2}"), "encoding": "base64"}}},
            {"startedDateTime": "2025-01-01T00:00:01Z",
             "request": {"method": "GET", "url": "https://example.com/"},
             "response": {"content": {"mimeType": "text/html", "text": "<html>"}}}
        ]}});
        let out = lines(har.to_string().as_bytes()).unwrap();
        let rows: Vec<Value> = out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["id"], "req-1");
        assert_eq!(rows[0]["agent_id"], "api.example.com");
        assert_eq!(rows[0]["request"], json!({"q": 1}));
        assert_eq!(rows[0]["response"], json!({"a": 2}));
        assert_eq!(rows[1]["id"], "2025-01-01T00:00:01Z#2");
        assert_eq!(rows[1]["response"], "<html>");
        assert!(lines(b"{\"log\": {}}").is_none());
        assert!(lines(b"{\"turn_id\": 1}").is_none());
    }
}

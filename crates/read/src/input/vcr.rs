//! VCR cassettes as recorded API calls: each recorded interaction becomes
//! one line of the `exchange` dialect, as [`super::har`] does for HAR
//! entries, so provider and agent calls recorded by test suites grade by
//! their citations. Read: vcrpy's YAML (`interactions: [{request,
//! response}]`, bodies as text, as `!!binary` base64, possibly gzip, or
//! as pydantic-ai's decoded `parsed_body`), Ruby VCR's
//! (`http_interactions`, `body.string`), and the `requests:`/`responses:`
//! lists langchain-aws records, paired in order. The same cassettes
//! written as JSON (vcrpy's `serializer="json"`, Ruby VCR's
//! `serialize_with: :json`: an object whose first member is `interactions`
//! or `http_interactions`) read the same way; Ruby's `base64_string`
//! bodies too.
//!
//! - `id`: the response's request-id header (`x-amzn-requestid`,
//!   `request-id`, `x-request-id`), else the body's own `id` (a message or
//!   response id), else a hash of the response body;
//! - `created_at`: the response's `Date` header; for a call that recorded
//!   none (or redacted it), when the cassette's file was last written (as
//!   `inspect` proposes for a log without times), and from standard input
//!   none, which the dialect names as invalid rather than guessing;
//! - `agent_id`: the request URI's host;
//! - `request`, `response`: the bodies as JSON; a response that is an AWS
//!   event stream or server-sent events becomes `{"events": [...]}`;
//! - `recorded: true`, as for HAR entries: a call to another service is a
//!   skipped record.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};
use yaml_rust2::{Yaml, YamlLoader};

/// True when `first` starts a VCR cassette, in YAML or JSON.
pub fn sniff(first: &[u8]) -> bool {
    let text = String::from_utf8_lossy(&first[..first.len().min(4096)]);
    if let Some(rest) = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .strip_prefix('{')
    {
        return json_cassette(rest);
    }
    let mut lines = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && *l != "---");
    match lines.next() {
        Some("interactions:" | "http_interactions:") => true,
        Some("requests:") => lines.next().is_some_and(|l| l.starts_with("- ")),
        _ => false,
    }
}

/// Whether the text after a JSON object's `{` opens a cassette: its first
/// member is `interactions` or `http_interactions`, a list.
fn json_cassette(rest: &str) -> bool {
    let rest = rest.trim_start();
    ["\"interactions\"", "\"http_interactions\""]
        .iter()
        .filter_map(|key| rest.strip_prefix(key))
        .any(|after| {
            after
                .trim_start()
                .strip_prefix(':')
                .is_some_and(|v| v.trim_start().starts_with('['))
        })
}

/// The interactions of a cassette, one exchange line each; None when `doc`
/// is not a cassette.
pub fn lines(doc: &[u8], written: Option<chrono::DateTime<chrono::Utc>>) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(doc).ok()?;
    let root = if text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
    {
        serde_json::from_str(text.trim_start_matches('\u{feff}')).ok()?
    } else {
        let yaml = YamlLoader::load_from_str(text).ok()?.into_iter().next()?;
        json_of(&yaml)
    };
    let pairs: Vec<(&Value, &Value)> = match (
        root.get("interactions").or(root.get("http_interactions")),
        root.get("requests").zip(root.get("responses")),
    ) {
        (Some(Value::Array(all)), _) => all
            .iter()
            .map(|i| (&i["request"], &i["response"]))
            .collect(),
        (_, Some((Value::Array(req), Value::Array(resp)))) => req.iter().zip(resp).collect(),
        _ => return None,
    };
    let mut out = Vec::with_capacity(doc.len());
    for (request, response) in pairs {
        serde_json::to_writer(&mut out, &line(request, response, written)).ok()?;
        out.push(b'\n');
    }
    Some(out)
}

/// One interaction as an exchange line.
fn line(
    request: &Value,
    response: &Value,
    written: Option<chrono::DateTime<chrono::Utc>>,
) -> Value {
    let body = body(response);
    let id = header(
        response,
        &["x-amzn-requestid", "request-id", "x-request-id"],
    )
    .map(str::to_owned)
    .or_else(|| body.get("id").and_then(Value::as_str).map(str::to_owned))
    .filter(|id| !id.is_empty())
    .unwrap_or_else(|| {
        let hash = xxhash_rust::xxh3::xxh3_64(body.to_string().as_bytes());
        format!("vcr-{hash:016x}")
    });
    let created = header(response, &["date"])
        .and_then(|d| chrono::DateTime::parse_from_rfc2822(d).ok())
        .map(|t| t.to_utc())
        .or(written)
        .map(|t| Value::String(t.to_rfc3339()));
    let uri = request.get("uri").and_then(Value::as_str).unwrap_or("");
    let host = uri
        .split("://")
        .nth(1)
        .and_then(|r| r.split(['/', '?']).next())
        .unwrap_or("vcr");
    let mut line = Map::new();
    line.insert("id".into(), Value::String(id));
    if let Some(t) = created {
        line.insert("created_at".into(), t);
    }
    line.insert("agent_id".into(), Value::String(host.to_owned()));
    let req = decoded(request.get("parsed_body").or(request.get("body")));
    line.insert(
        "request".into(),
        if req.is_object() { req } else { json!({}) },
    );
    line.insert("response".into(), body);
    line.insert("recorded".into(), Value::Bool(true));
    Value::Object(line)
}

/// A response's body, decoded.
fn body(response: &Value) -> Value {
    let raw = response
        .get("parsed_body")
        .or(response.pointer("/body/string"))
        .or(response.get("body"));
    decoded(raw)
}

/// A recorded body as JSON: a decoded body is kept; text is JSON, server-
/// sent events, or base64 (`!!binary`, possibly gzip) of any of those or of
/// an AWS event stream.
fn decoded(raw: Option<&Value>) -> Value {
    let text = match raw {
        Some(Value::String(s)) => s,
        Some(Value::Object(o)) if o.contains_key("string") => return decoded(o.get("string")),
        Some(Value::Object(o)) if o.contains_key("base64_string") => {
            return decoded(o.get("base64_string"));
        }
        Some(v) => return v.clone(),
        None => return Value::Null,
    };
    if let Some(v) = from_text(text.as_bytes()) {
        return v;
    }
    let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let Ok(mut bytes) = STANDARD.decode(squeezed) else {
        return Value::String(text.clone());
    };
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        if std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut out)
            .is_ok()
        {
            bytes = out;
        }
    }
    if let Some(events) = super::eventstream::frames(&bytes).filter(|f| !f.is_empty()) {
        return json!({ "events": events });
    }
    from_text(&bytes).unwrap_or_else(|| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
}

/// JSON, or server-sent events' `data:` objects as `{"events": [...]}`.
fn from_text(bytes: &[u8]) -> Option<Value> {
    if let Ok(v) = serde_json::from_slice::<Value>(bytes) {
        return Some(v);
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let events: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect();
    (!events.is_empty()).then(|| json!({ "events": events }))
}

/// A header's first value, by any of `names` (case-insensitive); a redacted
/// value (`**REDACTED**`) is none.
fn header<'a>(response: &'a Value, names: &[&str]) -> Option<&'a str> {
    let headers = response.get("headers")?.as_object()?;
    let value = names.iter().find_map(|n| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v)
    })?;
    let value = match value {
        Value::Array(vs) => vs.first()?.as_str()?,
        v => v.as_str()?,
    };
    (!value.contains("REDACTED")).then_some(value)
}

/// A YAML value as JSON (keys as text; reals as numbers where they parse).
fn json_of(y: &Yaml) -> Value {
    match y {
        Yaml::Real(r) => r
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| Value::String(r.clone()), Value::Number),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(a) => Value::Array(a.iter().map(json_of).collect()),
        Yaml::Hash(h) => Value::Object(h.iter().map(|(k, v)| (key_of(k), json_of(v))).collect()),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

fn key_of(k: &Yaml) -> String {
    match json_of(k) {
        Value::String(s) => s,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interactions_become_exchange_lines() {
        let cassette = "interactions:\n- request:\n    body: '{\"q\": 1}'\n    method: POST\n    uri: https://api.example.com/v1/chat\n  response:\n    body:\n      string: '{\"a\": 2}'\n    headers:\n      date:\n      - Tue, 01 Apr 2025 10:00:00 GMT\n      request-id:\n      - req-9\n    status:\n      code: 200\nversion: 1\n";
        assert!(sniff(cassette.as_bytes()));
        let out = lines(cassette.as_bytes(), None).unwrap();
        let row: Value = serde_json::from_slice(out.strip_suffix(b"\n").unwrap()).unwrap();
        assert_eq!(row["id"], "req-9");
        assert_eq!(row["created_at"], "2025-04-01T10:00:00+00:00");
        assert_eq!(row["agent_id"], "api.example.com");
        assert_eq!(row["request"], json!({"q": 1}));
        assert_eq!(row["response"], json!({"a": 2}));
    }

    #[test]
    fn binary_bodies_and_event_streams_decode() {
        let sse =
            "event: a\ndata: {\"type\": \"message_start\"}\n\ndata: {\"type\": \"message_stop\"}\n";
        assert_eq!(
            decoded(Some(&Value::String(sse.into()))),
            json!({"events": [{"type": "message_start"}, {"type": "message_stop"}]})
        );
        let b64 = STANDARD.encode("{\"x\": true}");
        assert_eq!(decoded(Some(&Value::String(b64))), json!({"x": true}));
        // A redacted date is none: the file's time, or no time at all.
        let resp = json!({"headers": {"Date": "**REDACTED**"}, "body": {"string": "{}"}});
        assert!(line(&json!({}), &resp, None).get("created_at").is_none());
        let written = chrono::DateTime::from_timestamp(1_700_000_000, 0);
        assert_eq!(
            line(&json!({}), &resp, written)["created_at"],
            "2023-11-14T22:13:20+00:00"
        );
        // JSON cassettes: the object's first member names the interactions.
        assert!(sniff(b"{\"interactions\": [], \"version\": 1}"));
        assert!(sniff(b"\n{\n  \"http_interactions\" : [\n"));
        assert!(!sniff(b"{\"version\": 1, \"log\": {\"interactions\": []}}"));
        assert!(!sniff(b"{\"interactions\": 3}"));
    }
}

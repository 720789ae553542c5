//! Helpers for the export formats that arrive as plain JSON rows (LangSmith
//! runs, Langfuse observations, Parquet rows converted to JSON): lenient
//! field access, JSON held in strings, retrieved documents in free-form
//! JSON, and the reply text in an output value.

use super::attrs::{Val, json_text};
use super::time::Bad;
use super::{Doc, Span, SpanKind, Tokens};
use serde_json::{Map, Value};

/// A span with its ids and nothing else known yet.
pub(super) fn blank_span(trace_id: String, span_id: String) -> Span {
    Span {
        trace_id: trace_id.into(),
        span_id: span_id.into(),
        parent_id: None,
        name: String::new(),
        kind: SpanKind::Unknown,
        start_ns: None,
        end_ns: None,
        error: false,
        service: None,
        operation: None,
        output: None,
        output_mime: None,
        output_key: "",
        llm_text: None,
        llm_text_key: "",
        input_text: None,
        recorded: None,
        content_recorded: false,
        retrieval: None,
        rerank_input: None,
        rerank_output: None,
        agent_name: None,
        agent_id: None,
        agent_meta: None,
        conversation: None,
        channel: None,
        model: None,
        tokens: Tokens::default(),
        cost_usd: None,
        tool_name: None,
        error_type: None,
        provider: None,
        sources: None,
    }
}

/// A field under any of `names` (snake_case and camelCase spellings), null
/// counted as absent.
pub(super) fn field<'a, M: Members + ?Sized>(m: &'a M, names: &[&str]) -> Option<&'a Value> {
    names
        .iter()
        .find_map(|n| m.member(n).filter(|v| !v.is_null()))
}

/// The members of an object by key: a JSON object, or a row read with only
/// the fields its export reads ([`super::keeping::Row`]).
pub(super) trait Members {
    fn member(&self, key: &str) -> Option<&Value>;
}

impl Members for Map<String, Value> {
    fn member(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }
}

impl Members for std::borrow::Cow<'_, Map<String, Value>> {
    fn member(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }
}

/// A string field; empty strings are absent (Langfuse writes `""` for unset).
pub(super) fn string<M: Members + ?Sized>(m: &M, names: &[&str]) -> Option<String> {
    field(m, names).and_then(text)
}

/// A non-blank string value (what [`string`] reads from a field).
pub(super) fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// An id: a string, or an integer written as a number. Kept as written
/// (a document's or a conversation's id); see [`span_id_of`].
pub(super) fn id_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => super::trimmed_id(s).map(str::to_owned),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        _ => None,
    }
}

/// A trace, run, observation or parent id ([`id_of`]), normalised as every
/// span reader normalises it ([`super::clean_id`]): a hex id in lower case.
pub(super) fn span_id_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => super::clean_id_str(s).map(std::borrow::Cow::into_owned),
        other => id_of(other),
    }
}

/// A number, also when written as a decimal string (LangSmith costs).
pub(super) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|f| f.is_finite())
}

/// A non-negative integer count.
pub(super) fn count(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| f as u64)
        }),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A value that may be JSON written into a string (Parquet and CSV columns
/// documented as "(JSON)", Langfuse `input`/`output`/`metadata`): the parsed
/// value when the string holds a JSON object or array, else the value as is.
/// Encoded more than once (Langfuse's trace downloads write a trace's
/// output as a JSON string of a JSON string), it is decoded until it is no
/// longer a string holding JSON, at most four times.
pub(super) fn unstring(v: &Value) -> std::borrow::Cow<'_, Value> {
    use std::borrow::Cow;
    let mut out = Cow::Borrowed(v);
    for _ in 0..4 {
        let Value::String(s) = &*out else {
            break;
        };
        let t = s.trim();
        let quoted = t.len() >= 2 && t.starts_with('"') && t.ends_with('"');
        if !(t.starts_with('{') || t.starts_with('[') || quoted) {
            break;
        }
        match serde_json::from_str::<Value>(t) {
            Ok(parsed) => out = Cow::Owned(parsed),
            Err(_) => break,
        }
    }
    out
}

/// An object field, also when written as a JSON string (borrowed unless
/// it had to be parsed out of one).
pub(super) fn object<'a, M: Members + ?Sized>(
    m: &'a M,
    names: &[&str],
) -> Option<std::borrow::Cow<'a, Map<String, Value>>> {
    use std::borrow::Cow;
    match unstring(field(m, names)?) {
        Cow::Borrowed(Value::Object(o)) => Some(Cow::Borrowed(o)),
        Cow::Owned(Value::Object(o)) => Some(Cow::Owned(o)),
        _ => None,
    }
}

/// A time ([`super::time`]): RFC 3339 text (`T` or space; no offset is
/// UTC), epoch digits, or an epoch number (unit by magnitude). `Ok(None)`
/// for null or blank text (exports write `""` for unset).
pub(super) fn time(v: &Value) -> Result<Option<i128>, Bad> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => super::time::text(s),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => super::time::epoch(i128::from(i)).map(Some),
            (_, Some(u)) => super::time::epoch(i128::from(u)).map(Some),
            _ => super::time::epoch_float(n.as_f64().unwrap_or(f64::NAN)).map(Some),
        },
        _ => Err(Bad::NotATime),
    }
}

/// The time under the first of `names` present (not null): its reason names
/// the field when it does not read.
pub(super) fn time_field<M: Members + ?Sized>(
    m: &M,
    names: &[&str],
) -> Result<Option<i128>, String> {
    let Some((name, v)) = names
        .iter()
        .find_map(|n| m.member(n).filter(|v| !v.is_null()).map(|v| (*n, v)))
    else {
        return Ok(None);
    };
    time(v).map_err(|e| e.reason(name))
}

/// The retrieved documents in a free-form output: a list of documents, or
/// an object holding one under `documents` (LangChain tracer, Langfuse's
/// documented `{documents, scores}`) or `output` (a LangSmith `@traceable`
/// function's return value). Each document is an object with its text
/// under `page_content`, `content` or `text` and ids and score on it or in
/// its `metadata`, or a bare string. None when the value holds no list.
pub(super) fn documents(v: &Value) -> Option<Vec<Doc>> {
    let v = unstring(v);
    // The list stays where it was read (a member of `v`, or a JSON string's
    // value): documents are read from it in place, never copied.
    let (held, scores) = match &*v {
        Value::Array(_) => (None, None),
        Value::Object(m) => {
            let held = ["documents", "output", "docs", "results"]
                .iter()
                .find_map(|k| {
                    let c = m.get(*k).map(unstring)?;
                    matches!(&*c, Value::Array(_)).then_some(c)
                })?;
            let len = held.as_array().map_or(0, Vec::len);
            let scores = match m.get("scores") {
                Some(Value::Array(s)) if s.len() == len => {
                    Some(s.iter().map(number).collect::<Vec<_>>())
                }
                _ => None,
            };
            (Some(held), scores)
        }
        _ => return None,
    };
    let list: &[Value] = match held.as_deref().unwrap_or(&v) {
        Value::Array(l) => l,
        _ => return None,
    };
    if !list
        .iter()
        .all(|d| matches!(d, Value::Object(_) | Value::String(_)))
    {
        return None;
    }
    let mut docs: Vec<Doc> = list.iter().map(document).collect();
    if let Some(scores) = scores {
        for (d, s) in docs.iter_mut().zip(scores) {
            d.score = d.score.or(s);
        }
    }
    Some(docs)
}

/// Results found by what they hold, in a step no one typed as a retrieval:
/// a list (or a tool message whose `content` holds one) of objects that
/// each carry an address (`url`, `href`, `link`, `uri`) and text (`title`,
/// `snippet`, `description`, `body`, `content`, `text`). A result's address
/// is its chunk id, so an answer linking it cites it; its text is its
/// title and body joined. None for anything else, an empty list included.
pub(super) fn results(v: &Value) -> Option<Vec<Doc>> {
    let v = unstring(v);
    if let Value::Object(m) = &*v
        && m.get("type").and_then(Value::as_str) == Some("tool")
    {
        return results(m.get("content")?);
    }
    let Value::Array(list) = &*v else {
        return None;
    };
    let docs: Option<Vec<Doc>> = list.iter().map(result).collect();
    docs.filter(|d| !d.is_empty())
}

const ADDRESS_KEYS: [&str; 4] = ["url", "href", "link", "uri"];
const RESULT_TEXT_KEYS: [&str; 6] = ["title", "snippet", "description", "body", "content", "text"];

/// One search result ([`results`]), or none when `v` is not one.
fn result(v: &Value) -> Option<Doc> {
    let m = v.as_object()?;
    let address = ADDRESS_KEYS
        .iter()
        .find_map(|k| m.get(*k).and_then(Value::as_str))
        .filter(|a| !a.trim().is_empty())?;
    let texts: Vec<&str> = RESULT_TEXT_KEYS
        .iter()
        .filter_map(|k| m.get(*k).and_then(Value::as_str))
        .filter(|t| !t.trim().is_empty())
        .collect();
    if texts.is_empty() {
        return None;
    }
    Some(Doc {
        chunk_id: Some(address.trim().to_owned()),
        document_id: None,
        score: m.get("score").and_then(number),
        content: Some(texts.join("\n")),
    })
}

/// One document. Ids follow the span rules: `chunk_id` is the document's
/// own `id`, else metadata `id`, else metadata `chunk_id`; `document_id` is
/// metadata `doc_id`, else `document_id`, else `source`; the score is the
/// document's, else its metadata's, else none (never 0).
fn document(v: &Value) -> Doc {
    let m = match v {
        Value::String(s) => {
            return Doc {
                content: Some(s.clone()),
                ..Doc::default()
            };
        }
        Value::Object(m) => m,
        _ => return Doc::default(),
    };
    let empty = Map::new();
    let meta = match m.get("metadata").map(unstring) {
        Some(std::borrow::Cow::Owned(Value::Object(o))) => std::borrow::Cow::Owned(o),
        Some(std::borrow::Cow::Borrowed(Value::Object(o))) => std::borrow::Cow::Borrowed(o),
        _ => std::borrow::Cow::Borrowed(&empty),
    };
    let get_id = |m: &Map<String, Value>, k: &str| m.get(k).and_then(id_of);
    Doc {
        chunk_id: get_id(m, "id")
            .or_else(|| get_id(&meta, "id"))
            .or_else(|| get_id(&meta, "chunk_id"))
            .or_else(|| get_id(m, "chunk_id")),
        document_id: get_id(&meta, "doc_id")
            .or_else(|| get_id(&meta, "document_id"))
            .or_else(|| get_id(&meta, "source"))
            .or_else(|| get_id(m, "document_id")),
        score: m
            .get("score")
            .and_then(number)
            .or_else(|| meta.get("score").and_then(number)),
        content: ["page_content", "content", "text"]
            .iter()
            .find_map(|k| m.get(*k).and_then(Value::as_str))
            .map(str::to_owned),
    }
}

/// Keys under which an output object holds the answer, in the order tried,
/// with the name `explain` shows for each.
/// `v` as a [`Val`] borrowing its strings: what reading `v.to_string()`
/// back as a `Val` gives (members in the map's order, numbers as their
/// visitor sees them), without writing the text.
fn val_of(v: &Value) -> Val<'_> {
    use std::borrow::Cow;
    match v {
        Value::Null => Val::Null,
        Value::Bool(b) => Val::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Val::UInt(u),
            (None, Some(i)) => Val::Int(i),
            _ => Val::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Val::Str(Cow::Borrowed(s)),
        Value::Array(l) => Val::List(l.iter().map(val_of).collect()),
        Value::Object(m) => Val::Map(
            m.iter()
                .map(|(k, v)| (Cow::Borrowed(k.as_str()), val_of(v)))
                .collect(),
        ),
    }
}

const REPLY_KEYS: [(&str, &str); 8] = [
    ("output", "outputs.output"),
    ("answer", "outputs.answer"),
    ("text", "outputs.text"),
    ("content", "outputs.content"),
    ("result", "outputs.result"),
    ("response", "outputs.response"),
    ("messages", "outputs.messages"),
    ("generations", "outputs.generations"),
];

/// The reply text in an output value and where it was found: a string as
/// is; in an object the first of `output`, `answer`, `text`, `content`,
/// `result`, `response` holding text (a string, or a message or message
/// list whose last assistant message has text), else the last assistant
/// message of `messages`, else LangChain `generations[0][0]`; else any
/// assistant text in it (`outputs`). `prefix` names the value in `explain`
/// (`outputs` for LangSmith, `output` for Langfuse).
pub(super) fn reply_text(v: &Value, prefix: &'static str) -> Option<(String, &'static str)> {
    let v = match v {
        Value::String(_) => {
            let parsed = unstring(v);
            if let Value::String(t) = &*parsed {
                // A Python repr of a message (`str(dict)`) is read as the
                // message it prints, so its text is the reply.
                match super::pyrepr::literal(t) {
                    Some(m @ Value::Object(_)) => std::borrow::Cow::Owned(m),
                    _ => return (!t.trim().is_empty()).then(|| (t.clone(), prefix)),
                }
            } else {
                parsed
            }
        }
        _ => std::borrow::Cow::Borrowed(v),
    };
    let as_text = |v: &Value| -> Option<String> {
        match v {
            Value::String(s) => (!s.trim().is_empty()).then(|| s.clone()),
            Value::Null => None,
            other => json_text(&val_of(other)),
        }
    };
    match &*v {
        // A message of the user, the system or a tool is never the reply
        // (as the attribute readers' finder holds too).
        Value::Object(m)
            if ["role", "type"].iter().any(|k| {
                m.get(*k)
                    .and_then(Value::as_str)
                    .is_some_and(|r| matches!(r, "user" | "human" | "system" | "tool"))
            }) =>
        {
            None
        }
        Value::Object(m) => {
            for (key, name) in REPLY_KEYS {
                if let Some(t) = m.get(key).and_then(as_text) {
                    let name = if prefix == "outputs" {
                        name
                    } else {
                        langfuse_name(key)
                    };
                    return Some((t, name));
                }
            }
            as_text(&v).map(|t| (t, prefix))
        }
        other => as_text(other).map(|t| (t, prefix)),
    }
}

/// A recorded value (an input, an output) as text: a string as it is,
/// anything else as its JSON text; none for null.
pub(super) fn recorded_text(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// The name of an output key for Langfuse (`output.…`).
fn langfuse_name(key: &str) -> &'static str {
    match key {
        "output" => "output.output",
        "answer" => "output.answer",
        "text" => "output.text",
        "content" => "output.content",
        "result" => "output.result",
        "response" => "output.response",
        "messages" => "output.messages",
        _ => "output.generations",
    }
}

/// `null`, `{}`, a blank string or `"{}"`: a value recorded as nothing (a
/// LangSmith create part's `outputs`, say).
pub(super) fn is_blank(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty(),
        Value::Null => true,
        Value::String(s) => s.trim().is_empty() || s.trim() == "{}",
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn documents_in_every_documented_shape() {
        let lc = json!({"documents": [{"id": "KB-1", "page_content": "t",
            "metadata": {"chunk_id": "KB-1", "source": "a.md", "score": 0.4}}]});
        let d = documents(&lc).unwrap();
        assert_eq!(d[0].chunk_id.as_deref(), Some("KB-1"));
        assert_eq!(d[0].document_id.as_deref(), Some("a.md"));
        assert_eq!(d[0].score, Some(0.4));
        let traceable =
            json!({"output": [{"page_content": "t", "metadata": {"chunk_id": "KB-2"}}]});
        assert_eq!(
            documents(&traceable).unwrap()[0].chunk_id.as_deref(),
            Some("KB-2")
        );
        let lf = json!({"documents": [{"content": "t", "metadata": {"doc_id": "d"}}, "plain"], "scores": [0.9, 0.1]});
        let d = documents(&lf).unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d[1].score, Some(0.1));
        assert_eq!(d[1].content.as_deref(), Some("plain"));
        let in_string = Value::String(r#"[{"text":"x","metadata":{"id":7}}]"#.into());
        assert_eq!(
            documents(&in_string).unwrap()[0].chunk_id.as_deref(),
            Some("7")
        );
        assert_eq!(documents(&json!({"documents": []})).unwrap().len(), 0);
        assert!(documents(&json!({})).is_none());
        assert!(documents(&json!("just text")).is_none());
    }

    #[test]
    fn reply_text_names_its_key() {
        assert_eq!(
            reply_text(&json!({"output": "a [1]"}), "outputs"),
            Some(("a [1]".into(), "outputs.output"))
        );
        assert_eq!(
            reply_text(&json!({"role": "assistant", "content": "b"}), "outputs"),
            Some(("b".into(), "outputs.content"))
        );
        let gens =
            json!({"generations": [[{"text": "c", "message": {"kwargs": {"content": "c"}}}]]});
        assert_eq!(
            reply_text(&gens, "outputs").map(|r| r.1),
            Some("outputs.generations")
        );
        // A generation's `text` is derived from its message: the message's
        // content is the reply, none when the model only asked for a tool.
        let asked = json!({"generations": [[{"text": "<llm-response>",
            "message": {"kwargs": {"content": "", "tool_calls": [{"name": "get_weather"}]}}}]]});
        assert_eq!(reply_text(&asked, "outputs"), None);
        let msgs = json!({"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "d"}]});
        assert_eq!(
            reply_text(&msgs, "outputs"),
            Some(("d".into(), "outputs.messages"))
        );
        assert_eq!(
            reply_text(&json!("plain"), "output"),
            Some(("plain".into(), "output"))
        );
        assert_eq!(
            reply_text(&json!(r#"{"answer":"e"}"#), "output"),
            Some(("e".into(), "output.answer"))
        );
        assert_eq!(reply_text(&json!({}), "outputs"), None);
        assert_eq!(reply_text(&json!(""), "output"), None);
    }

    #[test]
    fn results_are_found_by_address_and_text() {
        let web = json!([{"title": "T", "href": "https://a.example/x", "body": "B"}]);
        let d = results(&web).unwrap();
        assert_eq!(d[0].chunk_id.as_deref(), Some("https://a.example/x"));
        assert_eq!(d[0].content.as_deref(), Some("T\nB"));
        let message = json!({"type": "tool", "tool_call_id": "c1",
            "content": "[{\"url\": \"https://e.example\", \"title\": \"E\"}]"});
        assert_eq!(results(&message).unwrap().len(), 1);
        // Without an address, or without text, or empty: not results.
        assert_eq!(results(&json!([{"title": "T"}])), None);
        assert_eq!(results(&json!([{"url": "https://a.example"}])), None);
        assert_eq!(results(&json!([])), None);
        assert_eq!(results(&json!({"url": "u", "title": "t"})), None);
        assert_eq!(results(&json!([{"url": "u", "title": "t"}, "x"])), None);
    }

    #[test]
    fn a_python_repr_of_a_message_gives_its_text() {
        let repr = json!("{'role': 'assistant', 'text': \"It's sunny.\"}");
        assert_eq!(
            reply_text(&repr, "output"),
            Some(("It's sunny.".into(), "output.text"))
        );
        let words = json!("{not a literal");
        assert_eq!(reply_text(&words, "output").unwrap().0, "{not a literal");
    }

    #[test]
    fn json_values_read_as_their_text_reads() {
        let deep = format!("{}\"x\"{}", "[".repeat(120), "]".repeat(120));
        let values = [
            json!({"generations": [[{"text": "c", "message": {"kwargs": {"content": "c [1]"}}}]]}),
            json!([{"role": "user", "content": "q"}, {"role": "assistant", "content": "a\u{e9}\n"}]),
            json!([{"type": "text", "text": "t"}, {"type": "image", "url": "u"}]),
            json!({"content": [{"type": "tool_use"}], "kwargs": {"text": " "}}),
            json!({"documents": [{"page_content": "p", "metadata": {"score": 0.5}}]}),
            json!([1, -2, 3.5, 18446744073709551615_u64, true, null]),
            json!({"b": {"output": 7}, "a": "\"quoted\""}),
            json!({"message": {"role": "system", "content": "s"}, "final_answer": "f"}),
            json!(5),
            json!(true),
            json!([]),
            json!({}),
            serde_json::from_str::<Value>(&deep).unwrap(),
        ];
        for v in values {
            let by_text =
                super::super::attrs::output_text(&v.to_string(), Some("application/json"))
                    .map(std::borrow::Cow::into_owned);
            assert_eq!(json_text(&val_of(&v)), by_text, "{v}");
        }
    }
}

//! Helpers for the export formats that arrive as plain JSON rows (LangSmith
//! runs, Langfuse observations, Parquet rows converted to JSON): lenient
//! field access, JSON held in strings, retrieved documents in free-form
//! JSON, and the reply text in an output value.

use super::attrs::{Val, json_text};
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
pub(super) fn unstring(v: &Value) -> std::borrow::Cow<'_, Value> {
    use std::borrow::Cow;
    if let Value::String(s) = v {
        let t = s.trim_start();
        if (t.starts_with('{') || t.starts_with('['))
            && let Ok(parsed) = serde_json::from_str::<Value>(s)
        {
            return Cow::Owned(parsed);
        }
    }
    Cow::Borrowed(v)
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

/// A time: ISO 8601 (`T` or space; a time without an offset is UTC), or
/// an epoch number (unit by magnitude). Nanoseconds since the epoch.
pub(super) fn time(v: &Value) -> Option<i128> {
    match v {
        Value::String(s) => plain_nanos(s).or_else(|| super::phoenix::iso_nanos(s)),
        Value::Number(n) => {
            let f = n.as_f64()?;
            if !f.is_finite() || f.abs() >= 1e20 {
                return None;
            }
            let a = f.abs();
            let scale = if a >= 1e17 {
                1.0
            } else if a >= 1e14 {
                1e3
            } else if a >= 1e11 {
                1e6
            } else {
                1e9
            };
            match (n.as_i64(), scale) {
                (Some(i), s) => Some(i as i128 * s as i128),
                (None, s) => Some((f * s).round() as i128),
            }
        }
        _ => None,
    }
}

/// The times exports write most, read without chrono's format parsers:
/// `YYYY-MM-DD HH:MM:SS[.f]` (Langfuse's blob export, UTC),
/// `YYYY-MM-DDTHH:MM:SS[.f]` with no offset (UTC), `Z`, or `±HH:MM`
/// (RFC 3339), the fraction 1–9 digits, seconds 0–59. Anything else is
/// `None` and read by [`super::phoenix::iso_nanos`], which gives the same
/// value wherever this one reads one (property test).
fn plain_nanos(s: &str) -> Option<i128> {
    let b = s.trim().as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let d = b.get(r)?;
        d.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let t = match b[10] {
        b'T' => true,
        b' ' => false,
        _ => return None,
    };
    let date = chrono::NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)?;
    let (h, m, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut at = 19;
    let mut nanos = 0;
    if b.get(at) == Some(&b'.') {
        let digits = b[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if !(1..=9).contains(&digits) {
            return None;
        }
        nanos = num(at + 1..at + 1 + digits)? * 10u32.pow(9 - digits as u32);
        at += 1 + digits;
    }
    let offset = match &b[at..] {
        [] => 0,
        [b'Z'] if t => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] if t => {
            let (oh, om) = (num(at + 1..at + 3)?, num(at + 4..at + 6)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let o = i64::from(oh * 3600 + om * 60);
            if *sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    if sec > 59 {
        return None;
    }
    let secs = date.and_hms_opt(h, m, sec)?.and_utc().timestamp() - offset;
    Some(secs as i128 * 1_000_000_000 + i128::from(nanos))
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
        Value::String(s) => {
            let parsed = unstring(v);
            if let Value::String(_) = &*parsed {
                return (!s.trim().is_empty()).then(|| (s.clone(), prefix));
            }
            parsed
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 20_000, ..Default::default() })]
        /// Where the fast reader reads a time, chrono's reads the same.
        #[test]
        fn plain_times_read_as_chrono_reads_them(
            y in 0u32..10_000, mo in 0u32..14, d in 0u32..33, sep in proptest::sample::select(vec!["T", " ", "t", "_"]),
            h in 0u32..26, mi in 0u32..62, sec in 0u32..62, frac in "(\\.[0-9]{0,11})?",
            tail in proptest::sample::select(vec!["", "Z", "z", "+00:00", "-00:00", "+05:30", "-11:45", "+23:59", "+24:00", "+01:60", "+0100", " ", "x"]),
            pad in proptest::sample::select(vec!["", " ", "\t"]),
        ) {
            let s = format!("{pad}{y:04}-{mo:02}-{d:02}{sep}{h:02}:{mi:02}:{sec:02}{frac}{tail}{pad}");
            if let Some(v) = plain_nanos(&s) {
                proptest::prop_assert_eq!(Some(v), super::super::phoenix::iso_nanos(&s), "{}", s);
            }
        }
    }

    #[test]
    fn plain_times_cover_the_export_shapes() {
        for s in [
            "2026-03-04 09:15:01.000000",
            "2026-11-30T08:46:04.127074Z",
            "2026-03-04T09:15:03.000Z",
            "2026-03-04T09:15:03",
            "2026-03-04T09:15:03.5+02:00",
            "2026-03-04T09:15:03-07:30",
            "2024-02-29 23:59:59.999999999",
        ] {
            assert!(plain_nanos(s).is_some(), "{s}");
            assert_eq!(plain_nanos(s), super::super::phoenix::iso_nanos(s), "{s}");
        }
        for s in [
            "2025-02-29 00:00:00",
            "2026-03-04 09:15:60",
            "2026-03-04 09:15:01Z",
            "2026-03-04T09:15:01.1234567890Z",
        ] {
            assert_eq!(plain_nanos(s), None, "{s}");
        }
    }
}

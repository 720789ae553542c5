//! Phoenix span JSON in its three shapes, read by one row visitor:
//! - a span as the REST API and the UI `jsonl` download write it
//!   (`context.{trace_id,span_id}`, `span_kind`, ISO times, flattened
//!   `attributes`);
//! - a REST page envelope `{"data":[span…],"next_cursor":…}` (also a bare
//!   array of spans, or a Phoenix CLI trace file `{"spans":[…]}`);
//! - a `get_spans_dataframe()` row written by pandas `to_json`: flat columns
//!   (`context.span_id`, `attributes.retrieval.documents`, …) whose values
//!   may be nested, times as epoch milliseconds or ISO strings, every
//!   column present (absent values are `null`).

use super::attrs::{BStr, Builder, IdIn, Val, wanted, wanted_for};
use super::time::{self, Bad};
use super::{Span, Spans, clean_id, offset_in, reason};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// A time as written: a string (RFC 3339, or epoch digits) or a number
/// (epoch, unit by magnitude), read by [`super::time`].
enum TimeIn {
    /// Text of at most 64 characters; `None` for longer text, which no
    /// time is.
    Text(Option<String>),
    Int(i128),
    Float(f64),
    /// Nanoseconds, exact (from a `[seconds, nanoseconds]` pair).
    Exact(i128),
}

impl<'de> Deserialize<'de> for TimeIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'v> Visitor<'v> for V {
            type Value = TimeIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a time (RFC 3339 string or epoch number)")
            }
            fn visit_u64<E>(self, v: u64) -> Result<TimeIn, E> {
                Ok(TimeIn::Int(v as i128))
            }
            fn visit_i64<E>(self, v: i64) -> Result<TimeIn, E> {
                Ok(TimeIn::Int(v as i128))
            }
            fn visit_f64<E>(self, v: f64) -> Result<TimeIn, E> {
                Ok(TimeIn::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<TimeIn, E> {
                Ok(TimeIn::Text(
                    (v.chars().nth(64).is_none()).then(|| v.to_owned()),
                ))
            }
            /// JS's `HrTime`: `[seconds, nanoseconds]`.
            fn visit_seq<A: de::SeqAccess<'v>>(self, mut seq: A) -> Result<TimeIn, A::Error> {
                let secs: i64 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("a [seconds, nanoseconds] pair"))?;
                let nanos: u32 = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::custom("a [seconds, nanoseconds] pair"))?;
                if nanos >= 1_000_000_000 || seq.next_element::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::custom("a [seconds, nanoseconds] pair"));
                }
                Ok(TimeIn::Exact(secs as i128 * 1_000_000_000 + nanos as i128))
            }
        }
        d.deserialize_any(V)
    }
}

impl TimeIn {
    /// Nanoseconds since the epoch; none for blank text.
    fn nanos(&self) -> Result<Option<i128>, Bad> {
        match self {
            TimeIn::Text(Some(s)) => time::text(s),
            TimeIn::Text(None) => Err(Bad::NotATime),
            TimeIn::Int(n) => time::epoch(*n).map(Some),
            TimeIn::Float(f) => time::epoch_float(*f).map(Some),
            TimeIn::Exact(n) => time::nanos(*n).map(Some),
        }
    }
}

/// A span's time field: absent or null is none; one that does not read
/// makes the span invalid, its reason naming the field.
fn span_time(v: Option<&TimeIn>, field: &str) -> Result<Option<i128>, String> {
    Ok(v.map(TimeIn::nanos)
        .transpose()
        .map_err(|e| e.reason(field))?
        .flatten())
}

/// A span's context: Phoenix and Python's `to_json()` (`trace_id`,
/// `span_id`), or JS's `spanContext` and `parentSpanContext` (`traceId`,
/// `spanId`).
#[derive(Deserialize)]
struct Context<'a> {
    #[serde(borrow, default, alias = "traceId")]
    trace_id: Option<IdIn<'a>>,
    #[serde(borrow, default, alias = "spanId")]
    span_id: Option<IdIn<'a>>,
}

/// A TruLens event row's `trace` (`trace_id`, `span_id`, `parent_id`) and
/// `record` (`name`, `parent_span_id`, `status`).
#[derive(Deserialize)]
struct TruLensTrace<'a> {
    #[serde(borrow, default)]
    trace_id: Option<IdIn<'a>>,
    #[serde(borrow, default)]
    span_id: Option<IdIn<'a>>,
    #[serde(borrow, default)]
    parent_id: Option<IdIn<'a>>,
}

#[derive(Deserialize)]
struct TruLensRecord<'a> {
    #[serde(borrow, default)]
    name: Option<BStr<'a>>,
    #[serde(borrow, default)]
    parent_span_id: Option<IdIn<'a>>,
    #[serde(borrow, default)]
    status: Option<BStr<'a>>,
}

/// A span event; only Monocle's `data.output` event is read (its
/// `response` holds what the span returned).
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    attributes: Option<EventAttributes<'a>>,
}

#[derive(Deserialize)]
struct EventAttributes<'a> {
    #[serde(borrow, default)]
    response: Option<&'a RawValue>,
    #[serde(borrow, default)]
    input: Option<&'a RawValue>,
}

/// A span's status object: Python's `{"status_code": "ERROR"}`, JS's
/// `{"code": 2}` (OTel's `SpanStatusCode.ERROR`).
#[derive(Deserialize)]
struct Status<'a> {
    #[serde(borrow, default)]
    status_code: Option<BStr<'a>>,
    #[serde(default)]
    code: Option<serde_json::Value>,
}

impl Status<'_> {
    fn is_error(&self) -> bool {
        self.status_code
            .as_ref()
            .is_some_and(|s| s.0.eq_ignore_ascii_case("ERROR"))
            || self.code.as_ref().is_some_and(|c| {
                c.as_u64() == Some(2) || c.as_str().is_some_and(|s| s.eq_ignore_ascii_case("ERROR"))
            })
    }
}

/// Attributes as a JSON object: wanted keys keep their value as `T`, raw
/// (`&RawValue`, decoded later, ignored when it does not decode) or decoded
/// in place ([`Val`], the one-pass reader: a value that does not decode
/// fails the line, which the raw reader then reads).
struct Attrs<'a, T>(Vec<(Cow<'a, str>, T)>);

impl<'de: 'a, 'a, T: Deserialize<'de>> Deserialize<'de> for Attrs<'a, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a, T>(std::marker::PhantomData<(&'a (), T)>);
        impl<'de: 'a, 'a, T: Deserialize<'de>> Visitor<'de> for V<'a, T> {
            type Value = Attrs<'a, T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an attributes object")
            }
            fn visit_unit<E>(self) -> Result<Attrs<'a, T>, E> {
                Ok(Attrs(Vec::new()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Attrs<'a, T>, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<BStr<'a>>()? {
                    if wanted(&k.0) {
                        out.push((k.0, map.next_value::<T>()?));
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Attrs(out))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// One top-level object: a span, a dataframe row, or an envelope of spans;
/// attribute values as `T` (see [`Attrs`]).
struct Row<'a, T> {
    name: Option<BStr<'a>>,
    span_kind: Option<BStr<'a>>,
    parent_id: Option<IdIn<'a>>,
    start: Option<TimeIn>,
    end: Option<TimeIn>,
    status_code: Option<BStr<'a>>,
    /// A `status` object said ERROR.
    status_error: bool,
    trace_id: Option<IdIn<'a>>,
    span_id: Option<IdIn<'a>>,
    attrs: Vec<(Cow<'a, str>, T)>,
    /// `data` (REST page) or `spans` (CLI trace file).
    spans: Option<Vec<&'a RawValue>>,
    /// What a Monocle span returned: its `data.output` event's `response`.
    event_output: Option<&'a RawValue>,
    /// What a Monocle span was given: its `data.input` event's `input`.
    event_input: Option<&'a RawValue>,
    /// A page envelope's `next_cursor` is set: more pages follow.
    more: bool,
}

impl<T> Default for Row<'_, T> {
    fn default() -> Self {
        Row {
            name: None,
            span_kind: None,
            parent_id: None,
            start: None,
            end: None,
            status_code: None,
            status_error: false,
            trace_id: None,
            span_id: None,
            attrs: Vec::new(),
            spans: None,
            event_output: None,
            event_input: None,
            more: false,
        }
    }
}

/// Strips `attributes.` from a dataframe column name, borrowing when it can.
fn strip_attr<'a>(k: Cow<'a, str>) -> Option<Cow<'a, str>> {
    const P: &str = "attributes.";
    match k {
        Cow::Borrowed(s) => s.strip_prefix(P).map(Cow::Borrowed),
        Cow::Owned(s) => s.strip_prefix(P).map(|r| Cow::Owned(r.to_owned())),
    }
}

impl<'de: 'a, 'a, T: Deserialize<'de>> Deserialize<'de> for Row<'a, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a, T>(std::marker::PhantomData<(&'a (), T)>);
        impl<'de: 'a, 'a, T: Deserialize<'de>> Visitor<'de> for V<'a, T> {
            type Value = Row<'a, T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a span object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Row<'a, T>, A::Error> {
                let mut r = Row::default();
                while let Some(k) = map.next_key::<BStr<'a>>()? {
                    let field = |e: A::Error| de::Error::custom(format!("`{}`: {e}", short(&k.0)));
                    match &*k.0 {
                        // Monocle's own trace file spells the name `span_name`.
                        "name" | "span_name" => r.name = map.next_value().map_err(field)?,
                        "span_kind" => r.span_kind = map.next_value().map_err(field)?,
                        "parent_id" => r.parent_id = map.next_value().map_err(field)?,
                        "start_time" => r.start = map.next_value().map_err(field)?,
                        "end_time" => r.end = map.next_value().map_err(field)?,
                        "status_code" => r.status_code = map.next_value().map_err(field)?,
                        "context" => {
                            if let Some(c) =
                                map.next_value::<Option<Context<'a>>>().map_err(field)?
                            {
                                r.trace_id = c.trace_id.or(r.trace_id);
                                r.span_id = c.span_id.or(r.span_id);
                            }
                        }
                        "spanContext" => {
                            if let Some(c) =
                                map.next_value::<Option<Context<'a>>>().map_err(field)?
                            {
                                r.trace_id = c.trace_id.or(r.trace_id);
                                r.span_id = c.span_id.or(r.span_id);
                            }
                        }
                        "parentSpanId" => r.parent_id = map.next_value().map_err(field)?,
                        "parentSpanContext" => {
                            if let Some(c) =
                                map.next_value::<Option<Context<'a>>>().map_err(field)?
                            {
                                r.parent_id = c.span_id.or(r.parent_id);
                            }
                        }
                        "trace" => {
                            if let Some(t) = map
                                .next_value::<Option<TruLensTrace<'a>>>()
                                .map_err(field)?
                            {
                                r.trace_id = t.trace_id.or(r.trace_id);
                                r.span_id = t.span_id.or(r.span_id);
                                r.parent_id = t.parent_id.or(r.parent_id);
                            }
                        }
                        "record" => {
                            if let Some(rec) = map
                                .next_value::<Option<TruLensRecord<'a>>>()
                                .map_err(field)?
                            {
                                r.name = rec.name.or(r.name);
                                r.parent_id = r.parent_id.or(rec.parent_span_id);
                                r.status_error |= rec
                                    .status
                                    .is_some_and(|s| s.0.eq_ignore_ascii_case("STATUS_CODE_ERROR"));
                            }
                        }
                        "record_attributes" => {
                            let a: Attrs<'a, T> = map.next_value().map_err(field)?;
                            r.attrs.extend(a.0);
                        }
                        "start_timestamp" => r.start = map.next_value().map_err(field)?,
                        "timestamp" => r.end = map.next_value().map_err(field)?,
                        "startTime" => r.start = map.next_value().map_err(field)?,
                        "endTime" => r.end = map.next_value().map_err(field)?,
                        "status" => {
                            if let Some(st) =
                                map.next_value::<Option<Status<'a>>>().map_err(field)?
                            {
                                r.status_error |= st.is_error();
                            }
                        }
                        // Dataframe columns, and Monocle's flat ids.
                        "context.trace_id" | "trace_id" => {
                            r.trace_id = map.next_value().map_err(field)?
                        }
                        "context.span_id" | "span_id" => {
                            r.span_id = map.next_value().map_err(field)?
                        }
                        "attributes" => {
                            let a: Attrs<'a, T> = map.next_value().map_err(field)?;
                            r.attrs.extend(a.0);
                        }
                        "data" | "spans" => r.spans = map.next_value().map_err(field)?,
                        "next_cursor" => {
                            let c: Option<serde_json::Value> = map.next_value().map_err(field)?;
                            r.more = c.is_some_and(|c| !c.is_null() && c != "");
                        }
                        "events" => {
                            let events: Option<Vec<Event<'a>>> = map.next_value().map_err(field)?;
                            for e in events.into_iter().flatten() {
                                let Some(a) = e.attributes else { continue };
                                match e.name.as_deref() {
                                    Some("data.output") if r.event_output.is_none() => {
                                        r.event_output = a.response
                                    }
                                    Some("data.input") if r.event_input.is_none() => {
                                        r.event_input = a.input
                                    }
                                    _ => {}
                                }
                            }
                        }
                        _ => match strip_attr(k.0.clone()) {
                            Some(a) if wanted(&a) => r.attrs.push((a, map.next_value()?)),
                            _ => {
                                map.next_value::<IgnoredAny>()?;
                            }
                        },
                    }
                }
                Ok(r)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// A field name for a message: the tool's own names are short; anything
/// else is cut so a hostile key cannot fill the reason.
fn short(k: &str) -> String {
    k.chars().take(40).collect()
}

/// Reads every top-level value in `data` (a line, a document, or several)
/// and hands each span with its byte offset to `sink`.
pub(super) fn parse(
    what: &str,
    data: &[u8],
    sink: &mut dyn FnMut(usize, Span),
) -> Result<(), String> {
    parse_pages(what, data, sink).map(|_| ())
}

/// [`parse`], telling whether a page envelope said more pages follow (a
/// `next_cursor` that is set). `what` begins every reason ("not a Phoenix
/// span").
pub(super) fn parse_pages(
    what: &str,
    data: &[u8],
    sink: &mut dyn FnMut(usize, Span),
) -> Result<bool, String> {
    let mut more = false;
    let stream = serde_json::Deserializer::from_slice(data).into_iter::<&RawValue>();
    for top in stream {
        let top = top.map_err(|e| reason(what, &e))?;
        let text = top.get();
        if text.starts_with('[') {
            let rows: Vec<&RawValue> = serde_json::from_str(text).map_err(|e| reason(what, &e))?;
            for (i, raw) in rows.into_iter().enumerate() {
                let span = row(raw, what).map_err(|e| format!("element {}: {e}", i + 1))?;
                sink(offset_in(data, raw.get()), span);
            }
            continue;
        }
        let r: Row<'_, &RawValue> = serde_json::from_str(text).map_err(|e| reason(what, &e))?;
        match r.spans {
            Some(spans) if r.trace_id.is_none() || r.span_id.is_none() => {
                more |= r.more;
                for (i, raw) in spans.into_iter().enumerate() {
                    let span = row(raw, what).map_err(|e| format!("span {}: {e}", i + 1))?;
                    sink(offset_in(data, raw.get()), span);
                }
            }
            _ => sink(offset_in(data, text), build(r)?),
        }
    }
    Ok(more)
}

/// Reads one line (one or more spans) into `out`, all or nothing: in one
/// pass when every top-level value is a span object (values decoded in
/// place, the line not validated again), else with [`parse`] and its
/// reasons, so the two can only differ in speed.
pub(super) fn parse_line(what: &str, line: &str, out: &mut Spans) -> Result<(), String> {
    let before = out.len();
    if parse_fast(line, out).is_some() {
        return Ok(());
    }
    out.truncate(before);
    parse(what, line.as_bytes(), &mut |_, s| out.push(Box::new(s)))
}

/// None when anything is off: an envelope, an array, an error.
fn parse_fast(line: &str, out: &mut Spans) -> Option<()> {
    for top in serde_json::Deserializer::from_str(line).into_iter::<Row<'_, Val<'_>>>() {
        let r = top.ok()?;
        if r.spans.is_some() && (r.trace_id.is_none() || r.span_id.is_none()) {
            return None;
        }
        out.push(Box::new(build(r).ok()?));
    }
    Some(())
}

fn row(raw: &RawValue, what: &str) -> Result<Span, String> {
    let r: Row<'_, &RawValue> = serde_json::from_str(raw.get()).map_err(|e| reason(what, &e))?;
    build(r)
}

/// An attribute value as a row holds it.
trait AttrIn {
    fn feed(&self, key: &str, b: &mut Builder);
}

impl AttrIn for &RawValue {
    fn feed(&self, key: &str, b: &mut Builder) {
        if !wanted_for(key, b.parent_id.is_some()) {
            return;
        }
        if let Ok(v) = serde_json::from_str::<Val<'_>>(self.get()) {
            b.attr(key, &v);
        }
    }
}

impl AttrIn for Val<'_> {
    fn feed(&self, key: &str, b: &mut Builder) {
        b.attr(key, self);
    }
}

fn build<T: AttrIn>(r: Row<'_, T>) -> Result<Span, String> {
    let id = |v: &Option<IdIn<'_>>| v.as_ref().and_then(|b| clean_id(&b.0));
    let trace_id = id(&r.trace_id).ok_or("span without a trace id (`context.trace_id`)")?;
    let span_id = id(&r.span_id).ok_or("span without a span id (`context.span_id`)")?;
    let mut b = Builder {
        trace_id,
        span_id,
        parent_id: id(&r.parent_id),
        name: r.name.map(|n| n.0.into_owned()).unwrap_or_default(),
        start_ns: span_time(r.start.as_ref(), "start_time")?,
        end_ns: span_time(r.end.as_ref(), "end_time")?,
        error: r.status_error
            || r.status_code
                .is_some_and(|s| s.0.eq_ignore_ascii_case("ERROR")),
        oi_kind: r.span_kind.map(|k| k.0.into_owned()),
        ..Builder::default()
    };
    for (k, v) in &r.attrs {
        v.feed(k, &mut b);
    }
    if let Some(raw) = r.event_output {
        raw.feed("monocle.output", &mut b);
    }
    // What the span was given, as text (a list of inputs as its JSON), so
    // a turn's question, a tool's arguments and a model call's prompt read.
    if let Some(raw) = r.event_input {
        let text =
            serde_json::from_str::<String>(raw.get()).unwrap_or_else(|_| raw.get().to_owned());
        b.attr("input.value", &Val::Str(Cow::Owned(text)));
    }
    Ok(b.finish())
}

#[cfg(test)]
mod diff_tests {
    //! The one-pass line reader against the raw one: same spans, or the
    //! same reason, on the shared captures, a generated span, and every
    //! single-byte deletion and substitution of a small span line.
    use super::*;

    fn both(what: &str, line: &[u8]) {
        let Ok(text) = std::str::from_utf8(line) else {
            return; // lines reach the one-pass reader as text only
        };
        let mut out = Vec::new();
        let fast = parse_line(what, text, &mut out)
            .map(|()| out.into_iter().map(|s| *s).collect::<Vec<_>>());
        let mut out = Vec::new();
        let reference = parse(what, line, &mut |_, s| out.push(s)).map(|()| out);
        assert_eq!(fast, reference, "{text}");
    }

    const SMALL: &str = r#"{"name":"agent","context":{"trace_id":"ab12","span_id":"01"},"span_kind":"CHAIN","parent_id":null,"start_time":"2026-11-30T08:45:20.611559+00:00","end_time":1764492320693,"status_code":"ERROR","attributes":{"output.value":"A [1]","metadata":"{\"agent\":\"x\"}","llm.input_messages":[1],"retrieval.documents":[{"document.id":"c1","document.score":0.5}],"metadata.turn":8},"attributes.session.id":"s1","events":[]}"#;

    #[test]
    fn one_pass_agrees_with_the_reference() {
        // The line is read in one pass (not only by the fallback).
        let mut spans = Vec::new();
        assert!(parse_fast(SMALL, &mut spans).is_some());
        assert_eq!(spans.len(), 1);
        assert!(spans[0].retrieval.is_some() && spans[0].conversation.is_some());
        for format in ["not a Phoenix span", "not a Phoenix dataframe row"] {
            both(format, SMALL.as_bytes());
            both(format, format!("{SMALL} {SMALL}").as_bytes());
            both(format, format!("[{SMALL}]").as_bytes());
            both(format, format!("{{\"data\":[{SMALL}]}}").as_bytes());
        }
        let bytes = SMALL.as_bytes();
        let subst: &[u8] = b"\"{}[]:,0an\\ ";
        for i in 0..bytes.len() {
            let mut cut = bytes.to_vec();
            cut.remove(i);
            both("not a Phoenix span", &cut);
            for &c in subst {
                let mut m = bytes.to_vec();
                m[i] = c;
                both("not a Phoenix span", &m);
            }
        }
    }

    #[test]
    fn one_pass_agrees_on_the_shared_captures() {
        let Some(files) = super::super::shared_captures() else {
            return;
        };
        let mut seen = 0;
        for (_, data) in &files {
            let what = match crate::dialect::detect(None, data).name() {
                "phoenix-jsonl" => "not a Phoenix span",
                "phoenix-dataframe" => "not a Phoenix dataframe row",
                _ => continue,
            };
            for line in data.split(|&b| b == b'\n') {
                both(what, line);
                seen += 1;
            }
        }
        assert!(seen > 0, "no Phoenix line in the shared captures");
    }
}

//! OTLP/JSON: `ExportTraceServiceRequest`s as the Collector's file exporter
//! and the SDK JSON file exporter write them (lowerCamelCase, hex ids, int64
//! as decimal strings, enums as integers), and Phoenix's `otlp-json`
//! download (snake_case, every oneof present with `null`, nanosecond times
//! as bare integers above 2^53, `kind` as a string). One set of types reads
//! both through serde aliases. Times are read exactly, never through `f64`
//! (unless the input itself wrote a float).
//!
//! A line is read by the one-pass cursor reader ([`scan`]) when it can; the
//! serde reader here is its fallback and the reference it is tested
//! against (`diff_tests`).

use super::attrs::{BStr, Builder, Val, wanted_for};
use super::time::{self, Bad};
use super::{Reader, Span, SpanFormat, Spans, clean_id, offset_in, reason};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use serde_json::value::RawValue;
use std::fmt;

mod scan;

/// OTLP/JSON `ExportTraceServiceRequest`s, one per line (Collector file
/// exporter, OTel SDK JSON file exporter), or pretty-printed.
pub static OTLP: SpanFormat = SpanFormat {
    name: "otlp",
    about: "OTLP/JSON trace requests (Collector or SDK file exporter)",
    claims: |h| match h.is_whole() {
        true => h.has("resourceSpans"),
        false => h.first_key() == Some(b"resourceSpans"),
    },
    document: |_| false,
    read: READER,
};

/// Phoenix's `otlp-json` download: one snake_case OTLP document.
pub static PHOENIX_OTLP: SpanFormat = SpanFormat {
    name: "phoenix-otlp",
    about: "Phoenix OTLP-JSON download (snake_case OTLP)",
    claims: |h| match h.is_whole() {
        true => h.has("resource_spans"),
        false => h.first_key() == Some(b"resource_spans"),
    },
    document: |_| true,
    read: READER,
};

const READER: Reader = Reader {
    line: parse_line,
    pages: |data, sink| parse(data, sink).map(|()| false),
};

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(rename = "resourceSpans", alias = "resource_spans", borrow, default)]
    resource_spans: Option<Vec<ResourceSpans<'a>>>,
}

#[derive(Deserialize)]
struct ResourceSpans<'a> {
    #[serde(borrow, default)]
    resource: Option<Resource<'a>>,
    #[serde(
        rename = "scopeSpans",
        alias = "scope_spans",
        alias = "instrumentationLibrarySpans",
        borrow,
        default
    )]
    scope_spans: Option<Vec<ScopeSpans<'a>>>,
}

#[derive(Deserialize)]
struct Resource<'a> {
    #[serde(borrow, default)]
    attributes: Option<Vec<KeyValue<'a>>>,
}

#[derive(Deserialize)]
struct ScopeSpans<'a> {
    #[serde(borrow, default)]
    spans: Option<Vec<&'a RawValue>>,
}

#[derive(Deserialize)]
struct KeyValue<'a> {
    #[serde(borrow)]
    key: BStr<'a>,
    #[serde(borrow, default)]
    value: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct SpanIn<'a> {
    #[serde(rename = "traceId", alias = "trace_id", borrow, default)]
    trace_id: Option<BStr<'a>>,
    #[serde(rename = "spanId", alias = "span_id", borrow, default)]
    span_id: Option<BStr<'a>>,
    #[serde(rename = "parentSpanId", alias = "parent_span_id", borrow, default)]
    parent_span_id: Option<BStr<'a>>,
    #[serde(borrow, default)]
    name: Option<BStr<'a>>,
    #[serde(rename = "startTimeUnixNano", alias = "start_time_unix_nano", default)]
    start: Option<Nanos>,
    #[serde(rename = "endTimeUnixNano", alias = "end_time_unix_nano", default)]
    end: Option<Nanos>,
    #[serde(borrow, default)]
    attributes: Option<Vec<KeyValue<'a>>>,
    #[serde(default)]
    status: Option<Status>,
}

#[derive(Deserialize)]
struct Status {
    #[serde(default)]
    code: Option<Code>,
}

/// A status code: `2`, `"2"`, `"STATUS_CODE_ERROR"` or `"ERROR"` is an error.
struct Code(bool);

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Code;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a status code (integer or name)")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Code, E> {
                Ok(Code(v == 2))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Code, E> {
                Ok(Code(v == 2))
            }
            fn visit_str<E>(self, v: &str) -> Result<Code, E> {
                Ok(Code(matches!(v, "2" | "STATUS_CODE_ERROR" | "ERROR")))
            }
        }
        d.deserialize_any(V)
    }
}

/// Nanoseconds since the epoch: a decimal string or a JSON integer, exact
/// (a float rounded), in years 0000–9999 ([`super::time`]). What does not
/// read is kept as its [`Bad`], for the span's reason to name the field.
pub(super) struct Nanos(pub Result<i128, Bad>);

impl<'de> Deserialize<'de> for Nanos {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Nanos;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("nanoseconds as an integer or a decimal string")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Nanos, E> {
                Ok(Nanos(time::nanos(i128::from(v))))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Nanos, E> {
                Ok(Nanos(time::nanos(i128::from(v))))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Nanos, E> {
                Ok(Nanos(time::float_nanos(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Nanos, E> {
                Ok(Nanos(decimal_nanos(v)))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Nanos, E> {
                Ok(Nanos(Err(Bad::NotATime)))
            }
        }
        d.deserialize_any(V)
    }
}

/// A decimal string of nanoseconds (surrounding spaces allowed).
pub(super) fn decimal_nanos(v: &str) -> Result<i128, Bad> {
    let v = v.trim();
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Bad::NotATime);
    }
    // Too many digits for an i128: past every year.
    v.parse::<i128>().map_or(Err(Bad::OutOfYears), time::nanos)
}

/// A span's time field: absent or null is none; one that does not read
/// makes the span invalid, its reason naming the field.
fn span_time(v: Option<Nanos>, field: &str) -> Result<Option<i128>, String> {
    v.map(|n| n.0.map_err(|e| e.reason(field))).transpose()
}

/// An OTLP `AnyValue`, camelCase or snake_case.
#[derive(Deserialize)]
struct AnyValue<'a> {
    #[serde(rename = "stringValue", alias = "string_value", borrow, default)]
    string: Option<BStr<'a>>,
    #[serde(rename = "intValue", alias = "int_value", default)]
    int: Option<Int>,
    #[serde(rename = "doubleValue", alias = "double_value", default)]
    double: Option<Float>,
    #[serde(rename = "boolValue", alias = "bool_value", default)]
    boolean: Option<bool>,
    #[serde(rename = "arrayValue", alias = "array_value", borrow, default)]
    array: Option<ArrayValue<'a>>,
    #[serde(rename = "kvlistValue", alias = "kvlist_value", borrow, default)]
    kvlist: Option<KvList<'a>>,
    #[serde(rename = "bytesValue", alias = "bytes_value", default)]
    _bytes: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct ArrayValue<'a> {
    #[serde(borrow, default)]
    values: Option<Vec<AnyValue<'a>>>,
}

#[derive(Deserialize)]
struct KvList<'a> {
    #[serde(borrow, default)]
    values: Option<Vec<Kv<'a>>>,
}

#[derive(Deserialize)]
struct Kv<'a> {
    #[serde(borrow)]
    key: BStr<'a>,
    #[serde(borrow, default)]
    value: Option<AnyValue<'a>>,
}

/// An int64: a decimal string (canonical) or a JSON integer.
enum Int {
    I(i64),
    U(u64),
}

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer or a decimal string")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Int, E> {
                Ok(Int::U(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Int, E> {
                Ok(Int::I(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Int, E> {
                if let Ok(i) = v.parse::<i64>() {
                    Ok(Int::I(i))
                } else if let Ok(u) = v.parse::<u64>() {
                    Ok(Int::U(u))
                } else {
                    Err(E::custom("intValue is not a decimal integer"))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A double: a JSON number, or `"NaN"`/`"Infinity"` strings.
struct Float(f64);

impl<'de> Deserialize<'de> for Float {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Float;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Float, E> {
                Ok(Float(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Float, E> {
                Ok(Float(v as f64))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Float, E> {
                Ok(Float(v as f64))
            }
            fn visit_str<E>(self, v: &str) -> Result<Float, E> {
                Ok(Float(v.parse().unwrap_or(f64::NAN)))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'a> AnyValue<'a> {
    fn into_val(self) -> Val<'a> {
        if let Some(s) = self.string {
            Val::Str(s.0)
        } else if let Some(i) = self.int {
            match i {
                Int::I(i) => Val::Int(i),
                Int::U(u) => Val::UInt(u),
            }
        } else if let Some(f) = self.double {
            Val::Float(f.0)
        } else if let Some(b) = self.boolean {
            Val::Bool(b)
        } else if let Some(a) = self.array {
            Val::List(
                a.values
                    .unwrap_or_default()
                    .into_iter()
                    .map(AnyValue::into_val)
                    .collect(),
            )
        } else if let Some(kv) = self.kvlist {
            Val::Map(
                kv.values
                    .unwrap_or_default()
                    .into_iter()
                    .map(|kv| (kv.key.0, kv.value.map_or(Val::Null, AnyValue::into_val)))
                    .collect(),
            )
        } else {
            Val::Null
        }
    }
}

/// Feeds the wanted attributes of a list to `f`; undecodable values are skipped.
/// Each attribute whose key `want`s it, decoded, to `f`.
fn each_attr<'a>(
    attrs: Option<Vec<KeyValue<'a>>>,
    want: &dyn Fn(&str) -> bool,
    f: &mut dyn FnMut(&str, &Val<'a>),
) {
    for kv in attrs.unwrap_or_default() {
        if !want(&kv.key.0) {
            continue;
        }
        let Some(raw) = kv.value else { continue };
        if let Ok(v) = serde_json::from_str::<AnyValue<'a>>(raw.get()) {
            f(&kv.key.0, &v.into_val());
        }
    }
}

/// The one resource attribute read: it names the agent when nothing
/// else does.
pub(super) fn is_service(key: &str) -> bool {
    key == "service.name"
}

/// Reads every request in `data` (one line, or a whole document, or several
/// concatenated) and hands each span with its byte offset to `sink`.
pub(super) fn parse(data: &[u8], sink: &mut dyn FnMut(usize, Span)) -> Result<(), String> {
    let stream = serde_json::Deserializer::from_slice(data).into_iter::<Request<'_>>();
    for req in stream {
        let req = req.map_err(|e| reason("not an OTLP/JSON trace request", &e))?;
        let Some(resource_spans) = req.resource_spans else {
            return Err("not an OTLP/JSON trace request: no `resourceSpans` array".into());
        };
        for rs in resource_spans {
            let mut service = None;
            if let Some(res) = rs.resource {
                each_attr(res.attributes, &is_service, &mut |k, v| {
                    if k == "service.name" {
                        service = v.as_str().map(std::sync::Arc::from);
                    }
                });
            }
            for ss in rs.scope_spans.unwrap_or_default() {
                for (i, raw) in ss.spans.unwrap_or_default().into_iter().enumerate() {
                    let span = parse_span(raw, service.as_ref())
                        .map_err(|e| format!("span {} of a scope: {e}", i + 1))?;
                    sink(offset_in(data, raw.get()), span);
                }
            }
        }
    }
    Ok(())
}

fn parse_span(raw: &RawValue, service: Option<&std::sync::Arc<str>>) -> Result<Span, String> {
    let s: SpanIn<'_> = serde_json::from_str(raw.get()).map_err(|e| reason("span", &e))?;
    let id = |v: &Option<BStr<'_>>| v.as_ref().and_then(|b| clean_id(&b.0));
    let trace_id = id(&s.trace_id).ok_or("span without a `traceId`")?;
    let span_id = id(&s.span_id).ok_or("span without a `spanId`")?;
    let mut b = Builder {
        trace_id,
        span_id,
        parent_id: id(&s.parent_span_id),
        name: s.name.map(|n| n.0.into_owned()).unwrap_or_default(),
        start_ns: span_time(s.start, "startTimeUnixNano")?,
        end_ns: span_time(s.end, "endTimeUnixNano")?,
        error: s.status.and_then(|st| st.code).is_some_and(|c| c.0),
        service: service.cloned(),
        ..Builder::default()
    };
    let has_parent = b.parent_id.is_some();
    each_attr(s.attributes, &|k| wanted_for(k, has_parent), &mut |k, v| {
        b.attr(k, v)
    });
    Ok(b.finish())
}

/// Reads one line (one or more requests) into `out`, all or nothing: the
/// one-pass cursor reader ([`scan`]) when it can, else [`parse`] (the
/// reference) with its reasons.
pub(super) fn parse_line(line: &str, out: &mut Spans) -> Result<(), String> {
    let before = out.len();
    if scan::line(line, out).is_some() {
        return Ok(());
    }
    out.truncate(before);
    let r = parse(line.as_bytes(), &mut |_, s| out.push(Box::new(s)));
    if r.is_err() {
        out.truncate(before);
    }
    r
}

#[cfg(test)]
mod diff_tests;

//! The one-pass reader of an OTLP/JSON line on the shared byte cursor
//! ([`crate::dialect::cursor`]), as native turn lines are read: the
//! request's structure is walked once, the fields a [`Span`] needs are read
//! in place (plain strings borrowed, never decoded), attributes whose key is
//! not [`wanted`] are stepped over by structure, and each wanted value is
//! fed to the span's [`Builder`] as soon as it is read.
//!
//! It reads only what it is sure of, and every line it reads it also checks
//! exactly as strictly as serde_json. Anything else — a key with an escape,
//! a field named twice, a time or status written as a float, a missing id,
//! a request without `resourceSpans`, any invalid JSON — makes it return
//! `None`, and the serde reader ([`super::parse`]) reads the line from the
//! start, so spans and error messages still come from one place. An
//! attribute value it is not sure of is handed to serde_json alone, as the
//! serde reader decodes it ([`super::AnyValue`]).

use super::AnyValue;
use crate::dialect::cursor::{Cursor, Key, decimal};
use crate::dialect::spans::attrs::{BStr, Builder, Val, wanted_for};
use crate::dialect::spans::{Span, Spans, clean_id, time};
use std::borrow::Cow;
use std::sync::Arc;

/// Reads one line (one or more requests) into `out`, or `None` when the
/// serde reader must read it (`out` may then hold part of the line).
pub(super) fn line(s: &str, out: &mut Spans) -> Option<()> {
    let mut p = Cursor::new(s);
    loop {
        p.ws();
        if p.i == p.b.len() {
            return Some(());
        }
        p.eat(b'{')?;
        let mut found = false;
        p.object(one_field, &mut 0, |p, key| {
            if matches!(key, b"resourceSpans" | b"resource_spans") {
                found = true;
                p.resource_spans(out)
            } else {
                p.skip(1)
            }
        })?;
        // No (or a null) `resourceSpans`: the serde reader says why.
        if !found {
            return None;
        }
    }
}

/// Field numbers, for finding a field named twice (serde_json rejects it,
/// under any of its names). The objects with one field read share this
/// table: a field of another of them only makes the reader hand the line
/// to serde_json.
fn one_field(key: &[u8]) -> Option<u32> {
    matches!(
        key,
        b"resourceSpans"
            | b"resource_spans"
            | b"resource"
            | b"attributes"
            | b"spans"
            | b"values"
            | b"code"
    )
    .then_some(0)
}

fn resource_spans_field(key: &[u8]) -> Option<u32> {
    match key {
        b"resource" => Some(0),
        b"scopeSpans" | b"scope_spans" | b"instrumentationLibrarySpans" => Some(1),
        _ => None,
    }
}

/// The bits of a key-value pair's two fields.
const KEY: u32 = 1 << 0;
const VALUE: u32 = 1 << 1;

/// The keys of a span, of an attribute (`{"key":…,"value":…}`) and of an
/// `AnyValue`, in the order the OTLP/JSON writers put them (the Collector's
/// file exporter, Phoenix, Langfuse): read first as expected, and as any
/// key when not there ([`Cursor::members_expecting`]).
const SPAN_KEYS: &[Key] = &[
    Key::new("traceId"),
    Key::new("spanId"),
    Key::new("parentSpanId"),
    Key::new("name"),
    Key::new("kind"),
    Key::new("startTimeUnixNano"),
    Key::new("endTimeUnixNano"),
    Key::new("attributes"),
    Key::new("status"),
];
const PAIR_KEYS: &[Key] = &[Key::new("key"), Key::new("value")];
const VALUE_KEYS: &[Key] = &[Key::new("stringValue")];

/// An integer token as serde_json hands it to a visitor: `u64` when it is
/// non-negative and fits, `i64` when it is negative and fits (`-0` and
/// anything larger arrive as `f64`: `None`).
enum IntToken {
    U(u64),
    I(i64),
}

fn int_token(v: &str) -> Option<IntToken> {
    if v.bytes().any(|c| matches!(c, b'.' | b'e' | b'E')) {
        return None;
    }
    if v.starts_with('-') {
        v.parse::<i64>().ok().filter(|&i| i < 0).map(IntToken::I)
    } else {
        v.parse::<u64>().ok().map(IntToken::U)
    }
}

/// One to nineteen ASCII digits as their number (which fits a `u64`).
fn digits19(v: &str) -> Option<u64> {
    if !(1..=19).contains(&v.len()) {
        return None;
    }
    v.bytes().try_fold(0u64, |n, d| {
        d.is_ascii_digit().then(|| n * 10 + u64::from(d - b'0'))
    })
}

impl<'a> Cursor<'a> {
    /// `null`, or an array of `{…}` elements each read by `element`.
    fn objects(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        match self.peek()? {
            b'n' => self.literal(b"null").map(drop),
            b'[' => {
                if self.open_array()? {
                    return Some(());
                }
                loop {
                    self.eat(b'{')?;
                    element(self)?;
                    if !self.next_element()? {
                        return Some(());
                    }
                }
            }
            _ => None,
        }
    }

    /// `resourceSpans`: each element's spans go to `out`.
    fn resource_spans(&mut self, out: &mut Spans) -> Option<()> {
        if self.peek()? != b'[' {
            return None;
        }
        self.objects(|p| {
            let first = out.len();
            let mut service = None;
            p.object(resource_spans_field, &mut 0, |p, key| match key {
                b"resource" => p.resource(&mut service),
                b"scopeSpans" | b"scope_spans" | b"instrumentationLibrarySpans" => p.objects(|p| {
                    p.object(one_field, &mut 0, |p, key| match key {
                        b"spans" => p.objects(|p| {
                            out.push(p.span()?);
                            Some(())
                        }),
                        _ => p.skip(3),
                    })
                }),
                _ => p.skip(2),
            })?;
            // The resource may come after the spans.
            if service.is_some() {
                for s in &mut out[first..] {
                    s.service = service.clone();
                }
            }
            Some(())
        })
    }

    /// `resource`: `null` or an object whose attributes may name the service.
    fn resource(&mut self, service: &mut Option<Arc<str>>) -> Option<()> {
        match self.peek()? {
            b'n' => self.literal(b"null").map(drop),
            b'{' => {
                self.i += 1;
                self.object(one_field, &mut 0, |p, key| match key {
                    b"attributes" => p.attributes(super::is_service, |k, v| {
                        if k == "service.name" {
                            *service = v.as_str().map(Arc::from);
                        }
                    }),
                    _ => p.skip(3),
                })
            }
            _ => None,
        }
    }

    /// A list of `{"key": …, "value": …}`: each wanted key with its value
    /// (when it is not null and decodes) goes to `f`, in order.
    fn attributes(
        &mut self,
        want: impl Fn(&str) -> bool,
        mut f: impl FnMut(&str, &Val<'a>),
    ) -> Option<()> {
        self.objects(|p| {
            let mut key: Option<Cow<'a, str>> = None;
            let mut keep = false;
            let mut value: Option<Val<'a>> = None;
            let mut raw: Option<&'a str> = None;
            p.members_expecting(PAIR_KEYS, &mut 0, |p, k| match k {
                b"key" => {
                    let k = p.string_field()??;
                    keep = want(&k);
                    key = Some(k);
                    Some(KEY)
                }
                b"value" => {
                    match &key {
                        Some(_) if !keep => p.skip(4)?,
                        Some(_) => value = p.attr_value(4)?,
                        None => raw = Some(p.slice(4)?.0),
                    }
                    Some(VALUE)
                }
                _ => p.skip(4).map(|()| 0),
            })?;
            let key = key?;
            if let Some(raw) = raw.filter(|_| keep) {
                value = Cursor::new(raw).attr_value(4)?;
            }
            if let Some(v) = value {
                f(&key, &v);
            }
            Some(())
        })
    }

    /// An attribute's value: `None` for invalid JSON, `Some(None)` for a
    /// null or a value that does not decode (ignored, as the serde reader
    /// ignores it).
    pub(super) fn attr_value(&mut self, depth: u32) -> Option<Option<Val<'a>>> {
        if self.peek()? == b'n' {
            return self.literal(b"null").map(|_| None);
        }
        let start = self.i;
        if let Some(v) = self.any_value(depth) {
            return Some(Some(v));
        }
        self.i = start;
        let (raw, _) = self.slice(depth)?;
        Some(
            serde_json::from_str::<AnyValue<'a>>(raw)
                .ok()
                .map(AnyValue::into_val),
        )
    }

    /// A string, or `null` (`Some(None)`); `None` for anything else.
    /// Escapes are decoded by serde_json.
    fn string_field(&mut self) -> Option<Option<Cow<'a, str>>> {
        match self.peek()? {
            b'n' => self.literal(b"null").map(|_| None),
            b'"' => {
                let start = self.i;
                self.i += 1;
                Some(Some(if self.string()? {
                    serde_json::from_str::<BStr<'a>>(&self.s[start..self.i])
                        .ok()?
                        .0
                } else {
                    // Between the quotes (ASCII: character boundaries).
                    Cow::Borrowed(&self.s[start + 1..self.i - 1])
                }))
            }
            _ => None,
        }
    }

    /// A plain string's text or a number's token, and which it is; `null`
    /// is `Some(None)`; anything else (and a string with an escape) `None`.
    fn scalar(&mut self, depth: u32) -> Option<Option<(&'a str, bool)>> {
        match self.peek()? {
            b'n' => self.literal(b"null").map(|_| None),
            b'"' => {
                let start = self.i + 1;
                self.i = start;
                match self.string()? {
                    false => Some(Some((&self.s[start..self.i - 1], true))),
                    true => None,
                }
            }
            b'-' | b'0'..=b'9' => Some(Some((self.slice(depth)?.0, false))),
            _ => None,
        }
    }

    /// Nanoseconds: a decimal string or an integer, exact.
    fn nanos(&mut self) -> Option<Option<i128>> {
        let n = match self.scalar(3)? {
            None => return Some(None),
            // The usual 19 digits sum up in a u64, as `parse` would read them.
            Some((v, true)) if let Some(n) = digits19(v) => i128::from(n),
            Some((v, true)) => super::decimal_nanos(v).ok()?,
            Some((v, false)) => match int_token(v)? {
                IntToken::U(u) => i128::from(u),
                IntToken::I(i) => i128::from(i),
            },
        };
        // Outside the years: the serde reader gives the reason.
        Some(Some(time::nanos(n).ok()?))
    }

    /// One span object whose `{` was read.
    fn span(&mut self) -> Option<Box<Span>> {
        let mut b = Builder::default();
        let (mut trace, mut span, mut parent) = (None, None, None);
        // Each field's bit, under any of its names (serde_json rejects a
        // field named twice).
        self.members_expecting(SPAN_KEYS, &mut 0, |p, key| {
            Some(match key {
                b"traceId" | b"trace_id" => {
                    trace = p.string_field()?;
                    1 << 0
                }
                b"spanId" | b"span_id" => {
                    span = p.string_field()?;
                    1 << 1
                }
                b"parentSpanId" | b"parent_span_id" => {
                    parent = p.string_field()?;
                    // Known before the attributes (as exporters write
                    // spans), a child's root-only inputs are not decoded.
                    b.parent_id = parent.as_deref().and_then(clean_id);
                    1 << 2
                }
                b"name" => {
                    b.name = p.string_field()?.map(Cow::into_owned).unwrap_or_default();
                    1 << 3
                }
                b"startTimeUnixNano" | b"start_time_unix_nano" => {
                    b.start_ns = p.nanos()?;
                    1 << 4
                }
                b"endTimeUnixNano" | b"end_time_unix_nano" => {
                    b.end_ns = p.nanos()?;
                    1 << 5
                }
                b"attributes" => {
                    let has_parent = b.parent_id.is_some();
                    p.attributes(|k| wanted_for(k, has_parent), |k, v| b.attr(k, v))?;
                    1 << 6
                }
                // An attribute read before it may have marked the span
                // failed (a Langfuse level): attributes only ever set it.
                b"status" => {
                    b.error |= p.status()?;
                    1 << 7
                }
                _ => p.skip(3).map(|()| 0)?,
            })
        })?;
        let id = |v: Option<Cow<'_, str>>| v.and_then(|s| clean_id(&s));
        b.trace_id = id(trace)?;
        b.span_id = id(span)?;
        // `b.parent_id` was set when the parent id was read.
        Some(Box::new(b.finish()))
    }

    /// `status`: true when its code is an error (`2`, `"2"`,
    /// `"STATUS_CODE_ERROR"` or `"ERROR"`).
    fn status(&mut self) -> Option<bool> {
        match self.peek()? {
            b'n' => self.literal(b"null"),
            b'{' => {
                self.i += 1;
                let mut error = false;
                self.object(one_field, &mut 0, |p, key| {
                    if key != b"code" {
                        return p.skip(4);
                    }
                    error = match p.scalar(4)? {
                        None => false,
                        Some((v, true)) => matches!(v, "2" | "STATUS_CODE_ERROR" | "ERROR"),
                        Some((v, false)) => match int_token(v)? {
                            IntToken::U(u) => u == 2,
                            IntToken::I(_) => false,
                        },
                    };
                    Some(())
                })?;
                Some(error)
            }
            _ => None,
        }
    }

    /// An `AnyValue` object as [`AnyValue::into_val`] reads it, or `None`
    /// for anything this reader is not sure of (serde_json then decodes
    /// the value).
    fn any_value(&mut self, depth: u32) -> Option<Val<'a>> {
        if depth >= crate::dialect::cursor::MAX_DEPTH {
            return None;
        }
        self.eat(b'{')?;
        let mut string = None;
        let mut int = None;
        let mut double = None;
        let mut boolean = None;
        let mut array = None;
        let mut kvlist = None;
        self.members_expecting(VALUE_KEYS, &mut 0, |p, key| {
            Some(match key {
                b"stringValue" | b"string_value" => {
                    string = p.string_field()?;
                    1 << 0
                }
                b"intValue" | b"int_value" => {
                    int = match p.scalar(depth + 1)? {
                        None => None,
                        Some((v, true)) => Some(if let Ok(i) = v.parse::<i64>() {
                            Val::Int(i)
                        } else {
                            Val::UInt(v.parse::<u64>().ok()?)
                        }),
                        Some((v, false)) => Some(match int_token(v)? {
                            IntToken::U(u) => Val::UInt(u),
                            IntToken::I(i) => Val::Int(i),
                        }),
                    };
                    1 << 1
                }
                b"doubleValue" | b"double_value" => {
                    double = match p.scalar(depth + 1)? {
                        None => None,
                        Some((v, true)) => Some(v.parse().unwrap_or(f64::NAN)),
                        Some((v, false)) => Some(match int_token(v) {
                            Some(IntToken::U(u)) => u as f64,
                            Some(IntToken::I(i)) => i as f64,
                            None => decimal(v)?,
                        }),
                    };
                    1 << 2
                }
                b"boolValue" | b"bool_value" => {
                    boolean = match p.peek()? {
                        b'n' => p.literal(b"null").map(|_| None)?,
                        b't' => p.literal(b"true").map(|_| Some(true))?,
                        b'f' => p.literal(b"false").map(|_| Some(false))?,
                        _ => return None,
                    };
                    1 << 3
                }
                b"arrayValue" | b"array_value" => {
                    array = p.values(depth, |p| p.any_value(depth + 3))?;
                    1 << 4
                }
                b"kvlistValue" | b"kvlist_value" => {
                    kvlist = p.values(depth, |p| {
                        p.eat(b'{')?;
                        p.pair(depth + 3)
                    })?;
                    1 << 5
                }
                // Not read, but once only, as serde_json's struct has it.
                b"bytesValue" | b"bytes_value" => {
                    p.skip(depth + 1)?;
                    1 << 6
                }
                _ => p.skip(depth + 1).map(|()| 0)?,
            })
        })?;
        Some(if let Some(s) = string {
            Val::Str(s)
        } else if let Some(i) = int {
            i
        } else if let Some(f) = double {
            Val::Float(f)
        } else if let Some(b) = boolean {
            Val::Bool(b)
        } else if let Some(a) = array {
            Val::List(a)
        } else if let Some(kv) = kvlist {
            Val::Map(kv)
        } else {
            Val::Null
        })
    }

    /// `null` (`Some(None)`), or `{"values": null | [element, …]}` (a
    /// missing or null list is empty).
    fn values<T>(
        &mut self,
        depth: u32,
        mut element: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Option<Vec<T>>> {
        match self.peek()? {
            b'n' => return self.literal(b"null").map(|_| None),
            b'{' => self.i += 1,
            _ => return None,
        }
        let mut out = Vec::new();
        self.object(one_field, &mut 0, |p, key| {
            if key != b"values" {
                return p.skip(depth + 2);
            }
            match p.peek()? {
                b'n' => p.literal(b"null").map(drop),
                b'[' => {
                    if p.open_array()? {
                        return Some(());
                    }
                    loop {
                        out.push(element(p)?);
                        if !p.next_element()? {
                            return Some(());
                        }
                    }
                }
                _ => None,
            }
        })?;
        Some(Some(out))
    }

    /// One `{"key": …, "value": …}` of a `kvlistValue` whose `{` was read
    /// (a null or missing value is [`Val::Null`]).
    fn pair(&mut self, depth: u32) -> Option<(Cow<'a, str>, Val<'a>)> {
        let mut key = None;
        let mut value = Val::Null;
        self.members_expecting(PAIR_KEYS, &mut 0, |p, k| match k {
            b"key" => {
                key = Some(p.string_field()??);
                Some(KEY)
            }
            b"value" => {
                if p.peek()? == b'n' {
                    p.literal(b"null")?;
                } else {
                    value = p.any_value(depth + 1)?;
                }
                Some(VALUE)
            }
            _ => p.skip(depth + 1).map(|()| 0),
        })?;
        Some((key?, value))
    }
}

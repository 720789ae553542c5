//! A mapped value read by the native log's type rules, from its raw JSON
//! text: strings, ids, numbers, citations and times in more formats.

use crate::dialect::cursor::{Escapes, Plain};
pub(super) use crate::dialect::native::kind_of;
use crate::model::{Id, Reply, decode_json_string};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde_json::value::RawValue;
use std::borrow::Cow;

/// A mapped value's raw JSON text, and the escapes the reader that kept it
/// saw in it (the cursor knows; serde_json's visitors do not say, so their
/// values are decoded, or looked at for a `\u` escape, when they need it).
#[derive(Debug, Clone, Copy)]
pub(super) struct Raw<'a> {
    pub(super) text: &'a str,
    escapes: Option<Escapes>,
}

impl<'a> Raw<'a> {
    pub(super) const NULL: Raw<'static> = Raw {
        text: "null",
        escapes: Some(Escapes::None),
    };

    /// A value the cursor checked, with the escapes of a string.
    pub(super) fn checked(text: &'a str, escapes: Escapes) -> Self {
        Raw {
            text,
            escapes: Some(escapes),
        }
    }

    /// A value whose escapes are not known.
    pub(super) fn unknown(text: &'a str) -> Self {
        Raw {
            text,
            escapes: None,
        }
    }

    /// A string value as a reply kept in its JSON form.
    pub(super) fn reply(self) -> Reply<'a> {
        match self.escapes {
            Some(e) => Reply::Json {
                raw: self.text,
                unicode_escape: e == Escapes::Unicode,
            },
            None => Reply::json(self.text),
        }
    }

    /// The text of a string value, decoded.
    pub(super) fn decoded(self) -> Cow<'a, str> {
        if self.escapes == Some(Escapes::None) {
            Cow::Borrowed(
                self.text
                    .get(1..self.text.len().saturating_sub(1))
                    .unwrap_or(""),
            )
        } else {
            decode_json_string(self.text)
        }
    }
}

pub(super) fn as_str(raw: Raw<'_>) -> Result<Cow<'_, str>, &'static str> {
    if raw.text.starts_with('"') {
        Ok(raw.decoded())
    } else {
        Err(kind_of(raw.text))
    }
}

pub(super) fn as_id(raw: Raw<'_>) -> Result<Id<'_>, &'static str> {
    if raw.text.starts_with('"') {
        return Ok(Id::string(raw.decoded()));
    }
    let raw = raw.text;
    if raw.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        if raw.parse::<i64>().is_ok() || raw.parse::<u64>().is_ok() {
            return Ok(Id {
                text: Cow::Borrowed(raw),
                numeric: true,
            });
        }
        return Err("a fractional or too large number");
    }
    Err(kind_of(raw))
}

pub(super) fn as_number(raw: &str) -> Option<f64> {
    // A whole number of at most 19 digits converts with one rounding, as
    // `parse` rounds; a plain decimal of at most 15 digits is the quotient
    // of two exact doubles, so the one division rounds it correctly too.
    match crate::dialect::cursor::plain(raw) {
        Some(Plain::Unsigned(n)) => return Some(n as f64),
        Some(Plain::Float(x)) if raw.len() <= 16 => return Some(x),
        _ => {}
    }
    if raw.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        raw.parse::<f64>().ok().filter(|x| x.is_finite())
    } else {
        None
    }
}

pub(super) fn citation(raw: &str) -> crate::model::CitationIndex {
    if raw.starts_with('{') {
        #[derive(serde::Deserialize)]
        struct IndexOnly<'a> {
            #[serde(borrow, default)]
            index: Option<&'a RawValue>,
        }
        match serde_json::from_str::<IndexOnly<'_>>(raw) {
            Ok(IndexOnly { index: Some(i) }) => crate::markers::citation_index(i.get()),
            _ => crate::model::CitationIndex::Malformed,
        }
    } else {
        crate::markers::citation_index(raw)
    }
}

/// A mapped time: RFC 3339 with an offset, a date-time without one (read as
/// UTC: `2026-08-01T10:00:00`, `2026-08-01 10:00:00.5`), or Unix time as a
/// number or a string of digits: seconds, or milliseconds when the value is
/// beyond what seconds can mean for years up to 5138 (|x| ≥ 10^11).
/// `Err(Ok(reason))` for a value that is not a time, `Err(Err(found))` for a
/// value of the wrong type.
pub(super) fn as_time(raw: Raw<'_>) -> Result<DateTime<Utc>, Result<String, &'static str>> {
    if raw.text.starts_with('"') {
        return parse_time(&raw.decoded()).map_err(Ok);
    }
    let raw = raw.text;
    match as_number(raw) {
        Some(x) => unix(x).ok_or_else(|| {
            Ok(format!(
                "created_at {raw} is not a Unix time in years 0000-9999"
            ))
        }),
        None => Err(Err(kind_of(raw))),
    }
}

fn unix(x: f64) -> Option<DateTime<Utc>> {
    let ms = if x.abs() >= 1e11 { x } else { x * 1000.0 };
    if !ms.is_finite() || ms.abs() > 4e14 {
        return None;
    }
    let t = DateTime::from_timestamp_millis(ms.round() as i64)?;
    crate::model::in_years(&t).then_some(t)
}

/// The formats a mapped `created_at` string may take (see [`as_time`]).
pub fn parse_time(s: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(t) = crate::dialect::native::parse_time(s) {
        return Ok(t);
    }
    for f in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, f) {
            let t = t.and_utc();
            if crate::model::in_years(&t) {
                return Ok(t);
            }
        }
    }
    if !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && let Some(t) = s.parse::<f64>().ok().and_then(unix)
    {
        return Ok(t);
    }
    let shown: String = s.chars().take(40).collect();
    let more = if shown.len() < s.len() { "…" } else { "" };
    Err(format!(
        "created_at {shown:?}{more} is not a time (RFC 3339, a date-time without offset read as UTC, or Unix seconds or milliseconds)"
    ))
}

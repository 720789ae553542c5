//! The native turn-log dialect: one JSON object per line.
//!
//! Only the fields the rules need are parsed, into borrowed strings; the
//! reply stays a raw JSON string literal so markers can be scanned without
//! decoding it. [`parse_line`] is the one entry point, so another JSON engine
//! can be swapped in behind it.

use super::Parsed;
use crate::model::{Answer, Chunk, Id, Reply, Turn, Unobserved};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

#[derive(Deserialize)]
struct LineIn<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<&'a RawValue>,
    #[serde(borrow, default)]
    turn_id: Option<IdIn<'a>>,
    #[serde(borrow, default)]
    agent_id: Option<StrIn<'a>>,
    #[serde(borrow, default)]
    conversation_id: Option<IdIn<'a>>,
    #[serde(borrow, default)]
    channel: Option<StrIn<'a>>,
    #[serde(borrow, default)]
    created_at: Option<StrIn<'a>>,
    #[serde(borrow, default)]
    reply: Option<&'a RawValue>,
    #[serde(borrow, default)]
    grounding: Option<GroundingIn<'a>>,
    #[serde(borrow, default)]
    model: Option<StrIn<'a>>,
    #[serde(default)]
    tokens_used: Option<f64>,
    #[serde(default)]
    cost_cents: Option<f64>,
    #[serde(default)]
    latency_ms: Option<f64>,
    /// Why no answer was observed, when `reply` is null (written by `convert`).
    #[serde(default)]
    unobserved: Option<Unobserved>,
}

/// Telemetry fields, read from `grounding` first and the top level second.
#[derive(Default)]
struct TelemetryIn<'a> {
    model: Option<StrIn<'a>>,
    tokens_used: Option<f64>,
    cost_cents: Option<f64>,
    latency_ms: Option<f64>,
}

#[derive(Deserialize)]
struct GroundingIn<'a> {
    #[serde(borrow, default)]
    chunks: Option<ChunksIn<'a>>,
    #[serde(default)]
    citations: Option<CitationsIn>,
    #[serde(default)]
    tools: Option<ToolsIn>,
    #[serde(borrow, default)]
    model: Option<StrIn<'a>>,
    #[serde(default)]
    tokens_used: Option<f64>,
    #[serde(default)]
    cost_cents: Option<f64>,
    #[serde(default)]
    latency_ms: Option<f64>,
}

#[derive(Deserialize)]
struct ChunkIn<'a> {
    #[serde(borrow, default)]
    document_id: Option<IdIn<'a>>,
    #[serde(borrow, default)]
    chunk_id: Option<IdIn<'a>>,
    #[serde(default)]
    score: Option<f64>,
}

/// A string that borrows from the line unless an escape forces a copy.
struct StrIn<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for StrIn<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StrIn<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(StrIn(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(StrIn(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(StrIn(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// `grounding.chunks`, read straight into the turn model with 1-based
/// indexes (one allocation per turn, not two).
struct ChunksIn<'a>(Vec<Chunk<'a>>);

impl<'de: 'a, 'a> Deserialize<'de> for ChunksIn<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ChunksIn<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of chunks")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(8).min(64));
                while let Some(c) = seq.next_element::<ChunkIn<'de>>()? {
                    out.push(Chunk {
                        index: u32::try_from(out.len() + 1).unwrap_or(u32::MAX),
                        document_id: c.document_id.map(|d| d.0),
                        chunk_id: c.chunk_id.map(|d| d.0),
                        score: c.score,
                    });
                }
                Ok(ChunksIn(out))
            }
        }
        d.deserialize_seq(V)
    }
}

/// A string-or-integer id.
struct IdIn<'a>(Id<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for IdIn<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IdIn<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(IdIn(Id {
                    text: Cow::Borrowed(v),
                    numeric: false,
                }))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(IdIn(Id {
                    text: Cow::Owned(v.to_owned()),
                    numeric: false,
                }))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(IdIn(Id {
                    text: Cow::Owned(v),
                    numeric: false,
                }))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(IdIn(Id {
                    text: Cow::Owned(v.to_string()),
                    numeric: true,
                }))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(IdIn(Id {
                    text: Cow::Owned(v.to_string()),
                    numeric: true,
                }))
            }
        }
        d.deserialize_any(V)
    }
}

/// `grounding.citations`: each element's integer `index`, `None` when it has none.
struct CitationsIn(Vec<Option<u64>>);

impl<'de> Deserialize<'de> for CitationsIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CitationsIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of citations")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(c) = seq.next_element::<CitationIn>()? {
                    out.push(c.0);
                }
                Ok(CitationsIn(out))
            }
        }
        d.deserialize_seq(V)
    }
}

struct CitationIn(Option<u64>);

impl<'de> Deserialize<'de> for CitationIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CitationIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a citation object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut index = None;
                while let Some(key) = map.next_key::<StrIn<'de>>()? {
                    if key.0 == "index" {
                        let v: serde_json::Value = map.next_value()?;
                        index = match v {
                            serde_json::Value::Number(n) => {
                                n.as_u64().or_else(|| n.as_i64().map(|_| 0))
                            }
                            _ => None,
                        };
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(CitationIn(index))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(CitationIn(Some(v)))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(CitationIn(Some(0)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(CitationIn(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(CitationIn(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
                Ok(CitationIn(None))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(CitationIn(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(CitationIn(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// `grounding.tools`: only the number of calls and of failed calls.
#[derive(Default)]
struct ToolsIn {
    calls: u32,
    errors: u32,
}

impl<'de> Deserialize<'de> for ToolsIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ToolsIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of tool calls")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut t = ToolsIn::default();
                while let Some(call) = seq.next_element::<ToolIn>()? {
                    t.calls = t.calls.saturating_add(1);
                    if !call.ok {
                        t.errors = t.errors.saturating_add(1);
                    }
                }
                Ok(t)
            }
        }
        d.deserialize_seq(V)
    }
}

/// One tool call; `ok` unless its status is present and other than `ok`/`success`.
struct ToolIn {
    ok: bool,
}

impl<'de> Deserialize<'de> for ToolIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ToolIn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tool call object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut ok = true;
                while let Some(key) = map.next_key::<StrIn<'de>>()? {
                    if key.0 == "status" {
                        let status = map.next_value::<Option<StrIn<'de>>>()?;
                        ok = status.is_none_or(|s| tool_status_ok(&s.0));
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(ToolIn { ok })
            }
        }
        d.deserialize_map(V)
    }
}

/// A tool status counts as success when it is `ok` or `success` (any case).
pub fn tool_status_ok(s: &str) -> bool {
    s.eq_ignore_ascii_case("ok") || s.eq_ignore_ascii_case("success")
}

/// Only the `type` field, for lines that fail the full parse.
#[derive(Deserialize)]
struct TypeOnly<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<&'a RawValue>,
}

fn is_turn_type(kind: Option<&RawValue>) -> bool {
    match kind {
        None => true,
        Some(raw) => {
            let raw = raw.get();
            raw == "\"turn\""
                || raw == "null"
                || (raw.contains('\\')
                    && serde_json::from_str::<String>(raw).is_ok_and(|s| s == "turn"))
        }
    }
}

/// Strips serde_json's " at line L column C" (the line is always 1 here) and
/// keeps the column, which is still useful. Values serde quotes are redacted
/// ([`super::redact_reason`]): a reason never echoes the line's content.
fn reason_of(e: &serde_json::Error) -> String {
    let msg = super::redact_reason(&e.to_string());
    let base = msg
        .rsplit_once(" at line ")
        .map_or(msg.as_str(), |(b, _)| b);
    let kind = match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            "not valid JSON: "
        }
        _ => "",
    };
    if e.column() > 0 {
        format!("{kind}{base} (column {})", e.column())
    } else {
        format!("{kind}{base}")
    }
}

/// Parses an RFC 3339 timestamp with an offset into UTC, in years
/// 0000–9999 once in UTC ([`crate::model::YEARS`]).
pub fn parse_time(s: &str) -> Result<DateTime<Utc>, String> {
    // Quote a short prefix only: enough to recognise, never a whole field.
    let shown = || {
        let shown: String = s.chars().take(40).collect();
        let more = if shown.len() < s.len() { "…" } else { "" };
        format!("{shown:?}{more}")
    };
    let t = DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| {
            format!(
                "created_at {} is not an RFC 3339 time with an offset ({e})",
                shown()
            )
        })?;
    if !crate::model::in_years(&t) {
        return Err(format!(
            "created_at {} is outside years 0000-9999 in UTC",
            shown()
        ));
    }
    Ok(t)
}

fn count(v: Option<f64>, name: &str) -> Result<Option<u64>, String> {
    match v {
        None => Ok(None),
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= u64::MAX as f64 => Ok(Some(x as u64)),
        Some(x) => Err(format!("{name} must be a whole number, not {x}")),
    }
}

/// Parses one non-blank line of a turn log.
pub fn parse_line(line: &str) -> Parsed<'_> {
    // serde would read an array as a struct; a turn must be an object.
    if line.bytes().find(|b| !b.is_ascii_whitespace()) != Some(b'{') {
        return Parsed::Invalid(
            if serde_json::from_str::<serde::de::IgnoredAny>(line).is_ok() {
                "not a JSON object".to_owned()
            } else {
                "not valid JSON".to_owned()
            },
        );
    }
    let parsed: LineIn<'_> = match serde_json::from_str(line) {
        Ok(p) => p,
        Err(e) => {
            if let Ok(t) = serde_json::from_str::<TypeOnly<'_>>(line)
                && !is_turn_type(t.kind)
            {
                return Parsed::Skipped;
            }
            return Parsed::Invalid(reason_of(&e));
        }
    };
    if !is_turn_type(parsed.kind) {
        return Parsed::Skipped;
    }
    match build(parsed) {
        Ok(turn) => Parsed::Turn(turn),
        Err(reason) => Parsed::Invalid(super::cap_reason(reason)),
    }
}

fn build(p: LineIn<'_>) -> Result<Turn<'_>, String> {
    let turn_id = p.turn_id.ok_or("missing field `turn_id`")?.0;
    let agent_id = p.agent_id.ok_or("missing field `agent_id`")?.0;
    let created_at = parse_time(&p.created_at.ok_or("missing field `created_at`")?.0)?;
    let (chunks_in, citations, tools, g_tel) = match p.grounding {
        Some(g) => (
            g.chunks.map_or_else(Vec::new, |c| c.0),
            g.citations,
            g.tools.unwrap_or_default(),
            TelemetryIn {
                model: g.model,
                tokens_used: g.tokens_used,
                cost_cents: g.cost_cents,
                latency_ms: g.latency_ms,
            },
        ),
        None => (Vec::new(), None, ToolsIn::default(), TelemetryIn::default()),
    };
    let answer = match p.reply {
        Some(raw) if raw.get().starts_with('"') => Answer::Reply(Reply::Json(raw.get())),
        Some(raw) if raw.get() != "null" => return Err("reply must be a string or null".into()),
        _ => match citations {
            Some(c) => Answer::Citations(c.0),
            None => Answer::Unobserved(p.unobserved.unwrap_or(Unobserved::NoReply)),
        },
    };
    let chunks = chunks_in;
    let tel = TelemetryIn {
        model: p.model,
        tokens_used: p.tokens_used,
        cost_cents: p.cost_cents,
        latency_ms: p.latency_ms,
    };
    Ok(Turn {
        turn_id,
        agent_id,
        conversation_id: p.conversation_id.map(|c| c.0),
        channel: p.channel.map_or(Cow::Borrowed("chat"), |c| c.0),
        created_at,
        answer,
        chunks,
        tool_calls: tools.calls,
        tool_errors: tools.errors,
        model: g_tel.model.or(tel.model).map(|m| m.0),
        tokens_used: count(g_tel.tokens_used.or(tel.tokens_used), "tokens_used")?,
        cost_cents: g_tel.cost_cents.or(tel.cost_cents),
        latency_ms: g_tel.latency_ms.or(tel.latency_ms),
    })
}

/// What `explain` needs beyond the turn: tool calls in full and the question
/// when the log carries one. Parsed with the general JSON model, since it
/// runs for one line only.
pub fn parse_extras(line: &[u8]) -> crate::model::Extras {
    use crate::model::{Extras, ToolCall};
    use serde_json::Value;
    let mut extras = Extras::default();
    let Ok(Value::Object(top)) = serde_json::from_slice::<Value>(line) else {
        return extras;
    };
    extras.question = top
        .get("question")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let tools = top
        .get("grounding")
        .and_then(|g| g.get("tools"))
        .and_then(Value::as_array);
    for t in tools.into_iter().flatten() {
        let text = |k: &str| t.get(k).and_then(Value::as_str).map(str::to_owned);
        extras.tools.push(ToolCall {
            name: text("name").unwrap_or_else(|| "(unnamed)".into()),
            status: text("status").unwrap_or_else(|| "ok".into()),
            duration_ms: t.get("duration_ms").and_then(Value::as_f64),
            arguments: t.get("arguments").cloned(),
            result: t.get("result").cloned(),
        });
    }
    extras
}

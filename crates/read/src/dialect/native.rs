//! The native turn-log dialect: one JSON object per line.
//!
//! Only the fields the rules need are parsed, into borrowed strings; the
//! reply stays a raw JSON string literal so markers can be scanned without
//! decoding it. [`parse_line`] is the one entry point, so another JSON engine
//! can be swapped in behind it.
//!
//! Every field is read as whatever JSON it holds, and its type is checked
//! here, not by serde, so a message names the field and the type it should
//! have and never quotes the value. What a wrong type does depends on the
//! field: where the verdict or the turn's identity depends on it (`turn_id`,
//! `agent_id`, `created_at`, `reply`, `grounding` with its `chunks`, their
//! ids and `score`, `citations`, and `markers`) the line is invalid; the optional
//! descriptive and telemetry fields ([`LENIENT`]) are dropped, as if absent,
//! and reported in [`Dropped`], and the turn is graded.

use super::Parsed;
use crate::messages::Warnings;
use crate::model::{
    Answer, Chunk, CitationIndex, Cite, Id, MarkersFrom, Reply, Texts, Turn, Unobserved,
    decode_json_string,
};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

mod scan;
mod time;

#[derive(Deserialize, Default)]
struct LineIn<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<RawIn<'a>>,
    #[serde(borrow, default)]
    turn_id: Option<Field<IdIn<'a>>>,
    #[serde(borrow, default)]
    agent_id: Option<Field<StrIn<'a>>>,
    #[serde(borrow, default)]
    conversation_id: Option<Field<IdIn<'a>>>,
    #[serde(borrow, default)]
    channel: Option<Field<StrIn<'a>>>,
    #[serde(borrow, default)]
    created_at: Option<Field<StrIn<'a>>>,
    #[serde(borrow, default)]
    reply: Option<RawIn<'a>>,
    #[serde(borrow, default)]
    grounding: Option<Field<GroundingIn<'a>>>,
    #[serde(borrow, default)]
    model: Option<Field<StrIn<'a>>>,
    #[serde(default)]
    tokens_used: Option<Field<Count>>,
    #[serde(default)]
    cost_cents: Option<Field<Number>>,
    #[serde(default)]
    latency_ms: Option<Field<Number>>,
    /// Why no answer was observed, when `reply` is null (written by `convert`).
    #[serde(borrow, default)]
    unobserved: Option<Field<StrIn<'a>>>,
    /// The marker grammar the reply is written in (written by `convert`).
    #[serde(borrow, default)]
    markers: Option<Field<StrIn<'a>>>,
    /// What the source said of its retrieval beyond the chunks (written by
    /// `convert`: `documents_not_recorded` for a retrieval step without
    /// its documents).
    #[serde(borrow, default)]
    evidence: Option<Field<StrIn<'a>>>,
}

#[derive(Deserialize, Default)]
struct GroundingIn<'a> {
    #[serde(borrow, default)]
    chunks: Option<Field<ChunksIn<'a>>>,
    #[serde(default)]
    citations: Option<Field<CitationsIn>>,
    #[serde(default)]
    tools: Option<Field<ToolsIn>>,
    #[serde(borrow, default)]
    model: Option<Field<StrIn<'a>>>,
    #[serde(default)]
    tokens_used: Option<Field<Count>>,
    #[serde(default)]
    cost_cents: Option<Field<Number>>,
    #[serde(default)]
    latency_ms: Option<Field<Number>>,
}

#[derive(Deserialize, Default)]
struct ChunkIn<'a> {
    #[serde(borrow, default)]
    document_id: Option<Field<IdIn<'a>>>,
    #[serde(borrow, default)]
    chunk_id: Option<Field<IdIn<'a>>>,
    #[serde(default)]
    score: Option<Field<Number>>,
    /// The chunk's text, under the names retrieval libraries use (the first
    /// string of them is read; a value of another type is not text).
    #[serde(borrow, default)]
    content: Option<RawIn<'a>>,
    #[serde(borrow, default)]
    text: Option<RawIn<'a>>,
    #[serde(borrow, default)]
    page_content: Option<RawIn<'a>>,
}

impl<'a> ChunkIn<'a> {
    /// The chunk's text, kept as its JSON string.
    fn text_of(&self) -> Option<Reply<'a>> {
        [self.content, self.text, self.page_content]
            .into_iter()
            .flatten()
            .find(|r| r.text.starts_with('"'))
            .map(|r| Reply::Json {
                raw: r.text,
                unicode_escape: r.unicode_escape,
            })
    }
}

/// A JSON value kept as its text (a [`RawValue`], or a slice [`scan`]
/// checked), and for a string whether it holds a `\u` escape (which
/// [`scan`] notes as it checks the string).
#[derive(Clone, Copy)]
struct RawIn<'a> {
    text: &'a str,
    unicode_escape: bool,
}

impl<'de: 'a, 'a> Deserialize<'de> for RawIn<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <&'de RawValue>::deserialize(d).map(|r| RawIn {
            text: r.get(),
            unicode_escape: r.get().starts_with('"') && crate::model::has_unicode_escape(r.get()),
        })
    }
}

/// What a field held instead of the type it should have: "a number",
/// "an object". Names a JSON type, never a value.
type Found = &'static str;

/// A field's value, or what it held when that was not the type it should
/// have. As an `Option<Field<_>>`, a field that is `null` reads as absent.
struct Field<T>(Result<T, Found>);

/// The type a field should have: each method takes one kind of JSON value
/// and gives the field's value, or what was found instead. A value of the
/// wrong type is consumed without being kept (nested arrays and objects are
/// skipped without recursion).
trait Expect<'de>: Sized {
    fn string(_: Cow<'de, str>) -> Result<Self, Found> {
        Err("a string")
    }
    fn unsigned(_: u64) -> Result<Self, Found> {
        Err("a number")
    }
    fn negative(_: i64) -> Result<Self, Found> {
        Err("a number")
    }
    /// A number with a fraction or an exponent, or an integer beyond 64 bits.
    fn float(_: f64) -> Result<Self, Found> {
        Err("a number")
    }
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Result<Self, Found>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Err("an object"))
    }
    fn array<A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Self, Found>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Err("an array"))
    }
}

impl<'de, T: Expect<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Expect<'de>> Visitor<'de> for V<T> {
            type Value = Field<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Field(Err("a boolean")))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Field(T::unsigned(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Field(T::negative(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Field(T::float(v)))
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Field(T::string(Cow::Borrowed(v))))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Field(T::string(Cow::Owned(v.to_owned()))))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Field(T::string(Cow::Owned(v))))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Field(Err("null")))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::object(map).map(Field)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                T::array(seq).map(Field)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// What each type is called in messages.
const A_STRING: &str = "a string";
const AN_ID: &str = "a string or an integer";
const A_NUMBER: &str = "a number";
const A_COUNT: &str = "a whole number, 0 or more";
const AN_OBJECT: &str = "an object";
const AN_ARRAY: &str = "an array";

/// A string that borrows from the line unless an escape forces a copy.
struct StrIn<'a>(Cow<'a, str>);

impl<'de: 'a, 'a> Expect<'de> for StrIn<'a> {
    fn string(v: Cow<'de, str>) -> Result<Self, Found> {
        Ok(StrIn(v))
    }
}

/// Object keys, read as strings (serde_json keys always are).
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

/// A string-or-integer id.
struct IdIn<'a>(Id<'a>);

impl<'de: 'a, 'a> Expect<'de> for IdIn<'a> {
    fn string(v: Cow<'de, str>) -> Result<Self, Found> {
        Ok(IdIn(Id {
            text: v,
            numeric: false,
        }))
    }
    fn unsigned(v: u64) -> Result<Self, Found> {
        Ok(IdIn(Id {
            text: Cow::Owned(v.to_string()),
            numeric: true,
        }))
    }
    fn negative(v: i64) -> Result<Self, Found> {
        Ok(IdIn(Id {
            text: Cow::Owned(v.to_string()),
            numeric: true,
        }))
    }
    fn float(_: f64) -> Result<Self, Found> {
        Err("a fractional or too large number")
    }
}

/// Any JSON number.
struct Number(f64);

impl Expect<'_> for Number {
    fn unsigned(v: u64) -> Result<Self, Found> {
        Ok(Number(v as f64))
    }
    fn negative(v: i64) -> Result<Self, Found> {
        Ok(Number(v as f64))
    }
    fn float(v: f64) -> Result<Self, Found> {
        Ok(Number(v))
    }
}

/// A whole number from 0 to 2^64 − 1 (`1840` or `1840.0`).
struct Count(u64);

impl Expect<'_> for Count {
    fn unsigned(v: u64) -> Result<Self, Found> {
        Ok(Count(v))
    }
    fn negative(_: i64) -> Result<Self, Found> {
        Err("a negative number")
    }
    fn float(v: f64) -> Result<Self, Found> {
        if v < 0.0 {
            Err("a negative number")
        } else if v.fract() != 0.0 {
            Err("a fraction")
        } else if v >= 18_446_744_073_709_551_616.0 {
            Err("a number too large")
        } else {
            Ok(Count(v as u64))
        }
    }
}

impl<'de: 'a, 'a> Expect<'de> for GroundingIn<'a> {
    fn object<A: MapAccess<'de>>(map: A) -> Result<Result<Self, Found>, A::Error> {
        GroundingIn::deserialize(MapAccessDeserializer::new(map)).map(Ok)
    }
}

impl<'de: 'a, 'a> Expect<'de> for ChunkIn<'a> {
    fn object<A: MapAccess<'de>>(map: A) -> Result<Result<Self, Found>, A::Error> {
        ChunkIn::deserialize(MapAccessDeserializer::new(map)).map(Ok)
    }
}

/// `grounding.chunks`, read straight into the turn model with 1-based
/// indexes (one allocation per turn, not two); or why the line is invalid,
/// from the first chunk that is not as it should be.
struct ChunksIn<'a>(Result<ChunkList<'a>, String>);

/// The chunks and their texts (only as long as the last chunk with text).
#[derive(Default)]
struct ChunkList<'a> {
    chunks: Vec<Chunk<'a>>,
    texts: Vec<Option<Reply<'a>>>,
}

impl<'a> ChunkList<'a> {
    fn push(&mut self, c: ChunkIn<'a>) -> Result<(), String> {
        let text = c.text_of();
        self.chunks.push(chunk(c, self.chunks.len() + 1)?);
        if text.is_some() {
            self.texts.resize(self.chunks.len() - 1, None);
            self.texts.push(text);
        }
        Ok(())
    }
}

impl<'de: 'a, 'a> Expect<'de> for ChunksIn<'a> {
    fn array<A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Self, Found>, A::Error> {
        let mut out = ChunkList {
            chunks: Vec::with_capacity(seq.size_hint().unwrap_or(8).min(64)),
            texts: Vec::new(),
        };
        while let Some(c) = seq.next_element::<Field<ChunkIn<'de>>>()? {
            let pushed =
                c.0.map_err(|found| wrong("grounding.chunks[]", AN_OBJECT, found))
                    .and_then(|c| out.push(c));
            match pushed {
                Ok(()) => {}
                Err(reason) => {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    return Ok(Ok(ChunksIn(Err(reason))));
                }
            }
        }
        Ok(Ok(ChunksIn(Ok(out))))
    }
}

/// The chunk at 1-based `index`, its fields checked.
fn chunk(c: ChunkIn<'_>, index: usize) -> Result<Chunk<'_>, String> {
    Ok(Chunk {
        index: u32::try_from(index).unwrap_or(u32::MAX),
        document_id: strict(c.document_id, "grounding.chunks[].document_id", AN_ID)?.map(|d| d.0),
        chunk_id: strict(c.chunk_id, "grounding.chunks[].chunk_id", AN_ID)?.map(|d| d.0),
        score: strict(c.score, "grounding.chunks[].score", "a number or null")?.map(|s| s.0),
    })
}

/// `grounding.citations`: each element's `index`, read by the marker rule
/// ([`crate::markers::citation_index`]). An element may be an object with
/// an `index` or a bare number; anything else is a malformed marker.
/// An element may also place itself: `start` and `end` (characters of
/// `reply`), `text` (what the span holds), `quote` with `quote_start` and
/// `quote_end` (characters of the chunk's text): see [`cite_of`].
#[derive(Default)]
struct CitationsIn {
    list: Vec<CitationIndex>,
    /// One per element, as far as the last element that places itself.
    cites: Vec<Cite>,
    /// Some element has both `start` and `end`.
    spanned: bool,
}

impl CitationsIn {
    /// Adds the element `raw` ([`citation`], [`cite_of`]).
    fn push_raw(&mut self, raw: &str) {
        self.push(citation(raw), cite_of(raw));
    }
    fn push(&mut self, index: CitationIndex, cite: Option<Cite>) {
        self.list.push(index);
        if let Some(c) = cite {
            self.spanned |= c.span.is_some();
            self.cites.resize(self.list.len() - 1, Cite::default());
            self.cites.push(c);
        }
    }
}

impl<'de> Expect<'de> for CitationsIn {
    fn array<A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Self, Found>, A::Error> {
        let mut out = CitationsIn::default();
        // Raw, so an index too large for any integer is still seen as digits.
        while let Some(raw) = seq.next_element::<&'de RawValue>()? {
            out.push_raw(raw.get());
        }
        Ok(Ok(out))
    }
}

/// The keys by which a citation object places itself; the fast reader
/// leaves an object holding one of them to [`cite_of`].
pub(super) const PLACING_KEYS: [&[u8]; 6] = [
    b"start",
    b"end",
    b"text",
    b"quote",
    b"quote_start",
    b"quote_end",
];

/// Where a citation object places itself, read leniently: a value of
/// another type than the one named is left out (the index alone decides
/// the verdict). `None` when it places nothing.
fn cite_of(raw: &str) -> Option<Cite> {
    #[derive(Deserialize)]
    struct Placing {
        #[serde(default)]
        start: Option<serde_json::Value>,
        #[serde(default)]
        end: Option<serde_json::Value>,
        #[serde(default)]
        text: Option<serde_json::Value>,
        #[serde(default)]
        quote: Option<serde_json::Value>,
        #[serde(default)]
        quote_start: Option<serde_json::Value>,
        #[serde(default)]
        quote_end: Option<serde_json::Value>,
    }
    if !raw.starts_with('{') {
        return None;
    }
    let p: Placing = serde_json::from_str(raw).ok()?;
    let n = |v: &Option<serde_json::Value>| v.as_ref().and_then(|v| v.as_u64()).map(|x| x as usize);
    let s = |v: &Option<serde_json::Value>| {
        v.as_ref()
            .and_then(|v| v.as_str())
            .map(crate::model::Shared::from)
    };
    let pair = |a, b| match (a, b) {
        (Some(a), Some(b)) if a <= b => Some((a, b)),
        _ => None,
    };
    let c = Cite {
        span: pair(n(&p.start), n(&p.end)),
        quote: s(&p.quote),
        span_text: s(&p.text),
        quote_at: pair(n(&p.quote_start), n(&p.quote_end)),
    };
    (c != Cite::default()).then_some(c)
}

/// Only the `index` of a citation object.
#[derive(Deserialize)]
struct IndexOnly<'a> {
    #[serde(borrow, default)]
    index: Option<&'a RawValue>,
}

fn citation(raw: &str) -> CitationIndex {
    if raw.starts_with('{') {
        match serde_json::from_str::<IndexOnly<'_>>(raw) {
            Ok(IndexOnly { index: Some(i) }) => crate::markers::citation_index(i.get()),
            _ => CitationIndex::Malformed,
        }
    } else {
        crate::markers::citation_index(raw)
    }
}

/// What `grounding.tools` held when an element is not an object.
const TOOLS_NOT_OBJECTS: Found = "an array holding something other than objects";

/// `grounding.tools`: only the number of calls and of failed calls, and
/// whether a status had to be dropped.
#[derive(Default)]
struct ToolsIn {
    calls: u32,
    errors: u32,
    status_dropped: bool,
}

impl<'de> Expect<'de> for ToolsIn {
    fn array<A: SeqAccess<'de>>(mut seq: A) -> Result<Result<Self, Found>, A::Error> {
        let mut t = ToolsIn::default();
        let mut all_objects = true;
        while let Some(call) = seq.next_element::<Field<ToolIn>>()? {
            match call.0 {
                Ok(call) => {
                    t.calls = t.calls.saturating_add(1);
                    t.errors = t.errors.saturating_add(u32::from(!call.ok));
                    t.status_dropped |= call.status_dropped;
                }
                Err(_) => all_objects = false,
            }
        }
        Ok(if all_objects {
            Ok(t)
        } else {
            Err(TOOLS_NOT_OBJECTS)
        })
    }
}

/// One tool call; `ok` unless its status is present and other than
/// `ok`/`success`. A status that is not a string is dropped (the call counts
/// as `ok`).
struct ToolIn {
    ok: bool,
    status_dropped: bool,
}

impl<'de> Expect<'de> for ToolIn {
    fn object<A: MapAccess<'de>>(mut map: A) -> Result<Result<Self, Found>, A::Error> {
        let mut call = ToolIn {
            ok: true,
            status_dropped: false,
        };
        while let Some(key) = map.next_key::<StrIn<'de>>()? {
            if key.0 == "status" {
                let status = map.next_value::<Option<Field<StrIn<'de>>>>()?;
                (call.ok, call.status_dropped) = match status.map(|s| s.0) {
                    None => (true, false),
                    Some(Ok(s)) => (tool_status_ok(&s.0), false),
                    Some(Err(_)) => (true, true),
                };
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Ok(call))
    }
}

/// The optional fields read leniently: a value of the wrong type is dropped
/// as if absent, counted as a warning, and the turn is graded all the same.
/// None of them can change a verdict. (path, what it should be.)
pub const LENIENT: [(&str, &str); 14] = [
    ("conversation_id", AN_ID),
    ("channel", A_STRING),
    ("model", A_STRING),
    ("tokens_used", A_COUNT),
    ("cost_cents", A_NUMBER),
    ("latency_ms", A_NUMBER),
    (
        "unobserved",
        "one of `no_reply`, `no_turn_end`, `withheld`, `bounded_audit`, `no_root`, `content_not_recorded`",
    ),
    ("grounding.model", A_STRING),
    ("grounding.tokens_used", A_COUNT),
    ("grounding.cost_cents", A_NUMBER),
    ("grounding.latency_ms", A_NUMBER),
    ("grounding.tools", "an array of objects"),
    ("grounding.tools[].status", A_STRING),
    (
        "evidence",
        "one of `documents`, `no_retrieval`, `documents_not_recorded`, `content_not_recorded`, `partial_trace`",
    ),
];

/// Positions in [`LENIENT`].
#[derive(Clone, Copy)]
enum Lenient {
    ConversationId,
    Channel,
    Model,
    TokensUsed,
    CostCents,
    LatencyMs,
    Unobserved,
    GroundingModel,
    GroundingTokensUsed,
    GroundingCostCents,
    GroundingLatencyMs,
    Tools,
    ToolStatus,
    Evidence,
}

/// The optional fields dropped from one turn because their type was wrong:
/// a set over [`LENIENT`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped(u16);

impl Dropped {
    fn set(&mut self, f: Lenient) {
        self.0 |= 1 << f as u16;
    }
    /// True when nothing was dropped.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// (path, what it should be) of each dropped field, in [`LENIENT`] order.
    pub fn fields(self) -> impl Iterator<Item = (&'static str, &'static str)> {
        LENIENT
            .into_iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, f)| f)
    }
    /// Counts the turn once for each dropped field: warning kind
    /// `dropped_field`, the field's path as subject.
    pub fn record(self, warnings: &mut Warnings) {
        for (path, expected) in self.fields() {
            warnings.add("dropped_field", path, "turn", 1, || {
                format!("field `{path}` is not {expected}; dropped")
            });
        }
    }
}

/// The reason a line is invalid because of a field's type.
fn wrong(path: &str, expected: &str, found: Found) -> String {
    format!("field `{path}`: expected {expected}, found {found}")
}

/// A field the verdict or the turn's identity depends on: its value, absent
/// (`None`), or the reason the line is invalid.
fn strict<T>(v: Option<Field<T>>, path: &str, expected: &str) -> Result<Option<T>, String> {
    match v.map(|f| f.0) {
        None => Ok(None),
        Some(Ok(x)) => Ok(Some(x)),
        Some(Err(found)) => Err(wrong(path, expected, found)),
    }
}

/// An optional field read leniently: its value, or `None` (noted in
/// `dropped`) when it was of the wrong type.
fn lenient<T>(v: Option<Field<T>>, f: Lenient, dropped: &mut Dropped) -> Option<T> {
    match v?.0 {
        Ok(x) => Some(x),
        Err(_) => {
            dropped.set(f);
            None
        }
    }
}

/// What a raw JSON value is, for messages (the mapped dialect's too).
pub(in crate::dialect) fn kind_of(raw: &str) -> Found {
    match raw.as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
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

fn is_turn_type(kind: Option<&str>) -> bool {
    match kind {
        None => true,
        Some(raw) => {
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
    let t = match time::fast(s) {
        Some(t) => Ok(t),
        None => DateTime::parse_from_rfc3339(s).map(|t| t.with_timezone(&Utc)),
    }
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

/// The native turn log: one JSON turn per line.
pub struct Native;

/// The native dialect, as listed in [`super::DIALECTS`].
pub static NATIVE: Native = Native;

impl super::Dialect for Native {
    fn name(&self) -> &'static str {
        "turns"
    }
    fn about(&self) -> &'static str {
        "The native turn log: one JSON turn per line"
    }
    /// The fallback: any source no other dialect claims.
    fn sniff(&self, _first: &super::First<'_>) -> bool {
        true
    }
    fn grammar(&self) -> crate::markers::Grammar {
        crate::markers::Grammar::default()
    }
    fn parse_line<'a>(
        &self,
        line: &'a str,
        _out: &mut Vec<super::Record>,
        warnings: &mut crate::messages::Warnings,
    ) -> Parsed<'a> {
        let (parsed, dropped) = parse_line_reporting(line);
        if !dropped.is_empty() {
            dropped.record(warnings);
        }
        parsed
    }
    fn extras(&self, line: &str) -> crate::model::Extras {
        parse_extras(line.as_bytes())
    }
}

/// Parses one non-blank line of a turn log.
pub fn parse_line(line: &str) -> Parsed<'_> {
    parse_line_reporting(line).0
}

/// Parses one non-blank line of a turn log, and names the optional fields
/// dropped from the turn because their type was wrong (empty unless the
/// line is a turn).
///
/// The specialised reader ([`scan`]) reads the common line in one pass; any
/// line it does not handle, valid or not, is read by serde_json
/// ([`parse_line_reporting_serde`]), with the same result by construction
/// (and by the differential tests and fuzz target).
pub fn parse_line_reporting(line: &str) -> (Parsed<'_>, Dropped) {
    match scan::line(line) {
        Some(parsed) => finish(parsed),
        None => parse_line_reporting_serde(line),
    }
}

/// True when the specialised reader handles `line` itself (for tests and
/// the differential fuzz target: the serde_json path reads the rest).
#[doc(hidden)]
pub fn fast_path_handles(line: &str) -> bool {
    scan::line(line).is_some()
}

/// [`parse_line_reporting`] through serde_json only: the reference the
/// specialised reader is checked against.
#[doc(hidden)]
pub fn parse_line_reporting_serde(line: &str) -> (Parsed<'_>, Dropped) {
    // serde would read an array as a struct; a turn must be an object.
    if line.bytes().find(|b| !b.is_ascii_whitespace()) != Some(b'{') {
        let reason = if serde_json::from_str::<serde::de::IgnoredAny>(line).is_ok() {
            "not a JSON object"
        } else {
            "not valid JSON"
        };
        return (Parsed::Invalid(reason.to_owned()), Dropped::default());
    }
    let parsed: LineIn<'_> = match serde_json::from_str(line) {
        Ok(p) => p,
        Err(e) => {
            if let Ok(t) = serde_json::from_str::<TypeOnly<'_>>(line)
                && !is_turn_type(t.kind.map(RawValue::get))
            {
                return (Parsed::Skipped, Dropped::default());
            }
            return (Parsed::Invalid(reason_of(&e)), Dropped::default());
        }
    };
    finish(parsed)
}

/// The turn of a line that parsed (by either reader), or why it is not one.
fn finish(parsed: LineIn<'_>) -> (Parsed<'_>, Dropped) {
    if !is_turn_type(parsed.kind.map(|k| k.text)) {
        return (Parsed::Skipped, Dropped::default());
    }
    let mut dropped = Dropped::default();
    match build(parsed, &mut dropped) {
        Ok(turn) => (Parsed::Turn(turn), dropped),
        Err(reason) => (
            Parsed::Invalid(super::cap_reason(reason)),
            Dropped::default(),
        ),
    }
}

fn build<'a>(p: LineIn<'a>, dropped: &mut Dropped) -> Result<Turn<'a>, String> {
    // Every missing required field is named, not just the first.
    let missing: Vec<&str> = [
        ("`turn_id`", p.turn_id.is_none()),
        ("`agent_id`", p.agent_id.is_none()),
        ("`created_at`", p.created_at.is_none()),
    ]
    .into_iter()
    .filter_map(|(name, absent)| absent.then_some(name))
    .collect();
    if !missing.is_empty() {
        let s = if missing.len() > 1 { "s" } else { "" };
        return Err(format!("missing field{s} {}", missing.join(", ")));
    }
    let turn_id = strict(p.turn_id, "turn_id", AN_ID)?
        .ok_or("missing field `turn_id`")?
        .0;
    let agent_id = strict(p.agent_id, "agent_id", A_STRING)?
        .ok_or("missing field `agent_id`")?
        .0;
    let created_at =
        strict(p.created_at, "created_at", A_STRING)?.ok_or("missing field `created_at`")?;
    let created_at = parse_time(&created_at.0)?;
    let grounding = strict(p.grounding, "grounding", AN_OBJECT)?;
    let (chunks, mut citations, tools, g_tel) = match grounding {
        Some(g) => (
            match strict(g.chunks, "grounding.chunks", AN_ARRAY)? {
                Some(c) => c.0?,
                None => ChunkList::default(),
            },
            strict(g.citations, "grounding.citations", AN_ARRAY)?,
            lenient(g.tools, Lenient::Tools, dropped).unwrap_or_default(),
            Telemetry {
                model: lenient(g.model, Lenient::GroundingModel, dropped),
                tokens_used: lenient(g.tokens_used, Lenient::GroundingTokensUsed, dropped),
                cost_cents: lenient(g.cost_cents, Lenient::GroundingCostCents, dropped),
                latency_ms: lenient(g.latency_ms, Lenient::GroundingLatencyMs, dropped),
            },
        ),
        None => (
            ChunkList::default(),
            None,
            ToolsIn::default(),
            Telemetry::default(),
        ),
    };
    if tools.status_dropped {
        dropped.set(Lenient::ToolStatus);
    }
    // `markers: "citations"`: the reply carries no inline markers, its
    // citations list grades it (what `convert` writes for structured
    // citations). Any other name is a grammar.
    let markers = strict(p.markers, "markers", A_STRING)?;
    let by_list = markers.as_ref().is_some_and(|m| m.0 == "citations");
    let markers = match markers {
        Some(m) if !by_list => Some(named_preset(&m.0)?),
        _ => None,
    };
    let mut placed = None;
    let answer = match p.reply {
        // Citations that place themselves in the reply grade it; the reply
        // is their answer text.
        Some(RawIn { text: raw, .. })
            if raw.starts_with('"')
                && (by_list || citations.as_ref().is_some_and(|c| c.spanned)) =>
        {
            let c = citations.take().unwrap_or_default();
            placed = Some((decode_json_string(raw), c.cites));
            Answer::Citations(c.list, MarkersFrom::Citations)
        }
        Some(RawIn {
            text: raw,
            unicode_escape,
        }) if raw.starts_with('"') => Answer::Reply(Reply::Json {
            raw,
            unicode_escape,
        }),
        Some(RawIn { text: raw, .. }) if raw != "null" => {
            return Err(wrong("reply", "a string or null", kind_of(raw)));
        }
        _ => match citations {
            Some(c) => Answer::Citations(c.list, MarkersFrom::Citations),
            None => Answer::Unobserved(
                lenient(p.unobserved, Lenient::Unobserved, dropped)
                    .and_then(|s| unobserved_reason(&s.0, dropped))
                    .unwrap_or(Unobserved::NoReply),
            ),
        },
    };
    let tel = Telemetry {
        model: lenient(p.model, Lenient::Model, dropped),
        tokens_used: lenient(p.tokens_used, Lenient::TokensUsed, dropped),
        cost_cents: lenient(p.cost_cents, Lenient::CostCents, dropped),
        latency_ms: lenient(p.latency_ms, Lenient::LatencyMs, dropped),
    };
    Ok(Turn {
        turn_id,
        agent_id,
        conversation_id: lenient(p.conversation_id, Lenient::ConversationId, dropped).map(|c| c.0),
        channel: lenient(p.channel, Lenient::Channel, dropped)
            .map_or(Cow::Borrowed("chat"), |c| c.0),
        created_at,
        answer,
        chunks: chunks.chunks,
        tool_calls: tools.calls,
        tool_errors: tools.errors,
        model: g_tel.model.or(tel.model).map(|m| m.0),
        tokens_used: g_tel.tokens_used.or(tel.tokens_used).map(|t| t.0),
        cost_cents: g_tel.cost_cents.or(tel.cost_cents).map(|c| c.0),
        latency_ms: g_tel.latency_ms.or(tel.latency_ms).map(|l| l.0),
        markers,
        evidence: lenient(p.evidence, Lenient::Evidence, dropped)
            .and_then(|s| evidence_named(&s.0, dropped)),
        texts: match placed {
            Some((answer, cites)) => Texts {
                chunks: chunks.texts,
                answer: Some(answer),
                cites,
            },
            None => Texts {
                chunks: chunks.texts,
                ..Texts::default()
            },
        },
    })
}

/// Telemetry fields, read from `grounding` first and the top level second.
#[derive(Default)]
struct Telemetry<'a> {
    model: Option<StrIn<'a>>,
    tokens_used: Option<Count>,
    cost_cents: Option<Number>,
    latency_ms: Option<Number>,
}

/// The marker grammar named by `markers`; any other name makes the line
/// invalid (the reason does not quote it).
fn named_preset(name: &str) -> Result<crate::model::Preset, String> {
    crate::model::Preset::from_name(name).ok_or_else(|| {
        "field `markers`: expected one of `kb`, `numeric`, `doc`, `footnote`, `id`, `citations`, found another string".to_owned()
    })
}

/// The reason named by `unobserved`; an unknown name is dropped.
fn unobserved_reason(name: &str, dropped: &mut Dropped) -> Option<Unobserved> {
    let found = Unobserved::ALL.into_iter().find(|u| u.as_str() == name);
    if found.is_none() {
        dropped.set(Lenient::Unobserved);
    }
    found
}

/// The evidence named by `evidence`; an unknown name is dropped.
fn evidence_named(name: &str, dropped: &mut Dropped) -> Option<crate::model::Evidence> {
    let found = crate::model::Evidence::parse(name);
    if found.is_none() {
        dropped.set(Lenient::Evidence);
    }
    found
}

/// What `explain` needs beyond the turn: tool calls in full, the question
/// and each chunk's text when the log carries them. Parsed with the general JSON model, since it
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
    // A chunk's text, under the names retrieval libraries use.
    extras.chunk_texts = top
        .get("grounding")
        .and_then(|g| g.get("chunks"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| {
            ["content", "text", "page_content"]
                .iter()
                .find_map(|k| c.get(*k).and_then(Value::as_str))
                .map(str::to_owned)
        })
        .collect();
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

#[cfg(test)]
pub(in crate::dialect) mod diff_tests;

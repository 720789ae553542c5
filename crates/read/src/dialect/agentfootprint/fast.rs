//! The one-pass reader of an event line or record: deserializes the event
//! in place (strings borrowed from the line, unread values walked by
//! structure and hashed, never built), reading only the payload fields its
//! kind needs ([`Kind::keys`]) and the meta fields every event has.
//!
//! It validates what the `Value` reader ([`super::parse::parse_event`])
//! validates, through the same serde_json deserializer. Anything unusual —
//! any error, a repeated top-level field, a payload before the event's type
//! (or read for another type than the one that wins), a type that is not a
//! string, an event naming no type — is left to the `Value` reader (`None`),
//! so reasons and messages are that reader's by construction; a
//! differential test checks the two agree on every line.

use super::canon::{self, Walk};
use super::event::{Field, Fields, Got, Kind, Meta, VALUE_KEYS, event_of};
use super::parse::Item;
use super::*;
use crate::dialect::checked::{Check, Key, bail};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Room for the payload fields of any kind ([`Kind::keys`]).
const SLOTS: usize = 8;

/// The one-pass reader against the `Value` reader
/// ([`super::parse::parse_event_value`]) on one input, for the differential
/// tests and fuzz target: the one-pass reader, and each of its two readers
/// alone, must give exactly the reference's item (kind, fields, meta,
/// de-duplication key) or decline, leaving `scratch` as found. `Ok(true)`
/// when the one-pass reader read the input itself; `Err` names the reader
/// that differs.
pub(super) fn agrees(
    text: &str,
    in_document: bool,
    scratch: &mut Vec<(u128, u128)>,
) -> Result<bool, String> {
    let reference = super::parse::parse_event_value(text.as_bytes(), 9, in_document);
    let mut read_itself = false;
    for path in [Readers::Both, Readers::ScannerOnly, Readers::VisitorsOnly] {
        scratch.clear();
        if let Some(item) = read_event(text, 9, scratch, path) {
            if !scratch.is_empty() {
                return Err(format!("scratch left dirty by {text:?}"));
            }
            if item != reference {
                return Err(format!(
                    "the one-pass reader ({}) differs from the Value reader on {text:?}:\n{item:?}\n{reference:?}",
                    path.name()
                ));
            }
            read_itself |= path == Readers::Both;
        }
    }
    let whole = super::parse::parse_event(text, 9, in_document);
    if whole != reference {
        return Err(format!(
            "parse_event differs from the Value reader on {text:?}"
        ));
    }
    Ok(read_itself)
}

/// Reads one event line or record, or None when the `Value` reader must:
/// through the byte scanner ([`super::scan`]), or these visitors where it
/// gives up.
pub(super) fn parse_event(text: &str, line: u64, scratch: &mut Vec<(u128, u128)>) -> Option<Item> {
    read_event(text, line, scratch, Readers::Both)
}

/// Which readers [`read_event`] may use (the differential tests check each
/// alone).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Readers {
    /// The byte scanner, and the visitors where it gives up.
    Both,
    ScannerOnly,
    VisitorsOnly,
}

impl Readers {
    fn name(self) -> &'static str {
        match self {
            Readers::Both => "both readers",
            Readers::ScannerOnly => "the byte scanner alone",
            Readers::VisitorsOnly => "the serde visitors alone",
        }
    }
}

pub(super) fn read_event(
    text: &str,
    line: u64,
    scratch: &mut Vec<(u128, u128)>,
    path: Readers,
) -> Option<Item> {
    let mut top = TopOut::empty();
    let scanned =
        path != Readers::VisitorsOnly && super::scan::event(text, scratch, &mut top).is_some();
    if !scanned {
        if path == Readers::ScannerOnly {
            return None;
        }
        top = TopOut::empty();
        let mut de = serde_json::Deserializer::from_str(text);
        de.deserialize_map(Top {
            scratch,
            out: &mut top,
        })
        .ok()?;
        de.end().ok()?;
    }
    let kind = match (&top.kind, &top.event_type) {
        (Some(Some(k)), _) | (None | Some(None), Some(Some(k))) => k,
        _ => return None,
    };
    if !kind.starts_with(EVENT_PREFIX) && !kind.starts_with("audit.") {
        return Some(Item::Skipped);
    }
    if top.read_for.as_ref().is_some_and(|r| r != kind) {
        return None;
    }
    let payload = &top.payload;
    let k = Kind::of(kind);
    let keys = k.keys();
    let get = |name: &str| {
        let i = keys
            .iter()
            .position(|k| crate::bytes::eq_short(k.as_bytes(), name.as_bytes()));
        debug_assert!(i.is_some(), "{name} is not among the keys of {k:?}");
        payload.slots[i?].as_ref().map(Field::G)
    };
    let fields = Fields::read(k, &get);
    let run = payload.run.as_ref().and_then(|g| Field::G(g).str());
    let timestamp = top.timestamp.as_ref().and_then(|g| Field::G(g).f64());
    match event_of(
        kind,
        k,
        fields,
        run,
        &top.meta,
        timestamp,
        payload.hash,
        line,
    ) {
        Some(e) => Some(Item::Event(e)),
        None => Some(Item::Skipped),
    }
}

/// A payload read for one event type.
pub(super) struct Payload<'de> {
    pub(super) hash: u128,
    /// The kind's keys, in [`Kind::keys`] order.
    pub(super) slots: [Option<Got<'de>>; SLOTS],
    pub(super) run: Option<Got<'de>>,
}

impl Payload<'_> {
    fn absent() -> Self {
        Payload {
            hash: canon::null(),
            slots: Default::default(),
            run: None,
        }
    }
}

/// The fields of the event object, each at most once.
pub(super) struct TopOut<'de> {
    pub(super) kind: Option<Option<Cow<'de, str>>>,
    pub(super) event_type: Option<Option<Cow<'de, str>>>,
    /// The type the payload was read for, when there is a payload.
    pub(super) read_for: Option<Cow<'de, str>>,
    pub(super) payload: Payload<'de>,
    pub(super) meta: Meta<'de>,
    pub(super) timestamp: Option<Got<'de>>,
}

impl TopOut<'_> {
    pub(super) fn empty() -> Self {
        TopOut {
            kind: None,
            event_type: None,
            read_for: None,
            payload: Payload::absent(),
            meta: Meta::default(),
            timestamp: None,
        }
    }
}

/// Reads the event object into `out` (in place: the output is large).
struct Top<'s, 'o, 'de> {
    scratch: &'s mut Vec<(u128, u128)>,
    out: &'o mut TopOut<'de>,
}

/// A type field: a string, or null (absent); anything else is left to the
/// reference reader.
fn type_of<E: de::Error>(g: Got<'_>) -> Result<Option<Cow<'_, str>>, E> {
    match g {
        Got::Str(s) => Ok(Some(s)),
        Got::Null => Ok(None),
        _ => Err(bail()),
    }
}

impl<'de> Visitor<'de> for Top<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an event object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let out = self.out;
        let (mut meta_seen, mut timestamp_seen, mut format_seen, mut header_seen) =
            (false, false, false, false);
        let once = |seen: &mut bool| {
            if std::mem::replace(seen, true) {
                Err(bail())
            } else {
                Ok(())
            }
        };
        while let Some(key) = map.next_key_seed(Key { first: false })? {
            match key.as_ref() {
                "type" | "eventType" => {
                    let slot = if key == "type" {
                        &mut out.kind
                    } else {
                        &mut out.event_type
                    };
                    if slot.is_some() {
                        return Err(bail());
                    }
                    *slot = Some(type_of(map.next_value_seed(Scalar)?)?);
                }
                "payload" => {
                    if out.read_for.is_some() {
                        return Err(bail());
                    }
                    let read_for = match (&out.kind, &out.event_type) {
                        (Some(Some(k)), _) | (None | Some(None), Some(Some(k))) => k.clone(),
                        _ => return Err(bail()),
                    };
                    map.next_value_seed(PayloadSeed {
                        kind: Kind::of(&read_for),
                        scratch: &mut *self.scratch,
                        out: &mut out.payload,
                    })?;
                    out.read_for = Some(read_for);
                }
                "meta" => {
                    once(&mut meta_seen)?;
                    out.meta = map.next_value_seed(MetaSeed {
                        scratch: &mut *self.scratch,
                    })?;
                }
                "timestamp" => {
                    once(&mut timestamp_seen)?;
                    out.timestamp = Some(map.next_value_seed(Scalar)?);
                }
                "format" | "header" => {
                    once(if key == "format" {
                        &mut format_seen
                    } else {
                        &mut header_seen
                    })?;
                    // Only the event-less case reads these: left to the
                    // reference reader, which names them.
                    map.next_value::<Option<de::IgnoredAny>>()?;
                }
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// Any value with its hash: scalars kept, arrays and objects walked.
struct GotSeed<'s> {
    scratch: &'s mut Vec<(u128, u128)>,
}

impl<'de> DeserializeSeed<'de> for GotSeed<'_> {
    type Value = (u128, Got<'de>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for GotSeed<'_> {
    type Value = (u128, Got<'de>);
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok((canon::boolean(b), Got::Bool(b)))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Self::Value, E> {
        Ok((canon::signed(i), Got::I64(i)))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Self::Value, E> {
        Ok((canon::unsigned(u), Got::U64(u)))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Self::Value, E> {
        Ok((canon::float(f), Got::F64(f)))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok((canon::string(s), Got::Str(Cow::Borrowed(s))))
    }
    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok((canon::string(s), Got::Str(Cow::Owned(s.to_owned()))))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok((canon::null(), Got::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok((
            Walk {
                scratch: self.scratch,
            }
            .visit_seq(seq)?,
            Got::Other,
        ))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Ok((
            Walk {
                scratch: self.scratch,
            }
            .visit_map(map)?,
            Got::Other,
        ))
    }
}

/// Any value without its hash (for fields outside the payload): scalars
/// kept, arrays and objects checked and dropped.
struct Scalar;

impl<'de> DeserializeSeed<'de> for Scalar {
    type Value = Got<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Scalar {
    type Value = Got<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(Got::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Self::Value, E> {
        Ok(Got::I64(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Self::Value, E> {
        Ok(Got::U64(u))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Self::Value, E> {
        Ok(Got::F64(f))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Got::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Got::Str(Cow::Owned(s.to_owned())))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Got::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Check.visit_seq(seq)?;
        Ok(Got::Other)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Check.visit_map(map)?;
        Ok(Got::Other)
    }
}

/// A payload, read for the event type `kind` into `out` (which starts
/// absent).
struct PayloadSeed<'s, 'o, 'de> {
    kind: Kind,
    scratch: &'s mut Vec<(u128, u128)>,
    out: &'o mut Payload<'de>,
}

impl<'de> DeserializeSeed<'de> for PayloadSeed<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl PayloadSeed<'_, '_, '_> {
    /// A payload that is not an object: no fields.
    fn other(self, hash: u128) {
        self.out.hash = hash;
    }
}

impl<'de> Visitor<'de> for PayloadSeed<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a payload")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        self.other(canon::boolean(b));
        Ok(())
    }
    fn visit_i64<E>(self, i: i64) -> Result<Self::Value, E> {
        self.other(canon::signed(i));
        Ok(())
    }
    fn visit_u64<E>(self, u: u64) -> Result<Self::Value, E> {
        self.other(canon::unsigned(u));
        Ok(())
    }
    fn visit_f64<E>(self, f: f64) -> Result<Self::Value, E> {
        self.other(canon::float(f));
        Ok(())
    }
    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        self.other(canon::string(s));
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        self.other(canon::null());
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let h = Walk {
            scratch: &mut *self.scratch,
        }
        .visit_seq(seq)?;
        self.other(h);
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let keys = self.kind.keys();
        let out = self.out;
        let mark = self.scratch.len();
        let mut first = true;
        while let Some(key) = map.next_key_seed(Key { first })? {
            first = false;
            let slot = keys.iter().position(|k| *k == key);
            let h = if key == "runId" || slot.is_some() && !VALUE_KEYS.contains(&key.as_ref()) {
                let (h, got) = map.next_value_seed(GotSeed {
                    scratch: &mut *self.scratch,
                })?;
                match slot {
                    Some(i) => out.slots[i] = Some(got),
                    None => out.run = Some(got),
                }
                h
            } else if let Some(i) = slot {
                let v: Value = map.next_value()?;
                let h = canon::of_value(&v);
                out.slots[i] = Some(Got::Value(v));
                h
            } else {
                map.next_value_seed(Walk {
                    scratch: &mut *self.scratch,
                })?
            };
            self.scratch.push((canon::string(&key), h));
        }
        out.hash = canon::object_of(self.scratch, mark);
        Ok(())
    }
}

/// The meta object: the fields every event may have.
struct MetaSeed<'s> {
    scratch: &'s mut Vec<(u128, u128)>,
}

impl<'de> DeserializeSeed<'de> for MetaSeed<'_> {
    type Value = Meta<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MetaSeed<'_> {
    type Value = Meta<'de>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a meta object")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Meta::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Meta::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Meta::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Meta::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Meta::default())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Meta::default())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Check.visit_seq(seq)?;
        Ok(Meta::default())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut m = Meta::default();
        let mut first = true;
        let str_of = |g: Got<'de>| match g {
            Got::Str(s) => Some(s),
            _ => None,
        };
        while let Some(key) = map.next_key_seed(Key { first })? {
            first = false;
            match key.as_ref() {
                "runId" => m.run_id = str_of(map.next_value_seed(Scalar)?),
                "sessionId" => m.session_id = str_of(map.next_value_seed(Scalar)?),
                "runtimeStageId" => m.stage = str_of(map.next_value_seed(Scalar)?),
                "wallClockMs" => m.wall_clock_ms = Field::G(&map.next_value_seed(Scalar)?).f64(),
                "runOffsetMs" => {
                    m.offset = Some(
                        map.next_value_seed(GotSeed {
                            scratch: &mut *self.scratch,
                        })?
                        .0,
                    )
                }
                "compositionPath" => {
                    m.composition = map.next_value_seed(LastString)?;
                }
                _ => map.next_value_seed(Check)?,
            }
        }
        Ok(m)
    }
}

/// The last string element of an array (None for anything else).
struct LastString;

impl<'de> DeserializeSeed<'de> for LastString {
    type Value = Option<Cow<'de, str>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for LastString {
    type Value = Option<Cow<'de, str>>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a composition path")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Check.visit_map(map)?;
        Ok(None)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut last = None;
        while let Some(g) = seq.next_element_seed(Scalar)? {
            if let Got::Str(s) = g {
                last = Some(s);
            }
        }
        Ok(last)
    }
}

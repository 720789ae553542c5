//! The specialised reader of a native turn line: one pass over the bytes
//! that finds the fields the grader needs, skips every other value by its
//! structure, and checks the whole line exactly as strictly as serde_json.
//!
//! It fills the same [`LineIn`] the serde path fills, so the rules that turn
//! it into a [`crate::model::Turn`] (types, warnings, reasons) are shared
//! and cannot drift. It handles only the common shape: any line it is not
//! sure of — invalid JSON, an escape in a key, a field named twice, a value
//! deeper than [`MAX_DEPTH`](crate::dialect::cursor::MAX_DEPTH), a wrong type inside `grounding.chunks` — makes
//! it return `None`, and serde_json reads the line from the start, so every
//! error message still comes from one place. Small values it does not read
//! itself (a number with an exponent, a string with escapes, a citation
//! object with an escaped key) are handed to serde_json one value at a
//! time, with the same types, so they read exactly as they do in the full
//! parse.
//!
//! The reply is never decoded: it is checked (no control character, every
//! escape well-formed, as serde_json checks a value it keeps raw) and kept
//! as its JSON literal for the marker scanner.
//!
//! The byte cursor under it (strings, numbers, skipping) is
//! [`crate::dialect::cursor`], shared with the OTLP span reader.

use super::{
    ChunkIn, ChunkList, ChunksIn, CitationsIn, Count, Expect, Field, GroundingIn, IdIn, LineIn,
    Number, PLACING_KEYS, RawIn, StrIn, TOOLS_NOT_OBJECTS, ToolIn, ToolsIn, tool_status_ok,
};
use crate::dialect::cursor::{Cursor as Scan, Escapes, Key, Plain, serde_value};
use crate::model::CitationIndex;
use std::borrow::Cow;

/// The keys of a turn line, of its `grounding`, of a chunk and of a tool
/// call, in the order the format's examples and most writers put them (and
/// `serde_json` writes a struct's fields): read first as expected, and as
/// any key when not there ([`Scan::members_expecting`]).
const LINE_KEYS: &[Key] = &[
    Key::new("turn_id"),
    Key::new("agent_id"),
    Key::new("conversation_id"),
    Key::new("channel"),
    Key::new("created_at"),
    Key::new("reply"),
    Key::new("grounding"),
];
const GROUNDING_KEYS: &[Key] = &[
    Key::new("chunks"),
    Key::new("citations"),
    Key::new("confidence"),
    Key::new("tools"),
    Key::new("model"),
    Key::new("tokens_used"),
    Key::new("cost_cents"),
    Key::new("latency_ms"),
];
const CHUNK_KEYS: &[Key] = &[
    Key::new("document_id"),
    Key::new("chunk_id"),
    Key::new("score"),
    Key::new("content"),
    Key::new("text"),
    Key::new("page_content"),
];
const CITATION_KEYS: &[Key] = &[Key::new("index")];
const TOOL_KEYS: &[Key] = &[
    Key::new("name"),
    Key::new("arguments"),
    Key::new("result"),
    Key::new("duration_ms"),
    Key::new("status"),
];

/// Reads one line, or `None` when serde_json must read it.
pub(super) fn line(s: &str) -> Option<LineIn<'_>> {
    let mut p = Scan::new(s);
    p.ws();
    p.eat(b'{')?;
    let mut out = LineIn::default();
    let mut seen = 0u32;
    p.members_expecting(LINE_KEYS, &mut seen, |p, key| {
        Some(match key {
            b"type" => got(&mut out.kind, p.raw()?, 0),
            b"turn_id" => got(&mut out.turn_id, p.leaf()?, 1),
            b"agent_id" => got(&mut out.agent_id, p.leaf()?, 2),
            b"conversation_id" => got(&mut out.conversation_id, p.leaf()?, 3),
            b"channel" => got(&mut out.channel, p.leaf()?, 4),
            b"created_at" => got(&mut out.created_at, p.leaf()?, 5),
            b"reply" => got(&mut out.reply, p.raw()?, 6),
            b"grounding" => got(&mut out.grounding, p.grounding()?, 7),
            b"model" => got(&mut out.model, p.leaf()?, 8),
            b"tokens_used" => got(&mut out.tokens_used, p.leaf::<Count>()?, 9),
            b"cost_cents" => got(&mut out.cost_cents, p.leaf::<Number>()?, 10),
            b"latency_ms" => got(&mut out.latency_ms, p.leaf::<Number>()?, 11),
            b"unobserved" => got(&mut out.unobserved, p.leaf()?, 12),
            b"markers" => got(&mut out.markers, p.leaf()?, 13),
            b"evidence" => got(&mut out.evidence, p.leaf()?, 14),
            _ => p.skip(1).map(|()| 0)?,
        })
    })?;
    p.ws();
    (p.i == p.b.len()).then_some(out)
}

impl<'a> Scan<'a> {
    /// A value kept raw (`null` reads as absent, as for serde's `Option`),
    /// a string's `\u` escapes noted as it is checked.
    fn raw(&mut self) -> Option<Option<RawIn<'a>>> {
        let (text, escapes) = self.slice_escapes(1)?;
        Some((text != "null").then_some(RawIn {
            text,
            unicode_escape: escapes == Escapes::Unicode,
        }))
    }

    /// A string, id or number field: read here when it is plain, by
    /// serde_json (the same types) otherwise.
    #[inline]
    fn leaf<T: Expect<'a>>(&mut self) -> Option<Option<Field<T>>> {
        let start = self.i;
        Some(Some(Field(match self.peek()? {
            b'"' => {
                self.i += 1;
                if self.string()? {
                    return serde_value(&self.s[start..self.i]);
                }
                T::string(Cow::Borrowed(&self.s[start + 1..self.i - 1]))
            }
            b'-' | b'0'..=b'9' => match self.plain_number() {
                Some(Plain::Unsigned(n)) => T::unsigned(n),
                Some(Plain::Float(f)) => T::float(f),
                None => {
                    let (v, _) = self.slice(2)?;
                    return serde_value(v);
                }
            },
            b'n' => return self.literal(b"null").map(|_| None),
            b't' | b'f' => {
                self.skip(2)?;
                Err("a boolean")
            }
            _ => {
                let (v, _) = self.slice(2)?;
                return serde_value(v);
            }
        })))
    }

    /// `grounding`: an object read here, anything else by serde_json.
    fn grounding(&mut self) -> Option<Option<Field<GroundingIn<'a>>>> {
        if self.peek()? != b'{' {
            let (v, _) = self.slice(1)?;
            return serde_value(v);
        }
        self.i += 1;
        let mut g = GroundingIn::default();
        let mut seen = 0u32;
        self.members_expecting(GROUNDING_KEYS, &mut seen, |p, key| {
            Some(match key {
                b"chunks" => got(&mut g.chunks, p.chunks()?, 0),
                b"citations" => got(&mut g.citations, p.citations()?, 1),
                b"tools" => got(&mut g.tools, p.tools()?, 2),
                b"model" => got(&mut g.model, p.leaf::<StrIn>()?, 3),
                b"tokens_used" => got(&mut g.tokens_used, p.leaf::<Count>()?, 4),
                b"cost_cents" => got(&mut g.cost_cents, p.leaf::<Number>()?, 5),
                b"latency_ms" => got(&mut g.latency_ms, p.leaf::<Number>()?, 6),
                _ => p.skip(2).map(|()| 0)?,
            })
        })?;
        Some(Some(Field(Ok(g))))
    }

    /// `grounding.chunks`: an array of chunk objects read here, straight
    /// into the turn model as the serde path does; anything else by
    /// serde_json.
    fn chunks(&mut self) -> Option<Option<Field<ChunksIn<'a>>>> {
        if self.peek()? != b'[' {
            let (v, _) = self.slice(2)?;
            return serde_value(v);
        }
        let mut out = ChunkList {
            chunks: Vec::with_capacity(8),
            texts: Vec::new(),
        };
        if self.open_array()? {
            return Some(Some(Field(Ok(ChunksIn(Ok(out))))));
        }
        loop {
            // Not an object: serde_json names the element.
            self.eat(b'{')?;
            let mut c = ChunkIn::default();
            let mut seen = 0u32;
            self.members_expecting(CHUNK_KEYS, &mut seen, |p, key| {
                Some(match key {
                    b"document_id" => got(&mut c.document_id, p.leaf::<IdIn>()?, 0),
                    b"chunk_id" => got(&mut c.chunk_id, p.leaf::<IdIn>()?, 1),
                    b"score" => got(&mut c.score, p.leaf::<Number>()?, 2),
                    b"content" => got(&mut c.content, p.raw()?, 3),
                    b"text" => got(&mut c.text, p.raw()?, 4),
                    b"page_content" => got(&mut c.page_content, p.raw()?, 5),
                    _ => p.skip(4).map(|()| 0)?,
                })
            })?;
            match out.push(c) {
                Ok(()) => {}
                Err(reason) => {
                    // The rest is only checked, as serde_json ignores it.
                    if self.next_element()? {
                        self.elements(2)?;
                    }
                    return Some(Some(Field(Ok(ChunksIn(Err(reason))))));
                }
            }
            if !self.next_element()? {
                return Some(Some(Field(Ok(ChunksIn(Ok(out))))));
            }
        }
    }

    /// `grounding.citations`: an array read here, each element by the rule
    /// of [`citation`] (an object's `index`, or the element itself);
    /// anything else by serde_json.
    fn citations(&mut self) -> Option<Option<Field<CitationsIn>>> {
        if self.peek()? != b'[' {
            let (v, _) = self.slice(2)?;
            return serde_value(v);
        }
        let mut out = CitationsIn::default();
        if self.open_array()? {
            return Some(Some(Field(Ok(out))));
        }
        loop {
            let start = self.i;
            let read = match self.peek()? {
                b'{' => {
                    self.i += 1;
                    self.index_of()
                }
                _ => None,
            };
            match read {
                Some(index) => out.push(index, None),
                None => {
                    self.i = start;
                    let (raw, _) = self.slice(3)?;
                    out.push_raw(raw);
                }
            }
            if !self.next_element()? {
                return Some(Some(Field(Ok(out))));
            }
        }
    }

    /// The `index` of a citation object whose `{` was read, when its keys
    /// hold no escape (and no known key twice); `None` leaves the object to
    /// serde_json ([`citation`]), from its start.
    fn index_of(&mut self) -> Option<CitationIndex> {
        let mut index = None;
        let mut twice = false;
        self.members_expecting(CITATION_KEYS, &mut 0, |p, key| {
            if key != b"index" {
                // An object that places itself is read whole by serde_json.
                if PLACING_KEYS.contains(&key) {
                    return None;
                }
                return p.skip(4).map(|()| 0);
            }
            twice |= index.is_some();
            index = Some(p.slice(4)?.0);
            Some(0)
        })?;
        Some(match index {
            // serde_json rejects a field named twice: no index, malformed.
            Some(i) if !twice => crate::markers::citation_index(i),
            _ => CitationIndex::Malformed,
        })
    }

    /// `grounding.tools`: an array read here, counting calls and failed
    /// calls as [`ToolsIn`] does; anything else by serde_json.
    fn tools(&mut self) -> Option<Option<Field<ToolsIn>>> {
        if self.peek()? != b'[' {
            let (v, _) = self.slice(2)?;
            return serde_value(v);
        }
        let mut t = ToolsIn::default();
        let mut all_objects = true;
        if !self.open_array()? {
            loop {
                if self.peek()? == b'{' {
                    self.i += 1;
                    // The last `status` wins, as in serde_json's map.
                    let (mut ok, mut dropped) = (true, false);
                    self.members_expecting(TOOL_KEYS, &mut 0, |p, key| {
                        if key != b"status" {
                            return p.skip(4).map(|()| 0);
                        }
                        (ok, dropped) = match p.leaf::<StrIn>()? {
                            None => (true, false),
                            Some(Field(Ok(s))) => (tool_status_ok(&s.0), false),
                            Some(Field(Err(_))) => (true, true),
                        };
                        Some(0)
                    })?;
                    t.calls = t.calls.saturating_add(1);
                    t.errors = t.errors.saturating_add(u32::from(!ok));
                    t.status_dropped |= dropped;
                } else {
                    // serde_json reads such an element as a value (it
                    // rejects a number out of range, `1e400`, or a lone
                    // surrogate in a string): it looks at it here too.
                    let (v, _) = self.slice(3)?;
                    serde_value::<Field<ToolIn>>(v)?;
                    all_objects = false;
                }
                if !self.next_element()? {
                    break;
                }
            }
        }
        Some(Some(Field(if all_objects {
            Ok(t)
        } else {
            Err(TOOLS_NOT_OBJECTS)
        })))
    }
}

/// Stores a field's value; the field's bit in its object's `seen` set (each
/// known field once: serde_json rejects a struct field named twice).
fn got<T>(field: &mut T, value: T, bit: u32) -> u32 {
    *field = value;
    1 << bit
}

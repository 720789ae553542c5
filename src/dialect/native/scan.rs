//! The specialised reader of a native turn line: one pass over the bytes
//! that finds the fields the grader needs, skips every other value by its
//! structure, and checks the whole line exactly as strictly as serde_json.
//!
//! It fills the same [`LineIn`] the serde path fills, so the rules that turn
//! it into a [`crate::model::Turn`] (types, warnings, reasons) are shared
//! and cannot drift. It handles only the common shape: any line it is not
//! sure of — invalid JSON, an escape in a key, a field named twice, a value
//! deeper than [`MAX_DEPTH`], a wrong type inside `grounding.chunks` — makes
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

use super::{
    ChunkIn, ChunksIn, CitationsIn, Count, Expect, Field, GroundingIn, IdIn, LineIn, Number, RawIn,
    StrIn, TOOLS_NOT_OBJECTS, ToolIn, ToolsIn, chunk, citation, tool_status_ok,
};
use crate::model::CitationIndex;
use serde::Deserialize;
use std::borrow::Cow;

/// Nesting the reader follows before it leaves the line to serde_json
/// (whose own limit is 128).
const MAX_DEPTH: u32 = 64;

/// Reads one line, or `None` when serde_json must read it.
pub(super) fn line(s: &str) -> Option<LineIn<'_>> {
    let mut p = Scan {
        s,
        b: s.as_bytes(),
        i: 0,
    };
    p.ws();
    p.eat(b'{')?;
    let mut out = LineIn::default();
    let mut seen = 0u32;
    p.object(&mut seen, |p, key| {
        match key {
            b"type" => out.kind = p.raw()?,
            b"turn_id" => out.turn_id = p.leaf()?,
            b"agent_id" => out.agent_id = p.leaf()?,
            b"conversation_id" => out.conversation_id = p.leaf()?,
            b"channel" => out.channel = p.leaf()?,
            b"created_at" => out.created_at = p.leaf()?,
            b"reply" => out.reply = p.raw()?,
            b"grounding" => out.grounding = p.grounding()?,
            b"model" => out.model = p.leaf()?,
            b"tokens_used" => out.tokens_used = p.leaf::<Count>()?,
            b"cost_cents" => out.cost_cents = p.leaf::<Number>()?,
            b"latency_ms" => out.latency_ms = p.leaf::<Number>()?,
            b"unobserved" => out.unobserved = p.leaf()?,
            _ => return p.skip(1),
        }
        Some(())
    })?;
    p.ws();
    (p.i == p.b.len()).then_some(out)
}

/// Where each known key of an object is, for finding a key named twice
/// (serde_json rejects a struct field named twice).
fn slot(key: &[u8]) -> Option<u32> {
    Some(match key {
        b"type" | b"document_id" => 0,
        b"turn_id" | b"chunk_id" => 1,
        b"agent_id" | b"score" => 2,
        b"conversation_id" | b"chunks" => 3,
        b"channel" | b"citations" => 4,
        b"created_at" | b"tools" => 5,
        b"reply" => 6,
        b"grounding" => 7,
        b"model" => 8,
        b"tokens_used" => 9,
        b"cost_cents" => 10,
        b"latency_ms" => 11,
        b"unobserved" => 12,
        _ => return None,
    })
}

struct Scan<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

/// A number serde_json reads as `f64` the way this reader can too: the
/// digits as one integer divided by an exact power of ten.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

impl<'a> Scan<'a> {
    /// JSON whitespace (serde_json's four characters).
    #[inline]
    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i)
            && matches!(c, b' ' | b'\t' | b'\n' | b'\r')
        {
            self.i += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// The members of an object whose `{` was read: each key (without
    /// escapes, each known key once) is handed to `member`, which reads its
    /// value. Ends after the `}`.
    fn object(
        &mut self,
        seen: &mut u32,
        mut member: impl FnMut(&mut Self, &[u8]) -> Option<()>,
    ) -> Option<()> {
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        loop {
            self.eat(b'"')?;
            let start = self.i;
            if self.string()? {
                return None;
            }
            let key = &self.b[start..self.i - 1];
            if let Some(bit) = slot(key) {
                if *seen & (1 << bit) != 0 {
                    return None;
                }
                *seen |= 1 << bit;
            }
            self.ws();
            self.eat(b':')?;
            self.ws();
            member(self, key)?;
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The rest of a string whose opening quote was read: checks it as
    /// serde_json does (no control character, escapes well-formed) and
    /// steps past the closing quote. True when it holds an escape.
    #[inline]
    fn string(&mut self) -> Option<bool> {
        let b = self.b;
        let mut i = self.i;
        let mut escaped = false;
        loop {
            'find: {
                // Keys and ids end within two words: look there first, eight
                // bytes at a time, as the end of a long string is found below.
                for _ in 0..4 {
                    match word_at(b, i) {
                        Some(m) => {
                            if m != 0 {
                                i += m.trailing_zeros() as usize / 8;
                                break 'find;
                            }
                            i += 8;
                        }
                        None => break,
                    }
                }
                // Thirty-two bytes at a time while none needs a look: an OR of
                // byte compares over a fixed-size block, which the compiler
                // turns into vector compares (no `unsafe`, any target). The
                // control-character test is a signed compare (one instruction
                // on SSE2) that also flags every non-ASCII byte: such a block
                // is looked at below, eight bytes at a time, exactly ...
                while let Some(block) = b.get(i..i + 32) {
                    let block: &[u8; 32] = block.try_into().expect("32 bytes");
                    let hits = block.iter().fold(0u8, |m, &c| {
                        m | u8::from(c == b'"') | u8::from(c == b'\\') | u8::from((c as i8) < 0x20)
                    });
                    if hits != 0 {
                        break;
                    }
                    i += 32;
                }
                // ... then eight at a time to the exact byte, then one at a time
                // in the last few bytes of the line.
                loop {
                    match word_at(b, i) {
                        Some(m) => {
                            if m != 0 {
                                i += m.trailing_zeros() as usize / 8;
                                break;
                            }
                            i += 8;
                        }
                        None => {
                            while let Some(&c) = b.get(i)
                                && c != b'"'
                                && c != b'\\'
                                && c >= 0x20
                            {
                                i += 1;
                            }
                            break;
                        }
                    }
                }
            }
            match *b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some(escaped);
                }
                b'\\' => {
                    escaped = true;
                    match *b.get(i + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                        b'u' => {
                            if !b.get(i + 2..i + 6)?.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            i += 6;
                        }
                        _ => return None,
                    }
                }
                c if c < 0x20 => return None,
                _ => i += 1,
            }
        }
    }

    /// A number, by JSON's grammar (serde_json's: no leading zeros, digits
    /// on both sides of the point, an exponent with digits).
    fn number(&mut self) -> Option<()> {
        let b = self.b;
        let mut i = self.i;
        let digits = |i: &mut usize| {
            let start = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i > start
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match *b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                digits(&mut i);
            }
            _ => return None,
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !digits(&mut i) {
                return None;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !digits(&mut i) {
                return None;
            }
        }
        self.i = i;
        Some(())
    }

    /// Steps over one value at nesting `depth`, checking it; true when it
    /// is a string with an escape.
    fn value(&mut self, depth: u32) -> Option<bool> {
        match self.peek()? {
            b'"' => {
                self.i += 1;
                self.string()
            }
            b'{' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                self.i += 1;
                self.ws();
                if self.peek()? == b'}' {
                    self.i += 1;
                    return Some(false);
                }
                loop {
                    self.eat(b'"')?;
                    // Keys of a skipped value are not decoded by serde_json
                    // either: an escape in them is fine.
                    self.string()?;
                    self.ws();
                    self.eat(b':')?;
                    self.ws();
                    self.value(depth + 1)?;
                    self.ws();
                    match self.peek()? {
                        b',' => {
                            self.i += 1;
                            self.ws();
                        }
                        b'}' => {
                            self.i += 1;
                            return Some(false);
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                if depth >= MAX_DEPTH {
                    return None;
                }
                if !self.open_array()? {
                    self.elements(depth)?;
                }
                Some(false)
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number().map(|()| false),
            _ => None,
        }
    }

    /// The elements of a non-empty array whose `[` was read, through `]`.
    fn elements(&mut self, depth: u32) -> Option<()> {
        loop {
            self.value(depth + 1)?;
            if !self.next_element()? {
                return Some(());
            }
        }
    }

    /// Past an array's `[` and the whitespace after it: true when the array
    /// is empty (its `]` read too).
    fn open_array(&mut self) -> Option<bool> {
        self.i += 1;
        self.ws();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(true);
        }
        Some(false)
    }

    /// After an array element: true past a `,` (another element follows),
    /// false past the closing `]`.
    fn next_element(&mut self) -> Option<bool> {
        self.ws();
        match self.peek()? {
            b',' => {
                self.i += 1;
                self.ws();
                Some(true)
            }
            b']' => {
                self.i += 1;
                Some(false)
            }
            _ => None,
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<bool> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| {
            self.i = end;
            false
        })
    }

    /// Steps over a value nobody reads.
    fn skip(&mut self, depth: u32) -> Option<()> {
        self.value(depth).map(drop)
    }

    /// The next value's text and whether it is a string with an escape.
    fn slice(&mut self, depth: u32) -> Option<(&'a str, bool)> {
        let start = self.i;
        let escaped = self.value(depth)?;
        Some((&self.s[start..self.i], escaped))
    }

    /// A value kept raw (`null` reads as absent, as for serde's `Option`).
    fn raw(&mut self) -> Option<Option<RawIn<'a>>> {
        let (v, _) = self.slice(1)?;
        Some((v != "null").then_some(RawIn(v)))
    }

    /// A string, id or number field: read here when it is plain, by
    /// serde_json (the same types) otherwise.
    fn leaf<T: Expect<'a>>(&mut self) -> Option<Option<Field<T>>> {
        let (v, escaped) = self.slice(2)?;
        let b = v.as_bytes();
        Some(Some(Field(match b[0] {
            b'"' if !escaped => T::string(Cow::Borrowed(&v[1..v.len() - 1])),
            b'n' => return Some(None),
            b't' | b'f' => Err("a boolean"),
            b'0'..=b'9' if b.len() <= 19 && b.iter().all(u8::is_ascii_digit) => {
                T::unsigned(b.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')))
            }
            _ => match decimal(b) {
                Some(f) => T::float(f),
                None => return serde_value(v),
            },
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
        self.object(&mut seen, |p, key| {
            match key {
                b"chunks" => g.chunks = p.chunks()?,
                b"citations" => g.citations = p.citations()?,
                b"tools" => g.tools = p.tools()?,
                b"model" => g.model = p.leaf::<StrIn>()?,
                b"tokens_used" => g.tokens_used = p.leaf::<Count>()?,
                b"cost_cents" => g.cost_cents = p.leaf::<Number>()?,
                b"latency_ms" => g.latency_ms = p.leaf::<Number>()?,
                _ => return p.skip(2),
            }
            Some(())
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
        let mut out = Vec::with_capacity(8);
        if self.open_array()? {
            return Some(Some(Field(Ok(ChunksIn(Ok(out))))));
        }
        loop {
            // Not an object: serde_json names the element.
            self.eat(b'{')?;
            let mut c = ChunkIn::default();
            let mut seen = 0u32;
            self.object(&mut seen, |p, key| {
                match key {
                    b"document_id" => c.document_id = p.leaf::<IdIn>()?,
                    b"chunk_id" => c.chunk_id = p.leaf::<IdIn>()?,
                    b"score" => c.score = p.leaf::<Number>()?,
                    _ => return p.skip(4),
                }
                Some(())
            })?;
            match chunk(c, out.len() + 1) {
                Ok(c) => out.push(c),
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
        let mut out = Vec::new();
        if self.open_array()? {
            return Some(Some(Field(Ok(CitationsIn(out)))));
        }
        loop {
            let (raw, _) = self.slice(3)?;
            out.push(if raw.starts_with('{') {
                index_of(raw).unwrap_or_else(|| citation(raw))
            } else {
                crate::markers::citation_index(raw)
            });
            if !self.next_element()? {
                return Some(Some(Field(Ok(CitationsIn(out)))));
            }
        }
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
                    self.object(&mut 0, |p, key| {
                        if key != b"status" {
                            return p.skip(4);
                        }
                        (ok, dropped) = match p.leaf::<StrIn>()? {
                            None => (true, false),
                            Some(Field(Ok(s))) => (tool_status_ok(&s.0), false),
                            Some(Field(Err(_))) => (true, true),
                        };
                        Some(())
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

/// The `index` of a citation object that [`Scan::value`] checked, when its
/// keys hold no escape (and no known key twice): `None` leaves the object
/// to serde_json ([`citation`]).
fn index_of(raw: &str) -> Option<CitationIndex> {
    let mut p = Scan {
        s: raw,
        b: raw.as_bytes(),
        i: 1,
    };
    let mut index = None;
    let mut twice = false;
    p.object(&mut 0, |p, key| {
        if key != b"index" {
            return p.skip(4);
        }
        twice |= index.is_some();
        index = Some(p.slice(4)?.0);
        Some(())
    })?;
    Some(match index {
        // serde_json rejects a field named twice: no index, malformed.
        Some(i) if !twice => crate::markers::citation_index(i),
        _ => CitationIndex::Malformed,
    })
}

/// [`special`] of the eight bytes at `i`, or `None` when fewer are left.
#[inline]
fn word_at(b: &[u8], i: usize) -> Option<u64> {
    let word = b.get(i..i + 8)?;
    Some(special(u64::from_le_bytes(
        word.try_into().expect("8 bytes"),
    )))
}

/// The bytes of `word` (little-endian) that are a quote, a backslash or a
/// control character, as their high bits: exact for the lowest such byte
/// (a borrow only spreads upwards), which is the one used.
#[inline]
fn special(word: u64) -> u64 {
    const ONES: u64 = u64::MAX / 255;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    ((word.wrapping_sub(ONES * 0x20) & !word)
        | (quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash))
        & (ONES << 7)
}

/// One value read by serde_json with the type the full parse gives it, so
/// it reads the same; `None` when serde_json rejects it (the line then goes
/// to serde_json whole).
fn serde_value<'a, T: Deserialize<'a>>(v: &'a str) -> Option<Option<T>> {
    serde_json::from_str(v).ok()
}

/// A plain decimal (`-?digits.digits`, at most 18 digits in all) as
/// serde_json computes it without `float_roundtrip`: the digits as an
/// integer, divided by the power of ten. Exact in both, so the same bits.
fn decimal(b: &[u8]) -> Option<f64> {
    let (negative, b) = match b.split_first()? {
        (b'-', rest) => (true, rest),
        _ => (false, b),
    };
    // One pass: digits, one point with digits on both sides, 18 digits at
    // most (so the integer cannot overflow a u64).
    if b.len() > 19 {
        return None;
    }
    let mut digits = 0u64;
    let mut point = None;
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => digits = digits * 10 + u64::from(c - b'0'),
            b'.' if point.is_none() => point = Some(k),
            _ => return None,
        }
    }
    let point = point?;
    let frac = b.len() - point - 1;
    if point == 0 || frac == 0 {
        return None;
    }
    let f = digits as f64 / POW10[frac];
    Some(if negative { -f } else { f })
}

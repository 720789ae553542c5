//! The byte scanner in front of the one-pass reader ([`super::fast`]): it
//! reads the event lines exports write (keys without escapes, strings whose
//! escapes are not surrogates, non-negative integers that fit in 64 bits,
//! floats, shallow nesting) straight from the bytes into the same
//! [`TopOut`] the serde visitors fill, with the same hashes, and gives up
//! (`None`) on anything else, which the visitors then read. serde's visitors cost a string decode and a
//! dispatch per token, and events are short tokens (a 500-byte line holds
//! about fifty).
//!
//! It accepts a subset of what serde_json accepts and reads it to the same
//! values: a float's text is parsed by serde_json itself, a kept payload
//! value ([`VALUE_KEYS`]) is built by serde_json from its text, and the
//! differential tests run it on every corpus line and every edit of one.

use super::canon;
use super::event::{Got, Kind, VALUE_KEYS};
use super::fast::{Payload, TopOut};
use crate::bytes::json_stop as special;
use std::borrow::Cow;

/// Deepest nesting read here (serde_json's limit is 128, counted from the
/// line's first brace; a kept value is parsed alone, so it must stay far
/// from that limit to fail or succeed alike).
const MAX_DEPTH: u32 = 32;

/// Reads `text` into `out` (which starts empty), or None to leave it to the
/// serde visitors. `scratch` is left as it was found.
pub(super) fn event<'a>(
    text: &'a str,
    scratch: &mut Vec<(u128, u128)>,
    out: &mut TopOut<'a>,
) -> Option<()> {
    let mut s = Scan {
        s: text,
        b: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let mark = scratch.len();
    let r = s.top(scratch, out);
    if r.is_none() {
        scratch.truncate(mark);
    }
    r
}

struct Scan<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: u32,
}

/// A number as serde_json hands it to a visitor (negative ones are never
/// read here).
enum Num {
    U64(u64),
    F64(f64),
}

impl<'a> Scan<'a> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// `,` (true: another member follows) or the closing `close`.
    fn next(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.i += 1;
                Some(true)
            }
            c if c == close => {
                self.i += 1;
                Some(false)
            }
            _ => None,
        }
    }

    /// A string, at its `"`: borrowed when it has no escape. Gives up on a
    /// control character, an invalid escape and any escaped surrogate.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        debug_assert_eq!(self.b.get(self.i), Some(&b'"'));
        let start = self.i + 1;
        let end = special(self.b, start)?;
        if self.b[end] == b'"' {
            self.i = end + 1;
            // Both ends are ASCII: character boundaries.
            return self.s.get(start..end).map(Cow::Borrowed);
        }
        // The decoded text is no longer than the escaped one: room for it
        // all at once (the closing quote is the first one not escaped).
        let mut close = end;
        loop {
            match *self.b.get(close)? {
                b'"' => break,
                b'\\' => close += 2,
                _ => close = special(self.b, close + 1)?,
            }
        }
        let mut out = String::with_capacity(close - start);
        out.push_str(self.s.get(start..end)?);
        let mut i = end;
        loop {
            match *self.b.get(i)? {
                b'"' => break,
                b'\\' => {
                    let c = match *self.b.get(i + 1)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = std::str::from_utf8(self.b.get(i + 2..i + 6)?).ok()?;
                            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                                return None;
                            }
                            // No surrogates: a pair (or a lone one) is left to serde_json.
                            char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                        }
                        _ => return None,
                    };
                    out.push(c);
                    i += if self.b[i + 1] == b'u' { 6 } else { 2 };
                }
                0..=0x1f => return None,
                _ => {
                    let j = special(self.b, i)?;
                    out.push_str(self.s.get(i..j)?);
                    i = j;
                }
            }
        }
        self.i = i + 1;
        Some(Cow::Owned(out))
    }

    /// An object key and its colon: without escapes (an escaped key is
    /// left to serde), never serde_json's raw-value key, which `Value`
    /// reads specially.
    fn key(&mut self) -> Option<&'a str> {
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.i + 1;
        let end = special(self.b, start)?;
        if self.b[end] != b'"' {
            return None;
        }
        self.i = end + 1;
        let k = self.s.get(start..end)?;
        if k == canon::RAW_VALUE_TOKEN {
            return None;
        }
        self.eat(b':')?;
        Some(k)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.b[self.i..]
            .starts_with(word)
            .then(|| self.i += word.len())
    }

    fn number(&mut self) -> Option<Num> {
        let start = self.i;
        let digits = |b: &[u8], mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = match *self.b.get(start)? {
            b'0' => start + 1,
            b'1'..=b'9' => digits(self.b, start + 1),
            _ => return None,
        };
        let int_end = i;
        let mut float = false;
        if self.b.get(i) == Some(&b'.') {
            let end = digits(self.b, i + 1);
            if end == i + 1 {
                return None;
            }
            (i, float) = (end, true);
        }
        if let Some(b'e' | b'E') = self.b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = self.b.get(i) {
                i += 1;
            }
            let end = digits(self.b, i);
            if end == i {
                return None;
            }
            (i, float) = (end, true);
        }
        if self
            .b
            .get(i)
            .is_some_and(|c| c.is_ascii_digit() || *c == b'.')
        {
            return None;
        }
        self.i = i;
        if float {
            // serde_json's own parse of the same text: the same value.
            return serde_json::from_str::<f64>(self.s.get(start..i)?)
                .ok()
                .map(Num::F64);
        }
        let mut u: u64 = 0;
        for &d in &self.b[start..int_end] {
            u = u.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        }
        Some(Num::U64(u))
    }

    /// Any value, its hash when `HASH` (the [`canon`] hash, as
    /// [`canon::Walk`] gives it), else 0.
    fn value<const HASH: bool>(&mut self, scratch: &mut Vec<(u128, u128)>) -> Option<u128> {
        Some(match self.peek()? {
            b'{' => {
                self.enter()?;
                let mark = scratch.len();
                if self.peek()? == b'}' {
                    self.i += 1;
                } else {
                    loop {
                        let k = self.key()?;
                        let v = self.value::<HASH>(scratch)?;
                        if HASH {
                            scratch.push((canon::string(k), v));
                        }
                        if !self.next(b'}')? {
                            break;
                        }
                    }
                }
                self.depth -= 1;
                if HASH {
                    canon::object_of(scratch, mark)
                } else {
                    0
                }
            }
            b'[' => {
                self.enter()?;
                let mark = scratch.len();
                if self.peek()? == b']' {
                    self.i += 1;
                } else {
                    loop {
                        let v = self.value::<HASH>(scratch)?;
                        if HASH {
                            scratch.push((v, 0));
                        }
                        if !self.next(b']')? {
                            break;
                        }
                    }
                }
                self.depth -= 1;
                if HASH {
                    canon::array_of(scratch, mark)
                } else {
                    0
                }
            }
            _ => {
                let g = self.scalar()?;
                if HASH { hash_of(&g) } else { 0 }
            }
        })
    }

    fn enter(&mut self) -> Option<()> {
        self.i += 1;
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// A string, number, boolean or null, at its first byte (its callers
    /// have skipped the whitespace before it).
    fn scalar(&mut self) -> Option<Got<'a>> {
        Some(match *self.b.get(self.i)? {
            b'"' => Got::Str(self.string()?),
            b't' => {
                self.literal(b"true")?;
                Got::Bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                Got::Bool(false)
            }
            b'n' => {
                self.literal(b"null")?;
                Got::Null
            }
            _ => match self.number()? {
                Num::U64(u) => Got::U64(u),
                Num::F64(f) => Got::F64(f),
            },
        })
    }

    /// Any value as [`super::fast`]'s `Scalar` gives it: arrays and objects
    /// checked, as [`Got::Other`].
    fn got(&mut self, scratch: &mut Vec<(u128, u128)>) -> Option<Got<'a>> {
        match self.peek()? {
            b'{' | b'[' => {
                self.value::<false>(scratch)?;
                Some(Got::Other)
            }
            _ => self.scalar(),
        }
    }

    /// Any value with its hash, as [`super::fast`]'s `GotSeed` gives it.
    fn got_hashed(&mut self, scratch: &mut Vec<(u128, u128)>) -> Option<(u128, Got<'a>)> {
        match self.peek()? {
            b'{' | b'[' => Some((self.value::<true>(scratch)?, Got::Other)),
            _ => {
                let g = self.scalar()?;
                Some((hash_of(&g), g))
            }
        }
    }

    fn top(&mut self, scratch: &mut Vec<(u128, u128)>, out: &mut TopOut<'a>) -> Option<()> {
        self.eat(b'{')?;
        self.depth = 1;
        let (mut meta_seen, mut timestamp_seen, mut format_seen, mut header_seen) =
            (false, false, false, false);
        let once = |seen: &mut bool| (!std::mem::replace(seen, true)).then_some(());
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let key = self.key()?;
                match key {
                    "type" | "eventType" => {
                        let slot = if key == "type" {
                            &mut out.kind
                        } else {
                            &mut out.event_type
                        };
                        if slot.is_some() {
                            return None;
                        }
                        *slot = Some(match self.got(scratch)? {
                            Got::Str(s) => Some(s),
                            Got::Null => None,
                            _ => return None,
                        });
                    }
                    "payload" => {
                        if out.read_for.is_some() {
                            return None;
                        }
                        let read_for = match (&out.kind, &out.event_type) {
                            (Some(Some(k)), _) | (None | Some(None), Some(Some(k))) => k.clone(),
                            _ => return None,
                        };
                        self.payload(Kind::of(&read_for), scratch, &mut out.payload)?;
                        out.read_for = Some(read_for);
                    }
                    "meta" => {
                        once(&mut meta_seen)?;
                        self.meta(scratch, out)?;
                    }
                    "timestamp" => {
                        once(&mut timestamp_seen)?;
                        out.timestamp = Some(self.got(scratch)?);
                    }
                    "format" | "header" => {
                        once(if key == "format" {
                            &mut format_seen
                        } else {
                            &mut header_seen
                        })?;
                        self.value::<false>(scratch)?;
                    }
                    _ => {
                        self.value::<false>(scratch)?;
                    }
                }
                if !self.next(b'}')? {
                    break;
                }
            }
        }
        self.ws();
        (self.i == self.b.len()).then_some(())
    }

    fn payload(
        &mut self,
        kind: Kind,
        scratch: &mut Vec<(u128, u128)>,
        out: &mut Payload<'a>,
    ) -> Option<()> {
        if self.peek()? != b'{' {
            out.hash = self.value::<true>(scratch)?;
            return Some(());
        }
        self.enter()?;
        let keys = kind.keys();
        let mark = scratch.len();
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                let key = self.key()?;
                let slot = keys.iter().position(|k| *k == key);
                let h = if key == "runId" || slot.is_some() && !VALUE_KEYS.contains(&key) {
                    let (h, got) = self.got_hashed(scratch)?;
                    match slot {
                        Some(i) => out.slots[i] = Some(got),
                        None => out.run = Some(got),
                    }
                    h
                } else if let Some(i) = slot {
                    // Hashed as it is walked (as `canon::of_value` would
                    // hash the value, without its allocations), then built.
                    let start = self.i;
                    let h = self.value::<true>(scratch)?;
                    let v: serde_json::Value =
                        serde_json::from_str(self.s.get(start..self.i)?).ok()?;
                    out.slots[i] = Some(Got::Value(v));
                    h
                } else {
                    self.value::<true>(scratch)?
                };
                scratch.push((canon::string(key), h));
                if !self.next(b'}')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        out.hash = canon::object_of(scratch, mark);
        Some(())
    }

    fn meta(&mut self, scratch: &mut Vec<(u128, u128)>, out: &mut TopOut<'a>) -> Option<()> {
        if self.peek()? != b'{' {
            self.value::<false>(scratch)?;
            return Some(());
        }
        self.enter()?;
        let m = &mut out.meta;
        let str_of = |g: Got<'a>| match g {
            Got::Str(s) => Some(s),
            _ => None,
        };
        if self.peek()? == b'}' {
            self.i += 1;
        } else {
            loop {
                match self.key()? {
                    "runId" => m.run_id = str_of(self.got(scratch)?),
                    "sessionId" => m.session_id = str_of(self.got(scratch)?),
                    "runtimeStageId" => m.stage = str_of(self.got(scratch)?),
                    "wallClockMs" => {
                        m.wall_clock_ms = match self.got(scratch)? {
                            Got::U64(u) => Some(u as f64),
                            Got::F64(f) => Some(f),
                            _ => None,
                        }
                    }
                    "runOffsetMs" => m.offset = Some(self.got_hashed(scratch)?.0),
                    "compositionPath" => m.composition = self.last_string(scratch)?,
                    _ => {
                        self.value::<false>(scratch)?;
                    }
                }
                if !self.next(b'}')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// The last string element of an array (None for anything else).
    fn last_string(&mut self, scratch: &mut Vec<(u128, u128)>) -> Option<Option<Cow<'a, str>>> {
        if self.peek()? != b'[' {
            self.value::<false>(scratch)?;
            return Some(None);
        }
        self.enter()?;
        let mut last = None;
        if self.peek()? == b']' {
            self.i += 1;
        } else {
            loop {
                if let Got::Str(s) = self.got(scratch)? {
                    last = Some(s);
                }
                if !self.next(b']')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Some(last)
    }
}

/// The [`canon`] hash of a scalar.
fn hash_of(g: &Got<'_>) -> u128 {
    match g {
        Got::Null => canon::null(),
        Got::Bool(b) => canon::boolean(*b),
        Got::U64(u) => canon::unsigned(*u),
        Got::I64(i) => canon::signed(*i),
        Got::F64(f) => canon::float(*f),
        Got::Str(s) => canon::string(s),
        Got::Other | Got::Value(_) => unreachable!("only scalars are hashed here"),
    }
}

//! The byte scanner in front of the one-pass reader ([`super::fast`]): it
//! reads the event lines exports write (keys without escapes, strings whose
//! escapes are not surrogates, non-negative integers that fit in 64 bits,
//! floats, shallow nesting) straight from the bytes into the same
//! [`TopOut`] the serde visitors fill, with the same hashes, and gives up
//! (`None`) on anything else, which the visitors then read. serde's
//! visitors cost a string decode and a dispatch per token, and events are
//! short tokens (a 500-byte line holds about fifty).
//!
//! It is built on the shared [`Cursor`] (whitespace, strings, keys and
//! plain numbers as the native and OTLP readers check them), and finds the
//! event's and its `meta`'s keys by the cursor's one-compare expectation,
//! in the order exports write them.
//!
//! It accepts a subset of what serde_json accepts and reads it to the same
//! values: a float the cursor cannot read exactly is parsed by serde_json
//! itself, a kept payload value ([`VALUE_KEYS`]) is built by serde_json
//! from its text, and the differential tests run it on every corpus line
//! and every edit of one.

use super::canon;
use super::event::{CANDIDATE_KEYS, Field, Got, Kind, VALUE_KEYS, candidate_of};
use super::fast::{Payload, TopOut};
use super::run::Candidate;
use crate::bytes::eq_short;
use crate::dialect::cursor::{Cursor, Escapes, Key, Plain};
use std::borrow::Cow;

/// Deepest nesting read here (serde_json's limit is 128, counted from the
/// line's first brace; a kept value is parsed alone, so it must stay far
/// from that limit to fail or succeed alike).
const MAX_DEPTH: u32 = 32;

/// An event's keys in the order exports write them (`type`, `payload`,
/// `meta`), then the others it may have: each is found by one compare
/// where it is expected, and by name elsewhere.
const TOP: &[Key] = &[
    Key::new("type"),
    Key::new("payload"),
    Key::new("meta"),
    Key::new("eventType"),
    Key::new("timestamp"),
    Key::new("format"),
    Key::new("header"),
];

/// The keys of `meta`, in the order exports write them (a run given a
/// session writes the last four; `correlationId`, `principal` and `tenant`
/// are listed only to be found by one compare, and are skipped).
const META: &[Key] = &[
    Key::new("wallClockMs"),
    Key::new("runOffsetMs"),
    Key::new("runtimeStageId"),
    Key::new("subflowPath"),
    Key::new("compositionPath"),
    Key::new("runId"),
    Key::new("correlationId"),
    Key::new("sessionId"),
    Key::new("principal"),
    Key::new("tenant"),
];

/// Reads `text` into `out` (which starts empty), or None to leave it to the
/// serde visitors. `scratch` is left as it was found.
pub(super) fn event<'a>(
    text: &'a str,
    scratch: &mut Vec<(u128, u128)>,
    out: &mut TopOut<'a>,
) -> Option<()> {
    let mut s = Scan {
        c: Cursor::new(text),
        depth: 0,
    };
    let mark = scratch.len();
    let r = s.top(scratch, out);
    if r.is_none() {
        scratch.truncate(mark);
    }
    r
}

/// The shared cursor (whitespace, strings, keys and numbers checked as
/// serde_json checks them), with the nesting depth of this reader.
struct Scan<'a> {
    c: Cursor<'a>,
    depth: u32,
}

/// A number as serde_json hands it to a visitor (negative integers are
/// never read here).
enum Num {
    U64(u64),
    F64(f64),
}

impl<'a> Scan<'a> {
    /// The next byte after whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.c.ws();
        self.c.peek()
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.c.i += 1)
    }

    /// `,` (true: another member follows) or the closing `close`.
    #[inline]
    fn next(&mut self, close: u8) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.c.i += 1;
                Some(true)
            }
            c if c == close => {
                self.c.i += 1;
                Some(false)
            }
            _ => None,
        }
    }

    /// The text between `start` and `end` of the line (both next to a quote,
    /// so character boundaries).
    fn text(&self, start: usize, end: usize) -> Option<&'a str> {
        self.c.s.get(start..end)
    }

    /// A string, at its `"`: borrowed when it has no escape. Gives up on an
    /// escaped surrogate (the cursor has given up on a control character
    /// and an invalid escape).
    #[inline]
    fn string(&mut self) -> Option<Cow<'a, str>> {
        debug_assert_eq!(self.c.peek(), Some(b'"'));
        let start = self.c.i + 1;
        self.c.i = start;
        let escapes = self.c.string_escapes()?;
        let raw = self.text(start, self.c.i - 1)?;
        if escapes == Escapes::None {
            return Some(Cow::Borrowed(raw));
        }
        decode(raw).map(Cow::Owned)
    }

    /// An object key without escapes and its colon, never serde_json's
    /// raw-value key, which `Value` reads specially (an escaped key is left
    /// to serde).
    #[inline(always)]
    fn key(&mut self) -> Option<&'a [u8]> {
        // Inline, as exports write a key: at its quote, ending within
        // sixteen bytes, its colon next (too short to be the raw-value
        // token). Anything else is read by name, out of line.
        let (b, i) = (self.c.b, self.c.i);
        if b.get(i) == Some(&b'"')
            && let Some(Some(q)) = crate::bytes::stop_within16(b, i + 1)
            && b[q] == b'"'
            && b.get(q + 1) == Some(&b':')
        {
            self.c.i = q + 2;
            return Some(&b[i + 1..q]);
        }
        self.key_by_name(&[], &mut 0).map(|(k, _)| k)
    }

    /// [`Scan::key`]'s place in `expect`, looking for `expect[*next]` first
    /// as [`Cursor::members_indexed`] does: that compare is made here, the
    /// read by name out of line.
    #[inline(always)]
    fn key_of(&mut self, expect: &[Key], next: &mut usize) -> Option<Option<usize>> {
        if self.c.expected_key(expect, next).is_some() {
            return Some(Some(*next - 1));
        }
        self.key_by_name(expect, next).map(|(_, j)| j)
    }

    #[inline(never)]
    fn key_by_name(
        &mut self,
        expect: &[Key],
        next: &mut usize,
    ) -> Option<(&'a [u8], Option<usize>)> {
        let (k, listed) = self.c.any_key(expect)?;
        if let Some(j) = listed {
            *next = j + 1;
        }
        if k == canon::RAW_VALUE_TOKEN.as_bytes() {
            return None;
        }
        Some((k, listed))
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.c.literal(word).map(drop)
    }

    /// A number: a plain one as the cursor reads it, any other
    /// non-negative one by JSON's grammar, its float text parsed by
    /// serde_json itself.
    #[inline]
    fn number(&mut self) -> Option<Num> {
        match self.c.plain_number() {
            Some(Plain::Unsigned(u)) => return Some(Num::U64(u)),
            Some(Plain::Float(f)) => return Some(Num::F64(f)),
            None => {}
        }
        self.number_rest()
    }

    /// The numbers [`Cursor::plain_number`] leaves: a non-negative one
    /// with an exponent or more than 18 digits, checked by JSON's grammar
    /// here; an integer that fits is read as `u64`, anything else has its
    /// text parsed by serde_json, so the value is the one it would give.
    /// A leading minus is not accepted here: it returns `None`, and the
    /// line goes to the serde path.
    fn number_rest(&mut self) -> Option<Num> {
        let b = self.c.b;
        let start = self.c.i;
        let digits = |mut i: usize| {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = match *b.get(start)? {
            b'0' => start + 1,
            b'1'..=b'9' => digits(start + 1),
            _ => return None,
        };
        let int_end = i;
        let mut float = false;
        if b.get(i) == Some(&b'.') {
            let end = digits(i + 1);
            if end == i + 1 {
                return None;
            }
            (i, float) = (end, true);
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let end = digits(i);
            if end == i {
                return None;
            }
            (i, float) = (end, true);
        }
        if b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'.') {
            return None;
        }
        self.c.i = i;
        if float {
            // serde_json's own parse of the same text: the same value.
            return serde_json::from_str::<f64>(self.c.s.get(start..i)?)
                .ok()
                .map(Num::F64);
        }
        let mut u: u64 = 0;
        for &d in &b[start..int_end] {
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
                    self.c.i += 1;
                } else {
                    loop {
                        let k = self.key()?;
                        let v = self.value::<HASH>(scratch)?;
                        if HASH {
                            scratch.push((canon::bytes(k), v));
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
                    self.c.i += 1;
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
            _ if HASH => self.hash_scalar()?,
            _ => {
                self.skip_scalar()?;
                0
            }
        })
    }

    fn enter(&mut self) -> Option<()> {
        self.c.i += 1;
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// A string, number, boolean or null, at its first byte (its callers
    /// have skipped the whitespace before it).
    #[inline(always)]
    fn scalar(&mut self) -> Option<Got<'a>> {
        Some(match *self.c.b.get(self.c.i)? {
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

    /// The hash of a scalar ([`hash_of`] of what [`Scan::scalar`] reads),
    /// a string's from its bytes when it has no escape.
    fn hash_scalar(&mut self) -> Option<u128> {
        if self.c.peek()? != b'"' {
            return Some(hash_of(&self.scalar()?));
        }
        let start = self.c.i + 1;
        self.c.i = start;
        let escapes = self.c.string_escapes()?;
        let end = self.c.i - 1;
        Some(if escapes == Escapes::None {
            canon::bytes(&self.c.b[start..end])
        } else {
            canon::string(&decode(self.text(start, end)?)?)
        })
    }

    /// A scalar checked as [`Scan::scalar`] checks it, not built: a string
    /// is decoded only when it has a `\u` escape (which may be a
    /// surrogate, left to serde_json).
    fn skip_scalar(&mut self) -> Option<()> {
        if self.c.peek()? != b'"' {
            return self.scalar().map(drop);
        }
        let start = self.c.i + 1;
        self.c.i = start;
        if self.c.string_escapes()? == Escapes::Unicode {
            decode(self.text(start, self.c.i - 1)?)?;
        }
        Some(())
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
            self.c.i += 1;
        } else {
            let mut next = 0;
            loop {
                // Places in `TOP`.
                match self.key_of(TOP, &mut next)? {
                    Some(j @ (0 | 3)) => {
                        let slot = if j == 0 {
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
                    Some(1) => {
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
                    Some(2) => {
                        once(&mut meta_seen)?;
                        self.meta(scratch, out)?;
                    }
                    Some(4) => {
                        once(&mut timestamp_seen)?;
                        out.timestamp = Some(self.got(scratch)?);
                    }
                    Some(j @ (5 | 6)) => {
                        once(if j == 5 {
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
        self.c.ws();
        (self.c.i == self.c.b.len()).then_some(())
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
            self.c.i += 1;
        } else {
            loop {
                let key = self.key()?;
                let slot = keys.iter().position(|k| eq_short(k.as_bytes(), key));
                let h = if eq_short(key, b"runId")
                    || slot.is_some() && !VALUE_KEYS.iter().any(|v| eq_short(v.as_bytes(), key))
                {
                    let (h, got) = self.got_hashed(scratch)?;
                    match slot {
                        Some(i) => out.slots[i] = Some(got),
                        None => out.run = Some(got),
                    }
                    h
                } else if let Some(i) = slot
                    && eq_short(key, b"candidates")
                {
                    let (h, candidates) = self.candidates(scratch)?;
                    out.slots[i] = Some(Got::Candidates(candidates));
                    h
                } else if let Some(i) = slot {
                    // Hashed as it is walked (as `canon::of_value` would
                    // hash the value, without its allocations), then built.
                    let start = self.c.i;
                    let h = self.value::<true>(scratch)?;
                    let v: serde_json::Value =
                        serde_json::from_str(self.c.s.get(start..self.c.i)?).ok()?;
                    out.slots[i] = Some(Got::Value(v));
                    h
                } else {
                    self.value::<true>(scratch)?
                };
                scratch.push((canon::bytes(key), h));
                if !self.next(b'}')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        out.hash = canon::object_of(scratch, mark);
        Some(())
    }

    /// A `candidates` value with its hash: an array's objects read as
    /// [`candidate_of`] reads them from a `Value` (anything else in it
    /// only hashed); no candidates when it is not an array.
    fn candidates(&mut self, scratch: &mut Vec<(u128, u128)>) -> Option<(u128, Vec<Candidate>)> {
        if self.peek()? != b'[' {
            return Some((self.value::<true>(scratch)?, Vec::new()));
        }
        self.enter()?;
        let mark = scratch.len();
        let mut out = Vec::new();
        if self.peek()? == b']' {
            self.c.i += 1;
        } else {
            loop {
                let h = if self.peek()? == b'{' {
                    let (h, c) = self.candidate(scratch)?;
                    out.extend(c);
                    h
                } else {
                    self.value::<true>(scratch)?
                };
                scratch.push((h, 0));
                if !self.next(b']')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Some((canon::array_of(scratch, mark), out))
    }

    /// One candidate object, at its `{`, with its hash: the last of a
    /// repeated key counts, as in a `Value`.
    fn candidate(&mut self, scratch: &mut Vec<(u128, u128)>) -> Option<(u128, Option<Candidate>)> {
        self.enter()?;
        let mark = scratch.len();
        let mut got: [Option<Got<'a>>; CANDIDATE_KEYS.len()] = Default::default();
        if self.peek()? == b'}' {
            self.c.i += 1;
        } else {
            loop {
                let key = self.key()?;
                let h = match CANDIDATE_KEYS
                    .iter()
                    .position(|k| eq_short(k.as_bytes(), key))
                {
                    Some(i) => {
                        let (h, g) = self.got_hashed(scratch)?;
                        got[i] = Some(g);
                        h
                    }
                    None => self.value::<true>(scratch)?,
                };
                scratch.push((canon::bytes(key), h));
                if !self.next(b'}')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        let field = |k: &str| {
            let i = CANDIDATE_KEYS.iter().position(|c| *c == k)?;
            got[i].as_ref().map(Field::G)
        };
        Some((canon::object_of(scratch, mark), candidate_of(&field)))
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
            self.c.i += 1;
        } else {
            let mut next = 0;
            loop {
                // Places in `META`.
                match self.key_of(META, &mut next)? {
                    Some(5) => m.run_id = str_of(self.got(scratch)?),
                    Some(7) => m.session_id = str_of(self.got(scratch)?),
                    Some(2) => m.stage = str_of(self.got(scratch)?),
                    Some(0) => {
                        m.wall_clock_ms = match self.got(scratch)? {
                            Got::U64(u) => Some(u as f64),
                            Got::F64(f) => Some(f),
                            _ => None,
                        }
                    }
                    Some(1) => m.offset = Some(self.got_hashed(scratch)?.0),
                    Some(4) => m.composition = self.last_string(scratch)?,
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
            self.c.i += 1;
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
        Got::Other | Got::Value(_) | Got::Candidates(_) => {
            unreachable!("only scalars are hashed here")
        }
    }
}

/// The text of a string with escapes, between its quotes (checked by the
/// cursor), or None for an escaped surrogate (a pair, or a lone one, is
/// left to serde_json).
fn decode(raw: &str) -> Option<String> {
    let b = raw.as_bytes();
    // The decoded text is no longer than the escaped one.
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while let Some(j) = memchr::memchr(b'\\', &b[i..]).map(|j| i + j) {
        out.push_str(raw.get(i..j)?);
        let c = match *b.get(j + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hex = raw.get(j + 2..j + 6)?;
                if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                    return None;
                }
                char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
            }
            _ => return None,
        };
        out.push(c);
        i = j + if b[j + 1] == b'u' { 6 } else { 2 };
    }
    out.push_str(raw.get(i..)?);
    Some(out)
}

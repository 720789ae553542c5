//! A byte cursor over one line of JSON that checks exactly what serde_json
//! checks: whitespace, strings (no control character, escapes well-formed,
//! never decoded), numbers by JSON's grammar, literals, and any value
//! stepped over by its structure. The one-pass readers (native turn lines,
//! OTLP spans) are built on it; each reads its own fields and returns
//! `None` for anything it is not sure of, so serde_json reads that line
//! from the start and every error message comes from one place.

use serde::Deserialize;

/// Nesting the cursor follows before it leaves the line to serde_json
/// (whose own limit is 128).
pub(in crate::dialect) const MAX_DEPTH: u32 = 64;

/// A position in one line of JSON.
pub(in crate::dialect) struct Cursor<'a> {
    pub(in crate::dialect) s: &'a str,
    pub(in crate::dialect) b: &'a [u8],
    pub(in crate::dialect) i: usize,
}

/// The escapes a JSON string holds: none, only short ones (`\n`, `\"`
/// ...), or a `\u` escape (which can stand for any character, a bracket
/// or a line break too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(in crate::dialect) enum Escapes {
    None,
    Short,
    Unicode,
}

/// A number serde_json reads as `f64` the way this reader can too: the
/// digits as one integer divided by an exact power of ten.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A key a reader expects, as its bytes stand in a line: `"name":`, at
/// most 32 bytes (a name of up to 29 bytes without a quote, a backslash or
/// a control character: [`Key::new`] refuses any other when the constant
/// is built, [`Key::of`] returns `None` for it).
#[derive(Debug)]
pub(in crate::dialect) struct Key {
    /// The bytes, little-endian, in two words, and which of their bytes count.
    words: [u128; 2],
    masks: [u128; 2],
    /// Bytes of `"name":`.
    len: usize,
    /// The name, zero-padded.
    name: [u8; 29],
    /// What a hit hands on as the key: the name of a constant key, nothing
    /// for a key made at run time (its reader goes by the key's place).
    text: &'static str,
}

impl Key {
    /// The key `name` (at most 29 bytes; checked when the constant is built).
    pub(in crate::dialect) const fn new(name: &'static str) -> Key {
        match Key::of(name.as_bytes()) {
            Some(k) => Key { text: name, ..k },
            None => panic!(
                "an expected key is a name of at most 29 bytes without a quote, a backslash or a control character"
            ),
        }
    }

    /// The key `name`, or `None` when the compare cannot stand for it:
    /// more than 29 bytes, a quote, a backslash or a control character.
    pub(in crate::dialect) const fn of(n: &[u8]) -> Option<Key> {
        let len = n.len() + 3;
        if len > 32 {
            return None;
        }
        let mut words = [0u128; 2];
        let mut masks = [0u128; 2];
        let mut name = [0u8; 29];
        let mut i = 0;
        while i < len {
            let c = if i == 0 || i == len - 2 {
                b'"'
            } else if i == len - 1 {
                b':'
            } else {
                let c = n[i - 1];
                if c == b'"' || c == b'\\' || c < 0x20 {
                    return None;
                }
                name[i - 1] = c;
                c
            };
            words[i / 16] |= (c as u128) << (8 * (i % 16));
            masks[i / 16] |= 0xff << (8 * (i % 16));
            i += 1;
        }
        Some(Key {
            words,
            masks,
            len,
            name,
            text: "",
        })
    }

    /// The key's name.
    pub(in crate::dialect) fn name(&self) -> &[u8] {
        &self.name[..self.len - 3]
    }

    /// Whether `b` holds this key's bytes at `i` (false too when fewer than
    /// 16 bytes, or 32 for a long key, follow `i`: the key is then read as
    /// any key).
    #[inline(always)]
    fn at(&self, b: &[u8], i: usize) -> bool {
        let word = |at: usize| {
            b.get(at..at + 16)
                .map(|w| u128::from_le_bytes(w.try_into().expect("16 bytes")))
        };
        match word(i) {
            Some(w) if w & self.masks[0] == self.words[0] => {
                self.len <= 16 || word(i + 16).is_some_and(|w| w & self.masks[1] == self.words[1])
            }
            _ => false,
        }
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `s`.
    pub(in crate::dialect) fn new(s: &'a str) -> Self {
        Cursor {
            s,
            b: s.as_bytes(),
            i: 0,
        }
    }

    /// JSON whitespace (serde_json's four characters). Compact exports
    /// have none: a byte above the space ends it at one compare.
    #[inline]
    pub(in crate::dialect) fn ws(&mut self) {
        if self.b.get(self.i).is_some_and(|&c| c > b' ') {
            return;
        }
        while let Some(&c) = self.b.get(self.i)
            && matches!(c, b' ' | b'\t' | b'\n' | b'\r')
        {
            self.i += 1;
        }
    }

    #[inline]
    pub(in crate::dialect) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    pub(in crate::dialect) fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// The members of an object whose `{` was read: each key (without
    /// escapes, each known key once: `slot` numbers the known keys, names
    /// of one field sharing a number, `seen` holds those met) is handed to
    /// `member`, which reads its value. Ends after the `}`.
    pub(in crate::dialect) fn object(
        &mut self,
        slot: impl Fn(&[u8]) -> Option<u32>,
        seen: &mut u32,
        mut member: impl FnMut(&mut Self, &[u8]) -> Option<()>,
    ) -> Option<()> {
        self.members(seen, |p, key| {
            member(p, key)?;
            Some(slot(key).map_or(0, |bit| 1 << bit))
        })
    }

    /// [`Cursor::object`] for a reader that knows a key's number where it
    /// reads the key: `member` reads the value and returns the key's bit
    /// (0 for a key that may repeat). A bit met twice ends the read.
    #[inline]
    pub(in crate::dialect) fn members(
        &mut self,
        seen: &mut u32,
        member: impl FnMut(&mut Self, &'a [u8]) -> Option<u32>,
    ) -> Option<()> {
        self.members_expecting(&[], seen, member)
    }

    /// [`Cursor::members`] of an object whose writers put its keys in the
    /// order `expect` lists them: before it reads a key, it looks for the
    /// next expected key's bytes (`"name":`) at the cursor, one masked
    /// compare instead of a string scan, a key match and a colon. The key
    /// read is the same either way; a key not found there is read as any
    /// key, and the expectation goes on after it when it is a listed one.
    #[inline(always)]
    pub(in crate::dialect) fn members_expecting(
        &mut self,
        expect: &[Key],
        seen: &mut u32,
        mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<u32>,
    ) -> Option<()> {
        self.members_indexed(expect, seen, |p, key, _| member(p, key))
    }

    /// [`Cursor::members_expecting`] that also hands `member` the key's
    /// place in `expect` (`None` for a key not listed), for a reader whose
    /// list stands for its own table of keys. A listed key found by its
    /// compare is handed as the constant's name, or empty for a key made at
    /// run time ([`Key::of`]): such a reader goes by the place.
    #[inline(always)]
    pub(in crate::dialect) fn members_indexed(
        &mut self,
        expect: &[Key],
        seen: &mut u32,
        mut member: impl FnMut(&mut Self, &'a [u8], Option<usize>) -> Option<u32>,
    ) -> Option<()> {
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        let b = self.b;
        let mut next = 0;
        loop {
            let (key, listed) = match expect.get(next) {
                Some(k) if k.at(b, self.i) => {
                    self.i += k.len;
                    next += 1;
                    (k.text.as_bytes(), Some(next - 1))
                }
                // The read of `any_key`, written out: as a call, native
                // lines cost 1.3 % more instructions.
                _ => {
                    self.ws();
                    self.eat(b'"')?;
                    let start = self.i;
                    if self.string()? {
                        return None;
                    }
                    let key = &b[start..self.i - 1];
                    self.ws();
                    self.eat(b':')?;
                    let listed = if expect.is_empty() {
                        None
                    } else {
                        expect.iter().position(|k| k.name() == key)
                    };
                    if let Some(j) = listed {
                        next = j + 1;
                    }
                    (key, listed)
                }
            };
            self.ws();
            let bit = member(self, key, listed)?;
            if *seen & bit != 0 {
                return None;
            }
            *seen |= bit;
            // Whitespace is looked for only where the next byte is not the
            // comma or brace (a key's own read skips what precedes it).
            let mut c = self.peek()?;
            if !matches!(c, b',' | b'}') {
                self.ws();
                c = self.peek()?;
            }
            match c {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The compare [`Cursor::members_indexed`] makes before it reads a
    /// key, for a reader with its own loop: `expect[*next]` when its bytes
    /// stand at the cursor (the cursor and `next` then move past it), else
    /// `None` and nothing moves.
    #[inline(always)]
    pub(in crate::dialect) fn expected_key<'k>(
        &mut self,
        expect: &'k [Key],
        next: &mut usize,
    ) -> Option<&'k Key> {
        let k = expect.get(*next)?;
        if !k.at(self.b, self.i) {
            return None;
        }
        self.i += k.len;
        *next += 1;
        Some(k)
    }

    /// The read by name [`Cursor::members_indexed`] makes when that compare
    /// fails: any key without escapes (after whitespace) through its colon,
    /// and its place in `expect` (the caller's expectation goes on after
    /// that place).
    #[inline(always)]
    pub(in crate::dialect) fn any_key(
        &mut self,
        expect: &[Key],
    ) -> Option<(&'a [u8], Option<usize>)> {
        let b = self.b;
        self.ws();
        self.eat(b'"')?;
        let start = self.i;
        if self.string()? {
            return None;
        }
        let key = &b[start..self.i - 1];
        self.ws();
        self.eat(b':')?;
        let listed = if expect.is_empty() {
            None
        } else {
            expect.iter().position(|k| k.name() == key)
        };
        Some((key, listed))
    }

    /// The rest of a string whose opening quote was read: checks it as
    /// serde_json does (no control character, escapes well-formed) and
    /// steps past the closing quote. True when it holds an escape.
    #[inline(always)]
    pub(in crate::dialect) fn string(&mut self) -> Option<bool> {
        Some(self.string_escapes()? != Escapes::None)
    }

    /// [`Cursor::string`], telling which escapes the string holds. Its
    /// first 32 bytes are looked at here, sixteen a step, inline in the
    /// caller: keys, ids, names and times end within them.
    #[inline(always)]
    pub(in crate::dialect) fn string_escapes(&mut self) -> Option<Escapes> {
        let mut from = self.i;
        for _ in 0..2 {
            match crate::bytes::stop_within16(self.b, from) {
                Some(Some(q)) if self.b.get(q) == Some(&b'"') => {
                    self.i = q + 1;
                    return Some(Escapes::None);
                }
                Some(Some(stop)) => return self.string_rest(stop),
                // Sixteen plain bytes: the search goes on past them.
                Some(None) => from += 16,
                None => break,
            }
        }
        self.string_rest(from)
    }

    /// [`Cursor::string_escapes`] from `from` on (past its first 32 bytes,
    /// or at an escape or a control character among them).
    fn string_rest(&mut self, from: usize) -> Option<Escapes> {
        let b = self.b;
        let mut i = from;
        let mut escaped = Escapes::None;
        loop {
            i = crate::bytes::json_stop(b, i).unwrap_or(b.len());
            match *b.get(i)? {
                b'"' => {
                    self.i = i + 1;
                    return Some(escaped);
                }
                b'\\' => match *b.get(i + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                        escaped = escaped.max(Escapes::Short);
                        i += 2;
                    }
                    b'u' => {
                        if !b.get(i + 2..i + 6)?.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        escaped = Escapes::Unicode;
                        i += 6;
                    }
                    _ => return None,
                },
                // A control character: the search stops at nothing else.
                _ => return None,
            }
        }
    }

    /// A number, by JSON's grammar (serde_json's: no leading zeros, digits
    /// on both sides of the point, an exponent with digits).
    pub(in crate::dialect) fn number(&mut self) -> Option<()> {
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

    /// A number read in one pass when it is plain: a non-negative integer
    /// of at most 19 digits, or `-?digits.digits` with at most 18 digits in
    /// all (what [`decimal`] reads). Anything else (a negative integer, an
    /// exponent, more digits, or not a number by JSON's grammar) leaves the
    /// cursor where it was and returns `None`, for [`Cursor::number`] and
    /// serde_json to read.
    #[inline]
    pub(in crate::dialect) fn plain_number(&mut self) -> Option<Plain> {
        let b = self.b;
        let mut i = self.i;
        let negative = b.get(i) == Some(&b'-');
        i += usize::from(negative);
        let first = i;
        let mut n = 0u64;
        // The digits from `i` on, into `n` (wrapping: the counts are checked after).
        let digits = |i: &mut usize, n: &mut u64| {
            let start = *i;
            while let Some(&c @ b'0'..=b'9') = b.get(*i) {
                *n = n.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                *i += 1;
            }
            *i - start
        };
        match *b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                digits(&mut i, &mut n);
            }
            _ => return None,
        }
        let whole = i - first;
        let plain = if b.get(i) == Some(&b'.') {
            i += 1;
            let frac = digits(&mut i, &mut n);
            if frac == 0 || whole + frac > 18 {
                return None;
            }
            let f = n as f64 / POW10[frac];
            Plain::Float(if negative { -f } else { f })
        } else if negative || whole > 19 {
            return None;
        } else {
            Plain::Unsigned(n)
        };
        if matches!(b.get(i), Some(b'e' | b'E')) {
            return None;
        }
        self.i = i;
        Some(plain)
    }

    /// Steps over one value at nesting `depth`, checking it; true when it
    /// is a string with an escape.
    pub(in crate::dialect) fn value(&mut self, depth: u32) -> Option<bool> {
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
    pub(in crate::dialect) fn elements(&mut self, depth: u32) -> Option<()> {
        loop {
            self.value(depth + 1)?;
            if !self.next_element()? {
                return Some(());
            }
        }
    }

    /// Past an array's `[` and the whitespace after it: true when the array
    /// is empty (its `]` read too).
    pub(in crate::dialect) fn open_array(&mut self) -> Option<bool> {
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
    pub(in crate::dialect) fn next_element(&mut self) -> Option<bool> {
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

    pub(in crate::dialect) fn literal(&mut self, word: &[u8]) -> Option<bool> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word).then(|| {
            self.i = end;
            false
        })
    }

    /// Steps over a value nobody reads.
    pub(in crate::dialect) fn skip(&mut self, depth: u32) -> Option<()> {
        self.value(depth).map(drop)
    }

    /// The next value's text and whether it is a string with an escape.
    pub(in crate::dialect) fn slice(&mut self, depth: u32) -> Option<(&'a str, bool)> {
        let start = self.i;
        let escaped = self.value(depth)?;
        Some((&self.s[start..self.i], escaped))
    }

    /// [`Cursor::slice`], with the escapes of a string (none for any other
    /// value).
    pub(in crate::dialect) fn slice_escapes(&mut self, depth: u32) -> Option<(&'a str, Escapes)> {
        let start = self.i;
        let escapes = if self.peek()? == b'"' {
            self.i += 1;
            self.string_escapes()?
        } else {
            self.skip(depth)?;
            Escapes::None
        };
        Some((&self.s[start..self.i], escapes))
    }
}

/// A key of a JSON object with the first byte of its value.
pub type KeyByte<'a> = (&'a str, u8);

/// The keys of the JSON object `line`, each with the first byte of its
/// value, and the same of the object under the key `nested` (when that
/// value is an object); the last of a repeated key wins, as in a map.
/// Each list is sorted by key. What serde_json reads into a map of raw
/// values, read in one pass without decoding a string; `None` when the
/// line is not one object, and also when a key holds an escape or the
/// nesting goes deeper than [`MAX_DEPTH`] (the caller asks serde_json then).
pub(crate) fn object_keys<'a>(
    line: &'a str,
    nested: &str,
) -> Option<(Vec<KeyByte<'a>>, Vec<KeyByte<'a>>)> {
    let mut p = Cursor::new(line);
    p.ws();
    let mut inner = None;
    let top = p.keys(|p, key, first| {
        if key != nested {
            return p.skip(1);
        }
        // A repeated key: only its last value counts.
        inner = None;
        if first != b'{' {
            return p.skip(1);
        }
        inner = Some(p.keys(|p, _, _| p.skip(2))?);
        Some(())
    })?;
    p.ws();
    (p.i == p.b.len()).then(|| (top, inner.unwrap_or_default()))
}

impl<'a> Cursor<'a> {
    /// The object at the cursor: its keys (no escapes) with their values'
    /// first bytes, sorted, the last of a repeated key kept; `value` steps
    /// over each value.
    fn keys(
        &mut self,
        mut value: impl FnMut(&mut Self, &'a str, u8) -> Option<()>,
    ) -> Option<Vec<KeyByte<'a>>> {
        self.eat(b'{')?;
        let mut out: Vec<KeyByte<'a>> = Vec::new();
        let (s, base) = (self.s, self.b.as_ptr() as usize);
        self.members(&mut 0, |p, key| {
            // The key as text: its place in the line (no escape in it, so
            // its ends are character boundaries).
            let at = key.as_ptr() as usize - base;
            let key = &s[at..at + key.len()];
            let first = p.peek()?;
            value(p, key, first)?;
            out.push((key, first));
            Some(0)
        })?;
        // A stable sort keeps repeats in input order; the last one stays.
        out.sort_by(|a, b| a.0.cmp(b.0));
        out.dedup_by(|later, kept| {
            let repeat = later.0 == kept.0;
            if repeat {
                *kept = *later;
            }
            repeat
        });
        Some(out)
    }
}

/// A number [`Cursor::plain_number`] read: as serde_json reads it (an
/// integer as `u64`, a decimal as the same `f64`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(in crate::dialect) enum Plain {
    Unsigned(u64),
    Float(f64),
}

/// One value read by serde_json with the type the full parse gives it, so
/// it reads the same; `None` when serde_json rejects it (the line then goes
/// to serde_json whole).
pub(in crate::dialect) fn serde_value<'a, T: Deserialize<'a>>(v: &'a str) -> Option<Option<T>> {
    serde_json::from_str(v).ok()
}

/// A plain decimal (`-?digits.digits`, at most 18 digits in all) as
/// serde_json computes it without `float_roundtrip`: the digits as an
/// integer, divided by the power of ten. Exact in both, so the same bits.
pub(in crate::dialect) fn decimal(s: &str) -> Option<f64> {
    match plain(s)? {
        Plain::Float(f) => Some(f),
        Plain::Unsigned(_) => None,
    }
}

/// `s` read by [`Cursor::plain_number`] when it is one plain number.
pub(in crate::dialect) fn plain(s: &str) -> Option<Plain> {
    let mut p = Cursor::new(s);
    let n = p.plain_number()?;
    (p.i == s.len()).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::{Cursor, Escapes, Key, Plain};

    /// Reading members with expected keys finds the keys, the values and
    /// the end that reading them as any keys finds, or fails where that
    /// fails: keys in and out of the expected order, missing, repeated,
    /// unknown, escaped, with whitespace, and objects that end within the
    /// 16 or 32 bytes a compare looks at.
    #[test]
    fn expected_keys_read_as_any_keys_do() {
        const EXPECT: &[Key] = &[
            Key::new("id"),
            Key::new("a_name_of_sixteen"),
            Key::new("name"),
            Key::new("a_name_that_is_twenty_nine_b"),
            Key::new("thirteen_char"),
        ];
        let keys = [
            r#""id""#,
            r#""a_name_of_sixteen""#,
            r#""name""#,
            r#""a_name_that_is_twenty_nine_b""#,
            r#""nam""#,
            r#""names""#,
            r#""n\u0061me""#,
            r#""na\"me""#,
            r#" "id" "#,
            r#""id""#,
            r#""thirteen_char""#,
        ];
        let values = ["1", r#""x""#, "[1, 2]", " {} ", "tru"];
        let read = |line: &str, expect: &[Key]| {
            let mut c = Cursor::new(line);
            c.eat(b'{')?;
            let mut got = Vec::new();
            c.members_indexed(expect, &mut 0, |p, key, at| {
                // A listed key comes with its place (and its name, or
                // nothing for a key made at run time).
                let key = match at {
                    Some(j) => {
                        assert!(key.is_empty() || key == expect[j].name());
                        expect[j].name()
                    }
                    None => {
                        assert!(expect.iter().all(|k| k.name() != key));
                        key
                    }
                };
                let start = p.i;
                p.value(1)?;
                got.push((key.to_vec(), p.s[start..p.i].to_owned()));
                Some(0)
            })?;
            Some((got, c.i))
        };
        // The same keys made at run time.
        let made: Vec<Key> = EXPECT
            .iter()
            .map(|k| Key::of(k.name()).expect("a plain key"))
            .collect();
        let mut lines = 0;
        let mut pick = 0usize;
        for (n, step) in (0..=4).flat_map(|n| [(n, 1), (n, 3)]) {
            for first in 0..keys.len() {
                for tail in ["}", " }", "}           trailing bytes to 32", ",}"] {
                    let mut line = String::from("{");
                    for m in 0..n {
                        if m > 0 {
                            line.push_str(if pick.is_multiple_of(3) { ", " } else { "," });
                        }
                        line.push_str(keys[(first + m * step) % keys.len()]);
                        line.push_str(if pick.is_multiple_of(4) { " : " } else { ":" });
                        line.push_str(values[pick % values.len()]);
                        pick += 1;
                    }
                    line.push_str(tail);
                    assert_eq!(read(&line, EXPECT), read(&line, &[]), "{line}");
                    assert_eq!(read(&line, &made), read(&line, &[]), "{line}");
                    lines += 1;
                }
            }
        }
        assert_eq!(lines, 440);
        // Names a compare cannot stand for.
        assert!(Key::of(b"a_name_that_is_thirty_bytes_xy").is_none());
        assert!(Key::of(b"a_name_that_is_twenty_nine_b").is_some());
        for bad in [&b"a\"b"[..], b"a\\b", b"a\nb"] {
            assert!(Key::of(bad).is_none());
        }
        // In order, every key found by its compare.
        let line = r#"{"id":1,"a_name_of_sixteen":2,"name":3,"a_name_that_is_twenty_nine_b":4}"#;
        let (got, end) = read(line, EXPECT).expect("a valid object");
        assert_eq!(end, line.len());
        let names: Vec<&[u8]> = got.iter().map(|(k, _)| &k[..]).collect();
        assert_eq!(
            names,
            [
                &b"id"[..],
                b"a_name_of_sixteen",
                b"name",
                b"a_name_that_is_twenty_nine_b"
            ]
        );
    }

    /// Where `plain_number` reads a number, it ends where `number` ends and
    /// reads what serde_json reads (an integer as `u64`, a decimal as the
    /// same `f64` bits); where it does not, the cursor has not moved.
    #[test]
    fn a_plain_number_reads_as_serde_json_reads_it() {
        let parts: [&[u8]; 14] = [
            b"0",
            b"7",
            b"-",
            b".",
            b"e",
            b"E",
            b"+",
            b"00",
            b"12345678901234567",
            b"9",
            b"1844674407370955161",
            b"x",
            b" ",
            b"",
        ];
        let mut texts = Vec::new();
        for a in &parts {
            for b in &parts {
                for c in &parts {
                    for d in &parts[..6] {
                        texts.push([*a, *b, *c, *d].concat());
                    }
                }
            }
        }
        let mut read = 0;
        for text in &texts {
            let Ok(s) = std::str::from_utf8(text) else {
                continue;
            };
            let mut p = Cursor::new(s);
            let Some(v) = p.plain_number() else {
                assert_eq!(p.i, 0, "{s:?} moved without a number");
                continue;
            };
            read += 1;
            let mut q = Cursor::new(s);
            q.number().expect("a number");
            assert_eq!(p.i, q.i, "{s:?} ends elsewhere");
            let token = &s[..p.i];
            match v {
                Plain::Unsigned(n) => {
                    assert_eq!(serde_json::from_str::<u64>(token).ok(), Some(n), "{s:?}");
                }
                Plain::Float(f) => {
                    let serde: f64 = serde_json::from_str(token).expect("serde reads it");
                    assert_eq!(serde.to_bits(), f.to_bits(), "{s:?}");
                    assert!(token.contains('.'), "{s:?}");
                }
            }
        }
        assert!(read > 1000, "only {read} numbers read");
    }

    /// The escapes the cursor notes as it checks a string are those the
    /// string holds: a `\u` escape exactly where [`has_unicode_escape`]
    /// finds one (an escaped backslash before a `u` is none), any escape
    /// exactly where serde_json's text differs from the literal's inside.
    /// Strings of every sequence of up to four pieces, each piece at every
    /// offset of a 40-byte run so both the inline steps and the full search
    /// meet it.
    ///
    /// [`has_unicode_escape`]: crate::model::has_unicode_escape
    #[test]
    fn the_escapes_noted_are_the_escapes_held() {
        let pieces = [
            r"a",
            r"\\",
            r"\u0041",
            r"\\u",
            r"\n",
            r"\\\u005b",
            "[",
            r#"\""#,
            "\u{e9}",
        ];
        let mut seen = [0usize; 3];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in &texts {
                for p in pieces {
                    next.push(format!("{t}{p}"));
                }
            }
            texts.extend(next);
            texts.sort();
            texts.dedup();
        }
        for t in &texts {
            for pad in [0, 7, 15, 16, 17, 31, 32, 40] {
                let literal = format!("\"{}{t}\" ", "x".repeat(pad));
                let mut p = Cursor::new(&literal);
                p.i = 1;
                let got = p.string_escapes().expect("a valid string");
                assert_eq!(p.i, literal.len() - 1, "{literal}");
                let inner = &literal[1..literal.len() - 2];
                let decoded: String = serde_json::from_str(&literal).expect("valid");
                let want = if crate::model::has_unicode_escape(inner) {
                    Escapes::Unicode
                } else if decoded != inner {
                    Escapes::Short
                } else {
                    Escapes::None
                };
                assert_eq!(got, want, "{literal}");
                seen[got as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }
}

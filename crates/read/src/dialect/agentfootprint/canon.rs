//! A 128-bit hash of a JSON value that is equal exactly when the values are
//! equal as serde_json's `Value` compares them (object keys in any order, the
//! last of a repeated key winning, numbers by their parsed value, strings by
//! their decoded text): the payload part of an event's de-duplication key.
//!
//! It is computed from a `Value` ([`of_value`], the reference reader) or
//! while deserializing ([`Walk`], the one-pass reader) without building one;
//! both validate what `Value` validates, and a test checks they agree.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use xxhash_rust::xxh3::xxh3_128_with_seed;

// Seeds of the hashed kinds.
const STRING: u64 = 6;
const ARRAY: u64 = 7;
const OBJECT: u64 = 8;
const ENTRY: u64 = 9;

// Scalars are encoded, not hashed: a tag in the top byte, the value below
// it, so that two scalars share an encoding exactly when they are equal.
// Only strings longer than [`PACKED`] bytes and arrays and objects are
// hashed (xxh3, 128 bits): their hashes meet an encoding with odds of about
// 2^-100. Tags: 0x80 | length for a packed string, then the kinds below.
const UNSIGNED: u128 = 0x90 << 120;
const NEGATIVE: u128 = 0xA0 << 120;
const FLOAT: u128 = 0xB0 << 120;
const BOOL: u128 = 0xC0 << 120;
const NULL: u128 = 0xD0 << 120;

/// Strings up to this many bytes are their own encoding.
const PACKED: usize = 15;

/// The first key that makes serde_json's `Value` read an object as a raw
/// value held in a string; the one-pass reader leaves such objects to the
/// reference reader.
pub(super) use crate::dialect::checked::RAW_VALUE_TOKEN;

pub(super) fn null() -> u128 {
    NULL
}

pub(super) fn boolean(b: bool) -> u128 {
    BOOL | u128::from(b)
}

pub(super) fn unsigned(u: u64) -> u128 {
    UNSIGNED | u128::from(u)
}

/// A negative integer as serde_json reads it (non-negative ones are unsigned).
pub(super) fn signed(i: i64) -> u128 {
    match u64::try_from(i) {
        Ok(u) => unsigned(u),
        Err(_) => NEGATIVE | u128::from(i as u64),
    }
}

pub(super) fn float(f: f64) -> u128 {
    FLOAT | u128::from(f.to_bits())
}

/// A string: its bytes and length when short, else its hash. A short
/// string is read as xxh3 reads one, in two loads that may overlap (so no
/// copy): given the length, they hold every byte.
pub(super) fn string(s: &str) -> u128 {
    bytes(s.as_bytes())
}

/// [`string`] of a string's UTF-8 bytes (a key the scanner did not decode).
pub(super) fn bytes(b: &[u8]) -> u128 {
    let n = b.len();
    let word = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"));
    let bits = match n {
        0 => 0,
        1..=3 => u128::from(b[0]) | u128::from(b[n / 2]) << 8 | u128::from(b[n - 1]) << 16,
        4..=7 => u128::from(half(0)) | u128::from(half(n - 4)) << 32,
        8..=PACKED => u128::from(word(0)) | u128::from(word(n - 8) >> 8) << 64,
        _ => return xxh3_128_with_seed(b, STRING),
    };
    bits | (0x80 | n as u128) << 120
}

/// 64 × 64 → 128-bit product, halves folded (wyhash's mixing step).
fn mum(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ (r >> 64) as u64
}

// Odd constants (xxh3's secret and primes) for the fold's mixing steps.
const K: [u64; 8] = [
    0xbe4b_a423_396c_feb8,
    0x1cad_21f7_2c81_017c,
    0xdb97_9083_e96d_d4de,
    0x1f67_b3b7_a4a4_4072,
    0x78e5_c0cc_4ee6_79cb,
    0x2172_ffcc_7dd0_5a82,
    0x9E37_79B1_85EB_CA87,
    0xC2B2_AE3D_27D4_EB4F,
];

/// Hashes (a, b) pairs in order: each pair is mixed into a 128-bit state
/// with two multiplications (no hash call per pair), and the state is
/// finished with two more. Different sequences meet with odds of about
/// 2^-64 (assembly keeps 32 bits of a closed group's record keys).
pub(super) fn fold(seed: u64, pairs: &[(u128, u128)]) -> u128 {
    let (mut h0, mut h1) = (seed ^ K[0], (pairs.len() as u64) ^ K[1]);
    for &(a, b) in pairs {
        let x = mum(h0 ^ a as u64 ^ K[2], (a >> 64) as u64 ^ K[3]);
        let y = mum(h1 ^ b as u64 ^ K[4], (b >> 64) as u64 ^ K[5]);
        (h0, h1) = (x ^ y.rotate_left(29), y.wrapping_add(x.rotate_left(41)));
    }
    let lo = mum(h0 ^ K[6], h1 ^ K[7]);
    let hi = mum(h1 ^ K[0], lo ^ K[3]);
    u128::from(lo) | u128::from(hi) << 64
}

/// An array of element hashes, in order.
fn array(items: &[(u128, u128)]) -> u128 {
    fold(ARRAY, items)
}

/// An object of (key hash, value hash) entries in input order, the last of
/// equal keys kept: each entry is mixed alone and the mixes are summed, so
/// key order does not matter and nothing is sorted. A repeated key is
/// looked for pairwise in a small object (events' objects are small), by
/// sorting in a larger one, and only then are the entries sorted to drop
/// the earlier ones.
fn object(entries: &mut [(u128, u128)]) -> u128 {
    let n = entries.len();
    // A key repeats only where two keys share a bit of this mask (a key's
    // hash picks one of 64): only then are the keys compared pairwise.
    let mut bits = 0u64;
    let mut shared = false;
    for e in entries.iter() {
        let x = (e.0 as u64 ^ (e.0 >> 64) as u64).wrapping_mul(K[6]);
        let bit = 1u64 << (x >> 58);
        shared |= bits & bit != 0;
        bits |= bit;
    }
    let repeats =
        shared && (n > 16 || (1..n).any(|i| entries[..i].iter().any(|e| e.0 == entries[i].0)));
    let kept = if repeats {
        // A stable sort keeps equal keys in input order: the last one stays.
        entries.sort_by_key(|e| e.0);
        let mut kept = 0;
        for i in 0..n {
            if entries.get(i + 1).is_none_or(|next| next.0 != entries[i].0) {
                entries[kept] = entries[i];
                kept += 1;
            }
        }
        kept
    } else {
        n
    };
    let (mut lo, mut hi) = (0u64, 0u64);
    for e in &entries[..kept] {
        let m = fold(ENTRY, std::slice::from_ref(e));
        lo = lo.wrapping_add(m as u64);
        hi = hi.wrapping_add((m >> 64) as u64);
    }
    fold(
        OBJECT,
        &[(u128::from(lo) | u128::from(hi) << 64, kept as u128)],
    )
}

/// The array whose element hashes are `scratch[mark..]` (as `(hash, 0)`),
/// which it then drops.
pub(super) fn array_of(scratch: &mut Vec<(u128, u128)>, mark: usize) -> u128 {
    let h = array(&scratch[mark..]);
    scratch.truncate(mark);
    h
}

/// The object whose (key hash, value hash) entries are `scratch[mark..]`,
/// which it then drops.
pub(super) fn object_of(scratch: &mut Vec<(u128, u128)>, mark: usize) -> u128 {
    let h = object(&mut scratch[mark..]);
    scratch.truncate(mark);
    h
}

/// The hash of a `Value`.
pub(super) fn of_value(v: &Value) -> u128 {
    match v {
        Value::Null => null(),
        Value::Bool(b) => boolean(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => unsigned(u),
            (None, Some(i)) => signed(i),
            (None, None) => float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => string(s),
        Value::Array(a) => {
            let items: Vec<(u128, u128)> = a.iter().map(|e| (of_value(e), 0)).collect();
            array(&items)
        }
        Value::Object(m) => {
            let mut entries: Vec<(u128, u128)> =
                m.iter().map(|(k, v)| (string(k), of_value(v))).collect();
            object(&mut entries)
        }
    }
}

/// Deserializes any value as `Value` would (same validation, same errors)
/// and gives its hash. `scratch` holds the entries of the enclosing arrays
/// and objects, so nesting costs no allocation once it has grown.
pub(super) struct Walk<'s> {
    pub scratch: &'s mut Vec<(u128, u128)>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = u128;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u128, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = u128;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<u128, E> {
        Ok(boolean(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<u128, E> {
        Ok(signed(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<u128, E> {
        Ok(unsigned(u))
    }
    fn visit_f64<E>(self, f: f64) -> Result<u128, E> {
        Ok(float(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<u128, E> {
        Ok(string(s))
    }
    fn visit_unit<E>(self) -> Result<u128, E> {
        Ok(null())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u128, A::Error> {
        let mark = self.scratch.len();
        while let Some(h) = seq.next_element_seed(Walk {
            scratch: &mut *self.scratch,
        })? {
            self.scratch.push((h, 0));
        }
        Ok(array_of(self.scratch, mark))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u128, A::Error> {
        let mark = self.scratch.len();
        let mut first = true;
        while let Some(k) = map.next_key_seed(KeyHash { first })? {
            first = false;
            let v = map.next_value_seed(Walk {
                scratch: &mut *self.scratch,
            })?;
            self.scratch.push((k, v));
        }
        Ok(object_of(self.scratch, mark))
    }
}

/// An object key's hash; refuses [`RAW_VALUE_TOKEN`] as the first key.
struct KeyHash {
    first: bool,
}

impl<'de> DeserializeSeed<'de> for KeyHash {
    type Value = u128;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u128, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyHash {
    type Value = u128;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<u128, E> {
        if self.first && s == RAW_VALUE_TOKEN {
            return Err(crate::dialect::checked::bail());
        }
        Ok(string(s))
    }
}

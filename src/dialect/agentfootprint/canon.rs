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

const NULL: u64 = 1;
const BOOL: u64 = 2;
const UNSIGNED: u64 = 3;
const NEGATIVE: u64 = 4;
const FLOAT: u64 = 5;
const STRING: u64 = 6;
const ARRAY: u64 = 7;
const OBJECT: u64 = 8;

/// The first key that makes serde_json's `Value` read an object as a raw
/// value held in a string; the one-pass reader leaves such objects to the
/// reference reader.
pub(super) use crate::dialect::checked::RAW_VALUE_TOKEN;

pub(super) fn null() -> u128 {
    xxh3_128_with_seed(&[], NULL)
}

pub(super) fn boolean(b: bool) -> u128 {
    xxh3_128_with_seed(&[u8::from(b)], BOOL)
}

pub(super) fn unsigned(u: u64) -> u128 {
    xxh3_128_with_seed(&u.to_le_bytes(), UNSIGNED)
}

/// A negative integer as serde_json reads it (non-negative ones are unsigned).
pub(super) fn signed(i: i64) -> u128 {
    match u64::try_from(i) {
        Ok(u) => unsigned(u),
        Err(_) => xxh3_128_with_seed(&i.to_le_bytes(), NEGATIVE),
    }
}

pub(super) fn float(f: f64) -> u128 {
    xxh3_128_with_seed(&f.to_bits().to_le_bytes(), FLOAT)
}

pub(super) fn string(s: &str) -> u128 {
    xxh3_128_with_seed(s.as_bytes(), STRING)
}

/// Hashes pairs in order, one fixed-size one-shot hash per pair (no
/// streaming state to copy into).
pub(super) fn fold(seed: u64, pairs: impl Iterator<Item = (u128, u128)>) -> u128 {
    let mut acc = xxh3_128_with_seed(&[], seed);
    let mut buf = [0u8; 48];
    for (a, b) in pairs {
        buf[..16].copy_from_slice(&acc.to_le_bytes());
        buf[16..32].copy_from_slice(&a.to_le_bytes());
        buf[32..].copy_from_slice(&b.to_le_bytes());
        acc = xxh3_128_with_seed(&buf, seed);
    }
    acc
}

/// An array of element hashes, in order.
fn array(items: &[(u128, u128)]) -> u128 {
    fold(ARRAY, items.iter().copied())
}

/// An object of (key hash, value hash) entries in input order: sorted by
/// key, the last of equal keys kept.
fn object(entries: &mut [(u128, u128)]) -> u128 {
    entries.sort_by_key(|e| e.0);
    let kept = entries
        .iter()
        .enumerate()
        .filter(|&(i, (k, _))| entries.get(i + 1).is_none_or(|next| next.0 != *k))
        .map(|(_, e)| *e);
    fold(OBJECT, kept)
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
        let h = array(&self.scratch[mark..]);
        self.scratch.truncate(mark);
        Ok(h)
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

//! The head of a source as the span formats tell each other apart by it:
//! worked out once per source ([`crate::dialect::First::span_head`]), then
//! asked by each span format's `claims`, in [`crate::dialect::DIALECTS`]
//! order.

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// How far into an array, or into a first line cut by the block, the
/// formats look for their keys.
const LOOK: usize = 64 * 1024;

/// A source's first JSON value, as far as the span formats look at it.
pub struct Head<'a> {
    /// The source starts with `[`.
    array: bool,
    /// The top-level keys of the first line whose values are not null,
    /// when that line is one whole object.
    keys: Option<HashSet<String>>,
    /// The first line, or in an array its first 64 KiB.
    line: &'a [u8],
    /// The first 64 KiB from the first `[` or `{`.
    block: &'a [u8],
    /// The first key of the object, when it has no escapes.
    first_key: Option<&'a [u8]>,
}

impl<'a> Head<'a> {
    /// The head of a first block; None when no span format may claim it:
    /// not JSON, a native turn line (`turn_id`), or an event (`type` first).
    pub fn of(first_block: &'a [u8]) -> Option<Head<'a>> {
        let data = first_block
            .strip_prefix(b"\xEF\xBB\xBF")
            .unwrap_or(first_block);
        let start = data.iter().position(|b| !b.is_ascii_whitespace())?;
        let rest = &data[start..];
        let block = &rest[..rest.len().min(LOOK)];
        match rest[0] {
            b'[' => Some(Head {
                array: true,
                keys: None,
                line: block,
                block,
                first_key: None,
            }),
            b'{' => {
                let line = memchr::memchr(b'\n', rest).map_or(rest, |e| &rest[..e]);
                let keys = keys_of(line);
                let first_key = first_key(rest);
                let native = match &keys {
                    Some(keys) => keys.contains("turn_id"),
                    None => matches!(first_key, Some(b"turn_id" | b"type") | None),
                };
                (!native).then_some(Head {
                    array: false,
                    keys,
                    line,
                    block,
                    first_key,
                })
            }
            _ => None,
        }
    }

    /// The source is a JSON array.
    pub fn is_array(&self) -> bool {
        self.array
    }

    /// The first line is one whole object: its top-level keys are known.
    pub fn is_whole(&self) -> bool {
        self.keys.is_some()
    }

    /// The whole first object has `key`, not null.
    pub fn has(&self, key: &str) -> bool {
        self.keys.as_ref().is_some_and(|keys| keys.contains(key))
    }

    /// The first key of an object whose first line is cut (or pretty-printed).
    pub fn first_key(&self) -> Option<&[u8]> {
        self.first_key
    }

    /// The first line (the first 64 KiB of an array) holds `needle`.
    pub fn line_holds(&self, needle: &[u8]) -> bool {
        contains(self.line, needle)
    }

    /// The first 64 KiB hold `needle`.
    pub fn block_holds(&self, needle: &[u8]) -> bool {
        contains(self.block, needle)
    }

    /// The first line (or the array's first 64 KiB) holds every one of
    /// `needles`.
    pub fn line_holds_all(&self, needles: &[&[u8]]) -> bool {
        needles.iter().all(|n| self.line_holds(n))
    }

    /// The first line, or the first 64 KiB of an array.
    pub fn line(&self) -> &[u8] {
        self.line
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(hay, needle).is_some()
}

/// The first key of the object starting at `data[0]` (`{`), when it has no escapes.
pub(super) fn first_key(data: &[u8]) -> Option<&[u8]> {
    let mut i = 1;
    while i < data.len() && data[i].is_ascii_whitespace() {
        i += 1;
    }
    if data.get(i) != Some(&b'"') {
        return None;
    }
    let body = &data[i + 1..];
    let end = memchr::memchr2(b'"', b'\\', body)?;
    (body[end] == b'"').then(|| &body[..end])
}

/// The top-level keys of `line` whose values are not null, when it is one
/// whole JSON object.
fn keys_of(line: &[u8]) -> Option<HashSet<String>> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let keys = de.deserialize_map(Keys).ok()?;
    de.end().ok()?;
    Some(keys)
}

struct Keys;

impl<'de> Visitor<'de> for Keys {
    type Value = HashSet<String>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HashSet<String>, A::Error> {
        let mut keys = HashSet::new();
        while let Some(k) = map.next_key::<String>()? {
            if map.next_value::<Option<IgnoredAny>>()?.is_some() {
                keys.insert(k);
            }
        }
        Ok(keys)
    }
}

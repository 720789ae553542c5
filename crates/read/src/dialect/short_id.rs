//! An id kept inline when short: a record's group id (a run id, a trace
//! id), an event's session id. Every record carries its group's id from the
//! worker thread that read it to the merging thread that groups it; as a
//! `String` that was an allocation on one thread and a free on the other per
//! record. Ids up to [`INLINE`] bytes (a 32-digit hex trace id, an
//! agentfootprint run or session id) are stored in the value itself; longer
//! ones on the heap. Equality and hashing go by the bytes, so the two forms
//! never disagree (an id has only one form: its length picks it).

use std::fmt;
use std::hash::{Hash, Hasher};

/// The longest id stored inline: the value is then 40 bytes, a `String`'s 24
/// plus 16, and holds a 32-digit trace id with room to spare.
pub const INLINE: usize = 38;

/// An id: text, inline up to [`INLINE`] bytes.
#[derive(Clone)]
pub struct ShortId(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl ShortId {
    /// The id `s`, copied (inline when it fits).
    pub fn new(s: &str) -> Self {
        match Self::inline(s) {
            Some(id) => id,
            None => ShortId(Repr::Heap(s.into())),
        }
    }

    fn inline(s: &str) -> Option<Self> {
        let len = s.len();
        if len > INLINE {
            return None;
        }
        let mut bytes = [0; INLINE];
        bytes[..len].copy_from_slice(s.as_bytes());
        Some(ShortId(Repr::Inline {
            len: len as u8,
            bytes,
        }))
    }

    /// The id's bytes (UTF-8).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Repr::Heap(s) => s.as_bytes(),
        }
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Always valid: the bytes were copied from a `&str`, whole.
            Repr::Inline { .. } => {
                std::str::from_utf8(self.as_bytes()).expect("a group id is UTF-8")
            }
            Repr::Heap(s) => s,
        }
    }

    /// True when the id is stored in the value (no allocation).
    pub fn is_inline(&self) -> bool {
        matches!(self.0, Repr::Inline { .. })
    }
}

impl Default for ShortId {
    fn default() -> Self {
        ShortId::new("")
    }
}

impl From<&str> for ShortId {
    fn from(s: &str) -> Self {
        ShortId::new(s)
    }
}

/// Keeps a long string's buffer rather than copying it.
impl From<String> for ShortId {
    fn from(s: String) -> Self {
        match Self::inline(&s) {
            Some(id) => id,
            None => ShortId(Repr::Heap(s.into_boxed_str())),
        }
    }
}

impl std::ops::Deref for ShortId {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for ShortId {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for ShortId {}

impl PartialEq<str> for ShortId {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for ShortId {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<String> for ShortId {
    fn eq(&self, other: &String) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

/// Orders as the `str` it holds (byte order).
impl Ord for ShortId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl PartialOrd for ShortId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Hashes as the `str` it holds, so a map keyed by ids can be looked up
/// with a `&str` through [`std::borrow::Borrow`].
impl Hash for ShortId {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl std::borrow::Borrow<str> for ShortId {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

/// Written as the text it holds.
impl serde::Serialize for ShortId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl fmt::Debug for ShortId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for ShortId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::hash::BuildHasher;

    fn of_len(n: usize) -> String {
        "0123456789abcdef".chars().cycle().take(n).collect()
    }

    #[test]
    fn inline_up_to_the_limit_heap_past_it() {
        for n in [0, 1, 32, INLINE - 1, INLINE] {
            let s = of_len(n);
            let id = ShortId::new(&s);
            assert!(id.is_inline(), "{n} bytes");
            assert_eq!(id.as_str(), s);
            assert_eq!(ShortId::from(s.clone()).as_str(), s);
        }
        for n in [INLINE + 1, INLINE + 2, 200] {
            let s = of_len(n);
            let id = ShortId::new(&s);
            assert!(!id.is_inline(), "{n} bytes");
            assert_eq!(id.as_str(), s);
            let from_string = ShortId::from(s.clone());
            assert!(!from_string.is_inline());
            assert_eq!(from_string.as_str(), s);
        }
    }

    #[test]
    fn the_value_is_small() {
        assert_eq!(std::mem::size_of::<ShortId>(), 40);
    }

    #[test]
    fn multibyte_text_round_trips() {
        // 'é' is two bytes: 19 of them fill the inline space exactly.
        let s = "é".repeat(INLINE / 2);
        assert_eq!(s.len(), INLINE);
        let id = ShortId::new(&s);
        assert!(id.is_inline());
        assert_eq!(&*id, s);
        let long = format!("{s}é");
        assert!(!ShortId::new(&long).is_inline());
        assert_eq!(ShortId::new(&long).as_str(), long);
    }

    #[test]
    fn equality_goes_by_the_text() {
        let a = ShortId::new("run-1");
        assert_eq!(a, ShortId::from(String::from("run-1")));
        assert_ne!(a, ShortId::new("run-2"));
        // A prefix differs: the stored length counts, not the zero padding.
        assert_ne!(a, ShortId::new("run-"));
        assert_ne!(ShortId::new(""), ShortId::new("\0"));
        assert_eq!(a, "run-1");
        assert_eq!(ShortId::default(), "");
        let long = of_len(INLINE + 5);
        assert_eq!(ShortId::new(&long), ShortId::from(long.clone()));
        assert_ne!(ShortId::new(&long), ShortId::new(&long[..INLINE]));
    }

    #[test]
    fn hashes_as_its_text_in_both_forms() {
        let state = std::collections::hash_map::RandomState::new();
        for n in [0, 5, INLINE, INLINE + 1, 90] {
            let s = of_len(n);
            assert_eq!(
                state.hash_one(ShortId::new(&s)),
                state.hash_one(s.as_str()),
                "{n} bytes"
            );
        }
        let set: HashSet<ShortId> = [of_len(3), of_len(INLINE), of_len(INLINE + 1)]
            .into_iter()
            .map(ShortId::from)
            .collect();
        assert!(set.contains(of_len(INLINE + 1).as_str()));
        assert!(set.contains(of_len(3).as_str()));
        assert!(!set.contains(of_len(4).as_str()));
    }

    #[test]
    fn orders_as_its_text() {
        let texts = [
            "",
            "a",
            "ab",
            "b",
            "é",
            &of_len(INLINE),
            &of_len(INLINE + 1),
            &of_len(60),
        ];
        for x in texts {
            for y in texts {
                assert_eq!(
                    ShortId::new(x).cmp(&ShortId::new(y)),
                    x.cmp(y),
                    "{x:?} {y:?}"
                );
            }
        }
        assert_eq!(ShortId::new("abc"), String::from("abc"));
    }

    #[test]
    fn shows_as_its_text() {
        let id = ShortId::new("trace \"x\"");
        assert_eq!(format!("{id}"), "trace \"x\"");
        assert_eq!(format!("{id:?}"), "\"trace \\\"x\\\"\"");
        assert_eq!(
            serde_json::to_string(&ShortId::new(&of_len(INLINE + 3))).unwrap(),
            format!("\"{}\"", of_len(INLINE + 3))
        );
        assert_eq!(
            serde_json::json!({"id": id}),
            serde_json::json!({"id": "trace \"x\""})
        );
    }
}

//! Attribute values: the small borrowed [`Val`] tree every format decodes
//! into, the id and string helpers the format readers deserialize with, and
//! the flattening of nested values into dotted keys.

use super::names::json_valued;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// Deepest nesting flattened; deeper parts of a value are ignored.
const MAX_DEPTH: u32 = 12;
/// Longest flattened key; longer paths are ignored.
const MAX_KEY: usize = 512;
/// Highest list index read (documents, messages): the nine digits an index
/// is read from allow up to 999,999,999, more documents than a trace can
/// hold in memory, so every document a real trace records is read.
pub(super) const MAX_INDEX: u32 = 999_999_999;

/// A decoded attribute value, borrowing from the input where it can.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::dialect::spans) enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(Cow<'a, str>),
    List(Vec<Val<'a>>),
    Map(Vec<(Cow<'a, str>, Val<'a>)>),
}

impl Val<'_> {
    pub(in crate::dialect::spans) fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A number, or a string holding one (some exporters stringify).
    pub(in crate::dialect::spans) fn as_f64(&self) -> Option<f64> {
        let f = match self {
            Val::Int(i) => *i as f64,
            Val::UInt(u) => *u as f64,
            Val::Float(f) => *f,
            Val::Str(s) => s.trim().parse::<f64>().ok()?,
            _ => return None,
        };
        f.is_finite().then_some(f)
    }

    /// A non-negative whole number (`32`, `32.0`, `"32"`).
    pub(in crate::dialect::spans) fn as_u64(&self) -> Option<u64> {
        match self {
            Val::Int(i) => u64::try_from(*i).ok(),
            Val::UInt(u) => Some(*u),
            Val::Float(_) | Val::Str(_) => {
                if let Val::Str(s) = self
                    && let Ok(u) = s.trim().parse::<u64>()
                {
                    return Some(u);
                }
                let f = self.as_f64()?;
                (f >= 0.0 && f.fract() == 0.0 && f < 1.8e19).then_some(f as u64)
            }
            _ => None,
        }
    }

    /// An identifier: a string, or an integer written as text.
    pub(in crate::dialect::spans) fn as_id(&self) -> Option<String> {
        match self {
            Val::Str(s) if !s.is_empty() => Some(s.to_string()),
            Val::Int(i) => Some(i.to_string()),
            Val::UInt(u) => Some(u.to_string()),
            _ => None,
        }
    }
}

impl Val<'_> {
    /// The value as recorded, as text: a string as it is, anything else as
    /// its JSON text (a structured attribute: a tool's arguments written as
    /// a map rather than a JSON string).
    pub(in crate::dialect::spans) fn recorded_text(&self) -> String {
        match self {
            Val::Str(s) => s.to_string(),
            other => other.to_json().to_string(),
        }
    }

    /// The value as JSON.
    pub(in crate::dialect::spans) fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => Value::Bool(*b),
            Val::Int(i) => Value::from(*i),
            Val::UInt(u) => Value::from(*u),
            Val::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Val::Str(s) => Value::String(s.to_string()),
            Val::List(items) => Value::Array(items.iter().map(Val::to_json).collect()),
            Val::Map(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_json()))
                    .collect(),
            ),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Val<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValVisitor(std::marker::PhantomData))
    }
}

struct ValVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for ValVisitor<'a> {
    type Value = Val<'a>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Val<'a>, E> {
        Ok(Val::Null)
    }
    fn visit_none<E>(self) -> Result<Val<'a>, E> {
        Ok(Val::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Val<'a>, D::Error> {
        Val::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Val<'a>, E> {
        Ok(Val::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Val<'a>, E> {
        Ok(Val::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Val<'a>, E> {
        Ok(Val::UInt(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Val<'a>, E> {
        Ok(Val::Float(v))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Val<'a>, E> {
        Ok(Val::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Val<'a>, E> {
        Ok(Val::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Val<'a>, E> {
        Ok(Val::Str(Cow::Owned(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val<'a>, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<Val<'a>>()? {
            out.push(v);
        }
        Ok(Val::List(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val<'a>, A::Error> {
        let mut out = Vec::new();
        while let Some(k) = map.next_key::<BStr<'a>>()? {
            out.push((k.0, map.next_value::<Val<'a>>()?));
        }
        Ok(Val::Map(out))
    }
}

/// A string that borrows from the input when it has no escapes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::dialect::spans) struct BStr<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for BStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = BStr<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<BStr<'a>, E> {
                Ok(BStr(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<BStr<'a>, E> {
                Ok(BStr(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<BStr<'a>, E> {
                Ok(BStr(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

/// A string, or an integer kept as its text (ids written as numbers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::dialect::spans) struct IdIn<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for IdIn<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = IdIn<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an id string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Owned(v.to_owned())))
            }
            fn visit_u64<E>(self, v: u64) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Owned(v.to_string())))
            }
            fn visit_i64<E>(self, v: i64) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// Calls `f` for every leaf of `v` under its dotted key: maps and lists of
/// maps are walked, JSON-in-a-string values of [`json_valued`] keys are
/// parsed and walked, empty lists and lists of scalars are leaves.
pub(super) fn flatten(key: &str, v: &Val<'_>, f: &mut dyn FnMut(&str, &Val<'_>)) {
    // A scalar is its own leaf: no key to build (most attributes).
    let nested = match v {
        Val::Map(_) | Val::List(_) => true,
        // The value's first byte first: most strings are not JSON.
        Val::Str(s) => looks_like_json(s) && json_valued(key),
        _ => false,
    };
    if !nested {
        if key.len() <= MAX_KEY {
            f(key, v);
        }
        return;
    }
    let mut k = String::with_capacity(key.len() + 32);
    k.push_str(key);
    walk(&mut k, v, 0, f);
}

fn walk(key: &mut String, v: &Val<'_>, depth: u32, f: &mut dyn FnMut(&str, &Val<'_>)) {
    if depth > MAX_DEPTH || key.len() > MAX_KEY {
        return;
    }
    match v {
        Val::Map(entries) => {
            for (k, sub) in entries {
                let len = key.len();
                key.push('.');
                key.push_str(k);
                walk(key, sub, depth + 1, f);
                key.truncate(len);
            }
        }
        Val::List(items)
            if items
                .iter()
                .any(|i| matches!(i, Val::Map(_) | Val::List(_))) =>
        {
            for (i, sub) in items.iter().enumerate() {
                let len = key.len();
                key.push('.');
                key.push_str(itoa::Buffer::new().format(i));
                walk(key, sub, depth + 1, f);
                key.truncate(len);
            }
        }
        Val::Str(s) if json_valued(key) && looks_like_json(s) => {
            match serde_json::from_str::<Val<'_>>(s) {
                Ok(parsed) => walk(key, &parsed, depth + 1, f),
                Err(_) => f(key, v),
            }
        }
        _ => f(key, v),
    }
}

pub(super) fn looks_like_json(s: &str) -> bool {
    match s.as_bytes().first() {
        Some(b'{' | b'[') => true,
        // An ASCII character that `trim_start` keeps (a vertical tab it
        // does not) starts the trimmed text too: most values are decided by
        // their first byte, without a trim.
        Some(&c) if c.is_ascii() && !char::from(c).is_whitespace() => false,
        None => false,
        _ => matches!(s.trim_start().as_bytes().first(), Some(b'{' | b'[')),
    }
}

/// Splits `"12.rest"` into `(12, "rest")` (`"12"` gives `(12, "")`).
/// At most nine digits, then the end or a dot (read in one pass: this runs
/// for every document and message leaf).
pub(super) fn split_index(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    let mut i = 0u32;
    let mut n = 0;
    while let Some(&d) = b.get(n).filter(|d| d.is_ascii_digit()) {
        if n == 9 {
            return None;
        }
        i = i * 10 + u32::from(d - b'0');
        n += 1;
    }
    let rest = match b.get(n) {
        _ if n == 0 => return None,
        None => "",
        Some(b'.') => &s[n + 1..],
        Some(_) => return None,
    };
    (i <= MAX_INDEX).then_some((i, rest))
}

#[cfg(test)]
mod tests {
    use super::{MAX_INDEX, looks_like_json, split_index};

    /// The first byte decides only where `trim_start` would keep it: every
    /// ASCII character and a few Unicode spaces first, then `{` or `[` or not.
    #[test]
    fn json_is_told_by_the_first_character_trim_start_keeps() {
        let firsts: Vec<String> = (0u8..128)
            .map(|b| char::from(b).to_string())
            .chain(["\u{85}", "\u{a0}", "\u{2003}", "\u{3000}", "é", "\u{feff}"].map(String::from))
            .collect();
        for first in &firsts {
            for second in ["", "{", "[", " {", "\u{a0}[", "x", "\u{b}{"] {
                let s = format!("{first}{second}");
                let by_trim = matches!(s.trim_start().as_bytes().first(), Some(b'{' | b'['));
                assert_eq!(looks_like_json(&s), by_trim, "{s:?}");
            }
        }
    }

    /// What [`split_index`] must keep meaning: the text before the first
    /// dot, one to nine ASCII digits, parsed; then the rest after the dot.
    fn split_index_by_parts(s: &str) -> Option<(u32, &str)> {
        let end = s.find('.').unwrap_or(s.len());
        let (digits, rest) = s.split_at(end);
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let i: u32 = digits.parse().ok()?;
        (i <= MAX_INDEX).then_some((i, rest.strip_prefix('.').unwrap_or(rest)))
    }

    #[test]
    fn an_index_is_read_as_its_digits_up_to_the_dot() {
        let alphabet = ["0", "1", "9", ".", "a", "é", " "];
        let mut texts = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            let next: Vec<String> = last
                .iter()
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(next.iter().cloned());
            last = next;
        }
        for n in [
            "100000",
            "100001",
            "99999",
            "123456789",
            "1234567890",
            "0000000001",
        ] {
            texts.push(n.to_string());
            texts.push(format!("{n}.document.id"));
        }
        let mut read = 0;
        for t in &texts {
            assert_eq!(split_index(t), split_index_by_parts(t), "{t:?}");
            read += usize::from(split_index(t).is_some());
        }
        assert!(read > 1000, "{read} of {}", texts.len());
    }
}

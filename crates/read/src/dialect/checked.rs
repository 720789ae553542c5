//! A JSON value checked exactly as `serde_json::Value` checks it (numbers
//! in range, escapes and surrogates decoded, the same nesting limit) and
//! dropped without being built: how the one-pass readers (agentfootprint
//! events, LangSmith and Langfuse rows) pass over the members they do not
//! read. `Value` treats an object whose first key is [`RAW_VALUE_TOKEN`] as
//! a raw value held in a string; [`Check`] refuses such an object instead
//! (an error whose text is [`LEFT_TO_REFERENCE`]), and its caller reads the
//! input again with `Value`, so what is accepted and every error message stay
//! `Value`'s own.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;

/// The key serde_json's `Value` reads as a raw value held in a string.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The error text of a value a one-pass reader leaves to `Value`.
pub(crate) const LEFT_TO_REFERENCE: &str = "left to the reference reader";

/// The error of a value left to `Value`.
pub(crate) fn bail<E: de::Error>() -> E {
    E::custom(LEFT_TO_REFERENCE)
}

/// An object key, borrowed when it has no escape; refuses
/// [`RAW_VALUE_TOKEN`] as an object's first key where `Value` treats it
/// specially.
pub(crate) struct Key {
    pub(crate) first: bool,
}

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
        if self.first && s == RAW_VALUE_TOKEN {
            return Err(bail());
        }
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        if self.first && s == RAW_VALUE_TOKEN {
            return Err(bail());
        }
        Ok(Cow::Owned(s.to_owned()))
    }
}

/// Any value, checked as `Value` would read it, and dropped.
pub(crate) struct Check;

impl<'de> DeserializeSeed<'de> for Check {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Check)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut first = true;
        while map.next_key_seed(Key { first })?.is_some() {
            first = false;
            map.next_value_seed(Check)?;
        }
        Ok(())
    }
}

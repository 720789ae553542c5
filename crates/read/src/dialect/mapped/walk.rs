//! The reference reader of a mapped line: serde_json's visitors follow the
//! trie through the line. It reads every line the cursor ([`super::scan`])
//! is not sure of, and words every error.

use super::{
    CHUNK_FIELDS, Caps, Elements, Leaf, Mapped, N_CHUNK, Node, Raw, TOOL_FIELDS, TURN_FIELDS,
};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

impl Mapped {
    /// One pass over `line` with serde_json; the reason when it is not a
    /// JSON object.
    pub(super) fn walk<'a>(&self, line: &'a str) -> Result<Caps<'a>, String> {
        if line.bytes().find(|b| !b.is_ascii_whitespace()) != Some(b'{') {
            let reason = if serde_json::from_str::<IgnoredAny>(line).is_ok() {
                "not a JSON object"
            } else {
                "not valid JSON"
            };
            return Err(reason.to_owned());
        }
        let mut caps = Caps::default();
        let mut de = serde_json::Deserializer::from_str(line);
        Walk {
            node: &self.top,
            dialect: self,
            caps: &mut caps,
        }
        .deserialize(&mut de)
        .and_then(|()| de.end())
        .map_err(reason)?;
        Ok(caps)
    }

    /// The fields of one element of a `json:` or `keyed:` chunks container,
    /// found with the chunk trie, and whether it is an object.
    pub(super) fn element_fields<'a>(
        &self,
        element: &'a str,
    ) -> Result<(bool, [Option<Raw<'a>>; N_CHUNK]), String> {
        let mut fields = [None; N_CHUNK];
        let mut de = serde_json::Deserializer::from_str(element);
        let is_object = Element {
            node: &self.chunk,
            fields: &mut fields,
            names: &CHUNK_FIELDS,
        }
        .deserialize(&mut de)
        .map_err(reason)?;
        Ok((is_object, fields))
    }
}

/// The reason of a line serde_json did not read: a field met twice, or
/// what is not valid JSON (without serde_json's position).
fn reason(e: serde_json::Error) -> String {
    let what = e.to_string();
    let what = what.rsplit_once(" at line ").map_or(&*what, |(b, _)| b);
    if what.starts_with(DUPLICATE) {
        crate::dialect::redact_reason(what)
    } else {
        crate::dialect::redact_reason(&format!("not valid JSON: {what}"))
    }
}

/// How a line that holds a mapped field twice is refused, as the native
/// reader refuses a repeated key: which of the two was meant is unknowable.
const DUPLICATE: &str = "duplicate field";

/// The error of a mapped field met a second time.
fn duplicate<E: de::Error>(name: &str) -> E {
    E::custom(format!("{DUPLICATE} `{name}`"))
}

/// Follows the trie through one JSON value.
struct Walk<'n, 'c, 'a> {
    node: &'n Node,
    dialect: &'n Mapped,
    caps: &'c mut Caps<'a>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// An object key, borrowed unless it has escapes.
pub(super) struct Key<'a>(pub(super) Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// The value at a trie node: kept raw, a chunks or tools array walked, or
/// followed deeper.
struct AtNode<'n, 'c, 'a> {
    node: &'n Node,
    dialect: &'n Mapped,
    caps: &'c mut Caps<'a>,
}

impl<'de> DeserializeSeed<'de> for AtNode<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        match &self.node.leaf {
            Some(Leaf::Raw(slot)) => {
                if self.caps.top[*slot].is_some() {
                    return Err(duplicate(TURN_FIELDS[*slot].0));
                }
                let raw = <&'de RawValue as de::Deserialize>::deserialize(d)?;
                self.caps.top[*slot] = Some(Raw::unknown(raw.get()));
            }
            Some(Leaf::Chunks) if self.caps.chunks.is_some() => return Err(duplicate("chunks")),
            Some(Leaf::Tools) if self.caps.tools.is_some() => return Err(duplicate("tools")),
            Some(Leaf::Chunks) => d.deserialize_any(Each {
                out: Elements::new(self.dialect, false),
                caps: self.caps,
            })?,
            Some(Leaf::Tools) => d.deserialize_any(Each {
                out: Elements::new(self.dialect, true),
                caps: self.caps,
            })?,
            None => d.deserialize_any(Walk {
                node: self.node,
                dialect: self.dialect,
                caps: self.caps,
            })?,
        }
        Ok(())
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match self.node.child(key.0.as_bytes()) {
                Some(node) => map.next_value_seed(AtNode {
                    node,
                    dialect: self.dialect,
                    caps: self.caps,
                })?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let found = match self.node.at_index(i) {
                Some(node) => seq
                    .next_element_seed(AtNode {
                        node,
                        dialect: self.dialect,
                        caps: self.caps,
                    })?
                    .is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !found {
                return Ok(());
            }
            i += 1;
        }
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// Walks the chunks (or tools) array, each element with its own trie.
struct Each<'n, 'c, 'a> {
    out: Elements<'n, 'a>,
    caps: &'c mut Caps<'a>,
}

impl<'de> Each<'_, '_, 'de> {
    /// Not an array: `found` names it (`None`: null).
    fn not_array<E>(self, found: Option<&'static str>) -> Result<(), E> {
        self.caps.not_array(self.out.tools, found);
        Ok(())
    }
}

impl<'de> Visitor<'de> for Each<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let trie = self.out.trie();
        loop {
            let mut fields = [None; N_CHUNK];
            let Some(is_object) = seq.next_element_seed(Element {
                node: trie,
                fields: &mut fields,
                names: if self.out.tools {
                    &TOOL_FIELDS
                } else {
                    &CHUNK_FIELDS
                },
            })?
            else {
                break;
            };
            self.out.push(self.caps, is_object, fields);
        }
        self.out.finish(self.caps);
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        self.not_array(Some("an object"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.not_array(Some("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.not_array(Some("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.not_array(Some("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.not_array(Some("a number"))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.not_array(Some(super::container::text_kind(v)))
    }
    /// null: as if absent.
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.not_array(None)
    }
}

/// One element of a chunks or tools array: its mapped fields; true when it
/// was an object.
struct Element<'n, 'f, 'a> {
    node: &'n Node,
    fields: &'f mut [Option<Raw<'a>>; N_CHUNK],
    /// The element's field names, for a duplicate's message.
    names: &'static [(&'static str, &'static str)],
}

impl<'de> DeserializeSeed<'de> for Element<'_, '_, 'de> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

/// The value of an element's field at a trie node: kept raw, or followed.
struct Field<'n, 'f, 'a> {
    node: &'n Node,
    fields: &'f mut [Option<Raw<'a>>; N_CHUNK],
    names: &'static [(&'static str, &'static str)],
}

impl<'de> DeserializeSeed<'de> for Field<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        match self.node.leaf {
            Some(Leaf::Raw(slot)) => {
                if self.fields[slot].is_some() {
                    return Err(duplicate(self.names[slot].0));
                }
                let raw = <&'de RawValue as de::Deserialize>::deserialize(d)?;
                self.fields[slot] = Some(Raw::unknown(raw.get()));
            }
            _ => {
                d.deserialize_any(Element {
                    node: self.node,
                    fields: self.fields,
                    names: self.names,
                })?;
            }
        }
        Ok(())
    }
}

impl<'de> Visitor<'de> for Element<'_, '_, 'de> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match self.node.child(key.0.as_bytes()) {
                Some(node) => map.next_value_seed(Field {
                    node,
                    fields: self.fields,
                    names: self.names,
                })?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(true)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let mut i = 0;
        loop {
            let more = match self.node.at_index(i) {
                Some(node) => seq
                    .next_element_seed(Field {
                        node,
                        fields: self.fields,
                        names: self.names,
                    })?
                    .is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(false);
            }
            i += 1;
        }
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
}

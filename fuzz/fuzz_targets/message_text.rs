//! Fuzz target: the message-text finder, the one place every reader asks
//! for the text of a reply (plain text, or JSON in any provider's or
//! framework's message shape).
//!
//! Beyond "no panic" it checks: a text found is never blank, and text read
//! from a JSON value is one of the value's strings or made of them (parts
//! joined), never invented.

#![no_main]

use grounding_audit::dialect::spans::message_text;
use libfuzzer_sys::fuzz_target;

/// Every string value in a JSON text, keys excluded, duplicate keys kept
/// (a `serde_json::Value` keeps only the last of them; the finder may read
/// the first).
struct Strings(Vec<String>);

impl<'de> serde::Deserialize<'de> for Strings {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Strings;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_str<E>(self, v: &str) -> Result<Strings, E> {
                Ok(Strings(vec![v.to_owned()]))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Strings, E> {
                Ok(Strings(Vec::new()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Strings, E> {
                Ok(Strings(Vec::new()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Strings, E> {
                Ok(Strings(Vec::new()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Strings, E> {
                Ok(Strings(Vec::new()))
            }
            fn visit_unit<E>(self) -> Result<Strings, E> {
                Ok(Strings(Vec::new()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Strings, A::Error> {
                let mut out = Vec::new();
                while let Some(Strings(s)) = a.next_element()? {
                    out.extend(s);
                }
                Ok(Strings(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Strings, A::Error> {
                let mut out = Vec::new();
                while m.next_key::<IgnoredAny>()?.is_some() {
                    out.extend(m.next_value::<Strings>()?.0);
                }
                Ok(Strings(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// Every string in a JSON text, and in the JSON written into its strings
/// (which the finder decodes too).
fn strings(s: &str, depth: u32, out: &mut Vec<String>) {
    let Ok(Strings(found)) = serde_json::from_str::<Strings>(s) else {
        return;
    };
    for f in found {
        if depth < 4 {
            strings(&f, depth + 1, out);
        }
        out.push(f);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (from_attr, from_value) = message_text(s);
    for t in [&from_attr, &from_value].into_iter().flatten() {
        assert!(!t.trim().is_empty(), "a blank text was found");
    }
    // JSON text: what is found is its own text, or built from its strings.
    if let Ok(v @ (serde_json::Value::Object(_) | serde_json::Value::Array(_))) =
        serde_json::from_str::<serde_json::Value>(s)
    {
        let _ = v;
        let mut all = Vec::new();
        strings(s, 0, &mut all);
        for t in [&from_attr, &from_value].into_iter().flatten() {
            let made_of = all
                .iter()
                .any(|x| x.contains(t.as_str()) || t.contains(x.as_str()));
            assert!(made_of || t == s, "text found in no string of the value");
        }
    }
});

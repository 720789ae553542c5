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

/// Every string in a JSON value, keys excluded.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
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
        let mut all = Vec::new();
        strings(&v, &mut all);
        for t in [&from_attr, &from_value].into_iter().flatten() {
            let made_of = all
                .iter()
                .any(|x| x.contains(t.as_str()) || t.contains(x.as_str()));
            assert!(made_of || t == s, "text found in no string of the value");
        }
    }
});

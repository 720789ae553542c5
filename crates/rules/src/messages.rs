//! Warnings: what the user should know about the input that does not make
//! a line invalid (an optional field of the wrong type that was dropped, and
//! later heuristics about logs that look misread).
//!
//! A warning is counted, never repeated: each kind and subject is named once,
//! with how many turns (or lines, files) it concerned. [`Warnings`] is
//! mergeable like the accumulators, and its merge is a sum over an ordered
//! map, so any split of the input and any thread count give the same counts,
//! the same order and the same bytes. Nothing here prints; the pipeline does.

use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

/// One warning with its count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Warning {
    /// What kind of warning: `dropped_field`, …
    pub kind: String,
    /// What it is about, within its kind (for `dropped_field`, the field's
    /// path). Kind and subject together are the warning's key.
    pub subject: String,
    /// How many `unit`s it concerned.
    pub count: u64,
    /// What `count` counts: `turn`, `line`, `file`.
    pub unit: String,
    /// The message, without the count: `` field `channel` is not a string; dropped ``.
    pub message: String,
}

impl Warning {
    /// The line printed on stderr: `` warning: 3 turn(s): field `channel` is not a string; dropped ``.
    pub fn line(&self) -> String {
        format!("warning: {} {}(s): {}", self.count, self.unit, self.message)
    }
}

/// Warnings counted by kind and subject.
///
/// Serialises as an array of [`Warning`]s ordered by kind, then subject.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Warnings {
    /// kind → subject → warning. Nested so that counting one more needs no
    /// allocation once a key is known.
    by_kind: BTreeMap<String, BTreeMap<String, Warning>>,
}

impl Warnings {
    /// No warnings.
    pub fn new() -> Warnings {
        Warnings::default()
    }

    /// Counts `n` more `unit`s for the warning `kind`/`subject`. The message
    /// is made only the first time the key is seen (`message` must depend on
    /// the key alone).
    pub fn add(
        &mut self,
        kind: &str,
        subject: &str,
        unit: &str,
        n: u64,
        message: impl FnOnce() -> String,
    ) {
        if n == 0 {
            return;
        }
        let subjects = match self.by_kind.get_mut(kind) {
            Some(s) => s,
            None => self.by_kind.entry(kind.to_owned()).or_default(),
        };
        match subjects.get_mut(subject) {
            Some(w) => w.count = w.count.saturating_add(n),
            None => {
                subjects.insert(
                    subject.to_owned(),
                    Warning {
                        kind: kind.to_owned(),
                        subject: subject.to_owned(),
                        count: n,
                        unit: unit.to_owned(),
                        message: message(),
                    },
                );
            }
        }
    }

    /// Adds another set's counts (for the same key, the first message stays).
    pub fn merge(&mut self, other: &Warnings) {
        for w in other.iter() {
            self.add(&w.kind, &w.subject, &w.unit, w.count, || w.message.clone());
        }
    }

    /// Keeps only the warnings whose kind satisfies `keep`.
    pub fn retain_kinds(&mut self, keep: impl Fn(&str) -> bool) {
        self.by_kind.retain(|k, _| keep(k));
    }

    /// True when nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }

    /// Every warning, ordered by kind, then subject.
    pub fn iter(&self) -> impl Iterator<Item = &Warning> {
        self.by_kind.values().flat_map(BTreeMap::values)
    }

    /// The count of one warning, 0 when it was never counted.
    pub fn count(&self, kind: &str, subject: &str) -> u64 {
        self.by_kind
            .get(kind)
            .and_then(|s| s.get(subject))
            .map_or(0, |w| w.count)
    }
}

impl Serialize for Warnings {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for w in self.iter() {
            seq.serialize_element(w)?;
        }
        seq.end()
    }
}

/// Reads what [`Serialize`] writes: the list of warnings, counted again.
impl<'de> serde::Deserialize<'de> for Warnings {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut warnings = Warnings::new();
        for w in Vec::<Warning>::deserialize(d)? {
            warnings.add(&w.kind, &w.subject, &w.unit, w.count, || w.message.clone());
        }
        Ok(warnings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dropped(w: &mut Warnings, field: &str, n: u64) {
        w.add("dropped_field", field, "turn", n, || {
            format!("field `{field}` is not a string; dropped")
        });
    }

    #[test]
    fn counts_per_key_and_names_each_once() {
        let mut w = Warnings::new();
        dropped(&mut w, "model", 1);
        dropped(&mut w, "channel", 2);
        dropped(&mut w, "channel", 1);
        assert_eq!(w.count("dropped_field", "channel"), 3);
        let lines: Vec<String> = w.iter().map(Warning::line).collect();
        assert_eq!(
            lines,
            [
                "warning: 3 turn(s): field `channel` is not a string; dropped",
                "warning: 1 turn(s): field `model` is not a string; dropped",
            ]
        );
    }

    #[test]
    fn merge_is_a_sum_whatever_the_split() {
        let mut whole = Warnings::new();
        let (mut a, mut b) = (Warnings::new(), Warnings::new());
        for (i, f) in ["channel", "model", "channel", "latency_ms"]
            .iter()
            .enumerate()
        {
            dropped(&mut whole, f, 1);
            dropped(if i < 1 { &mut a } else { &mut b }, f, 1);
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, whole);
        assert_eq!(ba, whole);
        assert!(Warnings::new().is_empty());
        dropped(&mut a, "x", 0);
        assert_eq!(a.count("dropped_field", "x"), 0);
    }

    #[test]
    fn serialises_as_an_ordered_array() {
        let mut w = Warnings::new();
        dropped(&mut w, "model", 2);
        assert_eq!(
            serde_json::to_string(&w).unwrap(),
            r#"[{"kind":"dropped_field","subject":"model","count":2,"unit":"turn","message":"field `model` is not a string; dropped"}]"#
        );
        assert_eq!(serde_json::to_string(&Warnings::new()).unwrap(), "[]");
    }
}

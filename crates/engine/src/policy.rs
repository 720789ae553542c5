//! `check --policy FILE`: gates from a TOML file, defaults plus per-agent
//! overrides. Parsing only; [`crate::gate::Gates::for_agent`] applies it.
//!
//! ```toml
//! [defaults]
//! min_rate = 0.9
//! min_turns = 20
//! confidence = 0.95
//!
//! [agents.billing-bot]
//! min_rate = 0.8
//! require_proof = true
//! ```
//!
//! Read with the `toml` crate: its errors carry the line, column and key of
//! what was refused, so an unknown or misspelt key is named with its line.

use crate::gate::{Measure, Override, TABLE, Unit};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// The rules of one table (`[defaults]` or `[agents.<id>]`): the gate
/// overrides themselves, so that a gate added to `check` is one row of the
/// gate table.
pub type Rules = Override;

/// The keys of a table that are not gates: how the gates are applied.
pub const SETTINGS: [&str; 3] = ["min_turns", "confidence", "require_proof"];

/// Checks the ranges of one table; `at` names the table in messages.
fn validate(r: &Rules, at: &str) -> Result<(), String> {
    for row in TABLE.iter().filter(|r| r.unit == Unit::Rate) {
        if let Some(x) = r.limits.rate(row.kind)
            && !(0.0..=1.0).contains(&x)
        {
            return Err(format!(
                "{at}: {} must be between 0 and 1, got {x}",
                row.kind.as_str()
            ));
        }
    }
    if let Some(c) = r.confidence
        && !(c > 0.0 && c < 1.0)
    {
        return Err(format!(
            "{at}: confidence must be strictly between 0 and 1, got {c}"
        ));
    }
    Ok(())
}

/// A key of a table: a gate of [`TABLE`] or one of [`SETTINGS`].
enum Key {
    Gate(usize),
    Setting(usize),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        let name = String::deserialize(d)?;
        if let Some(i) = TABLE.iter().position(|r| r.kind.as_str() == name) {
            return Ok(Key::Gate(i));
        }
        if let Some(i) = SETTINGS.iter().position(|s| *s == name) {
            return Ok(Key::Setting(i));
        }
        let keys: Vec<String> = TABLE
            .iter()
            .map(|r| r.kind.as_str())
            .chain(SETTINGS)
            .map(|k| format!("`{k}`"))
            .collect();
        Err(de::Error::custom(format!(
            "unknown field `{name}`, expected one of {}",
            keys.join(", ")
        )))
    }
}

impl<'de> Deserialize<'de> for Override {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Override, D::Error> {
        d.deserialize_map(RulesVisitor)
    }
}

struct RulesVisitor;

impl<'de> Visitor<'de> for RulesVisitor {
    type Value = Override;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a table of gates")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Override, A::Error> {
        let mut o = Override::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Gate(i) => {
                    let row = &TABLE[i];
                    let limit = match row.unit {
                        Unit::Count => Measure::Count(map.next_value()?),
                        Unit::Rate => Measure::Rate(map.next_value()?),
                    };
                    o.limits.set(row.kind, limit);
                }
                Key::Setting(0) => o.min_turns = Some(map.next_value()?),
                Key::Setting(1) => o.confidence = Some(map.next_value()?),
                Key::Setting(_) => o.require_proof = Some(map.next_value()?),
            }
        }
        Ok(o)
    }
}

/// A policy file.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default)]
    pub defaults: Rules,
    #[serde(default)]
    pub agents: BTreeMap<String, Rules>,
}

impl Policy {
    /// Parses a policy; the message of an error names the line and the key.
    pub fn parse(text: &str) -> Result<Policy, String> {
        let p: Policy = toml::from_str(text).map_err(|e| readable(text, &e))?;
        validate(&p.defaults, "[defaults]")?;
        for (a, r) in &p.agents {
            validate(r, &format!("[agents.{a}]"))?;
        }
        Ok(p)
    }
}

/// A TOML error as one line a person reads: `line L, column C: what`, with
/// the offending text quoted (the parser's own rendering draws a snippet
/// over several lines, which a decision line or a JUnit message cannot hold).
fn readable(text: &str, e: &toml::de::Error) -> String {
    let what = e.message().trim_end().replace('\n', "; ");
    let Some(span) = e.span() else {
        return what;
    };
    let before = &text[..span.start.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let found = text.get(span.clone()).unwrap_or("").trim();
    if found.is_empty() || found.contains('\n') {
        format!("line {line}, column {column}: {what}")
    } else {
        format!("line {line}, column {column}: {what} (at `{found}`)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::GateKind;

    #[test]
    fn defaults_and_agents() {
        let p = Policy::parse(
            "[defaults]\nmin_rate = 0.9\nmin_turns = 20\n\n[agents.billing-bot]\nmin_rate = 0.8\nrequire_proof = true\n",
        )
        .unwrap();
        assert_eq!(p.defaults.limits.rate(GateKind::MIN_RATE), Some(0.9));
        assert_eq!(p.defaults.min_turns, Some(20));
        assert_eq!(p.agents["billing-bot"].require_proof, Some(true));
    }

    #[test]
    fn unknown_keys_name_the_key_and_line() {
        let e = Policy::parse("[defaults]\nmin_rate = 0.9\nmin_rte = 0.8\n").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
        assert!(e.contains("min_rte"), "{e}");
        let e = Policy::parse("[agents.a]\nmax_orphan = 0\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("max_orphan"), "{e}");
        let e = Policy::parse("[agent.a]\n").unwrap_err();
        assert!(e.contains("line 1") && e.contains("agent"), "{e}");
        let e = Policy::parse("[defaults]\nmin_rate = 1.5\n").unwrap_err();
        assert!(e.contains("[defaults]: min_rate"), "{e}");
    }

    #[test]
    fn errors_are_one_readable_line() {
        let e = Policy::parse("[defaults]\nmin_rate = 0.9\nmax_orphns = 2\n").unwrap_err();
        assert!(!e.contains('\n') && !e.contains("\\u{a}"), "{e}");
        assert!(
            e.starts_with("line 3, column 1: unknown field `max_orphns`"),
            "{e}"
        );
        let e = Policy::parse("[defaults]\nmin_rate = 'high'\n").unwrap_err();
        assert!(e.starts_with("line 2, column 12:"), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn count_gates_per_agent() {
        let p = Policy::parse("[agents.a]\nmax_orphans = 0\nmax_unobserved_rate = 0.1\n").unwrap();
        assert_eq!(
            p.agents["a"].limits.get(GateKind::MAX_ORPHANS),
            Some(Measure::Count(0))
        );
        assert_eq!(
            p.agents["a"].limits.rate(GateKind::MAX_UNOBSERVED_RATE),
            Some(0.1)
        );
        let e = Policy::parse("[agents.a]\nmax_unobserved_rate = 2\n").unwrap_err();
        assert!(e.contains("[agents.a]: max_unobserved_rate"), "{e}");
    }
}

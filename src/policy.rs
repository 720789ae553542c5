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

use crate::gate::Override;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The rules of one table (`[defaults]` or `[agents.<id>]`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub min_rate: Option<f64>,
    pub min_turns: Option<u64>,
    pub max_drop: Option<f64>,
    pub max_orphan_rate: Option<f64>,
    pub confidence: Option<f64>,
    pub require_proof: Option<bool>,
}

impl Rules {
    /// As an override of the command line's gates.
    pub fn to_override(&self) -> Override {
        Override {
            min_rate: self.min_rate,
            min_turns: self.min_turns,
            max_drop: self.max_drop,
            max_orphan_rate: self.max_orphan_rate,
            confidence: self.confidence,
            require_proof: self.require_proof,
        }
    }

    /// Checks the ranges; `at` names the table in messages.
    fn validate(&self, at: &str) -> Result<(), String> {
        for (name, v) in [
            ("min_rate", self.min_rate),
            ("max_drop", self.max_drop),
            ("max_orphan_rate", self.max_orphan_rate),
        ] {
            if let Some(x) = v
                && !(0.0..=1.0).contains(&x)
            {
                return Err(format!("{at}: {name} must be between 0 and 1, got {x}"));
            }
        }
        if let Some(c) = self.confidence
            && !(c > 0.0 && c < 1.0)
        {
            return Err(format!(
                "{at}: confidence must be strictly between 0 and 1, got {c}"
            ));
        }
        Ok(())
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
        let p: Policy = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())?;
        p.defaults.validate("[defaults]")?;
        for (a, r) in &p.agents {
            r.validate(&format!("[agents.{a}]"))?;
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_agents() {
        let p = Policy::parse(
            "[defaults]\nmin_rate = 0.9\nmin_turns = 20\n\n[agents.billing-bot]\nmin_rate = 0.8\nrequire_proof = true\n",
        )
        .unwrap();
        assert_eq!(p.defaults.min_rate, Some(0.9));
        assert_eq!(p.defaults.min_turns, Some(20));
        assert_eq!(p.agents["billing-bot"].require_proof, Some(true));
    }

    #[test]
    fn unknown_keys_name_the_key_and_line() {
        let e = Policy::parse("[defaults]\nmin_rate = 0.9\nmin_rte = 0.8\n").unwrap_err();
        assert!(e.contains("line 3"), "{e}");
        assert!(e.contains("min_rte"), "{e}");
        let e = Policy::parse("[agents.a]\nmax_orphans = 0\n").unwrap_err();
        assert!(e.contains("line 2") && e.contains("max_orphans"), "{e}");
        let e = Policy::parse("[agent.a]\n").unwrap_err();
        assert!(e.contains("line 1") && e.contains("agent"), "{e}");
        let e = Policy::parse("[defaults]\nmin_rate = 1.5\n").unwrap_err();
        assert!(e.contains("[defaults]: min_rate"), "{e}");
    }
}

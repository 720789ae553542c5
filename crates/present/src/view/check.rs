//! `check`'s view: the `--format json` document.

use crate::accumulate::{Grouped, Rollup};
use crate::gate;
use crate::input::InputStats;
use serde::Serialize;
use std::collections::BTreeMap;

/// The `check --format json` document.
#[derive(Debug, Serialize)]
pub struct CheckDoc<'a> {
    pub decision: &'static str,
    pub line: &'a str,
    pub gates: &'a [gate::GateResult],
    pub warnings: &'a [String],
    pub rollup: &'a Rollup,
    pub agents: &'a BTreeMap<String, Rollup>,
    pub input: &'a InputStats,
}

impl<'a> CheckDoc<'a> {
    /// The document of a decision over the gate inputs it was made from.
    pub fn of(decision: &'a gate::Decision, data: &'a Grouped, input: &'a InputStats) -> Self {
        CheckDoc {
            decision: if decision.pass { "pass" } else { "fail" },
            line: &decision.line,
            gates: &decision.gates,
            warnings: &decision.warnings,
            rollup: &data.overall,
            agents: &data.groups,
            input,
        }
    }
}

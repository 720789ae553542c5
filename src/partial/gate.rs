//! The inputs of `check`'s gates in a partial.

use super::{RollupDoc, rollup_doc, rollup_of};
use crate::accumulate::{Grouped, Offenders, Offending, Rollup};
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A rollup by key (agent, or day as `YYYY-MM-DD`), in key order.
type Keyed = Vec<(String, RollupDoc)>;

/// The inputs of `check`'s gates.
#[derive(Debug, Serialize, Deserialize)]
pub struct GateState {
    pub overall: RollupDoc,
    pub agents: Keyed,
    /// UTC days, overall.
    pub days: Keyed,
    /// UTC days per agent.
    pub agent_days: Vec<(String, Keyed)>,
    /// The first offending turn ids overall.
    pub offenders: Offending,
    /// The first offending turn ids per agent.
    pub agent_offenders: Vec<(String, Offending)>,
}

fn days_doc(d: &BTreeMap<chrono::NaiveDate, Rollup>) -> Keyed {
    d.iter()
        .map(|(k, r)| (k.to_string(), rollup_doc(r)))
        .collect()
}

fn days_of(d: &Keyed) -> Result<BTreeMap<chrono::NaiveDate, Rollup>> {
    d.iter()
        .map(|(k, r)| {
            let day = k
                .parse::<chrono::NaiveDate>()
                .with_context(|| format!("gate: day {k:?}"))?;
            Ok((day, rollup_of(r)))
        })
        .collect()
}

impl GateState {
    /// The state of a finished check run.
    pub fn of(g: &Grouped) -> Self {
        GateState {
            overall: rollup_doc(&g.overall),
            agents: g
                .groups
                .iter()
                .map(|(k, r)| (k.clone(), rollup_doc(r)))
                .collect(),
            days: days_doc(&g.days),
            agent_days: g
                .agent_days
                .iter()
                .map(|(k, d)| (k.clone(), days_doc(d)))
                .collect(),
            offenders: g.offenders.overall.clone(),
            agent_offenders: g
                .offenders
                .agents
                .iter()
                .map(|(k, o)| (k.clone(), o.clone()))
                .collect(),
        }
    }

    pub(super) fn grouped(&self) -> Result<Grouped> {
        Ok(Grouped {
            overall: rollup_of(&self.overall),
            groups: self
                .agents
                .iter()
                .map(|(k, r)| (k.clone(), rollup_of(r)))
                .collect(),
            days: days_of(&self.days)?,
            agent_days: self
                .agent_days
                .iter()
                .map(|(k, d)| Ok((k.clone(), days_of(d)?)))
                .collect::<Result<_>>()?,
            offenders: Offenders {
                overall: self.offenders.clone(),
                agents: self.agent_offenders.iter().cloned().collect(),
            },
        })
    }
}

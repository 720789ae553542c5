//! The inputs of `check`'s gates in a partial.

use super::{RollupDoc, checked_rollup, rollup_doc, summed};
use crate::accumulate::{Grouped, Offenders, Offending, Rollup};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A rollup by key (agent, or day as `YYYY-MM-DD`), in key order.
type Keyed = Vec<(String, RollupDoc)>;

/// The inputs of `check`'s gates.
#[derive(Debug, Serialize, Deserialize)]
pub struct GateState {
    pub overall: RollupDoc,
    pub agents: Keyed,
    /// Local days in the run's `--tz`, overall.
    pub days: Keyed,
    /// Local days per agent.
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
            Ok((day, checked_rollup(r, &format!("gate: day {k}"))?))
        })
        .collect()
}

/// Refuses gate state whose parts do not add up to their whole: the agents
/// and the days to the overall counts, each agent's days to the agent.
fn consistent(g: &Grouped) -> Result<()> {
    if summed(g.groups.values()) != g.overall {
        bail!("gate: its agents do not add up to its overall counts");
    }
    if summed(g.days.values()) != g.overall {
        bail!("gate: its days do not add up to its overall counts");
    }
    let agents: Vec<&String> = g.groups.keys().collect();
    if g.agent_days.keys().collect::<Vec<_>>() != agents {
        bail!("gate: its agents' days name other agents than its agents");
    }
    for (agent, days) in &g.agent_days {
        if summed(days.values()) != g.groups[agent] {
            bail!("gate: agent {agent}'s days do not add up to the agent's counts");
        }
    }
    Ok(())
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
        let g = Grouped {
            overall: checked_rollup(&self.overall, "gate: overall")?,
            groups: self
                .agents
                .iter()
                .map(|(k, r)| Ok((k.clone(), checked_rollup(r, &format!("gate: agent {k}"))?)))
                .collect::<Result<_>>()?,
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
            // Its days are already counted; none is added after reading.
            zone: crate::filter::Zone::utc(),
        };
        consistent(&g)?;
        Ok(g)
    }
}

//! The summary accumulator's state in a partial (`summary`, and `check`
//! for `--html` and `--write-baseline`).

use super::{RollupDoc, checked_rollup, rollup_doc, rollup_of};
use crate::accumulate::Rollup;
use crate::accumulate::summary::group_of;
use crate::accumulate::summary::{GroupStats, Histogram, Summary, SummaryOptions, Telemetry};
use crate::accumulate::triage::Severity;
use crate::model::Row;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Telemetry of one verdict; the latency histogram as `[bucket, count]` pairs.
#[derive(Debug, Serialize, Deserialize)]
pub struct TelemetryDoc {
    pub latency: Vec<(u64, u64)>,
    /// Decimal text: JSON numbers cannot hold 128 bits exactly.
    pub tokens_used: String,
    pub turns_with_tokens: u64,
    pub cost_micro_cents: String,
    pub turns_with_cost: u64,
}

/// One group's state.
#[derive(Debug, Serialize, Deserialize)]
pub struct GroupDoc {
    pub key: String,
    pub rollup: RollupDoc,
    pub retrieval: crate::accumulate::summary::RetrievalUse,
    pub tools: crate::accumulate::summary::ToolUse,
    pub guardrail: crate::accumulate::summary::Guardrail,
    /// `[bucket index, counts]` in bucket order.
    pub trend: Vec<(i64, RollupDoc)>,
}

/// One triage entry: its severity and the group it is kept for, the row as
/// `report --format json` writes it, the marker an `orphan_marker` turn
/// invented (not part of the row's JSON), and its (file, position) within
/// the partial's own input.
#[derive(Debug, Serialize, Deserialize)]
pub struct TriageAt {
    /// `invented_citation`, `missing_marker_high_score` or `missing_marker`.
    pub severity: String,
    /// The group (agent, channel or model) it is kept for.
    pub group: String,
    pub row: Row<'static>,
    pub invented_marker: Option<String>,
    pub pos: (u64, u64),
}

/// The summary accumulator's state.
#[derive(Debug, Serialize, Deserialize)]
pub struct SummaryState {
    pub totals: RollupDoc,
    /// Groups in key order.
    pub groups: Vec<GroupDoc>,
    pub trend: Vec<(i64, RollupDoc)>,
    /// The most recent ungrounded turns of each severity and group.
    pub triage: Vec<TriageAt>,
    pub guardrail: crate::accumulate::summary::Guardrail,
    pub retrieval: crate::accumulate::summary::RetrievalUse,
    pub tools: crate::accumulate::summary::ToolUse,
    /// One per verdict, in verdict order.
    pub telemetry: Vec<TelemetryDoc>,
}

fn telemetry_doc(t: &Telemetry) -> TelemetryDoc {
    TelemetryDoc {
        latency: t.latency.iter().collect(),
        tokens_used: t.tokens_used.to_string(),
        turns_with_tokens: t.turns_with_tokens,
        cost_micro_cents: t.cost_micro_cents.to_string(),
        turns_with_cost: t.turns_with_cost,
    }
}

fn telemetry_of(d: &TelemetryDoc) -> Result<Telemetry> {
    let mut latency = Histogram::default();
    for &(b, n) in &d.latency {
        latency.add(b, n);
    }
    Ok(Telemetry {
        latency,
        tokens_used: d.tokens_used.parse().context("telemetry.tokens_used")?,
        turns_with_tokens: d.turns_with_tokens,
        cost_micro_cents: d
            .cost_micro_cents
            .parse()
            .context("telemetry.cost_micro_cents")?,
        turns_with_cost: d.turns_with_cost,
    })
}

fn trend_doc(t: &BTreeMap<i64, Rollup>) -> Vec<(i64, RollupDoc)> {
    t.iter().map(|(i, r)| (*i, rollup_doc(r))).collect()
}

fn trend_of(d: &[(i64, RollupDoc)]) -> BTreeMap<i64, Rollup> {
    d.iter().map(|(i, r)| (*i, rollup_of(r))).collect()
}

impl SummaryState {
    /// The state of a finished summary.
    pub fn of(s: &Summary) -> Self {
        let mut groups: Vec<(&String, &GroupStats)> = s.groups.iter().collect();
        groups.sort_by(|a, b| a.0.cmp(b.0));
        let all = s.overall();
        SummaryState {
            totals: rollup_doc(&all.rollup),
            groups: groups
                .into_iter()
                .map(|(k, g)| GroupDoc {
                    key: k.clone(),
                    rollup: rollup_doc(&g.rollup),
                    retrieval: g.retrieval.clone(),
                    tools: g.tools.clone(),
                    guardrail: g.guardrail.clone(),
                    trend: trend_doc(&g.trend),
                })
                .collect(),
            trend: trend_doc(&s.trend),
            triage: s
                .triage
                .entries()
                .into_iter()
                .map(|(severity, group, r, pos)| TriageAt {
                    severity: severity.as_str().to_owned(),
                    group: group.to_owned(),
                    row: r.clone(),
                    invented_marker: r.invented_marker.as_deref().map(str::to_owned),
                    pos,
                })
                .collect(),
            guardrail: all.guardrail,
            retrieval: all.retrieval,
            tools: all.tools,
            telemetry: s.telemetry.iter().map(telemetry_doc).collect(),
        }
    }

    /// The summary this state holds. `offset` shifts its input positions
    /// after those of the partials before it.
    pub(super) fn summary(&self, opts: SummaryOptions, offset: u64) -> Result<Summary> {
        let d = self;
        let mut s = Summary::new(opts);
        for g in &d.groups {
            s.groups.insert(
                g.key.clone(),
                GroupStats {
                    rollup: checked_rollup(&g.rollup, &format!("summary: group {}", g.key))?,
                    retrieval: g.retrieval.clone(),
                    tools: g.tools.clone(),
                    guardrail: g.guardrail.clone(),
                    trend: trend_of(&g.trend),
                },
            );
        }
        s.trend = trend_of(&d.trend);
        for e in &d.triage {
            let severity = Severity::from_name(&e.severity)
                .with_context(|| format!("triage: unknown severity {:?}", e.severity))?;
            let row = Row {
                invented_marker: e.invented_marker.as_deref().map(Box::from),
                ..e.row.clone()
            };
            if Severity::of(&row, opts.low_score) != Some(severity)
                || group_of(opts.by, &row) != e.group
            {
                bail!(
                    "triage: turn {:?} is not of its severity and group",
                    row.turn_id.as_str()
                );
            }
            s.triage
                .insert(severity, &e.group, row, (e.pos.0 + offset, e.pos.1));
        }
        // The totals are the groups' summed; a partial that says otherwise
        // was not written by this tool (or was edited), and is refused
        // rather than read with one of the two silently wrong.
        let all = s.overall();
        if rollup_of(&d.totals) != all.rollup
            || d.guardrail != all.guardrail
            || d.retrieval != all.retrieval
            || d.tools != all.tools
        {
            bail!("summary: its totals are not the sum of its groups");
        }
        if d.telemetry.len() != 5 {
            bail!(
                "telemetry: expected 5 verdicts, found {}",
                d.telemetry.len()
            );
        }
        for (slot, t) in s.telemetry.iter_mut().zip(&d.telemetry) {
            *slot = telemetry_of(t)?;
        }
        Ok(s)
    }
}

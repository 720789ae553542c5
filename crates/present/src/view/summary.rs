//! The view of `summary`: the document every format draws (table, JSON,
//! Markdown, CSV, HTML), built from the summary accumulator. No I/O.

use crate::accumulate::summary::{
    GroupBy, GroupStats, Guardrail, RetrievalUse, Summary, Telemetry, ToolUse,
};
use crate::accumulate::triage::{Picked, Severity, TriageOrder};
use crate::accumulate::{EvidenceCounts, Rollup};
use crate::compare::Comparison;
use crate::filter::Clock;
use crate::model::{Verdict, format_time};
use crate::pipeline::InputStats;
use serde::Serialize;

/// One group of the breakdown.
#[derive(Debug, Serialize)]
pub struct GroupDoc<'a> {
    pub key: &'a str,
    #[serde(flatten)]
    pub rollup: &'a Rollup,
    pub retrieval_use: RetrievalDoc,
    pub tools: &'a ToolUse,
}

/// Retrieval use with its derived ratios.
#[derive(Debug, Serialize)]
pub struct RetrievalDoc {
    #[serde(flatten)]
    pub counts: RetrievalUse,
    pub cited_share: Option<f64>,
    pub mean_cited_rank: Option<f64>,
}

pub(crate) fn retrieval_doc(r: &RetrievalUse) -> RetrievalDoc {
    RetrievalDoc {
        counts: r.clone(),
        cited_share: r.cited_share(),
        mean_cited_rank: r.mean_cited_rank(),
    }
}

/// One bucket of the trend (a day unless `--bucket` says otherwise).
#[derive(Debug, Serialize)]
pub struct DayDoc {
    /// The bucket's label: `2026-08-02`, `2026-08-02T10`, `2026-W31`.
    pub day: String,
    pub turns: u64,
    pub with_retrieval: u64,
    pub grounded: u64,
    pub grounded_rate: Option<f64>,
    /// The bucket's turns by what their export holds of their retrieval.
    pub evidence: EvidenceCounts,
}

/// One triage entry: the row fields that matter for triage, and why it is
/// where it is in the list.
#[derive(Debug, Serialize)]
pub struct TriageDoc<'a> {
    /// `invented_citation`, `missing_marker_high_score` or `missing_marker`.
    pub severity: &'static str,
    /// Why the turn is listed, in words: `invented citation [KB-9]`,
    /// `missing marker, top score 0.91`, and `; agent billing-bot in a
    /// significant drop` when its group shows one.
    pub reason: String,
    pub turn_id: &'a crate::model::Id<'static>,
    pub agent_id: &'a str,
    pub conversation_id: Option<&'a crate::model::Id<'static>>,
    pub channel: &'a str,
    pub created_at: String,
    /// `created_at` in the local zone, when times are shown local.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at_local: Option<String>,
    /// `created_at` as tables show it (local when times are shown local).
    #[serde(skip)]
    pub shown_at: String,
    pub verdict: Verdict,
    pub marker_count: u32,
    pub out_of_range_markers: u32,
    pub malformed_markers: u32,
    pub chunk_count: u32,
    pub confidence: Option<f64>,
    pub tool_errors: u32,
}

/// Telemetry of one verdict.
#[derive(Debug, Serialize)]
pub struct TelemetryDoc {
    pub turns: u64,
    pub latency_samples: u64,
    pub latency_ms_median: Option<u64>,
    pub latency_ms_p95: Option<u64>,
    pub tokens_used: Option<u128>,
    pub cost_cents: Option<f64>,
}

pub(crate) fn telemetry_doc(t: &Telemetry, turns: u64) -> TelemetryDoc {
    TelemetryDoc {
        turns,
        latency_samples: t.latency_count(),
        latency_ms_median: t.latency_quantile(0.5),
        latency_ms_p95: t.latency_quantile(0.95),
        tokens_used: (t.turns_with_tokens > 0).then_some(t.tokens_used),
        cost_cents: (t.turns_with_cost > 0).then(|| t.cost_micro_cents as f64 / 1e6),
    }
}

/// One value per verdict, serialised as a map in verdict order.
#[derive(Debug)]
pub struct PerVerdict<T>(pub [T; 5]);

impl<T: Serialize> Serialize for PerVerdict<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(5))?;
        for (v, t) in Verdict::ALL.iter().zip(&self.0) {
            m.serialize_entry(v.as_str(), t)?;
        }
        m.end()
    }
}

/// Tool calls overall and per group.
#[derive(Debug, Serialize)]
pub struct ToolsDoc<'a> {
    #[serde(flatten)]
    pub overall: ToolUse,
    pub by_group: Vec<ToolRow<'a>>,
}

/// Tool calls of one group.
#[derive(Debug, Serialize)]
pub struct ToolRow<'a> {
    pub key: &'a str,
    #[serde(flatten)]
    pub tools: &'a ToolUse,
}

/// One bucket of one group's trend.
#[derive(Debug, Serialize)]
pub struct GroupDayDoc<'a> {
    pub key: &'a str,
    #[serde(flatten)]
    pub day: DayDoc,
}

/// What `require_citation` would do, for one group or all.
#[derive(Debug, Serialize)]
pub struct GuardrailRow<'a> {
    pub key: &'a str,
    #[serde(flatten)]
    pub counts: &'a Guardrail,
    pub refused_share: Option<f64>,
}

/// The guardrail what-if section.
#[derive(Debug, Serialize)]
pub struct GuardrailDoc<'a> {
    pub rule: &'static str,
    #[serde(flatten)]
    pub overall: Guardrail,
    pub refused_share: Option<f64>,
    pub by_group: Vec<GuardrailRow<'a>>,
}

/// The time window a run applied (`--from`/`--to`, `--since`/`--now`):
/// turns at or after `from` and before `to`, in UTC; an open end is None.
#[derive(Debug, Clone, Default, Serialize)]
pub struct WindowDoc {
    pub from: Option<String>,
    pub to: Option<String>,
    /// As a reader reads it, in the `--tz` zone: `all time`,
    /// `from 2026-08-02T00:00:00+09:00 to 2026-08-09T00:00:00+09:00 (the end excluded)`.
    #[serde(skip)]
    pub shown: String,
}

/// The window of `from` and `to`, shown in `zone`.
pub fn window_doc(
    from: Option<chrono::DateTime<chrono::Utc>>,
    to: Option<chrono::DateTime<chrono::Utc>>,
    zone: &crate::filter::Zone,
) -> WindowDoc {
    let shown = match (from, to) {
        (None, None) => "all time".to_owned(),
        (Some(f), None) => format!("from {} on", zone.format(&f)),
        (None, Some(t)) => format!("before {}", zone.format(&t)),
        (Some(f), Some(t)) => format!(
            "from {} to {} (the end excluded)",
            zone.format(&f),
            zone.format(&t)
        ),
    };
    WindowDoc {
        from: from.as_ref().map(format_time),
        to: to.as_ref().map(format_time),
        shown,
    }
}

/// The `summary --format json` document.
#[derive(Debug, Serialize)]
pub struct SummaryDoc<'a> {
    pub totals: Rollup,
    pub group_by: &'static str,
    /// The time window the turns were taken from.
    pub window: WindowDoc,
    /// Present with a baseline: the comparison, worst significant drop first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<&'a Comparison>,
    /// The zone days are counted in (`--tz`).
    pub tz: String,
    pub groups: Vec<GroupDoc<'a>>,
    /// The order of `triage`: `severity` or `recent` (`--triage-order`).
    pub triage_order: &'static str,
    pub triage: Vec<TriageDoc<'a>>,
    /// The trend's bucket width: `hour`, `day` or `week`.
    pub bucket: &'static str,
    pub days: Vec<DayDoc>,
    /// The trend per group, group by group.
    pub group_days: Vec<GroupDayDoc<'a>>,
    pub guardrail: GuardrailDoc<'a>,
    pub retrieval_use: RetrievalDoc,
    pub low_score: f64,
    pub tools: ToolsDoc<'a>,
    pub telemetry: PerVerdict<TelemetryDoc>,
    pub input: &'a InputStats,
}

pub fn by_name(b: GroupBy) -> &'static str {
    b.as_str()
}

pub(crate) fn day_doc(label: String, r: &Rollup) -> DayDoc {
    DayDoc {
        day: label,
        turns: r.turns,
        with_retrieval: r.with_retrieval,
        grounded: r.grounded(),
        grounded_rate: r.grounded_rate(),
        evidence: r.evidence,
    }
}

/// The rule the guardrail section applies, as the JSON document states it.
pub const GUARDRAIL_RULE: &str = "require_citation: refuse an answer given with retrieval and no well-formed marker of the grammar";

/// Builds the document from a finished summary of the turns in `window`,
/// its triage list in `order`.
pub fn document<'a>(
    s: &'a Summary,
    input: &'a InputStats,
    clock: &Clock,
    window: WindowDoc,
    order: TriageOrder,
) -> SummaryDoc<'a> {
    document_with(s, input, clock, window, None, order)
}

/// The groups that show a significant drop: with a comparison, those whose
/// rate fell significantly against the baseline; without one, those whose
/// own trend in this run has a change point where the rate fell
/// ([`crate::compare::drop_in`], the test that dates a drop). Only groups
/// with a turn in the triage state are looked at.
pub fn dropped_groups<'a>(
    s: &'a Summary,
    compare: Option<&Comparison>,
) -> std::collections::BTreeSet<&'a str> {
    let (bucket, tz) = (s.opts.bucket, s.opts.tz);
    let listed: std::collections::BTreeSet<&str> = s
        .triage
        .entries()
        .into_iter()
        .map(|(_, g, _, _)| g)
        .collect();
    listed
        .into_iter()
        .filter(|g| match compare {
            Some(c) => c
                .groups
                .iter()
                .any(|r| r.key.as_deref() == Some(*g) && r.significant_drop()),
            None => s.groups.get(*g).is_some_and(|stats| {
                let series = crate::compare::joined(
                    None,
                    stats.trend.iter().map(|(i, r)| (bucket.label(*i, &tz), r)),
                );
                crate::compare::drop_in(&series).is_some()
            }),
        })
        .collect()
}

/// A score as a reason prints it: as many decimals as it takes not to
/// print like `high` when it differs from it, trailing zeros dropped.
fn score_text(score: f64, high: f64) -> String {
    let (text, _) = crate::gate::rate_pair(score, high);
    match text.find('.') {
        Some(dot) => {
            let t = text.trim_end_matches('0');
            if t.len() == dot + 1 {
                format!("{t}0")
            } else {
                t.to_owned()
            }
        }
        None => text,
    }
}

/// Why a turn is in the triage list, in words.
pub fn triage_reason(p: &Picked<'_>, by: &str, high: f64) -> String {
    let r = p.row;
    let mut reason = match p.severity {
        Severity::InventedCitation => {
            let mut s = "invented citation".to_owned();
            if let Some(m) = &r.invented_marker {
                s.push(' ');
                s.push_str(m);
            }
            if r.chunk_count == 0 {
                s.push_str(", nothing retrieved");
            }
            s
        }
        Severity::MissingMarkerHighScore => match r.confidence {
            Some(c) => format!("missing marker, top score {}", score_text(c, high)),
            None => "missing marker".to_owned(),
        },
        Severity::MissingMarker => match r.confidence {
            Some(c) => format!(
                "missing marker, top score {} (below {})",
                score_text(c, high),
                score_text(high, high)
            ),
            None => "missing marker, no chunk scores".to_owned(),
        },
        Severity::FabricatedQuote => match r.support.quotes_fabricated {
            // A row recorded before quotes were classed.
            0 => format!(
                "{} quote(s) not in the cited chunk",
                r.support.quotes_absent
            ),
            n => format!("{n} quote(s) in no retrieved chunk"),
        },
        Severity::MisattributedQuote => format!(
            "{} quote(s) from another chunk than the one cited",
            r.support.quotes_misattributed
        ),
        Severity::StitchedQuote => format!(
            "{} quote(s) put together from pieces of the chunks",
            r.support.quotes_stitched
        ),
        Severity::Hinted => format!(
            "{} hint(s): a value of a cited sentence no cited chunk holds",
            r.support.hints
        ),
    };
    if p.dropped {
        reason.push_str(&format!("; {by} {} in a significant drop", p.group));
    }
    reason
}

/// [`document`] with a comparison.
pub fn document_with<'a>(
    s: &'a Summary,
    input: &'a InputStats,
    clock: &Clock,
    window: WindowDoc,
    compare: Option<&'a Comparison>,
    order: TriageOrder,
) -> SummaryDoc<'a> {
    let dropped = dropped_groups(s, compare);
    let triage = s.triage.select(order, &|g| dropped.contains(g));
    let groups: Vec<(&String, &GroupStats)> = s.sorted_groups();
    let (bucket, tz) = (s.opts.bucket, s.opts.tz);
    let all = s.overall();
    SummaryDoc {
        totals: all.rollup.clone(),
        group_by: by_name(s.opts.by),
        window,
        compare,
        bucket: bucket.as_str(),
        group_days: groups
            .iter()
            .flat_map(|(k, g)| {
                g.trend.iter().map(move |(i, r)| GroupDayDoc {
                    key: k,
                    day: day_doc(bucket.label(*i, &tz), r),
                })
            })
            .collect(),
        guardrail: GuardrailDoc {
            rule: GUARDRAIL_RULE,
            refused_share: all.guardrail.refused_share(),
            overall: all.guardrail.clone(),
            by_group: groups
                .iter()
                .map(|(k, g)| GuardrailRow {
                    key: k,
                    counts: &g.guardrail,
                    refused_share: g.guardrail.refused_share(),
                })
                .collect(),
        },
        tz: s.opts.tz.name(),
        groups: groups
            .iter()
            .map(|(k, g)| GroupDoc {
                key: k,
                rollup: &g.rollup,
                retrieval_use: retrieval_doc(&g.retrieval),
                tools: &g.tools,
            })
            .collect(),
        triage_order: order.as_str(),
        triage: triage
            .iter()
            .map(|p| (p, p.row))
            .map(|(p, r)| TriageDoc {
                severity: p.severity.as_str(),
                reason: triage_reason(p, by_name(s.opts.by), s.opts.low_score),
                turn_id: &r.turn_id,
                agent_id: &r.agent_id,
                conversation_id: r.conversation_id.as_ref(),
                channel: &r.channel,
                created_at: format_time(&r.created_at),
                created_at_local: clock.local.then(|| clock.zone.format(&r.created_at)),
                shown_at: clock.time(&r.created_at),
                verdict: r.verdict,
                marker_count: r.marker_count,
                out_of_range_markers: r.out_of_range_markers,
                malformed_markers: r.malformed_markers,
                chunk_count: r.chunk_count,
                confidence: r.confidence,
                tool_errors: r.tool_errors,
            })
            .collect(),
        days: s
            .trend
            .iter()
            .map(|(i, r)| day_doc(bucket.label(*i, &tz), r))
            .collect(),
        retrieval_use: retrieval_doc(&all.retrieval),
        low_score: s.opts.low_score,
        tools: ToolsDoc {
            overall: all.tools.clone(),
            by_group: groups
                .iter()
                .map(|(k, g)| ToolRow {
                    key: k,
                    tools: &g.tools,
                })
                .collect(),
        },
        telemetry: PerVerdict(
            Verdict::ALL.map(|v| telemetry_doc(s.telemetry_of(v), all.rollup.count(v))),
        ),
        input,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_is_shown_in_the_zone_and_kept_in_utc() {
        let utc = crate::filter::Zone::utc();
        assert_eq!(window_doc(None, None, &utc).shown, "all time");
        let tokyo = crate::filter::Zone::parse("Asia/Tokyo").unwrap();
        let t = |s: &str| chrono::DateTime::parse_from_rfc3339(s).unwrap().to_utc();
        let w = window_doc(Some(t("2026-08-01T15:00:00Z")), None, &tokyo);
        assert_eq!(w.shown, "from 2026-08-02T00:00:00+09:00 on");
        assert_eq!(w.from.as_deref(), Some("2026-08-01T15:00:00Z"));
        assert_eq!(w.to, None);
        let w = window_doc(None, Some(t("2026-08-03T00:00:00Z")), &utc);
        assert_eq!(w.shown, "before 2026-08-03T00:00:00Z");
        let w = window_doc(
            Some(t("2026-08-01T00:00:00Z")),
            Some(t("2026-08-03T00:00:00Z")),
            &utc,
        );
        assert_eq!(
            w.shown,
            "from 2026-08-01T00:00:00Z to 2026-08-03T00:00:00Z (the end excluded)"
        );
    }
}

//! Partial results: the complete mergeable state of a `summary` run written
//! as a versioned JSON document (`summary --partial FILE`), read back and
//! merged by `merge`, so that partitions graded on other machines render
//! exactly what one pass over the concatenated input prints.
//!
//! A partial holds the accumulator (totals, groups, trends, triage heap,
//! retrieval use, tools, guardrail, telemetry histograms), the input
//! accounting with its warnings, and the probe counts behind the misread
//! warnings, which are decided once, after merging, as one pass does. Its
//! size is bounded by the state (groups, buckets, latency buckets, triage
//! size), never by the input. It also records every option that changes
//! grading or the state; partials that disagree on one refuse to merge,
//! naming it. Nothing here reads logs or renders output.
//!
//! De-duplication is per partial: a turn repeated in two partials is counted
//! twice. Partitioning the lines by turn key (what `examples/spark` does)
//! puts every copy of a turn in one partial, where it is de-duplicated
//! exactly; `merge` then counts the turn ids it can see in more than one
//! partial's triage list as `cross_partial_duplicates` on stderr.

use crate::accumulate::summary::{GroupStats, Histogram, Summary, SummaryOptions, Telemetry};
use crate::accumulate::{PageHeap, Rollup};
use crate::messages::Warnings;
use crate::model::{Id, InputStats, Row, Verdict};
use crate::pipeline::probe::{Probe, ProbeDoc};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The `format` field of every partial.
pub const FORMAT: &str = "grounding-audit-partial";
/// The version of the document; a reader refuses any other. Version 2
/// added the score distribution to retrieval use (`scores`), which a
/// version 1 partial cannot supply.
pub const VERSION: u32 = 2;

/// One partial document.
#[derive(Debug, Serialize, Deserialize)]
pub struct Partial {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The subcommand whose state this is (`summary`).
    pub command: String,
    /// Every option that changes grading or the state, by flag name, as text.
    pub options: BTreeMap<String, String>,
    /// Input accounting; `warnings` without the misread heuristics.
    pub input: InputDoc,
    /// The summary accumulator.
    pub summary: SummaryState,
}

/// [`InputStats`] as a partial carries it.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct InputDoc {
    pub files: u64,
    pub lines: u64,
    pub turns: u64,
    pub blank_lines: u64,
    pub skipped_records: u64,
    pub invalid_lines: u64,
    pub duplicates: u64,
    pub warnings: Vec<crate::messages::Warning>,
    pub probe: ProbeDoc,
}

/// Counts of a [`Rollup`]: turns, with_retrieval, then one per verdict in verdict order
/// (ok, no_marker, orphan_marker, empty_retrieval, unobserved).
type RollupDoc = (u64, u64, [u64; 5]);

fn rollup_doc(r: &Rollup) -> RollupDoc {
    (r.turns, r.with_retrieval, r.verdicts)
}

fn rollup_of(d: &RollupDoc) -> Rollup {
    Rollup {
        turns: d.0,
        with_retrieval: d.1,
        verdicts: d.2,
    }
}

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

/// One triage entry: the row fields the summary shows, and its input position.
#[derive(Debug, Serialize, Deserialize)]
pub struct TriageEntry {
    pub turn_id: String,
    pub turn_id_numeric: bool,
    pub agent_id: String,
    pub conversation_id: Option<(String, bool)>,
    pub channel: String,
    /// Seconds and nanoseconds since 1970-01-01 UTC (exact, unlike a float).
    pub created_at: (i64, u32),
    pub verdict: String,
    pub marker_count: u32,
    pub out_of_range_markers: u32,
    pub malformed_markers: u32,
    pub chunk_count: u32,
    pub confidence: Option<f64>,
    pub tool_errors: u32,
    /// (file, position) within the partial's own input.
    pub pos: (u64, u64),
}

/// The summary accumulator's state.
#[derive(Debug, Serialize, Deserialize)]
pub struct SummaryState {
    pub totals: RollupDoc,
    /// Groups in key order.
    pub groups: Vec<GroupDoc>,
    pub trend: Vec<(i64, RollupDoc)>,
    pub triage: Vec<TriageEntry>,
    pub triage_matching: u64,
    pub triage_newer: u64,
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

fn verdict_of(s: &str) -> Result<Verdict> {
    Verdict::ALL
        .into_iter()
        .find(|v| v.as_str() == s)
        .with_context(|| format!("unknown verdict {s:?}"))
}

fn triage_row(e: &TriageEntry) -> Result<Row<'static>> {
    Ok(Row {
        turn_id: Id {
            text: Cow::Owned(e.turn_id.clone()),
            numeric: e.turn_id_numeric,
        },
        agent_id: Cow::Owned(e.agent_id.clone()),
        conversation_id: e.conversation_id.as_ref().map(|(t, n)| Id {
            text: Cow::Owned(t.clone()),
            numeric: *n,
        }),
        channel: Cow::Owned(e.channel.clone()),
        created_at: chrono::DateTime::from_timestamp(e.created_at.0, e.created_at.1)
            .context("created_at out of range")?,
        verdict: verdict_of(&e.verdict)?,
        partial: false,
        cited_chunks: Vec::new(),
        marker_count: e.marker_count,
        out_of_range_markers: e.out_of_range_markers,
        malformed_markers: e.malformed_markers,
        markers_from: None,
        chunk_count: e.chunk_count,
        confidence: e.confidence,
        chunks: Vec::new(),
        tool_calls: 0,
        tool_errors: e.tool_errors,
        model: None,
        tokens_used: None,
        cost_cents: None,
        latency_ms: None,
        unobserved_reason: None,
    })
}

impl Partial {
    /// The partial of a finished summary run. `input` is the run's accounting
    /// as the pipeline returned it (misread warnings included: they are
    /// dropped here and decided again after merging).
    pub fn of_summary(s: &Summary, input: &InputStats, options: BTreeMap<String, String>) -> Self {
        let mut warnings = input.warnings.clone();
        warnings.retain_kinds(|k| !crate::pipeline::probe::is_misread(k));
        let mut groups: Vec<(&String, &GroupStats)> = s.groups.iter().collect();
        groups.sort_by(|a, b| a.0.cmp(b.0));
        Partial {
            format: FORMAT.to_owned(),
            version: VERSION,
            command: "summary".to_owned(),
            options,
            input: InputDoc {
                files: input.files,
                lines: input.lines,
                turns: input.turns,
                blank_lines: input.blank_lines,
                skipped_records: input.skipped_records,
                invalid_lines: input.invalid_lines,
                duplicates: input.duplicates,
                warnings: warnings.iter().cloned().collect(),
                probe: input.probe.to_doc(),
            },
            summary: SummaryState {
                totals: rollup_doc(&s.totals),
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
                    .iter()
                    .map(|(r, pos)| TriageEntry {
                        turn_id: r.turn_id.as_str().to_owned(),
                        turn_id_numeric: r.turn_id.numeric,
                        agent_id: r.agent_id.to_string(),
                        conversation_id: r
                            .conversation_id
                            .as_ref()
                            .map(|c| (c.as_str().to_owned(), c.numeric)),
                        channel: r.channel.to_string(),
                        created_at: (
                            r.created_at.timestamp(),
                            r.created_at.timestamp_subsec_nanos(),
                        ),
                        verdict: r.verdict.as_str().to_owned(),
                        marker_count: r.marker_count,
                        out_of_range_markers: r.out_of_range_markers,
                        malformed_markers: r.malformed_markers,
                        chunk_count: r.chunk_count,
                        confidence: r.confidence,
                        tool_errors: r.tool_errors,
                        pos: *pos,
                    })
                    .collect(),
                triage_matching: s.triage.matching,
                triage_newer: s.triage.newer,
                guardrail: s.guardrail.clone(),
                retrieval: s.retrieval.clone(),
                tools: s.tools.clone(),
                telemetry: s.telemetry.iter().map(telemetry_doc).collect(),
            },
        }
    }

    /// Reads one partial, checking its format and version.
    pub fn read(text: &str, name: &str) -> Result<Partial> {
        let p: Partial = serde_json::from_str(text)
            .with_context(|| format!("{name}: not a grounding-audit partial"))?;
        if p.format != FORMAT {
            bail!(
                "{name}: not a grounding-audit partial (format {:?})",
                p.format
            );
        }
        if p.version != VERSION {
            bail!(
                "{name}: partial version {} (this build reads version {VERSION})",
                p.version
            );
        }
        Ok(p)
    }

    /// The summary and input accounting this partial holds. `file_offset`
    /// shifts its input positions after those of the partials before it.
    fn summary_state(
        &self,
        opts: SummaryOptions,
        file_offset: u64,
    ) -> Result<(Summary, InputStats)> {
        let d = &self.summary;
        let mut s = Summary::new(opts);
        s.totals = rollup_of(&d.totals);
        for g in &d.groups {
            s.groups.insert(
                g.key.clone(),
                GroupStats {
                    rollup: rollup_of(&g.rollup),
                    retrieval: g.retrieval.clone(),
                    tools: g.tools.clone(),
                    guardrail: g.guardrail.clone(),
                    trend: trend_of(&g.trend),
                },
            );
        }
        s.trend = trend_of(&d.trend);
        let rows = d
            .triage
            .iter()
            .map(|e| Ok((triage_row(e)?, (e.pos.0 + file_offset, e.pos.1))))
            .collect::<Result<Vec<_>>>()?;
        s.triage = PageHeap::from_parts(opts.triage, None, rows, d.triage_matching, d.triage_newer);
        s.guardrail = d.guardrail.clone();
        s.retrieval = d.retrieval.clone();
        s.tools = d.tools.clone();
        if d.telemetry.len() != 5 {
            bail!(
                "telemetry: expected 5 verdicts, found {}",
                d.telemetry.len()
            );
        }
        for (slot, t) in s.telemetry.iter_mut().zip(&d.telemetry) {
            *slot = telemetry_of(t)?;
        }
        let i = &self.input;
        let mut warnings = Warnings::new();
        for w in &i.warnings {
            warnings.add(&w.kind, &w.subject, &w.unit, w.count, || w.message.clone());
        }
        let input = InputStats {
            files: i.files,
            lines: i.lines,
            turns: i.turns,
            blank_lines: i.blank_lines,
            skipped_records: i.skipped_records,
            invalid_lines: i.invalid_lines,
            duplicates: i.duplicates,
            warnings,
            probe: Probe::from_doc(&i.probe),
        };
        Ok((s, input))
    }
}

/// What merging summary partials gives.
pub struct Merged {
    pub summary: Summary,
    pub input: InputStats,
    /// The options the partials agree on.
    pub options: BTreeMap<String, String>,
    /// Turn ids seen in the triage lists of more than one partial.
    pub cross_partial_duplicates: u64,
}

/// Merges summary partials in the order given, refusing partials made with
/// different options (the error names the first option that differs).
/// `opts` must be the options the partials record (see `summary::options_of`).
pub fn merge_summaries(
    parts: &[(String, Partial)],
    opts_of: impl Fn(&BTreeMap<String, String>) -> Result<SummaryOptions>,
) -> Result<Merged> {
    let Some((first_name, first)) = parts.first() else {
        bail!("merge needs at least one partial");
    };
    for (name, p) in parts {
        if p.command != "summary" {
            bail!(
                "{name}: a partial of `{}`; this build merges `summary` partials",
                p.command
            );
        }
        let keys: std::collections::BTreeSet<&String> =
            p.options.keys().chain(first.options.keys()).collect();
        for k in keys {
            let (a, b) = (first.options.get(k), p.options.get(k));
            if a != b {
                bail!(
                    "{name} was made with {k} {}, {first_name} with {k} {}: partials made with different options do not merge",
                    b.map_or("(absent)", String::as_str),
                    a.map_or("(absent)", String::as_str)
                );
            }
        }
    }
    let opts = opts_of(&first.options)?;
    let mut summary = Summary::new(opts);
    let mut input = InputStats::default();
    let mut offset = 0;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut dups = 0;
    for (i, (name, p)) in parts.iter().enumerate() {
        let (s, inp) = p
            .summary_state(opts, offset)
            .with_context(|| format!("reading partial {name}"))?;
        for e in &p.summary.triage {
            match seen.get(&e.turn_id) {
                Some(&j) if j != i => dups += 1,
                Some(_) => {}
                None => {
                    seen.insert(e.turn_id.clone(), i);
                }
            }
        }
        offset += inp.files.max(1);
        crate::pipeline::Accumulator::merge(&mut summary, s);
        input.add(&inp);
    }
    // The misread heuristics, once over the whole run, as a single pass decides them.
    let misread = input.probe.warnings();
    input.warnings.merge(&misread);
    Ok(Merged {
        summary,
        input,
        options: first.options.clone(),
        cross_partial_duplicates: dups,
    })
}

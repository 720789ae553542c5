//! Partial results: the complete mergeable state of a `summary`, `report`
//! or `check` run written as a versioned JSON document (`--partial FILE`),
//! read back and merged by `merge`, so that partitions graded on other
//! machines render exactly what one pass over the concatenated input prints.
//!
//! Every partial holds the input accounting with its warnings and the probe
//! counts behind the misread warnings (decided once, after merging, as one
//! pass does), and one state section per accumulator its command keeps:
//!
//! - `summary`: the summary accumulator (totals, groups, trends, triage
//!   heap, retrieval use, tools, guardrail, telemetry histograms);
//! - `report`: `page`, the page heap (the `--limit` + 1 newest rows after
//!   `--cursor`, whole rows with their input positions, and the counts of
//!   matching and passed-over rows);
//! - `check`: `gate`, the gate inputs (rollups overall, per agent, per UTC
//!   day and per agent and day, the first offending turn ids), and
//!   `summary`, the summary `--html` and `--write-baseline` render.
//!
//! Its size is bounded by the state (groups, buckets, latency buckets,
//! triage and page sizes), never by the input. It also records every option
//! that changes grading or the state; partials that disagree on one refuse
//! to merge, naming it. Nothing here reads logs or renders output.
//!
//! De-duplication is per partial: a turn repeated in two partials is counted
//! twice. Partitioning the lines by turn key (what `examples/spark` does)
//! puts every copy of a turn in one partial, where it is de-duplicated
//! exactly; `merge` then counts the turn ids it can see in more than one
//! partial's rows (triage list, page) as `cross_partial_duplicates`.

use crate::accumulate::summary::{GroupStats, Histogram, Summary, SummaryOptions, Telemetry};
use crate::accumulate::{Grouped, Offenders, Offending, PageHeap, Rollup};
use crate::messages::Warnings;
use crate::model::{Chunk, Id, InputStats, MarkersFrom, Row, Unobserved, Verdict};
use crate::pipeline::probe::{Probe, ProbeDoc};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The `format` field of every partial.
pub const FORMAT: &str = "grounding-audit-partial";
/// The version of the document; a reader refuses any other. Version 2
/// added `report` and `check` partials (sections `page`, `gate`) and the
/// score distribution of retrieval use (`scores`), which a version 1
/// partial cannot supply.
pub const VERSION: u32 = 2;

/// One partial document.
#[derive(Debug, Serialize, Deserialize)]
pub struct Partial {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The subcommand whose state this is: `summary`, `report` or `check`.
    pub command: String,
    /// Every option that changes grading or the state, by flag name, as text.
    pub options: BTreeMap<String, String>,
    /// Input accounting; `warnings` without the misread heuristics.
    pub input: InputDoc,
    /// The summary accumulator (`summary`; `check`, for `--html` and `--write-baseline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<SummaryState>,
    /// The page heap (`report`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<PageState>,
    /// The gate inputs (`check`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<GateState>,
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

impl InputDoc {
    /// A run's accounting as the pipeline returned it; the misread warnings
    /// are dropped (they are decided again after merging).
    pub fn of(input: &InputStats) -> Self {
        let mut warnings = input.warnings.clone();
        warnings.retain_kinds(|k| !crate::pipeline::probe::is_misread(k));
        InputDoc {
            files: input.files,
            lines: input.lines,
            turns: input.turns,
            blank_lines: input.blank_lines,
            skipped_records: input.skipped_records,
            invalid_lines: input.invalid_lines,
            duplicates: input.duplicates,
            warnings: warnings.iter().cloned().collect(),
            probe: input.probe.to_doc(),
        }
    }

    fn stats(&self) -> InputStats {
        let mut warnings = Warnings::new();
        for w in &self.warnings {
            warnings.add(&w.kind, &w.subject, &w.unit, w.count, || w.message.clone());
        }
        InputStats {
            files: self.files,
            lines: self.lines,
            turns: self.turns,
            blank_lines: self.blank_lines,
            skipped_records: self.skipped_records,
            invalid_lines: self.invalid_lines,
            duplicates: self.duplicates,
            warnings,
            probe: Probe::from_doc(&self.probe),
        }
    }
}

impl SummaryState {
    /// The state of a finished summary.
    pub fn of(s: &Summary) -> Self {
        let mut groups: Vec<(&String, &GroupStats)> = s.groups.iter().collect();
        groups.sort_by(|a, b| a.0.cmp(b.0));
        SummaryState {
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
                    created_at: time_doc(&r.created_at),
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
        }
    }

    /// The summary this state holds. `offset` shifts its input positions
    /// after those of the partials before it.
    fn summary(&self, opts: SummaryOptions, offset: u64) -> Result<Summary> {
        let d = self;
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
            .map(|e| Ok((triage_row(e)?, (e.pos.0 + offset, e.pos.1))))
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
        Ok(s)
    }
}

fn time_doc(t: &chrono::DateTime<chrono::Utc>) -> (i64, u32) {
    (t.timestamp(), t.timestamp_subsec_nanos())
}

fn time_of(t: (i64, u32)) -> Result<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::from_timestamp(t.0, t.1).context("created_at out of range")
}

/// An id as `[text, numeric]`.
type IdDoc = (String, bool);

fn id_doc(i: &Id<'_>) -> IdDoc {
    (i.as_str().to_owned(), i.numeric)
}

fn id_of(d: &IdDoc) -> Id<'static> {
    Id {
        text: Cow::Owned(d.0.clone()),
        numeric: d.1,
    }
}

/// One retrieved chunk of a page row.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChunkDoc {
    pub index: u32,
    pub document_id: Option<IdDoc>,
    pub chunk_id: Option<IdDoc>,
    pub score: Option<f64>,
}

/// One whole row of a report page, exactly as graded, with its input position.
#[derive(Debug, Serialize, Deserialize)]
pub struct RowDoc {
    pub turn_id: IdDoc,
    pub agent_id: String,
    pub conversation_id: Option<IdDoc>,
    pub channel: String,
    /// Seconds and nanoseconds since 1970-01-01 UTC.
    pub created_at: (i64, u32),
    pub verdict: Verdict,
    pub partial: bool,
    pub cited_chunks: Vec<u32>,
    pub marker_count: u32,
    pub out_of_range_markers: u32,
    pub malformed_markers: u32,
    pub markers_from: Option<MarkersFrom>,
    pub chunk_count: u32,
    pub confidence: Option<f64>,
    pub chunks: Vec<ChunkDoc>,
    pub tool_calls: u32,
    pub tool_errors: u32,
    pub model: Option<String>,
    pub tokens_used: Option<u64>,
    pub cost_cents: Option<f64>,
    pub latency_ms: Option<f64>,
    pub unobserved_reason: Option<Unobserved>,
    /// (block, line) within the partial's own input.
    pub pos: (u64, u64),
}

impl RowDoc {
    fn of(r: &Row<'_>, pos: crate::pipeline::Pos) -> Self {
        RowDoc {
            turn_id: id_doc(&r.turn_id),
            agent_id: r.agent_id.to_string(),
            conversation_id: r.conversation_id.as_ref().map(id_doc),
            channel: r.channel.to_string(),
            created_at: time_doc(&r.created_at),
            verdict: r.verdict,
            partial: r.partial,
            cited_chunks: r.cited_chunks.clone(),
            marker_count: r.marker_count,
            out_of_range_markers: r.out_of_range_markers,
            malformed_markers: r.malformed_markers,
            markers_from: r.markers_from,
            chunk_count: r.chunk_count,
            confidence: r.confidence,
            chunks: r
                .chunks
                .iter()
                .map(|c| ChunkDoc {
                    index: c.index,
                    document_id: c.document_id.as_ref().map(id_doc),
                    chunk_id: c.chunk_id.as_ref().map(id_doc),
                    score: c.score,
                })
                .collect(),
            tool_calls: r.tool_calls,
            tool_errors: r.tool_errors,
            model: r.model.as_ref().map(|m| m.to_string()),
            tokens_used: r.tokens_used,
            cost_cents: r.cost_cents,
            latency_ms: r.latency_ms,
            unobserved_reason: r.unobserved_reason,
            pos,
        }
    }

    fn row(&self) -> Result<Row<'static>> {
        Ok(Row {
            turn_id: id_of(&self.turn_id),
            agent_id: Cow::Owned(self.agent_id.clone()),
            conversation_id: self.conversation_id.as_ref().map(id_of),
            channel: Cow::Owned(self.channel.clone()),
            created_at: time_of(self.created_at)?,
            verdict: self.verdict,
            partial: self.partial,
            cited_chunks: self.cited_chunks.clone(),
            marker_count: self.marker_count,
            out_of_range_markers: self.out_of_range_markers,
            malformed_markers: self.malformed_markers,
            markers_from: self.markers_from,
            chunk_count: self.chunk_count,
            confidence: self.confidence,
            chunks: self
                .chunks
                .iter()
                .map(|c| Chunk {
                    index: c.index,
                    document_id: c.document_id.as_ref().map(id_of),
                    chunk_id: c.chunk_id.as_ref().map(id_of),
                    score: c.score,
                })
                .collect(),
            tool_calls: self.tool_calls,
            tool_errors: self.tool_errors,
            model: self.model.clone().map(Cow::Owned),
            tokens_used: self.tokens_used,
            cost_cents: self.cost_cents,
            latency_ms: self.latency_ms,
            unobserved_reason: self.unobserved_reason,
        })
    }
}

/// The state of a report page: the heap's rows, newest first, and its counts.
#[derive(Debug, Serialize, Deserialize)]
pub struct PageState {
    pub rows: Vec<RowDoc>,
    /// Rows that matched, on every page.
    pub matching: u64,
    /// Of those, the rows `--cursor` passed over.
    pub newer: u64,
}

impl PageState {
    /// The state of a filled page heap.
    pub fn of(h: &PageHeap) -> Self {
        PageState {
            rows: h.entries().iter().map(|(r, p)| RowDoc::of(r, *p)).collect(),
            matching: h.matching,
            newer: h.newer,
        }
    }

    fn heap(&self, cap: usize, offset: u64) -> Result<PageHeap> {
        let rows = self
            .rows
            .iter()
            .map(|d| Ok((d.row()?, (d.pos.0 + offset, d.pos.1))))
            .collect::<Result<Vec<_>>>()?;
        Ok(PageHeap::from_parts(
            cap,
            None,
            rows,
            self.matching,
            self.newer,
        ))
    }
}

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

    fn grouped(&self) -> Result<Grouped> {
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

impl Partial {
    /// A partial of `command` with its options, accounting and no state yet.
    pub fn new(command: &str, options: BTreeMap<String, String>, input: &InputStats) -> Self {
        Partial {
            format: FORMAT.to_owned(),
            version: VERSION,
            command: command.to_owned(),
            options,
            input: InputDoc::of(input),
            summary: None,
            page: None,
            gate: None,
        }
    }

    /// The partial of a finished summary run. `input` is the run's accounting
    /// as the pipeline returned it (misread warnings included: they are
    /// dropped here and decided again after merging).
    pub fn of_summary(s: &Summary, input: &InputStats, options: BTreeMap<String, String>) -> Self {
        Partial {
            summary: Some(SummaryState::of(s)),
            ..Partial::new("summary", options, input)
        }
    }

    /// The partial of a report page.
    pub fn of_report(
        page: &PageHeap,
        input: &InputStats,
        options: BTreeMap<String, String>,
    ) -> Self {
        Partial {
            page: Some(PageState::of(page)),
            ..Partial::new("report", options, input)
        }
    }

    /// The partial of a check run: its gate inputs and its summary.
    pub fn of_check(
        gate: &Grouped,
        summary: &Summary,
        input: &InputStats,
        options: BTreeMap<String, String>,
    ) -> Self {
        Partial {
            gate: Some(GateState::of(gate)),
            summary: Some(SummaryState::of(summary)),
            ..Partial::new("check", options, input)
        }
    }

    /// Reads one partial, checking its format, version and sections.
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
        let has = (p.summary.is_some(), p.page.is_some(), p.gate.is_some());
        let want = match p.command.as_str() {
            "summary" => (true, false, false),
            "report" => (false, true, false),
            "check" => (true, false, true),
            other => bail!("{name}: a partial of `{other}`, which this build does not merge"),
        };
        if has != want {
            bail!(
                "{name}: a `{}` partial without its state sections",
                p.command
            );
        }
        Ok(p)
    }

    /// Turn ids of the rows this partial lists (triage, page).
    fn listed_ids(&self) -> impl Iterator<Item = &str> {
        let triage = self.summary.iter().flat_map(|s| &s.triage);
        let page = self.page.iter().flat_map(|p| &p.rows);
        triage
            .map(|e| e.turn_id.as_str())
            .chain(page.map(|r| r.turn_id.0.as_str()))
    }

    /// How far the input positions of the partials after this one are
    /// shifted: past every block this one's rows came from.
    fn span(&self) -> u64 {
        let triage = self.summary.iter().flat_map(|s| &s.triage).map(|e| e.pos.0);
        let page = self.page.iter().flat_map(|p| &p.rows).map(|r| r.pos.0);
        let blocks = triage.chain(page).max().map_or(0, |b| b + 1);
        blocks.max(self.input.files.max(1))
    }
}

/// What the merged state is built with: the summary's options (`summary`,
/// `check`) and the page heap's size (`report`).
#[derive(Debug, Clone, Copy)]
pub struct MergeOptions {
    pub summary: SummaryOptions,
    pub page_cap: usize,
}

/// What merging partials gives: the state sections of their command.
pub struct Merged {
    /// `summary`, `report` or `check`.
    pub command: String,
    pub summary: Option<Summary>,
    pub page: Option<PageHeap>,
    pub gate: Option<Grouped>,
    pub input: InputStats,
    /// The options the partials agree on.
    pub options: BTreeMap<String, String>,
    /// Turn ids listed by more than one partial.
    pub cross_partial_duplicates: u64,
}

/// Checks that the partials are of one command and made with the same
/// options (the error names the first option that differs); returns them.
pub fn agreed(parts: &[(String, Partial)]) -> Result<(&str, &BTreeMap<String, String>)> {
    let Some((first_name, first)) = parts.first() else {
        bail!("merge needs at least one partial");
    };
    for (name, p) in parts {
        if p.command != first.command {
            bail!(
                "{name} is a partial of `{}`, {first_name} of `{}`: partials of different commands do not merge",
                p.command,
                first.command
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
    Ok((&first.command, &first.options))
}

/// Merges partials in the order given, as [`agreed`] allows.
pub fn merge(parts: &[(String, Partial)], opts: MergeOptions) -> Result<Merged> {
    let (command, options) = agreed(parts)?;
    let mut merged = Merged {
        command: command.to_owned(),
        summary: None,
        page: None,
        gate: None,
        input: InputStats::default(),
        options: options.clone(),
        cross_partial_duplicates: 0,
    };
    let mut offset = 0;
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, (name, p)) in parts.iter().enumerate() {
        let context = || format!("reading partial {name}");
        for id in p.listed_ids() {
            match seen.get(id) {
                Some(&j) if j != i => merged.cross_partial_duplicates += 1,
                Some(_) => {}
                None => {
                    seen.insert(id, i);
                }
            }
        }
        if let Some(s) = &p.summary {
            let s = s.summary(opts.summary, offset).with_context(context)?;
            merge_into(&mut merged.summary, s);
        }
        if let Some(page) = &p.page {
            let h = page.heap(opts.page_cap, offset).with_context(context)?;
            merge_into(&mut merged.page, h);
        }
        if let Some(g) = &p.gate {
            merge_into(&mut merged.gate, g.grouped().with_context(context)?);
        }
        offset += p.span();
        merged.input.add(&p.input.stats());
    }
    // The misread heuristics, once over the whole run, as a single pass decides them.
    let misread = merged.input.probe.warnings();
    merged.input.warnings.merge(&misread);
    Ok(merged)
}

fn merge_into<A: crate::pipeline::Accumulator>(slot: &mut Option<A>, later: A) {
    match slot {
        Some(a) => a.merge(later),
        None => *slot = Some(later),
    }
}

/// The options every partial records: each flag that changes which turns
/// are read or how they are graded, by flag name. Time bounds are recorded
/// resolved (`--since 7d` means different instants on different days).
pub fn run_options(
    input: &crate::cli::InputArgs,
    filter: &crate::cli::FilterArgs,
    markers: &crate::cli::MarkerArgs,
    engine: &crate::pipeline::Engine,
) -> BTreeMap<String, String> {
    let (i, f) = (input, filter);
    let time = |t: Option<chrono::DateTime<chrono::Utc>>| {
        t.map_or_else(|| "-".to_owned(), |t| crate::model::format_time(&t))
    };
    [
        ("--input-format", i.input_format.clone()),
        ("--no-dedupe", i.no_dedupe.to_string()),
        ("--max-line-bytes", i.max_line_bytes.to_string()),
        ("--retrievals", format!("{:?}", i.retrievals)),
        ("--assembly-window", i.assembly_window.to_string()),
        ("--agent-name", format!("{:?}", i.agent_name)),
        ("--map", format!("{:?}", i.map)),
        ("--map-file", format!("{:?}", i.map_file)),
        ("--markers", markers_text(markers)),
        ("--from", time(engine.filter.from)),
        ("--to", time(engine.filter.to)),
        ("--agent", format!("{:?}", f.agent)),
        ("--channel", format!("{:?}", f.channel)),
        ("--model", format!("{:?}", f.model)),
        ("--turn", format!("{:?}", f.turn)),
        ("--conversation", format!("{:?}", f.conversation)),
        ("--grep", format!("{:?}", f.grep)),
        ("--cited-below", format!("{:?}", f.cited_below)),
        ("--confidence-below", format!("{:?}", f.confidence_below)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

/// The marker grammar as a partial records it and `merge`'s HTML page shows
/// it: the preset, or the regex with its index base.
fn markers_text(m: &crate::cli::MarkerArgs) -> String {
    use clap::ValueEnum;
    match (&m.marker_regex, m.markers) {
        (Some(re), _) => format!("regex {re} (base {})", m.marker_base),
        (None, Some(p)) => p
            .to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_owned()),
        (None, None) => "kb (default; id for agentfootprint input)".to_owned(),
    }
}

/// Writes a partial to the file at `path`, or to `out` for `-`.
pub fn write(path: &std::path::Path, doc: &Partial, out: &mut dyn std::io::Write) -> Result<()> {
    use std::io::Write as _;
    if path.as_os_str() == "-" {
        serde_json::to_writer(&mut *out, doc)?;
        out.write_all(b"\n")?;
        return Ok(());
    }
    let failed = |e: &dyn std::fmt::Display| {
        crate::exit::output(format!("--partial {}: {e}", path.display()))
    };
    let file = std::fs::File::create(path).map_err(|e| failed(&e))?;
    let mut f = std::io::BufWriter::new(file);
    serde_json::to_writer(&mut f, doc)?;
    f.write_all(b"\n").map_err(|e| failed(&e))?;
    f.flush().map_err(|e| failed(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page row survives the partial exactly: leap-second time, an
    /// integer id past i64, chunk ids of both kinds, every optional field.
    #[test]
    fn page_rows_round_trip_exactly() {
        let at = chrono::NaiveDate::from_ymd_opt(2016, 12, 31)
            .unwrap()
            .and_hms_nano_opt(23, 59, 59, 1_500_000_000)
            .unwrap()
            .and_utc();
        let row = Row {
            turn_id: Id {
                text: Cow::Borrowed("18446744073709551615"),
                numeric: true,
            },
            agent_id: Cow::Borrowed("a"),
            conversation_id: Some(Id::string("c")),
            channel: Cow::Borrowed("voice"),
            created_at: at,
            verdict: Verdict::Unobserved,
            partial: true,
            cited_chunks: vec![2, 3],
            marker_count: 4,
            out_of_range_markers: 1,
            malformed_markers: 2,
            markers_from: Some(MarkersFrom::Citations),
            chunk_count: 3,
            confidence: Some(0.1 + 0.2),
            chunks: vec![Chunk {
                index: 1,
                document_id: Some(Id {
                    text: Cow::Borrowed("7"),
                    numeric: true,
                }),
                chunk_id: Some(Id::string("7")),
                score: Some(-0.0),
            }],
            tool_calls: 5,
            tool_errors: 1,
            model: Some(Cow::Borrowed("m")),
            tokens_used: Some(u64::MAX),
            cost_cents: Some(1e-300),
            latency_ms: Some(12.25),
            unobserved_reason: Some(Unobserved::NoTurnEnd),
        };
        let heap = PageHeap::from_parts(5, None, vec![(row.clone(), (3, 17))], 9, 4);
        let p = Partial::of_report(&heap, &InputStats::default(), BTreeMap::new());
        let text = serde_json::to_string(&p).unwrap();
        let back = Partial::read(&text, "p").unwrap();
        let h = back.page.as_ref().unwrap().heap(5, 10).unwrap();
        assert_eq!((h.matching, h.newer), (9, 4));
        let (r, pos) = &h.entries()[0];
        assert_eq!(*pos, (13, 17));
        let json = |r: &Row<'_>| serde_json::to_string(r).unwrap();
        assert_eq!(json(r), json(&row));
        assert_eq!(r.created_at, at);
        assert_eq!(r.confidence, row.confidence);
    }

    /// Partials of different commands, or a command's partial without its
    /// sections, do not merge.
    #[test]
    fn commands_and_sections_are_checked() {
        let input = InputStats::default();
        let page = Partial::of_report(&PageHeap::new(2, None), &input, BTreeMap::new());
        let mut gate = Partial::new("check", BTreeMap::new(), &input);
        gate.gate = Some(GateState::of(&Grouped::default()));
        let text = serde_json::to_string(&gate).unwrap();
        let err = Partial::read(&text, "g").unwrap_err();
        assert!(
            format!("{err:#}").contains("without its state sections"),
            "{err:#}"
        );
        let parts = vec![
            ("a".to_owned(), page),
            (
                "b".to_owned(),
                Partial::new("summary", BTreeMap::new(), &input),
            ),
        ];
        let err = agreed(&parts).unwrap_err();
        assert!(
            format!("{err}").contains("partials of different commands"),
            "{err}"
        );
    }
}

//! `summary`: one streaming pass over every matching turn: totals, the
//! breakdown by agent (or channel, or model), the daily trend, the triage
//! list, retrieval use, tool calls and telemetry per verdict.

use crate::accumulate::Rollup;
use crate::accumulate::summary::{
    GroupStats, RetrievalUse, Summary, SummaryOptions, Telemetry, ToolUse,
};
use crate::cli::{GroupBy, Section as CsvSection, SummaryArgs, SummaryFormat};
use crate::config::{self, Settings};
use crate::exit;
use crate::model::{Row, Verdict, format_time};
use crate::pipeline::{self, Accumulator, InputStats};
use crate::render::{self, Section, bar, rate};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;

/// One group of the breakdown.
#[derive(Debug, Serialize)]
pub struct GroupDoc<'a> {
    pub key: &'a str,
    #[serde(flatten)]
    pub rollup: &'a Rollup,
    pub retrieval_use: RetrievalDoc<'a>,
    pub tools: &'a ToolUse,
}

/// Retrieval use with its derived ratios.
#[derive(Debug, Serialize)]
pub struct RetrievalDoc<'a> {
    #[serde(flatten)]
    pub counts: &'a RetrievalUse,
    pub cited_share: Option<f64>,
    pub mean_cited_rank: Option<f64>,
}

fn retrieval_doc(r: &RetrievalUse) -> RetrievalDoc<'_> {
    RetrievalDoc {
        counts: r,
        cited_share: r.cited_share(),
        mean_cited_rank: r.mean_cited_rank(),
    }
}

/// One day of the trend.
#[derive(Debug, Serialize)]
pub struct DayDoc {
    pub day: String,
    pub turns: u64,
    pub with_retrieval: u64,
    pub grounded: u64,
    pub grounded_rate: Option<f64>,
}

/// One triage entry: the row fields that matter for triage.
#[derive(Debug, Serialize)]
pub struct TriageDoc<'a> {
    pub turn_id: &'a crate::model::Id<'static>,
    pub agent_id: &'a str,
    pub conversation_id: Option<&'a crate::model::Id<'static>>,
    pub channel: &'a str,
    pub created_at: String,
    /// `created_at` as tables show it (local with `--show-tz`).
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

fn telemetry_doc(t: &Telemetry, turns: u64) -> TelemetryDoc {
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
    pub overall: &'a ToolUse,
    pub by_group: Vec<ToolRow<'a>>,
}

/// Tool calls of one group.
#[derive(Debug, Serialize)]
pub struct ToolRow<'a> {
    pub key: &'a str,
    #[serde(flatten)]
    pub tools: &'a ToolUse,
}

/// The `summary --format json` document.
#[derive(Debug, Serialize)]
pub struct SummaryDoc<'a> {
    pub totals: &'a Rollup,
    pub group_by: &'static str,
    /// The zone days are counted in (`--tz`).
    pub tz: String,
    pub groups: Vec<GroupDoc<'a>>,
    pub triage: Vec<TriageDoc<'a>>,
    pub days: Vec<DayDoc>,
    pub retrieval_use: RetrievalDoc<'a>,
    pub low_score: f64,
    pub tools: ToolsDoc<'a>,
    pub telemetry: PerVerdict<TelemetryDoc>,
    pub input: &'a InputStats,
}

fn by_name(b: GroupBy) -> &'static str {
    match b {
        GroupBy::Agent => "agent",
        GroupBy::Channel => "channel",
        GroupBy::Model => "model",
    }
}

/// Builds the document from a finished summary.
pub fn document<'a>(
    s: &'a Summary,
    triage: &'a [Row<'static>],
    input: &'a InputStats,
    clock: &render::Clock,
) -> SummaryDoc<'a> {
    let groups: Vec<(&String, &GroupStats)> = s.sorted_groups();
    SummaryDoc {
        totals: &s.totals,
        group_by: by_name(s.opts.by),
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
        triage: triage
            .iter()
            .map(|r| TriageDoc {
                turn_id: &r.turn_id,
                agent_id: &r.agent_id,
                conversation_id: r.conversation_id.as_ref(),
                channel: &r.channel,
                created_at: format_time(&r.created_at),
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
            .days
            .iter()
            .map(|(d, r)| DayDoc {
                day: d.to_string(),
                turns: r.turns,
                with_retrieval: r.with_retrieval,
                grounded: r.grounded(),
                grounded_rate: r.grounded_rate(),
            })
            .collect(),
        retrieval_use: retrieval_doc(&s.retrieval),
        low_score: s.opts.low_score,
        tools: ToolsDoc {
            overall: &s.tools,
            by_group: groups
                .iter()
                .map(|(k, g)| ToolRow {
                    key: k,
                    tools: &g.tools,
                })
                .collect(),
        },
        telemetry: PerVerdict(
            Verdict::ALL.map(|v| telemetry_doc(s.telemetry_of(v), s.totals.count(v))),
        ),
        input,
    }
}

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map_or_else(|| "-".to_owned(), |x| x.to_string())
}

const GROUP_HEADER: [&str; 10] = [
    "group",
    "turns",
    "with_retrieval",
    "ok",
    "no_marker",
    "orphan_marker",
    "empty_retrieval",
    "unobserved",
    "ungrounded",
    "grounded_rate",
];
const DAY_HEADER: [&str; 6] = [
    "day",
    "turns",
    "with_retrieval",
    "grounded",
    "grounded_rate",
    "trend",
];
const TRIAGE_HEADER: [&str; 9] = [
    "created_at",
    "turn_id",
    "agent_id",
    "verdict",
    "marker_count",
    "out_of_range_markers",
    "malformed_markers",
    "confidence",
    "tool_errors",
];

fn group_rows(doc: &SummaryDoc<'_>) -> Vec<Vec<String>> {
    doc.groups
        .iter()
        .map(|g| {
            let mut row = vec![
                g.key.to_owned(),
                g.rollup.turns.to_string(),
                g.rollup.with_retrieval.to_string(),
            ];
            row.extend(Verdict::ALL.iter().map(|v| g.rollup.count(*v).to_string()));
            row.push(g.rollup.ungrounded().to_string());
            row.push(rate(g.rollup.grounded_rate()));
            row
        })
        .collect()
}

fn day_rows(doc: &SummaryDoc<'_>, with_bar: bool) -> Vec<Vec<String>> {
    doc.days
        .iter()
        .map(|d| {
            let mut row = vec![
                d.day.clone(),
                d.turns.to_string(),
                d.with_retrieval.to_string(),
                d.grounded.to_string(),
                rate(d.grounded_rate),
            ];
            if with_bar {
                row.push(bar(d.grounded_rate, 20));
            }
            row
        })
        .collect()
}

fn triage_rows(doc: &SummaryDoc<'_>) -> Vec<Vec<String>> {
    doc.triage
        .iter()
        .map(|t| {
            vec![
                t.shown_at.clone(),
                t.turn_id.as_str().to_owned(),
                t.agent_id.to_owned(),
                t.verdict.as_str().to_owned(),
                t.marker_count.to_string(),
                t.out_of_range_markers.to_string(),
                t.malformed_markers.to_string(),
                t.confidence
                    .map_or_else(|| "-".into(), |c| format!("{c:.2}")),
                t.tool_errors.to_string(),
            ]
        })
        .collect()
}

/// The human sections (table and markdown formats).
pub fn sections(doc: &SummaryDoc<'_>, with_bar: bool) -> Vec<Section> {
    let mut totals = Section::new("Totals", &[]);
    totals.notes = render::rollup_lines(doc.totals);
    let mut groups = Section::new(
        format!("By {}, most ungrounded first", doc.group_by),
        &GROUP_HEADER,
    )
    .numeric(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
    groups.rows = group_rows(doc);
    let header: &[&'static str] = if with_bar {
        &DAY_HEADER
    } else {
        &DAY_HEADER[..5]
    };
    let mut days = Section::new(
        if doc.tz == "UTC" {
            "Daily trend (grounded rate)".to_owned()
        } else {
            format!("Daily trend (grounded rate, days in {})", doc.tz)
        },
        header,
    )
    .numeric(&[1, 2, 3, 4]);
    days.rows = day_rows(doc, with_bar);
    let mut triage = Section::new(
        format!("Triage: {} most recent ungrounded turns", doc.triage.len()),
        &TRIAGE_HEADER,
    )
    .numeric(&[4, 5, 6, 7, 8]);
    triage.rows = triage_rows(doc);
    let mut retrieval = Section::new(
        format!("Retrieval use (low score < {})", doc.low_score),
        &[
            "group",
            "chunks_retrieved",
            "chunks_cited",
            "cited_share",
            "only_top_chunk",
            "mean_cited_rank",
            "low_conf_citations",
            "mixed_conf_turns",
        ],
    )
    .numeric(&[1, 2, 3, 4, 5, 6, 7]);
    let rrow = |key: &str, r: &RetrievalDoc<'_>| {
        vec![
            key.to_owned(),
            r.counts.chunks_retrieved.to_string(),
            r.counts.chunks_cited.to_string(),
            rate(r.cited_share),
            r.counts.turns_citing_only_top.to_string(),
            r.mean_cited_rank
                .map_or_else(|| "-".into(), |m| format!("{m:.2}")),
            r.counts.low_confidence_citations.to_string(),
            r.counts.mixed_confidence_turns.to_string(),
        ]
    };
    retrieval.rows.push(rrow("(all)", &doc.retrieval_use));
    retrieval
        .rows
        .extend(doc.groups.iter().map(|g| rrow(g.key, &g.retrieval_use)));
    let mut tools = Section::new(
        "Tool calls",
        &[
            "group",
            "calls",
            "failed_calls",
            "ungrounded_with_failed_tool",
        ],
    )
    .numeric(&[1, 2, 3]);
    let trow = |key: &str, t: &ToolUse| {
        vec![
            key.to_owned(),
            t.calls.to_string(),
            t.failed_calls.to_string(),
            t.ungrounded_with_failed_tool.to_string(),
        ]
    };
    tools.rows.push(trow("(all)", doc.tools.overall));
    tools
        .rows
        .extend(doc.tools.by_group.iter().map(|g| trow(g.key, g.tools)));
    let mut telemetry = Section::new(
        "Telemetry by verdict",
        &[
            "verdict",
            "turns",
            "latency_ms_p50",
            "latency_ms_p95",
            "tokens_used",
            "cost_cents",
        ],
    )
    .numeric(&[1, 2, 3, 4, 5]);
    telemetry.rows = Verdict::ALL
        .iter()
        .zip(&doc.telemetry.0)
        .map(|(v, t)| {
            vec![
                v.as_str().to_owned(),
                t.turns.to_string(),
                opt(t.latency_ms_median),
                opt(t.latency_ms_p95),
                opt(t.tokens_used),
                t.cost_cents
                    .map_or_else(|| "-".into(), |c| format!("{c:.2}")),
            ]
        })
        .collect();
    let mut input = Section::new("Input", &[]);
    input.notes = vec![render::input_line(doc.input)];
    let mut out = vec![totals, groups, days];
    if !doc.triage.is_empty() || doc.totals.turns == 0 {
        out.push(triage);
    }
    out.extend([retrieval, tools, telemetry, input]);
    out
}

/// Runs `summary`.
pub fn run(args: &SummaryArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    if !(args.low_score.is_finite()) {
        return Err(exit::usage("--low-score must be a number"));
    }
    if args.section.is_some() && args.format != SummaryFormat::Csv {
        return Err(exit::usage(
            "--section picks the table of --format csv; the other formats print every section",
        ));
    }
    let filter = config::filter(&args.filter)?;
    let clock = config::clock(&args.filter.zone)?;
    let hints = super::hints::Hints::of(&filter);
    let engine = config::engine(settings, &args.input, filter, &args.markers)?;
    let tz = clock.zone;
    let opts = SummaryOptions {
        by: args.by,
        triage: args.triage,
        tz,
        low_score: args.low_score,
    };
    let sources = config::sources(settings, &args.input, "summary")?;
    let bar = settings.progress_bar(crate::input::total_bytes(&sources));
    let mut summary = Summary::new(opts);
    let input = pipeline::run(
        &engine,
        &sources,
        bar.as_ref(),
        || Summary::new(opts),
        |s| {
            summary.merge(s);
            Ok(())
        },
    )?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if summary.totals.turns == 0 {
        hints.explain_nothing(&engine, &sources)?;
    }
    let triage = std::mem::replace(
        &mut summary.triage,
        crate::accumulate::PageHeap::new(0, None),
    )
    .into_rows();
    let doc = document(&summary, &triage, &input, &clock);
    match args.format {
        SummaryFormat::Json => render::json::document(out, &doc),
        SummaryFormat::Table => render::table::sections(out, &sections(&doc, true)),
        SummaryFormat::Markdown => render::markdown::sections(out, &sections(&doc, true)),
        SummaryFormat::Csv => {
            let (header, rows): (&[&str], _) = match args.section.unwrap_or(CsvSection::Groups) {
                CsvSection::Groups => (&GROUP_HEADER, group_rows(&doc)),
                CsvSection::Days => (&DAY_HEADER[..5], day_rows(&doc, false)),
                CsvSection::Triage => (&TRIAGE_HEADER, triage_rows(&doc)),
            };
            render::csv::table(out, header, &rows, args.csv_raw)
        }
    }
}

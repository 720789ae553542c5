//! The summary view's tables: the sections that `table`, `markdown` and
//! `csv` draw (and that the HTML report shows beside its charts), all built
//! from the one view model, [`SummaryDoc`]. The command only builds the view.

use super::{Section, bar, rate};
use crate::accumulate::summary::{Guardrail, SCORE_BINS, ScoreDistribution, ScoreSeries, ToolUse};
use crate::compare::{self, Comparison};
use crate::model::Verdict;
use crate::view::summary::{RetrievalDoc, SummaryDoc};
use anyhow::Result;
use std::io::Write;

/// The formats of `summary` (and of `merge` over summary partials).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Markdown,
    Csv,
    Html,
    Prometheus,
}

impl super::Output for Format {
    const DEFAULT: Format = Format::Table;
    fn human(self) -> bool {
        matches!(self, Format::Table | Format::Markdown | Format::Csv)
    }
}

impl crate::model::Named for Format {
    const ALL: &'static [Format] = &[
        Format::Table,
        Format::Json,
        Format::Markdown,
        Format::Csv,
        Format::Html,
        Format::Prometheus,
    ];
    fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Csv => "csv",
            Format::Html => "html",
            Format::Prometheus => "prometheus",
        }
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Format::Table => "Tables for the terminal, with a trend bar per day",
            Format::Json => "One document with a key per section",
            Format::Markdown => "Markdown tables",
            Format::Csv => "One section as CSV (see --section)",
            Format::Html => {
                "One self-contained HTML page with charts (no network, works without JavaScript)"
            }
            Format::Prometheus => {
                "Metrics in the Prometheus text format (textfile collector, Pushgateway)"
            }
        })
    }
}

impl Format {
    /// Draws the summary's view in this format: `section` is the table of
    /// `csv`, `meta` what the HTML page says about the run.
    pub fn draw(
        self,
        out: &mut dyn Write,
        doc: &SummaryDoc,
        section: Option<CsvSection>,
        csv: super::escape::Csv,
        meta: &super::html::Meta,
    ) -> Result<()> {
        match self {
            Format::Html => super::html::summary(out, doc, meta),
            Format::Json => super::json::document(out, doc),
            Format::Table => super::table::sections(out, &sections(doc, true)),
            Format::Markdown => super::markdown::sections(out, &sections(doc, true)),
            Format::Csv => self::csv(out, doc, section, csv),
            Format::Prometheus => super::prometheus::summary(out, doc),
        }
    }
}

/// The section `summary --format csv` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsvSection {
    Groups,
    /// The trend, one row per bucket (--bucket; days by default).
    Days,
    /// The trend per group: one row per group and bucket.
    GroupDays,
    Triage,
    /// What require_citation would refuse, per group.
    Guardrail,
    /// Chunk scores of cited and uncited chunks per group, in 20 bins over [0, 1].
    Scores,
    /// The comparison with the baseline (--compare, --compare-from/--compare-to, --compare-previous).
    Compare,
    /// Evidence completeness per group and bucket: turns whose retrieved documents are in the export, and why the rest are not.
    Evidence,
}

impl crate::model::Named for CsvSection {
    const ALL: &'static [CsvSection] = &[
        CsvSection::Groups,
        CsvSection::Days,
        CsvSection::GroupDays,
        CsvSection::Triage,
        CsvSection::Guardrail,
        CsvSection::Scores,
        CsvSection::Compare,
        CsvSection::Evidence,
    ];
    fn name(self) -> &'static str {
        match self {
            CsvSection::Groups => "groups",
            CsvSection::Days => "days",
            CsvSection::GroupDays => "group-days",
            CsvSection::Triage => "triage",
            CsvSection::Guardrail => "guardrail",
            CsvSection::Scores => "scores",
            CsvSection::Compare => "compare",
            CsvSection::Evidence => "evidence",
        }
    }
    fn about(self) -> Option<&'static str> {
        match self {
            CsvSection::Groups | CsvSection::Triage => None,
            CsvSection::Days => Some("The trend, one row per bucket (--bucket; days by default)"),
            CsvSection::GroupDays => Some("The trend per group: one row per group and bucket"),
            CsvSection::Guardrail => Some("What require_citation would refuse, per group"),
            CsvSection::Scores => {
                Some("Chunk scores of cited and uncited chunks per group, in 20 bins over [0, 1]")
            }
            CsvSection::Compare => Some(
                "The comparison with the baseline (--compare, --compare-from/--compare-to, --compare-previous)",
            ),
            CsvSection::Evidence => Some(
                "Evidence completeness per group and bucket: turns whose retrieved documents are in the export, and why the rest are not",
            ),
        }
    }
}

fn opt<T: ToString>(x: Option<T>) -> String {
    x.map_or_else(|| "-".to_owned(), |x| x.to_string())
}

const GROUP_HEADER: [&str; 11] = [
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
    "coverage",
];
const DAY_HEADER: [&str; 6] = [
    "day",
    "turns",
    "with_retrieval",
    "grounded",
    "grounded_rate",
    "trend",
];
const TRIAGE_HEADER: [&str; 11] = [
    "created_at",
    "turn_id",
    "agent_id",
    "verdict",
    "marker_count",
    "out_of_range_markers",
    "malformed_markers",
    "confidence",
    "tool_errors",
    "severity",
    "reason",
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
            row.push(rate(g.rollup.support.coverage()));
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

const GROUP_DAY_HEADER: [&str; 6] = [
    "group",
    "day",
    "turns",
    "with_retrieval",
    "grounded",
    "grounded_rate",
];

fn group_day_rows(doc: &SummaryDoc<'_>) -> Vec<Vec<String>> {
    doc.group_days
        .iter()
        .map(|g| {
            vec![
                g.key.to_owned(),
                g.day.day.clone(),
                g.day.turns.to_string(),
                g.day.with_retrieval.to_string(),
                g.day.grounded.to_string(),
                rate(g.day.grounded_rate),
            ]
        })
        .collect()
}

const GUARDRAIL_HEADER: [&str; 5] = [
    "group",
    "answered",
    "would_refuse",
    "refused_share",
    "orphans_let_through",
];

fn guardrail_rows(doc: &SummaryDoc<'_>) -> Vec<Vec<String>> {
    let row = |key: &str, g: &Guardrail, share: Option<f64>| {
        vec![
            key.to_owned(),
            g.answered.to_string(),
            g.refused.to_string(),
            rate(share),
            g.orphans_passed.to_string(),
        ]
    };
    let mut rows = vec![row(
        "(all)",
        &doc.guardrail.overall,
        doc.guardrail.refused_share,
    )];
    rows.extend(
        doc.guardrail
            .by_group
            .iter()
            .map(|g| row(g.key, g.counts, g.refused_share)),
    );
    rows
}

const COMPARE_HEADER: [&str; 10] = [
    "group",
    "baseline_rate",
    "current_rate",
    "difference",
    "low",
    "high",
    "baseline_with_retrieval",
    "current_with_retrieval",
    "significant",
    "since",
];

fn signed(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |x| format!("{x:+.4}"))
}

fn compare_rows(c: &Comparison) -> Vec<Vec<String>> {
    std::iter::once(&c.overall)
        .chain(&c.groups)
        .map(|r| {
            let n = |s: Option<compare::Side>| {
                s.map_or_else(|| "0".to_owned(), |s| s.with_retrieval.to_string())
            };
            vec![
                r.key.clone().unwrap_or_else(|| "(all)".to_owned()),
                rate(r.baseline_rate),
                rate(r.current_rate),
                signed(r.difference),
                signed(r.low),
                signed(r.high),
                n(r.baseline),
                n(r.current),
                if r.significant_drop() {
                    "drop".to_owned()
                } else if r.significant {
                    "rise".to_owned()
                } else {
                    "no".to_owned()
                },
                r.change
                    .as_ref()
                    .map_or_else(String::new, |c| c.since.clone()),
            ]
        })
        .collect()
}

/// A comparison row's change in words, each number named for what it
/// compares: `0.9257 → 0.8000 (baseline → this window), difference -0.1257,
/// 95 % Newcombe interval [-0.1600, -0.0900]: a significant drop`.
pub fn change_text(r: &compare::Row, confidence: f64) -> String {
    let rates = format!(
        "{} → {} (baseline → this window)",
        rate(r.baseline_rate),
        rate(r.current_rate)
    );
    let Some(d) = r.difference else {
        return format!("{rates}, no difference: a side has no turn with retrieval");
    };
    let verdict = if r.significant_drop() {
        "a significant drop"
    } else if r.significant {
        "a significant rise"
    } else {
        "not significant"
    };
    format!(
        "{rates}, difference {d:+.4}, {} % Newcombe interval [{}, {}]: {verdict}",
        crate::gate::percent(confidence),
        signed(r.low),
        signed(r.high)
    )
}

/// The comparison's lines: the baseline and what the intervals are, the
/// overall change, then each significant drop, worst first
/// (`significant drop: billing-bot: 0.9257 → 0.8000 (baseline → this
/// window); change day 2026-08-02, 0.9400 before it and 0.7900 from it on`).
pub fn compare_lines(c: &Comparison) -> Vec<String> {
    let mut overall = format!("overall: {}", change_text(&c.overall, c.confidence));
    if let Some(ch) = &c.overall.change {
        overall.push_str(&format!("; {}", ch.describe()));
    }
    let mut lines = vec![
        format!(
            "baseline: {} · differences are this window − baseline, with {} % Newcombe intervals",
            c.baseline,
            crate::gate::percent(c.confidence)
        ),
        overall,
    ];
    let drops: Vec<String> = c
        .groups
        .iter()
        .filter(|r| r.significant_drop())
        .map(|r| format!("significant drop: {r}"))
        .collect();
    if drops.is_empty() && !c.overall.significant_drop() {
        lines.push("no significant drop".to_owned());
    }
    lines.extend(drops);
    lines
}

/// What the run read and how: its time window and the marker grammars
/// its turns were graded with.
pub fn run_lines(doc: &SummaryDoc<'_>) -> Vec<String> {
    vec![
        format!(
            "time window: {} · trend by {} in {}",
            doc.window.shown, doc.bucket, doc.tz
        ),
        format!("marker grammar: {}", super::grammar_text(doc.input)),
    ]
}

/// The triage list's rows: every column of [`TRIAGE_HEADER`], or without
/// `severity` (which the reason says in words) for the tables.
fn triage_rows(doc: &SummaryDoc<'_>, severity: bool) -> Vec<Vec<String>> {
    doc.triage
        .iter()
        .map(|t| {
            let mut row = vec![
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
            ];
            if severity {
                row.push(t.severity.to_owned());
            }
            row.push(t.reason.clone());
            row
        })
        .collect()
}

/// The triage section's title: what the list is and in which order. A
/// turn that cites with nothing retrieved is outside the grounded rate's
/// `ungrounded`, and an `ok` turn listed for a quote or its hints is not
/// ungrounded, so the title counts them apart.
pub fn triage_title(doc: &SummaryDoc<'_>) -> String {
    use crate::model::Verdict;
    let count = |f: &dyn Fn(&crate::view::summary::TriageDoc<'_>) -> bool| {
        doc.triage.iter().filter(|t| f(t)).count()
    };
    let hinted = count(&|t| t.verdict == Verdict::Ok && t.severity == "hinted");
    let quoted = count(&|t| t.verdict == Verdict::Ok && t.severity != "hinted");
    let outside = count(&|t| t.verdict != Verdict::Ok && t.chunk_count == 0);
    let ungrounded = doc.triage.len() - hinted - quoted - outside;
    let what = if hinted + quoted + outside == 0 {
        format!("{ungrounded} ungrounded turns")
    } else {
        let parts: Vec<String> = [
            (ungrounded, "ungrounded"),
            (outside, "citing with nothing retrieved"),
            (quoted, "ok with a quote not in its chunk"),
            (hinted, "ok with hints to read"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        format!("{} turns ({})", doc.triage.len(), parts.join(", "))
    };
    match doc.triage_order {
        "recent" => format!("Triage: {what}, most recent first"),
        _ => format!("Triage: {what}, most severe first"),
    }
}

const SCORE_HEADER: [&str; 6] = [
    "group",
    "score",
    "cited",
    "cited_share",
    "uncited",
    "uncited_share",
];

/// The score distribution of one group as rows of [`SCORE_HEADER`]: a row
/// per bin (`0.70-0.75`; shares of each series' chunks in the bins), then
/// `unscored` and `out_of_range`, whose shares are empty (they are not
/// in the bins the shares are of).
fn score_rows_of(key: &str, d: &ScoreDistribution) -> Vec<Vec<String>> {
    let share =
        |s: &ScoreSeries, i: usize| s.share(i).map_or_else(String::new, |x| format!("{x:.4}"));
    let mut rows: Vec<Vec<String>> = (0..SCORE_BINS)
        .map(|i| {
            let (lo, hi) = ScoreSeries::bin_range(i);
            vec![
                key.to_owned(),
                format!("{lo:.2}-{hi:.2}"),
                d.cited.bins[i].to_string(),
                share(&d.cited, i),
                d.uncited.bins[i].to_string(),
                share(&d.uncited, i),
            ]
        })
        .collect();
    for (label, c, u) in [
        ("unscored", d.cited.unscored, d.uncited.unscored),
        ("out_of_range", d.cited.out_of_range, d.uncited.out_of_range),
    ] {
        rows.push(vec![
            key.to_owned(),
            label.to_owned(),
            c.to_string(),
            String::new(),
            u.to_string(),
            String::new(),
        ]);
    }
    rows
}

fn score_rows(doc: &SummaryDoc<'_>) -> Vec<Vec<String>> {
    let mut rows = score_rows_of("(all)", &doc.retrieval_use.counts.scores);
    for g in &doc.groups {
        rows.extend(score_rows_of(g.key, &g.retrieval_use.counts.scores));
    }
    rows
}

/// The score distribution of all groups, cited against uncited chunks
/// (the HTML report draws it; table and Markdown list it).
pub fn scores_section(doc: &SummaryDoc<'_>) -> Section {
    let mut sec = Section::new(
        "Chunk scores, cited against uncited (shares of each kind's chunks scored in [0, 1])",
        &SCORE_HEADER[1..],
    )
    .numeric(&[1, 2, 3, 4]);
    sec.rows = score_rows_of("", &doc.retrieval_use.counts.scores)
        .into_iter()
        .map(|mut r| r.split_off(1))
        .collect();
    sec
}

/// One kind of chunk's bins in a line of text, a character per bin of
/// 0.05 from 0 to 1: `·` for an empty bin, `▁` to `█` for its share of
/// the kind's binned chunks, up to the kind's largest share (`█`), so the
/// strip shows where the kind's scores lie whatever their number.
pub fn score_strip(s: &ScoreSeries) -> String {
    const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let max = peak(s);
    (0..SCORE_BINS)
        .map(|i| match s.share(i) {
            Some(x) if s.bins[i] > 0 && max > 0.0 => {
                let level = ((x / max) * 8.0).ceil().clamp(1.0, 8.0) as usize;
                LEVELS[level - 1]
            }
            _ => '·',
        })
        .collect()
}

/// The largest bin share of one kind of chunk (0 when none is binned).
pub fn peak(s: &ScoreSeries) -> f64 {
    (0..SCORE_BINS)
        .filter_map(|i| s.share(i))
        .fold(0.0, f64::max)
}

/// The bin holding a kind's median score, as `0.80-0.85`, or `-`.
pub fn median_text(s: &ScoreSeries) -> String {
    s.median_bin().map_or_else(
        || "-".to_owned(),
        |i| {
            let (lo, hi) = ScoreSeries::bin_range(i);
            format!("{lo:.2}-{hi:.2}")
        },
    )
}

const SCORE_GROUP_HEADER: [&str; 9] = [
    "group",
    "cited",
    "cited_median",
    "cited_scores",
    "uncited",
    "uncited_median",
    "uncited_scores",
    "unscored",
    "out_of_range",
];

/// The score distribution of each group (and all), one row each: per kind
/// the chunks in the bins, the bin of their median score and the bins as
/// a strip ([`score_strip`]), then the chunks of both kinds without a
/// score and scored outside [0, 1].
pub fn score_groups_section(doc: &SummaryDoc<'_>) -> Section {
    let mut sec = Section::new(
        format!(
            "Chunk scores by {}, cited against uncited (a character per bin of 0.05 from 0 to 1: · empty, ▁ to █ the bin's share of the kind's chunks scored in [0, 1], █ the kind's largest)",
            doc.group_by
        ),
        &SCORE_GROUP_HEADER,
    )
    .numeric(&[1, 4, 7, 8]);
    let row = |key: &str, d: &ScoreDistribution| {
        vec![
            key.to_owned(),
            d.cited.binned().to_string(),
            median_text(&d.cited),
            score_strip(&d.cited),
            d.uncited.binned().to_string(),
            median_text(&d.uncited),
            score_strip(&d.uncited),
            (d.cited.unscored + d.uncited.unscored).to_string(),
            (d.cited.out_of_range + d.uncited.out_of_range).to_string(),
        ]
    };
    sec.rows
        .push(row("(all)", &doc.retrieval_use.counts.scores));
    sec.rows.extend(
        doc.groups
            .iter()
            .map(|g| row(g.key, &g.retrieval_use.counts.scores)),
    );
    sec
}

/// The comparison as a table: overall, then each group, worst
/// significant drop first, with the notes of [`compare_lines`].
pub fn compare_section(c: &Comparison) -> Section {
    let mut s = Section::new(
        "Compared with the baseline, worst significant drop first",
        &COMPARE_HEADER,
    )
    .numeric(&[1, 2, 3, 4, 5, 6, 7]);
    s.rows = compare_rows(c);
    s.notes = compare_lines(c);
    s
}

/// The human sections (table and markdown formats).
pub fn sections(doc: &SummaryDoc<'_>, with_bar: bool) -> Vec<Section> {
    let mut totals = Section::new("Totals", &[]);
    totals.notes = super::rollup_lines(&doc.totals);
    let mut groups = Section::new(
        format!("By {}, most ungrounded first", doc.group_by),
        &GROUP_HEADER,
    )
    .numeric(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    groups.rows = group_rows(doc);
    // The tables head the period column by the bucket (`week`, `hour`);
    // CSV keeps its stable column name `day`.
    let mut day_header = DAY_HEADER;
    day_header[0] = doc.bucket;
    let header: &[&'static str] = if with_bar {
        &day_header
    } else {
        &day_header[..5]
    };
    let mut title = match doc.bucket {
        "day" => "Daily trend (grounded rate)".to_owned(),
        b => format!("Trend by {b} (grounded rate)"),
    };
    if doc.tz != "UTC" {
        title = format!("{}, in {})", title.trim_end_matches(')'), doc.tz);
    }
    let mut days = Section::new(title, header).numeric(&[1, 2, 3, 4]);
    days.rows = day_rows(doc, with_bar);
    let mut group_day_header = GROUP_DAY_HEADER;
    group_day_header[1] = doc.bucket;
    let mut group_days = Section::new(
        format!("Trend by {} and {}", doc.group_by, doc.bucket),
        &group_day_header,
    )
    .numeric(&[2, 3, 4, 5]);
    group_days.rows = group_day_rows(doc);
    let mut guardrail = Section::new(
        "Guardrail what-if: require_citation (refuses an answer with retrieval and no well-formed marker)",
        &GUARDRAIL_HEADER,
    )
    .numeric(&[1, 2, 3, 4]);
    guardrail.rows = guardrail_rows(doc);
    let header: Vec<&str> = TRIAGE_HEADER
        .iter()
        .copied()
        .filter(|h| *h != "severity")
        .collect();
    let mut triage = Section::new(triage_title(doc), &header).numeric(&[4, 5, 6, 7, 8]);
    triage.rows = triage_rows(doc, false);
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
    let rrow = |key: &str, r: &RetrievalDoc| {
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
    let (tools, telemetry) = (tools_section(doc), telemetry_section(doc));
    let mut input = Section::new("Input", &[]);
    input.notes = vec![super::input_line(doc.input)];
    input.notes.extend(run_lines(doc));
    let mut out = vec![totals];
    if let Some(c) = doc.compare {
        out.push(compare_section(c));
    }
    out.extend([groups, days, group_days]);
    if !doc.triage.is_empty() || doc.totals.turns == 0 {
        out.push(triage);
    }
    out.extend([guardrail, retrieval, super::evidence::section(doc)]);
    if doc.retrieval_use.counts.chunks_retrieved > 0 {
        out.push(scores_section(doc));
        out.push(score_groups_section(doc));
    }
    out.extend([tools, telemetry, input]);
    out
}

/// `summary --format csv`: one section as CSV (`--section`, default groups).
pub fn csv(
    out: &mut dyn Write,
    doc: &SummaryDoc<'_>,
    section: Option<CsvSection>,
    mode: super::escape::Csv,
) -> Result<()> {
    let evidence;
    let (header, rows): (&[&str], _) = match section.unwrap_or(CsvSection::Groups) {
        CsvSection::Groups => (&GROUP_HEADER, group_rows(doc)),
        CsvSection::Days => (&DAY_HEADER[..5], day_rows(doc, false)),
        CsvSection::GroupDays => (&GROUP_DAY_HEADER, group_day_rows(doc)),
        CsvSection::Triage => (&TRIAGE_HEADER, triage_rows(doc, true)),
        CsvSection::Guardrail => (&GUARDRAIL_HEADER, guardrail_rows(doc)),
        CsvSection::Scores => (&SCORE_HEADER, score_rows(doc)),
        CsvSection::Compare => (
            &COMPARE_HEADER,
            compare_rows(doc.compare.expect("the command checks for a baseline")),
        ),
        CsvSection::Evidence => {
            let (header, rows) = super::evidence::group_day_rows(doc);
            evidence = header;
            (&evidence[..], rows)
        }
    };
    let numbers: &[usize] = if section == Some(CsvSection::Compare) {
        &[1, 2, 3, 4, 5, 6, 7]
    } else {
        &[]
    };
    super::csv::table_with_numbers(out, header, &rows, mode, numbers)
}

/// Tool calls overall and per group.
pub fn tools_section(doc: &SummaryDoc<'_>) -> Section {
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
    tools.rows.push(trow("(all)", &doc.tools.overall));
    tools
        .rows
        .extend(doc.tools.by_group.iter().map(|g| trow(g.key, g.tools)));
    tools
}

/// Telemetry per verdict.
pub fn telemetry_section(doc: &SummaryDoc<'_>) -> Section {
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
    telemetry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_strip_scales_each_kind_to_its_largest_share() {
        let mut d = ScoreDistribution::default();
        d.cited.bins[0] = 1;
        d.cited.bins[19] = 3;
        d.uncited.bins[10] = 100;
        d.uncited.bins[11] = 50;
        assert_eq!(peak(&d.cited), 0.75);
        let cited = score_strip(&d.cited);
        assert_eq!(cited.chars().count(), SCORE_BINS);
        // A third and all of the largest share; an empty bin is a dot.
        assert_eq!(cited, "▃··················█");
        assert_eq!(score_strip(&d.uncited), "··········█▄········");
        assert_eq!(score_strip(&ScoreSeries::default()), "·".repeat(SCORE_BINS));
        assert_eq!(median_text(&d.cited), "0.95-1.00");
        assert_eq!(median_text(&ScoreSeries::default()), "-");
    }
}

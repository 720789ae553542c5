//! Partial results: the complete mergeable state of a `summary`, `report`
//! or `check` run written as a versioned JSON document (`--partial FILE`),
//! read back and merged by `merge`, so that partitions graded on other
//! machines render exactly what one pass over the concatenated input prints.
//!
//! Every partial holds the input accounting with its warnings and the probe
//! counts behind the misread warnings (decided once, after merging, as one
//! pass does), and one state section per accumulator its command keeps:
//!
//! - `summary`: the summary accumulator (totals, groups, trends, the
//!   triage turns of each severity and group, retrieval use, tools,
//!   guardrail, telemetry histograms);
//! - `report`: `page`, the page heap (the `--limit` + 1 newest rows after
//!   `--cursor`, whole rows with their input positions, and the counts of
//!   matching and passed-over rows);
//! - `check`: `gate`, the gate inputs (rollups overall, per agent, per
//!   local day in `--tz` and per agent and day, the first offending turn
//!   ids), and `summary`, the summary `--html` and `--write-baseline` render.
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

use crate::accumulate::summary::{Summary, SummaryOptions};
use crate::accumulate::{Grouped, PageHeap, Rollup, SupportTotals};
use crate::input::InputStats;
use crate::pipeline::probe::{Probe, ProbeDoc};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod gate;
mod page;
mod summary;

pub use gate::GateState;
pub use page::PageState;
pub use summary::{GroupDoc, SummaryState, TelemetryDoc, TriageAt};

/// The `format` field of every partial.
pub const FORMAT: &str = "grounding-audit-partial";
/// The version of the document; a reader refuses any other. Version 3
/// carries the rows of a page and of the triage list as the report's own
/// JSON rows (`{"row": …, "pos": [a, b]}`) and keeps the triage turns by
/// severity and group, and the turns counted per marker grammar
/// (`input.graded_with`, which the reports name); version 2 added `report`
/// and `check` partials and the score distribution of retrieval use.
pub const VERSION: u32 = 4;

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

/// [`InputStats`] as a partial carries it: the run's own accounting (its
/// warnings without the misread heuristics, decided again after merging),
/// and the probe counts behind those.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct InputDoc {
    #[serde(flatten)]
    pub stats: InputStats,
    pub probe: ProbeDoc,
    /// With `--map`: the mappings that resolved on no line of this
    /// partition (absent when no line was read through the map); `merge`
    /// refuses those that resolved in no partition, as one pass would.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map_unresolved: Option<Vec<String>>,
    /// Each source's records and records read as turns, by name: `merge`
    /// refuses a source with records of which no partition read a turn,
    /// as one pass would.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub sources: crate::input::SourceTallies,
}

/// A row with its position in the partial's own input: (block, line) for a
/// report page, (file, position) for the triage list.
#[derive(Debug, Serialize, Deserialize)]
pub struct RowAt {
    pub row: crate::model::Row<'static>,
    pub pos: (u64, u64),
}

/// Counts of a [`Rollup`]: turns, with_retrieval, then one per verdict in verdict order
/// (ok, no_marker, orphan_marker, empty_retrieval, unobserved), then the
/// support totals (sentences, cited sentences, absent quotes, turns with hints,
/// unchecked citations, misattributed, stitched and fabricated quotes, then
/// the turns by evidence in [`crate::model::Evidence`] order; a partial
/// written before the later ones were counted has fewer, the rest read as
/// none).
type RollupDoc = (u64, u64, [u64; 5], Vec<u64>);

fn rollup_doc(r: &Rollup) -> RollupDoc {
    let c = &r.support;
    (
        r.turns,
        r.with_retrieval,
        r.verdicts,
        vec![
            c.sentences,
            c.cited_sentences,
            c.quotes_absent,
            c.hinted,
            c.unchecked,
            c.quotes_misattributed,
            c.quotes_stitched,
            c.quotes_fabricated,
        ]
        .into_iter()
        .chain(r.evidence.0)
        .collect(),
    )
}

fn rollup_of(d: &RollupDoc) -> Rollup {
    let at = |k: usize| d.3.get(k).copied().unwrap_or(0);
    let [sentences, cited_sentences, quotes_absent, hinted, unchecked] = [0, 1, 2, 3, 4].map(at);
    let [quotes_misattributed, quotes_stitched, quotes_fabricated] = [5, 6, 7].map(at);
    let evidence = crate::accumulate::EvidenceCounts([8, 9, 10, 11, 12].map(at));
    Rollup {
        turns: d.0,
        with_retrieval: d.1,
        verdicts: d.2,
        support: SupportTotals {
            sentences,
            cited_sentences,
            quotes_absent,
            quotes_misattributed,
            quotes_stitched,
            quotes_fabricated,
            hinted,
            unchecked,
        },
        evidence,
    }
}

/// A rollup whose counts can be true: its verdicts add up to its turns,
/// and the turns with retrieval hold every `ok` turn and none that is
/// `empty_retrieval` or `unobserved`. A partial whose counts break this was
/// edited, or written by something else, and is refused rather than merged
/// into wrong rates.
fn checked_rollup(d: &RollupDoc, what: &str) -> Result<Rollup> {
    use crate::model::Verdict;
    let r = rollup_of(d);
    let sum = r.verdicts.iter().try_fold(0u64, |a, &v| a.checked_add(v));
    let without = r.count(Verdict::EmptyRetrieval) + r.count(Verdict::Unobserved);
    if sum != Some(r.turns) {
        bail!(
            "{what}: its verdict counts do not add up to its {} turns",
            r.turns
        );
    }
    let c = &r.support;
    let classed = c.quotes_misattributed + c.quotes_stitched + c.quotes_fabricated;
    if c.cited_sentences > c.sentences || c.hinted > r.turns || classed > c.quotes_absent {
        bail!(
            "{what}: its support counts cannot be true ({} cited of {} sentences, {} turns with hints of {} turns, {classed} quotes classed of {} absent)",
            c.cited_sentences,
            c.sentences,
            c.hinted,
            r.turns,
            c.quotes_absent
        );
    }
    if r.grounded() > r.with_retrieval || r.with_retrieval + without > r.turns {
        bail!(
            "{what}: {} turns with retrieval cannot hold {} ok turns beside {} without retrieval of {} turns",
            r.with_retrieval,
            r.grounded(),
            without,
            r.turns
        );
    }
    let counted = r.evidence.turns();
    if counted != 0 && counted != r.turns {
        bail!(
            "{what}: its evidence counts add up to {counted} turns, not its {} turns",
            r.turns
        );
    }
    Ok(r)
}

/// The sum of some rollups.
fn summed<'a>(rollups: impl IntoIterator<Item = &'a Rollup>) -> Rollup {
    let mut all = Rollup::default();
    for r in rollups {
        all.merge(r);
    }
    all
}

impl InputDoc {
    /// A run's accounting as the pipeline returned it; the misread warnings
    /// are dropped (they are decided again after merging).
    pub fn of(input: &InputStats) -> Self {
        let mut stats = input.clone();
        stats
            .warnings
            .retain_kinds(|k| !crate::pipeline::probe::is_misread(k));
        InputDoc {
            stats,
            probe: input.probe.to_doc(),
            map_unresolved: None,
            sources: input.sources.clone(),
        }
    }

    fn stats(&self) -> InputStats {
        InputStats {
            probe: Probe::from_doc(&self.probe),
            sources: self.sources.clone(),
            ..self.stats.clone()
        }
    }
}

/// The command a partial is of: what `merge` rebuilds and renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Summary,
    Report,
    Check,
}

impl Kind {
    /// Every kind, in the order help lists them.
    pub const ALL: [Kind; 3] = [Kind::Summary, Kind::Report, Kind::Check];

    /// Its name in the partial's `command` field and in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Summary => "summary",
            Kind::Report => "report",
            Kind::Check => "check",
        }
    }

    /// The kind named `s`, if this build merges it.
    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Which state sections its partials hold: summary, page, gate.
    fn sections(self) -> (bool, bool, bool) {
        match self {
            Kind::Summary => (true, false, false),
            Kind::Report => (false, true, false),
            Kind::Check => (true, false, true),
        }
    }
}

impl Partial {
    /// Its command, read: [`Partial::read`] refuses any other.
    pub fn kind(&self) -> Kind {
        Kind::from_name(&self.command).expect("read checks the command")
    }

    /// A partial of `command` with its options, accounting and no state yet.
    pub fn new(command: Kind, options: BTreeMap<String, String>, input: &InputStats) -> Self {
        Partial {
            format: FORMAT.to_owned(),
            version: VERSION,
            command: command.as_str().to_owned(),
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
            ..Partial::new(Kind::Summary, options, input)
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
            ..Partial::new(Kind::Report, options, input)
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
            ..Partial::new(Kind::Check, options, input)
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
        let want = match Kind::from_name(&p.command) {
            Some(kind) => kind.sections(),
            None => bail!(
                "{name}: a partial of `{}`, which this build does not merge",
                p.command
            ),
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
            .map(|e| e.row.turn_id.as_str())
            .chain(page.map(|r| r.row.turn_id.as_str()))
    }

    /// How far the input positions of the partials after this one are
    /// shifted: past every block this one's rows came from.
    fn span(&self) -> u64 {
        let triage = self.summary.iter().flat_map(|s| &s.triage).map(|e| e.pos.0);
        let page = self.page.iter().flat_map(|p| &p.rows).map(|r| r.pos.0);
        let blocks = triage.chain(page).max().map_or(0, |b| b + 1);
        blocks.max(self.input.stats.files.max(1))
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
    pub command: Kind,
    pub summary: Option<Summary>,
    pub page: Option<PageHeap>,
    pub gate: Option<Grouped>,
    pub input: InputStats,
    /// The options the partials agree on.
    pub options: BTreeMap<String, String>,
    /// Turn ids listed by more than one partial.
    pub cross_partial_duplicates: u64,
    /// `--map` pointers that resolved in no partition (see [`InputDoc`]).
    pub map_unresolved: Vec<String>,
}

/// Checks that the partials are of one command and made with the same
/// options (the error names the first option that differs); returns them.
pub fn agreed(parts: &[(String, Partial)]) -> Result<(Kind, &BTreeMap<String, String>)> {
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
    Ok((first.kind(), &first.options))
}

/// Merges partials in the order given, as [`agreed`] allows.
pub fn merge(parts: &[(String, Partial)], opts: MergeOptions) -> Result<Merged> {
    let (command, options) = agreed(parts)?;
    let mut merged = Merged {
        command,
        summary: None,
        page: None,
        gate: None,
        input: InputStats::default(),
        options: options.clone(),
        cross_partial_duplicates: 0,
        map_unresolved: Vec::new(),
    };
    let mut map_unresolved: Option<Vec<String>> = None;
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
        if let Some(here) = &p.input.map_unresolved {
            map_unresolved = Some(match map_unresolved {
                None => here.clone(),
                Some(before) => before.into_iter().filter(|m| here.contains(m)).collect(),
            });
        }
        offset += p.span();
        merged.input.add(&p.input.stats());
    }
    // The misread heuristics, once over the whole run, as a single pass decides them.
    let misread = merged.input.probe.warnings();
    merged.input.warnings.merge(&misread);
    merged.map_unresolved = map_unresolved.unwrap_or_default();
    Ok(merged)
}

fn merge_into<A: crate::pipeline::Accumulator>(slot: &mut Option<A>, later: A) {
    match slot {
        Some(a) => a.merge(later),
        None => *slot = Some(later),
    }
}

/// Writes a partial to the file at `path`, or to `out` for `-`.
pub fn write(
    path: &std::path::Path,
    mut doc: Partial,
    engine: &crate::pipeline::Engine,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    use std::io::Write as _;
    doc.input.map_unresolved = engine.map.and_then(|m| m.resolution());
    let doc = &doc;
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
    use crate::model::{Chunk, Id, MarkersFrom, Row, Unobserved, Verdict};
    use std::borrow::Cow;

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
            invented_marker: None,
            support: Default::default(),
            evidence: crate::model::Evidence::Documents,
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

    /// Every `markers_from` value, provider names included, reads back from
    /// a partial as written, and as the name every output uses; a name that
    /// can be no provider's is refused.
    #[test]
    fn every_markers_from_round_trips() {
        let providers = crate::dialect::exchange::providers().map(MarkersFrom::Provider);
        let all: Vec<MarkersFrom> = [MarkersFrom::Reply, MarkersFrom::Citations]
            .into_iter()
            .chain(providers)
            .chain([MarkersFrom::Sources])
            .collect();
        // Every provider the exchange dialect registers, whatever their number.
        assert!(all.len() > 3, "no provider registered");
        for from in all {
            let json = serde_json::to_string(&from).unwrap();
            assert_eq!(json, format!("\"{}\"", from.as_str()));
            let back: MarkersFrom = serde_json::from_str(&json).unwrap();
            assert_eq!(back, from);
        }
        for bad in [
            "\"\"",
            "\"Anthropic\"",
            "\"a b\"",
            "\"abcdefghijklmnopqrstuvwx\"",
        ] {
            assert!(serde_json::from_str::<MarkersFrom>(bad).is_err(), "{bad}");
        }
    }

    /// A summary partial's totals must be its groups' summed: one that
    /// says otherwise is refused, not read with either silently wrong.
    #[test]
    fn summary_totals_must_be_the_sum_of_the_groups() {
        use crate::accumulate::summary::GroupBy;
        use crate::accumulate::summary::{Bucket, GroupStats, Summary, SummaryOptions};
        let opts = SummaryOptions {
            by: GroupBy::Agent,
            triage: 0,
            tz: crate::filter::Zone::utc(),
            low_score: 0.5,
            bucket: Bucket::Day,
        };
        let mut s = Summary::new(opts);
        for (key, turns) in [("a", 3), ("b", 4)] {
            let mut g = GroupStats::default();
            g.rollup.turns = turns;
            g.rollup.with_retrieval = turns;
            g.rollup.verdicts[0] = turns;
            g.tools.calls = turns;
            s.groups.insert(key.to_owned(), g);
        }
        let state = summary::SummaryState::of(&s);
        assert_eq!(state.totals.0, 7);
        let read = state.summary(opts, 0).unwrap();
        assert_eq!(read.overall(), s.overall());
        for tamper in [
            |d: &mut summary::SummaryState| d.totals.0 += 1,
            |d: &mut summary::SummaryState| d.tools.calls -= 1,
        ] {
            let mut state = summary::SummaryState::of(&s);
            tamper(&mut state);
            let err = state.summary(opts, 0).unwrap_err();
            assert!(
                format!("{err}").contains("not the sum of its groups"),
                "{err}"
            );
        }
    }

    /// Partials of different commands, or a command's partial without its
    /// sections, do not merge.
    #[test]
    fn commands_and_sections_are_checked() {
        let input = InputStats::default();
        let page = Partial::of_report(&PageHeap::new(2, None), &input, BTreeMap::new());
        let mut gate = Partial::new(Kind::Check, BTreeMap::new(), &input);
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
                Partial::new(Kind::Summary, BTreeMap::new(), &input),
            ),
        ];
        let err = agreed(&parts).unwrap_err();
        assert!(
            format!("{err}").contains("partials of different commands"),
            "{err}"
        );
    }
}

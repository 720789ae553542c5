//! Property tests over generated logs: a mix of turns of every verdict
//! (string and integer ids, repeats), blank lines, skipped records and
//! invalid lines, with LF or CRLF endings and with or without a final
//! newline. Each log is run through the library engine, and what it counts
//! is compared with a model of what the log holds.
//!
//! The engine prints invalid-line warnings on stderr; cases are kept few so
//! that `cargo test` stays fast and quiet enough.

use grounding_audit::accumulate::{Grouped, PageHeap, Rollup};
use grounding_audit::dialect::Parsed;
use grounding_audit::dialect::native::parse_line;
use grounding_audit::grade::grade;
use grounding_audit::input::Source;
use grounding_audit::markers::Grammar;
use grounding_audit::model::Verdict;
use grounding_audit::pipeline::{self, Accumulator, Engine, Graded, InputStats};
use proptest::prelude::*;
use std::collections::HashSet;
use std::path::Path;

/// What a generated turn is built to be graded as.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Ok,
    Partial,
    NoMarker,
    /// No marker, on retrieval whose top chunk scores 0.2 (a weak match).
    NoMarkerWeak,
    OrphanNoChunks,
    OrphanOutOfRange,
    Empty,
    Unobserved,
    CitationsOk,
    CitationsOrphan,
    /// A marker written with a JSON escape (`\u005BKB-1]`), graded after decoding.
    EscapedOk,
}

impl Kind {
    const ALL: [Kind; 11] = [
        Kind::Ok,
        Kind::Partial,
        Kind::NoMarker,
        Kind::NoMarkerWeak,
        Kind::OrphanNoChunks,
        Kind::OrphanOutOfRange,
        Kind::Empty,
        Kind::Unobserved,
        Kind::CitationsOk,
        Kind::CitationsOrphan,
        Kind::EscapedOk,
    ];

    fn verdict(self) -> Verdict {
        match self {
            Kind::Ok | Kind::Partial | Kind::CitationsOk | Kind::EscapedOk => Verdict::Ok,
            Kind::NoMarker | Kind::NoMarkerWeak => Verdict::NoMarker,
            Kind::OrphanNoChunks | Kind::OrphanOutOfRange | Kind::CitationsOrphan => {
                Verdict::OrphanMarker
            }
            Kind::Empty => Verdict::EmptyRetrieval,
            Kind::Unobserved => Verdict::Unobserved,
        }
    }

    /// The `reply` / `grounding` part of the line.
    fn body(self) -> &'static str {
        match self {
            Kind::Ok => {
                r#""reply":"see [KB-1].","grounding":{"chunks":[{"document_id":"a.md","score":0.7},{"document_id":"b.md","score":null}]}"#
            }
            Kind::Partial => {
                r#""reply":"[KB-2] and [KB-9]","grounding":{"chunks":[{"document_id":"a.md","score":0.7},{"document_id":"b.md","score":null}]}"#
            }
            Kind::NoMarker => {
                r#""reply":"no cite","grounding":{"chunks":[{"document_id":"a.md","score":0.7},{"document_id":"b.md","score":1.5}]}"#
            }
            Kind::NoMarkerWeak => {
                r#""reply":"no cite","grounding":{"chunks":[{"document_id":"a.md","score":0.2},{"document_id":"b.md","score":null}]}"#
            }
            Kind::OrphanNoChunks => r#""reply":"made up [KB-1]""#,
            Kind::OrphanOutOfRange => {
                r#""reply":"[KB-0] [KB-99999999999999999999999]","grounding":{"chunks":[{"document_id":"a.md","score":0.7}]}"#
            }
            Kind::Empty => r#""reply":"hello there""#,
            Kind::Unobserved => {
                r#""grounding":{"chunks":[{"document_id":"a.md","score":0.7},{"document_id":"b.md","score":null}]}"#
            }
            Kind::CitationsOk => {
                r#""reply":null,"grounding":{"citations":[{"index":1}],"chunks":[{"document_id":"a.md","score":0.7}]}"#
            }
            Kind::CitationsOrphan => {
                r#""grounding":{"citations":[{"index":3}],"chunks":[{"document_id":"a.md","score":0.7}]}"#
            }
            Kind::EscapedOk => {
                r#""reply":"line\n\u005BKB-2]","grounding":{"chunks":[{"document_id":"a.md","score":0.7},{"document_id":"b.md","score":0.2}]}"#
            }
        }
    }
}

/// One generated line.
#[derive(Debug, Clone)]
enum Line {
    Turn {
        id: u8,
        numeric: bool,
        agent: u8,
        kind: Kind,
    },
    Blank(u8),
    Skipped(u8),
    Invalid(u8),
}

impl Line {
    fn text(&self) -> String {
        match self {
            Line::Turn {
                id,
                numeric,
                agent,
                kind,
            } => {
                let (id_n, agent_n) = (u32::from(*id), u32::from(*agent));
                // `9` and `"9"` are the same turn.
                let id = if *numeric {
                    id.to_string()
                } else {
                    format!("\"{id}\"")
                };
                // Each agent's turns spread over three days and a few
                // hours, so an agent's trend can fall (the triage list
                // puts a group in a significant drop first).
                format!(
                    r#"{{"turn_id":{id},"agent_id":"agent-{agent}","created_at":"2026-08-0{}T1{}:00:00+02:00",{}}}"#,
                    1 + (agent_n + id_n / 4) % 3,
                    id_n % 4,
                    kind.body()
                )
            }
            Line::Blank(k) => ["", "   ", "\t", " \t "][*k as usize % 4].to_owned(),
            Line::Skipped(k) => [
                r#"{"type":"heartbeat","agent_id":5}"#,
                r#"{"type":"session_start","turn_id":"1"}"#,
            ][*k as usize % 2]
                .to_owned(),
            Line::Invalid(k) => [
                "not json at all",
                "[1,2,3]",
                r#"{"agent_id":"x","created_at":"2026-08-01T00:00:00Z"}"#,
                r#"{"turn_id":"z","agent_id":"x","created_at":"yesterday"}"#,
                r#"{"turn_id":"z","agent_id":"x","created_at":"2026-08-01T00:00:00Z","reply":5}"#,
                r#"{"turn_id":"z","agent_id":"x","#,
            ][*k as usize % 6]
                .to_owned(),
        }
    }
}

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        6 => (0u8..12, any::<bool>(), 0u8..3, 0usize..Kind::ALL.len()).prop_map(
            |(id, numeric, agent, k)| Line::Turn { id, numeric, agent, kind: Kind::ALL[k] }
        ),
        1 => any::<u8>().prop_map(Line::Blank),
        1 => any::<u8>().prop_map(Line::Skipped),
        1 => any::<u8>().prop_map(Line::Invalid),
    ]
}

/// A generated log: its lines, line ending and whether the last line ends.
#[derive(Debug, Clone)]
struct Log {
    lines: Vec<Line>,
    crlf: bool,
    final_newline: bool,
}

fn log() -> impl Strategy<Value = Log> {
    (
        prop::collection::vec(line(), 0..40),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, final_newline)| Log {
            lines,
            crlf,
            final_newline,
        })
}

impl Log {
    /// The bytes of lines `range` as a file. Only the log's last line may
    /// lack its newline, so a split never changes what the lines are.
    fn bytes(&self, range: std::ops::Range<usize>) -> Vec<u8> {
        let eol = if self.crlf { "\r\n" } else { "\n" };
        let mut s = String::new();
        let n = range.len();
        let ends_log = range.end == self.lines.len();
        for (i, l) in self.lines[range].iter().enumerate() {
            s.push_str(&l.text());
            if i + 1 < n || self.final_newline || !ends_log {
                s.push_str(eol);
            }
        }
        s.into_bytes()
    }

    /// The accounting and verdict counts a correct engine must report.
    fn expected(&self, dedupe: bool) -> (InputStats, [u64; 5]) {
        let mut stats = InputStats::default();
        let mut verdicts = [0u64; 5];
        let mut seen = HashSet::new();
        for l in &self.lines {
            stats.lines += 1;
            match l {
                Line::Blank(_) => stats.blank_lines += 1,
                Line::Skipped(_) => stats.skipped_records += 1,
                Line::Invalid(_) => stats.invalid_lines += 1,
                Line::Turn { id, kind, .. } => {
                    if dedupe && !seen.insert(*id) {
                        stats.duplicates += 1;
                    } else {
                        stats.turns += 1;
                        let slot = Verdict::ALL
                            .iter()
                            .position(|v| *v == kind.verdict())
                            .expect("a verdict");
                        verdicts[slot] += 1;
                    }
                }
            }
        }
        // A file whose last line is blank and unterminated holds one line fewer.
        if !self.final_newline
            && let Some(Line::Blank(k)) = self.lines.last()
            && *k % 4 == 0
        {
            stats.lines -= 1;
            stats.blank_lines -= 1;
        }
        // Every turn is graded with the native log's default grammar.
        if stats.turns > 0 {
            stats.graded_with.insert("kb".to_owned(), stats.turns);
        }
        (stats, verdicts)
    }
}

/// Collects (turn_id, verdict, partial) in the order rows are merged.
#[derive(Default)]
struct Order(Vec<(String, Verdict, bool)>);

impl Accumulator for Order {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.0.extend(rows.iter().map(|g| {
            (
                g.row.turn_id.as_str().to_owned(),
                g.row.verdict,
                g.row.partial,
            )
        }));
    }
    fn merge(&mut self, later: Self) {
        self.0.extend(later.0);
    }
}

/// Rollup, group rollups, row order and the newest page of one run.
struct All {
    rollup: Rollup,
    grouped: Grouped,
    order: Order,
    page: PageHeap,
}

impl Default for All {
    fn default() -> Self {
        All {
            rollup: Rollup::default(),
            grouped: Grouped::default(),
            order: Order::default(),
            page: PageHeap::new(5, None),
        }
    }
}

impl All {
    /// (turn_id, created_at, verdict) of the page rows, newest first.
    fn page_rows(self) -> Vec<(String, chrono::DateTime<chrono::Utc>, Verdict)> {
        self.page
            .into_rows()
            .iter()
            .map(|r| (r.turn_id.as_str().to_owned(), r.created_at, r.verdict))
            .collect()
    }
}

impl Accumulator for All {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.rollup.add_block(rows);
        self.grouped.add_block(rows);
        self.order.add_block(rows);
        self.page.add_block(rows);
    }
    fn merge(&mut self, later: Self) {
        Accumulator::merge(&mut self.rollup, later.rollup);
        self.grouped.merge(later.grouped);
        self.order.merge(later.order);
        self.page.merge(later.page);
    }
}

fn engine(threads: usize, dedupe: bool) -> Engine {
    Engine {
        threads,
        dedupe,
        warn_limit: 0,
        ..Engine::default()
    }
}

/// Writes the log cut at `cuts` into one file per part and runs the engine over them.
fn run_parts(dir: &Path, log: &Log, cuts: &[usize], engine: &Engine) -> (InputStats, All) {
    let mut bounds = vec![0];
    bounds.extend(cuts.iter().map(|&c| c.min(log.lines.len())));
    bounds.push(log.lines.len());
    bounds.sort_unstable();
    let mut sources = Vec::new();
    for (i, w) in bounds.windows(2).enumerate() {
        let path = dir.join(format!("part-{i:02}.jsonl"));
        std::fs::write(&path, log.bytes(w[0]..w[1])).expect("write part");
        sources.push(Source {
            name: path.display().to_string(),
            path: Some(path),
        });
    }
    let mut all = All::default();
    let stats = pipeline::run(engine, &sources, None, All::default, |a| {
        all.merge(a);
        Ok(())
    })
    .expect("the engine reads the log");
    (stats, all)
}

fn sum_categories(s: &InputStats) -> u64 {
    s.turns + s.blank_lines + s.skipped_records + s.invalid_lines + s.duplicates
}

fn check_rollup(r: &Rollup) -> Result<(), TestCaseError> {
    prop_assert_eq!(r.verdicts.iter().sum::<u64>(), r.turns);
    prop_assert!(r.with_retrieval <= r.turns);
    prop_assert!(r.grounded() <= r.with_retrieval);
    match r.grounded_rate() {
        None => prop_assert_eq!(r.with_retrieval, 0),
        Some(x) => prop_assert!((0.0..=1.0).contains(&x), "rate {}", x),
    }
    Ok(())
}

proptest! {
    // Each case runs the engine over real files; a dozen or so keep `cargo test` fast.
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Accounting and verdict counts match the model; verdicts sum to turns;
    /// the rate is null or in 0..1; the JSON rollup agrees.
    #[test]
    fn accounting_and_verdicts_match_the_model(log in log(), dedupe in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let (stats, all) = run_parts(dir.path(), &log, &[], &engine(1, dedupe));
        let (mut want, verdicts) = log.expected(dedupe);
        want.files = 1;
        // More than half the turns without a reply is a misread warning;
        // the model checks when it is given, and the rest as before.
        let warned = stats.warnings.count("unobserved_majority", "turns");
        prop_assert_eq!(warned > 0, verdicts[4] * 2 > want.turns);
        if warned > 0 {
            prop_assert_eq!(warned, verdicts[4]);
        }
        let mut stats = stats;
        let mut kept = grounding_audit::messages::Warnings::new();
        for w in stats.warnings.iter().filter(|w| w.kind != "unobserved_majority") {
            kept.add(&w.kind, &w.subject, &w.unit, w.count, || w.message.clone());
        }
        stats.warnings = kept;
        prop_assert_eq!(&stats, &want);
        prop_assert_eq!(stats.lines, sum_categories(&stats));
        prop_assert_eq!(all.rollup.turns, stats.turns);
        prop_assert_eq!(all.rollup.verdicts, verdicts);
        check_rollup(&all.rollup)?;
        let json = serde_json::to_value(&all.rollup).unwrap();
        let rate = &json["grounded_rate"];
        prop_assert!(rate.is_null() || rate.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)));
        // Group rollups add up to the overall one.
        let mut sum = Rollup::default();
        for g in all.grouped.groups.values() {
            check_rollup(g)?;
            sum.merge(g);
        }
        prop_assert_eq!(&sum, &all.grouped.overall);
        prop_assert_eq!(&all.grouped.overall, &all.rollup);
    }

    /// Cutting the log into files anywhere, and running with 1 or 3 threads,
    /// changes nothing: same accounting, rollups, groups and row order.
    #[test]
    fn splits_and_threads_agree(
        log in log(),
        cuts in prop::collection::vec(0usize..40, 0..3),
        dedupe in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let whole_dir = dir.path().join("whole");
        let split_dir = dir.path().join("split");
        std::fs::create_dir_all(&whole_dir).unwrap();
        std::fs::create_dir_all(&split_dir).unwrap();
        let (s1, a1) = run_parts(&whole_dir, &log, &[], &engine(1, dedupe));
        let (s3, a3) = run_parts(&split_dir, &log, &cuts, &engine(3, dedupe));
        prop_assert_eq!(&a3.rollup, &a1.rollup);
        prop_assert_eq!(&a3.grouped.groups, &a1.grouped.groups);
        prop_assert_eq!(&a3.order.0, &a1.order.0);
        // Only the file count differs between the whole and the split log.
        let norm = |mut s: InputStats| { s.files = 0; s };
        prop_assert_eq!(norm(s3), norm(s1));
        // The newest page is the same whatever the split and thread count.
        prop_assert_eq!(a3.page_rows(), a1.page_rows());
    }

    /// Without de-duplication, the rollup of a log is the merge of the
    /// rollups of separate runs over any split of it.
    #[test]
    fn rollup_of_log_is_merge_of_rollups_of_parts(log in log(), cut in 0usize..40) {
        let dir = tempfile::tempdir().unwrap();
        let cut = cut.min(log.lines.len());
        let parts = [0..cut, cut..log.lines.len()];
        let mut merged = Rollup::default();
        let mut stats = InputStats::default();
        for (i, range) in parts.iter().enumerate() {
            let sub = Log { lines: log.lines[range.clone()].to_vec(), ..log.clone() };
            let d = dir.path().join(format!("p{i}"));
            std::fs::create_dir_all(&d).unwrap();
            let (s, a) = run_parts(&d, &sub, &[], &engine(2, false));
            merged.merge(&a.rollup);
            stats.add(&s);
        }
        let d = dir.path().join("whole");
        std::fs::create_dir_all(&d).unwrap();
        let (s, whole) = run_parts(&d, &log, &[], &engine(2, false));
        prop_assert_eq!(&merged, &whole.rollup);
        prop_assert_eq!(stats.turns, s.turns);
        prop_assert_eq!(stats.invalid_lines, s.invalid_lines);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The Accumulator contract itself: feeding graded rows in any number
    /// of blocks to separate accumulators and merging them in order gives
    /// the accumulator of the whole (no engine, no I/O: many cases are cheap).
    #[test]
    fn accumulators_merge_over_any_block_split(
        log in log(),
        cuts in prop::collection::vec(0usize..40, 0..5),
    ) {
        let texts: Vec<String> = log.lines.iter().map(Line::text).collect();
        let grammar = Grammar::default();
        let rows: Vec<Graded<'_>> = texts
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match parse_line(t) {
                Parsed::Turn(turn) => Some(Graded {
                    row: grade(turn, &grammar),
                    pos: (0, i as u64), detail: None }),
                _ => None,
            })
            .collect();
        let mut whole = All::default();
        whole.add_block(&rows);
        let mut bounds: Vec<usize> = cuts.iter().map(|&c| c.min(rows.len())).collect();
        bounds.push(0);
        bounds.push(rows.len());
        bounds.sort_unstable();
        let mut merged = All::default();
        let mut page = PageHeap::new(4, None);
        let mut whole_page = PageHeap::new(4, None);
        whole_page.add_block(&rows);
        for w in bounds.windows(2) {
            let mut part = All::default();
            part.add_block(&rows[w[0]..w[1]]);
            merged.merge(part);
            let mut p = PageHeap::new(4, None);
            p.add_block(&rows[w[0]..w[1]]);
            page.merge(p);
        }
        prop_assert_eq!(&merged.rollup, &whole.rollup);
        prop_assert_eq!(&merged.grouped.groups, &whole.grouped.groups);
        prop_assert_eq!(&merged.order.0, &whole.order.0);
        check_rollup(&merged.rollup)?;
        let ids = |p: PageHeap| p.into_rows().iter().map(|r| r.turn_id.as_str().to_owned()).collect::<Vec<_>>();
        prop_assert_eq!(ids(page), ids(whole_page));
    }
}

/// One turn of a paging log: an id (string or integer) and an index into the log's times.
#[derive(Debug, Clone)]
struct PageTurn {
    id: u8,
    numeric: bool,
    time: usize,
}

/// An RFC 3339 time as a log may hold it: years at and beyond the edges of
/// what i64 nanoseconds hold (1677, 2262) and of four digits (0000, 9999),
/// leap seconds, fractions and offsets, some of which push a time outside
/// years 0000–9999 in UTC (an invalid line).
fn rfc3339() -> impl Strategy<Value = String> {
    let year = prop_oneof![
        3 => prop::sample::select(vec![0u32, 1, 1677, 1969, 1970, 2016, 2262, 2263, 9999]),
        1 => 0u32..=9999,
    ];
    // Days and hours at the year's edges, so that offsets cross them.
    let date = prop_oneof![Just((1u32, 1u32)), Just((12, 31)), (1u32..=12, 1u32..=28)];
    let hour = prop_oneof![Just(0u32), Just(23), 0u32..24];
    let second = prop_oneof![3 => 0u32..60, 1 => Just(60u32)];
    let fraction = prop_oneof![
        Just(String::new()),
        (0u32..10).prop_map(|d| format!(".{d}")),
        (0u32..1_000_000_000).prop_map(|n| format!(".{n:09}")),
    ];
    let offset = prop::sample::select(vec!["Z", "Z", "+00:00", "+01:00", "-01:00", "-23:59"]);
    let any = (year, date, hour, 0u32..60, second, fraction, offset).prop_map(
        |(y, (mo, d), h, mi, s, f, o)| format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{f}{o}"),
    );
    // The edges themselves: of four-digit years, of i64 nanoseconds, leap seconds.
    let edge = prop::sample::select(vec![
        "0000-01-01T00:00:00Z",
        "0000-01-01T00:00:00+00:01",
        "0001-01-01T00:00:00Z",
        "1677-09-21T00:12:43.145224191Z",
        "1677-09-21T00:12:43.145224192Z",
        "2016-12-31T23:59:59.999999999Z",
        "2016-12-31T23:59:60Z",
        "2016-12-31T23:59:60.5Z",
        "2017-01-01T00:00:00Z",
        "2262-04-11T23:47:16.854775807Z",
        "2262-04-11T23:47:16.854775808Z",
        "9999-12-31T23:59:60.999999999Z",
    ])
    .prop_map(str::to_owned);
    prop_oneof![2 => any, 1 => edge]
}

/// A log for paging: a few times shared by many turns, so times, ids and
/// whole turns (with `--no-dedupe`) tie.
fn paging_log() -> impl Strategy<Value = (Vec<String>, Vec<PageTurn>)> {
    (
        prop::collection::vec(rfc3339(), 1..5),
        prop::collection::vec((0u8..6, any::<bool>(), 0usize..5), 0..30),
    )
        .prop_map(|(times, turns)| {
            let n = times.len();
            let turns = turns
                .into_iter()
                .map(|(id, numeric, t)| PageTurn {
                    id,
                    numeric,
                    time: t % n,
                })
                .collect();
            (times, turns)
        })
}

/// Runs the command line in-process and returns stdout.
pub(crate) fn cli_out(args: &[&str]) -> String {
    use clap::Parser;
    let cli = grounding_audit::cli::Cli::try_parse_from(args).expect("a valid command line");
    let mut out = Vec::new();
    match grounding_audit::cmd::dispatch_with(&cli, &settings(&cli), &mut out) {
        Ok(_) => {}
        // A generated log whose every line is invalid holds no turn: the
        // pages of nothing are empty.
        Err(e) if format!("{e:#}").contains("none read as a turn") => return String::new(),
        Err(e) => panic!("the command runs: {e:#}"),
    }
    String::from_utf8(out).expect("UTF-8 output")
}

/// The settings of a command line, outside GitHub Actions whatever runs the tests.
fn settings(cli: &grounding_audit::cli::Cli) -> grounding_audit::config::Settings {
    let mut s = grounding_audit::config::Settings::resolve(cli.quiet, cli.threads, cli.color);
    s.actions = false;
    s
}

/// The sort key of a row: created_at (exact, leap seconds included) and the turn id's text.
fn page_key(row: &serde_json::Value) -> (chrono::DateTime<chrono::FixedOffset>, String) {
    let t = row["created_at"].as_str().expect("created_at is text");
    let time = chrono::DateTime::parse_from_rfc3339(t).expect("created_at is RFC 3339");
    let id = match &row["turn_id"] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    (time, id)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Following `next_cursor` page by page, with any limit, yields exactly
    /// the rows of `--all`, sorted newest first, then turn id descending,
    /// then later input first; whatever the years (0000–9999) and leap seconds.
    /// Every time printed is RFC 3339 with a four-digit year.
    #[test]
    fn cursor_walk_equals_all_sorted(
        (times, turns) in paging_log(),
        limit in 1usize..8,
        dedupe in any::<bool>(),
        threads in 1u8..=3,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        let mut log = String::new();
        for t in &turns {
            let id = if t.numeric { t.id.to_string() } else { format!("\"{}\"", t.id) };
            log.push_str(&format!(
                r#"{{"turn_id":{id},"agent_id":"a","created_at":"{}","reply":"x"}}"#,
                times[t.time]
            ));
            log.push('\n');
        }
        std::fs::write(&path, &log).unwrap();
        let path = path.to_str().unwrap();
        let threads = threads.to_string();
        let mut base = vec!["grounding-audit", "--quiet", "--threads", &threads, "report", path];
        if !dedupe {
            base.push("--no-dedupe");
        }

        let mut all_args = base.clone();
        all_args.extend(["--all", "--format", "jsonl"]);
        let all: Vec<serde_json::Value> = cli_out(&all_args)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let rfc3339_z = regex::Regex::new(
            r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6}|\.\d{9})?Z$",
        )
        .unwrap();
        for r in &all {
            let t = r["created_at"].as_str().unwrap();
            prop_assert!(rfc3339_z.is_match(t), "{}", t);
        }
        // `--all` is in input order: a row's index there is its input position.
        let mut want: Vec<(usize, &serde_json::Value)> = all.iter().enumerate().collect();
        want.sort_by(|a, b| {
            (page_key(b.1), b.0).cmp(&(page_key(a.1), a.0))
        });
        let want: Vec<&serde_json::Value> = want.into_iter().map(|(_, r)| r).collect();

        let limit = limit.to_string();
        let mut walked: Vec<serde_json::Value> = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            pages += 1;
            prop_assert!(pages <= all.len() + 1, "the walk does not end: {} rows of {}", walked.len(), all.len());
            let mut args = base.clone();
            args.extend(["--format", "json", "--limit", &limit]);
            let c;
            if let Some(x) = &cursor {
                c = x.clone();
                args.extend(["--cursor", &c]);
            }
            let out = cli_out(&args);
            if out.is_empty() {
                // No line read as a turn (every generated time refused).
                prop_assert!(all.is_empty());
                break;
            }
            let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
            walked.extend(doc["rows"].as_array().unwrap().iter().cloned());
            match doc["next_cursor"].as_str() {
                Some(x) => cursor = Some(x.to_owned()),
                None => break,
            }
        }
        let walked: Vec<&serde_json::Value> = walked.iter().collect();
        prop_assert_eq!(walked, want);
    }
}

/// Output with the count of input files blanked: the one figure a merge of
/// partials may report differently from one pass (docs/scale-out.md).
fn without_file_count(s: &str) -> String {
    let re = regex::Regex::new(r#"\d+ file\(s\)|"files": \d+"#).unwrap();
    re.replace_all(s, "FILES").into_owned()
}

/// What [`cli_run`] gives for a run refused because a file held records
/// and no turn.
const NO_TURN: &str = "NO TURN READ";

/// Runs a command line in process: its exit code and stdout.
fn cli_run(args: &[&str]) -> (i32, String) {
    use clap::Parser;
    let cli = grounding_audit::cli::Cli::try_parse_from(args).expect("a valid command line");
    let mut out = Vec::new();
    let code = match grounding_audit::cmd::dispatch_with(&cli, &settings(&cli), &mut out) {
        Ok(code) => code,
        // A file of records and no turn (see `check_partials`).
        Err(e) if format!("{e:#}").contains("none read as a turn") => {
            return (3, NO_TURN.to_owned());
        }
        Err(e) => panic!("the command runs: {e:#}"),
    };
    (code, String::from_utf8(out).expect("UTF-8 output"))
}

/// The output flags of each run of `command` the merge tests compare: every
/// format (and every csv section of `summary`); `check` also writes its
/// baseline document to `side`.
fn output_runs(command: &str, side: &str) -> Vec<Vec<String>> {
    let formats: &[&str] = match command {
        "summary" => &["table", "json", "markdown"],
        "report" => &["table", "csv", "json", "jsonl", "markdown"],
        _ => &["text", "json", "junit", "github", "markdown"],
    };
    let mut runs: Vec<Vec<String>> = formats
        .iter()
        .map(|f| vec!["--format".to_owned(), (*f).to_owned()])
        .collect();
    if command == "summary" {
        runs.push(
            ["--format", "json", "--triage-order", "recent"]
                .map(str::to_owned)
                .to_vec(),
        );
        for s in [
            "groups",
            "days",
            "group-days",
            "triage",
            "guardrail",
            "scores",
        ] {
            runs.push(
                ["--format", "csv", "--section", s]
                    .map(str::to_owned)
                    .to_vec(),
            );
        }
    }
    if command == "check" {
        for r in &mut runs {
            r.extend(["--write-baseline".to_owned(), side.to_owned()]);
        }
    }
    runs
}

/// Every output of `command` over `paths` (or of `merge` over partials of
/// it), with `flags` (the merge's own: gates) and the exit code; the
/// baseline `check` writes is part of its output.
fn outputs(
    command: &str,
    merge: bool,
    flags: &[&str],
    paths: &[String],
    side: &Path,
) -> Vec<(i32, String)> {
    let side_s = side.display().to_string();
    output_runs(command, &side_s)
        .into_iter()
        .map(|run| {
            let mut args = vec!["grounding-audit", if merge { "merge" } else { command }];
            args.extend(run.iter().map(String::as_str));
            args.extend(flags);
            args.extend(paths.iter().map(String::as_str));
            let (code, mut out) = cli_run(&args);
            if command == "check" && code != 3 {
                out.push_str(&std::fs::read_to_string(side).expect("a baseline was written"));
                std::fs::remove_file(side).unwrap();
            }
            (code, without_file_count(&out))
        })
        .collect()
}

/// What a merge test runs: one command, the flags that make its state
/// (given to one pass and to each partial) and the flags of its output
/// (given to one pass and to `merge`).
struct Case<'a> {
    command: &'a str,
    state: Vec<String>,
    output: Vec<String>,
}

/// `COMMAND --partial` per part, then `merge`, against one pass over the log.
fn check_partials(
    dir: &Path,
    whole: &[u8],
    parts: &[Vec<u8>],
    case: &Case<'_>,
) -> Result<(), TestCaseError> {
    let log = dir.join("all.jsonl");
    std::fs::write(&log, whole).unwrap();
    let side = dir.join("baseline.json");
    let state: Vec<&str> = case.state.iter().map(String::as_str).collect();
    let output: Vec<&str> = case.output.iter().map(String::as_str).collect();
    let one_flags = [&state[..], &output[..]].concat();
    let one = outputs(
        case.command,
        false,
        &one_flags,
        &[log.display().to_string()],
        &side,
    );
    let mut partials = Vec::new();
    for (i, bytes) in parts.iter().enumerate() {
        let part = dir.join(format!("part{i}.jsonl"));
        std::fs::write(&part, bytes).unwrap();
        let p = dir.join(format!("part{i}.partial.json"));
        let (ps, parts) = (p.display().to_string(), part.display().to_string());
        let mut args = vec!["grounding-audit", case.command, "--partial", &ps];
        args.extend(&state);
        args.push(&parts);
        let (code, _) = cli_run(&args);
        prop_assert_eq!(code, 0);
        partials.push(ps);
    }
    let merged = outputs(case.command, true, &output, &partials, &side);
    // A file of records and no turn is judged per file, and the parts are
    // other files than the whole: a part of only such records is refused
    // where the whole is not (docs/scale-out.md). Such splits are left out.
    let refused = |o: &str| o.contains(NO_TURN) || o.contains("none read as a turn");
    if one.iter().chain(&merged).any(|(_, o)| refused(o)) {
        return Ok(());
    }
    // Without de-duplication a cursor carries the row's input position,
    // which differs between one pass and the partials (docs/scale-out.md).
    let positions = regex::Regex::new("djI6[A-Za-z0-9_-]+").unwrap();
    // A baseline `check` writes in one pass records the options it was
    // graded under; `merge` writes it without them (docs/check.md).
    let grading = regex::Regex::new(r#"(?m)^  "grading": .*\n"#).unwrap();
    let blank = |s: &str| {
        let s = grading.replace_all(s, "");
        if state.contains(&"--no-dedupe") {
            positions.replace_all(&s, "CURSOR").into_owned()
        } else {
            s.into_owned()
        }
    };
    for ((ca, a), (cb, b)) in one.iter().zip(&merged) {
        prop_assert_eq!(ca, cb);
        prop_assert_eq!(blank(a), blank(b));
    }
    Ok(())
}

/// The next page's cursor in one pass's `report --format json` page.
fn next_cursor(log: &Path, state: &[String]) -> Option<String> {
    let mut args = vec!["grounding-audit", "report", "--format", "json"];
    args.extend(state.iter().map(String::as_str));
    let l = log.display().to_string();
    args.push(&l);
    let out = cli_run(&args).1;
    if out == NO_TURN {
        return None;
    }
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    doc["next_cursor"].as_str().map(str::to_owned)
}

/// The cases of a merge test: `summary` with `summary_state`, a `report`
/// page of `limit` rows, and `check` with a set of gates.
fn cases<'a>(summary_state: &[&str], common: &[&str], limit: usize, gates: usize) -> Vec<Case<'a>> {
    let own = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    // A third of the generated lines are not turns: most logs would fail
    // --max-invalid 0 before any gate ran.
    let gate_sets: [&[&str]; 3] = [
        &["--min-rate", "0.6", "--per-agent", "--max-invalid", "99"],
        &[
            "--max-orphans",
            "1",
            "--max-unobserved-rate",
            "0.2",
            "--max-invalid",
            "2",
        ],
        &[
            "--min-rate",
            "0.5",
            "--confidence",
            "0.9",
            "--max-orphan-rate",
            "0.3",
            "--allow-empty",
            "--max-invalid",
            "99",
        ],
    ];
    vec![
        Case {
            command: "summary",
            state: own(&[summary_state, common].concat()),
            output: Vec::new(),
        },
        Case {
            command: "report",
            state: own(&[common, &["--limit", &limit.to_string()]].concat()),
            output: Vec::new(),
        },
        Case {
            command: "check",
            state: own(common),
            output: own(gate_sets[gates % 3]),
        },
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Without de-duplication any split at line boundaries merges to one
    /// pass, for summary, report (the first page) and check, in every format,
    /// check's exit code and baseline included.
    #[test]
    fn merged_partials_equal_one_pass_for_any_split(
        log in log(),
        cuts in prop::collection::vec(0usize..40, 0..4),
        triage in 0usize..6,
        by in 0usize..3,
        low_score in 0usize..3,
        limit in 1usize..8,
        gates in 0usize..3,
    ) {
        let n = log.lines.len();
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(n)).collect();
        cuts.extend([0, n]);
        cuts.sort_unstable();
        let parts: Vec<Vec<u8>> = cuts.windows(2).map(|w| log.bytes(w[0]..w[1])).collect();
        let dir = tempfile::tempdir().unwrap();
        let triage = triage.to_string();
        let by = ["agent", "channel", "model"][by];
        let low_score = ["0.5", "0.1", "0.95"][low_score];
        // A time window, so the window each partial records is the one merge states.
        let summary = [
            "--triage", &triage, "--by", by, "--low-score", low_score, "--from", "2026-08-02",
        ];
        for case in cases(&summary, &["--no-dedupe", "--tz", "Europe/Berlin"], limit, gates) {
            check_partials(dir.path(), &log.bytes(0..n), &parts, &case)?;
        }
    }

    /// With de-duplication, input partitioned by turn key (every copy of a
    /// turn in one part, input order kept within a part) merges to one pass,
    /// for summary, report (the first and second pages) and check.
    #[test]
    fn merged_partials_equal_one_pass_when_partitioned_by_turn_key(
        log in log(),
        k in 1usize..4,
        seed in any::<u64>(),
        others in prop::collection::vec(0usize..4, 40),
        limit in 1usize..8,
        gates in 0usize..3,
    ) {
        let eol = if log.crlf { "\r\n" } else { "\n" };
        let mut parts = vec![String::new(); k];
        for (i, l) in log.lines.iter().enumerate() {
            let p = match l {
                Line::Turn { id, .. } => (u64::from(*id).wrapping_mul(seed | 1) % k as u64) as usize,
                _ => others[i % others.len()] % k,
            };
            parts[p].push_str(&l.text());
            parts[p].push_str(eol);
        }
        let n = log.lines.len();
        let mut whole = String::new();
        for l in &log.lines[..n] {
            whole.push_str(&l.text());
            whole.push_str(eol);
        }
        let parts: Vec<Vec<u8>> = parts.into_iter().map(String::into_bytes).collect();
        let dir = tempfile::tempdir().unwrap();
        for case in cases(&["--triage", "5"], &[], limit, gates) {
            check_partials(dir.path(), whole.as_bytes(), &parts, &case)?;
        }
        // The second page, from the cursor of one pass's first page: under
        // de-duplication a cursor means the same in one pass and in a merge.
        let log = dir.path().join("all.jsonl");
        let mut state = vec!["--limit".to_owned(), limit.to_string()];
        if let Some(c) = next_cursor(&log, &state) {
            state.extend(["--cursor".to_owned(), c]);
            let case = Case { command: "report", state, output: Vec::new() };
            check_partials(dir.path(), whole.as_bytes(), &parts, &case)?;
        }
    }
}

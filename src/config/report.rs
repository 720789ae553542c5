//! `report`'s flags resolved once into its [`Plan`], and the options its
//! partials record.

use super::Settings;
use crate::accumulate::After;
use crate::accumulate::cursor::decode_cursor;
use crate::cli::{ReportArgs, ReportFormat};
use crate::exit;
use crate::input::Source;
use crate::pipeline::Engine;
use crate::render::Clock;
use crate::render::escape::Csv;
use crate::render::report::Options;
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A `report` run, resolved once from its flags: what it reads, which
/// page it keeps (or that it streams every row), and how it draws them.
/// The command runs it; it sees no flag.
pub struct Plan {
    pub engine: Engine,
    pub clock: Clock,
    pub sources: Vec<Source>,
    /// `--all`: every row streamed in input order, no page.
    pub all: bool,
    /// `--limit`.
    pub limit: usize,
    /// `--conversation` without `--all`: the whole conversation, oldest
    /// first, on one page.
    pub conversation: bool,
    /// `--cursor`: the page after this row.
    pub after: Option<After>,
    /// `--partial FILE`, with the options the partial records.
    pub partial: Option<(PathBuf, BTreeMap<String, String>)>,
    pub format: ReportFormat,
    /// `--columns`.
    pub columns: Vec<String>,
    pub csv: Csv,
    pub color: bool,
}

impl Plan {
    /// How the exporters draw rows.
    pub fn options(&self) -> Options<'_> {
        Options {
            columns: &self.columns,
            csv: self.csv,
            clock: self.clock,
            color: self.color,
        }
    }
}

/// Resolves a `report` run, refusing what it cannot run with in the order
/// a user meets the mistakes: `--partial`'s, the filter and the zone, the
/// page, the engine, the cursor, then the inputs.
pub fn plan(args: &ReportArgs, settings: &Settings) -> Result<Plan> {
    if args.partial.is_some() && args.all {
        return Err(exit::usage(
            "--partial writes one page's state; --all streams every row, which is no bounded state to merge: drop --all and page with --limit and --cursor (docs/scale-out.md)",
        ));
    }
    if args.partial.is_some() {
        super::partial_run("report", &args.filter, &args.given, super::REPORT_RENDERED)?;
    }
    let mut filter = super::filter(&args.filter)?;
    filter.verdicts = args.verdict.clone();
    filter.would_block = args.would_block;
    let clock = super::clock(&args.filter.zone)?;
    // A conversation is listed whole, oldest first, on one page.
    let conversation = !filter.conversations.is_empty() && !args.all;
    if conversation && args.cursor.is_some() {
        return Err(exit::usage(
            "--conversation lists the whole conversation on one page; --cursor does not apply",
        ));
    }
    let mut engine = super::engine(settings, &args.input, filter, &args.markers)?;
    engine.deferred = args.partial.is_some();
    let after = args.cursor.as_deref().map(decode_cursor).transpose()?;
    let sources = super::sources(settings, &args.input, "report")?;
    let partial = args
        .partial
        .clone()
        .map(|path| (path, options_of(args, &engine, &clock)));
    Ok(Plan {
        engine,
        clock,
        sources,
        all: args.all,
        limit: args.limit as usize,
        conversation,
        after,
        partial,
        format: args.format,
        columns: args.columns.clone(),
        csv: Csv::for_stdout(args.csv_raw, settings.stdout_tty),
        color: settings.color,
    })
}

/// The options a report partial records: those of every partial and the
/// page's own (the page is chosen when the partials are made).
fn options_of(args: &ReportArgs, engine: &Engine, clock: &Clock) -> BTreeMap<String, String> {
    let mut o = super::run_options(&args.input, &args.filter, &args.markers, engine);
    for (k, v) in [
        ("--tz", clock.zone.name()),
        ("--verdict", format!("{:?}", args.verdict)),
        ("--would-block", args.would_block.to_string()),
        ("--limit", args.limit.to_string()),
        (
            "--cursor",
            args.cursor.clone().unwrap_or_else(|| "-".to_owned()),
        ),
    ] {
        o.insert(k.to_owned(), v);
    }
    o
}

//! `report`: one page of graded rows, newest first, with the page-scoped
//! rollup; or with `--all`, every matching row streamed in input order.

use crate::accumulate::cursor::decode_cursor;
use crate::accumulate::{PageHeap, Rollup};
use crate::cli::{ReportArgs, ReportFormat};
use crate::config::{self, Settings};
use crate::exit;
use crate::pipeline::{self, Accumulator, Graded};
use crate::render::report::{Exporter, Options};
use crate::render::{self, Clock};
use anyhow::Result;
use std::io::Write;

/// Runs `report`.
pub fn run(args: &ReportArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    if args.partial.is_some() && args.all {
        return Err(exit::usage(
            "--partial writes one page's state; --all streams every row, which is no bounded state to merge: drop --all and page with --limit and --cursor (docs/scale-out.md)",
        ));
    }
    if args.partial.is_some() {
        config::partial_run("report", &args.filter, &args.given, config::REPORT_RENDERED)?;
    }
    let mut filter = config::filter(&args.filter)?;
    filter.verdicts = args.verdict.clone();
    filter.would_block = args.would_block;
    let clock = config::clock(&args.filter.zone)?;
    // A conversation is listed whole, oldest first, on one page.
    let conversation = !filter.conversations.is_empty() && !args.all;
    if conversation && args.cursor.is_some() {
        return Err(exit::usage(
            "--conversation lists the whole conversation on one page; --cursor does not apply",
        ));
    }
    let hints = super::hints::Hints::of(&filter);
    let mut engine = config::engine(settings, &args.input, filter, &args.markers)?;
    engine.deferred = args.partial.is_some();
    let after = args.cursor.as_deref().map(decode_cursor).transpose()?;
    let sources = config::sources(settings, &args.input, "report")?;
    let bar = settings.progress_bar(crate::input::total_bytes(&sources));
    let options = Options {
        columns: &args.columns,
        csv: render::escape::Csv::for_stdout(args.csv_raw, settings.stdout_tty),
        clock,
        color: settings.color,
    };
    if args.all {
        return run_all(args.format, options, &engine, &sources, bar.as_ref(), out);
    }
    let limit = args.limit as usize;
    let cap = PageHeap::cap_for(limit, conversation);
    let mut page = PageHeap::new(cap, None);
    let input = pipeline::run(
        &engine,
        &sources,
        bar.as_ref(),
        || PageHeap::new(cap, after.clone()),
        |a| {
            page.merge(a);
            Ok(())
        },
    )?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(path) = &args.partial {
        let doc =
            crate::partial::Partial::of_report(&page, &input, options_of(args, &engine, &clock));
        return crate::partial::write(path, doc, &engine, out);
    }
    if page.matching == 0 {
        hints.explain_nothing(&engine, &sources)?;
    }
    crate::deliver::report::page(
        out,
        page,
        &input,
        &crate::deliver::report::PageOutput {
            format: args.format,
            limit,
            conversation,
            dedupe: engine.dedupe,
            options,
            merged: false,
        },
    )
}

/// The options a report partial records: those of every partial and the
/// page's own (the page is chosen when the partials are made).
pub fn options_of(
    args: &ReportArgs,
    engine: &pipeline::Engine,
    clock: &Clock,
) -> std::collections::BTreeMap<String, String> {
    let mut o = crate::config::run_options(&args.input, &args.filter, &args.markers, engine);
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

/// Rows of one block rendered in the worker, plus their rollup.
struct Rendered<'e> {
    exporter: &'e dyn Exporter,
    bytes: Vec<u8>,
    rollup: Rollup,
}

impl Accumulator for Rendered<'_> {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.exporter.rows(&mut self.bytes, rows);
        for g in rows {
            self.rollup.add(&g.row);
        }
    }
    fn merge(&mut self, later: Self) {
        self.bytes.extend_from_slice(&later.bytes);
        self.rollup.merge(&later.rollup);
    }
}

/// `--all`: every matching row streamed in input order, then the rollup.
fn run_all(
    format: ReportFormat,
    options: Options<'_>,
    engine: &pipeline::Engine,
    sources: &[crate::input::Source],
    bar: Option<&indicatif::ProgressBar>,
    out: &mut dyn Write,
) -> Result<()> {
    let exporter = format.exporter(options);
    exporter.open(out)?;
    let mut total = Rollup::default();
    let mut first = true;
    let make = || Rendered {
        exporter: exporter.as_ref(),
        bytes: Vec::new(),
        rollup: Rollup::default(),
    };
    let input = pipeline::run(engine, sources, bar, make, |block| {
        out.write_all(exporter.block(&block.bytes, first))?;
        first &= block.bytes.is_empty();
        total.merge(&block.rollup);
        Ok(())
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    exporter.close(out, &total, &input)
}

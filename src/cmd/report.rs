//! `report`: one page of graded rows, newest first, with the page-scoped
//! rollup; or with `--all`, every matching row streamed in input order.

use crate::accumulate::cursor::{cursor_after, decode_cursor};
use crate::accumulate::{PageHeap, Rollup};
use crate::cli::{ReportArgs, ReportFormat};
use crate::config::{self, Settings};
use crate::exit;
use crate::pipeline::{self, Accumulator, Graded};
use crate::render::report::{Exporter, Options};
use crate::render::{self, Clock, Page, ReportDoc};
use anyhow::Result;
use std::io::Write;

/// What one page is rendered with (`report` and `merge`).
pub struct PageOutput<'a> {
    pub format: ReportFormat,
    pub limit: usize,
    /// `--conversation`: the whole conversation, oldest first, on one page.
    pub conversation: bool,
    /// De-duplication was on (see [`cursor_after`]).
    pub dedupe: bool,
    pub options: Options<'a>,
    /// Rendered by `merge`: the next page is chosen when partials are made.
    pub merged: bool,
}

/// Runs `report`.
pub fn run(args: &ReportArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    if args.partial.is_some() && args.all {
        return Err(exit::usage(
            "--partial writes one page's state; --all streams every row, which is no bounded state to merge: drop --all and page with --limit and --cursor (docs/scale-out.md)",
        ));
    }
    if args.partial.is_some() {
        config::partial_run(
            "report",
            &args.filter,
            &[
                ("--format", args.format != ReportFormat::Table),
                ("--csv-raw", args.csv_raw),
                ("--columns", !args.columns.is_empty()),
                ("--show-tz", args.filter.zone.show_tz.is_some()),
            ],
        )?;
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
    render_page(
        out,
        page,
        &input,
        &PageOutput {
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

/// Renders one page from its filled heap (`report` and `merge`).
pub fn render_page(
    out: &mut dyn Write,
    page: PageHeap,
    input: &crate::model::InputStats,
    o: &PageOutput<'_>,
) -> Result<()> {
    let (limit, conversation) = (o.limit, o.conversation);
    let (matching, newer) = (page.matching, page.newer);
    let mut entries = page.into_entries();
    let next_cursor = if !conversation && entries.len() > limit {
        entries.truncate(limit);
        entries
            .last()
            .map(|(r, pos)| cursor_after(r, *pos, o.dedupe))
    } else {
        None
    };
    let mut rows: Vec<_> = entries.into_iter().map(|(r, _)| r).collect();
    if conversation {
        rows.reverse();
    }
    let mut summary = Rollup::default();
    rows.iter().for_each(|r| summary.add(r));
    let doc = ReportDoc {
        rows: &rows,
        summary: &summary,
        next_cursor,
        matching,
        input,
        page: if conversation {
            Page::Conversation
        } else {
            Page::Numbered {
                number: newer / limit as u64 + 1,
                first: newer + 1,
            }
        },
        columns: o.options.columns,
        clock: o.options.clock,
    };
    let exporter = o.format.exporter(o.options);
    exporter.page(out, &doc)?;
    if let (Some(c), true) = (&doc.next_cursor, exporter.cursor_on_stderr()) {
        out.flush()?;
        let hint = if o.merged {
            format!("more rows: make the partials with --cursor {c} to see the next, older page")
        } else {
            format!("more rows: add --cursor {c} to see the next, older page")
        };
        pipeline::warn(None, &hint);
    }
    Ok(())
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

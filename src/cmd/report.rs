//! `report`: one page of graded rows, newest first, with the page-scoped
//! rollup; or with `--all`, every matching row streamed in input order.

use crate::accumulate::{After, PageHeap, Rollup};
use crate::cli::{ReportArgs, ReportFormat};
use crate::config::{self, Settings};
use crate::exit;
use crate::pipeline::{self, Accumulator, Graded};
use crate::render::columns;
use crate::render::{self, Clock, Page, ReportDoc};
use anyhow::Result;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::DateTime;
use std::io::Write;

/// Encodes the position after which the next page starts, as base64url of
/// `v2:{secs}:{nanos}:{seq}:{line}:{turn_id}`. The time is chrono's own
/// representation (seconds since the epoch, and nanoseconds that run past
/// 1e9 in a leap second), so every time a dialect accepts round-trips
/// exactly and the cursor orders like the rows of a page.
pub fn encode_cursor(a: &After) -> String {
    let (secs, nanos) = (
        a.created_at.timestamp(),
        a.created_at.timestamp_subsec_nanos(),
    );
    let (seq, line) = a.pos;
    URL_SAFE_NO_PAD.encode(format!("v2:{secs}:{nanos}:{seq}:{line}:{}", a.turn_id))
}

/// Decodes a cursor; a malformed one is a usage error. `v1` cursors (time
/// as i64 nanoseconds, from earlier versions) are still read: they are exact
/// for the years 1677–2262 they could hold.
pub fn decode_cursor(s: &str) -> Result<After> {
    let bad = || {
        exit::usage(format!(
            "--cursor {s:?} is not a cursor this tool wrote (pass next_cursor from a previous page)"
        ))
    };
    let bytes = URL_SAFE_NO_PAD.decode(s.trim()).map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let (created_at, rest) = if let Some(rest) = text.strip_prefix("v2:") {
        let (secs, rest) = rest.split_once(':').ok_or_else(bad)?;
        let (nanos, rest) = rest.split_once(':').ok_or_else(bad)?;
        let time = match (secs.parse::<i64>(), nanos.parse::<u32>()) {
            (Ok(secs), Ok(nanos)) => DateTime::from_timestamp(secs, nanos),
            _ => None,
        };
        (time.ok_or_else(bad)?, rest)
    } else if let Some(rest) = text.strip_prefix("v1:") {
        let (nanos, rest) = rest.split_once(':').ok_or_else(bad)?;
        let nanos = nanos.parse::<i64>().map_err(|_| bad())?;
        (DateTime::from_timestamp_nanos(nanos), rest)
    } else {
        return Err(bad());
    };
    // The turn id comes last and may itself hold `:`.
    let mut parts = rest.splitn(3, ':');
    let (Some(seq), Some(line), Some(turn_id)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let (Ok(seq), Ok(line)) = (seq.parse::<u64>(), line.parse::<u64>()) else {
        return Err(bad());
    };
    Ok(After {
        created_at,
        turn_id: turn_id.to_owned(),
        pos: (seq, line),
    })
}

/// The position after `r` in the report order, as a cursor. Under
/// de-duplication a turn id names one row, so the cursor leaves out its
/// input position (written as 0:0, before every row of that id): the
/// cursor then means the same in one pass and in a `merge` of partials,
/// whose positions differ. With `--no-dedupe` the position tells repeated
/// turns apart.
fn cursor_after(r: &crate::model::Row<'_>, pos: pipeline::Pos, dedupe: bool) -> String {
    encode_cursor(&After {
        created_at: r.created_at,
        turn_id: r.turn_id.as_str().to_owned(),
        pos: if dedupe { (0, 0) } else { pos },
    })
}

/// What one page is rendered with (`report` and `merge`).
pub struct PageOutput<'a> {
    pub format: ReportFormat,
    pub limit: usize,
    /// `--conversation`: the whole conversation, oldest first, on one page.
    pub conversation: bool,
    /// De-duplication was on (see [`cursor_after`]).
    pub dedupe: bool,
    pub columns: &'a [String],
    pub csv: render::escape::Csv,
    pub color: bool,
    pub clock: Clock,
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
                ("--show-tz", args.filter.zone.show_tz),
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
    if args.all {
        let csv = render::escape::Csv::for_stdout(args.csv_raw, settings.stdout_tty);
        return run_all(args, &engine, &sources, bar.as_ref(), (&clock, csv), out);
    }
    let limit = args.limit as usize;
    let cap = page_cap(limit, conversation);
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
            columns: &args.columns,
            csv: render::escape::Csv::for_stdout(args.csv_raw, settings.stdout_tty),
            color: settings.color,
            clock,
            merged: false,
        },
    )
}

/// The rows a page heap keeps: one more than the page, to know whether a
/// next page exists; a whole conversation.
pub fn page_cap(limit: usize, conversation: bool) -> usize {
    if conversation { usize::MAX } else { limit + 1 }
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
        columns: o.columns,
        clock: o.clock,
    };
    match o.format {
        ReportFormat::Table => {
            render::table::report(out, &doc, o.color)?;
            out.flush()?;
            if let Some(c) = &doc.next_cursor {
                let hint = if o.merged {
                    format!(
                        "more rows: make the partials with --cursor {c} to see the next, older page"
                    )
                } else {
                    format!("more rows: add --cursor {c} to see the next, older page")
                };
                pipeline::warn(None, &hint);
            }
        }
        ReportFormat::Json => render::json::report(out, &doc)?,
        ReportFormat::Markdown => render::markdown::report(out, &doc)?,
        ReportFormat::Jsonl => {
            let mut buf = Vec::new();
            rows.iter()
                .for_each(|r| render::json::row_line(&mut buf, r));
            out.write_all(&buf)?;
        }
        ReportFormat::Csv => {
            let mut w = render::csv::writer(&mut *out);
            render::csv::header(&mut w, o.columns)?;
            for r in &rows {
                render::csv::row_in(&mut w, r, o.columns, o.csv, &o.clock)?;
            }
            w.flush()?;
        }
    }
    Ok(())
}

/// Rows of one block rendered in the worker, plus their rollup.
struct Rendered<'c> {
    format: ReportFormat,
    csv: render::escape::Csv,
    columns: &'c [String],
    picked: &'c [&'c str],
    clock: Clock,
    bytes: Vec<u8>,
    rollup: Rollup,
}

impl Accumulator for Rendered<'_> {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        match self.format {
            // Every column: written straight into the block's bytes.
            ReportFormat::Csv if self.columns.is_empty() => {
                let mut w = render::csv::Fields::new(&mut self.bytes);
                for g in rows {
                    let _ = render::csv::row(&mut w, &g.row, self.csv, &self.clock);
                }
            }
            ReportFormat::Csv => {
                let mut w = render::csv::writer(&mut self.bytes);
                for g in rows {
                    let _ =
                        render::csv::row_in(&mut w, &g.row, self.columns, self.csv, &self.clock);
                }
                let _ = w.flush();
            }
            _ => {
                for g in rows {
                    match self.format {
                        ReportFormat::Jsonl => render::json::row_line(&mut self.bytes, &g.row),
                        // The separator is decided when the block is written.
                        ReportFormat::Json => {
                            render::json::stream::row(&mut self.bytes, &g.row, false)
                        }
                        ReportFormat::Markdown => render::markdown::stream::row(
                            &mut self.bytes,
                            &g.row,
                            self.picked,
                            &self.clock,
                        ),
                        ReportFormat::Table => render::table::stream::row(
                            &mut self.bytes,
                            &g.row,
                            self.picked,
                            &self.clock,
                        ),
                        ReportFormat::Csv => unreachable!("handled above"),
                    }
                }
            }
        }
        for g in rows {
            self.rollup.add(&g.row);
        }
    }
    fn merge(&mut self, later: Self) {
        self.bytes.extend_from_slice(&later.bytes);
        self.rollup.merge(&later.rollup);
    }
}

fn run_all(
    args: &ReportArgs,
    engine: &pipeline::Engine,
    sources: &[crate::input::Source],
    bar: Option<&indicatif::ProgressBar>,
    (clock, csv): (&Clock, render::escape::Csv),
    out: &mut dyn Write,
) -> Result<()> {
    let format = args.format;
    let default: &[&str] = match format {
        ReportFormat::Markdown => &columns::MARKDOWN,
        _ => &columns::TABLE,
    };
    let picked = columns::pick(&args.columns, default);
    match format {
        ReportFormat::Csv => {
            let mut w = render::csv::writer(&mut *out);
            render::csv::header(&mut w, &args.columns)?;
            w.flush()?;
        }
        ReportFormat::Json => render::json::stream::open(out)?,
        ReportFormat::Markdown => render::markdown::stream::header(out, &picked)?,
        ReportFormat::Table => render::table::stream::header(out, &picked, clock)?,
        ReportFormat::Jsonl => {}
    }
    let mut total = Rollup::default();
    let mut first = true;
    let make = || Rendered {
        format,
        csv,
        columns: &args.columns,
        picked: &picked,
        clock: *clock,
        bytes: Vec::new(),
        rollup: Rollup::default(),
    };
    let input = pipeline::run(engine, sources, bar, make, |block| {
        let mut bytes = &block.bytes[..];
        // Each JSON row was written with a leading comma; the very first drops it.
        if format == ReportFormat::Json && first && !bytes.is_empty() {
            bytes = &bytes[1..];
            first = false;
        }
        out.write_all(bytes)?;
        total.merge(&block.rollup);
        Ok(())
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    match format {
        ReportFormat::Json => render::json::stream::close(out, &total, &input)?,
        ReportFormat::Markdown => render::markdown::stream::footer(out, &total, &input)?,
        ReportFormat::Table => render::table::stream::footer(out, &total, &input)?,
        ReportFormat::Csv | ReportFormat::Jsonl => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<chrono::Utc> {
        crate::dialect::native::parse_time(s).unwrap()
    }

    #[test]
    fn cursor_round_trips_every_time_the_parser_accepts() {
        for t in [
            DateTime::from_timestamp(1_700_000_000, 5).unwrap(),
            at("0000-01-01T00:00:00Z"),
            at("0001-01-01T00:00:00Z"),
            at("1677-09-21T00:12:43.145224191Z"),
            at("1677-09-21T00:12:43.145224192Z"),
            at("2262-04-11T23:47:16.854775807Z"),
            at("2262-04-11T23:47:16.854775808Z"),
            at("9999-12-31T23:59:59.999999999Z"),
            at("2016-12-31T23:59:60Z"),
            at("2016-12-31T23:59:60.999999999Z"),
            at("9999-12-31T23:59:60.5Z"),
        ] {
            let a = After {
                created_at: t,
                turn_id: "t:9".into(),
                pos: (3, 17),
            };
            let back = decode_cursor(&encode_cursor(&a)).unwrap();
            assert_eq!(back, a, "{t:?}");
            // Exact, so its place among the rows is exact too (leap seconds included).
            assert_eq!(back.created_at.cmp(&t), std::cmp::Ordering::Equal);
        }
    }

    #[test]
    fn v1_cursors_from_earlier_versions_are_still_read() {
        let v1 = URL_SAFE_NO_PAD.encode("v1:1785676320000000000:0:15:t-15");
        let a = decode_cursor(&v1).unwrap();
        assert_eq!(a.created_at, at("2026-08-02T13:12:00Z"));
        assert_eq!((a.turn_id.as_str(), a.pos), ("t-15", (0, 15)));
    }

    #[test]
    fn malformed_cursor_is_a_usage_error() {
        for bad in [
            "",
            "!!!",
            "djE6",
            &URL_SAFE_NO_PAD.encode("v3:1:0:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:1:x"),
            &URL_SAFE_NO_PAD.encode("v2:1:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:1:-1:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:0:1500000000:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:59:2000000000:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:99999999999999999:0:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:1:0:-1:0:t"),
            &URL_SAFE_NO_PAD.encode("v1:x:y"),
        ] {
            let e = decode_cursor(bad).unwrap_err();
            assert_eq!(exit::code_for(&e), exit::USAGE, "{bad}");
        }
    }
}

//! `summary`: one streaming pass over every matching turn: totals, the
//! breakdown by agent (or channel, or model), the daily trend, the triage
//! list, retrieval use, tool calls and telemetry per verdict.

use crate::accumulate::summary::{Summary, SummaryOptions};
use crate::cli::{GroupBy, Section as CsvSection, SummaryArgs};
use crate::compare::{self, Counts};
use crate::config::{self, Settings};
use crate::exit;
use crate::pipeline::{self, Accumulator, InputStats};
use crate::render;
use anyhow::Result;
use std::io::Write;

pub use crate::view::summary::*;

/// One pass of the summary over `sources` with `engine`.
fn summarise(
    engine: &crate::pipeline::Engine,
    sources: &[crate::input::Source],
    settings: &Settings,
    opts: SummaryOptions,
) -> Result<(Summary, InputStats)> {
    let bar = settings.progress_bar(crate::input::total_bytes(sources));
    let mut summary = Summary::new(opts);
    let input = pipeline::run(
        engine,
        sources,
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
    Ok((summary, input))
}

/// Where the baseline comes from, resolved from the flags.
enum Baseline {
    None,
    /// A saved `summary --format json` document.
    File(std::path::PathBuf),
    /// A time window of the same logs: [from, to).
    Window(chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>),
}

/// Runs `summary`.
pub fn run(args: &SummaryArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    config::summary::check_args(args)?;
    let filter = config::filter(&args.filter)?;
    let clock = config::clock(&args.filter.zone)?;
    let hints = super::hints::Hints::of(&filter);
    let baseline = baseline_of(args, &filter, &clock)?;
    if args.section == Some(CsvSection::Compare) && matches!(baseline, Baseline::None) {
        return Err(exit::usage(
            "--section compare needs a baseline: --compare FILE, --compare-from/--compare-to, or --since with --compare-previous",
        ));
    }
    let mut engine = config::engine(settings, &args.input, filter, &args.markers)?;
    engine.deferred = args.partial.is_some();
    let tz = clock.zone;
    let opts = SummaryOptions {
        by: args.by,
        triage: args.triage,
        tz,
        low_score: args.low_score,
        bucket: args.bucket,
    };
    // A baseline file is read before the logs, so a wrong path fails fast.
    let (base, base_name) = match &baseline {
        Baseline::File(path) => (
            Some(read_baseline(path, args.by)?),
            path.display().to_string(),
        ),
        Baseline::None | Baseline::Window(..) => (None, String::new()),
    };
    let sources = config::sources(settings, &args.input, "summary")?;
    let (summary, input) = summarise(&engine, &sources, settings, opts)?;
    if let Some(path) = &args.partial {
        let doc = crate::partial::Partial::of_summary(
            &summary,
            &input,
            config::summary::options_of(args, &engine, opts),
        );
        return crate::partial::write(path, doc, &engine, out);
    }
    let (base, base_name) = match baseline {
        Baseline::Window(from, to) => {
            let quiet = Settings {
                progress: false,
                ..settings.clone()
            };
            let window = (from, to);
            let b = summarise_window(&engine, &sources, &quiet, opts, window)?;
            (
                Some(b),
                format!(
                    "turns from {} to {} (the end excluded)",
                    clock.zone.format(&from),
                    clock.zone.format(&to)
                ),
            )
        }
        _ => (base, base_name),
    };
    let comparison =
        base.map(|b| compare::compare_summary(&summary, base_name, &b, args.confidence));
    if summary.overall().rollup.turns == 0 {
        hints.explain_nothing(&engine, &sources)?;
    }
    let meta = config::html_meta(&args.input, &args.markers, args.min_rate)?;
    let window = window_doc(engine.filter.from, engine.filter.to, &clock.zone);
    crate::deliver::summary::summary(
        out,
        summary,
        &input,
        &clock,
        comparison.as_ref(),
        crate::deliver::summary::Output {
            format: args.format,
            section: args.section,
            csv: render::escape::Csv::for_stdout(args.csv_raw, settings.stdout_tty),
            html: &meta,
            files: config::summary::file_targets(args.html.as_deref()),
            triage_order: args.triage_order,
            window,
        },
    )
}

/// The baseline the flags ask for: a file, a window of the same logs, the
/// window just before `--since`'s, or none.
fn baseline_of(
    args: &SummaryArgs,
    filter: &crate::filter::Filter,
    clock: &crate::filter::Clock,
) -> Result<Baseline> {
    let mut baseline = match (&args.compare, &args.compare_from, &args.compare_to) {
        (Some(path), _, _) => Baseline::File(path.clone()),
        (None, Some(from), Some(to)) => {
            let bound = |s: &str| {
                crate::filter::parse_bound(s, &clock.zone)
                    .map_err(|e| exit::usage(format!("--compare-from/--compare-to: {e}")))
            };
            let (from, to) = (bound(from)?, bound(to)?);
            if from >= to {
                return Err(exit::usage(
                    "--compare-from must be earlier than --compare-to",
                ));
            }
            Baseline::Window(from, to)
        }
        _ => Baseline::None,
    };
    if args.compare_previous {
        // The --since window, and the window of the same length just before it.
        let from = filter.from.expect("--compare-previous requires --since");
        let to = filter.to.unwrap_or_else(chrono::Utc::now);
        baseline = Baseline::Window(from - (to - from), from);
    }
    Ok(baseline)
}

/// The counts of a saved `summary --format json` document, grouped as
/// this summary's are (`by`).
fn read_baseline(path: &std::path::Path, by: GroupBy) -> Result<Counts> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| exit::input(format!("--compare {}: {e}", path.display())))?;
    let counts = Counts::from_summary_json(&text)
        .map_err(|e| exit::usage(format!("--compare {}: {e:#}", path.display())))?;
    if counts.group_by != by_name(by) {
        return Err(exit::usage(format!(
            "--compare {}: its groups are by {}, this summary's by {} (pass --by {})",
            path.display(),
            counts.group_by,
            by_name(by),
            counts.group_by
        )));
    }
    Ok(counts)
}

/// The counts of the same logs over the baseline window [from, to), without a triage list.
fn summarise_window(
    engine: &crate::pipeline::Engine,
    sources: &[crate::input::Source],
    settings: &Settings,
    opts: SummaryOptions,
    (from, to): (chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>),
) -> Result<Counts> {
    let mut e = engine.clone();
    e.filter.from = Some(from);
    e.filter.to = Some(to);
    let (b, _) = summarise(&e, sources, settings, SummaryOptions { triage: 0, ..opts })?;
    Ok(compare::counts_of(&b))
}

//! `summary`'s flags checked and resolved once into its [`Plan`], and the
//! options its partials record and `merge` reads back.

use super::Settings;
use crate::accumulate::summary::SummaryOptions;
use crate::accumulate::triage::TriageOrder;
use crate::cli::{
    GroupBy, InputArgs, MarkerArgs, Section as CsvSection, SummaryArgs, SummaryFormat,
};
use crate::compare::Counts;
use crate::exit;
use crate::filter::{Clock, Filter};
use crate::input::Source;
use crate::pipeline::Engine;
use crate::render::escape::Csv;
use crate::view::summary::by_name;
use anyhow::Result;
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The flags of `summary` that change only what is rendered: a partial run
/// refuses them, `merge` takes them.
pub const RENDERED: &[&str] = &[
    "--format",
    "--section",
    "--csv-raw",
    "--html",
    "--min-rate",
    "--triage-order",
    "--show-tz",
    "--confidence",
];

/// A document a summary writes to a file besides stdout, in its format,
/// and its name in error messages.
#[derive(Debug, Clone)]
pub struct FileTarget {
    pub path: std::path::PathBuf,
    pub format: SummaryFormat,
    pub what: &'static str,
}

/// The files a summary (or a `merge` of summary partials) writes besides
/// stdout, from their flags: `--html FILE`, the page.
pub fn file_targets(html: Option<&std::path::Path>) -> Vec<FileTarget> {
    let files = [(html, SummaryFormat::Html, "HTML report")];
    files
        .into_iter()
        .filter_map(|(path, format, what)| {
            Some(FileTarget {
                path: path?.to_owned(),
                format,
                what,
            })
        })
        .collect()
}

/// Refuses the flag values `summary` cannot run with, and (with
/// `--partial`) the flags a partial run does not take.
pub fn check_args(args: &SummaryArgs) -> Result<()> {
    if let Some(r) = args.min_rate
        && !(0.0..=1.0).contains(&r)
    {
        return Err(exit::usage(format!(
            "--min-rate must be between 0 and 1, got {r}"
        )));
    }
    if !(args.low_score.is_finite()) {
        return Err(exit::usage("--low-score must be a number"));
    }
    if args.section.is_some() && args.format != SummaryFormat::Csv {
        return Err(exit::usage(
            "--section picks the table of --format csv; the other formats print every section",
        ));
    }
    if !(args.confidence > 0.0 && args.confidence < 1.0) {
        return Err(exit::usage(format!(
            "--confidence must be strictly between 0 and 1 (e.g. 0.95), got {}",
            args.confidence
        )));
    }
    if args.partial.is_some()
        && (args.compare.is_some() || args.compare_from.is_some() || args.compare_previous)
    {
        return Err(exit::usage(
            "--partial writes the current run's state only: compare after `merge` (write its --format json and pass it to --compare)",
        ));
    }
    if args.partial.is_some() {
        super::partial_run("summary", &args.filter, &args.given, RENDERED)?;
    }
    Ok(())
}

/// The options a summary partial records: those of every partial (see
/// [`crate::config::run_options`]) and the summary's own.
pub fn options_of(
    args: &SummaryArgs,
    engine: &crate::pipeline::Engine,
    opts: SummaryOptions,
) -> BTreeMap<String, String> {
    let mut o = super::run_options(&args.input, &args.filter, &args.markers, engine);
    for (k, v) in [
        ("--tz", opts.tz.name()),
        ("--by", opts.by.as_str().to_owned()),
        ("--triage", opts.triage.to_string()),
        ("--low-score", opts.low_score.to_string()),
        ("--bucket", opts.bucket.as_str().to_owned()),
    ] {
        o.insert(k.to_owned(), v);
    }
    o
}

/// Where a summary's baseline comes from, resolved from its flags.
pub enum Baseline {
    None,
    /// A saved `summary --format json` document, read (its path as named).
    File(String, Counts),
    /// A time window of the same logs: [from, to).
    Window(DateTime<Utc>, DateTime<Utc>),
}

/// A `summary` run, resolved once from its flags: what it reads, how it
/// groups, what it compares with, and what it writes. The command runs
/// it; it sees no flag.
pub struct Plan {
    pub engine: Engine,
    pub clock: Clock,
    pub opts: SummaryOptions,
    pub baseline: Baseline,
    /// `--confidence`, for the comparison.
    pub confidence: f64,
    pub sources: Vec<Source>,
    /// `--partial FILE`, with the options the partial records.
    pub partial: Option<(PathBuf, BTreeMap<String, String>)>,
    pub format: SummaryFormat,
    pub section: Option<CsvSection>,
    pub csv: Csv,
    pub files: Vec<FileTarget>,
    pub triage_order: TriageOrder,
    /// The flags the HTML page names (taken when it is drawn, which is
    /// when it says it was generated).
    page: (InputArgs, MarkerArgs, Option<f64>),
}

impl Plan {
    /// What the HTML page says about the run, as of now.
    pub fn html_meta(&self) -> Result<crate::render::html::Meta> {
        let (input, markers, min_rate) = &self.page;
        super::html_meta(input, markers, *min_rate)
    }
}

/// Resolves a `summary` run, refusing what it cannot run with, in the
/// order a user meets the mistakes: flag values, the filter and the zone,
/// the baseline's window, the engine, the baseline file, then the inputs.
pub fn plan(args: &SummaryArgs, settings: &Settings) -> Result<Plan> {
    check_args(args)?;
    let filter = super::filter(&args.filter)?;
    let clock = super::clock(&args.filter.zone)?;
    let baseline = baseline_of(args, &filter, &clock)?;
    if args.section == Some(CsvSection::Compare) && matches!(baseline, Asked::None) {
        return Err(exit::usage(
            "--section compare needs a baseline: --compare FILE, --compare-from/--compare-to, or --since with --compare-previous",
        ));
    }
    let mut engine = super::engine(settings, &args.input, filter, &args.markers)?;
    engine.deferred = args.partial.is_some();
    let opts = SummaryOptions {
        by: args.by,
        triage: args.triage,
        tz: clock.zone,
        low_score: args.low_score,
        bucket: args.bucket,
    };
    // A baseline file is read before the logs, so a wrong path fails fast.
    let baseline = match baseline {
        Asked::None => Baseline::None,
        Asked::File(path) => {
            let counts = read_baseline(&path, args.by)?;
            Baseline::File(path.display().to_string(), counts)
        }
        Asked::Window(from, to) => Baseline::Window(from, to),
    };
    let sources = super::sources(settings, &args.input, "summary")?;
    let partial = args
        .partial
        .clone()
        .map(|path| (path, options_of(args, &engine, opts)));
    Ok(Plan {
        engine,
        clock,
        opts,
        baseline,
        confidence: args.confidence,
        sources,
        partial,
        format: args.format,
        section: args.section,
        csv: Csv::for_stdout(args.csv_raw, settings.stdout_tty),
        files: file_targets(args.html.as_deref()),
        triage_order: args.triage_order,
        page: (args.input.clone(), args.markers.clone(), args.min_rate),
    })
}

/// The baseline the flags ask for, before its file is read.
enum Asked {
    None,
    File(PathBuf),
    Window(DateTime<Utc>, DateTime<Utc>),
}

/// The baseline the flags ask for: a file, a window of the same logs, the
/// window just before `--since`'s, or none.
fn baseline_of(args: &SummaryArgs, filter: &Filter, clock: &Clock) -> Result<Asked> {
    let mut baseline = match (&args.compare, &args.compare_from, &args.compare_to) {
        (Some(path), _, _) => Asked::File(path.clone()),
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
            Asked::Window(from, to)
        }
        _ => Asked::None,
    };
    if args.compare_previous {
        // The --since window, and the window of the same length just before it.
        let from = filter.from.expect("--compare-previous requires --since");
        let to = filter.to.unwrap_or_else(Utc::now);
        baseline = Asked::Window(from - (to - from), from);
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

//! `summary`'s flags checked, and the options its partials record and
//! `merge` reads back.

use crate::accumulate::summary::SummaryOptions;
use crate::cli::{SummaryArgs, SummaryFormat};
use crate::exit;
use anyhow::Result;
use std::collections::BTreeMap;

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

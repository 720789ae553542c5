//! `merge`: reads summary partials (`summary --partial`), merges them in
//! the order given and renders the summary exactly as one pass over all
//! their input would have, with the same output flags.

use crate::cli::MergeArgs;
use crate::config::{self, Settings};
use crate::exit;
use crate::partial::{self, Partial};
use anyhow::Result;
use std::io::Write;

/// Runs `merge`.
pub fn run(args: &MergeArgs, _settings: &Settings, out: &mut dyn Write) -> Result<()> {
    if args.section.is_some() && args.format != crate::cli::SummaryFormat::Csv {
        return Err(exit::usage(
            "--section picks the table of --format csv; the other formats print every section",
        ));
    }
    let mut parts = Vec::with_capacity(args.partials.len());
    for path in &args.partials {
        let name = path.display().to_string();
        let text = if path.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin())
        } else {
            std::fs::read_to_string(path)
        }
        .map_err(|e| exit::input(format!("{name}: {e}")))?;
        let p = Partial::read(&text, &name).map_err(|e| exit::input(format!("{e:#}")))?;
        parts.push((name, p));
    }
    let merged = partial::merge_summaries(&parts, super::summary::summary_options)
        .map_err(|e| exit::usage(format!("{e:#}")))?;
    // Warnings go to stderr as a single pass names them, once each.
    for w in merged.input.warnings.iter() {
        eprintln!("{}", w.line());
    }
    if merged.cross_partial_duplicates > 0 {
        eprintln!(
            "warning: {} turn id(s) in the triage lists of more than one partial: partition the input by turn key so duplicates meet in one partial (README, \"Beyond one machine\")",
            merged.cross_partial_duplicates
        );
    }
    let clock = config::clock(&crate::cli::ZoneArgs {
        tz: merged.options.get("--tz").cloned(),
        show_tz: args.show_tz,
    })?;
    let meta = crate::render::html::Meta {
        generated: crate::model::format_time(&config::generated_at()?),
        version: env!("CARGO_PKG_VERSION"),
        grammar: merged
            .options
            .get("--markers")
            .cloned()
            .unwrap_or_else(|| "-".to_owned()),
        grammar_args: Vec::new(),
        min_rate: None,
        paths: vec!["LOGS".to_owned()],
    };
    super::summary::render_summary(
        out,
        merged.summary,
        &merged.input,
        &clock,
        None,
        super::summary::Output {
            format: args.format,
            section: args.section,
            csv_raw: args.csv_raw,
            html: &meta,
            html_file: None,
        },
    )
}

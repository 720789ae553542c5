//! `summary`: one streaming pass over every matching turn: totals, the
//! breakdown by agent (or channel, or model), the daily trend, the triage
//! list, retrieval use, tool calls and telemetry per verdict.

use crate::accumulate::summary::{Summary, SummaryOptions};
use crate::cli::SummaryArgs;
use crate::compare::{self, Counts};
use crate::config::summary::{Baseline, Plan};
use crate::config::{self, Settings};
use crate::pipeline::{self, Accumulator, InputStats};
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

/// Runs `summary`.
pub fn run(args: &SummaryArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let plan = config::summary::plan(args, settings)?;
    let Plan {
        engine,
        clock,
        opts,
        sources,
        ..
    } = &plan;
    let (summary, input) = summarise(engine, sources, settings, *opts)?;
    if let Some((path, options)) = &plan.partial {
        let doc = crate::partial::Partial::of_summary(&summary, &input, options.clone());
        return crate::partial::write(path, doc, engine, out);
    }
    let (base, base_name) = match &plan.baseline {
        Baseline::None => (None, String::new()),
        Baseline::File(name, counts) => (Some(counts.clone()), name.clone()),
        Baseline::Window(from, to) => {
            let quiet = Settings {
                progress: false,
                ..settings.clone()
            };
            let b = summarise_window(engine, sources, &quiet, *opts, (*from, *to))?;
            (
                Some(b),
                format!(
                    "turns from {} to {} (the end excluded)",
                    clock.zone.format(from),
                    clock.zone.format(to)
                ),
            )
        }
    };
    let comparison =
        base.map(|b| compare::compare_summary(&summary, base_name, &b, plan.confidence));
    if summary.overall().rollup.turns == 0 {
        super::hints::Hints::of(&engine.filter).explain_nothing(engine, sources)?;
    }
    let meta = plan.html_meta()?;
    let window = window_doc(engine.filter.from, engine.filter.to, &clock.zone);
    crate::deliver::summary::summary(
        out,
        summary,
        &input,
        clock,
        comparison.as_ref(),
        crate::deliver::summary::Output {
            format: plan.format,
            section: plan.section,
            csv: plan.csv,
            html: &meta,
            files: plan.files.clone(),
            triage_order: plan.triage_order,
            window,
        },
    )
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

//! `check`: a CI gate. Reads like `summary`, evaluates the gates in
//! [`crate::gate`], prints exactly one decision line, and exits 0 (pass),
//! 1 (a gate failed), 2 (usage), 3 (input error) or 4 (output error). A
//! closed stdout cuts the document short but never changes that exit code.

use crate::accumulate::Grouped;
use crate::accumulate::summary::{Summary, SummaryOptions};
use crate::cli::CheckArgs;
use crate::config::gates::{GateError, baseline_mismatch, resolve_gates};
use crate::config::{self, Settings};
use crate::exit;
use crate::gate::Gates;
use crate::pipeline::{self, Accumulator, Graded, InputStats};
use crate::render::guard::Guarded;
use anyhow::Result;

use crate::deliver::check::{Decide, decide, render_decision};

/// What `check` accumulates: the gate inputs, and the summary when a
/// baseline is to be written.
struct CheckAcc(Grouped, Option<Summary>);

impl Accumulator for CheckAcc {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.0.add_block(rows);
        if let Some(s) = &mut self.1 {
            s.add_block(rows);
        }
    }
    fn merge(&mut self, later: Self) {
        self.0.merge(later.0);
        if let (Some(a), Some(b)) = (&mut self.1, later.1) {
            a.merge(b);
        }
    }
}

/// Runs `check`; returns the exit code.
pub fn run(args: &CheckArgs, settings: &Settings, out: &mut Guarded<'_>) -> Result<i32> {
    // A partial carries no gates: `merge` takes them.
    let gates = match args.partial {
        None => match resolve_gates(&args.gates) {
            Ok(g) => Some(g),
            Err(GateError::Usage(e)) => return Err(e),
            Err(GateError::Config(message)) => {
                return config_error(args, settings, out, &message);
            }
        },
        Some(_) => {
            refuse_outputs_with_partial(args)?;
            config::partial_run("check", &args.filter, &args.given, &[])?;
            None
        }
    };
    let filter = config::filter(&args.filter)?;
    let hints = super::hints::Hints::of(&filter);
    let mut engine = config::engine(settings, &args.input, filter, &args.markers)?;
    let clock = config::clock(&args.filter.zone)?;
    let zone = clock.zone;
    let grading =
        crate::config::grading_settings(&args.input, &args.filter, &args.markers, zone.name());
    if let Some(g) = &gates
        && let Some(message) = baseline_mismatch(
            &args.gates,
            g,
            &grading,
            &config::legacy_grading(&args.input, &args.filter),
        )
    {
        return config_error(args, settings, out, &message);
    }
    // A partition's invalid lines are judged against --max-invalid after merging.
    engine.max_invalid = gates.as_ref().map(|_| args.gates.max_invalid);
    engine.deferred = args.partial.is_some();
    let want_summary =
        args.partial.is_some() || args.gates.write_baseline.is_some() || args.out.html.is_some();
    let mut acc = CheckAcc(
        Grouped::in_zone(zone),
        want_summary.then(|| Summary::new(SummaryOptions::baseline(zone))),
    );
    let mut accounted = InputStats::default();
    let mut read = |sources: &[crate::input::Source]| {
        let bar = settings.progress_bar(crate::input::total_bytes(sources));
        let input = pipeline::run_accounted(
            &engine,
            sources,
            bar.as_ref(),
            || {
                CheckAcc(
                    Grouped::in_zone(zone),
                    want_summary.then(|| Summary::new(SummaryOptions::baseline(zone))),
                )
            },
            |g| {
                acc.merge(g);
                Ok(())
            },
            &mut accounted,
        );
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        input
    };
    // The sources are listed once; an error listing them is the run's error.
    let (sources, result) = match config::sources(settings, &args.input, "check") {
        Ok(sources) => {
            let result = read(&sources);
            (sources, result)
        }
        Err(e) => (Vec::new(), Err(e)),
    };
    let CheckAcc(data, summary) = acc;
    let Some(gates) = gates else {
        let input = result?;
        let path = args.partial.as_deref().expect("a partial run");
        let mut options =
            crate::config::run_options(&args.input, &args.filter, &args.markers, &engine);
        options.insert("--tz".to_owned(), zone.name());
        let summary = summary.expect("a partial run keeps the summary");
        let doc = crate::partial::Partial::of_check(&data, &summary, &input, options);
        crate::partial::write(path, doc, &engine, out)?;
        return Ok(exit::SUCCESS);
    };
    if result.is_ok() && data.overall.turns == 0 {
        hints.explain_nothing(&engine, &sources)?;
    }
    let meta = config::html_meta(&args.input, &args.markers, args.gates.min_rate())?;
    decide(
        &Decide {
            gates: &gates,
            outputs: &config::check::outputs(args.format, &args.gates, &args.out),
            html: &meta,
            clock,
            window: crate::view::summary::window_doc(engine.filter.from, engine.filter.to, &zone),
            grading: Some(&grading),
        },
        settings,
        out,
        data,
        summary,
        result.map_err(|e| (e, accounted)),
    )
}

/// A run whose gates could not be resolved: decided `ERROR` with every
/// requested report written, exit 3 (no log is read).
fn config_error(
    args: &CheckArgs,
    settings: &Settings,
    out: &mut Guarded<'_>,
    message: &str,
) -> Result<i32> {
    let meta = config::html_meta(&args.input, &args.markers, args.gates.min_rate())?;
    let d = Decide {
        gates: &Gates::default(),
        outputs: &config::check::outputs(args.format, &args.gates, &args.out),
        html: &meta,
        clock: crate::render::Clock::default(),
        window: Default::default(),
        grading: None,
    };
    let decision = crate::gate::config_failure(message);
    render_decision(
        &d,
        settings,
        out,
        &decision,
        &Grouped::default(),
        &InputStats::default(),
    )?;
    Ok(exit::INPUT)
}

/// `check --partial` writes state only: gates and documents are `merge`'s
/// flags, and one given here would be ignored, so it is refused.
fn refuse_outputs_with_partial(args: &CheckArgs) -> Result<()> {
    let mut given: Vec<(&str, bool)> = ["--min-rate", "--format", "--html", "--triage-order"]
        .into_iter()
        .map(|f| (f, args.given.flag(f)))
        .collect();
    given.extend(crate::cli::check_flags_given(&args.given));
    match given.iter().find(|(_, on)| *on) {
        None => Ok(()),
        Some((flag, _)) => Err(exit::usage(format!(
            "check --partial writes the run's state only: give {flag} to `grounding-audit merge`, which decides"
        ))),
    }
}

//! `check`: a CI gate. Reads like `summary`, evaluates the gates in
//! [`crate::gate`], prints exactly one decision line, and exits 0 (pass),
//! 1 (a gate failed), 2 (usage) or 3 (input error). A closed stdout cuts the
//! document short but never changes that exit code.

use crate::accumulate::{Grouped, Rollup};
use crate::cli::{CheckArgs, CheckFormat};
use crate::config::{self, Settings};
use crate::exit;
use crate::gate::{self, Gates};
use crate::pipeline::Accumulator as _;
use crate::pipeline::{self, InputStats};
use crate::render;
use anyhow::{Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;

/// The `check --format json` document.
#[derive(Debug, Serialize)]
pub struct CheckDoc<'a> {
    pub decision: &'static str,
    pub line: &'a str,
    pub gates: &'a [gate::GateResult],
    pub warnings: &'a [String],
    pub rollup: &'a Rollup,
    pub agents: &'a BTreeMap<String, Rollup>,
    pub input: &'a InputStats,
}

fn unit_interval(name: &str, v: Option<f64>) -> Result<()> {
    match v {
        Some(x) if !(0.0..=1.0).contains(&x) => Err(exit::usage(format!(
            "{name} must be between 0 and 1, got {x}"
        ))),
        _ => Ok(()),
    }
}

/// Validates the gate flags.
pub fn gates(args: &CheckArgs) -> Result<Gates> {
    if args.min_rate.is_none() && args.max_orphans.is_none() && args.max_unobserved_rate.is_none() {
        return Err(exit::usage(
            "no gate given: pass at least one of --min-rate, --max-orphans, --max-unobserved-rate",
        ));
    }
    unit_interval("--min-rate", args.min_rate)?;
    unit_interval("--max-unobserved-rate", args.max_unobserved_rate)?;
    if let Some(c) = args.confidence
        && !(c > 0.0 && c < 1.0)
    {
        return Err(exit::usage(format!(
            "--confidence must be strictly between 0 and 1 (e.g. 0.95), got {c}"
        )));
    }
    Ok(Gates {
        min_rate: args.min_rate,
        per_agent: args.per_agent,
        min_turns: args.min_turns,
        confidence: args.confidence,
        max_orphans: args.max_orphans,
        max_unobserved_rate: args.max_unobserved_rate,
        allow_empty: args.allow_empty,
    })
}

/// Writes `bytes` to stdout and flushes. `Ok(false)` when the reader has
/// gone away (`| head -1`, `| true`): the document is cut short, but a
/// gate's decision and exit code must outlive its reader, so this is not an
/// error here (unlike `report` and `summary`, where it ends the run quietly).
fn deliver(out: &mut dyn Write, bytes: &[u8]) -> Result<bool> {
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Runs `check`; returns the exit code.
pub fn run(args: &CheckArgs, settings: &Settings, out: &mut dyn Write) -> Result<i32> {
    let gates = gates(args)?;
    let filter = config::filter(&args.filter)?;
    let hints = super::hints::Hints::of(&filter);
    let mut engine = config::engine(settings, &args.input, filter, &args.markers)?;
    engine.max_invalid = Some(args.max_invalid);
    let mut data = Grouped::default();
    let result = (|| {
        let sources = config::sources(settings, &args.input, "check")?;
        let bar = settings.progress_bar(crate::input::total_bytes(&sources));
        let input = pipeline::run(&engine, &sources, bar.as_ref(), Grouped::default, |g| {
            data.merge(g);
            Ok(())
        });
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        input
    })();
    let (decision, input, code) = match result {
        Ok(input) => {
            if data.overall.turns == 0 {
                let sources = config::sources(settings, &args.input, "check")?;
                hints.explain_nothing(&engine, &sources)?;
            }
            let d = gate::evaluate(&gates, &data, &input);
            let code = if d.pass { exit::SUCCESS } else { exit::FAILED };
            (d, input, code)
        }
        // A gate must never pass on a log it could not read: the decision is
        // FAIL, every format still gets its whole document, and the exit is 3.
        Err(e) if exit::code_for(&e) == exit::INPUT => {
            data = Grouped::default();
            let d = gate::input_failure(&format!("{e:#}"), args.max_invalid);
            (d, InputStats::default(), exit::INPUT)
        }
        Err(e) => return Err(e),
    };
    let mut doc = Vec::new();
    match args.format {
        CheckFormat::Text => {
            writeln!(doc, "{}", render::escape::terminal(&decision.line))?;
            render::text::gate_list(&mut doc, &decision, &input)?;
        }
        CheckFormat::Json => render::json::document(
            &mut doc,
            &CheckDoc {
                decision: if decision.pass { "pass" } else { "fail" },
                line: &decision.line,
                gates: &decision.gates,
                warnings: &decision.warnings,
                rollup: &data.overall,
                agents: &data.groups,
                input: &input,
            },
        )?,
        CheckFormat::Junit => render::junit::check(&mut doc, &decision)?,
        CheckFormat::Github => render::github::check(&mut doc, &decision)?,
        CheckFormat::Markdown => render::markdown::check(&mut doc, &decision, &input)?,
    }
    if args.format == CheckFormat::Github
        && let Some(path) = &settings.github_step_summary
    {
        let mut summary = Vec::new();
        render::markdown::check(&mut summary, &decision, &input)?;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening GITHUB_STEP_SUMMARY {}", path.display()))?;
        f.write_all(&summary)?;
    }
    let line = render::escape::terminal(&decision.line).into_owned();
    let delivered = match &args.output {
        Some(path) => {
            std::fs::write(path, &doc).with_context(|| format!("writing {}", path.display()))?;
            deliver(out, format!("{line}\n").as_bytes())?
        }
        None => deliver(out, &doc)?,
    };
    // The decision line goes to stderr when stdout carries a document
    // instead, and also when stdout was closed before it could be read.
    let on_stdout = args.output.is_some() || args.format == CheckFormat::Text;
    if !on_stdout || !delivered {
        pipeline::warn(None, &line);
    }
    Ok(code)
}

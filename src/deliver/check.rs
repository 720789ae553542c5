//! Deciding a finished `check` run (or `merge` of check partials) and
//! writing every document asked for: the `--format` document on stdout (or
//! `--output`), the report files, the baseline, the HTML page, the step
//! summary and the decision line.

use crate::accumulate::Grouped;
use crate::accumulate::summary::Summary;
use crate::config::Settings;
use crate::config::check::CheckOutputs;
use crate::exit;
use crate::gate::{self, Gates};
use crate::pipeline::{self, InputStats};
use crate::render;
use crate::render::check::Format as CheckFormat;
use crate::render::guard::Guarded;
use anyhow::Result;
use std::io::Write;

/// A baseline: a summary document with the options it was graded under
/// first, as one line (`"grading": {...}`), the rest as `summary` writes it.
#[derive(serde::Serialize)]
struct BaselineDoc<'a, T: serde::Serialize> {
    #[serde(skip_serializing_if = "Option::is_none")]
    grading: Option<Box<serde_json::value::RawValue>>,
    #[serde(flatten)]
    summary: &'a T,
}

/// The grading record of a baseline, as one line of JSON.
fn grading_record(
    grading: Option<&std::collections::BTreeMap<String, serde_json::Value>>,
) -> Result<Option<Box<serde_json::value::RawValue>>> {
    let Some(g) = grading else {
        return Ok(None);
    };
    let record = serde_json::json!({
        "version": crate::compare::GRADING_VERSION,
        "settings": g,
    });
    Ok(Some(serde_json::value::to_raw_value(&record)?))
}

/// Writes `bytes` to stdout and flushes. `Ok(false)` when the reader has
/// gone away (`| head -1`, `| true`): the document is cut short, but a
/// gate's decision and exit code must outlive its reader, so this is not an
/// error here (unlike `report` and `summary`, where it ends the run quietly).
fn deliver(out: &mut dyn Write, bytes: &[u8]) -> Result<bool> {
    deliver_with(|| out.write_all(bytes).and_then(|()| out.flush()))
}

/// [`deliver`] of whatever `write` writes.
fn deliver_with(write: impl FnOnce() -> std::io::Result<()>) -> Result<bool> {
    match write() {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// What a check run is decided and rendered with (`check` and `merge`).
pub struct Decide<'a> {
    pub gates: &'a Gates,
    /// What is written, and where.
    pub outputs: &'a CheckOutputs,
    /// What the `--html` page says about the run.
    pub html: &'a render::html::Meta,
    /// How the `--html` page shows times (`--tz`, `--show-tz`), as `summary` does.
    pub clock: render::Clock,
    /// The time window the turns were taken from.
    pub window: crate::view::summary::WindowDoc,
    /// The options the run graded under, recorded in `--write-baseline`.
    pub grading: Option<&'a std::collections::BTreeMap<String, serde_json::Value>>,
}

/// Evaluates the gates over a finished run (or its input error, with the
/// accounting up to it), writes every document asked for, and returns the
/// exit code: 0 pass, 1 a gate failed, 3 the input could not be read.
pub fn decide(
    d: &Decide<'_>,
    settings: &Settings,
    out: &mut Guarded<'_>,
    mut data: Grouped,
    summary: Option<Summary>,
    result: std::result::Result<InputStats, (anyhow::Error, InputStats)>,
) -> Result<i32> {
    let o = d.outputs;
    let (decision, input, code) = match result {
        Ok(input) => {
            let d = gate::evaluate(d.gates, &data, &input);
            let code = if d.pass { exit::SUCCESS } else { exit::FAILED };
            (d, input, code)
        }
        // A gate must never pass on a log it could not read: the decision is
        // FAIL, every format still gets its whole document, and the exit is 3.
        // The input line still says what was read before the refusal.
        Err((e, accounted)) if exit::code_for(&e) == exit::INPUT => {
            data = Grouped::default();
            let d = gate::input_failure(&format!("{e:#}"), o.max_invalid);
            (d, accounted, exit::INPUT)
        }
        Err((e, _)) => return Err(e),
    };
    if let Some(s) = summary
        && code != exit::INPUT
    {
        let view =
            crate::view::summary::document(&s, &input, &d.clock, d.window.clone(), o.triage_order);
        if let Some(path) = &o.write_baseline {
            let mut doc = Vec::new();
            let baseline = BaselineDoc {
                grading: grading_record(d.grading)?,
                summary: &view,
            };
            render::json::document(&mut doc, &baseline)?;
            if !o.ratchet {
                exit::write_file(path, &doc, false, "baseline")?;
            } else if code == exit::SUCCESS {
                let old = o.baseline.as_deref().unwrap_or(path);
                let doc =
                    crate::compare::better_baseline(std::fs::read(old).ok().as_deref(), &doc)?;
                exit::write_file(path, &doc, false, "baseline")?;
            } else {
                pipeline::warn(
                    None,
                    &format!(
                        "warning: {} not written: a gate failed, and --ratchet writes a baseline only from a run that passed",
                        path.display()
                    ),
                );
            }
        }
        super::summary::write_files(&o.summary_files, &view, false, d.html)?;
    }
    render_decision(d, settings, out, &decision, &data, &input)?;
    Ok(code)
}

/// Writes the decision in every format asked for: the `--format` document
/// on stdout (or `--output`), the report files, the step summary, and the
/// decision line.
pub fn render_decision(
    d: &Decide<'_>,
    settings: &Settings,
    out: &mut Guarded<'_>,
    decision: &crate::gate::Decision,
    data: &Grouped,
    input: &InputStats,
) -> Result<()> {
    let o = d.outputs;
    let doc = o.format.draw(decision, data, input)?;
    for (path, format, what) in &o.reports {
        let bytes = format.draw(decision, data, input)?;
        exit::write_file(path, &bytes, false, what)?;
    }
    let github = o.github || o.format == CheckFormat::Github;
    if github && let Some(path) = &settings.github_step_summary {
        let mut summary = Vec::new();
        render::markdown::check(&mut summary, decision, input)?;
        exit::write_file(path, &summary, true, "GITHUB_STEP_SUMMARY")?;
    }
    let line = render::escape::terminal(&decision.line).into_owned();
    let stdout_doc = match &o.output {
        Some(path) => {
            exit::write_file(path, &doc, false, "--output")?;
            format!("{line}\n").into_bytes()
        }
        None => doc,
    };
    let mut delivered = deliver(out, &stdout_doc)?;
    // --github next to another format: the workflow commands follow on stdout,
    // where the Actions runner reads them (after any stop-commands stretch).
    if delivered && o.github && o.format != CheckFormat::Github {
        let commands = CheckFormat::Github.draw(decision, data, input)?;
        delivered = deliver_with(|| out.commands(&commands).and_then(|()| out.flush()))?;
    }
    // The decision line goes to stderr when stdout carries a document
    // instead, and also when stdout was closed before it could be read.
    let on_stdout = o.output.is_some() || o.format == CheckFormat::Text;
    if !on_stdout || !delivered {
        pipeline::warn(None, &line);
    }
    Ok(())
}

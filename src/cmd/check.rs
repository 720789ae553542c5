//! `check`: a CI gate. Reads like `summary`, evaluates the gates in
//! [`crate::gate`], prints exactly one decision line, and exits 0 (pass),
//! 1 (a gate failed), 2 (usage), 3 (input error) or 4 (output error). A
//! closed stdout cuts the document short but never changes that exit code.

use crate::accumulate::summary::{Summary, SummaryOptions};
use crate::accumulate::{Grouped, Rollup};
use crate::cli::{CheckArgs, CheckFormat, CheckOutputArgs, GateArgs, GroupBy};
use crate::compare::Counts;
use crate::config::{self, Settings};
use crate::exit;
use crate::gate::{self, Decision, Gates};
use crate::pipeline::Accumulator;
use crate::pipeline::{self, Graded, InputStats};
use crate::policy::Policy;
use crate::render;
use crate::render::guard::Guarded;
use anyhow::Result;
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

/// Validates the gate flags, with the policy's defaults filling in what the
/// command line left out and its agents as overrides.
pub fn gates(args: &GateArgs, policy: Option<&Policy>) -> Result<Gates> {
    let d = policy.map(|p| p.defaults.clone()).unwrap_or_default();
    let min_rate = args.min_rate.or(d.min_rate);
    let max_drop = args.max_drop.or(d.max_drop);
    let max_orphan_rate = args.max_orphan_rate.or(d.max_orphan_rate);
    let max_orphans = args.max_orphans.or(d.max_orphans);
    let max_unobserved_rate = args.max_unobserved_rate.or(d.max_unobserved_rate);
    let confidence = args.confidence.or(d.confidence);
    let agent_rules = policy.is_some_and(|p| !p.agents.is_empty());
    if min_rate.is_none()
        && max_drop.is_none()
        && max_orphan_rate.is_none()
        && max_orphans.is_none()
        && max_unobserved_rate.is_none()
        && !agent_rules
    {
        return Err(exit::usage(
            "no gate given: pass at least one of --min-rate, --max-drop, --max-orphans, --max-orphan-rate, --max-unobserved-rate, --policy",
        ));
    }
    unit_interval("--min-rate", args.min_rate)?;
    unit_interval("--max-unobserved-rate", args.max_unobserved_rate)?;
    unit_interval("--max-orphan-rate", args.max_orphan_rate)?;
    unit_interval("--max-drop", args.max_drop)?;
    if let Some(c) = args.confidence
        && !(c > 0.0 && c < 1.0)
    {
        return Err(exit::usage(format!(
            "--confidence must be strictly between 0 and 1 (e.g. 0.95), got {c}"
        )));
    }
    if args.confidence.is_some() && min_rate.is_none() && max_drop.is_none() && !agent_rules {
        return Err(exit::usage(
            "--confidence qualifies --min-rate or --max-drop: give one of them",
        ));
    }
    if args.per_agent && min_rate.is_none() && max_drop.is_none() && max_orphan_rate.is_none() {
        return Err(exit::usage(
            "--per-agent applies --min-rate, --max-drop or --max-orphan-rate to each agent: give one of them",
        ));
    }
    if max_drop.is_some() && args.baseline.is_none() {
        return Err(exit::usage(
            "--max-drop (or max_drop in the policy) needs --baseline FILE",
        ));
    }
    Ok(Gates {
        min_rate,
        per_agent: args.per_agent || policy.is_some(),
        min_turns: args.min_turns.or(d.min_turns).unwrap_or(1),
        confidence,
        require_proof: args.require_proof || d.require_proof.unwrap_or(false),
        max_orphans,
        max_orphan_rate,
        max_unobserved_rate,
        max_drop,
        baseline: None,
        allow_empty: args.allow_empty,
        agents: policy.map(|p| p.agents.clone()).unwrap_or_default(),
    })
}

/// Reads a file named by a flag: unreadable is an input error (exit 3).
fn read_flag_file(flag: &str, path: &std::path::Path) -> Result<String> {
    std::fs::read_to_string(path)
        .map_err(|e| exit::input(format!("{flag} {}: {e}", path.display())))
}

/// Reads `--policy`: a malformed one is a configuration error (exit 2).
fn read_policy(args: &GateArgs) -> Result<Option<Policy>> {
    let Some(path) = &args.policy else {
        return Ok(None);
    };
    let text = read_flag_file("--policy", path)?;
    Policy::parse(&text)
        .map(Some)
        .map_err(|e| exit::usage(format!("--policy {}: {e}", path.display())))
}

/// Reads `--baseline`: a document that is not a summary is a configuration error.
fn read_baseline(args: &GateArgs) -> Result<Option<Counts>> {
    let Some(path) = &args.baseline else {
        return Ok(None);
    };
    let text = read_flag_file("--baseline", path)?;
    let counts = Counts::from_summary_json(&text)
        .map_err(|e| exit::usage(format!("--baseline {}: {e:#}", path.display())))?;
    if counts.group_by != "agent" {
        return Err(exit::usage(format!(
            "--baseline {}: groups are by {}, but check compares agents (save it with summary --by agent)",
            path.display(),
            counts.group_by
        )));
    }
    Ok(Some(counts))
}

/// The options a baseline was graded under that differ from this run's,
/// as the message of a configuration error; None when they match or the
/// baseline does not say (a plain `summary --format json`).
fn baseline_mismatch(
    args: &GateArgs,
    gates: &Gates,
    now: &std::collections::BTreeMap<String, String>,
) -> Option<String> {
    let then = gates.baseline.as_ref()?.grading.as_ref()?;
    let path = args.baseline.as_ref()?;
    let differ: Vec<String> = now
        .iter()
        .filter(|(k, v)| then.get(*k).is_some_and(|t| t != *v))
        .map(|(k, v)| format!("{k} {} (this run: {v})", then[k]))
        .collect();
    (!differ.is_empty()).then(|| {
        format!(
            "--baseline {} was graded with {}: rates graded differently do not compare; grade this run the same way, or write a new baseline",
            path.display(),
            differ.join(", ")
        )
    })
}

/// A summary document with the options it was graded under first
/// (`"grading": {...}`), the rest byte for byte as `summary` writes it.
fn with_grading(
    doc: Vec<u8>,
    grading: Option<&std::collections::BTreeMap<String, String>>,
) -> Result<Vec<u8>> {
    let Some(g) = grading else {
        return Ok(doc);
    };
    let Some(rest) = doc.strip_prefix(b"{") else {
        return Ok(doc);
    };
    let mut out = b"{\n  \"grading\": ".to_vec();
    out.extend(serde_json::to_vec(g)?);
    out.push(b',');
    out.extend_from_slice(rest);
    Ok(out)
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

/// The options of the summary `--write-baseline` saves: those of a plain
/// `summary --format json` in the same `--tz`, so the two documents are the
/// same.
pub fn baseline_options(tz: crate::filter::Zone) -> SummaryOptions {
    SummaryOptions {
        by: GroupBy::Agent,
        triage: 20,
        tz,
        low_score: 0.5,
        bucket: crate::accumulate::summary::Bucket::Day,
    }
}

/// Renders the decision in one format.
fn render_as(
    format: CheckFormat,
    decision: &Decision,
    data: &Grouped,
    input: &InputStats,
) -> Result<Vec<u8>> {
    let mut doc = Vec::new();
    match format {
        CheckFormat::Text => {
            writeln!(doc, "{}", render::escape::terminal(&decision.line))?;
            render::text::gate_list(&mut doc, decision, input)?;
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
                input,
            },
        )?,
        CheckFormat::Junit => render::junit::check(&mut doc, decision)?,
        CheckFormat::Github => render::github::check(&mut doc, decision)?,
        CheckFormat::Markdown => render::markdown::check(&mut doc, decision, input)?,
    }
    Ok(doc)
}

/// Why the gates could not be resolved.
pub enum GateError {
    /// A flag's value or combination is wrong (exit 2, nothing rendered).
    Usage(anyhow::Error),
    /// A file the gates need (`--baseline`, `--policy`) is missing,
    /// unreadable or of the wrong kind: the run is decided `ERROR`, every
    /// report is still written, and the exit is 3.
    Config(String),
}

impl GateError {
    /// As an error of the exit-code contract: usage 2, configuration 3.
    pub fn into_error(self) -> anyhow::Error {
        match self {
            GateError::Usage(e) => e,
            GateError::Config(m) => exit::input(m),
        }
    }
}

/// The gates with their policy and baseline read: usage and configuration
/// errors come before any log is read.
pub fn resolve_gates(args: &GateArgs) -> std::result::Result<Gates, GateError> {
    let config = |e: anyhow::Error| GateError::Config(format!("{e:#}"));
    let policy = read_policy(args).map_err(config)?;
    let mut gates = gates(args, policy.as_ref()).map_err(GateError::Usage)?;
    gates.baseline = read_baseline(args).map_err(|e| match &args.baseline {
        Some(path) if !path.exists() => GateError::Config(format!(
            "{e:#}: a first run has no baseline yet; create one from a trusted run with `grounding-audit check LOGS --min-rate R {}`",
            render::shell::option("--write-baseline", &path.display().to_string())
        )),
        _ => config(e),
    })?;
    Ok(gates)
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
            config::partial_run("check", &args.filter, &[])?;
            None
        }
    };
    let filter = config::filter(&args.filter)?;
    let hints = super::hints::Hints::of(&filter);
    let mut engine = config::engine(settings, &args.input, filter, &args.markers)?;
    let clock = config::clock(&args.filter.zone)?;
    let zone = clock.zone;
    let grading = crate::config::grading_options(
        &args.input,
        &args.filter,
        &args.markers,
        &engine,
        zone.name(),
    );
    if let Some(g) = &gates
        && let Some(message) = baseline_mismatch(&args.gates, g, &grading)
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
        want_summary.then(|| Summary::new(baseline_options(zone))),
    );
    let mut accounted = InputStats::default();
    let result = (|| {
        let sources = config::sources(settings, &args.input, "check")?;
        let bar = settings.progress_bar(crate::input::total_bytes(&sources));
        let input = pipeline::run_accounted(
            &engine,
            &sources,
            bar.as_ref(),
            || {
                CheckAcc(
                    Grouped::in_zone(zone),
                    want_summary.then(|| Summary::new(baseline_options(zone))),
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
    })();
    let CheckAcc(data, summary) = acc;
    let Some(gates) = gates else {
        let input = result?;
        let path = args.partial.as_deref().expect("a partial run");
        let mut options =
            crate::config::run_options(&args.input, &args.filter, &args.markers, &engine);
        options.insert(
            "--tz".to_owned(),
            config::clock(&args.filter.zone)?.zone.name(),
        );
        let summary = summary.expect("a partial run keeps the summary");
        let doc = crate::partial::Partial::of_check(&data, &summary, &input, options);
        crate::partial::write(path, doc, &engine, out)?;
        return Ok(exit::SUCCESS);
    };
    if result.is_ok() && data.overall.turns == 0 {
        let sources = config::sources(settings, &args.input, "check")?;
        hints.explain_nothing(&engine, &sources)?;
    }
    let meta = crate::cmd::summary::html_meta(&args.input, &args.markers, args.gates.min_rate)?;
    decide(
        &Decide {
            gates: &gates,
            args: &args.gates,
            format: args.format,
            out: &args.out,
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
    let meta = crate::cmd::summary::html_meta(&args.input, &args.markers, args.gates.min_rate)?;
    let d = Decide {
        gates: &Gates::default(),
        args: &args.gates,
        format: args.format,
        out: &args.out,
        html: &meta,
        clock: render::Clock::default(),
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
    let (g, o) = (&args.gates, &args.out);
    let mut given = vec![
        ("--min-rate", g.min_rate.is_some()),
        ("--format", args.format != CheckFormat::Text),
        ("--html", o.html.is_some()),
    ];
    given.extend(crate::cli::check_flags_given(g, o));
    match given.iter().find(|(_, on)| *on) {
        None => Ok(()),
        Some((flag, _)) => Err(exit::usage(format!(
            "check --partial writes the run's state only: give {flag} to `grounding-audit merge`, which decides"
        ))),
    }
}

/// What a check run is decided and rendered with (`check` and `merge`).
pub struct Decide<'a> {
    pub gates: &'a Gates,
    pub args: &'a GateArgs,
    pub format: CheckFormat,
    pub out: &'a CheckOutputArgs,
    /// What the `--html` page says about the run.
    pub html: &'a render::html::Meta,
    /// How the `--html` page shows times (`--tz`, `--show-tz`), as `summary` does.
    pub clock: render::Clock,
    /// The time window the turns were taken from.
    pub window: crate::view::summary::WindowDoc,
    /// The options the run graded under, recorded in `--write-baseline`.
    pub grading: Option<&'a std::collections::BTreeMap<String, String>>,
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
    let (args, o) = (d.args, d.out);
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
            let d = gate::input_failure(&format!("{e:#}"), args.max_invalid);
            (d, accounted, exit::INPUT)
        }
        Err((e, _)) => return Err(e),
    };
    if let Some(mut s) = summary
        && code != exit::INPUT
    {
        let triage =
            std::mem::replace(&mut s.triage, crate::accumulate::PageHeap::new(0, None)).into_rows();
        let view = crate::cmd::summary::document(&s, &triage, &input, &d.clock, d.window.clone());
        if let Some(path) = &args.write_baseline {
            let mut doc = Vec::new();
            render::json::document(&mut doc, &view)?;
            let doc = with_grading(doc, d.grading)?;
            if !args.ratchet {
                exit::write_file(path, &doc, false, "baseline")?;
            } else if code == exit::SUCCESS {
                let old = args.baseline.as_deref().unwrap_or(path);
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
        if let Some(path) = &o.html {
            let page = render::html::page(&view, d.html);
            exit::write_file(path, page.as_bytes(), false, "HTML report")?;
        }
    }
    render_decision(d, settings, out, &decision, &data, &input)?;
    Ok(code)
}

/// Writes the decision in every format asked for: the `--format` document
/// on stdout (or `--output`), the report files, the step summary, and the
/// decision line.
fn render_decision(
    d: &Decide<'_>,
    settings: &Settings,
    out: &mut Guarded<'_>,
    decision: &crate::gate::Decision,
    data: &Grouped,
    input: &InputStats,
) -> Result<()> {
    let o = d.out;
    let doc = render_as(d.format, decision, data, input)?;
    for (path, format, what) in [
        (&o.junit, CheckFormat::Junit, "JUnit report"),
        (&o.json, CheckFormat::Json, "JSON report"),
        (&o.markdown, CheckFormat::Markdown, "Markdown report"),
    ] {
        if let Some(path) = path {
            let bytes = render_as(format, decision, data, input)?;
            exit::write_file(path, &bytes, false, what)?;
        }
    }
    let github = o.github || d.format == CheckFormat::Github;
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
    if delivered && o.github && d.format != CheckFormat::Github {
        let commands = render_as(CheckFormat::Github, decision, data, input)?;
        delivered = deliver_with(|| out.commands(&commands).and_then(|()| out.flush()))?;
    }
    // The decision line goes to stderr when stdout carries a document
    // instead, and also when stdout was closed before it could be read.
    let on_stdout = o.output.is_some() || d.format == CheckFormat::Text;
    if !on_stdout || !delivered {
        pipeline::warn(None, &line);
    }
    Ok(())
}

//! `check`'s gates resolved from their flags, the `--policy` file and the
//! `--baseline` document, before any log is read: what is wrong with a
//! flag is a usage error (exit 2); a file the gates need that is missing,
//! unreadable or of the wrong kind is a configuration error, decided
//! `ERROR` with every report still written (exit 3).

use crate::cli::GateArgs;
use crate::compare::Counts;
use crate::exit;
use crate::gate::{Gates, Reach, TABLE, Unit, table};
use crate::policy::Policy;
use anyhow::Result;
use std::collections::BTreeMap;

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
    let given = &args.limits.0;
    let limits = given.over(&d.limits);
    let confidence = args.confidence.or(d.confidence);
    let agent_rules = policy.is_some_and(|p| !p.agents.is_empty());
    if limits.is_empty() && !agent_rules {
        let flags: Vec<&str> = TABLE.iter().map(|r| r.flag).collect();
        return Err(exit::usage(format!(
            "no gate given: pass at least one of {}, --policy",
            flags.join(", ")
        )));
    }
    for row in TABLE.iter().filter(|r| r.unit == Unit::Rate) {
        unit_interval(row.flag, given.rate(row.kind))?;
    }
    if let Some(c) = args.confidence
        && !(c > 0.0 && c < 1.0)
    {
        return Err(exit::usage(format!(
            "--confidence must be strictly between 0 and 1 (e.g. 0.95), got {c}"
        )));
    }
    let any = |reach: &[Reach]| {
        TABLE
            .iter()
            .any(|r| reach.contains(&r.reach) && limits.has(r.kind))
    };
    if args.confidence.is_some() && !any(&[Reach::Rated]) && !agent_rules {
        return Err(exit::usage(format!(
            "--confidence qualifies {}: give one of them",
            table::flags_listed(|r| r.reach == Reach::Rated, "or")
        )));
    }
    if args.per_agent && !any(&[Reach::Rated, Reach::PerAgent]) {
        return Err(exit::usage(format!(
            "--per-agent applies {} to each agent: give one of them",
            table::flags_listed(|r| r.reach != Reach::OwnTable, "or")
        )));
    }
    if args.baseline.is_none()
        && let Some(row) = TABLE
            .iter()
            .find(|r| r.needs_baseline && limits.has(r.kind))
    {
        return Err(exit::usage(format!(
            "{} (or {} in the policy) needs --baseline FILE",
            row.flag,
            row.kind.as_str()
        )));
    }
    Ok(Gates {
        limits,
        per_agent: args.per_agent || policy.is_some(),
        min_turns: args.min_turns.or(d.min_turns).unwrap_or(1),
        confidence,
        require_proof: args.require_proof || d.require_proof.unwrap_or(false),
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
    // A ratchet's first night: the baseline it keeps is not written yet.
    // The drop has nothing to be measured against; this run, if it passes,
    // starts the baseline. One command serves every night.
    if args.ratchet && args.write_baseline.as_ref() == Some(path) && !path.exists() {
        crate::pipeline::warn(
            None,
            &format!(
                "note: --baseline {}: no baseline yet; --ratchet starts it from this run if every gate passes (no drop is gated tonight)",
                path.display()
            ),
        );
        return Ok(None);
    }
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
/// `legacy` holds this run's settings as baselines written before their
/// stable spellings recorded them; either spelling matches.
pub fn baseline_mismatch(
    args: &GateArgs,
    gates: &Gates,
    now: &BTreeMap<String, serde_json::Value>,
    legacy: &BTreeMap<String, String>,
) -> Option<String> {
    let then = gates.baseline.as_ref()?.grading.as_ref()?;
    let path = args.baseline.as_ref()?;
    if then.version > crate::compare::GRADING_VERSION {
        return Some(format!(
            "--baseline {} records its settings in version {} of the grading record, newer than this grounding-audit reads ({}): upgrade, or write a new baseline",
            path.display(),
            then.version,
            crate::compare::GRADING_VERSION
        ));
    }
    let differ: Vec<String> = now
        .iter()
        .filter_map(|(k, v)| {
            let t = then.settings.get(k)?;
            let same = if then.version >= 2 {
                t == v
            } else {
                recorded_as(t.as_str()?, v, legacy.get(k))
            };
            (!same).then(|| format!("{k} {} (this run: {})", shown(t), shown(v)))
        })
        .collect();
    (!differ.is_empty()).then(|| {
        format!(
            "--baseline {} was graded with {}: rates graded differently do not compare; grade this run the same way, or write a new baseline",
            path.display(),
            differ.join(", ")
        )
    })
}

/// Whether a version-1 record's string `s` names the setting `now`: as its
/// JSON text (`[]`, `null`, `50000`), as the text itself (`prompt`), or as
/// the older Rust debug spelling (`Prompt`, `None`).
fn recorded_as(s: &str, now: &serde_json::Value, legacy: Option<&String>) -> bool {
    let json = serde_json::to_string(now).unwrap_or_default();
    now.as_str() == Some(s) || json == s || legacy.is_some_and(|l| l == s)
}

/// A setting as a message shows it: text as is, anything else as JSON.
fn shown(v: &serde_json::Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
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
            crate::shell::option("--write-baseline", &path.display().to_string())
        )),
        _ => config(e),
    })?;
    Ok(gates)
}

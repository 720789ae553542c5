//! What a `check` run (or a `merge` of check partials) writes, and where:
//! resolved once from its flags, so the stage that delivers the documents
//! never sees the command line.

use crate::accumulate::triage::TriageOrder;
use crate::cli::{CheckFormat, CheckOutputArgs, GateArgs};
use std::path::PathBuf;

/// Every document a check run writes, with its target.
#[derive(Debug, Clone)]
pub struct CheckOutputs {
    /// `--format`: the document on stdout (or in `--output`).
    pub format: CheckFormat,
    /// `--output`: the document to this file, the decision line to stdout.
    pub output: Option<PathBuf>,
    /// The report files (`--junit`, `--json`, `--markdown`): each with its
    /// format and its name in error messages.
    pub reports: Vec<(PathBuf, CheckFormat, &'static str)>,
    /// The summary's documents written to files (`--html`: its page).
    pub summary_files: Vec<super::summary::FileTarget>,
    /// `--triage-order`, for the HTML page and the baseline.
    pub triage_order: TriageOrder,
    /// `--github`: workflow commands after another format.
    pub github: bool,
    /// `--write-baseline`.
    pub write_baseline: Option<PathBuf>,
    /// `--ratchet`: the baseline is rewritten only by a run that passed,
    /// and only where it got better than `baseline` (or the file itself).
    pub ratchet: bool,
    pub baseline: Option<PathBuf>,
    /// `--max-invalid`, named in the decision of an input that failed.
    pub max_invalid: u64,
}

/// The outputs of a check run from its flags.
pub fn outputs(format: CheckFormat, gates: &GateArgs, out: &CheckOutputArgs) -> CheckOutputs {
    let reports = [
        (&out.junit, CheckFormat::Junit, "JUnit report"),
        (&out.json, CheckFormat::Json, "JSON report"),
        (&out.markdown, CheckFormat::Markdown, "Markdown report"),
    ];
    CheckOutputs {
        format,
        output: out.output.clone(),
        reports: reports
            .into_iter()
            .filter_map(|(path, format, what)| Some((path.clone()?, format, what)))
            .collect(),
        summary_files: super::summary::file_targets(out.html.as_deref()),
        triage_order: out.triage_order,
        github: out.github,
        write_baseline: gates.write_baseline.clone(),
        ratchet: gates.ratchet,
        baseline: gates.baseline.clone(),
        max_invalid: gates.max_invalid,
    }
}

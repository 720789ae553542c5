//! GitHub Actions workflow commands for `check`: an `::error::` per failing
//! gate, a `::warning::` per warning, and a Markdown table for the job
//! summary.

use crate::gate::{Decision, Outcome};
use anyhow::Result;
use std::io::Write;

/// Escapes a workflow-command message: control characters, ANSI escapes and
/// bidi overrides first (the Actions log renders ANSI colours), then
/// GitHub's own rules (`%`, CR and LF).
pub fn escape(s: &str) -> String {
    super::escape::terminal(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Writes the workflow commands.
pub fn check(out: &mut dyn Write, d: &Decision) -> Result<()> {
    for g in d
        .gates
        .iter()
        .filter(|g| matches!(g.outcome, Outcome::Fail | Outcome::Error))
    {
        writeln!(
            out,
            "::error title=grounding-audit {}::{}",
            escape(g.gate.as_str()),
            escape(&super::gate_detail(g))
        )?;
    }
    for w in &d.warnings {
        writeln!(out, "::warning title=grounding-audit::{}", escape(w))?;
    }
    if d.pass {
        writeln!(out, "::notice title=grounding-audit::{}", escape(&d.line))?;
    }
    Ok(())
}

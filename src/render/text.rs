//! Plain text for `check`: the decision line first, then one line per gate.

use super::escape::terminal;
use crate::gate::{Decision, Outcome};
use crate::pipeline::InputStats;
use anyhow::Result;
use std::io::Write;

/// The gate list that follows the decision line.
pub fn gate_list(out: &mut dyn Write, d: &Decision, input: &InputStats) -> Result<()> {
    for g in &d.gates {
        let mark = match g.outcome {
            Outcome::Pass => "pass",
            Outcome::Fail => "FAIL",
            Outcome::Skipped => "skip",
            Outcome::Error => "ERROR",
        };
        writeln!(out, "  {mark}  {}: {}", g.gate, terminal(&g.message))?;
        if !g.turns.is_empty() {
            writeln!(out, "        turns: {}", terminal(&g.turns.join(" ")))?;
        }
    }
    for w in &d.warnings {
        writeln!(out, "  warning: {}", terminal(w))?;
    }
    writeln!(out, "  {}", super::input_line(input))?;
    Ok(())
}

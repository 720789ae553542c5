//! Plain text for `check`: the decision line first, then one line per
//! gate, each naming its scope: `min_rate (overall): …`, `min_rate (agent
//! "billing-bot"): …`.

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
        // The scope once, before the message (which names an agent's at its start).
        let who = crate::gate::who(&g.scope);
        let message = g.message.strip_prefix(&who).unwrap_or(&g.message);
        let message = message
            .strip_prefix(&format!("{}: ", g.scope.label()))
            .unwrap_or(message);
        writeln!(
            out,
            "  {mark}  {} ({}): {}",
            g.gate,
            terminal(&g.scope.label()),
            terminal(message)
        )?;
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

//! JUnit XML for `check`: a testsuite for the overall gates and one per
//! agent, a testcase per gate, so CI test reporters show each gate.

use super::escape::xml;
use crate::gate::{Decision, Outcome, Scope};
use anyhow::Result;
use std::io::Write;

/// Writes the decision as a JUnit `<testsuites>` document.
pub fn check(out: &mut dyn Write, d: &Decision) -> Result<()> {
    let mut scopes: Vec<&Scope> = Vec::new();
    for g in &d.gates {
        if !scopes.contains(&&g.scope) {
            scopes.push(&g.scope);
        }
    }
    let failures = d
        .gates
        .iter()
        .filter(|g| g.outcome == Outcome::Fail)
        .count();
    let skipped = d
        .gates
        .iter()
        .filter(|g| g.outcome == Outcome::Skipped)
        .count();
    let errors = d
        .gates
        .iter()
        .filter(|g| g.outcome == Outcome::Error)
        .count();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="grounding-audit check" tests="{}" failures="{failures}" errors="{errors}" skipped="{skipped}">"#,
        d.gates.len()
    )?;
    for scope in scopes {
        let gates: Vec<_> = d.gates.iter().filter(|g| &g.scope == scope).collect();
        // `overall` or `agent <id>`: an agent named `overall` gets its own suite.
        let name = scope.to_string();
        writeln!(
            out,
            r#"  <testsuite name="{}" tests="{}" failures="{}" errors="{}" skipped="{}">"#,
            xml(&name),
            gates.len(),
            gates.iter().filter(|g| g.outcome == Outcome::Fail).count(),
            gates.iter().filter(|g| g.outcome == Outcome::Error).count(),
            gates
                .iter()
                .filter(|g| g.outcome == Outcome::Skipped)
                .count()
        )?;
        for g in gates {
            let class = match scope {
                Scope::Overall => "grounding-audit.overall",
                Scope::Agent(_) => "grounding-audit.agent",
            };
            write!(
                out,
                r#"    <testcase name="{}" classname="{}""#,
                xml(&format!("{} ({})", g.gate, g.scope)),
                xml(class)
            )?;
            match g.outcome {
                Outcome::Pass => writeln!(out, "/>")?,
                Outcome::Fail => {
                    writeln!(out, ">")?;
                    writeln!(
                        out,
                        r#"      <failure message="{}" type="{}">{}</failure>"#,
                        xml(&g.message),
                        g.gate.as_str(),
                        xml(&super::gate_detail(g))
                    )?;
                    writeln!(out, "    </testcase>")?;
                }
                Outcome::Error => {
                    writeln!(out, ">")?;
                    writeln!(
                        out,
                        r#"      <error message="{}" type="{}">{}</error>"#,
                        xml(&g.message),
                        g.gate.as_str(),
                        xml(&super::gate_detail(g))
                    )?;
                    writeln!(out, "    </testcase>")?;
                }
                Outcome::Skipped => {
                    writeln!(out, ">")?;
                    writeln!(
                        out,
                        r#"      <skipped message="{}"/>"#,
                        xml(&super::gate_detail(g))
                    )?;
                    writeln!(out, "    </testcase>")?;
                }
            }
        }
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")?;
    Ok(())
}

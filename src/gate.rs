//! The `check` gates: a pure function from rollups and input accounting to a
//! decision. No I/O; the decision line is built here so that the word it
//! starts with and the exit code come from the same value.

use crate::accumulate::{Grouped, Rollup};
use crate::pipeline::InputStats;
use serde::Serialize;

/// The gates asked for, validated.
#[derive(Debug, Clone, Default)]
pub struct Gates {
    pub min_rate: Option<f64>,
    pub per_agent: bool,
    pub min_turns: u64,
    pub confidence: Option<f64>,
    pub max_orphans: Option<u64>,
    pub max_unobserved_rate: Option<f64>,
    pub allow_empty: bool,
}

/// The outcome of one gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    Fail,
    /// Not gated: not enough evidence (an agent under --min-turns) or an empty log under --allow-empty.
    Skipped,
}

/// One evaluated gate.
#[derive(Debug, Clone, Serialize)]
pub struct GateResult {
    /// `min_rate`, `min_turns`, `max_orphans`, `max_unobserved_rate`, `evidence`.
    pub gate: &'static str,
    /// `overall` or the agent id.
    pub scope: String,
    pub outcome: Outcome,
    /// The value compared (a rate, a lower bound or a count).
    pub observed: Option<f64>,
    pub threshold: f64,
    /// Numerator and denominator behind a rate.
    pub count: Option<(u64, u64)>,
    /// Point rate, when the gate compared a Wilson lower bound.
    pub point_rate: Option<f64>,
    /// One human sentence about this gate, used in the decision line and lists.
    pub message: String,
}

/// The decision.
#[derive(Debug, Clone, Serialize)]
pub struct Decision {
    pub pass: bool,
    /// The one decision line: starts with PASS or FAIL.
    pub line: String,
    pub gates: Vec<GateResult>,
    pub warnings: Vec<String>,
}

/// The two-sided standard-normal quantile for a confidence level
/// (0.95 → 1.959964), by Acklam's rational approximation (relative error
/// about 1e-9, plenty for gating).
pub fn z_for(confidence: f64) -> f64 {
    let p = 1.0 - (1.0 - confidence) / 2.0;
    inverse_normal(p)
}

fn inverse_normal(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.383_577_518_672_69e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let low = 0.02425;
    if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        -inverse_normal(1.0 - p)
    }
}

/// Lower bound of the Wilson score interval for k successes in n trials.
pub fn wilson_lower(k: u64, n: u64, z: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - spread) / (1.0 + z2 / n)).max(0.0)
}

/// The label of a Wilson bound in messages: `wilson95_lower`.
pub fn wilson_label(confidence: f64) -> String {
    let pct = confidence * 100.0;
    if (pct - pct.round()).abs() < 1e-9 {
        format!("wilson{}_lower", pct.round())
    } else {
        format!("wilson{pct}_lower")
    }
}

fn cmp(pass: bool, ok: &str, bad: &str) -> String {
    if pass { ok.to_owned() } else { bad.to_owned() }
}

/// Evaluates the min-rate gate for one rollup.
fn rate_gate(g: &Gates, min: f64, scope: &str, r: &Rollup) -> GateResult {
    let (k, n) = (r.grounded(), r.with_retrieval);
    let point = r.grounded_rate().unwrap_or(0.0);
    let who = if scope == "overall" {
        String::new()
    } else {
        format!("agent {scope} ")
    };
    match g.confidence {
        None => {
            let pass = point >= min;
            let message = if scope == "overall" {
                format!(
                    "grounded_rate={point:.4} ({k}/{n}) {} min_rate={min:.4}",
                    cmp(pass, ">=", "<")
                )
            } else {
                format!(
                    "{who}{point:.4} ({k}/{n}) {} {min:.4}",
                    cmp(pass, ">=", "<")
                )
            };
            GateResult {
                gate: "min_rate",
                scope: scope.to_owned(),
                outcome: if pass { Outcome::Pass } else { Outcome::Fail },
                observed: Some(point),
                threshold: min,
                count: Some((k, n)),
                point_rate: None,
                message,
            }
        }
        Some(c) => {
            let lower = wilson_lower(k, n, z_for(c));
            let pass = lower >= min;
            let label = wilson_label(c);
            let message = format!(
                "{who}{label}={lower:.4} {} min_rate={min:.4} [grounded_rate={point:.4} ({k}/{n})]",
                cmp(pass, ">=", "<")
            );
            GateResult {
                gate: "min_rate",
                scope: scope.to_owned(),
                outcome: if pass { Outcome::Pass } else { Outcome::Fail },
                observed: Some(lower),
                threshold: min,
                count: Some((k, n)),
                point_rate: Some(point),
                message,
            }
        }
    }
}

/// The decision when the input could not be read (exit 3): one failing
/// `input` gate, so that every format still says FAIL and why.
pub fn input_failure(error: &str, max_invalid: u64) -> Decision {
    let message = format!("input error: {error}");
    Decision {
        pass: false,
        line: format!("FAIL {message}"),
        gates: vec![GateResult {
            gate: "input",
            scope: "overall".into(),
            outcome: Outcome::Fail,
            observed: None,
            threshold: max_invalid as f64,
            count: None,
            point_rate: None,
            message,
        }],
        warnings: Vec::new(),
    }
}

/// Evaluates every gate that was asked for.
pub fn evaluate(g: &Gates, data: &Grouped, _input: &InputStats) -> Decision {
    let overall = &data.overall;
    let mut gates = Vec::new();
    let mut warnings = Vec::new();
    let empty = overall.with_retrieval == 0;
    if empty {
        let pass = g.allow_empty;
        let message = if pass {
            "no turn with retrieval (passing because of --allow-empty)".to_owned()
        } else {
            "no turn with retrieval: nothing to judge (use --allow-empty to pass such a log)"
                .to_owned()
        };
        if pass {
            warnings.push(message.clone());
        }
        gates.push(GateResult {
            gate: "evidence",
            scope: "overall".into(),
            outcome: if pass { Outcome::Pass } else { Outcome::Fail },
            observed: Some(0.0),
            threshold: 1.0,
            count: None,
            point_rate: None,
            message,
        });
    } else {
        let enough = overall.with_retrieval >= g.min_turns;
        gates.push(GateResult {
            gate: "min_turns",
            scope: "overall".into(),
            outcome: if enough { Outcome::Pass } else { Outcome::Fail },
            observed: Some(overall.with_retrieval as f64),
            threshold: g.min_turns as f64,
            count: None,
            point_rate: None,
            message: if enough {
                format!(
                    "turns_with_retrieval={} >= min_turns={}",
                    overall.with_retrieval, g.min_turns
                )
            } else {
                format!(
                    "not enough evidence: turns_with_retrieval={} < min_turns={}",
                    overall.with_retrieval, g.min_turns
                )
            },
        });
        if let Some(min) = g.min_rate {
            let mut gate = rate_gate(g, min, "overall", overall);
            if g.confidence.is_none() && gate.outcome == Outcome::Pass {
                // Show the small-sample bound even when it is not what is gated.
                let lower = wilson_lower(overall.grounded(), overall.with_retrieval, z_for(0.95));
                gate.message
                    .push_str(&format!(" [wilson95_lower={lower:.4}]"));
            }
            gates.push(gate);
            if g.per_agent {
                for (agent, r) in &data.groups {
                    if r.with_retrieval < g.min_turns.max(1) {
                        let message = format!(
                            "agent {agent}: not enough evidence ({} turns with retrieval < {})",
                            r.with_retrieval,
                            g.min_turns.max(1)
                        );
                        warnings.push(message.clone());
                        gates.push(GateResult {
                            gate: "min_rate",
                            scope: agent.clone(),
                            outcome: Outcome::Skipped,
                            observed: r.grounded_rate(),
                            threshold: min,
                            count: Some((r.grounded(), r.with_retrieval)),
                            point_rate: None,
                            message,
                        });
                    } else {
                        gates.push(rate_gate(g, min, agent, r));
                    }
                }
            }
        }
    }
    if let Some(max) = g.max_orphans {
        let n = overall.count(crate::model::Verdict::OrphanMarker);
        let pass = n <= max;
        gates.push(GateResult {
            gate: "max_orphans",
            scope: "overall".into(),
            outcome: if pass { Outcome::Pass } else { Outcome::Fail },
            observed: Some(n as f64),
            threshold: max as f64,
            count: None,
            point_rate: None,
            message: format!(
                "orphan_marker={n} {} max_orphans={max}",
                cmp(pass, "<=", ">")
            ),
        });
    }
    if let Some(max) = g.max_unobserved_rate {
        let k = overall.count(crate::model::Verdict::Unobserved);
        let n = overall.turns;
        let rate = if n == 0 { 0.0 } else { k as f64 / n as f64 };
        let pass = rate <= max;
        gates.push(GateResult {
            gate: "max_unobserved_rate",
            scope: "overall".into(),
            outcome: if pass { Outcome::Pass } else { Outcome::Fail },
            observed: Some(rate),
            threshold: max,
            count: Some((k, n)),
            point_rate: None,
            message: format!(
                "unobserved_rate={rate:.4} ({k}/{n}) {} max_unobserved_rate={max:.4}",
                cmp(pass, "<=", ">")
            ),
        });
    }
    let pass = gates.iter().all(|r| r.outcome != Outcome::Fail);
    let shown: Vec<&str> = gates
        .iter()
        .filter(|r| {
            if pass {
                r.outcome == Outcome::Pass && r.scope == "overall"
            } else {
                r.outcome == Outcome::Fail
            }
        })
        .filter(|r| !(pass && r.gate == "min_turns" && g.min_rate.is_some()))
        .map(|r| r.message.as_str())
        .collect();
    let line = format!(
        "{} {}",
        if pass { "PASS" } else { "FAIL" },
        shown.join("; ")
    );
    Decision {
        pass,
        line,
        gates,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(k: u64, n: u64) -> Grouped {
        let mut g = Grouped::default();
        g.overall.turns = n;
        g.overall.with_retrieval = n;
        g.overall.verdicts[0] = k;
        g.overall.verdicts[1] = n - k;
        g
    }

    #[test]
    fn wilson_matches_the_documented_example() {
        assert!((z_for(0.95) - 1.959964).abs() < 1e-5);
        assert!((wilson_lower(16, 17, z_for(0.95)) - 0.7302).abs() < 5e-5);
    }

    #[test]
    fn boundary_rate_passes() {
        let g = Gates {
            min_rate: Some(0.75),
            min_turns: 1,
            ..Gates::default()
        };
        let d = evaluate(&g, &data(3, 4), &InputStats::default());
        assert!(d.pass, "{}", d.line);
        assert!(
            d.line
                .starts_with("PASS grounded_rate=0.7500 (3/4) >= min_rate=0.7500"),
            "{}",
            d.line
        );
    }

    #[test]
    fn fail_line_names_the_failing_gate() {
        let g = Gates {
            min_rate: Some(0.9),
            min_turns: 1,
            ..Gates::default()
        };
        let d = evaluate(&g, &data(13, 16), &InputStats::default());
        assert!(!d.pass);
        assert_eq!(
            d.line,
            "FAIL grounded_rate=0.8125 (13/16) < min_rate=0.9000"
        );
    }

    #[test]
    fn empty_log_fails_unless_allowed() {
        let g = Gates {
            min_rate: Some(0.9),
            min_turns: 1,
            ..Gates::default()
        };
        assert!(!evaluate(&g, &Grouped::default(), &InputStats::default()).pass);
        let g = Gates {
            allow_empty: true,
            ..g
        };
        let d = evaluate(&g, &Grouped::default(), &InputStats::default());
        assert!(d.pass && !d.warnings.is_empty());
    }
}

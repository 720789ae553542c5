//! The `check` gates: a pure function from rollups and input accounting to a
//! decision. No I/O; the decision line is built here so that the word it
//! starts with and the exit code come from the same value.

use crate::accumulate::{Grouped, Rollup};
use crate::pipeline::InputStats;
use serde::Serialize;
use std::fmt;

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

/// What a gate looks at: the whole log, or one agent. A type, not a string,
/// so that an agent that happens to be called `overall` is still an agent.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Every matching turn.
    Overall,
    /// One agent's turns (`--per-agent`), by agent id.
    Agent(String),
}

impl Scope {
    /// The agent id, for agent scopes.
    pub fn agent(&self) -> Option<&str> {
        match self {
            Scope::Overall => None,
            Scope::Agent(a) => Some(a),
        }
    }
}

/// `overall`, or `agent <id>`: how tables and test reporters name a scope.
impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Overall => f.write_str("overall"),
            Scope::Agent(a) => write!(f, "agent {a}"),
        }
    }
}

/// In JSON a scope is two keys, flattened into its gate: `"scope":
/// "overall", "agent": null`, or `"scope": "agent", "agent": "<id>"`.
impl Serialize for Scope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Scope", 2)?;
        match self {
            Scope::Overall => {
                st.serialize_field("scope", "overall")?;
                st.serialize_field("agent", &None::<&str>)?;
            }
            Scope::Agent(a) => {
                st.serialize_field("scope", "agent")?;
                st.serialize_field("agent", a)?;
            }
        }
        st.end()
    }
}

/// Which gate a result is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GateKind {
    /// There was at least one turn with retrieval (or `--allow-empty`).
    Evidence,
    /// `--min-turns`.
    MinTurns,
    /// `--min-rate`, overall or per agent.
    MinRate,
    /// `--max-orphans`.
    MaxOrphans,
    /// `--max-unobserved-rate`.
    MaxUnobservedRate,
    /// The input could be read (`--max-invalid`, unreadable files).
    Input,
}

impl GateKind {
    /// The name used in every format: `min_rate`, `max_orphans`, …
    pub fn as_str(self) -> &'static str {
        match self {
            GateKind::Evidence => "evidence",
            GateKind::MinTurns => "min_turns",
            GateKind::MinRate => "min_rate",
            GateKind::MaxOrphans => "max_orphans",
            GateKind::MaxUnobservedRate => "max_unobserved_rate",
            GateKind::Input => "input",
        }
    }
}

impl fmt::Display for GateKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A value a gate compares: a count of turns or lines, or a rate in 0..1.
/// Counts serialise as JSON integers and print without decimals.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Measure {
    Count(u64),
    Rate(f64),
}

/// A count as an integer, a rate with four decimals.
impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Measure::Count(n) => write!(f, "{n}"),
            Measure::Rate(x) => write!(f, "{x:.4}"),
        }
    }
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
    pub gate: GateKind,
    /// Overall or one agent (JSON: `scope` and `agent`, see [`Scope`]).
    #[serde(flatten)]
    pub scope: Scope,
    pub outcome: Outcome,
    /// The value compared (a rate, a lower bound or a count).
    pub observed: Option<Measure>,
    pub threshold: Measure,
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

fn cmp(pass: bool, ok: &'static str, bad: &'static str) -> &'static str {
    if pass { ok } else { bad }
}

/// Two rates as printed side by side in a comparison: four decimals, or as
/// many more as it takes for two different values not to print alike
/// (`0.73018 < 0.73020`, never `0.7302 < 0.7302`). Equal values print with
/// four decimals.
pub fn rate_pair(observed: f64, threshold: f64) -> (String, String) {
    let mut digits = 4;
    loop {
        let a = format!("{observed:.digits$}");
        let b = format!("{threshold:.digits$}");
        if a != b || observed == threshold || digits >= 17 {
            return (a, b);
        }
        digits += 1;
    }
}

/// Evaluates the min-rate gate for one rollup.
fn rate_gate(g: &Gates, min: f64, scope: Scope, r: &Rollup) -> GateResult {
    let (k, n) = (r.grounded(), r.with_retrieval);
    let point = r.grounded_rate().unwrap_or(0.0);
    let who = match &scope {
        Scope::Overall => String::new(),
        Scope::Agent(a) => format!("agent {a} "),
    };
    let (observed, pass, message) = match g.confidence {
        None => {
            let pass = point >= min;
            let (p, m) = rate_pair(point, min);
            let op = cmp(pass, ">=", "<");
            let message = match scope {
                Scope::Overall => format!("grounded_rate={p} ({k}/{n}) {op} min_rate={m}"),
                Scope::Agent(_) => format!("{who}{p} ({k}/{n}) {op} {m}"),
            };
            (point, pass, message)
        }
        Some(c) => {
            let lower = wilson_lower(k, n, z_for(c));
            let pass = lower >= min;
            let (l, m) = rate_pair(lower, min);
            let message = format!(
                "{who}{}={l} {} min_rate={m} [grounded_rate={point:.4} ({k}/{n})]",
                wilson_label(c),
                cmp(pass, ">=", "<")
            );
            (lower, pass, message)
        }
    };
    GateResult {
        gate: GateKind::MinRate,
        outcome: if pass { Outcome::Pass } else { Outcome::Fail },
        observed: Some(Measure::Rate(observed)),
        threshold: Measure::Rate(min),
        count: Some((k, n)),
        point_rate: g.confidence.map(|_| point),
        message,
        scope,
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
            gate: GateKind::Input,
            scope: Scope::Overall,
            outcome: Outcome::Fail,
            observed: None,
            threshold: Measure::Count(max_invalid),
            count: None,
            point_rate: None,
            message,
        }],
        warnings: Vec::new(),
    }
}

/// The per-agent min-rate gates: an agent under the evidence floor is
/// listed (and warned about) but not gated.
fn agent_gates(g: &Gates, min: f64, data: &Grouped, warnings: &mut Vec<String>) -> Vec<GateResult> {
    let mut gates = Vec::new();
    for (agent, r) in &data.groups {
        let scope = Scope::Agent(agent.clone());
        // An agent with no turn with retrieval has no rate to gate, whatever --min-turns says.
        if r.with_retrieval >= g.min_turns.max(1) {
            gates.push(rate_gate(g, min, scope, r));
            continue;
        }
        let message = if r.with_retrieval == 0 {
            format!("agent {agent}: not enough evidence (no turn with retrieval)")
        } else {
            format!(
                "agent {agent}: not enough evidence ({} turn(s) with retrieval < min_turns={})",
                r.with_retrieval, g.min_turns
            )
        };
        warnings.push(message.clone());
        gates.push(GateResult {
            gate: GateKind::MinRate,
            scope,
            outcome: Outcome::Skipped,
            observed: r.grounded_rate().map(Measure::Rate),
            threshold: Measure::Rate(min),
            count: Some((r.grounded(), r.with_retrieval)),
            point_rate: None,
            message,
        });
    }
    gates
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
            gate: GateKind::Evidence,
            scope: Scope::Overall,
            outcome: if pass { Outcome::Pass } else { Outcome::Fail },
            observed: Some(Measure::Count(0)),
            threshold: Measure::Count(1),
            count: None,
            point_rate: None,
            message,
        });
    } else {
        let enough = overall.with_retrieval >= g.min_turns;
        gates.push(GateResult {
            gate: GateKind::MinTurns,
            scope: Scope::Overall,
            outcome: if enough { Outcome::Pass } else { Outcome::Fail },
            observed: Some(Measure::Count(overall.with_retrieval)),
            threshold: Measure::Count(g.min_turns),
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
            let mut gate = rate_gate(g, min, Scope::Overall, overall);
            if g.confidence.is_none() && gate.outcome == Outcome::Pass {
                // Show the small-sample bound even when it is not what is gated.
                let lower = wilson_lower(overall.grounded(), overall.with_retrieval, z_for(0.95));
                gate.message
                    .push_str(&format!(" [wilson95_lower={lower:.4}]"));
            }
            gates.push(gate);
            if g.per_agent {
                gates.extend(agent_gates(g, min, data, &mut warnings));
            }
        }
    }
    if let Some(max) = g.max_orphans {
        let n = overall.count(crate::model::Verdict::OrphanMarker);
        let pass = n <= max;
        gates.push(GateResult {
            gate: GateKind::MaxOrphans,
            scope: Scope::Overall,
            outcome: if pass { Outcome::Pass } else { Outcome::Fail },
            observed: Some(Measure::Count(n)),
            threshold: Measure::Count(max),
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
        let (r, m) = rate_pair(rate, max);
        gates.push(GateResult {
            gate: GateKind::MaxUnobservedRate,
            scope: Scope::Overall,
            outcome: if pass { Outcome::Pass } else { Outcome::Fail },
            observed: Some(Measure::Rate(rate)),
            threshold: Measure::Rate(max),
            count: Some((k, n)),
            point_rate: None,
            message: format!(
                "unobserved_rate={r} ({k}/{n}) {} max_unobserved_rate={m}",
                cmp(pass, "<=", ">")
            ),
        });
    }
    let pass = gates.iter().all(|r| r.outcome != Outcome::Fail);
    let shown: Vec<&str> = gates
        .iter()
        .filter(|r| {
            if pass {
                r.outcome == Outcome::Pass && r.scope == Scope::Overall
            } else {
                r.outcome == Outcome::Fail
            }
        })
        .filter(|r| !(pass && r.gate == GateKind::MinTurns && g.min_rate.is_some()))
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

    /// Overall 10/12 (passes 0.8), from agent `a` at 9/10 and an agent
    /// called `overall` at 1/2 (fails 0.8 on its own).
    fn with_agent_named_overall() -> Grouped {
        let mut g = data(10, 12);
        for (agent, k, n) in [("a", 9, 10), ("overall", 1, 2)] {
            let r = Rollup {
                turns: n,
                with_retrieval: n,
                verdicts: [k, n - k, 0, 0, 0],
            };
            g.groups.insert(agent.to_owned(), r);
        }
        g
    }

    #[test]
    fn an_agent_named_overall_is_an_agent() {
        let g = Gates {
            min_rate: Some(0.8),
            per_agent: true,
            min_turns: 1,
            ..Gates::default()
        };
        let d = evaluate(&g, &with_agent_named_overall(), &InputStats::default());
        assert!(!d.pass);
        assert_eq!(d.line, "FAIL agent overall 0.5000 (1/2) < 0.8000");
        let failing: Vec<_> = d
            .gates
            .iter()
            .filter(|r| r.outcome == Outcome::Fail)
            .collect();
        assert_eq!(failing.len(), 1);
        assert_eq!(failing[0].scope, Scope::Agent("overall".into()));
        assert_eq!(failing[0].scope.to_string(), "agent overall");
        let overall_rate: Vec<_> = d
            .gates
            .iter()
            .filter(|r| r.scope == Scope::Overall && r.gate == GateKind::MinRate)
            .collect();
        assert_eq!(overall_rate.len(), 1);
        assert_eq!(overall_rate[0].outcome, Outcome::Pass);
    }

    #[test]
    fn scopes_serialise_as_scope_and_agent() {
        let g = Gates {
            min_rate: Some(0.8),
            per_agent: true,
            min_turns: 1,
            ..Gates::default()
        };
        let d = evaluate(&g, &with_agent_named_overall(), &InputStats::default());
        let v = serde_json::to_value(&d.gates).unwrap();
        let rate: Vec<_> = v
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["gate"] == "min_rate")
            .map(|g| (g["scope"].clone(), g["agent"].clone()))
            .collect();
        assert_eq!(
            rate,
            [
                (serde_json::json!("overall"), serde_json::Value::Null),
                (serde_json::json!("agent"), serde_json::json!("a")),
                (serde_json::json!("agent"), serde_json::json!("overall")),
            ]
        );
        // Counts are JSON integers, rates numbers.
        assert_eq!(v[0]["gate"], "min_turns");
        assert_eq!(v[0]["observed"], serde_json::json!(12));
        assert_eq!(v[0]["threshold"], serde_json::json!(1));
    }

    #[test]
    fn rates_that_differ_never_print_alike() {
        assert_eq!(rate_pair(0.75, 0.75), ("0.7500".into(), "0.7500".into()));
        assert_eq!(rate_pair(0.8125, 0.9), ("0.8125".into(), "0.9000".into()));
        assert_eq!(
            rate_pair(0.730_179_7, 0.7302),
            ("0.73018".into(), "0.73020".into())
        );
        assert_eq!(
            rate_pair(0.250_000_01, 0.25),
            ("0.25000001".into(), "0.25000000".into())
        );
        // 16/17 at 95%: the Wilson bound is 0.730180, just under 0.7302.
        let g = Gates {
            min_rate: Some(0.7302),
            min_turns: 1,
            confidence: Some(0.95),
            ..Gates::default()
        };
        let d = evaluate(&g, &data(16, 17), &InputStats::default());
        assert!(!d.pass);
        assert!(
            d.line
                .starts_with("FAIL wilson95_lower=0.73018 < min_rate=0.73020 ["),
            "{}",
            d.line
        );
    }

    #[test]
    fn an_agent_without_retrieval_is_not_gated_even_with_min_turns_0() {
        let mut data = with_agent_named_overall();
        data.groups.insert("quiet".into(), Rollup::default());
        let g = Gates {
            min_rate: Some(0.4),
            per_agent: true,
            min_turns: 0,
            ..Gates::default()
        };
        let d = evaluate(&g, &data, &InputStats::default());
        assert!(d.pass, "{}", d.line);
        assert_eq!(
            d.warnings,
            ["agent quiet: not enough evidence (no turn with retrieval)"]
        );
        let g = Gates { min_turns: 3, ..g };
        let d = evaluate(&g, &data, &InputStats::default());
        assert!(
            d.warnings.contains(
                &"agent overall: not enough evidence (2 turn(s) with retrieval < min_turns=3)"
                    .to_owned()
            ),
            "{:?}",
            d.warnings
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

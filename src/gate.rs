//! The `check` gates: a pure function from rollups and input accounting to a
//! decision. No I/O; the decision line is built here so that the word it
//! starts with and the exit code come from the same value.

use crate::accumulate::{Grouped, Offending, Rollup};
use crate::compare::{self, Counts};
use crate::model::Verdict;
use crate::pipeline::InputStats;
use crate::stats;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

/// The gates asked for, validated.
#[derive(Debug, Clone, Default)]
pub struct Gates {
    pub min_rate: Option<f64>,
    pub per_agent: bool,
    pub min_turns: u64,
    /// With `min_rate` and `max_drop`: gate on intervals at this confidence.
    pub confidence: Option<f64>,
    /// With `confidence`: the Wilson lower bound must clear the bar (the
    /// stricter rule) instead of failing only when the upper bound is below it.
    pub require_proof: bool,
    pub max_orphans: Option<u64>,
    /// At most this share of answered turns may be `orphan_marker`.
    pub max_orphan_rate: Option<f64>,
    pub max_unobserved_rate: Option<f64>,
    /// At most this many fabricated quotes.
    pub max_fabricated_quotes: Option<u64>,
    /// Citation coverage must be at least this.
    pub min_coverage: Option<f64>,
    /// At most this fall of the grounded rate against `baseline`.
    pub max_drop: Option<f64>,
    pub baseline: Option<Counts>,
    pub allow_empty: bool,
    /// Per-agent overrides (`--policy`), by agent id.
    pub agents: BTreeMap<String, Override>,
}

/// One table of a policy file (`[defaults]` or `[agents.<id>]`): each
/// given value replaces the default. Its keys are the gate flags of `check`
/// in snake case, one for one (a test keeps the two lists equal).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Override {
    pub min_rate: Option<f64>,
    pub min_turns: Option<u64>,
    pub max_drop: Option<f64>,
    pub max_orphans: Option<u64>,
    pub max_orphan_rate: Option<f64>,
    pub max_unobserved_rate: Option<f64>,
    pub max_fabricated_quotes: Option<u64>,
    pub min_coverage: Option<f64>,
    pub confidence: Option<f64>,
    pub require_proof: Option<bool>,
}

impl Gates {
    /// The gates as they apply to one agent: the defaults with the agent's
    /// overrides, if the policy has any.
    pub fn for_agent(&self, agent: &str) -> Gates {
        let mut g = self.clone();
        if let Some(o) = self.agents.get(agent) {
            g.min_rate = o.min_rate.or(g.min_rate);
            g.min_turns = o.min_turns.unwrap_or(g.min_turns);
            g.max_drop = o.max_drop.or(g.max_drop);
            g.max_orphan_rate = o.max_orphan_rate.or(g.max_orphan_rate);
            g.min_coverage = o.min_coverage.or(g.min_coverage);
            g.confidence = o.confidence.or(g.confidence);
            g.require_proof = o.require_proof.unwrap_or(g.require_proof);
        }
        g
    }
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

    /// How the decision line and the gate list name the scope: `overall`,
    /// or `agent "billing-bot"` (the id quoted, so an id with spaces or
    /// one called `overall` reads as the one agent it is).
    pub fn label(&self) -> String {
        match self {
            Scope::Overall => "overall".to_owned(),
            Scope::Agent(a) => format!("agent {}", quoted(a)),
        }
    }
}

/// An agent id in double quotes, `"` and `\` escaped as in JSON.
pub fn quoted(id: &str) -> String {
    serde_json::to_string(id).unwrap_or_else(|_| format!("\"{id}\""))
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
    /// `--max-fabricated-quotes`.
    MaxFabricatedQuotes,
    /// `--max-orphan-rate`, overall or per agent.
    MaxOrphanRate,
    /// `--min-coverage`, overall or per agent.
    MinCoverage,
    /// `--max-drop` against `--baseline`, overall or per agent.
    MaxDrop,
    /// The input could be read (`--max-invalid`, unreadable files).
    Input,
    /// The run's configuration could be read (`--baseline`, `--policy`).
    Config,
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
            GateKind::MaxFabricatedQuotes => "max_fabricated_quotes",
            GateKind::MaxOrphanRate => "max_orphan_rate",
            GateKind::MinCoverage => "min_coverage",
            GateKind::MaxDrop => "max_drop",
            GateKind::Input => "input",
            GateKind::Config => "config",
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
    /// Not decided: what the gate needs could not be read (a missing
    /// baseline or policy). The run fails with exit 3.
    Error,
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
    /// Point rate, when the gate compared a Wilson bound.
    pub point_rate: Option<f64>,
    /// The interval behind the comparison (Wilson for a rate, Newcombe for
    /// a drop), when `--confidence` was given.
    pub interval: Option<(f64, f64)>,
    /// Which rule decided: `point`, `upper_bound` (fail only when the data
    /// show the rate below the bar), `require_proof` (the lower bound must
    /// clear it), `significant_drop`; None for counts.
    pub rule: Option<&'static str>,
    /// One human sentence about this gate, used in the decision line and lists.
    pub message: String,
    /// When the gate failed: the first offending turn ids (at most 10), for `explain`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<String>,
}

impl GateResult {
    /// A gate with no rate behind it.
    fn plain(
        gate: GateKind,
        scope: Scope,
        pass: bool,
        observed: Option<Measure>,
        threshold: Measure,
        message: String,
    ) -> GateResult {
        GateResult {
            gate,
            scope,
            outcome: if pass { Outcome::Pass } else { Outcome::Fail },
            observed,
            threshold,
            count: None,
            point_rate: None,
            interval: None,
            rule: None,
            message,
            turns: Vec::new(),
        }
    }
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

pub use crate::stats::{wilson_lower, z_for};

/// The name of a Wilson interval in messages: `wilson95`.
pub fn wilson_name(confidence: f64) -> String {
    format!("wilson{}", percent(confidence))
}

/// A confidence as a percentage without needless decimals: 95, 99.5.
pub fn percent(confidence: f64) -> String {
    let pct = confidence * 100.0;
    if (pct - pct.round()).abs() < 1e-9 {
        format!("{}", pct.round())
    } else {
        format!("{pct}")
    }
}

/// The label of a Wilson bound in messages: `wilson95_lower`.
pub fn wilson_label(confidence: f64) -> String {
    format!("{}_lower", wilson_name(confidence))
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

/// [`rate_pair`] of a rate compared exactly ([`stats::cmp_ratio`]): equal
/// as decimals, both print as the threshold does.
fn exact_pair(observed: f64, threshold: f64, exact: Option<Ordering>) -> (String, String) {
    match exact {
        Some(Ordering::Equal) => rate_pair(threshold, threshold),
        _ => rate_pair(observed, threshold),
    }
}

/// How a scope is named at the start of a gate message: nothing for the
/// whole log, `agent "<id>" ` for an agent.
pub fn who(scope: &Scope) -> String {
    match scope {
        Scope::Overall => String::new(),
        Scope::Agent(_) => format!("{} ", scope.label()),
    }
}

/// Evaluates the min-rate gate for one rollup.
fn rate_gate(g: &Gates, min: f64, scope: Scope, r: &Rollup) -> GateResult {
    let (k, n) = (r.grounded(), r.with_retrieval);
    let point = r.grounded_rate().unwrap_or(0.0);
    let who = who(&scope);
    let (observed, pass, message, interval, rule) = match g.confidence {
        None => {
            let exact = stats::cmp_ratio(k.into(), n.into(), min);
            let pass = exact.map_or(point >= min, |o| o != Ordering::Less);
            let (p, m) = exact_pair(point, min, exact);
            let op = cmp(pass, ">=", "<");
            let message = match scope {
                Scope::Overall => format!("grounded_rate={p} ({k}/{n}) {op} min_rate={m}"),
                Scope::Agent(_) => format!("{who}{p} ({k}/{n}) {op} {m}"),
            };
            (point, pass, message, None, "point")
        }
        Some(c) => {
            let (lower, upper) = stats::wilson(k, n, z_for(c));
            // The default rule fails only when the data show, at confidence
            // C, that the rate is below the bar; --require-proof asks the
            // data to show that it clears it.
            let (bound, side, rule, says) = if g.require_proof {
                (
                    lower,
                    "lower",
                    "require_proof",
                    "rule: require proof, the lower bound must clear the bar",
                )
            } else {
                (
                    upper,
                    "upper",
                    "upper_bound",
                    "rule: fail only when the upper bound is below the bar",
                )
            };
            let pass = bound >= min;
            let (b, m) = rate_pair(bound, min);
            let message = format!(
                "{who}{}_{side}={b} {} min_rate={m} [grounded_rate={point:.4} ({k}/{n}), {}=[{lower:.4}, {upper:.4}]; {says}]",
                wilson_name(c),
                cmp(pass, ">=", "<"),
                wilson_name(c),
            );
            (bound, pass, message, Some((lower, upper)), rule)
        }
    };
    let mut message = message;
    let invented = r.cited_without_retrieval();
    if invented > 0 {
        // Outside the rate by its definition, never out of sight.
        message.push_str(&format!(
            " [{invented} turn(s) cite with nothing retrieved: orphan_marker, outside the rate]"
        ));
    }
    GateResult {
        gate: GateKind::MinRate,
        outcome: if pass { Outcome::Pass } else { Outcome::Fail },
        observed: Some(Measure::Rate(observed)),
        threshold: Measure::Rate(min),
        count: Some((k, n)),
        point_rate: g.confidence.map(|_| point),
        interval,
        rule: Some(rule),
        message,
        turns: Vec::new(),
        scope,
    }
}

/// The max-drop gate for one scope: `current` against `base`.
fn drop_gate(g: &Gates, max: f64, scope: Scope, base: compare::Side, cur: &Rollup) -> GateResult {
    let who = who(&scope);
    let cur_side = compare::Side::from(cur);
    let (Some(b), Some(c)) = (base.rate(), cur_side.rate()) else {
        let message = format!(
            "{who}no drop to measure: {} (baseline {}/{}, now {}/{})",
            if base.with_retrieval == 0 {
                "no baseline turn with retrieval"
            } else {
                "no turn with retrieval now"
            },
            base.grounded,
            base.with_retrieval,
            cur_side.grounded,
            cur_side.with_retrieval
        );
        let mut r = GateResult::plain(
            GateKind::MaxDrop,
            scope,
            true,
            None,
            Measure::Rate(max),
            message,
        );
        r.outcome = Outcome::Skipped;
        return r;
    };
    let drop = b - c;
    let counts = format!(
        "{b:.4} ({}/{}) → {c:.4} ({}/{})",
        base.grounded, base.with_retrieval, cur_side.grounded, cur_side.with_retrieval
    );
    let exact = stats::cmp_drop(
        base.grounded,
        base.with_retrieval,
        cur_side.grounded,
        cur_side.with_retrieval,
        max,
    );
    let within = exact.map_or(drop <= max, |o| o != Ordering::Greater);
    let (pass, interval, rule, tail) = match g.confidence {
        None => (within, None, "point", String::new()),
        Some(conf) => {
            let d = stats::newcombe(
                cur_side.grounded,
                cur_side.with_retrieval,
                base.grounded,
                base.with_retrieval,
                z_for(conf),
            )
            .expect("both sides have turns");
            let significant = d.significant() && d.diff < 0.0;
            (
                within || !significant,
                Some((d.low, d.high)),
                "significant_drop",
                format!(
                    "; difference {:+.4}, newcombe{}=[{:+.4}, {:+.4}], {}",
                    d.diff,
                    percent(conf),
                    d.low,
                    d.high,
                    if significant {
                        "a significant drop"
                    } else {
                        "not a significant drop"
                    }
                ),
            )
        }
    };
    let (d, m) = exact_pair(drop, max, exact);
    GateResult {
        gate: GateKind::MaxDrop,
        outcome: if pass { Outcome::Pass } else { Outcome::Fail },
        observed: Some(Measure::Rate(drop)),
        threshold: Measure::Rate(max),
        count: Some((cur_side.grounded, cur_side.with_retrieval)),
        point_rate: Some(c),
        interval,
        rule: Some(rule),
        // A drop past the limit that passes (not significant) says so
        // before the figures, so the line never reads `>` and passes.
        message: format!(
            "{who}drop={d} {} max_drop={m}{} [{counts}{tail}]",
            cmp(within, "<=", ">"),
            if pass && !within {
                ", but not a significant drop: passes"
            } else {
                ""
            }
        ),
        turns: Vec::new(),
        scope,
    }
}

/// The orphan-rate gate: `orphan_marker` turns over turns that answered.
fn orphan_rate_gate(max: f64, scope: Scope, r: &Rollup) -> GateResult {
    let k = r.count(Verdict::OrphanMarker);
    let n = r.turns - r.count(Verdict::Unobserved);
    let rate = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let exact = stats::cmp_ratio(k.into(), n.max(1).into(), max);
    let pass = exact.map_or(rate <= max, |o| o != Ordering::Greater);
    let (x, m) = exact_pair(rate, max, exact);
    let mut g = GateResult::plain(
        GateKind::MaxOrphanRate,
        scope.clone(),
        pass,
        Some(Measure::Rate(rate)),
        Measure::Rate(max),
        format!(
            "{}orphan_rate={x} ({k}/{n} answered) {} max_orphan_rate={m}",
            who(&scope),
            cmp(pass, "<=", ">")
        ),
    );
    g.count = Some((k, n));
    g
}

/// The coverage gate: cited sentences over sentences at least `min`. With
/// no sentence to measure (the log holds no answer text) it fails, saying
/// so: a gate asked for is never passed on nothing.
fn coverage_gate(min: f64, scope: Scope, r: &Rollup) -> GateResult {
    let (k, n) = (r.support.cited_sentences, r.support.sentences);
    let rate = r.support.coverage();
    let exact = stats::cmp_ratio(k.into(), n.into(), min);
    let pass = rate.is_some_and(|c| exact.map_or(c >= min, |o| o != Ordering::Less));
    let (x, m) = exact_pair(rate.unwrap_or(0.0), min, exact);
    let message = match rate {
        Some(_) => format!(
            "{}coverage={x} ({k}/{n} sentences cited) {} min_coverage={m}",
            who(&scope),
            cmp(pass, ">=", "<")
        ),
        None => format!(
            "{}no sentence to measure coverage on (no answer text in the log) < min_coverage={m}",
            who(&scope)
        ),
    };
    let mut g = GateResult::plain(
        GateKind::MinCoverage,
        scope,
        pass,
        rate.map(Measure::Rate),
        Measure::Rate(min),
        message,
    );
    g.count = Some((k, n));
    g
}

/// The orphan-count gate: at most `max` `orphan_marker` turns.
fn orphans_gate(max: u64, scope: Scope, r: &Rollup) -> GateResult {
    let n = r.count(Verdict::OrphanMarker);
    count_gate(GateKind::MaxOrphans, "orphan_marker", n, max, scope)
}

/// The fabricated-quote gate: at most `max` quotes that no retrieved chunk
/// holds, even in pieces.
fn fabricated_gate(max: u64, scope: Scope, r: &Rollup) -> GateResult {
    let n = r.support.quotes_fabricated;
    count_gate(
        GateKind::MaxFabricatedQuotes,
        "fabricated_quotes",
        n,
        max,
        scope,
    )
}

/// A count gate: `observed`, counted as `n`, at most `max`
/// (`orphan_marker=3 > max_orphans=0`).
fn count_gate(kind: GateKind, observed: &str, n: u64, max: u64, scope: Scope) -> GateResult {
    let pass = n <= max;
    let message = format!(
        "{}{observed}={n} {} {kind}={max}",
        who(&scope),
        cmp(pass, "<=", ">")
    );
    GateResult::plain(
        kind,
        scope,
        pass,
        Some(Measure::Count(n)),
        Measure::Count(max),
        message,
    )
}

/// The unobserved-rate gate: turns with no observed answer over all turns.
fn unobserved_gate(max: f64, scope: Scope, r: &Rollup) -> GateResult {
    let k = r.count(Verdict::Unobserved);
    let n = r.turns;
    let rate = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let exact = stats::cmp_ratio(k.into(), n.max(1).into(), max);
    let pass = exact.map_or(rate <= max, |o| o != Ordering::Greater);
    let (x, m) = exact_pair(rate, max, exact);
    let mut gate = GateResult::plain(
        GateKind::MaxUnobservedRate,
        scope.clone(),
        pass,
        Some(Measure::Rate(rate)),
        Measure::Rate(max),
        format!(
            "{}unobserved_rate={x} ({k}/{n}) {} max_unobserved_rate={m}",
            who(&scope),
            cmp(pass, "<=", ">")
        ),
    );
    gate.count = Some((k, n));
    gate
}

/// The decision of a run whose configuration could not be read (a missing,
/// unreadable or mismatched `--baseline` or `--policy`): `ERROR` first,
/// every gate undecided.
pub fn config_failure(error: &str) -> Decision {
    let mut gate = GateResult::plain(
        GateKind::Config,
        Scope::Overall,
        false,
        None,
        Measure::Count(0),
        error.to_owned(),
    );
    gate.outcome = Outcome::Error;
    Decision {
        pass: false,
        line: format!("ERROR {error}"),
        gates: vec![gate],
        warnings: Vec::new(),
    }
}

/// The decision when the input could not be read (exit 3): one failing
/// `input` gate, so that every format still says FAIL and why.
pub fn input_failure(error: &str, max_invalid: u64) -> Decision {
    let message = format!("input error: {error}");
    Decision {
        pass: false,
        line: format!("FAIL {message}"),
        gates: vec![GateResult::plain(
            GateKind::Input,
            Scope::Overall,
            false,
            None,
            Measure::Count(max_invalid),
            message,
        )],
        warnings: Vec::new(),
    }
}

/// The change day of a scope's daily series, when its rate fell.
fn change_of(data: &Grouped, baseline: Option<&Counts>, scope: &Scope) -> Option<compare::Change> {
    let days = match scope {
        Scope::Overall => &data.days,
        Scope::Agent(a) => data.agent_days.get(a)?,
    };
    // A baseline saved with daily buckets extends the series backwards, so
    // a change that began before this run is still dated.
    let base = baseline
        .filter(|b| b.bucket == "day")
        .and_then(|b| b.series(scope.agent()));
    compare::drop_in(&compare::joined(
        base,
        days.iter().map(|(d, r)| (d.to_string(), r)),
    ))
}

/// The per-agent gates: an agent under the evidence floor is listed (and
/// warned about) but not gated on its rate, and its orphan markers are
/// named, so hallucinated citations never hide behind a skip.
fn agent_gates(g: &Gates, data: &Grouped, warnings: &mut Vec<String>) -> Vec<GateResult> {
    let mut gates = Vec::new();
    for (agent, r) in &data.groups {
        let own = g.agents.get(agent);
        let g = g.for_agent(agent);
        let scope = Scope::Agent(agent.clone());
        if let Some(max) = g.max_orphan_rate {
            gates.push(orphan_rate_gate(max, scope.clone(), r));
        }
        if let Some(min) = g.min_coverage {
            gates.push(coverage_gate(min, scope.clone(), r));
        }
        // The count gates are overall on the command line and in
        // [defaults]; an agent is held to them only by its own table.
        if let Some(max) = own.and_then(|o| o.max_orphans) {
            gates.push(orphans_gate(max, scope.clone(), r));
        }
        if let Some(max) = own.and_then(|o| o.max_unobserved_rate) {
            gates.push(unobserved_gate(max, scope.clone(), r));
        }
        if let Some(max) = own.and_then(|o| o.max_fabricated_quotes) {
            gates.push(fabricated_gate(max, scope.clone(), r));
        }
        if g.min_rate.is_none() && g.max_drop.is_none() {
            continue;
        }
        // An agent with no turn with retrieval has no rate to gate, whatever --min-turns says.
        if r.with_retrieval >= g.min_turns.max(1) {
            if let Some(min) = g.min_rate {
                gates.push(rate_gate(&g, min, scope.clone(), r));
            }
            if let (Some(max), Some(base)) = (g.max_drop, &g.baseline) {
                match base.groups.get(agent) {
                    Some(b) => gates.push(drop_gate(&g, max, scope.clone(), *b, r)),
                    None => {
                        let mut s = GateResult::plain(
                            GateKind::MaxDrop,
                            scope.clone(),
                            true,
                            None,
                            Measure::Rate(max),
                            format!(
                                "agent {}: not in the baseline (no drop to measure)",
                                quoted(agent)
                            ),
                        );
                        s.outcome = Outcome::Skipped;
                        gates.push(s);
                    }
                }
            }
            continue;
        }
        let who = quoted(agent);
        let mut message = if r.with_retrieval == 0 {
            format!("agent {who}: not enough evidence (no turn with retrieval)")
        } else {
            format!(
                "agent {who}: not enough evidence ({} turn(s) with retrieval < min_turns={})",
                r.with_retrieval, g.min_turns
            )
        };
        let orphans = r.count(Verdict::OrphanMarker);
        if orphans > 0 {
            // Point to the orphan gates only where none is set.
            let advice = if g.max_orphans.is_some() || g.max_orphan_rate.is_some() {
                "the orphan gates count them"
            } else {
                "gate them with --max-orphans or --max-orphan-rate"
            };
            message.push_str(&format!(
                ", but {orphans} orphan_marker turn(s): hallucinated citations ({advice})"
            ));
        }
        warnings.push(message.clone());
        let kind = if g.min_rate.is_some() {
            GateKind::MinRate
        } else {
            GateKind::MaxDrop
        };
        let threshold = g.min_rate.or(g.max_drop).unwrap_or(0.0);
        let mut s = GateResult::plain(
            kind,
            scope,
            true,
            r.grounded_rate().map(Measure::Rate),
            Measure::Rate(threshold),
            message,
        );
        s.outcome = Outcome::Skipped;
        s.count = Some((r.grounded(), r.with_retrieval));
        if orphans > 0 {
            s.turns = data
                .offenders
                .agents
                .get(agent)
                .map(|o| crate::accumulate::ids(&o.orphan))
                .unwrap_or_default();
        }
        gates.push(s);
    }
    gates
}

/// The turns a failing gate names, and the change line it gains.
fn annotate(gate: &mut GateResult, data: &Grouped, baseline: Option<&Counts>) {
    if gate.outcome != Outcome::Fail {
        return;
    }
    let none = Offending::default();
    let off = match &gate.scope {
        Scope::Overall => &data.offenders.overall,
        Scope::Agent(a) => data.offenders.agents.get(a).unwrap_or(&none),
    };
    gate.turns = match gate.gate {
        GateKind::MinRate | GateKind::MaxDrop => crate::accumulate::ids(&off.ungrounded),
        GateKind::MaxOrphans | GateKind::MaxOrphanRate => crate::accumulate::ids(&off.orphan),
        GateKind::MaxUnobservedRate => crate::accumulate::ids(&off.unobserved),
        GateKind::MaxFabricatedQuotes => crate::accumulate::ids(&off.fabricated),
        _ => Vec::new(),
    };
    if matches!(gate.gate, GateKind::MinRate | GateKind::MaxDrop)
        && let Some(c) = change_of(data, baseline, &gate.scope)
    {
        let name = gate
            .scope
            .agent()
            .map_or_else(|| "overall".to_owned(), quoted);
        gate.message
            .push_str(&format!(" ({name}: {})", c.describe()));
    }
}

/// Evaluates every gate that was asked for.
pub fn evaluate(g: &Gates, data: &Grouped, input: &InputStats) -> Decision {
    let overall = &data.overall;
    let mut gates = Vec::new();
    let mut warnings = Vec::new();
    let empty = overall.with_retrieval == 0;
    let rated = g.min_rate.is_some() || g.max_drop.is_some();
    if empty {
        let pass = g.allow_empty;
        let message = if input.lines == 0 {
            // Advising --allow-empty here would make the gate pass forever
            // on nothing: say what happened and how to give it a log.
            format!(
                "no input was read ({} file(s), 0 lines): pass the log files or directories (grounding-audit check exports/), or pipe a log on stdin (… | grounding-audit check -){}",
                input.files,
                if pass {
                    " (passing because of --allow-empty)"
                } else {
                    ""
                }
            )
        } else if pass {
            "no turn with retrieval (passing because of --allow-empty)".to_owned()
        } else {
            "no turn with retrieval: nothing to judge (use --allow-empty to pass such a log)"
                .to_owned()
        };
        if pass {
            warnings.push(message.clone());
        }
        gates.push(GateResult::plain(
            GateKind::Evidence,
            Scope::Overall,
            pass,
            Some(Measure::Count(0)),
            Measure::Count(1),
            message,
        ));
    } else {
        let enough = overall.with_retrieval >= g.min_turns;
        gates.push(GateResult::plain(
            GateKind::MinTurns,
            Scope::Overall,
            enough,
            Some(Measure::Count(overall.with_retrieval)),
            Measure::Count(g.min_turns),
            if enough {
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
        ));
        if let Some(min) = g.min_rate {
            let mut gate = rate_gate(g, min, Scope::Overall, overall);
            if g.confidence.is_none() && gate.outcome == Outcome::Pass {
                // Show the small-sample bound even when it is not what is gated.
                let lower = wilson_lower(overall.grounded(), overall.with_retrieval, z_for(0.95));
                gate.message
                    .push_str(&format!(" [wilson95_lower={lower:.4}]"));
            }
            gates.push(gate);
        }
        if let (Some(max), Some(base)) = (g.max_drop, &g.baseline) {
            gates.push(drop_gate(g, max, Scope::Overall, base.overall, overall));
        }
    }
    if let Some(max) = g.max_orphans {
        gates.push(orphans_gate(max, Scope::Overall, overall));
    }
    if let Some(max) = g.max_orphan_rate {
        gates.push(orphan_rate_gate(max, Scope::Overall, overall));
    }
    if let Some(max) = g.max_unobserved_rate {
        gates.push(unobserved_gate(max, Scope::Overall, overall));
    }
    if let Some(max) = g.max_fabricated_quotes {
        gates.push(fabricated_gate(max, Scope::Overall, overall));
    }
    if let Some(min) = g.min_coverage {
        gates.push(coverage_gate(min, Scope::Overall, overall));
    }
    if g.per_agent && !empty {
        gates.extend(agent_gates(g, data, &mut warnings));
    }
    for agent in g.agents.keys() {
        if !data.groups.contains_key(agent) {
            warnings.push(format!(
                "policy names agent {}, which has no turn in this log",
                quoted(agent)
            ));
        }
    }
    for gate in &mut gates {
        annotate(gate, data, g.baseline.as_ref());
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
        .filter(|r| !(pass && r.gate == GateKind::MinTurns && rated))
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

    /// Issue 13: 25 perfect turns at 0.95 passed nothing under the old
    /// rule (lower bound 0.8668 < 0.9). Now a quiet perfect night passes, a
    /// small terrible night still fails, and the old rule is --require-proof.
    #[test]
    fn confidence_fails_only_when_shown_below_the_bar() {
        let g = Gates {
            min_rate: Some(0.9),
            min_turns: 1,
            confidence: Some(0.95),
            ..Gates::default()
        };
        let quiet = evaluate(&g, &data(25, 25), &InputStats::default());
        assert!(quiet.pass, "{}", quiet.line);
        assert!(
            quiet.line.starts_with(
                "PASS wilson95_upper=1.0000 >= min_rate=0.9000 [grounded_rate=1.0000 (25/25), wilson95=[0.8668, 1.0000]; rule: fail only when"
            ),
            "{}",
            quiet.line
        );
        let terrible = evaluate(&g, &data(2, 10), &InputStats::default());
        assert!(!terrible.pass, "{}", terrible.line);
        assert!(
            terrible.line.contains("wilson95_upper=0.5"),
            "{}",
            terrible.line
        );
        let strict = Gates {
            require_proof: true,
            ..g
        };
        let d = evaluate(&strict, &data(25, 25), &InputStats::default());
        assert!(!d.pass);
        assert!(
            d.line.starts_with(
                "FAIL wilson95_lower=0.8668 < min_rate=0.9000 [grounded_rate=1.0000 (25/25)"
            ),
            "{}",
            d.line
        );
        assert!(d.line.contains("rule: require proof"), "{}", d.line);
    }

    #[test]
    fn orphans_never_hide_behind_a_skip() {
        let mut data = data(10, 10);
        data.groups.insert(
            "liar".into(),
            Rollup {
                turns: 37,
                with_retrieval: 0,
                verdicts: [0, 0, 37, 0, 0],
                support: Default::default(),
                evidence: Default::default(),
            },
        );
        let g = Gates {
            min_rate: Some(0.9),
            per_agent: true,
            min_turns: 20,
            ..Gates::default()
        };
        let d = evaluate(&g, &data, &InputStats::default());
        let skip = d
            .gates
            .iter()
            .find(|r| r.scope == Scope::Agent("liar".into()))
            .unwrap();
        assert_eq!(skip.outcome, Outcome::Skipped);
        assert!(
            skip.message.contains("37 orphan_marker turn(s)"),
            "{}",
            skip.message
        );
        assert!(skip.message.contains("gate them with --max-orphans"));
        let g = Gates {
            max_orphan_rate: Some(0.05),
            ..g
        };
        let d = evaluate(&g, &data, &InputStats::default());
        assert!(!d.pass);
        let skip = d
            .gates
            .iter()
            .find(|r| r.scope == Scope::Agent("liar".into()) && r.outcome == Outcome::Skipped)
            .unwrap();
        assert!(
            skip.message.contains("(the orphan gates count them)"),
            "an orphan gate given is never advised: {}",
            skip.message
        );
        assert!(
            d.line.contains(
                r#"agent "liar" orphan_rate=1.0000 (37/37 answered) > max_orphan_rate=0.0500"#
            ),
            "{}",
            d.line
        );
    }

    #[test]
    fn policy_overrides_apply_per_agent() {
        let mut g = Gates {
            min_rate: Some(0.9),
            per_agent: true,
            min_turns: 1,
            ..Gates::default()
        };
        g.agents.insert(
            "overall".into(),
            Override {
                min_rate: Some(0.4),
                ..Override::default()
            },
        );
        g.agents.insert("ghost".into(), Override::default());
        let mut d = with_agent_named_overall();
        d.overall = Rollup {
            turns: 12,
            with_retrieval: 12,
            verdicts: [11, 1, 0, 0, 0],
            support: Default::default(),
            evidence: Default::default(),
        };
        let d = evaluate(&g, &d, &InputStats::default());
        assert!(d.pass, "{}", d.line);
        assert!(
            d.warnings.contains(
                &r#"policy names agent "ghost", which has no turn in this log"#.to_owned()
            ),
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn a_drop_against_the_baseline() {
        let base = Counts {
            overall: compare::Side {
                grounded: 95,
                with_retrieval: 100,
            },
            ..Counts::default()
        };
        let g = Gates {
            min_turns: 1,
            max_drop: Some(0.05),
            baseline: Some(base),
            ..Gates::default()
        };
        let d = evaluate(&g, &data(80, 100), &InputStats::default());
        assert!(!d.pass);
        assert!(
            d.line.starts_with(
                "FAIL drop=0.1500 > max_drop=0.0500 [0.9500 (95/100) → 0.8000 (80/100)]"
            ),
            "{}",
            d.line
        );
        // At 95 % the same fall on ten turns is not significant: it passes.
        let mut small = g.baseline.clone().unwrap();
        small.overall = compare::Side {
            grounded: 19,
            with_retrieval: 20,
        };
        let g = Gates {
            confidence: Some(0.95),
            baseline: Some(small),
            ..g
        };
        let d = evaluate(&g, &data(8, 10), &InputStats::default());
        assert!(d.pass, "{}", d.line);
        assert!(
            d.line.starts_with(
                "PASS drop=0.1500 > max_drop=0.0500, but not a significant drop: passes ["
            ),
            "{}",
            d.line
        );
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
                support: Default::default(),
                evidence: Default::default(),
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
        assert_eq!(d.line, r#"FAIL agent "overall" 0.5000 (1/2) < 0.8000"#);
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
            require_proof: true,
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
            [r#"agent "quiet": not enough evidence (no turn with retrieval)"#]
        );
        let g = Gates { min_turns: 3, ..g };
        let d = evaluate(&g, &data, &InputStats::default());
        assert!(
            d.warnings.contains(
                &r#"agent "overall": not enough evidence (2 turn(s) with retrieval < min_turns=3)"#
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

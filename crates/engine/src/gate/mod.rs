//! The `check` gates: a pure function from rollups and input accounting to a
//! decision. No I/O; the decision line is built here so that the word it
//! starts with and the exit code come from the same value.

use crate::accumulate::{Grouped, Offending, Rollup};
use crate::compare::{self, Counts};
use crate::model::Verdict;
use crate::pipeline::InputStats;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

mod measure;
pub mod table;
#[cfg(test)]
mod tests;

pub use table::{Reach, Row, TABLE, Unit};

/// The gates asked for, validated.
#[derive(Debug, Clone, Default)]
pub struct Gates {
    /// The limit of each gate of [`TABLE`] that was asked for.
    pub limits: Limits,
    pub per_agent: bool,
    pub min_turns: u64,
    /// With the rated gates: gate on intervals at this confidence.
    pub confidence: Option<f64>,
    /// With `confidence`: the Wilson lower bound must clear the bar (the
    /// stricter rule) instead of failing only when the upper bound is below it.
    pub require_proof: bool,
    pub baseline: Option<Counts>,
    pub allow_empty: bool,
    /// Per-agent overrides (`--policy`), by agent id.
    pub agents: BTreeMap<String, Override>,
}

/// The limits of the gates asked for, by gate: a count or a rate, as the
/// gate's row says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits(BTreeMap<GateKind, Measure>);

impl Limits {
    /// The limit of `kind`, if that gate was asked for.
    pub fn get(&self, kind: GateKind) -> Option<Measure> {
        self.0.get(&kind).copied()
    }

    /// Whether the gate `kind` was asked for.
    pub fn has(&self, kind: GateKind) -> bool {
        self.0.contains_key(&kind)
    }

    /// The limit of a gate on a rate (`min_rate`), if asked for.
    pub fn rate(&self, kind: GateKind) -> Option<f64> {
        self.get(kind).map(Measure::rate)
    }

    pub fn set(&mut self, kind: GateKind, limit: Measure) {
        self.0.insert(kind, limit);
    }

    /// These limits set (builder form).
    pub fn with(mut self, kind: GateKind, limit: Measure) -> Limits {
        self.set(kind, limit);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// These limits, with `under`'s for the gates these leave out.
    pub fn over(&self, under: &Limits) -> Limits {
        let mut all = under.clone();
        all.0.extend(self.0.iter().map(|(k, v)| (*k, *v)));
        all
    }

    /// Every limit, by gate.
    pub fn iter(&self) -> impl Iterator<Item = (GateKind, Measure)> + '_ {
        self.0.iter().map(|(k, v)| (*k, *v))
    }
}

/// One table of a policy file (`[defaults]` or `[agents.<id>]`): each
/// given value replaces the default. Its keys are the gates' keys of
/// [`TABLE`] and the three settings below, as `check`'s flags are.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Override {
    pub limits: Limits,
    pub min_turns: Option<u64>,
    pub confidence: Option<f64>,
    pub require_proof: Option<bool>,
}

impl Gates {
    /// The gates as they apply to one agent: the defaults with the agent's
    /// overrides, if the policy has any.
    pub fn for_agent(&self, agent: &str) -> Gates {
        let mut g = self.clone();
        if let Some(o) = self.agents.get(agent) {
            g.limits = o.limits.over(&g.limits);
            g.min_turns = o.min_turns.unwrap_or(g.min_turns);
            g.confidence = o.confidence.or(g.confidence);
            g.require_proof = o.require_proof.unwrap_or(g.require_proof);
        }
        g
    }

    /// These gates with `kind` asked for at `limit` (builder form).
    pub fn with(mut self, kind: GateKind, limit: impl Into<Measure>) -> Gates {
        self.limits.set(kind, limit.into());
        self
    }

    /// Whether any gate on the grounded rate is asked for.
    pub fn rated(&self) -> bool {
        TABLE
            .iter()
            .any(|r| r.reach == Reach::Rated && self.limits.has(r.kind))
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

/// Which gate a result is for, by the name every format writes
/// (`min_rate`, `max_orphans`, …): the gates of [`TABLE`] name themselves
/// in their rows, so a gate is its row and its function. The gates that
/// code names (the checks around the table among them) are constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GateKind(&'static str);

impl GateKind {
    /// There was at least one turn with retrieval (or `--allow-empty`).
    pub const EVIDENCE: GateKind = GateKind("evidence");
    /// `--min-turns`.
    pub const MIN_TURNS: GateKind = GateKind("min_turns");
    /// `--min-rate`, overall or per agent.
    pub const MIN_RATE: GateKind = GateKind("min_rate");
    /// `--max-orphans`.
    pub const MAX_ORPHANS: GateKind = GateKind("max_orphans");
    /// `--max-unobserved-rate`.
    pub const MAX_UNOBSERVED_RATE: GateKind = GateKind("max_unobserved_rate");
    /// `--max-fabricated-quotes`.
    pub const MAX_FABRICATED_QUOTES: GateKind = GateKind("max_fabricated_quotes");
    /// `--max-orphan-rate`, overall or per agent.
    pub const MAX_ORPHAN_RATE: GateKind = GateKind("max_orphan_rate");
    /// `--min-coverage`, overall or per agent.
    pub const MIN_COVERAGE: GateKind = GateKind("min_coverage");
    /// `--max-drop` against `--baseline`, overall or per agent.
    pub const MAX_DROP: GateKind = GateKind("max_drop");
    /// The input could be read (`--max-invalid`, unreadable files).
    pub const INPUT: GateKind = GateKind("input");
    /// The run's configuration could be read (`--baseline`, `--policy`).
    pub const CONFIG: GateKind = GateKind("config");

    /// A gate by its name: a row of [`TABLE`] names its gate so.
    pub const fn named(name: &'static str) -> GateKind {
        GateKind(name)
    }

    /// The name used in every format: `min_rate`, `max_orphans`, …
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl Serialize for GateKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
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

impl Measure {
    /// The value as a rate (a count as its number).
    pub fn rate(self) -> f64 {
        match self {
            Measure::Count(n) => n as f64,
            Measure::Rate(x) => x,
        }
    }

    /// The value as a count (a rate truncated).
    pub fn count(self) -> u64 {
        match self {
            Measure::Count(n) => n,
            Measure::Rate(x) => x as u64,
        }
    }
}

impl From<f64> for Measure {
    fn from(x: f64) -> Measure {
        Measure::Rate(x)
    }
}

impl From<u64> for Measure {
    fn from(n: u64) -> Measure {
        Measure::Count(n)
    }
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

/// [`rate_pair`] of a rate compared exactly ([`crate::stats::cmp_ratio`]): equal
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

/// The decision of a run whose configuration could not be read (a missing,
/// unreadable or mismatched `--baseline` or `--policy`): `ERROR` first,
/// every gate undecided.
pub fn config_failure(error: &str) -> Decision {
    let mut gate = GateResult::plain(
        GateKind::CONFIG,
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
            GateKind::INPUT,
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

/// The gate of `row` at `limit` for one scope, when it can run (a gate on
/// the baseline has none to run on a ratchet's first night).
fn run(row: &Row, g: &Gates, limit: Measure, scope: Scope, rollup: &Rollup) -> Option<GateResult> {
    let base = g.baseline.as_ref();
    if row.needs_baseline && base.is_none() {
        return None;
    }
    let baseline = base.and_then(|b| match &scope {
        Scope::Overall => Some(b.overall),
        Scope::Agent(a) => b.groups.get(a).copied(),
    });
    Some((row.measure)(&table::At {
        kind: row.kind,
        gates: g,
        limit,
        scope,
        rollup,
        baseline,
    }))
}

/// The per-agent gates: an agent under the evidence floor is listed (and
/// warned about) but not gated on its rate, and its orphan markers are
/// named, so hallucinated citations never hide behind a skip.
fn agent_gates(g: &Gates, data: &Grouped, warnings: &mut Vec<String>) -> Vec<GateResult> {
    let mut gates = Vec::new();
    for (agent, r) in &data.groups {
        let own = g.agents.get(agent).map(|o| &o.limits);
        let g = g.for_agent(agent);
        let scope = Scope::Agent(agent.clone());
        for (reach, limits) in [(Reach::PerAgent, Some(&g.limits)), (Reach::OwnTable, own)] {
            for row in TABLE.iter().filter(|row| row.reach == reach) {
                if let Some(limit) = limits.and_then(|l| l.get(row.kind)) {
                    gates.extend(run(row, &g, limit, scope.clone(), r));
                }
            }
        }
        if !g.rated() {
            continue;
        }
        // An agent with no turn with retrieval has no rate to gate, whatever --min-turns says.
        if r.with_retrieval >= g.min_turns.max(1) {
            for row in TABLE.iter().filter(|row| row.reach == Reach::Rated) {
                if let Some(limit) = g.limits.get(row.kind) {
                    gates.extend(run(row, &g, limit, scope.clone(), r));
                }
            }
            continue;
        }
        gates.push(under_the_floor(&g, agent, r, data, warnings));
    }
    gates
}

/// An agent under the evidence floor: listed as skipped on its first rated
/// gate, with its orphan markers named.
fn under_the_floor(
    g: &Gates,
    agent: &str,
    r: &Rollup,
    data: &Grouped,
    warnings: &mut Vec<String>,
) -> GateResult {
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
        let counted = [GateKind::MAX_ORPHANS, GateKind::MAX_ORPHAN_RATE]
            .iter()
            .any(|k| g.limits.has(*k));
        let advice = if counted {
            "the orphan gates count them"
        } else {
            "gate them with --max-orphans or --max-orphan-rate"
        };
        message.push_str(&format!(
            ", but {orphans} orphan_marker turn(s): hallucinated citations ({advice})"
        ));
    }
    warnings.push(message.clone());
    let (kind, threshold) = TABLE
        .iter()
        .filter(|row| row.reach == Reach::Rated)
        .find_map(|row| Some((row.kind, g.limits.rate(row.kind)?)))
        .unwrap_or((GateKind::MIN_RATE, 0.0));
    let mut s = GateResult::plain(
        kind,
        Scope::Agent(agent.to_owned()),
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
    s
}

/// The turns a failing gate names, and the change line it gains.
fn annotate(gate: &mut GateResult, data: &Grouped, baseline: Option<&Counts>) {
    let Some(row) = table::row(gate.gate) else {
        return;
    };
    if gate.outcome != Outcome::Fail {
        return;
    }
    let none = Offending::default();
    let off = match &gate.scope {
        Scope::Overall => &data.offenders.overall,
        Scope::Agent(a) => data.offenders.agents.get(a).unwrap_or(&none),
    };
    gate.turns = crate::accumulate::ids((row.offenders)(off));
    if row.reach == Reach::Rated
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
    let rated = g.rated();
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
            GateKind::EVIDENCE,
            Scope::Overall,
            pass,
            Some(Measure::Count(0)),
            Measure::Count(1),
            message,
        ));
    } else {
        let enough = overall.with_retrieval >= g.min_turns;
        gates.push(GateResult::plain(
            GateKind::MIN_TURNS,
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
    }
    // The rated gates need a turn with retrieval; the others run on any log.
    for row in TABLE.iter().filter(|r| !empty || r.reach != Reach::Rated) {
        if let Some(limit) = g.limits.get(row.kind) {
            gates.extend(run(row, g, limit, Scope::Overall, overall));
        }
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
        .filter(|r| !(pass && r.gate == GateKind::MIN_TURNS && rated))
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

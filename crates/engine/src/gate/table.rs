//! The table of gates on graded turns: one row per gate, from which
//! `check`'s flags, the policy file's keys, their ranges, evaluation
//! overall and per agent, and the turns a failing gate names all derive.
//! A gate is a row here (naming its gate, `GateKind::named`) and the
//! function that measures it ([`super::measure`]; it finds its gate in
//! `At::kind`); a test holds every other place to this table.

use super::measure;
use super::{GateKind, GateResult, Gates, Measure, Scope};
use crate::accumulate::{Offender, Offending, Rollup};
use crate::compare;

/// What a gate's limit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A whole number of turns or quotes (`N`).
    Count,
    /// A share in 0..1 (`R`, or `D` for a drop).
    Rate,
}

/// Where a gate applies besides the whole log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// A gate on the grounded rate: overall only when some turn had
    /// retrieval; per agent with `--per-agent`, only above the evidence
    /// floor (`--min-turns`); a failing one names the day its fall began.
    Rated,
    /// Overall, and per agent with `--per-agent` (the policy's
    /// `[defaults]` apply to every agent).
    PerAgent,
    /// Overall on the command line and in `[defaults]`; an agent is held
    /// to it only by its own `[agents.<id>]` table.
    OwnTable,
}

/// What a gate's function is given: the gates as they apply to the scope,
/// the limit, the scope's rollup and, for a drop, its side in the baseline.
pub struct At<'a> {
    /// The gate measured (its row's kind).
    pub kind: GateKind,
    pub gates: &'a Gates,
    pub limit: Measure,
    pub scope: Scope,
    pub rollup: &'a Rollup,
    /// The scope's counts in `--baseline`; None when the baseline has no
    /// such agent.
    pub baseline: Option<compare::Side>,
}

/// One gate.
pub struct Row {
    pub kind: GateKind,
    /// The flag of `check` (`--max-orphans`); its id and its policy key are
    /// `kind.as_str()`.
    pub flag: &'static str,
    /// The flag's value name in help (`N`, `R`, `D`).
    pub value_name: &'static str,
    pub unit: Unit,
    /// The flag's help line.
    pub help: &'static str,
    pub reach: Reach,
    /// A flag the gate cannot run without.
    pub requires: Option<&'static str>,
    /// Whether the gate needs `--baseline` read (none is on a ratchet's
    /// first night: the gate is then not run).
    pub needs_baseline: bool,
    /// The turns a failing gate names.
    pub offenders: fn(&Offending) -> &[Offender],
    /// Measures the gate.
    pub measure: fn(&At) -> GateResult,
}

/// Every gate on graded turns, in the order they are evaluated and listed.
pub const TABLE: &[Row] = &[
    Row {
        kind: GateKind::MIN_RATE,
        flag: "--min-rate",
        value_name: "R",
        unit: Unit::Rate,
        help: "The grounded rate (grounded / with_retrieval) must be at least R (0..1).",
        reach: Reach::Rated,
        requires: None,
        needs_baseline: false,
        offenders: |o| &o.ungrounded,
        measure: measure::min_rate,
    },
    Row {
        kind: GateKind::MAX_DROP,
        flag: "--max-drop",
        value_name: "D",
        unit: Unit::Rate,
        help: "The grounded rate may fall by at most D against --baseline (0..1).",
        reach: Reach::Rated,
        requires: Some("baseline"),
        needs_baseline: true,
        offenders: |o| &o.ungrounded,
        measure: measure::max_drop,
    },
    Row {
        kind: GateKind::MAX_ORPHANS,
        flag: "--max-orphans",
        value_name: "N",
        unit: Unit::Count,
        help: "At most N orphan_marker turns.",
        reach: Reach::OwnTable,
        requires: None,
        needs_baseline: false,
        offenders: |o| &o.orphan,
        measure: measure::max_orphans,
    },
    Row {
        kind: GateKind::MAX_ORPHAN_RATE,
        flag: "--max-orphan-rate",
        value_name: "R",
        unit: Unit::Rate,
        help: "At most this share of answered turns may be orphan_marker (0..1).",
        reach: Reach::PerAgent,
        requires: None,
        needs_baseline: false,
        offenders: |o| &o.orphan,
        measure: measure::max_orphan_rate,
    },
    Row {
        kind: GateKind::MAX_UNOBSERVED_RATE,
        flag: "--max-unobserved-rate",
        value_name: "R",
        unit: Unit::Rate,
        help: "At most this share of turns may have no observed answer (0..1).",
        reach: Reach::OwnTable,
        requires: None,
        needs_baseline: false,
        offenders: |o| &o.unobserved,
        measure: measure::max_unobserved_rate,
    },
    Row {
        kind: GateKind::MAX_FABRICATED_QUOTES,
        flag: "--max-fabricated-quotes",
        value_name: "N",
        unit: Unit::Count,
        help: "At most N fabricated quotes: quoted text that no retrieved chunk holds, even in pieces.",
        reach: Reach::OwnTable,
        requires: None,
        needs_baseline: false,
        offenders: |o| &o.fabricated,
        measure: measure::max_fabricated_quotes,
    },
    Row {
        kind: GateKind::MIN_COVERAGE,
        flag: "--min-coverage",
        value_name: "R",
        unit: Unit::Rate,
        help: "Citation coverage (sentences of the answers carrying a citation that resolves / sentences) must be at least R (0..1); with --per-agent, each agent's too.",
        reach: Reach::PerAgent,
        requires: None,
        needs_baseline: false,
        offenders: |_| &[],
        measure: measure::min_coverage,
    },
];

/// The row of a gate; None for the gates that are not on graded turns
/// (evidence, min_turns, input, config).
pub fn row(kind: GateKind) -> Option<&'static Row> {
    TABLE.iter().find(|r| r.kind == kind)
}

/// The row whose policy key (and flag id) is `key`.
pub fn by_key(key: &str) -> Option<&'static Row> {
    TABLE.iter().find(|r| r.kind.as_str() == key)
}

/// The flags of the rows that pass `keep`, as a message lists them:
/// `--a, --b or --c` (`joiner` between the last two).
pub fn flags_listed(keep: impl Fn(&Row) -> bool, joiner: &str) -> String {
    let flags: Vec<&str> = TABLE.iter().filter(|r| keep(r)).map(|r| r.flag).collect();
    match flags.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} {joiner} {last}", rest.join(", ")),
    }
}

//! The function of each gate in [`super::table::TABLE`]: from a scope's
//! rollup and the gate's limit to a result with its one-line message.

use super::table::At;
use super::{GateKind, GateResult, Gates, Measure, Outcome, Scope};
use super::{cmp, exact_pair, percent, rate_pair, who, wilson_lower, wilson_name, z_for};
use crate::accumulate::Rollup;
use crate::compare;
use crate::model::Verdict;
use crate::stats;
use std::cmp::Ordering;

/// `--min-rate`: the grounded rate at least the limit. Overall, a pass on
/// the point rate also shows the small-sample bound it was not gated on.
pub(super) fn min_rate(at: &At) -> GateResult {
    let mut gate = rate_gate(at.gates, at.limit.rate(), at.scope.clone(), at.rollup);
    if at.scope == Scope::Overall && at.gates.confidence.is_none() && gate.outcome == Outcome::Pass
    {
        let r = at.rollup;
        let lower = wilson_lower(r.grounded(), r.with_retrieval, z_for(0.95));
        gate.message
            .push_str(&format!(" [wilson95_lower={lower:.4}]"));
    }
    gate
}

/// `--max-drop`: the fall of the grounded rate against the baseline at
/// most the limit; an agent the baseline does not hold is listed, not gated.
pub(super) fn max_drop(at: &At) -> GateResult {
    let max = at.limit.rate();
    let Some(base) = at.baseline else {
        let mut s = GateResult::plain(
            GateKind::MAX_DROP,
            at.scope.clone(),
            true,
            None,
            Measure::Rate(max),
            format!(
                "{}: not in the baseline (no drop to measure)",
                at.scope.label()
            ),
        );
        s.outcome = Outcome::Skipped;
        return s;
    };
    drop_gate(at.gates, max, at.scope.clone(), base, at.rollup)
}

/// `--max-orphans`.
pub(super) fn max_orphans(at: &At) -> GateResult {
    orphans_gate(at.limit.count(), at.scope.clone(), at.rollup)
}

/// `--max-orphan-rate`: `orphan_marker` turns over turns that answered.
pub(super) fn max_orphan_rate(at: &At) -> GateResult {
    let r = at.rollup;
    let (k, n) = (
        r.count(Verdict::OrphanMarker),
        r.turns - r.count(Verdict::Unobserved),
    );
    share_gate(
        GateKind::MAX_ORPHAN_RATE,
        "orphan_rate",
        (k, n),
        " answered",
        at.limit.rate(),
        at.scope.clone(),
    )
}

/// `--max-unobserved-rate`: turns with no observed answer over all turns.
pub(super) fn max_unobserved_rate(at: &At) -> GateResult {
    let r = at.rollup;
    let (k, n) = (r.count(Verdict::Unobserved), r.turns);
    share_gate(
        GateKind::MAX_UNOBSERVED_RATE,
        "unobserved_rate",
        (k, n),
        "",
        at.limit.rate(),
        at.scope.clone(),
    )
}

/// `--max-fabricated-quotes`.
pub(super) fn max_fabricated_quotes(at: &At) -> GateResult {
    fabricated_gate(at.limit.count(), at.scope.clone(), at.rollup)
}

/// `--min-coverage`.
pub(super) fn min_coverage(at: &At) -> GateResult {
    coverage_gate(at.limit.rate(), at.scope.clone(), at.rollup)
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
        gate: GateKind::MIN_RATE,
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
            GateKind::MAX_DROP,
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
        gate: GateKind::MAX_DROP,
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
        GateKind::MIN_COVERAGE,
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
    count_gate(GateKind::MAX_ORPHANS, "orphan_marker", n, max, scope)
}

/// The fabricated-quote gate: at most `max` quotes that no retrieved chunk
/// holds, even in pieces.
fn fabricated_gate(max: u64, scope: Scope, r: &Rollup) -> GateResult {
    let n = r.support.quotes_fabricated;
    count_gate(
        GateKind::MAX_FABRICATED_QUOTES,
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

/// A share gate: `observed`, `k` of `n` turns (`of` names them when they
/// are not all the turns), at most `max`
/// (`orphan_rate=0.0500 (1/20 answered) <= max_orphan_rate=0.0500`).
fn share_gate(
    kind: GateKind,
    observed: &str,
    (k, n): (u64, u64),
    of: &str,
    max: f64,
    scope: Scope,
) -> GateResult {
    let rate = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let exact = stats::cmp_ratio(k.into(), n.max(1).into(), max);
    let pass = exact.map_or(rate <= max, |o| o != Ordering::Greater);
    let (x, m) = exact_pair(rate, max, exact);
    let message = format!(
        "{}{observed}={x} ({k}/{n}{of}) {} {kind}={m}",
        who(&scope),
        cmp(pass, "<=", ">")
    );
    let mut gate = GateResult::plain(
        kind,
        scope,
        pass,
        Some(Measure::Rate(rate)),
        Measure::Rate(max),
        message,
    );
    gate.count = Some((k, n));
    gate
}

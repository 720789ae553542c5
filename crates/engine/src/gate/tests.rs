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
        min_turns: 1,
        confidence: Some(0.95),
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.9);
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
        per_agent: true,
        min_turns: 20,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.9);
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
    let g = Gates { ..g }.with(GateKind::MAX_ORPHAN_RATE, 0.05);
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
        per_agent: true,
        min_turns: 1,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.9);
    g.agents.insert(
        "overall".into(),
        Override {
            limits: Limits::default().with(GateKind::MIN_RATE, Measure::Rate(0.4)),
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
        d.warnings
            .contains(&r#"policy names agent "ghost", which has no turn in this log"#.to_owned()),
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
        baseline: Some(base),
        ..Gates::default()
    }
    .with(GateKind::MAX_DROP, 0.05);
    let d = evaluate(&g, &data(80, 100), &InputStats::default());
    assert!(!d.pass);
    assert!(
        d.line
            .starts_with("FAIL drop=0.1500 > max_drop=0.0500 [0.9500 (95/100) → 0.8000 (80/100)]"),
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
        min_turns: 1,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.75);
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
        min_turns: 1,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.9);
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
        per_agent: true,
        min_turns: 1,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.8);
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
        .filter(|r| r.scope == Scope::Overall && r.gate == GateKind::MIN_RATE)
        .collect();
    assert_eq!(overall_rate.len(), 1);
    assert_eq!(overall_rate[0].outcome, Outcome::Pass);
}

#[test]
fn scopes_serialise_as_scope_and_agent() {
    let g = Gates {
        per_agent: true,
        min_turns: 1,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.8);
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
        min_turns: 1,
        confidence: Some(0.95),
        require_proof: true,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.7302);
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
        per_agent: true,
        min_turns: 0,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.4);
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
        min_turns: 1,
        ..Gates::default()
    }
    .with(GateKind::MIN_RATE, 0.9);
    assert!(!evaluate(&g, &Grouped::default(), &InputStats::default()).pass);
    let g = Gates {
        allow_empty: true,
        ..g
    };
    let d = evaluate(&g, &Grouped::default(), &InputStats::default());
    assert!(d.pass && !d.warnings.is_empty());
}

/// A log where every gate of the table has something to fail on, overall
/// and for agent `a`: ungrounded, orphan and unobserved turns, a
/// fabricated quote, uncited sentences, and offenders of every list.
fn failing_everywhere() -> (Grouped, Counts) {
    let mut r = Rollup {
        turns: 10,
        with_retrieval: 8,
        verdicts: [4, 2, 2, 0, 2],
        support: Default::default(),
        evidence: Default::default(),
    };
    r.support.sentences = 10;
    r.support.cited_sentences = 5;
    r.support.quotes_fabricated = 1;
    let one = |id: &str| {
        vec![crate::accumulate::Offender {
            at: (1, 0),
            id: id.into(),
        }]
    };
    let off = Offending {
        ungrounded: one("ungrounded"),
        orphan: one("orphan"),
        unobserved: one("unobserved"),
        fabricated: one("fabricated"),
    };
    let mut data = Grouped {
        overall: r.clone(),
        ..Grouped::default()
    };
    data.groups.insert("a".into(), r);
    data.offenders.overall = off.clone();
    data.offenders.agents.insert("a".into(), off);
    let full = compare::Side {
        grounded: 10,
        with_retrieval: 10,
    };
    let mut base = Counts {
        overall: full,
        ..Counts::default()
    };
    base.groups.insert("a".into(), full);
    (data, base)
}

/// A limit of `row` that the log of [`failing_everywhere`] fails.
fn failing_limit(row: &Row) -> Measure {
    match (row.unit, row.kind.as_str().starts_with("min_")) {
        (Unit::Count, _) => Measure::Count(0),
        (Unit::Rate, true) => Measure::Rate(1.0),
        (Unit::Rate, false) => Measure::Rate(0.0),
    }
}

/// A row of the table is all a gate needs: given alone, it is evaluated
/// overall, fails on a log that breaks it and names that log's offenders
/// of its list; per agent it applies as its reach says.
#[test]
fn every_row_is_a_whole_gate() {
    let (data, base) = failing_everywhere();
    let mut names = std::collections::BTreeSet::new();
    for row in TABLE {
        // Its gate is named after its flag, once in the table.
        let name = row.kind.as_str();
        assert_eq!(row.flag, format!("--{}", name.replace('_', "-")));
        assert!(names.insert(name), "{name} twice in the table");
        let limit = failing_limit(row);
        let g = Gates {
            per_agent: true,
            min_turns: 1,
            baseline: Some(base.clone()),
            ..Gates::default()
        };
        let g = g.with(row.kind, limit);
        let d = evaluate(&g, &data, &InputStats::default());
        let ours: Vec<&GateResult> = d.gates.iter().filter(|r| r.gate == row.kind).collect();
        let overall = ours.iter().find(|r| r.scope == Scope::Overall);
        let overall = overall.unwrap_or_else(|| panic!("{}: no overall gate", row.flag));
        assert_eq!(overall.outcome, Outcome::Fail, "{}", overall.message);
        let named = crate::accumulate::ids((row.offenders)(&data.offenders.overall));
        assert_eq!(overall.turns, named, "{}", row.flag);
        assert!(d.line.contains(&overall.message), "{}", d.line);
        let agent = ours.iter().any(|r| r.scope == Scope::Agent("a".into()));
        assert_eq!(
            agent,
            row.reach != Reach::OwnTable,
            "{} per agent",
            row.flag
        );
        // An agent's own table holds it to any gate.
        let mut own = g.clone();
        own.limits = Limits::default();
        own.agents.insert(
            "a".into(),
            Override {
                limits: Limits::default().with(row.kind, limit),
                ..Override::default()
            },
        );
        let d = evaluate(&own, &data, &InputStats::default());
        let agent = d
            .gates
            .iter()
            .find(|r| r.gate == row.kind && r.scope == Scope::Agent("a".into()));
        let agent = agent.unwrap_or_else(|| panic!("{}: no agent gate", row.flag));
        assert_eq!(agent.outcome, Outcome::Fail, "{}", agent.message);
    }
}

/// The rows and `docs/check.md` agree: each gate has its line in the table
/// of gates, and the sentence on which gates are required names them all.
#[test]
fn docs_name_every_gate_of_the_table() {
    let doc = include_str!("../../../../docs/check.md");
    let required = doc
        .split("\n\n")
        .find(|p| p.starts_with("Every gate given must hold"))
        .expect("the paragraph on required gates");
    for row in TABLE {
        let line = format!("\n| `{} {}`", row.flag, row.value_name);
        let line_after_baseline = format!(" {} {}` |", row.flag, row.value_name);
        assert!(
            doc.contains(&line) || doc.contains(&line_after_baseline),
            "docs/check.md has no row for {}",
            row.flag
        );
        assert!(
            required.contains(&format!("`{}`", row.flag)),
            "docs/check.md does not list {} among the gates: {required}",
            row.flag
        );
    }
}

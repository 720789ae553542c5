//! Quote classes end to end: quotations in marker answers and provider
//! quotes classed `supported`, `misattributed`, `stitched` or
//! `fabricated` in rows, `explain`, `evidence`, summary (every format,
//! partials, merge), triage and the `--max-fabricated-quotes` gate.
//!
//! `fixtures/quotes/inline.jsonl` is written for the classes: q-1 quotes
//! its chunk (in another case), q-2 quotes chunk 2 and cites chunk 1, q-3
//! joins two passages of chunk 1, q-4 quotes words no chunk holds, q-5 is
//! a block quote of chunk 2 ending in its marker, q-6 quotes a two-word
//! name (not a quotation) and a guillemet quote of chunk 2.

use crate::common::{fixture, json, run, shared};
use serde_json::Value;
use std::collections::BTreeMap;

fn inline() -> String {
    fixture("quotes/inline.jsonl").display().to_string()
}

const CLASSES: [&str; 5] = [
    "quotes_exact",
    "quotes_normalised",
    "quotes_misattributed",
    "quotes_stitched",
    "quotes_fabricated",
];

/// Each turn's quote counts, in [`CLASSES`] order, by turn id.
fn classes(path: &str) -> BTreeMap<String, [u64; 5]> {
    let (code, out, err) = run(&["report", "--all", "--format", "json", path]);
    assert!(code == 0 || code == 1, "{err}");
    json(&out)["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let n = CLASSES.map(|k| r[k].as_u64().unwrap());
            let absent = r["quotes_absent"].as_u64().unwrap();
            assert_eq!(absent, n[2] + n[3] + n[4], "absent sums the classes: {r}");
            (r["turn_id"].as_str().unwrap().to_owned(), n)
        })
        .collect()
}

#[test]
fn inline_quotations_are_classed_against_every_chunk() {
    let got = classes(&inline());
    let want: BTreeMap<String, [u64; 5]> = [
        ("q-1", [0, 1, 0, 0, 0]),
        ("q-2", [0, 0, 1, 0, 0]),
        ("q-3", [0, 0, 0, 1, 0]),
        ("q-4", [0, 0, 0, 0, 1]),
        ("q-5", [0, 1, 0, 0, 0]),
        ("q-6", [0, 1, 0, 0, 0]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    assert_eq!(got, want);
    // explain names the chunk a misattributed quote is in; its words only
    // with --show-text.
    let (code, out, err) = run(&["explain", "q-2", &inline(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let q = &json(&out)["quotes"][0];
    assert_eq!(
        (&q["quote"], &q["cites"], &q["found_in"]),
        (
            &Value::from("misattributed"),
            &serde_json::json!([1]),
            &Value::from(2)
        )
    );
    assert!(q.get("text").is_none(), "{q}");
    let (_, out, _) = run(&["explain", "q-2", &inline(), "--show-text"]);
    assert!(
        out.contains("quote misattributed (cites 1; in chunk 2)"),
        "{out}"
    );
    assert!(
        out.contains("Orders over 50 dollars ship free within the mainland."),
        "{out}"
    );
    // evidence carries the same classes.
    let (code, out, err) = run(&["evidence", &inline()]);
    assert_eq!(code, 0, "{err}");
    let by_turn: BTreeMap<String, Value> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| (v["turn_id"].as_str().unwrap().to_owned(), v))
        .collect();
    assert_eq!(
        by_turn["q-4"]["support"]["quotes"][0]["quote"],
        "fabricated"
    );
    assert_eq!(
        by_turn["q-5"]["support"]["quotes"][0]["cites"],
        serde_json::json!([2])
    );
    assert_eq!(
        by_turn["q-6"]["support"]["quotes"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn summary_counts_and_triages_the_classes_in_every_format() {
    let (code, out, err) = run(&["summary", &inline(), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    let t = &doc["totals"];
    assert_eq!(
        [
            "quotes_absent",
            "quotes_fabricated",
            "quotes_misattributed",
            "quotes_stitched"
        ]
        .map(|k| t[k].as_u64().unwrap()),
        [3, 1, 1, 1]
    );
    let triage: Vec<(&str, &str)> = doc["triage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["turn_id"].as_str().unwrap(),
                t["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        triage,
        [
            ("q-4", "fabricated_quote"),
            ("q-2", "misattributed_quote"),
            ("q-3", "stitched_quote")
        ]
    );
    let (_, text, _) = run(&["summary", &inline()]);
    assert!(
        text.contains("absent quotes 3 (1 fabricated, 1 misattributed, 1 stitched)"),
        "{text}"
    );
    assert!(
        text.contains("Triage: 3 turns (3 ok with a quote not in its chunk)"),
        "{text}"
    );
    let (_, md, _) = run(&["summary", &inline(), "--format", "markdown"]);
    assert!(
        md.contains("1 fabricated, 1 misattributed, 1 stitched"),
        "{md}"
    );
    let (_, prom, _) = run(&["summary", &inline(), "--format", "prometheus"]);
    for line in [
        "grounding_audit_fabricated_quotes_total 1",
        "grounding_audit_misattributed_quotes_total 1",
        "grounding_audit_stitched_quotes_total 1",
    ] {
        assert!(prom.lines().any(|l| l == line), "{line}: {prom}");
    }
    let (_, html, _) = run(&["summary", &inline(), "--format", "html"]);
    assert!(html.contains("fabricated quotes (in no retrieved chunk)"));
}

#[test]
fn the_fabricated_quote_gate_on_the_command_line_and_in_a_policy() {
    let (code, out, _) = run(&[
        "check",
        &inline(),
        "--max-fabricated-quotes",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    let doc = json(&out);
    let gate = doc["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gate"] == "max_fabricated_quotes")
        .unwrap()
        .clone();
    assert_eq!(
        (&gate["observed"], &gate["turns"]),
        (&Value::from(1), &serde_json::json!(["q-4"]))
    );
    let (code, out, _) = run(&["check", &inline(), "--max-fabricated-quotes", "1"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("PASS ") && out.contains("fabricated_quotes=1 <= max_fabricated_quotes=1"),
        "{out}"
    );
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("p.toml");
    std::fs::write(
        &policy,
        "[agents.billing-bot]\nmax_fabricated_quotes = 0\n[agents.support-bot]\nmax_fabricated_quotes = 0\n",
    )
    .unwrap();
    let (code, out, _) = run(&["check", &inline(), "--policy", policy.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with(
            r#"FAIL agent "support-bot" fabricated_quotes=1 > max_fabricated_quotes=0"#
        ),
        "{out}"
    );
    assert!(
        out.contains(r#"pass  max_fabricated_quotes (agent "billing-bot")"#),
        "{out}"
    );
}

#[test]
fn merged_partials_carry_the_classes_and_the_triage() {
    let (one, merged) = crate::common::summary_one_and_merged(&fixture("quotes/inline.jsonl"));
    assert_eq!(one["totals"], merged["totals"]);
    assert_eq!(one["triage"], merged["triage"]);
}

/// Real answers that quote their sources (the attribution split, whose
/// log holds the cited passages' text): every quotation that resolving
/// markers cite is classed, and merged partials agree with one pass.
#[test]
fn real_answers_quotations_are_classed() {
    let Some(path) = shared("attribution/dev/turns.jsonl") else {
        return;
    };
    let (one, merged) = crate::common::summary_one_and_merged(&path);
    assert_eq!(one["totals"], merged["totals"]);
    assert_eq!(one["triage"], merged["triage"]);
    let got = classes(path.to_str().unwrap());
    let sum = |k: usize| got.values().map(|c| c[k]).sum::<u64>();
    let figures = [sum(0) + sum(1), sum(2), sum(3), sum(4)];
    eprintln!(
        "attribution/dev quotes [supported, misattributed, stitched, fabricated]: {figures:?}"
    );
    assert!(
        figures.iter().sum::<u64>() >= 20,
        "real answers quote: {figures:?}"
    );
    assert!(
        figures[0] > 0 && figures[1] > 0 && figures[3] > 0,
        "{figures:?}"
    );
}

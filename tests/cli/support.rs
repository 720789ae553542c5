//! Citation coverage, quote checks and hints end to end: in rows, summary,
//! merged partials, the `--min-coverage` gate, `explain` and `evidence`.

use crate::common::{fixture, json, run, shared};

fn demo() -> String {
    fixture("demo.jsonl").display().to_string()
}

#[test]
fn coverage_gates_check_overall_and_per_agent() {
    let (code, out, _) = run(&[
        "check",
        &demo(),
        "--min-coverage",
        "0.5",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}");
    let doc = json(&out);
    let gate = doc["gates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gate"] == "min_coverage")
        .expect("a min_coverage gate")
        .clone();
    assert_eq!(gate["scope"], "overall");
    let (k, n) = (11.0, 21.0);
    assert_eq!(gate["observed"].as_f64(), Some(k / n));
    assert_eq!(gate["count"], serde_json::json!([11, 21]));
    let (code, out, _) = run(&["check", &demo(), "--min-coverage", "0.6"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("coverage=0.5238 (11/21 sentences cited) < min_coverage=0.6000"),
        "{out}"
    );
    let (code, out, _) = run(&["check", &demo(), "--min-coverage", "0.5", "--per-agent"]);
    assert_eq!(code, 1, "support-bot covers 0.375: {out}");
    assert!(out.contains("agent \"support-bot\""), "{out}");
    let (code, _, err) = run(&["check", &demo(), "--min-coverage", "1.5"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_log_without_answer_text_fails_a_coverage_gate_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("cites.jsonl");
    std::fs::write(
        &log,
        "{\"turn_id\":\"a\",\"agent_id\":\"x\",\"created_at\":\"2026-01-01T00:00:00Z\",\"reply\":null,\"grounding\":{\"chunks\":[{\"chunk_id\":\"c\"}],\"citations\":[{\"index\":1}]}}\n",
    )
    .unwrap();
    let (code, out, _) = run(&["check", log.to_str().unwrap(), "--min-coverage", "0.1"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no sentence to measure coverage on"), "{out}");
}

#[test]
fn merged_partials_roll_coverage_up_as_one_pass() {
    let Some(dev) = shared("attribution/dev/turns.jsonl") else {
        return;
    };
    let (one, merged) = crate::common::summary_one_and_merged(&dev);
    for key in [
        "sentences",
        "cited_sentences",
        "coverage",
        "quotes_absent",
        "turns_with_hints",
    ] {
        assert_eq!(one["totals"][key], merged["totals"][key], "{key}");
    }
    assert_eq!(one["groups"], merged["groups"]);
    // Turns have hints exactly when a hint kind ships (docs/hints.md).
    assert_eq!(
        one["totals"]["turns_with_hints"].as_u64().unwrap() > 0,
        !grounding_audit::support::hints::SHIPPED.is_empty()
    );
    assert!(one["totals"]["coverage"].as_f64().unwrap() > 0.5);
}

#[test]
fn hints_are_shown_by_place_and_their_words_only_on_request() {
    let Some(dev) = shared("attribution/dev/turns.jsonl") else {
        return;
    };
    let dev = dev.display().to_string();
    let (_, out, _) = run(&["report", &dev, "--all", "--format", "json"]);
    let doc = json(&out);
    if grounding_audit::support::hints::SHIPPED.is_empty() {
        // No hint kind ships (docs/hints.md): nothing to show.
        let rows = doc["rows"].as_array().unwrap();
        assert!(rows.iter().all(|r| r["hints"].as_u64() == Some(0)));
        return;
    }
    let hinted = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["hints"].as_u64() > Some(0) && r["verdict"] == "ok")
        .expect("a hinted ok turn");
    let id = hinted["turn_id"].as_str().unwrap().to_owned();
    let (code, out, _) = run(&["explain", &id, &dev, "--format", "json"]);
    assert_eq!(code, 0);
    let e = json(&out);
    let hints = e["hints"].as_array().unwrap();
    assert_eq!(hints.len() as u64, hinted["hints"].as_u64().unwrap());
    assert!(hints[0]["start"].as_u64() < hints[0]["end"].as_u64());
    assert!(
        hints[0].get("value").is_none(),
        "reply text without --show-text"
    );
    let (_, out, _) = run(&["explain", &id, &dev, "--format", "json", "--show-text"]);
    let e = json(&out);
    let reply: Vec<char> = e["reply"].as_str().unwrap().chars().collect();
    let h = &e["hints"][0];
    let (s, t) = (
        h["start"].as_u64().unwrap() as usize,
        h["end"].as_u64().unwrap() as usize,
    );
    let sentence: String = reply[s..t].iter().collect();
    assert!(
        sentence.contains(h["value"].as_str().unwrap()),
        "{sentence}"
    );
    let (_, out, _) = run(&["evidence", &dev, "--turn", &id]);
    let rec = json(out.lines().next().unwrap());
    assert_eq!(
        rec["support"]["hints"].as_array().unwrap().len(),
        hints.len()
    );
    assert!(rec["support"]["hints"][0].get("value").is_none());
    let (_, out, _) = run(&["summary", &dev, "--format", "json", "--triage", "400"]);
    let triage = json(&out)["triage"].clone();
    assert!(
        triage
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["severity"] == "hinted"),
        "hinted ok turns are in the triage list"
    );
}

/// The support counts of every row of `path`, by turn id.
fn support_by_turn(path: &str) -> Vec<(String, serde_json::Value)> {
    let (code, out, err) = run(&["report", path, "--all", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let mut rows: Vec<(String, serde_json::Value)> = json(&out)["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let keep = [
                "verdict",
                "cited_chunks",
                "sentences",
                "cited_sentences",
                "quotes_exact",
                "quotes_normalised",
                "quotes_absent",
                "offsets_mismatched",
                "hints",
            ];
            let v: serde_json::Map<_, _> = keep
                .iter()
                .map(|k| (k.to_string(), r[*k].clone()))
                .collect();
            (r["turn_id"].as_str().unwrap().to_owned(), v.into())
        })
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows
}

#[test]
fn converted_structured_citations_keep_their_support_checks() {
    let src = fixture("exchange/providers.jsonl").display().to_string();
    let (code, log, err) = run(&["convert", &src, "--to", "turns"]);
    assert_eq!(code, 0, "{err}");
    assert!(log.contains("\"markers\":\"citations\""), "{log}");
    assert!(log.contains("\"quote_start\""), "{log}");
    let dir = tempfile::tempdir().unwrap();
    let converted = dir.path().join("turns.jsonl");
    std::fs::write(&converted, log).unwrap();
    let a = support_by_turn(&src);
    let b = support_by_turn(converted.to_str().unwrap());
    assert_eq!(a, b);
    assert!(a.iter().any(|(_, v)| v["quotes_absent"] == 1));
    assert!(a.iter().any(|(_, v)| v["quotes_normalised"] == 1));
}

#[test]
fn a_native_citation_places_itself_in_the_reply() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("placed.jsonl");
    std::fs::write(
        &log,
        concat!(
            r#"{"turn_id":"p","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":"Ruby is from 1995. It is fun.","#,
            r#""grounding":{"chunks":[{"chunk_id":"c","content":"Ruby appeared in 1995."}],"#,
            r#""citations":[{"index":1,"start":0,"end":18,"quote":"appeared in 1996"}]}}"#,
            "\n"
        ),
    )
    .unwrap();
    let rows = support_by_turn(log.to_str().unwrap());
    let v = &rows[0].1;
    assert_eq!(v["verdict"], "ok");
    assert_eq!(
        (v["sentences"].as_u64(), v["cited_sentences"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(v["quotes_absent"], 1);
}

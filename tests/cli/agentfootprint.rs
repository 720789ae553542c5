//! agentfootprint input: `report`, `evidence` and `convert` over every real
//! capture in `../shared/agentfootprint/` (skipped when absent) and over the
//! hand-written fixtures in `fixtures/agentfootprint/`.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Every file of the shared capture folder, recording folders included.
fn captures() -> Option<Vec<PathBuf>> {
    let dir = shared("agentfootprint")?;
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("listable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    Some(out)
}

/// The path below the `agentfootprint/` folder (`B-….recording/run-….json`).
fn name(p: &Path) -> String {
    let s = p.to_string_lossy();
    s.rsplit_once("agentfootprint/")
        .map_or_else(|| s.to_string(), |(_, rest)| rest.to_owned())
}

/// Is this capture one of the framework's exports (not a harness file or a doc)?
fn is_export(p: &Path) -> bool {
    let n = name(p);
    n.ends_with(".events.jsonl")
        || n.ends_with(".fileObservability.ndjson")
        || n.contains(".audit.")
        || n.contains(".recording/")
}

/// What each scenario's turns grade as (turn order: as run), for unbounded exports.
fn expected(n: &str) -> Vec<(&'static str, Option<&'static str>)> {
    if n.contains(".audit.bounded.") {
        let turns = if n.starts_with("B-") { 2 } else { 1 };
        return vec![("unobserved", Some("bounded_audit")); turns];
    }
    let all = match &n[..2] {
        "A-" => vec![("run-1795960149667-2", "no_marker")],
        "B-" => vec![
            ("run-1795960149965-3", "ok"),
            ("run-1795960150700-4", "no_marker"),
        ],
        "C-" => vec![("run-1795960149383-1", "ok")],
        "D-" => vec![("run-1795960151093-5", "no_marker")],
        other => panic!("unknown scenario {other}"),
    };
    // A recording holds one run; its file is named after it.
    all.into_iter()
        .filter(|(id, _)| !n.contains(".recording/") || n.contains(id))
        .map(|(_, v)| (v, None))
        .collect()
}

fn rows_by_id(report: &Value) -> Vec<Value> {
    let mut rows = report["rows"].as_array().expect("rows").clone();
    rows.sort_by(|a, b| a["turn_id"].as_str().cmp(&b["turn_id"].as_str()));
    rows
}

fn assert_accounted(report: &Value) {
    let i = &report["input"];
    let sum = categories_sum(i);
    assert_eq!(i["lines"].as_u64().unwrap(), sum, "{i}");
}

#[test]
fn every_capture_reports_with_the_expected_verdicts() {
    let Some(files) = captures() else { return };
    let mut exports = 0;
    for f in files.iter().filter(|f| is_export(f)) {
        exports += 1;
        let n = name(f);
        let (code, out, err) = run(&["report", "--format", "json", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{n}: {err}");
        assert!(err.is_empty(), "{n}: {err}");
        let v = json(&out);
        assert_accounted(&v);
        assert_eq!(v["input"]["invalid_lines"], 0, "{n}");
        let got: Vec<(String, Option<String>)> = rows_by_id(&v)
            .iter()
            .map(|r| {
                (
                    r["verdict"].as_str().unwrap().to_owned(),
                    r["unobserved_reason"].as_str().map(str::to_owned),
                )
            })
            .collect();
        let want: Vec<(String, Option<String>)> = expected(&n)
            .into_iter()
            .map(|(a, b)| (a.to_owned(), b.map(str::to_owned)))
            .collect();
        assert_eq!(got, want, "{n}");
        for r in v["rows"].as_array().unwrap() {
            assert_eq!(r["agent_id"], "agent", "{n}");
            assert!(
                r["chunk_count"].as_u64().unwrap() >= 1,
                "{n}: every scenario retrieved"
            );
        }
    }
    assert_eq!(exports, 21, "4 scenarios × 4 files plus 5 recordings");
}

#[test]
fn the_same_run_in_every_export_grades_the_same_and_dedupes() {
    let Some(dir) = shared("agentfootprint") else {
        return;
    };
    let b = |f: &str| dir.join(f).to_str().unwrap().to_owned();
    let args = [
        "report",
        "--format",
        "json",
        &b("B-rag-tools-2turns.events.jsonl"),
        &b("B-rag-tools-2turns.fileObservability.ndjson"),
        &b("B-rag-tools-2turns.audit.verbatim.json"),
        &b("B-rag-tools-2turns.recording/run-1795960149965-3.json"),
        &b("B-rag-tools-2turns.recording/run-1795960150700-4.json"),
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["input"]["turns"], 2);
    // Events repeated by another export are duplicates, event by event: the
    // runs assemble exactly as from the event lines alone.
    assert!(
        v["input"]["duplicates"].as_u64().unwrap() >= 270,
        "{}",
        v["input"]
    );
    let alone = json(
        &run(&[
            "report",
            "--format",
            "json",
            &b("B-rag-tools-2turns.events.jsonl"),
        ])
        .1,
    );
    assert_eq!(rows_by_id(&alone), rows_by_id(&v));
    let rows = rows_by_id(&v);
    assert_eq!(rows[0]["verdict"], "ok");
    assert_eq!(rows[0]["cited_chunks"], serde_json::json!([1]));
    assert_eq!(rows[0]["chunks"][0]["chunk_id"], "pricing");
    assert_eq!(rows[0]["chunks"][0]["document_id"], "policy-docs");
    assert_eq!(
        rows[0]["chunk_count"], 1,
        "re-injection at iteration 2 is the same chunk"
    );
    assert_eq!(
        (
            rows[0]["tool_calls"].as_u64(),
            rows[0]["tool_errors"].as_u64()
        ),
        (Some(1), Some(0))
    );
    assert_eq!(
        (
            rows[1]["tool_calls"].as_u64(),
            rows[1]["tool_errors"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(rows[0]["conversation_id"], "sess-demo-1");
    assert_eq!(rows[0]["tokens_used"], 213);
    assert_eq!(rows[0]["latency_ms"], 719.0);
    assert_eq!(rows[0]["model"], "mock");
    assert_eq!(rows[0]["created_at"], "2026-11-29T13:49:09.965Z");
}

#[test]
fn scenario_c_takes_the_document_from_the_injected_source_tag() {
    let Some(f) = shared("agentfootprint/C-rag-door-markdown.fileObservability.ndjson") else {
        return;
    };
    let v = json(&run(&["report", "--format", "json", f.to_str().unwrap()]).1);
    let c = &v["rows"][0]["chunks"][0];
    assert_eq!(c["chunk_id"], "C-docs/refunds.md#0");
    assert_eq!(c["document_id"], "C-docs/refunds.md");
}

#[test]
fn files_that_are_not_exports_give_no_evidence_and_name_their_lines() {
    let Some(files) = captures() else { return };
    for f in files
        .iter()
        .filter(|f| !is_export(f) && f.extension().is_some_and(|e| e == "json"))
    {
        for cmd in [&["evidence"][..], &["convert", "--to", "turns"]] {
            let mut args = cmd.to_vec();
            args.push(f.to_str().unwrap());
            // Read by the one reader like any log: no turn, every line
            // accounted for, and an input error naming the file and what
            // it looks like rather than an empty result.
            let (code, out, err) = run(&args);
            assert_eq!(code, 3, "{}: {err}", name(f));
            assert!(out.is_empty(), "{}: {out}", name(f));
            assert!(err.contains(&format!("{}:", f.display())), "{err}");
            assert!(err.contains("none read as a turn: "), "{err}");
            args.insert(1, "--strict");
            let (code, _, err) = run(&args);
            assert_eq!(code, 3, "{}: {err}", name(f));
        }
    }
}

fn evidence_lines(out: &str) -> Vec<Value> {
    out.lines().map(json).collect()
}

/// The guide's rules hold for every evidence record.
fn check_evidence(rec: &Value, context: &str) {
    for call in rec["model_calls"].as_array().expect("model_calls") {
        let o = &call["output"];
        match o["status"].as_str() {
            Some("observed") => assert!(o["text"].is_string(), "{context}"),
            Some("withheld") | Some("bounded") => {
                assert!(o.get("text").is_none(), "{context}: {o}")
            }
            other => panic!("{context}: output status {other:?}"),
        }
        assert!(
            call.get("iteration").is_some() && call.get("usage").is_some(),
            "{context}"
        );
    }
    for c in rec["injected_chunks"].as_array().expect("injected_chunks") {
        for k in ["source", "sourceId", "score", "content"] {
            assert!(c.get(k).is_some(), "{context}: {k}");
        }
    }
    assert!(
        rec.get("question").is_some() && rec["verdict"].is_string(),
        "{context}"
    );
    if rec["verdict"] == "unobserved" {
        assert!(rec["grade"]["unobserved_reason"].is_string(), "{context}");
    }
}

#[test]
fn evidence_for_every_capture_keeps_observations_distinct() {
    let Some(files) = captures() else { return };
    for f in files.iter().filter(|f| is_export(f)) {
        let n = name(f);
        let (code, out, err) = run(&["evidence", "--show-text", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{n}: {err}");
        let recs = evidence_lines(&out);
        assert_eq!(recs.len(), expected(&n).len(), "{n}");
        for rec in &recs {
            check_evidence(rec, &n);
            // Every capture's runs ended with a turn_end.
            let delivered = &rec["delivered_answer"];
            if n.contains(".audit.bounded.") {
                assert_eq!(delivered["status"], "bounded", "{n}");
                assert!(rec["question"].is_null());
                assert!(rec["limitations"][0].as_str().unwrap().contains("bounded"));
            } else {
                assert_eq!(delivered["status"], "observed", "{n}");
                assert!(rec["question"].is_string(), "{n}");
            }
        }
    }
}

#[test]
fn injected_rag_text_is_what_the_model_received() {
    let Some(dir) = shared("agentfootprint") else {
        return;
    };
    for s in ["A-rag-basic", "B-rag-tools-2turns", "C-rag-door-markdown"] {
        let requests =
            json(&std::fs::read_to_string(dir.join(format!("{s}.llm-requests.json"))).unwrap());
        let prompts: Vec<&str> = requests
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["systemPrompt"].as_str())
            .collect();
        let (code, out, err) = run(&[
            "evidence",
            "--show-text",
            dir.join(format!("{s}.fileObservability.ndjson"))
                .to_str()
                .unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let mut rag = 0;
        for rec in evidence_lines(&out) {
            for c in rec["injected_chunks"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["source"] == "rag")
            {
                rag += 1;
                let content = c["content"].as_str().unwrap();
                assert!(
                    prompts.iter().any(|p| p.contains(content)),
                    "{s}: {content:?} not in any system prompt"
                );
                assert!(c["chunk"].as_u64().is_some());
            }
        }
        assert!(rag > 0, "{s}");
    }
}

#[test]
fn scenario_b_cites_a_chunk_that_resolves_but_does_not_support_the_claim() {
    let Some(f) = shared("agentfootprint/B-rag-tools-2turns.events.jsonl") else {
        return;
    };
    let (_, out, _) = run(&["evidence", "--show-text", f.to_str().unwrap()]);
    let first = &evidence_lines(&out)[0];
    // The citation resolves, so the verdict is ok: the tool checks that markers
    // point at injected chunks, not that the chunk supports the sentence.
    assert_eq!(first["verdict"], "ok");
    assert_eq!(
        first["grade"]["cited_chunk_ids"],
        serde_json::json!(["pricing"])
    );
    let answer = first["delivered_answer"]["text"].as_str().unwrap();
    assert!(answer.contains("Refunds") && answer.contains("[pricing]"));
    // The evidence keeps what lets a reader see the mismatch.
    let rag = first["injected_chunks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["source"] == "rag")
        .unwrap();
    let content = rag["content"].as_str().unwrap();
    assert!(content.contains("Pro plan costs $20") && !content.to_lowercase().contains("refund"));
}

fn temp_copy(bytes: &[u8], file: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(file);
    std::fs::write(&p, bytes).unwrap();
    (dir, p)
}

/// Converts `f` and checks that the converted log grades row for row the same.
fn assert_round_trip(f: &Path) {
    let n = name(f);
    let (code, converted, err) = run(&["convert", "--to", "turns", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{n}: {err}");
    let (_dir, out) = temp_copy(converted.as_bytes(), "converted.jsonl");
    let (c1, original, e1) = run(&[
        "report",
        "--format",
        "json",
        "--limit",
        "200",
        f.to_str().unwrap(),
    ]);
    let (c2, again, e2) = run(&[
        "report",
        "--format",
        "json",
        "--limit",
        "200",
        "--markers",
        "id",
        out.to_str().unwrap(),
    ]);
    assert_eq!((c1, c2), (0, 0), "{n}: {e1} {e2}");
    let (a, b) = (json(&original), json(&again));
    assert_eq!(a["rows"], b["rows"], "{n}");
    assert_eq!(a["summary"], b["summary"], "{n}");
    assert_eq!(b["input"]["invalid_lines"], 0, "{n}");
}

#[test]
fn convert_round_trips_every_capture_and_fixture() {
    for f in [
        "withheld.ndjson",
        "no-turn-end.ndjson",
        "interleaved.ndjson",
        "bounded.audit.json",
        "compact.recording.json",
    ] {
        assert_round_trip(&fixture(&format!("agentfootprint/{f}")));
    }
    let Some(files) = captures() else { return };
    for f in files.iter().filter(|f| is_export(f)) {
        assert_round_trip(f);
    }
}

fn report_rows(path: &Path, extra: &[&str]) -> (Value, String) {
    let mut args = vec!["report", "--format", "json"];
    args.extend_from_slice(extra);
    args.push(path.to_str().unwrap());
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    (json(&out), err)
}

#[test]
fn withheld_draft_without_turn_end_is_unobserved_not_empty() {
    let f = fixture("agentfootprint/withheld.ndjson");
    let (v, _) = report_rows(&f, &[]);
    let rows = rows_by_id(&v);
    assert_eq!(rows[0]["turn_id"], "run-withheld-1");
    assert_eq!(
        (
            rows[0]["verdict"].as_str(),
            rows[0]["unobserved_reason"].as_str()
        ),
        (Some("unobserved"), Some("withheld"))
    );
    assert_eq!(
        rows[1]["verdict"], "ok",
        "a delivered answer is graded even when a draft was withheld"
    );
    let (_, out, _) = run(&["evidence", "--show-text", f.to_str().unwrap()]);
    let recs = evidence_lines(&out);
    for r in &recs {
        check_evidence(r, "withheld");
        assert_eq!(
            r["model_calls"][0]["output"],
            serde_json::json!({"status": "withheld"})
        );
    }
    assert!(
        recs[0].get("delivered_answer").is_none(),
        "no turn_end, no delivered answer"
    );
    assert_eq!(
        recs[1]["delivered_answer"]["text"],
        "Refunds take 3 business days [refunds]."
    );
}

#[test]
fn missing_turn_end_is_unobserved_and_bad_lines_are_reported() {
    let f = fixture("agentfootprint/no-turn-end.ndjson");
    let (v, err) = report_rows(&f, &[]);
    assert_accounted(&v);
    assert_eq!(v["rows"][0]["unobserved_reason"], "no_turn_end");
    assert_eq!(v["rows"][0]["chunk_count"], 1);
    let i = &v["input"];
    assert_eq!(
        (
            i["lines"].as_u64(),
            i["blank_lines"].as_u64(),
            i["invalid_lines"].as_u64()
        ),
        (Some(6), Some(1), Some(1))
    );
    assert!(
        err.contains("no-turn-end.ndjson:5: EOF while parsing"),
        "{err}"
    );
    let (code, _, err) = run(&["report", "--strict", f.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(err.contains(":5:") && err.contains("--strict"), "{err}");
    let (code, out, _) = run(&["evidence", "--strict", f.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (3, ""));
    let (code, out, err) = run(&["evidence", "--show-text", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(err.contains(":5:"));
    let rec = &evidence_lines(&out)[0];
    assert!(rec.get("delivered_answer").is_none());
    assert_eq!(
        rec["model_calls"][0]["output"]["text"], "Pro costs $20 [pricing].",
        "model text is kept, distinct from a delivered answer"
    );
}

#[test]
fn bounded_audit_is_never_graded() {
    let f = fixture("agentfootprint/bounded.audit.json");
    let (v, _) = report_rows(&f, &[]);
    assert_accounted(&v);
    let r = &v["rows"][0];
    assert_eq!(
        (r["verdict"].as_str(), r["unobserved_reason"].as_str()),
        (Some("unobserved"), Some("bounded_audit"))
    );
    assert_eq!(
        r["agent_id"], "bounded-demo",
        "the genesis names the agent when no run_configured does"
    );
    assert_eq!(v["input"]["lines"], 5, "a document counts its records");
    let (_, out, _) = run(&["evidence", "--show-text", f.to_str().unwrap()]);
    let rec = &evidence_lines(&out)[0];
    assert_eq!(
        rec["delivered_answer"],
        serde_json::json!({"status": "bounded", "chars": 39})
    );
    assert!(rec["injected_chunks"][0]["content"].is_null());
}

#[test]
fn interleaved_runs_of_two_sessions_group_by_run() {
    let f = fixture("agentfootprint/interleaved.ndjson");
    let (v, _) = report_rows(&f, &[]);
    assert_accounted(&v);
    let rows = rows_by_id(&v);
    let got: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["turn_id"].as_str().unwrap(),
                r["conversation_id"].as_str().unwrap(),
                r["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("run-a", "sess-1", "ok"),
            ("run-b", "sess-2", "orphan_marker"),
            ("run-c", "sess-1", "empty_retrieval")
        ]
    );
    assert_eq!(rows[0]["chunk_count"], 1);
    assert_eq!(
        (
            rows[0]["tool_calls"].as_u64(),
            rows[0]["tool_errors"].as_u64()
        ),
        (Some(2), Some(1))
    );
    assert_eq!(v["input"]["turns"], 3);
    assert_eq!(v["input"]["skipped_records"], 16);
    let (v, _) = report_rows(&f, &["--agent-name", "named"]);
    assert!(
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["agent_id"] == "named")
    );
    let (v, _) = report_rows(&f, &["--markers", "kb"]);
    assert_eq!(
        rows_by_id(&v)[0]["verdict"],
        "no_marker",
        "--markers overrides the id default"
    );
}

#[test]
fn compact_recording_with_two_runs_and_an_incomplete_capture() {
    let f = fixture("agentfootprint/compact.recording.json");
    let (v, _) = report_rows(&f, &[]);
    assert_accounted(&v);
    assert_eq!(v["input"]["turns"], 2);
    let (_, out, _) = run(&["evidence", "--show-text", f.to_str().unwrap()]);
    let recs = evidence_lines(&out);
    assert!(
        recs[0]["limitations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("not complete"))
    );
    assert_eq!(recs[1]["grade"]["unobserved_reason"], "no_turn_end");
}

#[test]
fn forced_formats_and_usage_errors() {
    let f = fixture("agentfootprint/interleaved.ndjson");
    // Forced to the native format, event lines are records of another type:
    // none reads as a turn, an input error that names their keys.
    let (code, out, err) = run(&["evidence", "--input-format", "turns", f.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("none read as a turn: its records are JSON with the keys meta, payload, type"),
        "{err}"
    );
    // Evidence reads every dialect: the demo log gives one record per turn.
    let (code, out, err) = run(&["evidence", fixture("demo.jsonl").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let recs = evidence_lines(&out);
    assert!(!recs.is_empty());
    assert!(
        recs.iter()
            .all(|r| r["dialect"] == "turns" && r["verdict"].is_string())
    );
    let (code, out, err) = run(&[
        "report",
        "--format",
        "json",
        "--input-format",
        "agentfootprint",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    // Every line refused, no turn read: an input error naming the file.
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no `type`"), "{err}");
    assert!(
        err.contains("demo.jsonl: 22 record(s), none read as a turn"),
        "{err}"
    );
    let (code, out, _) = run_stdin(&["report", "--format", "json"], &std::fs::read(&f).unwrap());
    assert_eq!(code, 0);
    assert_eq!(json(&out)["input"]["turns"], 3, "stdin is sniffed too");
}

/// Issue 18, bug 3: a capture split in two files (log rotation) assembles
/// each run across the files, exactly as the concatenated bytes do.
#[test]
fn a_run_split_across_files_assembles_as_one() {
    let whole = std::fs::read(fixture("agentfootprint/interleaved.ndjson")).unwrap();
    let text = String::from_utf8(whole.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ndjson"), dir.path().join("b.ndjson"));
    // Cut inside run-a, before its turn_end.
    std::fs::write(&a, lines[..8].join("\n") + "\n").unwrap();
    std::fs::write(&b, lines[8..].join("\n") + "\n").unwrap();
    let (code, out, err) = run(&[
        "report",
        "--format",
        "json",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let split = json(&out);
    let (_, out, _) = run_stdin(&["report", "--format", "json"], &whole);
    let piped = json(&out);
    assert_eq!(rows_by_id(&split), rows_by_id(&piped));
    assert_eq!(split["input"]["duplicates"], 0);
    assert_eq!(split["input"]["turns"], 3);
    assert_accounted(&split);
    let rows = rows_by_id(&split);
    let verdicts: Vec<&str> = rows
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["ok", "orphan_marker", "empty_retrieval"]);
    // explain and evidence read through the same reader.
    let (code, out, err) = run(&["explain", "run-a", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verdict ok"), "{out}");
    let (_, out, _) = run(&["evidence", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(evidence_lines(&out).len(), 3);
}

/// Issue 18, bug 8: the evidence record keeps every retrieval candidate,
/// admitted or rejected with its reason.
#[test]
fn evidence_keeps_rejected_retrieval_candidates() {
    let Some(f) = shared("agentfootprint/C-rag-door-markdown.fileObservability.ndjson") else {
        return;
    };
    let (code, out, err) = run(&["evidence", "--show-text", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let recs = evidence_lines(&out);
    let cands = recs[0]["retrieval_candidates"]
        .as_array()
        .expect("candidates");
    assert!(cands.iter().any(|c| c["admitted"] == true));
    let rejected: Vec<&str> = cands
        .iter()
        .filter(|c| c["admitted"] == false)
        .filter_map(|c| c["reason"].as_str())
        .collect();
    assert!(rejected.contains(&"over-char-budget"), "{cands:?}");
}

//! `explain`: one turn's audit, in text and JSON; not found is exit 1.

use crate::common::*;

fn demo() -> String {
    fixture("demo.jsonl").to_str().unwrap().to_owned()
}

#[test]
fn orphan_reason_names_the_marker() {
    let (code, out, _) = run(&["explain", "t-03", &demo()]);
    assert_eq!(code, 0);
    assert!(out.contains("verdict orphan_marker: retrieval returned 2 chunks; the reply cites [KB-5], past the end of the list"), "{out}");
    assert!(out.contains("lookup_order"));
    assert!(
        !out.contains("Per our policy"),
        "reply text only with --show-text"
    );
    assert!(
        !out.contains("A-99"),
        "tool arguments only with --show-tools"
    );
}

#[test]
fn show_text_and_tools() {
    let (_, out, _) = run(&["explain", "t-03", "--show-text", "--show-tools", &demo()]);
    assert!(out.contains("Per our policy [KB-5], you can cancel anytime."));
    assert!(out.contains("A-99"));
}

#[test]
fn json_lists_markers_with_positions() {
    let (code, out, _) = run(&["explain", "t-05", "--format", "json", &demo()]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["row"]["verdict"], "ok");
    assert_eq!(v["row"]["partial"], true);
    let m = v["markers"].as_array().unwrap();
    assert_eq!(m.len(), 3);
    assert_eq!(m[2]["text"], "[KB-4]");
    assert_eq!(m[2]["resolves"], "out_of_range");
    assert_eq!(m[0]["offset"], 24);
    assert!(v.get("reply").is_none());
    assert_eq!(v["chunks"][0]["cited"], true);
}

#[test]
fn citations_only_and_unobserved() {
    let (_, out, _) = run(&["explain", "t-07", "--format", "json", &demo()]);
    let v = json(&out);
    assert_eq!(v["row"]["markers_from"], "citations");
    assert_eq!(v["markers"][0]["resolves"], "cited");
    let (_, out, _) = run(&["explain", "t-08", &demo()]);
    assert!(out.contains("no answer was observed"), "{out}");
}

#[test]
fn unknown_turn_is_exit_1() {
    let (code, out, err) = run(&["explain", "nope", &demo()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("not found"), "{err}");
}

#[test]
fn text_snapshot() {
    let (_, out, _) = run(&["explain", "t-05", "--show-text", &demo()]);
    insta::assert_snapshot!("explain_text", out.replace(&demo(), "DEMO"));
}

#[test]
fn agentfootprint_turn_explains_with_id_markers_and_candidates() {
    let Some(path) = shared("agentfootprint/B-rag-tools-2turns.fileObservability.ndjson") else {
        return;
    };
    let (code, out, err) = run(&["explain", "run-1795960149965-3", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verdict ok"), "{out}");
    assert!(out.contains("[pricing]"), "{out}");
    assert!(out.contains("candidate refunds"), "{out}");
}

#[test]
fn agentfootprint_fixture_withheld_turn_is_unobserved() {
    let (code, out, _) = run(&[
        "report",
        "--all",
        "--format",
        "jsonl",
        fixture("agentfootprint/withheld.ndjson").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let first = out
        .lines()
        .map(json)
        .find(|r| r["verdict"] == "unobserved")
        .expect("a withheld turn");
    assert_eq!(first["unobserved_reason"], "withheld");
    let id = first["turn_id"].as_str().unwrap().to_owned();
    let (code, out, _) = run(&[
        "explain",
        &id,
        fixture("agentfootprint/withheld.ndjson").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("withheld"), "{out}");
}

/// Issue 18, bug 7: when the only line with the id is invalid, `explain`
/// names it (`path:line: reason`) like every other subcommand, and, as the
/// file then holds no turn, stops with an input error (exit 3); `--strict`
/// stops at the line itself.
#[test]
fn an_invalid_line_is_named_and_strict_is_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("log.jsonl");
    std::fs::write(
        &f,
        "{\"turn_id\":\"x1\",\"agent_id\":\"a\",\"created_at\":\"not a time\",\"reply\":\"hi\"}\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    // The file's only record is invalid: no turn read is an input error.
    let (code, _, err) = run(&["explain", "x1", path]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains(&format!("{path}:1: created_at")), "{err}");
    assert!(
        err.contains("none read as a turn: its records are turn-log lines, each of them invalid"),
        "{err}"
    );
    let (code, _, err) = run(&["explain", "--strict", "x1", path]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("--strict"), "{err}");
}

/// `--show-text` prints the question's and the reply's line breaks as line
/// breaks: a traceback and a Markdown list read as written, each line
/// still made terminal-safe.
#[test]
fn show_text_keeps_line_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ml.jsonl");
    let line = serde_json::json!({
        "turn_id": "t1", "agent_id": "a", "created_at": "2026-08-01T09:00:00Z",
        "question": "Why?\r\nTraceback:\n  line 2\u{1b}[2J",
        "reply": "## Steps\n- first [KB-1]\n- second",
        "grounding": {"chunks": [{"document_id": "d", "chunk_id": "c"}]}
    });
    std::fs::write(&path, format!("{line}\n")).unwrap();
    let (code, out, err) =
        crate::common::run(&["explain", "t1", "--show-text", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("question\nWhy?\nTraceback:\n  line 2\\u{1b}[2J\n"),
        "{out}"
    );
    assert!(
        out.contains("reply\n## Steps\n- first [KB-1]\n- second"),
        "{out}"
    );
    assert!(!out.contains("\\u{a}"), "{out}");
}

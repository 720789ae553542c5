//! The four walk-throughs of the README's "you are … you run" table, each a
//! script in `examples/roles/`, run as a reader would run them and held to
//! the answers they are there to give.

use crate::common::shared;
use std::path::Path;
use std::process::Command;

/// Runs `examples/roles/<name>.sh` with the built binary; its exit code and
/// what it printed (stdout then stderr).
fn walk(name: &str, args: &[&Path], out: &Path) -> (i32, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let o = Command::new("bash")
        .arg(format!("examples/roles/{name}.sh"))
        .args(args)
        .current_dir(root)
        .env("GA", env!("CARGO_BIN_EXE_grounding-audit"))
        .env("OUT", out)
        .env("CI", "true")
        .env_remove("GROUNDING_AUDIT_TZ")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("bash runs");
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    (o.status.code().unwrap_or(-1), text)
}

fn has(text: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(text.contains(w), "expected {w:?} in:\n{text}");
    }
}

#[test]
fn support_engineer_finds_the_turn_and_what_it_stood_on() {
    let dir = tempfile::tempdir().unwrap();
    let (code, text) = walk("support", &[], dir.path());
    assert_eq!(code, 0, "{text}");
    // The day in Berlin time holds two ungrounded billing-bot turns, shown
    // in Berlin time; the mid-morning one invented its citation.
    has(
        &text,
        &[
            "rows 1–2 of 2 matching",
            "t-09",
            "t-11",
            "2026-08-02T12:05:00+02:00",
            "verdict orphan_marker: retrieval returned no chunks, yet the reply cites [KB-1]",
            "According to the FAQ [KB-1], no.",
        ],
    );
}

#[test]
fn owner_sees_the_agents_the_change_and_gets_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let (code, text) = walk("owner", &[], dir.path());
    assert_eq!(code, 0, "{text}");
    has(
        &text,
        &[
            "grounded rate 0.6667",
            "baseline: turns from 2026-07-31T00:00:00Z to 2026-08-02T00:00:00Z",
            "no significant drop",
            "support-bot,7,6,3,2,1,1,0,3,0.5000",
        ],
    );
    let page = std::fs::read_to_string(dir.path().join("grounding.html")).unwrap();
    assert!(page.contains("support-bot") && page.contains("</html>"));
}

#[test]
fn ci_gate_fails_on_invented_citations_then_guards_a_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let (code, text) = walk("ci", &[], dir.path());
    assert_eq!(code, 0, "{text}");
    has(
        &text,
        &[
            "FAIL orphan_marker=3 > max_orphans=0",
            "turns: t-20 t-11 t-03",
            "exit 1",
            "PASS drop=0.0000 <= max_drop=0.1000",
        ],
    );
    let junit = std::fs::read_to_string(dir.path().join("junit.xml")).unwrap();
    assert!(junit.contains("<failure"), "{junit}");
    assert!(dir.path().join("baseline.json").exists());
}

#[test]
fn ml_engineer_reads_a_phoenix_export_and_writes_verdicts_back() {
    let Some(spans) = shared("traces/phoenix-openinference-langchain/spans.jsonl") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (code, text) = walk("traces", &[&spans], dir.path());
    assert_eq!(code, 0, "{text}");
    has(
        &text,
        &[
            "format: phoenix-jsonl",
            "turns 8 · with retrieval 5 · grounded 2",
            "verdict orphan_marker: retrieval returned no chunks, yet the reply cites [1]",
            "assembled from 4 span(s)",
            "question\nCan you fly a parcel to Antarctica by drone?",
        ],
    );
    // The annotations are JSON lines naming a span and the verdict.
    let annotation = text
        .lines()
        .find(|l| l.starts_with('{') && l.contains("span_id"))
        .unwrap_or_else(|| panic!("no annotation line in:\n{text}"));
    let v: serde_json::Value = serde_json::from_str(annotation).unwrap();
    assert!(v.to_string().contains("grounding"), "{v}");
}

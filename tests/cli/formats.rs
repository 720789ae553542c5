//! Snapshots of every format of every subcommand on the demo log, beside
//! those kept with each command's own tests (report's five formats, the
//! summary table, JSON and Markdown, check text and Markdown, explain text,
//! the HTML page): the byte-for-byte output a change must mean to change.

use crate::common::*;

/// Runs the binary in `fixtures/` (so paths print as `demo.jsonl`) and
/// returns stdout, asserting the exit code.
fn output(args: &[&str], code: i32) -> String {
    let out = bin()
        .current_dir(fixture(""))
        .args(args)
        .output()
        .expect("binary runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn summary_csv_every_section() {
    for section in [
        "groups",
        "days",
        "group-days",
        "triage",
        "guardrail",
        "scores",
    ] {
        let out = output(
            &[
                "summary",
                "demo.jsonl",
                "--format",
                "csv",
                "--section",
                section,
            ],
            0,
        );
        insta::assert_snapshot!(format!("summary_csv_{section}"), out);
    }
}

#[test]
fn check_documents() {
    for format in ["json", "junit", "github"] {
        let out = output(
            &[
                "check",
                "demo.jsonl",
                "--min-rate",
                "0.8",
                "--per-agent",
                "--format",
                format,
            ],
            1,
        );
        insta::assert_snapshot!(format!("check_{format}"), out);
    }
}

#[test]
fn explain_json_evidence_and_inspect() {
    let out = output(&["explain", "t-03", "demo.jsonl", "--format", "json"], 0);
    insta::assert_snapshot!("explain_json", out);
    let out = output(&["evidence", "demo.jsonl"], 0);
    insta::assert_snapshot!("evidence_jsonl", out);
    let out = output(&["inspect", "demo.jsonl"], 0);
    insta::assert_snapshot!("inspect_text", out);
    let out = output(&["inspect", "demo.jsonl", "--format", "json"], 0);
    insta::assert_snapshot!("inspect_json", out);
    let out = output(&["convert", "demo.jsonl", "--to", "turns"], 0);
    insta::assert_snapshot!("convert_turns", out);
}

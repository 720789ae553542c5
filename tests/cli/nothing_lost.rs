//! Nothing is lost silently: every awkward input is either read correctly
//! or reported with its path (and line), counted, and — for `check` — turned
//! into a FAIL with exit 3. The per-file accounting of each hostile fixture
//! is in `fixtures/hostile/EXPECTED.json` (see `hostile.rs`); these tests
//! cover the failure paths and the messages.

use crate::common::{fixture, json, run};
use std::path::Path;

fn hostile(name: &str) -> String {
    fixture(&format!("hostile/{name}")).display().to_string()
}

/// `check` on an input it cannot read: exit 3 and a FAIL decision line, in
/// the text format (stdout) and in a document format (stderr).
fn check_fails_on(path: &str, needle: &str) {
    let (code, out, err) = run(&["check", "--min-rate", "0", "--allow-empty", path]);
    assert_eq!(code, 3, "check text: {out}{err}");
    let first = out.lines().next().unwrap_or_default();
    assert!(first.starts_with("FAIL input error"), "{out}");
    assert!(first.contains(needle), "{first}");
    let (code, out, err) = run(&[
        "check",
        "--min-rate",
        "0",
        "--allow-empty",
        "--format",
        "json",
        path,
    ]);
    assert_eq!(code, 3, "check json: {out}{err}");
    assert!(err.contains("FAIL input error"), "{err}");
    assert!(!out.contains("PASS"), "{out}");
}

#[test]
fn truncated_gzip_is_an_input_error_naming_path_and_line() {
    let path = hostile("truncated.jsonl.gz");
    for cmd in ["report", "summary"] {
        let (code, out, err) = run(&[cmd, &path]);
        assert_eq!(code, 3, "{cmd}: {out}{err}");
        let at = format!("{path}:");
        let msg = err.lines().find(|l| l.contains(&at)).unwrap_or_else(|| {
            panic!("{cmd}: no path:line in {err}");
        });
        // path:LINE: the line where reading stopped (after the whole lines before it).
        let line: u64 = msg[msg.find(&at).unwrap() + at.len()..]
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no line number in {msg}"));
        assert!(line > 1 && line <= 200, "{msg}");
        assert!(msg.contains("read error"), "{msg}");
    }
    check_fails_on(&path, "truncated.jsonl.gz:");
}

#[test]
fn gzip_without_its_trailer_is_an_input_error() {
    let path = hostile("no-trailer.jsonl.gz");
    let (code, out, err) = run(&["report", "--format", "json", &path]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("no-trailer.jsonl.gz:"), "{err}");
    check_fails_on(&path, "no-trailer.jsonl.gz:");
}

#[test]
fn truncated_zstd_is_an_input_error_naming_path_and_line() {
    let path = hostile("truncated.jsonl.zst");
    let (code, out, err) = run(&["report", "--all", "--format", "jsonl", &path]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("truncated.jsonl.zst:"), "{err}");
    check_fails_on(&path, "truncated.jsonl.zst:");
}

#[test]
fn a_dangling_symlink_passed_explicitly_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("gone.jsonl");
    std::os::unix::fs::symlink(dir.path().join("missing-target.jsonl"), &link).unwrap();
    let path = link.display().to_string();
    let (code, out, err) = run(&["report", &path]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains(&path), "{err}");
    check_fails_on(&path, "gone.jsonl");
}

#[test]
fn a_dangling_symlink_inside_a_directory_is_never_skipped_silently() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("demo.jsonl"), dir.path().join("a.jsonl")).unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("missing-target.jsonl"),
        dir.path().join("b.jsonl"),
    )
    .unwrap();
    let d = dir.path().display().to_string();
    let (code, out, err) = run(&["report", &d]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("b.jsonl"), "{err}");
    check_fails_on(&d, "b.jsonl");
    // One whose name is not a log's is named as not read.
    let dir2 = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("demo.jsonl"), dir2.path().join("a.jsonl")).unwrap();
    std::os::unix::fs::symlink(dir2.path().join("nowhere"), dir2.path().join("b.txt")).unwrap();
    let (code, out, err) = run(&["report", "--format", "json", dir2.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("b.txt: not read"), "{err}");
    assert_eq!(json(&out)["input"]["files"], 1);
}

#[test]
fn a_missing_file_is_an_input_error_and_an_empty_directory_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.jsonl").display().to_string();
    let (code, _, err) = run(&["summary", &missing]);
    assert_eq!(code, 3);
    assert!(err.contains("missing.jsonl"), "{err}");
    check_fails_on(&missing, "missing.jsonl");
    // A directory named like a log is walked, not read: empty, it holds no
    // file, which the accounting shows and `check` refuses to pass.
    let sub = dir.path().join("dir.jsonl");
    std::fs::create_dir(&sub).unwrap();
    let p = sub.display().to_string();
    let (code, out, err) = run(&["report", "--format", "json", &p]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(json(&out)["input"]["files"], 0);
    let (code, out, _) = run(&["check", "--min-rate", "0", &p]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("FAIL"), "{out}");
}

#[test]
fn a_directory_names_the_files_it_does_not_read() {
    let d = hostile("mixed-dir");
    let (code, out, err) = run(&["report", "--format", "json", &d]);
    assert_eq!(code, 0, "{err}");
    for name in ["notes.txt", "export.csv", "c.jsonl.bak"] {
        assert!(
            err.lines()
                .any(|l| l.contains(name) && l.contains("not read")),
            "{name} not named in {err}"
        );
    }
    let input = &json(&out)["input"];
    assert_eq!(input["files"], 2);
    assert_eq!(input["turns"], 2);
}

#[test]
fn bom_crlf_and_a_last_line_without_newline_are_read() {
    let (code, out, err) = run(&[
        "report",
        "--format",
        "json",
        &hostile("bom-crlf-no-final-newline.jsonl"),
    ]);
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    assert_eq!(doc["input"]["lines"], 4);
    assert_eq!(doc["input"]["turns"], 3);
    assert_eq!(doc["input"]["blank_lines"], 1);
    assert_eq!(doc["input"]["invalid_lines"], 0);
    let ids: Vec<_> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["turn_id"].as_str().unwrap().to_owned())
        .collect();
    // No BOM or CR left on any id.
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(sorted, ["b-1", "b-2", "b-3"]);
}

#[test]
fn nul_bytes_are_invalid_lines_with_path_and_line() {
    let path = hostile("nul-bytes.jsonl");
    let (code, out, err) = run(&["report", "--format", "json", &path]);
    assert_eq!(code, 0, "{err}");
    let i = &json(&out)["input"];
    assert_eq!(
        (i["lines"].as_u64(), i["turns"].as_u64()),
        (Some(5), Some(2))
    );
    assert_eq!(i["invalid_lines"], 3);
    for line in [2, 3, 4] {
        assert!(
            err.contains(&format!("{path}:{line}: ")),
            "line {line}: {err}"
        );
    }
    // The escaped NUL (\u0000) in line 5 is ordinary text.
    assert!(!err.contains(&format!("{path}:5:")), "{err}");
    let (code, _, err) = run(&["report", "--strict", &path]);
    assert_eq!(code, 3);
    assert!(err.contains(&format!("{path}:2: ")), "{err}");
}

#[test]
fn invalid_utf8_is_an_invalid_line_with_path_and_line() {
    let path = hostile("invalid-utf8.jsonl");
    let (code, out, err) = run(&["report", "--format", "json", &path]);
    assert_eq!(code, 0, "{err}");
    let i = &json(&out)["input"];
    assert_eq!(
        (i["lines"].as_u64(), i["turns"].as_u64()),
        (Some(4), Some(2))
    );
    assert_eq!(i["invalid_lines"], 2);
    assert!(err.contains(&format!("{path}:2: invalid UTF-8")), "{err}");
    assert!(err.contains(&format!("{path}:3: invalid UTF-8")), "{err}");
}

#[test]
fn lines_over_max_line_bytes_are_invalid_lines() {
    let path = hostile("long-line.jsonl");
    let (code, out, err) = run(&[
        "report",
        "--format",
        "json",
        "--max-line-bytes",
        "1024",
        &path,
    ]);
    assert_eq!(code, 0, "{err}");
    let i = &json(&out)["input"];
    assert_eq!(
        (i["lines"].as_u64(), i["turns"].as_u64()),
        (Some(4), Some(2))
    );
    assert_eq!(i["invalid_lines"], 2);
    assert!(
        err.contains(&format!("{path}:2: line of ")) && err.contains("--max-line-bytes (1024)"),
        "{err}"
    );
    // The last line has no newline and is over the limit too.
    assert!(err.contains(&format!("{path}:4: line of ")), "{err}");
    // check gates on what it could not read.
    let (code, out, _) = run(&[
        "check",
        "--min-rate",
        "0",
        "--max-line-bytes",
        "1024",
        &path,
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(out.starts_with("FAIL"), "{out}");
}

/// Writes a log with a line longer than a read block (8 MiB), so the reader
/// skips it without keeping it, and checks the lines around it.
fn write_giant(path: &Path, newline_after: bool) {
    let ok = |id: &str| {
        format!(
            r#"{{"turn_id":"{id}","agent_id":"a","created_at":"2026-08-01T00:00:00Z","reply":"[KB-1]","grounding":{{"chunks":[{{"document_id":"d"}}]}}}}"#
        )
    };
    let mut data = Vec::with_capacity(10 << 20);
    data.extend_from_slice(ok("g-1").as_bytes());
    data.push(b'\n');
    data.extend_from_slice(br#"{"turn_id":"g-2","reply":""#);
    data.resize(data.len() + (9 << 20), b'x');
    data.extend_from_slice(b"\"}");
    if newline_after {
        data.push(b'\n');
        data.extend_from_slice(ok("g-3").as_bytes());
        data.extend_from_slice(b"\nnot json\n");
    }
    std::fs::write(path, data).unwrap();
}

#[test]
fn a_line_longer_than_a_block_is_skipped_counted_and_located() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("giant.jsonl");
    write_giant(&path, true);
    let p = path.display().to_string();
    let (code, out, err) = run(&[
        "report",
        "--format",
        "json",
        "--max-line-bytes",
        "1048576",
        &p,
    ]);
    assert_eq!(code, 0, "{err}");
    let i = &json(&out)["input"];
    assert_eq!(i["lines"], 4, "{i}");
    assert_eq!(i["turns"], 2, "{i}");
    assert_eq!(i["invalid_lines"], 2, "{i}");
    assert!(err.contains(&format!("{p}:2: line of ")), "{err}");
    assert!(err.contains(&format!("{p}:4: not valid JSON")), "{err}");
    // The same line last, without a newline.
    write_giant(&path, false);
    let (code, out, err) = run(&[
        "report",
        "--format",
        "json",
        "--max-line-bytes",
        "1048576",
        &p,
    ]);
    assert_eq!(code, 0, "{err}");
    let i = &json(&out)["input"];
    assert_eq!(
        (i["lines"].as_u64(), i["invalid_lines"].as_u64()),
        (Some(2), Some(1))
    );
    assert!(err.contains(&format!("{p}:2: line of ")), "{err}");
}

#[test]
fn check_never_passes_on_invalid_lines_by_default() {
    // The default --max-invalid is 0: one unreadable line fails the gate.
    let (code, out, _) = run(&["check", "--min-rate", "0", &hostile("nul-bytes.jsonl")]);
    assert_eq!(code, 3, "{out}");
    assert!(out.starts_with("FAIL"), "{out}");
    let (code, out, _) = run(&[
        "check",
        "--min-rate",
        "0",
        "--max-invalid",
        "3",
        &hostile("nul-bytes.jsonl"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("PASS"), "{out}");
}

/// Issue 18, item 9: an optional field of the wrong type made the whole
/// turn invalid, and `check` (default `--max-invalid 0`) failed with exit 3.
/// It is dropped, counted once per field, and the turn is graded.
#[test]
fn mistyped_optional_fields_are_dropped_with_a_warning_and_the_turn_graded() {
    let path = fixture("input/mistyped-optional-fields.jsonl")
        .display()
        .to_string();
    let (code, out, err) = run(&["check", "--min-rate", "0.5", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("PASS"), "{out}");
    for line in [
        "warning: 3 turn(s): field `channel` is not a string; dropped",
        "warning: 1 turn(s): field `model` is not a string; dropped",
        "warning: 2 turn(s): field `tokens_used` is not a whole number, 0 or more; dropped",
        "warning: 1 turn(s): field `latency_ms` is not a number; dropped",
        "warning: 1 turn(s): field `grounding.latency_ms` is not a number; dropped",
        "warning: 1 turn(s): field `grounding.tools[].status` is not a string; dropped",
    ] {
        assert_eq!(err.matches(line).count(), 1, "{line} once in:\n{err}");
    }
    let (code, out, err) = run(&["report", "--format", "json", &path]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let input = &v["input"];
    assert_eq!(
        (
            &input["turns"],
            &input["invalid_lines"],
            &input["duplicates"]
        ),
        (&8.into(), &0.into(), &1.into())
    );
    let warnings: Vec<(String, u64)> = input["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            assert_eq!(
                (&w["kind"], &w["unit"]),
                (&"dropped_field".into(), &"turn".into())
            );
            (
                w["subject"].as_str().unwrap().to_owned(),
                w["count"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("channel", 3),
        ("conversation_id", 1),
        ("cost_cents", 1),
        ("grounding.latency_ms", 1),
        ("grounding.model", 1),
        ("grounding.tools[].status", 1),
        ("latency_ms", 1),
        ("model", 1),
        ("tokens_used", 2),
    ];
    let want: Vec<(String, u64)> = want.iter().map(|(s, n)| (s.to_string(), *n)).collect();
    assert_eq!(warnings, want);
    // Dropped means absent: defaults and fallbacks apply, the rest is kept.
    let row = |id: &str| {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["turn_id"] == id)
            .unwrap_or_else(|| panic!("no row {id}"))
            .clone()
    };
    assert_eq!(row("m-1")["channel"], "chat");
    assert_eq!(row("m-3")["tokens_used"], serde_json::Value::Null);
    assert_eq!(row("m-4")["verdict"], "orphan_marker");
    assert_eq!(
        (&row("m-5")["tool_calls"], &row("m-5")["tool_errors"]),
        (&2.into(), &1.into())
    );
    assert_eq!(row("m-7")["latency_ms"], 900.0);
    assert_eq!(row("m-8")["channel"], "voice");
    // Every JSON document carries the same warnings.
    let (_, out, _) = run(&["summary", "--format", "json", &path]);
    assert_eq!(json(&out)["input"]["warnings"], input["warnings"]);
    let (_, out, _) = run(&["check", "--min-rate", "0", "--format", "json", &path]);
    assert_eq!(json(&out)["input"]["warnings"], input["warnings"]);
    let (_, out, _) = run(&["report", "--all", "--format", "json", &path]);
    assert_eq!(json(&out)["input"]["warnings"], input["warnings"]);
}

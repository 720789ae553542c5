//! Helpers shared by the integration tests.

#![allow(dead_code)]

use assert_cmd::Command;
use std::path::PathBuf;

/// The binary under test, with a clean environment for stable output.
pub fn bin() -> Command {
    let mut c = Command::cargo_bin("grounding-audit").expect("binary is built");
    c.env_remove("NO_COLOR")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GROUNDING_AUDIT_TZ")
        .env_remove("GITHUB_ACTIONS")
        .env("CI", "true");
    c
}

/// A file under `fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// A path under `../shared/` (the captures and real data kept beside the
/// repository), or None when it is absent: the caller then skips, and
/// [`absent`] says so. With `GROUNDING_AUDIT_REQUIRE_SHARED=1` (as `.ci/run`
/// sets) an absent path fails the test instead.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        absent(&p);
        None
    }
}

/// The one way a test skips for want of a shared file: a message naming the
/// path, or, under `GROUNDING_AUDIT_REQUIRE_SHARED=1`, a panic naming it.
pub fn absent(p: &std::path::Path) {
    if std::env::var("GROUNDING_AUDIT_REQUIRE_SHARED").as_deref() == Ok("1") {
        panic!(
            "{} is absent, and GROUNDING_AUDIT_REQUIRE_SHARED=1 requires it",
            p.display()
        );
    }
    eprintln!(
        "skipping: {} is absent (../shared is only on the developers' machines and CI)",
        p.display()
    );
}

/// Runs the binary and returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = bin().args(args).output().expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the binary with `input` on stdin.
pub fn run_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let out = bin()
        .args(args)
        .write_stdin(input.to_vec())
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Parses stdout as JSON.
pub fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}):\n{s}"))
}

/// `report --all --format json` on `path`, which must succeed: its document.
pub fn report_all(path: &std::path::Path) -> serde_json::Value {
    let (code, out, err) = run(&[
        "report",
        "--all",
        "--format",
        "json",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{}: {err}", path.display());
    json(&out)
}

/// The sum of the input categories of an `input` object: every line read is
/// exactly one of them, so this must equal `lines`.
pub fn categories_sum(input: &serde_json::Value) -> u64 {
    [
        "turns",
        "blank_lines",
        "skipped_records",
        "invalid_lines",
        "duplicates",
    ]
    .iter()
    .map(|k| {
        input[k]
            .as_u64()
            .unwrap_or_else(|| panic!("input.{k} missing in {input}"))
    })
    .sum()
}

/// The support totals of `summary --format json` over `path`, and of the
/// merge of its lines' summary partials split in three.
pub fn summary_one_and_merged(path: &std::path::Path) -> (serde_json::Value, serde_json::Value) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dir = tempfile::tempdir().unwrap();
    let mut parts = Vec::new();
    for (i, chunk) in lines.chunks(lines.len() / 3 + 1).enumerate() {
        let p = dir.path().join(format!("part{i}.jsonl"));
        std::fs::write(&p, chunk.join("\n") + "\n").unwrap();
        let out = dir.path().join(format!("part{i}.json"));
        let (code, _, err) = run(&[
            "summary",
            p.to_str().unwrap(),
            "--partial",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        parts.push(out.display().to_string());
    }
    let (_, one, _) = run(&["summary", path.to_str().unwrap(), "--format", "json"]);
    let mut args = vec!["merge", "--format", "json"];
    args.extend(parts.iter().map(String::as_str));
    let (code, merged, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    (json(&one), json(&merged))
}

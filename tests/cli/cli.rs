//! The command-line model itself: clap's own checks, help text and completions.

use crate::common::*;

#[test]
fn completions_are_fresh() {
    for (shell, file) in [
        ("bash", "grounding-audit.bash"),
        ("zsh", "_grounding-audit"),
        ("fish", "grounding-audit.fish"),
        ("powershell", "_grounding-audit.ps1"),
        ("elvish", "grounding-audit.elv"),
    ] {
        let (code, out, _) = run(&["completions", shell]);
        assert_eq!(code, 0);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("completions")
            .join(file);
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == out,
            "completions/{file} is out of date: run `cargo run -- completions {shell} > completions/{file}` (or scripts/completions.sh)"
        );
    }
}

#[test]
fn man_page_is_fresh() {
    let (code, out, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(".ie") || out.contains(".TH grounding-audit"),
        "{out}"
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("completions/grounding-audit.1");
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == out,
        "completions/grounding-audit.1 is out of date: run `cargo run -- man > completions/grounding-audit.1` (or scripts/completions.sh)"
    );
}

#[test]
fn help_documents_exit_codes() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    for needle in [
        "Exit codes",
        "0  success",
        "1  check",
        "2  usage",
        "3  input error",
        "4  output error",
    ] {
        assert!(out.contains(needle), "{needle}");
    }
    let (_, out, _) = run(&["check", "--help"]);
    assert!(out.contains("3  input error"));
}

#[test]
fn unknown_flags_are_usage_errors() {
    let (code, _, _) = run(&["report", "--bogus"]);
    assert_eq!(code, 2);
}

#[test]
fn regex_and_preset_together_is_a_usage_error() {
    let (code, _, err) = run(&[
        "report",
        "--markers",
        "numeric",
        "--marker-regex",
        "\\[(\\d+)\\]",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&[
        "report",
        "--marker-regex",
        "\\[\\d+\\]",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("exactly one capture group"), "{err}");
}

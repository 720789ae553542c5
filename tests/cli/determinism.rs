//! Output must not depend on the thread count: blocks are merged in input
//! order, so `--threads 1` and `--threads 2` give the same bytes.

use crate::common::*;

/// A generated log spanning several 4 MiB blocks, given twice so that every
/// turn of the second copy is a duplicate found across blocks.
fn big_log(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("gen.jsonl");
    std::fs::write(&path, crate::generate::generated(9 << 20, 7, 12)).unwrap();
    path.to_str().unwrap().to_owned()
}

fn same_for_threads(args: &[&str]) {
    let with = |t: &str| {
        let mut all = vec!["--threads", t];
        all.extend_from_slice(args);
        let (code, out, err) = run(&all);
        (code, out, err)
    };
    let one = with("1");
    let two = with("2");
    assert_eq!(one.0, two.0, "exit code differs for {args:?}");
    assert!(one.1 == two.1, "stdout differs for {args:?}");
    assert_eq!(one.2, two.2, "stderr differs for {args:?}");
}

#[test]
fn generated_log_gives_identical_output_on_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let log = big_log(&dir);
    let l = log.as_str();
    same_for_threads(&["report", "--format", "json", l, l]);
    same_for_threads(&["report", "--all", "--format", "csv", l, l]);
    same_for_threads(&["report", "--all", "--format", "jsonl", "--no-dedupe", l, l]);
    same_for_threads(&["summary", "--format", "json", l, l]);
    same_for_threads(&[
        "check",
        "--min-rate",
        "0.5",
        "--per-agent",
        "--format",
        "json",
        l,
        l,
    ]);
    let (_, out, _) = run(&["report", "--format", "json", l, l]);
    let v = json(&out);
    assert_eq!(
        v["input"]["duplicates"], v["input"]["turns"],
        "the second copy is all duplicates"
    );
}

#[test]
fn every_fixture_gives_identical_output_on_one_and_two_threads() {
    let root = fixture("");
    let r = root.to_str().unwrap();
    same_for_threads(&["report", "--all", "--format", "jsonl", r]);
    same_for_threads(&["summary", "--format", "json", r]);
    same_for_threads(&["report", "--format", "csv", r]);
}

/// Warnings are counted per unit and merged in input order: the same counts
/// and the same stderr on one and two threads, across blocks, with the
/// duplicates of the second copy not counted again.
#[test]
fn warnings_are_counted_the_same_on_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let log = big_log(&dir);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut mangled = String::with_capacity(text.len() + (1 << 20));
    let mut dropped = 0u64;
    for (i, line) in text.lines().enumerate() {
        if i % 5 == 0 && line.contains(r#","latency_ms":"#) {
            // Still valid JSON: `"latency_ms":true,"x":1234`.
            mangled.push_str(&line.replacen(r#","latency_ms":"#, r#","latency_ms":true,"x":"#, 1));
            dropped += 1;
        } else {
            mangled.push_str(line);
        }
        mangled.push('\n');
    }
    let path = dir.path().join("mangled.jsonl");
    std::fs::write(&path, mangled).unwrap();
    let p = path.to_str().unwrap();
    same_for_threads(&["summary", "--format", "json", p, p]);
    same_for_threads(&["check", "--min-rate", "0", "--format", "json", p, p]);
    let (code, out, err) = run(&["--threads", "2", "report", "--format", "json", p, p]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["input"]["invalid_lines"], 0);
    // Latency sits in `grounding` or at the top level, depending on the turn.
    let warnings = v["input"]["warnings"].as_array().unwrap();
    let total: u64 = warnings.iter().map(|w| w["count"].as_u64().unwrap()).sum();
    assert_eq!(total, dropped);
    for w in warnings {
        assert!(
            ["latency_ms", "grounding.latency_ms"].contains(&w["subject"].as_str().unwrap()),
            "{w}"
        );
        let line = format!(
            "warning: {} turn(s): field `{}` is not a number; dropped",
            w["count"],
            w["subject"].as_str().unwrap()
        );
        assert_eq!(err.matches(&line).count(), 1, "{line} once in:\n{err}");
    }
}

//! Output must not depend on the thread count: blocks are merged in input
//! order, so `--threads 1` and `--threads 2` give the same bytes.

use crate::common::*;

/// A generated log spanning several 4 MiB blocks, given twice so that every
/// turn of the second copy is a duplicate found across blocks.
fn big_log(dir: &tempfile::TempDir) -> String {
    let out = bin()
        .args(["generate", "--bytes", "9M", "--seed", "7"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = dir.path().join("gen.jsonl");
    std::fs::write(&path, &out.stdout).unwrap();
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

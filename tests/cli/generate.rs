//! `generate` (hidden): a smoke run of the binary, piped into `report`.

use crate::common::*;

#[test]
fn generated_log_is_deterministic_and_reads_cleanly() {
    let generate = |seed: &str| {
        bin()
            .args([
                "generate", "--bytes", "300k", "--seed", seed, "--agents", "5",
            ])
            .output()
            .expect("runs")
    };
    let a = generate("9");
    assert!(a.status.success());
    assert_eq!(a.stdout, generate("9").stdout);
    assert!(a.stdout.len() >= 300 << 10);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gen.jsonl");
    std::fs::write(&path, &a.stdout).unwrap();
    let lines = a.stdout.iter().filter(|&&b| b == b'\n').count() as u64;
    for threads in ["1", "2"] {
        let (code, out, err) = run(&[
            "--threads",
            threads,
            "report",
            "--all",
            "--format",
            "json",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        assert_eq!(
            v["input"]["turns"].as_u64(),
            Some(lines),
            "every line is a turn"
        );
        assert_eq!(v["input"]["invalid_lines"].as_u64(), Some(0));
        for verdict in [
            "ok",
            "no_marker",
            "orphan_marker",
            "empty_retrieval",
            "unobserved",
        ] {
            assert!(
                v["summary"]["verdicts"][verdict].as_u64().unwrap() > 0,
                "{verdict}"
            );
        }
    }
}

#[test]
fn bad_size_is_a_usage_error() {
    let (code, _, err) = run(&["generate", "--bytes", "lots"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a size"), "{err}");
}

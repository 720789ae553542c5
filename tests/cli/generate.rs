//! The benchmark's log generator (`benches/generate`, crate `ga-generate`):
//! what it writes is what the benchmark claims it is, and the product reads
//! it cleanly. The generator is not a subcommand of the shipped binary.

use crate::common::*;
use grounding_audit::dialect::{Parsed, native};
use grounding_audit::grade::grade;
use grounding_audit::markers::Grammar;
use grounding_audit::model::{MarkersFrom, Verdict};
use std::collections::HashSet;
use std::num::NonZeroU32;

/// A generated log of about `bytes` bytes.
pub fn generated(bytes: u64, seed: u64, agents: u32) -> Vec<u8> {
    ga_generate::generate(&ga_generate::Options {
        bytes,
        seed,
        agents: NonZeroU32::new(agents).expect("at least one agent"),
    })
}

#[test]
fn every_line_is_a_valid_turn_and_every_verdict_occurs() {
    let data = generated(4 << 20, 7, 12);
    let grammar = Grammar::default();
    let mut ids = HashSet::new();
    let mut counts = [0u64; 5];
    let (mut partial, mut citations, mut malformed, mut tool_errors, mut voice) = (0, 0, 0, 0, 0);
    let mut last = None;
    let mut lines = 0u64;
    for line in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        lines += 1;
        serde_json::from_slice::<serde_json::Value>(line).expect("valid JSON");
        let turn = match native::parse_line(std::str::from_utf8(line).expect("UTF-8")) {
            Parsed::Turn(t) => t,
            other => panic!("not a turn: {other:?}\n{}", String::from_utf8_lossy(line)),
        };
        assert!(ids.insert(turn.turn_id.as_str().to_owned()), "duplicate id");
        assert!(
            last.is_none_or(|l| l < turn.created_at),
            "not chronological"
        );
        last = Some(turn.created_at);
        let row = grade(turn, &grammar);
        counts[row.verdict.slot()] += 1;
        partial += row.partial as u64;
        citations += (row.markers_from == Some(MarkersFrom::Citations)) as u64;
        malformed += (row.malformed_markers > 0) as u64;
        tool_errors += (row.tool_errors > 0) as u64;
        voice += (row.channel == "voice") as u64;
    }
    let share = |v: Verdict| counts[v.slot()] as f64 / lines as f64;
    assert!((0.65..0.82).contains(&share(Verdict::Ok)), "{counts:?}");
    assert!(
        (0.06..0.15).contains(&share(Verdict::NoMarker)),
        "{counts:?}"
    );
    assert!(
        (0.03..0.08).contains(&share(Verdict::OrphanMarker)),
        "{counts:?}"
    );
    assert!(
        (0.05..0.11).contains(&share(Verdict::EmptyRetrieval)),
        "{counts:?}"
    );
    assert!(
        (0.015..0.05).contains(&share(Verdict::Unobserved)),
        "{counts:?}"
    );
    for n in [partial, citations, malformed, tool_errors, voice] {
        assert!(
            n > 0,
            "{partial} {citations} {malformed} {tool_errors} {voice}"
        );
    }
    let avg = data.len() as f64 / lines as f64;
    assert!((2000.0..2800.0).contains(&avg), "average line {avg}");
}

#[test]
fn generated_log_reads_cleanly_on_one_and_two_threads() {
    let log = generated(300 << 10, 9, 5);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gen.jsonl");
    std::fs::write(&path, &log).unwrap();
    let lines = log.iter().filter(|&&b| b == b'\n').count() as u64;
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
fn the_shipped_binary_has_no_generate_subcommand() {
    let (code, _, err) = run(&["generate", "--bytes", "300k"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unrecognized subcommand"), "{err}");
}

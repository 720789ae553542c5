//! Fuzz target: the LangSmith and Langfuse exports, from bytes to graded
//! turns.
//!
//! The input goes, as it is, to both exports' `parse_line` (line by line)
//! and `parse_document` (whole); the records that come out are grouped by
//! trace, assembled and graded.
//!
//! Beyond "no panic" it checks: a failed line adds no record and a line's
//! count of records is what it pushed; a reason is non-empty and at most
//! ~300 bytes (plus the cut mark); chunk indexes are 1..=n in order; the
//! verdict agrees with the chunk count and the markers; rows and evidence
//! serialise. (That a row reads the same fields as `serde_json::Value`
//! would is checked by the differential unit tests of `spans::keeping`.)

#![no_main]

use grounding_audit::dialect::spans::{LANGFUSE, LANGSMITH};
use grounding_audit::dialect::{AssembleOptions, Dialect, DocumentRecords, Parsed, Record};
use grounding_audit::grade::grade;
use grounding_audit::markers::{Grammar, Preset};
use grounding_audit::messages::Warnings;
use libfuzzer_sys::fuzz_target;

#[path = "../common/rows.rs"]
mod rows;
use std::collections::BTreeMap;

/// The longest reason: `MAX_REASON` (300) bytes and the `…` cut mark.
const MAX_REASON: usize = 400;

fn check_reason(reason: &str) {
    assert!(!reason.is_empty(), "empty reason");
    assert!(reason.len() <= MAX_REASON, "reason of {} bytes", reason.len());
}

fn grade_groups(d: &dyn Dialect, records: Vec<Record>) {
    let mut by: BTreeMap<String, Vec<Record>> = BTreeMap::new();
    for r in records {
        by.entry(r.group.as_str().to_owned()).or_default().push(r);
    }
    for (group, records) in by {
        let assembled = match d.assemble(&group, records, &AssembleOptions::default()) {
            Ok(a) => a,
            Err(reason) => {
                check_reason(&reason);
                continue;
            }
        };
        let turn = assembled.turn();
        for (i, c) in turn.chunks.iter().enumerate() {
            assert_eq!(c.index as usize, i + 1, "chunk indexes are 1..=n");
        }
        serde_json::to_vec(&assembled.evidence(true)).expect("evidence serialises");
        let n = turn.chunks.len();
        let row = grade(turn, &Grammar::Preset(Preset::Numeric));
        assert_eq!(row.chunk_count as usize, n);
        rows::check_row(&row);
    }
}

fuzz_target!(|data: &[u8]| {
    let dialects: [&dyn Dialect; 2] = [&LANGSMITH, &LANGFUSE];
    for d in dialects {
        let _ = d.sniff(&grounding_audit::dialect::First::new(data));
        let _ = d.is_document(data);
        let mut records = Vec::new();
        let mut warnings = Warnings::default();
        for line in data.split(|&b| b == b'\n') {
            let Ok(line) = std::str::from_utf8(line) else {
                continue;
            };
            if line.trim().is_empty() {
                continue;
            }
            let before = records.len();
            match d.parse_line(line, &mut records, &mut warnings) {
                Parsed::Invalid(reason) => {
                    assert_eq!(records.len(), before, "a failed line adds no record");
                    check_reason(&reason);
                }
                Parsed::Records(n) => assert_eq!(records.len(), before + n),
                Parsed::Skipped => assert_eq!(records.len(), before),
                Parsed::Turn(_) => panic!("an export line read as a native turn"),
            }
        }
        grade_groups(d, records);

        let mut doc = DocumentRecords::default();
        d.parse_document(data, &mut doc);
        for (line, reason) in &doc.invalid {
            assert!(*line >= 1, "line numbers are 1-based");
            check_reason(reason);
        }
        grade_groups(d, doc.records.into_iter().map(|(_, r)| r).collect());
    }
});

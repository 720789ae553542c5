//! Fuzz target: one input line through the native parser and the verdict
//! engine, with every marker preset.
//!
//! Beyond "no panic", it checks the invariants every row must keep: exactly
//! one verdict that agrees with the rules, cited indexes distinct and within
//! the chunk list, `partial` only on `ok`, confidence null or within 0..1,
//! and an invalid-line reason that never quotes more than a short excerpt.

#![no_main]

use grounding_audit::dialect::Parsed;
use grounding_audit::dialect::native::parse_line;
use grounding_audit::grade::grade;
use grounding_audit::markers::{Grammar, Preset};
use grounding_audit::model::{Row, Verdict};
use libfuzzer_sys::fuzz_target;

const PRESETS: [Preset; 5] = [
    Preset::Kb,
    Preset::Numeric,
    Preset::Doc,
    Preset::Footnote,
    Preset::Id,
];

fn check_row(row: &Row<'_>) {
    let n = row.chunk_count;
    assert_eq!(n as usize, row.chunks.len());
    for (i, &c) in row.cited_chunks.iter().enumerate() {
        assert!(c >= 1 && c <= n, "cited {c} outside 1..={n}");
        assert!(!row.cited_chunks[..i].contains(&c), "cited {c} twice");
    }
    assert!(row.out_of_range_markers <= row.marker_count);
    assert!(row.cited_chunks.len() as u32 <= row.marker_count);
    if row.partial {
        assert_eq!(row.verdict, Verdict::Ok);
        assert!(row.out_of_range_markers > 0);
    }
    if let Some(c) = row.confidence {
        assert!((0.0..=1.0).contains(&c), "confidence {c}");
    }
    let observed = row.markers_from.is_some();
    assert_eq!(observed, row.verdict != Verdict::Unobserved);
    assert_eq!(
        row.unobserved_reason.is_some(),
        row.verdict == Verdict::Unobserved
    );
    match row.verdict {
        Verdict::Ok => assert!(n > 0 && !row.cited_chunks.is_empty()),
        Verdict::OrphanMarker => assert!(row.marker_count > 0 && row.cited_chunks.is_empty()),
        Verdict::NoMarker => assert!(n > 0 && row.marker_count == 0),
        Verdict::EmptyRetrieval => assert!(n == 0 && row.marker_count == 0),
        Verdict::Unobserved => assert_eq!(row.marker_count, 0),
    }
    // Rows must always serialise (the JSON output expects it).
    serde_json::to_vec(row).expect("a row serialises");
}

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    if line.bytes().all(|b| b.is_ascii_whitespace()) {
        return;
    }
    match parse_line(line) {
        Parsed::Turn(turn) => {
            for p in PRESETS {
                let row = grade(turn.clone(), &Grammar::Preset(p));
                check_row(&row);
            }
        }
        Parsed::Skipped => {}
        Parsed::Records(_) => panic!("the native dialect never yields records"),
        Parsed::Invalid(reason) => {
            assert!(!reason.is_empty());
            // A reason names what is wrong; it never carries the line back.
            assert!(reason.len() <= 400, "reason of {} bytes", reason.len());
        }
    }
});

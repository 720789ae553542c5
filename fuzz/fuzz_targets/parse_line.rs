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

#[path = "../common/rows.rs"]
mod rows;

const PRESETS: [Preset; 5] = [
    Preset::Kb,
    Preset::Numeric,
    Preset::Doc,
    Preset::Footnote,
    Preset::Id,
];

/// The rows of native lines keep more: no more cited chunks than markers,
/// `partial` only on `ok`, and a reply observed exactly when the verdict
/// is not `unobserved`.
fn check_row(row: &Row<'_>) {
    rows::check_row(row);
    assert!(row.cited_chunks.len() as u32 <= row.marker_count);
    if row.partial {
        assert_eq!(row.verdict, Verdict::Ok);
        assert!(row.out_of_range_markers > 0);
    }
    let observed = row.markers_from.is_some();
    assert_eq!(observed, row.verdict != Verdict::Unobserved);
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

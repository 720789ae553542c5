//! Fuzz target: whole JSON documents, as the reader meets them: a document
//! spread over lines cut into one value per line, a JSON array cut into its
//! elements, and every document dialect's `parse_document` (envelopes:
//! Langfuse trace downloads and API pages, LangSmith batch bodies, span
//! arrays of Phoenix, the OpenTelemetry SDKs and TruLens).
//!
//! Beyond "no panic" it checks: every value cut is one line of valid JSON;
//! reasons are non-empty and capped; line numbers are 1-based and within
//! the input; each record is a record of the dialect that read it.

#![no_main]

use grounding_audit::dialect::{DIALECTS, DocumentRecords};
use grounding_audit::input;
use libfuzzer_sys::fuzz_target;

const MAX_REASON: usize = 400;

fn check_lines(cut: Option<Vec<u8>>) {
    let Some(lines) = cut else { return };
    for line in lines.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        assert!(
            // As the cutter reads a value (a number past f64, `1e400`, is
            // still JSON text).
            serde_json::from_slice::<Box<serde_json::value::RawValue>>(line).is_ok(),
            "a value cut from a document is not valid JSON on its line"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let _ = input::is_spread_object(data);
    let _ = input::sniff_shape(data);
    check_lines(input::json_document_lines(data));
    check_lines(input::json_array_lines(data));
    let lines = memchr_count(data) + 1;
    for d in DIALECTS {
        let _ = d.sniff(&grounding_audit::dialect::First::new(data));
        if !d.is_document(data) {
            continue;
        }
        let mut doc = DocumentRecords::default();
        d.parse_document(data, &mut doc);
        for (line, reason) in &doc.invalid {
            assert!(*line >= 1 && *line <= lines, "line {line} of {lines}");
            assert!(
                !reason.is_empty() && reason.len() <= MAX_REASON,
                "reason of {} bytes",
                reason.len()
            );
        }
        for (line, _) in &doc.records {
            assert!(
                *line >= 1 && *line <= lines,
                "record at line {line} of {lines}"
            );
        }
    }
});

fn memchr_count(data: &[u8]) -> u64 {
    data.iter().filter(|&&b| b == b'\n').count() as u64
}

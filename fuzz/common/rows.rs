//! The invariants every graded row keeps, whatever dialect it came from:
//! shared by the fuzz targets (each adds what holds for its own input) and
//! by the span unit tests (`crates/read/src/dialect/spans/tests.rs`).

use grounding_audit::model::{Row, Verdict};

/// Asserts the row's counts, cited indexes, confidence and verdict agree,
/// and that it serialises (the JSON output expects it).
pub fn check_row(row: &Row<'_>) {
    let n = row.chunk_count;
    assert_eq!(n as usize, row.chunks.len());
    for (i, &c) in row.cited_chunks.iter().enumerate() {
        assert!(c >= 1 && c <= n, "cited {c} outside 1..={n}");
        assert!(!row.cited_chunks[..i].contains(&c), "cited {c} twice");
    }
    assert!(row.out_of_range_markers <= row.marker_count);
    if let Some(c) = row.confidence {
        assert!((0.0..=1.0).contains(&c), "confidence {c}");
    }
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
    serde_json::to_vec(row).expect("a row serialises");
}

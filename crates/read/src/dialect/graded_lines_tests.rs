//! Native turn lines read and graded: the rules seen through the reader
//! that feeds them, for what only a line can hold (JSON escapes in a
//! reply, citation indexes spelled as JSON numbers, fields left out).

use crate::dialect::Parsed;
use crate::dialect::native::parse_line;
use crate::grade::grade;
use crate::markers::{Grammar, Preset};
use crate::model::{MarkersFrom, Row, Unobserved, Verdict};

/// Parses one native turn line and grades it under `g`.
fn graded(line: &str, g: &Grammar) -> Row<'static> {
    match parse_line(line) {
        Parsed::Turn(t) => grade(t, g).into_owned(),
        other => panic!("not a turn: {other:?}"),
    }
}

/// Parses one native turn line and grades it under the default grammar.
fn parsed(line: &str) -> Row<'static> {
    graded(line, &Grammar::default())
}

/// A native turn line with `reply` given as JSON text (quotes included) and `n` chunks.
fn line(reply_json: &str, n: u32) -> String {
    let chunks: Vec<String> = (1..=n)
        .map(|i| format!(r#"{{"document_id":"d{i}.md"}}"#))
        .collect();
    format!(
        r#"{{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":{reply_json},"grounding":{{"chunks":[{}]}}}}"#,
        chunks.join(",")
    )
}

// ------------------------------------------------ verdicts

#[test]
fn negative_zero_scores_grade_as_zero() {
    let row = parsed(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":"x [KB-1]","grounding":{"chunks":[{"score":-0.0},{"score":-0.0}]}}"#,
    );
    for c in &row.chunks {
        let s = c.score.expect("a score");
        assert!(s == 0.0 && s.is_sign_positive(), "{s:?}");
    }
    let conf = row.confidence.expect("a confidence");
    assert!(conf == 0.0 && conf.is_sign_positive(), "{conf:?}");
}

#[test]
fn confidence_is_recomputed_not_taken_from_the_input() {
    let row = parsed(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":"x [KB-1]","grounding":{"confidence":0.99,"chunks":[{"score":0.4},{"score":null}]}}"#,
    );
    assert_eq!(row.confidence, Some(0.4));
    let row = parsed(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":"x","grounding":{"confidence":0.7,"chunks":[]}}"#,
    );
    assert_eq!(row.confidence, None);
}

#[test]
fn citations_only_from_a_log_line() {
    let row = parsed(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":null,"grounding":{"chunks":[{"document_id":"a"},{"document_id":"b"}],"citations":[{"index":2},{"index":-1},{"index":"1"},{}]}}"#,
    );
    assert_eq!(row.markers_from, Some(MarkersFrom::Citations));
    assert_eq!(row.cited_chunks, [2]);
    assert_eq!(
        (
            row.marker_count,
            row.out_of_range_markers,
            row.malformed_markers
        ),
        (2, 1, 2)
    );
    // A reply string wins over the citations list, even an empty one.
    let row = parsed(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":"","grounding":{"chunks":[{"document_id":"a"}],"citations":[{"index":1}]}}"#,
    );
    assert_eq!(
        (row.verdict, row.markers_from),
        (Verdict::NoMarker, Some(MarkersFrom::Reply))
    );
}

/// Issue 18, item 6: a citation index too large for any integer was
/// malformed (`no_marker`) while the same marker in a reply is out of range
/// (`orphan_marker`). One rule for both: out of range.
#[test]
fn a_huge_citation_index_is_out_of_range_like_a_huge_marker() {
    // Two chunks; `reply` and `citations` as given.
    let line = |reply: &str, citations: &str| {
        format!(
            r#"{{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":{reply},"grounding":{{"chunks":[{{"document_id":"a"}},{{"document_id":"b"}}],"citations":{citations}}}}}"#
        )
    };
    let counts = |r: &Row<'_>| {
        (
            r.verdict,
            r.marker_count,
            r.out_of_range_markers,
            r.malformed_markers,
        )
    };
    let huge = "99999999999999999999999";
    let from_reply = parsed(&line(&format!(r#""see [KB-{huge}]""#), "[]"));
    assert_eq!(from_reply.markers_from, Some(MarkersFrom::Reply));
    assert_eq!(counts(&from_reply), (Verdict::OrphanMarker, 1, 1, 0));
    for list in [
        format!(r#"[{{"index":{huge}}}]"#),
        format!("[{huge}]"),
        r#"[{"index":-3}]"#.to_owned(),
        r#"[{"index":0}]"#.to_owned(),
        // Whole numbers spelled with an exponent or a fraction are read by
        // their value: past the chunks, out of range.
        r#"[{"index":1e2}]"#.to_owned(),
        r#"[{"index":1e300}]"#.to_owned(),
        r#"[{"index":18446744073709551616}]"#.to_owned(),
    ] {
        let row = parsed(&line("null", &list));
        assert_eq!(row.markers_from, Some(MarkersFrom::Citations), "{list}");
        assert_eq!(counts(&row), counts(&from_reply), "{list}");
    }
    // A whole number written `2.0` is index 2.
    let row = parsed(&line("null", r#"[{"index":2.0}]"#));
    assert_eq!(counts(&row), (Verdict::Ok, 1, 0, 0));
    // Not a whole number: malformed, as `[KB-1.5]` is.
    for list in [
        r#"[{"index":1.5}]"#,
        r#"[{"index":null}]"#,
        r#"[{"index":"2"}]"#,
        "[true]",
    ] {
        let row = parsed(&line("null", list));
        assert_eq!(counts(&row), (Verdict::NoMarker, 0, 0, 1), "{list}");
    }
}

#[test]
fn no_reply_and_no_citations_is_unobserved() {
    let row = parsed(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","grounding":{"chunks":[{"score":0.5}]}}"#,
    );
    assert_eq!(
        (row.verdict, row.unobserved_reason),
        (Verdict::Unobserved, Some(Unobserved::NoReply))
    );
    let row = parsed(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":null}"#,
    );
    assert_eq!(
        (row.verdict, row.chunk_count, row.confidence),
        (Verdict::Unobserved, 0, None)
    );
}

// ------------------------------------------------ markers

/// docs/markers.md allows up to 256 bytes between the brackets, counted
/// decoded.
#[test]
fn a_bracket_holds_up_to_256_decoded_bytes() {
    // An escape inside the bracket (`\/`, two bytes raw, one decoded) at the
    // limit: the length that counts is the decoded one.
    for len in [255, 256, 257] {
        let reply = format!("\"[KB-{}1\\/]\"", "0".repeat(len - 5));
        let row = graded(&line(&reply, 3), &Grammar::default());
        assert_eq!(row.malformed_markers, u32::from(len <= 256), "{len} bytes");
    }
}

#[test]
fn kb_repeats_count_as_markers_but_cite_once() {
    let row = graded(
        &line(r#""x [KB-2] y [KB-2][KB-1] z [KB-9] [kb-1]""#, 2),
        &Grammar::default(),
    );
    assert_eq!(row.verdict, Verdict::Ok);
    assert!(row.partial);
    assert_eq!(row.cited_chunks, [2, 1]);
    assert_eq!(row.marker_count, 4);
    assert_eq!(row.out_of_range_markers, 1);
    assert_eq!(row.malformed_markers, 1);
}

#[test]
fn an_id_shaped_token_without_chunks_is_an_orphan() {
    // With no chunks every id-shaped token is out of range: an orphan.
    let row = graded(
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-01-01T00:00:00Z","reply":"Per [refunds.md#0].","grounding":{"chunks":[]}}"#,
        &Grammar::Preset(Preset::Id),
    );
    assert_eq!(
        (row.verdict, row.marker_count, row.out_of_range_markers),
        (Verdict::OrphanMarker, 1, 1)
    );
}

#[test]
fn escaped_marker_is_the_same_marker_once_decoded() {
    for reply in [
        r#""Refunds take 30 days \u005BKB-1\u005D.""#,
        r#""Refunds take 30 days \u005bKB-1\u005d.""#,
        r#""Refunds take 30 days [\u004BB-\u0031].""#,
        r#""Refunds take 30 days [KB\u002d1].""#,
    ] {
        let row = graded(&line(reply, 2), &Grammar::default());
        assert_eq!(
            (row.verdict, row.cited_chunks.as_slice(), row.marker_count),
            (Verdict::Ok, &[1][..], 1),
            "{reply}"
        );
    }
    let row = graded(
        &line(r#""\u005B1, 2\u005D""#, 2),
        &Grammar::Preset(Preset::Numeric),
    );
    assert_eq!(row.cited_chunks, [1, 2]);
}

#[test]
fn escaped_line_break_ends_a_bracket_as_a_real_one_does() {
    // `[KB-1` + newline + `]` is no bracketed run, so not even malformed,
    // whether or not something else in the reply forces decoding.
    for reply in [
        r#""a [KB-1\n] b""#,
        r#""caf\u00e9 [KB-1\n] b""#,
        r#""a [KB-1\r\n] b [KB-2]""#,
    ] {
        let row = graded(&line(reply, 2), &Grammar::default());
        assert_eq!(row.malformed_markers, 0, "{reply}");
    }
    // And an escaped quote inside a KB bracket is malformed either way.
    let row = graded(&line(r#""a [KB-1\"] b""#, 2), &Grammar::default());
    assert_eq!(row.malformed_markers, 1);
}

//! The verdict rules in order, `partial`, confidence, citations-only answers
//! and unobserved turns.

use super::*;
use crate::markers::Preset;
use crate::model::{CitationIndex, Reply, Unobserved};
use std::borrow::Cow;

fn chunks(scores: &[Option<f64>]) -> Vec<Chunk<'static>> {
    scores
        .iter()
        .enumerate()
        .map(|(i, &score)| Chunk {
            index: i as u32 + 1,
            document_id: None,
            chunk_id: None,
            score,
        })
        .collect()
}

fn turn(answer: Answer<'static>, chunks: Vec<Chunk<'static>>) -> Turn<'static> {
    Turn {
        turn_id: crate::model::Id::string("t"),
        agent_id: Cow::Borrowed("a"),
        conversation_id: None,
        channel: Cow::Borrowed("chat"),
        created_at: chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap(),
        answer,
        chunks,
        tool_calls: 0,
        tool_errors: 0,
        model: None,
        tokens_used: None,
        cost_cents: None,
        latency_ms: None,
        markers: None,
        texts: Default::default(),
        evidence: None,
    }
}

fn reply(text: &'static str, n: usize) -> Row<'static> {
    grade(
        turn(
            Answer::Reply(Reply::Text(Cow::Borrowed(text))),
            chunks(&vec![None; n]),
        ),
        &Grammar::default(),
    )
}

/// A citations-only answer: `Some(i)` an index, `None` malformed.
fn citations(list: Vec<Option<u64>>, n: usize) -> Row<'static> {
    let list = list
        .into_iter()
        .map(|i| i.map_or(CitationIndex::Malformed, CitationIndex::Index))
        .collect();
    grade(
        turn(
            Answer::Citations(list, MarkersFrom::Citations),
            chunks(&vec![None; n]),
        ),
        &Grammar::default(),
    )
}

// ------------------------------------------------ the rules, in order

#[test]
fn rule_1_unobserved_wins_over_everything() {
    for reason in Unobserved::ALL {
        let row = grade(
            turn(Answer::Unobserved(reason), chunks(&[Some(0.9)])),
            &Grammar::default(),
        );
        assert_eq!(row.verdict, Verdict::Unobserved);
        assert_eq!(row.unobserved_reason, Some(reason));
        assert_eq!(row.markers_from, None);
        assert_eq!((row.marker_count, row.cited_chunks.len()), (0, 0));
        assert!(!row.partial);
        // The chunks are still reported; confidence still comes from them.
        assert_eq!((row.chunk_count, row.confidence), (1, Some(0.9)));
    }
    // Straight from the rule function: markers do not matter when unobserved.
    let t = Tally {
        marker_count: 3,
        cited: vec![1],
        ..Tally::default()
    };
    assert_eq!(verdict(false, 2, &t), Verdict::Unobserved);
    assert_eq!(verdict(false, 0, &Tally::default()), Verdict::Unobserved);
}

#[test]
fn rule_2_orphan_marker_when_no_chunks_or_nothing_in_range() {
    // Markers and no retrieval (a closed-book answer citing from memory).
    let row = reply("Cats sleep a lot [KB-1][KB-2].", 0);
    assert_eq!(
        (row.verdict, row.marker_count, row.out_of_range_markers),
        (Verdict::OrphanMarker, 2, 2)
    );
    // Retrieval, but every marker out of range (including 0).
    let row = reply("See [KB-3] and [KB-0].", 2);
    assert_eq!(
        (row.verdict, row.marker_count, row.out_of_range_markers),
        (Verdict::OrphanMarker, 2, 2)
    );
    assert!(row.cited_chunks.is_empty());
    assert!(!row.partial);
    // Rule 2 comes before rule 5: no chunks + a marker is not empty_retrieval.
    assert_eq!(
        verdict(
            true,
            0,
            &Tally {
                marker_count: 1,
                out_of_range: 1,
                ..Tally::default()
            }
        ),
        Verdict::OrphanMarker
    );
}

#[test]
fn rule_3_ok_with_one_marker_in_range_partial_when_some_are_not() {
    let row = reply("Yes [KB-2].", 2);
    assert_eq!(
        (row.verdict, row.partial, row.cited_chunks.as_slice()),
        (Verdict::Ok, false, &[2][..])
    );
    let row = reply("Yes [KB-2] and [KB-7].", 2);
    assert_eq!(
        (row.verdict, row.partial, row.out_of_range_markers),
        (Verdict::Ok, true, 1)
    );
    // Malformed markers alongside do not make it partial.
    let row = reply("Yes [KB-1] [kb-2].", 2);
    assert_eq!(
        (row.verdict, row.partial, row.malformed_markers),
        (Verdict::Ok, false, 1)
    );
}

#[test]
fn rule_4_no_marker_when_retrieval_ran_and_no_well_formed_marker() {
    let row = reply("The plan renews monthly.", 1);
    assert_eq!((row.verdict, row.marker_count), (Verdict::NoMarker, 0));
    // Malformed markers are counted but are not markers for the verdict.
    let row = reply("Renews monthly [KB 1] [kb-1] [KB-].", 1);
    assert_eq!(
        (row.verdict, row.marker_count, row.malformed_markers),
        (Verdict::NoMarker, 0, 3)
    );
    // An empty reply is an observed answer with no marker.
    let row = reply("", 2);
    assert_eq!(
        (row.verdict, row.markers_from),
        (Verdict::NoMarker, Some(MarkersFrom::Reply))
    );
}

#[test]
fn rule_5_empty_retrieval_otherwise() {
    let row = reply("Hello! How can I help?", 0);
    assert_eq!(row.verdict, Verdict::EmptyRetrieval);
    let row = reply("Hello [kb-1]", 0);
    assert_eq!(
        (row.verdict, row.malformed_markers),
        (Verdict::EmptyRetrieval, 1)
    );
    let row = reply("", 0);
    assert_eq!(row.verdict, Verdict::EmptyRetrieval);
}

#[test]
fn the_rule_function_covers_every_combination() {
    let none = Tally::default();
    let in_range = Tally {
        marker_count: 1,
        cited: vec![1],
        ..Tally::default()
    };
    let out = Tally {
        marker_count: 1,
        out_of_range: 1,
        ..Tally::default()
    };
    let malformed = Tally {
        malformed: 2,
        ..Tally::default()
    };
    assert_eq!(verdict(true, 1, &in_range), Verdict::Ok);
    assert_eq!(verdict(true, 1, &out), Verdict::OrphanMarker);
    assert_eq!(verdict(true, 0, &out), Verdict::OrphanMarker);
    assert_eq!(verdict(true, 1, &none), Verdict::NoMarker);
    assert_eq!(verdict(true, 1, &malformed), Verdict::NoMarker);
    assert_eq!(verdict(true, 0, &none), Verdict::EmptyRetrieval);
    assert_eq!(verdict(true, 0, &malformed), Verdict::EmptyRetrieval);
}

// ------------------------------------------------------------ tally

#[test]
fn repeats_count_as_markers_and_cite_once_in_order_of_first_appearance() {
    let row = reply("[KB-3] a [KB-1] b [KB-3][KB-3] c [KB-2]", 3);
    assert_eq!(row.cited_chunks, [3, 1, 2]);
    assert_eq!(row.marker_count, 5);
}

#[test]
fn long_chunk_lists_use_the_bitset_and_agree() {
    let mut t = Tally::default();
    for i in [70u32, 1, 70, 64, 128, 1, 65] {
        t.add(MarkerKind::Cited(i), 200);
    }
    assert_eq!(t.cited, [70, 1, 64, 128, 65]);
    assert_eq!(t.marker_count, 7);
    let row = grade(
        turn(
            Answer::Reply(Reply::Text(Cow::Borrowed(
                "[KB-100] [KB-100] [KB-1] [KB-128] [KB-129]",
            ))),
            chunks(&vec![None; 128]),
        ),
        &Grammar::default(),
    );
    assert_eq!(
        (
            row.cited_chunks.as_slice(),
            row.marker_count,
            row.out_of_range_markers
        ),
        (&[100, 1, 128][..], 5, 1)
    );
}

// ------------------------------------------------------- confidence

#[test]
fn confidence_is_the_highest_score_clamped() {
    assert_eq!(
        confidence(&chunks(&[Some(0.2), Some(0.83), Some(0.5)])),
        Some(0.83)
    );
    assert_eq!(confidence(&chunks(&[Some(1.7), Some(0.5)])), Some(1.0));
    // Reranker log-probabilities (all negative) clamp to 0, not null.
    assert_eq!(confidence(&chunks(&[Some(-3.2), Some(-0.4)])), Some(0.0));
    assert_eq!(confidence(&chunks(&[None, Some(0.4), None])), Some(0.4));
    assert_eq!(confidence(&chunks(&[Some(f64::NAN), Some(0.3)])), Some(0.3));
}

#[test]
fn confidence_is_null_without_chunks_or_scores_never_zero() {
    assert_eq!(confidence(&[]), None);
    assert_eq!(confidence(&chunks(&[None, None])), None);
    assert_eq!(confidence(&chunks(&[Some(f64::NAN)])), None);
    assert_eq!(reply("Hello", 0).confidence, None);
}

// --------------------------------------------------- citations-only

#[test]
fn citations_only_answers_take_markers_from_the_list() {
    let row = citations(vec![Some(2), Some(5), None, Some(2)], 2);
    assert_eq!(row.markers_from, Some(MarkersFrom::Citations));
    assert_eq!((row.verdict, row.partial), (Verdict::Ok, true));
    assert_eq!(row.cited_chunks, [2]);
    assert_eq!(
        (
            row.marker_count,
            row.out_of_range_markers,
            row.malformed_markers
        ),
        (3, 1, 1)
    );
    // Index 0 is out of range; all out of range is an orphan.
    assert_eq!(
        citations(vec![Some(0), Some(9)], 2).verdict,
        Verdict::OrphanMarker
    );
    assert_eq!(citations(vec![Some(1)], 0).verdict, Verdict::OrphanMarker);
    // An empty list is an observed answer without markers.
    assert_eq!(citations(vec![], 2).verdict, Verdict::NoMarker);
    assert_eq!(citations(vec![], 0).verdict, Verdict::EmptyRetrieval);
    assert_eq!(citations(vec![None], 2).verdict, Verdict::NoMarker);
}

#[test]
fn other_grammars_feed_the_same_rules() {
    let g = Grammar::Preset(Preset::Numeric);
    let row = grade(
        turn(
            Answer::Reply(Reply::Text(Cow::Borrowed("Yes [1, 2] and [Online] [22]"))),
            chunks(&[None, None]),
        ),
        &g,
    );
    assert_eq!(
        (
            row.verdict,
            row.partial,
            row.cited_chunks.as_slice(),
            row.marker_count
        ),
        (Verdict::Ok, true, &[1, 2][..], 3)
    );
}

/// The guardrail what-if against the verdict rules, over every shape of
/// tally: `require_citation` refuses exactly the `no_marker` turns, and
/// lets every `orphan_marker` turn through.
#[test]
fn require_citation_refuses_exactly_no_marker() {
    for observed in [false, true] {
        for chunk_count in 0..4usize {
            for marker_count in 0..3u32 {
                for cited in 0..=marker_count.min(chunk_count as u32) {
                    let t = Tally {
                        marker_count,
                        out_of_range: marker_count - cited,
                        cited: (1..=cited).collect(),
                        ..Tally::default()
                    };
                    let v = verdict(observed, chunk_count, &t);
                    let refused = require_citation_refuses(observed, chunk_count, &t);
                    assert_eq!(
                        refused,
                        v == Verdict::NoMarker,
                        "{observed} {chunk_count} {t:?} → {v:?}"
                    );
                    if v == Verdict::OrphanMarker {
                        assert!(!refused);
                    }
                }
            }
        }
    }
}

#[test]
fn require_citation_on_graded_rows() {
    // A malformed marker is no citation: refused.
    assert!(row_refused(&reply("see [kb-1]", 2)));
    assert!(row_refused(&reply("no marker", 2)));
    // Hallucinated but well-formed: let through.
    let orphan = reply("see [KB-9]", 2);
    assert_eq!(orphan.verdict, Verdict::OrphanMarker);
    assert!(!row_refused(&orphan));
    assert!(!row_refused(&reply("see [KB-1]", 2)));
    // No retrieval: passes.
    assert!(!row_refused(&reply("hello", 0)));
    assert!(!row_refused(&reply("see [KB-1]", 0)));
}

/// An `orphan_marker` row names the first marker that resolved to no chunk,
/// as written, whether the reply was scanned raw, decoded, or is a
/// citation list; no other verdict carries one.
#[test]
fn an_orphan_names_the_marker_it_invented() {
    let r = reply("See [KB-1] and [KB-9], then [KB-12].", 0);
    assert_eq!(r.verdict, Verdict::OrphanMarker);
    assert_eq!(r.invented_marker.as_deref(), Some("[KB-1]"));
    let r = reply("See [KB-9] and [KB-12].", 2);
    assert_eq!(r.invented_marker.as_deref(), Some("[KB-9]"));
    // Partial and plain ok turns name none.
    assert_eq!(reply("See [KB-1] and [KB-9].", 2).invented_marker, None);
    assert_eq!(reply("no marker", 2).invented_marker, None);
    // Raw JSON text, and text that must be decoded first (a `\u` escape).
    for raw in [r#""cites [KB-7] here""#, r#""caf\u00e9 [KB-7]\n""#] {
        let t = turn(Answer::Reply(Reply::json(raw)), chunks(&[None, None]));
        let r = grade(t, &Grammar::default());
        assert_eq!(r.invented_marker.as_deref(), Some("[KB-7]"), "{raw}");
    }
    let r = citations(vec![Some(1), Some(5)], 0);
    assert_eq!(r.invented_marker.as_deref(), Some("citations[0].index=1"));
    let r = citations(vec![None, Some(5)], 2);
    assert_eq!(r.invented_marker.as_deref(), Some("citations[1].index=5"));
    // A long regex match is cut.
    let g = Grammar::regex(r"<<(\d+)[^>]*>>", 1).unwrap();
    let long = format!("<<9{}>>", "x".repeat(100));
    let t = turn(
        Answer::Reply(Reply::Text(Cow::Owned(long))),
        chunks(&[None]),
    );
    let label = grade(t, &g).invented_marker.unwrap();
    assert_eq!(label.chars().count(), crate::model::MARKER_LABEL_CHARS + 1);
    assert!(label.ends_with('…'), "{label}");
}

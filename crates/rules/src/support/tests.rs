use super::*;
use crate::model::{Chunk, CitationIndex, Cite, Id, MarkersFrom, Reply, Texts};
use chrono::TimeZone;
use std::borrow::Cow;

fn turn(answer: Answer<'static>, chunks: usize, texts: Texts<'static>) -> Turn<'static> {
    Turn {
        turn_id: Id::string("t".to_owned()),
        agent_id: Cow::Borrowed("a"),
        conversation_id: None,
        channel: Cow::Borrowed(""),
        created_at: chrono::Utc.timestamp_opt(0, 0).unwrap(),
        answer,
        chunks: (1..=chunks as u32)
            .map(|index| Chunk {
                index,
                document_id: None,
                chunk_id: None,
                score: None,
            })
            .collect(),
        tool_calls: 0,
        tool_errors: 0,
        model: None,
        tokens_used: None,
        cost_cents: None,
        latency_ms: None,
        markers: None,
        texts,
        evidence: None,
    }
}

fn text(t: &'static str) -> Option<Reply<'static>> {
    Some(Reply::Text(Cow::Borrowed(t)))
}

#[test]
fn coverage_counts_sentences_with_a_resolving_marker() {
    let reply =
        "Ruby came out in 1995 [KB-1]. It is fun. See [KB-9].\n\nHere is more:\n- fast [KB-2]";
    let t = turn(
        Answer::Reply(Reply::Text(Cow::Borrowed(reply))),
        2,
        Texts::default(),
    );
    let a = analyse(&t, &Grammar::default());
    assert_eq!((a.counts.sentences, a.counts.cited_sentences), (4, 2));
    assert_eq!(a.counts.hints, 0, "no chunk text, no hint");
}

#[test]
fn hints_need_the_text_of_every_cited_chunk() {
    let reply = "Ruby came out in 1996 [KB-1]. It has 3 creators [KB-1][KB-2].";
    let t = turn(
        Answer::Reply(Reply::Text(Cow::Borrowed(reply))),
        2,
        Texts {
            chunks: vec![text("Ruby was released in 1995 by 3 people."), None],
            ..Texts::default()
        },
    );
    let a = analyse_kinds(&t, &Grammar::default(), &HintKind::ALL);
    assert_eq!(a.counts.hints, 1);
    assert_eq!(a.hints[0].value, "1996");
    assert_eq!(a.hints[0].kind, HintKind::Year);
    let shipped = analyse(&t, &Grammar::default());
    assert_eq!(
        shipped.counts.hints,
        u32::from(hints::SHIPPED.contains(&HintKind::Year))
    );
    assert_eq!(a.hints[0].sentence, (0, 29));
}

#[test]
fn structured_citations_check_quotes_spans_and_offsets() {
    let answer = "Ruby is from 1995. Matz made it.";
    let t = turn(
        Answer::Citations(
            vec![
                CitationIndex::Index(1),
                CitationIndex::Index(1),
                CitationIndex::Index(3),
            ],
            MarkersFrom::Provider(crate::model::Provider::named("anthropic")),
        ),
        1,
        Texts {
            chunks: vec![text("Ruby was first released in 1995.\r\nIt was ﬁne.")],
            answer: Some(Cow::Borrowed(answer)),
            cites: vec![
                Cite {
                    span: Some((0, 18)),
                    quote: Some("released in 1995.".into()),
                    quote_at: Some((15, 32)),
                    ..Cite::default()
                },
                Cite {
                    span: Some((19, 32)),
                    quote: Some("1995. It was fine.".into()),
                    span_text: Some("Matz made it!".into()),
                    ..Cite::default()
                },
                Cite {
                    span: Some((19, 32)),
                    quote: Some("anything".into()),
                    ..Cite::default()
                },
            ],
        },
    );
    let a = analyse(&t, &Grammar::default());
    let quotes: Vec<_> = a.cites.iter().map(|c| c.quote).collect();
    assert_eq!(
        quotes,
        [Some(QuoteCheck::Exact), Some(QuoteCheck::Normalised), None]
    );
    let offsets: Vec<_> = a.cites.iter().map(|c| c.offsets_match).collect();
    assert_eq!(offsets, [Some(true), Some(false), None]);
    assert_eq!((a.counts.sentences, a.counts.cited_sentences), (2, 2));
    assert_eq!(a.counts.offsets_mismatched, 1);
}

#[test]
fn an_absent_quote_is_counted() {
    let t = turn(
        Answer::Citations(
            vec![CitationIndex::Index(1)],
            MarkersFrom::Provider(crate::model::Provider::named("anthropic")),
        ),
        1,
        Texts {
            chunks: vec![text("Ruby was first released in 1995.")],
            answer: Some(Cow::Borrowed("Ruby is old.")),
            cites: vec![Cite {
                quote: Some("released in 1996".into()),
                ..Cite::default()
            }],
        },
    );
    let a = analyse(&t, &Grammar::default());
    assert_eq!(a.counts.quotes_absent, 1);
    assert_eq!(a.counts.quotes_fabricated, 1);
    assert_eq!(
        (a.counts.sentences, a.counts.cited_sentences),
        (1, 0),
        "no span: nothing placed"
    );
}

#[test]
fn a_quote_from_another_chunk_is_misattributed_and_names_it() {
    let t = turn(
        Answer::Citations(
            vec![CitationIndex::Index(1), CitationIndex::Index(1)],
            MarkersFrom::Provider(crate::model::Provider::named("anthropic")),
        ),
        3,
        Texts {
            chunks: vec![
                text("Ruby was first released in 1995."),
                None,
                text("Python was first released in 1991 by Guido van Rossum."),
            ],
            answer: Some(Cow::Borrowed("Python is older.")),
            cites: vec![
                Cite {
                    quote: Some("released in 1991 by Guido".into()),
                    ..Cite::default()
                },
                Cite {
                    quote: Some("Ruby was first released in 1991 by Guido van Rossum".into()),
                    ..Cite::default()
                },
            ],
        },
    );
    let a = analyse(&t, &Grammar::default());
    let got: Vec<_> = a.cites.iter().map(|c| c.quote).collect();
    assert_eq!(
        got,
        [
            Some(QuoteCheck::Misattributed(3)),
            Some(QuoteCheck::Stitched)
        ]
    );
    assert_eq!(
        (
            a.counts.quotes_absent,
            a.counts.quotes_misattributed,
            a.counts.quotes_stitched
        ),
        (2, 1, 1)
    );
}

#[test]
fn an_inline_quotation_is_checked_against_the_chunks_its_markers_cite() {
    let reply = "It says \"refunds are issued within 30 days\" [KB-2][KB-1] and \"nothing is ever refunded here\" [KB-1].";
    let t = turn(
        Answer::Reply(Reply::Text(Cow::Borrowed(reply))),
        2,
        Texts {
            chunks: vec![
                text("Shipping is free."),
                text("Refunds are issued within 30 days."),
            ],
            ..Texts::default()
        },
    );
    let a = analyse(&t, &Grammar::default());
    let got: Vec<_> = a
        .quotes
        .iter()
        .map(|q| (q.chunks.clone(), q.check))
        .collect();
    assert_eq!(
        got,
        [
            (vec![1, 2], Some(QuoteCheck::Normalised)),
            (vec![1], Some(QuoteCheck::Fabricated))
        ]
    );
    assert_eq!(a.quotes[0].text, "refunds are issued within 30 days");
    assert_eq!(a.quotes[0].span, (9, 42));
}

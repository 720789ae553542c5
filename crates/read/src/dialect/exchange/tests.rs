use super::recorded::as_body;
use super::*;
use serde_json::json;

fn line(req: Value, resp: Value) -> String {
    json!({"id": "t", "created_at": "2026-01-01T00:00:00Z", "agent_id": "a",
           "request": req, "response": resp})
    .to_string()
}

#[test]
fn sniff_wants_request_and_response() {
    let l = line(json!({}), json!({"type": "message", "content": []}));
    assert!(sniff(format!("{l}\n").as_bytes()));
    assert!(sniff(l.as_bytes()));
    assert!(!sniff(
        b"{\"turn_id\":\"t\",\"reply\":\"request response\"}\n"
    ));
    assert!(!sniff(b"[1,2]\n"));
}

#[test]
fn positions_resolve_or_fall_outside() {
    assert_eq!(at(Some(&json!(1)), 2, 3), CitationIndex::Index(4));
    assert_eq!(at(Some(&json!(3)), 2, 3), CitationIndex::OutOfRange);
    assert_eq!(at(Some(&json!(-1)), 0, 3), CitationIndex::OutOfRange);
    assert_eq!(at(Some(&json!("1")), 0, 3), CitationIndex::Malformed);
    assert_eq!(at(None, 0, 3), CitationIndex::Malformed);
}

/// `document_index` counts document blocks only: a document after a text
/// block is still document 0, and search results come after documents.
#[test]
fn anthropic_indexes_count_their_own_blocks() {
    let req = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "q"},
        {"type": "document", "source": {"type": "text", "data": "d"}},
        {"type": "tool_result", "content": [{"type": "search_result", "source": "s", "title": "t",
                                             "content": [{"type": "text", "text": "x"}]}]}]}]});
    let resp = json!({"type": "message", "content": [{"type": "text", "text": "a", "citations": [
        {"type": "char_location", "document_index": 0},
        {"type": "search_result_location", "search_result_index": 0},
        {"type": "search_result_location", "search_result_index": 1}]}]});
    let f = read(&req, &resp).unwrap();
    assert_eq!(f.from.as_str(), "anthropic");
    assert_eq!(f.chunks.len(), 2);
    assert_eq!(
        f.citations,
        [
            CitationIndex::Index(1),
            CitationIndex::Index(2),
            CitationIndex::OutOfRange
        ]
    );
}

/// A citation may arrive before its block's text; the stream adds up to
/// the same citations as the body.
#[test]
fn anthropic_stream_citation_before_text() {
    let events = json!([
        {"type": "message_start", "message": {"type": "message", "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "", "citations": []}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "citations_delta",
            "citation": {"type": "char_location", "document_index": 0}}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a"}}
    ]);
    let body = anthropic::from_events(events.as_array().unwrap());
    assert_eq!(body["content"][0]["text"], "a");
    assert_eq!(body["content"][0]["citations"][0]["document_index"], 0);
}

#[test]
fn unknown_shapes_are_invalid_lines() {
    let l = line(json!({}), json!({"hello": 1}));
    let mut out = Vec::new();
    let mut w = Warnings::default();
    assert!(matches!(
        EXCHANGE.parse_line(&l, &mut out, &mut w),
        Parsed::Invalid(_)
    ));
    // The reason names every provider read, from their rows; a chat
    // completion without citations is OpenAI's, never Perplexity's.
    let reason = read(&json!({}), &json!({"hello": 1})).unwrap_err();
    for r in READERS {
        assert!(reason.contains(r.shown), "{reason}");
    }
    let completion = json!({"choices": [{"message": {"role": "assistant", "content": "x"}}]});
    assert_eq!(
        read(&json!({}), &completion).unwrap().from,
        openai::PROVIDER
    );
    let no_time = l.replace("2026-01-01T00:00:00Z", "yesterday");
    assert!(matches!(
        EXCHANGE.parse_line(&no_time, &mut out, &mut w),
        Parsed::Invalid(_)
    ));
}

fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
            out.push(p.clone());
            pointers(x, p, out);
        }),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
            let p = format!("{at}/{i}");
            out.push(p.clone());
            pointers(x, p, out);
        }),
        _ => {}
    }
}

/// Any value of any type at any place of every fixture line reads as a
/// turn or an invalid line, never a panic.
#[test]
fn any_value_anywhere_never_panics() {
    let fixture = include_str!("../../../../../fixtures/exchange/providers.jsonl");
    let odd = [
        json!(null),
        json!(u64::MAX),
        json!(-1),
        json!(1e300),
        json!("x"),
        json!([]),
        json!({}),
        json!([[null]]),
    ];
    for line in fixture.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let mut paths = Vec::new();
        pointers(&v, String::new(), &mut paths);
        for p in &paths {
            for o in &odd {
                let mut w = v.clone();
                *w.pointer_mut(p).unwrap() = o.clone();
                let _ = turn(&w.to_string());
                let _ = EXCHANGE.extras(&w.to_string());
            }
        }
    }
}

/// The answer text and each citation's place, for the support checks.
fn placed(req: Value, resp: Value) -> (Option<String>, Vec<Cite>) {
    let f = read(&req, &resp).unwrap();
    assert_eq!(f.cites.len(), f.citations.len());
    (f.answer, f.cites)
}

/// Gemini's segment offsets are UTF-8 bytes (`startIndex` left out when
/// 0): turned into characters of the concatenated parts.
#[test]
fn gemini_bytes_become_characters() {
    let resp = json!({"candidates": [{"content": {"parts": [{"text": "Café "}, {"text": "é bom. Sim."}]},
        "groundingMetadata": {"groundingChunks": [{"web": {"uri": "u"}}],
        "groundingSupports": [
            {"segment": {"endIndex": 13, "text": "Café é bom."}, "groundingChunkIndices": [0]},
            {"segment": {"startIndex": 14, "endIndex": 18, "text": "Sim."}, "groundingChunkIndices": [0, 0]},
            {"segment": {"startIndex": 4, "endIndex": 5}, "groundingChunkIndices": [0]}]}}]});
    let (answer, cites) = placed(json!({}), resp);
    assert_eq!(answer.as_deref(), Some("Café é bom. Sim."));
    assert_eq!(cites[0].span, Some((0, 11)));
    assert_eq!(cites[0].span_text.as_deref(), Some("Café é bom."));
    assert_eq!(cites[1].span, Some((12, 16)));
    assert_eq!(cites[1], cites[2]);
    // Byte 4 is inside `é`: a place past the end, never a silent fix.
    assert_eq!(cites[3].span, Some((17, 4)));
}

/// RetrieveAndGenerate's span end is inclusive in the body and exclusive
/// in the stream.
#[test]
fn bedrock_span_ends_by_convention() {
    let cite = |end: u64| {
        json!({"generatedResponsePart": {"textResponsePart": {"text": "Alpha.", "span": {"start": 0, "end": end}}},
               "retrievedReferences": [{"content": {"text": "Alpha."}, "location": {"type": "S3", "s3Location": {"uri": "s3://a"}}}]})
    };
    let body = json!({"output": {"text": "Alpha. Beta."}, "citations": [cite(5)]});
    let (answer, cites) = placed(json!({}), body);
    assert_eq!(answer.as_deref(), Some("Alpha. Beta."));
    assert_eq!(cites[0].span, Some((0, 6)));
    let frame =
        |kind: &str, payload: Value| json!({"headers": {":event-type": kind}, "payload": payload});
    let stream = json!({"events": [frame("output", json!({"text": "Alpha."})),
        frame("output", json!({"text": " Beta."})), frame("citation", json!({"citation": cite(6)}))]});
    let (answer, cites) = placed(json!({}), stream);
    assert_eq!(answer.as_deref(), Some("Alpha. Beta."));
    assert_eq!(cites[0].span, Some((0, 6)));
}

/// An Anthropic citation spans its text block within the concatenated
/// answer; `char_location` offsets place its quote in the document, and
/// a search result's blocks place it in the result's joined text.
#[test]
fn anthropic_spans_are_blocks_and_quotes_sit_in_documents() {
    let req = json!({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "data": "Ruby is from 1995."}},
        {"type": "tool_result", "content": [{"type": "search_result", "source": "s", "title": "t",
            "content": [{"type": "text", "text": "One."}, {"type": "text", "text": "Two ﬁne."}]}]}]}]});
    let resp = json!({"type": "message", "content": [
        {"type": "text", "text": "Ruby "},
        {"type": "text", "text": "is from 1995.", "citations": [
            {"type": "char_location", "document_index": 0, "cited_text": "from 1995.",
             "start_char_index": 8, "end_char_index": 18}]},
        {"type": "text", "text": " Two.", "citations": [
            {"type": "search_result_location", "search_result_index": 0, "cited_text": "Two fine.",
             "start_block_index": 1, "end_block_index": 2}]}]});
    let f = read(&req, &resp).unwrap();
    assert_eq!(f.answer.as_deref(), Some("Ruby is from 1995. Two."));
    assert_eq!(f.cites[0].span, Some((5, 18)));
    assert_eq!(f.cites[0].quote_at, Some((8, 18)));
    assert_eq!(f.cites[1].span, Some((18, 23)));
    assert_eq!(f.cites[1].quote_at, Some((5, 13)));
    let texts = f.texts();
    assert_eq!(
        texts.chunks[1].as_ref().map(|r| r.decoded().into_owned()),
        Some("One.\nTwo ﬁne.".to_owned())
    );
    // The quote folds the ligature: `normalised`, not `absent`.
    let chunk = texts.chunks[1].as_ref().unwrap().decoded();
    assert_eq!(
        crate::support::quote::check("Two fine.", &chunk),
        Some(crate::support::quote::QuoteCheck::Normalised)
    );
}

/// Cohere v2's `content_index` names the text part its offsets count in
/// (a thinking part before it is no part of the answer); without one,
/// the first text part. A citation naming two sources is two citations
/// with one span.
#[test]
fn cohere_offsets_count_in_their_part() {
    let req = json!({"documents": [{"id": "a", "data": {"text": "x"}}, {"id": "b", "data": {"text": "y"}}]});
    let resp = json!({"message": {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "It is green."}],
        "citations": [{"start": 6, "end": 12, "text": "green.", "content_index": 1,
            "sources": [{"type": "document", "id": "a"}, {"type": "document", "id": "b"}]}]}});
    let (answer, cites) = placed(req.clone(), resp.clone());
    assert_eq!(answer.as_deref(), Some("It is green."));
    assert_eq!(cites.len(), 2);
    assert_eq!(cites[0], cites[1]);
    assert_eq!(cites[0].span, Some((6, 12)));
    let mut bare = resp;
    bare["message"]["citations"][0]
        .as_object_mut()
        .unwrap()
        .remove("content_index");
    assert_eq!(placed(req, bare).1[0].span, Some((6, 12)));
}

/// Perplexity's markers are its spans; OpenAI's `file_citation` is a
/// point, its `url_citation` a range, counted in the joined text parts.
#[test]
fn markers_and_annotations_place_their_citations() {
    let resp =
        json!({"citations": ["u1", "u2"], "choices": [{"message": {"content": "Ça va [2]."}}]});
    assert_eq!(placed(json!({}), resp).1[0].span, Some((6, 9)));
    let resp = json!({"object": "response", "output": [{"type": "message", "content": [
        {"type": "output_text", "text": "First.", "annotations": []},
        {"type": "output_text", "text": "Second.", "annotations": [
            {"type": "file_citation", "file_id": "f", "index": 6},
            {"type": "url_citation", "url": "u", "start_index": 0, "end_index": 6}]}]}]});
    let (answer, cites) = placed(json!({}), resp);
    assert_eq!(answer.as_deref(), Some("First.\n\nSecond."));
    assert_eq!(cites[0].span, Some((14, 14)));
    assert_eq!(cites[1].span, Some((8, 14)));
}

#[test]
fn a_line_may_cite_when_it_names_a_citation_key_quoted_or_escaped() {
    for yes in [
        r#"{"outputs":{"content":[{"citations":[]}]}}"#,
        r#"{"output":"{\"annotations\":[]}"}"#,
        r#"{"candidates":[{"groundingMetadata":{"groundingSupports":[]}}]}"#,
        r#"{"citations":[{"retrievedReferences":[]}]}"#,
    ] {
        assert!(may_cite(yes.as_bytes()), "{yes}");
    }
    for no in [
        r#"{"outputs":{"text":"the limitations and expectations of refunds"}}"#,
        r#"{"outputs":{"text":"no cites"}}"#,
        "",
    ] {
        assert!(!may_cite(no.as_bytes()), "{no}");
    }
    assert!(may_give_documents(br#"{"content":[{"type":"document"}]}"#));
    assert!(may_give_documents(
        br#"{"toolResult":{"content":[{"searchResult":{}}]}}"#
    ));
    assert!(!may_give_documents(
        br#"{"messages":[{"role":"user","content":"hi"}]}"#
    ));
}

#[test]
fn recorded_output_items_read_as_the_response_they_came_from() {
    let item = json!({"type": "message", "role": "assistant",
        "content": [{"type": "output_text", "text": "Paris.", "annotations": []}]});
    let wrapped = json!({"object": "response", "output": [item.clone()]});
    assert_eq!(as_body(json!([item.clone()])), Some(wrapped.clone()));
    assert_eq!(as_body(item), Some(wrapped));
    // An Anthropic message (text blocks) and any other body stay as they are.
    let anthropic = json!({"type": "message", "content": [{"type": "text", "text": "x"}]});
    assert_eq!(as_body(anthropic.clone()), Some(anthropic));
    assert_eq!(as_body(json!([1, 2])), None);
    assert_eq!(as_body(json!("text")), None);
}

/// Any whole-number index past the chunks is out of range, however it is
/// spelled (2^64 and 1e300 parse as floating point); a fraction is
/// malformed.
#[test]
fn whole_number_indices_past_the_chunks_are_out_of_range() {
    use crate::model::CitationIndex::*;
    let at = |v: Value| super::at(Some(&v), 0, 3);
    let big: Value = serde_json::from_str("18446744073709551616").unwrap();
    assert_eq!(at(big), OutOfRange);
    assert_eq!(at(json!(1e300)), OutOfRange);
    assert_eq!(at(json!(u64::MAX)), OutOfRange);
    assert_eq!(at(json!(-1)), OutOfRange);
    assert_eq!(at(json!(2.0)), Index(3));
    assert_eq!(at(json!(0.5)), Malformed);
    assert_eq!(at(json!("0")), Malformed);
}

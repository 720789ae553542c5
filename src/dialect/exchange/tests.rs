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
    assert_eq!(f.from, MarkersFrom::Anthropic);
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
    let fixture = include_str!("../../../fixtures/exchange/providers.jsonl");
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

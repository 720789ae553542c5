//! LLM spans that recorded their provider's request and response bodies
//! (OpenInference's instrumentors write `input.value` and `output.value`
//! as JSON): the provider's structured citations grade the turn.

use super::*;
use crate::grade::grade;
use crate::markers::{Grammar, Preset};
use crate::model::{CitationIndex, MarkersFrom, Verdict};
use serde_json::{Value, json};

fn span(id: &str, parent: Option<&str>, kind: &str, start: u32, attrs: Value) -> String {
    json!({
        "name": format!("{kind}-{id}"),
        "context": {"trace_id": "t", "span_id": id},
        "span_kind": kind,
        "parent_id": parent,
        "start_time": format!("2026-01-01T00:00:00.{start:03}000+00:00"),
        "end_time": format!("2026-01-01T00:00:00.{:03}000+00:00", start + 50),
        "status_code": "OK",
        "attributes": attrs,
    })
    .to_string()
}

/// A retriever returning `a` and `b`, then an Anthropic call given two
/// documents whose response cites `document_index` `cite` (none: the
/// response cites nothing and its text carries `[1]`).
fn trace(cite: Option<u64>) -> Trace {
    trace_with(cite, true)
}

/// [`trace`], its call's input recorded or hidden (OpenInference's
/// `OPENINFERENCE_HIDE_INPUTS` writes `__REDACTED__`).
fn trace_with(cite: Option<u64>, input_recorded: bool) -> Trace {
    let request = json!({"model": "claude-x", "messages": [{"role": "user", "content": [
        {"type": "document", "title": "Alpha", "source": {"type": "text", "data": "Alpha is 3."}},
        {"type": "document", "title": "Beta", "source": {"type": "text", "data": "Beta is 4."}},
        {"type": "text", "text": "What is Beta?"}]}]});
    let citations: Vec<Value> = cite
        .map(|i| {
            json!({"type": "char_location", "document_index": i, "document_title": "Beta",
                        "cited_text": "Beta is 4.", "start_char_index": 0, "end_char_index": 10})
        })
        .into_iter()
        .collect();
    let text = if cite.is_some() {
        "Beta is 4."
    } else {
        "Beta is 4 [1]."
    };
    let response = json!({"type": "message", "role": "assistant", "model": "claude-x",
        "content": [{"type": "text", "text": text, "citations": citations}]});
    let lines = [
        span("root", None, "CHAIN", 0, json!({})),
        span(
            "r",
            Some("root"),
            "RETRIEVER",
            10,
            json!({
            "retrieval.documents.0.document.id": "a", "retrieval.documents.0.document.content": "x",
            "retrieval.documents.1.document.id": "b", "retrieval.documents.1.document.content": "y"}),
        ),
        span(
            "llm",
            Some("root"),
            "LLM",
            100,
            json!({
            "input.value": if input_recorded { request.to_string() } else { "__REDACTED__".into() },
            "input.mime_type": "application/json",
            "output.value": response.to_string(), "output.mime_type": "application/json"}),
        ),
    ];
    let mut spans = Vec::new();
    for l in lines {
        parse_line(&PHOENIX_JSONL, l.as_bytes(), &mut spans).unwrap();
    }
    assemble_boxed("t", spans, &AssembleOptions::default())
}

fn numeric() -> Grammar {
    Grammar::Preset(Preset::Numeric)
}

#[test]
fn a_resolving_citation_grades_by_the_documents_the_call_was_given() {
    let t = trace(Some(1));
    let turn = t.turn();
    assert!(matches!(
        &turn.answer,
        crate::model::Answer::Citations(c, MarkersFrom::Provider(p)) if c == &[CitationIndex::Index(2)] && p.as_str() == "anthropic"
    ));
    assert_eq!(turn.texts.answer.as_deref(), Some("Beta is 4."));
    assert_eq!(turn.model.as_deref(), Some("claude-x"), "the call's model");
    let row = grade(turn, &numeric());
    assert_eq!(row.verdict, Verdict::Ok);
    assert_eq!(row.cited_chunks, vec![2]);
    let docs: Vec<_> = row
        .chunks
        .iter()
        .map(|c| c.document_id.as_ref().map(|d| d.as_str().to_owned()))
        .collect();
    assert_eq!(docs, [Some("Alpha".to_owned()), Some("Beta".to_owned())]);
    assert_eq!(
        t.chunk_texts(),
        [Some("Alpha is 3.".into()), Some("Beta is 4.".into())]
    );
    let notes = t.notes().join("\n");
    assert!(
        notes.contains("anthropic messages: 1 citation(s)"),
        "{notes}"
    );
    assert!(
        notes.contains("not used: the answering LLM call's citations"),
        "{notes}"
    );
    assert_eq!(t.evidence()["chunk_rule"], "provider");
}

#[test]
fn a_citation_outside_what_was_given_is_an_orphan() {
    let t = trace(Some(2));
    let row = grade(t.turn(), &numeric());
    assert_eq!(row.verdict, Verdict::OrphanMarker);
    assert_eq!(row.out_of_range_markers, 1);
}

#[test]
fn a_call_that_cites_nothing_leaves_the_reply_text_to_its_markers() {
    let t = trace(None);
    let row = grade(t.turn(), &numeric());
    assert_eq!(row.verdict, Verdict::Ok);
    assert_eq!(row.markers_from, Some(MarkersFrom::Reply));
    assert_eq!(row.cited_chunks, vec![1]);
    assert_eq!(t.evidence()["chunk_rule"], "last");
}

/// With the call's input hidden, the documents it was given are unknown:
/// its citations cannot be told orphans, and the reply text is graded.
#[test]
fn a_hidden_request_never_makes_orphans() {
    let t = trace_with(Some(1), false);
    let row = grade(t.turn(), &numeric());
    assert_eq!(row.verdict, Verdict::NoMarker);
    assert_eq!(row.markers_from, Some(MarkersFrom::Reply));
    assert_eq!(t.evidence()["chunk_rule"], "last");
}

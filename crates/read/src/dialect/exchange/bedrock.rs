//! Bedrock Agent Runtime RetrieveAndGenerate: `citations[].retrievedReferences[]`;
//! and InvokeAgent's stream, which adds up to the same body: the `chunk`
//! frames' answer (`bytes`, base64) and `attribution.citations`, with the
//! references every knowledge-base lookup of its `trace` frames retrieved
//! as the chunks, cited or not (span ends inclusive, as in the body).
//!
//! Chunks are the references the response returned, each once (the same
//! content at the same location is one chunk), in order of first mention; a
//! citation cites each of its references, and a citation that names no
//! reference cites nothing (out of range). `span` offsets point into the
//! answer (`end` inclusive in the body, exclusive in the stream) and do not
//! change which chunk is cited.
//!
//! The answer is `output.text` (a stream's `output` frames, concatenated);
//! a citation's span is `generatedResponsePart.textResponsePart.span`, its
//! end made exclusive by the convention of the body or the stream (never
//! by matching the text), with `textResponsePart.text` the text it says
//! the span holds.

use super::{Found, Reader, Source, arr, offset, owned, text};
use crate::model::{CitationIndex, Cite, Provider};
use serde_json::{Value, json};

/// This reader's provider: its name in every output (`markers_from`).
pub(super) const PROVIDER: Provider = Provider::named("bedrock");

/// This provider as the exchange dialect reads it.
pub(super) const READER: Reader = Reader {
    provider: PROVIDER,
    shown: "Bedrock RetrieveAndGenerate and Converse",
    read,
    from_events,
    last_event: None,
    is_body,
    is_event,
};

/// A RetrieveAndGenerate response (its `citations` and `output`, or a
/// request with its configuration), a Converse response, or their
/// streams' events by their `:event-type` header.
fn is_body(req: &Value, resp: &Value) -> bool {
    resp.get("citations").is_some() && resp.get("output").is_some()
        || req.get("retrieveAndGenerateConfiguration").is_some()
        || resp.pointer("/output/message").is_some()
}

fn is_event(e: &Value) -> bool {
    matches!(
        e.pointer("/headers/:event-type").and_then(Value::as_str),
        Some("output" | "citation" | "messageStart" | "contentBlockDelta" | "chunk")
    )
}

fn reference(r: &Value) -> Source {
    let loc = r.get("location").unwrap_or(&Value::Null);
    let doc = loc
        .pointer("/s3Location/uri")
        .or(loc.pointer("/customDocumentLocation/id"))
        .or(loc.pointer("/webLocation/url"))
        .or(loc.pointer("/confluenceLocation/url"))
        .or(loc.pointer("/salesforceLocation/url"))
        .or(loc.pointer("/sharePointLocation/url"))
        .or(loc.pointer("/kendraDocumentLocation/uri"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Source {
        doc,
        id: r
            .pointer("/metadata/x-amz-bedrock-kb-chunk-id")
            .and_then(Value::as_str)
            .map(str::to_owned),
        text: r.get("content").and_then(|c| text(c, "text")),
        ..Source::default()
    }
}

/// Reads a RetrieveAndGenerate or Converse body (`streamed`: the body a
/// stream adds up to, whose span ends are exclusive).
pub(super) fn read(req: &Value, resp: &Value, streamed: bool) -> Found {
    if resp.pointer("/output/message").is_some() {
        return super::converse::read(req, resp);
    }
    let agent = resp.get(INVOKE_AGENT).is_some();
    let api = if agent {
        "InvokeAgent"
    } else {
        "RetrieveAndGenerate"
    };
    let mut found = Found::new(PROVIDER, api);
    found.answer = resp.get("output").and_then(|o| text(o, "text"));
    for r in arr(resp.get(INVOKE_AGENT)) {
        let s = reference(r);
        if !found.chunks.contains(&s) {
            found.chunks.push(s);
        }
    }
    let streamed = streamed && !agent;
    for c in arr(resp.get("citations")) {
        let part = c
            .pointer("/generatedResponsePart/textResponsePart")
            .unwrap_or(&Value::Null);
        let span = part.get("span").unwrap_or(&Value::Null);
        let end = usize::from(!streamed);
        let place = Cite {
            span: offset(span, "start")
                .zip(offset(span, "end"))
                .filter(|_| found.answer.is_some())
                .map(|(s, e)| (s, e.saturating_add(end))),
            span_text: owned(part, "text"),
            ..Cite::default()
        };
        let refs = arr(c.get("retrievedReferences"));
        if refs.is_empty() {
            found.cite(CitationIndex::OutOfRange, &place);
        }
        for r in refs {
            let s = reference(r);
            let pos = match found.chunks.iter().position(|c| *c == s) {
                Some(p) => p,
                None => {
                    found.chunks.push(s);
                    found.chunks.len() - 1
                }
            };
            found.cite(CitationIndex::Index(pos as u64 + 1), &place);
        }
    }
    found
}

/// The body a RetrieveAndGenerateStream adds up to: the `output` frames'
/// text and the `citation` frames' citations, in order (frames as decoded
/// from the AWS event stream: `{headers{":event-type"}, payload}`).
pub(super) fn from_events(events: &[Value]) -> Value {
    let rag = events.iter().any(|e| {
        matches!(
            e.pointer("/headers/:event-type").and_then(Value::as_str),
            Some("output" | "citation")
        )
    });
    if event_of(events, "chunk") {
        return invoke_agent(events);
    }
    if !rag {
        return super::converse::from_events(events);
    }
    let mut text = String::new();
    let mut citations = Vec::new();
    for e in events {
        let payload = e.get("payload").unwrap_or(&Value::Null);
        match e.pointer("/headers/:event-type").and_then(Value::as_str) {
            Some("output") => {
                text.push_str(payload.get("text").and_then(Value::as_str).unwrap_or(""))
            }
            Some("citation") => {
                if let Some(c) = payload.get("citation") {
                    citations.push(c.clone());
                }
            }
            _ => {}
        }
    }
    json!({"output": {"text": text}, "citations": citations})
}

/// The key of the body an InvokeAgent stream adds up to that holds the
/// references its knowledge-base lookups retrieved.
const INVOKE_AGENT: &str = "invokeAgentRetrievedReferences";

fn event_of(events: &[Value], kind: &str) -> bool {
    events
        .iter()
        .any(|e| e.pointer("/headers/:event-type").and_then(Value::as_str) == Some(kind))
}

/// The body an InvokeAgent stream adds up to: the answer of its `chunk`
/// frames, their citations, and every reference its traces' knowledge-base
/// lookups retrieved.
fn invoke_agent(events: &[Value]) -> Value {
    use base64::Engine as _;
    let mut text = String::new();
    let (mut citations, mut retrieved) = (Vec::new(), Vec::new());
    for e in events {
        let payload = e.get("payload").unwrap_or(&Value::Null);
        match e.pointer("/headers/:event-type").and_then(Value::as_str) {
            Some("chunk") => {
                let bytes = payload.get("bytes").and_then(Value::as_str).unwrap_or("");
                let decoded = base64::engine::general_purpose::STANDARD
                    .decode(bytes)
                    .unwrap_or_default();
                text.push_str(&String::from_utf8_lossy(&decoded));
                citations.extend(
                    arr(payload.pointer("/attribution/citations"))
                        .iter()
                        .cloned(),
                );
            }
            Some("trace") => {
                let lookup = "/trace/orchestrationTrace/observation/knowledgeBaseLookupOutput/retrievedReferences";
                retrieved.extend(arr(payload.pointer(lookup)).iter().cloned());
            }
            _ => {}
        }
    }
    json!({"output": {"text": text}, "citations": citations, INVOKE_AGENT: retrieved})
}

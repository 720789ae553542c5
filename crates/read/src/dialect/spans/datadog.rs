//! Datadog APM traces as the agent receives them and its test agent writes
//! them in snapshots: a JSON array of traces, each an array of spans
//! `{name, service, resource, trace_id, span_id, parent_id, start,
//! duration, error, meta, metrics}`. ddtrace's LLM integrations (LangChain,
//! Anthropic, OpenAI, Bedrock) keep what a call was given and returned as
//! flattened string tags: `langchain.request.inputs.question`,
//! `anthropic.response.completions.content.0.text`,
//! `langchain.response.document.2.page_content`.
//!
//! The reader only turns a span into a [`Span`]: ids, parent, times, and
//! the tags under `<integration>.request.` and `<integration>.response.`
//! folded back into two JSON values. What they hold decides the span's
//! role, whatever the integration: documents make a retrieval, completions
//! or choices an LLM call, a chain's `outputs` an answer, its `inputs` the
//! question. The tag `<integration>.request.type` names the kind when the
//! integration writes one.
//!
//! Choices: a trace is named by its `trace_id` as written (decimal, as the
//! Datadog UI shows it; a snapshot's `0`, `1` too), a `parent_id` of 0 is
//! no parent, and the span's `resource` (the class or operation called) is
//! its name. The agent is the span's `service`. ddtrace cuts long tags to
//! 128 characters and `...`, and writes a newline as `\n`: text is read as
//! written.

use super::json::{self, blank_span, reply_text};
use super::{Doc, Head, Reader, Recorded, Span, SpanFormat, SpanKind, clean_id_str, reason};
use crate::dialect::ShortId;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Datadog APM traces: an array of traces, each an array of spans with
/// `meta` and `metrics` (the agent payload, test-agent snapshots).
pub static DATADOG: SpanFormat = SpanFormat {
    name: "datadog",
    about: "Datadog APM traces (an array of traces, each an array of spans with meta and metrics)",
    claims: |h| h.is_array() && payload(h),
    document: |_| false,
    read: Reader {
        line: |line, out| parse(line.as_bytes(), &mut |_, s| out.push(Box::new(s))),
        pages: |data, sink| parse(data, sink).map(|()| false),
    },
};

/// True when an array's head is a Datadog payload: an array of arrays of
/// spans with `meta` or `metrics` and a `span_id`, or, written with sorted
/// keys (a span's `meta` then fills the head), `meta` and a `duration`.
fn payload(h: &Head<'_>) -> bool {
    let mut inner = h.line()[1..].iter().filter(|b| !b.is_ascii_whitespace());
    let tags = h.line_holds(b"\"meta\"") || h.line_holds(b"\"metrics\"");
    inner.next() == Some(&b'[')
        && inner.next() == Some(&b'{')
        && tags
        && (h.line_holds(b"\"span_id\"") || h.line_holds(b"\"duration\""))
}

/// One span as the agent payload spells it (ids as numbers or strings).
#[derive(Deserialize)]
struct Raw {
    name: Option<String>,
    service: Option<String>,
    resource: Option<String>,
    trace_id: Option<Value>,
    span_id: Option<Value>,
    parent_id: Option<Value>,
    start: Option<Value>,
    duration: Option<Value>,
    error: Option<Value>,
    #[serde(default)]
    meta: BTreeMap<String, Value>,
    #[serde(default)]
    metrics: BTreeMap<String, Value>,
}

/// Reads every top-level value of `data` (a payload of traces, one trace,
/// or one span per line) and hands each span with its byte offset to `sink`.
pub(super) fn parse(data: &[u8], sink: &mut dyn FnMut(usize, Span)) -> Result<(), String> {
    const WHAT: &str = "not a Datadog span";
    let stream = serde_json::Deserializer::from_slice(data).into_iter::<&RawValue>();
    for top in stream {
        let top = top.map_err(|e| reason(WHAT, &e))?;
        walk(data, top, 0, sink).map_err(super::cap_reason)?;
    }
    Ok(())
}

/// A value of the payload: an array of traces or of spans, or a span.
fn walk(
    data: &[u8],
    v: &RawValue,
    depth: u8,
    sink: &mut dyn FnMut(usize, Span),
) -> Result<(), String> {
    const WHAT: &str = "not a Datadog span";
    if v.get().starts_with('[') && depth < 2 {
        let items: Vec<&RawValue> = serde_json::from_str(v.get()).map_err(|e| reason(WHAT, &e))?;
        for (i, item) in items.into_iter().enumerate() {
            walk(data, item, depth + 1, sink).map_err(|e| format!("element {}: {e}", i + 1))?;
        }
        return Ok(());
    }
    let raw: Raw = serde_json::from_str(v.get()).map_err(|e| reason(WHAT, &e))?;
    sink(super::offset_in(data, v.get()), span(raw)?);
    Ok(())
}

/// An id written as a number or a string; `0` and blank are none.
fn id(v: Option<&Value>) -> Option<String> {
    let t = match v? {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => return None,
    };
    clean_id_str(&t).map(|c| c.into_owned())
}

/// A trace id: as [`id`], but a snapshot's trace `0` is a trace too.
fn trace_id(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Number(n) if n.as_u64() == Some(0) => Some("0".to_owned()),
        other => id(Some(other)),
    }
}

fn nanos(v: Option<&Value>) -> Option<i128> {
    match v? {
        Value::Number(n) => n.as_i64().map(i128::from),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn span(raw: Raw) -> Result<Span, String> {
    let trace = trace_id(raw.trace_id.as_ref()).ok_or("span without a trace id (`trace_id`)")?;
    let sid = id(raw.span_id.as_ref()).ok_or("span without a span id (`span_id`)")?;
    let mut s = blank_span(trace, sid);
    s.parent_id = id(raw.parent_id.as_ref()).map(ShortId::from);
    s.name = raw
        .resource
        .filter(|r| !r.is_empty())
        .or(raw.name)
        .unwrap_or_default();
    s.start_ns = nanos(raw.start.as_ref());
    s.end_ns = s
        .start_ns
        .zip(nanos(raw.duration.as_ref()))
        .map(|(a, d)| a + d);
    s.error = raw
        .error
        .as_ref()
        .is_some_and(|e| e.as_i64().is_some_and(|e| e != 0));
    s.error_type = raw.meta.get("error.type").and_then(json::text);
    s.agent_meta = raw.service.clone().filter(|x| !x.is_empty());
    s.service = raw.service.map(|x| x.into());
    let tags = Tags::of(&raw.meta);
    roles(&mut s, &tags);
    usage(&mut s, &raw.meta, &raw.metrics);
    Ok(s)
}

/// The request and response tags of one span, folded back into JSON.
struct Tags {
    kind: Option<String>,
    request: Value,
    response: Value,
}

impl Tags {
    fn of(meta: &BTreeMap<String, Value>) -> Tags {
        let mut request = Value::Object(Map::new());
        let mut response = Value::Object(Map::new());
        let mut kind = None;
        for (k, v) in meta {
            let Some((side, path)) = split(k) else {
                continue;
            };
            if side == Side::Request && path == "type" {
                kind = v.as_str().map(str::to_owned);
                continue;
            }
            let tree = match side {
                Side::Request => &mut request,
                Side::Response => &mut response,
            };
            insert(tree, path.split('.'), v.clone());
        }
        Tags {
            kind,
            request: arrays(request),
            response: arrays(response),
        }
    }
}

#[derive(PartialEq, Clone, Copy)]
enum Side {
    Request,
    Response,
}

/// `langchain.request.inputs.question` → (request, `inputs.question`).
fn split(key: &str) -> Option<(Side, &str)> {
    let (_, rest) = key.split_once('.')?;
    if let Some(p) = rest.strip_prefix("request.") {
        Some((Side::Request, p))
    } else {
        rest.strip_prefix("response.").map(|p| (Side::Response, p))
    }
}

/// Deepest path folded; deeper tags are left out.
const MAX_DEPTH: usize = 12;

fn insert<'a>(tree: &mut Value, path: impl Iterator<Item = &'a str>, v: Value) {
    let mut at = tree;
    let mut path = path.take(MAX_DEPTH).peekable();
    while let Some(seg) = path.next() {
        let Value::Object(m) = at else {
            return;
        };
        if path.peek().is_none() {
            // A value that is itself JSON, or a Python literal (`str(dict)`).
            let v = match &v {
                Value::String(t) if t.starts_with('{') || t.starts_with('[') => {
                    serde_json::from_str(t)
                        .ok()
                        .or_else(|| super::pyrepr::literal(t))
                        .unwrap_or(v)
                }
                _ => v,
            };
            m.insert(seg.to_owned(), v);
            return;
        }
        at = m
            .entry(seg.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
}

/// Objects whose keys are all list indexes become lists, in index order.
fn arrays(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let indexed = !m.is_empty() && m.keys().all(|k| k.parse::<u32>().is_ok());
            if indexed {
                let mut items: Vec<(u32, Value)> = m
                    .into_iter()
                    .map(|(k, v)| (k.parse().unwrap_or(0), arrays(v)))
                    .collect();
                items.sort_by_key(|(i, _)| *i);
                Value::Array(items.into_iter().map(|(_, v)| v).collect())
            } else {
                Value::Object(m.into_iter().map(|(k, v)| (k, arrays(v))).collect())
            }
        }
        other => other,
    }
}

/// The span's kind: the integration's word for it, else what its tags hold.
fn kind_of(t: &Tags) -> SpanKind {
    let named = t.kind.as_deref().and_then(|k| {
        Some(match k {
            "chain" => SpanKind::Chain,
            "llm" | "chat_model" | "completion" | "chat" => SpanKind::Llm,
            "similarity_search" | "retriever" | "retrieval" => SpanKind::Retriever,
            "embedding" => SpanKind::Embedding,
            "tool" => SpanKind::Tool,
            _ => return None,
        })
    });
    if let Some(k) = named {
        return k;
    }
    let has = |v: &Value, k: &str| v.get(k).is_some();
    if has(&t.response, "document") || has(&t.response, "documents") {
        SpanKind::Retriever
    } else if has(&t.response, "completions")
        || has(&t.response, "choices")
        || has(&t.request, "messages")
        || has(&t.request, "prompt")
        || has(&t.request, "prompts")
    {
        SpanKind::Llm
    } else {
        SpanKind::Chain
    }
}

/// The roles found in the span's tags: kind, question, answer, documents.
fn roles(s: &mut Span, t: &Tags) {
    s.kind = kind_of(t);
    let empty = |v: &Value| v.as_object().is_none_or(Map::is_empty);
    s.content_recorded = !empty(&t.response);
    match s.kind {
        SpanKind::Retriever => {
            let list = t.response.get("document").or(t.response.get("documents"));
            s.retrieval = list.cloned().as_ref().and_then(json::documents);
        }
        SpanKind::Llm => {
            s.llm_text = completion_text(&t.response);
            s.llm_text_key = "meta.*.response.completions";
            s.input_text = super::prompt::value_text_kept(&t.request, super::prompt::input_member);
            s.model = model_of(&t.request);
            s.retrieval = tool_results(&t.request);
        }
        SpanKind::Tool => s.tool_name = Some(s.name.clone()),
        _ => {
            let outputs = t.response.get("outputs").unwrap_or(&t.response);
            s.sources = sources_of(outputs);
            if let Some(text) = chain_answer(outputs, t.request.get("inputs")) {
                s.output = Some(text);
                s.output_mime = Some("text/plain".to_owned());
                s.output_key = "meta.*.response.outputs";
            }
        }
    }
    let input = match t.request.get("inputs") {
        Some(i) => i,
        None if s.kind == SpanKind::Llm => &t.request,
        None => t.request.get("query").unwrap_or(&Value::Null),
    };
    if (s.parent_id.is_none() || s.kind == SpanKind::Tool) && !input.is_null() {
        s.recorded = Recorded::of(json::recorded_text(&without_secrets(input)), None);
    }
}

/// The tool results a model call was given back (`messages.N.content.M.
/// tool_result.content.K.text`): what its answer stands on, as the
/// exchange reader takes a chat request's tool messages. None without any.
fn tool_results(req: &Value) -> Option<Vec<Doc>> {
    let blocks = req.get("messages")?.as_array()?.iter().flat_map(|m| {
        m.get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    });
    let docs: Vec<Doc> = blocks
        .filter_map(|b| b.get("tool_result")?.get("content"))
        .filter_map(|c| match c {
            // Text blocks, joined as an answer's are.
            Value::Array(_) => text_of(c, 0),
            other => json::text(other),
        })
        .map(|text| Doc {
            content: Some(text),
            ..Doc::default()
        })
        .collect();
    (!docs.is_empty()).then_some(docs)
}

/// A request as recorded, without the API key ddtrace keeps (masked).
fn without_secrets(v: &Value) -> Value {
    let mut v = v.clone();
    if let Value::Object(m) = &mut v {
        m.remove("api_key");
    }
    v
}

/// The text of an LLM response: the first completion or choice (LangChain
/// nests them as generations of prompts, `completions.0.0`), as its text,
/// its content text parts, or its message's content; or the text parts of
/// a single completion message (Anthropic).
fn completion_text(resp: &Value) -> Option<String> {
    ["completions", "choices"]
        .iter()
        .find_map(|k| text_of(resp.get(*k)?, 0))
        .or_else(|| reply_text(resp, "output").map(|(t, _)| t))
}

/// The text a completion holds, looked for at most a few levels down.
fn text_of(v: &Value, depth: u8) -> Option<String> {
    if depth > 4 {
        return None;
    }
    match v {
        Value::String(_) => json::text(v),
        Value::Array(items) => {
            // A list of parts is joined; a list of completions is its first.
            let parts: Vec<String> = items
                .iter()
                .filter(|p| p.get("type").is_some() || p.is_string())
                .filter_map(|p| text_of(p, depth + 1))
                .collect();
            if parts.is_empty() {
                items.first().and_then(|c| text_of(c, depth + 1))
            } else {
                Some(parts.join("\n"))
            }
        }
        Value::Object(m) => ["text", "content", "message"]
            .iter()
            .find_map(|k| text_of(m.get(*k)?, depth + 1)),
        _ => None,
    }
}

/// A chain's answer among its outputs: what it returned that it was not
/// given (LangChain chains echo their inputs among their outputs), the
/// `output_text` of a documents chain first, else the reply keys in order.
fn chain_answer(outputs: &Value, inputs: Option<&Value>) -> Option<String> {
    let mut own = outputs.clone();
    if let (Value::Object(o), Some(Value::Object(i))) = (&mut own, inputs) {
        o.retain(|k, v| i.get(k) != Some(v));
    }
    if let Some(t) = own.get("output_text").and_then(json::text) {
        return Some(t);
    }
    reply_text(&own, "output")
        .or_else(|| match &own {
            // One returned value left, under a name no reply key covers.
            Value::Object(m) if m.len() == 1 => {
                m.values().next().and_then(json::text).map(|t| (t, ""))
            }
            _ => None,
        })
        .map(|(t, _)| t)
}

/// The sources a chain named for its answer: `outputs.sources`, one
/// string of names separated by commas (LangChain's
/// `RetrievalQAWithSourcesChain`).
fn sources_of(outputs: &Value) -> Option<Vec<String>> {
    let names: Vec<String> = outputs
        .get("sources")?
        .as_str()?
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    (!names.is_empty()).then_some(names)
}

/// The model asked for: `model`, else a provider's `parameters.model_name`.
fn model_of(req: &Value) -> Option<String> {
    if let Some(m) = req.get("model").and_then(json::text) {
        return Some(m);
    }
    req.as_object()?.values().find_map(|v| {
        v.get("parameters")
            .and_then(|p| p.get("model_name").or(p.get("model")))
            .and_then(json::text)
    })
}

/// Token counts and cost: `*.tokens.*` and `*.response.usage.*` metrics,
/// or `*.usage.*` tags (Bedrock writes them as strings).
fn usage(s: &mut Span, meta: &BTreeMap<String, Value>, metrics: &BTreeMap<String, Value>) {
    for (k, v) in metrics.iter().chain(meta) {
        let Some((_, last)) = k.rsplit_once('.') else {
            continue;
        };
        if !(k.contains(".tokens.") || k.contains(".usage.")) {
            continue;
        }
        let n = json::count(v);
        match last {
            "prompt_tokens" | "input_tokens" => s.tokens.prompt = s.tokens.prompt.or(n),
            "completion_tokens" | "output_tokens" => {
                s.tokens.completion = s.tokens.completion.or(n)
            }
            "total_tokens" => s.tokens.total = s.tokens.total.or(n),
            "total_cost" => s.cost_usd = s.cost_usd.or(json::number(v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs_of(s: &Span) -> &[Doc] {
        s.retrieval.as_deref().unwrap_or_default()
    }

    fn spans(text: &str) -> Vec<Span> {
        let mut out = Vec::new();
        parse(text.as_bytes(), &mut |_, s| out.push(s)).unwrap();
        out
    }

    #[test]
    fn tags_fold_into_roles_by_what_they_hold() {
        let text = r#"[[
 {"name":"langchain.request","service":"app","resource":"RetrievalQA","trace_id":7,"span_id":1,"parent_id":0,"start":1000,"duration":50,"error":0,
  "meta":{"langchain.request.type":"chain","langchain.request.inputs.question":"Who?","langchain.response.outputs.answer":"Alan [1]","langchain.request.api_key":"sk-..."},
  "metrics":{"langchain.tokens.total_tokens":30,"langchain.tokens.total_cost":0.5}},
 {"name":"langchain.request","service":"app","resource":"Pinecone","trace_id":7,"span_id":2,"parent_id":1,"start":1001,"duration":5,"error":0,
  "meta":{"langchain.response.document.1.page_content":"B","langchain.response.document.0.page_content":"A","langchain.response.document.0.metadata.source":"https://a"}},
 {"name":"x","service":"app","resource":"Messages.create","trace_id":7,"span_id":3,"parent_id":1,"start":1010,"duration":5,"error":1,
  "meta":{"anthropic.request.messages.0.content.0.text":"Who?","anthropic.response.completions.content.0.text":"Alan","anthropic.request.model":"claude"}}
]]"#;
        let s = spans(text);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].trace_id(), "7");
        assert_eq!(s[0].parent_id, None);
        assert_eq!(s[0].kind, SpanKind::Chain);
        assert_eq!(s[0].output.as_deref(), Some("Alan [1]"));
        assert_eq!(s[0].end_ns, Some(1050));
        assert_eq!(s[0].tokens.total, Some(30));
        assert_eq!(s[0].cost_usd, Some(0.5));
        let asked = &s[0].recorded.as_ref().unwrap().input;
        assert_eq!(asked.as_deref(), Some(r#"{"question":"Who?"}"#));
        assert_eq!(s[1].kind, SpanKind::Retriever);
        let docs = docs_of(&s[1]);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].content.as_deref(), Some("A"));
        assert_eq!(docs[0].document_id.as_deref(), Some("https://a"));
        assert_eq!(s[2].kind, SpanKind::Llm);
        assert_eq!(s[2].llm_text.as_deref(), Some("Alan"));
        assert_eq!(s[2].model.as_deref(), Some("claude"));
        assert!(s[2].error);
        assert_eq!(s[2].agent_meta.as_deref(), Some("app"));
        assert_eq!(s[2].retrieval, None);
        let given = spans(
            r#"[[{"trace_id":1,"span_id":1,"parent_id":0,"meta":{"anthropic.request.messages.0.content.0.tool_result.content.0.text":"73f","anthropic.response.completions.content.0.text":"It is 73f."}}]]"#,
        );
        assert_eq!(given[0].kind, SpanKind::Llm);
        assert_eq!(docs_of(&given[0])[0].content.as_deref(), Some("73f"));
    }

    /// The three shapes a first run on unseen snapshots misread: nested
    /// generations, a Python repr of a text block, a chain echoing its inputs.
    #[test]
    fn nested_generations_reprs_and_echoed_inputs() {
        let s = spans(
            r#"[[{"trace_id":1,"span_id":1,"parent_id":0,"meta":{"langchain.request.type":"chat_model","langchain.request.messages.0.0.content":"Who?","langchain.response.completions.0.0.content":"Whom."}}],
            [{"trace_id":2,"span_id":1,"parent_id":0,"meta":{"bedrock.request.prompt":"[{'role': 'user', 'content': [{'type': 'text', 'text': 'Sum it up'}]}]","bedrock.response.choices.0.text":"{'type': 'text', 'text': \"Hobbits' quest.\"}"}}],
            [{"trace_id":3,"span_id":1,"parent_id":0,"meta":{"langchain.request.type":"chain","langchain.request.inputs.text":"long text","langchain.response.outputs.text":"long text","langchain.response.outputs.final_output":"Short."}}]]"#,
        );
        assert_eq!(s[0].llm_text.as_deref(), Some("Whom."));
        assert_eq!(s[1].llm_text.as_deref(), Some("Hobbits' quest."));
        let asked = s[1].recorded.as_ref().unwrap().input.as_deref().unwrap();
        assert_eq!(
            crate::dialect::question::question_of(asked).as_deref(),
            Some("Sum it up")
        );
        assert_eq!(s[2].output.as_deref(), Some("Short."));
    }

    #[test]
    fn a_snapshot_trace_zero_is_a_trace_and_a_span_without_ids_is_named() {
        let s = spans(r#"[[{"trace_id":0,"span_id":1,"parent_id":0,"meta":{}}]]"#);
        assert_eq!(s[0].trace_id(), "0");
        let mut out = Vec::new();
        let err = parse(br#"[[{"trace_id":1,"parent_id":0}]]"#, &mut |_, s| {
            out.push(s)
        })
        .unwrap_err();
        assert!(err.contains("span id"), "{err}");
    }
}

//! Langfuse observations as the server exports them: the blob-storage
//! export (`observations_v2/` enriched rows, or the legacy `traces/` +
//! `observations/` pair; snake_case, times `YYYY-MM-DD HH:MM:SS.ffffff` in
//! UTC) and the UI's JSON export and public API rows (camelCase, ISO
//! times). Both spellings are read.
//!
//! - An observation is a [`Span`]: id, `trace_id`, `parent_observation_id`
//!   (`""` on roots; an `is_root_observation` row is a root whatever its
//!   parent), `type` as the kind (`GENERATION` is an LLM span, `SPAN` a
//!   chain), `level` `ERROR` failed.
//! - Reply: the root observation's `output` (a string holding text or JSON,
//!   or a JSON value), read by [`super::json::reply_text`]; a GENERATION's
//!   output is its LLM text.
//! - A RETRIEVER's documents: its free-form `output` ([`super::json::documents`]).
//! - A GENERATION's `input` (messages, a prompt; an object or a JSON
//!   string) as normalised text ([`super::prompt`]): what the LLM call was
//!   given. A root's `input` (the trace row's, or a root observation's) as
//!   recorded, for its question; a TOOL's, for its arguments (its output
//!   is its result). Of `input` only the members messages are written
//!   under and the scalars of the others (two levels deep) are built.
//! - Conversation `session_id`; channel from `metadata.channel`; model
//!   `provided_model_name`; tokens from `usage_details` (`input`, `output`,
//!   `total`); cost `total_cost`.
//! - A legacy `traces/` row (or a UI traces export row) is the trace
//!   itself: it becomes the root span (its id is the trace id), its output
//!   the reply, and the trace's parentless observations its children.

use super::bodies::Bodies;
use super::json::Members;
use super::json::{self, blank_span, count, field, number, object, reply_text, string};
use super::keeping::{Keep, Schema};
use super::{Recorded, Span, SpanKind};
use crate::dialect::ShortId;
use serde_json::Value;

/// The columns the reader uses, in both spellings (`row`, `common`); every
/// other column (tags, prices, prompt references…) is dropped when a line
/// is parsed, checked but never built (see
/// [`super::json::object_keeping`]), and of `input` (the prompt, often most
/// of a row) only the members messages are written under and the scalars
/// of the others are built ([`super::prompt::recorded_input_member`]). A
/// column `row` starts reading must be added here.
const READ: [&str; 31] = [
    "id",
    "trace_id",
    "traceId",
    "timestamp",
    "name",
    "is_root_observation",
    "isRootObservation",
    "parent_observation_id",
    "parentObservationId",
    "type",
    "start_time",
    "startTime",
    "end_time",
    "endTime",
    "level",
    "status_message",
    "statusMessage",
    "provided_model_name",
    "providedModelName",
    "model",
    "usage_details",
    "usageDetails",
    "usage",
    "total_cost",
    "totalCost",
    "calculatedTotalCost",
    "output",
    "session_id",
    "sessionId",
    "metadata",
    "input",
];

/// The place of an observation's column in [`READ`], `None` for a column
/// not read: a `match`, which the compiler turns into a switch on length and
/// bytes (a row has dozens of columns, most of them not read).
fn slot(key: &str) -> Option<usize> {
    Some(match key {
        "id" => 0,
        "trace_id" => 1,
        "traceId" => 2,
        "timestamp" => 3,
        "name" => 4,
        "is_root_observation" => 5,
        "isRootObservation" => 6,
        "parent_observation_id" => 7,
        "parentObservationId" => 8,
        "type" => 9,
        "start_time" => 10,
        "startTime" => 11,
        "end_time" => 12,
        "endTime" => 13,
        "level" => 14,
        "status_message" => 15,
        "statusMessage" => 16,
        "provided_model_name" => 17,
        "providedModelName" => 18,
        "model" => 19,
        "usage_details" => 20,
        "usageDetails" => 21,
        "usage" => 22,
        "total_cost" => 23,
        "totalCost" => 24,
        "calculatedTotalCost" => 25,
        "output" => 26,
        "session_id" => 27,
        "sessionId" => 28,
        "metadata" => 29,
        "input" => 30,
        _ => return None,
    })
}

/// How an observation is read from its JSON object: every column read is
/// built whole, except `input` ([`super::prompt::recorded_input_member`]).
pub(super) static SCHEMA: Schema = Schema {
    names: &READ,
    slot,
    keep: |key| match key {
        "input" => Keep::Only(super::prompt::recorded_input_member),
        _ => Keep::Whole,
    },
};

/// What one Langfuse row is.
pub enum Row {
    Observation(Span),
    /// A trace row, as the root span of its trace.
    Trace(Span),
}

/// True when the object looks like a trace row rather than an observation.
fn is_trace_row<M: Members>(m: &M) -> bool {
    field(m, &["trace_id", "traceId"]).is_none() && field(m, &["timestamp"]).is_some()
}

/// Reads one row, whose JSON text is `text` (read again only for a
/// generation's provider bodies, [`Bodies::of`]). Errors name the field,
/// never a value.
pub(super) fn row<M: Members>(m: &M, text: &str) -> Result<Row, String> {
    let id = field(m, &["id"])
        .and_then(json::span_id_of)
        .ok_or("observation without an id (`id`)")?;
    if is_trace_row(m) {
        let mut s = blank_span(id.clone(), id);
        s.kind = SpanKind::Agent;
        s.name = string(m, &["name"]).unwrap_or_default();
        s.start_ns = json::time_field(m, &["timestamp"])?;
        common(&mut s, m);
        s.recorded = Recorded::of(field(m, &["input"]).and_then(json::recorded_text), None);
        return Ok(Row::Trace(s));
    }
    let trace_id = field(m, &["trace_id", "traceId"])
        .and_then(json::span_id_of)
        .ok_or("observation without a trace id (`trace_id`)")?;
    let mut s = blank_span(trace_id, id);
    let root = matches!(
        field(m, &["is_root_observation", "isRootObservation"]),
        Some(Value::Bool(true))
    );
    s.parent_id = if root {
        None
    } else {
        field(m, &["parent_observation_id", "parentObservationId"])
            .and_then(json::span_id_of)
            .map(ShortId::from)
    };
    s.name = string(m, &["name"]).unwrap_or_default();
    let ty = string(m, &["type"]).unwrap_or_default();
    s.kind = SpanKind::from_openinference(&ty).unwrap_or(match ty.as_str() {
        "EVENT" | "CHAIN" => SpanKind::Chain,
        _ => SpanKind::Unknown,
    });
    s.start_ns = json::time_field(m, &["start_time", "startTime"])?;
    s.end_ns = json::time_field(m, &["end_time", "endTime"])?;
    s.error = string(m, &["level"]).is_some_and(|l| l.eq_ignore_ascii_case("ERROR"));
    if s.error {
        s.error_type = string(m, &["status_message", "statusMessage"])
            .map(|_| "error".to_owned())
            .or(Some("error".to_owned()));
    }
    if ty.eq_ignore_ascii_case("SPAN") || s.kind == SpanKind::Unknown {
        s.kind = stated_kind(m).unwrap_or(s.kind);
    }
    if s.kind == SpanKind::Agent {
        s.agent_name = Some(s.name.clone()).filter(|n| !n.is_empty());
    }
    s.model = string(m, &["provided_model_name", "providedModelName", "model"]);
    if let Some(u) = object(m, &["usage_details", "usageDetails", "usage"]) {
        s.tokens.prompt = field(&u, &["input", "promptTokens", "input_tokens"]).and_then(count);
        s.tokens.completion =
            field(&u, &["output", "completionTokens", "output_tokens"]).and_then(count);
        s.tokens.total = field(&u, &["total", "totalTokens", "total_tokens"]).and_then(count);
    }
    s.cost_usd = field(m, &["total_cost", "totalCost", "calculatedTotalCost"]).and_then(number);
    common(&mut s, m);
    if s.parent_id.is_some() {
        by_content(&mut s, m);
    }
    if s.kind == SpanKind::Tool {
        s.tool_name = Some(tool_name(&s.name).to_owned());
    }
    if s.kind == SpanKind::Retriever {
        s.retrieval = output(m).and_then(json::documents);
    } else if s.kind == SpanKind::Llm {
        s.input_text = field(m, &["input"])
            .and_then(|v| super::prompt::value_text_kept(v, super::prompt::input_member));
        // A provider integration's generation records the call's bodies.
        s.provider = Bodies::of(text, "input", "output", false).read();
        if let Some(text) = s.output.take() {
            s.llm_text = Some(text);
            s.llm_text_key = s.output_key;
            s.output_key = "";
            s.output_mime = None;
        }
    }
    // A root's input is its question; a tool's, its arguments.
    if s.parent_id.is_none() || s.kind == SpanKind::Tool {
        s.recorded = Recorded::of(field(m, &["input"]).and_then(json::recorded_text), None);
    }
    Ok(Row::Observation(s))
}

/// The kind an untyped observation states in its metadata: OpenInference's
/// `openinference.span.kind` among the span attributes Langfuse keeps.
fn stated_kind<M: Members>(m: &M) -> Option<SpanKind> {
    let meta = object(m, &["metadata"])?;
    let attrs = object(&meta, &["attributes"])?;
    SpanKind::from_openinference(&string(&attrs, &["openinference.span.kind"])?)
}

/// Roles of a plain step found by what it holds: a step that returned
/// search results is a retrieval by a tool; one that returned a tool
/// message, or is named `tool.…` and returned something or failed, is a
/// tool call; a stated tool's `start`/`finish` events are not calls.
fn by_content<M: Members>(s: &mut Span, m: &M) {
    if !matches!(s.kind, SpanKind::Unknown | SpanKind::Chain | SpanKind::Tool) {
        return;
    }
    // A JSON-encoded output is decoded once, for both looks.
    let decoded = output(m).map(json::unstring);
    let out = decoded.as_deref();
    if let Some(docs) = out.and_then(json::results) {
        s.retrieval = Some(docs);
        s.kind = SpanKind::Tool;
    } else if out.is_some_and(is_tool_message)
        || (s.name.starts_with("tool.") && (out.is_some() || s.error) && !lifecycle(&s.name))
    {
        s.kind = SpanKind::Tool;
    } else if s.kind == SpanKind::Tool && out.is_none() && !s.error && lifecycle(&s.name) {
        s.kind = SpanKind::Chain;
    }
}

/// A LangChain tool message (`{"type": "tool", "tool_call_id": …}`), as decoded.
fn is_tool_message(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("tool") && v.get("tool_call_id").is_some()
}

/// Whether a name is an event of a call's life (`….start-12`, `….finish-12`).
fn lifecycle(name: &str) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let base = base.strip_suffix('-').unwrap_or(base);
    base.ends_with(".start") || base.ends_with(".finish")
}

/// A tool's name: the step's name without a `tool.` prefix or a
/// `.success-N`/`.error-N` event suffix.
fn tool_name(name: &str) -> &str {
    let n = name.strip_prefix("tool.").unwrap_or(name);
    let base = n.trim_end_matches(|c: char| c.is_ascii_digit());
    match base.strip_suffix('-') {
        Some(b) => [".success", ".error", ".start", ".finish"]
            .iter()
            .find_map(|e| b.strip_suffix(e))
            .unwrap_or(n),
        None => n,
    }
}

/// `output` when set (`""` is unset).
fn output<M: Members>(m: &M) -> Option<&Value> {
    match field(m, &["output"])? {
        Value::String(s) if s.trim().is_empty() => None,
        v => Some(v),
    }
}

/// Fields traces and observations share: output, session, metadata.
fn common<M: Members>(s: &mut Span, m: &M) {
    if let Some(out) = output(m) {
        s.content_recorded = true;
        // A retriever's output is its documents, read by the caller (as
        // LangSmith's reader does), never a reply.
        if s.kind != SpanKind::Retriever
            && let Some((text, key)) = reply_text(out, "output")
        {
            s.output = Some(text);
            s.output_mime = Some("text/plain".to_owned());
            s.output_key = key;
        }
    }
    s.conversation = field(m, &["session_id", "sessionId"]).and_then(json::id_of);
    if let Some(meta) = object(m, &["metadata"]) {
        s.channel = string(&meta, &["channel"]);
    }
}

/// Makes a trace's parentless observations children of its trace row, when
/// the trace row was read (legacy export): the trace's output is the reply.
pub fn adopt(spans: &mut [Box<Span>], trace_rows: &[String]) {
    for s in spans.iter_mut() {
        if s.parent_id.is_none() && !trace_rows.iter().any(|t| s.span_id == *t) {
            s.parent_id = Some(s.trace_id.clone());
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn tool_steps_are_named_without_their_prefix_and_event() {
        assert_eq!(super::tool_name("tool.HelloTool"), "HelloTool");
        assert_eq!(
            super::tool_name("tool.search.wikipedia.success-12"),
            "search.wikipedia"
        );
        assert_eq!(super::tool_name("duckduckgo_search"), "duckduckgo_search");
        assert_eq!(super::tool_name("tool.x-2"), "x-2");
        assert!(super::lifecycle("tool.search.wikipedia.start-12"));
        assert!(super::lifecycle("tool.search.wikipedia.finish-3"));
        assert!(!super::lifecycle("tool.search.wikipedia.success-12"));
        assert!(!super::lifecycle("tool.HelloTool"));
    }
    use super::*;
    use serde_json::json;

    #[test]
    fn every_column_read_has_its_slot() {
        for (i, k) in READ.iter().enumerate() {
            assert_eq!(slot(k), Some(i), "{k}");
        }
        for k in ["", "ids", "inputs", "Id", "tags", "events", "latency"] {
            assert_eq!(slot(k), None, "{k}");
        }
    }

    fn obs(v: Value) -> Span {
        match row(v.as_object().unwrap(), &v.to_string()).unwrap() {
            Row::Observation(s) => s,
            Row::Trace(_) => panic!("a trace row"),
        }
    }

    #[test]
    fn blob_export_row_as_documented() {
        let s = obs(
            json!({"id":"a1","trace_id":"t","parent_observation_id":"","type":"AGENT",
            "name":"billing-bot","start_time":"2026-03-04 09:15:02.120000","is_root_observation":true,
            "output":"Refunds take 5 business days [1].","metadata":{"channel":"web"},"session_id":"sess"}),
        );
        assert_eq!(s.parent_id, None);
        assert_eq!(s.kind, SpanKind::Agent);
        assert_eq!(s.output_key, "output");
        assert_eq!(s.channel.as_deref(), Some("web"));
        assert_eq!(s.start_ns, Some(1_772_615_702_120_000_000));
        let r = obs(
            json!({"id":"b2","trace_id":"t","parent_observation_id":"a1","type":"RETRIEVER",
            "start_time":"2026-03-04 09:15:02.300000",
            "output":"[{\"page_content\":\"x\",\"metadata\":{\"doc_id\":\"kb\",\"chunk_id\":\"c3\"},\"type\":\"Document\"}]"}),
        );
        let d = r.retrieval.unwrap();
        assert_eq!(d[0].chunk_id.as_deref(), Some("c3"));
        assert_eq!(d[0].document_id.as_deref(), Some("kb"));
    }

    #[test]
    fn hex_ids_are_read_in_lower_case_other_ids_as_written() {
        let s = obs(
            json!({"id": "EEE19B7EC3C1B174", "trace_id": "5B8EFFF798038103D269B633813FC60C",
            "parent_observation_id": "EEE19B7EC3C1B173", "type": "SPAN", "session_id": "Sess-A"}),
        );
        assert_eq!(s.trace_id(), "5b8efff798038103d269b633813fc60c");
        assert_eq!(s.span_id(), "eee19b7ec3c1b174");
        assert_eq!(s.parent_id.as_deref(), Some("eee19b7ec3c1b173"));
        assert_eq!(s.conversation.as_deref(), Some("Sess-A"));
        let s = obs(json!({"id": "Obs-A", "traceId": "Trace-A", "type": "SPAN"}));
        assert_eq!((s.trace_id(), s.span_id()), ("Trace-A", "Obs-A"));
    }

    #[test]
    fn times_in_every_spelling_or_an_invalid_row_naming_the_field() {
        let ms = Some(1_733_342_369_374_000_000);
        for t in [
            json!("2024-12-04 19:59:29.374000"),
            json!("2024-12-04T19:59:29.374Z"),
            json!("2024-12-04T21:59:29.374+02:00"),
            json!("2024-12-04T21:59:29.374+0200"),
            json!("2024-12-04T14:29:29.374-0530"),
            json!("1733342369374"),
            json!(1733342369.374),
        ] {
            let s = obs(json!({"id": "o", "trace_id": "t", "type": "SPAN", "startTime": t}));
            let near = s
                .start_ns
                .zip(ms)
                .is_some_and(|(a, b)| (a - b).abs() < 1_000);
            assert!(near, "{t}: {:?}", s.start_ns);
        }
        let reason = |v: Value| row(v.as_object().unwrap(), &v.to_string()).err();
        for (v, want) in [
            (
                json!({"id": "o", "traceId": "t", "type": "SPAN", "startTime": "2024-12-04"}),
                "`startTime`: not a time (RFC 3339 or epoch)",
            ),
            (
                json!({"id": "o", "trace_id": "t", "type": "SPAN", "end_time": "SECRET"}),
                "`end_time`: not a time (RFC 3339 or epoch)",
            ),
            (
                json!({"id": "o", "trace_id": "t", "type": "SPAN", "end_time": true}),
                "`end_time`: not a time (RFC 3339 or epoch)",
            ),
            (
                json!({"id": "o", "trace_id": "t", "type": "SPAN",
                    "start_time": "9999-12-31T23:30:00-01:00"}),
                "`start_time`: outside years 0000-9999",
            ),
            (
                json!({"id": "t", "timestamp": "garbage", "name": "bot"}),
                "`timestamp`: not a time (RFC 3339 or epoch)",
            ),
        ] {
            assert_eq!(reason(v.clone()).as_deref(), Some(want), "{v}");
        }
        // `""` is Langfuse's unset.
        let s = obs(json!({"id": "o", "trace_id": "t", "type": "SPAN", "end_time": ""}));
        assert_eq!(s.end_ns, None);
    }

    #[test]
    fn ui_export_camel_case_and_trace_rows() {
        let s = obs(
            json!({"id":"g","traceId":"t","parentObservationId":"a","type":"GENERATION",
            "startTime":"2026-03-04T09:15:03.000Z","output":{"role":"assistant","content":"hi"},
            "usageDetails":{"input":10,"output":5,"total":15},"level":"ERROR"}),
        );
        assert_eq!(s.kind, SpanKind::Llm);
        assert_eq!(s.llm_text.as_deref(), Some("hi"));
        assert_eq!(s.tokens.sum(), Some(15));
        assert!(s.failed());
        let t = json!({"id":"t","timestamp":"2026-03-04 09:15:02.000000","name":"bot","output":"x","session_id":"s"});
        match row(t.as_object().unwrap(), &t.to_string()).unwrap() {
            Row::Trace(s) => {
                assert_eq!(s.span_id(), "t");
                assert_eq!(s.conversation.as_deref(), Some("s"));
            }
            Row::Observation(_) => panic!("not a trace row"),
        }
    }

    /// A GENERATION given two of the three documents of two RETRIEVER
    /// observations (its `input` an OpenAI message list, as the blob
    /// export writes it: a JSON string): its chunks are those two, in the
    /// order of its input.
    #[test]
    fn chunks_are_the_documents_in_the_generations_input() {
        use crate::dialect::spans::tests::{STOOD, check_stood_on, stood_prompt};
        let docs = |d: &[(&str, &str)]| -> String {
            let v: Vec<Value> = d
                .iter()
                .map(|(id, text)| json!({"page_content": text, "metadata": {"chunk_id": id}}))
                .collect();
            Value::from(v).to_string()
        };
        let input = json!([{"role": "system", "content": stood_prompt()},
            {"role": "user", "content": "Do gift cards expire?"}])
        .to_string();
        let o = |id: &str, ty: &str, s: u32, e: u32, extra: Value| {
            let mut v = json!({"id": id, "trace_id": "t", "type": ty, "name": ty,
                "parent_observation_id": if id == "r" { "" } else { "r" },
                "start_time": format!("2026-03-04 09:15:0{s}.000000"),
                "end_time": format!("2026-03-04 09:15:0{e}.000000")});
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            let text = v.to_string();
            let r = super::super::keeping::read_row(&text, &SCHEMA).unwrap();
            match row(&r, &text).unwrap() {
                Row::Observation(s) => s,
                Row::Trace(_) => panic!("a trace row"),
            }
        };
        let spans = vec![
            o(
                "r",
                "SPAN",
                0,
                9,
                json!({"output": "Yes [1]", "input": {"documents": docs(&STOOD)}}),
            ),
            o("a", "RETRIEVER", 1, 2, json!({"output": docs(&STOOD[..2])})),
            o("b", "RETRIEVER", 3, 4, json!({"output": docs(&STOOD[2..])})),
            o(
                "l",
                "GENERATION",
                5,
                8,
                json!({"input": input, "output": "Yes [1]"}),
            ),
        ];
        assert!(
            spans
                .iter()
                .all(|s| s.input_text.is_some() == (s.kind == SpanKind::Llm))
        );
        check_stood_on(spans);
    }
}

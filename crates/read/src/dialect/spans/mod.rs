//! Span dialects: OpenInference/Phoenix exports and OTLP/JSON (carrying
//! OpenInference, OTel GenAI, OpenLLMetry or Langfuse attributes), read into
//! compact owned [`Span`]s, and the spans of one trace assembled into one
//! turn ([`assemble`] → [`Trace`]).
//!
//! Pure: no I/O, no knowledge of the pipeline. The caller detects the format
//! of a file (a format's `claims`, [`is_document`]), feeds physical lines to
//! [`parse_line`] (or the whole file to [`parse_document`]), groups the spans
//! by trace id and calls [`assemble`] once per trace when input ends.
//!
//! Files:
//! - `attrs/`: attribute values (`value.rs`), the attribute names of every
//!   convention (`names.rs`), the per-span accumulators (`builder.rs`) and
//!   text and documents inside output values (`output.rs`);
//! - `otlp.rs`: OTLP/JSON requests, canonical camelCase and Phoenix's snake_case;
//! - `phoenix.rs`: Phoenix span JSONL, REST page envelopes and dataframe
//!   rows, OTel SDK span objects, TruLens rows, Monocle trace files;
//! - `datadog.rs`: Datadog APM traces, their flattened tags folded back
//!   into JSON and read by what they hold;
//! - `pyrepr.rs`: Python literals (`str(dict)`) read as JSON;
//! - `langsmith.rs`: LangSmith runs (parts merged by run id) → spans;
//! - `langfuse.rs`: Langfuse observations and legacy trace rows → spans;
//! - `adk.rs`: Google ADK Session and EvalSet JSON, each invocation's
//!   events → the spans of one trace;
//! - `braintrust.rs`: Braintrust log rows (start and merge rows merged by
//!   span id) → spans, one trace per root span;
//! - `json.rs`: lenient field access, documents and reply text in plain JSON;
//! - `time.rs`: span, run and observation times (RFC 3339 in any offset
//!   spelling, epoch numbers), in years 0000–9999 or an invalid record;
//! - `exports.rs`: those four as dialects, and [`assemble_records`], how any
//!   group of the span family becomes a trace;
//! - `dialect.rs`: [`SpanFormat`], a span format as a dialect (each
//!   format's `static` lives beside its reader: `otlp.rs`, `datadog.rs`,
//!   and `rows.rs` for the formats Phoenix's row reader reads);
//! - `head.rs`: the [`Head`] of a source, which the formats' `claims` read;
//! - `prompt.rs`: an LLM call's recorded input as one normalised string,
//!   and how a retrieved document is found in it;
//! - `assemble.rs`: trace → turn (root, reply, chunks, tools, agent).
//!
//! Error reasons name the field and what was expected, never an input value.

mod adk;
mod assemble;
mod attrs;
mod bodies;
mod braintrust;
mod datadog;
mod dialect;
mod exports;
mod head;
mod json;
mod keeping;
mod langfuse;
mod langsmith;
mod otlp;
mod phoenix;
mod prompt;
mod pyrepr;
mod rows;
mod time;

use assemble::assemble_boxed;
pub use assemble::{AssembleOptions, Retrieval, Trace, assemble};
pub use datadog::DATADOG;
pub use dialect::{Reader, Sink, SpanFormat};
pub use exports::{
    ADK, BRAINTRUST, Export, ExportDialect, LANGFUSE, LANGSMITH, assemble_records, classify,
};
pub use head::Head;
pub use otlp::{OTLP, PHOENIX_OTLP};
pub use rows::{OTEL_SDK, PHOENIX_DATAFRAME, PHOENIX_JSONL, TRULENS};

use crate::dialect::{ShortId, cap_reason, redact_reason};
use std::borrow::Cow;

/// A span's semantic kind (OpenInference span kinds; other conventions are
/// mapped onto them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpanKind {
    Agent,
    Chain,
    Llm,
    Retriever,
    Reranker,
    Tool,
    Embedding,
    Prompt,
    Guardrail,
    Evaluator,
    Unknown,
}

impl SpanKind {
    /// An OpenInference span kind (`LLM`, `RETRIEVER`, …) or a Langfuse
    /// observation type (`generation`, `retriever`, …), any case.
    pub fn from_openinference(s: &str) -> Option<SpanKind> {
        const NAMES: [(&str, SpanKind); 14] = [
            ("AGENT", SpanKind::Agent),
            ("CHAIN", SpanKind::Chain),
            ("SPAN", SpanKind::Chain),
            ("LLM", SpanKind::Llm),
            ("GENERATION", SpanKind::Llm),
            ("RETRIEVER", SpanKind::Retriever),
            ("RERANKER", SpanKind::Reranker),
            ("TOOL", SpanKind::Tool),
            ("EMBEDDING", SpanKind::Embedding),
            ("PROMPT", SpanKind::Prompt),
            ("GUARDRAIL", SpanKind::Guardrail),
            ("EVALUATOR", SpanKind::Evaluator),
            ("UNKNOWN", SpanKind::Unknown),
            ("EVENT", SpanKind::Unknown),
        ];
        // No upper-cased copy: compared in place, ASCII case ignored.
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(s))
            .map(|&(_, k)| k)
    }

    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            SpanKind::Agent => "agent",
            SpanKind::Chain => "chain",
            SpanKind::Llm => "llm",
            SpanKind::Retriever => "retriever",
            SpanKind::Reranker => "reranker",
            SpanKind::Tool => "tool",
            SpanKind::Embedding => "embedding",
            SpanKind::Prompt => "prompt",
            SpanKind::Guardrail => "guardrail",
            SpanKind::Evaluator => "evaluator",
            SpanKind::Unknown => "unknown",
        }
    }
}

/// One retrieved (or reranked) document, ids and score already resolved
/// (see the rules on `attrs::builder::DocAcc::finish`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Doc {
    pub chunk_id: Option<String>,
    pub document_id: Option<String>,
    pub score: Option<f64>,
    /// The text, when the exporter recorded it.
    pub content: Option<String>,
}

/// The input a root or a tool span recorded, as text (JSON as its text).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Recorded {
    /// `input.value`, `langfuse.observation.input`, `traceloop.entity.input`,
    /// `gen_ai.tool.call.arguments`, a run's `inputs`, an observation's `input`.
    pub input: Option<String>,
    /// A root's `gen_ai.input.messages`: its question is the last user message.
    pub messages: Option<String>,
}

impl Recorded {
    /// A record of `input` (and `messages`), none when both are none.
    pub fn of(input: Option<String>, messages: Option<String>) -> Option<Box<Recorded>> {
        (input.is_some() || messages.is_some()).then(|| Box::new(Recorded { input, messages }))
    }
}

/// Token counts of one span, as given (no sums invented).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tokens {
    /// `llm.token_count.prompt`, `gen_ai.usage.input_tokens` (pre-1.37: `prompt_tokens`).
    pub prompt: Option<u64>,
    /// `llm.token_count.completion`, `gen_ai.usage.output_tokens` (pre-1.37: `completion_tokens`).
    pub completion: Option<u64>,
    /// `llm.token_count.total`, `gen_ai.usage.total_tokens` (OpenLLMetry).
    pub total: Option<u64>,
}

impl Tokens {
    /// The total, else prompt + completion, else none.
    pub fn sum(&self) -> Option<u64> {
        self.total.or(match (self.prompt, self.completion) {
            (None, None) => None,
            (p, c) => Some(p.unwrap_or(0).saturating_add(c.unwrap_or(0))),
        })
    }
}

/// One span, owned and compact: identity, timing, and only the attributes
/// the assembler reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    trace_id: ShortId,
    span_id: ShortId,
    /// None for a root (also when the export wrote `""` or all zeros).
    pub parent_id: Option<ShortId>,
    pub name: String,
    pub kind: SpanKind,
    /// Nanoseconds since the Unix epoch, exact.
    pub start_ns: Option<i128>,
    pub end_ns: Option<i128>,
    /// Status ERROR (or a Langfuse level ERROR).
    pub error: bool,
    /// Resource `service.name` (OTLP only), shared by the resource's spans.
    pub service: Option<std::sync::Arc<str>>,
    /// `gen_ai.operation.name`.
    pub operation: Option<String>,
    /// The output value as recorded (text or JSON).
    pub output: Option<String>,
    pub output_mime: Option<String>,
    /// Which attribute `output` came from (`output.value`, `traceloop.entity.output`, …).
    pub output_key: &'static str,
    /// Text of the output messages (assistant text parts joined).
    pub llm_text: Option<String>,
    /// Which attribute family `llm_text` came from.
    pub llm_text_key: &'static str,
    /// An LLM span's recorded input (prompt, input messages) as one
    /// normalised string ([`prompt`]); none for every other kind of span.
    pub input_text: Option<String>,
    /// What a span without a parent (where the question is) or a tool span
    /// (its arguments) recorded as its input; none for every other span.
    pub recorded: Option<Box<Recorded>>,
    /// Whether any output content attribute was present (OTel content capture is opt-in).
    pub content_recorded: bool,
    /// Documents of a retrieval; `Some(empty)` for a recorded empty list.
    pub retrieval: Option<Vec<Doc>>,
    pub rerank_input: Option<Vec<Doc>>,
    pub rerank_output: Option<Vec<Doc>>,
    /// `agent.name`, `gen_ai.agent.name`.
    pub agent_name: Option<String>,
    /// `gen_ai.agent.id` (dropped for OpenLLMetry, where it is a run id).
    pub agent_id: Option<String>,
    /// An `agent` or `agent_name` metadata value (Langfuse metadata,
    /// OpenInference `metadata`, OpenLLMetry association properties).
    pub agent_meta: Option<String>,
    /// `session.id`, `gen_ai.conversation.id`, else a session/thread/conversation metadata value.
    pub conversation: Option<String>,
    /// A `channel` metadata value.
    pub channel: Option<String>,
    pub model: Option<String>,
    pub tokens: Tokens,
    /// `llm.cost.total` (or prompt + completion), USD.
    pub cost_usd: Option<f64>,
    /// `tool.name`, `gen_ai.tool.name`.
    pub tool_name: Option<String>,
    /// `error.type`.
    pub error_type: Option<String>,
    /// An LLM call whose recorded response body holds provider citations
    /// (Anthropic, OpenAI, Cohere, Gemini, Bedrock, Perplexity), read with
    /// its recorded request: what it was given or returned, and what it cited.
    pub(crate) provider: Option<Box<crate::dialect::exchange::Found>>,
    /// The sources a chain named for its answer (a LangChain
    /// `RetrievalQAWithSourcesChain`'s `sources` output), each a document id.
    pub sources: Option<Vec<String>>,
}

impl Span {
    pub fn trace_id(&self) -> &str {
        &self.trace_id
    }
    pub fn span_id(&self) -> &str {
        &self.span_id
    }
    /// Duration in milliseconds, when both times are known and ordered.
    pub fn duration_ms(&self) -> Option<f64> {
        match (self.start_ns, self.end_ns) {
            (Some(s), Some(e)) if e >= s => Some((e - s) as f64 / 1e6),
            _ => None,
        }
    }
    /// True for a tool call: a TOOL span, or a GenAI `execute_tool` span.
    pub fn is_tool(&self) -> bool {
        self.kind == SpanKind::Tool
    }
    /// The text the span answered with, under `key`: an LLM call's text,
    /// or any other span's text output.
    pub(super) fn answered(&mut self, text: String, key: &'static str) {
        if self.kind == SpanKind::Llm {
            self.llm_text = Some(text);
            self.llm_text_key = key;
        } else {
            self.output = Some(text);
            self.output_mime = Some("text/plain".to_owned());
            self.output_key = key;
        }
    }
    /// True when the tool call (or any span) failed: status ERROR or an `error.type`.
    pub fn failed(&self) -> bool {
        self.error || self.error_type.is_some()
    }
}

/// Normalizes an id as read: trimmed; empty and all-zero ids are none; a
/// hex id ([`crate::model::is_hex_id`]) in lower case, so one trace written
/// in both cases is one trace, and `explain` finds it by either spelling.
fn clean_id(s: &str) -> Option<ShortId> {
    clean_id_str(s).map(|t| match t {
        Cow::Borrowed(t) => ShortId::new(t),
        Cow::Owned(t) => ShortId::from(t),
    })
}

/// The text of [`clean_id`]'s id (for readers that keep ids as strings):
/// borrowed unless it had to be lower-cased.
fn clean_id_str(s: &str) -> Option<Cow<'_, str>> {
    trimmed_id(s).map(lower_hex)
}

/// An id trimmed, without a `0x`; empty and all-zero ids are none. Its
/// case is kept (document and conversation ids are compared as written).
fn trimmed_id(s: &str) -> Option<&str> {
    let t = s.trim();
    let t = t.strip_prefix("0x").unwrap_or(t);
    (!t.is_empty() && !t.bytes().all(|b| b == b'0')).then_some(t)
}

/// `id` in lower case when it is a hex id, else as it is.
fn lower_hex(id: &str) -> Cow<'_, str> {
    if id.bytes().any(|b| b.is_ascii_uppercase()) && crate::model::is_hex_id(id) {
        Cow::Owned(id.to_ascii_lowercase())
    } else {
        Cow::Borrowed(id)
    }
}

/// True when the file is one whole JSON document (Phoenix's OTLP download, a
/// REST page envelope, a JSON array, a pretty-printed request) rather than
/// one record per line: read it with [`parse_document`].
pub fn is_document(format: &SpanFormat, first_block: &[u8]) -> bool {
    let data = first_block
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(first_block);
    let Some(start) = data.iter().position(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    let rest = &data[start..];
    if rest[0] == b'[' || (format.document)(rest) {
        return true;
    }
    // Pretty-printed: the first line is not a whole object.
    match memchr::memchr(b'\n', rest) {
        Some(e) => !rest[..e].trim_ascii_end().ends_with(b"}"),
        None => false,
    }
}

/// Spans as the line readers hand them over: each one boxed where it is
/// read, so it moves into its record, its trace and the assembly by pointer
/// (a span is about 650 bytes, and it was copied into a list and then into
/// its record's box: OTLP 926 → 894 ms CPU per 200 MB without the copies).
#[allow(clippy::vec_box)]
pub type Spans = Vec<Box<Span>>;

/// Parses one physical line into `out` (an OTLP request line holds many
/// spans; a REST envelope on one line holds a page). Blank lines give none.
/// On `Err` nothing was added: the reason names the field and what was
/// expected, never an input value, and is capped.
pub fn parse_line(format: &SpanFormat, line: &[u8], out: &mut Spans) -> Result<(), String> {
    if let Ok(text) = std::str::from_utf8(line) {
        return parse_line_str(format, text, out);
    }
    // Not UTF-8: the readers' reasons say where.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let before = out.len();
    let r = (format.read.pages)(line, &mut |_, s| out.push(Box::new(s)));
    if r.is_err() {
        out.truncate(before);
    }
    r.map(|_| ()).map_err(cap_reason)
}

/// [`parse_line`] for a line already known to be UTF-8 (as the engine
/// hands it over): strings are not validated again.
pub fn parse_line_str(format: &SpanFormat, line: &str, out: &mut Spans) -> Result<(), String> {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    if line.bytes().all(|b| b.is_ascii_whitespace()) {
        return Ok(());
    }
    let before = out.len();
    let r = (format.read.line)(line, out);
    if r.is_err() {
        out.truncate(before);
    }
    r.map_err(cap_reason)
}

/// Parses a whole document (or a stream of them) into `out`, each span with
/// the 1-based physical line where its object starts; true when a page
/// envelope said more pages follow. On `Err` the spans read before the
/// fault stay in `out`.
pub fn parse_document(
    format: &SpanFormat,
    data: &[u8],
    out: &mut Vec<(u64, Span)>,
) -> Result<bool, String> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let mut lines = LineCounter::new(data);
    let mut sink = |offset: usize, s: Span| out.push((lines.line_at(offset), s));
    (format.read.pages)(data, &mut sink).map_err(cap_reason)
}

/// Turns byte offsets (mostly increasing) into 1-based line numbers.
struct LineCounter<'a> {
    data: &'a [u8],
    at: usize,
    line: u64,
}

impl<'a> LineCounter<'a> {
    fn new(data: &'a [u8]) -> Self {
        LineCounter {
            data,
            at: 0,
            line: 1,
        }
    }
    fn line_at(&mut self, offset: usize) -> u64 {
        let offset = offset.min(self.data.len());
        if offset < self.at {
            self.at = 0;
            self.line = 1;
        }
        self.line += memchr::memchr_iter(b'\n', &self.data[self.at..offset]).count() as u64;
        self.at = offset;
        self.line
    }
}

/// Byte offset of `inner` within `outer` (both from the same input), or 0.
fn offset_in(outer: &[u8], inner: &str) -> usize {
    let o = outer.as_ptr() as usize;
    let i = inner.as_ptr() as usize;
    if i >= o && i <= o + outer.len() {
        i - o
    } else {
        0
    }
}

/// A serde error as a reason: values redacted, position dropped.
fn reason(what: &str, e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = msg.split(" at line ").next().unwrap_or(&msg);
    redact_reason(&format!("{what}: {msg}"))
}

/// The reply text the readers find in a recorded output (`s`, plain text
/// or JSON of any message shape: OpenAI chat and Responses, Anthropic
/// blocks, OTel GenAI parts, Gemini parts, LangChain messages and
/// generations, Cohere), and the text the export readers find in an
/// output value (`reply_text`): the one message-text finder, exposed for
/// its fuzz target and tests.
#[doc(hidden)]
pub fn message_text(s: &str) -> (Option<String>, Option<String>) {
    let from_attr = attrs::output_text(s, None).map(std::borrow::Cow::into_owned);
    let value = serde_json::Value::String(s.to_owned());
    let from_value = json::reply_text(&value, "output").map(|(t, _)| t);
    (from_attr, from_value)
}

/// Every file under `../shared/traces` (the genuine SDK exports), with its
/// bytes, in path order, for the readers' differential tests; `None`, with
/// a message, when the folder is absent (CI without `../shared`).
#[cfg(test)]
pub(crate) fn shared_captures() -> Option<Vec<(std::path::PathBuf, Vec<u8>)>> {
    let root = crate::test_support::shared("traces")?;
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if let Ok(data) = std::fs::read(&p) {
                files.push((p, data));
            }
        }
    }
    files.sort();
    Some(files)
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_provider;

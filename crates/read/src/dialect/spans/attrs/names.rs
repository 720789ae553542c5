//! The attribute-name table: which keys are decoded at all, and what each
//! flattened leaf of OpenInference, OTel GenAI, OpenLLMetry and Langfuse
//! means for the span being built.

use super::builder::{Builder, docs_entry, set_min};
use super::value::{Val, flatten, split_index};
use crate::dialect::spans::SpanKind;
use std::collections::BTreeMap;

/// Attribute-name prefixes never decoded: big content the assembler never
/// reads (prompt templates, tool definitions). A skipped prefix wins over a
/// kept one. An LLM call's input (`llm.input_messages`, `input.value`,
/// `gen_ai.input.messages`, `langfuse.observation.input`) is decoded: the
/// span keeps it as one normalised string when it is an LLM span, as its
/// question when it has no parent, as its arguments when it is a tool.
const SKIP: [&str; 11] = [
    "ai.prompt.",
    "ai.request.headers",
    "ai.response.providerMetadata",
    "ai.toolCall.args",
    "llm.invocation_parameters",
    "llm.prompt_template",
    "llm.tools",
    "gen_ai.system_instructions",
    "gen_ai.task.input",
    "gen_ai.task.output",
    "gen_ai.prompt",
];

/// Attribute-name prefixes decoded.
const KEEP: [&str; 36] = [
    "span.type",
    "monocle.output",
    "workflow.name",
    "ai.observability.span_type",
    "ai.observability.record_root.output",
    "ai.observability.record_root.input",
    "ai.prompt",
    "ai.observability.call.return",
    "ai.observability.retrieval.retrieved_contexts",
    "ai.observability.app_name",
    "ai.operationId",
    "ai.response.",
    "ai.toolCall.name",
    "ai.model.id",
    "ai.usage.",
    "ai.telemetry.",
    "openinference.span.kind",
    "output.",
    "input.value",
    "llm.",
    "retrieval.documents",
    "reranker.",
    "metadata",
    "session.id",
    "agent.name",
    "gen_ai.",
    "tool.name",
    "error.type",
    "traceloop.span.kind",
    "traceloop.entity.output",
    "traceloop.entity.input",
    "traceloop.association.properties.",
    "langfuse.observation.",
    "langfuse.trace.metadata",
    "langfuse.session.id",
    "span_kind",
];

/// Namespaces of attributes written nested (`{"llm":{"output_messages":…}}`),
/// decoded and flattened from there.
const NESTED: [&str; 10] = [
    "llm",
    "input",
    "retrieval",
    "reranker",
    "output",
    "session",
    "agent",
    "tool",
    "openinference",
    "error",
];

/// [`SKIP`], [`KEEP`] and [`NESTED`] of one first byte.
#[derive(Clone, Default)]
struct Names {
    skip: Vec<&'static str>,
    keep: Vec<&'static str>,
    nested: Vec<&'static str>,
}

/// The three lists split by first byte, once: a key is then compared only
/// with the names that can match it (this runs for every attribute read).
fn by_first_byte() -> &'static [Names] {
    static TABLE: std::sync::OnceLock<Vec<Names>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![Names::default(); 256];
        let at = |n: &str| usize::from(n.as_bytes()[0]);
        SKIP.iter().for_each(|&n| t[at(n)].skip.push(n));
        KEEP.iter().for_each(|&n| t[at(n)].keep.push(n));
        NESTED.iter().for_each(|&n| t[at(n)].nested.push(n));
        t
    })
}

/// Whether an attribute key is worth decoding: a nested namespace, or a
/// kept prefix that no skipped prefix overrides.
pub(in crate::dialect::spans) fn wanted(key: &str) -> bool {
    let Some(&first) = key.as_bytes().first() else {
        return false;
    };
    let n = &by_first_byte()[usize::from(first)];
    n.nested.contains(&key)
        || !n.skip.iter().any(|p| key.starts_with(p)) && n.keep.iter().any(|p| key.starts_with(p))
}

/// Keys read only from a span without a parent: OpenLLMetry writes
/// `traceloop.entity.input` on every span (an LLM task's whole prompt),
/// and only a root's is read (its question).
fn root_only(key: &str) -> bool {
    matches!(
        key,
        "traceloop.entity.input" | "ai.prompt" | "ai.observability.record_root.input"
    )
}

/// [`wanted`], for a span known to have a parent (`has_parent`) or not
/// (yet): a child's [`root_only`] attributes are not decoded at all.
#[inline]
pub(in crate::dialect::spans) fn wanted_for(key: &str, has_parent: bool) -> bool {
    wanted(key) && !(has_parent && root_only(key))
}

/// Attributes kept as recorded, as text (a structured value as its JSON):
/// a root's OpenLLMetry input, a GenAI tool call's arguments and result.
fn recorded<'b>(b: &'b mut Builder, key: &str) -> Option<&'b mut Option<String>> {
    let root = b.parent_id.is_none();
    let wanted = matches!(
        key,
        "gen_ai.tool.call.arguments" | "gen_ai.tool.call.result"
    ) || (root && key == "traceloop.entity.input");
    if !wanted {
        return None;
    }
    let io = b.io.get_or_insert_with(Default::default);
    Some(match key {
        "traceloop.entity.input" => &mut io.entity_input,
        "gen_ai.tool.call.arguments" => &mut io.tool_args,
        _ => &mut io.tool_result,
    })
}

/// Keys whose string value is itself JSON to be flattened (when it looks like JSON).
pub(super) fn json_valued(key: &str) -> bool {
    key == "gen_ai.output.messages"
        || key == "gen_ai.input.messages"
        || key == "gen_ai.retrieval.documents"
        || key == "langfuse.observation.usage_details"
        || key == "langfuse.observation.cost_details"
        || key == "metadata"
        || key.ends_with(".document.metadata")
}

/// What follows `langfuse.trace.metadata` or `langfuse.observation.metadata`
/// (`""` for the whole map, `channel` for `….metadata.channel`).
fn langfuse_metadata(key: &str) -> Option<&str> {
    let rest = key
        .strip_prefix("langfuse.trace.metadata")
        .or_else(|| key.strip_prefix("langfuse.observation.metadata"))?;
    if rest.is_empty() {
        Some(rest)
    } else {
        rest.strip_prefix('.')
    }
}

/// The lists whose leaves carry an index after their prefix.
#[derive(Clone, Copy)]
enum List {
    Retrieval,
    RerankOut,
    RerankIn,
    GenAiDocs,
    /// Output messages of a family (see [`Builder::message`]).
    Messages(usize),
}

/// The indexed list a key belongs to, and what follows its prefix. Picked
/// by the key's first byte, so other keys cost one compare.
fn indexed_list(key: &str) -> Option<(List, &str)> {
    let lists: &[(&str, List)] = match key.as_bytes().first()? {
        b'r' => &[
            ("retrieval.documents.", List::Retrieval),
            ("reranker.output_documents.", List::RerankOut),
            ("reranker.input_documents.", List::RerankIn),
        ],
        b'g' => &[
            ("gen_ai.retrieval.documents.", List::GenAiDocs),
            ("gen_ai.output.messages.", List::Messages(1)),
            ("gen_ai.completion.", List::Messages(2)),
        ],
        b'l' => &[("llm.output_messages.", List::Messages(0))],
        _ => return None,
    };
    lists
        .iter()
        .find_map(|&(prefix, list)| Some((list, key.strip_prefix(prefix)?)))
}

/// OpenLLMetry writes "unknown" when the model has no name: such a leaf
/// of a key naming a model is ignored.
fn unnamed_model(key: &str, v: &Val<'_>) -> bool {
    v.as_str()
        .is_some_and(|m| m.eq_ignore_ascii_case("unknown"))
        && key.contains("model")
}

/// The OpenInference kind of a Monocle span type (`span.type`).
fn monocle_kind(t: &str) -> Option<&'static str> {
    Some(match t {
        "inference" | "inference.modelapi" | "inference.framework" => "LLM",
        "retrieval" => "RETRIEVER",
        "agentic.turn" | "agentic.invocation" => "AGENT",
        "agentic.tool.invocation" | "agentic.mcp.invocation" => "TOOL",
        "workflow" | "generic" => "CHAIN",
        _ => return None,
    })
}

/// The OpenInference kind of a TruLens span type.
fn trulens_kind(t: &str) -> Option<&'static str> {
    Some(match t {
        "record_root" => "AGENT",
        "retrieval" => "RETRIEVER",
        "generation" => "LLM",
        "reranking" => "RERANKER",
        "tool" => "TOOL",
        "agent" => "AGENT",
        "unknown" => return None,
        _ => "CHAIN",
    })
}

/// The OpenInference kind of a Vercel AI SDK operation (`ai.operationId`).
fn vercel_kind(op: &str) -> Option<&'static str> {
    let (_, last) = op.rsplit_once('.')?;
    Some(match last {
        "doGenerate" | "doStream" => "LLM",
        "toolCall" => "TOOL",
        "embed" | "embedMany" | "doEmbed" => "EMBEDDING",
        "generateText" | "streamText" | "generateObject" | "streamObject" => "CHAIN",
        _ => return None,
    })
}

impl Builder {
    /// One top-level attribute: decoded lazily by the caller, flattened here.
    pub(in crate::dialect::spans) fn attr(&mut self, key: &str, v: &Val<'_>) {
        let first = key.as_bytes().first();
        if first == Some(&b't') && key.starts_with("traceloop.") {
            self.openllmetry = true;
        }
        if first == Some(&b'l')
            && let Some(rest) = langfuse_metadata(key)
        {
            // Langfuse writes every metadata value JSON-encoded
            // (`"\"web\""` is `web`) and the whole map as one JSON string
            // when it is set at once; both read as plain `metadata.*`.
            let decoded = v
                .as_str()
                .and_then(|s| serde_json::from_str::<Val<'_>>(s).ok());
            let v = decoded.as_ref().unwrap_or(v);
            let mut k = String::with_capacity(9 + rest.len());
            k.push_str("metadata");
            if !rest.is_empty() {
                k.push('.');
                k.push_str(rest);
            }
            flatten(&k, v, &mut |k, v| self.leaf(k, v));
            return;
        }
        // A root's question as the Vercel AI SDK (`ai.prompt`) and TruLens
        // (the record root's input) record it.
        if first == Some(&b'a') && root_only(key) {
            if self.parent_id.is_none() {
                self.input_value = Some(v.recorded_text());
            }
            return;
        }
        if matches!(first, Some(b't' | b'g'))
            && (root_only(key) || key.starts_with("gen_ai.tool.call."))
        {
            if let Some(slot) = recorded(self, key) {
                *slot = Some(v.recorded_text());
            }
            return;
        }
        // While the span has no parent, its input messages as recorded:
        // a root's question is its last user message.
        if first == Some(&b'g') && key == "gen_ai.input.messages" && self.parent_id.is_none() {
            self.io.get_or_insert_with(Default::default).input_messages = Some(v.recorded_text());
        }
        flatten(key, v, &mut |k, v| self.leaf(k, v));
    }

    /// One flattened leaf: the attribute names of every convention read.
    fn leaf(&mut self, key: &str, v: &Val<'_>) {
        // Dataframe rows carry every column; absent values are null.
        if matches!(v, Val::Null) {
            return;
        }
        if self.input_leaf(key, v) {
            return;
        }
        // Documents and messages (most leaves of a retrieval) carry a list
        // index, and no name below starts with their prefixes: they go to
        // their list without trying every name first.
        if let Some((list, rest)) = indexed_list(key) {
            if !unnamed_model(key, v) {
                self.indexed(list, rest, v);
            }
            return;
        }
        // Each family is tried in turn; a model named "unknown" is no model.
        if self.kind_leaf(key, v)
            || self.ai_sdk_leaf(key, v)
            || self.output_leaf(key, v)
            || self.who_leaf(key, v)
            || unnamed_model(key, v)
        {
            return;
        }
        self.usage_leaf(key, v);
    }

    /// The span kinds of OpenInference, Langfuse, the Vercel AI SDK, Monocle
    /// and TruLens, and what the last three record of answers, tools,
    /// contexts and app names; false when `key` is none of these.
    fn kind_leaf(&mut self, key: &str, v: &Val<'_>) -> bool {
        let s = || v.as_str().map(str::to_owned);
        match key {
            "openinference.span.kind" | "span_kind" if self.oi_kind.is_none() => {
                self.oi_kind = s();
            }
            "langfuse.observation.type" => self.lf_kind = s(),
            // The Vercel AI SDK names its operations; each maps onto an
            // OpenInference kind (`ai.generateText` calls
            // `ai.generateText.doGenerate`, the model, and `ai.toolCall`s).
            "ai.operationId" if self.oi_kind.is_none() => {
                self.oi_kind = v.as_str().and_then(vercel_kind).map(str::to_owned);
            }
            "ai.response.text" | "ai.response.object" => {
                self.content_recorded = true;
                self.output_ai = s().map(|t| {
                    let key = if key == "ai.response.text" {
                        "ai.response.text"
                    } else {
                        "ai.response.object"
                    };
                    (t, key)
                });
            }
            "ai.toolCall.name" => self.tool_name = s(),
            // Monocle: the span's type, and what it returned (its
            // `data.output` event, read by the span reader).
            "span.type" if self.oi_kind.is_none() => {
                self.oi_kind = v.as_str().and_then(monocle_kind).map(str::to_owned);
            }
            "monocle.output" => {
                self.content_recorded = true;
                self.output_ai = s().map(|t| (t, "events.data.output.response"));
            }
            // TruLens: the span type, the app's answer on the record root,
            // what each call returned, a retrieval's contexts.
            "ai.observability.span_type" if self.oi_kind.is_none() => {
                self.oi_kind = v.as_str().and_then(trulens_kind).map(str::to_owned);
            }
            "ai.observability.record_root.output" => {
                self.content_recorded = true;
                self.output_ai = s().map(|t| (t, "ai.observability.record_root.output"));
            }
            "ai.observability.call.return" => self.returned = s(),
            "ai.observability.retrieval.retrieved_contexts" => {
                if let Val::List(items) = v {
                    self.retrieval.get_or_insert_with(BTreeMap::new);
                    for (i, item) in items.iter().enumerate() {
                        docs_entry(&mut self.retrieval, i as u32).set("content", item);
                    }
                }
            }
            "ai.observability.app_name" if self.agent_name.is_none() => {
                self.agent_name = v.as_id();
            }
            _ => return false,
        }
        true
    }

    /// The model, usage and telemetry metadata of the Vercel AI SDK; false
    /// when `key` is none of them.
    fn ai_sdk_leaf(&mut self, key: &str, v: &Val<'_>) -> bool {
        match key {
            "ai.model.id" => set_min(&mut self.model, 1, v),
            "ai.response.model" => set_min(&mut self.model, 0, v),
            "ai.usage.promptTokens" | "ai.usage.inputTokens" => {
                self.tokens.prompt = v.as_u64().or(self.tokens.prompt)
            }
            "ai.usage.completionTokens" | "ai.usage.outputTokens" => {
                self.tokens.completion = v.as_u64().or(self.tokens.completion)
            }
            "ai.usage.totalTokens" => self.tokens.total = v.as_u64().or(self.tokens.total),
            "ai.telemetry.functionId" if self.agent_name.is_none() => {
                self.agent_name = v.as_id();
            }
            "ai.telemetry.metadata.session_id"
            | "ai.telemetry.metadata.sessionId"
            | "ai.telemetry.metadata.thread_id"
            | "ai.telemetry.metadata.conversation_id" => set_min(&mut self.conversation, 1, v),
            "ai.telemetry.metadata.channel" => {
                if let Some(c) = v.as_str().filter(|c| !c.is_empty()) {
                    self.channel = Some(c.to_owned());
                }
            }
            _ => return false,
        }
        true
    }

    /// The OpenLLMetry and GenAI operation, the outputs and levels of
    /// OpenInference, OpenLLMetry and Langfuse, and empty document lists;
    /// false when `key` is none of them.
    fn output_leaf(&mut self, key: &str, v: &Val<'_>) -> bool {
        let s = || v.as_str().map(str::to_owned);
        match key {
            "traceloop.span.kind" => self.tl_kind = s(),
            "gen_ai.operation.name" => self.operation = s(),
            "output.value" => {
                self.content_recorded = true;
                self.output_value = s();
            }
            "output.mime_type" => self.output_mime = s(),
            "traceloop.entity.output" => {
                self.content_recorded = true;
                self.output_tl = s();
            }
            "langfuse.observation.output" => {
                self.content_recorded = true;
                self.output_lf = s();
            }
            "langfuse.observation.level" if v.as_str() == Some("ERROR") => {
                self.error = true;
            }
            "retrieval.documents" => {
                if matches!(v, Val::List(l) if l.is_empty()) {
                    self.retrieval.get_or_insert_with(BTreeMap::new);
                }
            }
            "gen_ai.retrieval.documents" => {
                if matches!(v, Val::List(l) if l.is_empty()) {
                    self.genai_docs.get_or_insert_with(BTreeMap::new);
                }
            }
            _ => return false,
        }
        true
    }

    /// The conversation, channel and agent of every convention; false when
    /// `key` is none of them.
    fn who_leaf(&mut self, key: &str, v: &Val<'_>) -> bool {
        match key {
            "session.id" | "gen_ai.conversation.id" | "langfuse.session.id" => {
                set_min(&mut self.conversation, 0, v)
            }
            "metadata.session_id"
            | "metadata.thread_id"
            | "metadata.conversation_id"
            | "traceloop.association.properties.session_id"
            | "traceloop.association.properties.thread_id"
            | "traceloop.association.properties.conversation_id" => {
                set_min(&mut self.conversation, 1, v)
            }
            "metadata.channel" | "traceloop.association.properties.channel" => {
                if let Some(c) = v.as_str().filter(|c| !c.is_empty()) {
                    self.channel = Some(c.to_owned());
                }
            }
            "metadata.agent"
            | "metadata.agent_name"
            | "traceloop.association.properties.agent"
            | "traceloop.association.properties.agent_name" => {
                if let Some(a) = v.as_id() {
                    self.agent_meta = Some(a);
                }
            }
            // Monocle names the application a trace belongs to.
            "workflow.name" if self.agent_meta.is_none() => self.agent_meta = v.as_id(),
            "agent.name" => self.agent_name = v.as_id(),
            "gen_ai.agent.name" if self.agent_name.is_none() => {
                self.agent_name = v.as_id();
            }
            "gen_ai.agent.id" => self.agent_id = v.as_id(),
            _ => return false,
        }
        true
    }

    /// The model, tokens, cost, tool name and error type of OpenInference,
    /// GenAI, OpenLLMetry and Langfuse.
    fn usage_leaf(&mut self, key: &str, v: &Val<'_>) {
        let s = || v.as_str().map(str::to_owned);
        match key {
            "llm.response.model_name" | "gen_ai.response.model" => set_min(&mut self.model, 0, v),
            "llm.model_name" | "gen_ai.request.model" | "langfuse.observation.model.name" => {
                set_min(&mut self.model, 1, v)
            }
            "llm.token_count.prompt"
            | "gen_ai.usage.input_tokens"
            | "gen_ai.usage.prompt_tokens"
            | "langfuse.observation.usage_details.input" => {
                self.tokens.prompt = v.as_u64().or(self.tokens.prompt)
            }
            "llm.token_count.completion"
            | "gen_ai.usage.output_tokens"
            | "gen_ai.usage.completion_tokens"
            | "langfuse.observation.usage_details.output" => {
                self.tokens.completion = v.as_u64().or(self.tokens.completion)
            }
            "llm.token_count.total"
            | "gen_ai.usage.total_tokens"
            | "llm.usage.total_tokens"
            | "langfuse.observation.usage_details.total" => {
                self.tokens.total = v.as_u64().or(self.tokens.total)
            }
            "llm.cost.total" | "langfuse.observation.cost_details.total" => {
                self.cost_total = v.as_f64()
            }
            "llm.cost.prompt"
            | "llm.cost.completion"
            | "langfuse.observation.cost_details.input"
            | "langfuse.observation.cost_details.output" => {
                if let Some(c) = v.as_f64() {
                    self.cost_parts = Some(self.cost_parts.unwrap_or(0.0) + c);
                }
            }
            "tool.name" | "gen_ai.tool.name" => self.tool_name = s(),
            "error.type" => self.error_type = v.as_id(),
            _ => {}
        }
    }

    /// A leaf of an LLM call's input, kept as text ([`Builder::input_msgs`],
    /// [`Builder::input_value`]); false for any other leaf. Picked by the
    /// key's first byte, so other keys cost one compare.
    fn input_leaf(&mut self, key: &str, v: &Val<'_>) -> bool {
        let messages = match key.as_bytes().first() {
            Some(b'l') => {
                if key == "langfuse.observation.input" {
                    self.input_value = v.as_str().map(str::to_owned);
                    return true;
                }
                key.starts_with("llm.input_messages")
            }
            Some(b'g') => key.starts_with("gen_ai.input.messages"),
            Some(b'i') => {
                if key == "input.value" {
                    self.input_value = v.as_str().map(str::to_owned);
                    return true;
                }
                false
            }
            _ => false,
        };
        if messages && let Some(t) = v.as_str() {
            self.input_msgs.push(t);
        }
        messages
    }

    /// A leaf of an indexed list: `rest` is what follows the list's prefix
    /// (`3.document.id`).
    fn indexed(&mut self, list: List, rest: &str, v: &Val<'_>) {
        let Some((i, field)) = split_index(rest) else {
            return;
        };
        let docs = match list {
            List::Retrieval => &mut self.retrieval,
            List::RerankOut => &mut self.rerank_out,
            List::RerankIn => &mut self.rerank_in,
            List::GenAiDocs => {
                docs_entry(&mut self.genai_docs, i).set(field, v);
                return;
            }
            List::Messages(family) => {
                self.content_recorded = true;
                self.message(family, i, field, v);
                return;
            }
        };
        if let Some(field) = field.strip_prefix("document.") {
            docs_entry(docs, i).set(field, v);
        }
    }

    /// A field of output message `i` of a family (0: OpenInference, 1: GenAI
    /// parts, 2: pre-1.37 `gen_ai.completion`).
    fn message(&mut self, family: usize, i: u32, field: &str, v: &Val<'_>) {
        let m = self.msgs[family].entry(i).or_default();
        let s = || v.as_str().map(str::to_owned);

        match (family, field) {
            (0, "message.content") | (1 | 2, "content") => m.content = s(),
            (0, "message.role") | (1 | 2, "role") => m.role = s(),
            (0 | 1, _) => {
                let parts = if family == 0 {
                    "message.contents."
                } else {
                    "parts."
                };
                if let Some(p) = field.strip_prefix(parts)
                    && let Some((j, pf)) = split_index(p)
                {
                    let part = m.parts.entry(j).or_default();
                    match (family, pf) {
                        (0, "message_content.type") | (1, "type") => part.0 = s(),
                        (0, "message_content.text") | (1, "content" | "text") => part.1 = s(),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// The span's semantic kind, from the first convention that names one.
    pub(super) fn kind(&self) -> SpanKind {
        if let Some(k) = self
            .oi_kind
            .as_deref()
            .and_then(SpanKind::from_openinference)
        {
            return k;
        }
        if let Some(k) = self
            .lf_kind
            .as_deref()
            .and_then(SpanKind::from_openinference)
        {
            return k;
        }
        if let Some(op) = self.operation.as_deref() {
            let k = match op {
                "invoke_agent" | "create_agent" => SpanKind::Agent,
                "chat" | "text_completion" | "generate_content" => SpanKind::Llm,
                "retrieval" | "vector_db_retrieve" => SpanKind::Retriever,
                "execute_tool" => SpanKind::Tool,
                "embeddings" => SpanKind::Embedding,
                "invoke_workflow" => SpanKind::Chain,
                _ => SpanKind::Unknown,
            };
            if k != SpanKind::Unknown {
                return k;
            }
        }
        match self.tl_kind.as_deref() {
            Some("workflow") => SpanKind::Chain,
            Some("agent") => SpanKind::Agent,
            Some("tool") => SpanKind::Tool,
            _ if self.retrieval.is_some() || self.genai_docs.is_some() => SpanKind::Retriever,
            _ if self.tool_name.is_some() => SpanKind::Tool,
            _ => SpanKind::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{KEEP, NESTED, SKIP, wanted};

    /// The lists scanned in full: what the split by first byte must keep.
    fn wanted_flat(key: &str) -> bool {
        NESTED.contains(&key)
            || !SKIP.iter().any(|p| key.starts_with(p)) && KEEP.iter().any(|p| key.starts_with(p))
    }

    #[test]
    fn the_lists_by_first_byte_keep_what_the_flat_lists_keep() {
        // Every listed name, and names of other attributes.
        let others = [
            "output.value",
            "llm.token_count.prompt",
            "reranker.output_documents",
            "gen_ai.agent.name",
            "traceloop.association.properties.channel",
            "langfuse.observation.type",
            "input.value",
            "http.method",
            "service.name",
            "user.id",
            "",
            "é.x",
        ];
        let names = SKIP.iter().chain(&KEEP).chain(&NESTED).chain(&others);
        let mut keys = Vec::new();
        for &n in names {
            // The name, every prefix of it, and longer keys under it.
            for end in (0..=n.len()).filter(|&e| n.is_char_boundary(e)) {
                keys.push(n[..end].to_string());
            }
            for tail in [".", "x", "s", ".0.document.id", "_extra", ".nested.key"] {
                keys.push(format!("{n}{tail}"));
            }
            keys.push(n.to_ascii_uppercase());
        }
        let mut kept = 0;
        for k in &keys {
            assert_eq!(wanted(k), wanted_flat(k), "{k:?}");
            kept += usize::from(wanted(k));
        }
        // Both answers occur often: the comparison means something.
        assert!(
            kept > 100 && keys.len() - kept > 100,
            "{kept} of {}",
            keys.len()
        );
    }
}

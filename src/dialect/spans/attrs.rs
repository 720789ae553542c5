//! Attribute values and what the assembler keeps of them.
//!
//! Every format ends up here: OTLP `AnyValue`s, Phoenix's plain JSON
//! attribute values and the dataframe's nested columns are all decoded into
//! the small borrowed [`Val`] tree, flattened into dotted keys
//! (`retrieval.documents.0.document.metadata.chunk_id`, whatever shape they
//! arrived in) and fed to [`Builder::leaf`], the one place that knows the
//! attribute names of OpenInference, OTel GenAI, OpenLLMetry and Langfuse.
//!
//! Values are decoded only for keys [`wanted`] lets through; a value that
//! does not decode (wrong type, too deep) is ignored, never an error: one odd
//! attribute must not cost the span.

use super::{Doc, Span, SpanKind, Tokens};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// Deepest nesting flattened; deeper parts of a value are ignored.
const MAX_DEPTH: u32 = 12;
/// Longest flattened key; longer paths are ignored.
const MAX_KEY: usize = 512;
/// Highest list index kept (documents, messages); beyond it entries are ignored.
const MAX_INDEX: u32 = 100_000;

/// A decoded attribute value, borrowing from the input where it can.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(Cow<'a, str>),
    List(Vec<Val<'a>>),
    Map(Vec<(Cow<'a, str>, Val<'a>)>),
}

impl Val<'_> {
    pub(super) fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A number, or a string holding one (some exporters stringify).
    pub(super) fn as_f64(&self) -> Option<f64> {
        let f = match self {
            Val::Int(i) => *i as f64,
            Val::UInt(u) => *u as f64,
            Val::Float(f) => *f,
            Val::Str(s) => s.trim().parse::<f64>().ok()?,
            _ => return None,
        };
        f.is_finite().then_some(f)
    }

    /// A non-negative whole number (`32`, `32.0`, `"32"`).
    pub(super) fn as_u64(&self) -> Option<u64> {
        match self {
            Val::Int(i) => u64::try_from(*i).ok(),
            Val::UInt(u) => Some(*u),
            Val::Float(_) | Val::Str(_) => {
                if let Val::Str(s) = self
                    && let Ok(u) = s.trim().parse::<u64>()
                {
                    return Some(u);
                }
                let f = self.as_f64()?;
                (f >= 0.0 && f.fract() == 0.0 && f < 1.8e19).then_some(f as u64)
            }
            _ => None,
        }
    }

    /// An identifier: a string, or an integer written as text.
    pub(super) fn as_id(&self) -> Option<String> {
        match self {
            Val::Str(s) if !s.is_empty() => Some(s.to_string()),
            Val::Int(i) => Some(i.to_string()),
            Val::UInt(u) => Some(u.to_string()),
            _ => None,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Val<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValVisitor(std::marker::PhantomData))
    }
}

struct ValVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for ValVisitor<'a> {
    type Value = Val<'a>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Val<'a>, E> {
        Ok(Val::Null)
    }
    fn visit_none<E>(self) -> Result<Val<'a>, E> {
        Ok(Val::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Val<'a>, D::Error> {
        Val::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Val<'a>, E> {
        Ok(Val::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Val<'a>, E> {
        Ok(Val::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Val<'a>, E> {
        Ok(Val::UInt(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Val<'a>, E> {
        Ok(Val::Float(v))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Val<'a>, E> {
        Ok(Val::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Val<'a>, E> {
        Ok(Val::Str(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Val<'a>, E> {
        Ok(Val::Str(Cow::Owned(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Val<'a>, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element::<Val<'a>>()? {
            out.push(v);
        }
        Ok(Val::List(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Val<'a>, A::Error> {
        let mut out = Vec::new();
        while let Some(k) = map.next_key::<BStr<'a>>()? {
            out.push((k.0, map.next_value::<Val<'a>>()?));
        }
        Ok(Val::Map(out))
    }
}

/// A string that borrows from the input when it has no escapes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BStr<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for BStr<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = BStr<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<BStr<'a>, E> {
                Ok(BStr(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<BStr<'a>, E> {
                Ok(BStr(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<BStr<'a>, E> {
                Ok(BStr(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V(std::marker::PhantomData))
    }
}

/// A string, or an integer kept as its text (ids written as numbers).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct IdIn<'a>(pub Cow<'a, str>);

impl<'de: 'a, 'a> Deserialize<'de> for IdIn<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = IdIn<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an id string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Owned(v.to_owned())))
            }
            fn visit_u64<E>(self, v: u64) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Owned(v.to_string())))
            }
            fn visit_i64<E>(self, v: i64) -> Result<IdIn<'a>, E> {
                Ok(IdIn(Cow::Owned(v.to_string())))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// Whether an attribute key is worth decoding. Big content the assembler
/// never reads (prompts, input messages, tool arguments) is skipped unread.
pub(super) fn wanted(key: &str) -> bool {
    const SKIP: [&str; 12] = [
        "llm.input_messages",
        "llm.invocation_parameters",
        "llm.prompt_template",
        "llm.tools",
        "gen_ai.input.messages",
        "gen_ai.system_instructions",
        "gen_ai.task.input",
        "gen_ai.task.output",
        "gen_ai.tool.call.arguments",
        "gen_ai.prompt",
        "traceloop.entity.input",
        "langfuse.observation.input",
    ];
    const KEEP: [&str; 17] = [
        "openinference.span.kind",
        "output.",
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
        "traceloop.association.properties.",
        "langfuse.observation.",
        "langfuse.trace.metadata.",
        "span_kind",
    ];
    // Attributes written nested (`{"llm":{"output_messages":…}}`) are
    // flattened from their namespace.
    const NESTED: [&str; 9] = [
        "llm",
        "retrieval",
        "reranker",
        "output",
        "session",
        "agent",
        "tool",
        "openinference",
        "error",
    ];
    NESTED.contains(&key)
        || !SKIP.iter().any(|p| key.starts_with(p)) && KEEP.iter().any(|p| key.starts_with(p))
}

/// Keys whose string value is itself JSON to be flattened (when it looks like JSON).
fn json_valued(key: &str) -> bool {
    key == "gen_ai.output.messages"
        || key == "gen_ai.retrieval.documents"
        || key == "langfuse.observation.usage_details"
        || key.ends_with(".document.metadata")
}

/// Calls `f` for every leaf of `v` under its dotted key: maps and lists of
/// maps are walked, JSON-in-a-string values of [`json_valued`] keys are
/// parsed and walked, empty lists and lists of scalars are leaves.
pub(super) fn flatten(key: &str, v: &Val<'_>, f: &mut dyn FnMut(&str, &Val<'_>)) {
    let mut k = String::with_capacity(key.len() + 32);
    k.push_str(key);
    walk(&mut k, v, 0, f);
}

fn walk(key: &mut String, v: &Val<'_>, depth: u32, f: &mut dyn FnMut(&str, &Val<'_>)) {
    if depth > MAX_DEPTH || key.len() > MAX_KEY {
        return;
    }
    match v {
        Val::Map(entries) => {
            for (k, sub) in entries {
                let len = key.len();
                key.push('.');
                key.push_str(k);
                walk(key, sub, depth + 1, f);
                key.truncate(len);
            }
        }
        Val::List(items)
            if items
                .iter()
                .any(|i| matches!(i, Val::Map(_) | Val::List(_))) =>
        {
            for (i, sub) in items.iter().enumerate() {
                let len = key.len();
                key.push('.');
                key.push_str(itoa::Buffer::new().format(i));
                walk(key, sub, depth + 1, f);
                key.truncate(len);
            }
        }
        Val::Str(s) if json_valued(key) && looks_like_json(s) => {
            match serde_json::from_str::<Val<'_>>(s) {
                Ok(parsed) => walk(key, &parsed, depth + 1, f),
                Err(_) => f(key, v),
            }
        }
        _ => f(key, v),
    }
}

fn looks_like_json(s: &str) -> bool {
    matches!(s.trim_start().as_bytes().first(), Some(b'{' | b'['))
}

/// Splits `"12.rest"` into `(12, "rest")` (`"12"` gives `(12, "")`).
fn split_index(s: &str) -> Option<(u32, &str)> {
    let end = s.find('.').unwrap_or(s.len());
    let (digits, rest) = s.split_at(end);
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let i: u32 = digits.parse().ok()?;
    (i <= MAX_INDEX).then_some((i, rest.strip_prefix('.').unwrap_or(rest)))
}

/// One document while its attributes arrive.
#[derive(Debug, Default)]
pub(super) struct DocAcc {
    id: Option<String>,
    score: Option<f64>,
    content: Option<String>,
    /// metadata `id`, `doc_id`, `document_id`, `chunk_id`, `source`.
    meta: [Option<String>; 5],
    meta_score: Option<f64>,
}

const META_IDS: [&str; 5] = ["id", "doc_id", "document_id", "chunk_id", "source"];

impl DocAcc {
    /// `field` is what follows `document.` (OpenInference) or the element
    /// index (`gen_ai.retrieval.documents`, LangChain documents).
    fn set(&mut self, field: &str, v: &Val<'_>) {
        match field {
            "id" => self.id = v.as_id(),
            "score" => self.score = v.as_f64(),
            "content" | "page_content" | "text" => self.content = v.as_str().map(str::to_owned),
            _ => {
                if let Some(m) = field.strip_prefix("metadata.") {
                    if m == "score" {
                        self.meta_score = v.as_f64();
                    } else if let Some(i) = META_IDS.iter().position(|k| *k == m) {
                        self.meta[i] = v.as_id();
                    }
                }
            }
        }
    }

    /// The document as kept: the rules for ids and scores are here.
    ///
    /// - `chunk_id`: the document's own id (`document.id`, the semconv `id`;
    ///   LlamaIndex writes the node id there), else metadata `id`, else
    ///   metadata `chunk_id`;
    /// - `document_id`: metadata `doc_id`, else `document_id`, else `source`;
    /// - `score`: the document's score, else metadata `score`, else none
    ///   (never 0).
    fn finish(self) -> Doc {
        let [m_id, m_doc, m_document, m_chunk, m_source] = self.meta;
        Doc {
            chunk_id: self.id.or(m_id).or(m_chunk),
            document_id: m_doc.or(m_document).or(m_source),
            score: self.score.or(self.meta_score),
            content: self.content,
        }
    }
}

/// One output message while its attributes arrive.
#[derive(Debug, Default)]
pub(super) struct MsgAcc {
    role: Option<String>,
    content: Option<String>,
    /// (part type, text) by part index.
    parts: BTreeMap<u32, (Option<String>, Option<String>)>,
}

/// The text of the assistant messages of one family, joined by newlines.
fn msgs_text(msgs: &BTreeMap<u32, MsgAcc>) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    for m in msgs.values() {
        if m.role
            .as_deref()
            .is_some_and(|r| matches!(r, "user" | "system" | "tool" | "human"))
        {
            continue;
        }
        match &m.content {
            Some(c) if !c.is_empty() => out.push(c.clone()),
            _ => {
                let text: Vec<&str> = m
                    .parts
                    .values()
                    .filter(|(ty, _)| ty.as_deref().is_none_or(|t| t == "text"))
                    .filter_map(|(_, t)| t.as_deref())
                    .filter(|t| !t.is_empty())
                    .collect();
                if !text.is_empty() {
                    out.push(text.join(""));
                }
            }
        }
    }
    (!out.is_empty()).then(|| out.join("\n"))
}

/// Everything kept of one span while its attributes arrive.
#[derive(Debug, Default)]
pub(super) struct Builder {
    pub(super) trace_id: String,
    pub(super) span_id: String,
    pub(super) parent_id: Option<String>,
    pub(super) name: String,
    pub(super) start_ns: Option<i128>,
    pub(super) end_ns: Option<i128>,
    pub(super) error: bool,
    pub(super) service: Option<String>,
    /// `span_kind` / `openinference.span.kind`.
    pub(super) oi_kind: Option<String>,
    pub(super) lf_kind: Option<String>,
    pub(super) tl_kind: Option<String>,
    pub(super) operation: Option<String>,
    pub(super) output_value: Option<String>,
    pub(super) output_mime: Option<String>,
    pub(super) output_tl: Option<String>,
    pub(super) output_lf: Option<String>,
    /// Output messages: OpenInference, GenAI parts, pre-1.37 `gen_ai.completion`.
    pub(super) msgs: [BTreeMap<u32, MsgAcc>; 3],
    pub(super) content_recorded: bool,
    pub(super) retrieval: Option<BTreeMap<u32, DocAcc>>,
    pub(super) genai_docs: Option<BTreeMap<u32, DocAcc>>,
    pub(super) rerank_in: Option<BTreeMap<u32, DocAcc>>,
    pub(super) rerank_out: Option<BTreeMap<u32, DocAcc>>,
    pub(super) agent_name: Option<String>,
    pub(super) agent_id: Option<String>,
    /// (priority, value): lower wins.
    pub(super) conversation: Option<(u8, String)>,
    pub(super) channel: Option<String>,
    pub(super) model: Option<(u8, String)>,
    pub(super) tokens: Tokens,
    pub(super) cost_total: Option<f64>,
    pub(super) cost_parts: Option<f64>,
    pub(super) tool_name: Option<String>,
    pub(super) error_type: Option<String>,
    /// True when any `traceloop.*` attribute was seen (OpenLLMetry).
    pub(super) openllmetry: bool,
}

fn set_min(slot: &mut Option<(u8, String)>, prio: u8, v: &Val<'_>) {
    if let Some(s) = v.as_id()
        && slot.as_ref().is_none_or(|(p, _)| prio < *p)
    {
        *slot = Some((prio, s));
    }
}

fn docs_entry(map: &mut Option<BTreeMap<u32, DocAcc>>, i: u32) -> &mut DocAcc {
    map.get_or_insert_with(BTreeMap::new).entry(i).or_default()
}

impl Builder {
    /// One top-level attribute: decoded lazily by the caller, flattened here.
    pub(super) fn attr(&mut self, key: &str, v: &Val<'_>) {
        if key.starts_with("traceloop.") {
            self.openllmetry = true;
        }
        flatten(key, v, &mut |k, v| self.leaf(k, v));
    }

    /// One flattened leaf: the attribute names of every convention read.
    fn leaf(&mut self, key: &str, v: &Val<'_>) {
        // Dataframe rows carry every column; absent values are null.
        if matches!(v, Val::Null) {
            return;
        }
        let s = || v.as_str().map(str::to_owned);
        match key {
            "openinference.span.kind" | "span_kind" => {
                if self.oi_kind.is_none() {
                    self.oi_kind = s();
                }
            }
            "langfuse.observation.type" => self.lf_kind = s(),
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
            "langfuse.observation.level" => {
                if v.as_str() == Some("ERROR") {
                    self.error = true;
                }
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
            "session.id" | "gen_ai.conversation.id" => set_min(&mut self.conversation, 0, v),
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
            "agent.name" => self.agent_name = v.as_id(),
            "gen_ai.agent.name" => {
                if self.agent_name.is_none() {
                    self.agent_name = v.as_id();
                }
            }
            "gen_ai.agent.id" => self.agent_id = v.as_id(),
            // OpenLLMetry writes "unknown" when the model has no name.
            _ if v
                .as_str()
                .is_some_and(|m| m.eq_ignore_ascii_case("unknown"))
                && key.contains("model") => {}
            "llm.response.model_name" | "gen_ai.response.model" => set_min(&mut self.model, 0, v),
            "llm.model_name" | "gen_ai.request.model" => set_min(&mut self.model, 1, v),
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
            "llm.cost.total" => self.cost_total = v.as_f64(),
            "llm.cost.prompt" | "llm.cost.completion" => {
                if let Some(c) = v.as_f64() {
                    self.cost_parts = Some(self.cost_parts.unwrap_or(0.0) + c);
                }
            }
            "tool.name" | "gen_ai.tool.name" => self.tool_name = s(),
            "error.type" => self.error_type = v.as_id(),
            _ => self.indexed(key, v),
        }
    }

    /// Leaves with a list index in their key: documents and messages.
    fn indexed(&mut self, key: &str, v: &Val<'_>) {
        if let Some(rest) = key.strip_prefix("retrieval.documents.") {
            if let Some((i, field)) = split_index(rest)
                && let Some(field) = field.strip_prefix("document.")
            {
                docs_entry(&mut self.retrieval, i).set(field, v);
            }
        } else if let Some(rest) = key.strip_prefix("reranker.output_documents.") {
            if let Some((i, field)) = split_index(rest)
                && let Some(field) = field.strip_prefix("document.")
            {
                docs_entry(&mut self.rerank_out, i).set(field, v);
            }
        } else if let Some(rest) = key.strip_prefix("reranker.input_documents.") {
            if let Some((i, field)) = split_index(rest)
                && let Some(field) = field.strip_prefix("document.")
            {
                docs_entry(&mut self.rerank_in, i).set(field, v);
            }
        } else if let Some(rest) = key.strip_prefix("gen_ai.retrieval.documents.") {
            if let Some((i, field)) = split_index(rest) {
                docs_entry(&mut self.genai_docs, i).set(field, v);
            }
        } else if let Some(rest) = key.strip_prefix("llm.output_messages.") {
            if let Some((i, field)) = split_index(rest) {
                self.content_recorded = true;
                let m = self.msgs[0].entry(i).or_default();
                match field {
                    "message.content" => m.content = v.as_str().map(str::to_owned),
                    "message.role" => m.role = v.as_str().map(str::to_owned),
                    _ => {
                        if let Some(p) = field.strip_prefix("message.contents.")
                            && let Some((j, pf)) = split_index(p)
                        {
                            let part = m.parts.entry(j).or_default();
                            match pf {
                                "message_content.type" => part.0 = v.as_str().map(str::to_owned),
                                "message_content.text" => part.1 = v.as_str().map(str::to_owned),
                                _ => {}
                            }
                        }
                    }
                }
            }
        } else if let Some(rest) = key.strip_prefix("gen_ai.output.messages.") {
            if let Some((i, field)) = split_index(rest) {
                self.content_recorded = true;
                let m = self.msgs[1].entry(i).or_default();
                match field {
                    "role" => m.role = v.as_str().map(str::to_owned),
                    "content" => m.content = v.as_str().map(str::to_owned),
                    _ => {
                        if let Some(p) = field.strip_prefix("parts.")
                            && let Some((j, pf)) = split_index(p)
                        {
                            let part = m.parts.entry(j).or_default();
                            match pf {
                                "type" => part.0 = v.as_str().map(str::to_owned),
                                "content" | "text" => part.1 = v.as_str().map(str::to_owned),
                                _ => {}
                            }
                        }
                    }
                }
            }
        } else if let Some(rest) = key.strip_prefix("gen_ai.completion.")
            && let Some((i, field)) = split_index(rest)
        {
            self.content_recorded = true;
            let m = self.msgs[2].entry(i).or_default();
            match field {
                "role" => m.role = v.as_str().map(str::to_owned),
                "content" => m.content = v.as_str().map(str::to_owned),
                _ => {}
            }
        }
    }

    /// The span's semantic kind, from the first convention that names one.
    fn kind(&self) -> SpanKind {
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

    /// The finished span.
    pub(super) fn finish(self) -> Span {
        let kind = self.kind();
        let finish = |m: BTreeMap<u32, DocAcc>| -> Vec<Doc> {
            m.into_values().map(DocAcc::finish).collect()
        };
        let (output, output_key) = if let Some(o) = self.output_value {
            (Some(o), "output.value")
        } else if let Some(o) = self.output_tl {
            (Some(o), "traceloop.entity.output")
        } else if let Some(o) = self.output_lf {
            (Some(o), "langfuse.observation.output")
        } else {
            (None, "")
        };
        let keys = [
            "llm.output_messages",
            "gen_ai.output.messages",
            "gen_ai.completion",
        ];
        let (llm_text, llm_text_key) = self
            .msgs
            .iter()
            .zip(keys)
            .find_map(|(m, k)| msgs_text(m).map(|t| (Some(t), k)))
            .unwrap_or((None, ""));
        let mut retrieval = self.retrieval.map(finish).or(self.genai_docs.map(finish));
        // OpenLLMetry and Langfuse keep a retriever's documents only in its output JSON.
        if retrieval.is_none()
            && kind == SpanKind::Retriever
            && let Some(docs) = output.as_deref().and_then(output_documents)
        {
            retrieval = Some(docs);
        }
        // OpenInference's LangChain instrumentor drops `Document.id`; the
        // retriever's output JSON still has it.
        if let Some(docs) = retrieval.as_mut()
            && docs.iter().any(|d| d.chunk_id.is_none())
            && let Some(out) = output.as_deref().and_then(output_documents)
            && out.len() == docs.len()
        {
            for (d, o) in docs.iter_mut().zip(out) {
                if d.chunk_id.is_none() {
                    d.chunk_id = o.chunk_id;
                }
            }
        }
        // OpenLLMetry's gen_ai.agent.id is the LangChain run id, not an agent.
        let agent_id = if self.openllmetry {
            None
        } else {
            self.agent_id
        };
        Span {
            trace_id: self.trace_id,
            span_id: self.span_id,
            parent_id: self.parent_id,
            name: self.name,
            kind,
            start_ns: self.start_ns,
            end_ns: self.end_ns,
            error: self.error,
            service: self.service,
            operation: self.operation,
            output,
            output_mime: self.output_mime,
            output_key,
            llm_text,
            llm_text_key,
            content_recorded: self.content_recorded,
            retrieval,
            rerank_input: self.rerank_in.map(finish),
            rerank_output: self.rerank_out.map(finish),
            agent_name: self.agent_name,
            agent_id,
            conversation: self.conversation.map(|(_, c)| c),
            channel: self.channel,
            model: self.model.map(|(_, m)| m),
            tokens: self.tokens,
            cost_usd: self.cost_total.or(self.cost_parts),
            tool_name: self.tool_name,
            error_type: self.error_type,
        }
    }
}

/// Documents in a retriever's output JSON: LangChain's
/// `{"documents":[{id?, page_content, metadata}]}` or a bare list of them.
pub(super) fn output_documents(s: &str) -> Option<Vec<Doc>> {
    if !looks_like_json(s) {
        return None;
    }
    let v: Val<'_> = serde_json::from_str(s).ok()?;
    let list = match &v {
        Val::List(l) => l,
        Val::Map(m) => match m.iter().find(|(k, _)| k == "documents") {
            Some((_, Val::List(l))) => l,
            _ => return None,
        },
        _ => return None,
    };
    if !list.iter().all(|d| matches!(d, Val::Map(_))) {
        return None;
    }
    let mut docs: BTreeMap<u32, DocAcc> = BTreeMap::new();
    for (i, d) in list.iter().enumerate().take(MAX_INDEX as usize) {
        let acc = docs.entry(i as u32).or_default();
        flatten("", d, &mut |k, v| {
            acc.set(k.strip_prefix('.').unwrap_or(k), v);
        });
    }
    Some(docs.into_values().map(DocAcc::finish).collect())
}

/// The reply text in an output value: plain text as is; JSON (by
/// `mime_type`, or by shape when there is none) yields the assistant text it
/// holds, or `None` when it holds none ("non-text JSON").
pub(super) fn output_text(s: &str, mime: Option<&str>) -> Option<String> {
    let is_json_mime = mime.is_some_and(|m| m.contains("json"));
    let is_text_mime = mime.is_some_and(|m| m.starts_with("text/"));
    if is_text_mime || !looks_like_json(s) && !is_json_mime {
        return (!s.trim().is_empty()).then(|| s.to_owned());
    }
    match serde_json::from_str::<Val<'_>>(s) {
        Ok(v @ (Val::Map(_) | Val::List(_))) => {
            let scalars_only = matches!(&v, Val::List(l) if l.iter().all(|x| !matches!(x, Val::Map(_) | Val::List(_))));
            match text_of(&v, 0) {
                Some(t) => Some(t),
                None if scalars_only && mime.is_none() => Some(s.to_owned()),
                None => None,
            }
        }
        Ok(Val::Str(t)) => (!t.trim().is_empty()).then(|| t.into_owned()),
        Ok(_) if mime.is_none() => Some(s.to_owned()),
        Ok(_) => None,
        Err(_) => (!s.trim().is_empty()).then(|| s.to_owned()),
    }
}

/// Content part types that are not text.
fn non_text_part(t: &str) -> bool {
    matches!(
        t,
        "tool_call"
            | "tool_use"
            | "tool_result"
            | "tool_call_response"
            | "function_call"
            | "image"
            | "image_url"
            | "audio"
            | "file"
            | "blob"
            | "uri"
            | "reasoning"
            | "thinking"
    )
}

/// Roles whose text is never the reply.
fn not_assistant(m: &[(Cow<'_, str>, Val<'_>)]) -> bool {
    m.iter().any(|(k, v)| {
        (k == "role" || k == "type")
            && v.as_str()
                .is_some_and(|r| matches!(r, "user" | "human" | "system" | "tool"))
    })
}

fn text_of(v: &Val<'_>, depth: u32) -> Option<String> {
    if depth > 8 {
        return None;
    }
    match v {
        Val::Str(s) => (!s.trim().is_empty()).then(|| s.to_string()),
        Val::List(items) => items.iter().rev().find_map(|i| match i {
            Val::Map(m) if not_assistant(m) => None,
            // A list of content parts: text parts only.
            Val::Map(m)
                if m.iter()
                    .any(|(k, v)| k == "type" && v.as_str().is_some_and(non_text_part)) =>
            {
                None
            }
            other => text_of(other, depth + 1),
        }),
        Val::Map(m) => {
            if not_assistant(m) {
                return None;
            }
            const KEYS: [&str; 12] = [
                "output",
                "outputs",
                "answer",
                "response",
                "result",
                "final_answer",
                "content",
                "text",
                "kwargs",
                "message",
                "messages",
                "generations",
            ];
            KEYS.iter().find_map(|want| {
                m.iter()
                    .find(|(k, _)| k == want)
                    .and_then(|(_, v)| text_of(v, depth + 1))
            })
        }
        _ => None,
    }
}

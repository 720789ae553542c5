//! The accumulators a span's attributes fill ([`Builder`], documents,
//! output messages) and the finished [`Span`] with its id and score rules.

use super::output::output_documents;
use super::value::Val;
use crate::dialect::ShortId;
use crate::dialect::spans::prompt::Prompt;
use crate::dialect::spans::{Doc, Recorded, Span, SpanKind, Tokens};
use std::collections::BTreeMap;

/// One document while its attributes arrive.
#[derive(Debug, Default)]
pub(in crate::dialect::spans) struct DocAcc {
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
    pub(super) fn set(&mut self, field: &str, v: &Val<'_>) {
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
    pub(super) fn finish(self) -> Doc {
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
pub(in crate::dialect::spans) struct MsgAcc {
    pub(super) role: Option<String>,
    pub(super) content: Option<String>,
    /// (part type, text) by part index.
    pub(super) parts: BTreeMap<u32, (Option<String>, Option<String>)>,
}

/// The text of the assistant messages of one family, joined by newlines.
pub(super) fn msgs_text(msgs: &BTreeMap<u32, MsgAcc>) -> Option<String> {
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

/// Attributes kept as recorded, as text, for a root or a tool span.
#[derive(Debug, Default)]
pub(in crate::dialect::spans) struct RecordedIo {
    /// OpenLLMetry's `traceloop.entity.input`, read only while the span
    /// has no parent (a root's input: the question).
    pub(in crate::dialect::spans) entity_input: Option<String>,
    /// `gen_ai.input.messages`, read only while the span has no parent: a
    /// root's question is its last user message.
    pub(in crate::dialect::spans) input_messages: Option<String>,
    /// `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result`.
    pub(in crate::dialect::spans) tool_args: Option<String>,
    pub(in crate::dialect::spans) tool_result: Option<String>,
}

/// Everything kept of one span while its attributes arrive.
#[derive(Debug, Default)]
pub(in crate::dialect::spans) struct Builder {
    pub(in crate::dialect::spans) trace_id: ShortId,
    pub(in crate::dialect::spans) span_id: ShortId,
    pub(in crate::dialect::spans) parent_id: Option<ShortId>,
    pub(in crate::dialect::spans) name: String,
    pub(in crate::dialect::spans) start_ns: Option<i128>,
    pub(in crate::dialect::spans) end_ns: Option<i128>,
    pub(in crate::dialect::spans) error: bool,
    pub(in crate::dialect::spans) service: Option<std::sync::Arc<str>>,
    /// `span_kind` / `openinference.span.kind`.
    pub(in crate::dialect::spans) oi_kind: Option<String>,
    pub(in crate::dialect::spans) lf_kind: Option<String>,
    pub(in crate::dialect::spans) tl_kind: Option<String>,
    pub(in crate::dialect::spans) operation: Option<String>,
    pub(in crate::dialect::spans) output_value: Option<String>,
    pub(in crate::dialect::spans) output_mime: Option<String>,
    pub(in crate::dialect::spans) output_tl: Option<String>,
    pub(in crate::dialect::spans) output_lf: Option<String>,
    /// The Vercel AI SDK's `ai.response.text` (or `ai.response.object`), or
    /// a TruLens record root's output, with the attribute it came from.
    pub(in crate::dialect::spans) output_ai: Option<(String, &'static str)>,
    /// What a TruLens call returned (`ai.observability.call.return`): a
    /// generation's output when nothing else names one.
    pub(in crate::dialect::spans) returned: Option<String>,
    /// Output messages: OpenInference, GenAI parts, pre-1.37 `gen_ai.completion`.
    pub(in crate::dialect::spans) msgs: [BTreeMap<u32, MsgAcc>; 3],
    pub(in crate::dialect::spans) content_recorded: bool,
    /// Every string of the input messages (`llm.input_messages.*`,
    /// `gen_ai.input.messages`), normalised as they arrive.
    pub(in crate::dialect::spans) input_msgs: Prompt,
    /// `input.value` (or `langfuse.observation.input`) as recorded: the
    /// input when no input message was.
    pub(in crate::dialect::spans) input_value: Option<String>,
    /// Inputs and outputs kept as recorded, allocated when one is read.
    pub(in crate::dialect::spans) io: Option<Box<RecordedIo>>,
    pub(in crate::dialect::spans) retrieval: Option<BTreeMap<u32, DocAcc>>,
    pub(in crate::dialect::spans) genai_docs: Option<BTreeMap<u32, DocAcc>>,
    pub(in crate::dialect::spans) rerank_in: Option<BTreeMap<u32, DocAcc>>,
    pub(in crate::dialect::spans) rerank_out: Option<BTreeMap<u32, DocAcc>>,
    pub(in crate::dialect::spans) agent_name: Option<String>,
    pub(in crate::dialect::spans) agent_id: Option<String>,
    /// An `agent` metadata value.
    pub(in crate::dialect::spans) agent_meta: Option<String>,
    /// (priority, value): lower wins.
    pub(in crate::dialect::spans) conversation: Option<(u8, String)>,
    pub(in crate::dialect::spans) channel: Option<String>,
    pub(in crate::dialect::spans) model: Option<(u8, String)>,
    pub(in crate::dialect::spans) tokens: Tokens,
    pub(in crate::dialect::spans) cost_total: Option<f64>,
    pub(in crate::dialect::spans) cost_parts: Option<f64>,
    pub(in crate::dialect::spans) tool_name: Option<String>,
    pub(in crate::dialect::spans) error_type: Option<String>,
    /// True when any `traceloop.*` attribute was seen (OpenLLMetry).
    pub(in crate::dialect::spans) openllmetry: bool,
}

pub(super) fn set_min(slot: &mut Option<(u8, String)>, prio: u8, v: &Val<'_>) {
    if let Some(s) = v.as_id()
        && slot.as_ref().is_none_or(|(p, _)| prio < *p)
    {
        *slot = Some((prio, s));
    }
}

pub(super) fn docs_entry(map: &mut Option<BTreeMap<u32, DocAcc>>, i: u32) -> &mut DocAcc {
    map.get_or_insert_with(BTreeMap::new).entry(i).or_default()
}

impl Builder {
    /// The finished span.
    pub(in crate::dialect::spans) fn finish(self) -> Span {
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
        } else if let Some((o, key)) = self.output_ai {
            (Some(o), key)
        } else if let Some(o) = self.returned.filter(|_| kind == SpanKind::Llm) {
            (Some(o), "ai.observability.call.return")
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
        // A root's input is its question; a tool's, its arguments.
        let io = self.io.map(|b| *b).unwrap_or_default();
        let recorded = if self.parent_id.is_none() {
            Recorded::of(
                self.input_value.clone().or(io.entity_input),
                io.input_messages,
            )
        } else if kind == SpanKind::Tool {
            Recorded::of(io.tool_args.or_else(|| self.input_value.clone()), None)
        } else if kind == SpanKind::Agent {
            // An agent's turn below a workflow root: where its question is.
            Recorded::of(self.input_value.clone(), io.input_messages)
        } else {
            None
        };
        // A tool's result: its output, else the GenAI call result.
        let output = match output {
            None if kind == SpanKind::Tool => io.tool_result,
            o => o,
        };
        // Only an LLM call's input is kept: the messages, else the value.
        let input_text = if kind == SpanKind::Llm {
            self.input_msgs.finish().or_else(|| {
                let mut p = Prompt::default();
                p.push_text(self.input_value.as_deref()?);
                p.finish()
            })
        } else {
            None
        };
        // An LLM call recorded as its provider's request and response bodies
        // (OpenInference's Anthropic and OpenAI instrumentors, say) may hold
        // structured citations.
        let provider = if kind == SpanKind::Llm {
            output.as_deref().and_then(|o| {
                crate::dialect::exchange::read_recorded(self.input_value.as_deref(), o)
                    .map(Box::new)
            })
        } else {
            None
        };
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
            input_text,
            recorded,
            content_recorded: self.content_recorded,
            retrieval,
            rerank_input: self.rerank_in.map(finish),
            rerank_output: self.rerank_out.map(finish),
            agent_name: self.agent_name,
            agent_id,
            agent_meta: self.agent_meta,
            conversation: self.conversation.map(|(_, c)| c),
            channel: self.channel,
            model: self.model.map(|(_, m)| m),
            tokens: self.tokens,
            cost_usd: self.cost_total.or(self.cost_parts),
            tool_name: self.tool_name,
            error_type: self.error_type,
            provider,
            sources: None,
        }
    }
}

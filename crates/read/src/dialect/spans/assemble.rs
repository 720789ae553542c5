//! The spans of one trace → one turn.
//!
//! Rules (issue 11, with the choices made where it was silent):
//! - **Spans** are de-duplicated by span id (the first copy read wins) and
//!   ordered by start time (unknown last), then end time, then span id, so
//!   the result never depends on the order spans arrived in. A span id
//!   whose copies name two services (resource `service.name`) is not a
//!   repeat but a collision of two exports' ids: the turn is unobserved with
//!   reason `id_collision`, and a note names the span and both services.
//! - **Root**: a span with no parent; when several have none, the earliest
//!   starting. When *no* span lacks a parent (every top span names a parent
//!   that never arrived, or the parents form a cycle), the root never
//!   arrived: the turn is unobserved with reason `no_root`, and the earliest
//!   orphan (else the earliest span) stands in for agent, conversation,
//!   channel and time. Chunks and tools are still reported.
//! - **Reply**: the root's output (`output.value`, OpenLLMetry
//!   `traceloop.entity.output`, Langfuse `langfuse.observation.output`) when
//!   it is text, or JSON holding assistant text (`{"output": …}`, message
//!   lists, `{"outputs": …}`); else the root's output messages (GenAI
//!   `gen_ai.output.messages` on `invoke_agent`); else the output messages
//!   of the LLM span that finished last (text parts only).
//! - **Before the reply**: when the reply came from an LLM span, before that
//!   span started; otherwise before the last LLM span (other than the root)
//!   started, or, with no LLM span, before the root ended. A span with an
//!   unknown time counts as before (and a note says so).
//! - **Chunks** ([`ChunkRule::Prompt`], the default): where the answering
//!   LLM call (the reply's LLM span; with the reply on the root, the LLM
//!   span whose output text is the reply, else the one that started last)
//!   recorded its input, the documents of any retrieval before the reply
//!   whose text is in that input ([`prompt::doc_key`]), each once, in the
//!   order the input holds them. Where none is, or no input was recorded,
//!   the last-retrieval rule below, and the notes say why.
//! - **Chunks** ([`ChunkRule::Last`]): the documents of the retrieval that finished last before
//!   the reply, in document order. A reranker is a retrieval whose list is
//!   its output documents, so a reranker finishing after the retrieval it
//!   reranked supplies the list. With [`ChunkRule::All`], every retrieval
//!   before the reply in start order, a reranker replacing the list of the
//!   retrieval just before it. A retriever span whose documents were not
//!   recorded is reported but supplies nothing.
//! - **Content not recorded**: no reply, no span recorded any output content
//!   (OTel message capture is opt-in), and some LLM or agent span ran: the
//!   turn is unobserved with reason `content_not_recorded`, not graded as an
//!   empty answer. Without any such span it is `no_reply`.
//! - **Agent**: the option, else `agent.name`/`gen_ai.agent.name`, else an
//!   `agent` (or `agent_name`) metadata value, else `gen_ai.agent.id`
//!   (dropped for OpenLLMetry, where it is a run id), on
//!   the root first and then on any span; else the root's name (without a
//!   leading GenAI operation word); else resource `service.name`; else
//!   `unknown`.
//! - **Channel**: a `channel` metadata value, else `chat` (what the native
//!   dialect uses when a turn has none).
//! - **Question**: the root's (a stand-in root's never), or, when the root
//!   recorded no input (a Monocle `workflow` span), the first agent span's
//!   that did, else the first LLM span's that recorded its messages (a
//!   Braintrust operation around its model calls): the last user
//!   message of its input messages (`gen_ai.input.messages`), else what its
//!   recorded input holds ([`crate::dialect::question::question_of`]), found only when
//!   `explain`, `evidence` or `convert` asks. **Tools**: one call per tool span, its
//!   recorded input the arguments and its output the result.
//! - **Model** from the reply span, else the last LLM span that names one;
//!   **tokens** and **cost** summed over LLM spans (the root's own counts
//!   when no LLM span has any); **latency** is the root's duration.

use super::attrs::output_text;
use super::prompt;
use super::{Doc, Span, SpanKind};
use crate::dialect::ChunkRule;
use crate::dialect::ShortId;
use crate::model::{
    Answer, Chunk, CitationIndex, Cite, Extras, Id, MarkersFrom, Reply, ToolCall, Turn, Unobserved,
};
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

pub use crate::dialect::AssembleOptions;

/// One retrieval (or reranking) of the trace.
#[derive(Debug, Clone)]
pub struct Retrieval {
    pub span_id: String,
    pub name: String,
    pub kind: SpanKind,
    /// False when the span recorded no documents attribute at all.
    pub recorded: bool,
    pub docs: Vec<Doc>,
    /// Finished before the reply (see the module doc).
    pub before_reply: bool,
    /// Its documents are (part of) the turn's chunks.
    pub used: bool,
    /// The reranker span whose output replaced this list.
    pub replaced_by: Option<String>,
}

/// One trace assembled into a turn, owned.
#[derive(Debug, Clone)]
pub struct Trace {
    trace_id: String,
    agent: String,
    conversation: Option<String>,
    channel: String,
    created_at: DateTime<Utc>,
    reply: Option<String>,
    unobserved: Option<Unobserved>,
    root_span: Option<ShortId>,
    /// The span the reply text came from, and how (graded or not).
    reply_from: Option<(ShortId, Via)>,
    /// Chunks in order: (retrieval, document) indexes into `retrievals`.
    chunks: Vec<(usize, usize)>,
    retrievals: Vec<Retrieval>,
    /// The tool calls, each with its recorded input and output (read as
    /// JSON only when `explain`, `evidence` or `convert` asks).
    tools: Vec<(ToolCall, Option<String>, Option<String>)>,
    /// The root span's recorded input and input messages: its question,
    /// found only when asked ([`question_of`]).
    root_input: (Option<String>, Option<String>),
    model: Option<String>,
    tokens: Option<u64>,
    cost_cents: Option<f64>,
    latency_ms: Option<f64>,
    span_count: usize,
    kinds: BTreeMap<&'static str, u32>,
    /// What the notes say, kept as facts: the text is built only when
    /// `explain` or `evidence` asks ([`Trace::notes`]).
    facts: Facts,
    /// The answering LLM call's provider citations (its chunks moved into
    /// `retrievals`), when it recorded any: they grade the reply.
    provider: Option<Box<crate::dialect::exchange::Found>>,
    /// The citations of the sources the reply's span named
    /// ([`cite_sources`]): they grade the reply when no provider's do.
    sourced: Option<Vec<CitationIndex>>,
}

/// Where the reply text was found.
#[derive(Debug, Clone, Copy)]
enum Via {
    /// The root's output value (its attribute).
    RootOutput(&'static str),
    /// The root's output messages (their attribute family).
    RootMessages(&'static str),
    /// The LLM span that finished last (the attribute read).
    LastLlm(&'static str),
}

impl Via {
    fn describe(self) -> String {
        match self {
            Via::RootOutput(k) => format!("root span output ({k})"),
            Via::RootMessages(k) => format!("root span {k}"),
            Via::LastLlm(k) => format!("last LLM span to finish ({k})"),
        }
    }
}

/// Why the root is missing.
#[derive(Debug, Clone)]
enum NoRoot {
    /// This span names a parent that is not in the trace.
    Orphan(String),
    /// Every span's parent is in the trace.
    Cycle,
    /// No span at all.
    Empty,
}

/// A span id whose copies name two services (`service.name`).
#[derive(Debug, Clone)]
struct Collision {
    span_id: String,
    services: [String; 2],
}

/// The facts behind a trace's notes, in the order the notes give them.
#[derive(Debug, Clone, Default)]
struct Facts {
    /// Spans dropped as repeats of a span id.
    duplicates: usize,
    /// A span id read from exports of two services.
    collision: Option<Collision>,
    no_root: Option<NoRoot>,
    /// Spans without a parent.
    parentless: usize,
    /// The root's name and kind (when it arrived).
    root: Option<(String, SpanKind)>,
    /// Some retrieval could not be placed against the reply.
    untimed: bool,
    /// No start time: created_at is the epoch.
    no_start: bool,
    /// How the chunks were chosen.
    chose: Option<Chose>,
}

fn time_of(ns: i128) -> Option<DateTime<Utc>> {
    let secs = i64::try_from(ns.div_euclid(1_000_000_000)).ok()?;
    DateTime::from_timestamp(secs, ns.rem_euclid(1_000_000_000) as u32)
}

/// Spans a trace holds before [`first_of_each_id`] indexes their ids: below
/// it, comparing with the spans before costs less than a hash set (most
/// traces hold a handful of spans).
const SCAN_IDS: usize = 16;

/// For each span, none when it is the first with its span id, else the
/// index of the first.
#[allow(clippy::vec_box)]
fn first_of_each_id(spans: &[Box<Span>]) -> Vec<Option<usize>> {
    if spans.len() <= SCAN_IDS {
        return (0..spans.len())
            .map(|i| {
                spans[..i]
                    .iter()
                    .position(|t| t.span_id == spans[i].span_id)
            })
            .collect();
    }
    let mut seen = HashMap::with_capacity(spans.len());
    (0..spans.len())
        .map(|i| {
            let first = *seen.entry(spans[i].span_id.as_str()).or_insert(i);
            (first != i).then_some(first)
        })
        .collect()
}

/// How the turn's chunks were chosen (`--retrievals`), for `explain`.
#[derive(Debug, Clone, PartialEq)]
enum Chose {
    /// The documents found in the input of the answering LLM call (its span).
    Prompt(ShortId),
    /// The last retrieval before the answer; with the prompt rule, why it
    /// found nothing.
    Last(Option<Fallback>),
    /// Every retrieval before the answer.
    All,
    /// The answering LLM call (this span) recorded its provider's response
    /// with structured citations: what it was given or returned.
    Cited(ShortId),
}

/// Why the prompt rule fell back to the last retrieval.
#[derive(Debug, Clone, PartialEq)]
enum Fallback {
    /// The trace has no LLM call to look in.
    NoLlm,
    /// The answering LLM call (this span) recorded no input.
    NotRecorded(ShortId),
    /// No retrieved document's text is in that input.
    NotFound(ShortId),
}

impl Chose {
    /// The rule's name, as `--retrievals` spells it.
    fn name(&self) -> &'static str {
        match self {
            Chose::Prompt(_) => "prompt",
            Chose::Last(_) => "last",
            Chose::All => "all",
            Chose::Cited(_) => "provider",
        }
    }

    fn describe(&self, chunks: usize) -> String {
        let last = "chunks: the last retrieval before the answer";
        match self {
            Chose::Prompt(id) => format!(
                "chunks: the {chunks} document(s) found in the answering LLM call's input (span {id}), in the order it holds them"
            ),
            Chose::Last(None) => format!("{last} (--retrievals last)"),
            Chose::Last(Some(Fallback::NoLlm)) => {
                format!("{last} (no LLM call to find documents in)")
            }
            Chose::Last(Some(Fallback::NotRecorded(id))) => {
                format!("{last} (the answering LLM call's input was not recorded, span {id})")
            }
            Chose::Last(Some(Fallback::NotFound(id))) => format!(
                "{last} (no retrieved document's text is in the answering LLM call's input, span {id})"
            ),
            Chose::All => {
                "chunks: every retrieval before the answer, in start order (--retrievals all)"
                    .into()
            }
            Chose::Cited(id) => format!(
                "chunks: the {chunks} document(s) the answering LLM call (span {id}) was given or returned, as its recorded request and response hold them; its provider's citations grade the reply"
            ),
        }
    }
}

/// The LLM call that answered: the one the reply came from; else (the
/// reply is the root's output) the LLM span, other than the root, whose
/// output text is the reply; else the one that started last.
fn answering_llm(
    spans: &[Box<Span>],
    root: Option<usize>,
    reply: Option<(&str, usize)>,
    from_llm: bool,
) -> Option<usize> {
    if from_llm {
        return reply.map(|(_, i)| i);
    }
    let llms = || (0..spans.len()).filter(|&i| Some(i) != root && spans[i].kind == SpanKind::Llm);
    reply
        .and_then(|(text, _)| {
            llms().find(|&i| spans[i].llm_text.as_deref().map(str::trim) == Some(text.trim()))
        })
        .or_else(|| llms().max_by_key(|&i| (spans[i].start_ns, i)))
}

/// The documents of the `eligible` retrievals whose text is in `input`
/// ([`prompt::doc_key`]), as (retrieval, document) pairs in the order the
/// input holds them. A text found twice (the same document from two
/// retrievals) is one chunk, the later retrieval's (as the last-retrieval
/// rule would pick it, with that retrieval's score); of two documents
/// found at the same place, the one with the longer opening (a short
/// document may be the start of a longer one).
fn found_in_input(
    input: &str,
    retrievals: &[Retrieval],
    eligible: &[usize],
) -> Vec<(usize, usize)> {
    use std::cmp::Reverse;
    // (place in the input, longer opening first, later retrieval first,
    // document, opening): sorted, the first of each place and text wins.
    type Found = (usize, Reverse<usize>, Reverse<usize>, usize, String);
    let mut found: Vec<Found> = Vec::new();
    for &r in eligible {
        for (d, doc) in retrievals[r].docs.iter().enumerate() {
            let Some(key) = doc.content.as_deref().and_then(prompt::doc_key) else {
                continue;
            };
            if let Some(at) = prompt::find(input, &key) {
                found.push((at, Reverse(key.len()), Reverse(r), d, key));
            }
        }
    }
    found.sort();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut last_at = None;
    let mut chunks = Vec::new();
    for (at, _, Reverse(r), d, key) in &found {
        if last_at != Some(*at) && seen.insert(key.as_str()) {
            chunks.push((*r, *d));
        }
        last_at = Some(*at);
    }
    chunks
}

/// `--retrievals all`: every eligible retrieval in start order, a reranker
/// replacing the list of the retrieval just before it.
fn all_before(retrievals: &mut [Retrieval], eligible: &[usize]) -> Vec<usize> {
    let mut used: Vec<usize> = Vec::new();
    for &i in eligible {
        if retrievals[i].kind == SpanKind::Reranker
            && let Some(pos) = used
                .iter()
                .rposition(|&u| retrievals[u].kind == SpanKind::Retriever)
        {
            let replaced = used.remove(pos);
            retrievals[replaced].replaced_by = Some(retrievals[i].span_id.clone());
        }
        used.push(i);
    }
    used
}

/// The eligible retrieval that finished last (a reranker marking the
/// retrieval it replaced).
fn last_before(
    retrievals: &mut [Retrieval],
    eligible: &[usize],
    ends: &[Option<i128>],
) -> Vec<usize> {
    let Some(&last) = eligible.iter().max_by_key(|&&i| (ends[i], i)) else {
        return Vec::new();
    };
    if retrievals[last].kind == SpanKind::Reranker
        && let Some(&prev) = eligible
            .iter()
            .filter(|&&i| i < last && retrievals[i].kind == SpanKind::Retriever)
            .max_by_key(|&&i| (ends[i], i))
    {
        retrievals[prev].replaced_by = Some(retrievals[last].span_id.clone());
    }
    vec![last]
}

/// Assembles the spans of one trace. Never fails.
pub fn assemble(trace_id: &str, spans: Vec<Span>, opts: &AssembleOptions) -> Trace {
    assemble_boxed(trace_id, spans.into_iter().map(Box::new).collect(), opts)
}

/// [`assemble`] over spans in their boxes (as records carry them): sorting
/// and de-duplicating move pointers, not spans.
#[allow(clippy::vec_box)] // the boxes the records carry: kept, not moved
pub fn assemble_boxed(trace_id: &str, mut spans: Vec<Box<Span>>, opts: &AssembleOptions) -> Trace {
    let (duplicates, collision) = dedup_and_sort(&mut spans);
    let mut facts = Facts {
        duplicates,
        collision,
        ..Facts::default()
    };
    // The document lists move into the retrievals below: nothing else reads them.
    let lists: Vec<_> = spans
        .iter_mut()
        .map(|s| (s.retrieval.take(), s.rerank_output.take()))
        .collect();
    let kinds = kinds_of(&spans);
    let (root, no_root) = find_root(&spans, &mut facts);
    let root_span: Option<&Span> = root.map(|i| &*spans[i]);
    // The text borrows from its span until the trace is built.
    let (reply, from_llm) = find_reply(&spans, root);
    let reply_llm = reply.as_ref().filter(|_| from_llm).map(|(_, i, _)| *i);
    let anchor = anchor_of(&spans, root, reply_llm);
    // A retrieve-and-generate call (Bedrock's) is one retrieval span holding
    // the model call: a retrieval that contains the answering span supplied it.
    let holds_reply = reply
        .as_ref()
        .map(|(_, i, _)| ancestors(&spans, *i))
        .unwrap_or_default();
    let (mut retrievals, untimed) = collect_retrievals(&spans, lists, anchor, &holds_reply);
    facts.untimed = untimed;
    let answering = answering_llm(
        &spans,
        root,
        reply.as_ref().map(|(t, i, _)| (&**t, *i)),
        from_llm,
    );
    let (mut chunks, mut chose) = choose_chunks(&spans, &mut retrievals, answering, opts);
    let provider = answering.and_then(|i| Some((i, spans[i].provider.clone()?)));
    let cited_at = provider.as_ref().map(|(i, _)| *i);
    let provider = provider.map(|(i, mut found)| {
        chunks = provider_chunks(&spans[i], &mut found, &mut retrievals);
        chose = Chose::Cited(spans[i].span_id.clone());
        found
    });
    facts.chose = Some(chose);
    // A chain that named its sources cites the chunks of each.
    let sourced = reply
        .as_ref()
        .filter(|_| provider.is_none())
        .and_then(|(_, i, _)| spans[*i].sources.as_deref())
        .map(|names| cite_sources(names, &chunks, &retrievals));
    let tools = tools_of(&spans);
    let root_input = root_span
        .filter(|_| !no_root)
        .and_then(|r| {
            r.recorded.as_deref().or_else(|| {
                let first = |kind| {
                    spans
                        .iter()
                        .filter(|s| s.kind == kind)
                        .find_map(|s| s.recorded.as_deref())
                };
                first(SpanKind::Agent).or_else(|| first(SpanKind::Llm))
            })
        })
        .map_or((None, None), |r| (r.input.clone(), r.messages.clone()));
    let agent = agent_of(&spans, root_span, opts);
    let conversation = first_of(&spans, root_span, &|s| s.conversation.as_deref());
    let channel =
        first_of(&spans, root_span, &|s| s.channel.as_deref()).unwrap_or_else(|| "chat".to_owned());
    let start = root_span
        .and_then(|r| r.start_ns)
        .or_else(|| spans.iter().filter_map(|s| s.start_ns).min());
    let created_at = match start.and_then(time_of) {
        Some(t) => t,
        None => {
            facts.no_start = true;
            DateTime::UNIX_EPOCH
        }
    };
    let usage = Usage::of(&spans, root_span, reply_llm);
    // The answer a call's citations stand in is its reply when no span
    // recorded reply text in a shape read elsewhere.
    let cited_answer = cited_at
        .filter(|_| reply.is_none())
        .and_then(|i| Some((i, provider.as_ref()?.answer.clone()?)));
    let unobserved = match &facts.collision {
        Some(_) => Some(Unobserved::IdCollision),
        None => unobserved_of(&spans, no_root, reply.is_some() || cited_answer.is_some()),
    };
    let reply_from = reply
        .as_ref()
        .map(|(_, i, via)| (spans[*i].span_id.clone(), *via))
        .or_else(|| {
            let (i, _) = cited_answer.as_ref()?;
            Some((
                spans[*i].span_id.clone(),
                Via::LastLlm(spans[*i].output_key),
            ))
        });
    let root_span = root_span.filter(|_| !no_root).map(|r| r.span_id.clone());
    // The reply text moves out of its span when it is a whole field (the
    // spans are dropped with the trace's assembly), else it is copied.
    let reply = reply.map(|(t, i, _)| owned_or_field(&spans, t, i));
    let reply = reply
        .map(|r| r.unwrap_or_else(|(i, output)| take_field(&mut spans[i], output)))
        .or(cited_answer.map(|(_, t)| t));
    Trace {
        trace_id: trace_id.to_owned(),
        agent,
        conversation,
        channel,
        created_at,
        reply,
        unobserved,
        root_span,
        reply_from,
        chunks,
        retrievals,
        tools,
        root_input,
        model: usage
            .model
            .or_else(|| provider.as_ref().and_then(|p| p.model.clone())),
        tokens: usage.tokens,
        cost_cents: usage.cost_cents,
        latency_ms: usage.latency_ms,
        span_count: spans.len(),
        kinds,
        facts,
        provider,
        sourced,
    }
}

/// The citations of the sources a chain named (`names`, document ids):
/// each cites every chunk of that document (a trailing `/` aside), in
/// chunk order; one that names no chunk's document is an orphan (out of
/// range). One pass over the chunks, one look-up per name.
fn cite_sources(
    names: &[String],
    chunks: &[(usize, usize)],
    retrievals: &[Retrieval],
) -> Vec<CitationIndex> {
    let mut by_doc: HashMap<&str, Vec<u64>> = HashMap::new();
    for (n, &(r, d)) in chunks.iter().enumerate() {
        if let Some(id) = retrievals[r].docs[d].document_id.as_deref() {
            by_doc
                .entry(id.trim_end_matches('/'))
                .or_default()
                .push(n as u64 + 1);
        }
    }
    names
        .iter()
        .flat_map(|name| match by_doc.get(name.trim_end_matches('/')) {
            Some(at) => at.iter().map(|&i| CitationIndex::Index(i)).collect(),
            None => vec![CitationIndex::OutOfRange],
        })
        .collect()
}

/// The chunks of an answering LLM call that recorded its provider's
/// citations: what it was given or returned (moved out of `found`), as one
/// more retrieval of that call's span, in the provider's order, which its
/// citations count in. The trace's retrievals are then listed, not used.
fn provider_chunks(
    span: &Span,
    found: &mut crate::dialect::exchange::Found,
    retrievals: &mut Vec<Retrieval>,
) -> Vec<(usize, usize)> {
    for r in retrievals.iter_mut() {
        r.used = false;
        r.replaced_by = None;
    }
    let docs: Vec<Doc> = std::mem::take(&mut found.chunks)
        .into_iter()
        .map(|c| Doc {
            chunk_id: c.id,
            document_id: c.doc,
            score: c.score,
            content: c.text,
        })
        .collect();
    let at = retrievals.len();
    let n = docs.len();
    retrievals.push(Retrieval {
        span_id: span.span_id.to_string(),
        name: format!("{} {}", found.from.as_str(), found.api),
        kind: SpanKind::Llm,
        recorded: true,
        docs,
        before_reply: true,
        used: true,
        replaced_by: None,
    });
    (0..n).map(|d| (at, d)).collect()
}

/// Drops the repeats of a span id (the first copy read wins) and orders the
/// spans by start time (unknown last), then end time, then span id; returns
/// how many were dropped, and the first repeat whose copies name two
/// services (an id collision, not a duplicate).
#[allow(clippy::vec_box)] // the boxes the records carry: kept, not moved
fn dedup_and_sort(spans: &mut Vec<Box<Span>>) -> (usize, Option<Collision>) {
    let read = spans.len();
    let firsts = first_of_each_id(spans);
    let collision = firsts.iter().enumerate().find_map(|(i, first)| {
        let (a, b) = (
            spans[(*first)?].service.as_ref()?,
            spans[i].service.as_ref()?,
        );
        (a != b).then(|| Collision {
            span_id: spans[i].span_id.to_string(),
            services: [a.to_string(), b.to_string()],
        })
    });
    let mut keep = firsts.into_iter().map(|f| f.is_none());
    spans.retain(|_| keep.next().unwrap_or(true));
    spans.sort_by(|a, b| {
        (a.start_ns.is_none(), a.start_ns, a.end_ns, &a.span_id).cmp(&(
            b.start_ns.is_none(),
            b.start_ns,
            b.end_ns,
            &b.span_id,
        ))
    });
    (read - spans.len(), collision)
}

/// How many spans of each kind the trace holds.
fn kinds_of(spans: &[Box<Span>]) -> BTreeMap<&'static str, u32> {
    let mut kinds: BTreeMap<&'static str, u32> = BTreeMap::new();
    for s in spans {
        *kinds.entry(s.kind.as_str()).or_default() += 1;
    }
    kinds
}

/// The root span (see the module doc), and whether it is a stand-in for a
/// root that never arrived; records why in `facts`.
fn find_root(spans: &[Box<Span>], facts: &mut Facts) -> (Option<usize>, bool) {
    let parentless: Vec<usize> = (0..spans.len())
        .filter(|&i| spans[i].parent_id.is_none())
        .collect();
    // An orphan matters only when no span lacks a parent.
    let orphan = || {
        let ids: HashSet<&str> = spans.iter().map(|s| s.span_id.as_str()).collect();
        (0..spans.len()).find(|&i| {
            spans[i]
                .parent_id
                .as_deref()
                .is_some_and(|p| !ids.contains(p))
        })
    };
    let (root, no_root) = match parentless.first() {
        Some(&r) => (Some(r), false),
        None => match orphan() {
            Some(o) => {
                facts.no_root = Some(NoRoot::Orphan(spans[o].span_id.to_string()));
                (Some(o), true)
            }
            None if !spans.is_empty() => {
                facts.no_root = Some(NoRoot::Cycle);
                (Some(0), true)
            }
            None => {
                facts.no_root = Some(NoRoot::Empty);
                (None, true)
            }
        },
    };
    facts.parentless = parentless.len();
    if let Some(r) = root.map(|i| &*spans[i]).filter(|_| !no_root) {
        facts.root = Some((r.name.clone(), r.kind));
    }
    (root, no_root)
}

/// The reply text, its span and where it was found: the root's output,
/// else the root's output messages, else the output of the LLM span that
/// finished last; and whether it came from that LLM span.
type Found<'a> = (Option<(Cow<'a, str>, usize, Via)>, bool);

/// The reply of the spans with this root ([`Found`]).
fn find_reply(spans: &[Box<Span>], root: Option<usize>) -> Found<'_> {
    if let Some(ri) = root {
        let r = &spans[ri];
        if let Some(t) = r
            .output
            .as_deref()
            .and_then(|o| output_text(o, r.output_mime.as_deref()))
        {
            return (Some((t, ri, Via::RootOutput(r.output_key))), false);
        } else if let Some(t) = &r.llm_text {
            return (
                Some((Cow::Borrowed(t), ri, Via::RootMessages(r.llm_text_key))),
                false,
            );
        }
    }
    let last = (0..spans.len())
        .filter(|&i| Some(i) != root && spans[i].kind == SpanKind::Llm)
        .filter_map(|i| {
            let s = &spans[i];
            let (t, key) = match &s.llm_text {
                Some(t) => (Cow::Borrowed(t.as_str()), s.llm_text_key),
                None => (
                    output_text(s.output.as_deref()?, s.output_mime.as_deref())?,
                    s.output_key,
                ),
            };
            Some((s.end_ns.or(s.start_ns), i, t, key))
        })
        .max_by_key(|(end, i, _, _)| (*end, *i));
    match last {
        Some((_, i, t, key)) => (Some((t, i, Via::LastLlm(key))), true),
        None => (None, false),
    }
}

/// The time a retrieval must have finished by to count as before the
/// reply: the start of the reply's LLM span (`reply_llm`); else the start
/// of the last LLM span other than the root; else the root's end.
fn anchor_of(spans: &[Box<Span>], root: Option<usize>, reply_llm: Option<usize>) -> Option<i128> {
    match reply_llm {
        Some(i) => spans[i].start_ns,
        None => spans
            .iter()
            .enumerate()
            .filter(|(i, s)| Some(*i) != root && s.kind == SpanKind::Llm)
            .filter_map(|(_, s)| s.start_ns)
            .max()
            .or(root.and_then(|r| spans[r].end_ns)),
    }
}

/// The document lists taken out of the spans: (retrieval, reranker output).
type Lists = Vec<(Option<Vec<Doc>>, Option<Vec<Doc>>)>;

/// The trace's retrievals and rerankings, each placed against `anchor` (a
/// span in `holds_reply` holds the reply, so counts as before it); and
/// whether some retrieval could not be placed.
fn collect_retrievals(
    spans: &[Box<Span>],
    lists: Lists,
    anchor: Option<i128>,
    holds_reply: &[&str],
) -> (Vec<Retrieval>, bool) {
    let mut retrievals = Vec::new();
    let mut untimed = false;
    for (s, (retrieval, rerank_output)) in spans.iter().zip(lists) {
        let reranker = s.kind == SpanKind::Reranker || rerank_output.is_some();
        let docs = if reranker { rerank_output } else { retrieval };
        if docs.is_none() && !matches!(s.kind, SpanKind::Retriever | SpanKind::Reranker) {
            continue;
        }
        let before_reply = match (s.end_ns.or(s.start_ns), anchor) {
            _ if holds_reply.contains(&s.span_id()) => true,
            (Some(f), Some(a)) => f <= a,
            _ => {
                untimed = true;
                true
            }
        };
        retrievals.push(Retrieval {
            span_id: s.span_id.to_string(),
            name: s.name.clone(),
            kind: if reranker {
                SpanKind::Reranker
            } else {
                SpanKind::Retriever
            },
            recorded: docs.is_some(),
            docs: docs.unwrap_or_default(),
            before_reply,
            used: false,
            replaced_by: None,
        });
    }
    (retrievals, untimed)
}

/// The turn's chunks as (retrieval, document) pairs, by the rule of
/// `opts.retrievals`, marking the retrievals used; and how they were chosen.
fn choose_chunks(
    spans: &[Box<Span>],
    retrievals: &mut [Retrieval],
    answering: Option<usize>,
    opts: &AssembleOptions,
) -> (Vec<(usize, usize)>, Chose) {
    let eligible: Vec<usize> = (0..retrievals.len())
        .filter(|&i| retrievals[i].before_reply && retrievals[i].recorded)
        .collect();
    let ends: Vec<Option<i128>> = retrievals
        .iter()
        .map(|r| {
            spans
                .iter()
                .find(|s| s.span_id == r.span_id)
                .and_then(|s| s.end_ns.or(s.start_ns))
        })
        .collect();
    let (chunks, chose) = match opts.retrievals {
        ChunkRule::Prompt => by_prompt(spans, retrievals, &eligible, answering),
        ChunkRule::Last => (None, Chose::Last(None)),
        ChunkRule::All => (None, Chose::All),
    };
    // A retrieval is used when it supplied chunks, or (when one or every
    // retrieval is taken whole) when it was taken, if empty.
    let used: Vec<usize> = match &chunks {
        Some(found) => found.iter().map(|&(r, _)| r).collect(),
        None if chose == Chose::All => all_before(retrievals, &eligible),
        None => last_before(retrievals, &eligible, &ends),
    };
    for &r in &used {
        retrievals[r].used = true;
    }
    let chunks = chunks.unwrap_or_else(|| {
        used.iter()
            .flat_map(|&i| (0..retrievals[i].docs.len()).map(move |d| (i, d)))
            .collect()
    });
    (chunks, chose)
}

/// [`ChunkRule::Prompt`]: the documents found in the answering LLM call's
/// input, or none and why the rule falls back to the last retrieval.
fn by_prompt(
    spans: &[Box<Span>],
    retrievals: &[Retrieval],
    eligible: &[usize],
    answering: Option<usize>,
) -> (Option<Vec<(usize, usize)>>, Chose) {
    match answering.map(|i| (&spans[i], spans[i].input_text.as_deref())) {
        Some((s, Some(input))) => {
            let found = found_in_input(input, retrievals, eligible);
            if found.is_empty() {
                (
                    None,
                    Chose::Last(Some(Fallback::NotFound(s.span_id.clone()))),
                )
            } else {
                (Some(found), Chose::Prompt(s.span_id.clone()))
            }
        }
        Some((s, None)) => (
            None,
            Chose::Last(Some(Fallback::NotRecorded(s.span_id.clone()))),
        ),
        None => (None, Chose::Last(Some(Fallback::NoLlm))),
    }
}

/// The tool calls: one per tool span, in span order, with the input
/// (its arguments) and output (its result) it recorded.
fn tools_of(spans: &[Box<Span>]) -> Vec<(ToolCall, Option<String>, Option<String>)> {
    spans
        .iter()
        .filter(|s| s.is_tool())
        .map(|s| {
            let call = ToolCall {
                name: s.tool_name.clone().unwrap_or_else(|| s.name.clone()),
                status: if s.failed() { "error" } else { "ok" }.to_owned(),
                duration_ms: s.duration_ms(),
                arguments: None,
                result: None,
            };
            let input = s.recorded.as_ref().and_then(|r| r.input.clone());
            (call, input, s.output.clone())
        })
        .collect()
}

/// A recorded value as JSON: JSON text read as the object or list it
/// holds, anything else as a string.
fn recorded_value(text: &str) -> Value {
    let t = text.trim_start();
    if (t.starts_with('{') || t.starts_with('['))
        && let Ok(v) = serde_json::from_str::<Value>(text)
    {
        return v;
    }
    Value::String(text.to_owned())
}

/// The question of a root's recorded input and input messages: the last
/// user message, else what the input holds ([`crate::dialect::question::question_of`]).
fn question_of((input, messages): &(Option<String>, Option<String>)) -> Option<String> {
    messages
        .as_deref()
        .and_then(crate::dialect::question::question_of)
        .or_else(|| {
            input
                .as_deref()
                .and_then(crate::dialect::question::question_of)
        })
}

/// A value `f` reads from the root first, else from the first span that has one.
fn first_of(
    spans: &[Box<Span>],
    root_span: Option<&Span>,
    f: &dyn Fn(&Span) -> Option<&str>,
) -> Option<String> {
    root_span
        .and_then(f)
        .or_else(|| spans.iter().find_map(|s| f(s)))
        .map(str::to_owned)
}

/// The agent's name (see the module doc).
fn agent_of(spans: &[Box<Span>], root_span: Option<&Span>, opts: &AssembleOptions) -> String {
    let first = |f: &dyn Fn(&Span) -> Option<&str>| first_of(spans, root_span, f);
    opts.agent_name
        .clone()
        .or_else(|| first(&|s| s.agent_name.as_deref()))
        .or_else(|| first(&|s| s.agent_meta.as_deref()))
        .or_else(|| first(&|s| s.agent_id.as_deref()))
        .or_else(|| {
            root_span.map(|r| {
                let n = r.name.as_str();
                r.operation
                    .as_deref()
                    .and_then(|op| n.strip_prefix(op))
                    .and_then(|rest| rest.strip_prefix(' '))
                    .unwrap_or(n)
                    .to_owned()
            })
        })
        .filter(|a| !a.is_empty())
        .or_else(|| first(&|s| s.service.as_deref()))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The model, token and cost totals, and latency of a trace (see the module doc).
struct Usage {
    model: Option<String>,
    tokens: Option<u64>,
    cost_cents: Option<f64>,
    latency_ms: Option<f64>,
}

impl Usage {
    /// `reply_llm`: the LLM span the reply came from, if it came from one.
    fn of(spans: &[Box<Span>], root_span: Option<&Span>, reply_llm: Option<usize>) -> Usage {
        let llms: Vec<&Span> = spans
            .iter()
            .map(|s| &**s)
            .filter(|s| s.kind == SpanKind::Llm)
            .collect();
        let model = reply_llm
            .and_then(|i| spans[i].model.clone())
            .or_else(|| {
                llms.iter()
                    .filter(|s| s.model.is_some())
                    .max_by_key(|s| s.end_ns)
                    .and_then(|s| s.model.clone())
            })
            .or_else(|| root_span.and_then(|r| r.model.clone()));
        let tokens = llms
            .iter()
            .filter_map(|s| s.tokens.sum())
            .reduce(u64::saturating_add)
            .or_else(|| root_span.and_then(|r| r.tokens.sum()));
        let cost_cents = llms
            .iter()
            .filter_map(|s| s.cost_usd)
            .reduce(|a, b| a + b)
            .or_else(|| root_span.and_then(|r| r.cost_usd))
            .map(|usd| usd * 100.0)
            .filter(|c| c.is_finite());
        let latency_ms = root_span.and_then(Span::duration_ms);
        Usage {
            model,
            tokens,
            cost_cents,
            latency_ms,
        }
    }
}

/// Why the turn is not graded, if it is not (see the module doc).
fn unobserved_of(spans: &[Box<Span>], no_root: bool, has_reply: bool) -> Option<Unobserved> {
    let modelled = spans
        .iter()
        .any(|s| matches!(s.kind, SpanKind::Llm | SpanKind::Agent));
    let recorded = spans.iter().any(|s| s.content_recorded);
    if no_root {
        Some(Unobserved::NoRoot)
    } else if has_reply {
        None
    } else if modelled && !recorded {
        Some(Unobserved::ContentNotRecorded)
    } else {
        Some(Unobserved::NoReply)
    }
}

/// The reply text when it is owned or a part of a field (copied); else the
/// span `i` and whether the field that is the whole text is its output
/// (`true`) or its LLM text, for [`take_field`].
fn owned_or_field(spans: &[Box<Span>], t: Cow<'_, str>, i: usize) -> Result<String, (usize, bool)> {
    match t {
        Cow::Owned(t) => Ok(t),
        Cow::Borrowed(b) => {
            let whole = |f: &Option<String>| f.as_deref().is_some_and(|f| std::ptr::eq(f, b));
            if whole(&spans[i].output) {
                Err((i, true))
            } else if whole(&spans[i].llm_text) {
                Err((i, false))
            } else {
                Ok(b.to_owned())
            }
        }
    }
}

/// Moves the span's output (`output`) or LLM text out of it.
fn take_field(s: &mut Span, output: bool) -> String {
    let field = if output {
        &mut s.output
    } else {
        &mut s.llm_text
    };
    field.take().unwrap_or_default()
}

impl Trace {
    /// The turn to grade; its id is the trace id.
    pub fn turn(&self) -> Turn<'_> {
        let answer = match (self.unobserved, &self.reply, &self.provider, &self.sourced) {
            (Some(r), ..) => Answer::Unobserved(r),
            (None, _, Some(p), _) => {
                Answer::Citations(p.citations.clone(), MarkersFrom::Provider(p.from))
            }
            (None, Some(_), None, Some(list)) => {
                Answer::Citations(list.clone(), MarkersFrom::Sources)
            }
            (None, Some(t), None, None) => Answer::Reply(Reply::Text(Cow::Borrowed(t))),
            (None, None, None, _) => Answer::Unobserved(Unobserved::NoReply),
        };
        let (answer_text, cites) = match (&self.provider, &self.sourced) {
            (Some(p), _) => (p.answer.as_deref().map(Cow::Borrowed), p.cites.clone()),
            // A source sits nowhere in the answer: no place, no quote.
            (None, Some(list)) => (
                self.reply.as_deref().map(Cow::Borrowed),
                vec![Cite::default(); list.len()],
            ),
            (None, None) => (None, Vec::new()),
        };
        Turn {
            turn_id: Id::string(Cow::Borrowed(self.trace_id.as_str())),
            agent_id: Cow::Borrowed(&self.agent),
            conversation_id: self
                .conversation
                .as_deref()
                .map(|c| Id::string(Cow::Borrowed(c))),
            channel: Cow::Borrowed(&self.channel),
            created_at: self.created_at,
            answer,
            chunks: self
                .chunk_docs()
                .enumerate()
                .map(|(i, d)| Chunk {
                    index: (i + 1).min(u32::MAX as usize) as u32,
                    document_id: d
                        .document_id
                        .as_deref()
                        .map(|s| Id::string(Cow::Borrowed(s))),
                    chunk_id: d.chunk_id.as_deref().map(|s| Id::string(Cow::Borrowed(s))),
                    score: d.score,
                })
                .collect(),
            tool_calls: self.tools.len().min(u32::MAX as usize) as u32,
            tool_errors: self
                .tools
                .iter()
                .filter(|(t, _, _)| t.status == "error")
                .count()
                .min(u32::MAX as usize) as u32,
            model: self.model.as_deref().map(Cow::Borrowed),
            tokens_used: self.tokens,
            cost_cents: self.cost_cents,
            latency_ms: self.latency_ms,
            markers: None,
            // A retrieval before the answer that recorded no documents
            // attribute ran without its documents in the export.
            evidence: self
                .retrievals
                .iter()
                .any(|r| r.before_reply && !r.recorded)
                .then_some(crate::model::Evidence::DocumentsNotRecorded),
            texts: crate::model::Texts {
                chunks: self
                    .chunk_docs()
                    .map(|d| d.content.as_deref().map(|t| Reply::Text(Cow::Borrowed(t))))
                    .collect(),
                answer: answer_text,
                cites,
            },
        }
    }

    /// What `explain` shows beyond the row.
    pub fn extras(&self) -> Extras {
        Extras {
            question: question_of(&self.root_input),
            tools: self
                .tools
                .iter()
                .map(|(t, input, output)| ToolCall {
                    arguments: input.as_deref().map(recorded_value),
                    result: output.as_deref().map(recorded_value),
                    ..t.clone()
                })
                .collect(),
            notes: self.notes(),
            chunk_texts: self.chunk_texts(),
            text_notes: Vec::new(),
        }
    }

    /// The trace id.
    pub fn trace_id(&self) -> &str {
        &self.trace_id
    }

    /// The span that produced the graded reply (for writing verdicts back);
    /// none when the answer is unobserved.
    pub fn reply_span(&self) -> Option<&str> {
        self.reply_from
            .as_ref()
            .filter(|_| self.unobserved.is_none())
            .map(|(id, _)| id.as_str())
    }

    /// How the reply text was found (also when it is not graded).
    fn reply_source(&self) -> Option<String> {
        self.reply_from.as_ref().map(|(_, via)| via.describe())
    }

    /// What `explain` says about how the turn was assembled, built from
    /// the facts kept.
    pub fn notes(&self) -> Vec<String> {
        let f = &self.facts;
        let summary: Vec<String> = self.kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let mut notes = vec![format!(
            "assembled from {} span(s): {}",
            self.span_count,
            summary.join(", ")
        )];
        if let Some(c) = &f.collision {
            notes.push(format!(
                "span {} was read from exports of two services ({}, {}): their trace and span ids collide, so the trace is not graded as one answer",
                c.span_id, c.services[0], c.services[1]
            ));
        }
        if f.duplicates > 0 {
            notes.push(format!(
                "{} duplicate span(s) ignored (same span id read twice)",
                f.duplicates
            ));
        }
        match &f.no_root {
            Some(NoRoot::Orphan(id)) => notes.push(format!(
                "the root span never arrived: span {id} names a parent that is not in the trace"
            )),
            Some(NoRoot::Cycle) => notes.push(
                "the root span never arrived: every span's parent is in the trace (a cycle)".into(),
            ),
            Some(NoRoot::Empty) => notes.push("the trace has no spans".into()),
            None => {}
        }
        if f.parentless > 1 {
            notes.push(format!(
                "{} spans have no parent; the earliest is taken as the root",
                f.parentless
            ));
        }
        if let (Some((name, kind)), Some(id)) = (&f.root, &self.root_span) {
            notes.push(format!("root span {name:?} ({id}, {})", kind.as_str()));
        }
        if f.untimed {
            notes.push(
                "some times are unknown: retrievals that cannot be placed count as before the reply"
                    .into(),
            );
        }
        if f.no_start {
            notes.push("no usable start time: created_at is the Unix epoch".into());
        }
        match (&self.reply_from, self.unobserved) {
            (Some((id, via)), None) => {
                notes.push(format!("reply from span {id} via {}", via.describe()))
            }
            (Some((id, via)), Some(why)) => notes.push(format!(
                "a reply was found (span {id} via {}) but is not graded: {}",
                via.describe(),
                match why {
                    Unobserved::IdCollision => "its span ids collide across two services' exports",
                    _ => "the root span never arrived",
                }
            )),
            (None, Some(Unobserved::ContentNotRecorded)) => notes.push(
                "no reply text: message content was not recorded (OTel GenAI content capture is opt-in)"
                    .into(),
            ),
            (None, _) => notes.push(
                "no reply text: the root has no text output and no LLM span recorded output text"
                    .into(),
            ),
        }
        let chose = f.chose.as_ref().filter(|_| !self.retrievals.is_empty());
        if let Some(c) = chose {
            notes.push(c.describe(self.chunks.len()));
        }
        if let Some(p) = &self.provider {
            notes.push(format!(
                "{} {}: {} citation(s)",
                p.from.as_str(),
                p.api,
                p.citations.len()
            ));
            notes.extend(p.notes.iter().cloned());
        }
        let found = matches!(chose, Some(Chose::Prompt(_)));
        let cited = matches!(chose, Some(Chose::Cited(_)));
        for (ri, r) in self.retrievals.iter().enumerate() {
            let what = if !r.recorded {
                "documents not recorded".to_owned()
            } else {
                format!("{} document(s)", r.docs.len())
            };
            let fate = if r.used && found {
                let n = self.chunks.iter().filter(|&&(c, _)| c == ri).count();
                format!("{n} found in the answering LLM call's input, used as chunks")
            } else if r.used {
                "used as the turn's chunks".to_owned()
            } else if cited {
                "not used: the answering LLM call's citations count in what it was given".to_owned()
            } else if found && r.before_reply && r.recorded {
                "not used: none of its documents is in the answering LLM call's input".to_owned()
            } else if let Some(by) = &r.replaced_by {
                format!("not used: replaced by reranker span {by}")
            } else if !r.before_reply {
                "not used: finished after the reply started".to_owned()
            } else if !r.recorded {
                "not used".to_owned()
            } else {
                "not used: a later retrieval supplied the chunks".to_owned()
            };
            notes.push(format!(
                "{} {:?} ({}): {what}; {fate}",
                r.kind.as_str(),
                r.name,
                r.span_id
            ));
        }
        let no_id = self
            .chunk_docs()
            .filter(|d| d.chunk_id.is_none() && d.document_id.is_none())
            .count();
        if no_id > 0 {
            notes.push(format!(
                "{no_id} chunk(s) have no id, even in their metadata"
            ));
        }
        let no_score = self.chunk_docs().filter(|d| d.score.is_none()).count();
        if no_score > 0 {
            notes.push(format!("{no_score} chunk(s) have no score"));
        }
        if !self.chunks.is_empty() && self.chunk_docs().all(|d| d.content.is_none()) {
            notes.push("chunk text was not recorded (ids and scores only)".into());
        }
        notes
    }

    /// The chunks' documents, in chunk order.
    fn chunk_docs(&self) -> impl Iterator<Item = &Doc> {
        self.chunks
            .iter()
            .map(|&(r, d)| &self.retrievals[r].docs[d])
    }

    /// The root span; none when it never arrived.
    pub fn root_span(&self) -> Option<&str> {
        self.root_span.as_deref()
    }

    /// Every retrieval and reranking of the trace, in start order.
    pub fn retrievals(&self) -> &[Retrieval] {
        &self.retrievals
    }

    /// Evidence without any free text (see [`Trace::evidence_with`]).
    pub fn evidence(&self) -> Value {
        self.evidence_with(false)
    }

    /// Dialect evidence: root and reply spans, every retrieval with its
    /// documents (ids, scores) and whether it was used, span counts. Reply
    /// and chunk text only when `show_text`.
    pub fn evidence_with(&self, show_text: bool) -> Value {
        let retrievals: Vec<Value> = self
            .retrievals
            .iter()
            .map(|r| {
                let docs: Vec<Value> = r
                    .docs
                    .iter()
                    .map(|d| {
                        let mut v = json!({
                            "chunk_id": d.chunk_id,
                            "document_id": d.document_id,
                            "score": d.score,
                        });
                        if show_text {
                            v["content"] = json!(d.content);
                        }
                        v
                    })
                    .collect();
                json!({
                    "span_id": r.span_id,
                    "name": r.name,
                    "kind": r.kind.as_str(),
                    "recorded": r.recorded,
                    "documents": docs,
                    "before_reply": r.before_reply,
                    "used": r.used,
                    "replaced_by": r.replaced_by,
                })
            })
            .collect();
        let mut v = json!({
            "trace_id": self.trace_id,
            "root_span": self.root_span,
            "reply_span": self.reply_span(),
            "reply_source": self.reply_source(),
            "unobserved_reason": self.unobserved.map(|u| u.as_str()),
            "spans": self.span_count,
            "span_kinds": self.kinds,
            "retrievals": retrievals,
            "chunk_rule": self.facts.chose.as_ref().map(Chose::name),
            "chunk_spans": self
                .chunks
                .iter()
                .map(|&(r, _)| self.retrievals[r].span_id.as_str())
                .collect::<Vec<_>>(),
        });
        if show_text {
            v["reply"] = json!(self.reply);
            v["question"] = json!(question_of(&self.root_input));
        }
        v
    }

    /// Each chunk's text when it was recorded, in chunk order.
    pub fn chunk_texts(&self) -> Vec<Option<String>> {
        self.chunk_docs().map(|d| d.content.clone()).collect()
    }
}
/// The span ids of the ancestors of span `i` (its parent, the parent's
/// parent, …), as far as the trace holds them; a cycle ends the walk.
#[allow(clippy::vec_box)] // the spans as the trace holds them
fn ancestors(spans: &[Box<Span>], i: usize) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let mut at = spans[i].parent_id.as_deref();
    while let Some(parent) = at {
        if out.contains(&parent) || out.len() >= spans.len() {
            break;
        }
        out.push(parent);
        at = spans
            .iter()
            .find(|s| s.span_id() == parent)
            .and_then(|s| s.parent_id.as_deref());
    }
    out
}

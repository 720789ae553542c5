//! One run's observations, kept distinct as the grounding guide asks
//! (injected context, each model call, the delivered answer), and how a run
//! maps to the shared turn model and to `explain`'s extras.

use super::*;

/// Which export a run was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    /// Event lines (JSONL exporter or a catch-all listener).
    Events,
    /// A recording envelope.
    Recording,
    /// An audit bundle.
    Audit,
}

impl Export {
    /// The name written in evidence records.
    pub fn as_str(self) -> &'static str {
        match self {
            Export::Events => "events",
            Export::Recording => "recording",
            Export::Audit => "audit",
        }
    }
}

/// Text as the export kept it.
#[derive(Debug, Clone, PartialEq)]
pub enum Text {
    /// The text itself (an audit in verbatim mode may have capped it).
    Observed(String),
    /// A bounded audit kept only the length in characters.
    Bounded(u64),
}

impl Text {
    /// The text when it was observed.
    pub fn observed(&self) -> Option<&str> {
        match self {
            Text::Observed(s) => Some(s),
            Text::Bounded(_) => None,
        }
    }
}

/// What one model call produced.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// The call's text.
    Observed(String),
    /// Output middleware withheld the draft (`contentWithheld: true`): not an empty answer.
    Withheld,
    /// A bounded audit kept only the length.
    Bounded(u64),
}

/// One `stream.llm_end`.
#[derive(Debug, Clone)]
pub struct ModelCall {
    pub iteration: Option<u64>,
    /// `usage` as the framework wrote it (`{"input":…,"output":…}`).
    pub usage: Option<Value>,
    pub output: Output,
    pub stop_reason: Option<String>,
    pub duration_ms: Option<f64>,
    pub tool_call_count: Option<u64>,
}

/// One injected piece of context (`context.injected`), de-duplicated within the run.
#[derive(Debug, Clone)]
pub struct Injection {
    pub source: String,
    pub slot: Option<String>,
    pub source_id: Option<String>,
    pub score: Option<f64>,
    pub rank: Option<u64>,
    /// `rawContent`, else `contentSummary`.
    pub content: Option<Text>,
    /// 1-based index among the turn's chunks, for RAG injections.
    pub chunk: Option<u32>,
}

/// One admitted RAG chunk: what grading resolves markers against.
#[derive(Debug, Clone)]
pub struct RagChunk {
    pub chunk_id: Option<String>,
    pub document_id: Option<String>,
    pub score: Option<f64>,
}

/// One retrieval candidate (`memory.retrieved`).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub id: String,
    pub score: Option<f64>,
    pub rank: Option<u64>,
    pub admitted: bool,
    pub reason: Option<String>,
    pub doc_uri: Option<String>,
}

/// One tool call from a `tool_start`/`tool_end` pair.
#[derive(Debug, Clone)]
pub struct Tool {
    pub name: String,
    pub call_id: Option<String>,
    pub args: Option<Value>,
    pub result: Option<Value>,
    pub duration_ms: Option<f64>,
    /// True when the end event said `error: true`.
    pub error: bool,
    /// True when a `tool_end` was seen.
    pub ended: bool,
}

impl Tool {
    /// `ok`, `error`, or `no_end` (started, never ended).
    pub fn status(&self) -> &'static str {
        if !self.ended {
            "no_end"
        } else if self.error {
            "error"
        } else {
            "ok"
        }
    }
}

/// `agent.turn_end`.
#[derive(Debug, Clone)]
pub struct TurnEnd {
    /// `finalContent`; None when absent or not a string.
    pub final_content: Option<Text>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub duration_ms: Option<f64>,
    pub stopped_early: Option<bool>,
}

/// Everything observed about one run (one turn), owned.
#[derive(Debug, Clone)]
pub struct Run {
    pub run_id: String,
    /// Position of the run's first event (see the module doc).
    pub line: u64,
    pub export: Export,
    pub agent: String,
    pub session_id: Option<String>,
    pub created_at: DateTime<Utc>,
    /// True when the run's text was replaced by lengths (a bounded audit).
    pub bounded: bool,
    pub question: Option<Text>,
    pub injections: Vec<Injection>,
    pub chunks: Vec<RagChunk>,
    pub candidates: Vec<Candidate>,
    /// `k` and `threshold` of each retrieval.
    pub retrievals: Vec<(Option<u64>, Option<f64>)>,
    pub model_calls: Vec<ModelCall>,
    pub tools: Vec<Tool>,
    pub turn_end: Option<TurnEnd>,
    pub model: Option<String>,
    /// Other facts worth showing (evidence checks, incomplete recordings).
    pub notes: Vec<String>,
    /// Values the framework's evidence check found unsupported, quoted
    /// from the answer (free text: shown only with `--show-text`).
    pub unsupported: Vec<String>,
}

impl Run {
    /// What the run says about the answer.
    pub fn answer(&self) -> Answer<'static> {
        match &self.turn_end {
            Some(_) if self.bounded => Answer::Unobserved(Unobserved::BoundedAudit),
            Some(end) => match &end.final_content {
                Some(Text::Observed(s)) => Answer::Reply(Reply::Text(Cow::Owned(s.clone()))),
                Some(Text::Bounded(_)) => Answer::Unobserved(Unobserved::BoundedAudit),
                None => Answer::Unobserved(Unobserved::NoReply),
            },
            None if self
                .model_calls
                .iter()
                .any(|c| c.output == Output::Withheld) =>
            {
                Answer::Unobserved(Unobserved::Withheld)
            }
            None => Answer::Unobserved(Unobserved::NoTurnEnd),
        }
    }

    /// Each admitted chunk's injected text, where the events observed it.
    fn chunk_texts(&self) -> Vec<Option<String>> {
        (1..=self.chunks.len() as u32)
            .map(|i| {
                self.injections
                    .iter()
                    .find(|j| j.chunk == Some(i))
                    .and_then(|j| j.content.as_ref())
                    .and_then(Text::observed)
                    .map(str::to_owned)
            })
            .collect()
    }

    /// The run as the shared turn model.
    pub fn turn(&self) -> Turn<'static> {
        let chunks = self
            .chunks
            .iter()
            .enumerate()
            .map(|(i, c)| Chunk {
                index: (i + 1) as u32,
                document_id: c.document_id.clone().map(Id::string),
                chunk_id: c.chunk_id.clone().map(Id::string),
                score: c.score,
            })
            .collect();
        let end = self.turn_end.as_ref();
        let tokens = end.and_then(|e| match (e.input_tokens, e.output_tokens) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
        });
        Turn {
            turn_id: Id::string(self.run_id.clone()),
            agent_id: Cow::Owned(self.agent.clone()),
            conversation_id: self.session_id.clone().map(Id::string),
            channel: Cow::Borrowed("chat"),
            created_at: self.created_at,
            answer: self.answer(),
            chunks,
            tool_calls: self.tools.len().min(u32::MAX as usize) as u32,
            tool_errors: self
                .tools
                .iter()
                .filter(|t| t.error)
                .count()
                .min(u32::MAX as usize) as u32,
            model: self.model.clone().map(Cow::Owned),
            tokens_used: tokens,
            cost_cents: None,
            latency_ms: end.and_then(|e| e.duration_ms),
            markers: None,
            evidence: None,
            texts: crate::model::Texts {
                chunks: self
                    .chunk_texts()
                    .into_iter()
                    .map(|t| t.map(|t| crate::model::Reply::Text(Cow::Owned(t))))
                    .collect(),
                ..Default::default()
            },
        }
    }

    /// What `explain` shows beyond the row.
    pub fn extras(&self) -> Extras {
        let mut notes = Vec::new();
        notes.push(format!(
            "read from an agentfootprint {} export",
            self.export.as_str()
        ));
        if self.bounded {
            notes.push("bounded audit: text was replaced by its length, so neither the question nor the answer can be read".into());
        }
        if self.turn_end.is_none() {
            notes.push(
                "no turn_end: no delivered answer was observed (the run may have paused, failed or been captured incompletely)".into(),
            );
        }
        for (i, c) in self.model_calls.iter().enumerate() {
            let iteration = c
                .iteration
                .map_or_else(|| "?".to_owned(), |n| n.to_string());
            let usage = c
                .usage
                .as_ref()
                .map_or_else(|| "no usage".to_owned(), |u| format!("usage {u}"));
            let output = match &c.output {
                Output::Observed(s) if s.is_empty() => "no text".to_owned(),
                Output::Observed(s) => format!("{} chars of text", s.chars().count()),
                Output::Withheld => {
                    "draft withheld by output middleware (not an empty answer)".to_owned()
                }
                Output::Bounded(n) => format!("{n} chars (text not kept by the bounded audit)"),
            };
            let stop = c
                .stop_reason
                .as_deref()
                .map(|s| format!(", stop {s}"))
                .unwrap_or_default();
            notes.push(format!(
                "model call {} (iteration {iteration}): {usage}{stop}; {output}",
                i + 1
            ));
        }
        for (k, threshold) in &self.retrievals {
            let k = k.map_or_else(|| "?".to_owned(), |k| k.to_string());
            let t = threshold.map_or_else(|| "?".to_owned(), |t| t.to_string());
            notes.push(format!("retrieval: top-k {k}, threshold {t}"));
        }
        for c in &self.candidates {
            let score = c
                .score
                .map_or_else(|| "no score".to_owned(), |s| format!("score {s:.4}"));
            let fate = if c.admitted {
                "admitted".to_owned()
            } else {
                format!(
                    "rejected ({})",
                    c.reason.as_deref().unwrap_or("no reason given")
                )
            };
            let rank = c.rank.map(|r| format!("rank {r}, ")).unwrap_or_default();
            notes.push(format!("candidate {}: {rank}{score}, {fate}", c.id));
        }
        notes.extend(self.notes.iter().cloned());
        let chunk_texts = self.chunk_texts();
        let text_notes = if self.unsupported.is_empty() {
            Vec::new()
        } else {
            vec![format!(
                "framework evidence check flagged: {}",
                self.unsupported.join(", ")
            )]
        };
        Extras {
            chunk_texts,
            text_notes,
            question: self
                .question
                .as_ref()
                .and_then(|q| q.observed().map(str::to_owned)),
            tools: self
                .tools
                .iter()
                .map(|t| ToolCall {
                    name: t.name.clone(),
                    status: t.status().to_owned(),
                    duration_ms: t.duration_ms,
                    arguments: t.args.clone(),
                    result: t.result.clone(),
                })
                .collect(),
            notes,
        }
    }
}

impl Run {
    /// The run's part of an evidence record: the export, the question, the
    /// injected context, every retrieval candidate with its fate, each model
    /// call with its output kept distinct, the delivered answer (only when a
    /// `turn_end` exists) and the limitations of the record.
    pub fn evidence(&self, show_text: bool) -> serde_json::Map<String, Value> {
        use serde_json::json;
        let mut limitations = Vec::new();
        if self.bounded || matches!(self.answer(), Answer::Unobserved(Unobserved::BoundedAudit)) {
            limitations.push("bounded audit: text was replaced by its length; the question, injected text and answers cannot be read or graded".to_owned());
        }
        if self.turn_end.is_none() {
            limitations.push("no turn_end: no delivered answer was observed; this alone does not tell whether the run paused, failed or was captured incompletely".to_owned());
        }
        for c in &self.model_calls {
            if c.output == Output::Withheld {
                let at = c
                    .iteration
                    .map_or_else(|| "a model call".to_owned(), |i| format!("iteration {i}"));
                limitations.push(format!("the draft of {at} was withheld by output middleware; an event-only record cannot show it"));
            }
        }
        limitations.extend(
            self.notes
                .iter()
                .filter(|n| n.starts_with("the recording"))
                .cloned(),
        );
        // Free text only with `show_text` (the record's `text_shown` says
        // which); model outputs keep their status and length either way.
        let text = |t: Option<&Text>| match t {
            Some(Text::Observed(s)) if show_text => Value::String(s.clone()),
            _ => Value::Null,
        };
        let injected: Vec<Value> = self
            .injections
            .iter()
            .map(|i| {
                json!({
                    "source": i.source,
                    "slot": i.slot,
                    "sourceId": i.source_id,
                    "score": i.score,
                    "rank": i.rank,
                    "chunk": i.chunk,
                    "content": text(i.content.as_ref()),
                })
            })
            .collect();
        let candidates: Vec<Value> = self
            .candidates
            .iter()
            .map(|c| {
                json!({
                    "id": c.id,
                    "score": c.score,
                    "rank": c.rank,
                    "admitted": c.admitted,
                    "reason": c.reason,
                    "doc_uri": c.doc_uri,
                })
            })
            .collect();
        let calls: Vec<Value> = self
            .model_calls
            .iter()
            .map(|c| {
                json!({
                    "iteration": c.iteration,
                    "usage": c.usage,
                    "stop_reason": c.stop_reason,
                    "output": output_value(&c.output, show_text),
                })
            })
            .collect();
        let mut m = serde_json::Map::new();
        m.insert("export".into(), json!(self.export.as_str()));
        m.insert("text_shown".into(), json!(show_text));
        m.insert("question".into(), text(self.question.as_ref()));
        m.insert("injected_chunks".into(), Value::Array(injected));
        m.insert("retrieval_candidates".into(), Value::Array(candidates));
        m.insert("model_calls".into(), Value::Array(calls));
        m.insert("limitations".into(), json!(limitations));
        m.insert("notes".into(), json!(self.notes));
        if show_text && !self.unsupported.is_empty() {
            m.insert("unsupported_values".into(), json!(self.unsupported));
        }
        if let Some(end) = &self.turn_end {
            let delivered = match (&end.final_content, self.bounded) {
                (Some(Text::Bounded(n)), _) => output_value(&Output::Bounded(*n), show_text),
                (Some(Text::Observed(s)), false) => {
                    output_value(&Output::Observed(s.clone()), show_text)
                }
                (Some(Text::Observed(_)), true) | (None, _) => json!({"status": "absent"}),
            };
            m.insert("delivered_answer".into(), delivered);
        }
        m
    }
}

/// A model call's output, or a delivered answer, as a tagged value: the
/// text itself only with `show_text`, else its length.
fn output_value(o: &Output, show_text: bool) -> Value {
    use serde_json::json;
    match o {
        Output::Observed(text) if show_text => json!({"status": "observed", "text": text}),
        Output::Observed(text) => json!({"status": "observed", "chars": text.chars().count()}),
        Output::Withheld => json!({"status": "withheld"}),
        Output::Bounded(chars) => json!({"status": "bounded", "chars": chars}),
    }
}

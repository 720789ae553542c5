//! LangSmith runs as `Client.list_runs()` objects dump them (one
//! `Run.model_dump_json()` per line, a JSON array of them, or rows of the
//! bulk-export Parquet converted to JSON, where `inputs`, `outputs`,
//! `extra` and `events` are JSON strings).
//!
//! A run may be read in parts: the SDK posts a run when it starts and
//! patches it when it ends (same id), and a dump taken while a trace ran
//! holds the run twice. Parts are kept as [`RunPart`]s and merged by run id
//! when the trace assembles (later values win; an empty `outputs` never
//! replaces recorded ones), then each run becomes one [`Span`]:
//! - kind from `run_type` (`llm`, `chain`, `retriever`, `tool`, `prompt`,
//!   `parser`, `embedding`; other values are unknown);
//! - reply text from `outputs` ([`super::json::reply_text`]: `output`,
//!   `answer`, `text`, `content`, …, the last assistant message, LangChain
//!   `generations`), the key used kept for `explain`;
//! - a retriever's documents from `outputs.documents` (LangChain tracer) or
//!   `outputs.output` (a `@traceable` function's list);
//! - failed when `error` is set or `status` is `error`;
//! - conversation from `extra.metadata` `thread_id`, `session_id` or
//!   `conversation_id` (the top-level `session_id` is the project);
//! - model from `extra.metadata.ls_model_name` or `extra.invocation_params`;
//!   tokens from `prompt_tokens`/`completion_tokens`/`total_tokens`, else a
//!   `usage_metadata`; cost (USD) from `total_cost`, else prompt + completion.

use super::json::{self, blank_span, count, field, number, object, reply_text, string};
use super::{Span, SpanKind};
use crate::dialect::ShortId;
use serde_json::{Map, Value};

/// One run as read (a whole run, or a create or patch part of one).
#[derive(Debug, Clone)]
pub struct RunPart {
    pub trace_id: String,
    pub id: String,
    fields: Map<String, Value>,
}

/// The run fields the reader uses (`from_map`, `merge`, `into_span`): every
/// other field (`inputs`, `serialized`, `events`, `child_runs`, the
/// attachments…) is dropped when a line is parsed, checked but never built
/// (see [`super::json::object_keeping`]), so large inputs neither cost
/// allocations nor stay in memory. A field `into_span` starts reading must
/// be added here.
const READ: [&str; 18] = [
    "id",
    "trace_id",
    "dotted_order",
    "parent_run_id",
    "name",
    "run_type",
    "start_time",
    "end_time",
    "error",
    "status",
    "outputs",
    "extra",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "total_cost",
    "prompt_cost",
    "completion_cost",
];

/// Whether a run's field is read (kept when a line is parsed).
pub fn kept(key: &str) -> bool {
    READ.contains(&key)
}

impl RunPart {
    /// True for the root run once it has ended: the trace is complete as far
    /// as the export can tell.
    pub fn completes(&self) -> bool {
        self.id == self.trace_id && self.fields.get("end_time").is_some_and(|v| !v.is_null())
    }

    /// A run from one JSON object. Errors name the field, never a value.
    pub fn from_map(mut m: Map<String, Value>) -> Result<RunPart, String> {
        m.retain(|k, _| kept(k));
        let id = field(&m, &["id"])
            .and_then(json::id_of)
            .ok_or("run without an id (`id`)")?;
        let trace_id = field(&m, &["trace_id"])
            .and_then(json::id_of)
            .or_else(|| {
                string(&m, &["dotted_order"]).and_then(|d| {
                    let first = d.split('.').next()?;
                    let (_, uuid) = first.split_once('Z')?;
                    super::clean_id(uuid).map(|id| id.as_str().to_owned())
                })
            })
            .or_else(|| field(&m, &["parent_run_id"]).is_none().then(|| id.clone()))
            .ok_or("run without a trace id (`trace_id` or `dotted_order`)")?;
        Ok(RunPart {
            trace_id,
            id,
            fields: m,
        })
    }

    /// Folds a later part of the same run into this one.
    pub fn merge(&mut self, later: RunPart) {
        for (k, v) in later.fields {
            if v.is_null() {
                continue;
            }
            match (k.as_str(), self.fields.get_mut(&k)) {
                // A create part's `outputs: {}` is "not yet", not "nothing".
                ("outputs", Some(old)) if is_empty(&v) && !is_empty(old) => {}
                ("extra", Some(old)) => {
                    let old_m = json::unstring(old).into_owned();
                    let new_m = json::unstring(&v).into_owned();
                    *old = merge_extra(old_m, new_m);
                }
                _ => {
                    self.fields.insert(k, v);
                }
            }
        }
    }

    /// The run as a span.
    pub fn into_span(self) -> Span {
        let m = &self.fields;
        let mut s = blank_span(self.trace_id.clone(), self.id.clone());
        s.parent_id = field(m, &["parent_run_id"])
            .and_then(json::id_of)
            .map(ShortId::from);
        s.name = string(m, &["name"]).unwrap_or_default();
        let run_type = string(m, &["run_type"]).unwrap_or_default();
        s.kind = match run_type.to_ascii_lowercase().as_str() {
            "llm" => SpanKind::Llm,
            "chain" | "parser" => SpanKind::Chain,
            "retriever" => SpanKind::Retriever,
            "tool" => SpanKind::Tool,
            "prompt" => SpanKind::Prompt,
            "embedding" => SpanKind::Embedding,
            _ => SpanKind::Unknown,
        };
        s.start_ns = field(m, &["start_time"]).and_then(json::time);
        s.end_ns = field(m, &["end_time"]).and_then(json::time);
        s.error = string(m, &["error"]).is_some()
            || string(m, &["status"]).is_some_and(|st| st.eq_ignore_ascii_case("error"));
        if s.error {
            s.error_type = Some("error".to_owned());
        }
        if s.kind == SpanKind::Tool {
            s.tool_name = Some(s.name.clone());
        }
        let outputs = field(m, &["outputs"]).map(json::unstring);
        if let Some(out) = outputs.as_deref() {
            s.content_recorded = true;
            if s.kind == SpanKind::Retriever {
                // `{}`: a create part, or a run that never ended: not recorded.
                if !is_empty(out) {
                    s.retrieval = json::documents(out);
                }
            } else if let Some((text, key)) = reply_text(out, "outputs") {
                if s.kind == SpanKind::Llm {
                    s.llm_text = Some(text);
                    s.llm_text_key = key;
                } else {
                    s.output = Some(text);
                    s.output_mime = Some("text/plain".to_owned());
                    s.output_key = key;
                }
            }
        }
        let extra = object(m, &["extra"]).unwrap_or_default();
        let meta = object(&extra, &["metadata"]).unwrap_or_default();
        s.conversation = ["thread_id", "session_id", "conversation_id"]
            .iter()
            .find_map(|k| meta.get(*k).and_then(json::id_of));
        s.channel = string(&meta, &["channel"]);
        s.model = string(&meta, &["ls_model_name"]).or_else(|| {
            object(&extra, &["invocation_params"])
                .and_then(|p| string(&p, &["model", "model_name"]))
        });
        s.tokens.prompt = field(m, &["prompt_tokens"]).and_then(count);
        s.tokens.completion = field(m, &["completion_tokens"]).and_then(count);
        s.tokens.total = field(m, &["total_tokens"]).and_then(count);
        if s.tokens.sum().is_none() {
            let usage = object(&meta, &["usage_metadata"]).or_else(|| {
                outputs
                    .as_deref()
                    .and_then(|o| o.as_object())
                    .and_then(|o| object(o, &["usage_metadata"]))
            });
            if let Some(u) = usage {
                s.tokens.prompt = field(&u, &["input_tokens"]).and_then(count);
                s.tokens.completion = field(&u, &["output_tokens"]).and_then(count);
                s.tokens.total = field(&u, &["total_tokens"]).and_then(count);
            }
        }
        s.cost_usd = field(m, &["total_cost"]).and_then(number).or_else(|| {
            match (
                field(m, &["prompt_cost"]).and_then(number),
                field(m, &["completion_cost"]).and_then(number),
            ) {
                (None, None) => None,
                (p, c) => Some(p.unwrap_or(0.0) + c.unwrap_or(0.0)),
            }
        });
        s
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.is_empty(),
        Value::Null => true,
        Value::String(s) => s.trim().is_empty() || s.trim() == "{}",
        _ => false,
    }
}

/// `extra` of two parts: objects merged one level down (`metadata` keys of
/// both kept, the later winning).
fn merge_extra(old: Value, new: Value) -> Value {
    match (old, new) {
        (Value::Object(mut a), Value::Object(b)) => {
            for (k, v) in b {
                match (a.get_mut(&k), v) {
                    (Some(Value::Object(x)), Value::Object(y)) => {
                        for (kk, vv) in y {
                            x.insert(kk, vv);
                        }
                    }
                    (_, v) => {
                        a.insert(k, v);
                    }
                }
            }
            Value::Object(a)
        }
        (_, new) => new,
    }
}

/// Merges the parts of each run (by id, in the order read) into spans.
pub fn merge_parts(parts: Vec<RunPart>) -> Vec<Span> {
    let mut order: Vec<RunPart> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for p in parts {
        match index.get(&p.id) {
            Some(&i) => order[i].merge(p),
            None => {
                index.insert(p.id.clone(), order.len());
                order.push(p);
            }
        }
    }
    order.into_iter().map(RunPart::into_span).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn part(v: Value) -> RunPart {
        match v {
            Value::Object(m) => RunPart::from_map(m).unwrap(),
            _ => unreachable!(),
        }
    }

    #[test]
    fn create_and_patch_merge_by_id() {
        let create = part(json!({"id": "r", "trace_id": "r", "run_type": "retriever",
            "name": "kb", "start_time": "2026-11-30T08:46:04.138080", "outputs": {},
            "extra": {"metadata": {"session_id": "s"}}}));
        let patch = part(
            json!({"id": "r", "trace_id": "r", "end_time": "2026-11-30T08:46:04.139774+00:00",
            "outputs": {"documents": [{"id": "KB-1", "page_content": "x"}]},
            "extra": {"metadata": {"channel": "web"}}}),
        );
        let spans = merge_parts(vec![create.clone(), patch.clone()]);
        assert_eq!(spans.len(), 1);
        let s = &spans[0];
        assert_eq!(s.retrieval.as_ref().map(Vec::len), Some(1));
        assert_eq!(s.conversation.as_deref(), Some("s"));
        assert_eq!(s.channel.as_deref(), Some("web"));
        // No offset: UTC.
        assert_eq!(s.start_ns, Some(1_796_028_364_138_080_000));
        assert!(s.duration_ms().is_some());
        // A create part alone: documents not recorded.
        let alone = merge_parts(vec![create]);
        assert_eq!(alone[0].retrieval, None);
    }

    #[test]
    fn trace_id_from_dotted_order_or_root() {
        let p = part(json!({"id": "c", "parent_run_id": "r",
            "dotted_order": "20261130T084604127074Zr.20261130T084604138080Zc"}));
        assert_eq!(p.trace_id, "r");
        assert_eq!(part(json!({"id": "r"})).trace_id, "r");
        let orphan = json!({"id": "c", "parent_run_id": "r"});
        let Value::Object(m) = orphan else {
            unreachable!()
        };
        assert!(RunPart::from_map(m).is_err());
    }

    #[test]
    fn json_string_columns_as_the_bulk_export_writes_them() {
        let p = part(
            json!({"id": "r", "run_type": "chain", "outputs": "{\"answer\": \"a [1]\"}",
            "extra": "{\"metadata\": {\"thread_id\": \"t\"}}", "total_cost": "0.0012",
            "error": "Boom"}),
        );
        let s = p.into_span();
        assert_eq!(s.output.as_deref(), Some("a [1]"));
        assert_eq!(s.output_key, "outputs.answer");
        assert_eq!(s.conversation.as_deref(), Some("t"));
        assert_eq!(s.cost_usd, Some(0.0012));
        assert!(s.failed());
    }
}

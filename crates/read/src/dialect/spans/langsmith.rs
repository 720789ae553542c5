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
//! - an LLM run's input text from `inputs` (messages or prompts, LangChain
//!   serialized messages too), normalised ([`super::prompt`]); only the
//!   members messages are written under are read, and only a part of an
//!   `llm` run (or of a run whose type another part names) keeps the text;
//! - a root run's `inputs` as recorded (its question), and a `tool` run's
//!   (its arguments, its `outputs` its result); of `inputs` only the
//!   members messages are written under and the scalars of the others
//!   (two levels deep) are built;
//! - failed when `error` is set or `status` is `error`;
//! - conversation from `extra.metadata` `thread_id`, `session_id` or
//!   `conversation_id` (the top-level `session_id` is the project);
//! - model from `extra.metadata.ls_model_name` or `extra.invocation_params`;
//!   tokens from `prompt_tokens`/`completion_tokens`/`total_tokens`, else a
//!   `usage_metadata`; cost (USD) from `total_cost`, else prompt + completion.

use super::bodies::Bodies;
use super::json::{self, blank_span, count, field, number, object, reply_text, string};
use super::keeping::{self, Keep, Row, Schema};
use super::{Recorded, Span, SpanKind};
use crate::dialect::ShortId;
use serde_json::{Map, Value};

/// One run as read (a whole run, or a create or patch part of one), with
/// every field it holds already read into what [`RunPart::into_span`] uses:
/// no `serde_json::Value` of a run outlives the line it was parsed from
/// (the parts of open traces are held until their trace assembles).
#[derive(Debug, Clone)]
pub struct RunPart {
    pub trace_id: String,
    pub id: String,
    /// A patch: a part that names neither its trace nor its parent nor its
    /// type (the SDK's update of a run: `id`, `end_time`, `outputs`,
    /// `error`). Its `trace_id` is its own id until it is merged with a
    /// part that names the trace.
    pub patch: bool,
    /// `end_time` is set (not null).
    ended: bool,
    fields: Fields,
}

/// The fields of one part. Each is `None` when the part does not hold it
/// or holds `null`: both read as absent, and a later part's `null` never
/// replaces a value. `Some` holds what the reader takes from the value
/// (which may be nothing, as for a name that is a number).
#[derive(Debug, Clone, Default)]
struct Fields {
    parent: Option<Option<String>>,
    name: Option<Option<String>>,
    run_type: Option<Option<String>>,
    start_ns: Option<Option<i128>>,
    end_ns: Option<Option<i128>>,
    /// `error` is a non-blank string.
    error: Option<bool>,
    /// `status` is the string `error` (any case).
    status_error: Option<bool>,
    outputs: Option<Outputs>,
    /// `extra`, read out of a JSON string when it holds one, with only the
    /// members read kept ([`prune_extra`]).
    extra: Option<Value>,
    /// `prompt_tokens`, `completion_tokens`, `total_tokens`.
    tokens: [Option<Option<u64>>; 3],
    /// `total_cost`, `prompt_cost`, `completion_cost`.
    costs: [Option<Option<f64>>; 3],
    /// `inputs` as normalised text ([`super::prompt::value_text`]), read
    /// only from a part of an `llm` run or of a run of no named type.
    input: Option<Option<String>>,
    /// `inputs` as recorded (JSON text), read only from a part of a `tool`
    /// run or of a run with no parent named: a root's question, a tool's
    /// arguments.
    recorded_input: Option<Option<String>>,
    /// An LLM call's `inputs` and `outputs` as the provider's request and
    /// response bodies, when they may hold structured citations
    /// ([`Bodies`]): `inputs` and `outputs` arrive in different parts.
    bodies: Bodies,
}

/// What a run's `outputs` holds, read when the part is parsed: both the
/// documents and the reply, since the run's type may come from another part.
#[derive(Debug, Clone)]
struct Outputs {
    /// The value as read is empty (`{}`, blank, `"{}"`): a create part's
    /// "not yet", which never replaces recorded outputs.
    empty: bool,
    /// A retriever's documents ([`json::documents`]), when not empty.
    docs: Option<Vec<crate::dialect::spans::Doc>>,
    /// The reply text and the key it came from ([`reply_text`]).
    reply: Option<(String, &'static str)>,
    /// `usage_metadata` inside the outputs (LangChain chat models).
    usage: Option<[Option<u64>; 3]>,
}

impl Outputs {
    fn read(v: &Value) -> Outputs {
        let out = json::unstring(v);
        Outputs {
            empty: json::is_blank(v),
            docs: if json::is_blank(&out) {
                None
            } else {
                json::documents(&out)
            },
            reply: reply_text(&out, "outputs"),
            usage: out
                .as_object()
                .and_then(|o| object(o, &["usage_metadata"]))
                .map(|u| usage(&u)),
        }
    }
}

/// Input, output and total tokens of a `usage_metadata` object.
fn usage(u: &Map<String, Value>) -> [Option<u64>; 3] {
    ["input_tokens", "output_tokens", "total_tokens"].map(|k| field(u, &[k]).and_then(count))
}

/// The run fields the reader uses (`from_map`, `merge`, `into_span`): every
/// other field (`serialized`, `events`, `child_runs`, the attachments…) is
/// dropped when a line is parsed, checked but never built (see
/// [`super::json::object_keeping`]), and of `inputs` only the members
/// messages are written under and the scalars of the others are built
/// ([`super::prompt::recorded_input_member`]), so large inputs neither cost
/// allocations nor stay in memory. A field `into_span` starts reading must
/// be added here.
const READ: [&str; 19] = [
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
    "inputs",
];

/// The place of a run's field in [`READ`], `None` for a field not read: a
/// `match`, which the compiler turns into a switch on length and bytes (a
/// row has dozens of keys, most of them not read).
fn slot(key: &str) -> Option<usize> {
    Some(match key {
        "id" => 0,
        "trace_id" => 1,
        "dotted_order" => 2,
        "parent_run_id" => 3,
        "name" => 4,
        "run_type" => 5,
        "start_time" => 6,
        "end_time" => 7,
        "error" => 8,
        "status" => 9,
        "outputs" => 10,
        "extra" => 11,
        "prompt_tokens" => 12,
        "completion_tokens" => 13,
        "total_tokens" => 14,
        "total_cost" => 15,
        "prompt_cost" => 16,
        "completion_cost" => 17,
        "inputs" => 18,
        _ => return None,
    })
}

/// How a run is read from its JSON object ([`super::keeping::read_row`]).
pub(super) static SCHEMA: Schema = Schema {
    names: &READ,
    slot,
    keep,
};

/// How a run's reader builds a field it reads: whole, except `extra`, of
/// which only what a span reads is built ([`extra_member`]).
fn keep(key: &str) -> Keep {
    match key {
        "extra" => Keep::Only(extra_member),
        "outputs" => Keep::Only(outputs_member),
        "inputs" => Keep::Only(super::prompt::recorded_input_member),
        _ => Keep::Whole,
    }
}

/// The members of `outputs` a span reads, at its top level: those of
/// [`output_member`], and every other key kept as `null` ([`Keep::Stub`]),
/// so that outputs are as empty as they were (`{}` is a create part's
/// "not yet").
fn outputs_member(key: &str) -> Keep {
    match output_member(key) {
        Keep::Drop => Keep::Stub,
        keep => keep,
    }
}

/// The keys any reader of a run's outputs reads, at any depth below the
/// top: the reply keys ([`json::reply_text`] and the JSON reply text it
/// falls back to: `output`, `answer`, `content`, `generations`, `message`,
/// `kwargs`, … with `role` and `type`), the documents ([`json::documents`]:
/// the list keys, `scores`, and each document's ids, score, text and
/// `metadata`) and `usage_metadata`. Every reader looks keys up by name
/// and reads lists whole, so an object with only these keys, at every
/// depth, reads as the whole one: a LangChain generation's
/// `response_metadata`, `additional_kwargs` and `generation_info` are never
/// built.
fn output_member(key: &str) -> Keep {
    match key {
        "documents" | "docs" | "results" | "output" | "outputs" | "answer" | "text" | "content"
        | "result" | "response" | "final_answer" | "messages" | "message" | "generations"
        | "kwargs" | "choices" | "candidates" | "parts" => Keep::Only(output_member),
        "scores" | "usage_metadata" | "metadata" | "id" | "chunk_id" | "document_id" | "score"
        | "page_content" | "role" | "type" => Keep::Whole,
        _ => Keep::Drop,
    }
}

/// The members of `extra` a span reads: `metadata` (conversation, channel,
/// model, usage) and `invocation_params` (model). Parts merge `extra` one
/// level down, key by key, so dropping every other member, and every other
/// key of those two objects, changes nothing a span reads (a LangChain run's
/// `extra` is mostly `runtime` and metadata no span reads).
fn extra_member(key: &str) -> Keep {
    fn metadata(key: &str) -> Keep {
        match key {
            "thread_id" | "session_id" | "conversation_id" | "channel" | "ls_model_name"
            | "usage_metadata" => Keep::Whole,
            _ => Keep::Drop,
        }
    }
    fn invocation_params(key: &str) -> Keep {
        match key {
            "model" | "model_name" => Keep::Whole,
            _ => Keep::Drop,
        }
    }
    match key {
        "metadata" => Keep::Only(metadata),
        "invocation_params" => Keep::Only(invocation_params),
        _ => Keep::Drop,
    }
}

/// `extra` with only the members a span reads ([`extra_member`]), for an
/// `extra` read out of a JSON string (the bulk export's columns); a value
/// that is not an object is kept as it is.
fn prune_extra(v: Value) -> Value {
    match v {
        Value::Object(mut m) => {
            keeping::prune(&mut m, extra_member);
            Value::Object(m)
        }
        other => other,
    }
}

impl RunPart {
    /// True for the root run once it has ended: the trace is complete as far
    /// as the export can tell.
    pub fn completes(&self) -> bool {
        self.id == self.trace_id && self.ended
    }

    /// A run from its row ([`SCHEMA`]). Errors name the field, never a value.
    /// `text` is the run's JSON text, read again only for an LLM call's
    /// provider bodies ([`Bodies::of`]).
    pub(super) fn from_row(mut m: Row, text: &str) -> Result<RunPart, String> {
        let dotted = string(&m, &["dotted_order"]);
        // The JS SDK's patches name their run by `dotted_order` alone.
        let id = field(&m, &["id"])
            .and_then(json::span_id_of)
            .or_else(|| {
                let d = dotted.as_deref()?;
                dotted_run(d, d.split('.').count() - 1)
            })
            .ok_or("run without an id (`id` or `dotted_order`)")?;
        let named = field(&m, &["trace_id"])
            .and_then(json::span_id_of)
            .or_else(|| dotted.as_deref().and_then(|d| dotted_run(d, 0)));
        let has = |k: &str| field(&m, &[k]).is_some();
        let patch =
            named.is_none() && !has("parent_run_id") && !has("run_type") && !has("start_time");
        let trace_id = named
            .or_else(|| (!has("parent_run_id")).then(|| id.clone()))
            .ok_or("run without a trace id (`trace_id` or `dotted_order`)")?;
        // `extra` is taken out whole (already pruned when the line was
        // read), and read out of a JSON string when it holds one.
        let extra = m.take("extra").filter(|v| !v.is_null()).map(|v| {
            let parsed = match json::unstring(&v) {
                std::borrow::Cow::Owned(o) => Some(o),
                std::borrow::Cow::Borrowed(_) => None,
            };
            prune_extra(parsed.unwrap_or(v))
        });
        let got = |k: &str| field(&m, &[k]);
        let run_type = got("run_type").map(json::text);
        let llm = !matches!(&run_type, Some(Some(t)) if !t.eq_ignore_ascii_case("llm"));
        let input = got("inputs")
            .filter(|_| llm)
            .map(|v| super::prompt::value_text_kept(v, super::prompt::input_member));
        let bodies = if llm {
            let pending = got("outputs").is_none_or(json::is_blank);
            Bodies::of(text, "inputs", "outputs", pending)
        } else {
            Bodies::default()
        };
        // The SDK's posts name the parent in `dotted_order` alone:
        // its segments are the runs from the root down to this one.
        let parent = got("parent_run_id").map(json::span_id_of).or_else(|| {
            let d = dotted.as_deref()?;
            let depth = d.split('.').count();
            Some((depth > 1).then(|| dotted_run(d, depth - 2)).flatten())
        });
        let tool = matches!(&run_type, Some(Some(t)) if t.eq_ignore_ascii_case("tool"));
        let recorded_input = match &parent {
            Some(Some(_)) if !tool => None,
            _ => got("inputs").map(json::recorded_text),
        };
        let fields = Fields {
            parent,
            name: got("name").map(json::text),
            run_type,
            start_ns: time_of(got("start_time"), "start_time")?,
            end_ns: time_of(got("end_time"), "end_time")?,
            error: got("error").map(|v| json::text(v).is_some()),
            status_error: got("status")
                .map(|v| json::text(v).is_some_and(|st| st.eq_ignore_ascii_case("error"))),
            outputs: got("outputs").map(Outputs::read),
            extra,
            tokens: ["prompt_tokens", "completion_tokens", "total_tokens"]
                .map(|k| got(k).map(count)),
            costs: ["total_cost", "prompt_cost", "completion_cost"].map(|k| got(k).map(number)),
            input,
            recorded_input,
            bodies,
        };
        Ok(RunPart {
            trace_id,
            id,
            patch,
            ended: got("end_time").is_some(),
            fields,
        })
    }

    /// Folds a later part of the same run into this one: every field the
    /// later part holds (not null) replaces this one's, except that empty
    /// outputs never replace recorded ones and `extra` merges one level
    /// down ([`merge_extra`]).
    pub fn merge(&mut self, later: RunPart) {
        fn over<T>(old: &mut Option<T>, new: Option<T>) {
            if new.is_some() {
                *old = new;
            }
        }
        if self.patch && !later.patch {
            self.trace_id = later.trace_id;
            self.patch = false;
        }
        let (a, b) = (&mut self.fields, later.fields);
        over(&mut a.parent, b.parent);
        over(&mut a.name, b.name);
        over(&mut a.run_type, b.run_type);
        over(&mut a.start_ns, b.start_ns);
        over(&mut a.end_ns, b.end_ns);
        over(&mut a.error, b.error);
        over(&mut a.status_error, b.status_error);
        over(&mut a.input, b.input);
        over(&mut a.recorded_input, b.recorded_input);
        over(&mut a.bodies.request, b.bodies.request);
        over(&mut a.bodies.response, b.bodies.response);
        for (x, y) in a.tokens.iter_mut().zip(b.tokens) {
            over(x, y);
        }
        for (x, y) in a.costs.iter_mut().zip(b.costs) {
            over(x, y);
        }
        match (&a.outputs, b.outputs) {
            // A create part's `outputs: {}` is "not yet", not "nothing".
            (Some(old), Some(new)) if new.empty && !old.empty => {}
            (_, new) => over(&mut a.outputs, new),
        }
        if let Some(new) = b.extra {
            a.extra = Some(match a.extra.take() {
                Some(old) => merge_extra(old, new),
                None => new,
            });
        }
    }

    /// The run as a span.
    pub fn into_span(self) -> Span {
        let f = self.fields;
        let mut s = blank_span(self.trace_id, self.id);
        s.parent_id = f.parent.flatten().map(ShortId::from);
        s.name = f.name.flatten().unwrap_or_default();
        let run_type = f.run_type.flatten().unwrap_or_default();
        s.kind = match run_type.to_ascii_lowercase().as_str() {
            "llm" => SpanKind::Llm,
            "chain" | "parser" => SpanKind::Chain,
            "retriever" => SpanKind::Retriever,
            "tool" => SpanKind::Tool,
            "prompt" => SpanKind::Prompt,
            "embedding" => SpanKind::Embedding,
            _ => SpanKind::Unknown,
        };
        s.start_ns = f.start_ns.flatten();
        s.end_ns = f.end_ns.flatten();
        s.error = f.error == Some(true) || f.status_error == Some(true);
        if s.error {
            s.error_type = Some("error".to_owned());
        }
        if s.kind == SpanKind::Tool {
            s.tool_name = Some(s.name.clone());
        }
        if s.kind == SpanKind::Llm {
            s.input_text = f.input.flatten();
            s.provider = f.bodies.read();
        }
        if s.parent_id.is_none() || s.kind == SpanKind::Tool {
            s.recorded = Recorded::of(f.recorded_input.flatten(), None);
        }
        let mut outputs_usage = None;
        if let Some(out) = f.outputs {
            s.content_recorded = true;
            outputs_usage = out.usage;
            if s.kind == SpanKind::Retriever {
                // `{}`: a create part, or a run that never ended: not recorded.
                s.retrieval = out.docs;
            } else if let Some((text, key)) = out.reply {
                s.answered(text, key);
            }
        }
        let extra = match f.extra {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        let meta = object(&extra, &["metadata"]).unwrap_or_default();
        s.conversation = ["thread_id", "session_id", "conversation_id"]
            .iter()
            .find_map(|k| meta.get(*k).and_then(json::id_of));
        s.channel = string(&meta, &["channel"]);
        s.model = string(&meta, &["ls_model_name"]).or_else(|| {
            object(&extra, &["invocation_params"])
                .and_then(|p| string(&p, &["model", "model_name"]))
        });
        [s.tokens.prompt, s.tokens.completion, s.tokens.total] = f.tokens.map(Option::flatten);
        if s.tokens.sum().is_none()
            && let Some(u) = object(&meta, &["usage_metadata"])
                .map(|u| usage(&u))
                .or(outputs_usage)
        {
            [s.tokens.prompt, s.tokens.completion, s.tokens.total] = u;
        }
        let [total, prompt, completion] = f.costs.map(Option::flatten);
        s.cost_usd = total.or(match (prompt, completion) {
            (None, None) => None,
            (p, c) => Some(p.unwrap_or(0.0) + c.unwrap_or(0.0)),
        });
        s
    }
}

/// The run id of segment `at` of a `dotted_order`
/// (`20241204T195929374537Z1efb27a4-….20241204T…Z<run id>`): the text after
/// the segment's time stamp.
fn dotted_run(dotted: &str, at: usize) -> Option<String> {
    let segment = dotted.split('.').nth(at)?;
    let (_, uuid) = segment.split_once('Z')?;
    super::clean_id_str(uuid).map(std::borrow::Cow::into_owned)
}

/// A run's time field as [`Fields`] holds it: `None` when absent or null,
/// `Some(None)` for blank text; a value that is not a time makes the run
/// invalid, its reason naming the field.
fn time_of(v: Option<&Value>, field: &str) -> Result<Option<Option<i128>>, String> {
    v.map(|v| json::time(v).map_err(|e| e.reason(field)))
        .transpose()
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

    #[test]
    fn every_field_read_has_its_slot() {
        for (i, k) in READ.iter().enumerate() {
            assert_eq!(slot(k), Some(i), "{k}");
        }
        for k in ["", "ids", "Id", "input", "tags", "events", "latency"] {
            assert_eq!(slot(k), None, "{k}");
        }
    }

    #[test]
    fn outputs_are_read_with_only_what_a_span_reads() {
        use super::super::json::Members;
        let r = row(&json!({"id": "r", "outputs": {"generations": [[{"text": "",
            "generation_info": {"finish_reason": "stop"},
            "message": {"lc": 1, "kwargs": {"content": "a [1]", "type": "ai",
                "response_metadata": {"model_name": "m"}, "tool_calls": []}}}]],
            "llm_output": {"token_usage": {"total_tokens": 9}}}}));
        assert_eq!(
            r.member("outputs"),
            Some(&json!({"generations": [[{"text": "",
                "message": {"kwargs": {"content": "a [1]", "type": "ai"}}}]],
                "llm_output": null}))
        );
        // A key no reader reads still makes outputs recorded, not "not yet":
        // a patch holding only such a key replaces the create part's reply.
        let create = part(json!({"id": "r", "trace_id": "r", "run_type": "chain",
            "outputs": {"output": "a [1]"}}));
        let patch = part(json!({"id": "r", "outputs": {"run": {"x": 1}}}));
        let s = &merge_parts(vec![create, patch])[0];
        assert_eq!(s.output, None);
        assert!(s.content_recorded);
    }

    #[test]
    fn extra_is_read_with_only_what_a_span_reads() {
        use super::super::json::Members;
        let r = row(&json!({"id": "r", "extra": {"runtime": {"sdk": "py"},
            "metadata": {"session_id": "s", "user_id": "u", "channel": null},
            "invocation_params": {"model": "m", "temperature": 0.2}}}));
        assert_eq!(
            r.member("extra"),
            Some(&json!({"metadata": {"session_id": "s", "channel": null},
                "invocation_params": {"model": "m"}}))
        );
    }

    fn row(v: &Value) -> Row {
        keeping::read_row(&v.to_string(), &SCHEMA).unwrap()
    }

    fn part(v: Value) -> RunPart {
        RunPart::from_row(row(&v), &v.to_string()).unwrap()
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

    /// Parts merge field by field on what was read from them: a later
    /// part's type decides how the earlier outputs read, a later `null`
    /// changes nothing, a later value that reads as nothing clears one, and
    /// `extra` merges one level down whether it came as an object or as a
    /// JSON string.
    #[test]
    fn parts_merge_on_what_was_read() {
        let create = part(json!({"id": "r", "trace_id": "r", "run_type": "retriever",
            "name": "kb", "outputs": {"output": "the reply [1]"}, "total_tokens": 9,
            "extra": "{\"metadata\": {\"session_id\": \"s\", \"channel\": \"web\"}}"}));
        let patch = part(
            json!({"id": "r", "run_type": "llm", "name": 5, "total_tokens": null,
            "outputs": {}, "error": "",
            "extra": {"metadata": {"channel": null, "thread_id": "t"},
                "invocation_params": {"model_name": "m"}}}),
        );
        let s = &merge_parts(vec![create, patch])[0];
        assert_eq!(s.kind, SpanKind::Llm);
        // The create part's outputs stay (`{}` is "not yet") and read as an
        // LLM reply now that the run is an LLM call.
        assert_eq!(s.llm_text.as_deref(), Some("the reply [1]"));
        assert_eq!(s.llm_text_key, "outputs.output");
        assert_eq!(s.retrieval, None);
        assert_eq!(s.name, "");
        assert_eq!(s.tokens.total, Some(9));
        assert!(!s.failed());
        // `thread_id` comes first; the later `channel: null` clears it.
        assert_eq!(s.conversation.as_deref(), Some("t"));
        assert_eq!(s.channel, None);
        assert_eq!(s.model.as_deref(), Some("m"));
    }

    #[test]
    fn trace_id_from_dotted_order_or_root() {
        let p = part(json!({"id": "c", "parent_run_id": "r",
            "dotted_order": "20261130T084604127074Zr.20261130T084604138080Zc"}));
        assert_eq!(p.trace_id, "r");
        assert_eq!(part(json!({"id": "r"})).trace_id, "r");
        let orphan = json!({"id": "c", "parent_run_id": "r"});
        assert!(RunPart::from_row(row(&orphan), &orphan.to_string()).is_err());
    }

    #[test]
    fn uuids_are_read_in_lower_case_other_ids_as_written() {
        let root = part(json!({"id": "01A22BA1-F55E-731E-8981-B9B09FDCC14B",
            "trace_id": "01A22BA1-F55E-731E-8981-B9B09FDCC14B", "end_time": "2026-01-01T00:00:00Z",
            "extra": {"metadata": {"thread_id": "Thread-A"}}}));
        assert_eq!(root.id, "01a22ba1-f55e-731e-8981-b9b09fdcc14b");
        assert_eq!(root.trace_id, root.id);
        assert!(root.completes());
        let child = part(
            json!({"id": "c", "parent_run_id": "01A22BA1-F55E-731E-8981-B9B09FDCC14B",
            "dotted_order": "20261130T084604127074Z01A22BA1-F55E-731E-8981-B9B09FDCC14B.20261130T084604138080Zc"}),
        );
        assert_eq!(child.trace_id, "01a22ba1-f55e-731e-8981-b9b09fdcc14b");
        let spans = merge_parts(vec![root, child]);
        assert_eq!(spans[0].conversation.as_deref(), Some("Thread-A"));
        assert_eq!(
            spans[1].parent_id.as_deref(),
            Some("01a22ba1-f55e-731e-8981-b9b09fdcc14b")
        );
        assert_eq!(part(json!({"id": "Run-A"})).id, "Run-A");
    }

    #[test]
    fn times_in_every_spelling_or_an_invalid_run_naming_the_field() {
        let ms = Some(Some(1_733_342_369_374_000_000));
        for t in [
            json!("2024-12-04T19:59:29.374000"),
            json!("2024-12-04T19:59:29.374Z"),
            json!("2024-12-04T19:59:29.374+00:00"),
            json!("2024-12-04T19:59:29.374+0000"),
            json!("2024-12-04T14:29:29.374-0530"),
            json!("1733342369374"),
            json!(1733342369374_i64),
        ] {
            let p = part(json!({"id": "r", "start_time": t, "end_time": t}));
            assert_eq!(p.fields.start_ns, ms, "{t}");
            assert_eq!(p.fields.end_ns, ms, "{t}");
        }
        let from = |v: Value| RunPart::from_row(row(&v), &v.to_string()).map(|_| ());
        for (v, want) in [
            (
                json!({"id": "r", "start_time": "2024-12-04"}),
                "`start_time`: not a time (RFC 3339 or epoch)",
            ),
            (
                json!({"id": "r", "end_time": "SECRET"}),
                "`end_time`: not a time (RFC 3339 or epoch)",
            ),
            (
                json!({"id": "r", "end_time": {"t": 1}}),
                "`end_time`: not a time (RFC 3339 or epoch)",
            ),
            (
                json!({"id": "r", "start_time": "9999-12-31T23:30:00-01:00"}),
                "`start_time`: outside years 0000-9999",
            ),
            (
                json!({"id": "r", "start_time": 1e25}),
                "`start_time`: outside years 0000-9999",
            ),
        ] {
            assert_eq!(from(v.clone()), Err(want.to_owned()), "{v}");
        }
        // Null is absent, blank is no time (a later part may clear one).
        let p = part(json!({"id": "r", "start_time": null, "end_time": ""}));
        assert_eq!((p.fields.start_ns, p.fields.end_ns), (None, Some(None)));
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

    /// A LangChain trace whose answering `llm` run was given two of the
    /// three documents of two retrievals, as serialized messages: its
    /// chunks are those two, in the order of its input. A chain's
    /// `inputs` are never kept.
    #[test]
    fn chunks_are_the_documents_in_the_llm_runs_inputs() {
        use crate::dialect::spans::tests::{STOOD, check_stood_on, stood_prompt};
        let docs = |d: &[(&str, &str)]| -> Vec<Value> {
            d.iter()
                .map(|(id, text)| json!({"id": id, "page_content": text, "type": "Document"}))
                .collect()
        };
        let t = |s: u32| format!("2026-11-30T08:46:0{s}.000000");
        let run = |id: &str, ty: &str, start: u32, end: u32, inputs: Value, outputs: Value| {
            let parent = (id != "r").then_some("r");
            let post = part(json!({"id": id, "trace_id": "r", "parent_run_id": parent,
                "run_type": ty, "name": ty, "start_time": t(start), "inputs": inputs}));
            let patch = part(json!({"id": id, "end_time": t(end), "outputs": outputs}));
            [post, patch]
        };
        let messages = json!({"messages": [[
            {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "SystemMessage"],
             "kwargs": {"content": stood_prompt(), "type": "system"}},
            {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "HumanMessage"],
             "kwargs": {"content": "Do gift cards expire?", "type": "human"}}]]});
        let parts: Vec<RunPart> = [
            run(
                "r",
                "chain",
                0,
                9,
                json!({"documents": docs(&STOOD)}),
                json!({"answer": "Yes [1]"}),
            ),
            run(
                "a",
                "retriever",
                1,
                2,
                json!({"query": "q"}),
                json!({"documents": docs(&STOOD[..2])}),
            ),
            run(
                "b",
                "retriever",
                3,
                4,
                json!({"query": "q"}),
                json!({"documents": docs(&STOOD[2..])}),
            ),
            run(
                "l",
                "llm",
                5,
                8,
                messages,
                json!({"generations": [[{"text": "Yes [1]"}]]}),
            ),
        ]
        .into_iter()
        .flatten()
        .collect();
        let spans = merge_parts(parts);
        assert!(
            spans
                .iter()
                .all(|s| s.input_text.is_some() == (s.kind == SpanKind::Llm))
        );
        // Only the strings messages are written under were kept.
        let input = spans[3].input_text.as_deref().unwrap();
        assert!(
            input.starts_with("Answer from these documents only."),
            "{input}"
        );
        assert!(!input.contains("constructor") && !input.contains("SystemMessage"));
        check_stood_on(spans);
    }
}

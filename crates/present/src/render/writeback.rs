//! The write-back targets of `convert`: each verdict as a record the trace
//! tool takes, addressed to the span, observation or run that produced the
//! reply (else the trace's root). A record is built only when its ids are
//! ones the tool accepts — OTel 32-hex trace and 16-hex span ids, Phoenix
//! 16-hex span ids, LangSmith run UUIDs, Langfuse trace ids (a Langfuse
//! export's own, or an OTel trace id) — otherwise the turn is named with
//! the id it lacks.
//!
//! `convert --to` takes a [`Target`] by its registered name: the native
//! turn log (which `convert` writes itself) or one of these.

use crate::accumulate::details::Collected;
use crate::model::Verdict;
use serde_json::{Map, Value, json};

/// What `convert` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The native turn log.
    Turns,
    OtelEval,
    PhoenixAnnotations,
    LangfuseScores,
    LangsmithFeedback,
}

impl crate::model::Named for Target {
    const ALL: &'static [Target] = &[
        Target::Turns,
        Target::OtelEval,
        Target::PhoenixAnnotations,
        Target::LangfuseScores,
        Target::LangsmithFeedback,
    ];
    fn name(self) -> &'static str {
        match self {
            Target::Turns => "turns",
            Target::OtelEval => "otel-eval",
            Target::PhoenixAnnotations => "phoenix-annotations",
            Target::LangfuseScores => "langfuse-scores",
            Target::LangsmithFeedback => "langsmith-feedback",
        }
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Target::Turns => "The native turn-log JSONL",
            Target::OtelEval => {
                "One OpenTelemetry `gen_ai.evaluation.result` event per turn, as OTLP/JSON logs (one ExportLogsServiceRequest per line)"
            }
            Target::PhoenixAnnotations => {
                "One Phoenix span annotation per turn with a reply span (JSONL; wrap in {\"data\": [...]} to upload)"
            }
            Target::LangfuseScores => {
                "One Langfuse score body per traced turn (JSONL; POST each to /api/public/scores)"
            }
            Target::LangsmithFeedback => {
                "One LangSmith feedback per traced turn, on the reply run (JSONL; pass each to Client.create_feedback)"
            }
        })
    }
}

/// The name every written-back evaluation carries.
pub const EVALUATION_NAME: &str = "citation_grounding";
/// Who wrote the verdict: this tool, by rule (never an LLM judge).
pub const EVALUATOR: &str = "grounding-audit";
/// The version of the rules that gave the verdict.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

impl Target {
    /// The record this target takes for turn `c`, or what id it lacks.
    pub fn record(self, c: &Collected, reason: &str) -> Result<Value, String> {
        match self {
            Target::OtelEval => otel_eval(c, reason),
            Target::PhoenixAnnotations => phoenix_annotation(c, reason),
            Target::LangfuseScores => langfuse_score(c, reason),
            Target::LangsmithFeedback => langsmith_feedback(c, reason),
            Target::Turns => Err("the turn log is not a write-back target".into()),
        }
    }
}

/// The evaluation score: 1 for `ok`, 0 for an ungrounded answer, none when
/// the turn had nothing to ground or no answer was observed.
fn score(v: Verdict) -> Option<f64> {
    match v {
        Verdict::Ok => Some(1.0),
        Verdict::NoMarker | Verdict::OrphanMarker => Some(0.0),
        Verdict::EmptyRetrieval | Verdict::Unobserved => None,
    }
}

/// Ok when the turn was assembled from a trace export (spans or runs)
/// whose ids name one trace: a trace whose span ids collide across two
/// services' exports is an ambiguous target.
fn traced(c: &Collected) -> Result<(), String> {
    let spans =
        c.detail.dialect.family() == crate::dialect::Family::Spans && c.detail.assembled.is_some();
    if spans && c.row.unobserved_reason == Some(crate::model::Unobserved::IdCollision) {
        Err("an ambiguous target: exports of two services share this trace's span ids".into())
    } else if spans {
        Ok(())
    } else {
        Err(format!(
            "not read from a trace export (read as `{}`)",
            c.detail.dialect.name()
        ))
    }
}

/// The span a verdict goes on: the one that produced the reply, else the
/// trace's root.
fn target_span(c: &Collected) -> Option<&str> {
    let a = c.detail.assembled.as_ref()?;
    a.reply_span().or_else(|| a.root_span())
}

/// `n` hex digits.
fn is_hex(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A UUID, `8-4-4-4-12` hex digits.
fn is_uuid(s: &str) -> bool {
    s.len() == 36 && crate::model::is_hex_id(s)
}

/// What an id is, for a message about one that does not fit.
fn shape(s: &str) -> &'static str {
    if is_uuid(s) {
        "a UUID (LangSmith)"
    } else if is_hex(s, 16) {
        "16 hex digits (a span id)"
    } else if is_hex(s, 32) {
        "32 hex digits (a trace id)"
    } else {
        "not a tracing id"
    }
}

/// The target span's id when `fits` it; else what is missing, as `what`.
fn span_id<'c>(c: &'c Collected, what: &str, fits: fn(&str) -> bool) -> Result<&'c str, String> {
    traced(c).map_err(|e| format!("no {what}: {e}"))?;
    let span = target_span(c)
        .ok_or_else(|| format!("no {what}: no reply span, and the trace's root never arrived"))?;
    if fits(span) {
        Ok(span)
    } else {
        Err(format!("no {what}: span `{span}` is {}", shape(span)))
    }
}

fn attr(key: &str, value: Value) -> Value {
    json!({ "key": key, "value": value })
}

fn text(s: &str) -> Value {
    json!({ "stringValue": s })
}

/// One `gen_ai.evaluation.result` event as an OTLP/JSON
/// `ExportLogsServiceRequest`, parented on the reply span (else the root).
fn otel_eval(c: &Collected, reason: &str) -> Result<Value, String> {
    let row = &c.row;
    let trace = row.turn_id.as_str();
    traced(c).map_err(|e| format!("no OTel trace id: {e}"))?;
    if !is_hex(trace, 32) {
        return Err(format!(
            "no OTel trace id (32 hex digits): the trace id is {}",
            shape(trace)
        ));
    }
    let span = span_id(c, "OTel span id (16 hex digits)", |s| is_hex(s, 16))?;
    let mut attributes = vec![
        attr("gen_ai.evaluation.name", text(EVALUATION_NAME)),
        attr("gen_ai.evaluation.score.label", text(row.verdict.as_str())),
    ];
    if let Some(s) = score(row.verdict) {
        attributes.push(attr(
            "gen_ai.evaluation.score.value",
            json!({ "doubleValue": s }),
        ));
    }
    attributes.extend([
        attr("gen_ai.evaluation.explanation", text(reason)),
        attr("grounding_audit.evaluator.name", text(EVALUATOR)),
        attr("grounding_audit.evaluator.version", text(VERSION)),
        attr("grounding_audit.evaluator.kind", text("rule")),
        attr("grounding_audit.turn_id", text(trace)),
    ]);
    let nanos = row
        .created_at
        .timestamp_nanos_opt()
        .map_or_else(|| "0".to_owned(), |n| n.max(0).to_string());
    let record = json!({
        "timeUnixNano": nanos,
        "eventName": "gen_ai.evaluation.result",
        "traceId": trace,
        "spanId": span,
        "attributes": attributes,
    });
    Ok(json!({
        "resourceLogs": [{
            "resource": {"attributes": [attr("service.name", text(EVALUATOR))]},
            "scopeLogs": [{
                "scope": {"name": EVALUATOR, "version": VERSION},
                "logRecords": [record],
            }],
        }],
    }))
}

/// One span annotation in the shape Phoenix's span-annotation API takes.
fn phoenix_annotation(c: &Collected, reason: &str) -> Result<Value, String> {
    let span = span_id(c, "Phoenix span id (16 hex digits)", |s| is_hex(s, 16))?;
    let row = &c.row;
    Ok(json!({
        "span_id": span,
        "name": EVALUATION_NAME,
        "annotator_kind": "CODE",
        "identifier": EVALUATOR,
        "result": {
            "label": row.verdict.as_str(),
            "score": score(row.verdict),
            "explanation": reason,
        },
        "metadata": {
            "trace_id": row.turn_id.as_str(),
            "cited_chunks": row.cited_chunks,
            "evaluator_version": VERSION,
        },
    }))
}

/// One Langfuse score body (`POST /api/public/scores`): a CATEGORICAL
/// score named [`EVALUATION_NAME`] on the trace, on the reply observation
/// when there is one. Its `id` is stable per trace, so posting again
/// updates the score instead of adding one.
fn langfuse_score(c: &Collected, reason: &str) -> Result<Value, String> {
    traced(c).map_err(|e| format!("no Langfuse trace id: {e}"))?;
    let row = &c.row;
    let trace = row.turn_id.as_str();
    // Langfuse keys a trace by its own id (a Langfuse export) or by the
    // OTel trace id it was sent; any other tool's id names no trace there.
    use crate::dialect::Dialect;
    let from_langfuse = c.detail.dialect.name() == crate::dialect::spans::LANGFUSE.name();
    if !from_langfuse && !is_hex(trace, 32) {
        return Err(format!(
            "no Langfuse trace id: the trace id is {} and the trace was not read from a Langfuse export",
            shape(trace)
        ));
    }
    let mut m = Map::new();
    m.insert("id".into(), json!(format!("{trace}-{EVALUATION_NAME}")));
    m.insert("traceId".into(), json!(trace));
    // A legacy trace row stands for the trace itself: its id is no observation.
    if let Some(span) = target_span(c).filter(|s| *s != trace) {
        m.insert("observationId".into(), json!(span));
    }
    m.insert("name".into(), json!(EVALUATION_NAME));
    m.insert("dataType".into(), json!("CATEGORICAL"));
    m.insert("value".into(), json!(row.verdict.as_str()));
    m.insert("comment".into(), json!(reason));
    m.insert(
        "metadata".into(),
        json!({ "evaluator": EVALUATOR, "evaluator_version": VERSION }),
    );
    Ok(Value::Object(m))
}

/// One LangSmith feedback (the arguments of `Client.create_feedback`, or
/// the body of `POST /feedback`): on the run that produced the reply, else
/// on the trace's root run (whose id is the trace id). `score` is 1 for
/// `ok`, 0 for `no_marker` and `orphan_marker`, absent otherwise; `value`
/// is the verdict.
fn langsmith_feedback(c: &Collected, reason: &str) -> Result<Value, String> {
    traced(c).map_err(|e| format!("no LangSmith run UUID: {e}"))?;
    let row = &c.row;
    let trace = row.turn_id.as_str();
    if !is_uuid(trace) {
        return Err(format!(
            "no LangSmith trace UUID: the trace id is {}",
            shape(trace)
        ));
    }
    let run = target_span(c).unwrap_or(trace);
    if !is_uuid(run) {
        return Err(format!(
            "no LangSmith run UUID: run `{run}` is {}",
            shape(run)
        ));
    }
    let mut m = Map::new();
    m.insert("run_id".into(), json!(run));
    m.insert("trace_id".into(), json!(trace));
    m.insert("key".into(), json!(EVALUATION_NAME));
    if let Some(s) = score(row.verdict) {
        m.insert("score".into(), json!(s as u8));
    }
    m.insert("value".into(), json!(row.verdict.as_str()));
    m.insert("comment".into(), json!(reason));
    m.insert(
        "source_info".into(),
        json!({ "evaluator": EVALUATOR, "evaluator_version": VERSION }),
    );
    Ok(Value::Object(m))
}

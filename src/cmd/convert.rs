//! `convert`: `--to turns` writes turns of any dialect as the native turn
//! log (one JSON turn per line, the format `dialect::native` reads); read
//! back with the same grammar it grades exactly like its source: chunks,
//! reply, tools and telemetry are carried over, and a turn without an
//! observed answer keeps its reason in `unobserved`. `--to otel-eval` and
//! `--to phoenix-annotations` write each verdict back where a trace team
//! looks: an OTel evaluation event on the reply span, a Phoenix span
//! annotation. `--to langfuse-scores` and `--to langsmith-feedback` write
//! the bodies Langfuse's score API and LangSmith's feedback API take.

use crate::accumulate::details::Collected;
use crate::cli::{ConvertArgs, ConvertTo};
use crate::config::Settings;
use crate::filter::Filter;
use crate::model::{Answer, CitationIndex, Extras, Verdict, format_time};
use anyhow::Result;
use serde_json::{Map, Value, json};
use std::io::Write;

/// Runs `convert`.
pub fn run(args: &ConvertArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let chosen = crate::config::grammar(&args.markers)?;
    let mut skipped = 0u64;
    super::turns::read(
        settings,
        &args.input,
        &args.markers,
        Filter::default(),
        None,
        "convert",
        |c, _| {
            let value = match args.to {
                ConvertTo::Turns => Some(turn_line(c)),
                ConvertTo::OtelEval => Some(otel_eval(c, &reason(c, chosen.as_ref()))),
                ConvertTo::PhoenixAnnotations => phoenix_annotation(c, &reason(c, chosen.as_ref())),
                ConvertTo::LangfuseScores => langfuse_score(c, &reason(c, chosen.as_ref())),
                ConvertTo::LangsmithFeedback => langsmith_feedback(c, &reason(c, chosen.as_ref())),
            };
            match value {
                Some(v) => {
                    serde_json::to_writer(&mut *out, &v)?;
                    out.write_all(b"\n")?;
                }
                None => skipped += 1,
            }
            Ok(())
        },
    )?;
    if skipped > 0 {
        crate::pipeline::warn(
            None,
            &format!(
                "note: {skipped} turn(s) have no span to annotate (not read from a trace export): not written"
            ),
        );
    }
    Ok(())
}

/// The one-sentence reason for a turn's verdict, as `explain` gives it.
fn reason(c: &Collected, chosen: Option<&crate::markers::Grammar>) -> String {
    let d = &c.detail;
    let grammar = chosen.cloned().unwrap_or_else(|| d.dialect.grammar());
    super::explain::explain(
        d.turn.clone(),
        Extras::default(),
        &grammar,
        String::new(),
        0,
        super::explain::Show {
            text: false,
            low_score: 0.5,
        },
    )
    .reason
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

/// The name every written-back evaluation carries.
pub const EVALUATION_NAME: &str = "citation_grounding";

/// The span that produced the reply, when the turn was assembled from spans.
fn reply_span(c: &Collected) -> Option<&str> {
    c.detail.assembled.as_ref().and_then(|a| a.reply_span())
}

fn attr(key: &str, value: Value) -> Value {
    json!({ "key": key, "value": value })
}

/// One `gen_ai.evaluation.result` event as an OTLP/JSON
/// `ExportLogsServiceRequest`, parented on the reply span when known.
pub fn otel_eval(c: &Collected, reason: &str) -> Value {
    let row = &c.row;
    let mut attributes = vec![
        attr(
            "gen_ai.evaluation.name",
            json!({ "stringValue": EVALUATION_NAME }),
        ),
        attr(
            "gen_ai.evaluation.score.label",
            json!({ "stringValue": row.verdict.as_str() }),
        ),
    ];
    if let Some(s) = score(row.verdict) {
        attributes.push(attr(
            "gen_ai.evaluation.score.value",
            json!({ "doubleValue": s }),
        ));
    }
    attributes.push(attr(
        "gen_ai.evaluation.explanation",
        json!({ "stringValue": reason }),
    ));
    attributes.push(attr(
        "grounding_audit.turn_id",
        json!({ "stringValue": row.turn_id.as_str() }),
    ));
    let nanos = row
        .created_at
        .timestamp_nanos_opt()
        .map_or_else(|| "0".to_owned(), |n| n.max(0).to_string());
    let mut record = json!({
        "timeUnixNano": nanos,
        "eventName": "gen_ai.evaluation.result",
        "attributes": attributes,
    });
    if let (Some(span), Value::Object(m)) = (reply_span(c), &mut record) {
        m.insert("traceId".into(), json!(row.turn_id.as_str()));
        m.insert("spanId".into(), json!(span));
    }
    json!({
        "resourceLogs": [{
            "resource": {"attributes": [attr("service.name", json!({"stringValue": "grounding-audit"}))]},
            "scopeLogs": [{
                "scope": {"name": "grounding-audit", "version": env!("CARGO_PKG_VERSION")},
                "logRecords": [record],
            }],
        }],
    })
}

/// One span annotation in the shape Phoenix's span-annotation API takes;
/// None for a turn without a reply span.
pub fn phoenix_annotation(c: &Collected, reason: &str) -> Option<Value> {
    let span = reply_span(c)?;
    let row = &c.row;
    Some(json!({
        "span_id": span,
        "name": EVALUATION_NAME,
        "annotator_kind": "CODE",
        "identifier": "grounding-audit",
        "result": {
            "label": row.verdict.as_str(),
            "score": score(row.verdict),
            "explanation": reason,
        },
        "metadata": {"trace_id": row.turn_id.as_str(), "cited_chunks": row.cited_chunks},
    }))
}

/// One Langfuse score body (`POST /api/public/scores`) for a turn read
/// from a trace export: a CATEGORICAL score named [`EVALUATION_NAME`] on the
/// trace, on the reply observation when there is one. Its `id` is stable
/// per trace, so posting again updates the score instead of adding one.
/// None for a turn that was not read from a trace export.
pub fn langfuse_score(c: &Collected, reason: &str) -> Option<Value> {
    c.detail.assembled.as_ref()?;
    let row = &c.row;
    let trace = row.turn_id.as_str();
    let mut m = Map::new();
    m.insert("id".into(), json!(format!("{trace}-{EVALUATION_NAME}")));
    m.insert("traceId".into(), json!(trace));
    // A legacy trace row stands for the trace itself: its id is no observation.
    if let Some(span) = reply_span(c).filter(|s| *s != trace) {
        m.insert("observationId".into(), json!(span));
    }
    m.insert("name".into(), json!(EVALUATION_NAME));
    m.insert("dataType".into(), json!("CATEGORICAL"));
    m.insert("value".into(), json!(row.verdict.as_str()));
    m.insert("comment".into(), json!(reason));
    Some(Value::Object(m))
}

/// One LangSmith feedback (the arguments of `Client.create_feedback`, or
/// the body of `POST /feedback`) for a turn read from a trace export: on
/// the run that produced the reply, else on the trace's root run (whose id
/// is the trace id). `score` is 1 for `ok`, 0 for `no_marker` and
/// `orphan_marker`, absent otherwise; `value` is the verdict.
pub fn langsmith_feedback(c: &Collected, reason: &str) -> Option<Value> {
    c.detail.assembled.as_ref()?;
    let row = &c.row;
    let trace = row.turn_id.as_str();
    let mut m = Map::new();
    m.insert("run_id".into(), json!(reply_span(c).unwrap_or(trace)));
    m.insert("trace_id".into(), json!(trace));
    m.insert("key".into(), json!(EVALUATION_NAME));
    if let Some(s) = score(row.verdict) {
        m.insert("score".into(), json!(s as u8));
    }
    m.insert("value".into(), json!(row.verdict.as_str()));
    m.insert("comment".into(), json!(reason));
    Some(Value::Object(m))
}

/// One turn as a native turn record.
pub fn turn_line(c: &Collected) -> Value {
    let turn = &c.detail.turn;
    let mut m = Map::new();
    m.insert("turn_id".into(), json!(turn.turn_id));
    m.insert("agent_id".into(), json!(turn.agent_id));
    if let Some(conv) = &turn.conversation_id {
        m.insert("conversation_id".into(), json!(conv));
    }
    m.insert("channel".into(), json!(turn.channel));
    m.insert("created_at".into(), json!(format_time(&turn.created_at)));
    match &turn.answer {
        Answer::Reply(r) => {
            m.insert("reply".into(), json!(r.decoded()));
        }
        Answer::Unobserved(reason) => {
            m.insert("reply".into(), Value::Null);
            m.insert("unobserved".into(), json!(reason));
        }
        Answer::Citations(list) => {
            m.insert("reply".into(), Value::Null);
            // Written so that reading the line back grades the same:
            // out of range as a negative index, malformed as null.
            let cites: Vec<Value> = list
                .iter()
                .map(|i| match i {
                    CitationIndex::Index(n) => json!({ "index": n }),
                    CitationIndex::OutOfRange => json!({ "index": -1 }),
                    CitationIndex::Malformed => json!({ "index": null }),
                })
                .collect();
            m.insert("citations".into(), Value::Array(cites));
        }
    }
    let chunks: Vec<Value> = turn
        .chunks
        .iter()
        .map(|c| {
            json!({
                "document_id": c.document_id,
                "chunk_id": c.chunk_id,
                "score": c.score,
            })
        })
        .collect();
    let tools: Vec<Value> = c
        .detail
        .extras
        .tools
        .iter()
        .map(|t| {
            let mut o = Map::new();
            o.insert("name".into(), json!(t.name));
            // A call that never ended has no status: not a failure, as in the source.
            if t.status != "no_end" {
                o.insert("status".into(), json!(t.status));
            }
            o.insert("duration_ms".into(), json!(t.duration_ms));
            Value::Object(o)
        })
        .collect();
    let mut g = Map::new();
    g.insert("chunks".into(), Value::Array(chunks));
    g.insert("tools".into(), Value::Array(tools));
    g.insert("model".into(), json!(turn.model));
    g.insert("tokens_used".into(), json!(turn.tokens_used));
    g.insert("latency_ms".into(), json!(turn.latency_ms));
    if let Some(cost) = turn.cost_cents {
        g.insert("cost_cents".into(), json!(cost));
    }
    m.insert("grounding".into(), Value::Object(g));
    Value::Object(m)
}

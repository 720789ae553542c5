//! `convert --to turns`: writes agentfootprint runs as the native turn log
//! (one JSON turn per line, the format `dialect::native` reads), so other
//! tools can consume them. A converted log grades exactly like its source
//! when read with the same grammar (`--markers id`, the agentfootprint
//! default): chunks, reply, tools and telemetry are carried over, and a run
//! without an observed answer keeps its reason in `unobserved`.

use crate::cli::{ConvertArgs, ConvertTo};
use crate::config::Settings;
use crate::dialect::agentfootprint::Run;
use crate::model::{Answer, format_time};
use anyhow::Result;
use serde_json::{Map, Value, json};
use std::io::Write;

/// Runs `convert`.
pub fn run(args: &ConvertArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    match args.to {
        ConvertTo::Turns => {
            for source in super::runs::read(settings, &args.input, "convert")? {
                for run in &source.runs {
                    serde_json::to_writer(&mut *out, &turn_line(run))?;
                    out.write_all(b"\n")?;
                }
            }
        }
    }
    Ok(())
}

/// One run as a native turn record.
pub fn turn_line(run: &Run) -> Value {
    let turn = run.turn();
    let mut m = Map::new();
    m.insert("turn_id".into(), json!(run.run_id));
    m.insert("agent_id".into(), json!(turn.agent_id));
    if let Some(c) = &run.session_id {
        m.insert("conversation_id".into(), json!(c));
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
        // agentfootprint never yields a citations list.
        Answer::Citations(_) => {
            m.insert("reply".into(), Value::Null);
        }
    }
    let chunks: Vec<Value> = turn
        .chunks
        .iter()
        .map(|c| {
            json!({
                "document_id": c.document_id.as_ref().map(|d| d.as_str()),
                "chunk_id": c.chunk_id.as_ref().map(|d| d.as_str()),
                "score": c.score,
            })
        })
        .collect();
    let tools: Vec<Value> = run
        .tools
        .iter()
        .map(|t| {
            let mut o = Map::new();
            o.insert("name".into(), json!(t.name));
            // A call that never ended has no status: not a failure, as in the source.
            if t.ended {
                o.insert("status".into(), json!(t.status()));
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
    m.insert("grounding".into(), Value::Object(g));
    Value::Object(m)
}

//! `convert --to turns`: writes turns of any dialect as the native turn log
//! (one JSON turn per line, the format `dialect::native` reads), so other
//! tools can consume them. A converted log grades exactly like its source
//! when read with the same grammar (`--markers id`, the agentfootprint
//! default): chunks, reply, tools and telemetry are carried over, and a run
//! without an observed answer keeps its reason in `unobserved`.

use crate::accumulate::details::Collected;
use crate::cli::{ConvertArgs, ConvertTo};
use crate::config::Settings;
use crate::filter::Filter;
use crate::model::{Answer, format_time};
use anyhow::Result;
use serde_json::{Map, Value, json};
use std::io::Write;

/// Runs `convert`.
pub fn run(args: &ConvertArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let markers = crate::cli::MarkerArgs {
        markers: None,
        marker_regex: None,
        marker_base: 1,
    };
    match args.to {
        ConvertTo::Turns => {
            super::turns::read(
                settings,
                &args.input,
                &markers,
                Filter::default(),
                None,
                "convert",
                |c, _| {
                    serde_json::to_writer(&mut *out, &turn_line(c))?;
                    out.write_all(b"\n")?;
                    Ok(())
                },
            )?;
        }
    }
    Ok(())
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
            let cites: Vec<Value> = list.iter().map(|i| json!({ "index": i })).collect();
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

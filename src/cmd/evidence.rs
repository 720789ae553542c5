//! `evidence`: one JSON line per agentfootprint run, the evidence record of
//! the framework's grounding guide — the question, the injected context, every
//! model call with its output kept distinct (observed text, a withheld draft,
//! or a bounded length: never an empty text for what was not observed), the
//! delivered answer only when a `turn_end` exists, the limitations of the
//! record, and this tool's verdict. It reads runs through `cmd::runs` and
//! grades with `grade`; it decides no rule itself.

use crate::cli::EvidenceArgs;
use crate::config::{self, Settings};
use crate::dialect::agentfootprint::{Output, Run, Text};
use crate::grade::grade;
use crate::markers::{Grammar, Preset};
use crate::model::{Answer, Unobserved, format_time};
use anyhow::Result;
use serde_json::{Value, json};
use std::io::Write;

/// Runs `evidence`.
pub fn run(args: &EvidenceArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let grammar = config::grammar(&args.markers)?.unwrap_or(Grammar::Preset(Preset::Id));
    for source in super::runs::read(settings, &args.input, "evidence")? {
        for run in &source.runs {
            let record = record(run, &source.name, &grammar);
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")?;
        }
    }
    Ok(())
}

/// A model call's output, or a delivered answer, as a tagged value.
fn output_value(o: &Output) -> Value {
    match o {
        Output::Observed(text) => json!({"status": "observed", "text": text}),
        Output::Withheld => json!({"status": "withheld"}),
        Output::Bounded(chars) => json!({"status": "bounded", "chars": chars}),
    }
}

fn text_value(t: Option<&Text>) -> Value {
    t.and_then(Text::observed)
        .map_or(Value::Null, |s| Value::String(s.to_owned()))
}

/// The evidence record of one run.
pub fn record(run: &Run, source: &str, grammar: &Grammar) -> Value {
    let turn = run.turn();
    let answer_observed = !matches!(turn.answer, Answer::Unobserved(_));
    let row = grade(turn, grammar);
    let mut limitations = Vec::new();
    if run.bounded || matches!(run.answer(), Answer::Unobserved(Unobserved::BoundedAudit)) {
        limitations.push("bounded audit: text was replaced by its length; the question, injected text and answers cannot be read or graded".to_owned());
    }
    if run.turn_end.is_none() {
        limitations.push("no turn_end: no delivered answer was observed; this alone does not tell whether the run paused, failed or was captured incompletely".to_owned());
    }
    for c in &run.model_calls {
        if c.output == Output::Withheld {
            let at = c
                .iteration
                .map_or_else(|| "a model call".to_owned(), |i| format!("iteration {i}"));
            limitations.push(format!("the draft of {at} was withheld by output middleware; an event-only record cannot show it"));
        }
    }
    limitations.extend(
        run.notes
            .iter()
            .filter(|n| n.starts_with("the recording"))
            .cloned(),
    );
    let injected: Vec<Value> = run
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
                "content": text_value(i.content.as_ref()),
            })
        })
        .collect();
    let calls: Vec<Value> = run
        .model_calls
        .iter()
        .map(|c| {
            json!({
                "iteration": c.iteration,
                "usage": c.usage,
                "stop_reason": c.stop_reason,
                "output": output_value(&c.output),
            })
        })
        .collect();
    let cited: Vec<Value> = row
        .cited_chunks
        .iter()
        .filter_map(|&i| (i as usize).checked_sub(1).and_then(|k| row.chunks.get(k)))
        .map(|c| {
            c.chunk_id
                .as_ref()
                .map_or(Value::Null, |id| Value::String(id.as_str().to_owned()))
        })
        .collect();
    let mut rec = json!({
        "turn_id": run.run_id,
        "agent_id": run.agent,
        "conversation_id": run.session_id,
        "created_at": format_time(&run.created_at),
        "source": source,
        "export": run.export.as_str(),
        "question": text_value(run.question.as_ref()),
        "injected_chunks": injected,
        "model_calls": calls,
        "limitations": limitations,
        "notes": run.notes,
        "verdict": row.verdict.as_str(),
        "grade": {
            "answer_observed": answer_observed,
            "unobserved_reason": row.unobserved_reason,
            "chunk_count": row.chunk_count,
            "cited_chunks": row.cited_chunks,
            "cited_chunk_ids": cited,
            "marker_count": row.marker_count,
            "out_of_range_markers": row.out_of_range_markers,
            "malformed_markers": row.malformed_markers,
            "partial": row.partial,
            "confidence": row.confidence,
        },
    });
    if let (Some(end), Value::Object(map)) = (&run.turn_end, &mut rec) {
        let delivered = match (&end.final_content, run.bounded) {
            (Some(Text::Bounded(n)), _) => output_value(&Output::Bounded(*n)),
            (Some(Text::Observed(s)), false) => output_value(&Output::Observed(s.clone())),
            (Some(Text::Observed(_)), true) | (None, _) => json!({"status": "absent"}),
        };
        map.insert("delivered_answer".into(), delivered);
    }
    rec
}

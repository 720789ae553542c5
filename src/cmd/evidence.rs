//! `evidence`: one JSON line per turn, the evidence record of
//! the agentfootprint grounding guide — the question, the injected context, every
//! model call with its output kept distinct (observed text, a withheld draft,
//! or a bounded length: never an empty text for what was not observed), the
//! delivered answer only when a `turn_end` exists, the limitations of the
//! record, and this tool's verdict. It reads turns through `cmd::turns`
//! (the one reader) and decides no rule itself. Free text (question,
//! injected text, model outputs, the reply) only with `--show-text`; without
//! it a record says whether text was observed and how long it was.

use crate::accumulate::details::Collected;
use crate::cli::EvidenceArgs;
use crate::config::evidence::Plan;
use crate::config::{self, Settings};
use crate::markers::Grammar;
use crate::model::{Answer, format_time};
use anyhow::Result;
use serde_json::{Value, json};
use std::io::Write;

/// Runs `evidence`.
pub fn run(args: &EvidenceArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let plan = config::evidence::plan(args, settings)?;
    if let Some((judge, grammar)) = &plan.judge {
        return judge_units(&plan, *judge, grammar.as_ref(), out);
    }
    super::turns::read(&plan.engine, &plan.sources, None, |c, sources| {
        let rec = record(c, &sources[c.detail.source].name, plan.show_text);
        serde_json::to_writer(&mut *out, &rec)?;
        out.write_all(b"\n")?;
        Ok(())
    })?;
    Ok(())
}

/// `evidence --for JUDGE`: the units only a judge can decide, hinted ones
/// first. Hinted units are written as they come; the others wait in a
/// spool file (one JSON line each), so memory stays bounded whatever the
/// log's size.
fn judge_units(
    plan: &Plan,
    judge: crate::render::judge::Judge,
    grammar: Option<&Grammar>,
    out: &mut dyn Write,
) -> Result<()> {
    use crate::view::judge::{JudgeUnit, Tally, units_of};
    use std::io::{BufRead, BufWriter};
    let spool_path = std::env::temp_dir().join(format!(
        "grounding-audit-judge-{}-{}.jsonl",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let spool = Spool(spool_path);
    let mut later = BufWriter::new(std::fs::File::create(&spool.0)?);
    let mut tally = Tally::default();
    let mut first = true;
    judge.begin(out)?;
    super::turns::read(&plan.engine, &plan.sources, None, |c, _| {
        let d = &c.detail;
        let source = grammar.cloned().unwrap_or_else(|| d.dialect.grammar());
        let g = crate::grade::grammar_of(&d.turn, grammar.is_some(), &source);
        let question = d.extras.question.as_deref();
        for u in units_of(&d.turn, c.row.verdict, &d.support, question, &g, &mut tally) {
            if u.hinted {
                judge.unit(out, &u, first)?;
                first = false;
            } else {
                serde_json::to_writer(&mut later, &u)?;
                later.write_all(b"\n")?;
            }
        }
        Ok(())
    })?;
    later.flush()?;
    drop(later);
    for line in std::io::BufReader::new(std::fs::File::open(&spool.0)?).lines() {
        let u: JudgeUnit = serde_json::from_str(&line?)?;
        judge.unit(out, &u, first)?;
        first = false;
    }
    judge.end(out)?;
    eprintln!("{}", tally.line(judge.as_str()));
    Ok(())
}

/// A spool file, removed when dropped (on success and on error).
struct Spool(std::path::PathBuf);

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The support checks of a turn: its counts (coverage, quotes, offsets,
/// hints), each structured citation's checks, each quotation of a marker
/// answer with its class, and each hint (words only with `--show-text`).
fn support(row: &crate::model::Row<'_>, a: &crate::support::Analysis, show_text: bool) -> Value {
    let citations: Vec<Value> = a
        .cites
        .iter()
        .map(|c| {
            json!({
                "citation": c.citation,
                "chunk": c.chunk,
                "span": c.span.map(|(s, e)| [s, e]),
                "quote": c.quote.map(|q| q.as_str()),
                "quote_found_in": c.quote.and_then(|q| q.found_in()),
                "offsets": c.offsets_match.map(|m| if m { "match" } else { "mismatch" }),
                "unchecked": c.unchecked,
            })
        })
        .collect();
    let mut v = serde_json::to_value(row.support).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        m.insert("citations".into(), Value::Array(citations));
        m.insert(
            "quotes".into(),
            serde_json::to_value(crate::view::explain::QuoteView::all(a, show_text))
                .unwrap_or(Value::Null),
        );
        m.insert(
            "hints".into(),
            serde_json::to_value(crate::view::explain::HintView::all(a, show_text))
                .unwrap_or(Value::Null),
        );
    }
    v
}

/// The evidence record of one turn: who, when, where it was read, the
/// verdict with its grading facts, the chunks by pointer, and the
/// dialect's own part (for agentfootprint: question, injected context,
/// retrieval candidates, model calls, delivered answer, limitations).
pub fn record(c: &Collected, source: &str, show_text: bool) -> Value {
    let row = &c.row;
    let d = &c.detail;
    let answer_observed = !matches!(d.turn.answer, Answer::Unobserved(_));
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
        "turn_id": row.turn_id,
        "agent_id": row.agent_id,
        "conversation_id": row.conversation_id,
        "channel": row.channel,
        "created_at": format_time(&row.created_at),
        "source": source,
        "line": c.line,
        "dialect": d.dialect.name(),
        "chunks": row.chunks,
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
        "support": support(row, &d.support, show_text),
    });
    if let (Some(a), Value::Object(map)) = (&d.assembled, &mut rec) {
        map.extend(a.evidence(show_text));
    } else if let (true, Answer::Reply(reply), Value::Object(map)) =
        (show_text, &d.turn.answer, &mut rec)
    {
        // A line turn's reply, as an assembled turn's evidence gives it.
        map.insert("reply".into(), Value::String(reply.decoded().into_owned()));
    } else if let (true, Some(answer), Value::Object(map)) =
        (show_text, &d.turn.texts.answer, &mut rec)
    {
        // The answer of a turn graded by structured citations (exchange).
        map.insert("reply".into(), Value::String(answer.to_string()));
    }
    // A line turn's question (an exchange's request), as an assembled
    // turn's evidence gives it.
    if let (true, Some(q), Value::Object(map)) = (show_text, &d.extras.question, &mut rec) {
        map.entry("question")
            .or_insert_with(|| Value::String(q.clone()));
    }
    rec
}

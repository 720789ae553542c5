//! `explain`: one turn's full audit. Reads its inputs in order until the
//! first turn with the id (the one de-duplication would keep), then shows
//! the verdict with a reason, the chunks, every marker and what it resolved
//! to, tool calls and telemetry. Reply text only with `--show-text`.

use crate::cli::{ExplainArgs, ExplainFormat};
use crate::config::{self, Settings};
use crate::exit;
use crate::filter::Filter;
use crate::grade::{grade, tally};
use crate::markers::{Grammar, MarkerKind, resolve_citation};
use crate::model::{Answer, CitationIndex, Extras, Row, Turn, format_time};
use crate::render::escape::terminal;
use crate::render::{self, Section};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;

/// One marker as `explain` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct MarkerView {
    /// The marker as written (`[KB-2]`), or `citations[i]` for citation lists.
    pub text: String,
    /// Character offset in the reply (None for citation lists).
    pub offset: Option<usize>,
    /// `cited`, `out_of_range` or `malformed`.
    pub resolves: &'static str,
    /// The chunk it points at, when cited.
    pub chunk: Option<u32>,
}

/// A chunk with whether the reply cited it.
#[derive(Debug, Clone, Serialize)]
pub struct ChunkView {
    #[serde(flatten)]
    pub chunk: crate::model::Chunk<'static>,
    pub cited: bool,
}

/// The explain document.
#[derive(Debug, Serialize)]
pub struct Explained {
    pub source: String,
    pub line: u64,
    pub row: Row<'static>,
    pub reason: String,
    pub chunks: Vec<ChunkView>,
    pub markers: Vec<MarkerView>,
    pub question: Option<String>,
    pub tools: Vec<crate::model::ToolCall>,
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
}

fn list(markers: &[MarkerView], want: &'static str) -> String {
    let picked: Vec<&str> = markers
        .iter()
        .filter(|m| m.resolves == want)
        .map(|m| m.text.as_str())
        .take(3)
        .collect();
    let more = markers
        .iter()
        .filter(|m| m.resolves == want)
        .count()
        .saturating_sub(3);
    let mut s = picked.join(", ");
    if more > 0 {
        s.push_str(&format!(" and {more} more"));
    }
    s
}

/// The one-sentence reason for a verdict.
pub fn reason(row: &Row<'_>, markers: &[MarkerView]) -> String {
    use crate::model::Verdict::*;
    let n = row.chunk_count;
    let chunks = if n == 1 {
        "1 chunk".to_owned()
    } else {
        format!("{n} chunks")
    };
    match row.verdict {
        Unobserved => format!("no answer was observed: {}", row.unobserved_reason.map_or("unknown", |r| r.describe())),
        OrphanMarker if n == 0 => format!("retrieval returned no chunks, yet the reply cites {}", list(markers, "out_of_range")),
        OrphanMarker => format!("retrieval returned {chunks}; the reply cites {}, past the end of the list", list(markers, "out_of_range")),
        Ok => {
            let which = if row.cited_chunks.len() == 1 { "chunk" } else { "chunks" };
            let mut s = format!("retrieval returned {chunks}; the reply cites {which} {}", render::join(&row.cited_chunks, ", "));
            if row.partial {
                s.push_str(&format!("; {} past the end of the list as well (partial)", list(markers, "out_of_range")));
            }
            s
        }
        NoMarker if row.malformed_markers > 0 => {
            format!("retrieval returned {chunks}, but the reply has no well-formed marker (malformed: {})", list(markers, "malformed"))
        }
        NoMarker => format!("retrieval returned {chunks}, but the reply cites none of them"),
        EmptyRetrieval => "no retrieval ran and the reply carries no marker (small talk, or an answer from memory)".to_owned(),
    }
}

/// Builds the explanation of one turn.
pub fn explain(
    turn: Turn<'_>,
    extras: Extras,
    grammar: &Grammar,
    source: String,
    line: u64,
    show_text: bool,
) -> Explained {
    let text = match &turn.answer {
        Answer::Reply(r) => Some(r.decoded().into_owned()),
        _ => None,
    };
    let mut markers = Vec::new();
    match (&turn.answer, &text) {
        (Answer::Reply(_), Some(t)) => {
            let reply = crate::model::Answer::Reply(crate::model::Reply::Text(t.as_str().into()));
            tally(&reply, &turn.chunks, grammar, &mut |m| {
                markers.push(MarkerView {
                    text: t[m.start..m.end].to_owned(),
                    offset: Some(t[..m.start].chars().count()),
                    resolves: match m.kind {
                        MarkerKind::Cited(_) => "cited",
                        MarkerKind::OutOfRange => "out_of_range",
                        MarkerKind::Malformed => "malformed",
                    },
                    chunk: match m.kind {
                        MarkerKind::Cited(i) => Some(i),
                        _ => None,
                    },
                });
            });
        }
        (Answer::Citations(list), _) => {
            for (i, &idx) in list.iter().enumerate() {
                let kind = resolve_citation(idx, turn.chunks.len() as u64);
                let (resolves, chunk) = match kind {
                    MarkerKind::Cited(c) => ("cited", Some(c)),
                    MarkerKind::OutOfRange => ("out_of_range", None),
                    MarkerKind::Malformed => ("malformed", None),
                };
                let shown = match idx {
                    CitationIndex::Index(x) => x.to_string(),
                    CitationIndex::OutOfRange => "(negative or too large)".to_owned(),
                    CitationIndex::Malformed => "?".to_owned(),
                };
                markers.push(MarkerView {
                    text: format!("citations[{i}].index={shown}"),
                    offset: None,
                    resolves,
                    chunk,
                });
            }
        }
        _ => {}
    }
    let row = grade(turn, grammar).into_owned();
    let chunks = row
        .chunks
        .iter()
        .map(|c| ChunkView {
            chunk: c.clone(),
            cited: row.cited_chunks.contains(&c.index),
        })
        .collect();
    Explained {
        reason: reason(&row, &markers),
        source,
        line,
        chunks,
        markers,
        question: extras.question,
        tools: extras.tools,
        notes: extras.notes,
        reply: if show_text { text } else { None },
        row,
    }
}

/// Finds the first turn with `id` in the sources (the one de-duplication
/// keeps), reading them as every other subcommand does.
fn find(
    args: &ExplainArgs,
    settings: &Settings,
    grammar: Option<&Grammar>,
) -> Result<Option<Explained>> {
    let filter = Filter {
        turn_id: Some(args.turn_id.clone()),
        ..Filter::default()
    };
    let mut found = None;
    super::turns::read(
        settings,
        &args.input,
        &args.markers,
        filter,
        Some(1),
        "explain TURN_ID",
        |c, sources| {
            let d = &c.detail;
            let g = grammar.cloned().unwrap_or_else(|| d.dialect.grammar());
            found = Some(explain(
                d.turn.clone(),
                d.extras.clone(),
                &g,
                sources[d.source].name.clone(),
                c.line,
                args.show_text,
            ));
            Ok(())
        },
    )?;
    Ok(found)
}

/// Highlights markers in the reply on a terminal.
fn highlighted(reply: &str, markers: &[MarkerView], color: bool) -> String {
    let safe = terminal(reply).into_owned();
    if !color {
        return safe;
    }
    let mut out = safe.clone();
    for m in markers.iter().filter(|m| m.offset.is_some()) {
        let code = match m.resolves {
            "cited" => "32",
            "out_of_range" => "31",
            _ => "33",
        };
        let painted = format!("\x1b[1;{code}m{}\x1b[0m", terminal(&m.text));
        out = out.replacen(&*terminal(&m.text), &painted, 1);
    }
    out
}

fn text(out: &mut dyn Write, e: &Explained, color: bool) -> Result<()> {
    let r = &e.row;
    writeln!(
        out,
        "turn {} · agent {} · channel {} · {}",
        terminal(r.turn_id.as_str()),
        terminal(&r.agent_id),
        terminal(&r.channel),
        format_time(&r.created_at)
    )?;
    if let Some(c) = &r.conversation_id {
        writeln!(out, "conversation {}", terminal(c.as_str()))?;
    }
    if e.line > 0 {
        writeln!(out, "source {}:{}", terminal(&e.source), e.line)?;
    } else {
        writeln!(out, "source {}", terminal(&e.source))?;
    }
    writeln!(
        out,
        "verdict {}{}: {}",
        r.verdict.as_str(),
        if r.partial { " (partial)" } else { "" },
        terminal(&e.reason)
    )?;
    writeln!(
        out,
        "confidence {}",
        r.confidence.map_or_else(
            || "null (no scored retrieval)".to_owned(),
            |c| format!("{c:.4}")
        )
    )?;
    let mut sections = Vec::new();
    let mut chunks = Section::new(
        "chunks",
        &["#", "document_id", "chunk_id", "score", "cited"],
    )
    .numeric(&[0, 3]);
    chunks.rows = e
        .chunks
        .iter()
        .map(|c| {
            vec![
                c.chunk.index.to_string(),
                c.chunk
                    .document_id
                    .as_ref()
                    .map_or("-", |d| d.as_str())
                    .to_owned(),
                c.chunk
                    .chunk_id
                    .as_ref()
                    .map_or("-", |d| d.as_str())
                    .to_owned(),
                c.chunk.score.map_or_else(|| "-".into(), |s| format!("{s}")),
                if c.cited { "yes" } else { "" }.to_owned(),
            ]
        })
        .collect();
    sections.push(chunks);
    let from = match r.markers_from {
        Some(crate::model::MarkersFrom::Citations) => {
            " (from the citations list; orphans cannot be seen this way)"
        }
        _ => "",
    };
    let mut markers = Section::new(
        format!("markers{from}"),
        &["offset", "marker", "resolves to"],
    );
    markers.rows = e
        .markers
        .iter()
        .map(|m| {
            vec![
                m.offset.map_or_else(|| "-".into(), |o| o.to_string()),
                m.text.clone(),
                match m.chunk {
                    Some(c) => format!("chunk {c}"),
                    None => m.resolves.replace('_', " "),
                },
            ]
        })
        .collect();
    sections.push(markers);
    let mut tools = Section::new("tools", &["name", "status", "duration_ms"]).numeric(&[2]);
    tools.rows = e
        .tools
        .iter()
        .map(|t| {
            vec![
                t.name.clone(),
                t.status.clone(),
                t.duration_ms.map_or_else(|| "-".into(), |d| format!("{d}")),
            ]
        })
        .collect();
    sections.push(tools);
    let mut telemetry = Section::new("telemetry", &[]);
    telemetry.notes.push(format!(
        "model {} · tokens {} · cost_cents {} · latency_ms {} · tool calls {} ({} failed)",
        r.model.as_deref().unwrap_or("-"),
        r.tokens_used.map_or_else(|| "-".into(), |t| t.to_string()),
        r.cost_cents
            .map_or_else(|| "-".into(), |c| render::opt_num(Some(c))),
        r.latency_ms
            .map_or_else(|| "-".into(), |l| render::opt_num(Some(l))),
        r.tool_calls,
        r.tool_errors
    ));
    telemetry.notes.extend(e.notes.iter().cloned());
    if let Some(q) = &e.question {
        telemetry.notes.push(format!("question: {q}"));
    }
    sections.push(telemetry);
    writeln!(out)?;
    render::table::sections(out, &sections)?;
    if let Some(reply) = &e.reply {
        writeln!(out, "\nreply\n{}", highlighted(reply, &e.markers, color))?;
    }
    Ok(())
}

/// Runs `explain`; exit 1 when the turn is not found.
pub fn run(args: &ExplainArgs, settings: &Settings, out: &mut dyn Write) -> Result<i32> {
    let grammar = config::grammar(&args.markers)?;
    let Some(mut e) = find(args, settings, grammar.as_ref())? else {
        return Err(exit::failed(format!("turn {:?} not found", args.turn_id)));
    };
    if !args.show_tools {
        for t in &mut e.tools {
            t.arguments = None;
            t.result = None;
        }
    }
    match args.format {
        ExplainFormat::Json => render::json::document(out, &e)?,
        ExplainFormat::Text => {
            text(out, &e, settings.color)?;
            if args.show_tools {
                for t in &e.tools {
                    writeln!(out, "\ntool {}", terminal(&t.name))?;
                    for (k, v) in [("arguments", &t.arguments), ("result", &t.result)] {
                        let shown = v.as_ref().map_or_else(|| "-".to_owned(), |v| v.to_string());
                        writeln!(out, "  {k}: {}", terminal(&shown))?;
                    }
                }
            }
        }
    }
    Ok(exit::SUCCESS)
}

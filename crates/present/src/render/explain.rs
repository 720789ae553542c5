//! `explain --format text`: one turn's audit as the terminal shows it,
//! drawn from the explain view ([`Explained`]): the verdict and reason, the
//! chunk, marker, tool and telemetry tables, and with `--show-text` the
//! reply (markers highlighted on a terminal) and each chunk's text. Every
//! value from the log is made terminal-safe here.

use super::escape::terminal;
use super::{Clock, Section};
use crate::view::explain::{Explained, MarkerView};
use anyhow::Result;
use std::io::Write;

/// `explain` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A readable audit of the turn.
    Text,
    /// The same as one JSON document.
    Json,
}

impl super::Output for Format {
    const DEFAULT: Format = Format::Text;
    fn human(self) -> bool {
        self == Format::Text
    }
}

impl crate::model::Named for Format {
    const ALL: &'static [Format] = &[Format::Text, Format::Json];
    fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
        }
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Format::Text => "A readable audit of the turn",
            Format::Json => "The same as one JSON document",
        })
    }
}

/// What the text format shows besides the audit.
#[derive(Debug, Clone, Copy)]
pub struct Shown<'a> {
    pub color: bool,
    pub clock: &'a Clock,
    /// `--show-text`.
    pub text: bool,
    /// `--show-tools`.
    pub tools: bool,
}

impl Format {
    /// The turn's audit in this format: the registry of `explain`'s formats.
    pub fn draw(self, out: &mut dyn Write, e: &Explained, shown: Shown<'_>) -> Result<()> {
        match self {
            Format::Json => super::json::document(out, e),
            Format::Text => text(out, e, shown.color, shown.clock, shown.text, shown.tools),
        }
    }
}

/// `explain --format text`: the audit, then the `--show-text` hint when
/// there is text to show, then with `--show-tools` each call's arguments and result.
pub fn text(
    out: &mut dyn Write,
    e: &Explained,
    color: bool,
    clock: &Clock,
    show_text: bool,
    show_tools: bool,
) -> Result<()> {
    sections(out, e, color, clock)?;
    if show_text && !e.chunks.is_empty() && !e.chunks.iter().any(|c| c.text.is_some()) {
        // Said, not left out: a reader looking for the passage learns that
        // the log never had it.
        writeln!(
            out,
            "
chunk text
(the log holds no chunk text: its retrieval recorded ids and scores only)"
        )?;
    }
    if !show_text && (e.has_chunk_text || e.row.verdict == crate::model::Verdict::Ok) {
        writeln!(
            out,
            "\n(--show-text shows the question, the reply and the chunk text the log carries)"
        )?;
    }
    if show_tools {
        for t in &e.tools {
            writeln!(out, "\ntool {}", terminal(&t.name))?;
            for (k, v) in [("arguments", &t.arguments), ("result", &t.result)] {
                let shown = v.as_ref().map_or_else(|| "-".to_owned(), |v| v.to_string());
                writeln!(out, "  {k}: {}", terminal(&shown))?;
            }
        }
    }
    Ok(())
}

/// Highlights markers in the reply on a terminal.
fn highlighted(reply: &str, markers: &[MarkerView], color: bool) -> String {
    let safe = crate::escape::terminal_lines(reply);
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

fn sections(out: &mut dyn Write, e: &Explained, color: bool, clock: &Clock) -> Result<()> {
    header(out, e, clock)?;
    let sections = [
        chunks_section(e),
        markers_section(e),
        support_section(e),
        tools_section(e),
        telemetry_section(e),
    ];
    writeln!(out)?;
    super::table::sections(out, &sections)?;
    if let Some(q) = &e.question {
        writeln!(out, "\nquestion\n{}", crate::escape::terminal_lines(q))?;
    }
    if let Some(reply) = &e.reply {
        writeln!(out, "\nreply\n{}", highlighted(reply, &e.markers, color))?;
    }
    if e.chunks.iter().any(|c| c.text.is_some()) {
        chunk_texts(out, e, color)?;
    }
    Ok(())
}

/// The turn's identity, source, verdict and confidence, and its
/// low-confidence citations.
fn header(out: &mut dyn Write, e: &Explained, clock: &Clock) -> Result<()> {
    let r = &e.row;
    writeln!(
        out,
        "turn {} · agent {} · channel {} · {}",
        terminal(r.turn_id.as_str()),
        terminal(&r.agent_id),
        terminal(&r.channel),
        clock.time(&r.created_at)
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
    if let Some(c) = &e.caveat {
        writeln!(out, "note: {c}")?;
    }
    let low: Vec<String> = e
        .chunks
        .iter()
        .filter(|c| c.low_confidence)
        .map(|c| {
            format!(
                "chunk {} (score {})",
                c.chunk.index,
                c.chunk.score.map_or_else(String::new, |s| format!("{s}"))
            )
        })
        .collect();
    if !low.is_empty() {
        writeln!(
            out,
            "low-confidence citations (score < {}): {}",
            e.low_score,
            low.join(", ")
        )?;
    }
    Ok(())
}

/// The turn's chunks, and which were cited.
fn chunks_section(e: &Explained) -> Section {
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
                match (c.cited, c.low_confidence) {
                    (true, true) => "yes (low score)",
                    (true, false) => "yes",
                    _ => "",
                }
                .to_owned(),
            ]
        })
        .collect();
    chunks
}

/// The reply's markers and what each resolves to.
fn markers_section(e: &Explained) -> Section {
    let r = &e.row;
    let from = match r.markers_from {
        Some(crate::model::MarkersFrom::Citations) => {
            " (from the citations list; orphans cannot be seen this way)"
        }
        Some(crate::model::MarkersFrom::Reply) | None => "",
        Some(crate::model::MarkersFrom::Sources) => " (the sources the chain named)",
        Some(_) => " (the provider's structured citations)",
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
                resolution(m),
            ]
        })
        .collect();
    markers
}

/// What a marker resolves to, with a structured citation's span and checks.
fn resolution(m: &MarkerView) -> String {
    let mut s = match m.chunk {
        Some(c) => format!("chunk {c}"),
        None => m.resolves.replace('_', " "),
    };
    if let Some([a, b]) = m.span {
        s.push_str(&format!(" · answer chars {a}..{b}"));
    }
    if let Some(q) = m.quote {
        s.push_str(&format!(" · quote {q}"));
        if let Some(i) = m.quote_found_in {
            s.push_str(&format!(" (in chunk {i})"));
        }
    }
    if m.offsets == Some("mismatch") {
        s.push_str(" · offsets do not match their text");
    }
    s
}

/// Citation coverage, quote checks and hints.
fn support_section(e: &Explained) -> Section {
    let mut support = Section::new("support", &["kind", "answer chars", "flagged"]);
    let s = &e.row.support;
    support.notes.push(match s.coverage() {
        Some(c) => format!(
            "coverage {c:.2}: {} of {} sentences carry a citation that resolves",
            s.cited_sentences, s.sentences
        ),
        None => "coverage: no answer text to split into sentences".to_owned(),
    });
    let quotes = s.quotes_exact + s.quotes_normalised + s.quotes_absent;
    if quotes > 0 {
        support.notes.push(format!(
            "quotes checked against their chunk: {} exact, {} normalised, {} absent ({} misattributed, {} stitched, {} fabricated)",
            s.quotes_exact,
            s.quotes_normalised,
            s.quotes_absent,
            s.quotes_misattributed,
            s.quotes_stitched,
            s.quotes_fabricated
        ));
    }
    if s.offsets_mismatched > 0 {
        support.notes.push(format!(
            "{} citation(s) whose offsets do not point where their text says",
            s.offsets_mismatched
        ));
    }
    if s.unchecked > 0 {
        support.notes.push(format!(
            "{} citation(s) not checked: their checks would read more text than this turn's budget (64 bytes per byte the turn holds, plus 4 MiB)",
            s.unchecked
        ));
    }
    support.rows = e
        .hints
        .iter()
        .map(|h| {
            vec![
                h.kind.to_owned(),
                format!("{}..{}", h.start, h.end),
                h.value
                    .as_deref()
                    .map_or_else(|| "(--show-text)".to_owned(), |v| terminal(v).into_owned()),
            ]
        })
        .collect();
    support.rows.extend(e.quotes.iter().map(|q| {
        let mut kind = format!(
            "quote {} (cites {}",
            q.quote,
            crate::model::join(&q.cites, ",")
        );
        if let Some(i) = q.found_in {
            kind.push_str(&format!("; in chunk {i}"));
        }
        kind.push(')');
        vec![
            kind,
            format!("{}..{}", q.start, q.end),
            q.text
                .as_deref()
                .map_or_else(|| "(--show-text)".to_owned(), |v| terminal(v).into_owned()),
        ]
    }));
    if !e.hints.is_empty() {
        support.notes.push(
            "a hint flags a value in a cited sentence that none of the chunks it cites holds: read the sentence; a hint never changes the verdict".to_owned(),
        );
    }
    support
}

/// The turn's tool calls.
fn tools_section(e: &Explained) -> Section {
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
    tools
}

/// Model, usage and tool counts, then the notes.
fn telemetry_section(e: &Explained) -> Section {
    let r = &e.row;
    let mut telemetry = Section::new("telemetry", &[]);
    telemetry.notes.push(format!(
        "model {} · tokens {} · cost_cents {} · latency_ms {} · tool calls {} ({} failed)",
        r.model.as_deref().unwrap_or("-"),
        r.tokens_used.map_or_else(|| "-".into(), |t| t.to_string()),
        r.cost_cents
            .map_or_else(|| "-".into(), |c| super::opt_num(Some(c))),
        r.latency_ms
            .map_or_else(|| "-".into(), |l| super::opt_num(Some(l))),
        r.tool_calls,
        r.tool_errors
    ));
    telemetry.notes.extend(e.notes.iter().cloned());
    telemetry.notes.extend(e.text_notes.iter().cloned());
    telemetry
}

/// Each chunk's text, cited chunks marked `>>` (and bold on a terminal),
/// low-confidence citations named.
fn chunk_texts(out: &mut dyn Write, e: &Explained, color: bool) -> Result<()> {
    writeln!(out, "\nchunk text (cited chunks marked >>)")?;
    for c in &e.chunks {
        let id = c
            .chunk
            .chunk_id
            .as_ref()
            .or(c.chunk.document_id.as_ref())
            .map_or("-", |i| i.as_str());
        let score = c
            .chunk
            .score
            .map_or_else(|| "no score".to_owned(), |s| format!("score {s}"));
        let what = match (c.cited, c.low_confidence) {
            (true, true) => ", cited: low-confidence citation",
            (true, false) => ", cited",
            _ => "",
        };
        let head = format!(
            "{} [{}] {} ({score}{what})",
            if c.cited { ">>" } else { "  " },
            c.chunk.index,
            terminal(id)
        );
        if color && c.cited {
            writeln!(out, "\x1b[1;32m{head}\x1b[0m")?;
        } else {
            writeln!(out, "{head}")?;
        }
        match &c.text {
            Some(t) => {
                for l in t.lines() {
                    writeln!(out, "     {}", terminal(l))?;
                }
            }
            None => writeln!(out, "     (text not recorded)")?,
        }
    }
    Ok(())
}

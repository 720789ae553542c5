//! Terminal tables (comfy-table). The only renderer that colours; plain and
//! of fixed layout when not on a terminal, so snapshots stay stable.

use super::escape::terminal;
use super::{ReportDoc, input_line, join, rollup_lines, verdict_label};
use crate::model::{Row, Verdict, format_time};
use anyhow::Result;
use comfy_table::{Cell, CellAlignment, Color, ContentArrangement, Table, presets};
use std::io::Write;

/// A new table with the house style.
pub fn new_table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    t.set_header(header.iter().map(Cell::new));
    t
}

/// A right-aligned cell, for numbers.
pub fn num(s: impl ToString) -> Cell {
    Cell::new(s.to_string()).set_alignment(CellAlignment::Right)
}

/// A cell of untrusted text.
pub fn text(s: &str) -> Cell {
    Cell::new(terminal(s))
}

/// A verdict cell, coloured on a terminal.
pub fn verdict_cell(label: &str, v: Verdict, color: bool) -> Cell {
    let cell = Cell::new(label);
    if !color {
        return cell;
    }
    cell.fg(match v {
        Verdict::Ok => Color::Green,
        Verdict::NoMarker => Color::Yellow,
        Verdict::OrphanMarker => Color::Red,
        Verdict::EmptyRetrieval => Color::Grey,
        Verdict::Unobserved => Color::Magenta,
    })
}

const REPORT_HEADER: [&str; 11] = [
    "created_at",
    "turn_id",
    "agent",
    "channel",
    "verdict",
    "cited",
    "markers",
    "out_of_range",
    "malformed",
    "chunks",
    "confidence",
];

fn report_cells(r: &Row<'_>, color: bool) -> Vec<Cell> {
    vec![
        Cell::new(format_time(&r.created_at)),
        text(r.turn_id.as_str()),
        text(&r.agent_id),
        text(&r.channel),
        verdict_cell(&verdict_label(r), r.verdict, color),
        Cell::new(join(&r.cited_chunks, ",")),
        num(r.marker_count),
        num(r.out_of_range_markers),
        num(r.malformed_markers),
        num(r.chunk_count),
        num(r
            .confidence
            .map_or_else(|| "-".to_owned(), |c| format!("{c:.2}"))),
    ]
}

/// `report --format table`: the page, its summary and the input accounting.
pub fn report(out: &mut dyn Write, doc: &ReportDoc<'_>, color: bool) -> Result<()> {
    if doc.rows.is_empty() {
        writeln!(out, "no matching turns")?;
    } else {
        let mut t = new_table(&REPORT_HEADER);
        if color {
            t.enforce_styling();
        }
        for r in doc.rows {
            t.add_row(report_cells(r, color));
        }
        writeln!(out, "{t}")?;
    }
    for line in rollup_lines(doc.summary) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", input_line(doc.input))?;
    Ok(())
}

/// Streaming rows for `report --all --format table`: fixed-width lines, since
/// a table that must see every row first cannot stream.
pub mod stream {
    use super::*;

    fn fit(s: &str, w: usize) -> String {
        let s = terminal(s);
        if s.chars().count() <= w {
            format!("{s:<w$}")
        } else {
            let cut: String = s.chars().take(w - 1).collect();
            format!("{cut}…")
        }
    }

    pub fn header(out: &mut dyn Write) -> Result<()> {
        writeln!(
            out,
            "{:<20}  {:<24}  {:<20}  {:<8}  {:<22}  {:<12}  {:>7}  {:>6}  {:>9}  {:>6}  {:>10}",
            "created_at",
            "turn_id",
            "agent",
            "channel",
            "verdict",
            "cited",
            "markers",
            "oor",
            "malformed",
            "chunks",
            "confidence"
        )?;
        Ok(())
    }

    pub fn row(out: &mut Vec<u8>, r: &Row<'_>) {
        let _ = writeln!(
            out,
            "{:<20}  {}  {}  {}  {:<22}  {}  {:>7}  {:>6}  {:>9}  {:>6}  {:>10}",
            format_time(&r.created_at),
            fit(r.turn_id.as_str(), 24),
            fit(&r.agent_id, 20),
            fit(&r.channel, 8),
            verdict_label(r),
            fit(&join(&r.cited_chunks, ","), 12),
            r.marker_count,
            r.out_of_range_markers,
            r.malformed_markers,
            r.chunk_count,
            r.confidence
                .map_or_else(|| "-".to_owned(), |c| format!("{c:.2}")),
        );
    }

    pub fn footer(
        out: &mut dyn Write,
        summary: &crate::accumulate::Rollup,
        input: &crate::pipeline::InputStats,
    ) -> Result<()> {
        for line in rollup_lines(summary) {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "{}", input_line(input))?;
        Ok(())
    }
}

//! Terminal tables (comfy-table). The only renderer that colours; plain and
//! of fixed layout when not on a terminal, so snapshots stay stable.

use super::columns::{self, Style};
use super::escape::terminal;
use super::{Clock, Page, ReportDoc, input_line, page_line, rollup_lines};
use crate::model::{Row, Verdict};
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

fn report_cells(r: &Row<'_>, cols: &[&str], color: bool, clock: &Clock) -> Vec<Cell> {
    cols.iter()
        .map(|&c| {
            let v = columns::cell(r, c, Style::Human, clock);
            if c == "verdict" {
                verdict_cell(&v, r.verdict, color)
            } else if columns::is_numeric(c) {
                num(v)
            } else {
                text(&v)
            }
        })
        .collect()
}

/// `report --format table`: the page, what it is, its summary and the input accounting.
pub fn report(out: &mut dyn Write, doc: &ReportDoc<'_>, color: bool) -> Result<()> {
    let cols = columns::pick(doc.columns, &columns::TABLE);
    if doc.rows.is_empty() {
        writeln!(out, "no matching turns")?;
    } else {
        let mut t = new_table(&cols);
        if color {
            t.enforce_styling();
        }
        for r in doc.rows {
            t.add_row(report_cells(r, &cols, color, &doc.clock));
        }
        writeln!(out, "{t}")?;
    }
    writeln!(out, "{}", page_line(doc.page, doc.rows.len(), doc.matching))?;
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

    /// The width of a column in the streamed listing.
    fn width(name: &str, clock: &Clock) -> usize {
        let w = match name {
            "created_at" if clock.local => 25,
            "created_at" => 20,
            "turn_id" | "conversation_id" => 24,
            "agent_id" | "model" => 20,
            "channel" => 8,
            "verdict" => 22,
            "cited_chunks" => 12,
            "document_ids" | "chunk_ids" | "scores" => 24,
            _ => 0,
        };
        w.max(name.len())
    }

    fn line(cols: &[&str], clock: &Clock, value: impl Fn(&str) -> String) -> String {
        let mut s = String::new();
        for (i, &c) in cols.iter().enumerate() {
            if i > 0 {
                s.push_str("  ");
            }
            let w = width(c, clock);
            let v = value(c);
            if columns::is_numeric(c) {
                s.push_str(&format!("{:>w$}", terminal(&v)));
            } else if matches!(c, "created_at" | "verdict") {
                // The tool's own text: padded, never cut.
                s.push_str(&format!("{v:<w$}"));
            } else {
                s.push_str(&fit(&v, w));
            }
        }
        s.truncate(s.trim_end().len());
        s
    }

    pub fn header(out: &mut dyn Write, cols: &[&str], clock: &Clock) -> Result<()> {
        writeln!(out, "{}", line(cols, clock, |c| c.to_owned()))?;
        Ok(())
    }

    pub fn row(out: &mut Vec<u8>, r: &Row<'_>, cols: &[&str], clock: &Clock) {
        let _ = writeln!(
            out,
            "{}",
            line(cols, clock, |c| columns::cell(r, c, Style::Human, clock))
        );
    }

    pub fn footer(
        out: &mut dyn Write,
        summary: &crate::accumulate::Rollup,
        input: &crate::pipeline::InputStats,
    ) -> Result<()> {
        writeln!(out, "{}", page_line(Page::All, 0, summary.turns))?;
        for line in rollup_lines(summary) {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "{}", input_line(input))?;
        Ok(())
    }
}

/// Draws titled sections as terminal tables.
pub fn sections(out: &mut dyn Write, sections: &[super::Section]) -> Result<()> {
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", terminal(&s.title))?;
        if !s.header.is_empty() {
            if s.rows.is_empty() {
                writeln!(out, "(none)")?;
            } else {
                let mut t = new_table(&s.header);
                for r in &s.rows {
                    t.add_row(r.iter().enumerate().map(|(c, v)| {
                        if s.numeric.contains(&c) {
                            num(terminal(v))
                        } else {
                            text(v)
                        }
                    }));
                }
                writeln!(out, "{t}")?;
            }
        }
        for n in &s.notes {
            writeln!(out, "{}", terminal(n))?;
        }
    }
    Ok(())
}

//! Terminal tables (comfy-table). The only renderer that colours; plain and
//! of fixed layout when not on a terminal, so snapshots stay stable.

use super::columns::{self, Style};
use super::escape::terminal;
use super::report::{Exporter, Options};
use super::{Clock, Page, ReportDoc, input_line, page_line, rollup_lines};
use crate::accumulate::Rollup;
use crate::input::InputStats;
use crate::model::{Row, Verdict};
use crate::pipeline::Graded;
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

/// `report --format table`: the page, what it is, its summary and the
/// input accounting; streamed (`--all`), fixed-width lines, since a table
/// that must see every row first cannot stream.
pub struct Report<'a> {
    cols: Vec<&'a str>,
    clock: Clock,
    color: bool,
}

impl<'a> Report<'a> {
    pub fn new(o: Options<'a>) -> Self {
        Report {
            cols: columns::pick(o.columns, &columns::TABLE),
            clock: o.clock,
            color: o.color,
        }
    }
}

/// The lines under the rows: what they are, their rollup, the input.
fn footer(out: &mut dyn Write, page: &str, summary: &Rollup, input: &InputStats) -> Result<()> {
    writeln!(out, "{page}")?;
    for line in rollup_lines(summary) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", input_line(input))?;
    Ok(())
}

impl Exporter for Report<'_> {
    fn page(&self, out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()> {
        if doc.rows.is_empty() {
            writeln!(out, "no matching turns")?;
        } else {
            let mut t = new_table(&self.cols);
            if self.color {
                t.enforce_styling();
            }
            for r in doc.rows {
                t.add_row(report_cells(r, &self.cols, self.color, &doc.clock));
            }
            writeln!(out, "{t}")?;
        }
        let page = page_line(doc.page, doc.rows.len(), doc.matching);
        footer(out, &page, doc.summary, doc.input)
    }
    fn cursor_on_stderr(&self) -> bool {
        true
    }
    fn open(&self, out: &mut dyn Write) -> Result<()> {
        writeln!(out, "{}", line(&self.cols, &self.clock, |c| c.to_owned()))?;
        Ok(())
    }
    fn rows(&self, buf: &mut Vec<u8>, rows: &[Graded<'_>]) {
        for g in rows {
            let value = |c: &str| columns::cell(&g.row, c, Style::Human, &self.clock);
            let _ = writeln!(buf, "{}", line(&self.cols, &self.clock, value));
        }
    }
    fn close(&self, out: &mut dyn Write, total: &Rollup, input: &InputStats) -> Result<()> {
        footer(out, &page_line(Page::All, 0, total.turns), total, input)
    }
}

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
        "document_ids" | "chunk_ids" | "scores" | "cited_documents" => 24,
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

//! Markdown tables for tickets and pull requests. Cells are escaped so a
//! hostile id cannot add a column, a row or markup.

use super::columns::{self, Style};
use super::escape::markdown_cell;
use super::report::{Exporter, Options};
use super::{Clock, Page, ReportDoc, input_line, join, page_line, rollup_lines};
use crate::accumulate::Rollup;
use crate::input::InputStats;
use crate::model::Row;
use crate::pipeline::Graded;
use anyhow::Result;
use std::io::Write;

/// Writes a Markdown table from a header and rows of cells (cells are escaped here).
pub fn table(out: &mut dyn Write, header: &[&str], rows: &[Vec<String>]) -> Result<()> {
    writeln!(out, "| {} |", header.join(" | "))?;
    writeln!(
        out,
        "|{}",
        header.iter().map(|_| "---|").collect::<String>()
    )?;
    for r in rows {
        writeln!(
            out,
            "| {} |",
            r.iter()
                .map(|c| markdown_cell(c))
                .collect::<Vec<_>>()
                .join(" | ")
        )?;
    }
    Ok(())
}

fn cells(r: &Row<'_>, cols: &[&str], clock: &Clock) -> Vec<String> {
    cols.iter()
        .map(|&c| match c {
            "cited_chunks" => join(&r.cited_chunks, ", "),
            "confidence" => r
                .confidence
                .map_or_else(|| "–".to_owned(), |c| format!("{c:.2}")),
            _ => columns::cell(r, c, Style::Human, clock),
        })
        .collect()
}

/// `report --format markdown`: a table of the picked columns, then what
/// the rows are, their rollup and the input accounting.
pub struct Report<'a> {
    cols: Vec<&'a str>,
    clock: Clock,
}

impl<'a> Report<'a> {
    pub fn new(o: Options<'a>) -> Self {
        Report {
            cols: columns::pick(o.columns, &columns::MARKDOWN),
            clock: o.clock,
        }
    }
}

/// The lines under the rows: what they are, their rollup, the input.
fn footer(out: &mut dyn Write, page: &str, summary: &Rollup, input: &InputStats) -> Result<()> {
    writeln!(out)?;
    writeln!(out, "{page}  ")?;
    for line in rollup_lines(summary) {
        writeln!(out, "{line}  ")?;
    }
    writeln!(out, "{}", input_line(input))?;
    Ok(())
}

impl Exporter for Report<'_> {
    fn page(&self, out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()> {
        let rows: Vec<_> = doc
            .rows
            .iter()
            .map(|r| cells(r, &self.cols, &doc.clock))
            .collect();
        table(out, &self.cols, &rows)?;
        let page = page_line(doc.page, doc.rows.len(), doc.matching);
        footer(out, &page, doc.summary, doc.input)?;
        if let Some(c) = &doc.next_cursor {
            writeln!(out, "\nnext page: `--cursor {c}`")?;
        }
        Ok(())
    }
    fn open(&self, out: &mut dyn Write) -> Result<()> {
        table(out, &self.cols, &[])
    }
    fn rows(&self, buf: &mut Vec<u8>, rows: &[Graded<'_>]) {
        for g in rows {
            let cells = cells(&g.row, &self.cols, &self.clock);
            let cells: Vec<_> = cells.iter().map(|c| markdown_cell(c)).collect();
            let _ = writeln!(buf, "| {} |", cells.join(" | "));
        }
    }
    fn close(&self, out: &mut dyn Write, total: &Rollup, input: &InputStats) -> Result<()> {
        footer(out, &page_line(Page::All, 0, total.turns), total, input)
    }
}

/// Draws titled sections as Markdown headings and tables.
pub fn sections(out: &mut dyn Write, sections: &[super::Section]) -> Result<()> {
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "### {}\n", markdown_cell(&s.title))?;
        if !s.header.is_empty() {
            if s.rows.is_empty() {
                writeln!(out, "(none)")?;
            } else {
                table(out, &s.header, &s.rows)?;
            }
        }
        if !s.notes.is_empty() {
            writeln!(out)?;
            for n in &s.notes {
                writeln!(out, "{}  ", markdown_cell(n))?;
            }
        }
    }
    Ok(())
}

/// `check --format markdown` (and the GitHub job summary): the decision line
/// in bold, then a table with a row per gate.
pub fn check(
    out: &mut dyn Write,
    d: &crate::gate::Decision,
    input: &crate::pipeline::InputStats,
) -> Result<()> {
    use crate::gate::Outcome;
    writeln!(out, "**{}**\n", markdown_cell(&d.line))?;
    let mut s = super::Section::new(
        "Gates",
        &[
            "scope",
            "gate",
            "outcome",
            "observed",
            "threshold",
            "detail",
        ],
    );
    s.rows = d
        .gates
        .iter()
        .map(|g| {
            vec![
                g.scope.to_string(),
                g.gate.as_str().to_owned(),
                match g.outcome {
                    Outcome::Pass => "✅ pass",
                    Outcome::Fail => "❌ fail",
                    Outcome::Skipped => "⚪ skipped",
                    Outcome::Error => "🛑 error",
                }
                .to_owned(),
                g.observed.map_or_else(|| "-".into(), |o| o.to_string()),
                g.threshold.to_string(),
                super::gate_detail(g),
            ]
        })
        .collect();
    s.notes = d.warnings.iter().map(|w| format!("warning: {w}")).collect();
    s.notes.push(input_line(input));
    sections(out, &[s])
}

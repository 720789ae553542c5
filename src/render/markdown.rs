//! Markdown tables for tickets and pull requests. Cells are escaped so a
//! hostile id cannot add a column, a row or markup.

use super::columns::{self, Style};
use super::escape::markdown_cell;
use super::{Clock, Page, ReportDoc, input_line, join, page_line, rollup_lines};
use crate::model::Row;
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

/// `report --format markdown`.
pub fn report(out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()> {
    let cols = columns::pick(doc.columns, &columns::MARKDOWN);
    let rows: Vec<_> = doc
        .rows
        .iter()
        .map(|r| cells(r, &cols, &doc.clock))
        .collect();
    table(out, &cols, &rows)?;
    writeln!(out)?;
    writeln!(
        out,
        "{}  ",
        page_line(doc.page, doc.rows.len(), doc.matching)
    )?;
    for line in rollup_lines(doc.summary) {
        writeln!(out, "{line}  ")?;
    }
    writeln!(out, "{}", input_line(doc.input))?;
    if let Some(c) = &doc.next_cursor {
        writeln!(out, "\nnext page: `--cursor {c}`")?;
    }
    Ok(())
}

/// Streaming rows for `report --all --format markdown`.
pub mod stream {
    use super::*;

    pub fn header(out: &mut dyn Write, cols: &[&str]) -> Result<()> {
        table(out, cols, &[])
    }
    pub fn row(out: &mut Vec<u8>, r: &Row<'_>, cols: &[&str], clock: &Clock) {
        let _ = writeln!(
            out,
            "| {} |",
            cells(r, cols, clock)
                .iter()
                .map(|c| markdown_cell(c))
                .collect::<Vec<_>>()
                .join(" | ")
        );
    }
    pub fn footer(
        out: &mut dyn Write,
        summary: &crate::accumulate::Rollup,
        input: &crate::pipeline::InputStats,
    ) -> Result<()> {
        writeln!(out)?;
        writeln!(out, "{}  ", page_line(Page::All, 0, summary.turns))?;
        for line in rollup_lines(summary) {
            writeln!(out, "{line}  ")?;
        }
        writeln!(out, "{}", input_line(input))?;
        Ok(())
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

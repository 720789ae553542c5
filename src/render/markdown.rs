//! Markdown tables for tickets and pull requests. Cells are escaped so a
//! hostile id cannot add a column, a row or markup.

use super::escape::markdown_cell;
use super::{ReportDoc, input_line, join, rollup_lines, verdict_label};
use crate::model::{Row, format_time};
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

const REPORT_HEADER: [&str; 9] = [
    "created_at",
    "turn_id",
    "agent",
    "verdict",
    "cited",
    "markers",
    "out_of_range",
    "malformed",
    "confidence",
];

fn cells(r: &Row<'_>) -> Vec<String> {
    vec![
        format_time(&r.created_at),
        r.turn_id.as_str().to_owned(),
        r.agent_id.to_string(),
        verdict_label(r),
        join(&r.cited_chunks, ", "),
        r.marker_count.to_string(),
        r.out_of_range_markers.to_string(),
        r.malformed_markers.to_string(),
        r.confidence
            .map_or_else(|| "–".to_owned(), |c| format!("{c:.2}")),
    ]
}

/// `report --format markdown`.
pub fn report(out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()> {
    let rows: Vec<_> = doc.rows.iter().map(cells).collect();
    table(out, &REPORT_HEADER, &rows)?;
    writeln!(out)?;
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

    pub fn header(out: &mut dyn Write) -> Result<()> {
        table(out, &REPORT_HEADER, &[])
    }
    pub fn row(out: &mut Vec<u8>, r: &Row<'_>) {
        let _ = writeln!(
            out,
            "| {} |",
            cells(r)
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

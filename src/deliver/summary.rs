//! A finished summary drawn (`summary`, and `merge` of summary partials).

use crate::accumulate::summary::Summary;
use crate::accumulate::triage::TriageOrder;
use crate::compare::Comparison;
use crate::config::summary::FileTarget;
use crate::exit;
use crate::input::InputStats;
use crate::render;
use crate::render::summary::{CsvSection, Format as SummaryFormat};
use crate::view::summary::{SummaryDoc, WindowDoc, document_with};
use anyhow::Result;
use std::io::Write;

/// How a finished summary is written (`summary` and `merge` alike).
pub struct Output<'a> {
    pub format: SummaryFormat,
    pub section: Option<CsvSection>,
    pub csv: render::escape::Csv,
    /// What the HTML page says about the run (`--format html`, `--html`).
    pub html: &'a render::html::Meta,
    /// The documents written to files besides stdout (`--html FILE`).
    pub files: Vec<FileTarget>,
    /// The order of the triage list (`--triage-order`).
    pub triage_order: TriageOrder,
    /// The time window the turns were taken from.
    pub window: WindowDoc,
}

/// Draws a finished summary to each file target, then in its format to
/// `out`.
pub fn summary(
    out: &mut dyn Write,
    summary: Summary,
    input: &InputStats,
    clock: &render::Clock,
    comparison: Option<&Comparison>,
    output: Output<'_>,
) -> Result<()> {
    let Output {
        format,
        section,
        csv,
        html,
        files,
        triage_order,
        window,
    } = output;
    let doc = document_with(&summary, input, clock, window, comparison, triage_order);
    write_files(&files, &doc, csv.raw, html)?;
    format.draw(out, &doc, section, csv, html)
}

/// Writes a summary's document to each file target in its format (`summary
/// --html`, `check --html`). A file is no terminal: CSV values are written
/// exactly, formulas neutralised unless `raw_csv`.
pub fn write_files(
    files: &[FileTarget],
    doc: &SummaryDoc<'_>,
    raw_csv: bool,
    html: &render::html::Meta,
) -> Result<()> {
    let csv = render::escape::Csv {
        raw: raw_csv,
        terminal: false,
    };
    for file in files {
        let mut bytes = Vec::new();
        file.format.draw(&mut bytes, doc, None, csv, html)?;
        exit::write_file(&file.path, &bytes, false, file.what)?;
    }
    Ok(())
}

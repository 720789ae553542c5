//! A finished summary drawn (`summary`, and `merge` of summary partials).

use crate::accumulate::summary::Summary;
use crate::accumulate::triage::TriageOrder;
use crate::compare::Comparison;
use crate::exit;
use crate::input::InputStats;
use crate::render;
use crate::render::summary::{CsvSection, Format as SummaryFormat};
use crate::view::summary::{WindowDoc, document_with};
use anyhow::Result;
use std::io::Write;

/// How a finished summary is written (`summary` and `merge` alike).
pub struct Output<'a> {
    pub format: SummaryFormat,
    pub section: Option<CsvSection>,
    pub csv: render::escape::Csv,
    /// What the HTML page says about the run (`--format html`, `--html`).
    pub html: &'a render::html::Meta,
    /// `--html FILE`: the page written there as well.
    pub html_file: Option<&'a std::path::Path>,
    /// The order of the triage list (`--triage-order`).
    pub triage_order: TriageOrder,
    /// The time window the turns were taken from.
    pub window: WindowDoc,
}

/// Draws a finished summary in its format, and the HTML page to `--html`'s
/// file when asked.
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
        html_file,
        triage_order,
        window,
    } = output;
    let html_file = html_file.map(|p| (p, html));
    let doc = document_with(&summary, input, clock, window, comparison, triage_order);
    if let Some((path, meta)) = html_file {
        let page = render::html::page(&doc, meta);
        exit::write_file(path, page.as_bytes(), false, "HTML report")?;
    }
    format.draw(out, &doc, section, csv, html)
}

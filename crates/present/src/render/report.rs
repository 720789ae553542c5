//! `report`'s output seam. Each format is an [`Exporter`] in its own
//! module, chosen once per command by [`Format::exporter`]: a page is one
//! call; `--all` streams an opening, the rows of each block (written in the
//! worker that graded them) and a closing. Adding a format is an exporter in
//! the format's file, a variant here and its line in the registry.

use super::escape::Csv;
use super::{Clock, ReportDoc};
use crate::accumulate::Rollup;
use crate::input::InputStats;
use crate::pipeline::Graded;
use anyhow::Result;
use std::io::Write;

/// `report` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A table for the terminal, with the page summary; the next-page hint goes to stderr.
    Table,
    /// One row per line, fixed columns, list fields joined with `;`.
    Csv,
    /// One document: rows, summary, next_cursor, input.
    Json,
    /// One JSON row per line.
    Jsonl,
    /// A Markdown table for tickets and pull requests.
    Markdown,
}

impl super::Output for Format {
    const DEFAULT: Format = Format::Table;
    fn human(self) -> bool {
        matches!(self, Format::Table | Format::Markdown | Format::Csv)
    }
}

impl crate::model::Named for Format {
    const ALL: &'static [Format] = &[
        Format::Table,
        Format::Csv,
        Format::Json,
        Format::Jsonl,
        Format::Markdown,
    ];
    fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Markdown => "markdown",
        }
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Format::Table => {
                "A table for the terminal, with the page summary; the next-page hint goes to stderr"
            }
            Format::Csv => "One row per line, fixed columns, list fields joined with `;`",
            Format::Json => "One document: rows, summary, next_cursor, input",
            Format::Jsonl => "One JSON row per line",
            Format::Markdown => "A Markdown table for tickets and pull requests",
        })
    }
}

/// What every format is drawn with.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// `--columns`; empty for the format's default.
    pub columns: &'a [String],
    pub csv: Csv,
    pub clock: Clock,
    pub color: bool,
}

/// One output format of `report`.
pub trait Exporter: Sync {
    /// One page, as a whole document.
    fn page(&self, out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()>;
    /// Whether the next page's cursor is told on stderr rather than in the
    /// page (a terminal table has no place for it).
    fn cursor_on_stderr(&self) -> bool {
        false
    }
    /// `--all`: what comes before the first row.
    fn open(&self, _out: &mut dyn Write) -> Result<()> {
        Ok(())
    }
    /// `--all`: the rows of one block, appended to `buf` in a worker.
    fn rows(&self, buf: &mut Vec<u8>, rows: &[Graded<'_>]);
    /// `--all`: the bytes of a block as written; `first` while no row has
    /// been written yet (a separator may then be dropped).
    fn block<'b>(&self, bytes: &'b [u8], _first: bool) -> &'b [u8] {
        bytes
    }
    /// `--all`: what comes after the last row.
    fn close(&self, _out: &mut dyn Write, _total: &Rollup, _input: &InputStats) -> Result<()> {
        Ok(())
    }
}

impl Format {
    /// The registry: the exporter of each format.
    pub fn exporter<'a>(self, style: Options<'a>) -> Box<dyn Exporter + 'a> {
        match self {
            Format::Table => Box::new(super::table::Report::new(style)),
            Format::Csv => Box::new(super::csv::Report(style)),
            Format::Json => Box::new(super::json::Report(style.clock)),
            Format::Jsonl => Box::new(super::json::Lines(style.clock)),
            Format::Markdown => Box::new(super::markdown::Report::new(style)),
        }
    }
}

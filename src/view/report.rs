//! `report`'s view: one page (or all) of graded rows with their rollup.

use crate::accumulate::Rollup;
use crate::filter::Clock;
use crate::model::{InputStats, Row};
use serde::Serialize;

/// One page (or all) of report rows with their summary.
#[derive(Debug, Serialize)]
pub struct ReportDoc<'a> {
    pub rows: &'a [Row<'static>],
    pub summary: &'a Rollup,
    pub next_cursor: Option<String>,
    /// Rows the filters select, over every page.
    pub matching: u64,
    pub input: &'a InputStats,
    /// Which rows of the matching ones these are.
    #[serde(skip)]
    pub page: Page,
    /// `--columns`; empty for the format's default.
    #[serde(skip)]
    pub columns: &'a [String],
    #[serde(skip)]
    pub clock: Clock,
}

/// Where a page of rows stands among the matching rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// Page `number` (1-based), newest first, whose first row is row `first` (1-based).
    Numbered { number: u64, first: u64 },
    /// The whole of the conversations asked for, oldest first.
    Conversation,
    /// Every matching row (`--all`).
    All,
}

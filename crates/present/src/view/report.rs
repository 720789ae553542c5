//! `report`'s view: one page (or all) of graded rows with their rollup.

use crate::accumulate::Rollup;
use crate::filter::Clock;
use crate::input::InputStats;
use crate::model::Row;
use serde::Serialize;

/// One page (or all) of report rows with their summary. As JSON: `rows`
/// (each a [`JsonRow`]), `summary`, `next_cursor`, `matching`, `input`.
#[derive(Debug)]
pub struct ReportDoc<'a> {
    pub rows: &'a [Row<'static>],
    pub summary: &'a Rollup,
    pub next_cursor: Option<String>,
    /// Rows the filters select, over every page.
    pub matching: u64,
    pub input: &'a InputStats,
    /// Which rows of the matching ones these are.
    pub page: Page,
    /// `--columns`; empty for the format's default.
    pub columns: &'a [String],
    pub clock: Clock,
}

impl Serialize for ReportDoc<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let rows: Vec<JsonRow<'_, '_>> = self
            .rows
            .iter()
            .map(|row| JsonRow {
                row,
                clock: &self.clock,
            })
            .collect();
        let mut d = s.serialize_struct("ReportDoc", 5)?;
        d.serialize_field("rows", &rows)?;
        d.serialize_field("summary", self.summary)?;
        d.serialize_field("next_cursor", &self.next_cursor)?;
        d.serialize_field("matching", &self.matching)?;
        d.serialize_field("input", self.input)?;
        d.end()
    }
}

/// A row as JSON: the row's own fields, and `created_at_local` after them
/// when times are shown in a local zone (`created_at` stays UTC).
pub struct JsonRow<'r, 'a> {
    pub row: &'r Row<'a>,
    pub clock: &'r Clock,
}

impl Serialize for JsonRow<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct WithLocal<'r, 'a> {
            #[serde(flatten)]
            row: &'r Row<'a>,
            created_at_local: String,
        }
        if !self.clock.local {
            return self.row.serialize(s);
        }
        WithLocal {
            row: self.row,
            created_at_local: self.clock.zone.format(&self.row.created_at),
        }
        .serialize(s)
    }
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

//! One finished page of `report` drawn (`report`, and `merge` of report
//! partials).

use crate::accumulate::cursor::cursor_after;
use crate::accumulate::{PageHeap, Rollup};
use crate::pipeline;
use crate::render::report::{Format as ReportFormat, Options};
use crate::render::{Page, ReportDoc};
use anyhow::Result;
use std::io::Write;

/// What one page is rendered with (`report` and `merge`).
pub struct PageOutput<'a> {
    pub format: ReportFormat,
    pub limit: usize,
    /// `--conversation`: the whole conversation, oldest first, on one page.
    pub conversation: bool,
    /// De-duplication was on (see [`cursor_after`]).
    pub dedupe: bool,
    pub options: Options<'a>,
    /// Rendered by `merge`: the next page is chosen when partials are made.
    pub merged: bool,
}

/// Draws one page from its filled heap, and the next page's cursor on
/// stderr for the formats that keep stdout a table.
pub fn page(
    out: &mut dyn Write,
    page: PageHeap,
    input: &crate::input::InputStats,
    o: &PageOutput<'_>,
) -> Result<()> {
    let (limit, conversation) = (o.limit, o.conversation);
    let (matching, newer) = (page.matching, page.newer);
    let mut entries = page.into_entries();
    let next_cursor = if !conversation && entries.len() > limit {
        entries.truncate(limit);
        entries
            .last()
            .map(|(r, pos)| cursor_after(r, *pos, o.dedupe))
    } else {
        None
    };
    let mut rows: Vec<_> = entries.into_iter().map(|(r, _)| r).collect();
    if conversation {
        rows.reverse();
    }
    let mut summary = Rollup::default();
    rows.iter().for_each(|r| summary.add(r));
    let doc = ReportDoc {
        rows: &rows,
        summary: &summary,
        next_cursor,
        matching,
        input,
        page: if conversation {
            Page::Conversation
        } else {
            Page::Numbered {
                number: newer / limit as u64 + 1,
                first: newer + 1,
            }
        },
        columns: o.options.columns,
        clock: o.options.clock,
    };
    let exporter = o.format.exporter(o.options);
    exporter.page(out, &doc)?;
    if let (Some(c), true) = (&doc.next_cursor, exporter.cursor_on_stderr()) {
        out.flush()?;
        let hint = if o.merged {
            format!("more rows: make the partials with --cursor {c} to see the next, older page")
        } else {
            format!("more rows: add --cursor {c} to see the next, older page")
        };
        pipeline::warn(None, &hint);
    }
    Ok(())
}

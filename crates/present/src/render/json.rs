//! JSON and JSON Lines. serde_json escapes every control character, so
//! hostile ids stay data.

use super::report::Exporter;
use super::{Clock, ReportDoc};
use crate::accumulate::Rollup;
use crate::input::InputStats;
use crate::model::Row;
use crate::pipeline::Graded;
use crate::view::report::JsonRow;
use anyhow::Result;
use std::io::Write;

/// A whole value as one pretty-printed document, made in memory and
/// written at once: the pretty printer's many small writes (a key, a
/// colon, an indent) would each pass through the output's layers.
pub fn document<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> Result<()> {
    let mut buf = serde_json::to_vec_pretty(value)?;
    buf.push(b'\n');
    out.write_all(&buf)?;
    Ok(())
}

/// One row as one line.
pub fn row_line(out: &mut Vec<u8>, row: &Row<'_>, clock: &Clock) {
    serde_json::to_writer(&mut *out, &JsonRow { row, clock }).expect("rows always serialise");
    out.push(b'\n');
}

/// `report --format json`: one document; streamed, an opening, every row
/// and a closing that carries the rollup.
pub struct Report(pub Clock);

impl Exporter for Report {
    fn page(&self, out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()> {
        document(out, doc)
    }
    fn open(&self, out: &mut dyn Write) -> Result<()> {
        out.write_all(b"{\"rows\":[")?;
        Ok(())
    }
    /// Each row with a leading separator, dropped from the very first.
    fn rows(&self, buf: &mut Vec<u8>, rows: &[Graded<'_>]) {
        for g in rows {
            buf.extend_from_slice(b",\n");
            let row = JsonRow {
                row: &g.row,
                clock: &self.0,
            };
            serde_json::to_writer(&mut *buf, &row).expect("rows always serialise");
        }
    }
    fn block<'b>(&self, bytes: &'b [u8], first: bool) -> &'b [u8] {
        if first {
            bytes.get(1..).unwrap_or(bytes)
        } else {
            bytes
        }
    }
    fn close(&self, out: &mut dyn Write, total: &Rollup, input: &InputStats) -> Result<()> {
        out.write_all(b"\n],\"summary\":")?;
        serde_json::to_writer(&mut *out, total)?;
        out.write_all(b",\"next_cursor\":null,\"matching\":")?;
        serde_json::to_writer(&mut *out, &total.turns)?;
        out.write_all(b",\"input\":")?;
        serde_json::to_writer(&mut *out, input)?;
        out.write_all(b"}\n")?;
        Ok(())
    }
}

/// `report --format jsonl`: one JSON row per line, nothing else.
pub struct Lines(pub Clock);

impl Exporter for Lines {
    fn page(&self, out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()> {
        let mut buf = Vec::new();
        doc.rows
            .iter()
            .for_each(|r| row_line(&mut buf, r, &doc.clock));
        out.write_all(&buf)?;
        Ok(())
    }
    fn rows(&self, buf: &mut Vec<u8>, rows: &[Graded<'_>]) {
        rows.iter().for_each(|g| row_line(buf, &g.row, &self.0));
    }
}

//! JSON and JSON Lines. serde_json escapes every control character, so
//! hostile ids stay data.

use super::ReportDoc;
use crate::model::Row;
use anyhow::Result;
use std::io::Write;

/// A whole value as one pretty-printed document.
pub fn document<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// One row as one line.
pub fn row_line(out: &mut Vec<u8>, row: &Row<'_>) {
    serde_json::to_writer(&mut *out, row).expect("rows always serialise");
    out.push(b'\n');
}

/// `report --format json`.
pub fn report(out: &mut dyn Write, doc: &ReportDoc<'_>) -> Result<()> {
    document(out, doc)
}

/// Streaming `report --all --format json`: the opening, each row, the closing.
pub mod stream {
    use super::*;

    pub fn open(out: &mut dyn Write) -> Result<()> {
        out.write_all(b"{\"rows\":[")?;
        Ok(())
    }
    pub fn row(out: &mut Vec<u8>, row: &Row<'_>, first: bool) {
        if !first {
            out.push(b',');
        }
        out.push(b'\n');
        serde_json::to_writer(&mut *out, row).expect("rows always serialise");
    }
    pub fn close(
        out: &mut dyn Write,
        summary: &crate::accumulate::Rollup,
        input: &crate::pipeline::InputStats,
    ) -> Result<()> {
        out.write_all(b"\n],\"summary\":")?;
        serde_json::to_writer(&mut *out, summary)?;
        out.write_all(b",\"next_cursor\":null,\"matching\":")?;
        serde_json::to_writer(&mut *out, &summary.turns)?;
        out.write_all(b",\"input\":")?;
        serde_json::to_writer(&mut *out, input)?;
        out.write_all(b"}\n")?;
        Ok(())
    }
}

//! CSV: fixed columns, one record per row, list fields joined with `;`.
//! Values that a spreadsheet would run as formulas are neutralised unless
//! `--csv-raw` is given.

use super::escape::csv_cell;
use super::{join, opt_num};
use crate::model::{Chunk, Id, Row};
use anyhow::Result;

/// The columns of `report --format csv`, in order.
pub const REPORT_COLUMNS: [&str; 24] = [
    "turn_id",
    "agent_id",
    "conversation_id",
    "channel",
    "created_at",
    "verdict",
    "partial",
    "cited_chunks",
    "marker_count",
    "out_of_range_markers",
    "malformed_markers",
    "markers_from",
    "chunk_count",
    "confidence",
    "document_ids",
    "chunk_ids",
    "scores",
    "tool_calls",
    "tool_errors",
    "model",
    "tokens_used",
    "cost_cents",
    "latency_ms",
    "unobserved_reason",
];

/// A CSV writer with the settings every CSV output uses.
pub fn writer<W: std::io::Write>(out: W) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(out)
}

/// Writes the header record of `report`.
pub fn header<W: std::io::Write>(w: &mut csv::Writer<W>) -> Result<()> {
    w.write_record(REPORT_COLUMNS)?;
    Ok(())
}

fn ids<'a>(chunks: &'a [Chunk<'_>], f: impl Fn(&'a Chunk<'_>) -> Option<&'a Id<'a>>) -> String {
    chunks
        .iter()
        .map(|c| f(c).map_or("", |i| i.as_str()))
        .collect::<Vec<_>>()
        .join(";")
}

/// Writes one row as a CSV record.
pub fn row<W: std::io::Write>(w: &mut csv::Writer<W>, r: &Row<'_>, raw: bool) -> Result<()> {
    let scores = r
        .chunks
        .iter()
        .map(|c| opt_num(c.score))
        .collect::<Vec<_>>()
        .join(";");
    let doc_ids = ids(&r.chunks, |c| c.document_id.as_ref());
    let chunk_ids = ids(&r.chunks, |c| c.chunk_id.as_ref());
    let fields: [std::borrow::Cow<'_, str>; 24] = [
        csv_cell(r.turn_id.as_str(), raw),
        csv_cell(&r.agent_id, raw),
        csv_cell(r.conversation_id.as_ref().map_or("", |c| c.as_str()), raw),
        csv_cell(&r.channel, raw),
        crate::model::format_time(&r.created_at).into(),
        r.verdict.as_str().into(),
        if r.partial { "true" } else { "false" }.into(),
        join(&r.cited_chunks, ";").into(),
        r.marker_count.to_string().into(),
        r.out_of_range_markers.to_string().into(),
        r.malformed_markers.to_string().into(),
        match r.markers_from {
            Some(crate::model::MarkersFrom::Reply) => "reply",
            Some(crate::model::MarkersFrom::Citations) => "citations",
            None => "",
        }
        .into(),
        r.chunk_count.to_string().into(),
        opt_num(r.confidence).into(),
        csv_cell(&doc_ids, raw).into_owned().into(),
        csv_cell(&chunk_ids, raw).into_owned().into(),
        scores.into(),
        r.tool_calls.to_string().into(),
        r.tool_errors.to_string().into(),
        csv_cell(r.model.as_deref().unwrap_or(""), raw),
        r.tokens_used
            .map_or_else(String::new, |t| t.to_string())
            .into(),
        opt_num(r.cost_cents).into(),
        opt_num(r.latency_ms).into(),
        r.unobserved_reason
            .map_or("", |u| match u {
                crate::model::Unobserved::NoReply => "no_reply",
                crate::model::Unobserved::NoTurnEnd => "no_turn_end",
                crate::model::Unobserved::Withheld => "withheld",
                crate::model::Unobserved::BoundedAudit => "bounded_audit",
            })
            .into(),
    ];
    w.write_record(fields.iter().map(|f| f.as_bytes()))?;
    Ok(())
}

/// Writes a generic table (header plus records) as CSV, neutralising cells.
pub fn table(
    out: &mut dyn std::io::Write,
    header: &[&str],
    rows: &[Vec<String>],
    raw: bool,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(header)?;
    for r in rows {
        w.write_record(r.iter().map(|c| csv_cell(c, raw).into_owned()))?;
    }
    w.flush()?;
    Ok(())
}

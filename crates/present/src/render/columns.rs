//! The columns of `report` rows, one name per field in every format: the
//! name of the field in the JSON row (`agent_id`, `out_of_range_markers`),
//! plus `document_ids`, `chunk_ids` and `scores` for the chunk list. Tables,
//! Markdown and CSV pick from these names (`--columns`); only how a value is
//! written differs by format (a table shows `ok (partial)` and `1,2`, CSV
//! writes `ok`, `partial` and `1;2`). These names are a stable contract.

use super::{Clock, join, opt_num, verdict_label};
use crate::model::{MarkersFrom, Row};

/// Every column, in the order CSV writes them by default.
pub use crate::model::COLUMNS as NAMES;

/// The columns of a terminal table (boxed or streamed) by default.
pub const TABLE: [&str; 11] = [
    "created_at",
    "turn_id",
    "agent_id",
    "channel",
    "verdict",
    "cited_chunks",
    "marker_count",
    "out_of_range_markers",
    "malformed_markers",
    "chunk_count",
    "confidence",
];

/// The columns of a Markdown table by default.
pub const MARKDOWN: [&str; 9] = [
    "created_at",
    "turn_id",
    "agent_id",
    "verdict",
    "cited_chunks",
    "marker_count",
    "out_of_range_markers",
    "malformed_markers",
    "confidence",
];

/// Columns that hold numbers (right-aligned in terminal tables).
pub fn is_numeric(name: &str) -> bool {
    matches!(
        name,
        "marker_count"
            | "out_of_range_markers"
            | "malformed_markers"
            | "chunk_count"
            | "confidence"
            | "tool_calls"
            | "tool_errors"
            | "tokens_used"
            | "cost_cents"
            | "latency_ms"
            | "sentences"
            | "cited_sentences"
            | "coverage"
            | "quotes_exact"
            | "quotes_normalised"
            | "quotes_absent"
            | "quotes_misattributed"
            | "quotes_stitched"
            | "quotes_fabricated"
            | "offsets_mismatched"
            | "hints"
            | "unchecked"
    )
}

/// The columns to draw: those asked for, else the format's default.
pub fn pick<'a>(asked: &'a [String], default: &'a [&'static str]) -> Vec<&'a str> {
    if asked.is_empty() {
        default.to_vec()
    } else {
        asked.iter().map(String::as_str).collect()
    }
}

/// How a value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Terminal tables and Markdown: `ok (partial)`, `1,2`, `0.62`, `-`.
    Human,
    /// CSV: `ok`, `1;2`, numbers in full, empty for none.
    Csv,
}

/// One cell of a row: the raw text (escaping is the renderer's job).
pub fn cell(r: &Row<'_>, name: &str, style: Style, clock: &Clock) -> String {
    let human = style == Style::Human;
    let none = if human { "-" } else { "" };
    let list_sep = if human { "," } else { ";" };
    let opt = |x: Option<f64>| x.map_or_else(|| none.to_owned(), |x| opt_num(Some(x)));
    let chunk_list = |pick: &dyn Fn(&crate::model::Chunk<'_>) -> String| {
        r.chunks.iter().map(pick).collect::<Vec<_>>().join(";")
    };
    match name {
        "turn_id" => r.turn_id.as_str().to_owned(),
        "agent_id" => r.agent_id.to_string(),
        "conversation_id" => r
            .conversation_id
            .as_ref()
            .map_or(none, |c| c.as_str())
            .to_owned(),
        "channel" => r.channel.to_string(),
        "created_at" => clock.time(&r.created_at),
        "verdict" if human => verdict_label(r),
        "verdict" => r.verdict.as_str().to_owned(),
        "partial" => r.partial.to_string(),
        "cited_chunks" => join(&r.cited_chunks, list_sep),
        "marker_count" => r.marker_count.to_string(),
        "out_of_range_markers" => r.out_of_range_markers.to_string(),
        "malformed_markers" => r.malformed_markers.to_string(),
        "markers_from" => r
            .markers_from
            .as_ref()
            .map_or(none, MarkersFrom::as_str)
            .to_owned(),
        "chunk_count" => r.chunk_count.to_string(),
        "confidence" if human => r
            .confidence
            .map_or_else(|| "-".to_owned(), |c| format!("{c:.2}")),
        "confidence" => opt_num(r.confidence),
        "document_ids" => {
            chunk_list(&|c| c.document_id.as_ref().map_or("", |d| d.as_str()).to_owned())
        }
        "chunk_ids" => chunk_list(&|c| c.chunk_id.as_ref().map_or("", |d| d.as_str()).to_owned()),
        "scores" => chunk_list(&|c| opt_num(c.score)),
        "cited_documents" => cited_documents(r),
        "tool_calls" => r.tool_calls.to_string(),
        "tool_errors" => r.tool_errors.to_string(),
        "model" => r.model.as_deref().unwrap_or(none).to_owned(),
        "tokens_used" => r
            .tokens_used
            .map_or_else(|| none.to_owned(), |t| t.to_string()),
        "cost_cents" => opt(r.cost_cents),
        "latency_ms" => opt(r.latency_ms),
        "unobserved_reason" => r.unobserved_reason.map_or(none, |u| u.as_str()).to_owned(),
        "sentences" => r.support.sentences.to_string(),
        "cited_sentences" => r.support.cited_sentences.to_string(),
        "coverage" if human => r
            .support
            .coverage()
            .map_or_else(|| "-".to_owned(), |c| format!("{c:.2}")),
        "coverage" => opt_num(r.support.coverage()),
        "quotes_exact" => r.support.quotes_exact.to_string(),
        "quotes_normalised" => r.support.quotes_normalised.to_string(),
        "quotes_absent" => r.support.quotes_absent.to_string(),
        "quotes_misattributed" => r.support.quotes_misattributed.to_string(),
        "quotes_stitched" => r.support.quotes_stitched.to_string(),
        "quotes_fabricated" => r.support.quotes_fabricated.to_string(),
        "offsets_mismatched" => r.support.offsets_mismatched.to_string(),
        "hints" => r.support.hints.to_string(),
        "unchecked" => r.support.unchecked.to_string(),
        "evidence" => r.evidence.as_str().to_owned(),
        _ => String::new(),
    }
}

/// The documents the reply cites, in `cited_chunks` order, each by its
/// document id, else its chunk id, else its index (`#2`), joined with `;`,
/// into `out` (cleared first).
pub fn cited_documents_into(r: &Row<'_>, out: &mut String) {
    out.clear();
    for (n, &i) in r.cited_chunks.iter().enumerate() {
        if n > 0 {
            out.push(';');
        }
        let c = (i as usize).checked_sub(1).and_then(|at| r.chunks.get(at));
        match c.and_then(|c| c.document_id.as_ref().or(c.chunk_id.as_ref())) {
            Some(id) => out.push_str(id.as_str()),
            None => {
                out.push('#');
                out.push_str(&i.to_string());
            }
        }
    }
}

fn cited_documents(r: &Row<'_>) -> String {
    let mut out = String::new();
    cited_documents_into(r, &mut out);
    out
}

/// True for columns whose values come from the log as written (ids,
/// names): CSV neutralises formulas in these, never in numbers.
pub fn is_text(name: &str) -> bool {
    matches!(
        name,
        "turn_id"
            | "agent_id"
            | "conversation_id"
            | "channel"
            | "document_ids"
            | "chunk_ids"
            | "cited_documents"
            | "model"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_column_is_a_known_name() {
        for n in TABLE.iter().chain(&MARKDOWN) {
            assert!(NAMES.contains(n), "{n}");
        }
    }
}

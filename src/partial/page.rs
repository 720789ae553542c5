//! The page heap's state in a partial (`report`): whole rows with their
//! input positions.

use super::{time_doc, time_of};
use crate::accumulate::PageHeap;
use crate::model::{Chunk, Id, MarkersFrom, Row, Unobserved, Verdict};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// An id as `[text, numeric]`.
type IdDoc = (String, bool);

fn id_doc(i: &Id<'_>) -> IdDoc {
    (i.as_str().to_owned(), i.numeric)
}

fn id_of(d: &IdDoc) -> Id<'static> {
    Id {
        text: Cow::Owned(d.0.clone()),
        numeric: d.1,
    }
}

/// One retrieved chunk of a page row.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChunkDoc {
    pub index: u32,
    pub document_id: Option<IdDoc>,
    pub chunk_id: Option<IdDoc>,
    pub score: Option<f64>,
}

/// One whole row of a report page, exactly as graded, with its input position.
#[derive(Debug, Serialize, Deserialize)]
pub struct RowDoc {
    pub turn_id: IdDoc,
    pub agent_id: String,
    pub conversation_id: Option<IdDoc>,
    pub channel: String,
    /// Seconds and nanoseconds since 1970-01-01 UTC.
    pub created_at: (i64, u32),
    pub verdict: Verdict,
    pub partial: bool,
    pub cited_chunks: Vec<u32>,
    pub marker_count: u32,
    pub out_of_range_markers: u32,
    pub malformed_markers: u32,
    pub markers_from: Option<MarkersFrom>,
    pub chunk_count: u32,
    pub confidence: Option<f64>,
    pub chunks: Vec<ChunkDoc>,
    pub tool_calls: u32,
    pub tool_errors: u32,
    pub model: Option<String>,
    pub tokens_used: Option<u64>,
    pub cost_cents: Option<f64>,
    pub latency_ms: Option<f64>,
    pub unobserved_reason: Option<Unobserved>,
    /// (block, line) within the partial's own input.
    pub pos: (u64, u64),
}

impl RowDoc {
    fn of(r: &Row<'_>, pos: crate::pipeline::Pos) -> Self {
        RowDoc {
            turn_id: id_doc(&r.turn_id),
            agent_id: r.agent_id.to_string(),
            conversation_id: r.conversation_id.as_ref().map(id_doc),
            channel: r.channel.to_string(),
            created_at: time_doc(&r.created_at),
            verdict: r.verdict,
            partial: r.partial,
            cited_chunks: r.cited_chunks.clone(),
            marker_count: r.marker_count,
            out_of_range_markers: r.out_of_range_markers,
            malformed_markers: r.malformed_markers,
            markers_from: r.markers_from,
            chunk_count: r.chunk_count,
            confidence: r.confidence,
            chunks: r
                .chunks
                .iter()
                .map(|c| ChunkDoc {
                    index: c.index,
                    document_id: c.document_id.as_ref().map(id_doc),
                    chunk_id: c.chunk_id.as_ref().map(id_doc),
                    score: c.score,
                })
                .collect(),
            tool_calls: r.tool_calls,
            tool_errors: r.tool_errors,
            model: r.model.as_ref().map(|m| m.to_string()),
            tokens_used: r.tokens_used,
            cost_cents: r.cost_cents,
            latency_ms: r.latency_ms,
            unobserved_reason: r.unobserved_reason,
            pos,
        }
    }

    fn row(&self) -> Result<Row<'static>> {
        Ok(Row {
            turn_id: id_of(&self.turn_id),
            agent_id: Cow::Owned(self.agent_id.clone()),
            conversation_id: self.conversation_id.as_ref().map(id_of),
            channel: Cow::Owned(self.channel.clone()),
            created_at: time_of(self.created_at)?,
            verdict: self.verdict,
            partial: self.partial,
            cited_chunks: self.cited_chunks.clone(),
            marker_count: self.marker_count,
            out_of_range_markers: self.out_of_range_markers,
            malformed_markers: self.malformed_markers,
            markers_from: self.markers_from,
            chunk_count: self.chunk_count,
            confidence: self.confidence,
            chunks: self
                .chunks
                .iter()
                .map(|c| Chunk {
                    index: c.index,
                    document_id: c.document_id.as_ref().map(id_of),
                    chunk_id: c.chunk_id.as_ref().map(id_of),
                    score: c.score,
                })
                .collect(),
            tool_calls: self.tool_calls,
            tool_errors: self.tool_errors,
            model: self.model.clone().map(Cow::Owned),
            tokens_used: self.tokens_used,
            cost_cents: self.cost_cents,
            latency_ms: self.latency_ms,
            unobserved_reason: self.unobserved_reason,
            invented_marker: None,
        })
    }
}

/// The state of a report page: the heap's rows, newest first, and its counts.
#[derive(Debug, Serialize, Deserialize)]
pub struct PageState {
    pub rows: Vec<RowDoc>,
    /// Rows that matched, on every page.
    pub matching: u64,
    /// Of those, the rows `--cursor` passed over.
    pub newer: u64,
}

impl PageState {
    /// The state of a filled page heap.
    pub fn of(h: &PageHeap) -> Self {
        PageState {
            rows: h.entries().iter().map(|(r, p)| RowDoc::of(r, *p)).collect(),
            matching: h.matching,
            newer: h.newer,
        }
    }

    pub(super) fn heap(&self, cap: usize, offset: u64) -> Result<PageHeap> {
        let rows = self
            .rows
            .iter()
            .map(|d| Ok((d.row()?, (d.pos.0 + offset, d.pos.1))))
            .collect::<Result<Vec<_>>>()?;
        Ok(PageHeap::from_parts(
            cap,
            None,
            rows,
            self.matching,
            self.newer,
        ))
    }
}

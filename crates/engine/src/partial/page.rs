//! The page heap's state in a partial (`report`): whole rows with their
//! input positions.

use super::RowAt;
use crate::accumulate::PageHeap;
use anyhow::Result;
use serde::{Deserialize, Serialize};

/// The state of a report page: the heap's rows, newest first, and its counts.
#[derive(Debug, Serialize, Deserialize)]
pub struct PageState {
    pub rows: Vec<RowAt>,
    /// Rows that matched, on every page.
    pub matching: u64,
    /// Of those, the rows `--cursor` passed over.
    pub newer: u64,
}

impl PageState {
    /// The state of a filled page heap.
    pub fn of(h: &PageHeap) -> Self {
        PageState {
            rows: h
                .entries()
                .iter()
                .map(|(r, p)| RowAt {
                    row: r.clone(),
                    pos: *p,
                })
                .collect(),
            matching: h.matching,
            newer: h.newer,
        }
    }

    pub(super) fn heap(&self, cap: usize, offset: u64) -> Result<PageHeap> {
        let rows = self
            .rows
            .iter()
            .map(|d| (d.row.clone(), (d.pos.0 + offset, d.pos.1)))
            .collect();
        Ok(PageHeap::from_parts(
            cap,
            None,
            rows,
            self.matching,
            self.newer,
        ))
    }
}

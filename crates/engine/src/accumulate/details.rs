//! Turns in full, for the commands that show more than a row (`explain`,
//! `evidence`, `convert`): each graded row with its [`Detail`], in input
//! order, optionally only the first few.

use crate::model::Row;
use crate::pipeline::{Accumulator, Detail, Graded};
use std::sync::Arc;

/// One turn in full.
#[derive(Debug, Clone)]
pub struct Collected {
    pub row: Row<'static>,
    pub detail: Arc<Detail>,
    /// The turn's line in its source (absolute once the merger relocated it).
    pub line: u64,
}

/// Collected turns, in input order.
#[derive(Debug, Default)]
pub struct Details {
    pub items: Vec<Collected>,
    /// Keep at most this many.
    pub limit: Option<usize>,
}

impl Details {
    /// Keeps at most `limit` turns (None: all).
    pub fn new(limit: Option<usize>) -> Self {
        Details {
            items: Vec::new(),
            limit,
        }
    }

    fn room(&self) -> bool {
        self.limit.is_none_or(|l| self.items.len() < l)
    }
}

impl Accumulator for Details {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            if !self.room() {
                return;
            }
            if let Some(d) = &g.detail {
                self.items.push(Collected {
                    row: g.row.clone().into_owned(),
                    line: d.line,
                    detail: d.clone(),
                });
            }
        }
    }

    fn merge(&mut self, later: Self) {
        for c in later.items {
            if !self.room() {
                return;
            }
            self.items.push(c);
        }
    }

    fn relocate(&mut self, _source: usize, offset: u64) {
        for c in &mut self.items {
            c.line += offset;
        }
    }
}

//! Mergeable accumulators shared by the subcommands: the rollup (verdict
//! counts and grounded rate) and the page heap that selects one page of
//! rows newest first in memory bounded by the page size.

use crate::model::{Row, Verdict};
use crate::pipeline::{Accumulator, Graded, Pos};
use chrono::{DateTime, Utc};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// Verdict counts of a set of turns, and what follows from them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rollup {
    pub turns: u64,
    pub with_retrieval: u64,
    pub verdicts: [u64; 5],
}

impl Rollup {
    /// Counts one row.
    pub fn add(&mut self, r: &Row<'_>) {
        self.turns += 1;
        self.with_retrieval += r.with_retrieval() as u64;
        self.verdicts[r.verdict.slot()] += 1;
    }
    /// Adds another rollup's counts.
    pub fn merge(&mut self, o: &Rollup) {
        self.turns += o.turns;
        self.with_retrieval += o.with_retrieval;
        for (a, b) in self.verdicts.iter_mut().zip(o.verdicts) {
            *a += b;
        }
    }
    /// Turns graded `ok`.
    pub fn grounded(&self) -> u64 {
        self.verdicts[Verdict::Ok.slot()]
    }
    /// Turns with retrieval that were not grounded.
    pub fn ungrounded(&self) -> u64 {
        self.with_retrieval - self.grounded()
    }
    /// The count for one verdict.
    pub fn count(&self, v: Verdict) -> u64 {
        self.verdicts[v.slot()]
    }
    /// grounded / with_retrieval; None when nothing had retrieval.
    pub fn grounded_rate(&self) -> Option<f64> {
        (self.with_retrieval > 0).then(|| self.grounded() as f64 / self.with_retrieval as f64)
    }
}

impl Serialize for Rollup {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Counts<'a>(&'a [u64; 5]);
        impl Serialize for Counts<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(5))?;
                for v in Verdict::ALL {
                    m.serialize_entry(v.as_str(), &self.0[v.slot()])?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(Some(6))?;
        m.serialize_entry("turns", &self.turns)?;
        m.serialize_entry("with_retrieval", &self.with_retrieval)?;
        m.serialize_entry("grounded", &self.grounded())?;
        m.serialize_entry("ungrounded", &self.ungrounded())?;
        m.serialize_entry("grounded_rate", &self.grounded_rate())?;
        m.serialize_entry("verdicts", &Counts(&self.verdicts))?;
        m.end()
    }
}

impl Accumulator for Rollup {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            self.add(&g.row);
        }
    }
    fn merge(&mut self, later: Self) {
        Rollup::merge(self, &later);
    }
}

/// The order of rows in a report: newest first, then turn id descending,
/// then later input first.
fn key_of<'g>(g: &'g Graded<'_>) -> (DateTime<Utc>, &'g str, Pos) {
    (g.row.created_at, g.row.turn_id.as_str(), g.pos)
}

/// A position in the report order, for cursors: rows strictly after it
/// (older) belong to the next page. The input position breaks ties between
/// repeated turns kept by `--no-dedupe`, so no row falls between two pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct After {
    pub created_at: DateTime<Utc>,
    pub turn_id: String,
    pub pos: Pos,
}

/// Selects the `cap` newest rows older than an optional cursor.
#[derive(Debug, Clone)]
pub struct PageHeap {
    cap: usize,
    after: Option<After>,
    /// Kept sorted newest first; never longer than `cap`.
    rows: Vec<(Row<'static>, Pos)>,
    /// Rows offered that `keep` accepted, on every page.
    pub matching: u64,
    /// Of those, the rows the cursor passed over (newer: on earlier pages).
    pub newer: u64,
}

impl PageHeap {
    /// A heap keeping `cap` rows.
    pub fn new(cap: usize, after: Option<After>) -> Self {
        PageHeap {
            cap,
            after,
            rows: Vec::new(),
            matching: 0,
            newer: 0,
        }
    }

    fn admits(&self, g: &Graded<'_>) -> bool {
        match &self.after {
            None => true,
            Some(a) => key_of(g) < (a.created_at, a.turn_id.as_str(), a.pos),
        }
    }

    /// The rows, newest first.
    pub fn into_rows(self) -> Vec<Row<'static>> {
        self.rows.into_iter().map(|(r, _)| r).collect()
    }

    /// The rows with their input positions, newest first.
    pub fn into_entries(self) -> Vec<(Row<'static>, Pos)> {
        self.rows
    }

    fn insert_sorted(&mut self, mut more: Vec<(Row<'static>, Pos)>) {
        self.rows.append(&mut more);
        self.rows.sort_by(|a, b| {
            (b.0.created_at, b.0.turn_id.as_str(), b.1).cmp(&(
                a.0.created_at,
                a.0.turn_id.as_str(),
                a.1,
            ))
        });
        self.rows.truncate(self.cap);
    }
}

impl PageHeap {
    /// Offers the rows that satisfy `keep` (the triage list takes only ungrounded ones).
    pub fn add_where(&mut self, rows: &[Graded<'_>], keep: impl Fn(&Row<'_>) -> bool) {
        if self.cap == 0 {
            return;
        }
        // Pick the block's best `cap` by key first, so only they are copied.
        let mut idx: Vec<usize> = (0..rows.len()).filter(|&i| keep(&rows[i].row)).collect();
        self.matching += idx.len() as u64;
        let before = idx.len();
        idx.retain(|&i| self.admits(&rows[i]));
        self.newer += (before - idx.len()) as u64;
        let by_key = |a: &usize, b: &usize| key_of(&rows[*b]).cmp(&key_of(&rows[*a]));
        if idx.len() > self.cap {
            idx.select_nth_unstable_by(self.cap - 1, by_key);
            idx.truncate(self.cap);
        }
        if let (Some(worst), true) = (self.rows.last(), self.rows.len() == self.cap) {
            let worst = (worst.0.created_at, worst.0.turn_id.as_str(), worst.1);
            idx.retain(|&i| key_of(&rows[i]) > worst);
        }
        let more = idx
            .into_iter()
            .map(|i| (rows[i].row.clone().into_owned(), rows[i].pos))
            .collect();
        self.insert_sorted(more);
    }
}

impl Accumulator for PageHeap {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.add_where(rows, |_| true);
    }
    fn merge(&mut self, later: Self) {
        self.matching += later.matching;
        self.newer += later.newer;
        self.insert_sorted(later.rows);
    }
}

pub mod details;
pub mod summary;

/// Rollups keyed by a grouping value (agent, channel, model), for `check --per-agent`.
#[derive(Debug, Clone, Default)]
pub struct Grouped {
    pub overall: Rollup,
    pub groups: std::collections::BTreeMap<String, Rollup>,
}

impl Accumulator for Grouped {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            self.overall.add(&g.row);
            match self.groups.get_mut(&*g.row.agent_id) {
                Some(r) => r.add(&g.row),
                None => {
                    let mut r = Rollup::default();
                    r.add(&g.row);
                    self.groups.insert(g.row.agent_id.to_string(), r);
                }
            }
        }
    }
    fn merge(&mut self, later: Self) {
        self.overall.merge(&later.overall);
        for (k, v) in later.groups {
            self.groups.entry(k).or_default().merge(&v);
        }
    }
}

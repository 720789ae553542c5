//! Grouping records into turns: the one mechanism every record dialect
//! (agentfootprint runs, spans of a trace) shares. Records arrive in input
//! order from any number of lines and files; each joins the group of its
//! dialect family and group id. A record whose key was seen before is a
//! duplicate.
//!
//! Memory is bounded by the groups still open. A group that is complete as
//! far as its dialect can tell (its root span, its `turn_end` arrived)
//! closes once [`SHORT_WINDOW`] further records have been read without one
//! of its own; any group closes after `window` such records (a collector
//! batches a trace's spans close together, exporting the root last; a
//! capture writes a run's events close together). A record that arrives for
//! a group already closed is late: the caller reports it rather than
//! starting a second turn.

use super::{Dialect, Record};
use crate::keyset::KeySet;
use std::collections::{HashMap, VecDeque};

/// The records of one turn, in input order.
pub struct Group {
    /// The dialect of the group's first record; it assembles the group.
    pub dialect: &'static dyn Dialect,
    /// The group id (run id, trace id).
    pub id: String,
    pub records: Vec<Record>,
    /// Where the first record was read: source index and absolute line.
    pub source: usize,
    pub line: u64,
    /// The first record's position in the input, for ordering.
    pub pos: (u64, u64),
    /// The record count when this group last received a record.
    last: u64,
    /// A record completed the group (see [`Record::completes`]).
    complete: bool,
}

/// How a record was counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// The first record of its group: the group's turn is counted here.
    Turn,
    /// A later record of a known group.
    Skipped,
    /// A repeat of a record already read (same key).
    Duplicate,
    /// A note that is not an input record.
    Uncounted,
    /// A record of a group that was already closed and assembled.
    Late,
}

/// Records read without a record of a group before the group closes, by default.
pub const DEFAULT_WINDOW: u64 = 50_000;
/// The same for a group that is complete as far as its dialect can tell.
pub const SHORT_WINDOW: u64 = 2_000;

/// A group's family and id hashed ([`group_key`]): a record costs no id
/// copy in the bookkeeping, and the map needs no second hash.
type Key = u128;

/// Hashes a `u128` key that is already a uniform hash: its low 64 bits.
#[derive(Default)]
struct PassThrough(u64);

impl std::hash::Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u128` keys are hashed here; any other input still hashes.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, k: u128) {
        self.0 = k as u64;
    }
}

type Open = HashMap<Key, Group, std::hash::BuildHasherDefault<PassThrough>>;

/// Open groups, keyed by family and id.
pub struct Assembly {
    open: Open,
    /// (record count at the time, group) for every record added, oldest
    /// first; an entry is stale when the group received a record since.
    touched: VecDeque<(u64, Key)>,
    /// Incomplete groups idle for the short window, waiting for the long one.
    waiting: VecDeque<(u64, Key)>,
    /// Hashes of closed groups, so a late record is recognised.
    closed: KeySet,
    keys: KeySet,
    dedupe: bool,
    window: u64,
    count: u64,
}

impl Default for Assembly {
    fn default() -> Self {
        Assembly::new(true, DEFAULT_WINDOW)
    }
}

/// One-shot: the family picks the seed (the streaming hasher copied every
/// id into its buffer, per record).
fn group_key(family: &str, id: &str) -> u128 {
    let seed = xxhash_rust::xxh3::xxh3_64(family.as_bytes());
    xxhash_rust::xxh3::xxh3_128_with_seed(id.as_bytes(), seed)
}

impl Assembly {
    /// An empty assembly; `dedupe` drops records whose key was seen; a
    /// group closes after `window` records without one of its own.
    pub fn new(dedupe: bool, window: u64) -> Self {
        Assembly {
            open: Open::default(),
            touched: VecDeque::new(),
            waiting: VecDeque::new(),
            closed: KeySet::new(),
            keys: KeySet::new(),
            dedupe,
            window: window.max(1),
            count: 0,
        }
    }

    /// True when no group is open.
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// Groups open now.
    pub fn open_groups(&self) -> usize {
        self.open.len()
    }

    /// Adds one record read at `source:line` (position `pos`).
    pub fn add(
        &mut self,
        dialect: &'static dyn Dialect,
        mut record: Record,
        source: usize,
        line: u64,
        pos: (u64, u64),
    ) -> Fate {
        if record.counted
            && self.dedupe
            && let Some(k) = record.key
            && !self.keys.insert(k)
        {
            return Fate::Duplicate;
        }
        let key = group_key(dialect.family(), &record.group);
        if !record.counted {
            // A note joins its group if open; alone it is dropped.
            if let Some(g) = self.open.get_mut(&key) {
                g.records.push(record);
            }
            return Fate::Uncounted;
        }
        self.count += 1;
        let now = self.count;
        let fate = match self.open.get_mut(&key) {
            Some(g) => {
                g.complete |= record.completes;
                g.records.push(record);
                g.last = now;
                Fate::Skipped
            }
            None if !self.closed.is_empty() && self.closed.contains(key) => {
                return Fate::Late;
            }
            None => {
                self.open.insert(
                    key,
                    Group {
                        complete: record.completes,
                        dialect,
                        id: std::mem::take(&mut record.group),
                        records: vec![record],
                        source,
                        line,
                        pos,
                        last: now,
                    },
                );
                Fate::Turn
            }
        };
        self.touched.push_back((now, key));
        fate
    }

    /// Closes every complete group that received no record in the last
    /// [`SHORT_WINDOW`] records, and every group idle for `window` records,
    /// in order of each group's first record.
    pub fn close_idle(&mut self) -> Vec<Group> {
        let short = SHORT_WINDOW.min(self.window);
        let mut out = Vec::new();
        while let Some((at, _)) = self.touched.front() {
            if at + short > self.count {
                break;
            }
            let (at, key) = self.touched.pop_front().expect("front exists");
            match self.open.get(&key) {
                Some(g) if g.last == at && (g.complete || short >= self.window) => {
                    out.push(self.close(key));
                }
                Some(g) if g.last == at => self.waiting.push_back((at, key)),
                _ => {}
            }
        }
        while let Some((at, _)) = self.waiting.front() {
            if at + self.window > self.count {
                break;
            }
            let (at, key) = self.waiting.pop_front().expect("front exists");
            if self.open.get(&key).is_some_and(|g| g.last == at) {
                out.push(self.close(key));
            }
        }
        out.sort_by_key(|g| g.pos);
        out
    }

    fn close(&mut self, key: Key) -> Group {
        let g = self.open.remove(&key).expect("group is open");
        self.closed.insert(key);
        g
    }

    /// Every open group, in order of its first record.
    pub fn finish(self) -> Vec<Group> {
        let mut out: Vec<Group> = self.open.into_values().collect();
        out.sort_by_key(|g| g.pos);
        out
    }
}

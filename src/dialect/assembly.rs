//! Grouping records into turns: the one mechanism every record dialect
//! (agentfootprint runs, spans of a trace) shares. Records arrive in input
//! order from any number of lines and files; each joins the group of its
//! dialect family and group id. A record whose key was seen before is a
//! duplicate. Groups are handed back in order of their first record.

use super::{Dialect, Record};
use std::collections::{HashMap, HashSet};

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
}

/// Open groups, keyed by family and id.
#[derive(Default)]
pub struct Assembly {
    index: HashMap<(&'static str, String), usize>,
    groups: Vec<Group>,
    keys: HashSet<u128>,
    dedupe: bool,
}

impl Assembly {
    /// An empty assembly; `dedupe` drops records whose key was seen.
    pub fn new(dedupe: bool) -> Self {
        Assembly {
            dedupe,
            ..Assembly::default()
        }
    }

    /// True when no record was added.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Adds one record read at `source:line` (position `pos`).
    pub fn add(
        &mut self,
        dialect: &'static dyn Dialect,
        record: Record,
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
        let key = (dialect.family(), record.group.clone());
        match self.index.get(&key) {
            Some(&i) => {
                let counted = record.counted;
                self.groups[i].records.push(record);
                if counted {
                    Fate::Skipped
                } else {
                    Fate::Uncounted
                }
            }
            // A note about a group that has no records is dropped.
            None if !record.counted => Fate::Uncounted,
            None => {
                self.index.insert(key, self.groups.len());
                self.groups.push(Group {
                    dialect,
                    id: record.group.clone(),
                    records: vec![record],
                    source,
                    line,
                    pos,
                });
                Fate::Turn
            }
        }
    }

    /// Every group, in order of its first record.
    pub fn finish(self) -> Vec<Group> {
        self.groups
    }
}

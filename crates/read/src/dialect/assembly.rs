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
//! a group closed within the last [`remembered`] records is late: the
//! caller reports it rather than starting a second turn. Closed groups are
//! remembered in two generations, each holding the groups closed over that
//! many records; the older is dropped when the newer is full, so what they
//! hold is bounded by the records of a window, not by the input. A record
//! later still starts a group of its own, which is assembled as any group
//! (without its root, it is emitted as such; see the pipeline's merge).
//!
//! De-duplication of records costs memory by turn more than by record: an
//! open group keeps the keys of its own records (a record key names its
//! group), and a closed group keeps 32-bit fingerprints of them, enough to
//! tell a repeat of one of its records (a duplicate) from a new one (late)
//! among a group's own records.

use super::{Dialect, Link, Record, RecordKey, ShortId};
use crate::keyset::{KeyMap, KeySet};
use std::collections::{HashMap, VecDeque};

/// The records of one turn, in input order.
pub struct Group {
    /// The dialect of the group's first record; it assembles the group.
    pub dialect: &'static dyn Dialect,
    /// The group id (run id, trace id).
    pub id: ShortId,
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
    /// The keys of its records, when de-duplicating.
    keys: RecordKeys,
    /// The runs its records name ([`Link::Names`]), as [`link_key`]s.
    names: Vec<u128>,
    /// True for the records of a run that no record has named yet
    /// ([`Link::Seeks`]): never a turn; when it closes unnamed, its records
    /// are invalid (they belong to a turn the input never opened).
    pub unlinked: bool,
}

/// The record keys of one group: a list while short, with a hash index
/// once it is long (a run of thousands of events).
#[derive(Default)]
struct RecordKeys {
    list: Vec<u128>,
    index: Option<std::collections::HashSet<u128, std::hash::BuildHasherDefault<PassThrough>>>,
}

/// Keys a group holds before it indexes them: a run's few dozen events are
/// compared in the list (building the index cost more than the compares).
const LIST_KEYS: usize = 64;

/// Where a closed group's record fingerprints are: `len` of them from
/// `start` in chunk `chunk`, packed into a `u64` (20 + 22 + 22 bits): a
/// group with more than a chunk's worth has a chunk of its own, written
/// with `start` [`WHOLE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Prints {
    chunk: u64,
    start: u64,
    len: u64,
}

/// The `start` of a group that has its chunk to itself.
const WHOLE: u64 = (1 << 22) - 1;

impl Prints {
    fn pack(self) -> u64 {
        assert!(
            self.chunk < 1 << 20,
            "more than 2^20 chunks of fingerprints"
        );
        (self.chunk << 44) | (self.start << 22) | self.len
    }

    fn unpack(v: u64) -> Prints {
        Prints {
            chunk: v >> 44,
            start: (v >> 22) & WHOLE,
            len: v & WHOLE,
        }
    }

    /// The fingerprints, in `chunks`.
    fn of(self, chunks: &[Vec<u32>]) -> &[u32] {
        let c = &chunks[self.chunk as usize];
        if self.start == WHOLE {
            c
        } else {
            &c[self.start as usize..][..self.len as usize]
        }
    }
}

/// Fingerprints a chunk holds (256 KiB), unless one group has more: a
/// generation of closed groups holds a few windows of records at most.
const PRINT_CHUNK: usize = 1 << 16;

/// A record key's fingerprint within its group: record keys are uniform
/// hashes, so two records of one group share one with odds of about 2^-32
/// (a late record would then count as a duplicate).
fn fingerprint(k: u128) -> u32 {
    k as u32
}

impl RecordKeys {
    fn contains(&self, k: u128) -> bool {
        match &self.index {
            Some(index) => index.contains(&k),
            None => self.list.contains(&k),
        }
    }

    /// Adds `k`; false when it was there.
    fn insert(&mut self, k: u128) -> bool {
        if self.contains(k) {
            return false;
        }
        self.list.push(k);
        if let Some(index) = &mut self.index {
            index.insert(k);
        } else if self.list.len() > LIST_KEYS {
            self.index = Some(self.list.iter().copied().collect());
        }
        true
    }
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
    /// A record of a group that was already closed and assembled (within
    /// the last [`remembered`] records), with the rule that closed it.
    Late(Closing),
}

/// The rule that closed a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closing {
    /// Complete as far as its dialect could tell (its root, its
    /// `turn_end`), then [`SHORT_WINDOW`] records without one of its own.
    Complete,
    /// The window (`--assembly-window`) passed without one of its records.
    Window,
}

/// Records read without a record of a group before the group closes, by default.
pub const DEFAULT_WINDOW: u64 = 50_000;
/// The same for a group that is complete as far as its dialect can tell.
pub const SHORT_WINDOW: u64 = 2_000;

/// A group's family and id hashed ([`family_seed`]): a record costs no id
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

/// Open groups, each boxed: a slot of the map is then 24 bytes, not a whole
/// group, so the map's growth (old and new table alive at once) costs little
/// even with tens of thousands of traces open (Langfuse's, which wait the
/// whole window).
type Open = HashMap<Key, Box<Group>, std::hash::BuildHasherDefault<PassThrough>>;

/// Groups closed over one stretch of records: each with where its records'
/// fingerprints are ([`Prints`]), so a late record is recognised.
#[derive(Default)]
struct Closed {
    groups: KeyMap,
    /// Fingerprints of the groups' records, in chunks.
    prints: Vec<Vec<u32>>,
    /// Keys of late records of these groups, so a repeat of one is a duplicate.
    late: KeySet,
    /// The runs the groups' records named ([`link_key`] → group key), so a
    /// late record that seeks one is late for that group.
    names: HashMap<u128, Key, std::hash::BuildHasherDefault<PassThrough>>,
    /// The groups closed as complete (the others closed by the window).
    complete: KeySet,
}

impl Closed {
    /// The generation that remembers the closed group `key`, with where
    /// its fingerprints are.
    fn find<'a>(
        recent: &'a mut Closed,
        older: &'a mut Closed,
        key: Key,
    ) -> Option<(&'a mut Closed, u64)> {
        if let Some(p) = recent.groups.get(key) {
            return Some((recent, p));
        }
        let p = older.groups.get(key)?;
        Some((older, p))
    }

    /// The closed group that named the run `link`, in either generation.
    fn named(recent: &Closed, older: &Closed, link: u128) -> Option<Key> {
        recent
            .names
            .get(&link)
            .or_else(|| older.names.get(&link))
            .copied()
    }
}

/// Records over which a closed group is remembered, at least: the window,
/// and no fewer than [`DEFAULT_WINDOW`] (a small window does not shorten it).
pub fn remembered(window: u64) -> u64 {
    window.max(DEFAULT_WINDOW)
}

/// Open groups, keyed by family and id.
pub struct Assembly {
    open: Open,
    /// (record count at the time, group) for every record added (one entry
    /// for a group's consecutive records), oldest first; an entry is stale
    /// when the group received a record since.
    touched: VecDeque<(u64, Key)>,
    /// Incomplete groups idle for the short window, waiting for the long one.
    waiting: VecDeque<(u64, Key)>,
    /// The runs named by records of open groups ([`link_key`] → group key).
    names: HashMap<u128, Key, std::hash::BuildHasherDefault<PassThrough>>,
    /// Groups closed since record count `since`, and those closed over the
    /// stretch before it.
    recent: Closed,
    older: Closed,
    since: u64,
    dedupe: bool,
    window: u64,
    count: u64,
    /// The last family seen and its seed ([`family_seed`]).
    seed: Option<(super::Family, u64)>,
    /// The records of the last group closed (4 to [`LIST_KEYS`]): what a new
    /// group's lists are sized for, so a run's dozens of events are not
    /// copied at every doubling.
    typical: usize,
}

impl Default for Assembly {
    fn default() -> Self {
        Assembly::new(true, DEFAULT_WINDOW)
    }
}

/// A group's key: its id hashed with its family's seed ([`family_seed`]).
fn group_key(seed: u64, id: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128_with_seed(id, seed)
}

/// The key of a run id that records name and seek ([`Link`]): hashed with
/// a seed of its own, so a group of records that seek a run never shares a
/// key with a group of the same id.
pub fn link_key(run: &[u8]) -> u128 {
    const LINK_SEED: u64 = 0x6c69_6e6b_6564_7275;
    xxhash_rust::xxh3::xxh3_128_with_seed(run, LINK_SEED)
}

/// The seed a group's id is hashed with, one-shot: the family picks it (the
/// streaming hasher copied every id into its buffer, per record).
fn family_seed(family: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(family.as_bytes())
}

impl Assembly {
    /// An empty assembly; `dedupe` drops records whose key was seen; a
    /// group closes after `window` records without one of its own.
    pub fn new(dedupe: bool, window: u64) -> Self {
        Assembly {
            open: Open::default(),
            touched: VecDeque::new(),
            waiting: VecDeque::new(),
            names: HashMap::default(),
            recent: Closed::default(),
            older: Closed::default(),
            since: 0,
            dedupe,
            window: window.max(1),
            count: 0,
            seed: None,
            typical: 4,
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
        // The family's seed, kept while one family's records come.
        let family = dialect.family();
        let seed = match self.seed {
            Some((f, seed)) if f == family => seed,
            _ => self.seed.insert((family, family_seed(family.name()))).1,
        };
        let seeks = record.link == Link::Seeks;
        let names = match record.link {
            Link::Names(k) => Some(k.get()),
            _ => None,
        };
        let key = if seeks {
            self.sought(record.group.as_bytes())
        } else {
            group_key(seed, record.group.as_bytes())
        };
        if !record.counted {
            // A note joins its group if open; alone it is dropped.
            if let Some(g) = self.open.get_mut(&key) {
                g.records.push(record);
            }
            return Fate::Uncounted;
        }
        let record_key = record.key.filter(|_| self.dedupe).map(RecordKey::get);
        let fate = match self.open.get_mut(&key) {
            Some(g) => {
                if let Some(k) = record_key
                    && !g.keys.insert(k)
                {
                    return Fate::Duplicate;
                }
                self.count += 1;
                // A record that seeks its run completes the group only as
                // the group's root.
                g.complete |= record.completes
                    && (!seeks || (!g.unlinked && g.id.as_bytes() == record.group.as_bytes()));
                g.records.push(record);
                g.last = self.count;
                Fate::Skipped
            }
            None if let Some((c, p)) = Closed::find(&mut self.recent, &mut self.older, key) => {
                let rule = if c.complete.contains(key) {
                    Closing::Complete
                } else {
                    Closing::Window
                };
                let Some(k) = record_key else {
                    self.count += 1;
                    return Fate::Late(rule);
                };
                let seen = Prints::unpack(p).of(&c.prints).contains(&fingerprint(k));
                if seen || !c.late.insert(k) {
                    return Fate::Duplicate;
                }
                self.count += 1;
                return Fate::Late(rule);
            }
            None => {
                let mut keys = RecordKeys::default();
                if let Some(k) = record_key {
                    keys.list.reserve(self.typical);
                    keys.insert(k);
                }
                self.count += 1;
                self.open.insert(
                    key,
                    Box::new(Group {
                        complete: record.completes && !seeks,
                        dialect,
                        id: std::mem::take(&mut record.group),
                        records: {
                            // As many as the last group closed had: a trace
                            // has a few spans, a run dozens of events.
                            let mut r = Vec::with_capacity(self.typical);
                            r.push(record);
                            r
                        },
                        source,
                        line,
                        pos,
                        last: self.count,
                        keys,
                        names: Vec::new(),
                        unlinked: seeks,
                    }),
                );
                // Records that seek a run start no turn: they join one.
                if seeks { Fate::Skipped } else { Fate::Turn }
            }
        };
        if let Some(run) = names {
            self.name(key, run);
        }
        let now = self.count;
        // A group's records mostly arrive together: its last entry is
        // moved on rather than another added (an older one is stale anyway).
        match self.touched.back_mut() {
            Some(back) if back.1 == key => back.0 = now,
            _ => self.touched.push_back((now, key)),
        }
        fate
    }

    /// The key of the group a record that seeks `run` joins: the open or
    /// closed group whose records named the run, else the run's own
    /// unlinked group.
    fn sought(&self, run: &[u8]) -> Key {
        let link = link_key(run);
        self.names
            .get(&link)
            .copied()
            .or_else(|| Closed::named(&self.recent, &self.older, link))
            .unwrap_or(link)
    }

    /// Notes that the open group `key` names the run `run`: records that
    /// seek it join the group from now on, and those held unlinked join it
    /// now (after the group's own, as if read after them). A run named
    /// twice keeps the group that named it first.
    fn name(&mut self, key: Key, run: u128) {
        if self.names.contains_key(&run) {
            return;
        }
        self.names.insert(run, key);
        let held = match self.open.remove(&run) {
            Some(p) if p.unlinked => Some(p),
            Some(other) => {
                self.open.insert(run, other);
                None
            }
            None => None,
        };
        let g = self.open.get_mut(&key).expect("the naming group is open");
        g.names.push(run);
        if let Some(p) = held {
            let root = g.id.as_bytes() == p.id.as_bytes();
            for r in p.records {
                g.complete |= root && r.completes;
                g.records.push(r);
            }
            for k in p.keys.list {
                g.keys.insert(k);
            }
        }
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
                    // When the window is the shorter, it is the rule.
                    let rule = if g.complete && short < self.window {
                        Closing::Complete
                    } else {
                        Closing::Window
                    };
                    out.push(self.close(key, rule));
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
                out.push(self.close(key, Closing::Window));
            }
        }
        out.sort_by_key(|g| g.pos);
        out
    }

    fn close(&mut self, key: Key, rule: Closing) -> Group {
        let mut g = *self.open.remove(&key).expect("group is open");
        self.typical = g.records.len().clamp(4, LIST_KEYS);
        // A new generation once the recent one has seen its stretch of
        // records: so a group is remembered for at least that many records
        // after it closed, and the oldest are forgotten.
        if self.count >= self.since.saturating_add(remembered(self.window)) {
            self.older = std::mem::take(&mut self.recent);
            self.since = self.count;
        }
        if rule == Closing::Complete {
            self.recent.complete.insert(key);
        }
        for run in std::mem::take(&mut g.names) {
            self.names.remove(&run);
            self.recent.names.insert(run, key);
        }
        let keys = std::mem::take(&mut g.keys.list);
        let n = keys.len();
        let prints = keys.into_iter().map(fingerprint);
        let chunks = &mut self.recent.prints;
        let at = if n > PRINT_CHUNK {
            chunks.push(prints.collect());
            Prints {
                chunk: chunks.len() as u64 - 1,
                start: WHOLE,
                len: 0,
            }
        } else {
            if chunks.last().is_none_or(|c| c.len() + n > PRINT_CHUNK) {
                chunks.push(Vec::with_capacity(PRINT_CHUNK));
            }
            let c = chunks.last_mut().expect("a chunk was pushed");
            let start = c.len() as u64;
            c.extend(prints);
            Prints {
                chunk: chunks.len() as u64 - 1,
                start,
                len: n as u64,
            }
        };
        self.recent.groups.insert_with(key, at.pack());
        g
    }

    /// Every open group, in order of its first record.
    pub fn finish(self) -> Vec<Group> {
        let mut out: Vec<Group> = self.open.into_values().map(|g| *g).collect();
        out.sort_by_key(|g| g.pos);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static D: &crate::dialect::spans::SpanFormat = &crate::dialect::spans::OTLP;

    fn rec(group: &str, key: u128, completes: bool) -> Record {
        Record {
            group: ShortId::new(group),
            key: Some(key.into()),
            counted: true,
            completes,
            link: Link::Direct,
            body: Box::new(()),
        }
    }

    /// Adds a record and closes what became idle; returns its fate and the
    /// ids of the groups closed.
    fn add(a: &mut Assembly, r: Record) -> (Fate, Vec<String>) {
        let fate = a.add(D, r, 0, 1, (0, 0));
        (
            fate,
            a.close_idle()
                .into_iter()
                .map(|g| g.id.to_string())
                .collect(),
        )
    }

    fn linked(group: &str, key: u128, completes: bool, link: Link) -> Record {
        Record {
            link,
            ..rec(group, key, completes)
        }
    }

    fn names(run: &str) -> Link {
        Link::Names(link_key(run.as_bytes()).into())
    }

    /// A record that seeks its run joins the group of the record that named
    /// the run, whichever came first; it never starts a turn, and completes
    /// its group only as the group's root.
    #[test]
    fn records_that_seek_a_run_join_the_group_that_names_it() {
        for seek_first in [false, true] {
            let mut a = Assembly::new(true, 100);
            let post = linked("t", 1, false, names("child"));
            let patch = linked("child", 2, true, Link::Seeks);
            let (first, second) = if seek_first {
                (patch, post)
            } else {
                (post, patch)
            };
            let fates = [add(&mut a, first).0, add(&mut a, second).0];
            let expected = if seek_first {
                [Fate::Skipped, Fate::Turn]
            } else {
                [Fate::Turn, Fate::Skipped]
            };
            assert_eq!(fates, expected, "seek first: {seek_first}");
            let groups = a.finish();
            assert_eq!(groups.len(), 1);
            assert_eq!(groups[0].id.as_str(), "t");
            assert_eq!(groups[0].records.len(), 2);
            assert!(!groups[0].unlinked);
            // The child's end does not complete the trace.
            assert!(!groups[0].complete, "seek first: {seek_first}");
        }
        // The root's patch completes it.
        let mut a = Assembly::new(true, 100);
        add(&mut a, linked("root", 1, false, names("root")));
        add(&mut a, linked("root", 2, true, Link::Seeks));
        assert!(a.finish()[0].complete);
    }

    /// A run no record names stays unlinked: its group is reported as such
    /// when it closes, and a repeat of one of its records is a duplicate.
    #[test]
    fn a_run_never_named_is_unlinked() {
        let mut a = Assembly::new(true, 100);
        assert_eq!(
            add(&mut a, linked("lost", 1, true, Link::Seeks)).0,
            Fate::Skipped
        );
        assert_eq!(
            add(&mut a, linked("lost", 1, true, Link::Seeks)).0,
            Fate::Duplicate
        );
        add(&mut a, linked("t", 2, false, names("other")));
        let groups = a.finish();
        assert_eq!(groups.len(), 2);
        let lost = groups.iter().find(|g| g.id.as_str() == "lost").unwrap();
        assert!(lost.unlinked && lost.records.len() == 1);
        assert!(groups.iter().any(|g| g.id.as_str() == "t" && !g.unlinked));
    }

    /// A record that seeks a run of a closed group is late for that group.
    #[test]
    fn a_seeking_record_after_its_group_closed_is_late() {
        let mut a = Assembly::new(true, 2);
        add(&mut a, linked("t", 1, true, names("r")));
        add(&mut a, rec("x", 2, true));
        let closed = add(&mut a, rec("y", 3, true)).1;
        assert_eq!(closed, ["t"]);
        assert_eq!(
            add(&mut a, linked("r", 4, false, Link::Seeks)).0,
            Fate::Late(Closing::Window)
        );
        assert_eq!(
            add(&mut a, linked("r", 4, false, Link::Seeks)).0,
            Fate::Duplicate
        );
    }

    /// A late record names the rule that closed its group: a complete
    /// group closes after the short window whatever the long one is.
    #[test]
    fn a_late_record_names_the_rule_that_closed_its_group() {
        let mut a = Assembly::new(true, 100_000);
        add(&mut a, rec("done", 1, true));
        add(&mut a, rec("open", 2, false));
        for k in 0..SHORT_WINDOW as u128 {
            add(&mut a, rec("other", 10 + k, false));
        }
        assert_eq!(
            add(&mut a, rec("done", 3, false)).0,
            Fate::Late(Closing::Complete)
        );
        // The incomplete group waits for the long window.
        assert_eq!(add(&mut a, rec("open", 4, false)).0, Fate::Skipped);
        let mut a = Assembly::new(true, 5);
        add(&mut a, rec("t", 1, false));
        for k in 0..5 {
            add(&mut a, rec("other", 10 + k, false));
        }
        assert_eq!(
            add(&mut a, rec("t", 2, false)).0,
            Fate::Late(Closing::Window)
        );
    }

    #[test]
    fn a_repeated_record_is_a_duplicate_while_open_and_after_closing() {
        let mut a = Assembly::new(true, 3);
        assert_eq!(add(&mut a, rec("t1", 1, false)).0, Fate::Turn);
        assert_eq!(add(&mut a, rec("t1", 1, false)).0, Fate::Duplicate);
        assert_eq!(add(&mut a, rec("t1", 2, true)).0, Fate::Skipped);
        // Three records of other groups close t1.
        let mut closed = Vec::new();
        for k in 0..3 {
            closed.extend(add(&mut a, rec("other", 100 + k, false)).1);
        }
        assert_eq!(closed, ["t1"]);
        // A repeat of a record of t1 is still a duplicate; a new one is late,
        // and a repeat of that late one a duplicate.
        assert_eq!(add(&mut a, rec("t1", 2, false)).0, Fate::Duplicate);
        assert_eq!(
            add(&mut a, rec("t1", 3, false)).0,
            Fate::Late(Closing::Window)
        );
        assert_eq!(add(&mut a, rec("t1", 3, false)).0, Fate::Duplicate);
    }

    #[test]
    fn a_closed_group_tells_repeats_from_late_records_while_remembered() {
        let mut a = Assembly::new(true, 2);
        add(&mut a, rec("first", 1, false));
        add(&mut a, rec("first", 2, true));
        let mut closed = Vec::new();
        for g in 0..5000u128 {
            closed.extend(add(&mut a, rec(&format!("g{g}"), 10 + g, true)).1);
        }
        assert_eq!(closed.len(), 4999);
        assert!(
            !a.open
                .contains_key(&group_key(family_seed(D.family().name()), b"first"))
        );
        assert_eq!(add(&mut a, rec("first", 2, false)).0, Fate::Duplicate);
        assert_eq!(add(&mut a, rec("first", 1, false)).0, Fate::Duplicate);
        assert_eq!(
            add(&mut a, rec("first", 3, false)).0,
            Fate::Late(Closing::Window)
        );
        assert_eq!(add(&mut a, rec("g17", 27, true)).0, Fate::Duplicate);
        assert_eq!(
            add(&mut a, rec("g17", 28, true)).0,
            Fate::Late(Closing::Window)
        );
        // Records of closed groups cost 4 bytes each.
        let prints: usize = a.recent.prints.iter().map(Vec::len).sum();
        assert_eq!(prints, 2 + (a.recent.groups.len() - 1));
    }

    /// What closed groups hold is bounded by the records of two stretches:
    /// a group closed more than that long ago is forgotten, and a record of
    /// it starts a group of its own.
    #[test]
    fn closed_groups_are_forgotten_after_two_stretches() {
        let window = 1000;
        let stretch = remembered(window);
        let mut a = Assembly::new(true, window);
        add(&mut a, rec("first", 1, true));
        let mut most = 0;
        let mut remembered_at = 0;
        for g in 0..3 * stretch as u128 {
            add(&mut a, rec(&format!("g{g}"), 10 + g, true));
            let held = a.recent.groups.len() + a.older.groups.len();
            most = most.max(held);
            let first = group_key(family_seed(D.family().name()), b"first");
            if Closed::find(&mut a.recent, &mut a.older, first).is_some() {
                remembered_at = g;
            }
        }
        // Remembered for at least a stretch, forgotten within two.
        assert!(remembered_at >= stretch as u128 - 1, "{remembered_at}");
        assert!(remembered_at < 2 * stretch as u128, "{remembered_at}");
        assert!(most <= 2 * stretch as usize + 1, "{most}");
        let prints: usize = [&a.recent, &a.older]
            .iter()
            .flat_map(|c| c.prints.iter().map(Vec::len))
            .sum();
        assert!(prints <= 2 * stretch as usize + 1, "{prints}");
        // Its repeat is then the first record of a new group.
        assert_eq!(add(&mut a, rec("first", 1, true)).0, Fate::Turn);
        // A late record of a group in the older generation is still late.
        let old = format!("g{}", 3 * stretch - stretch / 2 - 1);
        assert_eq!(
            add(&mut a, rec(&old, 1 << 90, true)).0,
            Fate::Late(Closing::Window)
        );
        assert_eq!(add(&mut a, rec(&old, 1 << 90, true)).0, Fate::Duplicate);
    }

    #[test]
    fn a_group_larger_than_a_chunk_has_one_of_its_own() {
        let mut a = Assembly::new(true, 1);
        let n = PRINT_CHUNK as u128 + 3;
        for k in 1..=n {
            a.add(D, rec("huge", k, false), 0, 1, (0, 0));
        }
        add(&mut a, rec("small", 1 << 100, true));
        add(&mut a, rec("next", 1 << 101, true));
        add(&mut a, rec("last", 1 << 102, true));
        assert_eq!(
            a.recent.prints.iter().map(Vec::len).collect::<Vec<_>>(),
            [n as usize, 2]
        );
        assert_eq!(add(&mut a, rec("huge", n, false)).0, Fate::Duplicate);
        assert_eq!(
            add(&mut a, rec("huge", n + 1, false)).0,
            Fate::Late(Closing::Window)
        );
        assert_eq!(add(&mut a, rec("next", 1 << 101, false)).0, Fate::Duplicate);
        let p = Prints {
            chunk: (1 << 20) - 1,
            start: 12345,
            len: WHOLE - 1,
        };
        assert_eq!(Prints::unpack(p.pack()), p);
    }

    #[test]
    fn a_long_group_finds_its_repeats_through_its_index() {
        let mut a = Assembly::new(true, DEFAULT_WINDOW);
        for k in 0..100 {
            assert_eq!(
                add(&mut a, rec("run", k, false)).0,
                if k == 0 { Fate::Turn } else { Fate::Skipped }
            );
        }
        let g = &a.open[&group_key(family_seed(D.family().name()), b"run")];
        assert!(g.keys.index.is_some() && g.keys.list.len() == 100);
        for k in [0, 17, 99] {
            assert_eq!(add(&mut a, rec("run", k, false)).0, Fate::Duplicate);
        }
        assert_eq!(add(&mut a, rec("run", 100, false)).0, Fate::Skipped);
    }

    #[test]
    fn without_de_duplication_repeats_are_records_and_late_ones_late() {
        let mut a = Assembly::new(false, 2);
        assert_eq!(add(&mut a, rec("t", 1, true)).0, Fate::Turn);
        assert_eq!(add(&mut a, rec("t", 1, true)).0, Fate::Skipped);
        add(&mut a, rec("x", 5, true));
        add(&mut a, rec("y", 6, true));
        assert_eq!(
            add(&mut a, rec("t", 1, true)).0,
            Fate::Late(Closing::Window)
        );
        assert!(a.recent.prints.iter().all(Vec::is_empty));
    }
}

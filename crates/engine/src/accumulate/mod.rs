//! Mergeable accumulators shared by the subcommands: the rollup (verdict
//! counts and grounded rate) and the page heap that selects one page of
//! rows newest first in memory bounded by the page size.

use crate::model::{Evidence, Row, Verdict};
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
    pub support: SupportTotals,
    pub evidence: EvidenceCounts,
}

/// Turns by what their export holds of their retrieval, one count per
/// [`Evidence`] value in its order: the evidence completeness of a set of
/// turns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvidenceCounts(pub [u64; 5]);

impl EvidenceCounts {
    /// Counts one turn.
    pub fn add(&mut self, e: Evidence) {
        self.0[e.slot()] += 1;
    }
    /// Adds other counts.
    pub fn merge(&mut self, o: &EvidenceCounts) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
    /// The count of one value.
    pub fn count(&self, e: Evidence) -> u64 {
        self.0[e.slot()]
    }
    /// The turns counted.
    pub fn turns(&self) -> u64 {
        self.0.iter().sum()
    }
    /// The share of turns whose retrieved documents are recorded; `None`
    /// with no turn.
    pub fn auditable_share(&self) -> Option<f64> {
        let n = self.turns();
        (n > 0).then(|| self.count(Evidence::Documents) as f64 / n as f64)
    }
    /// The causes of the turns without recorded documents, most turns
    /// first (then in [`Evidence`] order), those with none left out.
    pub fn gaps(&self) -> Vec<(Evidence, u64)> {
        let mut v: Vec<(Evidence, u64)> = Evidence::ALL[1..]
            .iter()
            .map(|&e| (e, self.count(e)))
            .filter(|&(_, n)| n > 0)
            .collect();
        v.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        v
    }
}

impl Accumulator for EvidenceCounts {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            self.add(g.row.evidence);
        }
    }
    fn merge(&mut self, later: Self) {
        EvidenceCounts::merge(self, &later);
    }
}

impl Serialize for EvidenceCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(6))?;
        for e in Evidence::ALL {
            m.serialize_entry(e.as_str(), &self.count(e))?;
        }
        m.serialize_entry("auditable_share", &self.auditable_share())?;
        m.end()
    }
}

/// The support checks of a set of turns, summed ([`crate::support`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SupportTotals {
    /// Sentences coverage counts, and those carrying a resolving citation.
    pub sentences: u64,
    pub cited_sentences: u64,
    /// Quotes the cited chunk does not hold, and of those, the ones
    /// another retrieved chunk holds, those put together from pieces of
    /// the chunks, and those in none ([`crate::support::quote`]).
    pub quotes_absent: u64,
    pub quotes_misattributed: u64,
    pub quotes_stitched: u64,
    pub quotes_fabricated: u64,
    /// Turns with at least one hint.
    pub hinted: u64,
    /// Citations whose checks were not run (the turn's budget was spent).
    pub unchecked: u64,
}

impl SupportTotals {
    fn add(&mut self, s: &crate::model::Support) {
        self.sentences += u64::from(s.sentences);
        self.cited_sentences += u64::from(s.cited_sentences);
        self.quotes_absent += u64::from(s.quotes_absent);
        self.quotes_misattributed += u64::from(s.quotes_misattributed);
        self.quotes_stitched += u64::from(s.quotes_stitched);
        self.quotes_fabricated += u64::from(s.quotes_fabricated);
        self.hinted += u64::from(s.hints > 0);
        self.unchecked += u64::from(s.unchecked);
    }
    fn merge(&mut self, o: &SupportTotals) {
        self.sentences += o.sentences;
        self.cited_sentences += o.cited_sentences;
        self.quotes_absent += o.quotes_absent;
        self.quotes_misattributed += o.quotes_misattributed;
        self.quotes_stitched += o.quotes_stitched;
        self.quotes_fabricated += o.quotes_fabricated;
        self.hinted += o.hinted;
        self.unchecked += o.unchecked;
    }
    /// Cited sentences over sentences; `None` with no sentence.
    pub fn coverage(&self) -> Option<f64> {
        (self.sentences > 0).then(|| self.cited_sentences as f64 / self.sentences as f64)
    }
}

impl Rollup {
    /// Counts one row.
    pub fn add(&mut self, r: &Row<'_>) {
        self.turns += 1;
        self.with_retrieval += r.with_retrieval() as u64;
        self.verdicts[r.verdict.slot()] += 1;
        self.support.add(&r.support);
        self.evidence.add(r.evidence);
    }
    /// Adds another rollup's counts.
    pub fn merge(&mut self, o: &Rollup) {
        self.turns += o.turns;
        self.with_retrieval += o.with_retrieval;
        for (a, b) in self.verdicts.iter_mut().zip(o.verdicts) {
            *a += b;
        }
        self.support.merge(&o.support);
        self.evidence.merge(&o.evidence);
    }
    /// `orphan_marker` turns that cite with nothing retrieved: invented
    /// citations that the grounded rate (turns with retrieval only) does
    /// not count. Every `ok` and `no_marker` turn has retrieval, so they are
    /// the orphans beyond the turns with retrieval that are neither.
    pub fn cited_without_retrieval(&self) -> u64 {
        let with = self.with_retrieval;
        let rest = self.grounded() + self.count(Verdict::NoMarker);
        self.count(Verdict::OrphanMarker)
            .saturating_sub(with.saturating_sub(rest))
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
        let mut m = s.serialize_map(Some(17))?;
        m.serialize_entry("turns", &self.turns)?;
        m.serialize_entry("with_retrieval", &self.with_retrieval)?;
        m.serialize_entry("grounded", &self.grounded())?;
        m.serialize_entry("ungrounded", &self.ungrounded())?;
        m.serialize_entry("grounded_rate", &self.grounded_rate())?;
        m.serialize_entry("cited_without_retrieval", &self.cited_without_retrieval())?;
        m.serialize_entry("verdicts", &Counts(&self.verdicts))?;
        let c = &self.support;
        m.serialize_entry("sentences", &c.sentences)?;
        m.serialize_entry("cited_sentences", &c.cited_sentences)?;
        m.serialize_entry("coverage", &c.coverage())?;
        m.serialize_entry("quotes_absent", &c.quotes_absent)?;
        m.serialize_entry("turns_with_hints", &c.hinted)?;
        m.serialize_entry("unchecked_citations", &c.unchecked)?;
        m.serialize_entry("quotes_misattributed", &c.quotes_misattributed)?;
        m.serialize_entry("quotes_stitched", &c.quotes_stitched)?;
        m.serialize_entry("quotes_fabricated", &c.quotes_fabricated)?;
        m.serialize_entry("evidence", &self.evidence)?;
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
    /// Rows are kept without their chunks ([`Row::to_owned_slim`]).
    slim: bool,
}

impl PageHeap {
    /// The rows a page heap keeps: one more than the page, to know whether
    /// a next page exists; a whole conversation.
    pub fn cap_for(limit: usize, conversation: bool) -> usize {
        if conversation { usize::MAX } else { limit + 1 }
    }

    /// A heap keeping `cap` rows.
    pub fn new(cap: usize, after: Option<After>) -> Self {
        PageHeap {
            cap,
            after,
            rows: Vec::new(),
            matching: 0,
            newer: 0,
            slim: false,
        }
    }

    /// A heap keeping `cap` rows without their chunk lists and cited
    /// indexes, for a list that shows only a row's own fields (the triage
    /// list): with input in time order most offered rows are the newest
    /// yet, so they are copied and soon dropped, and a slim copy is a few
    /// allocations where a whole one is a few per chunk.
    pub fn slim(cap: usize) -> Self {
        PageHeap {
            slim: true,
            ..PageHeap::new(cap, None)
        }
    }

    fn admits(&self, g: &Graded<'_>) -> bool {
        match &self.after {
            None => true,
            Some(a) => key_of(g) < (a.created_at, a.turn_id.as_str(), a.pos),
        }
    }

    /// A heap rebuilt from a partial's entries (newest first) and counts.
    pub fn from_parts(
        cap: usize,
        after: Option<After>,
        rows: Vec<(Row<'static>, Pos)>,
        matching: u64,
        newer: u64,
    ) -> Self {
        let mut h = PageHeap::new(cap, after);
        h.matching = matching;
        h.newer = newer;
        h.insert_sorted(rows);
        h
    }

    /// The rows with their input positions, newest first, without consuming the heap.
    pub fn entries(&self) -> &[(Row<'static>, Pos)] {
        &self.rows
    }

    /// Adds rows kept elsewhere (a partial's), keeping the `cap` newest.
    pub fn insert_entries(&mut self, rows: Vec<(Row<'static>, Pos)>) {
        self.insert_sorted(rows);
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
        fn key<'r>(e: &'r (Row<'static>, Pos)) -> (DateTime<Utc>, &'r str, Pos) {
            (e.0.created_at, e.0.turn_id.as_str(), e.1)
        }
        if more.len() <= 4 {
            // A few rows (one agent's share of a batch): each put in its
            // place, with no sort of the rows kept.
            for e in more {
                let at = self.rows.partition_point(|x| key(x) > key(&e));
                if at < self.cap {
                    self.rows.insert(at, e);
                    self.rows.truncate(self.cap);
                }
            }
            return;
        }
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
        let mut idx: Vec<usize> = (0..rows.len()).filter(|&i| keep(&rows[i].row)).collect();
        self.offer(rows, &mut idx);
    }

    /// Offers the rows of a block at `idx` (each counted as matching;
    /// `idx` is used up, a buffer the caller may reuse).
    pub fn offer(&mut self, rows: &[Graded<'_>], idx: &mut Vec<usize>) {
        if self.cap == 0 {
            return;
        }
        // Pick the block's best `cap` by key first, so only they are copied.
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
            .drain(..)
            .map(|i| {
                let row = &rows[i].row;
                let owned = if self.slim {
                    row.to_owned_slim()
                } else {
                    row.clone().into_owned()
                };
                (owned, rows[i].pos)
            })
            .collect();
        self.insert_sorted(more);
    }
}

impl Accumulator for PageHeap {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.add_where(rows, |_| true);
    }
    /// Sixteen pages of rows at a time (64 to 4,096): in a log in time
    /// order nearly every row is the newest yet when it is offered, so a
    /// heap handed 64 rows at a time copied most rows of the log only to
    /// drop them a batch later; handed 16 pages, it copies at most one
    /// page in sixteen rows.
    fn batch(&self) -> usize {
        self.cap
            .saturating_mul(16)
            .clamp(crate::pipeline::BATCH, 4096)
    }
    fn merge(&mut self, later: Self) {
        self.matching += later.matching;
        self.newer += later.newer;
        self.insert_sorted(later.rows);
    }
}

pub mod cursor;
pub mod details;
pub mod guess;
pub mod summary;
pub mod triage;

/// Rollups keyed by a grouping value (agent, channel, model), for `check --per-agent`.
#[derive(Debug, Clone, Default)]
pub struct Grouped {
    pub overall: Rollup,
    pub groups: std::collections::BTreeMap<String, Rollup>,
    /// Local days in `zone`, overall: the series `check` finds a change day in.
    pub days: std::collections::BTreeMap<chrono::NaiveDate, Rollup>,
    /// Local days in `zone` per agent.
    pub agent_days:
        std::collections::BTreeMap<String, std::collections::BTreeMap<chrono::NaiveDate, Rollup>>,
    /// The first turns that count against each gate, overall and per agent.
    pub offenders: Offenders,
    /// The zone whose calendar days `days` are (`--tz`).
    pub zone: crate::filter::Zone,
}

impl Grouped {
    /// Empty, with days counted in `zone`.
    pub fn in_zone(zone: crate::filter::Zone) -> Grouped {
        Grouped {
            zone,
            ..Grouped::default()
        }
    }
}

/// How many offending turn ids a gate's failure names.
pub const OFFENDERS: usize = 10;

/// The [`OFFENDERS`] most recent turns, newest first (by time, then turn id
/// descending, as `report` lists rows), of each kind of turn a gate can
/// fail on. Bounded, and chosen by the turns themselves rather than by
/// where they stand in the input, so any split or partitioning of the
/// input names the same turns.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Offending {
    /// Turns with retrieval that were not grounded (`min_rate`, `max_drop`).
    pub ungrounded: Vec<Offender>,
    /// `orphan_marker` turns (`max_orphans`, `max_orphan_rate`).
    pub orphan: Vec<Offender>,
    /// `unobserved` turns (`max_unobserved_rate`).
    pub unobserved: Vec<Offender>,
    /// Turns with a fabricated quote (`max_fabricated_quotes`); a partial
    /// written before they were listed has none.
    #[serde(default)]
    pub fabricated: Vec<Offender>,
}

/// One offending turn: its time (seconds and nanoseconds since 1970-01-01
/// UTC, exact) and its id. Ordered by time, then id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Offender {
    pub at: (i64, u32),
    pub id: String,
}

/// The ids of a list of offenders, in its order.
pub fn ids(list: &[Offender]) -> Vec<String> {
    list.iter().map(|o| o.id.clone()).collect()
}

/// Keeps `o` if it is among the [`OFFENDERS`] newest of `list` (sorted newest first).
fn keep_newest(list: &mut Vec<Offender>, o: Offender) {
    if list.len() >= OFFENDERS && list.last().is_some_and(|worst| o <= *worst) {
        return;
    }
    let at = list.partition_point(|x| *x > o);
    list.insert(at, o);
    list.truncate(OFFENDERS);
}

impl Offending {
    fn add(&mut self, r: &Row<'_>) {
        let o = || Offender {
            at: (
                r.created_at.timestamp(),
                r.created_at.timestamp_subsec_nanos(),
            ),
            id: r.turn_id.as_str().to_owned(),
        };
        if r.with_retrieval() && r.verdict != Verdict::Ok {
            keep_newest(&mut self.ungrounded, o());
        }
        match r.verdict {
            Verdict::OrphanMarker => keep_newest(&mut self.orphan, o()),
            Verdict::Unobserved => keep_newest(&mut self.unobserved, o()),
            _ => {}
        }
        if r.support.quotes_fabricated > 0 {
            keep_newest(&mut self.fabricated, o());
        }
    }
    fn merge(&mut self, later: Offending) {
        for (mine, theirs) in [
            (&mut self.ungrounded, later.ungrounded),
            (&mut self.orphan, later.orphan),
            (&mut self.unobserved, later.unobserved),
            (&mut self.fabricated, later.fabricated),
        ] {
            for o in theirs {
                keep_newest(mine, o);
            }
        }
    }
}

/// Offending turns overall and per agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offenders {
    pub overall: Offending,
    pub agents: std::collections::BTreeMap<String, Offending>,
}

impl Accumulator for Grouped {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            let r = &g.row;
            self.overall.add(r);
            let day = self.zone.local_date(&r.created_at);
            self.days.entry(day).or_default().add(r);
            let agent: &str = &r.agent_id;
            if !self.groups.contains_key(agent) {
                self.groups.insert(agent.to_owned(), Rollup::default());
                self.agent_days.insert(agent.to_owned(), Default::default());
                self.offenders
                    .agents
                    .insert(agent.to_owned(), Offending::default());
            }
            self.groups.get_mut(agent).expect("inserted").add(r);
            self.agent_days
                .get_mut(agent)
                .expect("inserted")
                .entry(day)
                .or_default()
                .add(r);
            let fabricated = r.support.quotes_fabricated > 0;
            if fabricated || !matches!(r.verdict, Verdict::Ok | Verdict::EmptyRetrieval) {
                self.offenders.overall.add(r);
                self.offenders
                    .agents
                    .get_mut(agent)
                    .expect("inserted")
                    .add(r);
            }
        }
    }
    fn merge(&mut self, later: Self) {
        self.overall.merge(&later.overall);
        for (k, v) in later.groups {
            self.groups.entry(k).or_default().merge(&v);
        }
        for (d, v) in later.days {
            self.days.entry(d).or_default().merge(&v);
        }
        for (k, days) in later.agent_days {
            let mine = self.agent_days.entry(k).or_default();
            for (d, v) in days {
                mine.entry(d).or_default().merge(&v);
            }
        }
        self.offenders.overall.merge(later.offenders.overall);
        for (k, v) in later.offenders.agents {
            self.offenders.agents.entry(k).or_default().merge(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offender(secs: i64, id: &str) -> Offender {
        Offender {
            at: (secs, 0),
            id: id.to_owned(),
        }
    }

    /// The offenders kept are the newest, whatever order the turns come in
    /// and however they are split and merged (partitions of a Spark job).
    #[test]
    fn offenders_are_the_newest_in_any_order_and_split() {
        let all: Vec<Offender> = (0..25)
            .map(|i| offender((i * 7919) % 23, &format!("t-{i:02}")))
            .collect();
        let mut want = all.clone();
        want.sort_by(|a, b| b.cmp(a));
        want.truncate(OFFENDERS);
        for (stride, parts) in [(1, 1), (3, 2), (5, 4), (2, 3)] {
            let mut merged = Offending::default();
            for p in 0..parts {
                let mut part = Offending::default();
                for (i, o) in all.iter().enumerate().rev() {
                    if (i / stride) % parts == p {
                        keep_newest(&mut part.orphan, o.clone());
                    }
                }
                merged.merge(part);
            }
            assert_eq!(merged.orphan, want, "stride {stride}, {parts} parts");
        }
    }
}

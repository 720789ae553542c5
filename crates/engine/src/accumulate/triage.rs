//! The triage list behind `summary`: which turns to read first.
//!
//! Every `no_marker` and `orphan_marker` turn, and every turn whose
//! support checks found something, has a severity ([`Severity`]): an
//! invented citation first, then a fabricated quote (in no retrieved
//! chunk), a misattributed one (in another chunk than the one cited), a
//! stitched one (put together from pieces of the chunks), then a missing
//! marker on a turn whose retrieval found a confident match
//! (its top score at or above `--low-score`), then any other missing
//! marker, then an `ok` turn with support hints. The state keeps, for
//! each severity and each group (agent, channel or model, as `--by` says),
//! the `--triage N` most recent such turns; the list is picked from it
//! after the pass ([`Triage::select`]), when it is known which groups show
//! a significant drop. Any turn of the final list is among the N most
//! recent of its severity and group, so the state holds it whatever the
//! order asked for, and keeping the N most recent of each part is the same
//! over any split of the input: a merge of partials picks exactly what one
//! pass picks. Memory is bounded by 7 × groups × N rows.

use super::PageHeap;
use crate::model::{Row, Verdict};
use crate::pipeline::{Graded, Pos};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Groups by name, hashed one-shot (see [`super::summary::OneShot`]):
/// every ungrounded turn looks its group up.
type Parts = HashMap<String, PageHeap, BuildHasherDefault<super::summary::OneShot>>;

/// How bad an ungrounded turn is, most severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// `orphan_marker`: the reply cites a chunk retrieval never returned.
    InventedCitation,
    /// A quote that no retrieved chunk holds, even in pieces.
    FabricatedQuote,
    /// A quote its cited chunk does not hold and another retrieved chunk
    /// does.
    MisattributedQuote,
    /// A quote put together from pieces of the retrieved chunks.
    StitchedQuote,
    /// `no_marker`, and the top chunk scored at or above `--low-score`:
    /// retrieval found a confident match and the reply cited none of it.
    MissingMarkerHighScore,
    /// Any other `no_marker` turn (a low top score, or no scores).
    MissingMarker,
    /// An `ok` turn with a support hint: a value of a cited sentence that
    /// none of its cited chunks holds.
    Hinted,
}

impl Severity {
    /// Every severity, most severe first.
    pub const ALL: [Severity; 7] = [
        Severity::InventedCitation,
        Severity::FabricatedQuote,
        Severity::MisattributedQuote,
        Severity::StitchedQuote,
        Severity::MissingMarkerHighScore,
        Severity::MissingMarker,
        Severity::Hinted,
    ];

    /// The severity of an ungrounded row; `high` is the score at or above
    /// which retrieval counts as a confident match (`--low-score`). None
    /// for a row that is not ungrounded.
    pub fn of(r: &Row<'_>, high: f64) -> Option<Severity> {
        match r.verdict {
            Verdict::OrphanMarker => Some(Severity::InventedCitation),
            _ if r.support.quotes_fabricated > 0 => Some(Severity::FabricatedQuote),
            _ if r.support.quotes_misattributed > 0 => Some(Severity::MisattributedQuote),
            _ if r.support.quotes_stitched > 0 => Some(Severity::StitchedQuote),
            // A row read from a record written before quotes were classed.
            _ if r.support.quotes_absent > 0 => Some(Severity::FabricatedQuote),
            Verdict::NoMarker if r.confidence.is_some_and(|c| c >= high) => {
                Some(Severity::MissingMarkerHighScore)
            }
            Verdict::NoMarker => Some(Severity::MissingMarker),
            Verdict::Ok if r.support.hints > 0 => Some(Severity::Hinted),
            _ => None,
        }
    }

    /// Its name in JSON, CSV and partials.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::InventedCitation => "invented_citation",
            Severity::MissingMarkerHighScore => "missing_marker_high_score",
            Severity::MissingMarker => "missing_marker",
            Severity::FabricatedQuote => "fabricated_quote",
            Severity::MisattributedQuote => "misattributed_quote",
            Severity::StitchedQuote => "stitched_quote",
            Severity::Hinted => "hinted",
        }
    }

    /// The severity named `s` ([`Severity::as_str`]).
    /// `absent_quote`, the name before quotes were classed, is read as
    /// the most severe quote class.
    pub fn from_name(s: &str) -> Option<Severity> {
        if s == "absent_quote" {
            return Some(Severity::FabricatedQuote);
        }
        Severity::ALL.into_iter().find(|v| v.as_str() == s)
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// The order of the triage list (`--triage-order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TriageOrder {
    /// Invented citations first, then missing markers on confident
    /// retrieval, then the rest; within each, turns of a group with a
    /// significant drop first; then newest first.
    #[default]
    Severity,
    /// Newest first, whatever the verdict.
    Recent,
}

impl crate::model::Named for TriageOrder {
    const ALL: &'static [TriageOrder] = &[TriageOrder::Severity, TriageOrder::Recent];
    fn name(self) -> &'static str {
        self.as_str()
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            TriageOrder::Severity => {
                "Invented citations first, then missing markers on confident retrieval, then the rest; within each, turns of a group with a significant drop first; then newest first"
            }
            TriageOrder::Recent => "Newest first, whatever the verdict",
        })
    }
}

impl TriageOrder {
    /// Its name, as the flag and the JSON document spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            TriageOrder::Severity => "severity",
            TriageOrder::Recent => "recent",
        }
    }
}

/// One turn of the triage list, as [`Triage::select`] picks it.
#[derive(Debug, Clone, Copy)]
pub struct Picked<'a> {
    pub row: &'a Row<'static>,
    pub pos: Pos,
    pub severity: Severity,
    /// The turn's group (agent, channel or model).
    pub group: &'a str,
    /// The group shows a significant drop.
    pub dropped: bool,
}

/// The triage state: the `cap` most recent ungrounded turns of each
/// severity and group.
#[derive(Debug, Clone)]
pub struct Triage {
    cap: usize,
    /// Score at or above which retrieval is a confident match.
    high: f64,
    /// By severity ([`Severity::slot`]), then group.
    parts: [Parts; 7],
}

impl Triage {
    /// Empty, keeping `cap` turns per severity and group.
    pub fn new(cap: usize, high: f64) -> Triage {
        Triage {
            cap,
            high,
            parts: Default::default(),
        }
    }

    /// The list's length (`--triage`).
    pub fn cap(&self) -> usize {
        self.cap
    }

    fn part(&mut self, s: Severity, group: &str) -> &mut PageHeap {
        let map = &mut self.parts[s.slot()];
        if !map.contains_key(group) {
            map.insert(group.to_owned(), PageHeap::slim(self.cap));
        }
        map.get_mut(group).expect("inserted")
    }

    /// Offers a block's ungrounded rows, each to the part of its severity
    /// and of its group (`group_of`).
    pub fn add_block<'r>(
        &mut self,
        rows: &'r [Graded<'_>],
        group_of: impl Fn(&'r Row<'_>) -> &'r str,
    ) {
        if self.cap == 0 {
            return;
        }
        // The block's ungrounded rows with their part, in block order; each
        // part (a block holds few) offered its rows in one call.
        let picked: Vec<(Severity, &str, usize)> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, g)| Some((Severity::of(&g.row, self.high)?, group_of(&g.row), i)))
            .collect();
        let mut done = vec![false; picked.len()];
        let mut idx = Vec::new();
        for first in 0..picked.len() {
            if done[first] {
                continue;
            }
            let (s, group, _) = picked[first];
            for (j, p) in picked.iter().enumerate().skip(first) {
                if !done[j] && p.0 == s && p.1 == group {
                    done[j] = true;
                    idx.push(p.2);
                }
            }
            self.part(s, group).offer(rows, &mut idx);
        }
    }

    /// Adds a later state's turns.
    pub fn merge(&mut self, later: Triage) {
        for (s, parts) in Severity::ALL.into_iter().zip(later.parts) {
            for (group, heap) in parts {
                crate::pipeline::Accumulator::merge(self.part(s, &group), heap);
            }
        }
    }

    /// Adds one kept turn (read back from a partial).
    pub fn insert(&mut self, s: Severity, group: &str, row: Row<'static>, pos: Pos) {
        if self.cap > 0 {
            self.part(s, group).insert_entries(vec![(row, pos)]);
        }
    }

    /// Every turn kept: severity, group, row and position, by severity,
    /// then group, then newest first.
    pub fn entries(&self) -> Vec<(Severity, &str, &Row<'static>, Pos)> {
        let mut out = Vec::new();
        for s in Severity::ALL {
            let mut groups: Vec<(&String, &PageHeap)> = self.parts[s.slot()].iter().collect();
            groups.sort_by(|a, b| a.0.cmp(b.0));
            for (g, heap) in groups {
                out.extend(heap.entries().iter().map(|(r, p)| (s, g.as_str(), r, *p)));
            }
        }
        out
    }

    /// The list: at most `cap` turns in `order`; `dropped` says whether a
    /// group shows a significant drop.
    pub fn select(&self, order: TriageOrder, dropped: &dyn Fn(&str) -> bool) -> Vec<Picked<'_>> {
        let mut all: Vec<Picked<'_>> = self
            .entries()
            .into_iter()
            .map(|(severity, group, row, pos)| Picked {
                row,
                pos,
                severity,
                group,
                dropped: dropped(group),
            })
            .collect();
        let newest = |a: &Picked<'_>, b: &Picked<'_>| {
            (b.row.created_at, b.row.turn_id.as_str(), b.pos).cmp(&(
                a.row.created_at,
                a.row.turn_id.as_str(),
                a.pos,
            ))
        };
        match order {
            TriageOrder::Recent => all.sort_by(newest),
            TriageOrder::Severity => all.sort_by(|a, b| {
                a.severity
                    .cmp(&b.severity)
                    .then(b.dropped.cmp(&a.dropped))
                    .then_with(|| newest(a, b))
            }),
        }
        all.truncate(self.cap);
        all
    }

    /// Turns held: what the state's size grows with.
    pub fn held(&self) -> usize {
        self.parts
            .iter()
            .flat_map(|m| m.values())
            .map(|h| h.entries().len())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Chunk, Id};
    use chrono::DateTime;

    fn row(i: u64, verdict: Verdict, score: Option<f64>, agent: &str) -> Graded<'static> {
        Graded {
            row: Row {
                turn_id: Id::string(format!("t-{i:03}")),
                agent_id: agent.to_owned().into(),
                conversation_id: None,
                channel: "chat".into(),
                created_at: DateTime::from_timestamp(1_785_000_000 + (i as i64 * 7919) % 1000, 0)
                    .unwrap(),
                verdict,
                partial: false,
                cited_chunks: vec![],
                marker_count: 0,
                out_of_range_markers: 0,
                malformed_markers: 0,
                markers_from: None,
                chunk_count: 1,
                confidence: score,
                chunks: vec![Chunk {
                    index: 1,
                    document_id: None,
                    chunk_id: None,
                    score,
                }],
                tool_calls: 0,
                tool_errors: 0,
                model: None,
                tokens_used: None,
                cost_cents: None,
                latency_ms: None,
                unobserved_reason: None,
                invented_marker: None,
                support: Default::default(),
                evidence: crate::model::Evidence::Documents,
            },
            pos: (0, i),
            detail: None,
        }
    }

    fn rows() -> Vec<Graded<'static>> {
        (0..120)
            .map(|i| {
                let verdict = [
                    Verdict::NoMarker,
                    Verdict::Ok,
                    Verdict::OrphanMarker,
                    Verdict::NoMarker,
                    Verdict::EmptyRetrieval,
                ][(i % 5) as usize];
                let score = [Some(0.9), Some(0.2), None, Some(0.5)][(i % 4) as usize];
                row(i, verdict, score, ["a", "b", "c"][(i % 3) as usize])
            })
            .collect()
    }

    fn ids(p: &[Picked<'_>]) -> Vec<String> {
        p.iter()
            .map(|p| p.row.turn_id.as_str().to_owned())
            .collect()
    }

    /// The list one pass picks, checked against sorting every ungrounded
    /// row, and picked the same from any split of the input merged.
    #[test]
    fn the_list_is_the_first_n_of_the_order_over_any_split() {
        let rows = rows();
        let dropped = |g: &str| g == "b";
        for cap in [0, 1, 3, 7, 40] {
            let mut whole = Triage::new(cap, 0.5);
            whole.add_block(&rows, |r| &r.agent_id);
            for order in [TriageOrder::Severity, TriageOrder::Recent] {
                // The reference: every ungrounded row sorted by the rule.
                let mut want: Vec<&Graded<'_>> = rows
                    .iter()
                    .filter(|g| g.row.verdict.is_ungrounded())
                    .collect();
                let key = |g: &Graded<'_>| {
                    let s = Severity::of(&g.row, 0.5).unwrap();
                    let d = dropped(&g.row.agent_id);
                    (s, !d)
                };
                want.sort_by(|a, b| {
                    let rank = match order {
                        TriageOrder::Severity => key(a).cmp(&key(b)),
                        TriageOrder::Recent => std::cmp::Ordering::Equal,
                    };
                    rank.then_with(|| {
                        (b.row.created_at, b.row.turn_id.as_str(), b.pos).cmp(&(
                            a.row.created_at,
                            a.row.turn_id.as_str(),
                            a.pos,
                        ))
                    })
                });
                want.truncate(cap);
                let want: Vec<String> = want
                    .iter()
                    .map(|g| g.row.turn_id.as_str().to_owned())
                    .collect();
                assert_eq!(ids(&whole.select(order, &dropped)), want, "cap {cap}");
                for cut in [0, 1, 37, 60, 119, 120] {
                    let (mut a, mut b) = (Triage::new(cap, 0.5), Triage::new(cap, 0.5));
                    a.add_block(&rows[..cut], |r| &r.agent_id);
                    b.add_block(&rows[cut..], |r| &r.agent_id);
                    b.merge(a);
                    assert_eq!(
                        ids(&b.select(order, &dropped)),
                        want,
                        "cap {cap}, cut {cut}"
                    );
                }
            }
        }
    }

    #[test]
    fn severity_puts_invented_citations_first_then_confident_retrieval() {
        let high = row(1, Verdict::NoMarker, Some(0.91), "a").row;
        let low = row(2, Verdict::NoMarker, Some(0.2), "a").row;
        let none = row(3, Verdict::NoMarker, None, "a").row;
        let orphan = row(4, Verdict::OrphanMarker, None, "a").row;
        let ok = row(5, Verdict::Ok, Some(0.9), "a").row;
        assert_eq!(Severity::of(&orphan, 0.5), Some(Severity::InventedCitation));
        assert_eq!(
            Severity::of(&high, 0.5),
            Some(Severity::MissingMarkerHighScore)
        );
        assert_eq!(
            Severity::of(&high, 0.91),
            Some(Severity::MissingMarkerHighScore)
        );
        assert_eq!(Severity::of(&high, 0.92), Some(Severity::MissingMarker));
        assert_eq!(Severity::of(&low, 0.5), Some(Severity::MissingMarker));
        assert_eq!(Severity::of(&none, 0.5), Some(Severity::MissingMarker));
        assert_eq!(Severity::of(&ok, 0.5), None);
        for s in Severity::ALL {
            assert_eq!(Severity::from_name(s.as_str()), Some(s));
        }
    }

    /// What the state holds grows with groups and the list's length, never
    /// with the turns.
    #[test]
    fn the_state_is_bounded_by_groups_and_length() {
        let rows = rows();
        let mut t = Triage::new(4, 0.5);
        for _ in 0..5 {
            t.add_block(&rows, |r| &r.agent_id);
        }
        assert!(t.held() <= 3 * 3 * 4, "{}", t.held());
        assert_eq!(t.held(), 3 * 3 * 4);
    }
}

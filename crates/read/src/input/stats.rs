//! What a run's reading counts: every line read is exactly one of turns,
//! blank lines, skipped records, invalid lines or duplicates
//! ([`InputStats`]), with the warnings about turns read all the same, each
//! source's tally, and the working counts of the misread heuristics
//! ([`Probe`], counted by `pipeline::probe`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Input accounting: every line read is exactly one of
/// turns, blank_lines, skipped_records, invalid_lines or duplicates; and
/// the warnings about turns that were read all the same.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct InputStats {
    pub files: u64,
    pub lines: u64,
    pub turns: u64,
    pub blank_lines: u64,
    pub skipped_records: u64,
    pub invalid_lines: u64,
    pub duplicates: u64,
    /// Counted warnings (e.g. an optional field of the wrong type, dropped).
    pub warnings: crate::messages::Warnings,
    /// The turns counted (those the filters kept), by the marker grammar
    /// each was graded with (`kb`, `numeric`, …, `regex PATTERN (base N)`):
    /// the grammar a run actually used, which `--markers` or each input
    /// format's default (or a turn's own `markers` field) decides.
    pub graded_with: std::collections::BTreeMap<String, u64>,
    /// Counts for the misread heuristics, turned into warnings at the end
    /// of a run (never serialised).
    #[serde(skip)]
    pub probe: Probe,
    /// Each source's records and those read as turns or parts of one, by
    /// name: a source with records and no turn is an input error, judged
    /// once over every partition (never serialised here; a partial keeps
    /// it beside).
    #[serde(skip)]
    pub sources: SourceTallies,
}

/// Records and records read as turns, by source name.
pub type SourceTallies = std::collections::BTreeMap<String, [u64; 2]>;

/// Equal accounting and warnings; the probe is working state, not compared.
impl PartialEq for InputStats {
    fn eq(&self, o: &Self) -> bool {
        (
            self.files,
            self.lines,
            self.turns,
            self.blank_lines,
            self.skipped_records,
            self.invalid_lines,
            self.duplicates,
        ) == (
            o.files,
            o.lines,
            o.turns,
            o.blank_lines,
            o.skipped_records,
            o.invalid_lines,
            o.duplicates,
        ) && self.warnings == o.warnings
            && self.graded_with == o.graded_with
    }
}
impl Eq for InputStats {}

impl InputStats {
    /// Adds another block's counts (files excepted).
    pub fn add(&mut self, o: &InputStats) {
        self.files += o.files;
        self.lines += o.lines;
        self.turns += o.turns;
        self.blank_lines += o.blank_lines;
        self.skipped_records += o.skipped_records;
        self.invalid_lines += o.invalid_lines;
        self.duplicates += o.duplicates;
        self.warnings.merge(&o.warnings);
        for (k, n) in &o.graded_with {
            self.count_graded(k, *n);
        }
        self.probe.merge(&o.probe);
        for (name, [records, turns]) in &o.sources {
            let t = self.sources.entry(name.clone()).or_default();
            t[0] += records;
            t[1] += turns;
        }
    }

    /// Counts `n` turns graded with the grammar labelled `label`.
    pub fn count_graded(&mut self, label: &str, n: u64) {
        match self.graded_with.get_mut(label) {
            Some(c) => *c += n,
            None => {
                self.graded_with.insert(label.to_owned(), n);
            }
        }
    }
}

/// Run-wide counts for the misread heuristics, carried with the input
/// accounting and merged in input order. The counting and the warnings they
/// lead to are `pipeline::probe`'s.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Probe {
    pub(crate) turns: u64,
    pub(crate) unobserved: u64,
    pub(crate) scored: u64,
    pub(crate) off_scale: u64,
    /// Sampled replies, and per preset the replies with a marker / one in range.
    pub(crate) replies: u64,
    pub(crate) markers: [u64; 5],
    pub(crate) cited: [u64; 5],
    pub(crate) chosen: u64,
    /// The grammar the first sampled unit was graded with.
    pub(crate) chosen_name: Option<&'static str>,
    /// Native lines whose keys were listed, fields absent there, and
    /// (field, pointer) → lines where a near-miss name held a value.
    pub(crate) lines: u64,
    pub(crate) absent: BTreeMap<&'static str, u64>,
    pub(crate) near: BTreeMap<(&'static str, String), u64>,
}

//! Processing one unit of work (a block of lines, or a whole-document
//! source) into an accumulator: accounting for every line, parsing,
//! de-duplicating within the unit, filtering and grading line turns, and
//! collecting records for assembly, and counting warnings (in the unit's
//! `stats`). Runs on the worker threads; knows nothing of ordering or of
//! other units.

use super::{
    Accumulator, BATCH, Detail, Done, Engine, Graded, InputStats, KeySet, Pos, Unit, id_key, probe,
};
use crate::dialect::{Dialect, DocumentRecords, Parsed, Record};
use crate::grade::{grade, grammar_of};
use crate::input::{self, Block, Source};
use crate::markers::Grammar;
use crate::messages::Warnings;
use crate::model::Turn;
use anyhow::Result;
use std::collections::HashSet;
use std::sync::Arc;

/// Processes one unit into `acc`. `skip` holds line numbers known to be
/// duplicates of turns in earlier units.
pub fn process<A: Accumulator>(
    engine: &Engine,
    sources: &[Source],
    unit: &Unit,
    seq: u64,
    acc: A,
    skip: Option<&HashSet<u64>>,
) -> Result<Done<A>> {
    match unit {
        Unit::Lines(block, dialect) => Ok(process_block(
            engine, sources, *dialect, block, seq, acc, skip,
        )),
        Unit::Document {
            source,
            data,
            dialect,
            notes,
        } => {
            let mut doc = DocumentRecords::default();
            dialect.parse_document(data, &mut doc);
            let mut unit = UnitState::new(0, false, *dialect);
            let counted = doc.records.iter().filter(|(_, r)| r.counted).count() as u64;
            unit.stats.lines = counted + doc.skipped + doc.invalid.len() as u64;
            unit.stats.skipped_records = doc.skipped;
            unit.stats.invalid_lines = doc.invalid.len() as u64;
            unit.invalid = doc.invalid;
            unit.records = doc.records;
            unit.physical = memchr::memchr_iter(b'\n', data).count() as u64
                + u64::from(!data.is_empty() && !data.ends_with(b"\n"));
            note_shapes(&mut unit.stats, sources, *source, notes);
            note_document(&mut unit.stats, sources, *source, &doc.notes);
            Ok(unit.finish(acc, *source))
        }
    }
}

/// What processing one unit gathers: accounting, invalid lines, the
/// de-duplication keys of its turns, the graded rows that passed the
/// filter, and records for assembly.
struct UnitState<'a> {
    stats: InputStats,
    invalid: Vec<(u64, String)>,
    keys: Vec<(u128, u64)>,
    local: KeySet,
    rows: Vec<Graded<'a>>,
    records: Vec<(u64, Record)>,
    physical: u64,
    dialect: &'static dyn Dialect,
}

impl<'a> UnitState<'a> {
    fn new(estimate: usize, dedupe: bool, dialect: &'static dyn Dialect) -> Self {
        let keyed = if dedupe { estimate } else { 0 };
        UnitState {
            stats: InputStats::default(),
            invalid: Vec::new(),
            keys: Vec::with_capacity(keyed),
            local: KeySet::with_capacity(keyed),
            rows: Vec::with_capacity(estimate.min(BATCH)),
            records: Vec::new(),
            physical: 0,
            dialect,
        }
    }

    /// Counts one line turn: a duplicate (within the unit, or `known` from
    /// an earlier unit), or a turn that is filtered and graded. A known turn
    /// still enters the unit's key set, so its later copies in this unit are
    /// duplicates too.
    /// Returns whether it counted as a turn (not a duplicate).
    fn take(
        &mut self,
        engine: &Engine,
        grammar: &Grammar,
        turn: Turn<'a>,
        known: bool,
        pos: Pos,
        detail: impl FnOnce(&Turn<'a>) -> Option<Arc<Detail>>,
    ) -> bool {
        if engine.dedupe {
            let key = id_key(turn.turn_id.as_str());
            if !self.local.insert(key) || known {
                self.stats.duplicates += 1;
                return false;
            }
            self.keys.push((key, pos.1));
        }
        self.stats.turns += 1;
        if !engine.filter.keep_turn(&turn) {
            return true;
        }
        let detail = detail(&turn);
        let row = grade(turn, grammar);
        if engine.filter.keep_row(&row) {
            self.stats.count_graded(&grammar.label(), 1);
            self.rows.push(Graded { row, pos, detail });
        }
        true
    }

    fn invalid(&mut self, line: u64, reason: String) {
        self.stats.invalid_lines += 1;
        self.invalid.push((line, reason));
    }

    /// Hands the rows graded so far to `acc` once there are
    /// [`Accumulator::batch`] of them ([`BATCH`] unless it asks for more),
    /// while the lines they borrow from are still in the cache.
    fn flush<A: Accumulator>(&mut self, acc: &mut A) {
        if self.rows.len() >= acc.batch() {
            acc.add_block(&self.rows);
            self.rows.clear();
        }
    }

    fn finish<A: Accumulator>(self, mut acc: A, source: usize) -> Done<A> {
        acc.add_block(&self.rows);
        Done {
            acc,
            stats: self.stats,
            source,
            invalid: self.invalid,
            keys: self.keys,
            records: self.records,
            physical: self.physical,
            dialect: self.dialect,
        }
    }
}

/// Counts a warning for each shape of the source worth one, naming the file.
fn note_shapes(stats: &mut InputStats, sources: &[Source], source: usize, notes: &[input::Shape]) {
    let name = sources.get(source).map_or("<input>", |s| s.name.as_str());
    for n in notes {
        let subject = format!("{} {name}", n.subject());
        stats.warnings.add("input_shape", &subject, "file", 1, || {
            format!("{name} {}", n.message())
        });
    }
}

/// What a document said of itself ([`DocumentRecords::notes`]), one
/// warning each.
fn note_document(stats: &mut InputStats, sources: &[Source], source: usize, notes: &[String]) {
    let name = sources.get(source).map_or("<input>", |s| s.name.as_str());
    for n in notes {
        let subject = format!("document {name}");
        stats
            .warnings
            .add("input_shape", &subject, "file", 1, || format!("{name} {n}"));
    }
}

fn process_block<A: Accumulator>(
    engine: &Engine,
    sources: &[Source],
    dialect: &'static dyn Dialect,
    block: &Block,
    seq: u64,
    mut acc: A,
    skip: Option<&HashSet<u64>>,
) -> Done<A> {
    // Sized for typical lines of a few KB; they grow if lines are shorter.
    let mut unit = UnitState::new(block.data.len() / 2048 + 16, engine.dedupe, dialect);
    let grammar = engine.grammar_for(dialect);
    let too_long = |len: usize| {
        format!(
            "line of {len} bytes is longer than --max-line-bytes ({})",
            engine.max_line
        )
    };
    if let Some(len) = block.oversized {
        unit.stats.lines = 1;
        unit.physical = 1;
        unit.invalid(1, too_long(len as usize));
    }
    note_shapes(&mut unit.stats, sources, block.source, &block.notes);
    // The misread heuristics sample the first lines of the first units.
    let sampling = seq < probe::SAMPLE_UNITS;
    let native = dialect.name() == crate::dialect::native::NATIVE.name();
    let data = &block.data[..];
    let mut start = 0;
    let mut rel = 0u64;
    let mut records = Vec::new();
    let mut warnings = Warnings::new();
    while start < data.len() {
        let end = memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |p| start + p);
        let raw = &data[start..end];
        start = end + 1;
        rel += 1;
        unit.stats.lines += 1;
        unit.physical += 1;
        let line = input::clean_line(raw, block.first && rel == 1);
        if line.iter().all(u8::is_ascii_whitespace) {
            unit.stats.blank_lines += 1;
            continue;
        }
        if line.len() as u64 > engine.max_line {
            unit.invalid(rel, too_long(line.len()));
            continue;
        }
        // simdutf8: the same check as std (a `&str` or an error), with vector
        // code picked at run time; about a fifth of std's instructions on
        // ASCII-heavy lines.
        let Ok(text) = simdutf8::basic::from_utf8(line) else {
            unit.invalid(rel, "invalid UTF-8".to_owned());
            continue;
        };
        if !warnings.is_empty() {
            warnings = Warnings::new();
        }
        let parsed = dialect.parse_line(text, &mut records, &mut warnings);
        let sample = sampling && rel <= probe::SAMPLE_PER_UNIT;
        if sample
            && native
            && !matches!(parsed, Parsed::Skipped | Parsed::Records(_))
            && let Some(keys) = probe::Keys::of(text)
        {
            unit.stats.probe.add_keys(&keys);
        }
        match parsed {
            Parsed::Skipped => unit.stats.skipped_records += 1,
            Parsed::Invalid(reason) => unit.invalid(rel, reason),
            Parsed::Records(n) => {
                // Each record counts as one line of input (see `DocumentRecords`).
                unit.stats.lines += n.saturating_sub(1) as u64;
                if unit.records.capacity() == 0 {
                    // Sized from the first record line, for the block's
                    // records at its rate of records a byte (an event line
                    // is one, a collector batch hundreds): growing by
                    // doubling copied them a dozen times a block.
                    let guess =
                        (data.len() / (line.len() + 1) * records.len()).min(data.len() / 256);
                    unit.records.reserve(guess + guess / 8 + 1);
                }
                unit.records.extend(records.drain(..).map(|r| (rel, r)));
                unit.stats.warnings.merge(&warnings);
            }
            Parsed::Turn(turn) => {
                let own = grammar_of(&turn, engine.markers.is_some(), &grammar);
                let detail = |t: &Turn<'_>| {
                    engine.detail.then(|| {
                        Arc::new(Detail {
                            dialect,
                            source: block.source,
                            line: rel,
                            turn: t.clone().into_owned(),
                            extras: dialect.extras(text),
                            assembled: None,
                            support: crate::support::analyse(t, &own),
                        })
                    })
                };
                // Warnings count turns, as `stats.turns` does: a
                // duplicate's dropped fields are not counted again.
                let known = skip.is_some_and(|s| s.contains(&rel));
                let looked = probe::TurnProbe::of(&turn, sample, &own);
                if unit.take(engine, &own, turn, known, (seq, rel), detail) {
                    unit.stats.warnings.merge(&warnings);
                    unit.stats.probe.add_turn(looked, &own);
                }
                unit.flush(&mut acc);
            }
        }
    }
    unit.finish(acc, block.source)
}

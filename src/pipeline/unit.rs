//! Processing one unit of work (a block of native lines, or a whole
//! agentfootprint source) into an accumulator: accounting for every line,
//! parsing, de-duplicating within the unit, filtering and grading, and
//! counting warnings (in the unit's `stats`). Runs on the worker threads;
//! knows nothing of ordering or of other units.

use super::{Accumulator, Done, Engine, Graded, InputStats, KeySet, Pos, Unit, id_key};
use crate::dialect::{self, Parsed};
use crate::grade::grade;
use crate::input::{self, Block, Source};
use crate::markers::Grammar;
use anyhow::Result;
use std::collections::HashSet;

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
        Unit::Lines(block) => Ok(process_block(engine, block, seq, acc, skip)),
        Unit::Document { source, data } => {
            let doc = dialect::agentfootprint::read(data, engine.agent_name.as_deref())
                .map_err(|e| crate::exit::input(format!("{}: {e}", sources[*source].name)))?;
            let mut unit = UnitState::new(0, false);
            unit.stats = doc.stats;
            unit.invalid = doc.invalid;
            for (turn, line_no) in doc.turns {
                let known = skip.is_some_and(|s| s.contains(&line_no));
                unit.take(
                    engine,
                    &engine.agentfootprint_grammar,
                    turn,
                    known,
                    (seq, line_no),
                );
            }
            Ok(unit.finish(acc, *source))
        }
    }
}

/// What processing one unit gathers: accounting, invalid lines, the
/// de-duplication keys of its turns, and the graded rows that passed the filter.
struct UnitState<'a> {
    stats: InputStats,
    invalid: Vec<(u64, String)>,
    keys: Vec<(u128, u64)>,
    local: KeySet,
    rows: Vec<Graded<'a>>,
}

impl<'a> UnitState<'a> {
    fn new(estimate: usize, dedupe: bool) -> Self {
        let keyed = if dedupe { estimate } else { 0 };
        UnitState {
            stats: InputStats::default(),
            invalid: Vec::new(),
            keys: Vec::with_capacity(keyed),
            local: KeySet::with_capacity_and_hasher(keyed, Default::default()),
            rows: Vec::with_capacity(estimate),
        }
    }

    /// Counts one turn: a duplicate (within the unit, or `known` from an
    /// earlier unit), or a turn that is filtered and graded. The one place
    /// both dialects share. A known turn still enters the unit's key set, so
    /// its later copies in this unit are duplicates too. Returns whether it
    /// counted as a turn (not a duplicate).
    fn take(
        &mut self,
        engine: &Engine,
        grammar: &Grammar,
        turn: crate::model::Turn<'a>,
        known: bool,
        pos: Pos,
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
        let row = grade(turn, grammar);
        if engine.filter.keep_row(&row) {
            self.rows.push(Graded { row, pos });
        }
        true
    }

    fn invalid(&mut self, line: u64, reason: String) {
        self.stats.invalid_lines += 1;
        self.invalid.push((line, reason));
    }

    fn finish<A: Accumulator>(self, mut acc: A, source: usize) -> Done<A> {
        acc.add_block(&self.rows);
        Done {
            acc,
            stats: self.stats,
            source,
            invalid: self.invalid,
            keys: self.keys,
        }
    }
}

fn process_block<A: Accumulator>(
    engine: &Engine,
    block: &Block,
    seq: u64,
    acc: A,
    skip: Option<&HashSet<u64>>,
) -> Done<A> {
    // Sized for typical lines of a few KB; they grow if lines are shorter.
    let mut unit = UnitState::new(block.data.len() / 2048 + 16, engine.dedupe);
    let too_long = |len: usize| {
        format!(
            "line of {len} bytes is longer than --max-line-bytes ({})",
            engine.max_line
        )
    };
    if let Some(len) = block.oversized {
        unit.stats.lines = 1;
        unit.invalid(1, too_long(len as usize));
    }
    let data = &block.data[..];
    let mut start = 0;
    let mut rel = 0u64;
    while start < data.len() {
        let end = memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |p| start + p);
        let raw = &data[start..end];
        start = end + 1;
        rel += 1;
        unit.stats.lines += 1;
        let line = input::clean_line(raw, block.first && rel == 1);
        if line.iter().all(u8::is_ascii_whitespace) {
            unit.stats.blank_lines += 1;
        } else if line.len() as u64 > engine.max_line {
            unit.invalid(rel, too_long(line.len()));
        } else {
            match std::str::from_utf8(line).map(dialect::native::parse_line_reporting) {
                Err(_) => unit.invalid(rel, "invalid UTF-8".to_owned()),
                Ok((Parsed::Skipped, _)) => unit.stats.skipped_records += 1,
                Ok((Parsed::Invalid(reason), _)) => unit.invalid(rel, reason),
                Ok((Parsed::Turn(turn), dropped)) => {
                    let known = skip.is_some_and(|s| s.contains(&rel));
                    // Warnings count turns, as `stats.turns` does: a
                    // duplicate's dropped fields are not counted again.
                    if unit.take(engine, &engine.grammar, turn, known, (seq, rel)) {
                        dropped.record(&mut unit.stats.warnings);
                    }
                }
            }
        }
    }
    unit.finish(acc, block.source)
}

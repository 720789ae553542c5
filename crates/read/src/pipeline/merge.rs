//! The merger: takes unit results strictly in input order, finishes
//! de-duplication across units (re-processing a unit in the rare case that
//! one of its turns was seen earlier), turns block-relative line numbers into
//! absolute ones, reports invalid lines, adds up the counted warnings (each
//! unit's are in its `stats`) and prints them once at the end, and hands
//! accumulators to the sink.

use super::{
    Accumulator, Detail, Done, DoneMsg, Engine, Graded, InputStats, KeySet, Unit, id_key, process,
    warn,
};
use crate::dialect::Assembly;
use crate::dialect::assembly::{Closing, Fate, SHORT_WINDOW};
use crate::grade::grade;
use crate::input::Source;
use anyhow::Result;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};

/// Merges units strictly in input order.
pub(super) struct Merger<'e> {
    pub(super) engine: &'e Engine,
    pub(super) sources: &'e [Source],
    pub(super) seen: KeySet,
    pub(super) total: InputStats,
    pub(super) shown: u64,
    /// The source of the last unit merged, and its lines so far: block line
    /// numbers are relative, and become absolute here.
    pub(super) current: Option<usize>,
    pub(super) offset: u64,
    /// Spent block buffers go back to the reader.
    pub(super) recycle: SyncSender<crate::input::Buf>,
    /// Records of record dialects, grouped into turns across units and sources.
    pub(super) assembly: Assembly,
    /// Groups closed while absorbing the current unit, assembled after it.
    pub(super) idle: Vec<crate::dialect::Group>,
    /// What each source held and how much of it read as turns.
    pub(super) tally: Vec<Tally>,
}

/// One source's records, and those that read as turns or parts of one
/// (duplicates included: a copy of a turn read elsewhere is still a turn;
/// a span whose trace began in another file is part of that turn).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Tally {
    records: u64,
    turns: u64,
}

impl Merger<'_> {
    #[allow(clippy::too_many_arguments)]
    /// Merges everything; on an error, `accounted` gets the accounting of
    /// what was read up to it (a refused log still says what it held).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run<A: Accumulator, F: Fn() -> A + Sync, S: FnMut(A) -> Result<()>>(
        mut self,
        done_rx: Receiver<DoneMsg<A>>,
        permit_tx: SyncSender<()>,
        progress: Option<&indicatif::ProgressBar>,
        counter: &AtomicU64,
        make: &F,
        sink: &mut S,
        accounted: &mut InputStats,
    ) -> Result<InputStats> {
        let result = self.merge_all(done_rx, permit_tx, progress, counter, make, sink);
        if result.is_err() {
            self.total.files = self.sources.len() as u64;
            *accounted = self.total.clone();
        }
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn merge_all<A: Accumulator, F: Fn() -> A + Sync, S: FnMut(A) -> Result<()>>(
        &mut self,
        done_rx: Receiver<DoneMsg<A>>,
        permit_tx: SyncSender<()>,
        progress: Option<&indicatif::ProgressBar>,
        counter: &AtomicU64,
        make: &F,
        sink: &mut S,
    ) -> Result<InputStats> {
        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        for (seq, msg) in done_rx.iter() {
            pending.insert(seq, msg);
            while let Some(msg) = pending.remove(&next) {
                let (done, unit) = msg.map_err(|f| self.locate(f))?;
                let acc = self.absorb(done, &unit, next, make, progress)?;
                if let Ok(Unit::Lines(block, _)) = Arc::try_unwrap(unit) {
                    let _ = self.recycle.try_send(block.data);
                }
                sink(acc)?;
                let idle = std::mem::take(&mut self.idle);
                self.assemble(idle, progress, make, sink)?;
                next += 1;
                let _ = permit_tx.send(());
                if let Some(p) = progress {
                    p.set_position(counter.load(Ordering::Relaxed));
                }
            }
        }
        if let Some((_, msg)) = pending.into_iter().next() {
            msg.map_err(|f| self.locate(f))?;
        }
        let mut rest = std::mem::take(&mut self.idle);
        rest.extend(std::mem::take(&mut self.assembly).finish());
        self.assemble(rest, progress, make, sink)?;
        self.total.files = self.sources.len() as u64;
        // The misread heuristics, over the whole run.
        let misread = self.total.probe.warnings();
        self.total.warnings.merge(&misread);
        let warn = |p: Option<&indicatif::ProgressBar>, msg: &str| {
            if !self.engine.silent {
                warn(p, msg)
            }
        };
        if self.total.invalid_lines > self.shown {
            let more = self.total.invalid_lines - self.shown;
            warn(
                progress,
                &format!(
                    "warning: {more} more invalid line(s) not shown ({} in total)",
                    self.total.invalid_lines
                ),
            );
        }
        // Counted over the whole run and named once each, in key order: the
        // same lines whatever the thread count.
        for w in self.total.warnings.iter().filter(|_| !self.engine.silent) {
            warn(progress, &w.line());
        }
        if let Some(map) = self.engine.map
            && !self.engine.deferred
        {
            let unresolved = map.unresolved();
            if !unresolved.is_empty() {
                return Err(unresolved_map(&unresolved));
            }
        }
        if self.engine.strict && !self.engine.deferred {
            let misread = misread_subjects(&self.total.warnings);
            if !misread.is_empty() {
                return Err(misread_strict(&misread));
            }
        }
        if let Some(max) = self.engine.max_invalid
            && self.total.invalid_lines > max
        {
            return Err(super::too_many_invalid(self.total.invalid_lines, max));
        }
        for (src, t) in self.sources.iter().zip(&self.tally) {
            let entry = self.total.sources.entry(src.name.clone()).or_default();
            entry[0] += t.records;
            entry[1] += t.turns;
        }
        if self.engine.require_turns && !self.engine.deferred {
            super::no_turn_read(&self.total.sources, Some(self.sources))?;
        }
        Ok(self.total.clone())
    }

    /// Names where a read failed: `path:line` after the lines merged so far.
    fn locate(&self, (err, source): (anyhow::Error, Option<usize>)) -> anyhow::Error {
        match source {
            Some(i) => {
                let line = if self.current == Some(i) {
                    self.offset + 1
                } else {
                    1
                };
                crate::exit::input(format!("{}:{line}: {err:#}", self.sources[i].name))
            }
            None => err,
        }
    }

    fn absorb<A: Accumulator, F: Fn() -> A + Sync>(
        &mut self,
        mut done: Done<A>,
        unit: &Unit,
        seq: u64,
        make: &F,
        progress: Option<&indicatif::ProgressBar>,
    ) -> Result<A> {
        if self.engine.dedupe {
            // One look-up a key: a key already seen marks its line a
            // duplicate, any other is now seen. The unit's keys are distinct,
            // so when it is processed again without its duplicates, the keys
            // it keeps are exactly those just inserted.
            let mut dups: HashSet<u64> = HashSet::new();
            self.seen.insert_all(
                &done.keys,
                |&(k, _)| k,
                |&(_, line), dup| {
                    if dup {
                        dups.insert(line);
                    }
                },
            );
            if !dups.is_empty() {
                done = process(self.engine, self.sources, unit, seq, make(), Some(&dups))?;
            }
        }
        if self.current != Some(done.source) {
            self.current = Some(done.source);
            self.offset = 0;
        }
        for (line, reason) in &done.invalid {
            self.invalid(done.source, self.offset + line, reason, progress)?;
        }
        self.total.add(&done.stats);
        let tally = &mut self.tally[done.source];
        tally.records += done.stats.lines - done.stats.blank_lines;
        tally.turns += done.stats.turns + done.stats.duplicates;
        for (k, (line, record)) in done.records.drain(..).enumerate() {
            let pos = (seq, (line << 20) | (k as u64).min((1 << 20) - 1));
            let at = self.offset + line;
            match self
                .assembly
                .add(done.dialect, record, done.source, at, pos)
            {
                Fate::Turn => {
                    self.total.turns += 1;
                    self.tally[done.source].turns += 1;
                }
                Fate::Skipped => {
                    self.total.skipped_records += 1;
                    self.tally[done.source].turns += 1;
                }
                Fate::Duplicate => {
                    self.total.duplicates += 1;
                    self.tally[done.source].turns += 1;
                }
                Fate::Uncounted => {}
                Fate::Late(rule) => {
                    self.total.invalid_lines += 1;
                    let reason = late_reason(rule, self.engine.assembly_window);
                    self.invalid(done.source, at, &reason, progress)?;
                }
            }
            let idle = self.assembly.close_idle();
            self.idle.extend(idle);
        }
        let mut acc = done.acc;
        acc.relocate(done.source, self.offset);
        self.offset += done.physical;
        Ok(acc)
    }

    /// Reports one invalid line or record: fatal under `--strict`, printed
    /// for the first few.
    fn invalid(
        &mut self,
        source: usize,
        at: u64,
        reason: &str,
        progress: Option<&indicatif::ProgressBar>,
    ) -> Result<()> {
        let name = &self.sources[source].name;
        // Every reason, whoever worded it, within the one byte cap.
        let reason = crate::dialect::cap_reason(reason.to_owned());
        if self.engine.strict {
            return Err(crate::exit::input(format!(
                "{name}:{at}: {reason} (--strict)"
            )));
        }
        if self.shown < self.engine.warn_limit && !self.engine.silent {
            self.shown += 1;
            warn(progress, &format!("{name}:{at}: {reason}"));
        }
        Ok(())
    }

    /// Assembles `groups`; a group that cannot be a turn is reported here.
    fn build(
        &mut self,
        groups: impl Iterator<Item = crate::dialect::Group>,
        progress: Option<&indicatif::ProgressBar>,
    ) -> Result<Vec<Built>> {
        let mut built = Vec::new();
        for group in groups {
            let records = group.records.iter().filter(|r| r.counted).count() as u64;
            if group.unlinked {
                // Counted as records of a turn when read; no turn had them.
                self.total.skipped_records -= records;
                self.total.invalid_lines += records;
                let tally = &mut self.tally[group.source];
                tally.turns = tally.turns.saturating_sub(records);
                let reason = group.dialect.unlinked();
                for _ in 0..records {
                    self.invalid(group.source, group.line, reason, progress)?;
                }
                continue;
            }
            match group
                .dialect
                .assemble(&group.id, group.records, &self.engine.assemble)
            {
                Ok(a) => built.push(Built {
                    assembled: Arc::from(a),
                    dialect: group.dialect,
                    source: group.source,
                    line: group.line,
                    pos: group.pos,
                    records,
                }),
                Err(reason) => {
                    self.total.turns -= 1;
                    self.tally[group.source].turns -= 1;
                    self.total.invalid_lines += 1;
                    self.invalid(group.source, group.line, &reason, progress)?;
                }
            }
        }
        Ok(built)
    }

    /// Assembles closed groups of records into their turns and hands the
    /// graded turns to the sink as one unit, in order of each group's first
    /// record. A group that cannot be a turn is an invalid record at its
    /// first line; a turn whose id was already seen (as a line turn, or as a
    /// group that assembly no longer remembers: a trace read again long
    /// after) is a duplicate, every record of it.
    fn assemble<A: Accumulator, F: Fn() -> A + Sync, S: FnMut(A) -> Result<()>>(
        &mut self,
        groups: Vec<crate::dialect::Group>,
        progress: Option<&indicatif::ProgressBar>,
        make: &F,
        sink: &mut S,
    ) -> Result<()> {
        if groups.is_empty() {
            return Ok(());
        }
        let engine = self.engine;
        let mut acc = make();
        // Up to a batch of groups is assembled before any is graded, so that
        // their rows borrow their turns and reach the accumulator together,
        // as a block's line turns do (a page heap offered one row at a time
        // copied and re-sorted nearly every row only to drop it soon after).
        let batch = acc.batch().max(1);
        let mut groups = groups.into_iter().peekable();
        while groups.peek().is_some() {
            let built = self.build(groups.by_ref().take(batch), progress)?;
            let mut rows = Vec::with_capacity(built.len());
            for b in &built {
                let turn = b.assembled.turn();
                if engine.dedupe && !self.seen.insert(id_key(turn.turn_id.as_str())) {
                    self.total.turns -= 1;
                    self.total.skipped_records -= b.records.saturating_sub(1);
                    self.total.duplicates += b.records.max(1);
                    continue;
                }
                let grammar = engine.grammar_for(b.dialect);
                let sample = self.total.probe.wants_assembled();
                let looked = super::probe::TurnProbe::of(&turn, sample, &grammar);
                self.total.probe.add_turn(looked, &grammar);
                if !engine.filter.keep_turn(&turn) {
                    continue;
                }
                let detail = engine.detail.then(|| {
                    Arc::new(Detail {
                        dialect: b.dialect,
                        source: b.source,
                        line: b.line,
                        turn: turn.clone().into_owned(),
                        extras: b.assembled.extras(),
                        assembled: Some(b.assembled.clone()),
                        support: crate::support::analyse(&turn, &grammar),
                    })
                });
                let row = grade(turn, &grammar);
                if engine.filter.keep_row(&row) {
                    self.total.count_graded(&grammar.label(), 1);
                    rows.push(Graded {
                        row,
                        pos: b.pos,
                        detail,
                    });
                }
            }
            if !rows.is_empty() {
                acc.add_block(&rows);
            }
        }
        sink(acc)
    }
}

/// A group assembled into its turn, with where its first record was.
struct Built {
    assembled: Arc<dyn crate::dialect::Assembled>,
    dialect: &'static dyn crate::dialect::Dialect,
    source: usize,
    line: u64,
    pos: (u64, u64),
    /// The group's counted records: its turn and the records skipped.
    records: u64,
}

/// Why a record of a turn already assembled is invalid: the rule that
/// closed its turn, and what would have kept it open.
fn late_reason(rule: Closing, window: u64) -> String {
    match rule {
        Closing::Complete => format!(
            "a record of a turn that was already assembled: its root had arrived and {SHORT_WINDOW} records passed without another of its records (the rule for complete turns, which --assembly-window does not change): keep a trace's records together (sort the export by trace id) to read them into one turn"
        ),
        Closing::Window => format!(
            "a record of a turn that was already assembled: its previous record was more than {window} records earlier (the window rule): raise --assembly-window above the gap"
        ),
    }
}

/// The error of `--map` pointers that resolved on no line of the input.
pub fn unresolved_map(unresolved: &[String]) -> anyhow::Error {
    crate::exit::usage(format!(
        "--map {} points at nothing on every line read through the map: run `grounding-audit inspect FILE` to see where the fields are",
        unresolved.join(", --map ")
    ))
}

/// The subjects of the misread warnings among `warnings`.
pub fn misread_subjects(warnings: &crate::messages::Warnings) -> Vec<&str> {
    warnings
        .iter()
        .filter(|w| super::probe::is_misread(&w.kind))
        .map(|w| w.subject.as_str())
        .collect()
}

/// The error of `--strict` when the misread heuristics warned (`misread`:
/// their subjects).
pub fn misread_strict(misread: &[&str]) -> anyhow::Error {
    crate::exit::input(format!(
        "the input looks misread ({}; see the warnings above) (--strict)",
        misread.join(", ")
    ))
}

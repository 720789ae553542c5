//! Unit tests for de-duplication across units.

use super::*;
use std::collections::HashSet;

/// Counts the rows it is handed.
#[derive(Default)]
struct Count {
    turns: u64,
}

impl Accumulator for Count {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.turns += rows.len() as u64;
    }

    fn merge(&mut self, later: Self) {
        self.turns += later.turns;
    }
}

fn line(id: &str) -> String {
    format!(
        r#"{{"turn_id":{id},"agent_id":"a","created_at":"2026-08-01T00:00:00Z","reply":"[KB-1]","grounding":{{"chunks":[{{"document_id":"d"}}]}}}}"#
    )
}

fn block(lines: &[String]) -> Unit {
    Unit::Lines(
        Block {
            source: 0,
            data: (lines.join("\n") + "\n").into_bytes().into(),
            first: true,
            oversized: None,
            notes: Vec::new(),
        },
        &crate::dialect::native::NATIVE,
    )
}

/// Regression (found by `props::splits_and_threads_agree`): a turn seen in an
/// earlier unit and repeated within a later one was skipped once on the
/// re-run, and its second copy in the unit then counted as a new turn.
#[test]
fn a_known_turn_repeated_within_a_later_unit_is_a_duplicate_every_time() {
    let engine = Engine::default();
    let unit = block(&[line("1"), line("\"1\""), line("\"2\""), line("1")]);
    let first = process(&engine, &[], &unit, 1, Count::default(), None).unwrap();
    // Alone, the unit keeps the first copy of each id.
    assert_eq!((first.stats.turns, first.stats.duplicates), (2, 2));
    assert_eq!(first.keys.iter().map(|k| k.1).collect::<Vec<_>>(), [1, 3]);
    // Id 1 was seen in an earlier unit: line 1 is a duplicate, and so are its copies.
    let skip: HashSet<u64> = [1].into();
    let again = process(&engine, &[], &unit, 1, Count::default(), Some(&skip)).unwrap();
    assert_eq!(again.stats.turns, 1);
    assert_eq!(again.stats.duplicates, 3);
    assert_eq!(again.acc.turns, 1);
    assert_eq!(again.keys.iter().map(|k| k.1).collect::<Vec<_>>(), [3]);
    assert_eq!(again.stats.lines, 4);
}

#[test]
fn without_dedupe_every_copy_is_a_turn() {
    let engine = Engine {
        dedupe: false,
        ..Engine::default()
    };
    let unit = block(&[line("1"), line("\"1\"")]);
    let done = process(&engine, &[], &unit, 0, Count::default(), None).unwrap();
    assert_eq!((done.stats.turns, done.stats.duplicates), (2, 0));
}

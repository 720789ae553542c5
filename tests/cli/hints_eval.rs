//! Support hints measured against people: every hint kind of the library
//! (`support::hints`), shipped or not, run on the human-labelled units of
//! `../shared/attribution/dev/` (see its README), with precision and recall
//! per dataset and kind. What ships, the shipped kinds together as one
//! signal, must keep precision >= 0.85 and recall >= 0.15 pooled over the
//! datasets (docs/hints.md). Skipped with a
//! message when the folder is absent.
//!
//! Print the table: `cargo test --test cli hints_eval -- --nocapture`.

use crate::common::*;
use grounding_audit::support::hints::{self, Facts, HintKind};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The precision and recall what ships must reach.
const MIN_PRECISION: f64 = 0.85;
const MIN_RECALL: f64 = 0.15;

/// Each turn's chunk texts (1-based positions at index - 1), by turn id.
type Turns = HashMap<String, Vec<Option<String>>>;

/// One labelled unit with the text of the chunks it cites.
struct Unit {
    turn: String,
    dataset: String,
    /// Labelled `partial` or `unsupported`.
    not_supported: bool,
    text: String,
    chunks: Vec<usize>,
}

/// A measured row: a kind, or a union of kinds.
struct Row {
    name: String,
    kinds: Vec<HintKind>,
}

fn rows() -> Vec<Row> {
    let mut out: Vec<Row> = HintKind::ALL
        .iter()
        .map(|&k| Row {
            name: k.as_str().to_owned(),
            kinds: vec![k],
        })
        .collect();
    out.push(Row {
        name: "any number (number, year, percent, money)".to_owned(),
        kinds: vec![
            HintKind::Number,
            HintKind::Year,
            HintKind::Percent,
            HintKind::Money,
        ],
    });
    out.push(Row {
        name: "any".to_owned(),
        kinds: HintKind::ALL.to_vec(),
    });
    out
}

/// The turns (id → chunk texts) and the units of the dev split: units
/// `sentence` and `claim` whose cited chunks all have text (as the tool
/// reads hints only then), at least one.
fn load() -> Option<(Turns, Vec<Unit>)> {
    let turns_path = shared("attribution/dev/turns.jsonl")?;
    let labels_path = shared("attribution/dev/labels.jsonl")?;
    let mut turns = HashMap::new();
    let mut replies = HashMap::new();
    for line in std::fs::read_to_string(turns_path).unwrap().lines() {
        let t: Value = serde_json::from_str(line).unwrap();
        let id = t["turn_id"].as_str().unwrap().to_owned();
        let chunks = t["grounding"]["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["content"].as_str().map(str::to_owned))
            .collect();
        replies.insert(id.clone(), t["reply"].as_str().unwrap().to_owned());
        turns.insert(id, chunks);
    }
    let mut units = Vec::new();
    for line in std::fs::read_to_string(labels_path).unwrap().lines() {
        let u: Value = serde_json::from_str(line).unwrap();
        if !matches!(u["unit"].as_str(), Some("sentence" | "claim")) {
            continue;
        }
        let turn = u["turn_id"].as_str().unwrap().to_owned();
        let chunks_of: &Vec<Option<String>> = &turns[&turn];
        let chunks: Vec<usize> = u["cited"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap() as usize)
            .filter(|&c| c >= 1 && c <= chunks_of.len())
            .collect();
        if chunks.is_empty() || chunks.iter().any(|&c| chunks_of[c - 1].is_none()) {
            continue;
        }
        let reply = &replies[&turn];
        let (s, e) = (u["start"].as_u64().unwrap(), u["end"].as_u64().unwrap());
        let text: String = reply
            .chars()
            .skip(s as usize)
            .take((e - s) as usize)
            .collect();
        assert_eq!(
            text,
            u["text"].as_str().unwrap(),
            "{turn}: reply[start:end]"
        );
        units.push(Unit {
            turn,
            dataset: u["dataset"].as_str().unwrap().to_owned(),
            not_supported: u["label"].as_str() != Some("supported"),
            text,
            chunks,
        });
    }
    Some((turns, units))
}

/// Counts of one dataset and row: flagged units, flagged units labelled
/// not supported, all units labelled not supported.
#[derive(Default, Clone, Copy)]
struct Tally {
    flagged: u32,
    hits: u32,
    not_supported: u32,
}

impl Tally {
    fn precision(&self) -> f64 {
        f64::from(self.hits) / f64::from(self.flagged.max(1))
    }
    fn recall(&self) -> f64 {
        f64::from(self.hits) / f64::from(self.not_supported.max(1))
    }
}

/// The hint kinds each unit raises, every kind read.
fn measure(turns: &Turns, units: &[Unit]) -> Vec<Vec<HintKind>> {
    let mut cache: HashMap<(&str, usize), Facts> = HashMap::new();
    units
        .iter()
        .map(|u| {
            for &c in &u.chunks {
                cache
                    .entry((u.turn.as_str(), c))
                    .or_insert_with(|| Facts::of(turns[&u.turn][c - 1].as_deref().unwrap(), true));
            }
            let facts: Vec<&Facts> = u
                .chunks
                .iter()
                .map(|&c| &cache[&(u.turn.as_str(), c)])
                .collect();
            let mut kinds: Vec<HintKind> = hints::candidates(&u.text, &facts)
                .into_iter()
                .map(|h| h.kind)
                .collect();
            kinds.dedup();
            kinds
        })
        .collect()
}

#[test]
fn shipped_hint_kinds_are_precise_against_the_human_labels() {
    let Some((turns, units)) = load() else {
        return;
    };
    assert!(units.len() > 2000, "{} units", units.len());
    let raised = measure(&turns, &units);
    let rows = rows();
    show_flagged(&turns, &units);
    // (row, dataset) → tally; dataset "ALL" pools them.
    let mut t: BTreeMap<(usize, String), Tally> = BTreeMap::new();
    for (u, kinds) in units.iter().zip(&raised) {
        for (r, row) in rows.iter().enumerate() {
            let flagged = kinds.iter().any(|k| row.kinds.contains(k));
            for d in [u.dataset.clone(), "ALL".to_owned()] {
                let e = t.entry((r, d)).or_default();
                e.flagged += u32::from(flagged);
                e.hits += u32::from(flagged && u.not_supported);
                e.not_supported += u32::from(u.not_supported);
            }
        }
    }
    println!("| kind | dataset | flagged | precision | recall | shipped |");
    println!("| --- | --- | ---: | ---: | ---: | --- |");
    for ((r, d), x) in &t {
        let row = &rows[*r];
        let shipped = row.kinds.iter().all(|k| hints::SHIPPED.contains(k));
        let precision = if x.flagged == 0 {
            "–".to_owned()
        } else {
            format!("{:.2}", x.precision())
        };
        println!(
            "| {} | {d} | {} | {precision} | {:.2} ({}/{}) | {} |",
            row.name,
            x.flagged,
            x.recall(),
            x.hits,
            x.not_supported,
            if shipped { "yes" } else { "no" }
        );
    }
    // What ships is measured as a reader meets it: a unit flagged by any
    // shipped kind.
    if !hints::SHIPPED.is_empty() {
        let r = rows
            .iter()
            .position(|row| row.kinds == hints::SHIPPED)
            .expect("a row of the table is the shipped kinds together");
        let x = t[&(r, "ALL".to_owned())];
        assert!(
            x.precision() >= MIN_PRECISION && x.recall() >= MIN_RECALL,
            "the shipped kinds measure precision {:.3}, recall {:.3} on dev",
            x.precision(),
            x.recall()
        );
    }
    // What ships is what the library raises: `hints` keeps exactly the
    // shipped kinds of every candidate.
    let mut cache = HashMap::new();
    for u in &units {
        let facts: Vec<Facts> = u
            .chunks
            .iter()
            .map(|&c| {
                cache
                    .entry((u.turn.as_str(), c))
                    .or_insert_with(|| {
                        Facts::of(
                            turns[&u.turn][c - 1].as_deref().unwrap(),
                            hints::needs_words(hints::SHIPPED),
                        )
                    })
                    .clone()
            })
            .collect();
        let refs: Vec<&Facts> = facts.iter().collect();
        let got = hints::hints(&u.text, &refs);
        assert!(got.iter().all(|h| hints::SHIPPED.contains(&h.kind)));
    }
}

/// The CLI end to end on the same turns: rows carry `hints`, and
/// a turn has hints exactly when the library, run on its cited sentences
/// with the shipped kinds, raises some (with nothing shipped: never).
#[test]
fn report_rows_count_the_shipped_hints() {
    let Some(path) = shared("attribution/dev/turns.jsonl") else {
        return;
    };
    let Some((turns, units)) = load() else {
        return;
    };
    let (code, out, err) = run(&[
        "report",
        "--all",
        "--format",
        "jsonl",
        path.to_str().unwrap(),
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let rows: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(rows.len(), turns.len(), "a row per turn");
    let mut flagged_by_units: HashMap<&str, bool> = HashMap::new();
    let raised = measure(&turns, &units);
    for (u, kinds) in units.iter().zip(&raised) {
        let f = kinds.iter().any(|k| hints::SHIPPED.contains(k));
        *flagged_by_units.entry(u.turn.as_str()).or_default() |= f;
    }
    let mut agree = 0usize;
    let mut compared = 0usize;
    for r in &rows {
        let n = r["hints"]
            .as_u64()
            .unwrap_or_else(|| panic!("hints in {r}"));
        if hints::SHIPPED.is_empty() {
            assert_eq!(n, 0, "nothing shipped, no hint: {}", r["turn_id"]);
        }
        let id = r["turn_id"].as_str().unwrap();
        if let Some(&f) = flagged_by_units.get(id) {
            compared += 1;
            agree += usize::from(f == (n > 0));
        }
    }
    println!("CLI and the labelled units agree on {agree} of {compared} turns");
    assert!(compared > 1000, "{compared} turns compared");
    // The tool reads its own sentences, the labels their own units: they
    // agree on nearly every turn, exactly when nothing ships.
    assert!(agree * 100 >= compared * 95, "{agree} of {compared}");
}

/// With `HINTS_EVAL_SHOW=supported` (or `not_supported`), prints the
/// hints raised in units of that label, for reading the rules' misses.
fn show_flagged(turns: &Turns, units: &[Unit]) {
    let want = match std::env::var("HINTS_EVAL_SHOW").as_deref() {
        Ok("supported") => false,
        Ok("not_supported") => true,
        _ => return,
    };
    for u in units.iter().filter(|u| u.not_supported == want) {
        let facts: Vec<Facts> = u
            .chunks
            .iter()
            .map(|&c| Facts::of(turns[&u.turn][c - 1].as_deref().unwrap(), true))
            .collect();
        let refs: Vec<&Facts> = facts.iter().collect();
        for h in hints::candidates(&u.text, &refs) {
            println!(
                "{}\t{}\t{}\t{}",
                u.dataset,
                h.kind.as_str(),
                &u.text[h.start..h.end],
                u.text.replace('\n', " ")
            );
        }
    }
}

//! How each marker preset reads the sampled turns (`inspect`): for every
//! preset, the replies it finds a marker in, those where a marker cites a
//! chunk, the first marker as written and the verdicts; then which preset
//! to grade with, and why ([`MarkerGuess::choose`]).

use crate::grade::grade;
use crate::markers::{Grammar, MarkerKind};
use crate::model::{Answer, Turn, Verdict};
use crate::pipeline::probe::{PRESETS, preset_name};
use crate::pipeline::{Accumulator, Graded};
use serde::Serialize;
use std::collections::BTreeMap;

const N: usize = PRESETS.len();

/// What one preset finds.
#[derive(Debug, Clone, Serialize)]
pub struct PresetGuess {
    pub preset: &'static str,
    /// Replies with at least one well-formed marker.
    pub replies_with_markers: u64,
    /// Replies with at least one marker that resolves to a chunk.
    pub replies_citing: u64,
    /// The first marker found, as written.
    pub example: Option<String>,
    /// The verdicts of the sampled turns with this preset.
    pub verdicts: BTreeMap<&'static str, u64>,
}

/// Marker and verdict counts over the sampled turns, per preset, in input
/// order (the example is the first marker of the first reply with one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarkerGuess {
    /// Turns with a reply to scan.
    pub replies: u64,
    /// Turns whose record names its own grammar (a turn log's `markers`),
    /// per preset.
    own: [u64; N],
    markers: [u64; N],
    citing: [u64; N],
    examples: [Option<String>; N],
    verdicts: [[u64; 5]; N],
}

/// The grammar to grade with, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub preset: &'static str,
    /// The command names it (`--markers`); false when the records name
    /// their own grammar, which a `--markers` would override.
    pub named: bool,
    pub why: String,
}

impl MarkerGuess {
    /// What each preset found, in preset order.
    pub fn guesses(&self) -> Vec<PresetGuess> {
        PRESETS
            .iter()
            .enumerate()
            .map(|(i, p)| PresetGuess {
                preset: preset_name(*p),
                replies_with_markers: self.markers[i],
                replies_citing: self.citing[i],
                example: self.examples[i].clone(),
                verdicts: Verdict::ALL
                    .iter()
                    .map(|v| (v.as_str(), self.verdicts[i][v.slot()]))
                    .collect(),
            })
            .collect()
    }

    /// Counts one turn under every preset.
    pub fn add(&mut self, turn: &Turn<'_>) {
        if let Some(i) = turn
            .markers
            .and_then(|p| PRESETS.iter().position(|q| *q == p))
        {
            self.own[i] += 1;
        }
        let text = match &turn.answer {
            Answer::Reply(r) => Some(r.decoded()),
            _ => None,
        };
        self.replies += u64::from(text.is_some());
        for (i, p) in PRESETS.iter().enumerate() {
            let g = Grammar::Preset(*p);
            let row = grade(turn.clone(), &g);
            self.verdicts[i][row.verdict.slot()] += 1;
            let Some(text) = &text else { continue };
            let (mut any, mut cited, mut first) = (false, false, None);
            g.scan(text, &turn.chunks, &mut |m| {
                if m.kind != MarkerKind::Malformed {
                    any = true;
                    cited |= matches!(m.kind, MarkerKind::Cited(_));
                    first.get_or_insert((m.start, m.end));
                }
            });
            self.markers[i] += u64::from(any);
            self.citing[i] += u64::from(cited);
            if self.examples[i].is_none()
                && let Some((s, e)) = first
            {
                self.examples[i] = text.get(s..e).map(str::to_owned);
            }
        }
    }

    /// The preset citing in most replies; the default (`default`, the
    /// grammar of `reads_as`) wins a tie. When none cites (no marker in
    /// range), the one finding markers in most replies: markers without
    /// chunks still say which grammar is meant. With no marker at all, the
    /// default. Records that name their own grammar keep it.
    pub fn choose(&self, default: &'static str, reads_as: &str) -> Choice {
        let choice = |preset, named, why| Choice { preset, named, why };
        let own: u64 = self.own.iter().sum();
        if own > 0 {
            let most = (0..N).max_by_key(|&i| (self.own[i], std::cmp::Reverse(i)));
            let preset = most.map_or(default, |i| preset_name(PRESETS[i]));
            let why = format!(
                "{own} turns name their own grammar in their `markers` field ({preset} the most): the command leaves it to them"
            );
            return choice(preset, false, why);
        }
        let uncited = self.citing.iter().all(|&c| c == 0);
        let counts = if uncited { self.markers } else { self.citing };
        let rank = |i: usize| {
            let name = preset_name(PRESETS[i]);
            let tie = (self.markers[i], name == default, std::cmp::Reverse(i));
            (counts[i], tie)
        };
        let Some(best) = (0..N).max_by_key(|&i| rank(i)).filter(|&i| counts[i] > 0) else {
            let why = if self.replies == 0 {
                format!("no reply to read: the default for {reads_as}")
            } else {
                format!(
                    "no preset finds a marker in the {} replies: the default for {reads_as}",
                    self.replies
                )
            };
            return choice(default, true, why);
        };
        let preset = preset_name(PRESETS[best]);
        let verb = if uncited {
            "finds markers in"
        } else {
            "cites a chunk in"
        };
        let example = self.examples[best]
            .as_deref()
            .map_or(String::new(), |e| format!(" (e.g. {e})"));
        let mut why = format!(
            "{verb} {} of {} replies{example}",
            counts[best], self.replies
        );
        if uncited {
            why += "; no preset cites a chunk";
        }
        let next = (0..N)
            .filter(|&i| i != best && self.markers[i] > 0)
            .max_by_key(|&i| rank(i));
        if let Some(i) = next {
            why += &format!(
                "; next: {}, which {}",
                preset_name(PRESETS[i]),
                self.finds(i)
            );
        }
        let d = (0..N).find(|&i| preset_name(PRESETS[i]) == default);
        match d {
            Some(d) if d == best => why += &format!("; the default for {reads_as}"),
            Some(d) if Some(d) != next => {
                let finds = self.finds(d);
                why += &format!("; {default}, the default for {reads_as}, {finds}");
            }
            _ => {}
        }
        choice(preset, true, why)
    }

    /// What preset `i` finds, in words.
    fn finds(&self, i: usize) -> String {
        if self.markers[i] == 0 {
            "finds none".to_owned()
        } else {
            format!(
                "finds markers in {} and cites a chunk in {}",
                self.markers[i], self.citing[i]
            )
        }
    }
}

impl Accumulator for MarkerGuess {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            if let Some(d) = &g.detail {
                self.add(&d.turn);
            }
        }
    }

    fn merge(&mut self, later: Self) {
        self.replies += later.replies;
        for i in 0..N {
            self.own[i] += later.own[i];
            self.markers[i] += later.markers[i];
            self.citing[i] += later.citing[i];
            if self.examples[i].is_none() {
                self.examples[i].clone_from(&later.examples[i]);
            }
            for v in 0..5 {
                self.verdicts[i][v] += later.verdicts[i][v];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::mapped::{FieldMap, Mapped};
    use crate::dialect::{Dialect, Parsed};
    use crate::messages::Warnings;

    fn guess(lines: &[&str]) -> MarkerGuess {
        let m = Mapped::new(FieldMap::default()).unwrap();
        let mut g = MarkerGuess::default();
        for l in lines {
            match m.parse_line(l, &mut Vec::new(), &mut Warnings::new()) {
                Parsed::Turn(t) => g.add(&t),
                other => panic!("{other:?}"),
            }
        }
        g
    }

    fn line(reply: &str, chunks: usize) -> String {
        let chunk = r#"{"document_id":"d","chunk_id":"c7"}"#;
        let chunks = vec![chunk; chunks].join(",");
        format!(
            r#"{{"turn_id":"t","agent_id":"a","created_at":"2026-08-01T00:00:00Z","reply":{reply:?},"grounding":{{"chunks":[{chunks}]}}}}"#
        )
    }

    #[test]
    fn the_preset_citing_most_is_chosen_and_says_why() {
        let lines = [
            line("a [1] b", 2),
            line("a [2]", 2),
            line("[KB-1]", 2),
            line("[c7]", 1),
        ];
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let g = guess(&refs);
        let c = g.choose("kb", "turns");
        assert_eq!(c.preset, "numeric");
        assert!(c.named);
        assert_eq!(
            c.why,
            "cites a chunk in 2 of 4 replies (e.g. [1]); next: id, which finds markers in 4 and cites a chunk in 1; kb, the default for turns, finds markers in 1 and cites a chunk in 1"
        );
        // A tie goes to the default.
        let lines = [line("[1]", 1), line("[KB-1]", 1)];
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(guess(&refs).choose("kb", "turns").preset, "kb");
        // Markers with nothing retrieved still name the grammar.
        let lines = [line("[3]", 0)];
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let c = guess(&refs).choose("kb", "turns");
        assert_eq!(c.preset, "numeric");
        assert!(
            c.why.contains("finds markers in 1 of 1") && c.why.contains("no preset cites"),
            "{}",
            c.why
        );
        // No marker at all: the default.
        let lines = [line("plain", 1)];
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let c = guess(&refs).choose("kb", "turns");
        assert_eq!(
            (c.preset, c.why.as_str()),
            (
                "kb",
                "no preset finds a marker in the 1 replies: the default for turns"
            )
        );
    }

    #[test]
    fn merged_halves_equal_one_pass() {
        let lines = [
            line("x [1]", 1),
            line("[KB-1] [doc1]", 2),
            line("[^1]", 1),
            line("none", 0),
        ];
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let whole = guess(&refs);
        for cut in 0..=refs.len() {
            let mut a = guess(&refs[..cut]);
            a.merge(guess(&refs[cut..]));
            assert_eq!(a, whole, "cut at {cut}");
        }
    }
}

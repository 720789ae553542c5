//! The units a judge would be asked about: each counted sentence of an
//! answer with the chunks its citations name, the same sentences and
//! places coverage counts ([`super::cover`]).

use super::chars::CharMap;
use super::cover::{Counted, PAIRS_PER_ITEM};
use super::sentences;
use crate::markers::{Grammar, MarkerKind, resolve_citation};
use crate::model::{Answer, Turn};

/// One counted sentence of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Characters of the answer, end exclusive (as hints and quotes are
    /// placed).
    pub span: (usize, usize),
    pub text: String,
    /// The chunks its resolving citations name, in order, once each;
    /// empty for a sentence that cites nothing.
    pub chunks: Vec<u32>,
}

/// The units of `turn`'s answer, read with `grammar`; `None` when the
/// answer was not observed, or when its citations would name more
/// (sentence, chunk) pairs than coverage lists (a citation spanning a
/// whole answer, repeated: the turn is left to a reader).
pub fn units(turn: &Turn<'_>, grammar: &Grammar) -> Option<Vec<Unit>> {
    let (text, placed) = placed(turn, grammar)?;
    let sentences = sentences::sentences(&text);
    let counted = Counted::of(&sentences);
    let runs: Vec<(usize, usize, u32)> = placed
        .iter()
        .map(|&((s, e), c)| {
            let (lo, hi) = counted.holding(&sentences, s, e);
            (lo, hi, c)
        })
        .collect();
    let pairs: usize = runs.iter().map(|&(lo, hi, _)| hi - lo).sum();
    if pairs > PAIRS_PER_ITEM * (sentences.len() + runs.len()) {
        return None;
    }
    let mut cites: Vec<Vec<u32>> = vec![Vec::new(); sentences.len()];
    for &(lo, hi, c) in &runs {
        for list in &mut cites[lo..hi] {
            if !list.contains(&c) {
                list.push(c);
            }
        }
    }
    let map = CharMap::new(&text);
    Some(
        sentences
            .iter()
            .zip(cites)
            .filter(|(s, _)| s.counted)
            .map(|(s, chunks)| Unit {
                span: (map.char_at(&text, s.start), map.char_at(&text, s.end)),
                text: text[s.start..s.end].trim().to_owned(),
                chunks,
            })
            .collect(),
    )
}

/// The answer text and each resolving citation's byte range in it.
type Placed = (String, Vec<((usize, usize), u32)>);

fn placed(turn: &Turn<'_>, grammar: &Grammar) -> Option<Placed> {
    let mut placed = Vec::new();
    match &turn.answer {
        Answer::Unobserved(_) => None,
        Answer::Reply(r) => {
            let text = r.decoded().into_owned();
            grammar.scan(&text, &turn.chunks, &mut |m| {
                if let MarkerKind::Cited(i) = m.kind {
                    placed.push(((m.start, m.end), i));
                }
            });
            Some((text, placed))
        }
        Answer::Citations(list, _) => {
            // No answer text logged: no sentence to list.
            let text = turn.texts.answer.as_deref().unwrap_or("").to_owned();
            let map = CharMap::new(&text);
            let n = turn.chunks.len() as u64;
            for (k, &index) in list.iter().enumerate() {
                let span = turn.texts.cites.get(k).and_then(|c| c.span);
                if let (MarkerKind::Cited(i), Some((s, e))) = (resolve_citation(index, n), span)
                    && let (Some(s), Some(e)) = (map.byte_at(&text, s), map.byte_at(&text, e))
                {
                    placed.push(((s, e), i));
                }
            }
            Some((text, placed))
        }
    }
}

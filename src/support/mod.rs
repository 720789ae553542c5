//! Support checks beyond the verdict: how much of an answer carries a
//! citation (coverage), whether quoted text is in the chunk it cites
//! (quote checks), whether the offsets a provider gives point where its
//! text says, and which cited sentences hold a number none of their chunks
//! holds (hints). None of it changes a verdict (`grade` decides those);
//! all of it reads only text the log holds.

pub mod hints;
pub mod quote;
pub mod sentences;

use crate::markers::{Grammar, MarkerKind, resolve_citation};
use crate::model::{Answer, Support, Turn};
use hints::HintKind;
use quote::QuoteCheck;
use sentences::Sentence;

/// One citation's checks, for `explain` and `evidence`.
#[derive(Debug, Clone, PartialEq)]
pub struct CiteCheck {
    /// Its position in the citations list (0-based).
    pub citation: usize,
    /// The 1-based chunk it resolves to.
    pub chunk: Option<u32>,
    /// Its span in the answer (characters, end exclusive).
    pub span: Option<(usize, usize)>,
    /// The quote check, where it quotes and the chunk's text is in the log.
    pub quote: Option<QuoteCheck>,
    /// Whether its offsets point where its texts say (`None`: nothing to
    /// check them against).
    pub offsets_match: Option<bool>,
}

/// One hint, placed in the answer.
#[derive(Debug, Clone, PartialEq)]
pub struct HintAt {
    pub kind: HintKind,
    /// The flagged sentence: characters of the answer, end exclusive.
    pub sentence: (usize, usize),
    /// The flagged value.
    pub value: String,
}

/// Everything the support checks found in one turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    pub counts: Support,
    pub cites: Vec<CiteCheck>,
    pub hints: Vec<HintAt>,
}

/// The support checks of `turn`, read with `grammar` (for a reply's
/// inline markers).
pub fn analyse(turn: &Turn<'_>, grammar: &Grammar) -> Analysis {
    analyse_kinds(turn, grammar, hints::SHIPPED)
}

/// [`analyse`], raising hints of `kinds` (the tests read every kind).
pub(crate) fn analyse_kinds(turn: &Turn<'_>, grammar: &Grammar, kinds: &[HintKind]) -> Analysis {
    let mut a = Analysis::default();
    let n = turn.chunks.len() as u64;
    // Where each resolving citation sits in the answer: a byte range of
    // the answer text, and the chunk.
    let mut placed: Vec<((usize, usize), u32)> = Vec::new();
    let text = match &turn.answer {
        Answer::Unobserved(_) => return a,
        Answer::Reply(r) => {
            let text = r.decoded();
            grammar.scan(&text, &turn.chunks, &mut |m| {
                if let MarkerKind::Cited(i) = m.kind {
                    placed.push(((m.start, m.end), i));
                }
            });
            Some(text)
        }
        Answer::Citations(list, _) => {
            let text = turn.texts.answer.clone();
            for (k, &index) in list.iter().enumerate() {
                let chunk = match resolve_citation(index, n) {
                    MarkerKind::Cited(i) => Some(i),
                    _ => None,
                };
                let check = cite_check(turn, k, chunk, text.as_deref());
                if let (Some(i), Some(span), Some(t)) = (chunk, check.span, text.as_deref())
                    && let (Some(s), Some(e)) =
                        (quote::byte_at(t, span.0), quote::byte_at(t, span.1))
                {
                    placed.push(((s, e), i));
                }
                tally_cite(&mut a.counts, &check);
                a.cites.push(check);
            }
            text
        }
    };
    if let Some(text) = text {
        cover(&mut a, turn, &text, &placed, kinds);
    }
    a
}

fn tally_cite(c: &mut Support, check: &CiteCheck) {
    match check.quote {
        Some(QuoteCheck::Exact) => c.quotes_exact += 1,
        Some(QuoteCheck::Normalised) => c.quotes_normalised += 1,
        Some(QuoteCheck::Absent) => c.quotes_absent += 1,
        None => {}
    }
    c.offsets_mismatched += u32::from(check.offsets_match == Some(false));
}

/// The checks of structured citation `k`, resolving to `chunk`.
fn cite_check(turn: &Turn<'_>, k: usize, chunk: Option<u32>, text: Option<&str>) -> CiteCheck {
    let cite = turn.texts.cites.get(k);
    let chunk_text = chunk
        .and_then(|i| turn.texts.chunks.get(i as usize - 1))
        .and_then(Option::as_ref)
        .map(|r| r.decoded());
    let quote = cite.and_then(|c| c.quote.as_deref());
    let mut offsets = Vec::new();
    if let (Some(c), Some(t)) = (cite, text)
        && let (Some((s, e)), Some(said)) = (c.span, c.span_text.as_deref())
    {
        offsets.push(quote::chars(t, s, e).is_some_and(|got| quote::same(got, said)));
    }
    if let (Some(c), Some(q), Some(ct)) = (cite, quote, chunk_text.as_deref())
        && let Some((s, e)) = c.quote_at
    {
        offsets.push(quote::chars(ct, s, e).is_some_and(|got| quote::same(got, q)));
    }
    CiteCheck {
        citation: k,
        chunk,
        span: cite.and_then(|c| c.span),
        quote: quote
            .zip(chunk_text.as_deref())
            .and_then(|(q, ct)| quote::check(q, ct)),
        offsets_match: (!offsets.is_empty()).then(|| offsets.iter().all(|&m| m)),
    }
}

/// Coverage and hints: which sentences carry a resolving citation, and
/// which of those hold a value none of their cited chunks holds
/// (of `kinds`).
fn cover(
    a: &mut Analysis,
    turn: &Turn<'_>,
    text: &str,
    placed: &[((usize, usize), u32)],
    kinds: &[HintKind],
) {
    let sentences = sentences::sentences(text);
    let mut cited: Vec<Vec<u32>> = vec![Vec::new(); sentences.len()];
    for &((s, e), chunk) in placed {
        for k in holding(&sentences, s, e) {
            if !cited[k].contains(&chunk) {
                cited[k].push(chunk);
            }
        }
    }
    // Each cited chunk's facts, read once per turn, and only when a
    // shipped hint kind will look them up.
    let read = !kinds.is_empty();
    let mut facts: Vec<Option<hints::Facts>> = if read {
        vec![None; turn.texts.chunks.len()]
    } else {
        Vec::new()
    };
    for (k, s) in sentences.iter().enumerate() {
        if !s.counted {
            continue;
        }
        a.counts.sentences += 1;
        if cited[k].is_empty() {
            continue;
        }
        a.counts.cited_sentences += 1;
        if !read || !cited[k].iter().all(|&i| has_text(turn, i)) {
            continue;
        }
        for &i in &cited[k] {
            let slot = &mut facts[i as usize - 1];
            if slot.is_none() {
                let t = turn.texts.chunks[i as usize - 1]
                    .as_ref()
                    .map(|r| r.decoded());
                *slot = Some(hints::Facts::of(
                    t.as_deref().unwrap_or(""),
                    hints::needs_words(kinds),
                ));
            }
        }
        let refs: Vec<&hints::Facts> = cited[k]
            .iter()
            .filter_map(|&i| facts[i as usize - 1].as_ref())
            .collect();
        let sentence = &text[s.start..s.end];
        for h in hints::select(sentence, &refs, kinds) {
            a.counts.hints += 1;
            a.hints.push(HintAt {
                kind: h.kind,
                sentence: (quote::char_at(text, s.start), quote::char_at(text, s.end)),
                value: sentence[h.start..h.end].to_owned(),
            });
        }
    }
}

/// Whether the log holds the text of chunk `i` (1-based).
fn has_text(turn: &Turn<'_>, i: u32) -> bool {
    turn.texts
        .chunks
        .get(i as usize - 1)
        .is_some_and(Option::is_some)
}

/// The counted sentences a citation at bytes `s..e` carries to: those it
/// overlaps (a point: the one it falls in or ends), or, when it sits in
/// an uncounted stretch (a line of markers), the counted one before.
fn holding(sentences: &[Sentence], s: usize, e: usize) -> Vec<usize> {
    let hit: Vec<usize> = sentences
        .iter()
        .enumerate()
        .filter(|(_, x)| {
            if s == e {
                x.start <= s && s <= x.end
            } else {
                s < x.end && e > x.start
            }
        })
        .map(|(k, _)| k)
        .collect();
    let counted: Vec<usize> = hit
        .iter()
        .copied()
        .filter(|&k| sentences[k].counted)
        .collect();
    if !counted.is_empty() {
        return counted;
    }
    let before = hit
        .first()
        .copied()
        .unwrap_or_else(|| sentences.iter().take_while(|x| x.start <= s).count());
    sentences[..before.min(sentences.len())]
        .iter()
        .rposition(|x| x.counted)
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests;

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
/// which of those hold a value of `kinds` none of their cited chunks
/// holds.
fn cover(
    a: &mut Analysis,
    turn: &Turn<'_>,
    text: &str,
    placed: &[((usize, usize), u32)],
    kinds: &[HintKind],
) {
    let sentences = sentences::sentences(text);
    // (sentence, chunk) for every citation, each pair once.
    let mut cited: Vec<(usize, u32)> = Vec::with_capacity(placed.len());
    for &((s, e), chunk) in placed {
        holding(&sentences, s, e, &mut |k| cited.push((k, chunk)));
    }
    cited.sort_unstable();
    cited.dedup();
    let read = !kinds.is_empty() && turn.texts.chunks.iter().any(Option::is_some);
    // Each cited chunk's facts, read once per turn when first cited.
    let mut facts: Vec<Option<hints::Facts>> = Vec::new();
    let mut at = 0;
    for (k, s) in sentences.iter().enumerate() {
        let first = at;
        while at < cited.len() && cited[at].0 == k {
            at += 1;
        }
        if !s.counted {
            continue;
        }
        a.counts.sentences += 1;
        if at == first {
            continue;
        }
        a.counts.cited_sentences += 1;
        if !read {
            continue;
        }
        let chunks = &cited[first..at];
        let texts = &turn.texts.chunks;
        if !chunks
            .iter()
            .all(|&(_, i)| texts.get(i as usize - 1).is_some_and(Option::is_some))
        {
            continue;
        }
        if facts.is_empty() {
            facts = vec![None; texts.len()];
        }
        for &(_, i) in chunks {
            let slot = &mut facts[i as usize - 1];
            if slot.is_none() {
                let t = texts[i as usize - 1].as_ref().map(|r| r.decoded());
                let t = t.as_deref().unwrap_or("");
                *slot = Some(hints::Facts::of(t, hints::needs_words(kinds)));
            }
        }
        let refs: Vec<&hints::Facts> = chunks
            .iter()
            .filter_map(|&(_, i)| facts[i as usize - 1].as_ref())
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

/// The counted sentences a citation at bytes `s..e` carries to (each given
/// to `f`): those it overlaps (a point: the one it falls in or ends), or,
/// when it sits in an uncounted stretch (a line of markers), the counted
/// one before.
fn holding(sentences: &[Sentence], s: usize, e: usize, f: &mut dyn FnMut(usize)) {
    // The first sentence that ends at or after the citation's start.
    let from = sentences.partition_point(|x| x.end < s);
    let mut any = false;
    let mut first_hit = None;
    for (k, x) in sentences.iter().enumerate().skip(from) {
        let hit = if s == e {
            x.start <= s && s <= x.end
        } else {
            s < x.end && e > x.start
        };
        if !hit {
            if x.start >= e.max(s + 1) {
                break;
            }
            continue;
        }
        first_hit.get_or_insert(k);
        if x.counted {
            any = true;
            f(k);
        }
    }
    if any {
        return;
    }
    let before = first_hit.unwrap_or(from).min(sentences.len());
    if let Some(k) = sentences[..before].iter().rposition(|x| x.counted) {
        f(k);
    }
}

#[cfg(test)]
mod tests;

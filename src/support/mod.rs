//! Support checks beyond the verdict: how much of an answer carries a
//! citation (coverage), whether quoted text is in the chunk it cites
//! (quote checks), whether the offsets a provider gives point where its
//! text says, and which cited sentences hold a number none of their chunks
//! holds (hints). None of it changes a verdict (`grade` decides those);
//! all of it reads only text the log holds.

pub mod chars;
mod cover;
pub mod hints;
pub mod quote;
pub mod sentences;
mod work;

use crate::markers::{Grammar, MarkerKind, resolve_citation};
use crate::model::{Answer, Cite, Support, Turn};
use chars::CharMap;
use hints::HintKind;
use quote::QuoteCheck;
use work::{Budget, ChunkTexts};

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
    /// Its checks were not run: the turn's budget was spent
    /// ([`work::Budget`]).
    pub unchecked: bool,
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
///
/// Linear in the turn's texts: sentences are split in one pass, each
/// citation's sentences are found by binary search, character offsets are
/// mapped through one [`CharMap`] per text, each chunk is decoded and
/// normalised at most once, and the quote and offset checks share one
/// [`Budget`]: a turn whose checks would examine more text than its budget
/// allows has the rest counted `unchecked` instead of run.
pub(crate) fn analyse_kinds(turn: &Turn<'_>, grammar: &Grammar, kinds: &[HintKind]) -> Analysis {
    let mut a = Analysis::default();
    // Where each resolving citation sits in the answer: a byte range of
    // the answer text, and the chunk.
    let mut placed: Vec<((usize, usize), u32)> = Vec::new();
    let mut chunks = ChunkTexts::new(turn);
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
            let map = text.as_deref().map(CharMap::new);
            let answer = text.as_deref().zip(map.as_ref());
            let mut budget = Budget::for_turn(turn);
            let n = turn.chunks.len() as u64;
            for (k, &index) in list.iter().enumerate() {
                let chunk = match resolve_citation(index, n) {
                    MarkerKind::Cited(i) => Some(i),
                    _ => None,
                };
                let check = match a.cites.last() {
                    Some(prev) if same_place(turn, k, prev, chunk) => CiteCheck {
                        citation: k,
                        ..prev.clone()
                    },
                    _ => cite_check(turn, k, chunk, answer, &mut chunks, &mut budget),
                };
                if let (Some(i), Some(span), Some((t, m))) = (chunk, check.span, answer)
                    && let (Some(s), Some(e)) = (m.byte_at(t, span.0), m.byte_at(t, span.1))
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
        cover::cover(&mut a, &text, &placed, &mut chunks, kinds);
    }
    a
}

/// Whether citation `k` says what the one before it said, to the same
/// chunk (one provider span that names many chunks, a Gemini support's
/// `groundingChunkIndices`; the same quote cited again): then its checks
/// are the same, made once. A text the two share is the same by
/// reference (one span naming many chunks costs nothing per chunk); two
/// texts read apart are compared, which costs at most their length: text
/// the line holds twice.
fn same_place(turn: &Turn<'_>, k: usize, prev: &CiteCheck, chunk: Option<u32>) -> bool {
    let cites = &turn.texts.cites;
    let same = |a: &Option<crate::model::Shared>, b: &Option<crate::model::Shared>| match (a, b) {
        (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b) || a == b,
        (None, None) => true,
        _ => false,
    };
    match (k.checked_sub(1).and_then(|p| cites.get(p)), cites.get(k)) {
        (Some(p), Some(c)) => {
            prev.chunk == chunk
                && p.span == c.span
                && p.quote_at == c.quote_at
                && same(&p.quote, &c.quote)
                && same(&p.span_text, &c.span_text)
        }
        (None, None) => prev.chunk == chunk,
        _ => false,
    }
}

fn tally_cite(c: &mut Support, check: &CiteCheck) {
    match check.quote {
        Some(QuoteCheck::Exact) => c.quotes_exact += 1,
        Some(QuoteCheck::Normalised) => c.quotes_normalised += 1,
        Some(QuoteCheck::Absent) => c.quotes_absent += 1,
        None => {}
    }
    c.offsets_mismatched += u32::from(check.offsets_match == Some(false));
    c.unchecked += u32::from(check.unchecked);
}

/// The checks of structured citation `k`, resolving to `chunk`; `answer`
/// is the answer text with its map.
fn cite_check(
    turn: &Turn<'_>,
    k: usize,
    chunk: Option<u32>,
    answer: Option<(&str, &CharMap)>,
    chunks: &mut ChunkTexts<'_>,
    budget: &mut Budget,
) -> CiteCheck {
    let mut check = CiteCheck {
        citation: k,
        chunk,
        span: None,
        quote: None,
        offsets_match: None,
        unchecked: false,
    };
    let Some(cite) = turn.texts.cites.get(k) else {
        return check;
    };
    check.span = cite.span;
    let mut offsets = Vec::new();
    if let (Some((t, m)), Some((s, e)), Some(said)) = (answer, cite.span, cite.span_text.as_deref())
    {
        let got = m.chars(t, s, e);
        if !budget.take(got.map_or(0, str::len) + said.len()) {
            check.unchecked = true;
            return check;
        }
        offsets.push(got.is_some_and(|got| quote::same(got, said)));
    }
    if let (Some(i), Some(q)) = (chunk, cite.quote.as_deref())
        && chunks.has_text(i)
    {
        if let Some((s, e)) = cite.quote_at {
            let got = chunks.chars(i, s, e);
            if !budget.take(got.map_or(0, str::len) + q.len()) {
                check.unchecked = true;
                return check;
            }
            offsets.push(got.is_some_and(|got| quote::same(got, q)));
        }
        match quote_check(cite, q, i, chunks, budget) {
            Ok(quote) => check.quote = quote,
            Err(Spent) => {
                check.unchecked = true;
                return check;
            }
        }
    }
    check.offsets_match = (!offsets.is_empty()).then(|| offsets.iter().all(|&m| m));
    check
}

/// The quote check of `q` against chunk `i`: at the place the citation
/// names first (where the provider's offsets are right, that is the whole
/// check), then anywhere in the chunk, as written and normalised.
fn quote_check(
    cite: &Cite,
    q: &str,
    i: u32,
    chunks: &mut ChunkTexts<'_>,
    budget: &mut Budget,
) -> Result<Option<QuoteCheck>, Spent> {
    if q.trim().is_empty() {
        return Ok(None);
    }
    if let Some((s, e)) = cite.quote_at
        && chunks.chars(i, s, e) == Some(q)
    {
        return Ok(Some(QuoteCheck::Exact));
    }
    if !budget.take(chunks.len(i) + q.len()) {
        return Err(Spent);
    }
    if chunks.contains(i, q) {
        return Ok(Some(QuoteCheck::Exact));
    }
    // Normalising costs about twice the text; the chunk's form is made
    // once per turn, then only searched.
    let made = if chunks.is_normalised(i) {
        0
    } else {
        2 * chunks.len(i)
    };
    if !budget.take(made + chunks.len(i) + 2 * q.len()) {
        return Err(Spent);
    }
    Ok(Some(
        match chunks.normalised(i).contains(&quote::normalise(q)) {
            true => QuoteCheck::Normalised,
            false => QuoteCheck::Absent,
        },
    ))
}

/// The turn's budget would be overdrawn.
struct Spent;

#[cfg(test)]
mod tests;

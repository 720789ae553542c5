//! Support checks beyond the verdict: how much of an answer carries a
//! citation (coverage), whether quoted text is in the chunk it cites
//! (quote checks), whether the offsets a provider gives point where its
//! text says, and which cited sentences hold a number none of their chunks
//! holds (hints). None of it changes a verdict (`grade` decides those);
//! all of it reads only text the log holds.

pub mod chars;
mod classify;
mod cover;
pub mod hints;
pub mod quotations;
pub mod quote;
pub mod sentences;
pub mod units;
mod work;

use crate::markers::{Grammar, MarkerKind, resolve_citation};
use crate::model::{Answer, Support, Turn};
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

/// One quotation of an answer that cites with markers
/// ([`quotations`]), checked against the chunks its markers cite.
#[derive(Debug, Clone, PartialEq)]
pub struct QuoteAt {
    /// Its content: characters of the answer, end exclusive.
    pub span: (usize, usize),
    /// The chunks its markers cite.
    pub chunks: Vec<u32>,
    /// Its class; `None` when its checks were not run (the turn's budget
    /// was spent).
    pub check: Option<QuoteCheck>,
    /// The quoted text.
    pub text: String,
}

/// Everything the support checks found in one turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    pub counts: Support,
    pub cites: Vec<CiteCheck>,
    /// Quotations in a marker answer, with the markers that cite them.
    pub quotes: Vec<QuoteAt>,
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
            if chunks.any_text() {
                inline_quotes(&mut a, turn, &text, &placed, &mut chunks);
            }
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
    tally_quote(c, check.quote);
    c.offsets_mismatched += u32::from(check.offsets_match == Some(false));
    c.unchecked += u32::from(check.unchecked);
}

fn tally_quote(c: &mut Support, check: Option<QuoteCheck>) {
    let Some(check) = check else { return };
    let n = match check {
        QuoteCheck::Exact => &mut c.quotes_exact,
        QuoteCheck::Normalised => &mut c.quotes_normalised,
        QuoteCheck::Misattributed(_) => &mut c.quotes_misattributed,
        QuoteCheck::Stitched => &mut c.quotes_stitched,
        QuoteCheck::Fabricated => &mut c.quotes_fabricated,
    };
    *n += 1;
    c.quotes_absent += u32::from(check.class() != quote::QuoteClass::Supported);
}

/// Checks each quotation of a marker answer that resolving markers cite
/// and whose cited chunks all have their text in the log.
fn inline_quotes(
    a: &mut Analysis,
    turn: &Turn<'_>,
    text: &str,
    placed: &[((usize, usize), u32)],
    chunks: &mut ChunkTexts<'_>,
) {
    let found = quotations::find(text);
    if found.is_empty() {
        return;
    }
    let mut budget = Budget::for_turn(turn);
    let map = CharMap::new(text);
    for q in &found {
        let (cut, cited) = quotations::citing(text, q, placed);
        if cited.is_empty() || !cited.iter().all(|&i| chunks.has_text(i)) {
            continue;
        }
        let quoted = quotations::quoted(text, q, cut);
        let check = classify::classify(&quoted, &cited, chunks, &mut budget);
        if check.is_err() {
            a.counts.unchecked += 1;
        }
        let check = check.unwrap_or(None);
        tally_quote(&mut a.counts, check);
        a.quotes.push(QuoteAt {
            span: (map.char_at(text, q.start), map.char_at(text, cut)),
            chunks: cited,
            check,
            text: quoted,
        });
    }
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
        let at_place = cite
            .quote_at
            .is_some_and(|(s, e)| chunks.chars(i, s, e) == Some(q));
        let found = match at_place {
            // Where the provider's offsets are right, that is the whole check.
            true => Ok(Some(QuoteCheck::Exact)),
            false => classify::classify(q, &[i], chunks, budget),
        };
        match found {
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

/// The turn's budget would be overdrawn.
struct Spent;

#[cfg(test)]
mod tests;

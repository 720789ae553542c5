//! A quote classed against every retrieved chunk ([`super::quote`] gives
//! the classes): its cited chunks first, as written then normalised, then
//! every other chunk with text, then the pieces of all of them.
//!
//! Every step takes from the turn's [`Budget`] what it reads: a chunk's
//! forms are made once per turn and then only searched, and the pieces of
//! all chunks are made once, when the first quote no chunk holds needs
//! them.

use super::Spent;
use super::quote::{self, QuoteCheck};
use super::work::{Budget, ChunkTexts};

/// The class of `q`, a quote cited to the chunks `cited` (each with its
/// text in the log). `None` for a quote of white space only.
pub(super) fn classify(
    q: &str,
    cited: &[u32],
    chunks: &mut ChunkTexts<'_>,
    budget: &mut Budget,
) -> Result<Option<QuoteCheck>, Spent> {
    if q.trim().is_empty() {
        return Ok(None);
    }
    for &i in cited {
        take(budget, chunks.len(i) + q.len())?;
        if chunks.contains(i, q) {
            return Ok(Some(QuoteCheck::Exact));
        }
    }
    let forms = Forms::of(q);
    for &i in cited {
        if held(&forms, i, chunks, budget)? {
            return Ok(Some(QuoteCheck::Normalised));
        }
    }
    for j in 1..=chunks.count() {
        if !cited.contains(&j) && chunks.has_text(j) && held(&forms, j, chunks, budget)? {
            return Ok(Some(QuoteCheck::Misattributed(j)));
        }
    }
    if !chunks.has_pieces() {
        take(budget, 8 * chunks.total_len())?;
    }
    take(budget, 4 * forms.words.len())?;
    Ok(Some(
        match quote::pieces_cover(forms.words.trim(), chunks.pieces()) {
            true => QuoteCheck::Stitched,
            false => QuoteCheck::Fabricated,
        },
    ))
}

/// A quote in the two forms chunks are searched in.
struct Forms {
    normalised: String,
    /// [`quote::words`], with a space at each end, so that it matches
    /// whole words only.
    words: String,
}

impl Forms {
    fn of(q: &str) -> Forms {
        Forms {
            normalised: quote::normalise(q),
            words: format!(" {} ", quote::words(q)),
        }
    }
}

/// Whether chunk `i` holds the quote normalised, or word for word once
/// case and punctuation are set aside ([`quote::words`]).
fn held(
    f: &Forms,
    i: u32,
    chunks: &mut ChunkTexts<'_>,
    budget: &mut Budget,
) -> Result<bool, Spent> {
    let len = chunks.len(i);
    // Making a form costs about twice the text; searching it, its length.
    let made = 2 * len * usize::from(!chunks.is_normalised(i))
        + 3 * len * usize::from(!chunks.has_words(i));
    take(
        budget,
        made + 2 * len + 2 * (f.normalised.len() + f.words.len()),
    )?;
    if chunks.normalised(i).contains(&f.normalised) {
        return Ok(true);
    }
    Ok(!f.words.trim().is_empty() && chunks.words(i).contains(&f.words))
}

fn take(budget: &mut Budget, cost: usize) -> Result<(), Spent> {
    match budget.take(cost) {
        true => Ok(()),
        false => Err(Spent),
    }
}

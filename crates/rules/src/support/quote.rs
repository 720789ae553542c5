//! Quote checks: is the text a citation says it quotes in the chunk it
//! cites, and if not, where does it come from?
//!
//! A quote is `supported` when its cited chunk holds it: `exact` when the
//! chunk's text holds the quote as written, `normalised` when it does after
//! both are brought to one form: Unicode compatibility forms folded (NFKC:
//! the ligature `ﬁ` is `fi`, a no-break space a space, full-width letters
//! plain ones), every run of whitespace (line endings included) one space,
//! and the ends trimmed. A quote its cited chunk does not hold is
//! `misattributed` when another retrieved chunk holds it (the first such
//! chunk is named), `stitched` when every word of it lies in a run of at
//! least [`PIECE_WORDS`] words that some retrieved chunk holds, but no
//! chunk holds the whole (pieces put together), and `fabricated`
//! otherwise. "Holds" is as written, normalised, or word for word
//! ([`words`]: letters and digits only, without case). A quote is checked only against text the log
//! holds: a chunk whose text was not logged can neither support nor
//! refute it.

use unicode_normalization::UnicodeNormalization;

/// The fewest consecutive words a piece of a `stitched` quote has: shorter
/// runs ("of the", "in the city") are in any text and prove nothing.
pub const PIECE_WORDS: usize = 4;

/// What a quote check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteCheck {
    Exact,
    Normalised,
    /// Not in its cited chunk, but in this (1-based) retrieved chunk.
    Misattributed(u32),
    Stitched,
    Fabricated,
}

/// A quote check's class: the first two checks are both `supported`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum QuoteClass {
    Supported,
    Misattributed,
    Stitched,
    Fabricated,
}

impl QuoteClass {
    pub fn as_str(self) -> &'static str {
        match self {
            QuoteClass::Supported => "supported",
            QuoteClass::Misattributed => "misattributed",
            QuoteClass::Stitched => "stitched",
            QuoteClass::Fabricated => "fabricated",
        }
    }
}

impl QuoteCheck {
    /// How it matched: `exact`, `normalised`, or its class when its
    /// chunk does not hold it.
    pub fn as_str(self) -> &'static str {
        match self {
            QuoteCheck::Exact => "exact",
            QuoteCheck::Normalised => "normalised",
            other => other.class().as_str(),
        }
    }

    pub fn class(self) -> QuoteClass {
        match self {
            QuoteCheck::Exact | QuoteCheck::Normalised => QuoteClass::Supported,
            QuoteCheck::Misattributed(_) => QuoteClass::Misattributed,
            QuoteCheck::Stitched => QuoteClass::Stitched,
            QuoteCheck::Fabricated => QuoteClass::Fabricated,
        }
    }

    /// The retrieved chunk that holds a misattributed quote.
    pub fn found_in(self) -> Option<u32> {
        match self {
            QuoteCheck::Misattributed(i) => Some(i),
            _ => None,
        }
    }

    /// How `explain` words it: `exact`, `misattributed (in chunk 3)`, …
    pub fn describe(self) -> String {
        match self.found_in() {
            Some(i) => format!("misattributed (in chunk {i})"),
            None => self.as_str().to_owned(),
        }
    }
}

/// `quote` checked against `chunk` alone; `None` for an empty quote
/// (nothing to check). With one chunk, what it does not hold is
/// `stitched` or `fabricated`.
pub fn check(quote: &str, chunk: &str) -> Option<QuoteCheck> {
    if quote.trim().is_empty() {
        return None;
    }
    Some(if chunk.contains(quote) {
        QuoteCheck::Exact
    } else if normalise(chunk).contains(&normalise(quote)) {
        QuoteCheck::Normalised
    } else if pieces_cover(&words(quote), &Pieces::of([words(chunk).as_str()])) {
        QuoteCheck::Stitched
    } else {
        QuoteCheck::Fabricated
    })
}

/// The one form texts are compared in (see the module documentation).
pub fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.nfkc() {
        if c.is_whitespace() {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// The words of `s` as pieces are compared: its runs of letters and
/// digits in its [`normalise`]d form, lower-cased, joined by one space
/// (so `Top-Earning Stars` and `top earning-stars` are the same words).
pub fn words(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut gap = false;
    for c in s.nfkc() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

/// Every run of [`PIECE_WORDS`] consecutive words of some texts (each in
/// [`words`] form), hashed: what a `stitched` quote's pieces are looked up
/// in. One entry per word of the texts.
#[derive(Debug, Default)]
pub struct Pieces(std::collections::HashSet<u64>);

impl Pieces {
    /// The pieces of `texts`, each already in [`words`] form.
    pub fn of<'a>(texts: impl IntoIterator<Item = &'a str>) -> Pieces {
        let mut set = std::collections::HashSet::new();
        for t in texts {
            let w: Vec<&str> = t.split(' ').filter(|w| !w.is_empty()).collect();
            set.extend(w.windows(PIECE_WORDS).map(piece_hash));
        }
        Pieces(set)
    }
}

fn piece_hash(w: &[&str]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    w.hash(&mut h);
    h.finish()
}

/// Whether every word of `quote` (in [`words`] form) lies in a run of
/// [`PIECE_WORDS`] words that `pieces` holds.
pub fn pieces_cover(quote: &str, pieces: &Pieces) -> bool {
    let w: Vec<&str> = quote.split(' ').filter(|w| !w.is_empty()).collect();
    if w.len() < PIECE_WORDS {
        return false;
    }
    // The first word not yet covered.
    let mut next = 0;
    for (k, win) in w.windows(PIECE_WORDS).enumerate() {
        if pieces.0.contains(&piece_hash(win)) {
            if k > next {
                return false;
            }
            next = k + PIECE_WORDS;
        }
    }
    next >= w.len()
}

/// Whether two texts are the same once normalised: compared a character
/// at a time, so two texts that differ early cost only that much.
pub fn same(a: &str, b: &str) -> bool {
    a == b || folded(a).eq(folded(b))
}

/// The characters of [`normalise`]`(s)`, made as they are read.
fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
    let mut space = false;
    let mut started = false;
    s.nfkc()
        .flat_map(move |c| {
            if c.is_whitespace() {
                space = started;
                return [None, None];
            }
            started = true;
            [std::mem::take(&mut space).then_some(' '), Some(c)]
        })
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_normalised_absent() {
        let chunk = "Rubyʼs ﬁrst release\r\ncame in  1995.";
        assert_eq!(
            check("first release came in 1995", chunk),
            Some(QuoteCheck::Normalised)
        );
        assert_eq!(check("came in  1995.", chunk), Some(QuoteCheck::Exact));
        assert_eq!(check("came in 1996", chunk), Some(QuoteCheck::Fabricated));
        assert_eq!(check("  ", chunk), None);
    }

    #[test]
    fn pieces_cover_every_word_or_nothing() {
        let chunk =
            words("Refunds are issued within 30 days. Shipping is free on orders over $50.");
        let p = Pieces::of([chunk.as_str()]);
        let cover = |q: &str| pieces_cover(&words(q), &p);
        assert!(cover(
            "refunds are issued within 30 days; shipping is free on orders"
        ));
        assert!(
            cover("Refunds are issued within"),
            "one piece, another case"
        );
        assert!(
            !cover("refunds are issued within 14 days"),
            "a word in no piece"
        );
        assert!(!cover("within 30 days"), "shorter than a piece");
        assert_eq!(words("“Hello,” she said — OK?"), "hello she said ok");
        assert_eq!(words("Top-Earning  Stars"), words("top earning-stars"));
    }

    #[test]
    fn same_is_equality_of_the_normalised_forms() {
        let texts = [
            "", " a  b ", "a b", "ﬁ\r\nx", "fi x", "a b c", " ", "x\u{a0}",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(same(a, b), normalise(a) == normalise(b), "{a:?} {b:?}");
            }
        }
    }
}

//! Quote checks: is the text a citation says it quotes in the chunk it
//! cites?
//!
//! `exact` when the chunk's text holds the quote as written; `normalised`
//! when it does after both are brought to one form: Unicode compatibility
//! forms folded (NFKC: the ligature `ﬁ` is `fi`, a no-break space a space,
//! full-width letters plain ones), every run of whitespace (line endings
//! included) one space, and the ends trimmed; `absent` otherwise. A quote
//! is checked only against text the log holds.

use unicode_normalization::UnicodeNormalization;

/// What a quote check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QuoteCheck {
    Exact,
    Normalised,
    Absent,
}

impl QuoteCheck {
    pub fn as_str(self) -> &'static str {
        match self {
            QuoteCheck::Exact => "exact",
            QuoteCheck::Normalised => "normalised",
            QuoteCheck::Absent => "absent",
        }
    }
}

/// `quote` checked against `chunk`; `None` for an empty quote (nothing to
/// check).
pub fn check(quote: &str, chunk: &str) -> Option<QuoteCheck> {
    if quote.trim().is_empty() {
        return None;
    }
    Some(if chunk.contains(quote) {
        QuoteCheck::Exact
    } else if normalise(chunk).contains(&normalise(quote)) {
        QuoteCheck::Normalised
    } else {
        QuoteCheck::Absent
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
        assert_eq!(check("came in 1996", chunk), Some(QuoteCheck::Absent));
        assert_eq!(check("  ", chunk), None);
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

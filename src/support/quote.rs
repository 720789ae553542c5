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

/// Whether two texts are the same once normalised.
pub fn same(a: &str, b: &str) -> bool {
    a == b || normalise(a) == normalise(b)
}

/// The characters `start..end` (Unicode scalar values, end exclusive) of
/// `text`, or `None` when they fall outside it.
pub fn chars(text: &str, start: usize, end: usize) -> Option<&str> {
    let a = byte_at(text, start)?;
    let b = byte_at(text, end)?;
    text.get(a..b).filter(|_| a <= b)
}

/// The byte offset of character `n` of `text` (its length for `n` equal
/// to the character count).
pub fn byte_at(text: &str, n: usize) -> Option<usize> {
    if text.is_ascii() {
        return (n <= text.len()).then_some(n);
    }
    text.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .nth(n)
}

/// The character offset of byte `i` of `text`.
pub fn char_at(text: &str, i: usize) -> usize {
    if text.is_ascii() {
        i
    } else {
        text[..i.min(text.len())].chars().count()
    }
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
    fn character_offsets() {
        assert_eq!(chars("a‑b c", 2, 5), Some("b c"));
        assert_eq!(chars("abc", 1, 9), None);
        assert_eq!(char_at("a‑b", 4), 2);
    }
}

//! Character and byte offsets of one text, mapped after one forward pass.
//!
//! Providers place citations in characters (Unicode scalar values); the
//! text is UTF-8. Walking from the start for every citation costs the
//! text's length per citation, and an answer of one block per cited
//! sentence holds as many citations as sentences. A [`CharMap`] notes the
//! byte offset of every [`STEP`]th character once, so each lookup walks at
//! most [`STEP`] characters. An ASCII text needs no map at all.

/// Characters between two noted byte offsets.
pub const STEP: usize = 64;

/// The offsets of one text (see the module documentation). It does not
/// hold the text: every lookup is given the text the map was made from.
#[derive(Debug, Clone, Default)]
pub struct CharMap {
    ascii: bool,
    /// The byte offset of character `k * STEP`, for every `k` up to the
    /// character count (not filled for ASCII text).
    marks: Vec<usize>,
    /// The text's length in characters.
    count: usize,
}

impl CharMap {
    /// The map of `text`: one pass over it.
    pub fn new(text: &str) -> CharMap {
        if text.is_ascii() {
            return CharMap {
                ascii: true,
                marks: Vec::new(),
                count: text.len(),
            };
        }
        let mut marks = Vec::with_capacity(text.len() / STEP + 1);
        let mut count = 0;
        for (i, _) in text.char_indices() {
            if count % STEP == 0 {
                marks.push(i);
            }
            count += 1;
        }
        CharMap {
            ascii: false,
            marks,
            count,
        }
    }

    /// The text's length in characters.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The byte offset of character `n` of `text` (its length for `n`
    /// equal to the character count), or `None` past the end.
    pub fn byte_at(&self, text: &str, n: usize) -> Option<usize> {
        if n > self.count {
            return None;
        }
        if self.ascii {
            return Some(n);
        }
        if n == self.count {
            return Some(text.len());
        }
        let from = self.marks[n / STEP];
        text[from..]
            .char_indices()
            .nth(n % STEP)
            .map(|(i, _)| from + i)
    }

    /// The character offset of byte `i` of `text` (a byte inside a
    /// character counts as the character it is in; past the end, the
    /// character count).
    pub fn char_at(&self, text: &str, i: usize) -> usize {
        if self.ascii {
            return i.min(self.count);
        }
        if i >= text.len() {
            return self.count;
        }
        let k = self.marks.partition_point(|&m| m <= i) - 1;
        let from = self.marks[k];
        k * STEP
            + text.as_bytes()[from..i]
                .iter()
                .filter(|&&b| (b as i8) >= -0x40)
                .count()
    }

    /// The characters `start..end` of `text` (end exclusive), or `None`
    /// when they fall outside it or run backwards.
    pub fn chars<'t>(&self, text: &'t str, start: usize, end: usize) -> Option<&'t str> {
        let a = self.byte_at(text, start)?;
        let b = self.byte_at(text, end)?;
        text.get(a..b).filter(|_| a <= b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset of a text agrees with walking it from the start.
    #[test]
    fn agrees_with_a_walk_from_the_start() {
        let text: String = (0..300)
            .map(|i| ['a', 'é', '東', '😀', '\u{301}'][i % 5])
            .collect();
        let m = CharMap::new(&text);
        let walk: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        assert_eq!(m.count(), 300);
        for (n, &b) in walk.iter().enumerate() {
            assert_eq!(m.byte_at(&text, n), Some(b), "character {n}");
            assert_eq!(m.char_at(&text, b), n, "byte {b}");
        }
        assert_eq!(m.byte_at(&text, 301), None);
        assert_eq!(m.chars(&text, 1, 4), Some("é東😀"));
        assert_eq!(m.chars(&text, 4, 1), None);
        let ascii = CharMap::new("abc");
        assert_eq!(ascii.chars("abc", 1, 3), Some("bc"));
        assert_eq!(ascii.byte_at("abc", 4), None);
    }
}

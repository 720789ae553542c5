//! The sentence splitter citation coverage counts by.
//!
//! Deterministic and language-light, made for model answers: a sentence
//! ends at a line break, or at `.`, `!`, `?` (and `。！？`) followed by
//! whitespace, once closing quotes and brackets and any citation markers
//! right after it (`… 1993. [1][2] Next`) are taken into the sentence. A
//! full stop does not end one after a single capital (an initial: `J. R.`),
//! after a known abbreviation (`e.g.`, `Dr.`, `approx.`), or when the next
//! word starts in lower case.

/// Abbreviations after which a full stop does not end a sentence (compared
/// without case, dots inside kept: `e.g`).
const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "vs", "cf", "al", "approx", "ca", "mr", "mrs", "ms", "dr", "prof", "st",
    "jr", "sr", "inc", "ltd", "co", "corp", "no", "nos", "fig", "figs", "vol", "p", "pp", "u.s",
    "u.k", "a.m", "p.m", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
    "nov", "dec", "mt", "ft", "gen", "col", "lt", "sgt", "rev", "est",
];

/// One sentence: its byte range in the text, leading and trailing
/// whitespace left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sentence {
    pub start: usize,
    pub end: usize,
    /// Whether coverage counts it: it has a letter or digit outside
    /// brackets, is not a Markdown heading, and does not end in `:` (a
    /// lead-in such as "Here are the steps:").
    pub counted: bool,
}

/// The sentences of `text`, in order.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let b = text.as_bytes();
    let wide = !text.is_ascii();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(at) = next_mark(b, i, wide) {
        let c = b[at];
        let end = if c == b'\n' {
            Some((at, at + 1))
        } else if matches!(c, b'.' | b'!' | b'?') {
            terminal(text, start, at)
        } else if ["。", "！", "？"]
            .iter()
            .any(|m| b[at..].starts_with(m.as_bytes()))
        {
            Some(after_closers(text, at + 3)).map(|e| (e, e))
        } else {
            None
        };
        match end {
            Some((stop, next)) => {
                push(text, start, stop, &mut out);
                start = next;
                i = next.max(at + 1);
            }
            None => i = at + 1,
        }
    }
    push(text, start, b.len(), &mut out);
    out
}

/// The next byte from `from` that may end a sentence: a line break, `.`,
/// `!`, `?`, or (in text that is not ASCII) the first byte of `。！？`.
fn next_mark(b: &[u8], from: usize, wide: bool) -> Option<usize> {
    let rest = b.get(from..)?;
    // Each search stops at the other's find: linear in the text.
    let stop = memchr::memchr3(b'.', b'!', b'?', rest);
    let nl = memchr::memchr(b'\n', &rest[..stop.unwrap_or(rest.len())]);
    let mut first = nl.or(stop);
    if wide {
        let limit = first.unwrap_or(rest.len());
        if let Some(w) = memchr::memchr2(0xE3, 0xEF, &rest[..limit]) {
            first = Some(w);
        }
    }
    first.map(|k| from + k)
}

/// Where the sentence holding the terminal mark at `at` ends and the next
/// begins, or `None` when the mark ends no sentence.
fn terminal(text: &str, start: usize, at: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut j = at + 1;
    while j < b.len() && matches!(b[j], b'.' | b'!' | b'?') {
        j += 1;
    }
    let end = after_closers(text, j);
    // A mark inside a word or number (`3.5`, `example.com`) ends nothing.
    if end < b.len() && !b[end].is_ascii_whitespace() {
        return None;
    }
    if b[at] == b'.' && j == at + 1 && !ends_sentence(&text[start..at], &text[end..]) {
        return None;
    }
    Some((end, end))
}

/// Past closing quotes and brackets, then any bracketed markers (with the
/// spaces between them) that follow the end of a sentence.
fn after_closers(text: &str, mut j: usize) -> usize {
    let b = text.as_bytes();
    loop {
        let rest = &text[j..];
        if let Some(c) = rest.chars().next().filter(|c| "\"')]”’»】".contains(*c)) {
            j += c.len_utf8();
            continue;
        }
        let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let k = j + spaces;
        if b.get(k) == Some(&b'[')
            && let Some(close) = text[k..].find(']').filter(|&c| c <= 64)
            && !text[k..k + close].contains('\n')
        {
            j = k + close + 1;
            continue;
        }
        return j;
    }
}

/// Whether a full stop after `before` ends a sentence, `after` being the
/// text after it.
fn ends_sentence(before: &str, after: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"')
        .next()
        .unwrap_or("");
    let mut letters = word.chars();
    let initial = matches!((letters.next(), letters.next()), (Some(c), None) if c.is_uppercase());
    if initial || ABBREVIATIONS.iter().any(|a| a.eq_ignore_ascii_case(word)) {
        return false;
    }
    // The next word in lower case continues the sentence.
    !after
        .trim_start()
        .chars()
        .next()
        .is_some_and(char::is_lowercase)
}

fn push(text: &str, start: usize, end: usize, out: &mut Vec<Sentence>) {
    let s = &text[start..end];
    let lead = s.len() - s.trim_start().len();
    let t = s.trim();
    if t.is_empty() {
        return;
    }
    out.push(Sentence {
        start: start + lead,
        end: start + lead + t.len(),
        counted: counted(t),
    });
}

fn counted(t: &str) -> bool {
    if t.starts_with('#') || t.ends_with(':') {
        return false;
    }
    let mut depth = 0u32;
    t.chars().any(|c| {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        depth == 0 && c.is_alphanumeric()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(t: &str) -> Vec<&str> {
        sentences(t).iter().map(|s| &t[s.start..s.end]).collect()
    }

    #[test]
    fn markers_after_the_stop_stay_with_their_sentence() {
        assert_eq!(
            split("Ruby dates from 1993. [1][2] It was made by Matz [3]. Done!"),
            [
                "Ruby dates from 1993. [1][2]",
                "It was made by Matz [3].",
                "Done!"
            ]
        );
    }

    #[test]
    fn abbreviations_initials_decimals_and_lower_case_continue() {
        assert_eq!(
            split(
                "J. R. R. Tolkien wrote e.g. this. It costs 3.5 dollars at example.com today. ok then."
            ),
            [
                "J. R. R. Tolkien wrote e.g. this.",
                "It costs 3.5 dollars at example.com today. ok then."
            ]
        );
    }

    #[test]
    fn lines_headings_and_lead_ins() {
        let s = sentences("## Steps\nDo this:\n- first [1]\n- second\n\n[2]");
        let shown: Vec<(&str, bool)> = s
            .iter()
            .map(|x| {
                (
                    &"## Steps\nDo this:\n- first [1]\n- second\n\n[2]"[x.start..x.end],
                    x.counted,
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("## Steps", false),
                ("Do this:", false),
                ("- first [1]", true),
                ("- second", true),
                ("[2]", false)
            ]
        );
    }

    #[test]
    fn cjk_marks_end_sentences_without_spaces() {
        assert_eq!(
            split("東京は首都です。大阪は都市です。"),
            ["東京は首都です。", "大阪は都市です。"]
        );
    }
}

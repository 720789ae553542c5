//! The sentence splitter citation coverage counts by.
//!
//! Deterministic and language-light, made for model answers: a sentence
//! ends at a line break, or at `.`, `!`, `?` (and `。！？`) followed by
//! whitespace, once closing quotes and brackets and any citation markers
//! right after it (`… 1993. [1][2] Next`) are taken into the sentence. A
//! full stop does not end one after a single capital (an initial: `J. R.`),
//! after a known abbreviation (`e.g.`, `Dr.`, `approx.`), or when the next
//! word starts in lower case.

/// Whether `lower` (a word in lower case) is an abbreviation after which
/// a full stop does not end a sentence (dots inside kept: `e.g`).
fn listed(lower: &[u8]) -> bool {
    matches!(
        lower,
        b"e.g"
            | b"i.e"
            | b"etc"
            | b"vs"
            | b"cf"
            | b"al"
            | b"approx"
            | b"ca"
            | b"mr"
            | b"mrs"
            | b"ms"
            | b"dr"
            | b"prof"
            | b"st"
            | b"jr"
            | b"sr"
            | b"inc"
            | b"ltd"
            | b"co"
            | b"corp"
            | b"no"
            | b"nos"
            | b"fig"
            | b"figs"
            | b"vol"
            | b"p"
            | b"pp"
            | b"u.s"
            | b"u.k"
            | b"a.m"
            | b"p.m"
            | b"jan"
            | b"feb"
            | b"mar"
            | b"apr"
            | b"jun"
            | b"jul"
            | b"aug"
            | b"sep"
            | b"sept"
            | b"oct"
            | b"nov"
            | b"dec"
            | b"mt"
            | b"ft"
            | b"gen"
            | b"col"
            | b"lt"
            | b"sgt"
            | b"rev"
            | b"est"
    )
}

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
    let mut marks = Marks {
        b,
        wide: !text.is_ascii(),
        stop: Ahead::Unknown,
        nl: Ahead::Unknown,
        cjk: Ahead::Unknown,
    };
    let mut out = Vec::with_capacity(text.len() / 64 + 1);
    let mut start = 0;
    let mut i = 0;
    while let Some(at) = marks.next(i) {
        let c = b[at];
        let end = if c == b'\n' {
            Ok((at, at + 1))
        } else if matches!(c, b'.' | b'!' | b'?') {
            terminal(text, start, at)
        } else if ["。", "！", "？"]
            .iter()
            .any(|m| b[at..].starts_with(m.as_bytes()))
        {
            let e = after_closers(text, at + 3);
            Ok((e, e))
        } else {
            Err(at + 1)
        };
        match end {
            Ok((stop, next)) => {
                push(text, start, stop, &mut out);
                start = next;
                i = next.max(at + 1);
            }
            Err(resume) => i = resume.max(at + 1),
        }
    }
    push(text, start, b.len(), &mut out);
    out
}

/// The bytes that may end a sentence, found ahead of the splitter: a line
/// break, `.`, `!`, `?`, or (in text that is not ASCII) the first byte of
/// `。！？`. Each kind's next place is searched once and kept until the
/// splitter passes it, so every search starts where the last one of its
/// kind stopped: linear in the text whatever the mix.
struct Marks<'b> {
    b: &'b [u8],
    wide: bool,
    /// The next place of each kind at or after the last `from` (`None`:
    /// none left), or not yet searched.
    stop: Ahead,
    nl: Ahead,
    cjk: Ahead,
}

#[derive(Clone, Copy)]
enum Ahead {
    Unknown,
    At(usize),
    None,
}

impl Ahead {
    /// The next place at or after `from`, searching with `find` (from a
    /// slice start) only when the one kept lies behind.
    fn next(
        &mut self,
        b: &[u8],
        from: usize,
        find: impl Fn(&[u8]) -> Option<usize>,
    ) -> Option<usize> {
        match *self {
            Ahead::At(at) if at >= from => return Some(at),
            Ahead::None => return None,
            _ => {}
        }
        let found = b.get(from..).and_then(&find).map(|k| from + k);
        *self = found.map_or(Ahead::None, Ahead::At);
        found
    }
}

impl Marks<'_> {
    fn next(&mut self, from: usize) -> Option<usize> {
        let b = self.b;
        let stop = self
            .stop
            .next(b, from, |r| memchr::memchr3(b'.', b'!', b'?', r));
        let nl = self.nl.next(b, from, |r| memchr::memchr(b'\n', r));
        let cjk = match self.wide {
            true => self.cjk.next(b, from, |r| memchr::memchr2(0xE3, 0xEF, r)),
            false => None,
        };
        let first = match (stop, nl) {
            (Some(s), Some(n)) => Some(s.min(n)),
            (s, n) => s.or(n),
        };
        match (first, cjk) {
            (Some(f), Some(c)) => Some(f.min(c)),
            (f, c) => f.or(c),
        }
    }
}

/// Where the sentence holding the terminal mark at `at` ends and the next
/// begins, or, when the mark ends no sentence, `Err` with where to look
/// next: past the whole run of marks, since every mark of a run ends the
/// same sentence or none (each mark is looked at once: linear in the text).
fn terminal(text: &str, start: usize, at: usize) -> Result<(usize, usize), usize> {
    let b = text.as_bytes();
    let mut j = at + 1;
    while j < b.len() && matches!(b[j], b'.' | b'!' | b'?') {
        j += 1;
    }
    let end = after_closers(text, j);
    // A mark inside a word or number (`3.5`, `example.com`) ends nothing.
    if end < b.len() && !b[end].is_ascii_whitespace() {
        return Err(j);
    }
    if b[at] == b'.' && j == at + 1 && !ends_sentence(&text[start..at], &text[end..]) {
        return Err(j);
    }
    Ok((end, end))
}

/// Past closing quotes and brackets, then any bracketed markers (with the
/// spaces between them) that follow the end of a sentence.
fn after_closers(text: &str, mut j: usize) -> usize {
    let b = text.as_bytes();
    loop {
        match b.get(j) {
            Some(b'"' | b'\'' | b')' | b']') => {
                j += 1;
                continue;
            }
            Some(&c) if c >= 0x80 => {
                if let Some(c) = text[j..].chars().next().filter(|c| "”’»】".contains(*c)) {
                    j += c.len_utf8();
                    continue;
                }
            }
            _ => {}
        }
        let mut k = j;
        while matches!(b.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        if b.get(k) != Some(&b'[') {
            return j;
        }
        // A marker is at most 64 bytes: the search for its `]` looks no
        // further (a `[` never closed costs 64 bytes, not the rest of the text).
        let window = &b[k..(k + 65).min(b.len())];
        match memchr::memchr(b']', window) {
            Some(close) if memchr::memchr(b'\n', &window[..close]).is_none() => j = k + close + 1,
            _ => return j,
        }
    }
}

/// Whether byte `c` is ASCII white space as `char::is_whitespace` counts
/// it (tab to carriage return, and space).
fn ascii_space(c: u8) -> bool {
    matches!(c, b'\t'..=b'\r' | b' ')
}

/// Whether a full stop after `before` ends a sentence, `after` being the
/// text after it.
fn ends_sentence(before: &str, after: &str) -> bool {
    let word = last_word(before);
    let mut letters = word.chars();
    let initial = matches!((letters.next(), letters.next()), (Some(c), None) if c.is_uppercase());
    if initial || abbreviation(word) {
        return false;
    }
    // The next word in lower case continues the sentence.
    let a = after.as_bytes();
    let skip = a.iter().position(|&c| !ascii_space(c)).unwrap_or(a.len());
    match a.get(skip) {
        None => true,
        Some(&c) if c < 0x80 => !c.is_ascii_lowercase(),
        Some(_) => !after[skip..]
            .trim_start()
            .chars()
            .next()
            .is_some_and(char::is_lowercase),
    }
}

/// The last word of `before`: after its last white space, `(` or `"`.
fn last_word(before: &str) -> &str {
    let b = before.as_bytes();
    let mut i = b.len();
    while i > 0 {
        let c = b[i - 1];
        if c < 0x80 {
            if ascii_space(c) || c == b'(' || c == b'"' {
                break;
            }
            i -= 1;
        } else {
            let Some(ch) = before[..i].chars().next_back() else {
                break;
            };
            if ch.is_whitespace() {
                break;
            }
            i -= ch.len_utf8();
        }
    }
    &before[i..]
}

/// Whether `word` is an abbreviation ([`listed`]), without case.
fn abbreviation(word: &str) -> bool {
    const LONGEST: usize = 6;
    if word.len() > LONGEST {
        return false;
    }
    let mut lower = [0u8; LONGEST];
    for (d, c) in lower.iter_mut().zip(word.bytes()) {
        *d = c.to_ascii_lowercase();
    }
    listed(&lower[..word.len()])
}

fn push(text: &str, start: usize, end: usize, out: &mut Vec<Sentence>) {
    let b = text.as_bytes();
    let (mut s, mut e) = (start, end);
    while s < e && ascii_space(b[s]) {
        s += 1;
    }
    while e > s && ascii_space(b[e - 1]) {
        e -= 1;
    }
    // White space beyond ASCII at either end: the general trim.
    if s < e && (b[s] >= 0x80 || b[e - 1] >= 0x80) {
        let t = &text[s..e];
        let lead = t.len() - t.trim_start().len();
        let len = t.trim().len();
        s += lead;
        e = s + len;
    }
    if s == e {
        return;
    }
    out.push(Sentence {
        start: s,
        end: e,
        counted: counted(&text[s..e]),
    });
}

fn counted(t: &str) -> bool {
    if t.starts_with('#') || t.ends_with(':') {
        return false;
    }
    if t.as_bytes()[0].is_ascii_alphanumeric() {
        return true;
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

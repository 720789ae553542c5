//! Quotations in an answer that cites with markers: what counts as one,
//! and which markers cite it.
//!
//! A quotation is text between a pair of quotation marks — straight
//! double quotes `"…"`, curly `“…”`, low-high `„…“` or `„…”`, guillemets
//! `«…»` — within one paragraph, or a Markdown block quote (consecutive
//! lines starting with `>`). A straight quote opens only at the start of
//! the text or after white space or an opening bracket, and a pair
//! counts only when it holds at least [`MIN_WORDS`] words: shorter quoted
//! strings are titles, names and labels ("True Blood", "Save as draft"),
//! not text taken from a source; so is a quoted string whose every word of
//! four letters or more begins with a capital ("The Murray Van Wagoner
//! Transportation Building", a title written in title case). It is checked when resolving markers
//! follow it (white space and at most one of `,.;:)` between) or end it
//! (`"… 30 days [KB-2]"`, `> … [KB-2]`); the quote is its text without
//! those markers, and it is checked against the chunks they cite.
//! Single quotes are not read: the same mark is the apostrophe.

/// The fewest words a quotation has (see the module documentation).
pub const MIN_WORDS: usize = 4;

/// One quotation: the bytes of its content in the answer (between its
/// marks; for a block quote, from its first `>` to the end of its last
/// line), and whether it is a block quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quotation {
    pub start: usize,
    pub end: usize,
    /// Where its closing mark ends (for a block quote, `end`).
    pub after: usize,
    pub block: bool,
}

/// The quotations of `text`, in order, in one pass over its bytes (the
/// marks are ASCII or start with the bytes `0xE2`/`0xC2`, so a text
/// without them costs one search each).
pub fn find(text: &str) -> Vec<Quotation> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    if ![b'"', b'>', 0xE2, 0xC2].iter().any(|m| b.contains(m)) {
        return out;
    }
    // The open mark (its closing kind) and where its content starts.
    let mut open: Option<(Mark, usize)> = None;
    let mut block: Option<usize> = None;
    let mut i = 0;
    while i < b.len() {
        if i == 0 || b[i - 1] == b'\n' {
            let rest = &text[i..];
            let body = rest.trim_start_matches([' ', '\t']);
            let indent = rest.len() - body.len();
            if body.starts_with('>') && indent < 4 {
                block.get_or_insert(i + indent);
            } else if let Some(s) = block.take() {
                push_block(text, s, i, &mut out);
            }
        }
        let (mark, len) = mark_at(b, i);
        match (open, mark) {
            (_, Some(Mark::Break)) => open = None,
            (None, Some(Mark::Straight)) if opens_straight(text, i) => {
                open = Some((Mark::Straight, i + 1))
            }
            (None, Some(m @ (Mark::CurlyOpen | Mark::Low | Mark::Guillemet))) => {
                open = Some((m, i + len))
            }
            (Some((m, s)), Some(close)) if closes(m, close) => {
                open = None;
                if quotation(&text[s..i]) {
                    out.push(Quotation {
                        start: s,
                        end: i,
                        after: i + len,
                        block: false,
                    });
                }
            }
            _ => {}
        }
        i += len;
    }
    if let Some(s) = block {
        push_block(text, s, text.len(), &mut out);
    }
    out.sort_by_key(|q| q.start);
    out
}

/// A quotation mark, or a paragraph break (which no quotation crosses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Straight,
    CurlyOpen,
    CurlyClose,
    Low,
    Guillemet,
    GuillemetClose,
    Break,
}

/// The mark at byte `i` and the bytes to move on (one, or a mark's length).
fn mark_at(b: &[u8], i: usize) -> (Option<Mark>, usize) {
    match (b[i], b.get(i + 1), b.get(i + 2)) {
        (b'"', ..) => (Some(Mark::Straight), 1),
        (b'\n', Some(b'\n' | b'\r'), _) => (Some(Mark::Break), 1),
        (0xE2, Some(0x80), Some(0x9C)) => (Some(Mark::CurlyOpen), 3),
        (0xE2, Some(0x80), Some(0x9D)) => (Some(Mark::CurlyClose), 3),
        (0xE2, Some(0x80), Some(0x9E)) => (Some(Mark::Low), 3),
        (0xC2, Some(0xAB), _) => (Some(Mark::Guillemet), 2),
        (0xC2, Some(0xBB), _) => (Some(Mark::GuillemetClose), 2),
        _ => (None, 1),
    }
}

/// Whether `close` ends a quotation opened by `open`: `"…"`, `“…”`,
/// `„…“` or `„…”`, `«…»`.
fn closes(open: Mark, close: Mark) -> bool {
    matches!(
        (open, close),
        (Mark::Straight, Mark::Straight)
            | (Mark::CurlyOpen, Mark::CurlyClose)
            | (Mark::Low, Mark::CurlyOpen | Mark::CurlyClose)
            | (Mark::Guillemet, Mark::GuillemetClose)
    )
}

/// Whether a straight quote at byte `i` opens: at the start, or after
/// white space, an opening bracket, a colon, a slash or a dash.
fn opens_straight(text: &str, i: usize) -> bool {
    text[..i]
        .chars()
        .next_back()
        .is_none_or(|p| p.is_whitespace() || "([{—–-:/".contains(p))
}

fn push_block(text: &str, start: usize, end: usize, out: &mut Vec<Quotation>) {
    let end = start + text[start..end].trim_end().len();
    if quotation(&text[start..end]) {
        out.push(Quotation {
            start,
            end,
            after: end,
            block: true,
        });
    }
}

/// Whether quoted text is a quotation: [`MIN_WORDS`] words or more, not
/// all of its longer words capitalised (a title or a name).
fn quotation(s: &str) -> bool {
    if words(s) < MIN_WORDS {
        return false;
    }
    let mut long = s
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 4)
        .peekable();
    long.peek().is_some() && !long.all(|w| w.starts_with(char::is_uppercase))
}

fn words(s: &str) -> usize {
    s.split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// The text a quotation quotes: its content up to `cut` (where the markers
/// that end it begin), a block quote's `>` marks dropped.
pub fn quoted(text: &str, q: &Quotation, cut: usize) -> String {
    let body = &text[q.start..cut.clamp(q.start, q.end)];
    if !q.block {
        return body.to_owned();
    }
    let lines: Vec<&str> = body
        .lines()
        .map(|l| {
            let l = l.trim_start().strip_prefix('>').unwrap_or(l);
            l.strip_prefix(' ').unwrap_or(l)
        })
        .collect();
    lines.join("\n")
}

/// The markers citing quotation `q`: `placed` holds each resolving
/// marker's byte range and chunk, in order of position. Returns where the
/// quote's text ends (before markers that end it) and the chunks cited.
pub fn citing(text: &str, q: &Quotation, placed: &[((usize, usize), u32)]) -> (usize, Vec<u32>) {
    let mut chunks = Vec::new();
    // Markers that end its content, found from the end backwards.
    let mut cut = q.end;
    let mut k = placed.partition_point(|p| p.0.0 < q.end);
    loop {
        let end = cut_back(text, q.start, cut);
        match k.checked_sub(1).map(|p| (p, placed[p])) {
            Some((p, ((s, e), c))) if e == end && s >= q.start => {
                chunks.push(c);
                cut = s;
                k = p;
            }
            _ => break,
        }
    }
    let cut = q.start + text[q.start..cut].trim_end().len();
    // Markers that follow it.
    let mut at = skip_after(text, q.after, true);
    let mut k = placed.partition_point(|p| p.0.0 < at);
    while let Some(&((s, e), c)) = placed.get(k) {
        if s != at {
            break;
        }
        chunks.push(c);
        at = skip_after(text, e, false);
        k += 1;
    }
    chunks.sort_unstable();
    chunks.dedup();
    (cut, chunks)
}

/// `at` moved back over white space and trailing `.,;:` in `text[from..at]`.
fn cut_back(text: &str, from: usize, at: usize) -> usize {
    from + text[from..at]
        .trim_end_matches(|c: char| c.is_whitespace() || ".,;:".contains(c))
        .len()
}

/// `at` moved past the white space (no blank line) and, when `punct`, at
/// most one of `,.;:)` after a quotation or between two markers.
fn skip_after(text: &str, at: usize, punct: bool) -> usize {
    let rest = &text[at..];
    let mut used = false;
    let mut n = 0;
    for c in rest.chars() {
        match c {
            ',' | ';' if !used => used = true,
            '.' | ':' | ')' if punct && !used => used = true,
            c if c.is_whitespace() && c != '\n' => {}
            _ => break,
        }
        n += c.len_utf8();
    }
    at + n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<&str> {
        find(t).iter().map(|q| &t[q.start..q.end]).collect()
    }

    #[test]
    fn quotation_marks_blocks_and_the_word_floor() {
        let t = "The policy says \"refunds are issued within 30 days\" [KB-2]. Its title is \"Returns Policy\" or \"The Returns and Exchanges Policy Page\". \
                 Also “no questions asked for unused items” and «livraison gratuite dès 50 euros» and it's 5\" wide.\n\
                 > Shipping is free on all orders\n> over fifty dollars [KB-1]\n\nDone.";
        assert_eq!(
            texts(t),
            [
                "refunds are issued within 30 days",
                "no questions asked for unused items",
                "livraison gratuite dès 50 euros",
                "> Shipping is free on all orders\n> over fifty dollars [KB-1]",
            ]
        );
        let q = find(t)[3];
        assert!(q.block);
        let (cut, _) = citing(
            t,
            &q,
            &[(
                (t.find("[KB-1]").unwrap(), t.find("[KB-1]").unwrap() + 6),
                1,
            )],
        );
        assert_eq!(
            quoted(t, &q, cut),
            "Shipping is free on all orders\nover fifty dollars"
        );
    }

    #[test]
    fn markers_after_or_at_the_end_cite_a_quotation() {
        let t = "It says \"refunds are issued within 30 days\". [KB-2][KB-3] and \"ships free on big orders [KB-1].\" Then \"four words are here\" later [KB-1].";
        let at = |m: &str, from: usize| {
            let s = from + t[from..].find(m).unwrap();
            (s, s + m.len())
        };
        let placed = [
            (at("[KB-2]", 0), 2),
            (at("[KB-3]", 0), 3),
            (at("[KB-1]", 0), 1),
            (at("[KB-1]", 100), 1),
        ];
        let qs = find(t);
        assert_eq!(qs.len(), 3);
        let (cut, c) = citing(t, &qs[0], &placed);
        assert_eq!(
            (quoted(t, &qs[0], cut).as_str(), c),
            ("refunds are issued within 30 days", vec![2, 3])
        );
        let (cut, c) = citing(t, &qs[1], &placed);
        assert_eq!(
            (quoted(t, &qs[1], cut).as_str(), c),
            ("ships free on big orders", vec![1])
        );
        assert_eq!(
            citing(t, &qs[2], &placed).1,
            Vec::<u32>::new(),
            "a marker further on cites the sentence, not the quote"
        );
    }
}

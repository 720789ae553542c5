//! Support hints: words of a cited sentence that none of the chunks it
//! cites contains. A hint marks a turn for a person to read; it never
//! changes a verdict.

/// What a hint flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HintKind {
    /// A number in the sentence that none of its cited chunks holds.
    Number,
}

impl HintKind {
    pub fn as_str(self) -> &'static str {
        match self {
            HintKind::Number => "number",
        }
    }
}

/// One flagged value: its byte range in the sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    pub kind: HintKind,
    pub start: usize,
    pub end: usize,
}

/// The hints of `sentence` against the texts of the chunks it cites.
/// Text in square brackets (the citation markers) is not read.
pub fn hints(sentence: &str, cited: &[&str]) -> Vec<Hint> {
    let mut out = Vec::new();
    let found: Vec<String> = cited
        .iter()
        .flat_map(|c| numbers(c))
        .map(|(_, v)| v)
        .collect();
    for ((start, end), value) in numbers(sentence) {
        if in_brackets(sentence, start) {
            continue;
        }
        if !found.contains(&value) {
            out.push(Hint {
                kind: HintKind::Number,
                start,
                end,
            });
        }
    }
    out
}

/// Whether byte `at` of `s` sits inside square brackets.
fn in_brackets(s: &str, at: usize) -> bool {
    let before = &s[..at];
    match (before.rfind('['), before.rfind(']')) {
        (Some(o), Some(c)) => o > c,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Every number of `text`: its byte range and its value with thousands
/// separators taken out.
fn numbers(text: &str) -> Vec<((usize, usize), String)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
            i += 1;
            continue;
        }
        let start = i;
        let mut value = String::new();
        while i < b.len() {
            if b[i].is_ascii_digit() {
                value.push(b[i] as char);
                i += 1;
            } else if matches!(b[i], b',' | b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                if b[i] == b'.' {
                    value.push('.');
                }
                i += 1;
            } else {
                break;
            }
        }
        out.push(((start, i), value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_no_cited_chunk_holds_is_flagged() {
        let s = "It sold 1,200 units in 1995 [KB-1].";
        let h = hints(s, &["Sales reached 1200 units in 1996."]);
        assert_eq!(h.len(), 1);
        assert_eq!(&s[h[0].start..h[0].end], "1995");
    }
}

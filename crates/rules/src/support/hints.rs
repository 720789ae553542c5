//! Support hints: values of a cited sentence (a number, a year, a
//! percentage, an amount of money, a name) that none of the chunks it
//! cites contains. A hint marks a turn for a person to read; it never
//! changes a verdict.
//!
//! Every kind is measured against human support labels (docs/hints.md);
//! only the kinds in [`SHIPPED`] are raised by [`hints`]. The others stay
//! here, measured by [`candidates`], so the figures can be reproduced and
//! a rule that reaches the bar can be shipped by adding its kind.
//!
//! The rules, for every kind:
//! - Text in square brackets (citation markers) is not read.
//! - A number is a run of digits, with thousands groups (`1,200`,
//!   `1 200`, `1\u{a0}200`) and a decimal part (`3.14`). It does not start
//!   right after a letter, a digit or a `.`, nor after a letter and a
//!   hyphen (`COVID-19`, `SF314-59` are names, not numbers). A currency
//!   sign or code before it (`$`, `£`, `€`, `¥`, `USD`, `US$`) makes it
//!   money; `%`, `percent` or `per cent` after it a percentage; a scale
//!   word after it (`thousand`, `million`, `billion`, `trillion`, `bn`)
//!   multiplies it. `19th` is 19; `2018–19` also reads as 2019.
//! - A number found in a chunk in any of its forms is found: the value
//!   (`1,200` = `1200` = `1.2 thousand`), the figure before a scale word
//!   (`1.2` of `1.2 million`), or a number word (`three`, `twenty`,
//!   `third`, `dozen`; `two thousand` = 2000).
//! - In the sentence, 0 and 1, list numbering (`2.` or `2)` at the
//!   start of a line) and numbers of a formula (after `=`, `^`, `_`) are
//!   not read.
//! - A name is a run of capitalised words (joined by `of`, `de`, `von`,
//!   `van`, `der`, `la`, `du`, `da`, `del`), leaving out the first word of
//!   the sentence or line and common capitalised words (`The`,
//!   `However`, month and day names, …). It is found when any of its
//!   capitalised words occurs as a word of a chunk, compared in lower
//!   case without a possessive `'s`, a hyphenated word also by its parts.

use std::collections::HashSet;

/// What a hint flags. The names ([`HintKind::as_str`]) are stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HintKind {
    /// A number that is not a year, a percentage or money.
    Number,
    /// A four-digit whole number from 1000 to 2099, alone.
    Year,
    /// A number followed by `%`, `percent` or `per cent`.
    Percent,
    /// A number after a currency sign or code.
    Money,
    /// A run of capitalised words.
    Name,
}

impl HintKind {
    /// Every kind, in the order the measurements list them.
    pub const ALL: [HintKind; 5] = [
        HintKind::Number,
        HintKind::Year,
        HintKind::Percent,
        HintKind::Money,
        HintKind::Name,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            HintKind::Number => "number",
            HintKind::Year => "year",
            HintKind::Percent => "percent",
            HintKind::Money => "money",
            HintKind::Name => "name",
        }
    }
}

/// The kinds [`hints`] raises: the number formats, shipped together as
/// one signal (a value the cited chunks do not hold), whose precision
/// against the human labels of the development data is at least 0.85 with
/// a recall of at least 0.15 (docs/hints.md; `tests/cli/hints_eval.rs`
/// checks it). Names stay off: they measure far below the line.
pub const SHIPPED: &[HintKind] = &[
    HintKind::Number,
    HintKind::Year,
    HintKind::Percent,
    HintKind::Money,
];

/// One flagged value: its byte range in the sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint {
    pub kind: HintKind,
    pub start: usize,
    pub end: usize,
}

/// What a chunk's text holds that a hint looks up: read once per chunk.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// Every number of the text in every form (see [`key`]), sorted.
    numbers: Vec<i64>,
    /// Every word of the text, lower-cased: only when names are read.
    words: Option<HashSet<String>>,
}

impl Facts {
    /// The facts of a chunk's `text`; its words only when `names`.
    pub fn of(text: &str, names: bool) -> Facts {
        let mut numbers = Vec::new();
        for n in scan(text, false) {
            numbers.push(n.value);
            numbers.extend(n.figure);
            numbers.extend(n.short_year);
        }
        number_words(text, &mut numbers);
        numbers.sort_unstable();
        numbers.dedup();
        let words = names.then(|| {
            let mut set = HashSet::new();
            for (_, w) in words(text) {
                let w = word_key(w);
                if w.contains('-') {
                    set.extend(w.split('-').map(str::to_owned));
                }
                set.insert(w);
            }
            set
        });
        Facts { numbers, words }
    }

    fn has(&self, key: i64) -> bool {
        self.numbers.binary_search(&key).is_ok()
    }

    fn has_word(&self, w: &str) -> bool {
        let Some(set) = &self.words else {
            return false;
        };
        let w = word_key(w);
        set.contains(&w) || (w.contains('-') && w.split('-').all(|p| set.contains(p)))
    }
}

/// Whether [`Facts`] read for `kinds` need the chunks' words.
pub fn needs_words(kinds: &[HintKind]) -> bool {
    kinds.contains(&HintKind::Name)
}

/// The hints of `sentence` against the facts of the chunks it cites:
/// the shipped kinds only.
pub fn hints(sentence: &str, cited: &[&Facts]) -> Vec<Hint> {
    select(sentence, cited, SHIPPED)
}

/// The hints of `sentence` of the given `kinds`.
pub fn select(sentence: &str, cited: &[&Facts], kinds: &[HintKind]) -> Vec<Hint> {
    select_of(sentence, &Values::of(sentence), cited, kinds)
}

/// [`select`] with the sentence's values already read.
pub fn select_of(
    sentence: &str,
    values: &Values,
    cited: &[&Facts],
    kinds: &[HintKind],
) -> Vec<Hint> {
    if kinds.is_empty() {
        return Vec::new();
    }
    let mut out = candidates_of(sentence, values, cited);
    out.retain(|h| kinds.contains(&h.kind));
    out
}

/// The values of a sentence a hint looks up in its cited chunks, read
/// once: [`Values::wanted`] says whether its chunks need reading at all.
pub struct Values(Vec<Num>);

impl Values {
    /// The numbers of `sentence` that are looked up (see the module doc).
    pub fn of(sentence: &str) -> Values {
        let mut nums = scan(sentence, true);
        let mut before = Before::default();
        nums.retain(|n| {
            let (bracketed, line) = before.at(sentence, n.start);
            !(bracketed
                || n.value < 2 * SCALE
                || list_number(sentence, line, n)
                || formula(sentence, n.start))
        });
        Values(nums)
    }

    /// Whether `kinds` look anything up: a number to check, or names.
    pub fn wanted(&self, kinds: &[HintKind]) -> bool {
        !kinds.is_empty() && (needs_words(kinds) || !self.0.is_empty())
    }
}

/// The hints of `sentence` of every kind, shipped or not (names only when
/// the facts hold words): what the measurements read.
pub fn candidates(sentence: &str, cited: &[&Facts]) -> Vec<Hint> {
    candidates_of(sentence, &Values::of(sentence), cited)
}

/// [`candidates`] with the sentence's values already read.
fn candidates_of(sentence: &str, values: &Values, cited: &[&Facts]) -> Vec<Hint> {
    let mut out = Vec::new();
    let found = |k: i64| cited.iter().any(|f| f.has(k));
    for n in &values.0 {
        let hit = found(n.value)
            || n.figure.is_some_and(found)
            || n.short_year.is_some_and(found)
            || (!n.parts.is_empty() && n.parts.iter().all(|&p| found(p)));
        if !hit {
            out.push(Hint {
                kind: n.kind,
                start: n.start,
                end: n.end,
            });
        }
    }
    if cited.iter().all(|f| f.words.is_some()) {
        names(sentence, cited, &mut out);
    }
    out.sort_by_key(|h| h.start);
    out
}

/// Values are compared as thousandths.
const SCALE: i64 = 1000;

/// The comparison key of a value: thousandths, rounded.
fn key(v: f64) -> i64 {
    (v * SCALE as f64).round() as i64
}

/// One number of a text.
#[derive(Debug)]
struct Num {
    start: usize,
    end: usize,
    kind: HintKind,
    /// Its value, scale word applied.
    value: i64,
    /// The figure before a scale word (`1.2` of `1.2 million`).
    figure: Option<i64>,
    /// The year a two-digit end of a range reads as (`2018–19`: 2019).
    short_year: Option<i64>,
    /// The groups of a number written with plain spaces (`15 200`), each
    /// of which may be a number of its own.
    parts: Vec<i64>,
}

const CURRENCY: &[&str] = &["$", "£", "€", "¥", "US$", "USD", "EUR", "GBP"];
const SCALES: &[(&str, f64)] = &[
    ("thousand", 1e3),
    ("million", 1e6),
    ("billion", 1e9),
    ("trillion", 1e12),
    ("bn", 1e9),
];

/// Every number of `text`. `strict` (the sentence side) leaves out digits
/// right after a letter and a hyphen; a chunk's side reads them.
fn scan(text: &str, strict: bool) -> Vec<Num> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let (end, digits, parts) = digits_at(text, i);
        i = end.max(i + 1);
        let prev = text[..start].chars().next_back();
        if prev.is_some_and(|c| c.is_alphanumeric() || c == '.') {
            continue;
        }
        if strict && matches!(prev, Some('-' | '\u{2011}')) {
            let before = text[..start - 1].chars().next_back();
            if before.is_some_and(char::is_alphanumeric)
                && !before.is_some_and(|c| c.is_ascii_digit())
            {
                continue;
            }
        }
        let Ok(figure) = digits.parse::<f64>() else {
            continue;
        };
        let rest = &text[end..];
        let (scale, after_scale) = scale_after(rest);
        let percent = percent_after(rest);
        let money = currency_before(&text[..start]);
        let kind = if money {
            HintKind::Money
        } else if percent.is_some() {
            HintKind::Percent
        } else if digits.len() == 4 && (1000.0..2100.0).contains(&figure) {
            HintKind::Year
        } else {
            HintKind::Number
        };
        let short_year = short_year(text, start, &digits);
        let stop = end + percent.or(after_scale).unwrap_or(0);
        out.push(Num {
            start,
            end: stop,
            kind,
            value: key(figure * scale.unwrap_or(1.0)),
            figure: scale.map(|_| key(figure)),
            short_year,
            parts,
        });
    }
    out
}

/// The number starting at byte `i`: where it ends, its digits (decimal
/// point kept, group separators left out), and, for groups joined by plain
/// spaces, each group's key.
fn digits_at(text: &str, mut i: usize) -> (usize, String, Vec<i64>) {
    let b = text.as_bytes();
    let mut digits = String::new();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut spaced = false;
    let first = i;
    while i < b.len() && b[i].is_ascii_digit() {
        digits.push(b[i] as char);
        i += 1;
    }
    groups.push((first, i));
    if i - first <= 3 {
        loop {
            let sep = [",", " ", "\u{a0}", "\u{202f}", "\u{2009}"]
                .into_iter()
                .find(|s| text[i..].starts_with(s));
            let Some(sep) = sep else { break };
            let g = i + sep.len();
            let three = b.len() >= g + 3
                && b[g..g + 3].iter().all(u8::is_ascii_digit)
                && !b.get(g + 3).is_some_and(u8::is_ascii_digit);
            if !three {
                break;
            }
            spaced |= sep == " ";
            digits.push_str(&text[g..g + 3]);
            groups.push((g, g + 3));
            i = g + 3;
        }
    }
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        digits.push('.');
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            digits.push(b[i] as char);
            i += 1;
        }
    }
    let parts = if spaced {
        groups
            .iter()
            .filter_map(|&(s, e)| text[s..e].parse::<f64>().ok().map(key))
            .collect()
    } else {
        Vec::new()
    };
    (i, digits, parts)
}

/// A scale word right after a number (after at most one space): its
/// factor and the bytes it takes.
fn scale_after(rest: &str) -> (Option<f64>, Option<usize>) {
    let t = rest.strip_prefix(' ').unwrap_or(rest);
    let skip = rest.len() - t.len();
    for &(w, f) in SCALES {
        if t.len() >= w.len()
            && t.as_bytes()[..w.len()].eq_ignore_ascii_case(w.as_bytes())
            && !t[w.len()..].starts_with(|c: char| c.is_alphanumeric())
        {
            return (Some(f), Some(skip + w.len()));
        }
    }
    (None, None)
}

/// A percent sign or word right after a number: the bytes it takes.
fn percent_after(rest: &str) -> Option<usize> {
    if rest.starts_with('%') {
        return Some(1);
    }
    let t = rest.strip_prefix(' ')?;
    ["percent", "per cent"].into_iter().find_map(|w| {
        (t.len() >= w.len()
            && t.as_bytes()[..w.len()].eq_ignore_ascii_case(w.as_bytes())
            && !t[w.len()..].starts_with(|c: char| c.is_alphanumeric()))
        .then_some(1 + w.len())
    })
}

/// Whether a currency sign or code ends `before` (a space between is fine).
fn currency_before(before: &str) -> bool {
    let t = before.strip_suffix(' ').unwrap_or(before);
    CURRENCY.iter().any(|c| {
        t.ends_with(c)
            && !t[..t.len() - c.len()]
                .chars()
                .next_back()
                .is_some_and(char::is_alphabetic)
    })
}

/// The year a two-digit number reads as when it ends a range after a
/// four-digit year (`2018–19`, `1998-99`).
fn short_year(text: &str, start: usize, digits: &str) -> Option<i64> {
    if digits.len() != 2 {
        return None;
    }
    let before = text[..start]
        .strip_suffix('-')
        .or_else(|| text[..start].strip_suffix('–'))?;
    let y = before.get(before.len().checked_sub(4)?..)?;
    let y: i64 = y.parse().ok().filter(|y| (1000..2100).contains(y))?;
    let two: i64 = digits.parse().ok()?;
    Some(key((y / 100 * 100 + two) as f64))
}

/// Whether `n` numbers a list item: first on its line, followed by `.` or
/// `)` or nothing but a marker.
fn list_number(sentence: &str, line_start: usize, n: &Num) -> bool {
    if !sentence[line_start..n.start].trim().is_empty() {
        return false;
    }
    let after = sentence[n.end..].trim_start();
    after.is_empty() || after.starts_with(['.', ')', '['])
}

/// Whether the number at byte `at` is part of a formula: after `=`, `^`
/// or `_` (spaces and a currency sign between): a computed result or an
/// exponent, which no passage need hold.
fn formula(s: &str, at: usize) -> bool {
    let before = s[..at].trim_end_matches([' ', '$', '£', '€', '¥']);
    before.ends_with(['=', '^', '_'])
}

/// Whether byte `at` of `s` sits inside square brackets (one look back:
/// for the names a measurement reads, not the shipped kinds).
fn in_brackets(s: &str, at: usize) -> bool {
    let before = &s[..at];
    match (before.rfind('['), before.rfind(']')) {
        (Some(o), Some(c)) => o > c,
        (Some(_), None) => true,
        _ => false,
    }
}

/// What comes before a place of a sentence, read once as the places move
/// forward: whether it sits inside square brackets (the last `[` before it
/// comes after the last `]`), and where its line starts.
#[derive(Default)]
struct Before {
    read: usize,
    open: Option<usize>,
    close: Option<usize>,
    line: usize,
}

impl Before {
    /// At byte `at`, at or after every place asked before.
    fn at(&mut self, s: &str, at: usize) -> (bool, usize) {
        let window = &s[self.read..at];
        let from = self.read;
        if let Some(k) = window.rfind('[') {
            self.open = Some(from + k);
        }
        if let Some(k) = window.rfind(']') {
            self.close = Some(from + k);
        }
        if let Some(k) = window.rfind('\n') {
            self.line = from + k + 1;
        }
        self.read = at;
        let inside = match (self.open, self.close) {
            (Some(o), Some(c)) => o > c,
            (Some(_), None) => true,
            _ => false,
        };
        (inside, self.line)
    }
}

/// Number words and their values.
const NUMBER_WORDS: &[(&str, f64)] = &[
    ("zero", 0.0),
    ("one", 1.0),
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("thirteen", 13.0),
    ("fourteen", 14.0),
    ("fifteen", 15.0),
    ("sixteen", 16.0),
    ("seventeen", 17.0),
    ("eighteen", 18.0),
    ("nineteen", 19.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("forty", 40.0),
    ("fifty", 50.0),
    ("sixty", 60.0),
    ("seventy", 70.0),
    ("eighty", 80.0),
    ("ninety", 90.0),
    ("hundred", 100.0),
    ("dozen", 12.0),
    ("first", 1.0),
    ("second", 2.0),
    ("third", 3.0),
    ("fourth", 4.0),
    ("fifth", 5.0),
    ("sixth", 6.0),
    ("seventh", 7.0),
    ("eighth", 8.0),
    ("ninth", 9.0),
    ("tenth", 10.0),
    ("eleventh", 11.0),
    ("twelfth", 12.0),
    ("twice", 2.0),
    ("half", 0.5),
];

/// The values of the number words of `text` (`three`, `two thousand`).
fn number_words(text: &str, out: &mut Vec<i64>) {
    let mut last: Option<f64> = None;
    for (_, w) in words(text) {
        let lower = w.to_ascii_lowercase();
        if let Some(&(_, f)) = SCALES.iter().find(|(s, _)| *s == lower) {
            if let Some(v) = last {
                out.push(key(v * f));
            }
            last = None;
            continue;
        }
        last = NUMBER_WORDS
            .iter()
            .find(|(s, _)| *s == lower)
            .map(|&(_, v)| v);
        if let Some(v) = last {
            out.push(key(v));
        }
    }
}

/// The words of `text` (letters, with inner `'` and `-`): byte offset and
/// text.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-'))
        .filter(|w| w.chars().next().is_some_and(char::is_alphabetic))
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

/// How a word is looked up: lower case, `’` as `'`, a possessive `'s`
/// left out.
fn word_key(w: &str) -> String {
    let w = w.to_lowercase().replace('’', "'");
    match w.strip_suffix("'s") {
        Some(stem) if !stem.is_empty() => stem.to_owned(),
        _ => w,
    }
}

/// Capitalised words that are not names.
const COMMON: &[&str] = &[
    "The",
    "A",
    "An",
    "In",
    "On",
    "At",
    "For",
    "By",
    "With",
    "From",
    "To",
    "Of",
    "And",
    "But",
    "Or",
    "If",
    "As",
    "It",
    "Its",
    "This",
    "That",
    "These",
    "Those",
    "He",
    "She",
    "They",
    "We",
    "You",
    "I",
    "His",
    "Her",
    "Their",
    "Our",
    "However",
    "Also",
    "According",
    "Some",
    "Many",
    "Most",
    "Other",
    "Another",
    "There",
    "Here",
    "When",
    "While",
    "After",
    "Before",
    "During",
    "Since",
    "Although",
    "Because",
    "Overall",
    "Additionally",
    "Furthermore",
    "Moreover",
    "Finally",
    "First",
    "Second",
    "Third",
    "Yes",
    "No",
    "Note",
    "Therefore",
    "Thus",
    "Each",
    "All",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// Lower-case words that may join the words of a name.
const JOINERS: &[&str] = &["of", "de", "von", "van", "der", "la", "du", "da", "del"];

/// Name hints: runs of capitalised words none of whose words a chunk has.
fn names(sentence: &str, cited: &[&Facts], out: &mut Vec<Hint>) {
    let mut run: Vec<(usize, &str)> = Vec::new();
    let mut prev_end = 0usize;
    let flush = |run: &mut Vec<(usize, &str)>, out: &mut Vec<Hint>| {
        while run.last().is_some_and(|(_, w)| JOINERS.contains(w)) {
            run.pop();
        }
        let caps: Vec<&str> = run
            .iter()
            .map(|&(_, w)| w)
            .filter(|w| !JOINERS.contains(w) && !COMMON.contains(w))
            .collect();
        if !caps.is_empty() && !caps.iter().any(|w| cited.iter().any(|f| f.has_word(w))) {
            let (s, _) = run[0];
            let (e, w) = run[run.len() - 1];
            out.push(Hint {
                kind: HintKind::Name,
                start: s,
                end: e + w.len(),
            });
        }
        run.clear();
    };
    for (at, w) in words(sentence) {
        let gap = &sentence[prev_end..at];
        prev_end = at + w.len();
        let joined = gap.chars().all(|c| c == ' ');
        if !joined || in_brackets(sentence, at) {
            flush(&mut run, out);
        }
        if in_brackets(sentence, at) {
            continue;
        }
        let capital = w.chars().next().is_some_and(char::is_uppercase);
        let joiner = !run.is_empty() && JOINERS.contains(&w);
        if (capital && !first_word(sentence, at)) || joiner {
            run.push((at, w));
        } else {
            flush(&mut run, out);
        }
    }
    flush(&mut run, out);
}

/// Whether the word at byte `at` opens the sentence or a line (only
/// punctuation, list marks and spaces before it).
fn first_word(sentence: &str, at: usize) -> bool {
    let line = &sentence[..at];
    let line = line.rsplit(['\n', ':']).next().unwrap_or(line);
    !line.chars().any(char::is_alphanumeric) || line.trim_end().ends_with(['.', '!', '?'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(s: &str, chunks: &[&str]) -> Vec<(HintKind, String)> {
        let facts: Vec<Facts> = chunks.iter().map(|c| Facts::of(c, true)).collect();
        let refs: Vec<&Facts> = facts.iter().collect();
        candidates(s, &refs)
            .into_iter()
            .map(|h| (h.kind, s[h.start..h.end].to_owned()))
            .collect()
    }

    #[test]
    fn a_number_no_cited_chunk_holds_is_flagged() {
        let h = all(
            "It sold 1,200 units in 1995 [KB-1].",
            &["Sales reached 1200 units in 1996."],
        );
        assert_eq!(h, vec![(HintKind::Year, "1995".to_owned())]);
    }

    #[test]
    fn formats_of_one_value_match() {
        let chunk = "Revenue was 1,200,000 dollars, up twelve percent, with three \
                     plants; founded 1995-03-03; 2018–19 season; two thousand staff.";
        for s in [
            "Revenue was $1.2 million [KB-1].",
            "Revenue rose 12% [KB-1].",
            "It has 3 plants [KB-1].",
            "It was founded on March 3, 1995 [KB-1].",
            "In the 2018–19 season [KB-1].",
            "It had 2,000 staff [KB-1].",
            "It had 1 200 000 in revenue [KB-1].",
            "1. It has 3 plants [KB-1].",
            "It beat COVID-19 [KB-1].",
        ] {
            let numbers: Vec<_> = all(s, &[chunk])
                .into_iter()
                .filter(|(k, _)| *k != HintKind::Name)
                .collect();
            assert_eq!(numbers, vec![], "{s}");
        }
    }

    #[test]
    fn kinds_follow_the_format() {
        let h = all(
            "It cost €40 in 1990, 7% more, for 350 people [KB-1].",
            &["Nothing."],
        );
        let kinds: Vec<HintKind> = h.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            kinds,
            [
                HintKind::Money,
                HintKind::Year,
                HintKind::Percent,
                HintKind::Number
            ]
        );
        assert_eq!(h[2].1, "7%");
    }

    #[test]
    fn a_name_no_chunk_holds_is_flagged_not_the_first_word() {
        let h = all(
            "Paris hosted it with Jean de Lattre and the Royal Navy [KB-1].",
            &["Hosted in paris by the navy."],
        );
        assert_eq!(h, vec![(HintKind::Name, "Jean de Lattre".to_owned())]);
    }

    #[test]
    fn only_shipped_kinds_are_raised() {
        let f = Facts::of("Nothing.", needs_words(SHIPPED));
        let got = hints("It had 350 staff in 1990, said Jane Roe [KB-1].", &[&f]);
        assert!(got.iter().all(|h| SHIPPED.contains(&h.kind)));
        assert_eq!(got.is_empty(), SHIPPED.is_empty());
    }
}

//! Marker grammars: how a reply's inline citations are read.
//!
//! A grammar scans text and reports every marker it finds, already resolved
//! against the turn's chunks: cited (a 1-based chunk index), out of range, or
//! malformed. It allocates nothing on the hot path and does no I/O; the
//! verdict rules in `grade` are the only consumer that decides anything.

use crate::model::{Chunk, CitationIndex};
use memchr::{memchr, memchr2};

/// What one marker resolved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// Points at the chunk with this 1-based index.
    Cited(u32),
    /// Well-formed, but points past the retrieval list (or at index 0, or at an id no chunk has).
    OutOfRange,
    /// Looks like a marker but is not well-formed: counted, never cited.
    Malformed,
}

/// One marker found in a reply: byte span in the scanned text and its resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marker {
    pub start: usize,
    pub end: usize,
    pub kind: MarkerKind,
}

pub use crate::model::Preset;

/// A marker grammar, resolved once and shared by every worker.
#[derive(Debug, Clone)]
pub enum Grammar {
    Preset(Preset),
    /// A custom regex with one capture group holding the index, and the index base (0 or 1).
    Regex {
        re: regex::Regex,
        base: u8,
    },
}

impl Default for Grammar {
    fn default() -> Self {
        Grammar::Preset(Preset::Kb)
    }
}

/// Widest numeric range (`[1-100]`) that still counts as markers.
pub const MAX_RANGE: u64 = 100;
/// Longest text between `[` and `]` the scanners look at, in bytes: up to
/// 256 can be a marker, 257 or more is prose.
const MAX_BRACKET: usize = 256;

impl Grammar {
    /// How reports name the grammar: the preset's `--markers` name, or
    /// `regex PATTERN (base N)`.
    pub fn label(&self) -> std::borrow::Cow<'static, str> {
        match self {
            Grammar::Preset(p) => p.name().into(),
            Grammar::Regex { re, base } => format!("regex {} (base {base})", re.as_str()).into(),
        }
    }

    /// Builds a regex grammar, checking it has exactly one capture group and
    /// that the index base is 0 or 1.
    pub fn regex(pattern: &str, base: u8) -> Result<Grammar, String> {
        if base > 1 {
            return Err(format!("--marker-base must be 0 or 1, not {base}"));
        }
        let re = regex::Regex::new(pattern)
            .map_err(|e| format!("--marker-regex does not compile: {e}"))?;
        let groups = re.captures_len() - 1;
        if groups != 1 {
            return Err(format!(
                "--marker-regex must have exactly one capture group (the chunk index); this one has {groups}"
            ));
        }
        Ok(Grammar::Regex { re, base })
    }

    /// Whether markers could be hidden or broken by JSON escapes in `raw`
    /// (a JSON string literal), so the text must be decoded before scanning.
    ///
    /// For the presets an escape matters only when it can create a bracket
    /// (`\u005B`: any `\u` escape counts) or when it sits inside a bracketed
    /// run, where it could change the run's content, end it (`\n`) or change
    /// its length. Every other escape (the `\n` between paragraphs, a `\"`
    /// around a quotation) leaves the markers exactly as in the decoded text,
    /// so the common case scans the raw text directly. Grading asks
    /// [`Grammar::scan_raw`], which answers this while it scans; this is the
    /// reference it is tested against.
    pub fn needs_decoding(&self, raw: &str) -> bool {
        let b = raw.as_bytes();
        if memchr(b'\\', b).is_none() {
            return false;
        }
        match self {
            Grammar::Regex { .. } => true,
            Grammar::Preset(_) => escape_matters(b),
        }
    }

    /// Scans `text` and calls `f` for every marker, in order of position.
    pub fn scan(&self, text: &str, chunks: &[Chunk<'_>], f: &mut dyn FnMut(Marker)) {
        match self {
            Grammar::Preset(p) => {
                scan_preset(*p, text, false, chunks, f);
            }
            Grammar::Regex { re, base } => {
                for caps in re.captures_iter(text) {
                    let whole = caps.get(0).expect("group 0 always exists");
                    // An empty match (`(\d*)` between two letters) is no marker.
                    if whole.is_empty() {
                        continue;
                    }
                    let kind = match caps.get(1) {
                        Some(g) => match parse_digits(g.as_str().as_bytes()) {
                            Some(v) => resolve(
                                v.and_then(|v| v.checked_add(1 - *base as u64)),
                                chunks.len() as u64,
                            ),
                            None => MarkerKind::Malformed,
                        },
                        None => MarkerKind::Malformed,
                    };
                    f(Marker {
                        start: whole.start(),
                        end: whole.end(),
                        kind,
                    });
                }
            }
        }
    }
}

impl Grammar {
    /// Scans the inside of a JSON string literal as it stands, without
    /// decoding it, and answers [`Grammar::needs_decoding`] on the way: one
    /// pass over the reply for both. False as soon as an escape could change
    /// a marker; `f` may then have seen some markers already, which the
    /// caller discards before it scans the decoded text.
    ///
    /// `unicode_escape` says whether the literal holds a `\u` escape
    /// ([`crate::model::has_unicode_escape`]; the reader that checked the
    /// literal knows). With a preset that alone means decoding; without one,
    /// every other escape can only matter inside a run's window, so the scan
    /// looks for brackets and nothing else between runs.
    pub fn scan_raw(
        &self,
        inner: &str,
        unicode_escape: bool,
        chunks: &[Chunk<'_>],
        f: &mut dyn FnMut(Marker),
    ) -> bool {
        match self {
            Grammar::Preset(_) if unicode_escape => false,
            Grammar::Preset(p) => scan_preset(*p, inner, true, chunks, f),
            Grammar::Regex { .. } => {
                if memchr(b'\\', inner.as_bytes()).is_some() {
                    return false;
                }
                self.scan(inner, chunks, f);
                true
            }
        }
    }
}

/// Resolves a 1-based index (None: too large for any integer) against `n` chunks.
fn resolve(index: Option<u64>, n: u64) -> MarkerKind {
    match index {
        Some(i) if i >= 1 && i <= n => MarkerKind::Cited(i as u32),
        _ => MarkerKind::OutOfRange,
    }
}

/// Reads the text of a JSON value given as a citation `index` by the rule
/// of inline markers: ASCII digits are an index, however many (too large
/// for any integer is out of range, like `[KB-99999999999999999999999]`); a
/// negative whole number is out of range, like index 0. A number written
/// with a fraction or an exponent is read by its value ([`whole_number`]):
/// `2.0` is 2, `1e300` out of range like any whole number past the chunks;
/// anything else (a fraction such as `0.5`, a string, null) is malformed.
pub fn citation_index(json: &str) -> CitationIndex {
    let (negative, digits) = match json.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, json),
    };
    match parse_digits(digits.as_bytes()) {
        None => json
            .parse::<f64>()
            .map_or(CitationIndex::Malformed, whole_number),
        Some(_) if negative => CitationIndex::OutOfRange,
        Some(Some(i)) => CitationIndex::Index(i),
        Some(None) => CitationIndex::OutOfRange,
    }
}

/// A JSON number's value as an index: a whole number is one (negative, or
/// past every integer, out of range; `-0.0` is 0); anything else malformed.
pub fn whole_number(x: f64) -> CitationIndex {
    if !x.is_finite() || x.fract() != 0.0 {
        CitationIndex::Malformed
    } else if x < 0.0 || x >= u64::MAX as f64 {
        CitationIndex::OutOfRange
    } else {
        CitationIndex::Index(x as u64)
    }
}

/// Resolves one element of a citations list against `n` chunks: the same
/// rule as a marker in a reply.
pub fn resolve_citation(index: CitationIndex, n: u64) -> MarkerKind {
    match index {
        CitationIndex::Index(i) => resolve(Some(i), n),
        CitationIndex::OutOfRange => resolve(None, n),
        CitationIndex::Malformed => MarkerKind::Malformed,
    }
}

/// Parses ASCII digits: `None` when `s` is not digits, `Some(None)` when
/// they are too large for any integer (out of range for any chunk list).
fn parse_digits(s: &[u8]) -> Option<Option<u64>> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: u64 = 0;
    for &b in s {
        match v
            .checked_mul(10)
            .and_then(|v| v.checked_add((b - b'0') as u64))
        {
            Some(x) => v = x,
            None => return Some(None),
        }
    }
    Some(Some(v))
}

/// Finds the bracketed run starting at `open` (a `[`): the index of its `]`,
/// provided no other `[` or line break comes first and at most
/// [`MAX_BRACKET`] bytes lie between them.
fn close_of(b: &[u8], open: usize) -> Option<usize> {
    let end = (open + 2 + MAX_BRACKET).min(b.len());
    for (i, &c) in b[open + 1..end].iter().enumerate() {
        match c {
            b']' => return Some(open + 1 + i),
            b'[' | b'\n' | b'\r' => return None,
            _ => {}
        }
    }
    None
}

/// Where a scan of raw JSON string text goes on after the backslash at
/// `i`: past its escape, or `None` at a `\u` escape (which can make a
/// bracket). Both bytes of an escape are skipped, so `\\u` is not one; a
/// bracket is looked at even right after a backslash.
fn past_escape(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i + 1) {
        Some(b'u') => None,
        Some(b'[') => Some(i + 1),
        Some(_) => Some(i + 2),
        None => Some(b.len()),
    }
}

/// Whether `b` holds a `\u` escape (an escaped backslash, `\\u`, is not
/// one: both bytes of every escape are skipped), or a backslash inside some
/// bracketed run: after a `[`, before the next `]` or `[`, within the window
/// [`close_of`] looks at. Where neither occurs, every run reads the same raw
/// as decoded. One pass over the reply for both questions.
fn escape_matters(b: &[u8]) -> bool {
    let mut at = 0;
    while let Some(off) = memchr2(b'\\', b'[', &b[at..]) {
        let i = at + off;
        if b[i] == b'\\' {
            match past_escape(b, i) {
                Some(next) => at = next,
                None => return true,
            }
            continue;
        }
        let end = (i + 2 + MAX_BRACKET).min(b.len());
        for &c in &b[i + 1..end] {
            match c {
                b'\\' => return true,
                b']' | b'[' => break,
                _ => {}
            }
        }
        at = i + 1;
    }
    false
}

/// Scans `text` with a preset (see [`Grammar::scan_raw`] for `raw`).
fn scan_preset(
    p: Preset,
    text: &str,
    raw: bool,
    chunks: &[Chunk<'_>],
    f: &mut dyn FnMut(Marker),
) -> bool {
    let n = chunks.len() as u64;
    match p {
        Preset::Kb => runs(text, raw, |open, close| kb_run(text, open, close, n, f)),
        Preset::Numeric => {
            let mut items = Vec::new();
            runs(text, raw, |open, close| {
                numeric_run(text, open, close, n, &mut items, f)
            })
        }
        Preset::Doc => runs(text, raw, |open, close| {
            prefixed_run(text, b"doc", open, close, n, f)
        }),
        Preset::Footnote => runs(text, raw, |open, close| {
            prefixed_run(text, b"^", open, close, n, f)
        }),
        Preset::Id => {
            let ids = Ids::of(chunks);
            let mut clean = true;
            let done = runs(text, raw, |open, close| {
                clean = clean && id_run(text, open, close, raw, &ids, f);
            });
            done && clean
        }
    }
}

/// Calls `run(open, close)` for every `[` … `]` run in `text` (see
/// [`close_of`]). With `raw`, `text` is the inside of a JSON string literal
/// without a `\u` escape, scanned undecoded, and the same pass does the
/// rest of [`escape_matters`]'s checks: it stops, false, at the first
/// backslash inside a run's window. Between runs no escape matters: a `[`
/// in a checked literal is always a bracket (no escape holds one), and no
/// escape but `\u` decodes to one.
fn runs(text: &str, raw: bool, mut run: impl FnMut(usize, usize)) -> bool {
    let b = text.as_bytes();
    let mut at = 0;
    loop {
        let Some(off) = memchr(b'[', &b[at..]) else {
            return true;
        };
        let i = at + off;
        let close = if raw {
            match close_of_raw(b, i) {
                Ok(close) => close,
                Err(()) => return false,
            }
        } else {
            close_of(b, i)
        };
        match close {
            Some(close) => {
                run(i, close);
                at = close + 1;
            }
            None => at = i + 1,
        }
    }
}

/// [`close_of`] on the raw text of a JSON string literal, and `Err` when a
/// backslash comes before the `]` or `[` that ends the window
/// [`escape_matters`] looks at (a line break ends the run, not the window).
fn close_of_raw(b: &[u8], open: usize) -> Result<Option<usize>, ()> {
    let end = (open + 2 + MAX_BRACKET).min(b.len());
    let mut broken = false;
    for (i, &c) in b[open + 1..end].iter().enumerate() {
        match c {
            b'\\' => return Err(()),
            b']' => return Ok((!broken).then_some(open + 1 + i)),
            b'[' => return Ok(None),
            b'\n' | b'\r' => broken = true,
            _ => {}
        }
    }
    Ok(None)
}

/// `[KB-N]`: any other run starting with `KB` in any case is malformed.
fn kb_run(text: &str, open: usize, close: usize, n: u64, f: &mut dyn FnMut(Marker)) {
    let inner = &text.as_bytes()[open + 1..close];
    if inner.len() < 2 || !inner[..2].eq_ignore_ascii_case(b"kb") {
        return;
    }
    let kind = match inner.strip_prefix(b"KB-").and_then(parse_digits) {
        Some(v) => resolve(v, n),
        None => MarkerKind::Malformed,
    };
    f(Marker {
        start: open,
        end: close + 1,
        kind,
    });
}

/// `[PREFIX N]` grammars (`[docN]`, `[^N]`): nothing is counted malformed.
fn prefixed_run(
    text: &str,
    prefix: &[u8],
    open: usize,
    close: usize,
    n: u64,
    f: &mut dyn FnMut(Marker),
) {
    if let Some(v) = text.as_bytes()[open + 1..close]
        .strip_prefix(prefix)
        .and_then(parse_digits)
    {
        f(Marker {
            start: open,
            end: close + 1,
            kind: resolve(v, n),
        });
    }
}

/// One item of a numeric list: a number or a range.
enum Item {
    One(Option<u64>),
    Range(Option<u64>, Option<u64>),
}

/// Parses the inside of a numeric bracket: numbers or `N-M` ranges separated
/// by commas and/or `and` (spaces allowed around them). None when the text is
/// not such a list (`Online`, `Reinhardt, 2014`, `...`).
fn parse_numeric_list(inner: &[u8], items: &mut Vec<Item>) -> bool {
    items.clear();
    let mut i = 0;
    let skip_spaces = |i: &mut usize| {
        while *i < inner.len() && inner[*i] == b' ' {
            *i += 1;
        }
    };
    let number = |i: &mut usize| -> Option<Option<u64>> {
        let s = *i;
        while *i < inner.len() && inner[*i].is_ascii_digit() {
            *i += 1;
        }
        parse_digits(&inner[s..*i])
    };
    skip_spaces(&mut i);
    loop {
        let a = match number(&mut i) {
            Some(a) => a,
            None => return false,
        };
        if i < inner.len() && (inner[i] == b'-' || inner[i..].starts_with("–".as_bytes())) {
            i += if inner[i] == b'-' { 1 } else { "–".len() };
            match number(&mut i) {
                Some(z) => items.push(Item::Range(a, z)),
                None => return false,
            }
        } else {
            items.push(Item::One(a));
        }
        skip_spaces(&mut i);
        if i == inner.len() {
            return true;
        }
        let mut sep = false;
        if inner[i] == b',' {
            i += 1;
            sep = true;
            skip_spaces(&mut i);
        }
        if inner[i..].starts_with(b"and ") {
            i += 4;
            sep = true;
            skip_spaces(&mut i);
        }
        if !sep {
            return false;
        }
    }
}

/// `[3]`, `[1, 2]`, `[1-3]`: a marker for every number of the list.
fn numeric_run(
    text: &str,
    open: usize,
    close: usize,
    n: u64,
    items: &mut Vec<Item>,
    f: &mut dyn FnMut(Marker),
) {
    let inner = &text.as_bytes()[open + 1..close];
    if inner.is_empty() || !inner[0].is_ascii_digit() && inner[0] != b' ' {
        return;
    }
    if !parse_numeric_list(inner, items) {
        return;
    }
    let span = |kind| Marker {
        start: open,
        end: close + 1,
        kind,
    };
    for item in items.iter() {
        match *item {
            Item::One(v) => f(span(resolve(v, n))),
            Item::Range(Some(a), Some(z)) if a <= z && z - a < MAX_RANGE => {
                for v in a..=z {
                    f(span(resolve(Some(v), n)));
                }
            }
            Item::Range(..) => f(span(MarkerKind::Malformed)),
        }
    }
}

/// Characters of an id-shaped token: those of file names, paths, URLs
/// and their queries (`report.pdf#page=4`, `https://a.example/b?id=7`).
fn id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'.' | b'_' | b':' | b'#' | b'/' | b'-' | b'=' | b'?' | b'&' | b'%' | b'~' | b'+'
        )
}

/// The chunks by id (chunk id or document id: the first chunk with it, in
/// chunk order). A turn of few chunks is searched in place; past
/// [`IDS_SEARCHED`] chunks a table is made, on the first id looked up, so
/// that a reply of many id markers over many chunks costs markers + chunks,
/// not their product, and a reply without a bracket costs nothing.
struct Ids<'c> {
    chunks: &'c [Chunk<'c>],
    table: std::cell::OnceCell<std::collections::HashMap<&'c str, u32>>,
    /// Whether a chunk is named by a web address, found on first asking.
    web: std::cell::OnceCell<bool>,
}

/// The most chunks an id is looked for one by one.
const IDS_SEARCHED: usize = 16;

impl<'c> Ids<'c> {
    fn of(chunks: &'c [Chunk<'c>]) -> Ids<'c> {
        Ids {
            chunks,
            table: std::cell::OnceCell::new(),
            web: std::cell::OnceCell::new(),
        }
    }

    /// Whether some chunk's id or document id is a web address.
    fn any_web(&self) -> bool {
        *self.web.get_or_init(|| {
            self.chunks.iter().any(|c| {
                [&c.chunk_id, &c.document_id]
                    .into_iter()
                    .flatten()
                    .any(|id| is_web(id.as_str()))
            })
        })
    }

    fn get(&self, token: &str) -> Option<u32> {
        let ids = |c: &'c Chunk<'c>| [&c.chunk_id, &c.document_id].into_iter().flatten();
        if self.chunks.len() <= IDS_SEARCHED {
            return self
                .chunks
                .iter()
                .find(|c| ids(c).any(|id| id.as_str() == token))
                .map(|c| c.index);
        }
        let table = self.table.get_or_init(|| {
            let mut map = std::collections::HashMap::with_capacity(2 * self.chunks.len());
            for c in self.chunks {
                for id in ids(c) {
                    map.entry(id.as_str()).or_insert(c.index);
                }
            }
            map
        });
        table.get(token).copied()
    }
}

/// `[chunk-or-document-id]`: the chunk with that id, or out of range when
/// the run is id-shaped and no chunk has it. The text of a Markdown link
/// (`[text](url)`) is never an id: the link is read by [`link_run`].
/// False when `raw` and an escape in a link's address may matter.
fn id_run(
    text: &str,
    open: usize,
    close: usize,
    raw: bool,
    ids: &Ids<'_>,
    f: &mut dyn FnMut(Marker),
) -> bool {
    let b = text.as_bytes();
    if b.get(close + 1) == Some(&b'(') {
        return link_run(text, open, close, raw, ids, f);
    }
    let token = &text[open + 1..close];
    if token.is_empty() || token.bytes().any(|c| c.is_ascii_whitespace()) {
        return true;
    }
    let kind = match ids.get(token) {
        Some(i) => MarkerKind::Cited(i),
        None => {
            let tb = &b[open + 1..close];
            // Id-shaped: only id characters, at least one digit or
            // punctuation mark (plain words are prose) and at least one
            // letter or digit (`[...]` and `[-]` are not ids).
            let shaped = tb.iter().all(|&c| id_char(c))
                && tb
                    .iter()
                    .any(|&c| c.is_ascii_digit() || (id_char(c) && !c.is_ascii_alphabetic()))
                && tb.iter().any(u8::is_ascii_alphanumeric);
            if !shaped {
                return true;
            }
            MarkerKind::OutOfRange
        }
    };
    f(Marker {
        start: open,
        end: close + 1,
        kind,
    });
    true
}

/// The longest address of a Markdown link read as a citation.
const MAX_ADDRESS: usize = 2048;

/// A Markdown link `[text](address)` whose run closes at `close`: a
/// citation of the retrieved result whose id is its address (a trailing
/// `/` aside); when the turn retrieved results named by web addresses and
/// none is this one, an address that names nothing retrieved is out of
/// range. Any other link is a link, not a marker. The address is looked
/// for in at most [`MAX_ADDRESS`] bytes, up to a space or bracket. False
/// when `raw` and the address holds an escape (`\/`): the decoded text
/// decides.
fn link_run(
    text: &str,
    open: usize,
    close: usize,
    raw: bool,
    ids: &Ids<'_>,
    f: &mut dyn FnMut(Marker),
) -> bool {
    let b = text.as_bytes();
    let from = close + 2;
    let window = &b[from..(from + MAX_ADDRESS + 1).min(b.len())];
    let Some(len) = window
        .iter()
        .position(|&c| c == b')' || c.is_ascii_whitespace() || matches!(c, b'[' | b']' | b'('))
    else {
        return true;
    };
    if window[len] != b')' || len == 0 {
        return true;
    }
    let address = &text[from..from + len];
    if raw && address.contains('\\') {
        return false;
    }
    let kind = match ids
        .get(address)
        .or_else(|| ids.get(address.trim_end_matches('/')))
    {
        Some(i) => MarkerKind::Cited(i),
        None if is_web(address) && ids.any_web() => MarkerKind::OutOfRange,
        None => return true,
    };
    f(Marker {
        start: open,
        end: from + len + 1,
        kind,
    });
    true
}

/// An `http://` or `https://` address.
fn is_web(s: &str) -> bool {
    s.starts_with("https://") || s.starts_with("http://")
}

#[cfg(test)]
mod tests;

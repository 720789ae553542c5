//! The span formats as dialects of the engine: each span is a record of
//! its trace (group = trace id, identity = trace and span id), and every
//! span format shares one family, so a trace whose spans came through two
//! exports still assembles once.

use super::{Head, Span, Spans, Trace};
use crate::dialect::{AssembleOptions, Assembled, Dialect, DocumentRecords, First, Parsed, Record};
use crate::markers::{Grammar, Preset};
use crate::model::{Extras, Turn};

/// One span export format, read as a dialect: its names, the rule that
/// tells its sources apart, and its reader. Each format's `static` lives
/// beside its reader; listing it in [`crate::dialect::DIALECTS`] is all
/// that registers it.
pub struct SpanFormat {
    /// Its `--input-format` value.
    pub name: &'static str,
    /// What the format is, for `--help`, messages and `explain`.
    pub about: &'static str,
    /// Claims a source by its head (asked after every dialect before it in
    /// [`crate::dialect::DIALECTS`] said no).
    pub claims: fn(&Head<'_>) -> bool,
    /// A source whose first line is a whole object is still one document
    /// when this says so of it (its first non-blank byte on): Phoenix's
    /// OTLP download always, a REST page envelope. Arrays and
    /// pretty-printed objects are documents in every format.
    pub document: fn(&[u8]) -> bool,
    /// Its reader.
    pub read: Reader,
}

/// How a span format's bytes become spans.
pub struct Reader {
    /// One line known to be UTF-8, all or nothing (boxes each span).
    pub line: fn(&str, &mut Spans) -> Result<(), String>,
    /// A line, a document or several, each span with the byte offset of its
    /// object; true when a page envelope said more pages follow.
    pub pages: fn(&[u8], &mut Sink<'_>) -> Result<bool, String>,
}

/// Where a reader hands each span, with the byte offset of its object.
pub type Sink<'a> = dyn FnMut(usize, Span) + 'a;

impl PartialEq for SpanFormat {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl std::fmt::Debug for SpanFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The identity of a span: xxh3-128 of its trace id, a zero byte and its
/// span id. Hashed in one call from a copy on the stack when the ids are
/// short (as they nearly always are): the streaming hasher's set-up and
/// buffer cost more than the hash (the same bytes give the same hash).
fn span_key(trace: &[u8], span: &[u8]) -> u128 {
    let mut buf = [0u8; 96];
    let n = trace.len() + 1 + span.len();
    if n <= buf.len() {
        buf[..trace.len()].copy_from_slice(trace);
        buf[trace.len() + 1..n].copy_from_slice(span);
        return xxhash_rust::xxh3::xxh3_128(&buf[..n]);
    }
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(trace);
    h.update(&[0]);
    h.update(span);
    h.digest128()
}

/// A span's record key: its trace and span ids, and its service when the
/// export names one, so two services' exports whose ids collide are not
/// taken for repeats of one span (the assembly reports the collision).
fn record_key(span: &Span) -> u128 {
    let key = span_key(span.trace_id.as_bytes(), span.span_id.as_bytes());
    match &span.service {
        Some(s) => key ^ xxhash_rust::xxh3::xxh3_128(s.as_bytes()).rotate_left(1),
        None => key,
    }
}

/// The record of one span (boxed where it was read: a span is moved by
/// pointer from then on, never copied again).
fn record(span: Box<Span>) -> Record {
    Record {
        // The ids are hashed as bytes: a `ShortId` read as `&str` checks
        // its UTF-8 each time.
        group: span.trace_id.clone(),
        key: Some(record_key(&span).into()),
        counted: true,
        completes: span.parent_id.is_none(),
        link: crate::dialect::Link::Direct,
        body: span,
    }
}

impl Dialect for SpanFormat {
    fn name(&self) -> &'static str {
        self.name
    }
    fn about(&self) -> &'static str {
        self.about
    }
    fn sniff(&self, first: &First<'_>) -> bool {
        first.span_head().is_some_and(self.claims)
    }
    /// RAG prompts number their sources: `[1]`, `[1, 2]`, `[1-3]`.
    fn grammar(&self) -> Grammar {
        Grammar::Preset(Preset::Numeric)
    }
    fn family(&self) -> crate::dialect::Family {
        crate::dialect::Family::Spans
    }
    fn block_size(&self) -> usize {
        crate::input::RECORD_BLOCK_SIZE
    }
    fn is_document(&self, first: &[u8]) -> bool {
        super::is_document(self, first)
    }
    fn parse_line<'a>(
        &self,
        line: &'a str,
        out: &mut Vec<Record>,
        _warnings: &mut crate::messages::Warnings,
    ) -> Parsed<'a> {
        // One list per thread, kept between lines: a request line holds
        // hundreds of spans, and a list grown afresh each time moves them all.
        thread_local! {
            static SPANS: std::cell::RefCell<Spans> = const { std::cell::RefCell::new(Vec::new()) };
        }
        SPANS.with_borrow_mut(|spans| {
            spans.clear();
            match super::parse_line_str(self, line, spans) {
                Err(reason) => Parsed::Invalid(reason),
                Ok(()) if spans.is_empty() => Parsed::Skipped,
                Ok(()) => {
                    let n = spans.len();
                    out.extend(spans.drain(..).map(record));
                    Parsed::Records(n)
                }
            }
        })
    }
    fn parse_document(&self, data: &[u8], out: &mut DocumentRecords) {
        let mut spans = Vec::new();
        let result = super::parse_document(self, data, &mut spans);
        let last = spans.last().map_or(1, |(l, _)| *l);
        out.records.extend(
            spans
                .into_iter()
                .map(|(line, s)| (line, record(Box::new(s)))),
        );
        match result {
            Err(reason) => out.invalid(last, reason),
            Ok(true) => out.notes.push(
                "is one page of a paginated export (its next_cursor is set): the spans of later pages are not read, so a turn may miss its retrievals; download every page"
                    .to_owned(),
            ),
            Ok(false) => {}
        }
    }
    fn assemble(
        &self,
        group: &str,
        records: Vec<Record>,
        opts: &AssembleOptions,
    ) -> Result<Box<dyn Assembled>, String> {
        // A trace may hold records of other exports of the family (a
        // LangSmith run part, a Langfuse trace row): one function reads all.
        Ok(Box::new(super::assemble_records(group, records, opts)))
    }
}

impl Assembled for Trace {
    fn turn(&self) -> Turn<'_> {
        Trace::turn(self)
    }
    fn extras(&self) -> Extras {
        Trace::extras(self)
    }
    fn evidence(&self, show_text: bool) -> serde_json::Map<String, serde_json::Value> {
        match self.evidence_with(show_text) {
            serde_json::Value::Object(m) => m,
            other => {
                let mut m = serde_json::Map::new();
                m.insert("trace".into(), other);
                m
            }
        }
    }
    fn reply_span(&self) -> Option<&str> {
        Trace::reply_span(self)
    }
    fn root_span(&self) -> Option<&str> {
        Trace::root_span(self)
    }
}

#[cfg(test)]
mod tests {
    use super::span_key;

    /// The one-call hash and the streaming one agree, on both sides of the
    /// stack copy's size, and the zero byte keeps ("ab", "c") from ("a", "bc").
    #[test]
    fn a_span_key_is_the_hash_of_both_ids() {
        let streamed = |t: &str, s: &str| {
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            h.update(t.as_bytes());
            h.update(&[0]);
            h.update(s.as_bytes());
            h.digest128()
        };
        let long = "f".repeat(80);
        for (t, s) in [
            ("", ""),
            ("db9a0eb7b48c531b4eeb87ffc064f074", "79af834810bbc60d"),
            (&long[..79], &long[..16]),
            (&long[..70], &long[..25]),
            (&long[..70], &long[..26]),
            (&long, &long),
        ] {
            assert_eq!(
                span_key(t.as_bytes(), s.as_bytes()),
                streamed(t, s),
                "{} + {}",
                t.len(),
                s.len()
            );
        }
        assert_ne!(span_key(b"ab", b"c"), span_key(b"a", b"bc"));
    }
}

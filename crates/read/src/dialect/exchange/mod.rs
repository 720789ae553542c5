//! The `exchange` dialect: recorded provider API calls, one per line,
//! graded by the provider's structured citations rather than by markers in
//! the reply text.
//!
//! A line is `{"id", "created_at", "agent_id", "request", "response"}`, the
//! response either the body or, for a stream, `{"events": [...]}` in order.
//! The provider is told from the shapes; its reader ([`anthropic`],
//! [`openai`], [`cohere`], [`gemini`], [`bedrock`], [`perplexity`]) lists the
//! chunks the request gave or the response returned and turns each citation
//! into the 1-based position of the chunk it resolves to, or out of range.
//! The verdict rules (`grade`) then read that list like a native citations
//! list; nothing here decides a verdict.

mod anthropic;
mod bedrock;
mod cohere;
mod converse;
mod gemini;
mod links;
mod openai;
mod perplexity;
mod recorded;

use super::{Dialect, Parsed, Record};
use crate::markers::{Grammar, Preset};
use crate::messages::Warnings;
use crate::model::{
    Answer, Chunk, CitationIndex, Cite, Extras, Id, MarkersFrom, Provider, Reply, Shared, Texts,
    Turn, Unobserved,
};
use crate::support::chars::CharMap;
pub(crate) use recorded::{may_cite, may_give_documents, read_recorded};
use serde_json::Value;
use std::borrow::Cow;

/// The `exchange` dialect.
pub static EXCHANGE: Exchange = Exchange;

/// Recorded provider API calls (see the module documentation).
pub struct Exchange;

/// One chunk the request gave or the response returned.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Source {
    /// The document it came from (a title, a file, a URL, an id).
    pub doc: Option<String>,
    /// Its own id, when the provider gives one.
    pub id: Option<String>,
    pub score: Option<f64>,
    /// Its text, when the recording holds it (shown only with `--show-text`).
    pub text: Option<String>,
}

/// What a provider's reader found in one exchange.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// The provider whose reader found it.
    pub from: Provider,
    /// Which API shape was read (for `explain`).
    pub api: &'static str,
    pub chunks: Vec<Source>,
    pub citations: Vec<CitationIndex>,
    /// Facts for `explain`; never free text from the log.
    pub notes: Vec<String>,
    /// The answer text, where the recording holds it.
    pub answer: Option<String>,
    /// Where each citation sits in the answer and what it quotes, in the
    /// order of `citations` (character offsets: [`Cite`]).
    pub cites: Vec<Cite>,
    /// The model the response or request names (read for traced calls).
    pub model: Option<String>,
    /// A recorded stream that ends before its last event: the answer is
    /// incomplete, so the turn is unobserved ([`Unobserved::StreamCut`]).
    pub cut: bool,
}

impl Found {
    fn new(from: Provider, api: &'static str) -> Found {
        Found {
            from,
            api,
            chunks: Vec::new(),
            citations: Vec::new(),
            notes: Vec::new(),
            answer: None,
            cites: Vec::new(),
            model: None,
            cut: false,
        }
    }

    /// Adds a citation with its place and quote.
    fn cite(&mut self, index: CitationIndex, cite: &Cite) {
        self.citations.push(index);
        self.cites.push(cite.clone());
    }

    /// The texts the support checks read: the answer, each chunk's text,
    /// and each citation's place and quote.
    pub(crate) fn texts(&self) -> Texts<'static> {
        Texts {
            chunks: self
                .chunks
                .iter()
                .map(|c| c.text.clone().map(|t| Reply::Text(Cow::Owned(t))))
                .collect(),
            answer: self.answer.clone().map(Cow::Owned),
            cites: self.cites.clone(),
        }
    }
}

/// A string field as a quote or span text.
pub(crate) fn owned(v: &Value, key: &str) -> Option<Shared> {
    v.get(key).and_then(Value::as_str).map(Shared::from)
}

/// Appends a stream's text delta to the `text` of `block` (an object) in
/// place: a stream of many deltas is assembled in one growing buffer, never
/// copied whole per event.
pub(crate) fn append_text(block: &mut Value, add: &str) {
    match block.get_mut("text") {
        Some(Value::String(s)) => s.push_str(add),
        _ => block["text"] = Value::String(add.to_owned()),
    }
}

/// A whole-number field as an offset.
pub(crate) fn offset(v: &Value, key: &str) -> Option<usize> {
    v.get(key).and_then(Value::as_u64).map(|n| n as usize)
}

/// An answer built from parts, in characters: each part's place in the
/// whole is where its offsets start.
#[derive(Default)]
pub(crate) struct AnswerText {
    pub text: String,
    chars: usize,
    /// Whether any part was added (an empty part still makes an answer).
    pub any: bool,
}

impl AnswerText {
    /// Appends `part` after `sep` (when the answer holds text already) and
    /// returns its character range.
    pub fn push(&mut self, part: &str, sep: &str) -> (usize, usize) {
        if !self.text.is_empty() {
            self.text.push_str(sep);
            self.chars += sep.chars().count();
        }
        let start = self.chars;
        self.text.push_str(part);
        self.chars += part.chars().count();
        self.any = true;
        (start, self.chars)
    }

    /// The answer, when any part was added.
    pub fn done(self) -> Option<String> {
        self.any.then_some(self.text)
    }
}

/// The character offset of byte `b` of `text`; a byte inside a character
/// or past the end is a place past the end, which no part of the text
/// holds (the offset check then records a mismatch).
pub(crate) fn char_of_byte(text: &str, map: &CharMap, b: usize) -> usize {
    if text.is_char_boundary(b) {
        map.char_at(text, b)
    } else {
        map.count() + 1
    }
}

/// The text blocks of `content` (Anthropic and Bedrock Converse documents
/// given as blocks): their texts joined by newlines, and each one's length
/// in characters ([`block_range`] places a block range in that text).
pub(crate) fn blocks(content: Option<&Value>) -> (String, Vec<usize>) {
    let texts: Vec<&str> = arr(content)
        .iter()
        .filter_map(|c| c.get("text").and_then(Value::as_str))
        .collect();
    (
        texts.join("\n"),
        texts.iter().map(|t| t.chars().count()).collect(),
    )
}

/// The character range of blocks `start..end` (end exclusive) of a text
/// made of blocks of `lens` characters joined by one newline.
pub(crate) fn block_range(lens: &[usize], start: usize, end: usize) -> Option<(usize, usize)> {
    if start >= end || end > lens.len() {
        return None;
    }
    let at = |k: usize| lens[..k].iter().sum::<usize>() + k;
    Some((at(start), at(end) - 1))
}

/// The citation of position `i` in a list of `len` chunks that starts at
/// chunk `offset` (0-based): in range, or out of range. `None` (no index,
/// or not a whole number) is malformed; a negative number is out of range.
pub(crate) fn at(i: Option<&Value>, offset: usize, len: usize) -> CitationIndex {
    match i {
        Some(v) => {
            let whole = match (v.as_u64(), v.as_i64(), v.as_f64()) {
                (Some(i), ..) => CitationIndex::Index(i),
                (None, Some(_), _) => CitationIndex::OutOfRange,
                (None, None, Some(x)) => crate::markers::whole_number(x),
                _ => CitationIndex::Malformed,
            };
            match whole {
                CitationIndex::Index(i) if i < len as u64 => {
                    CitationIndex::Index((offset + i as usize + 1) as u64)
                }
                CitationIndex::Index(_) => CitationIndex::OutOfRange,
                other => other,
            }
        }
        None => CitationIndex::Malformed,
    }
}

/// The citation of the first chunk, from `offset` on, whose document is
/// `key`; out of range when none is.
pub(crate) fn named(chunks: &[Source], offset: usize, key: &str) -> CitationIndex {
    chunks
        .iter()
        .skip(offset)
        .position(|c| c.doc.as_deref() == Some(key) || c.id.as_deref() == Some(key))
        .map_or(CitationIndex::OutOfRange, |p| {
            CitationIndex::Index((offset + p + 1) as u64)
        })
}

/// The elements of an array (none when `v` is not one).
pub(crate) fn arr(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// A string field.
pub(crate) fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// A provider this dialect reads: its name, the shapes of the responses
/// and stream events it writes, and how its recorded calls are read. Each
/// provider's module holds its own (`READER`); adding a provider is its
/// module and one line of [`READERS`].
pub(super) struct Reader {
    pub(super) provider: Provider,
    /// Its name as people write it, in messages.
    pub(super) shown: &'static str,
    /// One response, from its request and body, and whether the body was
    /// put together from a recorded stream.
    pub(super) read: fn(&Value, &Value, bool) -> Found,
    /// A recorded stream of events, as the body they add up to.
    pub(super) from_events: fn(&[Value]) -> Value,
    /// The event type that ends a whole stream, for the providers that
    /// send one (a stream cut off before it holds part of an answer).
    pub(super) last_event: Option<&'static str>,
    /// A whole response (with its request) in this provider's shape.
    pub(super) is_body: fn(&Value, &Value) -> bool,
    /// One stream event in this provider's shape.
    pub(super) is_event: fn(&Value) -> bool,
}

/// Every provider this dialect reads. A response (or a stream's first
/// event that any provider claims) is the first one's whose shape it has:
/// the order is the rule between providers with similar shapes (Perplexity
/// writes OpenAI's chat completions, with its citations).
const READERS: &[Reader] = &[
    anthropic::READER,
    gemini::READER,
    perplexity::READER,
    openai::READER,
    bedrock::READER,
    cohere::READER,
];

/// The providers this dialect reads, in the order of [`READERS`].
pub fn providers() -> impl Iterator<Item = Provider> {
    READERS.iter().map(|r| r.provider)
}

/// Which provider wrote this exchange, told from the shapes of its request
/// and response (or stream events).
fn provider(req: &Value, resp: &Value) -> Option<&'static Reader> {
    match resp.get("events").and_then(Value::as_array) {
        Some(events) => events
            .iter()
            .find_map(|e| READERS.iter().find(|r| (r.is_event)(e))),
        None => READERS.iter().find(|r| (r.is_body)(req, resp)),
    }
}

/// Whether a recorded stream reached its provider's last event; streams of
/// providers without one are taken as whole.
fn stream_ended(reader: &Reader, events: &[Value]) -> bool {
    let Some(last) = reader.last_event else {
        return true;
    };
    events
        .iter()
        .any(|e| e.get("type").and_then(Value::as_str) == Some(last))
}

/// Reads one exchange: its provider's chunks and citations.
pub(crate) fn read(req: &Value, resp: &Value) -> Result<Found, String> {
    let events = resp.get("events").and_then(Value::as_array);
    let reader = provider(req, resp).ok_or_else(|| {
        let shown: Vec<&str> = READERS.iter().map(|r| r.shown).collect();
        format!(
            "exchange: the response is not one of a provider this dialect reads ({})",
            shown.join(", ")
        )
    })?;
    let body;
    let resp = match events {
        Some(events) => {
            body = (reader.from_events)(events);
            &body
        }
        None => resp,
    };
    let mut found = (reader.read)(req, resp, events.is_some());
    found.cites.resize(found.citations.len(), Cite::default());
    found.cut = events.is_some_and(|e| !stream_ended(reader, e));
    if events.is_some() {
        found.notes.push(format!(
            "a stream of {} events, read as the body they add up to",
            events.map_or(0, Vec::len)
        ));
    }
    Ok(found)
}

/// The parts of a line every provider shares.
struct Line {
    id: Id<'static>,
    agent: String,
    created_at: chrono::DateTime<chrono::Utc>,
    request: Value,
    response: Value,
    /// Cut from a recording of HTTP calls (HAR, VCR), where calls to other
    /// services (uploads, searches, setup) sit beside the model's.
    recorded: bool,
}

fn line_parts(line: &str) -> Result<Line, String> {
    let mut v: Value =
        serde_json::from_str(line).map_err(|e| format!("exchange: not JSON ({e})"))?;
    let obj = v
        .as_object_mut()
        .ok_or("exchange: a line must be a JSON object")?;
    let id = match obj.get("id") {
        Some(Value::String(s)) if !s.is_empty() => Id::string(s.clone()),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Id {
            text: Cow::Owned(n.to_string()),
            numeric: true,
        },
        _ => return Err("exchange: `id` must be a non-empty string or an integer".into()),
    };
    let agent = match obj.get("agent_id") {
        Some(Value::String(s)) => s.clone(),
        _ => return Err("exchange: `agent_id` must be a string".into()),
    };
    let created_at = obj
        .get("created_at")
        .and_then(Value::as_str)
        .and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok())
        .map(|t| t.with_timezone(&chrono::Utc))
        .ok_or("exchange: `created_at` must be an RFC 3339 time")?;
    let request = obj.remove("request").unwrap_or(Value::Null);
    let response = match obj.remove("response") {
        Some(r @ Value::Object(_)) => r,
        _ => return Err("exchange: `response` must be an object (a body, or `events`)".into()),
    };
    let recorded = obj.get("recorded") == Some(&Value::Bool(true));
    Ok(Line {
        id,
        agent,
        created_at,
        request,
        response,
        recorded,
    })
}

fn model(l: &Line) -> Option<String> {
    [&l.response, &l.request]
        .into_iter()
        .find_map(|v| v.get("model").and_then(Value::as_str))
        .or_else(|| {
            arr(l.response.get("events"))
                .iter()
                .find_map(|e| {
                    e.pointer("/message/model")
                        .or(e.pointer("/response/model"))
                        .or(e.get("model"))
                })
                .and_then(Value::as_str)
        })
        .map(str::to_owned)
}

impl Dialect for Exchange {
    fn name(&self) -> &'static str {
        "exchange"
    }
    fn about(&self) -> &'static str {
        "Recorded provider API calls (request and response), graded by their structured citations"
    }
    fn sniff(&self, first: &crate::dialect::First<'_>) -> bool {
        sniff(first.bytes())
    }
    fn grammar(&self) -> Grammar {
        Grammar::Preset(Preset::Numeric)
    }
    fn parse_line<'a>(
        &self,
        line: &'a str,
        _out: &mut Vec<Record>,
        _warnings: &mut Warnings,
    ) -> Parsed<'a> {
        match turn(line) {
            Ok(Some(t)) => Parsed::Turn(t),
            Ok(None) => Parsed::Skipped,
            Err(e) => Parsed::Invalid(e),
        }
    }
    fn extras(&self, line: &str) -> Extras {
        let mut extras = Extras::default();
        let Ok(l) = line_parts(line) else {
            return extras;
        };
        extras.question = crate::dialect::question::question_in_value(&l.request);
        if let Ok(found) = read(&l.request, &l.response) {
            extras.notes.push(format!(
                "{} {}: {} chunks given or returned, {} citations",
                found.from.as_str(),
                found.api,
                found.chunks.len(),
                found.citations.len()
            ));
            extras.notes.extend(found.notes);
            extras.chunk_texts = found.chunks.into_iter().map(|c| c.text).collect();
        }
        extras
    }
}

/// One line as a turn; none for a recorded call to another service than
/// a model provider's, which is counted as a skipped record.
fn turn(line: &str) -> Result<Option<Turn<'static>>, String> {
    let l = line_parts(line)?;
    if l.recorded && provider(&l.request, &l.response).is_none() {
        return Ok(None);
    }
    let found = read(&l.request, &l.response)?;
    let chunks = found
        .chunks
        .iter()
        .enumerate()
        .map(|(i, c)| Chunk {
            index: i as u32 + 1,
            document_id: c.doc.clone().map(Id::string),
            chunk_id: c.id.clone().map(Id::string),
            score: c.score,
        })
        .collect();
    let model = model(&l).map(Cow::Owned);
    let texts = found.texts();
    // A call answered by a tool request alone gave no answer to grade.
    let silent =
        found.citations.is_empty() && found.answer.as_deref().is_none_or(|a| a.trim().is_empty());
    // In a recording, such a call is a step of the agent's turn, not a turn.
    if silent && l.recorded && !found.cut {
        return Ok(None);
    }
    Ok(Some(Turn {
        turn_id: l.id,
        agent_id: Cow::Owned(l.agent),
        conversation_id: None,
        channel: Cow::Borrowed(""),
        created_at: l.created_at,
        answer: match (found.cut, silent) {
            (true, _) => Answer::Unobserved(Unobserved::StreamCut),
            (false, true) => Answer::Unobserved(Unobserved::NoReply),
            (false, false) => Answer::Citations(found.citations, MarkersFrom::Provider(found.from)),
        },
        chunks,
        tool_calls: 0,
        tool_errors: 0,
        model,
        tokens_used: None,
        cost_cents: None,
        latency_ms: None,
        markers: None,
        evidence: None,
        texts,
    }))
}

/// True when the first line is an object with a `request` and a
/// `response`: parsed when it is whole within the block, else told from
/// its keys' text.
fn sniff(first: &[u8]) -> bool {
    let data = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    let start = match data.iter().position(|b| !b.is_ascii_whitespace()) {
        Some(s) if data[s] == b'{' => s,
        _ => return false,
    };
    let rest = &data[start..];
    match memchr::memchr(b'\n', rest) {
        Some(end) => serde_json::from_slice::<
            std::collections::HashMap<String, serde::de::IgnoredAny>,
        >(&rest[..end])
        .is_ok_and(|m| {
            m.contains_key("request") && m.contains_key("response") && m.contains_key("id")
        }),
        None => {
            let has = |k: &[u8]| memchr::memmem::find(rest, k).is_some();
            has(b"\"request\":") && has(b"\"response\":")
        }
    }
}

#[cfg(test)]
mod tests;

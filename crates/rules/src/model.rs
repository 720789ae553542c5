//! The turn model shared by every stage: what a dialect produces ([`Turn`]),
//! what grading produces ([`Row`], the public per-turn contract), and the
//! small value types they are made of.
//!
//! Everything borrows from the input line where it can (`Cow`), so the hot
//! path allocates only when an escape forces a copy. Nothing here does I/O.

use chrono::{DateTime, Datelike, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// Borrowed-or-owned text.
pub type Str<'a> = Cow<'a, str>;

/// Text that several citations carry (one Gemini support or Cohere
/// citation names many chunks with one span text): each copy is a
/// reference, never the text again.
pub type Shared = std::sync::Arc<str>;

/// An identifier that was a JSON string or integer. Integers keep their text
/// and are written back as numbers; comparisons and de-duplication use the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Id<'a> {
    /// The id as text (`9` for the integer 9).
    pub text: Str<'a>,
    /// True when the input held a JSON integer.
    pub numeric: bool,
}

impl<'a> Id<'a> {
    /// A string id.
    pub fn string(text: impl Into<Str<'a>>) -> Self {
        Id {
            text: text.into(),
            numeric: false,
        }
    }
    /// An owned copy.
    pub fn into_owned(self) -> Id<'static> {
        Id {
            text: Cow::Owned(self.text.into_owned()),
            numeric: self.numeric,
        }
    }
    /// The text of the id.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl Serialize for Id<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // `-0` is written as text: as a number it would read back as `0`.
        if self.numeric && self.text != "-0" {
            if let Ok(n) = self.text.parse::<i64>() {
                return s.serialize_i64(n);
            }
            if let Ok(n) = self.text.parse::<u64>() {
                return s.serialize_u64(n);
            }
        }
        s.serialize_str(&self.text)
    }
}

/// Reads what [`Serialize`] writes: a JSON integer is a numeric id, a
/// string is not.
impl<'de> Deserialize<'de> for Id<'_> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Id<'static>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an id: a string or an integer")
            }
            fn visit_i64<E>(self, n: i64) -> Result<Self::Value, E> {
                Ok(Id {
                    text: Cow::Owned(n.to_string()),
                    numeric: true,
                })
            }
            fn visit_u64<E>(self, n: u64) -> Result<Self::Value, E> {
                Ok(Id {
                    text: Cow::Owned(n.to_string()),
                    numeric: true,
                })
            }
            fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Id::string(s.to_owned()))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// True for an id written in hex, which tracing systems compare ignoring
/// case: 16 or 32 hex digits (OTLP/W3C span and trace ids, Phoenix,
/// Langfuse) or a UUID (`8-4-4-4-12`, LangSmith). Readers write such ids in
/// lower case; any other id (free text, a native `turn_id`) keeps its case.
pub fn is_hex_id(s: &str) -> bool {
    let b = s.as_bytes();
    match b.len() {
        16 | 32 => b.iter().all(u8::is_ascii_hexdigit),
        36 => b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        }),
        _ => false,
    }
}

/// True when `a` and `b` name the same turn: the same text, or the same
/// hex id ([`is_hex_id`]) in another case.
pub fn same_id(a: &str, b: &str) -> bool {
    a == b || (is_hex_id(a) && a.eq_ignore_ascii_case(b))
}

/// One retrieved chunk: pointer metadata only, never its content.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Chunk<'a> {
    /// 1-based position in retrieval order.
    pub index: u32,
    /// The document the chunk came from.
    pub document_id: Option<Id<'a>>,
    /// The chunk's own id.
    pub chunk_id: Option<Id<'a>>,
    /// Retrieval score as given (not clamped).
    pub score: Option<f64>,
}

impl Chunk<'_> {
    /// An owned copy.
    pub fn into_owned(self) -> Chunk<'static> {
        Chunk {
            index: self.index,
            document_id: self.document_id.map(Id::into_owned),
            chunk_id: self.chunk_id.map(Id::into_owned),
            score: self.score,
        }
    }
}

/// Reply text as found in the input.
#[derive(Debug, Clone)]
pub enum Reply<'a> {
    /// A JSON string literal, quotes included, escapes not yet decoded,
    /// and whether it holds a `\u` escape ([`has_unicode_escape`]; the
    /// readers that check the literal note it on the way).
    Json { raw: &'a str, unicode_escape: bool },
    /// Already-decoded text.
    Text(Str<'a>),
}

impl<'a> Reply<'a> {
    /// A reply kept as its JSON string literal, looking for a `\u` escape.
    pub fn json(raw: &'a str) -> Self {
        Reply::Json {
            raw,
            unicode_escape: has_unicode_escape(raw),
        }
    }

    /// The length of the text as the log holds it (a JSON literal's
    /// escapes undecoded).
    pub fn raw_len(&self) -> usize {
        match self {
            Reply::Json { raw, .. } => raw.len(),
            Reply::Text(t) => t.len(),
        }
    }

    /// The decoded text. Borrows when there is nothing to decode.
    pub fn decoded(&self) -> Str<'a> {
        match self {
            Reply::Json { raw, .. } => decode_json_string(raw),
            Reply::Text(t) => t.clone(),
        }
    }
}

/// Whether the JSON string text `raw` holds a `\u` escape: every escape
/// is stepped over whole from the start, so `\\u` (an escaped backslash,
/// then `u`) is not one.
pub fn has_unicode_escape(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut at = 0;
    while let Some(off) = memchr::memchr(b'\\', &b[at..]) {
        let i = at + off;
        if b.get(i + 1) == Some(&b'u') {
            return true;
        }
        at = (i + 2).min(b.len());
    }
    false
}

/// Decodes a JSON string literal (quotes included). The input was validated
/// by the parser that produced it, so failure is impossible in practice; an
/// undecodable literal yields its raw inner text rather than a panic.
pub fn decode_json_string(raw: &str) -> Str<'_> {
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or("");
    let Some(first) = memchr::memchr(b'\\', inner.as_bytes()) else {
        return Cow::Borrowed(inner);
    };
    if let Some(s) = decode_simple(inner, first) {
        return Cow::Owned(s);
    }
    match serde_json::from_str::<String>(raw) {
        Ok(s) => Cow::Owned(s),
        Err(_) => Cow::Borrowed(inner),
    }
}

/// The inside of a JSON string literal decoded, its first backslash at
/// `first`, when it holds only the short escapes (`\n`, `\"`, …): runs
/// between escapes are copied whole. `None` at a `\u` escape or an
/// unknown one (then serde_json decides).
fn decode_simple(inner: &str, first: usize) -> Option<String> {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    let mut at = Some(first);
    while let Some(k) = at {
        out.push_str(&rest[..k]);
        out.push(match rest.as_bytes().get(k + 1)? {
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            _ => return None,
        });
        rest = &rest[k + 2..];
        at = memchr::memchr(b'\\', rest.as_bytes());
    }
    out.push_str(rest);
    Some(out)
}

/// Why no answer was observed for a turn. The native turn log may carry it
/// as `unobserved` (what `convert` writes), so a converted log grades the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unobserved {
    /// Neither `reply` nor `grounding.citations` was present.
    NoReply,
    /// An agentfootprint run without a `turn_end` event.
    NoTurnEnd,
    /// The model's draft was withheld by output middleware and nothing was delivered.
    Withheld,
    /// An audit bundle in bounded mode: text was replaced by a length.
    BoundedAudit,
    /// A trace whose root span never arrived.
    NoRoot,
    /// The reply text was not recorded (OTel GenAI message content is opt-in):
    /// not an empty answer.
    ContentNotRecorded,
    /// A recorded provider stream ends before its last event: the answer
    /// is incomplete.
    StreamCut,
    /// Exports of different services share the trace's ids (a span id read
    /// twice with two services): their spans cannot be told apart.
    IdCollision,
}

impl Unobserved {
    /// Every reason, in the order above.
    pub const ALL: [Unobserved; 8] = [
        Unobserved::NoReply,
        Unobserved::NoTurnEnd,
        Unobserved::Withheld,
        Unobserved::BoundedAudit,
        Unobserved::NoRoot,
        Unobserved::ContentNotRecorded,
        Unobserved::StreamCut,
        Unobserved::IdCollision,
    ];

    /// The reason's name as written in every output.
    pub fn as_str(self) -> &'static str {
        match self {
            Unobserved::NoReply => "no_reply",
            Unobserved::NoTurnEnd => "no_turn_end",
            Unobserved::Withheld => "withheld",
            Unobserved::BoundedAudit => "bounded_audit",
            Unobserved::NoRoot => "no_root",
            Unobserved::ContentNotRecorded => "content_not_recorded",
            Unobserved::StreamCut => "stream_cut",
            Unobserved::IdCollision => "id_collision",
        }
    }

    /// The reason as a sentence fragment for `explain`.
    pub fn describe(self) -> &'static str {
        match self {
            Unobserved::NoReply => "the record has neither a reply nor a citations list",
            Unobserved::NoTurnEnd => {
                "the run has no turn_end event, so no answer was delivered or captured"
            }
            Unobserved::Withheld => {
                "the model's output was withheld by output middleware and no answer was delivered"
            }
            Unobserved::BoundedAudit => {
                "the audit bundle is bounded: text was replaced by its length"
            }
            Unobserved::NoRoot => "the trace's root span never arrived, so its answer is unknown",
            Unobserved::ContentNotRecorded => {
                "the reply text was not recorded (message content capture is opt-in), which is not an empty answer"
            }
            Unobserved::StreamCut => {
                "the recorded stream ends before its last event (message_stop, message-end), so its answer is incomplete"
            }
            Unobserved::IdCollision => {
                "exports of different services share this trace's span ids, so their spans cannot be told apart and are not merged into one answer"
            }
        }
    }
}

/// Whether a turn's export holds the retrieval an audit reads and, when it
/// does not, why: the evidence completeness of a log. Decided once, by
/// [`crate::grade::evidence`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// The retrieved documents are recorded: at least one chunk names its
    /// document or chunk, or carries its text.
    #[default]
    Documents,
    /// No retrieval step is recorded (or one that returned nothing).
    NoRetrieval,
    /// A retrieval step ran, but the export does not hold its documents.
    DocumentsNotRecorded,
    /// Message content capture was off: neither answer nor documents were recorded.
    ContentNotRecorded,
    /// Only part of the trace was exported: its root span never arrived.
    PartialTrace,
}

impl Evidence {
    /// Every value, in the order above.
    pub const ALL: [Evidence; 5] = [
        Evidence::Documents,
        Evidence::NoRetrieval,
        Evidence::DocumentsNotRecorded,
        Evidence::ContentNotRecorded,
        Evidence::PartialTrace,
    ];

    /// The name as written in every output.
    pub fn as_str(self) -> &'static str {
        match self {
            Evidence::Documents => "documents",
            Evidence::NoRetrieval => "no_retrieval",
            Evidence::DocumentsNotRecorded => "documents_not_recorded",
            Evidence::ContentNotRecorded => "content_not_recorded",
            Evidence::PartialTrace => "partial_trace",
        }
    }

    /// The value of a name written by [`Evidence::as_str`].
    pub fn parse(name: &str) -> Option<Evidence> {
        Evidence::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// The cause in words, for `inspect` and `explain`.
    pub fn describe(self) -> &'static str {
        match self {
            Evidence::Documents => "its retrieved documents are recorded",
            Evidence::NoRetrieval => "no retrieval step is recorded, or one that returned nothing",
            Evidence::DocumentsNotRecorded => {
                "a retrieval step ran, but the export does not hold its documents"
            }
            Evidence::ContentNotRecorded => {
                "message content capture was off, so neither answer nor documents were recorded"
            }
            Evidence::PartialTrace => {
                "only part of the trace was exported: its root span never arrived"
            }
        }
    }

    /// Position in [`Evidence::ALL`].
    pub fn slot(self) -> usize {
        self as usize
    }
}

/// What the turn says about the answer.
#[derive(Debug, Clone)]
pub enum Answer<'a> {
    /// The reply text (markers are scanned from it).
    Reply(Reply<'a>),
    /// No reply, but a citations list: each element's `index`, and where
    /// the list came from ([`MarkersFrom::Citations`] for the native log's
    /// `grounding.citations`, a provider for its structured citations).
    Citations(Vec<CitationIndex>, MarkersFrom),
    /// No answer was observed.
    Unobserved(Unobserved),
}

/// The `index` of one element of a citations list, as read. Resolved
/// against the chunks by [`crate::markers::resolve_citation`], the rule of
/// inline markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CitationIndex {
    /// A whole number: 1-based, so 0 is out of range.
    Index(u64),
    /// A whole number that is negative or too large for any integer: out of
    /// range whatever the chunks, as `[KB-99999999999999999999999]` is.
    OutOfRange,
    /// No whole-number index (none, a string, a fraction): malformed.
    Malformed,
}

/// The built-in marker grammars (`--markers`); a turn record may name
/// the one its reply is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// `[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed.
    Kb,
    /// `[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based.
    Numeric,
    /// `[docN]`, 1-based (Azure "on your data" style).
    Doc,
    /// `[^N]`, 1-based footnotes.
    Footnote,
    /// `[chunk-or-document-id]`: names a chunk of the turn by id.
    Id,
}

impl Preset {
    /// Every preset, in the order they are preferred on a tie.
    pub const ALL: [Preset; 5] = [
        Preset::Kb,
        Preset::Numeric,
        Preset::Doc,
        Preset::Footnote,
        Preset::Id,
    ];

    /// The name `--markers` gives the preset.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Kb => "kb",
            Preset::Numeric => "numeric",
            Preset::Doc => "doc",
            Preset::Footnote => "footnote",
            Preset::Id => "id",
        }
    }

    /// The preset `--markers` calls `name`.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// One turn as a dialect produced it, before grading.
#[derive(Debug, Clone)]
pub struct Turn<'a> {
    pub turn_id: Id<'a>,
    pub agent_id: Str<'a>,
    pub conversation_id: Option<Id<'a>>,
    pub channel: Str<'a>,
    pub created_at: DateTime<Utc>,
    pub answer: Answer<'a>,
    pub chunks: Vec<Chunk<'a>>,
    pub tool_calls: u32,
    pub tool_errors: u32,
    pub model: Option<Str<'a>>,
    pub tokens_used: Option<u64>,
    pub cost_cents: Option<f64>,
    pub latency_ms: Option<f64>,
    /// The marker grammar the record names (a native line's `markers`):
    /// used when no grammar is given on the command line.
    pub markers: Option<Preset>,
    /// What the support checks read beyond the verdict: chunk texts, and
    /// for structured citations the answer text, spans and quotes.
    pub texts: Texts<'a>,
    /// What the reader knows of the retrieval that the chunks cannot say:
    /// a retrieval step without its documents (a span), or what a native
    /// line states (`evidence`). `None` for most turns.
    pub evidence: Option<Evidence>,
}

/// The texts a turn's support checks read ([`crate::support`]): never part
/// of a row, and empty where the log holds none.
#[derive(Debug, Clone, Default)]
pub struct Texts<'a> {
    /// Each chunk's text, in chunk order (shorter than the chunks, or
    /// `None`, where the log does not hold it).
    pub chunks: Vec<Option<Reply<'a>>>,
    /// The answer text of a turn graded by structured citations.
    pub answer: Option<Str<'a>>,
    /// Where each structured citation sits and what it quotes, in the order
    /// of the citations list (empty when the log says nothing of it).
    pub cites: Vec<Cite>,
}

impl Texts<'_> {
    /// An owned copy.
    pub fn into_owned(self) -> Texts<'static> {
        let own = |s: Str<'_>| -> Str<'static> { Cow::Owned(s.into_owned()) };
        Texts {
            chunks: self
                .chunks
                .into_iter()
                .map(|c| c.map(|r| Reply::Text(own(r.decoded()))))
                .collect(),
            answer: self.answer.map(own),
            cites: self.cites.into_iter().collect(),
        }
    }
}

/// One structured citation's place and words.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cite {
    /// The part of the answer it covers: character offsets (Unicode scalar
    /// values), end exclusive; `start == end` for a point (OpenAI's
    /// `file_citation.index`).
    pub span: Option<(usize, usize)>,
    /// The text it says it quotes from the chunk (Anthropic `cited_text`,
    /// Converse `sourceContent`).
    pub quote: Option<Shared>,
    /// The answer text the provider says the span holds (Cohere `text`,
    /// Gemini `segment.text`, Bedrock `textResponsePart.text`), to check
    /// the offsets against.
    pub span_text: Option<Shared>,
    /// Where in the chunk's text the provider says the quote sits
    /// (character offsets, end exclusive), to check against the quote.
    pub quote_at: Option<(usize, usize)>,
}

impl Turn<'_> {
    /// An owned copy (a reply still in JSON form is decoded).
    pub fn into_owned(self) -> Turn<'static> {
        let own = |s: Str<'_>| -> Str<'static> { Cow::Owned(s.into_owned()) };
        Turn {
            turn_id: self.turn_id.into_owned(),
            agent_id: own(self.agent_id),
            conversation_id: self.conversation_id.map(Id::into_owned),
            channel: own(self.channel),
            created_at: self.created_at,
            answer: match self.answer {
                Answer::Reply(r) => Answer::Reply(Reply::Text(own(r.decoded()))),
                Answer::Citations(c, from) => Answer::Citations(c, from),
                Answer::Unobserved(u) => Answer::Unobserved(u),
            },
            chunks: self.chunks.into_iter().map(Chunk::into_owned).collect(),
            tool_calls: self.tool_calls,
            tool_errors: self.tool_errors,
            model: self.model.map(own),
            tokens_used: self.tokens_used,
            cost_cents: self.cost_cents,
            latency_ms: self.latency_ms,
            markers: self.markers,
            evidence: self.evidence,
            texts: self.texts.into_owned(),
        }
    }
}

/// The five verdicts.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Retrieval ran and the reply cites at least one retrieved chunk.
    Ok,
    /// Retrieval ran but the reply carries no well-formed marker.
    NoMarker,
    /// Markers that point at nothing: no retrieval, or every marker out of range.
    OrphanMarker,
    /// No retrieval and no marker (small talk, greetings).
    EmptyRetrieval,
    /// No answer was observed for the turn.
    Unobserved,
}

impl Verdict {
    /// All verdicts in report order.
    pub const ALL: [Verdict; 5] = [
        Verdict::Ok,
        Verdict::NoMarker,
        Verdict::OrphanMarker,
        Verdict::EmptyRetrieval,
        Verdict::Unobserved,
    ];
    /// The verdict's name as written in every output.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::NoMarker => "no_marker",
            Verdict::OrphanMarker => "orphan_marker",
            Verdict::EmptyRetrieval => "empty_retrieval",
            Verdict::Unobserved => "unobserved",
        }
    }
    /// Position in [`Verdict::ALL`].
    pub fn slot(self) -> usize {
        self as usize
    }
    /// `no_marker` and `orphan_marker`: the turns to read first.
    pub fn is_ungrounded(self) -> bool {
        matches!(self, Verdict::NoMarker | Verdict::OrphanMarker)
    }
}

/// A closed set of named values that a flag takes: every value, the name
/// it is given by, and a line about it. The command line takes them through
/// this trait (`cli`), so the layers that own them know no argument parser.
pub trait Named: Sized + Copy + 'static {
    /// Every value, in the order help lists them.
    const ALL: &'static [Self];
    /// Its name on the command line.
    fn name(self) -> &'static str;
    /// One line about it for help, if it needs one.
    fn about(self) -> Option<&'static str> {
        None
    }
    /// The value of that name, if there is one.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}

impl Named for Preset {
    const ALL: &'static [Preset] = &Preset::ALL;
    fn name(self) -> &'static str {
        Preset::name(self)
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Preset::Kb => {
                "`[KB-N]`, 1-based; a bracket starting with `KB` in any case that is not exactly that is malformed"
            }
            Preset::Numeric => {
                "`[3]`, `[1, 2]`, `[1-3]`, `[2 and 3]`: whole numbers, lists and ranges, 1-based"
            }
            Preset::Doc => "`[docN]`, 1-based (Azure \"on your data\" style)",
            Preset::Footnote => "`[^N]`, 1-based footnotes",
            Preset::Id => "`[chunk-or-document-id]`: names a chunk of the turn by id",
        })
    }
}

impl Named for Verdict {
    const ALL: &'static [Verdict] = &Verdict::ALL;
    fn name(self) -> &'static str {
        self.as_str()
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Verdict::Ok => "Retrieval ran and the reply cites at least one retrieved chunk",
            Verdict::NoMarker => "Retrieval ran but the reply carries no well-formed marker",
            Verdict::OrphanMarker => {
                "Markers that point at nothing: no retrieval, or every marker out of range"
            }
            Verdict::EmptyRetrieval => "No retrieval and no marker (small talk, greetings)",
            Verdict::Unobserved => "No answer was observed for the turn",
        })
    }
}

/// Where the markers of a row came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkersFrom {
    /// Markers scanned from the reply text.
    Reply,
    /// The native log's `grounding.citations` list.
    Citations,
    /// A provider's structured citations, read from a recorded API call
    /// (the `exchange` dialect, which owns the providers and their names).
    Provider(Provider),
    /// The sources a chain named for its answer (LangChain's
    /// `RetrievalQAWithSourcesChain` `sources` output): each one cites the
    /// chunks of the document it names, and one naming none is an orphan.
    Sources,
}

impl MarkersFrom {
    /// The name written in every output (`reply`, `citations`, or a provider's).
    pub fn as_str(&self) -> &str {
        match self {
            MarkersFrom::Reply => "reply",
            MarkersFrom::Citations => "citations",
            MarkersFrom::Provider(p) => p.as_str(),
            MarkersFrom::Sources => "sources",
        }
    }
}

impl Serialize for MarkersFrom {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MarkersFrom {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        match name.as_ref() {
            "reply" => Ok(MarkersFrom::Reply),
            "citations" => Ok(MarkersFrom::Citations),
            "sources" => Ok(MarkersFrom::Sources),
            other => Provider::parse(other)
                .map(MarkersFrom::Provider)
                .ok_or_else(|| {
                    serde::de::Error::custom(format!("`{other}` is not a source of markers"))
                }),
        }
    }
}

/// A provider's name as the exchange dialect registers it (`anthropic`,
/// `openai`, …): lower-case ASCII letters, digits, `-` and `_`, kept
/// inline, so a row stays `Copy` and a name read back from a partial
/// needs no list of providers here.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Provider {
    len: u8,
    name: [u8; Provider::MAX],
}

impl Provider {
    /// The longest name.
    pub const MAX: usize = 23;

    /// The provider of that name; a name that is no provider's fails the
    /// build (this is for the exchange dialect's constants).
    pub const fn named(name: &str) -> Provider {
        match Provider::checked(name.as_bytes()) {
            Some(p) => p,
            None => panic!("not a provider's name"),
        }
    }

    /// The provider of that name, if it can be one.
    pub fn parse(name: &str) -> Option<Provider> {
        Provider::checked(name.as_bytes())
    }

    const fn checked(b: &[u8]) -> Option<Provider> {
        if b.is_empty() || b.len() > Provider::MAX {
            return None;
        }
        let mut name = [0u8; Provider::MAX];
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-' || c == b'_') {
                return None;
            }
            name[i] = c;
            i += 1;
        }
        Some(Provider {
            len: b.len() as u8,
            name,
        })
    }

    /// Its name.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.name[..self.len as usize]).expect("ASCII by construction")
    }
}

impl std::fmt::Debug for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One graded turn: the per-turn row, a public JSON contract. It never
/// carries reply text or chunk content.
///
/// It reads back from its own JSON exactly (partials carry rows so).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row<'a> {
    pub turn_id: Id<'a>,
    pub agent_id: Str<'a>,
    pub conversation_id: Option<Id<'a>>,
    pub channel: Str<'a>,
    #[serde(serialize_with = "ser_time", deserialize_with = "de_time")]
    pub created_at: DateTime<Utc>,
    pub verdict: Verdict,
    pub partial: bool,
    pub cited_chunks: Vec<u32>,
    pub marker_count: u32,
    pub out_of_range_markers: u32,
    pub malformed_markers: u32,
    pub markers_from: Option<MarkersFrom>,
    pub chunk_count: u32,
    pub confidence: Option<f64>,
    pub chunks: Vec<Chunk<'a>>,
    pub tool_calls: u32,
    pub tool_errors: u32,
    pub model: Option<Str<'a>>,
    pub tokens_used: Option<u64>,
    pub cost_cents: Option<f64>,
    pub latency_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unobserved_reason: Option<Unobserved>,
    /// Whether the export holds the turn's retrieval, and if not, why.
    #[serde(default)]
    pub evidence: Evidence,
    /// Coverage, quote checks and hints ([`crate::support`]): their
    /// fields sit in the row's JSON beside the others.
    #[serde(flatten)]
    pub support: Support,
    /// The first well-formed marker that resolved to no chunk, as written
    /// (at most [`MARKER_LABEL_CHARS`] characters; `citations[i].index=N`
    /// for a citation list): what an `orphan_marker` turn invented, named
    /// by the triage list. Not part of the row's JSON.
    #[serde(skip)]
    pub invented_marker: Option<Box<str>>,
}

/// What a turn's support checks counted ([`crate::support`]): zero where
/// the log holds no text to check. As JSON it also gives `coverage`, the
/// share of sentences cited (`null` with no sentence).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Support {
    /// Sentences of the answer coverage counts.
    pub sentences: u32,
    /// Those carrying at least one citation that resolves.
    pub cited_sentences: u32,
    /// Quote checks, by outcome ([`crate::support::quote`]): `exact` and
    /// `normalised` are the supported quotes; `absent` counts those their
    /// cited chunk does not hold, the three classes after it summed.
    pub quotes_exact: u32,
    pub quotes_normalised: u32,
    pub quotes_absent: u32,
    pub quotes_misattributed: u32,
    pub quotes_stitched: u32,
    pub quotes_fabricated: u32,
    /// Citations whose offsets do not point where their texts say.
    pub offsets_mismatched: u32,
    /// Support hints raised.
    pub hints: u32,
    /// Citations whose quote and offset checks were not run: the turn's
    /// checks would have examined more text than its budget allows
    /// (`support::work`).
    pub unchecked: u32,
}

impl Support {
    /// The share of sentences cited, or `None` with no sentence.
    pub fn coverage(&self) -> Option<f64> {
        (self.sentences > 0).then(|| f64::from(self.cited_sentences) / f64::from(self.sentences))
    }
}

impl Serialize for Support {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut d = s.serialize_struct("Support", 12)?;
        d.serialize_field("sentences", &self.sentences)?;
        d.serialize_field("cited_sentences", &self.cited_sentences)?;
        d.serialize_field("coverage", &self.coverage())?;
        d.serialize_field("quotes_exact", &self.quotes_exact)?;
        d.serialize_field("quotes_normalised", &self.quotes_normalised)?;
        d.serialize_field("quotes_absent", &self.quotes_absent)?;
        d.serialize_field("offsets_mismatched", &self.offsets_mismatched)?;
        d.serialize_field("hints", &self.hints)?;
        d.serialize_field("unchecked", &self.unchecked)?;
        d.serialize_field("quotes_misattributed", &self.quotes_misattributed)?;
        d.serialize_field("quotes_stitched", &self.quotes_stitched)?;
        d.serialize_field("quotes_fabricated", &self.quotes_fabricated)?;
        d.end()
    }
}

/// The longest marker label a row keeps ([`Row::invented_marker`]); a
/// longer one is cut and ends in `…`.
pub const MARKER_LABEL_CHARS: usize = 64;

/// A marker as a row keeps it: cut to [`MARKER_LABEL_CHARS`] characters.
pub fn marker_label(text: &str) -> Box<str> {
    match text.char_indices().nth(MARKER_LABEL_CHARS) {
        None => text.into(),
        Some((end, _)) => format!("{}…", &text[..end]).into(),
    }
}

impl Row<'_> {
    /// An owned copy, for rows kept beyond the block they were read from.
    pub fn into_owned(self) -> Row<'static> {
        Row {
            turn_id: self.turn_id.into_owned(),
            agent_id: Cow::Owned(self.agent_id.into_owned()),
            conversation_id: self.conversation_id.map(Id::into_owned),
            channel: Cow::Owned(self.channel.into_owned()),
            created_at: self.created_at,
            verdict: self.verdict,
            partial: self.partial,
            cited_chunks: self.cited_chunks,
            marker_count: self.marker_count,
            out_of_range_markers: self.out_of_range_markers,
            malformed_markers: self.malformed_markers,
            markers_from: self.markers_from,
            chunk_count: self.chunk_count,
            confidence: self.confidence,
            chunks: self.chunks.into_iter().map(Chunk::into_owned).collect(),
            tool_calls: self.tool_calls,
            tool_errors: self.tool_errors,
            model: self.model.map(|m| Cow::Owned(m.into_owned())),
            tokens_used: self.tokens_used,
            cost_cents: self.cost_cents,
            latency_ms: self.latency_ms,
            unobserved_reason: self.unobserved_reason,
            evidence: self.evidence,
            support: self.support,
            invented_marker: self.invented_marker,
        }
    }

    /// An owned copy of the row's own fields, without its chunk list and
    /// cited indexes (`chunk_count` stays): what the triage list shows and
    /// a partial carries, at a fraction of a whole copy's allocations.
    pub fn to_owned_slim(&self) -> Row<'static> {
        Row {
            turn_id: self.turn_id.clone().into_owned(),
            agent_id: Cow::Owned(self.agent_id.to_string()),
            conversation_id: self.conversation_id.clone().map(Id::into_owned),
            channel: Cow::Owned(self.channel.to_string()),
            created_at: self.created_at,
            verdict: self.verdict,
            partial: self.partial,
            cited_chunks: Vec::new(),
            marker_count: self.marker_count,
            out_of_range_markers: self.out_of_range_markers,
            malformed_markers: self.malformed_markers,
            markers_from: self.markers_from,
            chunk_count: self.chunk_count,
            confidence: self.confidence,
            chunks: Vec::new(),
            tool_calls: self.tool_calls,
            tool_errors: self.tool_errors,
            model: self.model.as_ref().map(|m| Cow::Owned(m.to_string())),
            tokens_used: self.tokens_used,
            cost_cents: self.cost_cents,
            latency_ms: self.latency_ms,
            unobserved_reason: self.unobserved_reason,
            evidence: self.evidence,
            support: self.support,
            invented_marker: self.invented_marker.clone(),
        }
    }

    /// True when retrieval ran and an answer was observed.
    pub fn with_retrieval(&self) -> bool {
        self.chunk_count > 0 && self.verdict != Verdict::Unobserved
    }
}

/// The years a turn's time may fall in, in UTC: what RFC 3339's four-digit
/// year can write. Dialects reject a time outside them as an invalid line,
/// so every renderer prints valid RFC 3339 (chrono would write `+10000-…`).
pub const YEARS: std::ops::RangeInclusive<i32> = 0..=9999;

/// True when `t` falls in [`YEARS`].
pub fn in_years(t: &DateTime<Utc>) -> bool {
    YEARS.contains(&t.year())
}

/// `x` with negative zero made positive. A score of `-0.0` is a score of 0;
/// left signed it would print as `-0.0`, `-0.00` or `0` depending on the format.
pub fn unsigned_zero(x: f64) -> f64 {
    if x == 0.0 { 0.0 } else { x }
}

/// Formats a time as UTC RFC 3339 with `Z`, keeping sub-second digits only when present.
pub fn format_time(t: &DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

fn ser_time<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format_time(t))
}

/// Reads what [`format_time`] writes (RFC 3339 in UTC, leap seconds included).
fn de_time<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    let text = std::borrow::Cow::<str>::deserialize(d)?;
    DateTime::parse_from_rfc3339(&text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| serde::de::Error::custom(format!("created_at {text:?}: {e}")))
}

/// What `explain` shows beyond the row: the parts of a turn the hot path
/// skips. Built only for the one turn being explained.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Extras {
    /// The user's question, when the log has it.
    pub question: Option<String>,
    /// Every tool call, in order.
    pub tools: Vec<ToolCall>,
    /// Dialect-specific facts worth showing (e.g. "2 model calls; the draft of call 1 was withheld").
    /// Never free text from the log.
    pub notes: Vec<String>,
    /// Each chunk's text when the log carries it, in chunk order (shown
    /// only with `--show-text`).
    pub chunk_texts: Vec<Option<String>>,
    /// Facts that quote free text from the log (shown only with `--show-text`).
    pub text_notes: Vec<String>,
}

/// One tool call as `explain` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ToolCall {
    pub name: String,
    /// `ok`, `error`, or whatever status the log gave.
    pub status: String,
    pub duration_ms: Option<f64>,
    /// Shown only with `--show-tools`.
    pub arguments: Option<serde_json::Value>,
    /// Shown only with `--show-tools`.
    pub result: Option<serde_json::Value>,
}

/// The columns of a row, one name per field in every format (the JSON
/// row's field names, plus `document_ids`, `chunk_ids` and `scores` for the
/// chunk list and `cited_documents` for the chunks the reply cites), in the
/// order CSV writes them by default: a stable contract that `--columns`
/// picks from (a new column is added at the end).
pub const COLUMNS: [&str; 38] = [
    "turn_id",
    "agent_id",
    "conversation_id",
    "channel",
    "created_at",
    "verdict",
    "partial",
    "cited_chunks",
    "marker_count",
    "out_of_range_markers",
    "malformed_markers",
    "markers_from",
    "chunk_count",
    "confidence",
    "document_ids",
    "chunk_ids",
    "scores",
    "tool_calls",
    "tool_errors",
    "model",
    "tokens_used",
    "cost_cents",
    "latency_ms",
    "unobserved_reason",
    "sentences",
    "cited_sentences",
    "coverage",
    "quotes_exact",
    "quotes_normalised",
    "quotes_absent",
    "offsets_mismatched",
    "hints",
    "unchecked",
    "cited_documents",
    "quotes_misattributed",
    "quotes_stitched",
    "quotes_fabricated",
    "evidence",
];

/// Indexes joined with `;` (CSV) or `,` (tables).
pub fn join(xs: &[u32], sep: &str) -> String {
    let mut s = String::new();
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push_str(&x.to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_ids_are_trace_span_and_uuid_shapes() {
        for id in [
            "5B8EFFF798038103D269B633813FC60C",
            "5b8efff798038103d269b633813fc60c",
            "EEE19B7EC3C1B174",
            "01A22BA1-F55E-731E-8981-B9B09FDCC14B",
            "0123456789abcdef",
        ] {
            assert!(is_hex_id(id), "{id}");
        }
        for id in [
            "fixture-trace-1",
            "t-05",
            "",
            "ABCDEF",
            "5B8EFFF798038103D269B633813FC60G",
            "01A22BA1F55E-731E-8981-B9B09FDCC14B0",
            "01a22ba1-f55e-731e-8981_b9b09fdcc14b",
            "EEE19B7EC3C1B17é",
        ] {
            assert!(!is_hex_id(id), "{id}");
        }
    }

    #[test]
    fn hex_ids_match_in_any_case_other_ids_exactly() {
        assert!(same_id(
            "5b8efff798038103d269b633813fc60c",
            "5B8EFFF798038103D269B633813FC60C"
        ));
        assert!(same_id("EEE19B7EC3C1B174", "eee19b7ec3c1b174"));
        assert!(same_id(
            "01a22ba1-f55e-731e-8981-b9b09fdcc14b",
            "01A22BA1-F55E-731E-8981-B9B09FDCC14B"
        ));
        assert!(same_id("Turn-A", "Turn-A"));
        assert!(!same_id("Turn-A", "turn-a"));
        assert!(!same_id("ABCDEF", "abcdef"));
        assert!(!same_id("eee19b7ec3c1b174", "eee19b7ec3c1b175"));
    }

    /// Partials carry rows as their JSON: every field must read back equal.
    #[test]
    fn rows_read_back_from_their_json_exactly() {
        let time = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        let id = |t: &str, numeric| Id {
            text: Cow::Owned(t.to_owned()),
            numeric,
        };
        let row = Row {
            turn_id: id("18446744073709551615", true),
            agent_id: Cow::Borrowed("bot \"β\"\n"),
            conversation_id: Some(id("-0", true)),
            channel: Cow::Borrowed("voice"),
            created_at: time("2016-12-31T23:59:60.123456789Z"),
            verdict: Verdict::OrphanMarker,
            partial: true,
            cited_chunks: vec![2, 9],
            marker_count: 3,
            out_of_range_markers: 1,
            malformed_markers: 0,
            markers_from: Some(MarkersFrom::Citations),
            chunk_count: 2,
            confidence: Some(0.1 + 0.2),
            chunks: vec![Chunk {
                index: 1,
                document_id: Some(id("-7", true)),
                chunk_id: None,
                score: Some(1e-300),
            }],
            tool_calls: 4,
            tool_errors: 1,
            model: None,
            tokens_used: Some(u64::MAX),
            cost_cents: Some(0.30000000000000004),
            latency_ms: None,
            unobserved_reason: None,
            evidence: Evidence::DocumentsNotRecorded,
            invented_marker: None,
            support: Default::default(),
        };
        let json = serde_json::to_string(&row).unwrap();
        let back: Row<'static> = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        assert_eq!(back.created_at, row.created_at);
        assert_eq!(back.turn_id, row.turn_id);
        assert_eq!(back.conversation_id.unwrap().as_str(), "-0");
        assert_eq!(back.confidence, row.confidence);
        assert_eq!(back.chunks[0].score, Some(1e-300));
    }
}

//! Dialects: how input lines become [`Turn`]s.
//!
//! Each dialect turns its own records into the same borrowed turn model, so
//! grading, rollups and renderers never know where a turn came from. The
//! native turn-log format is line-by-line and parsed in parallel; whole-stream
//! formats (agentfootprint) group several lines into one turn.

pub mod agentfootprint;
pub mod assembly;
pub(crate) mod checked;
mod cursor;
pub mod exchange;
pub mod known;
pub mod mapped;
pub mod native;
pub(crate) mod question;
pub mod short_id;
pub mod spans;

pub use assembly::{Assembly, Group};
pub(crate) use cursor::object_keys;
pub use short_id::ShortId;

use crate::markers::{Grammar, Preset};
use crate::messages::Warnings;
use crate::model::{Extras, Turn};
use std::any::Any;

/// Every dialect the tool reads, in detection order: the first whose
/// [`Dialect::sniff`] accepts a source's first block reads it, and the native
/// turn log, which accepts anything, comes last. A dialect's `sniff` is
/// asked only after every dialect before it said no, and may rely on that.
/// Adding a dialect is a module under `crates/read/src/dialect/` plus one line here.
pub static DIALECTS: &[&dyn Dialect] = &[
    &agentfootprint::AGENTFOOTPRINT,
    &spans::OTLP,
    &spans::PHOENIX_OTLP,
    &spans::DATADOG,
    &spans::PHOENIX_DATAFRAME,
    &spans::PHOENIX_JSONL,
    &spans::TRULENS,
    &spans::OTEL_SDK,
    &spans::LANGSMITH,
    &spans::LANGFUSE,
    &exchange::EXCHANGE,
    &spans::ADK,
    &spans::BRAINTRUST,
    &native::NATIVE,
];

/// Which dialects assemble together: the records of one family group by
/// their id whatever dialect read them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Every span-shaped export (OTLP, Phoenix, OTel SDK objects, TruLens,
    /// Datadog, LangSmith runs, Langfuse observations): a trace exported
    /// by two of them is one trace.
    Spans,
    /// A dialect of its own, by its name.
    Own(&'static str),
}

impl Family {
    /// The name a family's group ids are hashed with.
    pub fn name(self) -> &'static str {
        match self {
            Family::Spans => "spans",
            Family::Own(name) => name,
        }
    }
}

/// One input dialect: how its sources are recognised, how a line (or a whole
/// document) becomes turns or records, and how records assemble into turns.
///
/// Line dialects (the native log) produce one [`Turn`] per line, parsed in
/// parallel. Record dialects (agentfootprint events, spans) produce
/// [`Record`]s, pieces of a turn that may arrive in any order, over lines
/// and files; the engine groups them by [`Record::group`] and calls
/// [`Dialect::assemble`] once per group when the input ends.
pub trait Dialect: Sync {
    /// The name `--input-format` takes and messages use.
    fn name(&self) -> &'static str;
    /// One line for `--help`.
    fn about(&self) -> &'static str;
    /// True when a source whose first block is `first` is in this dialect
    /// (asked in [`DIALECTS`] order, after every dialect before it said no).
    fn sniff(&self, first: &First<'_>) -> bool;
    /// The marker grammar used when `--markers` is not given.
    fn grammar(&self) -> Grammar;
    /// Groups of dialects with the same family assemble together (a trace
    /// exported by two tools is still one trace).
    fn family(&self) -> Family {
        Family::Own(self.name())
    }
    /// True when a source is one whole document (read by
    /// [`Dialect::parse_document`]) rather than one record per line.
    fn is_document(&self, _first: &[u8]) -> bool {
        false
    }
    /// The size a block of this dialect's source grows to. A line dialect's
    /// block becomes a small accumulator in its worker; a record dialect's
    /// records stay in memory until the merging thread has taken them, so
    /// record dialects return [`crate::input::RECORD_BLOCK_SIZE`].
    fn block_size(&self) -> usize {
        crate::input::BLOCK_SIZE
    }
    /// Reads one non-blank line: a turn, or records pushed onto `out`.
    /// Fields read leniently (dropped, the turn still read) are counted in
    /// `warnings`; the engine keeps them only for turns it counts.
    fn parse_line<'a>(
        &self,
        line: &'a str,
        out: &mut Vec<Record>,
        warnings: &mut Warnings,
    ) -> Parsed<'a>;
    /// Reads a whole document into records, with its own accounting.
    fn parse_document(&self, data: &[u8], out: &mut DocumentRecords) {
        let _ = data;
        out.invalid(1, format!("{} sources are read line by line", self.name()));
    }
    /// Why the records of a run that no record named are invalid (records
    /// that [`Link::Seeks`] a run, when the input ends or the run's window
    /// closes without the record that names it).
    fn unlinked(&self) -> &'static str {
        "a record of a run whose opening record never arrived"
    }
    /// What `explain` shows beyond the row, for a turn read from `line`.
    fn extras(&self, _line: &str) -> Extras {
        Extras::default()
    }
    /// Builds the turn of one group of records (all of this dialect's
    /// family), in input order. An error makes the group an invalid record.
    fn assemble(
        &self,
        group: &str,
        records: Vec<Record>,
        opts: &AssembleOptions,
    ) -> Result<Box<dyn Assembled>, String> {
        let _ = (group, records, opts);
        Err(format!("{} does not assemble records", self.name()))
    }
}

impl std::fmt::Debug for dyn Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The dialect named `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Dialect> {
    DIALECTS.iter().copied().find(|d| d.name() == name)
}

/// Decides the dialect of a source from its first block; `forced` is the
/// dialect `--input-format` named, if any.
pub fn detect(forced: Option<&'static dyn Dialect>, first: &[u8]) -> &'static dyn Dialect {
    forced.unwrap_or_else(|| {
        let first = First::new(first);
        DIALECTS
            .iter()
            .copied()
            .find(|d| d.sniff(&first))
            .unwrap_or(&native::NATIVE)
    })
}

/// A source's first block as the dialects are asked about it, in turn:
/// what several of them look at is worked out once, when the first of
/// them asks.
pub struct First<'a> {
    bytes: &'a [u8],
    span_head: std::cell::OnceCell<Option<spans::Head<'a>>>,
}

impl<'a> First<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        First {
            bytes,
            span_head: std::cell::OnceCell::new(),
        }
    }

    /// The block's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The head the span formats tell each other apart by (none when no
    /// span format may claim the block).
    pub fn span_head(&self) -> Option<&spans::Head<'a>> {
        self.span_head
            .get_or_init(|| spans::Head::of(self.bytes))
            .as_ref()
    }
}

/// The result of reading one non-blank line. Not boxed: a turn is made for
/// nearly every line, and boxing would add an allocation per line.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Parsed<'a> {
    /// A turn record.
    Turn(Turn<'a>),
    /// This many records, pushed onto the caller's list (at least one).
    Records(usize),
    /// A record that is not a turn (`type` other than `"turn"`).
    Skipped,
    /// Not a valid turn record; the reason names what is wrong.
    Invalid(String),
}

/// A piece of a turn that a record dialect assembles: an event or a span.
pub struct Record {
    /// The turn it belongs to (a run id, a trace id).
    pub group: ShortId,
    /// Identity for de-duplication: a record whose key was seen is a
    /// duplicate. None: never a duplicate.
    pub key: Option<RecordKey>,
    /// False for notes a document adds about a run: they belong to a group
    /// but are not input records, so they are not counted.
    pub counted: bool,
    /// True when, as far as the dialect can tell, the group is complete with
    /// this record (a trace's root span, a run's `turn_end`): the group then
    /// closes after a short idle window instead of the long one.
    pub completes: bool,
    /// How the record finds its group when its `group` is not the group's
    /// own id (a LangSmith patch names only its run; see [`Link`]).
    pub link: Link,
    /// The dialect's own data; only its [`Dialect::assemble`] reads it.
    pub body: Box<dyn Any + Send>,
}

/// How a record joins a group it cannot name itself. The SDK of LangSmith
/// posts a run when it starts (with its trace id) and patches it when it
/// ends (with only the run id): the post `Names` its run, the patch `Seeks`
/// the group of the record that named it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Link {
    /// The record's `group` is its group.
    #[default]
    Direct,
    /// The record also answers for a run: [`assembly::link_key`] of the
    /// run's id. Records that seek that run join this record's group.
    Names(RecordKey),
    /// The record's `group` is a run id, not a group id: it joins the group
    /// of the record that names that run, held until one does. Its
    /// `completes` counts only when the run is the group's root (its id is
    /// the group's id).
    Seeks,
}

/// A record's 128-bit identity hash, kept as two words: aligned to 8 bytes
/// rather than a `u128`'s 16, which keeps [`Record`] at 112 bytes instead of
/// 128 (records are moved from a unit's list into their group's, one by one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordKey([u64; 2]);

impl RecordKey {
    /// The hash.
    pub fn get(self) -> u128 {
        (u128::from(self.0[1]) << 64) | u128::from(self.0[0])
    }
}

impl From<u128> for RecordKey {
    fn from(k: u128) -> Self {
        RecordKey([k as u64, (k >> 64) as u64])
    }
}

impl std::fmt::Debug for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Record")
            .field("group", &self.group)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// What a whole document gave: records with their lines, and accounting.
/// Each record counts as one line of input; so does each invalid or skipped
/// record, so the same events count alike whatever the export.
#[derive(Debug, Default)]
pub struct DocumentRecords {
    /// (1-based physical line where the record starts, record).
    pub records: Vec<(u64, Record)>,
    pub skipped: u64,
    /// (line, reason) of each invalid record.
    pub invalid: Vec<(u64, String)>,
    /// What the document says of itself that a reader must know, each
    /// worded to follow the file's name (an API page that says more pages
    /// follow: "is page 1 of 3 ...").
    pub notes: Vec<String>,
}

impl DocumentRecords {
    /// Notes an invalid record.
    pub fn invalid(&mut self, line: u64, reason: String) {
        self.invalid.push((line, reason));
    }
}

/// Options that shape assembly, resolved once.
#[derive(Debug, Clone, Default)]
pub struct AssembleOptions {
    /// `--agent-name`: the agent for every assembled turn.
    pub agent_name: Option<String>,
    /// `--retrievals`: which retrievals of a trace give its chunks.
    pub retrievals: ChunkRule,
}

/// Which retrievals of an assembled trace give its chunks (`--retrievals`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChunkRule {
    /// The retrieved documents whose text is in the answering LLM call's
    /// recorded input, in the order the input holds them; where none is,
    /// [`ChunkRule::Last`].
    #[default]
    Prompt,
    /// The last retrieval that finished before the answer.
    Last,
    /// Every retrieval before the answer, in start order.
    All,
}

/// A turn assembled from records, with what the commands that show more
/// than a row (`explain`, `evidence`, `convert`) need.
pub trait Assembled: Send + Sync {
    /// The turn to grade.
    fn turn(&self) -> Turn<'_>;
    /// What `explain` shows beyond the row.
    fn extras(&self) -> Extras;
    /// The dialect's part of an evidence record (free text only with `show_text`).
    fn evidence(&self, show_text: bool) -> serde_json::Map<String, serde_json::Value>;
    /// The span that produced the reply, where the dialect has spans.
    fn reply_span(&self) -> Option<&str> {
        None
    }
    /// The trace's root span, when the dialect has spans and it arrived.
    fn root_span(&self) -> Option<&str> {
        None
    }
}

/// A grammar from a preset.
pub fn preset(p: Preset) -> Grammar {
    Grammar::Preset(p)
}

/// Longest reason printed for an invalid line, in bytes.
pub const MAX_REASON: usize = 300;

/// Makes a parser's message safe to print as an invalid-line reason: input
/// values it quotes are redacted, so a reason never echoes the line's
/// content (a reply, a chunk's text, a secret), and the whole message is
/// capped at [`MAX_REASON`] bytes.
///
/// serde quotes a string value as a Rust string literal (`invalid type:
/// string "…", expected …`), an unknown enum variant in backticks (`unknown
/// variant `…`, expected one of …`), and a character, a number or a boolean
/// in backticks (`integer `4111111111111111``); each of those becomes `…`.
/// Field names and the "expected" part come from this tool's own types and
/// stay, except that Rust type names become JSON ones (`struct ChunkIn` →
/// `an object`, `u64` → `an integer`, `f64` → `a number`).
///
/// The native dialect checks types itself and names field and type in its
/// own words; this is the safety net for every message serde still writes.
pub fn redact_reason(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(MAX_REASON));
    let mut rest = msg;
    while let Some(i) = rest.find(['"', '`']) {
        let (before, from) = rest.split_at(i);
        out.push_str(before);
        if from.starts_with('"') {
            // A Rust string literal: skip to the closing quote, minding `\"`.
            let mut end = None;
            let mut escaped = false;
            for (j, c) in from.char_indices().skip(1) {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = Some(j);
                        break;
                    }
                    _ => {}
                }
            }
            out.push_str("\"…\"");
            rest = end.map_or("", |j| &from[j + 1..]);
        } else if before.ends_with("unknown variant ") {
            // The variant is raw input and may hold backticks itself: it ends
            // at the last "`, expected" serde appends.
            let end = from.rfind("`, expected").filter(|&j| j > 0);
            out.push_str("`…`");
            rest = end.map_or("", |j| &from[j + 1..]);
        } else if before.ends_with("character ") {
            let mut chars = from.char_indices().skip(1);
            let end = chars.nth(1).filter(|&(_, c)| c == '`').map(|(j, _)| j);
            out.push_str("`…`");
            rest = end.map_or("", |j| &from[j + 1..]);
        } else if ["integer ", "floating point ", "boolean "]
            .iter()
            .any(|p| before.ends_with(p))
        {
            // A number or a boolean from the input, which holds no backtick.
            let end = from[1..].find('`').map(|j| j + 1);
            out.push_str("`…`");
            rest = end.map_or("", |j| &from[j + 1..]);
        } else {
            // A field name or an expected value: the tool's own text.
            let close = from[1..].find('`').map(|j| j + 1);
            match close {
                Some(j) => {
                    out.push_str(&from[..=j]);
                    rest = &from[j + 1..];
                }
                None => {
                    out.push_str(from);
                    rest = "";
                }
            }
        }
    }
    out.push_str(rest);
    cap_reason(json_type_names(out))
}

/// Replaces the Rust type names serde puts after "expected" with the JSON
/// types a user writes.
fn json_type_names(msg: String) -> String {
    const NAMES: [(&str, &str); 13] = [
        ("u8", "an integer"),
        ("u16", "an integer"),
        ("u32", "an integer"),
        ("u64", "an integer"),
        ("u128", "an integer"),
        ("usize", "an integer"),
        ("i8", "an integer"),
        ("i16", "an integer"),
        ("i32", "an integer"),
        ("i64", "an integer"),
        ("i128", "an integer"),
        ("f32", "a number"),
        ("f64", "a number"),
    ];
    let Some(at) = msg.find("expected ") else {
        return msg;
    };
    let (head, tail) = msg.split_at(at + "expected ".len());
    let word_end = |s: &str| {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    let replaced = if let Some(name) = tail.strip_prefix("struct ") {
        Some(("an object", &name[word_end(name)..]))
    } else {
        let word = &tail[..word_end(tail)];
        NAMES
            .iter()
            .find(|(n, _)| *n == word)
            .map(|(_, json)| (*json, &tail[word.len()..]))
    };
    match replaced {
        Some((json, after)) => format!("{head}{json}{after}"),
        None => msg,
    }
}

/// Cuts a reason to at most [`MAX_REASON`] bytes (on a character boundary,
/// marked with `…`), so no message can grow with the input.
pub fn cap_reason(mut reason: String) -> String {
    if reason.len() > MAX_REASON {
        let mut cut = MAX_REASON;
        while !reason.is_char_boundary(cut) {
            cut -= 1;
        }
        reason.truncate(cut);
        reason.push('…');
    }
    reason
}

#[cfg(test)]
mod graded_lines_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_key_keeps_all_128_bits() {
        for k in [
            0,
            1,
            u128::from(u64::MAX),
            1 << 64,
            u128::MAX,
            0x0123_4567_89ab_cdef_fedc_ba98_7654_3210,
        ] {
            assert_eq!(RecordKey::from(k).get(), k);
        }
        assert_ne!(RecordKey::from(1), RecordKey::from(1 << 64));
    }

    #[test]
    fn a_record_is_word_aligned() {
        // A `u128` field would align it to 16 and pad it to 96 bytes.
        assert_eq!(std::mem::align_of::<Record>(), 8);
        assert_eq!(std::mem::size_of::<Record>(), 112);
    }

    #[test]
    fn quoted_strings_are_redacted() {
        assert_eq!(
            redact_reason(r#"invalid type: string "SECRET \"x\" y", expected a sequence"#),
            r#"invalid type: string "…", expected a sequence"#
        );
        assert_eq!(
            redact_reason(r#"invalid value: string "a", expected b"#),
            r#"invalid value: string "…", expected b"#
        );
        // An unterminated literal (cut by the parser) is redacted to the end.
        assert_eq!(redact_reason(r#"x "SECRET"#), r#"x "…""#);
    }

    #[test]
    fn unknown_variants_and_characters_are_redacted() {
        assert_eq!(
            redact_reason("unknown variant `SE`CRET`, expected one of `no_reply`, `withheld`"),
            "unknown variant `…`, expected one of `no_reply`, `withheld`"
        );
        assert_eq!(
            redact_reason("invalid type: character `S`, expected a string"),
            "invalid type: character `…`, expected a string"
        );
    }

    #[test]
    fn field_names_stay() {
        assert_eq!(
            redact_reason("missing field `turn_id`"),
            "missing field `turn_id`"
        );
        assert_eq!(
            redact_reason("duplicate field `reply` (column 40)"),
            "duplicate field `reply` (column 40)"
        );
        assert_eq!(redact_reason("a `b"), "a `b");
    }

    #[test]
    fn numbers_booleans_and_type_names_are_redacted() {
        assert_eq!(
            redact_reason("invalid type: integer `4111111111111111`, expected a string"),
            "invalid type: integer `…`, expected a string"
        );
        assert_eq!(
            redact_reason("invalid type: integer `-5`, expected u64 at line 1 column 9"),
            "invalid type: integer `…`, expected an integer at line 1 column 9"
        );
        assert_eq!(
            redact_reason("invalid type: floating point `1.5`, expected f64"),
            "invalid type: floating point `…`, expected a number"
        );
        assert_eq!(
            redact_reason("invalid type: boolean `true`, expected struct ChunkIn"),
            "invalid type: boolean `…`, expected an object"
        );
        assert_eq!(
            redact_reason("invalid value: integer `7`, expected u64s"),
            "invalid value: integer `…`, expected u64s"
        );
    }

    fn invalid(line: &str) -> String {
        match native::parse_line(line) {
            Parsed::Invalid(r) => r,
            other => panic!("not invalid: {other:?}"),
        }
    }

    #[test]
    fn native_reasons_never_echo_content() {
        let head = r#"{"turn_id":"t","agent_id":"a","created_at":"2026-08-01T00:00:00Z","#;
        for body in [
            r#""reply":"x","grounding":{"chunks":["SECRET chunk"]}}"#,
            r#""reply":"x","grounding":"SECRET"}"#,
            r#""reply":["SECRET"]}"#,
            r#""reply":"x","agent_id":"SECRET"}"#,
            r#""reply":"x","grounding":{"chunks":[{"score":"SECRET"}]}}"#,
        ] {
            let r = invalid(&format!("{head}{body}"));
            assert!(!r.contains("SECRET"), "{r}");
        }
        // A bad time is quoted by a short prefix only, and the reason is capped.
        let long = r"\u001b".repeat(5000);
        let r = invalid(&format!(
            r#"{{"turn_id":"t","agent_id":"a","created_at":"{long}"}}"#
        ));
        assert!(r.starts_with("created_at "), "{r}");
        assert!(r.len() <= MAX_REASON + '…'.len_utf8(), "{} bytes", r.len());
    }

    /// An otherwise valid turn line with `value` at `path`.
    fn line_with(path: &str, value: &str) -> String {
        use serde_json::{Value, json};
        let v: Value = serde_json::from_str(value).expect("a JSON value");
        let mut line = json!({
            "turn_id": "t", "agent_id": "a", "created_at": "2026-08-01T00:00:00Z",
            "reply": "see [KB-1]", "grounding": {"chunks": [{"document_id": "d"}]},
        });
        let chunk = |field: &str, v: Value| json!([{ "document_id": "d", field: v }]);
        match path {
            "grounding.chunks[]" => line["grounding"]["chunks"] = json!([v]),
            "grounding.chunks[].document_id" => {
                line["grounding"]["chunks"] = json!([{ "document_id": v }])
            }
            "grounding.chunks[].chunk_id" => line["grounding"]["chunks"] = chunk("chunk_id", v),
            "grounding.chunks[].score" => line["grounding"]["chunks"] = chunk("score", v),
            "grounding.tools[].status" => {
                line["grounding"]["tools"] = json!([{ "name": "x", "status": v }])
            }
            // Read only when there is no reply.
            "grounding.citations" => {
                line["reply"] = Value::Null;
                line["grounding"]["citations"] = v;
            }
            // Read only when no answer was observed.
            "unobserved" => {
                line["reply"] = Value::Null;
                line["grounding"] = Value::Null;
                line["unobserved"] = v;
            }
            _ => match path.strip_prefix("grounding.") {
                Some(field) => line["grounding"][field] = v,
                None => line[path] = v,
            },
        }
        line.to_string()
    }

    /// Issue 18, items 9 and 10: a mistyped field names the field and the
    /// type it should have, never the value; optional descriptive and
    /// telemetry fields are dropped with a warning and the turn is graded.
    #[test]
    fn mistyped_fields_are_named_never_echoed_and_optional_ones_dropped() {
        // (JSON value, its kind)
        let values = [
            ("4111111111111111", "uint"),
            ("-4111111111111111", "negative"),
            ("4111.5", "float"),
            ("4.1111e300", "float"),
            ("true", "bool"),
            ("false", "bool"),
            (r#""SECRET-4111""#, "string"),
            (r#"{"k":"SECRET-4111"}"#, "object"),
            (r#"["SECRET-4111"]"#, "array"),
        ];
        // (path, kinds it accepts, strict)
        let fields: &[(&str, &[&str], bool)] = &[
            ("turn_id", &["string", "uint", "negative"], true),
            ("agent_id", &["string"], true),
            ("created_at", &[], true),
            ("reply", &["string"], true),
            ("grounding", &["object"], true),
            ("grounding.chunks", &[], true),
            ("grounding.chunks[]", &["object"], true),
            (
                "grounding.chunks[].document_id",
                &["string", "uint", "negative"],
                true,
            ),
            (
                "grounding.chunks[].chunk_id",
                &["string", "uint", "negative"],
                true,
            ),
            (
                "grounding.chunks[].score",
                &["uint", "negative", "float"],
                true,
            ),
            ("grounding.citations", &["array"], true),
            ("markers", &[], true),
            ("conversation_id", &["string", "uint", "negative"], false),
            ("channel", &["string"], false),
            ("model", &["string"], false),
            ("tokens_used", &["uint"], false),
            ("cost_cents", &["uint", "negative", "float"], false),
            ("latency_ms", &["uint", "negative", "float"], false),
            ("unobserved", &[], false),
            ("grounding.model", &["string"], false),
            ("grounding.tokens_used", &["uint"], false),
            (
                "grounding.cost_cents",
                &["uint", "negative", "float"],
                false,
            ),
            (
                "grounding.latency_ms",
                &["uint", "negative", "float"],
                false,
            ),
            ("grounding.tools", &[], false),
            ("grounding.tools[].status", &["string"], false),
        ];
        for &(path, accepts, strict) in fields {
            for (value, kind) in values {
                // A string in `created_at` is parsed as a time (and quoted by a prefix).
                if path == "created_at" && kind == "string" {
                    continue;
                }
                let line = line_with(path, value);
                let (parsed, dropped) = native::parse_line_reporting(&line);
                let ok = accepts.contains(&kind);
                match parsed {
                    Parsed::Turn(_) if ok || !strict => {
                        let names: Vec<_> = dropped.fields().map(|f| f.0).collect();
                        let want: &[&str] = if ok { &[] } else { &[path] };
                        assert_eq!(names, want, "{path} = {value}");
                    }
                    Parsed::Invalid(r) if strict && !ok => {
                        // An array of strings as chunks names `grounding.chunks[]`.
                        assert!(
                            r.starts_with(&format!("field `{path}")),
                            "{path} = {value}: {r}"
                        );
                        assert!(r.contains("`: expected ") && r.contains(", found "), "{r}");
                        for leak in [
                            "4111", "SECRET", "true", "false", "e300", "Chunk", "struct", "64",
                        ] {
                            assert!(!r.contains(leak), "{path} = {value}: {r}");
                        }
                    }
                    other => panic!("{path} = {value}: {other:?}"),
                }
            }
        }
        // The example of the issue, and what a number too large for an id says.
        assert_eq!(
            invalid(&line_with("agent_id", "4111111111111111")),
            "field `agent_id`: expected a string, found a number"
        );
        assert_eq!(
            invalid(&line_with("turn_id", "1e30")),
            "field `turn_id`: expected a string or an integer, found a fractional or too large number"
        );
    }

    #[test]
    fn times_outside_years_0000_to_9999_in_utc_are_invalid() {
        let line =
            |t: &str| format!(r#"{{"turn_id":"t","agent_id":"a","created_at":"{t}","reply":"x"}}"#);
        // Four-digit years that an offset moves out of range, one with a long fraction.
        let long = format!("9999-12-31T23:59:59.{}-00:01", "9".repeat(5000));
        for t in [
            "9999-12-31T23:30:00-01:00",
            "0000-01-01T00:30:00+01:00",
            &long,
        ] {
            let r = invalid(&line(t));
            assert!(r.starts_with("created_at "), "{r}");
            assert!(r.contains("outside years 0000-9999"), "{r}");
            assert!(r.len() < 120, "{r}");
        }
        for t in [
            "0000-01-01T00:00:00Z",
            "0000-01-01T00:30:00-01:00",
            "9999-12-31T23:59:60Z",
            "9999-12-31T23:59:59.999999999Z",
            "9999-12-31T23:30:00+01:00",
        ] {
            assert!(
                matches!(native::parse_line(&line(t)), Parsed::Turn(_)),
                "{t}"
            );
        }
    }

    #[test]
    fn long_reasons_are_capped() {
        let long = "x".repeat(5000) + "é";
        let r = redact_reason(&long);
        assert!(r.len() <= MAX_REASON + '…'.len_utf8());
        assert!(r.ends_with('…'));
        let wide = "é".repeat(400);
        assert!(redact_reason(&wide).len() <= MAX_REASON + 3);
    }
}

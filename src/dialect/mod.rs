//! Dialects: how input lines become [`Turn`]s.
//!
//! Each dialect turns its own records into the same borrowed turn model, so
//! grading, rollups and renderers never know where a turn came from. The
//! native turn-log format is line-by-line and parsed in parallel; whole-stream
//! formats (agentfootprint) group several lines into one turn.

pub mod agentfootprint;
pub mod assembly;
pub mod native;
pub mod spans;

pub use assembly::{Assembly, Group};

use crate::markers::{Grammar, Preset};
use crate::model::{Extras, Turn};
use std::any::Any;

/// Every dialect the tool reads, in detection order: the first whose
/// [`Dialect::sniff`] accepts a source's first block reads it, and the native
/// turn log, which accepts anything, comes last. Adding a dialect is a module
/// under `src/dialect/` plus one line here.
pub static DIALECTS: &[&dyn Dialect] = &[
    &agentfootprint::AGENTFOOTPRINT,
    &spans::OTLP,
    &spans::PHOENIX_JSONL,
    &spans::PHOENIX_OTLP,
    &spans::PHOENIX_DATAFRAME,
    &native::NATIVE,
];

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
    /// True when a source whose first block is `first` is in this dialect.
    fn sniff(&self, first: &[u8]) -> bool;
    /// The marker grammar used when `--markers` is not given.
    fn grammar(&self) -> Grammar;
    /// Groups of dialects with the same family assemble together (a trace
    /// exported by two tools is still one trace).
    fn family(&self) -> &'static str {
        self.name()
    }
    /// True when a source is one whole document (read by
    /// [`Dialect::parse_document`]) rather than one record per line.
    fn is_document(&self, _first: &[u8]) -> bool {
        false
    }
    /// Reads one non-blank line: a turn, or records pushed onto `out`.
    fn parse_line<'a>(&self, line: &'a str, out: &mut Vec<Record>) -> Parsed<'a>;
    /// Reads a whole document into records, with its own accounting.
    fn parse_document(&self, data: &[u8], out: &mut DocumentRecords) {
        let _ = data;
        out.invalid(1, format!("{} sources are read line by line", self.name()));
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

/// `--input-format` values: `auto` and every dialect's name, with help.
pub fn format_values() -> Vec<clap::builder::PossibleValue> {
    std::iter::once(
        clap::builder::PossibleValue::new("auto").help("Decide per file from its first bytes"),
    )
    .chain(
        DIALECTS
            .iter()
            .map(|d| clap::builder::PossibleValue::new(d.name()).help(d.about())),
    )
    .collect()
}

/// Decides the dialect of a source from its first block; `forced` is the
/// dialect `--input-format` named, if any.
pub fn detect(forced: Option<&'static dyn Dialect>, first: &[u8]) -> &'static dyn Dialect {
    forced.unwrap_or_else(|| {
        DIALECTS
            .iter()
            .copied()
            .find(|d| d.sniff(first))
            .unwrap_or(&native::NATIVE)
    })
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
    pub group: String,
    /// Identity for de-duplication: a record whose key was seen is a
    /// duplicate. None: never a duplicate.
    pub key: Option<u128>,
    /// False for notes a document adds about a run: they belong to a group
    /// but are not input records, so they are not counted.
    pub counted: bool,
    /// The dialect's own data; only its [`Dialect::assemble`] reads it.
    pub body: Box<dyn Any + Send>,
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
    /// `--retrievals all`: every retrieval before the answer, not the last.
    pub all_retrievals: bool,
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
    /// The concrete value, for a dialect's own renderers.
    fn as_any(&self) -> &dyn Any;
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
/// variant `…`, expected one of …`) and a character in backticks
/// (`character `x``); each of those becomes `…`. Field names and the
/// "expected" part come from this tool's own types and stay.
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
    cap_reason(out)
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
mod tests {
    use super::*;

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
            r#""reply":"x","unobserved":"SECRET"}"#,
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

//! The agentfootprint dialect: typed event streams, recording envelopes and
//! audit bundles, grouped into one turn per `run()` (`meta.runId`).
//!
//! This module owns detection ([`sniff`]), reading a whole source into
//! [`Run`]s (the observations of one run, kept distinct as the framework's
//! grounding guide asks: injected context, each model call, the delivered
//! answer), and mapping a run to the shared [`Turn`] model. It does no I/O
//! and never grades; `pipeline` grades the turns and `cmd::evidence` /
//! `cmd::convert` render runs.
//!
//! Three shapes are read:
//! - **event lines** (`*.fileObservability.ndjson`, catch-all `*.events.jsonl`):
//!   one `{"type":"agentfootprint.…","payload":…,"meta":…}` per line;
//! - a **recording envelope** (`"format":"agentfootprint.recording.v1"`,
//!   events under `recording.events`);
//! - an **audit bundle** (`header.format` `agentfootprint.audit/1`, events as
//!   `records[]` with `eventType` and `timestamp`). A bundle exported in
//!   bounded mode replaces text by `"[N chars]"`: such a run's answer is
//!   [`Unobserved::BoundedAudit`] and its text is never graded.
//!
//! Input accounting (`lines == turns + blank + skipped + invalid`):
//! - event lines count physical lines: the line of a run's first event is the
//!   turn, every other event line is a skipped record, blank lines are blank,
//!   unreadable lines (and events of a run that cannot be a turn) are invalid
//!   with a reason;
//! - a recording or audit bundle counts its **event records** as its lines,
//!   since pretty-printing makes physical lines meaningless (a recording is
//!   thousands of lines, mostly engine snapshot): the run's first record is
//!   the turn, every other record (the audit's `audit.genesis` included) is
//!   skipped, and a record that is not an event is invalid. A document that
//!   is not valid JSON is one invalid record. So the same events give the
//!   same counts whatever the export. Messages still name the physical line
//!   where the record starts; a turn's position is that line too (in a
//!   document written on one line, later runs take the following numbers so
//!   that every turn keeps a distinct position).

use crate::dialect::{AssembleOptions, Assembled, Dialect, DocumentRecords, Parsed, Record};
use crate::input::InputStats;
use crate::markers::{Grammar, Preset};
use crate::model::{Answer, Chunk, Extras, Id, Reply, ToolCall, Turn, Unobserved};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The recording envelope's `format`.
pub const RECORDING_FORMAT: &str = "agentfootprint.recording.v1";
/// The audit bundle's `header.format`.
pub const AUDIT_FORMAT: &str = "agentfootprint.audit/1";
/// Prefix of every agentfootprint event type.
const EVENT_PREFIX: &str = "agentfootprint.";
/// Agent name when neither the flag nor the data gives one.
pub const DEFAULT_AGENT: &str = "agentfootprint";

/// True when the first block looks like an agentfootprint export: an event
/// line, a recording envelope or an audit bundle, compact or pretty-printed.
pub fn sniff(first: &[u8]) -> bool {
    let data = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    let Some(start) = data.iter().position(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    if data[start] != b'{' {
        return false;
    }
    let rest = &data[start..];
    let line = memchr::memchr(b'\n', rest).map_or(rest, |e| &rest[..e]);
    if let Ok(p) = serde_json::from_slice::<Probe<'_>>(line) {
        return p.kind().is_some_and(|k| k.starts_with(EVENT_PREFIX))
            || p.document_format().is_some();
    }
    // Pretty-printed (or a first line cut by the block): look for the markers.
    key_value(rest, b"\"format\"", RECORDING_FORMAT.as_bytes())
        || key_value(rest, b"\"format\"", AUDIT_FORMAT.as_bytes())
        || key_value(rest, b"\"type\"", EVENT_PREFIX.as_bytes())
}

/// True when `key`, optional whitespace, `:`, optional whitespace and a
/// string starting with `value` occur in `data`.
fn key_value(data: &[u8], key: &[u8], value: &[u8]) -> bool {
    let finder = memchr::memmem::Finder::new(key);
    finder.find_iter(data).any(|at| {
        let mut i = at + key.len();
        let skip = |i: &mut usize| {
            while *i < data.len() && data[*i].is_ascii_whitespace() {
                *i += 1;
            }
        };
        skip(&mut i);
        if data.get(i) != Some(&b':') {
            return false;
        }
        i += 1;
        skip(&mut i);
        data.get(i) == Some(&b'"') && data[i + 1..].starts_with(value)
    })
}

/// Just enough of a JSON object to tell events from documents.
#[derive(Deserialize)]
struct Probe<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(rename = "eventType", borrow, default)]
    event_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    format: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    header: Option<HeaderIn<'a>>,
}

#[derive(Deserialize)]
struct HeaderIn<'a> {
    #[serde(borrow, default)]
    format: Option<Cow<'a, str>>,
}

impl Probe<'_> {
    fn kind(&self) -> Option<&str> {
        self.kind.as_deref().or(self.event_type.as_deref())
    }
    /// `Some(format)` when the object is a recording or an audit bundle.
    fn document_format(&self) -> Option<&str> {
        let f = self
            .format
            .as_deref()
            .or(self.header.as_ref().and_then(|h| h.format.as_deref()))?;
        (f.starts_with("agentfootprint.recording") || f.starts_with("agentfootprint.audit"))
            .then_some(f)
    }
}

/// Runs read from one whole source, with the accounting.
#[derive(Debug, Default)]
pub struct Runs {
    pub runs: Vec<Run>,
    pub stats: InputStats,
    pub invalid: Vec<(u64, String)>,
}

/// The agentfootprint dialect, as listed in [`crate::dialect::DIALECTS`].
pub struct Agentfootprint;

/// The dialect's one instance.
pub static AGENTFOOTPRINT: Agentfootprint = Agentfootprint;

impl Dialect for Agentfootprint {
    fn name(&self) -> &'static str {
        "agentfootprint"
    }
    fn about(&self) -> &'static str {
        "agentfootprint event streams, recordings and audit bundles"
    }
    fn sniff(&self, first: &crate::dialect::First<'_>) -> bool {
        sniff(first.bytes())
    }
    fn grammar(&self) -> Grammar {
        Grammar::Preset(Preset::Id)
    }
    fn is_document(&self, first: &[u8]) -> bool {
        parse::is_document(first)
    }
    fn block_size(&self) -> usize {
        crate::input::RECORD_BLOCK_SIZE
    }
    fn parse_line<'a>(
        &self,
        line: &'a str,
        out: &mut Vec<Record>,
        _warnings: &mut crate::messages::Warnings,
    ) -> Parsed<'a> {
        match parse::parse_event(line, 0, false) {
            parse::Item::Event(e) => {
                out.push(parse::record(e, true));
                Parsed::Records(1)
            }
            parse::Item::Skipped => Parsed::Skipped,
            parse::Item::Invalid(reason) => Parsed::Invalid(reason),
        }
    }
    fn parse_document(&self, data: &[u8], out: &mut DocumentRecords) {
        parse::read_document(data, out)
    }
    fn assemble(
        &self,
        group: &str,
        records: Vec<Record>,
        opts: &AssembleOptions,
    ) -> Result<Box<dyn Assembled>, String> {
        let events = parse::events_of(records);
        parse::build(events, group, parse::agent_of(opts))
            .map(|r| Box::new(r) as Box<dyn Assembled>)
    }
}

impl Assembled for Run {
    fn turn(&self) -> Turn<'_> {
        Run::turn(self)
    }
    fn extras(&self) -> Extras {
        Run::extras(self)
    }
    fn evidence(&self, show_text: bool) -> serde_json::Map<String, Value> {
        Run::evidence(self, show_text)
    }
}

mod canon;
mod event;
mod fast;
mod parse;
mod run;
mod scan;

pub use parse::{bounded_len, read_runs};
pub use run::*;

/// For the differential fuzz target: `Err` describes an input on which
/// the one-pass event reader read the line itself and differs from the
/// `Value` reader (see `fast::agrees`), for a line alone and as a record of
/// a document.
#[doc(hidden)]
pub fn one_pass_reader_agrees(text: &str) -> Result<(), String> {
    let mut scratch = Vec::new();
    for in_document in [false, true] {
        fast::agrees(text, in_document, &mut scratch)?;
    }
    Ok(())
}

#[cfg(test)]
mod diff_tests;
#[cfg(test)]
mod tests;

//! LangSmith runs, Langfuse observations and Google ADK sessions as
//! dialects of the engine, in the span family: a run, an observation or
//! an invocation's events are records of their trace, and every trace
//! assembles through [`assemble_records`] like the span formats. Lines
//! (JSONL) and whole documents (a JSON array, as the Langfuse UI exports,
//! or pretty-printed objects) are both read; an ADK file is read whole
//! ([`super::adk`]).
//!
//! Identity for de-duplication: a Langfuse observation is its trace and
//! observation id (blob-export windows overlap, so the same row is read
//! twice); a LangSmith run part is its run id *and its content*, so an
//! exact repeat is a duplicate but a later part of the same run (create,
//! then patch) is kept and merged when the trace assembles.

use super::adk;
use super::braintrust;
use super::langfuse::{self, Row};
use super::langsmith::{self, RunPart};
use super::{LineCounter, Span, Trace, assemble_boxed, offset_in, reason};
use crate::dialect::assembly::link_key;
use crate::dialect::{
    AssembleOptions, Assembled, Dialect, DocumentRecords, Link, Parsed, Record, RecordKey, ShortId,
    cap_reason,
};
use crate::markers::{Grammar, Preset};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The spans of one turn that a whole-document reader built (an ADK
/// invocation's, a Braintrust trace's), carried by its first record (in
/// the boxes the assembly takes them in).
#[allow(clippy::vec_box)]
#[derive(Default)]
pub struct Nodes(pub Vec<Box<Span>>);

impl Nodes {
    /// The records of one group read from a whole document: one per line
    /// it was read from, so each is accounted for, the first carrying the
    /// nodes. `reader` names the reader in the records' keys.
    pub(super) fn into_records(
        self,
        reader: &str,
        group: &ShortId,
        lines: Vec<u64>,
        out: &mut DocumentRecords,
    ) {
        let mut nodes = Some(self);
        for (k, line) in lines.into_iter().enumerate() {
            let key = xxhash_rust::xxh3::xxh3_128(format!("{reader}\0{group}\0{k}").as_bytes());
            let body: Box<dyn std::any::Any + Send> = Box::new(nodes.take().unwrap_or_default());
            out.records.push((
                line,
                Record {
                    group: group.clone(),
                    key: Some(RecordKey::from(key)),
                    counted: true,
                    completes: false,
                    link: Link::Direct,
                    body,
                },
            ));
        }
    }
}

/// A legacy Langfuse trace row: the root span of its trace.
pub struct TraceRow(pub Span);

/// Which export a dialect reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    LangSmith,
    Langfuse,
    /// Google ADK Session and EvalSet JSON.
    Adk,
    /// Braintrust log rows (start and merge rows of each span).
    Braintrust,
}

/// One export read as a dialect.
pub struct ExportDialect(pub Export);

/// LangSmith runs (`list_runs()` dumps, JSONL or a JSON array).
pub static LANGSMITH: ExportDialect = ExportDialect(Export::LangSmith);
/// Langfuse observations (blob-storage export, UI JSON export).
pub static LANGFUSE: ExportDialect = ExportDialect(Export::Langfuse);
/// Google ADK Session JSON (events by invocation) and EvalSet JSON.
pub static ADK: ExportDialect = ExportDialect(Export::Adk);
/// Braintrust log rows, their `/logs3` bodies and recordings of those.
pub static BRAINTRUST: ExportDialect = ExportDialect(Export::Braintrust);

fn hash(parts: &[&[u8]]) -> u128 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for p in parts {
        h.update(p);
        h.update(&[0xff]);
    }
    h.digest128()
}

/// Which export one JSON object belongs to, if any.
pub fn classify(m: &Map<String, Value>) -> Option<Export> {
    let has = |k: &str| m.contains_key(k);
    if !has("id")
        && let Some(inner) = ENVELOPE_LISTS
            .iter()
            .filter_map(|k| m.get(*k))
            .flat_map(|v| match v {
                Value::Array(l) => l.iter().collect::<Vec<_>>(),
                other => vec![other],
            })
            .find_map(|v| v.as_object().and_then(classify))
    {
        return Some(inner);
    }
    if !has("id") && (has("post") || has("patch")) {
        // The LangSmith SDK's batch body: runs to create and to update.
        let run = |r: &Value| {
            r.as_object()
                .is_some_and(|r| r.contains_key("run_type") || r.contains_key("dotted_order"))
        };
        let runs = ["post", "patch"]
            .iter()
            .filter_map(|k| m.get(*k).and_then(Value::as_array))
            .flatten();
        return runs.into_iter().any(run).then_some(Export::LangSmith);
    }
    if has("turn_id") || !has("id") {
        return None;
    }
    if has("run_type") && (has("trace_id") || has("dotted_order") || has("parent_run_id")) {
        return Some(Export::LangSmith);
    }
    // A run's patch: its id, when it ended, and what it returned
    // (`outputs`, LangSmith's word; Langfuse writes `output`) or its `error`.
    if has("end_time") && (has("outputs") || has("error")) && !has("type") {
        return Some(Export::LangSmith);
    }
    let observation = (has("trace_id") || has("traceId"))
        && (has("parent_observation_id")
            || has("parentObservationId")
            || has("is_root_observation")
            || has("isRootObservation")
            || m.get("type").and_then(Value::as_str).is_some_and(|t| {
                matches!(
                    t,
                    "SPAN"
                        | "EVENT"
                        | "GENERATION"
                        | "AGENT"
                        | "TOOL"
                        | "CHAIN"
                        | "RETRIEVER"
                        | "EVALUATOR"
                        | "EMBEDDING"
                        | "GUARDRAIL"
                )
            }));
    let trace_row = has("timestamp")
        && !has("type")
        && (has("bookmarked") || has("public") || has("project_id") || has("projectId"));
    (observation || trace_row).then_some(Export::Langfuse)
}

/// The first JSON object of a source (the first element of an array), when
/// it parses whole.
fn first_object(first: &[u8]) -> Option<Map<String, Value>> {
    let data = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    let start = data.iter().position(|b| !b.is_ascii_whitespace())?;
    let mut rest = &data[start..];
    if rest[0] == b'[' {
        rest = &rest[1..];
        let s = rest.iter().position(|b| !b.is_ascii_whitespace())?;
        rest = &rest[s..];
    }
    if rest.first() != Some(&b'{') {
        return None;
    }
    serde_json::Deserializer::from_slice(rest)
        .into_iter::<Map<String, Value>>()
        .next()?
        .ok()
}

/// Which export a source is, from its first block: its first object, or
/// (a first line that no export claims, such as a LangSmith patch written
/// before its post) the first of its first lines that one claims. A native
/// turn line ends the look.
fn sniff_export(first: &[u8]) -> Option<Export> {
    if let Some(m) = first_object(first) {
        if let Some(e) = classify(&m) {
            return Some(e);
        }
        if m.contains_key("turn_id") {
            return None;
        }
    }
    for line in first.split(|&b| b == b'\n').skip(1).take(64) {
        let Ok(m) = serde_json::from_slice::<Map<String, Value>>(line) else {
            continue;
        };
        if m.contains_key("turn_id") {
            return None;
        }
        if let Some(e) = classify(&m) {
            return Some(e);
        }
    }
    None
}

/// One object as records of `export`.
fn records_of(
    export: Export,
    m: super::keeping::Row,
    text: &str,
    out: &mut Vec<Record>,
) -> Result<(), String> {
    match export {
        Export::LangSmith => {
            let p = RunPart::from_row(m, text)?;
            // A patch names only its run: it seeks the trace of the post
            // that named the run; every other part names its run.
            let (group, link) = if p.patch {
                (&p.id, Link::Seeks)
            } else {
                (
                    &p.trace_id,
                    Link::Names(RecordKey::from(link_key(p.id.as_bytes()))),
                )
            };
            out.push(Record {
                group: ShortId::new(group),
                key: Some(RecordKey::from(hash(&[
                    b"langsmith",
                    p.trace_id.as_bytes(),
                    p.id.as_bytes(),
                    &hash(&[text.as_bytes()]).to_le_bytes(),
                ]))),
                counted: true,
                completes: p.completes(),
                link,
                body: Box::new(p),
            });
        }
        Export::Adk | Export::Braintrust => {
            return Err("not a LangSmith run or Langfuse observation".to_owned());
        }
        Export::Langfuse => match langfuse::row(&m, text)? {
            Row::Observation(s) => out.push(Record {
                group: ShortId::new(s.trace_id()),
                key: Some(RecordKey::from(hash(&[
                    b"langfuse",
                    s.trace_id().as_bytes(),
                    s.span_id().as_bytes(),
                ]))),
                counted: true,
                // In the legacy layout the trace row is the root.
                completes: false,
                link: Link::Direct,
                body: Box::new(s),
            }),
            Row::Trace(s) => out.push(Record {
                group: ShortId::new(s.trace_id()),
                key: Some(RecordKey::from(hash(&[
                    b"langfuse-trace",
                    s.trace_id().as_bytes(),
                ]))),
                counted: true,
                completes: true,
                link: Link::Direct,
                body: Box::new(TraceRow(s)),
            }),
        },
    }
    Ok(())
}

/// Reads one JSON text (a line) of a whole-document export into records
/// with its reader; the first invalid part's reason when any is.
fn whole_text(
    parse: fn(&[u8], &mut DocumentRecords),
    text: &str,
    out: &mut Vec<Record>,
) -> Result<(), String> {
    let mut doc = DocumentRecords::default();
    parse(text.as_bytes(), &mut doc);
    if let Some((_, why)) = doc.invalid.into_iter().next() {
        return Err(why);
    }
    out.extend(doc.records.into_iter().map(|(_, r)| r));
    Ok(())
}

/// Reads one JSON object's text into records: the object must be of
/// `export` (a row of another export is invalid, not guessed at).
pub fn parse_object(export: Export, text: &str, out: &mut Vec<Record>) -> Result<(), String> {
    let (what, schema) = match export {
        Export::LangSmith => ("not a LangSmith run", &langsmith::SCHEMA),
        Export::Langfuse => ("not a Langfuse observation", &langfuse::SCHEMA),
        Export::Adk => return whole_text(adk::parse_document, text, out),
        Export::Braintrust => return whole_text(braintrust::parse_document, text, out),
    };
    if export == Export::LangSmith && is_batch(text) {
        return parse_batch(text, out);
    }
    if let Some(env) = envelope(text) {
        for (i, row) in env?.rows.into_iter().enumerate() {
            parse_object(export, row.get(), out).map_err(|e| format!("row {}: {e}", i + 1))?;
        }
        return Ok(());
    }
    let m = super::keeping::read_row(text, schema).map_err(|e| reason(what, &e))?;
    records_of(export, m, text, out).map_err(cap_reason)
}

/// The members of an envelope that hold rows: a Langfuse trace download
/// (`trace`, with or beside its `observations`), an API page (`data`), a
/// LangSmith runs query (`runs`).
const ENVELOPE_LISTS: [&str; 4] = ["observations", "trace", "data", "runs"];

/// The rows of an envelope around them, in the order read, and a note when
/// the envelope says more pages follow.
struct Envelope<'a> {
    rows: Vec<&'a RawValue>,
    note: Option<String>,
}

/// `text` as an envelope, when its first key is one an envelope starts
/// with: `{"trace": {…, "observations": […]}}` and `{"trace": …,
/// "observations": […]}` (Langfuse trace downloads), `{"data": […],
/// "meta": {"page", "totalPages"}}` (Langfuse API pages), `{"data": […],
/// "next_cursor": …}`, `{"runs": […], "cursors": {"next": …}}` (LangSmith's
/// runs query). Rows beside the trace come first: a download that holds an
/// observation twice keeps the copy with its input and output, and the
/// other counts as a duplicate.
fn envelope(text: &str) -> Option<Result<Envelope<'_>, String>> {
    let t = text.trim_start();
    let first = super::head::first_key(t.as_bytes())?;
    if !matches!(
        first,
        b"trace" | b"observations" | b"data" | b"runs" | b"meta" | b"cursors" | b"next_cursor"
    ) {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Meta {
        page: Option<u64>,
        #[serde(rename = "totalPages")]
        total_pages: Option<u64>,
    }
    #[derive(serde::Deserialize)]
    struct Cursors {
        next: Option<Value>,
    }
    #[derive(serde::Deserialize)]
    struct Outer<'a> {
        #[serde(borrow)]
        trace: Option<&'a RawValue>,
        #[serde(borrow)]
        observations: Option<Vec<&'a RawValue>>,
        #[serde(borrow)]
        data: Option<Vec<&'a RawValue>>,
        #[serde(borrow)]
        runs: Option<Vec<&'a RawValue>>,
        meta: Option<Meta>,
        cursors: Option<Cursors>,
        #[serde(alias = "nextCursor")]
        next_cursor: Option<Value>,
    }
    #[derive(serde::Deserialize)]
    struct Inner<'a> {
        #[serde(borrow)]
        observations: Option<Vec<&'a RawValue>>,
    }
    let read = || -> Result<Envelope<'_>, serde_json::Error> {
        let o: Outer = serde_json::from_str(text)?;
        let mut rows = o.observations.unwrap_or_default();
        if let Some(trace) = o.trace {
            let inner: Inner = serde_json::from_str(trace.get())?;
            rows.push(trace);
            rows.extend(inner.observations.unwrap_or_default());
        }
        rows.extend(o.data.unwrap_or_default());
        rows.extend(o.runs.unwrap_or_default());
        let cursor = |v: Option<Value>| v.is_some_and(|c| !c.is_null() && c != "");
        let note = match o.meta {
            Some(Meta {
                page: Some(p),
                total_pages: Some(n),
            }) if p < n => Some(format!(
                "is page {p} of {n}: the export continues on further pages, whose records are not read (download every page)"
            )),
            _ if cursor(o.next_cursor) || cursor(o.cursors.and_then(|c| c.next)) => Some(
                "is one page of an export that continues (it holds a cursor to the next page), whose records are not read (download every page)"
                    .to_owned(),
            ),
            _ => None,
        };
        Ok(Envelope { rows, note })
    };
    Some(read().map_err(|e| reason("not an export envelope", &e)))
}

/// True when an object's first key is `post` or `patch`: the LangSmith
/// SDK's batch body (a run's first key is never either).
fn is_batch(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{')
        && matches!(
            super::head::first_key(t.as_bytes()),
            Some(b"post" | b"patch")
        )
}

/// The LangSmith SDK's batch body `{"post": [runs], "patch": [runs]}`:
/// every run of both lists, posts first.
fn parse_batch(text: &str, out: &mut Vec<Record>) -> Result<(), String> {
    #[derive(serde::Deserialize)]
    struct Batch<'a> {
        #[serde(borrow, default)]
        post: Option<Vec<&'a RawValue>>,
        #[serde(borrow, default)]
        patch: Option<Vec<&'a RawValue>>,
    }
    let b: Batch = serde_json::from_str(text).map_err(|e| reason("not a LangSmith batch", &e))?;
    for (list, runs) in [("post", b.post), ("patch", b.patch)] {
        for (i, run) in runs.unwrap_or_default().into_iter().enumerate() {
            parse_object(Export::LangSmith, run.get(), out)
                .map_err(|e| format!("`{list}` run {}: {e}", i + 1))?;
        }
    }
    Ok(())
}

/// Every record of a span-family group as spans: spans as they are, LangSmith
/// run parts merged by run id, Langfuse trace rows as roots adopting the
/// trace's parentless observations, an ADK invocation's or a Braintrust
/// trace's spans as read.
/// Spans stay in the boxes their records carry: assembly sorts and reads
/// them in place, never moving a span.
#[allow(clippy::vec_box)] // the boxes the records carry: kept, not moved
pub fn spans_of(records: Vec<Record>) -> Vec<Box<Span>> {
    let mut spans = Vec::with_capacity(records.len());
    let mut parts = Vec::new();
    let mut traces = Vec::new();
    for r in records {
        match r.body.downcast::<Span>() {
            Ok(s) => spans.push(s),
            Err(b) => match b.downcast::<RunPart>() {
                Ok(p) => parts.push(*p),
                Err(b) => match b.downcast::<TraceRow>() {
                    Ok(t) => traces.push(t.0),
                    Err(b) => {
                        spans.extend(b.downcast::<Nodes>().map_or_else(|_| Vec::new(), |n| n.0))
                    }
                },
            },
        }
    }
    spans.extend(langsmith::merge_parts(parts).into_iter().map(Box::new));
    if !traces.is_empty() {
        let ids: Vec<String> = traces.iter().map(|t| t.span_id().to_owned()).collect();
        langfuse::adopt(&mut spans, &ids);
        spans.extend(traces.into_iter().map(Box::new));
    }
    spans
}

/// Assembles one group of the span family, whatever exports its records came from.
pub fn assemble_records(group: &str, records: Vec<Record>, opts: &AssembleOptions) -> Trace {
    assemble_boxed(group, spans_of(records), opts)
}

impl Dialect for ExportDialect {
    fn name(&self) -> &'static str {
        match self.0 {
            Export::LangSmith => "langsmith",
            Export::Langfuse => "langfuse",
            Export::Adk => "adk",
            Export::Braintrust => "braintrust",
        }
    }
    fn about(&self) -> &'static str {
        match self.0 {
            Export::LangSmith => "LangSmith runs: list_runs() dumps (JSONL or a JSON array)",
            Export::Langfuse => {
                "Langfuse observations: blob-storage export (observations_v2, legacy traces/observations) or UI JSON export"
            }
            Export::Adk => {
                "Google ADK Session JSON (one turn per invocation) or EvalSet JSON (expected turns, not observed ones)"
            }
            Export::Braintrust => {
                "Braintrust log rows (start and merge rows by span id; one turn per root span), /logs3 bodies or recordings of them"
            }
        }
    }
    fn sniff(&self, first: &crate::dialect::First<'_>) -> bool {
        let first = first.bytes();
        match self.0 {
            Export::Adk => adk::sniff(first),
            Export::Braintrust => braintrust::sniff(first),
            e => sniff_export(first) == Some(e),
        }
    }
    fn unlinked(&self) -> &'static str {
        "a LangSmith run patch (`id`, `end_time`, `outputs`) whose post never arrived: the post names the run's trace (`trace_id`), so the patch joins no turn"
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
        let data = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
        let Some(start) = data.iter().position(|b| !b.is_ascii_whitespace()) else {
            return false;
        };
        let rest = &data[start..];
        if rest[0] == b'[' || matches!(self.0, Export::Adk | Export::Braintrust) {
            return true;
        }
        // Pretty-printed: the first line is not a whole object.
        let line = memchr::memchr(b'\n', rest).map_or(rest, |e| &rest[..e]);
        serde_json::from_slice::<serde::de::IgnoredAny>(line).is_err()
    }
    fn parse_line<'a>(
        &self,
        line: &'a str,
        out: &mut Vec<Record>,
        _warnings: &mut crate::messages::Warnings,
    ) -> Parsed<'a> {
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        let before = out.len();
        let r = if line.trim_start().starts_with('[') {
            parse_array(self.0, line, &mut |_, rec| out.push(rec))
        } else {
            parse_object(self.0, line, out)
        };
        match r {
            Err(reason) => {
                out.truncate(before);
                Parsed::Invalid(reason)
            }
            Ok(()) if out.len() == before => Parsed::Skipped,
            Ok(()) => Parsed::Records(out.len() - before),
        }
    }
    fn parse_document(&self, data: &[u8], out: &mut DocumentRecords) {
        let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
        let mut lines = LineCounter::new(data);
        let what = match self.0 {
            Export::LangSmith => "not a LangSmith export",
            Export::Langfuse => "not a Langfuse export",
            Export::Adk => return adk::parse_document(data, out),
            Export::Braintrust => return braintrust::parse_document(data, out),
        };
        let mut last = 1;
        for top in serde_json::Deserializer::from_slice(data).into_iter::<&RawValue>() {
            let top = match top {
                Ok(t) => t,
                Err(e) => {
                    out.invalid(last, reason(what, &e));
                    return;
                }
            };
            let text = top.get();
            let line = lines.line_at(offset_in(data, text));
            last = line;
            if text.starts_with('[') {
                let elements: Vec<&RawValue> = match serde_json::from_str(text) {
                    Ok(v) => v,
                    Err(e) => {
                        out.invalid(line, reason(what, &e));
                        continue;
                    }
                };
                for el in elements {
                    let at = lines.line_at(offset_in(data, el.get()));
                    one(self.0, el.get(), at, out);
                    last = at;
                }
            } else if let Some(env) = envelope(text) {
                match env {
                    Ok(env) => {
                        out.notes.extend(env.note);
                        for row in env.rows {
                            let at = lines.line_at(offset_in(data, row.get()));
                            one(self.0, row.get(), at, out);
                            last = at;
                        }
                    }
                    Err(reason) => out.invalid(line, reason),
                }
            } else {
                one(self.0, text, line, out);
            }
        }
    }
    fn assemble(
        &self,
        group: &str,
        records: Vec<Record>,
        opts: &AssembleOptions,
    ) -> Result<Box<dyn Assembled>, String> {
        Ok(Box::new(assemble_records(group, records, opts)))
    }
}

/// One object of a document into `out`, at `line`.
fn one(export: Export, text: &str, line: u64, out: &mut DocumentRecords) {
    let mut recs = Vec::new();
    match parse_object(export, text, &mut recs) {
        Ok(()) => out.records.extend(recs.into_iter().map(|r| (line, r))),
        Err(reason) => out.invalid(line, reason),
    }
}

/// The objects of a JSON array on one line.
fn parse_array(
    export: Export,
    text: &str,
    sink: &mut dyn FnMut(usize, Record),
) -> Result<(), String> {
    let what = match export {
        Export::LangSmith => "not a LangSmith export",
        Export::Langfuse => "not a Langfuse export",
        Export::Adk => "not a Google ADK export",
        Export::Braintrust => "not Braintrust rows",
    };
    let elements: Vec<&RawValue> = serde_json::from_str(text).map_err(|e| reason(what, &e))?;
    let mut recs = Vec::new();
    for (i, el) in elements.into_iter().enumerate() {
        parse_object(export, el.get(), &mut recs).map_err(|e| format!("element {}: {e}", i + 1))?;
    }
    for r in recs {
        sink(0, r);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn classify_tells_the_exports_apart() {
        let run = obj(json!({"id":"r","run_type":"chain","trace_id":"r"}));
        assert_eq!(classify(&run), Some(Export::LangSmith));
        let lf = obj(json!({"id":"o","trace_id":"t","type":"GENERATION"}));
        assert_eq!(classify(&lf), Some(Export::Langfuse));
        let camel = obj(json!({"id":"o","traceId":"t","parentObservationId":null}));
        assert_eq!(classify(&camel), Some(Export::Langfuse));
        let trace = obj(json!({"id":"t","timestamp":"x","bookmarked":false}));
        assert_eq!(classify(&trace), Some(Export::Langfuse));
        let turn = obj(json!({"turn_id":"t","id":"x","run_type":"chain","trace_id":"t"}));
        assert_eq!(classify(&turn), None);
        assert_eq!(classify(&obj(json!({"id":"x"}))), None);
    }

    #[test]
    fn sniff_reads_the_first_object_of_a_line_or_an_array() {
        assert!(LANGFUSE.sniff(&crate::dialect::First::new(
            b"[\n  {\"id\":\"o\",\"traceId\":\"t\",\"type\":\"SPAN\"},\n  {\"id\""
        )));
        assert!(LANGSMITH.sniff(&crate::dialect::First::new(
            b"{\"id\":\"r\",\"run_type\":\"llm\",\"trace_id\":\"r\"}\n{\"id\""
        )));
        assert!(!LANGSMITH.sniff(&crate::dialect::First::new(b"{\"turn_id\":\"t\"}\n")));
        assert!(LANGFUSE.is_document(b"[{}]"));
        assert!(!LANGFUSE.is_document(b"{\"id\":1}\n{"));
        assert!(LANGFUSE.is_document(b"{\n \"id\": 1\n}\n"));
    }
}

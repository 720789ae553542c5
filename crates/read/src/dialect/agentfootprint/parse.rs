//! Reading the three export shapes into events, grouping events by run,
//! and building each [`Run`]; with the input accounting described in the
//! dialect's module doc.

use super::*;

pub(super) use super::event::Event;
use super::event::{Field, Fields, Kind, Meta, event_of};

/// An event line or record as written.
#[derive(Deserialize)]
struct EventIn {
    #[serde(rename = "type", default)]
    kind: Option<Value>,
    #[serde(rename = "eventType", default)]
    event_type: Option<Value>,
    #[serde(default)]
    payload: Option<Value>,
    #[serde(default)]
    meta: Option<Value>,
    #[serde(default)]
    timestamp: Option<Value>,
    #[serde(default)]
    format: Option<IgnoredAny>,
    #[serde(default)]
    header: Option<IgnoredAny>,
}

/// What reading one line or record gave.
#[derive(Debug, PartialEq)]
pub(super) enum Item {
    Event(Box<Event>),
    /// Valid, but not an event of any run.
    Skipped,
    Invalid(String),
}

/// Drops serde_json's position suffix (the caller knows the line) and keeps
/// the column; quoted values are redacted ([`super::redact_reason`]).
fn reason_of(e: &serde_json::Error, with_column: bool) -> String {
    let msg = crate::dialect::redact_reason(&e.to_string());
    let base = msg
        .rsplit_once(" at line ")
        .map_or(msg.as_str(), |(b, _)| b);
    if with_column && e.column() > 0 {
        format!("{base} (column {})", e.column())
    } else {
        base.to_owned()
    }
}

/// Reads one event line or record: the one-pass reader ([`super::fast`]),
/// or the `Value` reader where it declines.
pub(super) fn parse_event(text: &str, line: u64, in_document: bool) -> Item {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<(u128, u128)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let fast = SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        s.clear();
        super::fast::parse_event(text, line, &mut s)
    });
    fast.unwrap_or_else(|| parse_event_value(text.as_bytes(), line, in_document))
}

/// The reference reader: the event as a `Value` tree, then its fields.
pub(super) fn parse_event_value(bytes: &[u8], line: u64, in_document: bool) -> Item {
    let e: EventIn = match serde_json::from_slice(bytes) {
        Ok(e) => e,
        Err(err) if err.classify() == serde_json::error::Category::Data => {
            return Item::Invalid(format!(
                "not an agentfootprint event: {}",
                reason_of(&err, false)
            ));
        }
        Err(err) => return Item::Invalid(reason_of(&err, !in_document)),
    };
    let kind = match e.kind.or(e.event_type) {
        Some(Value::String(s)) => s,
        // Named by its JSON type: a reason never echoes a value.
        Some(other) => {
            let found = match other {
                Value::Number(_) => "a number",
                Value::Bool(_) => "a boolean",
                Value::Array(_) => "an array",
                Value::Object(_) => "an object",
                Value::Null | Value::String(_) => "null",
            };
            return Item::Invalid(format!(
                "not an agentfootprint event: `type` is {found}, not a string"
            ));
        }
        None if !in_document && (e.format.is_some() || e.header.is_some()) => {
            return Item::Invalid(
                "a recording or audit bundle must be the only document in its file, not one line among events".into(),
            );
        }
        None => {
            return Item::Invalid(
                "not an agentfootprint event: no `type` (or `eventType`) field".into(),
            );
        }
    };
    if !kind.starts_with(EVENT_PREFIX) && !kind.starts_with("audit.") {
        return Item::Skipped;
    }
    let meta_value = e.meta.unwrap_or(Value::Null);
    let str_of = |k: &str| meta_value.get(k).and_then(Value::as_str).map(Cow::Borrowed);
    let meta = Meta {
        run_id: str_of("runId"),
        session_id: str_of("sessionId"),
        wall_clock_ms: meta_value.get("wallClockMs").and_then(Value::as_f64),
        composition: meta_value
            .get("compositionPath")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().rev().find_map(Value::as_str))
            .map(Cow::Borrowed),
        stage: str_of("runtimeStageId"),
        offset: meta_value.get("runOffsetMs").map(super::canon::of_value),
    };
    let payload = e.payload.unwrap_or(Value::Null);
    let k = Kind::of(&kind);
    let fields = Fields::read(k, &|k| payload.get(k).map(Field::V));
    let run = payload.get("runId").and_then(Value::as_str);
    let timestamp = e.timestamp.as_ref().and_then(Value::as_f64);
    let hash = super::canon::of_value(&payload);
    match event_of(&kind, k, fields, run, &meta, timestamp, hash, line) {
        Some(e) => Item::Event(e),
        None => Item::Skipped,
    }
}

/// The parts of a recording or audit bundle this dialect reads.
#[derive(Deserialize)]
struct DocIn<'a> {
    #[serde(default)]
    format: Option<String>,
    #[serde(default)]
    header: Option<DocHeaderIn>,
    #[serde(borrow, default)]
    records: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    recording: Option<RecordingIn<'a>>,
    #[serde(default)]
    run: Option<Value>,
}

#[derive(Deserialize)]
struct DocHeaderIn {
    #[serde(default)]
    format: Option<String>,
}

#[derive(Deserialize)]
struct RecordingIn<'a> {
    #[serde(borrow, default)]
    events: Option<Vec<&'a RawValue>>,
}

/// 1-based line of byte offset `at`, counting from a known (offset, line) pair.
fn line_at(data: &[u8], from: (usize, u64), at: usize) -> u64 {
    let (off, line) = from;
    if at <= off {
        return line;
    }
    line + memchr::memchr_iter(b'\n', &data[off..at.min(data.len())]).count() as u64
}

/// True when a source whose first block is `first` is a recording or an
/// audit bundle (one document), not event lines.
pub(super) fn is_document(first: &[u8]) -> bool {
    let body = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    let line = body
        .split(|&b| b == b'\n')
        .find(|l| !l.iter().all(u8::is_ascii_whitespace))
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l));
    match line {
        None => false,
        Some(l) => match serde_json::from_slice::<Probe<'_>>(l) {
            Ok(p) => p.document_format().is_some(),
            // A first line that is not a whole object starts a pretty-printed document.
            Err(_) => l
                .iter()
                .filter(|b| !b.is_ascii_whitespace())
                .eq(b"{".iter()),
        },
    }
}

/// One event as a record of its run.
pub(super) fn record(mut e: Box<Event>, counted: bool) -> crate::dialect::Record {
    crate::dialect::Record {
        group: e.run_id.take().unwrap_or_default(),
        key: counted.then_some(e.key.into()),
        counted,
        completes: e.completes,
        link: crate::dialect::Link::Direct,
        body: e,
    }
}

/// Reads a whole source into runs, as the engine would: records grouped by
/// run through [`crate::dialect::Assembly`], each run built once. For tests
/// and tools that hold a source in memory; the engine streams instead.
pub fn read_runs(data: &[u8], agent: Option<&str>) -> Result<Runs, String> {
    use crate::dialect::{Assembly, Dialect, DocumentRecords, Parsed, assembly::Fate};
    let dialect = &super::AGENTFOOTPRINT;
    let mut out = Runs::default();
    let mut assembly = Assembly::new(true, u64::MAX);
    let count = |fate: Fate, stats: &mut InputStats| match fate {
        Fate::Turn => stats.turns += 1,
        Fate::Skipped => stats.skipped_records += 1,
        Fate::Duplicate => stats.duplicates += 1,
        Fate::Uncounted | Fate::Late(_) => {}
    };
    if dialect.is_document(data) {
        let mut doc = DocumentRecords::default();
        dialect.parse_document(data, &mut doc);
        out.stats.lines += (doc.records.iter().filter(|(_, r)| r.counted).count()
            + doc.invalid.len()) as u64
            + doc.skipped;
        out.stats.skipped_records += doc.skipped;
        out.stats.invalid_lines += doc.invalid.len() as u64;
        out.invalid = doc.invalid;
        for (k, (line, r)) in doc.records.into_iter().enumerate() {
            let fate = assembly.add(dialect, r, 0, line, (line, k as u64));
            count(fate, &mut out.stats);
        }
    } else {
        let body = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
        for (i, raw) in body.split(|&b| b == b'\n').enumerate() {
            if i > 0 && i == body.split(|&b| b == b'\n').count() - 1 && raw.is_empty() {
                break;
            }
            let line_no = i as u64 + 1;
            out.stats.lines += 1;
            let line = raw.strip_suffix(b"\r").unwrap_or(raw);
            if line.iter().all(u8::is_ascii_whitespace) {
                out.stats.blank_lines += 1;
                continue;
            }
            let Ok(text) = std::str::from_utf8(line) else {
                out.stats.invalid_lines += 1;
                out.invalid.push((line_no, "invalid UTF-8".into()));
                continue;
            };
            let mut records = Vec::new();
            match dialect.parse_line(text, &mut records, &mut crate::messages::Warnings::new()) {
                Parsed::Records(_) => {
                    for r in records {
                        let fate = assembly.add(dialect, r, 0, line_no, (line_no, 0));
                        count(fate, &mut out.stats);
                    }
                }
                Parsed::Skipped | Parsed::Turn(_) => out.stats.skipped_records += 1,
                Parsed::Invalid(reason) => {
                    out.stats.invalid_lines += 1;
                    out.invalid.push((line_no, reason));
                }
            }
        }
    }
    let opts = crate::dialect::AssembleOptions {
        agent_name: agent.map(str::to_owned),
        ..Default::default()
    };
    let mut last_pos = 0u64;
    for g in assembly.finish() {
        let events = events_of(g.records);
        match build(events, &g.id, agent_of(&opts)) {
            Ok(mut run) => {
                run.line = g.line.max(last_pos + 1);
                last_pos = run.line;
                out.runs.push(run);
            }
            Err(reason) => {
                out.stats.turns -= 1;
                out.stats.invalid_lines += 1;
                out.invalid.push((g.line, reason));
            }
        }
    }
    Ok(out)
}

/// The events of a group, in input order, still boxed as the records held
/// them (an event is a few hundred bytes: no copy out of its box).
#[allow(clippy::vec_box)]
pub(super) fn events_of(records: Vec<crate::dialect::Record>) -> Vec<Box<Event>> {
    records
        .into_iter()
        .filter_map(|r| r.body.downcast::<Event>().ok())
        .collect()
}

pub(super) fn agent_of(opts: &crate::dialect::AssembleOptions) -> Option<&str> {
    opts.agent_name.as_deref()
}

/// Reads a recording or audit bundle into records.
pub(super) fn read_document(data: &[u8], out: &mut crate::dialect::DocumentRecords) {
    let bom = data.len() - data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data).len();
    let doc: DocIn<'_> = match serde_json::from_slice(&data[bom..]) {
        Ok(d) => d,
        Err(e) => {
            out.invalid(
                e.line().max(1) as u64,
                format!(
                    "not a readable agentfootprint document: {}",
                    reason_of(&e, true)
                ),
            );
            return;
        }
    };
    let header_format = doc.header.as_ref().and_then(|h| h.format.clone());
    let (export, records) = match (doc.format.as_deref(), header_format.as_deref()) {
        (Some(RECORDING_FORMAT), _) => (Export::Recording, doc.recording.and_then(|r| r.events)),
        (_, Some(AUDIT_FORMAT)) => (Export::Audit, doc.records),
        (f, h) => {
            let found = if f.or(h).is_some() { "another" } else { "no" };
            out.invalid(
                1,
                format!("unsupported agentfootprint document: {found} format (this tool reads {RECORDING_FORMAT} and {AUDIT_FORMAT})"),
            );
            return;
        }
    };
    let Some(records) = records else {
        let place = if export == Export::Recording {
            "recording.events"
        } else {
            "records"
        };
        out.invalid(1, format!("the document has no `{place}` list of events"));
        return;
    };
    let base = data.as_ptr() as usize;
    let mut cursor = (0usize, 1u64);
    for raw in records {
        let at = (raw.get().as_ptr() as usize).saturating_sub(base);
        let line = line_at(data, cursor, at);
        cursor = (at.max(cursor.0), line);
        match parse_event(raw.get(), line, true) {
            Item::Event(mut e) => {
                e.export = export;
                out.records.push((line, record(e, true)));
            }
            Item::Skipped => out.skipped += 1,
            Item::Invalid(reason) => out.invalid(line, reason),
        }
    }
    // Every run of the document knows its export, even with no events read.
    let incomplete = doc.run.as_ref().and_then(|r| {
        let complete = r.get("complete").and_then(Value::as_bool);
        let dropped = r.get("droppedEvents").and_then(Value::as_u64).unwrap_or(0);
        let id = r.get("runId").and_then(Value::as_str)?.to_owned();
        (complete == Some(false) || dropped > 0).then_some((id, complete, dropped))
    });
    if let Some((id, complete, dropped)) = incomplete {
        let note = match complete {
            Some(false) => {
                format!("the recording says the run is not complete ({dropped} event(s) dropped)")
            }
            _ => format!("the recording dropped {dropped} event(s)"),
        };
        // A note for the run, not a record: it is not counted.
        let e = Event {
            kind: Kind::Note,
            completes: false,
            fields: Fields::Note(note),
            run_id: Some(id.into()),
            session_id: None,
            time_ms: None,
            composition: None,
            line: 0,
            export,
            key: 0,
        };
        out.records.push((0, record(Box::new(e), false)));
    }
}

/// `[N chars]`: a bounded audit's stand-in for text.
pub fn bounded_len(s: &str) -> Option<u64> {
    let n = s.strip_prefix('[')?.strip_suffix(" chars]")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// Milliseconds since the epoch as a UTC time, in years 0000–9999
/// ([`crate::model::YEARS`]).
fn time_of(ms: f64) -> Option<DateTime<Utc>> {
    if !ms.is_finite() || ms.abs() > 8.0e15 {
        return None;
    }
    let whole = ms.floor();
    let nanos = ((ms - whole) * 1e6).round() as u32;
    DateTime::from_timestamp_millis(whole as i64)
        .and_then(|t| {
            t.checked_add_signed(chrono::Duration::nanoseconds(nanos.min(999_999) as i64))
        })
        .filter(crate::model::in_years)
}

/// Splits `memory:<ragId>#<chunkId>` into (ragId, chunkId).
fn split_source_id(id: &str) -> (Option<&str>, &str) {
    match id
        .strip_prefix("memory:")
        .and_then(|rest| rest.split_once('#'))
    {
        Some((rag, chunk)) => (Some(rag), chunk),
        None => (None, id),
    }
}

/// The `doc="…"` attribute of the first `<source …>` tag in injected RAG text.
fn doc_attribute(raw: &str) -> Option<String> {
    let tag_start = raw.find("<source ")?;
    let tag = &raw[tag_start..];
    let tag = &tag[..tag.find('>')?];
    let at = tag.find(" doc=\"")? + " doc=\"".len();
    let value = &tag[at..];
    let end = value.find('"')?;
    Some(
        value[..end]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

/// What makes two injections of a run the same: source, slot, source id, content hash.
type InjectionKey = (String, Option<String>, Option<String>, Option<String>);

/// Builds one run from its events, in dispatch order.
/// `run_id` is the group's id: the run id of every event.
#[allow(clippy::vec_box)] // the events as `events_of` gives them
pub(super) fn build(
    events: Vec<Box<Event>>,
    run_id: &str,
    agent_flag: Option<&str>,
) -> Result<Run, String> {
    let mut b = Builder::new(&events, run_id)?;
    let mut composition = None;
    for e in events {
        let Event {
            fields,
            composition: c,
            ..
        } = *e;
        if composition.is_none() {
            composition = c;
        }
        b.apply(fields);
    }
    let mut run = b.run;
    if let Some(end) = &run.turn_end
        && end.stopped_early == Some(true)
    {
        run.notes.push("turn_end says the run stopped early".into());
    }
    run.agent = match agent_flag {
        Some(a) => a.to_owned(),
        None => b
            .configured_agent
            .or(b.genesis_agent)
            .or(composition.map(|c| c.to_string()))
            .unwrap_or_else(|| DEFAULT_AGENT.to_owned()),
    };
    Ok(run)
}

/// A run being built from its events ([`build`]).
struct Builder {
    run: Run,
    /// Texts like `[5 chars]` are a bounded audit's lengths, not text.
    pattern: bool,
    seen_injections: Vec<InjectionKey>,
    seen_chunks: Vec<String>,
    genesis_agent: Option<String>,
    configured_agent: Option<String>,
}

impl Builder {
    /// An empty run with what the events say as a whole: first line,
    /// export shape, session, time and (from the genesis event) mode.
    #[allow(clippy::vec_box)] // the events as `events_of` gives them
    fn new(events: &[Box<Event>], run_id: &str) -> Result<Builder, String> {
        let first = events
            .iter()
            .find(|e| e.kind != Kind::Note)
            .ok_or("a run with no events")?;
        let export = events
            .iter()
            .map(|e| e.export)
            .find(|x| *x != Export::Events)
            .unwrap_or(Export::Events);
        let run_id = run_id.to_owned();
        let created_at = events
            .iter()
            .find_map(|e| e.time_ms)
            .ok_or_else(|| format!("run {run_id:?} has no time (meta.wallClockMs or timestamp) on any event, so it cannot be a turn"))
            .and_then(|ms| time_of(ms).ok_or_else(|| format!("run {run_id:?}: time {ms} is not epoch milliseconds in years 0000-9999")))?;
        let mut mode: Option<String> = None;
        let mut genesis_agent = None;
        for e in events {
            if let Fields::Genesis { mode: m, agent } = &e.fields {
                mode.clone_from(m);
                genesis_agent.clone_from(agent);
            }
        }
        let run = Run {
            run_id,
            line: first.line,
            export,
            agent: String::new(),
            session_id: events
                .iter()
                .find_map(|e| e.session_id.as_deref().map(str::to_owned)),
            created_at,
            bounded: mode.as_deref() == Some("bounded"),
            question: None,
            unsupported: Vec::new(),
            injections: Vec::new(),
            chunks: Vec::new(),
            candidates: Vec::new(),
            retrievals: Vec::new(),
            model_calls: Vec::new(),
            tools: Vec::new(),
            turn_end: None,
            model: None,
            notes: Vec::new(),
        };
        Ok(Builder {
            run,
            // Only an audit bundle replaces text by lengths; elsewhere "[5 chars]" is text.
            pattern: export == Export::Audit && mode.as_deref() != Some("verbatim"),
            seen_injections: Vec::new(),
            seen_chunks: Vec::new(),
            genesis_agent,
            configured_agent: None,
        })
    }

    /// A text as observed, or a bounded audit's length of it.
    fn text(&self, v: Option<String>) -> Option<Text> {
        let s = v?;
        match bounded_len(&s) {
            Some(n) if self.pattern => Some(Text::Bounded(n)),
            _ => Some(Text::Observed(s)),
        }
    }

    /// Adds one event's fields to the run.
    fn apply(&mut self, fields: Fields) {
        match fields {
            Fields::RunConfigured { agent_id, model } => {
                self.configured_agent = self.configured_agent.take().or(agent_id);
                if self.run.model.is_none() {
                    self.run.model = model;
                }
            }
            Fields::TurnStart { prompt } if self.run.question.is_none() => {
                self.run.question = self.text(prompt);
            }
            Fields::LlmStart { model: Some(m) } => self.run.model = Some(m),
            Fields::Retrieved {
                k,
                threshold,
                candidates,
            } => {
                self.run.retrievals.push((k, threshold));
                self.run.candidates.extend(candidates);
            }
            f @ Fields::Injected { .. } => self.inject(f),
            f @ (Fields::LlmEnd { .. } | Fields::TurnEnd { .. }) => self.output(f),
            f @ (Fields::ToolStart { .. } | Fields::ToolEnd { .. }) => self.tool(f),
            Fields::EvidenceChecked {
                unsupported,
                action,
            } => {
                let action = action.unwrap_or_else(|| "no action".into());
                // The values are quoted from the answer: free text, shown
                // only when text is asked for (`Run::unsupported`).
                self.run.notes.push(format!(
                    "framework evidence check: {} unsupported value(s); action {action}",
                    unsupported.len()
                ));
                self.run.unsupported.extend(unsupported);
            }
            Fields::Note(s) => self.run.notes.push(s),
            _ => {}
        }
    }

    /// An injection into the prompt: recorded once however often the
    /// prompt is recomposed; a RAG injection is also a chunk.
    fn inject(&mut self, fields: Fields) {
        let Fields::Injected {
            source,
            source_id,
            slot,
            raw,
            content_hash,
            score,
            rank,
        } = fields
        else {
            return;
        };
        let source = source.unwrap_or_else(|| "unknown".into());
        let hash = content_hash.as_deref().or(raw.as_deref());
        // The system prompt is recomposed at every iteration: the same
        // injection again is one observation, not two (compared in
        // place: only a new one is copied).
        if self.seen_injections.iter().any(|(s, sl, id, h)| {
            *s == source && *sl == slot && *id == source_id && h.as_deref() == hash
        }) {
            return;
        }
        self.seen_injections.push((
            source.clone(),
            slot.clone(),
            source_id.clone(),
            hash.map(str::to_owned),
        ));
        let content = self.text(raw);
        let chunk = (source == "rag")
            .then(|| self.rag_chunk(source_id.as_deref(), content_hash, content.as_ref(), score));
        self.run.injections.push(Injection {
            source,
            slot,
            source_id,
            score,
            rank,
            content,
            chunk,
        });
    }

    /// The number (from 1) of the chunk a RAG injection is: a new chunk
    /// unless its source id (else content hash) was injected before.
    fn rag_chunk(
        &mut self,
        source_id: Option<&str>,
        content_hash: Option<String>,
        content: Option<&Text>,
        score: Option<f64>,
    ) -> u32 {
        let chunk_key = source_id
            .map(str::to_owned)
            .or(content_hash)
            .unwrap_or_default();
        if let Some(i) = self.seen_chunks.iter().position(|k| *k == chunk_key) {
            return (i + 1) as u32;
        }
        self.seen_chunks.push(chunk_key);
        let (rag, chunk_id) = match source_id {
            Some(id) => {
                let (rag, c) = split_source_id(id);
                (rag.map(str::to_owned), Some(c.to_owned()))
            }
            None => (None, None),
        };
        let from_text = content.and_then(Text::observed).and_then(doc_attribute);
        let from_candidates = chunk_id.as_ref().and_then(|id| {
            self.run
                .candidates
                .iter()
                .rev()
                .find(|c| &c.id == id)
                .and_then(|c| c.doc_uri.clone())
        });
        self.run.chunks.push(RagChunk {
            chunk_id,
            document_id: from_text.or(from_candidates).or(rag),
            score,
        });
        self.run.chunks.len() as u32
    }

    /// A model call's end, or the turn's.
    fn output(&mut self, fields: Fields) {
        match fields {
            Fields::LlmEnd {
                withheld,
                content,
                iteration,
                usage,
                stop_reason,
                duration_ms,
                tool_call_count,
            } => {
                let output = if withheld {
                    Output::Withheld
                } else {
                    match self.text(content) {
                        Some(Text::Observed(s)) => Output::Observed(s),
                        Some(Text::Bounded(n)) => Output::Bounded(n),
                        None => Output::Observed(String::new()),
                    }
                };
                self.run.model_calls.push(ModelCall {
                    iteration,
                    usage,
                    output,
                    stop_reason,
                    duration_ms,
                    tool_call_count,
                });
            }
            Fields::TurnEnd {
                final_content,
                input_tokens,
                output_tokens,
                duration_ms,
                stopped_early,
            } => {
                self.run.turn_end = Some(TurnEnd {
                    final_content: self.text(final_content),
                    input_tokens,
                    output_tokens,
                    duration_ms,
                    stopped_early,
                });
            }
            _ => {}
        }
    }

    /// A tool call's start or end; an end without a start opens the call it ends.
    fn tool(&mut self, fields: Fields) {
        let tools = &mut self.run.tools;
        let unknown = |name: Option<String>, call_id| Tool {
            name: name.unwrap_or_else(|| "unknown".into()),
            call_id,
            args: None,
            result: None,
            duration_ms: None,
            error: false,
            ended: false,
        };
        match fields {
            Fields::ToolStart {
                name,
                call_id,
                args,
            } => tools.push(Tool {
                args,
                ..unknown(name, call_id)
            }),
            Fields::ToolEnd {
                call_id,
                name,
                error,
                result,
                duration_ms,
            } => {
                let open = tools
                    .iter()
                    .position(|t| !t.ended && call_id.is_some() && t.call_id == call_id);
                let i = match open {
                    Some(i) => i,
                    None => {
                        tools.push(unknown(name, call_id));
                        tools.len() - 1
                    }
                };
                let t = &mut tools[i];
                t.ended = true;
                t.error = error;
                t.result = result;
                t.duration_ms = duration_ms;
            }
            _ => {}
        }
    }
}

//! Google ADK files as spans: a Session JSON (`{id, app_name, events: […]}`,
//! as `adk web` exports it and the session services store it, alone or
//! listed as `{sessions: […]}`), an EvalSet
//! JSON (`{eval_set_id, eval_cases: [{conversation: […]}]}`) and an eval
//! run's results (`{eval_case_results: [{eval_metric_result_per_invocation:
//! [{actual_invocation}]}]}`, as ADK and tRPC-Agent-Go write them). Both
//! spellings are read (snake_case as Python dumps it, camelCase as the
//! API writes it).
//!
//! A container reader only: the events of one invocation (a Session's
//! `events` sharing an `invocation_id`, or one invocation of an eval
//! case's `conversation`) become one trace of [`Span`]s, and the shared
//! pass ([`super::assemble`]) finds the roles:
//! - the **root**, an agent span whose id is the invocation id: its input
//!   the user's text (the question), its agent the session's `app_name`,
//!   else the author of the invocation's first agent event;
//! - one **LLM span** per agent event holding text (thought parts left
//!   out): the one that finished last is the reply, so the trailing
//!   `function_call`/`function_response` events of a hand-over are not;
//! - one **tool span** per `function_call`, its arguments its input and
//!   the `function_response` with its id (else the next one of its name)
//!   its output;
//! - one **retrieval** of what those responses gave the model before its
//!   last text ([`passages`]), in the order given.
//!
//! Accounting: each event (each invocation of an eval case) is one
//! record, the first of its invocation carrying the trace's spans; an
//! event with no content parts (a state change) or a partial one is
//! skipped. An eval set's turns are the ones expected of the agent, not
//! observed: a note says so. An eval result's turns are its actual
//! invocations, one record each.

use super::exports::Nodes;
use super::json::{self, blank_span, field, text};
use super::{Doc, LineCounter, Recorded, Span, SpanKind, offset_in, reason};
use crate::dialect::{DocumentRecords, ShortId};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};

/// The note an eval set's turns carry.
const EXPECTED: &str = "is a Google ADK eval set: its turns are the answers expected of the agent (user_content, final_response), not ones it gave; grade the eval run's sessions or traces for those";

/// True when the first bytes are an ADK session or eval set: a JSON
/// object with `events` whose events name an invocation and an author,
/// or with an eval set's or eval case's keys.
pub(super) fn sniff(first: &[u8]) -> bool {
    let head = &first[..first.len().min(64 * 1024)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = head.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'"') {
        // ADK's eval history: the results document saved as a JSON string.
        let escaped = |k: &[u8]| memchr::memmem::find(head, k).is_some();
        return escaped(b"\\\"eval_set_result_id\\\"") || escaped(b"\\\"evalSetResultId\\\"");
    }
    if first != Some(&b'{') {
        return false;
    }
    let key = |k: &str| has_key(head, k);
    // One scan each for what every session (`"invocation…`), eval set
    // (`"eval…`) and eval case (`"conversation"`) holds: a file of another
    // format, read on every run, pays three scans of its head and no more.
    let found = |s: &[u8]| memchr::memmem::find(head, s).is_some();
    let session = found(b"\"invocation")
        && (key("invocation_id") || key("invocationId"))
        && key("events")
        && key("author");
    let eval_set = found(b"\"eval")
        && ["eval_set_id", "evalSetId", "eval_cases", "evalCases"]
            .iter()
            .any(|k| key(k));
    let eval_case = found(b"\"conversation\"") && (key("user_content") || key("userContent"));
    session || eval_set || eval_case
}

/// True when `"k"` occurs in `head` as a key (followed by `:`).
fn has_key(head: &[u8], k: &str) -> bool {
    let quoted = format!("\"{k}\"");
    memchr::memmem::find_iter(head, quoted.as_bytes()).any(|at| {
        head[at + quoted.len()..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            == Some(&b':')
    })
}

/// Reads a whole file: one or more sessions or eval sets, one after another.
pub(super) fn parse_document(data: &[u8], out: &mut DocumentRecords) {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let mut lines = LineCounter::new(data);
    let mut last = 1;
    for top in serde_json::Deserializer::from_slice(data).into_iter::<&RawValue>() {
        match top {
            Ok(top) if top.get().starts_with('"') => {
                last = lines.line_at(offset_in(data, top.get()));
                read_encoded(top.get(), last, out);
            }
            Ok(top) => {
                last = lines.line_at(offset_in(data, top.get()));
                read_top(data, top.get(), &mut lines, out);
            }
            Err(e) => {
                out.invalid(last, reason("not a Google ADK session or eval set", &e));
                return;
            }
        }
    }
}

/// A document saved as a JSON string (ADK writes its eval history so):
/// the string read as the document it holds, every record on the line
/// the string is on.
fn read_encoded(text: &str, line: u64, out: &mut DocumentRecords) {
    let inner: String = match serde_json::from_str(text) {
        Ok(s) => s,
        Err(e) => return out.invalid(line, reason("not a Google ADK document", &e)),
    };
    if !inner.trim_start().starts_with('{') {
        let why = "a JSON string that holds no Google ADK document".to_owned();
        return out.invalid(line, why);
    }
    let mut held = DocumentRecords::default();
    read_top(
        inner.as_bytes(),
        &inner,
        &mut LineCounter::new(inner.as_bytes()),
        &mut held,
    );
    out.records
        .extend(held.records.into_iter().map(|(_, r)| (line, r)));
    out.invalid
        .extend(held.invalid.into_iter().map(|(_, why)| (line, why)));
    out.skipped += held.skipped;
    out.notes.extend(held.notes);
}

/// The top-level members read, both spellings.
#[derive(serde::Deserialize)]
struct Top<'a> {
    #[serde(borrow, default)]
    events: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default, alias = "evalCases")]
    eval_cases: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    conversation: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default, alias = "evalCaseResults")]
    eval_case_results: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    sessions: Option<Vec<&'a RawValue>>,
    #[serde(flatten)]
    rest: Map<String, Value>,
}

/// One top-level object: a session, a list of sessions, an eval set, an
/// eval case, or an eval run's results.
fn read_top(data: &[u8], text: &str, lines: &mut LineCounter, out: &mut DocumentRecords) {
    let at = lines.line_at(offset_in(data, text));
    let top: Top = match serde_json::from_str(text) {
        Ok(t) => t,
        Err(e) => return out.invalid(at, reason("not a Google ADK session or eval set", &e)),
    };
    let m = &top.rest;
    if let Some(sessions) = top.sessions {
        // A session service's list (`ListSessionsResponse`): each session
        // read on its own.
        for one in sessions {
            read_top(data, one.get(), lines, out);
        }
        return;
    }
    if let Some(events) = top.events {
        let ctx = Context {
            conversation: field(m, &["id"]).and_then(json::id_of),
            app: json::string(m, &["app_name", "appName"]),
        };
        return session(data, &events, &ctx, lines, out);
    }
    if let Some(results) = top.eval_case_results {
        let set = json::string(m, &["eval_set_id", "evalSetId"]);
        // The result's id is `{app}_{eval set}_{run}`: the app is the agent.
        let app = json::string(m, &["eval_set_result_id", "evalSetResultId"]).and_then(|id| {
            let set = set.as_deref()?;
            let end = id.find(&format!("_{set}_")).filter(|&i| i > 0)?;
            Some(id[..end].to_owned())
        });
        let ran = match json::time_field(m, &["creation_timestamp", "creationTimestamp"]) {
            Ok(t) => t,
            Err(why) => return out.invalid(at, why),
        };
        for result in results {
            case_result(
                data,
                result,
                app.as_deref().or(set.as_deref()),
                ran,
                lines,
                out,
            );
        }
        return;
    }
    let cases = match (top.eval_cases, top.conversation) {
        (Some(cases), _) => cases,
        (None, Some(_)) => vec![serde_json::from_str(text).unwrap_or_else(|_| empty())],
        (None, None) => {
            return out.invalid(
                at,
                "not a Google ADK session or eval set: no `events`, `eval_cases` or `conversation`"
                    .to_owned(),
            );
        }
    };
    out.notes.push(EXPECTED.to_owned());
    let set = json::string(m, &["name"]).or_else(|| json::string(m, &["eval_set_id", "evalSetId"]));
    for case in cases {
        eval_case(data, case, set.as_deref(), lines, out);
    }
}

fn empty() -> &'static RawValue {
    serde_json::from_str("{}").expect("an empty object")
}

/// What the traces of one file share.
struct Context {
    /// The session's (the eval case's) id.
    conversation: Option<String>,
    /// `app_name`, the agent of every turn when named.
    app: Option<String>,
}

/// One step of an invocation, in the order given.
enum What {
    /// An agent's text (its text parts joined).
    Text(String),
    Call {
        id: Option<String>,
        name: String,
        args: Value,
    },
    Response {
        id: Option<String>,
        name: String,
        response: Value,
    },
}

struct Step {
    /// The event's id, for span ids (`{invocation}#n` where it has none).
    event: String,
    author: String,
    at: Option<i128>,
    what: What,
}

/// The events of one invocation, read.
#[derive(Default)]
struct Invocation {
    id: String,
    question: Option<String>,
    steps: Vec<Step>,
    /// The line of each of its records.
    lines: Vec<u64>,
    first: Option<i128>,
    last: Option<i128>,
}

impl Invocation {
    fn at(&mut self, t: Option<i128>) {
        self.first = self.first.or(t);
        self.last = t.or(self.last);
    }
}

/// The events of a session, grouped by invocation in the order they
/// first appear (one pass, an index by id), each invocation one trace.
fn session(
    data: &[u8],
    events: &[&RawValue],
    ctx: &Context,
    lines: &mut LineCounter,
    out: &mut DocumentRecords,
) {
    let mut invocations: Vec<Invocation> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for raw in events {
        let line = lines.line_at(offset_in(data, raw.get()));
        let e: Map<String, Value> = match serde_json::from_str(raw.get()) {
            Ok(e) => e,
            Err(err) => {
                out.invalid(line, reason("not an ADK event", &err));
                continue;
            }
        };
        match event(&e) {
            Err(why) => out.invalid(line, why),
            Ok(None) => out.skipped += 1,
            Ok(Some(ev)) => {
                let i = *index.entry(ev.invocation.clone()).or_insert_with(|| {
                    invocations.push(Invocation {
                        id: ev.invocation.clone(),
                        ..Invocation::default()
                    });
                    invocations.len() - 1
                });
                let inv = &mut invocations[i];
                inv.at(ev.at);
                let id = ev
                    .id
                    .unwrap_or_else(|| format!("{}#{}", inv.id, inv.lines.len()));
                add_parts(inv, ev.parts, &id, &ev.author, ev.at);
                inv.lines.push(line);
            }
        }
    }
    for inv in invocations {
        emit(inv, ctx, out);
    }
}

/// One event with content, as read.
struct Event<'a> {
    invocation: String,
    id: Option<String>,
    author: String,
    at: Option<i128>,
    parts: &'a [Value],
}

/// One event; none for an event with no content parts (a state change)
/// or a partial one.
fn event(e: &Map<String, Value>) -> Result<Option<Event<'_>>, String> {
    let parts = field(e, &["content"])
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .filter(|p| !p.is_empty());
    let partial = field(e, &["partial"]).and_then(Value::as_bool) == Some(true);
    let Some(parts) = parts.filter(|_| !partial) else {
        return Ok(None);
    };
    let invocation = field(e, &["invocation_id", "invocationId"])
        .and_then(json::span_id_of)
        .ok_or("ADK event without an invocation id (`invocation_id`)")?;
    Ok(Some(Event {
        invocation,
        id: field(e, &["id"]).and_then(json::span_id_of),
        author: json::string(e, &["author"]).unwrap_or_default(),
        at: json::time_field(e, &["timestamp"])?,
        parts,
    }))
}

/// The parts of one message: a user's text is the question (the first
/// given), an agent's its text step; calls and responses are steps.
fn add_parts(inv: &mut Invocation, parts: &[Value], event: &str, author: &str, at: Option<i128>) {
    let words = joined_text(parts);
    if let Some(t) = words {
        if author == "user" {
            inv.question.get_or_insert(t);
        } else {
            inv.steps.push(step(event, author, at, What::Text(t)));
        }
    }
    for p in parts.iter().filter_map(Value::as_object) {
        if let Some(c) = field(p, &["function_call", "functionCall"]) {
            let what = What::Call {
                id: c.get("id").and_then(json::id_of),
                name: c.get("name").and_then(text).unwrap_or_default(),
                args: c.get("args").cloned().unwrap_or(Value::Null),
            };
            inv.steps.push(step(event, author, at, what));
        }
        if let Some(r) = field(p, &["function_response", "functionResponse"]) {
            let what = What::Response {
                id: r.get("id").and_then(json::id_of),
                name: r.get("name").and_then(text).unwrap_or_default(),
                response: r.get("response").cloned().unwrap_or(Value::Null),
            };
            inv.steps.push(step(event, author, at, what));
        }
    }
}

fn step(event: &str, author: &str, at: Option<i128>, what: What) -> Step {
    Step {
        event: event.to_owned(),
        author: author.to_owned(),
        at,
        what,
    }
}

/// The text parts of a message joined (thought parts left out), none when
/// it holds no text.
fn joined_text(parts: &[Value]) -> Option<String> {
    let mut out = String::new();
    for p in parts {
        let thought = p.get("thought").and_then(Value::as_bool) == Some(true);
        if let Some(t) = p.get("text").and_then(Value::as_str).filter(|_| !thought) {
            out.push_str(t);
        }
    }
    (!out.trim().is_empty()).then_some(out)
}

/// One invocation of an eval case: the user's content, the tool uses (and
/// responses, where recorded), the intermediate responses, and the final
/// response last, all at its `creation_timestamp`.
fn eval_case(
    data: &[u8],
    case: &RawValue,
    set: Option<&str>,
    lines: &mut LineCounter,
    out: &mut DocumentRecords,
) {
    #[derive(serde::Deserialize)]
    struct Case<'a> {
        #[serde(borrow, default)]
        conversation: Option<Vec<&'a RawValue>>,
        #[serde(flatten)]
        rest: Map<String, Value>,
    }
    let at = lines.line_at(offset_in(data, case.get()));
    let c: Case = match serde_json::from_str(case.get()) {
        Ok(c) => c,
        Err(e) => return out.invalid(at, reason("not an ADK eval case", &e)),
    };
    let app = json::object(&c.rest, &["session_input", "sessionInput"])
        .and_then(|s| json::string(&*s, &["app_name", "appName"]));
    let ctx = Context {
        conversation: field(&c.rest, &["eval_id", "evalId"]).and_then(json::id_of),
        app: app.or(set.map(str::to_owned)),
    };
    for raw in c.conversation.unwrap_or_default() {
        let line = lines.line_at(offset_in(data, raw.get()));
        match serde_json::from_str::<Map<String, Value>>(raw.get())
            .map_err(|e| reason("not an ADK invocation", &e))
            .and_then(|m| invocation(&m, None))
        {
            Ok(mut inv) => {
                inv.lines.push(line);
                emit(inv, &ctx, out);
            }
            Err(why) => out.invalid(line, why),
        }
    }
}

/// The invocations an eval run observed, one turn each: every
/// `actual_invocation` of an eval case result (the expected one beside it
/// is what the case asked for, not a turn). An invocation without its own
/// time is at the time the results were written (`ran`).
fn case_result(
    data: &[u8],
    result: &RawValue,
    agent: Option<&str>,
    ran: Option<i128>,
    lines: &mut LineCounter,
    out: &mut DocumentRecords,
) {
    #[derive(serde::Deserialize)]
    struct Result<'a> {
        #[serde(borrow, default, alias = "evalMetricResultPerInvocation")]
        eval_metric_result_per_invocation: Option<Vec<&'a RawValue>>,
        #[serde(flatten)]
        rest: Map<String, Value>,
    }
    let at = lines.line_at(offset_in(data, result.get()));
    let r: Result = match serde_json::from_str(result.get()) {
        Ok(r) => r,
        Err(e) => return out.invalid(at, reason("not an ADK eval case result", &e)),
    };
    let id = |keys: &[&str]| field(&r.rest, keys).and_then(json::id_of);
    let ctx = Context {
        conversation: id(&["session_id", "sessionId"]).or_else(|| id(&["eval_id", "evalId"])),
        app: agent.map(str::to_owned),
    };
    for raw in r.eval_metric_result_per_invocation.unwrap_or_default() {
        let line = lines.line_at(offset_in(data, raw.get()));
        let actual = serde_json::from_str::<Map<String, Value>>(raw.get())
            .map_err(|e| reason("not an ADK invocation result", &e))
            .and_then(|m| {
                let actual = json::object(&m, &["actual_invocation", "actualInvocation"]);
                let actual = actual.ok_or("ADK invocation result without `actual_invocation`")?;
                invocation(&actual, ran)
            });
        match actual {
            Ok(mut inv) => {
                inv.lines.push(line);
                emit(inv, &ctx, out);
            }
            Err(why) => out.invalid(line, why),
        }
    }
}

/// One invocation as an eval set or an eval run's result writes it
/// ([`eval_case`], [`case_result`]), at its `creation_timestamp`, else at
/// `default_at`.
fn invocation(m: &Map<String, Value>, default_at: Option<i128>) -> Result<Invocation, String> {
    let id = field(m, &["invocation_id", "invocationId"])
        .and_then(json::span_id_of)
        .ok_or("ADK invocation without an id (`invocation_id`)")?;
    let at = json::time_field(m, &["creation_timestamp", "creationTimestamp"])?.or(default_at);
    let mut inv = Invocation {
        id,
        ..Invocation::default()
    };
    inv.at(at);
    // A message's parts, or its `content` text (tRPC-Agent-Go's spelling).
    let parts = |v: Option<&Value>| -> Vec<Value> {
        let Some(v) = v else { return Vec::new() };
        match (v.get("parts"), v.get("content")) {
            (Some(Value::Array(p)), _) => p.clone(),
            (_, Some(Value::String(t))) => vec![serde_json::json!({"text": t})],
            _ => Vec::new(),
        }
    };
    inv.question = joined_text(&parts(field(m, &["user_content", "userContent"])));
    let data = json::object(m, &["intermediate_data", "intermediateData"]);
    let list = |keys: &[&str]| -> Vec<Value> {
        data.as_ref()
            .and_then(|d| field(&**d, keys))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut n = 0;
    let mut event = || {
        n += 1;
        format!("{}#{n:03}", inv_id(m))
    };
    let mut calls: Vec<Value> = list(&["tool_uses", "toolUses"])
        .into_iter()
        .map(|c| serde_json::json!({"function_call": c}))
        .collect();
    let mut responses: Vec<Value> = list(&["tool_responses", "toolResponses"])
        .into_iter()
        .map(|r| serde_json::json!({"function_response": r}))
        .collect();
    // tRPC-Agent-Go: `tools`, each call with its arguments and result.
    for t in m
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (id, name) = (t.get("id"), t.get("name"));
        let args = t.get("arguments").or_else(|| t.get("args"));
        calls.push(serde_json::json!({"function_call": {"id": id, "name": name, "args": args}}));
        if let Some(result) = t.get("result") {
            responses.push(serde_json::json!({"function_response":
                {"id": id, "name": name, "response": result}}));
        }
    }
    add_parts(&mut inv, &calls, &event(), "agent", at);
    add_parts(&mut inv, &responses, &event(), "agent", at);
    for r in list(&["intermediate_responses", "intermediateResponses"]) {
        // `[author, [parts]]`.
        let author = r
            .get(0)
            .and_then(Value::as_str)
            .unwrap_or("agent")
            .to_owned();
        let p = r
            .get(1)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        add_parts(&mut inv, &p, &event(), &author, at);
    }
    let last = parts(field(m, &["final_response", "finalResponse"]));
    add_parts(&mut inv, &last, &event(), "agent", at);
    Ok(inv)
}

fn inv_id(m: &Map<String, Value>) -> String {
    field(m, &["invocation_id", "invocationId"])
        .and_then(json::span_id_of)
        .unwrap_or_default()
}

/// The records of one invocation: one per event, the first carrying its spans.
fn emit(inv: Invocation, ctx: &Context, out: &mut DocumentRecords) {
    let group = ShortId::from(inv.id.clone());
    let lines = inv.lines.clone();
    Nodes(spans(inv, ctx)).into_records("adk", &group, lines, out);
}

/// The spans of one invocation (see the module doc).
#[allow(clippy::vec_box)]
fn spans(inv: Invocation, ctx: &Context) -> Vec<Box<Span>> {
    let agent = ctx.app.clone().or_else(|| {
        inv.steps
            .iter()
            .map(|s| s.author.as_str())
            .find(|a| !a.is_empty() && *a != "user")
            .map(str::to_owned)
    });
    let mut root = node(
        &inv.id,
        &inv.id,
        None,
        SpanKind::Agent,
        agent.as_deref().unwrap_or(""),
    );
    root.agent_name = agent;
    root.conversation = ctx.conversation.clone();
    root.start_ns = inv.first;
    root.end_ns = inv.last;
    root.recorded = Recorded::of(inv.question, None);
    let mut out = vec![root];
    let mut tools = Tools::default();
    let mut given = Given::default();
    for (k, s) in inv.steps.into_iter().enumerate() {
        let here = |n: &str| {
            if n.is_empty() {
                format!("{}#{k}", inv.id)
            } else {
                n.to_owned()
            }
        };
        match s.what {
            What::Text(t) => {
                let mut n = node(
                    &inv.id,
                    &here(&s.event),
                    Some(&inv.id),
                    SpanKind::Llm,
                    &s.author,
                );
                n.agent_name = Some(s.author).filter(|a| !a.is_empty());
                n.llm_text = Some(t);
                n.llm_text_key = "content.parts[].text";
                (n.start_ns, n.end_ns) = (s.at, s.at);
                out.push(n);
                given.answered();
            }
            What::Call { id, name, args } => {
                let span_id = id
                    .clone()
                    .unwrap_or_else(|| format!("{}#{k}", here(&s.event)));
                let mut n = node(&inv.id, &span_id, Some(&inv.id), SpanKind::Tool, &name);
                n.recorded = Recorded::of(Some(args.to_string()), None);
                (n.start_ns, n.end_ns) = (s.at, s.at);
                n.tool_name = Some(name.clone());
                tools.call(out.len(), id, name);
                out.push(n);
            }
            What::Response { id, name, response } => {
                let called = tools.answer(id.as_deref(), &name);
                let args = called.and_then(|i| out[i].recorded.as_ref()?.input.as_deref());
                given.add(passages_of(&response, args), s.at);
                let i = match called {
                    Some(i) => i,
                    None => {
                        let span_id = id.unwrap_or_else(|| format!("{}#{k}", here(&s.event)));
                        let mut n = node(&inv.id, &span_id, Some(&inv.id), SpanKind::Tool, &name);
                        n.tool_name = Some(name);
                        n.start_ns = s.at;
                        out.push(n);
                        out.len() - 1
                    }
                };
                answer(&mut out[i], &response, s.at);
            }
        }
    }
    out.extend(given.retrieval(&inv.id));
    out
}

/// A span of the trace `trace` with the content recorded.
fn node(trace: &str, id: &str, parent: Option<&str>, kind: SpanKind, name: &str) -> Box<Span> {
    let mut s = blank_span(trace.to_owned(), id.to_owned());
    s.parent_id = parent.map(|p| ShortId::from(p.to_owned()));
    s.kind = kind;
    s.name = name.to_owned();
    s.content_recorded = true;
    Box::new(s)
}

/// A tool call's response: its output, when it ended, whether it failed.
fn answer(s: &mut Span, response: &Value, at: Option<i128>) {
    s.output = Some(response.to_string());
    s.output_mime = Some("application/json".to_owned());
    s.output_key = "function_response.response";
    s.end_ns = at.or(s.end_ns);
    if response.get("error").is_some_and(|e| !e.is_null()) {
        s.error = true;
    }
}

/// The calls not yet answered: by id, and by name in call order for
/// calls without one.
#[derive(Default)]
struct Tools {
    by_id: HashMap<String, usize>,
    by_name: HashMap<String, VecDeque<usize>>,
}

impl Tools {
    fn call(&mut self, at: usize, id: Option<String>, name: String) {
        match id {
            Some(id) => {
                self.by_id.insert(id, at);
            }
            None => self.by_name.entry(name).or_default().push_back(at),
        }
    }

    fn answer(&mut self, id: Option<&str>, name: &str) -> Option<usize> {
        match id {
            Some(id) => self.by_id.remove(id),
            None => self.by_name.get_mut(name)?.pop_front(),
        }
    }
}

/// What the tools gave the model: every passage, and how many of them
/// (and the time of the last) came before the agent's last text.
#[derive(Default)]
struct Given {
    docs: Vec<Doc>,
    last_at: Option<i128>,
    upto: usize,
    upto_at: Option<i128>,
}

impl Given {
    fn add(&mut self, docs: Vec<Doc>, at: Option<i128>) {
        if !docs.is_empty() {
            self.docs.extend(docs);
            self.last_at = at.or(self.last_at);
        }
    }

    fn answered(&mut self) {
        self.upto = self.docs.len();
        self.upto_at = self.last_at;
    }

    /// One retrieval of the passages given before the last text, if any.
    fn retrieval(mut self, trace: &str) -> Option<Box<Span>> {
        self.docs.truncate(self.upto);
        if self.docs.is_empty() {
            return None;
        }
        let id = format!("{trace}#results");
        let mut s = node(
            trace,
            &id,
            Some(trace),
            SpanKind::Retriever,
            "function responses",
        );
        (s.start_ns, s.end_ns) = (self.upto_at, self.upto_at);
        s.retrieval = Some(self.docs);
        Some(s)
    }
}

/// The passages a tool's response gave the model. ADK wraps a return
/// value that is not a dict as `{"result": value}`: a list of search
/// results ([`json::results`]) or documents ([`json::documents`]) is one
/// passage each; text is a page ([`page`]); anything else (a status, an
/// empty response) gives none.
pub(super) fn passages(response: &Value) -> Vec<Doc> {
    let value = match response {
        Value::Object(m) if m.len() == 1 && m.contains_key("result") => &m["result"],
        v => v,
    };
    if let Some(docs) = json::results(value) {
        return docs;
    }
    if let Some(docs) = json::documents(value) {
        return docs.into_iter().filter(|d| d.content.is_some()).collect();
    }
    match value {
        Value::String(s) if !s.trim().is_empty() => page(s),
        _ => Vec::new(),
    }
}

/// The passages a call's response gave, less an acknowledgement: a text
/// that only echoes one of the call's own arguments under a short label
/// ("Launching skill: weather-query" for `{"skill": "weather-query"}`)
/// tells the model nothing it did not ask with, so it is no passage.
fn passages_of(response: &Value, args: Option<&str>) -> Vec<Doc> {
    let docs = passages(response);
    match (docs.as_slice(), args) {
        ([one], Some(args)) if one.chunk_id.is_none() => {
            let text = one.content.as_deref().unwrap_or_default();
            if acknowledges(text, args) {
                return Vec::new();
            }
            docs
        }
        _ => docs,
    }
}

/// Whether `text` reads `label: value`, a label of at most three words
/// and a value that is one of the string values of the call's arguments
/// `args` (a JSON object).
fn acknowledges(text: &str, args: &str) -> bool {
    let Some((label, value)) = text.trim().split_once(':') else {
        return false;
    };
    let (label, value) = (label.trim(), value.trim());
    if label.is_empty() || label.split_whitespace().count() > 3 || value.is_empty() {
        return false;
    }
    let Ok(Value::Object(args)) = serde_json::from_str::<Value>(args) else {
        return false;
    };
    args.values().any(|v| v.as_str() == Some(value))
}

/// A text page: one passage, or, when its `[SEP]`-separated fields list
/// two or more items each led by an item id (WebShop's search pages), one
/// passage per item, its id the chunk id and its fields the text.
fn page(s: &str) -> Vec<Doc> {
    let fields: Vec<&str> = s.split("[SEP]").map(str::trim).collect();
    let starts: Vec<usize> = (0..fields.len()).filter(|&i| item_id(fields[i])).collect();
    if starts.len() < 2 {
        return vec![Doc {
            content: Some(s.to_owned()),
            ..Doc::default()
        }];
    }
    let ends = starts.iter().skip(1).copied().chain([fields.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&a, b)| Doc {
            chunk_id: Some(fields[a].to_owned()),
            content: Some(fields[a..b].join("\n")),
            ..Doc::default()
        })
        .collect()
}

/// An item id: one word of 6 to 20 upper-case letters and digits, both
/// (an ASIN such as `B092QL1FLW`).
fn item_id(f: &str) -> bool {
    (6..=20).contains(&f.len())
        && f.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && f.bytes().any(|b| b.is_ascii_digit())
        && f.bytes().any(|b| b.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sniffs_sessions_and_eval_sets_by_their_keys() {
        assert!(sniff(
            b"{\"id\": \"s\", \"events\": [{\"invocation_id\": \"i\", \"author\": \"user\"}]}"
        ));
        assert!(sniff(b"{\n  \"appName\": \"a\",\n  \"events\": [{\"invocationId\": \"i\", \"author\": \"u\"}"));
        assert!(sniff(b"{\"eval_set_id\": \"x\", \"eval_cases\": []}"));
        assert!(!sniff(b"{\"turn_id\": \"t\", \"events\": 3}"));
        assert!(!sniff(
            b"[{\"events\": [], \"invocation_id\": 1, \"author\": 2}]"
        ));
    }

    /// A session service's list reads each listed session as it reads one
    /// alone; a list whose sessions left out their events gives no turn.
    #[test]
    fn a_list_of_sessions_reads_each_session() {
        let one = include_str!("../../../../../tests/corpus/adk/sample.session.json");
        let (mut alone, mut listed) = (DocumentRecords::default(), DocumentRecords::default());
        parse_document(one.as_bytes(), &mut alone);
        let list = format!("{{\"sessions\": [{one}, {one}]}}");
        parse_document(list.as_bytes(), &mut listed);
        assert!(!alone.records.is_empty());
        assert_eq!(listed.records.len(), 2 * alone.records.len());
        assert!(listed.invalid.is_empty(), "{:?}", listed.invalid);
        let mut bare = DocumentRecords::default();
        let empty = r#"{"sessions": [{"id": "s1", "appName": "a", "userId": "u", "events": []}]}"#;
        parse_document(empty.as_bytes(), &mut bare);
        assert!(bare.records.is_empty() && bare.invalid.is_empty());
    }

    /// An eval run's results: each actual invocation is a turn (ADK's
    /// parts and intermediate data, or tRPC-Agent-Go's content text and
    /// tools), the expected one is not; the app comes from the result's id.
    #[test]
    fn eval_results_read_their_actual_invocations() {
        let text = |t: &str| json!({"role": "user", "parts": [{"text": t}]});
        let results = json!({
            "eval_set_result_id": "shop_orders_1700000000.5", "eval_set_id": "orders",
            "creation_timestamp": 1_700_000_000.5,
            "eval_case_results": [{"eval_id": "c1", "session_id": "s1",
                "eval_metric_result_per_invocation": [{
                    "actual_invocation": {"invocation_id": "a1", "user_content": text("Where is order 7?"),
                        "final_response": text("Order 7 shipped."),
                        "intermediate_data": {"tool_uses": [{"name": "get_order", "args": {"id": 7}}]}},
                    "expected_invocation": {"invocation_id": "e1", "user_content": text("Where is order 7?"),
                        "final_response": text("It shipped.")}}]}]});
        let camel = json!({
            "evalSetResultId": "kb-app_kb_1", "evalSetId": "kb", "creationTimestamp": 1_700_000_100,
            "evalCaseResults": [{"evalId": "c2", "evalMetricResultPerInvocation": [{
                "actualInvocation": {"invocationId": "a2",
                    "userContent": {"role": "user", "content": "What is X?"},
                    "finalResponse": {"role": "assistant", "content": "X is a framework."},
                    "tools": [{"id": "t1", "name": "knowledge_search", "arguments": {"query": "X"},
                        "result": {"documents": [{"score": 0.9, "text": "X is a framework."}]}}]}}]}]});
        let mut out = DocumentRecords::default();
        parse_document(format!("{results}\n{camel}").as_bytes(), &mut out);
        assert!(out.notes.is_empty(), "{:?}", out.notes);
        // ADK's eval history holds the document as a JSON string: the same
        // turn, on the string's line.
        let encoded = Value::String(results.to_string()).to_string();
        assert!(sniff(encoded.as_bytes()));
        let mut held = DocumentRecords::default();
        parse_document(format!("\n{encoded}\n").as_bytes(), &mut held);
        assert_eq!(held.records.len(), 1);
        assert_eq!(held.records[0].0, 2);
        let mut bad = DocumentRecords::default();
        parse_document(b"\"just text\"", &mut bad);
        assert_eq!(bad.invalid.len(), 1, "{:?}", bad.invalid);
        let traces: Vec<Vec<Box<Span>>> = out
            .records
            .into_iter()
            .map(|(_, r)| r.body.downcast::<Nodes>().unwrap().0)
            .collect();
        assert_eq!(traces.len(), 2);
        let root = |t: &[Box<Span>]| t.iter().find(|s| s.parent_id.is_none()).unwrap().clone();
        let (a, b) = (root(&traces[0]), root(&traces[1]));
        assert_eq!((a.span_id(), a.agent_name.as_deref()), ("a1", Some("shop")));
        assert_eq!(
            (b.span_id(), b.agent_name.as_deref()),
            ("a2", Some("kb-app"))
        );
        assert_eq!(a.start_ns, Some(1_700_000_000_500_000_000));
        let tools = |t: &[Box<Span>]| t.iter().filter(|s| s.kind == SpanKind::Tool).count();
        assert_eq!((tools(&traces[0]), tools(&traces[1])), (1, 1));
        let docs: Vec<&Doc> = traces[1]
            .iter()
            .filter_map(|s| s.retrieval.as_ref())
            .flatten()
            .collect();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].score, Some(0.9));
    }

    #[test]
    fn a_response_gives_passages_by_what_it_holds() {
        assert!(passages(&json!({})).is_empty());
        assert!(passages(&json!({"status": "ok", "target_agent_name": "a"})).is_empty());
        assert_eq!(passages(&json!({"result": "a page"})).len(), 1);
        let listing = "Back [SEP] Page 1 [SEP] B092QL1FLW [SEP] Dress [SEP] $16 [SEP] B094Z77449 [SEP] Gown [SEP] $12";
        let d = passages(&json!({ "result": listing }));
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].chunk_id.as_deref(), Some("B092QL1FLW"));
        assert_eq!(d[1].content.as_deref(), Some("B094Z77449\nGown\n$12"));
        let one = "Thank you [SEP] asin [SEP] B092QL1FLW [SEP] options";
        assert_eq!(passages(&json!({ "result": one })).len(), 1);
        let web = json!({"result": [{"url": "https://a.example", "title": "A"}]});
        assert_eq!(
            passages(&web)[0].chunk_id.as_deref(),
            Some("https://a.example")
        );
        assert_eq!(passages(&json!({"result": ["one", "two"]})).len(), 2);
    }

    /// A status that echoes the call's argument is no passage; a page led
    /// by it, or a status of a call without arguments, still is.
    #[test]
    fn an_acknowledgement_of_the_call_is_no_passage() {
        let args = r#"{"command": "", "skill": "weather-query"}"#;
        let status = json!({"result": "Launching skill: weather-query"});
        assert!(passages_of(&status, Some(args)).is_empty());
        assert!(
            passages_of(
                &json!({"result": "loaded: write-ok"}),
                Some(r#"{"skill": "write-ok"}"#)
            )
            .is_empty()
        );
        let page = json!({"result": "weather-query: sunny skies and 25 C in Shenzhen today"});
        assert_eq!(passages_of(&page, Some(args)).len(), 1);
        assert_eq!(passages_of(&status, None).len(), 1);
        assert_eq!(passages_of(&status, Some(r#"{"skill": "other"}"#)).len(), 1);
    }
}

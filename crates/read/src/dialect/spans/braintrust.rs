//! Braintrust log rows as spans: the rows its SDKs send to `/logs3` (a
//! JSON array of rows, one row per line, a `{"rows": […]}` body, a
//! `{"events": […]}` page of the fetch API) and recordings of those
//! requests (`{method, path, jsonBody, rawBody}`, the body read once).
//!
//! A container reader only. A span is written as a start row (`input`,
//! `metadata`, `span_attributes {name, type}`, `span_parents`,
//! `root_span_id`, `metrics.start`) and later merge rows
//! (`_is_merge: true`) that add `output`, `metrics`, `error`: the rows of
//! one span id merge in the order read, objects key by key at every depth
//! and every other value replaced. Each merged span becomes one [`Span`]
//! and the shared pass ([`super::assemble`]) finds the roles:
//! - kind from `span_attributes.type` (`llm`, `tool`, `score`; any other
//!   is a chain); an LLM span's input messages are its input text, and
//!   what its tool messages gave it is one retrieval;
//! - reply text from `output` ([`json::reply_text`]: strings, message
//!   lists, LangChain messages and `generations`);
//! - the question from the turn's root `input`, else from its first LLM
//!   call's messages.
//!
//! A trace is the rows of one `root_span_id`. A root that recorded neither
//! input nor output (a script's wrapper around its operations) is no turn:
//! each of its children is one, with that child's id. A turn's root that
//! recorded no output returns what its only child that recorded one
//! returned. A trace with no LLM call whose root recorded no question and
//! no text output (a test's structural span) is no turn: its rows are
//! skipped.

use super::exports::Nodes;
use super::json::{self, blank_span, field};
use super::{Doc, LineCounter, Recorded, Span, SpanKind, offset_in, reason};
use crate::dialect::{DocumentRecords, ShortId};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// True when the first bytes are Braintrust rows: JSON with the keys
/// `span_attributes` and `root_span_id` (or `_xact_id`). A file of
/// another format pays one scan of its head.
pub(super) fn sniff(first: &[u8]) -> bool {
    let head = &first[..first.len().min(64 * 1024)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if !matches!(
        head.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    ) {
        return false;
    }
    let found = |s: &[u8]| memchr::memmem::find(head, s).is_some();
    found(b"span_attributes\"") && (found(b"root_span_id\"") || found(b"_xact_id\""))
}

/// Reads a whole file: one or more JSON values, each an array of rows,
/// a row, a body or page of rows, or a recorded request.
pub(super) fn parse_document(data: &[u8], out: &mut DocumentRecords) {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let mut lines = LineCounter::new(data);
    let mut rows = Rows::default();
    let mut last = 1;
    for top in serde_json::Deserializer::from_slice(data).into_iter::<&RawValue>() {
        let top = match top {
            Ok(t) => t,
            Err(e) => {
                out.invalid(last, reason("not Braintrust rows", &e));
                break;
            }
        };
        last = lines.line_at(offset_in(data, top.get()));
        if !top.get().starts_with('[') {
            read_value(top.get(), last, true, &mut rows, out);
            continue;
        }
        match serde_json::from_str::<Vec<&RawValue>>(top.get()) {
            Ok(items) => {
                for item in items {
                    let at = lines.line_at(offset_in(data, item.get()));
                    read_value(item.get(), at, true, &mut rows, out);
                }
            }
            Err(e) => out.invalid(last, reason("not Braintrust rows", &e)),
        }
    }
    emit(rows, out);
}

/// One value's text at `line`, parsed and read ([`read_item`]).
fn read_value(text: &str, line: u64, top: bool, rows: &mut Rows, out: &mut DocumentRecords) {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => read_item(v, line, top, rows, out),
        Err(e) => out.invalid(line, reason("not a Braintrust row", &e)),
    }
}

/// One value: a row, a list of rows, a body or page of rows, or a
/// recorded request whose body is read once (`jsonBody`, else `rawBody`).
/// A value that is none of these is invalid at the top of the file and
/// skipped inside a request (a login, a project's registration).
fn read_item(v: Value, line: u64, top: bool, rows: &mut Rows, out: &mut DocumentRecords) {
    let mut m = match v {
        Value::Object(m) => m,
        Value::Array(items) => {
            return items
                .into_iter()
                .for_each(|i| read_item(i, line, top, rows, out));
        }
        Value::Null if !top => {
            out.skipped += 1;
            return;
        }
        _ => return not_a_row(line, top, out),
    };
    let named = m.contains_key("span_id") || m.contains_key("id");
    if !named && let Some(list) = ["rows", "events"].iter().find_map(|k| m.remove(*k)) {
        return read_item(list, line, false, rows, out);
    }
    if !named && (m.contains_key("jsonBody") || m.contains_key("rawBody")) {
        let body = match m.remove("jsonBody").filter(|b| !b.is_null()) {
            Some(b) => b,
            None => json::unstring(&m.remove("rawBody").unwrap_or(Value::Null)).into_owned(),
        };
        return read_item(body, line, false, rows, out);
    }
    if !named {
        return not_a_row(line, top, out);
    }
    rows.add(line, m);
}

fn not_a_row(line: u64, top: bool, out: &mut DocumentRecords) {
    if top {
        out.invalid(
            line,
            "not a Braintrust row: no `span_id` or `id`, and no `rows` or `events`".to_owned(),
        );
    } else {
        out.skipped += 1;
    }
}

/// The rows of each span, merged, in the order their spans first appear
/// (one pass, an index by span id).
#[derive(Default)]
struct Rows {
    spans: Vec<Part>,
    index: HashMap<String, usize>,
}

/// One span's rows: the line of each, and their fields merged.
struct Part {
    id: String,
    lines: Vec<u64>,
    m: Map<String, Value>,
}

impl Rows {
    fn add(&mut self, line: u64, m: Map<String, Value>) {
        let id = ["span_id", "id"]
            .iter()
            .find_map(|k| m.get(*k).and_then(json::span_id_of))
            .unwrap_or_default();
        match self.index.get(&id) {
            Some(&i) => {
                let p = &mut self.spans[i];
                p.lines.push(line);
                merge(&mut p.m, m);
            }
            None => {
                self.index.insert(id.clone(), self.spans.len());
                self.spans.push(Part {
                    id,
                    lines: vec![line],
                    m,
                });
            }
        }
    }
}

/// A later row's fields into a span's: objects key by key at every
/// depth, every other value replaced; a `null` replaces nothing.
fn merge(into: &mut Map<String, Value>, later: Map<String, Value>) {
    for (k, v) in later {
        match (into.get_mut(&k), v) {
            (_, Value::Null) => {}
            (Some(Value::Object(a)), Value::Object(b)) => merge(a, b),
            (_, v) => {
                into.insert(k, v);
            }
        }
    }
}

/// One span built from its merged rows, with what grouping needs.
struct Built {
    span: Box<Span>,
    root: String,
    lines: Vec<u64>,
    /// Recorded neither input nor output.
    silent: bool,
    /// Recorded a question, or text under a reply's name ([`said`]).
    said: bool,
    /// The tool calls an LLM call's output asked for.
    requested: Vec<Requested>,
}

/// A tool call a model asked for in its output: its name and arguments.
struct Requested {
    name: String,
    args: Option<String>,
}

/// The turns of every trace read, in the order their spans first appear.
fn emit(rows: Rows, out: &mut DocumentRecords) {
    let built: Vec<Built> = rows.spans.into_iter().map(build).collect();
    let turn = turn_ids(&built);
    let mut order: Vec<String> = Vec::new();
    let mut members: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, t) in turn.iter().enumerate() {
        match t {
            Some(t) => members
                .entry(t.clone())
                .or_insert_with(|| {
                    order.push(t.clone());
                    Vec::new()
                })
                .push(i),
            None => out.skipped += built[i].lines.len() as u64,
        }
    }
    let mut taken: Vec<Option<Built>> = built.into_iter().map(Some).collect();
    for id in order {
        let idx = &members[&id];
        let mut spans: Vec<Built> = idx.iter().filter_map(|&i| taken[i].take()).collect();
        for b in &mut spans {
            b.span.trace_id = ShortId::from(id.clone());
        }
        turn_records(&id, spans, out);
    }
}

/// The records of one turn: one per row, the first carrying its spans; a
/// turn that is no turn (see the module doc) skips its rows.
fn turn_records(id: &str, mut spans: Vec<Built>, out: &mut DocumentRecords) {
    let head = spans
        .iter()
        .position(|b| b.span.span_id() == id)
        .unwrap_or(0);
    adopt_output(&mut spans, head);
    if !spans.iter().any(|b| b.span.kind == SpanKind::Llm) && !spans[head].said {
        out.skipped += spans.iter().map(|b| b.lines.len() as u64).sum::<u64>();
        return;
    }
    let group = ShortId::from(id.to_owned());
    let mut lines: Vec<u64> = spans.iter().flat_map(|b| b.lines.iter().copied()).collect();
    lines.sort_unstable();
    let run: Vec<String> = spans
        .iter()
        .filter(|b| b.span.kind == SpanKind::Tool)
        .map(|b| b.span.name.clone())
        .collect();
    let mut nodes: Vec<Box<Span>> = Vec::with_capacity(spans.len() + 1);
    for b in spans {
        let mut s = b.span;
        if s.span_id() == id {
            // The turn's head is its root, whatever it names as parent.
            s.parent_id = None;
        }
        nodes.extend(tool_results(&s));
        nodes.extend(asked_for(&s, b.requested, &run));
        nodes.push(s);
    }
    Nodes(nodes).into_records("braintrust", &group, lines, out);
}

/// True when a span's input holds a question, or its output is text or
/// holds text under a reply's name (`output`, `answer`, `content`, …).
fn said(input: Option<&Value>, output: Option<&Value>) -> bool {
    let question = input
        .and_then(json::recorded_text)
        .and_then(|t| crate::dialect::question::question_of(&t));
    let reply = output.is_some_and(|o| {
        o.is_string() || json::reply_text(o, "output").is_some_and(|(_, key)| key != "output")
    });
    question.is_some() || reply
}

/// The turn id of each span (none for a silent root's own rows): its
/// trace's root span id, or below a silent root with children the id of
/// the root's child it descends from. Each span's turn is found once (a
/// walk up its parents stops at a span already placed), so this is linear.
fn turn_ids(built: &[Built]) -> Vec<Option<String>> {
    let index: HashMap<&str, usize> = built
        .iter()
        .enumerate()
        .map(|(i, b)| (b.span.span_id(), i))
        .collect();
    let parent = |i: usize| -> Option<usize> {
        let p = built[i].span.parent_id.as_deref()?;
        index.get(p).copied().filter(|&j| j != i)
    };
    let mut has_child = vec![false; built.len()];
    for i in 0..built.len() {
        if let Some(p) = parent(i) {
            has_child[p] = true;
        }
    }
    let split = |r: usize| {
        let b = &built[r];
        b.silent && has_child[r] && parent(r).is_none() && b.span.span_id() == b.root
    };
    let mut turn: Vec<Option<Option<String>>> = vec![None; built.len()];
    for i in 0..built.len() {
        let mut path = Vec::new();
        let mut at = i;
        let found = loop {
            if let Some(t) = &turn[at] {
                break t.clone();
            }
            path.push(at);
            match parent(at) {
                None if split(at) => break None,
                None => break Some(built[at].root.clone()),
                Some(p) if split(p) => break Some(built[at].span.span_id().to_owned()),
                Some(_) if path.len() > built.len() => break Some(built[at].root.clone()),
                Some(p) => at = p,
            }
        };
        for j in path {
            turn[j] = Some(found.clone());
        }
    }
    turn.into_iter().map(Option::flatten).collect()
}

/// A head that recorded no output returns what its only child that
/// recorded reply text returned (a tool's result or a score is none).
fn adopt_output(spans: &mut [Built], head: usize) {
    let h = &spans[head].span;
    if h.output.is_some() || h.llm_text.is_some() {
        return;
    }
    let id = h.span_id().to_owned();
    let mut said = spans
        .iter()
        .filter(|b| b.span.parent_id.as_deref() == Some(id.as_str()))
        .filter(|b| !matches!(b.span.kind, SpanKind::Tool | SpanKind::Evaluator))
        .filter_map(|b| b.span.llm_text.clone().or_else(|| b.span.output.clone()));
    if let (Some(text), None) = (said.next(), said.next()) {
        let h = &mut spans[head].span;
        h.output = Some(text);
        h.output_mime = Some("text/plain".to_owned());
        h.output_key = "output (of its only child)";
        h.content_recorded = true;
    }
}

/// One span from its merged rows (see the module doc).
fn build(p: Part) -> Built {
    let m = p.m;
    let root = field(&m, &["root_span_id"])
        .and_then(json::span_id_of)
        .unwrap_or_else(|| p.id.clone());
    let mut s = blank_span(root.clone(), p.id);
    s.parent_id = parent_of(&m).map(ShortId::from);
    let attrs = field(&m, &["span_attributes"]).and_then(Value::as_object);
    let attr = |k: &str| attrs.and_then(|a| json::string(a, &[k]));
    s.name = attr("name").unwrap_or_default();
    s.kind = match attr("type").as_deref() {
        Some("llm") => SpanKind::Llm,
        Some("tool") => SpanKind::Tool,
        Some("score") => SpanKind::Evaluator,
        _ => SpanKind::Chain,
    };
    if s.kind == SpanKind::Tool {
        s.tool_name = Some(s.name.clone());
    }
    times(&mut s, &m);
    s.error = field(&m, &["error"]).is_some_and(|e| !json::is_blank(e));
    if s.error {
        s.error_type = Some("error".to_owned());
    }
    let input = field(&m, &["input"]).filter(|v| !json::is_blank(v));
    let output = field(&m, &["output"]).filter(|v| !json::is_blank(v));
    read_input(&mut s, input);
    read_output(&mut s, output);
    usage(&mut s, &m);
    let requested = match output {
        Some(out) if s.kind == SpanKind::Llm => requested_calls(out, 0),
        _ => Vec::new(),
    };
    Built {
        span: Box::new(s),
        root,
        lines: p.lines,
        silent: input.is_none() && output.is_none(),
        said: said(input, output),
        requested,
    }
}

/// The span's parent: the last of `span_parents` (its direct parent).
fn parent_of(m: &Map<String, Value>) -> Option<String> {
    match field(m, &["span_parents"])? {
        Value::Array(ps) => ps.last().and_then(json::span_id_of),
        v => json::span_id_of(v),
    }
}

/// Start and end from `metrics` (epoch seconds), else `created`. A zero
/// time is a placeholder (test snapshots write it), and an unreadable
/// `created` is left out, as it is no field the turn needs.
fn times(s: &mut Span, m: &Map<String, Value>) {
    let metrics = field(m, &["metrics"]).and_then(Value::as_object);
    let at = |k: &str| {
        let v = metrics.and_then(|x| x.get(k))?;
        json::time(v).ok().flatten().filter(|t| *t > 0)
    };
    s.start_ns = at("start").or_else(|| {
        let c = field(m, &["created"])?;
        json::time(c).ok().flatten()
    });
    s.end_ns = at("end");
}

/// What a span was given: a root's or a tool's input as recorded; an LLM
/// call's input text and its messages (where a silent root's question is).
fn read_input(s: &mut Span, input: Option<&Value>) {
    let Some(input) = input else { return };
    let recorded = json::recorded_text(input);
    if s.kind == SpanKind::Llm {
        s.input_text = super::prompt::value_text_kept(input, super::prompt::input_member);
        s.recorded = Recorded::of(None, recorded);
    } else {
        s.recorded = Recorded::of(recorded, None);
    }
}

/// What a span returned: an LLM's reply text, a tool's result (and the
/// search results or documents it lists), the passages any other span
/// returned ([`passages`]), else its reply text.
fn read_output(s: &mut Span, output: Option<&Value>) {
    let Some(out) = output else { return };
    s.content_recorded = true;
    if s.kind == SpanKind::Chain
        && let Some(docs) = passages(out)
    {
        // A step no one typed that returned passages is a retrieval.
        s.retrieval = Some(docs);
        return;
    }
    if s.kind == SpanKind::Tool {
        s.output = json::recorded_text(out);
        let mime = if out.is_string() {
            "text/plain"
        } else {
            "application/json"
        };
        s.output_mime = Some(mime.to_owned());
        s.output_key = "output";
        s.retrieval = json::results(out).or_else(|| json::documents(out));
        return;
    }
    if let Some((text, key)) = json::reply_text(out, "output") {
        s.answered(text, key);
    }
}

/// A list of objects that are each a search result or a document with
/// text: what a step no one typed returns when it retrieved. A list of
/// strings (generated queries) is not one, nor an object that holds a
/// list (an answer with its sources, read as the step's reply).
fn passages(out: &Value) -> Option<Vec<Doc>> {
    let Value::Array(items) = out else {
        return None;
    };
    if !items.iter().all(Value::is_object) {
        return None;
    }
    json::results(out)
        .or_else(|| json::documents(out).filter(|docs| docs.iter().all(|d| d.content.is_some())))
}

/// Model from `metadata.model`; tokens from `metrics`.
fn usage(s: &mut Span, m: &Map<String, Value>) {
    if let Some(meta) = field(m, &["metadata"]).and_then(Value::as_object) {
        s.model = json::string(meta, &["model"]);
    }
    if let Some(x) = field(m, &["metrics"]).and_then(Value::as_object) {
        let n = |k: &str| x.get(k).and_then(json::count);
        s.tokens.prompt = n("prompt_tokens");
        s.tokens.completion = n("completion_tokens");
        s.tokens.total = n("tokens").or_else(|| n("total_tokens"));
    }
}

/// What an LLM call's tool messages gave it (OpenAI `role: "tool"`,
/// LangChain `ToolMessage`s), as one retrieval span below it.
fn tool_results(llm: &Span) -> Option<Box<Span>> {
    if llm.kind != SpanKind::Llm {
        return None;
    }
    let messages = llm.recorded.as_ref()?.messages.as_deref()?;
    let v: Value = serde_json::from_str(messages).ok()?;
    let mut docs = Vec::new();
    tool_messages(&v, 0, &mut docs);
    if docs.is_empty() {
        return None;
    }
    let id = format!("{}#tools", llm.span_id());
    let mut s = blank_span(llm.trace_id().to_owned(), id);
    s.parent_id = Some(ShortId::from(llm.span_id().to_owned()));
    s.kind = SpanKind::Retriever;
    s.name = "tool messages".to_owned();
    s.content_recorded = true;
    (s.start_ns, s.end_ns) = (llm.start_ns, llm.start_ns);
    s.retrieval = Some(docs);
    Some(Box::new(s))
}

/// The tool calls an LLM call asked for that no tool span of the turn
/// ran under their name (an agent's executor that logs no span of its
/// own, or a turn that ended at the call): one tool span each below the
/// call, its arguments its input, at the time the call finished.
fn asked_for<'a>(
    llm: &'a Span,
    requested: Vec<Requested>,
    run: &'a [String],
) -> impl Iterator<Item = Box<Span>> + 'a {
    let at = llm.end_ns.or(llm.start_ns);
    let unrun = requested.into_iter().filter(|r| !run.contains(&r.name));
    let node = move |(k, r): (usize, Requested)| {
        let id = format!("{}#call{k}", llm.span_id());
        let mut s = blank_span(llm.trace_id().to_owned(), id);
        s.parent_id = Some(ShortId::from(llm.span_id().to_owned()));
        s.kind = SpanKind::Tool;
        s.tool_name = Some(r.name.clone());
        s.name = r.name;
        s.recorded = Recorded::of(r.args, None);
        (s.start_ns, s.end_ns) = (at, at);
        Box::new(s)
    };
    unrun.enumerate().map(node)
}

/// The first non-empty `tool_calls` list in an LLM call's output (OpenAI
/// messages, LangChain `AIMessage`s, their `generations`), searched a few
/// levels deep; LangChain's two spellings of one request are one list.
fn requested_calls(v: &Value, depth: u8) -> Vec<Requested> {
    if depth > 8 {
        return Vec::new();
    }
    let found = |items: &mut dyn Iterator<Item = &Value>| {
        items
            .map(|i| requested_calls(i, depth + 1))
            .find(|c| !c.is_empty())
            .unwrap_or_default()
    };
    match v {
        Value::Object(m) => match m.get("tool_calls") {
            Some(Value::Array(calls)) if !calls.is_empty() => {
                calls.iter().filter_map(requested).collect()
            }
            _ => found(&mut m.values()),
        },
        Value::Array(items) => found(&mut items.iter()),
        _ => Vec::new(),
    }
}

/// One requested call: `name` and `args` (LangChain), or `function.name`
/// and `function.arguments` (OpenAI).
fn requested(call: &Value) -> Option<Requested> {
    let m = call.as_object()?;
    let function = m.get("function").and_then(Value::as_object);
    let name = json::string(m, &["name"]).or_else(|| json::string(function?, &["name"]))?;
    let args = m
        .get("args")
        .or_else(|| function?.get("arguments"))
        .filter(|a| !json::is_blank(a));
    let args = args.map(|a| a.as_str().map_or_else(|| a.to_string(), str::to_owned));
    Some(Requested { name, args })
}

/// The passages of the tool messages in a message list (LangChain nests
/// it in a list per prompt).
fn tool_messages(v: &Value, depth: u8, docs: &mut Vec<Doc>) {
    match v {
        Value::Array(items) if depth < 2 => {
            for i in items {
                tool_messages(i, depth + 1, docs);
            }
        }
        Value::Object(m) => {
            if let Some(msg) = tool_message(m) {
                let mut given = super::adk::passages(msg.get("content").unwrap_or(&Value::Null));
                // One passage is named by the call it answered.
                if let [one] = given.as_mut_slice() {
                    one.chunk_id = one
                        .chunk_id
                        .take()
                        .or_else(|| json::string(msg, &["tool_call_id"]));
                }
                docs.extend(given);
            }
        }
        _ => {}
    }
}

/// A tool message's fields: `{"role": "tool", …}`, or a LangChain
/// `ToolMessage` (serialized: `id` ending in `ToolMessage`, its fields in
/// `kwargs`; or `{"type": "tool", …}`).
fn tool_message(m: &Map<String, Value>) -> Option<&Map<String, Value>> {
    let is = |k: &str, v: &str| m.get(k).and_then(Value::as_str) == Some(v);
    if is("role", "tool") || is("type", "tool") {
        return Some(m);
    }
    let class = m.get("id").and_then(Value::as_array)?.last()?.as_str()?;
    (class == "ToolMessage").then(|| m.get("kwargs")?.as_object())?
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> DocumentRecords {
        let mut out = DocumentRecords::default();
        parse_document(text.as_bytes(), &mut out);
        out
    }

    /// The spans of each turn, by turn id.
    fn turns(out: DocumentRecords) -> Vec<(String, Vec<Span>)> {
        let mut turns: Vec<(String, Vec<Span>)> = Vec::new();
        for (_, r) in out.records {
            let nodes = r.body.downcast::<Nodes>().unwrap().0;
            let nodes = nodes.into_iter().map(|b| *b);
            match turns.iter_mut().find(|(g, _)| *g == *r.group) {
                Some((_, spans)) => spans.extend(nodes),
                None => turns.push((r.group.to_string(), nodes.collect())),
            }
        }
        turns
    }

    #[test]
    fn sniffs_rows_by_their_keys() {
        assert!(sniff(
            b"[{\"id\": \"a\", \"span_attributes\": {}, \"root_span_id\": \"r\"}]"
        ));
        assert!(sniff(
            b"{\"rows\": [{\"_xact_id\": \"1\", \"span_attributes\": {}}]}"
        ));
        assert!(!sniff(b"{\"span_attributes\": {}}"));
        assert!(!sniff(b"span_attributes\" root_span_id\""));
    }

    #[test]
    fn merge_rows_join_their_start_row() {
        let rows = json!([
            {"id": "r1", "span_id": "s1", "root_span_id": "s1", "input": "What is 2+2?",
             "span_attributes": {"name": "task", "type": "task"}, "metrics": {"start": 1700000000}},
            {"id": "r1", "span_id": "s1", "root_span_id": "s1", "_is_merge": true,
             "output": "4", "metrics": {"end": 1700000001}},
        ]);
        let out = read(&rows.to_string());
        assert_eq!(out.records.len(), 2);
        let t = turns(out);
        assert_eq!(t.len(), 1);
        let s = &t[0].1[0];
        assert_eq!(s.output.as_deref(), Some("4"));
        assert_eq!(s.duration_ms(), Some(1000.0));
        assert!(s.start_ns.is_some());
    }

    /// A step that returned a list of search results or documents is a
    /// retrieval, typed as a tool or not typed at all; an answer that is
    /// an object with its sources stays the step's reply.
    #[test]
    fn steps_that_return_results_are_retrievals() {
        let results = json!([{"url": "https://x.test/a", "title": "A", "content": "fact"}]);
        let rows = json!([
            {"span_id": "r", "root_span_id": "r", "input": "Q?",
             "span_attributes": {"name": "agent", "type": "task"}},
            {"span_id": "t", "root_span_id": "r", "span_parents": ["r"],
             "span_attributes": {"name": "web_search", "type": "tool"}, "output": results},
            {"span_id": "f", "root_span_id": "r", "span_parents": ["r"],
             "span_attributes": {"name": "lookup", "type": "function"},
             "output": [{"id": "d1", "page_content": "text"}]},
            {"span_id": "g", "root_span_id": "r", "span_parents": ["r"],
             "span_attributes": {"name": "queries", "type": "function"},
             "output": ["first query", "second query"]},
            {"span_id": "r", "_is_merge": true,
             "output": {"answer": "It is A.", "sources": results}},
        ]);
        let t = turns(read(&rows.to_string()));
        let span = |id: &str| t[0].1.iter().find(|s| s.span_id() == id).unwrap();
        let ids = |id: &str| -> Vec<String> {
            let docs = span(id).retrieval.as_ref().expect(id);
            docs.iter().map(|d| d.chunk_id.clone().unwrap()).collect()
        };
        assert_eq!(ids("t"), ["https://x.test/a"]);
        assert_eq!(ids("f"), ["d1"]);
        assert!(span("g").retrieval.is_none());
        assert!(span("r").retrieval.is_none());
        assert_eq!(span("r").output.as_deref(), Some("It is A."));
    }

    /// The calls a model asked for are tool calls when no tool span of
    /// their name ran; one that ran is counted once, as its span.
    #[test]
    fn calls_the_model_asked_for_are_tool_calls() {
        let asked = |calls: Value| {
            json!({"generations": [[{"text": "", "message": {"kwargs": {"content": "",
                "additional_kwargs": {"tool_calls": [{"function": {"name": "x", "arguments": "{}"}}]},
                "tool_calls": calls}}}]]})
        };
        let rows = json!([
            {"span_id": "r", "root_span_id": "r", "input": "Q?"},
            {"span_id": "l", "root_span_id": "r", "span_parents": ["r"],
             "span_attributes": {"type": "llm"}, "metrics": {"end": 1700000001},
             "output": asked(json!([{"name": "get_weather", "args": {"city": "Paris"}},
                 {"name": "search", "args": {"q": "a"}}]))},
            {"span_id": "s", "root_span_id": "r", "span_parents": ["r"],
             "span_attributes": {"name": "search", "type": "tool"}, "output": "found"},
            {"span_id": "m", "root_span_id": "m", "span_attributes": {"type": "llm"},
             "input": [{"role": "user", "content": "Q2"}],
             "output": {"choices": [{"message": {"role": "assistant", "content": null,
                 "tool_calls": [{"id": "c1", "type": "function",
                     "function": {"name": "lookup", "arguments": "{\"id\": 7}"}}]}}]}},
        ]);
        let t = turns(read(&rows.to_string()));
        let tools = |k: usize| -> Vec<(String, Option<String>)> {
            let tools = t[k].1.iter().filter(|s| s.kind == SpanKind::Tool);
            let input = |s: &Span| s.recorded.as_ref().and_then(|r| r.input.clone());
            tools.map(|s| (s.name.clone(), input(s))).collect()
        };
        let weather = (
            "get_weather".to_owned(),
            Some(r#"{"city":"Paris"}"#.to_owned()),
        );
        assert_eq!(tools(0), [weather, ("search".to_owned(), None)]);
        let weather_call = t[0].1.iter().find(|s| s.name == "get_weather").unwrap();
        assert_eq!(weather_call.parent_id.as_deref(), Some("l"));
        assert_eq!(
            weather_call.start_ns,
            t[0].1.iter().find(|s| s.span_id() == "l").unwrap().end_ns
        );
        assert_eq!(
            tools(1),
            [("lookup".to_owned(), Some(r#"{"id": 7}"#.to_owned()))]
        );
    }

    #[test]
    fn a_silent_root_splits_into_its_children() {
        let rows = json!([
            {"span_id": "w", "root_span_id": "w", "span_attributes": {"name": "wrapper"}},
            {"span_id": "a", "root_span_id": "w", "span_parents": ["w"]},
            {"span_id": "a1", "root_span_id": "w", "span_parents": ["a"],
             "span_attributes": {"type": "llm"},
             "input": [{"role": "user", "content": "Q1"}]},
            {"span_id": "a1", "_is_merge": true, "output": [{"message": {"role": "assistant", "content": "A1"}}]},
            {"span_id": "b", "root_span_id": "w", "span_parents": ["w"], "input": "Q2", "output": "A2"},
        ]);
        let out = read(&rows.to_string());
        assert_eq!(out.skipped, 1, "the wrapper's row");
        let t = turns(out);
        let ids: Vec<&str> = t.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);
        // The silent head takes its only child's reply.
        let head = t[0].1.iter().find(|s| s.span_id() == "a").unwrap();
        assert!(head.parent_id.is_none());
        assert_eq!(head.output.as_deref(), Some("A1"));
    }

    #[test]
    fn a_request_recording_reads_each_body_once() {
        let body = json!({"api_version": 2, "rows": [
            {"span_id": "s", "root_span_id": "s", "input": "Q", "output": "A"}]});
        let reqs = json!([
            {"method": "POST", "path": "/api/apikey/login", "jsonBody": null, "rawBody": null},
            {"method": "POST", "path": "/logs3", "jsonBody": body, "rawBody": body},
            {"method": "POST", "path": "/logs3", "jsonBody": null, "rawBody": body.to_string()},
        ]);
        let out = read(&reqs.to_string());
        assert_eq!(out.records.len(), 2, "one row in each of two bodies");
        assert_eq!(out.skipped, 1);
        assert_eq!(turns(out).len(), 1);
    }

    #[test]
    fn a_trace_with_nothing_said_is_no_turn() {
        let rows = json!([
            {"span_id": "p", "root_span_id": "p", "input": {"phase": "parent", "run": "x"},
             "output": {"ok": true}},
            {"span_id": "c", "root_span_id": "p", "span_parents": ["p"], "output": {"depth": 3}},
        ]);
        let out = read(&rows.to_string());
        assert!(out.records.is_empty());
        assert_eq!(out.skipped, 2);
        let bad = read("{\"name\": \"x\"}");
        assert_eq!(bad.invalid.len(), 1);
    }

    #[test]
    fn tool_messages_are_what_the_call_was_given() {
        let input = json!([[
            {"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "HumanMessage"],
             "kwargs": {"content": "What is 127 times 49?"}},
            {"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "ToolMessage"],
             "kwargs": {"content": "6223", "tool_call_id": "c1"}},
        ]]);
        let mut s = blank_span("t".to_owned(), "l".to_owned());
        s.kind = SpanKind::Llm;
        read_input(&mut s, Some(&input));
        let r = tool_results(&s).unwrap();
        assert_eq!(r.parent_id.as_deref(), Some("l"));
        let docs = r.retrieval.unwrap();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].content.as_deref(), Some("6223"));
        assert_eq!(docs[0].chunk_id.as_deref(), Some("c1"));
        let openai = json!([{"role": "tool", "content": "result text"}]);
        let mut docs = Vec::new();
        tool_messages(&openai, 0, &mut docs);
        assert_eq!(docs.len(), 1);
    }
}

//! The mapped dialect: turn lines of any shape, read through a field map.
//!
//! `--map FIELD=POINTER` (repeatable) and `--map-file FILE` say where each
//! turn field lives, as JSON Pointers (RFC 6901). Fields not mapped stay
//! where the native turn log has them, so `--map reply=/answer` alone reads
//! a log that only renamed its reply.
//!
//! The hot path never builds a `serde_json::Value`: the pointers are compiled
//! into a small trie, and one streaming pass over the line follows only the
//! keys (and array indexes) on a mapped path, keeping each mapped value as a
//! borrowed raw JSON slice and skipping everything else. Chunk and tool
//! arrays are walked element by element with their own tries. The types are
//! then checked with the native log's rules and words.
//!
//! A map is made once per run and leaked to `'static`, like the built-in
//! dialects; it is not in [`super::DIALECTS`] because it needs its map. The
//! engine reads every source that would be read as the native log through
//! it. Each explicitly mapped pointer remembers whether it ever resolved, so
//! a pointer that points at nothing on every line is an error naming it
//! ([`Mapped::unresolved`]), never a silent null.

use super::{Parsed, Record};
use crate::markers::Grammar;
use crate::messages::Warnings;
use crate::model::{Answer, Chunk, Id, Reply, Turn, Unobserved, decode_json_string};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// The turn fields a map can place, with their native pointers. The order
/// is the order of the capture slots.
pub const TURN_FIELDS: [(&str, &str); 13] = [
    ("turn_id", "/turn_id"),
    ("agent_id", "/agent_id"),
    ("conversation_id", "/conversation_id"),
    ("channel", "/channel"),
    ("created_at", "/created_at"),
    ("reply", "/reply"),
    ("chunks", "/grounding/chunks"),
    ("citations", "/grounding/citations"),
    ("tools", "/grounding/tools"),
    ("model", "/grounding/model"),
    ("tokens_used", "/grounding/tokens_used"),
    ("cost_cents", "/grounding/cost_cents"),
    ("latency_ms", "/grounding/latency_ms"),
];

/// Fields of one chunk, relative to the chunk (`chunk.id=/chunk_id`).
pub const CHUNK_FIELDS: [(&str, &str); 4] = [
    ("id", "/chunk_id"),
    ("document_id", "/document_id"),
    ("score", "/score"),
    ("content", "/content"),
];

/// Fields of one tool call, relative to the call (`tool.status=/status`).
pub const TOOL_FIELDS: [(&str, &str); 2] = [("name", "/name"), ("status", "/status")];

const TURN_ID: usize = 0;
const AGENT_ID: usize = 1;
const CONVERSATION_ID: usize = 2;
const CHANNEL: usize = 3;
const CREATED_AT: usize = 4;
const REPLY: usize = 5;
const CHUNKS: usize = 6;
const CITATIONS: usize = 7;
const TOOLS: usize = 8;
const MODEL: usize = 9;
const TOKENS: usize = 10;
const COST: usize = 11;
const LATENCY: usize = 12;
const N_TOP: usize = TURN_FIELDS.len();

const C_ID: usize = 0;
const C_DOC: usize = 1;
const C_SCORE: usize = 2;
const N_CHUNK: usize = CHUNK_FIELDS.len();
const T_STATUS: usize = 1;
const N_TOOL: usize = TOOL_FIELDS.len();

/// Where each field lives: a pointer per field, and which ones the user
/// gave (only those must resolve somewhere).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldMap {
    pub turn: [String; N_TOP],
    pub chunk: [String; N_CHUNK],
    pub tool: [String; N_TOOL],
    /// (`chunk.id`-style name, pointer) of every field the user mapped, in
    /// the order given (a later mapping of the same field replaces it).
    pub explicit: Vec<(String, String)>,
}

impl Default for FieldMap {
    fn default() -> Self {
        FieldMap {
            turn: TURN_FIELDS.map(|(_, p)| p.to_owned()),
            chunk: CHUNK_FIELDS.map(|(_, p)| p.to_owned()),
            tool: TOOL_FIELDS.map(|(_, p)| p.to_owned()),
            explicit: Vec::new(),
        }
    }
}

/// Every name `--map` accepts, for messages.
pub fn field_names() -> String {
    let mut names: Vec<String> = TURN_FIELDS.iter().map(|(n, _)| (*n).to_owned()).collect();
    names.extend(CHUNK_FIELDS.iter().map(|(n, _)| format!("chunk.{n}")));
    names.extend(TOOL_FIELDS.iter().map(|(n, _)| format!("tool.{n}")));
    names.join(", ")
}

impl FieldMap {
    /// Places `field` at `pointer`. The field is a turn field, `chunk.F` or
    /// `tool.F`; the pointer must be a JSON Pointer (`/a/b/0`).
    pub fn set(&mut self, field: &str, pointer: &str) -> Result<(), String> {
        parse_pointer(pointer).map_err(|e| format!("--map {field}={pointer}: {e}"))?;
        let slot = if let Some(f) = field.strip_prefix("chunk.") {
            CHUNK_FIELDS
                .iter()
                .position(|(n, _)| *n == f)
                .map(|i| &mut self.chunk[i])
        } else if let Some(f) = field.strip_prefix("tool.") {
            TOOL_FIELDS
                .iter()
                .position(|(n, _)| *n == f)
                .map(|i| &mut self.tool[i])
        } else {
            TURN_FIELDS
                .iter()
                .position(|(n, _)| *n == field)
                .map(|i| &mut self.turn[i])
        };
        let Some(slot) = slot else {
            return Err(format!(
                "--map {field}={pointer}: unknown field `{field}` (one of {})",
                field_names()
            ));
        };
        *slot = pointer.to_owned();
        self.explicit.retain(|(f, _)| f != field);
        self.explicit.push((field.to_owned(), pointer.to_owned()));
        Ok(())
    }

    /// Applies one `FIELD=POINTER` argument.
    pub fn set_arg(&mut self, arg: &str) -> Result<(), String> {
        let (field, pointer) = arg
            .split_once('=')
            .ok_or_else(|| format!("--map {arg}: expected FIELD=POINTER, e.g. reply=/answer"))?;
        self.set(field.trim(), pointer.trim())
    }

    /// Reads a map file: JSON (an object of `"field": "/pointer"`, with
    /// `"chunk"` and `"tool"` objects or dotted names) or a small TOML
    /// (`field = "/pointer"` lines, `[chunk]`/`[tool]` tables or dotted
    /// keys, `#` comments).
    pub fn read_file(&mut self, text: &str) -> Result<(), String> {
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        let pairs = if trimmed.starts_with('{') {
            json_pairs(trimmed)?
        } else {
            toml_pairs(trimmed)?
        };
        for (field, pointer) in pairs {
            self.set(&field, &pointer)?;
        }
        Ok(())
    }

    /// True when nothing was mapped.
    pub fn is_empty(&self) -> bool {
        self.explicit.is_empty()
    }
}

fn json_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let mut out = Vec::new();
    let obj = v.as_object().ok_or("expected a JSON object")?;
    for (k, v) in obj {
        match v {
            serde_json::Value::String(p) => out.push((k.clone(), p.clone())),
            serde_json::Value::Object(inner) if k == "chunk" || k == "tool" => {
                for (f, p) in inner {
                    let p = p
                        .as_str()
                        .ok_or_else(|| format!("`{k}.{f}`: expected a pointer string"))?;
                    out.push((format!("{k}.{f}"), p.to_owned()));
                }
            }
            _ => return Err(format!("`{k}`: expected a pointer string")),
        }
    }
    Ok(out)
}

fn toml_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut table = String::new();
    for (n, raw) in text.lines().enumerate() {
        let line = strip_toml_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let at = || format!("line {}", n + 1);
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.trim().trim_matches('"').to_owned();
            if !matches!(table.as_str(), "chunk" | "tool" | "map" | "turn") {
                return Err(format!(
                    "{}: unknown table [{table}] (use [chunk], [tool] or none)",
                    at()
                ));
            }
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("{}: expected `field = \"/pointer\"`", at()))?;
        let key = key.trim().trim_matches('"');
        let value = value.trim();
        let value = serde_json::from_str::<String>(value)
            .or_else(|_| {
                value
                    .strip_prefix('\'')
                    .and_then(|v| v.strip_suffix('\''))
                    .map(str::to_owned)
                    .ok_or(())
            })
            .map_err(|()| format!("{}: the pointer must be a quoted string", at()))?;
        let field = match table.as_str() {
            "chunk" | "tool" => format!("{table}.{key}"),
            _ => key.to_owned(),
        };
        out.push((field, value));
    }
    Ok(out)
}

/// A `#` starts a comment unless it is inside a quoted string.
fn strip_toml_comment(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The reference tokens of a JSON Pointer: `/a~1b/0` → `["a/b", "0"]`.
pub fn parse_pointer(p: &str) -> Result<Vec<String>, String> {
    let Some(rest) = p.strip_prefix('/') else {
        return Err(if p.is_empty() {
            "the empty pointer names the whole line, not a field".to_owned()
        } else {
            format!("`{p}` is not a JSON Pointer (it must start with `/`, e.g. /answer)")
        });
    };
    rest.split('/')
        .map(|t| {
            if t.contains('~') {
                let ok = t
                    .match_indices('~')
                    .all(|(i, _)| matches!(t.as_bytes().get(i + 1), Some(b'0' | b'1')));
                if !ok {
                    return Err(format!("`{p}`: `~` must be followed by 0 or 1"));
                }
                Ok(t.replace("~1", "/").replace("~0", "~"))
            } else {
                Ok(t.to_owned())
            }
        })
        .collect()
}

/// What a mapped path leads to.
#[derive(Debug)]
enum Leaf {
    /// A raw value kept in this capture slot.
    Raw(usize),
    /// The chunks array: each element read with the chunk trie.
    Chunks,
    /// The tools array: each element read with the tool trie.
    Tools,
}

/// A trie of reference tokens.
#[derive(Debug, Default)]
struct Node {
    children: Vec<Child>,
    leaf: Option<Leaf>,
}

#[derive(Debug)]
struct Child {
    key: String,
    /// The token as an array index, when it is one.
    index: Option<usize>,
    node: Node,
}

impl Node {
    fn insert(&mut self, tokens: &[String], leaf: Leaf, name: &str) -> Result<(), String> {
        if self.leaf.is_some() {
            return Err(format!(
                "the pointer of `{name}` runs inside another field's"
            ));
        }
        let Some((first, rest)) = tokens.split_first() else {
            if !self.children.is_empty() {
                return Err(format!("another field's pointer runs inside `{name}`'s"));
            }
            self.leaf = Some(leaf);
            return Ok(());
        };
        let i = match self.children.iter().position(|c| &c.key == first) {
            Some(i) => i,
            None => {
                let index = (first == "0" || !first.starts_with('0'))
                    .then(|| first.parse().ok())
                    .flatten();
                self.children.push(Child {
                    key: first.clone(),
                    index,
                    node: Node::default(),
                });
                self.children.len() - 1
            }
        };
        self.children[i].node.insert(rest, leaf, name)
    }

    fn child(&self, key: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.key == key).map(|c| &c.node)
    }

    fn at_index(&self, i: usize) -> Option<&Node> {
        self.children
            .iter()
            .find(|c| c.index == Some(i))
            .map(|c| &c.node)
    }
}

/// The mapped dialect: a compiled field map.
pub struct Mapped {
    map: FieldMap,
    top: Node,
    chunk: Node,
    tool: Node,
    /// For each explicit mapping, whether it ever resolved; and whether any
    /// line was read through the map at all.
    seen: Vec<AtomicBool>,
    used: AtomicBool,
    /// Positions of each explicit mapping: (kind 0 turn / 1 chunk / 2 tool, slot).
    explicit_slots: Vec<(u8, usize)>,
}

impl fmt::Debug for Mapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mapped").field("map", &self.map).finish()
    }
}

impl Mapped {
    /// Compiles a map. Pointers must not nest inside one another.
    pub fn new(map: FieldMap) -> Result<Mapped, String> {
        let mut top = Node::default();
        for (i, (name, _)) in TURN_FIELDS.iter().enumerate() {
            let leaf = match i {
                CHUNKS => Leaf::Chunks,
                TOOLS => Leaf::Tools,
                _ => Leaf::Raw(i),
            };
            top.insert(&parse_pointer(&map.turn[i])?, leaf, name)
                .map_err(|e| format!("--map: {e}"))?;
        }
        let mut chunk = Node::default();
        for (i, (name, _)) in CHUNK_FIELDS.iter().enumerate() {
            chunk
                .insert(&parse_pointer(&map.chunk[i])?, Leaf::Raw(i), name)
                .map_err(|e| format!("--map: {e}"))?;
        }
        let mut tool = Node::default();
        for (i, (name, _)) in TOOL_FIELDS.iter().enumerate() {
            tool.insert(&parse_pointer(&map.tool[i])?, Leaf::Raw(i), name)
                .map_err(|e| format!("--map: {e}"))?;
        }
        let explicit_slots = map
            .explicit
            .iter()
            .map(|(f, _)| {
                if let Some(c) = f.strip_prefix("chunk.") {
                    (
                        1,
                        CHUNK_FIELDS.iter().position(|(n, _)| *n == c).unwrap_or(0),
                    )
                } else if let Some(t) = f.strip_prefix("tool.") {
                    (
                        2,
                        TOOL_FIELDS.iter().position(|(n, _)| *n == t).unwrap_or(0),
                    )
                } else {
                    (
                        0,
                        TURN_FIELDS.iter().position(|(n, _)| *n == f).unwrap_or(0),
                    )
                }
            })
            .collect();
        Ok(Mapped {
            seen: map
                .explicit
                .iter()
                .map(|_| AtomicBool::new(false))
                .collect(),
            used: AtomicBool::new(false),
            explicit_slots,
            map,
            top,
            chunk,
            tool,
        })
    }

    /// The map it reads with.
    pub fn map(&self) -> &FieldMap {
        &self.map
    }

    /// `field=pointer` of every explicit mapping that resolved on no line
    /// read through the map (empty when no line was).
    pub fn unresolved(&self) -> Vec<String> {
        self.resolution().unwrap_or_default()
    }

    /// As [`Mapped::unresolved`], but None when no line was read through the
    /// map: a partition without such lines says nothing about the mappings.
    pub fn resolution(&self) -> Option<Vec<String>> {
        if !self.used.load(Ordering::Relaxed) {
            return None;
        }
        let unresolved = self
            .map
            .explicit
            .iter()
            .zip(&self.seen)
            .filter(|(_, s)| !s.load(Ordering::Relaxed))
            .map(|((f, p), _)| format!("{f}={p}"))
            .collect();
        Some(unresolved)
    }

    /// Notes which explicit mappings resolved on this line. Loads first, so
    /// once every flag is set the hot path only reads shared memory.
    fn note_seen(&self, caps: &Caps<'_>) {
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
        for (flag, &(kind, slot)) in self.seen.iter().zip(&self.explicit_slots) {
            if flag.load(Ordering::Relaxed) {
                continue;
            }
            let found = match kind {
                0 => match slot {
                    CHUNKS => caps.chunks.is_some(),
                    TOOLS => caps.tools.is_some(),
                    _ => caps.top[slot].is_some(),
                },
                1 => caps.chunk_seen[slot],
                _ => caps.tool_seen[slot],
            };
            if found {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Reads one line into a turn.
    pub fn parse<'a>(&self, line: &'a str, warnings: &mut Warnings) -> Parsed<'a> {
        if line.bytes().find(|b| !b.is_ascii_whitespace()) != Some(b'{') {
            let reason = if serde_json::from_str::<IgnoredAny>(line).is_ok() {
                "not a JSON object"
            } else {
                "not valid JSON"
            };
            return Parsed::Invalid(reason.to_owned());
        }
        let mut caps = Caps::default();
        let mut de = serde_json::Deserializer::from_str(line);
        let walked = Walk {
            node: &self.top,
            dialect: self,
            caps: &mut caps,
        }
        .deserialize(&mut de)
        .and_then(|()| de.end());
        if let Err(e) = walked {
            return Parsed::Invalid(super::redact_reason(&format!(
                "not valid JSON: {}",
                e.to_string()
                    .rsplit_once(" at line ")
                    .map_or(e.to_string(), |(b, _)| b.to_owned())
            )));
        }
        self.note_seen(&caps);
        match self.build(caps, warnings) {
            Ok(t) => Parsed::Turn(t),
            Err(r) => Parsed::Invalid(super::cap_reason(r)),
        }
    }

    /// How a field is named in reasons: `reply` at its native place, or
    /// `reply (/answer)` when mapped elsewhere.
    fn name(&self, i: usize) -> String {
        let (n, native) = TURN_FIELDS[i];
        if self.map.turn[i] == native {
            n.to_owned()
        } else {
            format!("{n} ({})", self.map.turn[i])
        }
    }

    fn build<'a>(&self, caps: Caps<'a>, warnings: &mut Warnings) -> Result<Turn<'a>, String> {
        let top = &caps.top;
        let missing: Vec<String> = [TURN_ID, AGENT_ID, CREATED_AT]
            .into_iter()
            .filter(|&i| top[i].is_none_or(|r| r.get() == "null"))
            .map(|i| format!("`{}`", self.name(i)))
            .collect();
        if !missing.is_empty() {
            let s = if missing.len() > 1 { "s" } else { "" };
            return Err(format!("missing field{s} {}", missing.join(", ")));
        }
        let wrong = |i: usize, expected: &str, found: &str| {
            format!(
                "field `{}`: expected {expected}, found {found}",
                self.name(i)
            )
        };
        let raw = |i: usize| top[i].map(RawValue::get).filter(|r| *r != "null");
        let turn_id = as_id(raw(TURN_ID).unwrap_or("null"))
            .map_err(|f| wrong(TURN_ID, "a string or an integer", f))?;
        let agent_id =
            as_str(raw(AGENT_ID).unwrap_or("null")).map_err(|f| wrong(AGENT_ID, "a string", f))?;
        let created_at = as_time(raw(CREATED_AT).unwrap_or("null"))
            .map_err(|e| e.unwrap_or_else(|f| wrong(CREATED_AT, "a string or a number", f)))?;
        let chunks = match caps.chunks {
            None => Vec::new(),
            Some(Err(found)) => return Err(wrong(CHUNKS, "an array", found)),
            Some(Ok(list)) => {
                let mut out = Vec::with_capacity(list.len());
                for (k, c) in list.into_iter().enumerate() {
                    out.push(self.chunk(c, k + 1)?);
                }
                out
            }
        };
        let answer = match raw(REPLY) {
            Some(r) if r.starts_with('"') => Answer::Reply(Reply::Json(r)),
            Some(r) => return Err(wrong(REPLY, "a string or null", kind_of(r))),
            None => match raw(CITATIONS) {
                Some(r) if r.starts_with('[') => {
                    let list: Vec<&RawValue> = serde_json::from_str(r).unwrap_or_default();
                    Answer::Citations(list.iter().map(|c| citation(c.get())).collect())
                }
                Some(r) => return Err(wrong(CITATIONS, "an array", kind_of(r))),
                None => Answer::Unobserved(Unobserved::NoReply),
            },
        };
        let mut drop = |i: usize, expected: &str| {
            let field = TURN_FIELDS[i].0;
            warnings.add("dropped_field", field, "turn", 1, || {
                format!("field `{field}` is not {expected}; dropped")
            });
        };
        let conversation_id = match raw(CONVERSATION_ID).map(as_id) {
            Some(Ok(id)) => Some(id),
            Some(Err(_)) => {
                drop(CONVERSATION_ID, "a string or an integer");
                None
            }
            None => None,
        };
        let channel = match raw(CHANNEL).map(as_str) {
            Some(Ok(c)) => c,
            Some(Err(_)) => {
                drop(CHANNEL, "a string");
                Cow::Borrowed("chat")
            }
            None => Cow::Borrowed("chat"),
        };
        let model = match raw(MODEL).map(as_str) {
            Some(Ok(m)) => Some(m),
            Some(Err(_)) => {
                drop(MODEL, "a string");
                None
            }
            None => None,
        };
        let mut number = |i: usize| match raw(i).map(as_number) {
            Some(Some(n)) => Some(n),
            Some(None) => {
                drop(i, "a number");
                None
            }
            None => None,
        };
        let cost_cents = number(COST);
        let latency_ms = number(LATENCY);
        let tokens_used = match raw(TOKENS).map(|r| r.parse::<u64>().ok()) {
            Some(Some(n)) => Some(n),
            Some(None) => {
                drop(TOKENS, "a whole number, 0 or more");
                None
            }
            None => None,
        };
        let (tool_calls, tool_errors) = match caps.tools {
            Some(Ok(t)) => (t.calls, t.errors),
            Some(Err(_)) => {
                drop(TOOLS, "an array of objects");
                (0, 0)
            }
            None => (0, 0),
        };
        Ok(Turn {
            turn_id,
            agent_id,
            conversation_id,
            channel,
            created_at,
            answer,
            chunks,
            tool_calls,
            tool_errors,
            model,
            tokens_used,
            cost_cents,
            latency_ms,
        })
    }

    fn chunk<'a>(&self, c: ChunkCaps<'a>, index: usize) -> Result<Chunk<'a>, String> {
        let name = |i: usize| {
            let (n, native) = CHUNK_FIELDS[i];
            let field = TURN_FIELDS[CHUNKS].0;
            if self.map.chunk[i] == native {
                format!("{field}[].{n}")
            } else {
                format!("{field}[].{n} ({})", self.map.chunk[i])
            }
        };
        let Some(fields) = c else {
            return Err(format!(
                "field `{}[]`: expected an object, found something else",
                self.name(CHUNKS)
            ));
        };
        let raw = |i: usize| fields[i].map(RawValue::get).filter(|r| *r != "null");
        let id = |i: usize| {
            raw(i).map(as_id).transpose().map_err(|f| {
                format!(
                    "field `{}`: expected a string or an integer, found {f}",
                    name(i)
                )
            })
        };
        Ok(Chunk {
            index: u32::try_from(index).unwrap_or(u32::MAX),
            chunk_id: id(C_ID)?,
            document_id: id(C_DOC)?,
            score: match raw(C_SCORE) {
                None => None,
                Some(r) => Some(as_number(r).ok_or_else(|| {
                    format!(
                        "field `{}`: expected a number or null, found {}",
                        name(C_SCORE),
                        kind_of(r)
                    )
                })?),
            },
        })
    }
}

impl super::Dialect for Mapped {
    fn name(&self) -> &'static str {
        "mapped"
    }
    fn about(&self) -> &'static str {
        "Turn lines of any shape, read through --map / --map-file"
    }
    fn sniff(&self, _first: &[u8]) -> bool {
        false
    }
    fn grammar(&self) -> Grammar {
        Grammar::default()
    }
    fn parse_line<'a>(
        &self,
        line: &'a str,
        _out: &mut Vec<Record>,
        warnings: &mut Warnings,
    ) -> Parsed<'a> {
        self.parse(line, warnings)
    }
}

/// One chunk's captured fields; None when the element was not an object.
type ChunkCaps<'a> = Option<[Option<&'a RawValue>; N_CHUNK]>;

/// Tool calls: how many, and how many failed.
#[derive(Default)]
struct ToolCount {
    calls: u32,
    errors: u32,
}

/// What one pass over a line kept.
#[derive(Default)]
struct Caps<'a> {
    top: [Option<&'a RawValue>; N_TOP],
    chunks: Option<Result<Vec<ChunkCaps<'a>>, &'static str>>,
    tools: Option<Result<ToolCount, &'static str>>,
    chunk_seen: [bool; N_CHUNK],
    tool_seen: [bool; N_TOOL],
}

/// Follows the trie through one JSON value.
struct Walk<'n, 'c, 'a> {
    node: &'n Node,
    dialect: &'n Mapped,
    caps: &'c mut Caps<'a>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// An object key, borrowed unless it has escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// What to do with the value at a node: keep it raw, walk an array of
/// chunks or tools, or go deeper.
impl<'de> Walk<'_, '_, 'de> {
    fn value<A: MapAccess<'de>>(&mut self, node: &Node, map: &mut A) -> Result<(), A::Error> {
        match &node.leaf {
            Some(Leaf::Raw(slot)) => self.caps.top[*slot] = Some(map.next_value()?),
            Some(Leaf::Chunks) => {
                let v = map.next_value_seed(Each {
                    dialect: self.dialect,
                    tools: false,
                    caps: self.caps,
                })?;
                self.caps.chunks = Some(v.chunks);
            }
            Some(Leaf::Tools) => {
                let v = map.next_value_seed(Each {
                    dialect: self.dialect,
                    tools: true,
                    caps: self.caps,
                })?;
                self.caps.tools = Some(v.tools);
            }
            None => map.next_value_seed(Walk {
                node,
                dialect: self.dialect,
                caps: self.caps,
            })?,
        }
        Ok(())
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match self.node.child(&key.0) {
                Some(node) => self.value(node, &mut map)?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let found = match self.node.at_index(i) {
                // An element on a mapped path: a leaf here would need its
                // own slot handling; arrays are walked, not captured whole.
                Some(node) if node.leaf.is_none() => seq
                    .next_element_seed(Walk {
                        node,
                        dialect: self.dialect,
                        caps: self.caps,
                    })?
                    .is_some(),
                Some(node) => seq
                    .next_element_seed(Indexed {
                        node,
                        dialect: self.dialect,
                        caps: self.caps,
                    })?
                    .is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !found {
                return Ok(());
            }
            i += 1;
        }
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// An array element that is itself a mapped leaf (`/choices/0`).
struct Indexed<'n, 'c, 'a> {
    node: &'n Node,
    dialect: &'n Mapped,
    caps: &'c mut Caps<'a>,
}

impl<'de> DeserializeSeed<'de> for Indexed<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        match &self.node.leaf {
            Some(Leaf::Raw(slot)) => {
                self.caps.top[*slot] = Some(<&'de RawValue as de::Deserialize>::deserialize(d)?)
            }
            Some(Leaf::Chunks) => {
                let v = Each {
                    dialect: self.dialect,
                    tools: false,
                    caps: self.caps,
                }
                .deserialize(d)?;
                self.caps.chunks = Some(v.chunks);
            }
            Some(Leaf::Tools) => {
                let v = Each {
                    dialect: self.dialect,
                    tools: true,
                    caps: self.caps,
                }
                .deserialize(d)?;
                self.caps.tools = Some(v.tools);
            }
            None => {}
        }
        Ok(())
    }
}

/// Walks the chunks (or tools) array, each element with its own trie.
struct Each<'n, 'c, 'a> {
    dialect: &'n Mapped,
    tools: bool,
    caps: &'c mut Caps<'a>,
}

/// The chunks or the tool count of one array, or the type found instead.
struct EachOut<'a> {
    chunks: Result<Vec<ChunkCaps<'a>>, &'static str>,
    tools: Result<ToolCount, &'static str>,
}

impl<'a> EachOut<'a> {
    fn wrong(found: &'static str) -> Self {
        EachOut {
            chunks: Err(found),
            tools: Err(found),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Each<'_, '_, 'de> {
    type Value = EachOut<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Each<'_, '_, 'de> {
    type Value = EachOut<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut chunks = Vec::with_capacity(8);
        let mut tools = ToolCount::default();
        let mut all_objects = true;
        let trie = if self.tools {
            &self.dialect.tool
        } else {
            &self.dialect.chunk
        };
        loop {
            let mut fields: [Option<&'de RawValue>; N_CHUNK] = [None; N_CHUNK];
            let Some(is_object) = seq.next_element_seed(Element {
                node: trie,
                fields: &mut fields,
            })?
            else {
                break;
            };
            if self.tools {
                if is_object {
                    for (k, f) in fields.iter().take(N_TOOL).enumerate() {
                        self.caps.tool_seen[k] |= f.is_some();
                    }
                    tools.calls = tools.calls.saturating_add(1);
                    let ok = match fields[T_STATUS].map(RawValue::get) {
                        Some(s) if s.starts_with('"') => {
                            crate::dialect::native::tool_status_ok(&decode_json_string(s))
                        }
                        _ => true,
                    };
                    tools.errors = tools.errors.saturating_add(u32::from(!ok));
                } else {
                    all_objects = false;
                }
            } else {
                for (k, f) in fields.iter().enumerate() {
                    self.caps.chunk_seen[k] |= f.is_some();
                }
                chunks.push(is_object.then_some(fields));
            }
        }
        Ok(EachOut {
            chunks: Ok(chunks),
            tools: if all_objects {
                Ok(tools)
            } else {
                Err("an array holding something other than objects")
            },
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(EachOut::wrong("an object"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(EachOut::wrong("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(EachOut::wrong("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(EachOut::wrong("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(EachOut::wrong("a number"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(EachOut::wrong("a string"))
    }
    /// null: as if absent.
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(EachOut {
            chunks: Ok(Vec::new()),
            tools: Ok(ToolCount::default()),
        })
    }
}

/// One element of a chunks or tools array: its mapped fields; true when it
/// was an object.
struct Element<'n, 'f, 'a> {
    node: &'n Node,
    fields: &'f mut [Option<&'a RawValue>; N_CHUNK],
}

impl<'de> DeserializeSeed<'de> for Element<'_, '_, 'de> {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Element<'_, '_, 'de> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while let Some(key) = map.next_key::<Key<'de>>()? {
            match self.node.child(&key.0) {
                Some(node) => match node.leaf {
                    Some(Leaf::Raw(slot)) => self.fields[slot] = Some(map.next_value()?),
                    _ => {
                        map.next_value_seed(Element {
                            node,
                            fields: self.fields,
                        })?;
                    }
                },
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(true)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let mut i = 0;
        loop {
            let more = match self.node.at_index(i) {
                Some(node) => match node.leaf {
                    Some(Leaf::Raw(slot)) => match seq.next_element::<&'de RawValue>()? {
                        Some(v) => {
                            self.fields[slot] = Some(v);
                            true
                        }
                        None => false,
                    },
                    _ => seq
                        .next_element_seed(Element {
                            node,
                            fields: self.fields,
                        })?
                        .is_some(),
                },
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                return Ok(false);
            }
            i += 1;
        }
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
}

/// What a raw JSON value is, for messages.
fn kind_of(raw: &str) -> &'static str {
    match raw.as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

fn as_str(raw: &str) -> Result<Cow<'_, str>, &'static str> {
    if raw.starts_with('"') {
        Ok(decode_json_string(raw))
    } else {
        Err(kind_of(raw))
    }
}

fn as_id(raw: &str) -> Result<Id<'_>, &'static str> {
    if raw.starts_with('"') {
        return Ok(Id::string(decode_json_string(raw)));
    }
    if raw.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        if raw.parse::<i64>().is_ok() || raw.parse::<u64>().is_ok() {
            return Ok(Id {
                text: Cow::Borrowed(raw),
                numeric: true,
            });
        }
        return Err("a fractional or too large number");
    }
    Err(kind_of(raw))
}

fn as_number(raw: &str) -> Option<f64> {
    if raw.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        raw.parse::<f64>().ok().filter(|x| x.is_finite())
    } else {
        None
    }
}

fn citation(raw: &str) -> crate::model::CitationIndex {
    if raw.starts_with('{') {
        #[derive(serde::Deserialize)]
        struct IndexOnly<'a> {
            #[serde(borrow, default)]
            index: Option<&'a RawValue>,
        }
        match serde_json::from_str::<IndexOnly<'_>>(raw) {
            Ok(IndexOnly { index: Some(i) }) => crate::markers::citation_index(i.get()),
            _ => crate::model::CitationIndex::Malformed,
        }
    } else {
        crate::markers::citation_index(raw)
    }
}

/// A mapped time: RFC 3339 with an offset, a date-time without one (read as
/// UTC: `2026-08-01T10:00:00`, `2026-08-01 10:00:00.5`), or Unix time as a
/// number or a string of digits: seconds, or milliseconds when the value is
/// beyond what seconds can mean for years up to 5138 (|x| ≥ 10^11).
/// `Err(Ok(reason))` for a value that is not a time, `Err(Err(found))` for a
/// value of the wrong type.
fn as_time(raw: &str) -> Result<DateTime<Utc>, Result<String, &'static str>> {
    if raw.starts_with('"') {
        let s = decode_json_string(raw);
        return parse_time(&s).map_err(Ok);
    }
    match as_number(raw) {
        Some(x) => unix(x).ok_or_else(|| {
            Ok(format!(
                "created_at {raw} is not a Unix time in years 0000-9999"
            ))
        }),
        None => Err(Err(kind_of(raw))),
    }
}

fn unix(x: f64) -> Option<DateTime<Utc>> {
    let ms = if x.abs() >= 1e11 { x } else { x * 1000.0 };
    if !ms.is_finite() || ms.abs() > 4e14 {
        return None;
    }
    let t = DateTime::from_timestamp_millis(ms.round() as i64)?;
    crate::model::in_years(&t).then_some(t)
}

/// The formats a mapped `created_at` string may take (see [`as_time`]).
pub fn parse_time(s: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(t) = crate::dialect::native::parse_time(s) {
        return Ok(t);
    }
    for f in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(s, f) {
            let t = t.and_utc();
            if crate::model::in_years(&t) {
                return Ok(t);
            }
        }
    }
    if !s.is_empty()
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && let Some(t) = s.parse::<f64>().ok().and_then(unix)
    {
        return Ok(t);
    }
    let shown: String = s.chars().take(40).collect();
    let more = if shown.len() < s.len() { "…" } else { "" };
    Err(format!(
        "created_at {shown:?}{more} is not a time (RFC 3339, a date-time without offset read as UTC, or Unix seconds or milliseconds)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(pairs: &[&str]) -> Mapped {
        let mut m = FieldMap::default();
        for p in pairs {
            m.set_arg(p).unwrap();
        }
        Mapped::new(m).unwrap()
    }

    fn turn<'a>(m: &Mapped, line: &'a str) -> Turn<'a> {
        match m.parse(line, &mut Warnings::new()) {
            Parsed::Turn(t) => t,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn defaults_read_the_native_log() {
        let m = Mapped::new(FieldMap::default()).unwrap();
        let line = r#"{"turn_id":7,"agent_id":"a","created_at":"2026-08-01T00:00:00+02:00","reply":"x [KB-1]","grounding":{"chunks":[{"document_id":"d","chunk_id":"c","score":0.5,"content":"zzz"}],"tools":[{"status":"error"},{}],"model":"m","tokens_used":3}}"#;
        let t = turn(&m, line);
        assert_eq!(t.turn_id.as_str(), "7");
        assert!(t.turn_id.numeric);
        assert_eq!(t.chunks.len(), 1);
        assert_eq!(t.chunks[0].score, Some(0.5));
        assert_eq!(t.chunks[0].chunk_id.as_ref().unwrap().as_str(), "c");
        assert_eq!((t.tool_calls, t.tool_errors), (2, 1));
        assert_eq!(t.model.as_deref(), Some("m"));
        assert_eq!(t.tokens_used, Some(3));
        assert_eq!(t.created_at.to_rfc3339(), "2026-07-31T22:00:00+00:00");
    }

    #[test]
    fn pointers_follow_keys_and_indexes() {
        let m = mapped(&[
            "turn_id=/meta/id",
            "agent_id=/meta/agent",
            "created_at=/ts",
            "reply=/choices/0/message/content",
            "chunks=/sources",
            "chunk.id=/id",
            "chunk.score=/relevance/0",
            "channel=/a~1b",
        ]);
        let line = r#"{"meta":{"id":"t1","agent":"bot"},"ts":1785600000123,"choices":[{"message":{"content":"see [KB-2]"}},{"message":{"content":"no"}}],"sources":[{"id":"s1","relevance":[0.9]},{"id":"s2"}],"a/b":"voice"}"#;
        let t = turn(&m, line);
        assert_eq!(t.turn_id.as_str(), "t1");
        assert_eq!(t.agent_id, "bot");
        assert_eq!(t.channel, "voice");
        assert_eq!(t.created_at.timestamp_millis(), 1785600000123);
        match &t.answer {
            Answer::Reply(r) => assert_eq!(r.decoded(), "see [KB-2]"),
            other => panic!("{other:?}"),
        }
        assert_eq!(t.chunks.len(), 2);
        assert_eq!(t.chunks[0].score, Some(0.9));
        assert_eq!(t.chunks[1].chunk_id.as_ref().unwrap().as_str(), "s2");
        assert!(m.unresolved().is_empty());
    }

    #[test]
    fn every_missing_required_field_is_named() {
        let m = mapped(&["turn_id=/id"]);
        match m.parse(r#"{"x":1}"#, &mut Warnings::new()) {
            Parsed::Invalid(r) => assert_eq!(
                r,
                "missing fields `turn_id (/id)`, `agent_id`, `created_at`"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(m.unresolved(), ["turn_id=/id"]);
    }

    #[test]
    fn times_in_more_formats() {
        for (s, want) in [
            ("\"2026-08-01T10:00:00\"", "2026-08-01T10:00:00Z"),
            ("\"2026-08-01 10:00:00.5\"", "2026-08-01T10:00:00.500Z"),
            ("1785578400", "2026-08-01T10:00:00Z"),
            ("1785578400000", "2026-08-01T10:00:00Z"),
            ("\"1785578400\"", "2026-08-01T10:00:00Z"),
        ] {
            let t = as_time(s).unwrap_or_else(|e| panic!("{s}: {e:?}"));
            assert_eq!(crate::model::format_time(&t), want, "{s}");
        }
        assert!(as_time("\"yesterday\"").is_err());
        assert!(as_time("true").is_err());
    }

    #[test]
    fn map_files_in_toml_and_json() {
        let mut a = FieldMap::default();
        a.read_file(
            "# our log\nreply = \"/answer\"  # the text\nchunks = '/sources'\n[chunk]\nid = \"/id\"\n",
        )
        .unwrap();
        let mut b = FieldMap::default();
        b.read_file(r#"{"reply":"/answer","chunks":"/sources","chunk":{"id":"/id"}}"#)
            .unwrap();
        assert_eq!((&a.turn, &a.chunk, &a.tool), (&b.turn, &b.chunk, &b.tool));
        assert_eq!(a.explicit.len(), 3);
        assert_eq!(a.chunk[0], "/id");
        assert!(FieldMap::default().read_file("[nope]\n").is_err());
        assert!(FieldMap::default().set_arg("answer=/x").is_err());
        assert!(FieldMap::default().set_arg("reply=answer").is_err());
        let mut nested = FieldMap::default();
        nested.set_arg("reply=/grounding").unwrap();
        assert!(Mapped::new(nested).is_err());
    }
}

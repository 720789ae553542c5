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
//! That pass has two readers that fill the same [`Caps`]: [`scan`], on the
//! byte cursor the native reader uses, for lines it is sure of, and
//! [`walk`], serde_json's visitors, for every other line, so every error
//! message comes from one place. Differential tests hold the first to the
//! second. The map itself (`--map`, `--map-file`, pointers) is [`map`]; the
//! native log's type rules for a raw value are [`values`].

//!
//! A map is made once per run and leaked to `'static`, like the built-in
//! dialects; it is not in [`super::DIALECTS`] because it needs its map. The
//! engine reads every source that would be read as the native log through
//! it. Each explicitly mapped pointer remembers whether it ever resolved, so
//! a pointer that points at nothing on every line is an error naming it
//! ([`Mapped::unresolved`]), never a silent null.

mod container;
mod map;
mod scan;
mod values;
mod walk;

#[cfg(test)]
mod diff_tests;

pub use container::{Container, Unfit, passages};
pub use map::{FieldMap, field_names, parse_pointer};
pub use values::parse_time;

use super::{Parsed, Record};
use crate::dialect::cursor::Key;
use crate::markers::Grammar;
use crate::messages::Warnings;
use crate::model::{Answer, Chunk, Turn, Unobserved};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use values::{Raw, as_id, as_number, as_str, as_time, citation, kind_of};

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
const C_CONTENT: usize = 3;
const N_CHUNK: usize = CHUNK_FIELDS.len();
const T_STATUS: usize = 1;
const N_TOOL: usize = TOOL_FIELDS.len();

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
    /// The children's keys in their order, as the cursor expects them
    /// ([`crate::dialect::cursor::Cursor::members_indexed`]); empty when a
    /// key is one the compare cannot stand for (the cursor then finds each
    /// child by name).
    keys: Vec<Key>,
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

    /// Lists every node's keys for the cursor, once the trie is built.
    fn seal(&mut self) {
        let keys: Option<Vec<Key>> = self
            .children
            .iter()
            .map(|c| Key::of(c.key.as_bytes()))
            .collect();
        self.keys = keys.unwrap_or_default();
        for c in &mut self.children {
            c.node.seal();
        }
    }

    /// The child at `at` in [`Node::keys`], or the one named `key` when
    /// the keys are not listed.
    #[inline]
    fn child_at(&self, at: Option<usize>, key: &[u8]) -> Option<&Node> {
        match at {
            Some(j) => self.children.get(j).map(|c| &c.node),
            None if !self.keys.is_empty() => None,
            None => self.child(key),
        }
    }

    fn child(&self, key: &[u8]) -> Option<&Node> {
        self.children
            .iter()
            .find(|c| c.key.as_bytes() == key)
            .map(|c| &c.node)
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
    /// Turn fields read from another field's pointer: (field, the field
    /// whose capture it shares).
    shared: Vec<(usize, usize)>,
    /// Turn fields with a constant (`--set`): (field, the value as JSON
    /// text, made once for the run).
    constants: Vec<(usize, &'static str)>,
    /// How the chunks value is written; other than an array, it is kept
    /// raw by either reader and read by [`Container::each`].
    container: Container,
}

impl fmt::Debug for Mapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mapped").field("map", &self.map).finish()
    }
}

impl Mapped {
    /// Compiles a map. Pointers must not nest inside one another.
    pub fn new(map: FieldMap) -> Result<Mapped, String> {
        if let Some(f) = map.conflicts().first() {
            return Err(format!(
                "--set {f} and --map {f} both given: a field has one source"
            ));
        }
        let turn_index = |f: &str| TURN_FIELDS.iter().position(|(n, _)| *n == f);
        let constants: Vec<(usize, &'static str)> = map
            .constants
            .iter()
            .filter_map(|(f, v)| {
                let text = serde_json::to_string(v).expect("a string serialises");
                Some((turn_index(f)?, &*Box::leak(text.into_boxed_str())))
            })
            .collect();
        let (container, chunks_at) = Container::split(&map.turn[CHUNKS])?;
        let pointer = |i: usize| if i == CHUNKS { chunks_at } else { &map.turn[i] };
        let mut top = Node::default();
        let mut shared = Vec::new();
        for (i, (name, _)) in TURN_FIELDS.iter().enumerate() {
            if constants.iter().any(|&(c, _)| c == i) {
                continue;
            }
            let leaf = match i {
                CHUNKS if container.is_array() => Leaf::Chunks,
                TOOLS => Leaf::Tools,
                _ => Leaf::Raw(i),
            };
            // One pointer may feed several plain fields (a question that is
            // both the turn id and the conversation id): read once, shared.
            let same = (0..i).find(|&j| {
                map.turn[j] == map.turn[i]
                    && !constants.iter().any(|&(c, _)| c == j)
                    && ![j, i].iter().any(|k| matches!(*k, CHUNKS | TOOLS))
            });
            if let Some(j) = same {
                shared.push((i, j));
                continue;
            }
            top.insert(&parse_pointer(pointer(i))?, leaf, name)
                .map_err(|e| format!("--map: {e}"))?;
        }
        let mut chunk = Node::default();
        for (i, (name, _)) in CHUNK_FIELDS.iter().enumerate() {
            chunk
                .insert(&parse_pointer(&map.chunk[i])?, Leaf::Raw(i), name)
                .map_err(|e| format!("--map: {e}"))?;
        }
        // The cursor expects a chunk's keys in the order of the node's
        // children: the order the native log writes its fields in.
        let first = |i: usize| parse_pointer(&map.chunk[i]).ok()?.into_iter().next();
        let order: Vec<String> = [C_DOC, C_ID, C_SCORE, C_CONTENT]
            .into_iter()
            .filter_map(first)
            .collect();
        chunk
            .children
            .sort_by_key(|c| order.iter().position(|t| *t == c.key).unwrap_or(usize::MAX));
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
        for node in [&mut top, &mut chunk, &mut tool] {
            node.seal();
        }
        Ok(Mapped {
            seen: map
                .explicit
                .iter()
                .map(|_| AtomicBool::new(false))
                .collect(),
            used: AtomicBool::new(false),
            explicit_slots,
            shared,
            constants,
            container,
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
        self.read(line, warnings, true)
    }

    /// [`Mapped::parse`] through serde_json's visitors only: the reference
    /// the cursor reader is held to (tests, the `mapped_diff` fuzz target).
    #[doc(hidden)]
    pub fn parse_reference<'a>(&self, line: &'a str, warnings: &mut Warnings) -> Parsed<'a> {
        self.read(line, warnings, false)
    }

    /// Reads one line with the byte cursor when `fast` and it is sure of
    /// the line, with serde_json's visitors otherwise.
    fn read<'a>(&self, line: &'a str, warnings: &mut Warnings, fast: bool) -> Parsed<'a> {
        // Filled in place: a turn's captures are a few hundred bytes.
        let mut caps = Caps::default();
        if !fast || self.scan(line, &mut caps).is_none() {
            caps = match self.walk(line) {
                Ok(caps) => caps,
                Err(reason) => return Parsed::Invalid(reason),
            };
        }
        if !self.container.is_array()
            && let Some(raw) = caps.top[CHUNKS].take()
        {
            caps.chunks = Some(Ok(self.contained(raw, &mut caps.chunk_seen)));
        }
        for &(i, from) in &self.shared {
            caps.top[i] = caps.top[from];
        }
        self.note_seen(&caps);
        for &(i, text) in &self.constants {
            caps.top[i] = Some(Raw::unknown(text));
        }
        match self.build(&mut caps, warnings) {
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

    fn build<'a>(&self, caps: &mut Caps<'a>, warnings: &mut Warnings) -> Result<Turn<'a>, String> {
        let top = &caps.top;
        let missing: Vec<String> = [TURN_ID, AGENT_ID, CREATED_AT]
            .into_iter()
            .filter(|&i| top[i].is_none_or(|r| r.text == "null"))
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
        let raw = |i: usize| top[i].filter(|r| r.text != "null");
        let turn_id = as_id(raw(TURN_ID).unwrap_or(Raw::NULL))
            .map_err(|f| wrong(TURN_ID, "a string or an integer", f))?;
        let agent_id = as_str(raw(AGENT_ID).unwrap_or(Raw::NULL))
            .map_err(|f| wrong(AGENT_ID, "a string", f))?;
        let created_at = as_time(raw(CREATED_AT).unwrap_or(Raw::NULL))
            .map_err(|e| e.unwrap_or_else(|f| wrong(CREATED_AT, "a string or a number", f)))?;
        let chunks = match caps.chunks.take() {
            None => Vec::new(),
            Some(Err(found)) => {
                let hint = self.container_hint(match found {
                    container::PASSAGES_FOUND => Unfit::Passages,
                    found => Unfit::Found(found),
                });
                return Err(wrong(CHUNKS, "an array", found) + &hint);
            }
            Some(Ok(list)) => list?,
        };
        let answer = match raw(REPLY) {
            Some(r) if r.text.starts_with('"') => Answer::Reply(r.reply()),
            Some(r) => return Err(wrong(REPLY, "a string or null", kind_of(r.text))),
            None => match raw(CITATIONS).map(|r| r.text) {
                Some(r) if r.starts_with('[') => {
                    let list: Vec<&RawValue> = serde_json::from_str(r).unwrap_or_default();
                    Answer::Citations(
                        list.iter().map(|c| citation(c.get())).collect(),
                        crate::model::MarkersFrom::Citations,
                    )
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
        let mut number = |i: usize| match raw(i).map(|r| as_number(r.text)) {
            Some(Some(n)) => Some(n),
            Some(None) => {
                drop(i, "a number");
                None
            }
            None => None,
        };
        let cost_cents = number(COST);
        let latency_ms = number(LATENCY);
        let tokens_used = match raw(TOKENS).map(|r| r.text.parse::<u64>().ok()) {
            Some(Some(n)) => Some(n),
            Some(None) => {
                drop(TOKENS, "a whole number, 0 or more");
                None
            }
            None => None,
        };
        let (tool_calls, tool_errors) = match caps.tools.take() {
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
            markers: None,
            evidence: None,
            texts: crate::model::Texts {
                chunks: std::mem::take(&mut caps.chunk_texts),
                ..Default::default()
            },
        })
    }

    /// The chunks of a value kept raw under a `json:` or `keyed:` map, owned
    /// (a `json:` string's elements live in its decoded text); `seen` notes
    /// the chunk fields found. The reason names the field and its pointer.
    fn contained(
        &self,
        raw: Raw<'_>,
        seen: &mut [bool; N_CHUNK],
    ) -> Result<Vec<Chunk<'static>>, String> {
        let mut chunks = Vec::new();
        let mut failed = None;
        let read = self
            .container
            .each(raw.text, &mut |key, element| match self.chunk_element(
                element,
                key,
                seen,
                chunks.len() + 1,
            ) {
                Ok(c) if failed.is_none() => chunks.push(c),
                Ok(_) => {}
                Err(e) => {
                    failed.get_or_insert(e);
                }
            });
        let unfit = match read {
            Ok(_) => return failed.map_or(Ok(chunks), Err),
            Err(u) => u,
        };
        let found = match unfit {
            Unfit::Found(f) => f.to_owned(),
            Unfit::Holds(f) => format!("a string holding {f}"),
            Unfit::NotJson => "a string that is not JSON".to_owned(),
            Unfit::Passages => container::PASSAGES_FOUND.to_owned(),
        };
        Err(format!(
            "field `{}`: expected {}, found {found}{}",
            self.name(CHUNKS),
            self.container.expected(),
            self.container_hint(unfit)
        ))
    }

    /// How a chunks value of another shape may read, when the map placed
    /// the chunks and the kind found says: ` (try --map chunks=keyed:/x)`.
    fn container_hint(&self, unfit: Unfit) -> String {
        let spec = &self.map.turn[CHUNKS];
        let fitting = self.container.fitting(unfit);
        match (fitting, Container::split(spec)) {
            (Some(c), Ok((_, at))) if spec != TURN_FIELDS[CHUNKS].1 => {
                format!(" (try --map chunks={}{at})", c.prefix())
            }
            _ => String::new(),
        }
    }

    /// One element of a `json:` or `keyed:` container as a chunk: an
    /// object read with the chunk trie; under `keyed:` any value, its key
    /// standing for the chunk id it does not hold itself.
    fn chunk_element(
        &self,
        element: &str,
        key: Option<&str>,
        seen: &mut [bool; N_CHUNK],
        index: usize,
    ) -> Result<Chunk<'static>, String> {
        let key_text;
        let (is_object, mut fields) = self.element_fields(element)?;
        for (k, f) in fields.iter().enumerate() {
            seen[k] |= f.is_some();
        }
        if let Some(key) = key
            && fields[C_ID].is_none_or(|r| r.text == "null")
        {
            key_text = serde_json::to_string(key).expect("a string serialises");
            fields[C_ID] = Some(Raw::unknown(&key_text));
        }
        let fields = (is_object || key.is_some()).then_some(fields);
        self.chunk(fields, index).map(Chunk::into_owned)
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
        let raw = |i: usize| fields[i].filter(|r| r.text != "null");
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
            score: match raw(C_SCORE).map(|r| r.text) {
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
    fn sniff(&self, _first: &crate::dialect::First<'_>) -> bool {
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
type ChunkCaps<'a> = Option<[Option<Raw<'a>>; N_CHUNK]>;

/// Field maps that put fields in native places, under renamed keys, on
/// values of the wrong type and behind array indexes: the maps the cursor
/// reader is held to serde_json's visitors under (the differential tests,
/// and the `mapped_diff` fuzz target).
#[doc(hidden)]
pub fn diff_maps() -> Vec<Mapped> {
    let sets: &[&[&str]] = &[
        &[],
        &[
            "turn_id=/id",
            "agent_id=/agent",
            "created_at=/ts",
            "reply=/answer",
            "chunks=/retrieval/chunks",
            "citations=/retrieval/citations",
            "tools=/retrieval/tools",
            "model=/retrieval/model",
            "tokens_used=/retrieval/tokens_used",
        ],
        // Values of every type where arrays, objects or scalars are expected.
        &[
            "reply=/grounding/citations/0",
            "citations=/c",
            "chunks=/grounding/tools",
            "tools=/grounding/chunks",
            "chunk.score=/status",
            "chunk.id=/score",
            "tool.status=/score",
            "created_at=/x",
        ],
        // Array indexes on the way and inside elements.
        &[
            "turn_id=/grounding/citations/1",
            "agent_id=/x/0/y",
            "chunks=/z/1",
            "chunk.id=/x/0",
            "chunk.document_id=/y/1/z",
            "tool.name=/0",
            "reply=/question",
            "citations=/y",
        ],
        &[
            "chunks=/reply",
            "tools=/turn_id",
            "turn_id=/model",
            "reply=/grounding/chunks/0",
            "chunk.score=/index",
        ],
        // Chunks in a JSON string, keyed by id, and both.
        &["chunks=keyed:/grounding/chunks", "chunk.score=/s"],
        &["chunks=json:/reply", "reply=/answer"],
        &[
            "chunks=json:keyed:/grounding/model",
            "model=/m",
            "chunk.id=/id",
        ],
    ];
    sets.iter()
        .map(|set| {
            let mut m = FieldMap::default();
            for arg in *set {
                m.set_arg(arg).expect("a valid mapping");
            }
            Mapped::new(m).expect("a valid map")
        })
        .collect()
}

/// Tool calls: how many, and how many failed.
#[derive(Default)]
struct ToolCount {
    calls: u32,
    errors: u32,
}

/// What one pass over a line kept: each mapped value as its raw JSON text,
/// the chunks as chunks (or the first chunk's reason not to be one).
#[derive(Default)]
struct Caps<'a> {
    top: [Option<Raw<'a>>; N_TOP],
    chunks: Option<Result<Result<Vec<Chunk<'a>>, String>, &'static str>>,
    /// Each chunk's text (`chunk.content`), as far as the last chunk with one.
    chunk_texts: Vec<Option<crate::model::Reply<'a>>>,
    tools: Option<Result<ToolCount, &'static str>>,
    chunk_seen: [bool; N_CHUNK],
    tool_seen: [bool; N_TOOL],
}

impl<'a> Caps<'a> {
    /// A chunks or tools value that is not an array: `found` names what it
    /// is; `None` for null, which reads as an empty array.
    fn not_array(&mut self, tools: bool, found: Option<&'static str>) {
        if tools {
            self.tools = Some(found.map_or(Ok(ToolCount::default()), Err));
        } else {
            self.chunks = Some(found.map_or(Ok(Ok(Vec::new())), Err));
        }
    }
}

/// One chunks or tools array as either reader goes through it, element by
/// element (each element's fields found with the chunk or the tool trie,
/// and a chunk made at once).
struct Elements<'m, 'a> {
    dialect: &'m Mapped,
    tools: bool,
    chunks: Result<Vec<Chunk<'a>>, String>,
    texts: Vec<Option<crate::model::Reply<'a>>>,
    count: ToolCount,
    all_objects: bool,
}

impl<'m, 'a> Elements<'m, 'a> {
    fn new(dialect: &'m Mapped, tools: bool) -> Self {
        Elements {
            dialect,
            tools,
            chunks: Ok(Vec::with_capacity(if tools { 0 } else { 8 })),
            texts: Vec::new(),
            count: ToolCount::default(),
            all_objects: true,
        }
    }

    /// The trie an element is read with.
    fn trie(&self) -> &'m Node {
        if self.tools {
            &self.dialect.tool
        } else {
            &self.dialect.chunk
        }
    }

    /// One element: the fields found in it, and whether it was an object.
    /// After a chunk that is not one, the rest are only looked at for the
    /// fields they hold.
    fn push(&mut self, caps: &mut Caps<'a>, is_object: bool, fields: [Option<Raw<'a>>; N_CHUNK]) {
        if !self.tools {
            for (k, f) in fields.iter().enumerate() {
                caps.chunk_seen[k] |= f.is_some();
            }
            if let Ok(list) = &mut self.chunks {
                match self
                    .dialect
                    .chunk(is_object.then_some(fields), list.len() + 1)
                {
                    Ok(c) => {
                        list.push(c);
                        if let Some(t) = fields[C_CONTENT].filter(|r| r.text.starts_with('"')) {
                            self.texts.resize(list.len() - 1, None);
                            self.texts.push(Some(crate::model::Reply::json(t.text)));
                        }
                    }
                    Err(reason) => self.chunks = Err(reason),
                }
            }
        } else if is_object {
            for (k, f) in fields.iter().take(N_TOOL).enumerate() {
                caps.tool_seen[k] |= f.is_some();
            }
            self.count.calls = self.count.calls.saturating_add(1);
            let ok = match fields[T_STATUS] {
                Some(s) if s.text.starts_with('"') => {
                    crate::dialect::native::tool_status_ok(&s.decoded())
                }
                _ => true,
            };
            self.count.errors = self.count.errors.saturating_add(u32::from(!ok));
        } else {
            self.all_objects = false;
        }
    }

    /// The array read through: its chunks, or its tool count, into `caps`.
    fn finish(self, caps: &mut Caps<'a>) {
        if self.tools {
            caps.tools = Some(if self.all_objects {
                Ok(self.count)
            } else {
                Err("an array holding something other than objects")
            });
        } else {
            caps.chunks = Some(Ok(self.chunks));
            caps.chunk_texts = self.texts;
        }
    }
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
            let t = as_time(Raw::unknown(s)).unwrap_or_else(|e| panic!("{s}: {e:?}"));
            assert_eq!(crate::model::format_time(&t), want, "{s}");
        }
        assert!(as_time(Raw::unknown("\"yesterday\"")).is_err());
        assert!(as_time(Raw::unknown("true")).is_err());
    }

    /// A number reads as Rust's correctly rounded `parse` reads it, on
    /// whole numbers, decimals and the lengths where the fast reads stop.
    #[test]
    fn numbers_read_as_parse_reads_them() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "7",
            "-7",
            "0.5",
            "-0.0",
            "1059",
            "6.64",
            "0.769",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999",
            "123456789012345.6",
            "0.1234567890123456",
            "1.7976931348623157e308",
            "5e-324",
            "1E2",
            "-1.5e-3",
            "0.30000000000000004",
        ]
        .map(str::to_owned)
        .to_vec();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 20 + 1) as usize;
            let whole = (x >> 8).to_string();
            let mut t = whole[..digits.min(whole.len())]
                .trim_start_matches('0')
                .to_owned();
            if t.is_empty() {
                t.push('0');
            }
            let point = (x >> 40) as usize % (t.len() + 1);
            if point > 0 && point < t.len() {
                t.insert(point, '.');
                if t.starts_with('.') {
                    t.insert(0, '0');
                }
            }
            if x & 1 == 1 {
                t.insert(0, '-');
            }
            texts.push(t);
        }
        for t in &texts {
            let want = t.parse::<f64>().ok().filter(|v| v.is_finite());
            assert_eq!(
                as_number(t).map(f64::to_bits),
                want.map(f64::to_bits),
                "{t}"
            );
        }
        assert_eq!(as_number("true"), None);
        assert_eq!(as_number("\"1\""), None);
    }

    fn chunk_ids(t: &Turn<'_>) -> Vec<String> {
        t.chunks
            .iter()
            .map(|c| {
                c.chunk_id
                    .as_ref()
                    .map_or("-".into(), |i| i.as_str().to_owned())
            })
            .collect()
    }

    fn invalid(m: &Mapped, line: &str) -> String {
        match m.parse(line, &mut Warnings::new()) {
            Parsed::Invalid(r) => r,
            other => panic!("{other:?}"),
        }
    }

    const HEAD: &str = r#""turn_id":"t","agent_id":"a","created_at":"2026-08-01T00:00:00Z""#;

    #[test]
    fn chunks_keyed_by_id_and_in_a_json_string() {
        let keyed = r#"{"34": {"id": 34, "score": 0.5}, "58": {"score": 0.25}, "7": "text only"}"#;
        let m = mapped(&["chunks=keyed:/context"]);
        let line = format!(r#"{{{HEAD},"context":{keyed}}}"#);
        let t = turn(&m, &line);
        // The key stands for the id a chunk does not hold at chunk.id.
        assert_eq!(chunk_ids(&t), ["34", "58", "7"]);
        assert_eq!(t.chunks[1].score, Some(0.25));
        assert_eq!(
            t.chunks.iter().map(|c| c.index).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        // The same object as a JSON string; a chunk's own id wins over its key.
        let m = mapped(&["chunks=json:keyed:/context", "chunk.id=/id"]);
        let line = format!(
            r#"{{{HEAD},"context":{}}}"#,
            serde_json::to_string(keyed).unwrap()
        );
        let t = turn(&m, &line);
        assert_eq!(chunk_ids(&t), ["34", "58", "7"]);
        assert!(t.chunks[0].chunk_id.as_ref().unwrap().numeric);
        assert!(!t.chunks[1].chunk_id.as_ref().unwrap().numeric);
        assert!(m.unresolved().is_empty());
        // An array in a JSON string; null and an empty string hold no chunks.
        let m = mapped(&["chunks=json:/docs", "chunk.id=/k"]);
        let docs = serde_json::to_string(r#"[{"k":"a"},{"k":"b"}]"#).unwrap();
        let line = format!(r#"{{{HEAD},"docs":{docs}}}"#);
        let t = turn(&m, &line);
        assert_eq!(chunk_ids(&t), ["a", "b"]);
        for empty in ["null", "\"\"", "\"null\""] {
            assert!(
                turn(&m, &format!(r#"{{{HEAD},"docs":{empty}}}"#))
                    .chunks
                    .is_empty()
            );
        }
    }

    #[test]
    fn a_container_of_another_shape_is_an_invalid_line_that_names_the_fitting_map() {
        let m = mapped(&["chunks=/context"]);
        let line = format!(r#"{{{HEAD},"context":"{{\"a\":{{}}}}"}}"#);
        assert_eq!(
            invalid(&m, &line),
            "field `chunks (/context)`: expected an array, found a string (try --map chunks=json:/context)"
        );
        let m = mapped(&["chunks=json:/context"]);
        assert_eq!(
            invalid(&m, &line),
            "field `chunks (json:/context)`: expected a string holding a JSON array, found a string holding an object (try --map chunks=json:keyed:/context)"
        );
        // A string of passages names `passages:`, under either map, by
        // either reader (no escape: the byte cursor; an escape: serde_json).
        for text in [r"a.pdf#page=2: one", r"a.pdf#page=2: \u006fne"] {
            let line = format!(r#"{{{HEAD},"context":"{text}"}}"#);
            for (map, expected) in [
                ("chunks=/context", "an array"),
                ("chunks=json:/context", "a string holding a JSON array"),
            ] {
                let spec = map.trim_start_matches("chunks=");
                assert_eq!(
                    invalid(&mapped(&[map]), &line),
                    format!(
                        "field `chunks ({spec})`: expected {expected}, found a string of passages led by their sources (try --map chunks=passages:/context)"
                    )
                );
            }
        }
        let m = mapped(&["chunks=keyed:/context"]);
        assert_eq!(
            invalid(&m, &format!(r#"{{{HEAD},"context":[]}}"#)),
            "field `chunks (keyed:/context)`: expected an object of chunks keyed by id, found an array"
        );
        let m = mapped(&["chunks=json:keyed:/context"]);
        assert_eq!(
            invalid(&m, &format!(r#"{{{HEAD},"context":"{{nope"}}"#)),
            "field `chunks (json:keyed:/context)`: expected a string holding a JSON object of chunks keyed by id, found a string that is not JSON"
        );
        // An element of an array in a string is an object, as in any array;
        // a chunk's fields are typed as anywhere.
        let m = mapped(&["chunks=json:/context"]);
        assert_eq!(
            invalid(&m, &format!(r#"{{{HEAD},"context":"[1]"}}"#)),
            "field `chunks (json:/context)[]`: expected an object, found something else"
        );
        let m = mapped(&["chunks=keyed:/context"]);
        assert_eq!(
            invalid(
                &m,
                &format!(r#"{{{HEAD},"context":{{"a":{{"score":"high"}}}}}}"#)
            ),
            "field `chunks[].score`: expected a number or null, found a string"
        );
        // The native place keeps the native reader's words.
        let m = mapped(&["reply=/answer"]);
        assert_eq!(
            invalid(&m, &format!(r#"{{{HEAD},"grounding":{{"chunks":{{}}}}}}"#)),
            "field `chunks`: expected an array, found an object"
        );
        assert!(FieldMap::default().set_arg("reply=json:/x").is_err());
        assert!(
            FieldMap::default()
                .set_arg("chunks=keyed:keyed:/x")
                .is_err()
        );
        assert!(FieldMap::default().set_arg("chunks=keyed:x").is_err());
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

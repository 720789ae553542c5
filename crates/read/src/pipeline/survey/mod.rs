//! The field survey of `inspect`: what a sample of turn-log records holds
//! where the native log has each field, the names nearby when it does not,
//! and the map that reads the records — the map given (`--map`, `--set`,
//! `--map-file`), with a proposal for each field it leaves out that the
//! records lack — and how many records hold each field of that map
//! ([`under`]). Chunks are looked for in arrays, in objects keyed by id and
//! in JSON strings ([`chunks`]).
//!
//! A one-off look at a sample through `serde_json::Value`s, not the hot
//! path; the turns themselves are read by the engine with the map.

mod chunks;
mod under;

pub use under::{MapField, Origin};

use super::probe::{self, Keys, NEAR_MISSES, NearMiss};
use crate::dialect::{self, mapped};
use chrono::{DateTime, Timelike, Utc};
use mapped::{FieldMap, TURN_FIELDS};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// One field's coverage where the native log has it.
#[derive(Debug, Clone, Serialize)]
pub struct Coverage {
    pub field: String,
    /// Where it was looked for.
    pub pointer: String,
    /// Share of sampled records (of chunks, for a chunk's fields) that have
    /// it (not null).
    pub share: f64,
    /// Nearest names when it is missing on most: (pointer, share).
    pub nearest: Vec<Nearest>,
}

/// A near-miss name and how often it holds a value.
#[derive(Debug, Clone, Serialize)]
pub struct Nearest {
    pub pointer: String,
    pub share: f64,
}

/// A field the survey adds to the map, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Proposal {
    pub field: String,
    /// `map` (a pointer) or `set` (a constant).
    pub flag: &'static str,
    pub value: String,
    pub why: String,
}

/// What the survey found.
pub struct Survey {
    /// Coverage of each field at its native place.
    pub fields: Vec<Coverage>,
    /// What it adds to the map given.
    pub proposed: Vec<Proposal>,
    /// The map to read with: the given one and the proposals.
    pub map: FieldMap,
    /// Each field of that map with the records that hold it.
    pub entries: Vec<MapField>,
}

/// What the survey knows of the file besides its records.
pub struct About<'a> {
    /// The file's name as given (an agent with no name of its own is named
    /// after it).
    pub name: &'a str,
    /// When it was last written (a time for turns that have none).
    pub modified: Option<DateTime<Utc>>,
}

/// Surveys `records` (the text of sampled turn-log records) under the map
/// `given`.
pub fn survey(records: &[String], given: &FieldMap, about: &About<'_>) -> Survey {
    let values = Records::new(records);
    let mut p = Proposer {
        records: &values,
        given,
        proposed: Vec::new(),
        map: given.clone(),
    };
    let mut fields = p.turn_fields();
    p.fallbacks(about);
    fields.extend(p.chunk_fields());
    let entries = under::entries(&values, &p.map, given, &p.proposed);
    Survey {
        fields,
        proposed: p.proposed,
        map: p.map,
        entries,
    }
}

/// The sampled records: their text, and those that are JSON objects.
struct Records<'a> {
    lines: &'a [String],
    values: Vec<Value>,
}

impl<'a> Records<'a> {
    fn new(lines: &'a [String]) -> Self {
        let values = lines
            .iter()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(Value::is_object)
            .collect();
        Records { lines, values }
    }

    /// The number of records shares are of (at least 1).
    fn n(&self) -> f64 {
        self.values.len().max(1) as f64
    }

    /// The share of records with a value at `pointer`.
    fn share(&self, pointer: &str) -> f64 {
        self.values
            .iter()
            .filter(|v| at(v, pointer).is_some())
            .count() as f64
            / self.n()
    }
}

/// The value at a pointer, when present and not null.
fn at<'v>(v: &'v Value, pointer: &str) -> Option<&'v Value> {
    v.pointer(pointer).filter(|x| !x.is_null())
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// Builds the map: the given one, and a proposal for each field it leaves
/// out that the records lack where the native log has it.
struct Proposer<'r, 'a> {
    records: &'r Records<'a>,
    given: &'r FieldMap,
    proposed: Vec<Proposal>,
    map: FieldMap,
}

impl Proposer<'_, '_> {
    /// True when the map given places the field or sets it.
    fn given(&self, field: &str) -> bool {
        self.given.explicit.iter().any(|(f, _)| f == field)
            || self.given.constants.iter().any(|(f, _)| f == field)
    }

    /// Adds `--map field=value` (or `--set` when `constant`) to the map.
    fn propose(&mut self, field: &str, value: &str, constant: bool, why: String) {
        let ok = if constant {
            self.map.set_constant(field, value)
        } else {
            self.map.set(field, value)
        };
        if ok.is_ok() {
            self.proposed.retain(|p| p.field != field);
            self.proposed.push(Proposal {
                field: field.to_owned(),
                flag: if constant { "set" } else { "map" },
                value: value.to_owned(),
                why,
            });
        }
    }

    /// Coverage of each turn field at its native place, proposing the
    /// nearest name that holds it on most records, and a map for times
    /// only a map reads.
    fn turn_fields(&mut self) -> Vec<Coverage> {
        let r = self.records;
        let mut out = Vec::new();
        for (field, native) in TURN_FIELDS {
            let mut cov = Coverage {
                field: field.into(),
                pointer: native.into(),
                share: r.share(native),
                nearest: Vec::new(),
            };
            if let Some(nm) = NEAR_MISSES.iter().find(|nm| nm.field == field)
                && cov.share < 0.5
            {
                cov.nearest = if field == "chunks" {
                    chunks::candidates(r, nm)
                } else {
                    nearest_names(r, nm)
                };
                // The reply also counts as present when citations stand for it.
                let covered =
                    field == "reply" && r.share("/grounding/citations") + cov.share >= 0.5;
                if let Some(best) = cov.nearest.first()
                    && best.share >= 0.5
                    && !covered
                    && !self.given(field)
                {
                    let why = format!(
                        "{} on {} of records, {native} on {}",
                        best.pointer,
                        pct(best.share),
                        pct(cov.share)
                    );
                    self.propose(field, &best.pointer.clone(), false, why);
                }
            }
            if field == "created_at" && !self.given(field) {
                let ptr = self.map.turn[4].clone();
                if times_need_map(&r.values, &ptr) {
                    let why = format!(
                        "the times at {ptr} are Unix times or lack an offset: a map reads them"
                    );
                    self.propose(field, &ptr, false, why);
                }
            }
            out.push(cov);
        }
        out
    }

    /// What no near name gives: a question that tells records apart as the
    /// turn id; and once most records have an id and a reply, the file's
    /// name as the agent and its time as the turns' time.
    fn fallbacks(&mut self, about: &About<'_>) {
        let r = self.records;
        if !self.given("turn_id")
            && r.share(&self.map.turn[0]) < 0.5
            && let Some(q) = distinct_question(&r.values)
        {
            let why = format!("no id on the records; {q} differs on every one");
            self.propose("turn_id", &q, false, why);
        }
        let answered = r.share(&self.map.turn[5]).max(r.share(&self.map.turn[7]));
        if r.share(&self.map.turn[0]) < 0.5 || answered < 0.5 {
            return;
        }
        if !self.given("agent_id") && r.share(&self.map.turn[1]) < 0.5 {
            let why = "no agent on the records: named after the file".to_owned();
            self.propose("agent_id", &agent_name(about.name), true, why);
        }
        if !self.given("created_at")
            && r.share(&self.map.turn[4]) < 0.5
            && let Some(t) = about.modified
        {
            let t = t.with_nanosecond(0).unwrap_or(t);
            let why = "no time on the records: the file's modification time".to_owned();
            self.propose("created_at", &crate::model::format_time(&t), true, why);
        }
    }

    /// Coverage of the fields within the chunks the map reads, proposing
    /// the names that hold them.
    fn chunk_fields(&mut self) -> Vec<Coverage> {
        let spec = self.map.turn[6].clone();
        let (container, _) = mapped::Container::split(&spec).unwrap_or_default();
        let elements = chunks::elements(&self.records.values, &spec);
        let mut out = Vec::new();
        for (field, names) in chunks::CHUNK_NEAR {
            let Some(cov) = chunks::coverage(&elements, field, names) else {
                continue;
            };
            let name = format!("chunk.{field}");
            let best = cov.nearest.first().filter(|b| b.share >= 0.5).cloned();
            // `content` is only worth a map when the chunk is mapped anyway;
            // a keyed chunk's key is its id.
            let wanted = cov.share < 0.5
                && !self.given(&name)
                && (field != "content" || !self.map.is_empty())
                && !(field == "id" && container.keyed);
            if let Some(best) = best.filter(|b| wanted && self.map.chunk[1] != b.pointer) {
                let why = format!(
                    "{} on {} of chunks, {} on {}",
                    best.pointer,
                    pct(best.share),
                    cov.pointer,
                    pct(cov.share)
                );
                self.propose(&name, &best.pointer, false, why);
            }
            out.push(cov);
        }
        out
    }
}

/// The near-miss names of a turn field the records hold, with the share of
/// records holding each, most common first.
fn nearest_names(r: &Records<'_>, nm: &NearMiss) -> Vec<Nearest> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for l in r.lines {
        if let Some(keys) = Keys::of(l) {
            for c in keys.candidates(nm) {
                *counts.entry(c).or_default() += 1;
            }
        }
    }
    sorted(counts, r.n())
}

/// Counts as shares of `n`, most common first.
fn sorted(counts: BTreeMap<String, u64>, n: f64) -> Vec<Nearest> {
    let mut near: Vec<Nearest> = counts
        .into_iter()
        .map(|(pointer, c)| Nearest {
            pointer,
            share: c as f64 / n,
        })
        .collect();
    near.sort_by(|a, b| b.share.total_cmp(&a.share).then(a.pointer.cmp(&b.pointer)));
    near
}

/// Whether most times at `ptr` are ones the native log does not accept
/// and a map does.
fn times_need_map(values: &[Value], ptr: &str) -> bool {
    let times: Vec<&Value> = values.iter().filter_map(|v| at(v, ptr)).collect();
    let native_ok = times
        .iter()
        .filter(|t| {
            t.as_str()
                .is_some_and(|s| dialect::native::parse_time(s).is_ok())
        })
        .count();
    let mapped_ok = times
        .iter()
        .filter(|t| match t {
            Value::String(s) => mapped::parse_time(s).is_ok(),
            Value::Number(_) => true,
            _ => false,
        })
        .count();
    native_ok * 2 < times.len() && mapped_ok * 2 >= times.len()
}

/// Names of a question, the one thing that tells an evaluator's rows apart.
const QUESTIONS: [&str; 7] = [
    "question",
    "query",
    "user_question",
    "user_query",
    "user_input",
    "input",
    "prompt",
];

/// The pointer of a question-like string that is on every record and
/// differs on each (of two records at least).
fn distinct_question(values: &[Value]) -> Option<String> {
    if values.len() < 2 {
        return None;
    }
    QUESTIONS.iter().find_map(|name| {
        let mut seen = std::collections::HashSet::new();
        values
            .iter()
            .all(|v| {
                v.get(*name)
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.is_empty() && seen.insert(s))
            })
            .then(|| format!("/{}", probe::escape_token(name)))
    })
}

/// An agent name from a file's name: its stem without the log extensions.
fn agent_name(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let mut stem = base;
    for ext in [".gz", ".zst", ".jsonl", ".ndjson", ".json", ".parquet"] {
        stem = stem.strip_suffix(ext).unwrap_or(stem);
    }
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    if name.is_empty() {
        "agent".to_owned()
    } else {
        name
    }
}

#[cfg(test)]
mod tests;

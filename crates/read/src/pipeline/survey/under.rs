//! The map tried, field by field: where each field is read (a pointer, a
//! constant, or the native place), whether the user gave it or the survey
//! proposed it, and how many sampled records (chunks, tool calls) hold it.

use super::chunks::{Element, elements};
use super::{Proposal, Records, at};
use crate::dialect::mapped::{CHUNK_FIELDS, Container, FieldMap, TOOL_FIELDS, TURN_FIELDS};
use serde::Serialize;
use serde_json::Value;

/// Where a field of the map comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// `--map`, `--set` or `--map-file`.
    Given,
    /// The survey's proposal.
    Proposed,
    /// Not mapped: where the native log has it.
    Native,
}

/// One field of the map tried.
#[derive(Debug, Clone, Serialize)]
pub struct MapField {
    pub field: String,
    /// `--map` or `--set`; None at the native place.
    pub flag: Option<&'static str>,
    /// The pointer (with its prefixes) or the constant.
    pub value: String,
    pub origin: Origin,
    /// How many records (chunks, tool calls for the fields within them)
    /// hold it, of how many.
    pub have: u64,
    pub of: u64,
    /// `records`, `chunks` or `tool calls`.
    pub unit: &'static str,
    /// Why the survey proposed it.
    pub why: Option<String>,
}

/// The turn fields listed whether mapped or not: those a turn needs, and
/// what it is graded on.
const CENTRAL: [&str; 5] = ["turn_id", "agent_id", "created_at", "reply", "chunks"];

/// Each field of `map` that is mapped or set, and the central ones, with
/// the records that hold it.
pub(super) fn entries(
    r: &Records<'_>,
    map: &FieldMap,
    given: &FieldMap,
    proposed: &[Proposal],
) -> Vec<MapField> {
    let named = |f: &str| {
        map.explicit.iter().any(|(e, _)| e == f) || map.constants.iter().any(|(c, _)| c == f)
    };
    let records = r.lines.len() as u64;
    let mut out = Vec::new();
    let entry = |field: String, value: String, have: u64, of: u64, unit| {
        let origin = if given.explicit.iter().any(|(f, _)| *f == field)
            || given.constants.iter().any(|(f, _)| *f == field)
        {
            Origin::Given
        } else if proposed.iter().any(|p| p.field == field) {
            Origin::Proposed
        } else {
            Origin::Native
        };
        let flag = if map.constants.iter().any(|(f, _)| *f == field) {
            Some("--set")
        } else if map.explicit.iter().any(|(f, _)| *f == field) {
            Some("--map")
        } else {
            None
        };
        let why = proposed
            .iter()
            .find(|p| p.field == field)
            .map(|p| p.why.clone());
        MapField {
            field,
            flag,
            value,
            origin,
            have,
            of,
            unit,
            why,
        }
    };
    for (i, (field, _)) in TURN_FIELDS.iter().enumerate() {
        if !CENTRAL.contains(field) && !named(field) {
            continue;
        }
        let (value, have) = match map.constants.iter().find(|(f, _)| f == field) {
            Some((_, v)) => (v.clone(), records),
            None => (map.turn[i].clone(), holding(&r.values, &map.turn[i], field)),
        };
        out.push(entry((*field).to_owned(), value, have, records, "records"));
    }
    let spec = &map.turn[6];
    let keyed = Container::split(spec).is_ok_and(|(c, _)| c.keyed);
    let chunks = elements(&r.values, spec);
    for (i, (field, _)) in CHUNK_FIELDS.iter().enumerate() {
        let name = format!("chunk.{field}");
        let by_key = i == 0 && keyed;
        if !named(&name) && !by_key {
            continue;
        }
        let have = within(&chunks, &map.chunk[i], by_key);
        let mut e = entry(
            name,
            map.chunk[i].clone(),
            have,
            chunks.len() as u64,
            "chunks",
        );
        if by_key && e.origin != Origin::Given {
            e.why = Some("a chunk without one takes its key in the object".to_owned());
        }
        out.push(e);
    }
    let tools = elements(&r.values, &map.turn[8]);
    for (i, (field, _)) in TOOL_FIELDS.iter().enumerate() {
        let name = format!("tool.{field}");
        if named(&name) {
            let have = within(&tools, &map.tool[i], false);
            out.push(entry(
                name,
                map.tool[i].clone(),
                have,
                tools.len() as u64,
                "tool calls",
            ));
        }
    }
    out
}

/// Records with a value at `spec` (for the chunks, one that holds chunks
/// the way the spec says).
fn holding(values: &[Value], spec: &str, field: &str) -> u64 {
    if field != "chunks" {
        return values.iter().filter(|v| at(v, spec).is_some()).count() as u64;
    }
    let Ok((container, pointer)) = Container::split(spec) else {
        return 0;
    };
    values
        .iter()
        .filter_map(|v| at(v, pointer))
        .filter(|x| container.each(&x.to_string(), &mut |_, _| {}).is_ok())
        .count() as u64
}

/// Elements with a value at `pointer` (or, `by_key`, with a key instead).
fn within(elements: &[Element], pointer: &str, by_key: bool) -> u64 {
    elements
        .iter()
        .filter(|(key, e)| (by_key && key.is_some()) || at(e, pointer).is_some())
        .count() as u64
}

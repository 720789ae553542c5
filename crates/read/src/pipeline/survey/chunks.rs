//! Where the chunks are, and what each chunk holds: an array of objects,
//! an object of chunks keyed by id, or either as a JSON string — the shape
//! a map reads with `keyed:` and `json:` ([`Container`]).

use super::{Coverage, Nearest, Records, at, sorted};
use crate::dialect::mapped::Container;
use crate::pipeline::probe::{NearMiss, escape_token};
use serde_json::Value;
use std::collections::BTreeMap;

/// Each field within a chunk: its native name first, then the names that
/// stand for it.
pub(super) const CHUNK_NEAR: [(&str, &[&str]); 4] = [
    (
        "id",
        &["chunk_id", "id", "chunkId", "key", "passage_id", "node_id"],
    ),
    (
        "document_id",
        &[
            "document_id",
            "doc_id",
            "documentId",
            "doc",
            "source",
            "url",
            "title",
            "document",
        ],
    ),
    (
        "score",
        &[
            "score",
            "relevance",
            "relevance_score",
            "similarity",
            "rerank_score",
            "distance",
        ],
    ),
    (
        "content",
        &[
            "content",
            "text",
            "page_content",
            "snippet",
            "passage",
            "chunk",
        ],
    ),
];

/// The container a value is, when it can hold chunks: an array; an object
/// whose every member is an object (chunks keyed by id); a string holding
/// either as JSON, or a text of passages led by their sources.
pub(super) fn shape_of(v: &Value) -> Option<Container> {
    let keyed =
        |m: &serde_json::Map<String, Value>| !m.is_empty() && m.values().all(Value::is_object);
    let json = |keyed| Container {
        json: true,
        keyed,
        passages: false,
    };
    match v {
        Value::Array(_) => Some(Container::ARRAY),
        Value::Object(m) if keyed(m) => Some(Container {
            keyed: true,
            ..Container::ARRAY
        }),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Array(_)) => Some(json(false)),
            Ok(Value::Object(m)) if keyed(&m) => Some(json(true)),
            Ok(_) => None,
            Err(_) => (!crate::dialect::mapped::passages(s.trim()).is_empty())
                .then_some(Container::PASSAGES),
        },
        _ => None,
    }
}

/// The near-miss names of the chunks the records hold in a container, each
/// written as a map reads it (`json:keyed:/context`), with the share of
/// records holding it, most common first.
pub(super) fn candidates(r: &Records<'_>, nm: &NearMiss) -> Vec<Nearest> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for v in &r.values {
        for name in nm.names {
            let token = escape_token(name);
            let mut places = vec![format!("/{token}")];
            if *name != nm.field {
                places.push(format!("/grounding/{token}"));
            }
            for p in places {
                if let Some(c) = at(v, &p).and_then(shape_of) {
                    *counts.entry(format!("{}{p}", c.prefix())).or_default() += 1;
                }
            }
        }
    }
    sorted(counts, r.n())
}

/// One chunk: its key in a keyed container, and its value.
pub(super) type Element = (Option<String>, Value);

/// Every chunk of every record at `spec` (a chunks pointer with its
/// prefixes), read as the map reads it.
pub(super) fn elements(values: &[Value], spec: &str) -> Vec<Element> {
    let Ok((container, pointer)) = Container::split(spec) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for v in values {
        let Some(x) = at(v, pointer) else { continue };
        let _ = container.each(&x.to_string(), &mut |key, e| {
            if let Ok(e) = serde_json::from_str(e) {
                out.push((key.map(str::to_owned), e));
            }
        });
    }
    out
}

/// Coverage of one chunk field among `elements`: the share holding its
/// native name, and when that is under half, the other names by share.
/// None without chunks.
pub(super) fn coverage(elements: &[Element], field: &str, names: &[&str]) -> Option<Coverage> {
    if elements.is_empty() {
        return None;
    }
    let m = elements.len() as f64;
    let count = |name: &str| {
        elements
            .iter()
            .filter(|(_, e)| e.get(name).is_some_and(|x| !x.is_null()))
            .count() as f64
            / m
    };
    let own = count(names[0]);
    let mut nearest: Vec<Nearest> = if own < 0.5 {
        names[1..]
            .iter()
            .map(|name| Nearest {
                pointer: format!("/{}", escape_token(name)),
                share: count(name),
            })
            .filter(|x| x.share > 0.0)
            .collect()
    } else {
        Vec::new()
    };
    nearest.sort_by(|a, b| b.share.total_cmp(&a.share));
    Some(Coverage {
        field: format!("chunk.{field}"),
        pointer: format!("/{}", names[0]),
        share: own,
        nearest,
    })
}

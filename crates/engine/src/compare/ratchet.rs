//! The baseline `check --ratchet` writes: the better of the earlier
//! baseline and this run, by scope, so a baseline only moves up.
//!
//! A scope's numbers always come from one run together: the run-level
//! sections (totals, window, triage, daily series, guardrail, retrieval
//! use, tools, telemetry, input) from whichever side has the better overall
//! rate, and each group's entry with its daily series and its rows in the
//! guardrail and tools sections from whichever side has the better rate for
//! that group. `ratchet` in the document says which scopes were kept from
//! the earlier baseline.

use anyhow::{Context, Result};
use serde_json::{Value, json};

/// The sections that describe the run as a whole.
const RUN_SECTIONS: &[&str] = &[
    "totals",
    "window",
    "triage",
    "days",
    "guardrail",
    "retrieval_use",
    "tools",
    "telemetry",
    "input",
];

/// The lists that hold a row (or rows) per group, by `key`.
const GROUP_ROWS: &[&[&str]] = &[
    &["groups"],
    &["group_days"],
    &["guardrail", "by_group"],
    &["tools", "by_group"],
];

/// `new` (this run's summary document) with the scopes where `old` (the
/// earlier baseline, when one reads) was better replaced by `old`'s. Rates
/// compare as grounded / with_retrieval; a side without retrieval is never
/// better; a group this run did not see keeps its earlier entry.
pub fn better_baseline(old: Option<&[u8]>, new: &[u8]) -> Result<Vec<u8>> {
    let run: Value = serde_json::from_slice(new).context("this run's summary document")?;
    let Some(old) = old.and_then(|o| serde_json::from_slice::<Value>(o).ok()) else {
        return Ok(new.to_vec());
    };
    let mut doc = run.clone();
    let kept_overall = old
        .get("totals")
        .is_some_and(|t| better(t, run.get("totals")));
    if kept_overall {
        let fields = doc
            .as_object_mut()
            .context("the summary is not an object")?;
        for &section in RUN_SECTIONS {
            match old.get(section) {
                Some(v) => fields.insert(section.to_owned(), v.clone()),
                None => fields.remove(section),
            };
        }
    }
    let mut kept_groups = Vec::new();
    for k in group_keys(&old, &run) {
        let from_old =
            row(&old, &["groups"], &k).is_some_and(|o| better(o, row(&run, &["groups"], &k)));
        let src = if from_old { &old } else { &run };
        for path in GROUP_ROWS {
            take_rows(&mut doc, src, path, &k);
        }
        if from_old {
            kept_groups.push(k);
        }
    }
    doc["ratchet"] = json!({"kept_overall": kept_overall, "kept_groups": kept_groups});
    let mut out = serde_json::to_vec_pretty(&doc)?;
    out.push(b'\n');
    Ok(out)
}

fn rate(v: &Value) -> Option<f64> {
    let n = |k: &str| v.get(k).and_then(Value::as_u64);
    match (n("grounded"), n("with_retrieval")) {
        (Some(g), Some(w)) if w > 0 => Some(g as f64 / w as f64),
        _ => None,
    }
}

/// Whether the earlier side `o` beats this run's `n` (absent: it does).
fn better(o: &Value, n: Option<&Value>) -> bool {
    match (rate(o), n.and_then(rate)) {
        (Some(a), Some(b)) => a > b,
        (Some(_), None) => n.is_none(),
        _ => false,
    }
}

fn key_of(v: &Value) -> Option<&str> {
    v.get("key").and_then(Value::as_str)
}

fn list<'a>(doc: &'a Value, path: &[&str]) -> &'a [Value] {
    path.iter()
        .try_fold(doc, |v, p| v.get(p))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn row<'a>(doc: &'a Value, path: &[&str], k: &str) -> Option<&'a Value> {
    list(doc, path).iter().find(|r| key_of(r) == Some(k))
}

/// Every group either side names, earlier baseline first.
fn group_keys(old: &Value, run: &Value) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for g in list(old, &["groups"]).iter().chain(list(run, &["groups"])) {
        if let Some(k) = key_of(g)
            && !keys.iter().any(|have| have == k)
        {
            keys.push(k.to_owned());
        }
    }
    keys
}

/// Replaces `doc`'s rows of group `k` in the list at `path` by `src`'s,
/// where the first of them stood (else at the end).
fn take_rows(doc: &mut Value, src: &Value, path: &[&str], k: &str) {
    let rows: Vec<Value> = list(src, path)
        .iter()
        .filter(|r| key_of(r) == Some(k))
        .cloned()
        .collect();
    let Some(target) = path
        .iter()
        .try_fold(doc, |v, p| v.get_mut(p))
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let first = target.iter().position(|r| key_of(r) == Some(k));
    target.retain(|r| key_of(r) != Some(k));
    let at = first.unwrap_or(target.len()).min(target.len());
    target.splice(at..at, rows);
}

//! Fuzz target: the span dialects, from bytes to graded turns.
//!
//! The input goes, as it is, to every span format's `parse_line` (line by
//! line) and `parse_document` (whole); whatever spans come out are grouped
//! by trace id, assembled with both assembly options (last retrieval, every
//! retrieval) and graded with every marker preset.
//!
//! Beyond "no panic" it checks: a failed `parse_line` adds no span; a reason
//! is non-empty, at most ~300 bytes (plus the cut mark) and never carries
//! input back (the bytes `@@` in the input are replaced by a canary first,
//! so the fuzzer plants it cheaply, inside string values or anywhere);
//! chunk indexes are 1..=n in order; the verdict agrees with the chunk count
//! and the markers; rows and evidence serialise.

#![no_main]

use grounding_audit::dialect::spans::{
    AssembleOptions, OTLP, PHOENIX_DATAFRAME, PHOENIX_JSONL, PHOENIX_OTLP, Span, SpanFormat,
    assemble, is_document, parse_document, parse_line,
};
use grounding_audit::dialect::{ChunkRule, detect};
use grounding_audit::grade::grade;
use grounding_audit::markers::{Grammar, Preset};
use grounding_audit::model::Row;
use libfuzzer_sys::fuzz_target;

#[path = "../common/rows.rs"]
mod rows;
use std::collections::BTreeMap;

const FORMATS: [&SpanFormat; 4] = [&PHOENIX_JSONL, &PHOENIX_OTLP, &PHOENIX_DATAFRAME, &OTLP];

const PRESETS: [Preset; 5] = [
    Preset::Kb,
    Preset::Numeric,
    Preset::Doc,
    Preset::Footnote,
    Preset::Id,
];

/// What `@@` becomes: a value no reason may ever show.
const CANARY: &[u8] = b"PLANTEDzq7marker";

/// The longest reason: `MAX_REASON` (300) bytes and the `…` cut mark.
const MAX_REASON: usize = 400;

fn check_reason(reason: &str, planted: bool) {
    assert!(!reason.is_empty(), "empty reason");
    assert!(reason.len() <= MAX_REASON, "reason of {} bytes", reason.len());
    if planted {
        let c = std::str::from_utf8(CANARY).unwrap();
        assert!(!reason.contains(c), "reason quotes the input: {reason}");
    }
}

/// A span turn's row also numbers its chunks 1..=n in order.
fn check_row(row: &Row<'_>) {
    rows::check_row(row);
    for (i, c) in row.chunks.iter().enumerate() {
        assert_eq!(c.index as usize, i + 1, "chunk indexes are 1..=n");
    }
}

fn grade_all(spans: Vec<Span>) {
    let mut by: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for s in spans {
        by.entry(s.trace_id().to_owned()).or_default().push(s);
    }
    for (id, spans) in by {
        for retrievals in [ChunkRule::Prompt, ChunkRule::Last, ChunkRule::All] {
            let opts = AssembleOptions {
                retrievals,
                ..Default::default()
            };
            let t = assemble(&id, spans.clone(), &opts);
            let turn = t.turn();
            assert_eq!(turn.turn_id.as_str(), id);
            for (i, c) in turn.chunks.iter().enumerate() {
                assert_eq!(c.index as usize, i + 1);
            }
            assert_eq!(t.chunk_texts().len(), turn.chunks.len());
            serde_json::to_vec(&t.evidence_with(true)).expect("evidence serialises");
            for p in PRESETS {
                let row = grade(turn.clone(), &Grammar::Preset(p));
                assert_eq!(row.chunk_count as usize, turn.chunks.len());
                check_row(&row);
            }
        }
    }
}

/// `@@` → the canary; returns whether any was planted.
fn plant(data: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(data.len());
    let mut planted = false;
    let mut i = 0;
    while i < data.len() {
        if data[i..].starts_with(b"@@") {
            out.extend_from_slice(CANARY);
            planted = true;
            i += 2;
        } else {
            out.push(data[i]);
            i += 1;
        }
    }
    (out, planted)
}

fuzz_target!(|raw: &[u8]| {
    let (data, planted) = plant(raw);
    let data = &data[..];
    let _ = detect(None, data);
    for format in FORMATS {
        let _ = is_document(format, data);

        let mut spans = Vec::new();
        for line in data.split(|&b| b == b'\n') {
            let before = spans.len();
            if let Err(reason) = parse_line(format, line, &mut spans) {
                assert_eq!(spans.len(), before, "a failed line adds no span");
                check_reason(&reason, planted);
            }
        }
        grade_all(spans.into_iter().map(|s| *s).collect());

        let mut out = Vec::new();
        if let Err(reason) = parse_document(format, data, &mut out) {
            check_reason(&reason, planted);
        }
        let mut last = 1;
        for (line, _) in &out {
            assert!(*line >= 1, "line numbers are 1-based");
            last = last.max(*line);
        }
        assert!(last as usize <= data.len() + 1, "line number past the end");
        grade_all(out.into_iter().map(|(_, s)| s).collect());
    }
});

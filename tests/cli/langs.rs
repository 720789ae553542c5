//! LangSmith and Langfuse exports end to end: every genuine LangSmith
//! capture in `../shared/traces/` (LangChain tracer and `@traceable`), the
//! LangSmith bulk-export Parquet made from it, a run read in two parts
//! (create, then patch), the hand-made Langfuse exports in
//! `fixtures/langfuse/` (blob export JSONL with gzip and overlapping
//! windows, the legacy traces + observations pair, the UI's JSON array,
//! Parquet), the Phoenix dataframe Parquet, and the write-back formats.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The toy agent's eight turns in time order with the default (`numeric`)
/// grammar (see `traces.rs`): turn 2 cites by chunk id.
const TOY: [&str; 8] = [
    "ok",
    "no_marker",
    "no_marker",
    "orphan_marker",
    "empty_retrieval",
    "empty_retrieval",
    "orphan_marker",
    "ok",
];

/// The five hand-made Langfuse traces (see `scripts/langfuse_fixtures.py`).
const LANGFUSE: [&str; 5] = [
    "ok",
    "no_marker",
    "orphan_marker",
    "empty_retrieval",
    "orphan_marker",
];

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Rows of `report --all --format jsonl`, oldest first.
fn rows(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["report", "--all", "--format", "jsonl"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    let mut rows: Vec<Value> = out.lines().map(json).collect();
    rows.sort_by(|a, b| a["created_at"].as_str().cmp(&b["created_at"].as_str()));
    rows
}

fn verdicts(rows: &[Value]) -> Vec<&str> {
    rows.iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect()
}

fn chunk_ids(row: &Value) -> Vec<&str> {
    row["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["chunk_id"].as_str().unwrap())
        .collect()
}

/// The toy agent's checks, for any export of its eight turns.
fn toy_agent(what: &str, files: &[&str]) {
    let rows = rows(files);
    assert_eq!(verdicts(&rows), TOY, "{what}");
    assert_eq!(chunk_ids(&rows[0]), ["KB-1", "KB-2", "KB-7"], "{what}");
    // Turn 8 answered from its second retrieval.
    assert_eq!(chunk_ids(&rows[7]), ["KB-7", "KB-1", "KB-4"], "{what}");
    assert_eq!(rows[0]["agent_id"], "billing-bot", "{what}");
    assert_eq!(rows[0]["conversation_id"], "sess-a1", "{what}");
    assert_eq!(rows[0]["channel"], "web", "{what}");
    assert_eq!(rows[5]["tool_errors"], 1, "{what}");
    assert_eq!(rows[0]["chunks"][0]["score"], 0.37, "{what}");
    let mut by_id = vec!["--markers", "id"];
    by_id.extend_from_slice(files);
    let by_id = self::rows(&by_id);
    assert_eq!(by_id[1]["verdict"], "ok", "{what}");
    assert_eq!(by_id[1]["cited_chunks"], serde_json::json!([1]), "{what}");
}

fn langsmith_captures() -> Option<Vec<PathBuf>> {
    let dir = shared("traces")?;
    Some(vec![
        dir.join("langsmith-langchain/runs.jsonl"),
        dir.join("langsmith-traceable/runs.jsonl"),
    ])
}

#[test]
fn every_langsmith_capture_grades_as_its_readme_says() {
    let Some(files) = langsmith_captures() else {
        return;
    };
    for f in &files {
        toy_agent(p(f), &[p(f)]);
        let (code, out, err) = run(&["summary", "--format", "json", p(f)]);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        assert_eq!(v["input"]["turns"], 8);
        assert_eq!(v["input"]["invalid_lines"], 0);
    }
    // The trace id is the root run id (the README's turn table).
    let rows = rows(&[p(&files[0])]);
    assert_eq!(rows[0]["turn_id"], "01a22ba1-f55e-731e-8981-b9b09fdcc14b");
    assert_eq!(rows[7]["turn_id"], "01a22ba1-fec5-73a2-992e-7e6d00e03d88");
}

#[test]
fn langsmith_bulk_export_parquet_grades_like_its_jsonl() {
    if shared("traces").is_none() {
        return;
    }
    let f = fixture("langsmith/runs.parquet");
    toy_agent("runs.parquet", &[p(&f)]);
    // Rows count as input lines: 32 runs, 8 turns.
    let (_, out, _) = run(&["summary", "--format", "json", p(&f)]);
    let v = json(&out);
    assert_eq!(v["input"]["lines"], 32);
    assert_eq!(v["input"]["turns"], 8);
}

#[test]
fn a_run_posted_then_patched_is_merged_by_id() {
    let f = fixture("langsmith/create_patch.jsonl");
    let rows = rows(&[p(&f)]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["verdict"], "ok");
    assert_eq!(chunk_ids(&rows[0]), ["KB-1", "KB-2", "KB-7"]);
    assert!(rows[0]["latency_ms"].as_f64().unwrap() > 0.0);
    let (code, out, err) = run(&["explain", "01a22ba1-f55e-731e-8981-b9b09fdcc14b", p(&f)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("root span output (outputs.output)"), "{out}");
    // Read twice, the exact repeats are duplicates and the turn is the same.
    let (_, out, _) = run(&["summary", "--format", "json", p(&f), p(&f)]);
    let v = json(&out);
    assert_eq!(v["input"]["turns"], 1);
    assert_eq!(v["input"]["duplicates"], 6);
}

#[test]
fn every_langfuse_layout_grades_alike() {
    let layouts = [
        fixture("langfuse/observations_v2"),
        fixture("langfuse/legacy"),
        fixture("langfuse/ui_export.json"),
        fixture("langfuse/observations_v2.parquet"),
    ];
    for f in &layouts {
        let rows = rows(&[p(f)]);
        assert_eq!(verdicts(&rows), LANGFUSE, "{}", f.display());
        assert_eq!(
            chunk_ids(&rows[0]),
            ["KB-1", "KB-2", "KB-3"],
            "{}",
            f.display()
        );
        assert_eq!(rows[0]["agent_id"], "billing-bot", "{}", f.display());
        assert_eq!(rows[0]["conversation_id"], "sess-a1", "{}", f.display());
        assert_eq!(rows[0]["channel"], "web", "{}", f.display());
        assert_eq!(
            rows[0]["created_at"],
            "2026-03-04T09:15:01Z",
            "{}",
            f.display()
        );
        assert_eq!(rows[0]["model"], "gpt-4o-mini", "{}", f.display());
        assert_eq!(rows[0]["tokens_used"], 140, "{}", f.display());
        // `{documents, scores}`: the scores list fills each document's score.
        assert_eq!(rows[2]["chunks"][0]["score"], 0.8, "{}", f.display());
        assert_eq!(rows[3]["tool_errors"], 1, "{}", f.display());
    }
}

#[test]
fn overlapping_langfuse_windows_are_deduplicated_by_observation_id() {
    let dir = fixture("langfuse/observations_v2");
    let (code, out, err) = run(&["summary", "--format", "json", p(&dir)]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["input"]["files"], 2);
    assert_eq!(v["input"]["turns"], 5);
    assert_eq!(v["input"]["duplicates"], 1);
    // The same rows through the UI export and the blob export: one turn each.
    let (_, out, _) = run(&[
        "summary",
        "--format",
        "json",
        p(&dir),
        p(&fixture("langfuse/ui_export.json")),
    ]);
    assert_eq!(json(&out)["input"]["turns"], 5);
}

#[test]
fn phoenix_dataframe_parquet_grades_like_its_jsonl() {
    let Some(dir) = shared("traces/phoenix-openinference-langchain") else {
        return;
    };
    let parquet = dir.join("spans_dataframe.parquet");
    toy_agent("spans_dataframe.parquet", &[p(&parquet)]);
    // Same turns, verdicts and chunks; Parquet keeps nanosecond times and
    // full float precision where pandas' JSON rounds, so rows are not equal.
    let key = |r: &Value| {
        (
            r["turn_id"].clone(),
            r["verdict"].clone(),
            r["cited_chunks"].clone(),
            chunk_ids(r)
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
        )
    };
    let a: Vec<_> = rows(&[p(&parquet)]).iter().map(key).collect();
    let b: Vec<_> = rows(&[p(&dir.join("spans_dataframe.jsonl"))])
        .iter()
        .map(key)
        .collect();
    assert_eq!(a, b);
}

#[test]
fn langfuse_scores_are_one_categorical_score_per_trace() {
    let (code, out, err) = run(&[
        "convert",
        "--to",
        "langfuse-scores",
        p(&fixture("langfuse/observations_v2")),
    ]);
    assert_eq!(code, 0, "{err}");
    let scores: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(scores.len(), 5);
    let first = scores
        .iter()
        .find(|s| s["traceId"] == "4bf92f3577b34da6a3ce929d0e0e4736")
        .unwrap();
    assert_eq!(
        first["id"],
        "4bf92f3577b34da6a3ce929d0e0e4736-citation_grounding"
    );
    assert_eq!(first["observationId"], "11b2c3d4e5f60718");
    assert_eq!(first["name"], "citation_grounding");
    assert_eq!(first["dataType"], "CATEGORICAL");
    assert_eq!(first["value"], "ok");
    assert!(first["comment"].as_str().unwrap().contains("cites chunk 1"));
    // Legacy: the reply is the trace's own output, so the score is on the trace.
    let (_, out, _) = run(&[
        "convert",
        "--to",
        "langfuse-scores",
        p(&fixture("langfuse/legacy")),
    ]);
    let legacy: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(legacy.len(), 5);
    assert!(legacy.iter().all(|s| s.get("observationId").is_none()));
}

#[test]
fn langsmith_feedback_is_on_the_reply_run() {
    let Some(files) = langsmith_captures() else {
        return;
    };
    let (code, out, err) = run(&["convert", "--to", "langsmith-feedback", p(&files[0])]);
    assert_eq!(code, 0, "{err}");
    let fb: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(fb.len(), 8);
    let by_trace = |id: &str| fb.iter().find(|f| f["trace_id"] == id).unwrap();
    let ok = by_trace("01a22ba1-f55e-731e-8981-b9b09fdcc14b");
    assert_eq!(ok["run_id"], "01a22ba1-f55e-731e-8981-b9b09fdcc14b");
    assert_eq!(ok["key"], "citation_grounding");
    assert_eq!(ok["score"], 1);
    assert_eq!(ok["value"], "ok");
    let orphan = by_trace("01a22ba1-f9e8-70cf-b4c2-ac2e32083930");
    assert_eq!(orphan["score"], 0);
    assert_eq!(orphan["value"], "orphan_marker");
    let small_talk = by_trace("01a22ba1-fb1e-7680-b6d2-84a3701a2110");
    assert!(small_talk.get("score").is_none());
    assert_eq!(small_talk["value"], "empty_retrieval");
    // Native turns are not from a trace export: no run to address.
    let native = fixture("demo.jsonl");
    let (code, out, err) = run(&["convert", "--to", "langsmith-feedback", p(&native)]);
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("no LangSmith run UUID"), "{err}");
}

#[test]
fn an_unreadable_parquet_file_is_an_input_error() {
    // Like a broken gzip or zstd stream: the source cannot be decoded.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("broken.parquet");
    std::fs::write(&f, b"PAR1 this is not really parquet").unwrap();
    let (code, out, err) = run(&["summary", "--format", "json", p(&f)]);
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("broken.parquet: not a readable Parquet file"),
        "{err}"
    );
}

/// Each row group's first column chunks (byte start and length), by the
/// file's own metadata.
fn column_chunks(data: &[u8]) -> Vec<Vec<(u64, u64)>> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(bytes::Bytes::from(data.to_vec())).unwrap();
    reader
        .metadata()
        .row_groups()
        .iter()
        .map(|rg| {
            rg.columns()
                .iter()
                .take(4)
                .map(|c| c.byte_range())
                .collect()
        })
        .collect()
}

/// One byte changed in a row group's pages: the command stops with an
/// input error naming the file and the row group, or reads every row.
/// It never reads fewer rows and exits 0 (a first row group that failed
/// was skipped: 20 of 32 LangSmith runs, exit 0).
#[test]
fn a_corrupt_parquet_row_group_is_an_input_error_naming_it() {
    for (rel, lines) in [
        ("langsmith/runs.parquet", 32),
        ("langfuse/observations_v2.parquet", 15),
    ] {
        let data = std::fs::read(fixture(rel)).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("corrupt.parquet");
        for (g, chunks) in column_chunks(&data).iter().enumerate() {
            let mut errors = 0;
            for &(start, len) in chunks {
                for at in [start + 1, start + len / 2, start + len - 2] {
                    let mut b = data.clone();
                    b[at as usize] ^= 0x5a;
                    std::fs::write(&bad, &b).unwrap();
                    let (code, out, err) = run(&["summary", "--format", "json", p(&bad)]);
                    if code == 3 {
                        assert!(err.contains(p(&bad)), "{rel} byte {at}: {err}");
                        let group = format!("row group {}:", g + 1);
                        assert!(err.contains(&group), "{rel} byte {at}: {err}");
                        errors += 1;
                    } else {
                        assert_eq!(code, 0, "{rel} byte {at}: {err}");
                        assert_eq!(json(&out)["input"]["lines"], lines, "{rel} byte {at}");
                    }
                }
            }
            assert!(
                errors > 0,
                "{rel}: no corruption of row group {} failed",
                g + 1
            );
        }
    }
}

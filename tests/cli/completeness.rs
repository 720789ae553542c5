//! Evidence completeness on real exports: whether a file holds the
//! retrieval an audit reads, and why not, per turn, in `summary` (JSON,
//! CSV, metrics), `inspect` and a converted turn log. The gaps are made
//! the way the world makes them: a genuine capture with what a writer
//! leaves out removed (a retriever's documents; OTel GenAI content).

use crate::common::{json, run, shared};
use serde_json::Value;
use std::path::Path;

/// The `evidence` counts of a summary's totals, in value order.
fn totals(path: &Path) -> [u64; 5] {
    let (code, out, err) = run(&["summary", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let e = json(&out)["totals"]["evidence"].clone();
    [
        "documents",
        "no_retrieval",
        "documents_not_recorded",
        "content_not_recorded",
        "partial_trace",
    ]
    .map(|k| e[k].as_u64().unwrap_or_else(|| panic!("{k} in {e}")))
}

/// A copy of a JSON-lines file with `edit` applied to each record.
fn edited(
    dir: &tempfile::TempDir,
    src: &Path,
    name: &str,
    edit: fn(&mut Value),
) -> std::path::PathBuf {
    let text = std::fs::read_to_string(src).unwrap();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            edit(&mut v);
            v.to_string()
        })
        .collect();
    let p = dir.path().join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

#[test]
fn real_exports_say_what_they_hold() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    // A provider's file search with its results: documents.
    let search = corpus.join(
        "vcr-openai-filesearch/pydantic_ai_test_openai_responses_model_file_search_tool_with_results.yaml",
    );
    assert_eq!(totals(&search), [1, 0, 0, 0, 0]);
    // A Langfuse trace of an agent that retrieved nothing.
    assert_eq!(
        totals(&corpus.join("langfuse/crewai-2025-07-11.trace.json")),
        [0, 1, 0, 0, 0]
    );
    // An OTLP export holding one span of its trace, not the root.
    assert_eq!(
        totals(&corpus.join("otlp/otlp2jaeger-in.json")),
        [0, 0, 0, 0, 1]
    );
}

#[test]
fn a_retriever_without_its_documents_is_not_a_turn_without_retrieval() {
    let Some(src) = shared("traces/phoenix-openinference-langchain/spans.jsonl") else {
        return;
    };
    // As captured: 5 turns with documents, 3 without retrieval.
    assert_eq!(totals(&src), [5, 3, 0, 0, 0]);
    let dir = tempfile::tempdir().unwrap();
    let stripped = edited(&dir, &src, "no-docs.jsonl", |v| {
        if v["span_kind"] == "RETRIEVER" {
            let a = v["attributes"].as_object_mut().unwrap();
            a.retain(|k, _| !k.starts_with("retrieval.documents") && !k.starts_with("output."));
        }
    });
    // Every turn whose retriever ran is now one whose documents the
    // export does not hold (one of them had returned nothing).
    assert_eq!(totals(&stripped), [0, 2, 6, 0, 0]);
    // explain does not say that no retrieval ran.
    let (_, rows, _) = run(&["report", "--format", "jsonl", stripped.to_str().unwrap()]);
    let row = rows
        .lines()
        .map(json)
        .find(|r| r["evidence"] == "documents_not_recorded" && r["verdict"] == "empty_retrieval")
        .expect("an empty_retrieval turn without its documents");
    let id = row["turn_id"].as_str().unwrap();
    let (code, out, err) = run(&["explain", id, stripped.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "verdict empty_retrieval: the export holds no retrieved document: a retrieval step ran"
        ),
        "{out}"
    );
    assert!(!out.contains("no retrieval ran"), "{out}");
    // A converted log states it, and reads back the same.
    let (code, log, err) = run(&["convert", "--to", "turns", stripped.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        log.matches(r#""evidence":"documents_not_recorded""#)
            .count(),
        6
    );
    let back = dir.path().join("turns.jsonl");
    std::fs::write(&back, log).unwrap();
    assert_eq!(totals(&back), [0, 2, 6, 0, 0]);
    // inspect says it per file; CSV per agent and day adds up to the turns.
    let (_, out, _) = run(&["inspect", stripped.to_str().unwrap()]);
    assert!(
        out.contains("evidence: 0 of 8 turns with their retrieved documents (0%)"),
        "{out}"
    );
    assert!(
        out.contains("6 documents_not_recorded: a retrieval step ran"),
        "{out}"
    );
    let (code, csv, err) = run(&[
        "summary",
        "--format",
        "csv",
        "--section",
        "evidence",
        stripped.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "group,day,turns,auditable_share,documents,no_retrieval,documents_not_recorded,content_not_recorded,partial_trace"
        )
    );
    let not_recorded: u64 = lines
        .map(|l| l.split(',').nth(6).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(not_recorded, 6);
}

#[test]
fn content_capture_off_is_named_as_the_cause() {
    let Some(src) = shared("traces/otlp-genai-util/traces.otlp.jsonl") else {
        return;
    };
    assert_eq!(totals(&src), [5, 3, 0, 0, 0]);
    // What OTel GenAI instrumentations leave out without content capture:
    // messages, instructions, the retrieval query and its documents.
    let dir = tempfile::tempdir().unwrap();
    let off = edited(&dir, &src, "content-off.jsonl", |v| {
        const OPT_IN: [&str; 5] = [
            "gen_ai.input.messages",
            "gen_ai.output.messages",
            "gen_ai.system_instructions",
            "gen_ai.retrieval.query.text",
            "gen_ai.retrieval.documents",
        ];
        for rs in v["resourceSpans"].as_array_mut().unwrap() {
            for ss in rs["scopeSpans"].as_array_mut().unwrap() {
                for sp in ss["spans"].as_array_mut().unwrap() {
                    if let Some(attrs) = sp["attributes"].as_array_mut() {
                        attrs.retain(|a| !OPT_IN.contains(&a["key"].as_str().unwrap_or("")));
                    }
                }
            }
        }
    });
    assert_eq!(totals(&off), [0, 0, 0, 8, 0]);
    let (code, metrics, err) = run(&["summary", "--format", "prometheus", off.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        metrics
            .contains(r#"grounding_audit_evidence_turns_total{evidence="content_not_recorded"} 8"#),
        "{metrics}"
    );
    assert!(
        metrics.contains("grounding_audit_auditable_ratio 0\n"),
        "{metrics}"
    );
}

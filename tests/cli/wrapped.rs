//! Provider calls recorded by the tracing SDKs that wrap them, around
//! responses recorded in `../shared/provider-citations/`: LangSmith runs of
//! `wrap_anthropic` and `wrap_openai` (`fixtures/langsmith/wrapped/`),
//! OpenInference spans of its Anthropic and OpenAI instrumentors
//! (`fixtures/openinference/provider-calls/`), and Langfuse generations.
//! Each call's structured citations grade its turn as the same recording
//! does as an exchange line, however the SDK's parts arrive.

use crate::common::{fixture, shared};
use crate::exchange::{GRADED, Recording, grade, non_streamed, recordings, report_rows};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

fn runs_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn runs() -> Vec<Value> {
    runs_of(&fixture("langsmith/wrapped/runs.jsonl"))
}

/// Each turn's recording (`extra.metadata.recording`), by trace id, in
/// LangSmith runs.
fn recording_of_trace(path: &Path) -> BTreeMap<String, String> {
    runs_of(path)
        .iter()
        .filter(|r| r["parent_run_id"].is_null())
        .map(|r| {
            let stem = r["extra"]["metadata"]["recording"].as_str().unwrap();
            (r["id"].as_str().unwrap().to_owned(), stem.to_owned())
        })
        .collect()
}

fn graded(path: &Path) -> BTreeMap<String, Value> {
    report_rows(&[], path)
}

fn write_lines(dir: &Path, name: &str, lines: &[Value]) -> std::path::PathBuf {
    let path = dir.join(name);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn wrapped_calls_grade_by_their_citations() {
    let rows = graded(&fixture("langsmith/wrapped/runs.jsonl"));
    let stems = recording_of_trace(&fixture("langsmith/wrapped/runs.jsonl"));
    assert_eq!(rows.len(), 10);
    let mut by_provider = BTreeMap::new();
    for (trace, row) in &rows {
        let stem = &stems[trace];
        if stem == "ruby_llm__responses_web_search.1" {
            // Nothing cited: the reply text's markers grade it.
            assert_eq!(row["verdict"], "empty_retrieval", "{stem}: {row}");
            assert_eq!(row["markers_from"], "reply", "{stem}: {row}");
            continue;
        }
        assert_eq!(row["verdict"], "ok", "{stem}: {row}");
        let from = row["markers_from"].as_str().unwrap().to_owned();
        *by_provider.entry(from).or_insert(0) += 1;
    }
    let want = BTreeMap::from([("anthropic".to_owned(), 5), ("openai".to_owned(), 4)]);
    assert_eq!(by_provider, want);
}

/// Each root span's recording (its `metadata` attribute), by trace id, in
/// an OTLP/JSON export.
fn recording_of_span_trace(path: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let req: Value = serde_json::from_str(line).unwrap();
        for rs in req["resourceSpans"].as_array().unwrap() {
            for ss in rs["scopeSpans"].as_array().unwrap() {
                for span in ss["spans"].as_array().unwrap() {
                    if span.get("parentSpanId").is_some() {
                        continue;
                    }
                    // OpenInference's `metadata` (a JSON object), or Langfuse's
                    // `langfuse.observation.metadata.recording` (a JSON string).
                    let attr = |key: &str| -> Option<Value> {
                        let attrs = span["attributes"].as_array()?;
                        let a = attrs.iter().find(|a| a["key"] == key)?;
                        serde_json::from_str(a["value"]["stringValue"].as_str()?).ok()
                    };
                    let stem = attr("metadata")
                        .map(|m| m["recording"].clone())
                        .or_else(|| attr("langfuse.observation.metadata.recording"))
                        .unwrap();
                    let trace = span["traceId"].as_str().unwrap().to_owned();
                    out.insert(trace, stem.as_str().unwrap().to_owned());
                }
            }
        }
    }
    out
}

#[test]
fn wrapped_calls_grade_like_their_exchange_lines() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let runs = fixture("langsmith/wrapped/runs.jsonl");
    let spans = fixture("openinference/provider-calls/traces.otlp.jsonl");
    let compared = like_exchange_lines(&dir, &runs, recording_of_trace(&runs));
    assert_eq!(compared, 9);
    assert_eq!(graded(&spans).len(), 10);
    let compared = like_exchange_lines(&dir, &spans, recording_of_span_trace(&spans));
    assert_eq!(compared, 9);
}

/// LangChain's `ChatAnthropic` under LangChain's LangSmith tracer: the
/// run's inputs are serialized LangChain messages and its outputs a chat
/// result, whose content blocks keep the documents and the citations.
#[test]
fn langchain_anthropic_runs_grade_like_their_exchange_lines() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let runs = fixture("langsmith/langchain-anthropic/runs.jsonl");
    assert_eq!(
        like_exchange_lines(&dir, &runs, recording_of_trace(&runs)),
        5
    );
    // Citations moved past the documents given are orphans.
    let mut lines = runs_of(&runs);
    let mut moved = BTreeMap::new();
    for r in &mut lines {
        if shift_indices(&mut r["outputs"]) {
            moved.insert(r["trace_id"].as_str().unwrap().to_owned(), ());
        }
    }
    assert_eq!(moved.len(), 4, "turns 1 to 4 cite given documents");
    let tmp = tempfile::tempdir().unwrap();
    let rows = graded(&write_lines(tmp.path(), "moved.jsonl", &lines));
    for trace in moved.keys() {
        assert_eq!(rows[trace]["verdict"], "orphan_marker", "{}", rows[trace]);
    }
}

/// Adds 7 to every `document_index` and `search_result_index` in `v`;
/// true when there was one.
fn shift_indices(v: &mut Value) -> bool {
    match v {
        Value::Object(m) => {
            let mut any = false;
            for (k, x) in m.iter_mut() {
                match (k.as_str(), x.as_u64()) {
                    ("document_index" | "search_result_index", Some(i)) => {
                        *x = json!(i + 7);
                        any = true;
                    }
                    _ => any |= shift_indices(x),
                }
            }
            any
        }
        Value::Array(a) => a.iter_mut().fold(false, |any, x| shift_indices(x) | any),
        _ => false,
    }
}

/// Langfuse's OpenAI integration records a Responses call's output items
/// (read as the response they came from) and a chat completion's message
/// as its role and content alone: that call's citations are not recorded,
/// so it is graded by its reply text.
#[test]
fn langfuse_openai_calls_grade_like_their_exchange_lines() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let spans = fixture("langfuse/provider-calls/traces.otlp.jsonl");
    let mut stems = recording_of_span_trace(&spans);
    let chat = "ruby_llm__chatcompletions_search_preview_url_citation.0";
    let (trace, _) = stems.iter().find(|(_, s)| *s == chat).unwrap();
    let trace = trace.clone();
    stems.remove(&trace);
    assert_eq!(like_exchange_lines(&dir, &spans, stems), 3);
    let row = &graded(&spans)[&trace];
    assert_eq!(row["markers_from"], "reply", "{row}");
    assert_eq!(row["verdict"], "empty_retrieval", "{row}");
}

/// Compares each traced call of `path` (its recording by trace id) with the
/// recording's exchange line on every graded column; a call its recording
/// grades without citations is graded by its reply text. Returns how many
/// were compared.
fn like_exchange_lines(dir: &Path, path: &Path, stems: BTreeMap<String, String>) -> usize {
    let recs: Vec<Recording> = recordings(dir);
    let lines = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    let rows = graded(path);
    let mut compared = 0;
    for (trace, stem) in stems {
        let rec = recs.iter().find(|r| r.stem == stem).expect(&stem);
        let line = &lines[&format!("{}/{stem}", rec.provider)];
        if line["marker_count"] == 0 {
            assert_eq!(rows[&trace]["markers_from"], "reply", "{stem}");
            continue;
        }
        for k in GRADED {
            assert_eq!(rows[&trace][k], line[k], "{stem} {k}: {}", rows[&trace]);
        }
        compared += 1;
    }
    compared
}

#[test]
fn the_sdks_posted_parts_grade_as_the_merged_runs() {
    let merged = graded(&fixture("langsmith/wrapped/runs.jsonl"));
    let posted = graded(&fixture("langsmith/wrapped/batch.json"));
    assert_eq!(posted, merged);
}

/// Every run as the SDK's two parts, its start (with `inputs`) and its end
/// (`outputs` only), the documents given held until the citations arrive.
#[test]
fn create_and_patch_lines_grade_as_whole_runs() {
    let mut lines = Vec::new();
    let mut patches = Vec::new();
    for mut r in runs() {
        let m = r.as_object_mut().unwrap();
        let outputs = m.remove("outputs").unwrap_or(Value::Null);
        let end = m.remove("end_time").unwrap_or(Value::Null);
        patches.push(json!({"id": m["id"], "outputs": outputs, "end_time": end}));
        lines.push(r);
    }
    lines.extend(patches);
    let tmp = tempfile::tempdir().unwrap();
    let split = graded(&write_lines(tmp.path(), "parts.jsonl", &lines));
    assert_eq!(split, graded(&fixture("langsmith/wrapped/runs.jsonl")));
}

/// Anthropic citations moved past the documents the call was given are
/// orphans; each cited a document given in its request.
#[test]
fn wrapped_citations_pointed_outside_are_orphans() {
    let mut lines = runs();
    let mut moved = BTreeMap::new();
    for r in &mut lines {
        let trace = r["trace_id"].as_str().unwrap().to_owned();
        let Some(content) = r["outputs"]["content"].as_array_mut() else {
            continue;
        };
        for block in content {
            let Some(cites) = block["citations"].as_array_mut() else {
                continue;
            };
            for c in cites {
                for k in ["document_index", "search_result_index"] {
                    if let Some(i) = c[k].as_u64() {
                        c[k] = json!(i + 7);
                        moved.insert(trace.clone(), ());
                    }
                }
            }
        }
    }
    assert_eq!(moved.len(), 4, "turns 1 to 4 cite given documents");
    let tmp = tempfile::tempdir().unwrap();
    let rows = graded(&write_lines(tmp.path(), "moved.jsonl", &lines));
    for trace in moved.keys() {
        assert_eq!(rows[trace]["verdict"], "orphan_marker", "{}", rows[trace]);
        assert_eq!(rows[trace]["markers_from"], "anthropic");
    }
}

/// Every recording that cites, as the one generation of a Langfuse trace
/// download shaped as Langfuse's Vertex AI integration writes it
/// (`tests/corpus/langfuse/vertex-ai-2025-08-01.trace.json`: the request
/// and response bodies as JSON strings on the generation, the trace's
/// input and output the same bodies encoded once more), grades as its
/// exchange line.
#[test]
fn langfuse_generations_grade_like_their_exchange_lines() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let (recs, want) = non_streamed(&dir);
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/langfuse/vertex-ai-2025-08-01.trace.json");
    let shape: Value = serde_json::from_str(&std::fs::read_to_string(corpus).unwrap()).unwrap();
    let mut lines = Vec::new();
    for (i, r) in recs.iter().enumerate() {
        let (req, resp) = (
            r.line["request"].to_string(),
            r.line["response"].to_string(),
        );
        let mut doc = shape.clone();
        let trace = format!("{:032x}", i + 1);
        doc["trace"]["id"] = json!(trace);
        doc["trace"]["input"] = json!(Value::String(req.clone()).to_string());
        doc["trace"]["output"] = json!(Value::String(resp.clone()).to_string());
        for path in ["/observations", "/trace/observations"] {
            let Some(list) = doc.pointer_mut(path).and_then(Value::as_array_mut) else {
                continue;
            };
            for o in list {
                o["traceId"] = json!(trace);
                o["input"] = json!(req);
                o["output"] = json!(resp);
            }
        }
        lines.push(doc);
    }
    let tmp = tempfile::tempdir().unwrap();
    let got = graded(&write_lines(tmp.path(), "langfuse.jsonl", &lines));
    let mut cited = 0;
    for (i, r) in recs.iter().enumerate() {
        let line = &want[r.line["id"].as_str().unwrap()];
        let row = &got[&format!("{:032x}", i + 1)];
        if line["unobserved_reason"] == "no_reply" {
            // A call answered by a tool request alone: no answer either way.
            assert_eq!(row["verdict"], "unobserved", "{}: {row}", r.stem);
            continue;
        }
        if line["marker_count"] == 0 {
            assert_ne!(
                row["markers_from"], line["markers_from"],
                "{}: {row}",
                r.stem
            );
            continue;
        }
        for k in [
            "verdict",
            "markers_from",
            "marker_count",
            "cited_chunks",
            "chunks",
        ] {
            assert_eq!(row[k], line[k], "{} {k}: {row}", r.stem);
        }
        for k in [
            "quotes_exact",
            "quotes_normalised",
            "quotes_absent",
            "offsets_mismatched",
        ] {
            assert_eq!(row[k], line[k], "{} {k}: {row}", r.stem);
        }
        cited += 1;
    }
    assert!(cited >= 37, "{cited} generations graded by their citations");
    eprintln!("{cited} Langfuse generations graded by their provider citations");
}

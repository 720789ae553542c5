//! Span dialects end to end: every genuine export in `../shared/traces/`
//! (Phoenix JSONL, REST page, OTLP-JSON download and dataframe lines; OTLP
//! from the OTel GenAI util, from OpenLLMetry and from the Langfuse SDK)
//! grades as its README says,
//! spans assemble across files in any order, and verdicts write back onto
//! the reply span.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The toy agent's eight turns in time order, graded with the default
/// (`numeric`) grammar: turn 2 cites by chunk id, so it is `no_marker`
/// here and `ok` with `--markers id`.
const EXPECTED: [&str; 8] = [
    "ok",
    "no_marker",
    "no_marker",
    "orphan_marker",
    "empty_retrieval",
    "empty_retrieval",
    "orphan_marker",
    "ok",
];

fn exports() -> Option<Vec<PathBuf>> {
    let dir = shared("traces")?;
    Some(
        [
            "phoenix-openinference-langchain/spans.jsonl",
            "phoenix-openinference-langchain/spans.otlp.json",
            "phoenix-openinference-langchain/spans_dataframe.jsonl",
            "phoenix-openinference-langchain/spans_dataframe.iso.jsonl",
            "otlp-genai-util/traces.otlp.jsonl",
            "otlp-genai-util/traces.sdk-json-file.jsonl",
            "otlp-openllmetry-langchain/traces.otlp.jsonl",
            "otlp-openllmetry-langchain/traces.sdk-json-file.jsonl",
            // Langfuse: observation types, the root's observation output,
            // retriever output JSON, double-encoded metadata. Its fake model
            // has no name and Langfuse computes cost server-side, so model
            // and cost cannot be known from this export.
            "langfuse-otel-langchain/traces.otlp.jsonl",
            "langfuse-otel-langchain/traces.sdk-json-file.jsonl",
        ]
        .iter()
        .map(|f| dir.join(f))
        .collect(),
    )
}

/// Rows of `report --all --format jsonl`, oldest first.
fn rows(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["report", "--all", "--format", "jsonl"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    let mut rows: Vec<Value> = out.lines().map(json).collect();
    rows.sort_by(|a, b| a["created_at"].as_str().cmp(&b["created_at"].as_str()));
    rows
}

fn verdicts(rows: &[Value]) -> Vec<&str> {
    rows.iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn every_export_grades_as_its_readme_says() {
    let Some(files) = exports() else { return };
    for f in &files {
        let rows = rows(&[p(f)]);
        assert_eq!(verdicts(&rows), EXPECTED, "{}", f.display());
        // Turn 8 answered from its second retrieval: KB-7, KB-1, KB-4.
        let ids: Vec<&str> = rows[7]["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["chunk_id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["KB-7", "KB-1", "KB-4"], "{}", f.display());
        assert_eq!(rows[0]["agent_id"], "billing-bot", "{}", f.display());
        assert_eq!(rows[0]["conversation_id"], "sess-a1", "{}", f.display());
        assert_eq!(rows[5]["tool_errors"], 1, "{}", f.display());
        if f.to_string_lossy().contains("langfuse") {
            // `langfuse.trace.metadata.channel` = "\"web\"" (JSON-encoded).
            assert!(rows.iter().all(|r| r["channel"] == "web"), "{rows:?}");
            assert!(rows.iter().all(|r| r["model"].is_null()), "{rows:?}");
            assert!(rows.iter().all(|r| r["cost_cents"].is_null()), "{rows:?}");
            assert_eq!(rows[0]["tokens_used"], 150, "{}", f.display());
        }
        // Turn 2 cites [KB-4] by chunk id.
        let by_id = self::rows(&["--markers", "id", p(f)]);
        assert_eq!(by_id[1]["verdict"], "ok", "{}", f.display());
        assert_eq!(by_id[1]["cited_chunks"], serde_json::json!([1]));
    }
}

#[test]
fn every_export_works_with_summary_check_explain_and_evidence() {
    let Some(files) = exports() else { return };
    for f in &files {
        let (code, out, err) = run(&["summary", "--format", "json", p(f)]);
        assert_eq!(code, 0, "{}: {err}", f.display());
        let v = json(&out);
        assert_eq!(v["input"]["turns"], 8, "{}", f.display());
        let (code, _, err) = run(&["check", "--min-rate", "0.9", p(f)]);
        assert_eq!(code, 1, "{}: {err}", f.display());
        let (_, out, _) = run(&["evidence", p(f)]);
        let recs: Vec<Value> = out.lines().map(json).collect();
        assert_eq!(recs.len(), 8, "{}", f.display());
        assert!(recs.iter().all(|r| r["dialect"].is_string()));
        let id = rows(&[p(f)])[7]["turn_id"].as_str().unwrap().to_owned();
        let (code, out, err) = run(&["explain", &id, p(f)]);
        assert_eq!(code, 0, "{}: {err}", f.display());
        assert!(out.contains("verdict ok"), "{out}");
        assert!(out.contains("retrieval"), "{out}");
    }
}

/// Spans of one trace spread over files, in any order, assemble as one turn.
#[test]
fn spans_assemble_across_files_in_any_order() {
    let Some(dir) = shared("traces/phoenix-openinference-langchain") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("spans.jsonl")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    // Oldest first instead of newest first, and dealt into three files.
    lines.reverse();
    let tmp = tempfile::tempdir().unwrap();
    let mut parts = [String::new(), String::new(), String::new()];
    for (i, l) in lines.iter().enumerate() {
        parts[i % 3].push_str(l);
        parts[i % 3].push('\n');
    }
    let paths: Vec<PathBuf> = parts
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let f = tmp.path().join(format!("part{i}.jsonl"));
            std::fs::write(&f, s).unwrap();
            f
        })
        .collect();
    let args: Vec<&str> = paths.iter().map(|f| p(f)).collect();
    let split = rows(&args);
    let whole = rows(&[p(&dir.join("spans.jsonl"))]);
    assert_eq!(split, whole);
    // The same spans twice are duplicates, span by span.
    let (_, out, _) = run(&[
        "summary", "--format", "json", args[0], args[1], args[2], args[0],
    ]);
    let v = json(&out);
    assert_eq!(v["input"]["turns"], 8);
    assert!(v["input"]["duplicates"].as_u64().unwrap() > 0);
}

/// A trace whose root never arrived is a turn, `unobserved` / `no_root`.
#[test]
fn a_trace_without_its_root_is_unobserved_no_root() {
    let Some(dir) = shared("traces/phoenix-openinference-langchain") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("spans.jsonl")).unwrap();
    let kept: String = text
        .lines()
        .filter(|l| !l.contains("\"parent_id\":null"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (code, out, err) = run_stdin(&["report", "--all", "--format", "jsonl"], kept.as_bytes());
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(rows.len(), 8);
    assert!(
        rows.iter()
            .all(|r| r["verdict"] == "unobserved" && r["unobserved_reason"] == "no_root"),
        "{out}"
    );
}

#[test]
fn verdicts_write_back_onto_the_reply_span() {
    let Some(files) = exports() else { return };
    let f = &files[4]; // the OTel GenAI util: the reply is on the invoke_agent root
    let (code, out, err) = run(&["convert", "--to", "otel-eval", p(f)]);
    assert_eq!(code, 0, "{err}");
    let events: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(events.len(), 8);
    for e in &events {
        let rec = &e["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0];
        assert_eq!(rec["eventName"], "gen_ai.evaluation.result");
        assert_eq!(rec["traceId"].as_str().unwrap().len(), 32, "{rec}");
        assert_eq!(rec["spanId"].as_str().unwrap().len(), 16, "{rec}");
        let attrs = rec["attributes"].as_array().unwrap();
        let get = |k: &str| {
            attrs
                .iter()
                .find(|a| a["key"] == k)
                .map(|a| a["value"].clone())
        };
        assert_eq!(
            get("gen_ai.evaluation.name").unwrap()["stringValue"],
            "citation_grounding"
        );
        let label = get("gen_ai.evaluation.score.label").unwrap()["stringValue"].clone();
        let score = get("gen_ai.evaluation.score.value");
        match label.as_str().unwrap() {
            "ok" => assert_eq!(score.unwrap()["doubleValue"], 1.0),
            "no_marker" | "orphan_marker" => assert_eq!(score.unwrap()["doubleValue"], 0.0),
            _ => assert!(score.is_none()),
        }
    }
    let (code, out, err) = run(&["convert", "--to", "phoenix-annotations", p(&files[0])]);
    assert_eq!(code, 0, "{err}");
    let notes: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(notes.len(), 8);
    assert!(notes.iter().all(|n| n["annotator_kind"] == "CODE"
        && n["name"] == "citation_grounding"
        && n["span_id"].as_str().is_some_and(|s| s.len() == 16)
        && n["result"]["label"].is_string()));
}

/// Memory is bounded by the traces still open: a trace closes once
/// `--assembly-window` records pass without one of its own, and a span
/// that arrives after that is reported (invalid, with its line), never
/// silently dropped or made into a second turn.
#[test]
fn a_span_later_than_the_assembly_window_is_reported() {
    let Some(dir) = shared("traces/phoenix-openinference-langchain") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("spans.jsonl")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    // Move the first (newest) span to the end: 31 records later.
    let first = lines.remove(0);
    lines.push(first);
    let moved: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let (code, out, err) = run_stdin(&["summary", "--format", "json"], moved.as_bytes());
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["input"]["turns"], 8);
    assert_eq!(v["input"]["invalid_lines"], 0);
    let (code, out, err) = run_stdin(
        &["summary", "--format", "json", "--assembly-window", "10"],
        moved.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["input"]["turns"], 8, "{}", v["input"]);
    assert_eq!(v["input"]["invalid_lines"], 1, "{}", v["input"]);
    assert!(
        err.contains("<stdin>:32: a record of a turn that was already assembled"),
        "{err}"
    );
    let (code, _, _) = run_stdin(
        &["summary", "--strict", "--assembly-window", "10"],
        moved.as_bytes(),
    );
    assert_eq!(code, 3);
}

/// The resource's `service.name` names the agent when no span does (an
/// attribute filter that dropped it, in both OTLP readers, made such turns
/// `unknown`).
#[test]
fn otlp_resource_service_name_stands_in_for_the_agent() {
    let line = |service: &str| {
        format!(
            r#"{{"resourceSpans":[{{"resource":{{"attributes":[{{"key":"service.name","value":{{"stringValue":"{service}"}}}}]}},"scopeSpans":[{{"spans":[{{"traceId":"ab12","spanId":"01","parentSpanId":"","startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000001000000000","attributes":[{{"key":"output.value","value":{{"stringValue":"A [1]"}}}},{{"key":"openinference.span.kind","value":{{"stringValue":"AGENT"}}}}]}}]}}]}}]}}"#
        )
    };
    // The cursor reader reads the first; an escaped key sends the second to the serde reader.
    for text in [
        line("svc-agent"),
        line("svc-agent").replace("\"service.name\"", "\"service\\u002ename\""),
    ] {
        let (code, out, err) =
            run_stdin(&["report", "--all", "--format", "jsonl"], text.as_bytes());
        assert_eq!(code, 0, "{err}");
        assert_eq!(json(&out)["agent_id"], "svc-agent", "{text}");
    }
}

/// One OTLP/JSON request line holding trace `i`: a root agent span whose
/// output cites `[1]` unless `i` is a multiple of three (`no_marker`), and
/// a retriever span with one document; traces one second apart.
fn batch_trace(i: u64) -> String {
    let at = |ns: u64| (1_780_000_000_000_000_000 + i * 1_000_000_000 + ns).to_string();
    let s = |k: &str, v: &str| serde_json::json!({"key": k, "value": {"stringValue": v}});
    let (trace, root, retriever) = (
        format!("{:032x}", i + 1),
        format!("{:016x}", 2 * i + 1),
        format!("{:016x}", 2 * i + 2),
    );
    let reply = if i.is_multiple_of(3) {
        "Refunds take 3 days."
    } else {
        "Refunds take 3 days [1]."
    };
    let spans = serde_json::json!([
        {"traceId": trace, "spanId": retriever, "parentSpanId": root, "name": "kb",
         "startTimeUnixNano": at(1_000), "endTimeUnixNano": at(2_000),
         "attributes": [s("openinference.span.kind", "RETRIEVER"),
                        s("retrieval.documents.0.document.id", &format!("doc-{i}"))]},
        {"traceId": trace, "spanId": root, "name": "agent",
         "startTimeUnixNano": at(0), "endTimeUnixNano": at(5_000),
         "attributes": [s("openinference.span.kind", "AGENT"), s("output.value", reply)]}
    ]);
    serde_json::json!({"resourceSpans": [{"resource": {"attributes": [s("service.name", "svc")]},
        "scopeSpans": [{"scope": {"name": "test"}, "spans": spans}]}]})
    .to_string()
}

/// What assembly remembers of closed traces is bounded: a trace is
/// forgotten some 50,000 to 100,000 records after it closed. The same
/// trace read again after that (a file given twice) is still a duplicate,
/// every span of it, as it is within the horizon; with `--no-dedupe` it is
/// a second turn, as every copy is.
#[test]
fn a_trace_read_again_long_after_it_closed_is_still_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("traces.otlp.jsonl");
    // 60,000 traces of two spans each: 120,000 records after the first.
    let mut lines: Vec<String> = (0..60_000).map(batch_trace).collect();
    lines.push(batch_trace(0));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let file = p(&path);
    let (code, out, err) = run(&["summary", "--format", "json", file]);
    assert_eq!(code, 0, "{err}");
    let input = &json(&out)["input"];
    assert_eq!(input["turns"], 60_000, "{input}");
    assert_eq!(input["skipped_records"], 60_000, "{input}");
    assert_eq!(input["duplicates"], 2, "{input}");
    assert_eq!(input["invalid_lines"], 0, "{input}");
    let (code, out, err) = run(&["summary", "--format", "json", "--no-dedupe", file]);
    assert_eq!(code, 0, "{err}");
    let input = &json(&out)["input"];
    assert_eq!(input["turns"], 60_001, "{input}");
    assert_eq!(input["skipped_records"], 60_001, "{input}");
    assert_eq!(input["invalid_lines"], 0, "{input}");
}

/// Assembled turns reach the accumulators in batches (of 64, and of a
/// page heap's sixteen pages): 300 traces that all close at the end of the
/// input cross several batch boundaries, and the triage list, a report
/// page and every row still come out as they would one turn at a time:
/// newest first, and the same on one and two threads.
#[test]
fn assembled_turns_across_batches_keep_their_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("traces.otlp.jsonl");
    let lines: Vec<String> = (0..300).map(batch_trace).collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let file = p(&path);
    let id = |i: u64| format!("{:032x}", i + 1);
    let ids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["turn_id"].as_str().unwrap().to_owned())
            .collect()
    };
    for threads in ["1", "2"] {
        let (code, out, err) = run(&["summary", "--threads", threads, "--format", "json", file]);
        assert_eq!(code, 0, "{err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["totals"]["turns"], 300, "{out}");
        let newest_ungrounded: Vec<String> = (0..300)
            .rev()
            .filter(|i: &u64| i.is_multiple_of(3))
            .take(20)
            .map(id)
            .collect();
        assert_eq!(ids(&doc["triage"]), newest_ungrounded);

        let (code, out, err) = run(&[
            "report",
            "--threads",
            threads,
            "--format",
            "json",
            "--limit",
            "5",
            file,
        ]);
        assert_eq!(code, 0, "{err}");
        let page: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            ids(&page["rows"]),
            (295..300).rev().map(id).collect::<Vec<_>>()
        );

        let (code, out, err) = run(&[
            "report",
            "--threads",
            threads,
            "--all",
            "--format",
            "jsonl",
            file,
        ]);
        assert_eq!(code, 0, "{err}");
        let all: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(all.len(), 300);
        let mut got: Vec<String> = all
            .iter()
            .map(|r| r["turn_id"].as_str().unwrap().to_owned())
            .collect();
        got.sort();
        assert_eq!(got, (0..300).map(id).collect::<Vec<_>>());
        for r in &all {
            let i = u64::from_str_radix(r["turn_id"].as_str().unwrap(), 16).unwrap() - 1;
            let want = if i.is_multiple_of(3) {
                "no_marker"
            } else {
                "ok"
            };
            assert_eq!(r["verdict"], want, "{r}");
        }
    }
}

/// The OTLP spec's own example writes its ids in upper-case hex: the trace
/// is found by either spelling, and reported in lower case.
#[test]
fn explain_finds_an_upper_case_hex_trace_by_its_lower_case_id() {
    let Some(f) = shared("external/otlp-proto-example/trace.json") else {
        return;
    };
    for id in [
        "5b8efff798038103d269b633813fc60c",
        "5B8EFFF798038103D269B633813FC60C",
    ] {
        let (code, out, err) = run(&["explain", "--format", "json", id, p(&f)]);
        assert_eq!(code, 0, "{id}: {err}");
        let v = json(&out);
        assert_eq!(v["row"]["turn_id"], "5b8efff798038103d269b633813fc60c");
        let notes = v["notes"].to_string();
        assert!(notes.contains("span eee19b7ec3c1b174"), "{notes}");
    }
    let rows = rows(&[p(&f)]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["turn_id"], "5b8efff798038103d269b633813fc60c");
}

/// Spans of one trace written partly in upper case, partly in lower case,
/// across two lines, assemble into one turn.
#[test]
fn one_trace_in_both_cases_is_one_turn() {
    let span = |trace: &str, id: &str, parent: &str| {
        format!(
            r#"{{"traceId":"{trace}","spanId":"{id}","parentSpanId":"{parent}","name":"s","startTimeUnixNano":"1544712660000000000","endTimeUnixNano":"1544712661000000000"}}"#
        )
    };
    let line = |s: String| format!(r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{s}]}}]}}]}}"#);
    let input = format!(
        "{}\n{}\n",
        line(span(
            "5B8EFFF798038103D269B633813FC60C",
            "EEE19B7EC3C1B174",
            ""
        )),
        line(span(
            "5b8efff798038103d269b633813fc60c",
            "00000000000000b2",
            "EEE19B7EC3C1B174"
        )),
    );
    let (code, out, err) = run_stdin(
        &["report", "--all", "--format", "jsonl", "-"],
        input.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert_eq!(rows[0]["turn_id"], "5b8efff798038103d269b633813fc60c");
}

/// A time that does not read (a date alone) makes its observation an
/// invalid line naming the field: the trace is never dated 1970 for it.
#[test]
fn an_unreadable_time_is_an_invalid_line_never_the_epoch() {
    let text = std::fs::read_to_string(fixture(
        "langfuse/observations_v2/2026-03-04T09-00-00.jsonl",
    ))
    .unwrap();
    let first = json(text.lines().next().unwrap())["trace_id"].clone();
    let mut changed = 0;
    let lines: String = text
        .lines()
        .map(|l| {
            let mut v = json(l);
            if v["trace_id"] == first {
                v["start_time"] = "2026-03-04".into();
                changed += 1;
            }
            format!("{v}\n")
        })
        .collect();
    assert!(changed > 1);
    let args = ["report", "--all", "--format", "jsonl", "-"];
    let (code, out, err) = run_stdin(&args, lines.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("<stdin>:1: `start_time`: not a time (RFC 3339 or epoch)"),
        "{err}"
    );
    let rows: Vec<Value> = out.lines().map(json).collect();
    assert!(!rows.is_empty());
    for r in &rows {
        assert_ne!(r["turn_id"], first, "{r}");
        assert!(
            !r["created_at"].as_str().unwrap().starts_with("1970"),
            "{r}"
        );
    }
    let (_, out, _) = run_stdin(&["summary", "--format", "json", "-"], lines.as_bytes());
    assert_eq!(json(&out)["input"]["invalid_lines"], changed);
    let (code, _, _) = run_stdin(&["summary", "--strict", "-"], lines.as_bytes());
    assert_eq!(code, 3);
}

/// The questions of the toy agent's eight turns, in time order (the
/// captures' README).
const QUESTIONS: [&str; 8] = [
    "How long do refunds take?",
    "Do you price match a competitor's price?",
    "What does the warranty cover?",
    "How much does express shipping cost?",
    "Thanks, that's all for today!",
    "Where is the refund for order A-12345?",
    "Can you fly a parcel to Antarctica by drone?",
    "can i get money back on sale stuff",
];

fn explained(id: &str, f: &Path, flags: &[&str]) -> Value {
    let mut a = vec!["explain", id, p(f), "--format", "json"];
    a.extend_from_slice(flags);
    let (code, out, err) = run(&a);
    assert_eq!(code, 0, "{}: {err}", f.display());
    json(&out)
}

/// `explain` shows what each genuine capture recorded: every turn's
/// question (from the root span, run or observation) with `--show-text`,
/// and the one tool call's arguments with `--show-tools`; neither without
/// its flag.
#[test]
fn explain_shows_the_question_and_tool_arguments_each_capture_recorded() {
    let Some(mut files) = exports() else { return };
    let dir = shared("traces").unwrap();
    files.extend(
        [
            "phoenix-openinference-langchain/spans_dataframe.parquet",
            "langsmith-langchain/runs.jsonl",
            "langsmith-traceable/runs.jsonl",
        ]
        .iter()
        .map(|f| dir.join(f)),
    );
    let (mut questions, mut with_arguments) = (0, 0);
    for f in &files {
        let rows = rows(&[p(f)]);
        assert_eq!(rows.len(), 8, "{}", f.display());
        for (i, row) in rows.iter().enumerate() {
            let id = row["turn_id"].as_str().unwrap();
            let v = explained(id, f, &["--show-text", "--show-tools"]);
            assert_eq!(
                v["question"],
                QUESTIONS[i],
                "{} turn {}",
                f.display(),
                i + 1
            );
            questions += 1;
            let tools = v["tools"].as_array().unwrap();
            if i != 5 {
                assert!(tools.is_empty(), "{} turn {}", f.display(), i + 1);
                continue;
            }
            assert_eq!(tools.len(), 1, "{}", f.display());
            assert_eq!(tools[0]["name"], "lookup_order", "{}", f.display());
            assert_eq!(tools[0]["status"], "error", "{}", f.display());
            let args = &tools[0]["arguments"];
            assert!(
                args.to_string().contains("A-12345"),
                "{}: {args}",
                f.display()
            );
            // It raised: no capture records a result.
            assert!(tools[0]["result"].is_null(), "{}", f.display());
            with_arguments += 1;
            // Each flag shows only what it names.
            let plain = explained(id, f, &[]);
            assert!(plain.get("question").is_none(), "{}", f.display());
            assert!(plain["tools"][0]["arguments"].is_null(), "{}", f.display());
            let text = explained(id, f, &["--show-text"]);
            assert_eq!(text["question"], QUESTIONS[5]);
            assert!(text["tools"][0]["arguments"].is_null(), "{}", f.display());
            let tools_only = explained(id, f, &["--show-tools"]);
            assert!(tools_only.get("question").is_none(), "{}", f.display());
            assert_eq!(tools_only["tools"][0]["arguments"], *args);
            // The text format prints both.
            let (_, out, _) = run(&["explain", id, p(f), "--show-text", "--show-tools"]);
            assert!(
                out.contains("question\nWhere is the refund for order A-12345?"),
                "{out}"
            );
            assert!(
                out.lines()
                    .any(|l| l.starts_with("  arguments: ") && l.contains("A-12345")),
                "{out}"
            );
        }
    }
    assert_eq!(questions, 8 * files.len());
    assert_eq!(with_arguments, files.len());
    assert_eq!(files.len(), 13);
    // The REST page holds one trace: its question is the turn's.
    let page = dir.join("phoenix-openinference-langchain/rest_page_envelope.json");
    let rows = rows(&[p(&page)]);
    let v = explained(
        rows[0]["turn_id"].as_str().unwrap(),
        &page,
        &["--show-text"],
    );
    assert!(QUESTIONS.contains(&v["question"].as_str().unwrap()), "{v}");
}

/// Two services' exports whose trace id and root span id collide are not
/// merged into one answer: the turn is unobserved (`id_collision`),
/// `explain` names the span and both services, and write-back refuses the
/// ambiguous target. One export read twice is still one turn, graded.
#[test]
fn colliding_ids_across_services_are_reported_never_merged() {
    let dir = fixture("hostile/id-collision");
    let both = p(&dir);
    let merged = rows(&[both]);
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0]["verdict"], "unobserved");
    assert_eq!(merged[0]["unobserved_reason"], "id_collision");
    let (code, out, _) = run(&["explain", "4bf92f3577b34da6a3ce929d0e0e4736", both]);
    assert_eq!(code, 0);
    assert!(
        out.contains("(billing-agent, checkout-agent)") && out.contains("collide"),
        "{out}"
    );
    let (code, out, err) = run(&["convert", "--to", "otel-eval", both]);
    assert_eq!(code, 3, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("ambiguous target"), "{err}");
    let one = dir.join("checkout.jsonl");
    let repeated = rows(&[p(&one), p(&one)]);
    assert_eq!(repeated.len(), 1);
    assert_eq!(repeated[0]["verdict"], "ok");
}

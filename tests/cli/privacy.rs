//! Privacy as a property of the output layer (issue 15): marked text
//! planted in every free-text field of every dialect — replies, questions,
//! chunk text, tool arguments and results, model outputs, metadata and
//! unknown fields — reaches no output of any subcommand, in any format, on
//! stdout or stderr, unless a `--show-*` flag asks for it. The logs are the
//! repository's fixtures and the shared captures (OTLP, Phoenix) with the
//! mark planted: every string that holds whitespace (free text; ids, kinds
//! and times hold none) or sits under a text key is prefixed with it, JSON
//! held in a string is planted inside and re-encoded, and each record gains
//! an unknown field. Names (`name`: of spans, tools, runs) are identifiers
//! the instrumentation chose and are shown like ids, so they are left alone.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const MARK: &str = "ZQXPLANT";

/// Keys whose string values are free text even without whitespace (`"Hi"`).
const TEXT_KEYS: [&str; 12] = [
    "userPrompt",
    "finalContent",
    "content",
    "rawContent",
    "contentSummary",
    "reply",
    "question",
    "text",
    "page_content",
    "input",
    "output",
    "result",
];

fn plant(v: &mut Value) {
    plant_in(v, None)
}

fn plant_in(v: &mut Value, key: Option<&str>) {
    match v {
        Value::String(s) => {
            if let Ok(mut inner) = serde_json::from_str::<Value>(s)
                && (inner.is_object() || inner.is_array())
            {
                plant(&mut inner);
                *s = inner.to_string();
            } else if (s.contains(char::is_whitespace)
                && !s.starts_with(|c: char| c.is_ascii_digit()))
                || key.is_some_and(|k| TEXT_KEYS.contains(&k))
            {
                *s = format!("{MARK} {s}");
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| plant_in(x, key)),
        // Names (of spans, tools, runs) are identifiers the instrumentation
        // chose, shown like ids: not planted.
        Value::Object(o) => o
            .iter_mut()
            .filter(|(k, _)| *k != "name")
            .for_each(|(k, x)| plant_in(x, Some(k))),
        _ => {}
    }
}

fn with_unknown(v: &mut Value) {
    plant(v);
    match v {
        Value::Object(o) => {
            o.insert(
                "zqx_unknown".into(),
                Value::String(format!("{MARK} unknown field")),
            );
        }
        Value::Array(a) => a.iter_mut().for_each(with_unknown),
        _ => {}
    }
}

/// Writes a planted copy of `src` into `dir`: line by line for JSONL, as
/// one document otherwise.
fn planted(src: &Path, dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(src).unwrap();
    let out = dir.join(src.file_name().unwrap());
    let lines: Option<Vec<String>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).ok()?;
            with_unknown(&mut v);
            Some(v.to_string())
        })
        .collect();
    let body = match lines {
        Some(ls) if text.lines().filter(|l| !l.trim().is_empty()).count() > 1 => {
            ls.join("\n") + "\n"
        }
        _ => {
            let mut v: Value = serde_json::from_str(&text).unwrap();
            with_unknown(&mut v);
            serde_json::to_string_pretty(&v).unwrap() + "\n"
        }
    };
    std::fs::write(&out, body).unwrap();
    out
}

/// A native line with every field the format names, and more.
const NATIVE: &str = r#"{"turn_id":"n-1","agent_id":"billing-bot","conversation_id":"c-1","channel":"chat","created_at":"2026-08-02T00:40:00+02:00","question":"my card is 4111 1111 1111 1111","reply":"You can get a refund within 90 days [KB-1].","grounding":{"chunks":[{"document_id":"refunds.md","chunk_id":"refunds.md#0","score":0.44,"content":"Refunds are available within 30 days.","text":"alt text","page_content":"page text","metadata":{"title":"Refund policy"}},{"document_id":"faq.md","score":0.9,"text":"Contact support by chat."}],"citations":[{"index":1,"quote":"refund within 90 days"}],"tools":[{"name":"lookup_order","arguments":{"id":"A-17","note":"customer said hi"},"result":"order shipped to 1 Main St","status":"ok","duration_ms":4}],"model":"claude-x","notes":"internal remark"},"feedback":"angry customer"}
{"turn_id":"n-2","agent_id":"billing-bot","created_at":"2026-08-02T01:00:00Z","reply":"No marker in this one.","grounding":{"chunks":[{"document_id":"x","content":"some chunk text"}]}}
{"turn_id":"n-3","agent_id":"billing-bot","created_at":"2026-08-02T02:00:00Z","reply":"Orphan [KB-7].","grounding":{"chunks":[]}}"#;

fn sources(dir: &Path) -> Vec<(String, PathBuf)> {
    let native = dir.join("native.jsonl");
    std::fs::write(&native, NATIVE).unwrap();
    let mut v = vec![("native".to_owned(), planted(&native, &dir.join("..")))];
    for f in [
        "agentfootprint/interleaved.ndjson",
        "agentfootprint/compact.recording.json",
        "agentfootprint/withheld.ndjson",
        "langsmith/create_patch.jsonl",
        "langfuse/observations_v2/2026-03-04T09-00-00.jsonl",
        "langfuse/ui_export.json",
    ] {
        let sub = dir.join(f.replace('/', "_"));
        std::fs::create_dir_all(&sub).unwrap();
        v.push((f.to_owned(), planted(&fixture(f), &sub)));
    }
    if let Some(traces) = shared("traces") {
        for f in [
            "otlp-genai-util/traces.otlp.jsonl",
            "otlp-openllmetry-langchain/traces.otlp.jsonl",
            "phoenix-openinference-langchain/spans.jsonl",
            "phoenix-openinference-langchain/spans.otlp.json",
            "phoenix-openinference-langchain/spans_dataframe.jsonl",
        ] {
            let sub = dir.join(f.replace('/', "_"));
            std::fs::create_dir_all(&sub).unwrap();
            v.push((f.to_owned(), planted(&traces.join(f), &sub)));
        }
    }
    v
}

fn assert_clean(what: &str, code: i32, out: &str, err: &str) {
    assert!(code == 0 || code == 1, "{what}: exit {code}: {err}");
    assert!(
        !out.contains(MARK),
        "{what}: planted text on stdout:\n{out}"
    );
    assert!(
        !err.contains(MARK),
        "{what}: planted text on stderr:\n{err}"
    );
}

#[test]
fn planted_text_reaches_no_output_without_a_show_flag() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("logs");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, path) in sources(&dir) {
        let p = path.to_str().unwrap();
        let mut runs: Vec<Vec<&str>> = Vec::new();
        for format in ["table", "csv", "json", "jsonl", "markdown"] {
            runs.push(vec!["report", "--format", format, p]);
            runs.push(vec!["report", "--all", "--format", format, p]);
        }
        runs.push(vec![
            "report",
            "--grep",
            "ZQX|refund|the",
            "--columns",
            &COLUMNS,
            "--format",
            "csv",
            p,
        ]);
        for format in ["table", "json", "markdown", "prometheus"] {
            runs.push(vec!["summary", "--format", format, p]);
        }
        for section in ["groups", "days", "triage"] {
            runs.push(vec!["summary", "--format", "csv", "--section", section, p]);
        }
        for format in ["text", "json", "junit", "github", "markdown"] {
            runs.push(vec!["check", "--min-rate", "0.5", "--format", format, p]);
        }
        runs.push(vec!["evidence", p]);
        for args in &runs {
            let (code, out, err) = run(args);
            assert_clean(&format!("{name}: {}", args.join(" ")), code, &out, &err);
        }
        // A write-back target that cannot address a turn fails (exit 3);
        // its message is held to the same rule.
        for to in [
            "otel-eval",
            "phoenix-annotations",
            "langfuse-scores",
            "langsmith-feedback",
        ] {
            let args = ["convert", "--skip-unaddressable", "--to", to, p];
            let (code, out, err) = run(&args);
            let code = if code == 3 { 0 } else { code };
            assert_clean(&format!("{name}: {}", args.join(" ")), code, &out, &err);
        }
        // explain, every turn, both formats; with --show-text the mark shows
        // (so it was planted where the tool reads).
        let (_, rows, _) = run(&["report", "--all", "--format", "jsonl", p]);
        let ids: Vec<String> = rows
            .lines()
            .map(|l| json(l)["turn_id"].as_str().unwrap().to_owned())
            .collect();
        assert!(!ids.is_empty(), "{name}: no turns");
        let mut shown = false;
        for id in &ids {
            for format in ["text", "json"] {
                let (code, out, err) = run(&["explain", id, p, "--format", format]);
                assert_clean(
                    &format!("{name}: explain {id} --format {format}"),
                    code,
                    &out,
                    &err,
                );
            }
            let (_, out, _) = run(&["explain", id, p, "--show-text", "--show-tools"]);
            shown |= out.contains(MARK);
        }
        assert!(shown, "{name}: --show-text never showed the planted text");
    }
}

/// Every column `--columns` takes.
const COLUMNS: &str = "turn_id,agent_id,conversation_id,channel,created_at,verdict,partial,cited_chunks,marker_count,out_of_range_markers,malformed_markers,markers_from,chunk_count,confidence,document_ids,chunk_ids,scores,tool_calls,tool_errors,model,tokens_used,cost_cents,latency_ms,unobserved_reason";

#[test]
fn show_flags_show_what_they_name() {
    let tmp = tempfile::tempdir().unwrap();
    let native = tmp.path().join("n.jsonl");
    std::fs::write(&native, NATIVE).unwrap();
    let p = native.to_str().unwrap();
    let (_, out, _) = run(&["explain", "n-1", p]);
    for secret in [
        "4111",
        "90 days",
        "30 days",
        "customer said hi",
        "1 Main St",
        "angry",
    ] {
        assert!(!out.contains(secret), "{secret}: {out}");
    }
    let (_, out, _) = run(&["explain", "n-1", p, "--show-text"]);
    for shown in [
        "question\nmy card is 4111",
        "refund within 90 days",
        "Refunds are available within 30 days.",
        "Contact support by chat.",
    ] {
        assert!(out.contains(shown), "{shown}: {out}");
    }
    assert!(!out.contains("1 Main St"), "{out}");
    let (_, out, _) = run(&["explain", "n-1", p, "--show-tools"]);
    assert!(out.contains("1 Main St") && !out.contains("4111"), "{out}");
    // evidence: agentfootprint text only with --show-text.
    let af = fixture("agentfootprint/interleaved.ndjson");
    let (_, out, _) = run(&["evidence", af.to_str().unwrap()]);
    assert!(!out.contains("Refunds are processed"), "{out}");
    assert!(out.contains(r#""text_shown":false"#), "{out}");
    let (_, out, _) = run(&["evidence", "--show-text", af.to_str().unwrap()]);
    assert!(out.contains("Refunds are processed"), "{out}");
}

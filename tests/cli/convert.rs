//! `convert`: the turn log it writes keeps what its source held and grades
//! like it with no flags; write-back records land where the tool can
//! address them, or the run fails.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A row with every fraction to 12 significant digits: serde_json reads a
/// number of more than 17 digits to within a unit in the last place, so a
/// cost of `0.0010299999999999999` may read back as `0.00103`.
fn rounded(v: Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => Value::String(format!("{:.11e}", n.as_f64().unwrap())),
        Value::Array(a) => Value::Array(a.into_iter().map(rounded).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, rounded(v))).collect()),
        other => other,
    }
}

/// Every row of `report --all`, sorted, as compact JSON (order-free). A
/// chain's named sources convert to `grounding.citations` (docs/convert.md):
/// their rows are compared as the citations they read back as.
fn rows(args: &[&str]) -> (i32, Vec<String>, String) {
    let mut all = vec!["report", "--all", "--format", "jsonl"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    let as_read_back = |mut v: Value| {
        if v["markers_from"] == "sources" {
            v["markers_from"] = Value::from("citations");
        }
        v
    };
    let mut rows: Vec<String> = out
        .lines()
        .map(|l| rounded(as_read_back(json(l))).to_string())
        .collect();
    rows.sort();
    (code, rows, err)
}

/// One source and the flags it is read with.
struct Source {
    path: PathBuf,
    flags: Vec<String>,
}

fn source(path: PathBuf, flags: &[&str]) -> Source {
    Source {
        path,
        flags: flags.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// The dialect fixtures: native, agentfootprint, Langfuse, LangSmith,
/// marker grammars and compressed inputs.
fn fixtures() -> Vec<Source> {
    let mut out = Vec::new();
    for rel in [
        "demo.jsonl",
        "rules.jsonl",
        "input/demo-zstd.jsonl",
        "input/demo.jsonl.gz",
        "input/messy.jsonl",
        "input/mistyped-optional-fields.jsonl",
        "langfuse/legacy",
        "langfuse/observations_v2",
        "langfuse/observations_v2.parquet",
        "langfuse/ui_export.json",
        "langsmith/create_patch.jsonl",
        "langsmith/runs.parquet",
    ] {
        out.push(source(fixture(rel), &[]));
    }
    for dir in ["agentfootprint", "markers"] {
        for f in std::fs::read_dir(fixture(dir)).unwrap().flatten() {
            out.push(source(f.path(), &[]));
        }
    }
    // A grammar chosen on the command line is carried too.
    for rel in ["markers/glued-runs-lists.jsonl", "markers/footnotes.jsonl"] {
        for m in ["numeric", "footnote", "id"] {
            out.push(source(fixture(rel), &["--markers", m]));
        }
    }
    out
}

/// Every capture of `../shared/traces` (none when it is absent).
fn captures() -> Vec<Source> {
    let Some(root) = shared("traces") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.ends_with("scripts"))
        .collect();
    dirs.sort();
    for d in dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&d)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && !p.extension().is_some_and(|e| e == "md" || e == "txt"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| source(f, &[])));
    }
    out
}

/// The corpus files a reader reads, with the flags they are read with.
fn corpus() -> Vec<Source> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let text = std::fs::read_to_string(dir.join("expectations.json")).unwrap();
    let Value::Array(entries) = json(&text) else {
        panic!("expectations.json is not an array")
    };
    entries
        .iter()
        .filter(|e| e.get("unread").is_none())
        // Recorded calls convert with `"markers": "citations"` in place of
        // their provider (docs/convert.md); `exchange::converted_exchange_lines_keep_their_verdicts`
        // holds them to their verdicts.
        .filter(|e| e["reads_as"] != "exchange")
        .map(|e| Source {
            path: dir.join(e["file"].as_str().unwrap()),
            flags: e["args"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| a.as_str().unwrap().to_owned())
                .collect(),
        })
        .collect()
}

/// Converts `s` and grades the log with no flags: the rows must be the
/// source's, row for row, and `--strict` must pass on the log when it
/// passes on the source. Returns the number of turns, or a failure.
fn round_trip(s: &Source, dir: &Path) -> Result<usize, String> {
    let path = s.path.to_str().unwrap();
    let name = format!("{path} {:?}", s.flags);
    let flags: Vec<&str> = s.flags.iter().map(String::as_str).collect();
    let mut convert = vec!["convert", "--to", "turns"];
    convert.extend_from_slice(&flags);
    convert.push(path);
    let (code, log, err) = run(&convert);
    if code == 3 && err.contains("none read as a turn: ") {
        // A capture no reader reads (LangSmith's multipart parts): named,
        // never converted to nothing.
        return Ok(0);
    }
    if code != 0 {
        return Err(format!("{name}: convert exited {code}: {err}"));
    }
    let out = dir.join("converted.jsonl");
    std::fs::write(&out, &log).unwrap();
    let out = out.to_str().unwrap();
    let mut source_args = flags.clone();
    source_args.push(path);
    let (c1, want, e1) = rows(&source_args);
    let (c2, got, e2) = rows(&[out]);
    if c1 != 0 || c2 != 0 {
        return Err(format!("{name}: report exited {c1}/{c2}: {e1} {e2}"));
    }
    if want != got {
        let diff: Vec<String> = want
            .iter()
            .zip(&got)
            .filter(|(a, b)| a != b)
            .take(2)
            .map(|(a, b)| format!("source    {a}\nconverted {b}"))
            .collect();
        return Err(format!(
            "{name}: {} rows against {}\n{}",
            want.len(),
            got.len(),
            diff.join("\n")
        ));
    }
    source_args.insert(0, "--strict");
    if rows(&source_args).0 == 0 && rows(&["--strict", out]).0 != 0 {
        return Err(format!(
            "{name}: --strict fails on the log, passes on the source"
        ));
    }
    Ok(want.len())
}

#[test]
fn a_converted_log_grades_like_its_source_with_no_flags() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let (mut sources, mut turns) = (0, 0);
    let captures = captures();
    let from_shared = captures.len();
    for s in fixtures().iter().chain(&captures).chain(&corpus()) {
        match round_trip(s, dir.path()) {
            Ok(n) => {
                sources += 1;
                turns += n;
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    eprintln!("{sources} sources ({from_shared} shared captures), {turns} turns round-trip");
    assert!(sources >= 60, "{sources} sources");
}

/// A line of the converted log for the Phoenix capture, by turn id.
fn converted(path: &Path, flags: &[&str]) -> Vec<Value> {
    let mut args = vec!["convert", "--to", "turns"];
    args.extend_from_slice(flags);
    args.push(path.to_str().unwrap());
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    out.lines().map(json).collect()
}

#[test]
fn a_converted_log_keeps_text_tools_and_grammar() {
    // Native: question, chunk text, tool arguments and results survive.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.jsonl");
    std::fs::write(
        &f,
        r#"{"turn_id":"t-1","agent_id":"a","created_at":"2026-08-02T10:00:00Z","question":"How long?","reply":"Five days [KB-1].","grounding":{"chunks":[{"document_id":"d","chunk_id":"d#1","score":0.5,"content":"Refunds take five days."}],"tools":[{"name":"lookup","arguments":{"id":"A-17"},"result":{"days":5},"status":"ok","duration_ms":3}]}}"#,
    )
    .unwrap();
    let lines = converted(&f, &[]);
    assert_eq!(lines.len(), 1);
    let l = &lines[0];
    assert_eq!(l["question"], "How long?");
    assert_eq!(l["markers"], "kb");
    assert_eq!(
        l["grounding"]["chunks"][0]["content"],
        "Refunds take five days."
    );
    assert_eq!(l["grounding"]["tools"][0]["arguments"]["id"], "A-17");
    assert_eq!(l["grounding"]["tools"][0]["result"]["days"], 5);
    // A chosen grammar is named on every line.
    let numeric = converted(&f, &["--markers", "numeric"]);
    assert_eq!(numeric[0]["markers"], "numeric");
    // A trace: chunk text kept, its dialect's grammar named.
    let Some(dir) = shared("traces/phoenix-openinference-langchain") else {
        return;
    };
    let lines = converted(&dir.join("spans.jsonl"), &[]);
    assert!(lines.iter().all(|l| l["markers"] == "numeric"));
    assert!(
        lines
            .iter()
            .flat_map(|l| l["grounding"]["chunks"].as_array().unwrap())
            .any(|c| c["content"].is_string())
    );
}

#[test]
fn every_unobserved_reason_and_grammar_name_reads_back() {
    let reasons = [
        "no_reply",
        "no_turn_end",
        "withheld",
        "bounded_audit",
        "no_root",
        "content_not_recorded",
    ];
    let lines: Vec<String> = reasons
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                r#"{{"turn_id":"u-{i}","agent_id":"a","created_at":"2026-08-02T10:00:00Z","reply":null,"unobserved":"{r}"}}"#
            )
        })
        .collect();
    let (code, out, err) = run_stdin(
        &["report", "--strict", "--all", "--format", "jsonl", "-"],
        lines.join("\n").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let got: Vec<String> = out
        .lines()
        .map(|l| json(l)["unobserved_reason"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, reasons);
    // `markers` picks the grammar; an unknown name is an invalid line.
    let line = |m: &str| {
        format!(
            r#"{{"turn_id":"m","agent_id":"a","created_at":"2026-08-02T10:00:00Z","reply":"See [1].","markers":"{m}","grounding":{{"chunks":[{{"document_id":"d"}}]}}}}"#
        )
    };
    let verdict = |m: &str, flags: &[&str]| {
        let mut args = vec!["report", "--all", "--format", "jsonl"];
        args.extend_from_slice(flags);
        args.push("-");
        let (code, out, err) = run_stdin(&args, line(m).as_bytes());
        assert_eq!(code, 0, "{err}");
        (json(&out)["verdict"].as_str().unwrap().to_owned(), err)
    };
    assert_eq!(verdict("numeric", &[]).0, "ok");
    assert_eq!(verdict("kb", &[]).0, "no_marker");
    // The command line's grammar wins over the line's.
    assert_eq!(verdict("numeric", &["--markers", "kb"]).0, "no_marker");
    let (code, out, err) = run_stdin(
        &["report", "--all", "--format", "jsonl", "-"],
        line("harvard").as_bytes(),
    );
    // The only line refused, the input holds no turn: an input error.
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("<stdin>: 1 record(s), none read as a turn"),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("field `markers`") && !err.contains("harvard"),
        "{err}"
    );
}

/// `convert --to TO` with `extra` flags over `paths`.
fn write_back(to: &str, extra: &[&str], paths: &[&Path]) -> (i32, Vec<Value>, String) {
    let mut args = vec!["convert", "--to", to];
    args.extend_from_slice(extra);
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let (code, out, err) = run(&args);
    (code, out.lines().map(json).collect(), err)
}

const TARGETS: [&str; 4] = [
    "otel-eval",
    "phoenix-annotations",
    "langfuse-scores",
    "langsmith-feedback",
];

#[test]
fn a_turn_a_target_cannot_address_fails_the_run_naming_it() {
    let native = fixture("demo.jsonl");
    for to in TARGETS {
        let (code, out, err) = write_back(to, &[], &[&native]);
        assert_eq!(code, 3, "{to}: {err}");
        assert!(out.is_empty(), "{to}: {out:?}");
        assert!(
            err.contains("turn t-") && err.contains("no ") && err.contains("22 turn(s)"),
            "{to}: {err}"
        );
        // Skipping every turn still writes nothing: never exit 0.
        let (code, out, err) = write_back(to, &["--skip-unaddressable"], &[&native]);
        assert_eq!(code, 3, "{to}: {err}");
        assert!(
            out.is_empty() && err.contains("nothing to write back"),
            "{to}: {err}"
        );
    }
    // An input with no turns at all writes nothing either.
    let (code, out, err) = run_stdin(&["convert", "--to", "otel-eval", "-"], b"\n");
    assert_eq!(code, 3, "{err}");
    assert!(
        out.is_empty() && err.contains("nothing to write back"),
        "{err}"
    );
    // --skip-unaddressable means nothing for the turn log.
    let (code, _, err) = write_back("turns", &["--skip-unaddressable"], &[&native]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn skipping_writes_the_addressable_turns_and_counts_the_others() {
    let native = fixture("demo.jsonl");
    let langfuse = fixture("langfuse/observations_v2");
    let (code, out, err) = write_back("langfuse-scores", &[], &[&native, &langfuse]);
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty(), "{out:?}");
    assert!(
        err.contains("cannot write 22 of 27 turn(s)") && err.contains("--skip-unaddressable"),
        "{err}"
    );
    let (code, out, err) = write_back(
        "langfuse-scores",
        &["--skip-unaddressable"],
        &[&native, &langfuse],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.len(), 5);
    assert!(err.contains("22 of 27 turn(s) skipped"), "{err}");
    assert!(
        out.iter()
            .all(|s| s["metadata"]["evaluator"] == "grounding-audit")
    );
}

#[test]
fn langsmith_run_uuids_are_never_written_as_phoenix_span_ids() {
    let runs = fixture("langsmith/create_patch.jsonl");
    let (code, out, err) = write_back("phoenix-annotations", &[], &[&runs]);
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("no Phoenix span id") && err.contains("UUID"),
        "{err}"
    );
    let (code, out, err) = write_back("otel-eval", &[], &[&runs]);
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty() && err.contains("no OTel trace id"), "{err}");
    // Nor as Langfuse trace ids: the trace is not in Langfuse.
    let (code, _, err) = write_back("langfuse-scores", &[], &[&runs]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no Langfuse trace id"), "{err}");
    // The same runs address LangSmith feedback.
    let (code, out, err) = write_back("langsmith-feedback", &[], &[&runs]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    // Phoenix's own spans address Phoenix, and no LangSmith run.
    let Some(dir) = shared("traces/phoenix-openinference-langchain") else {
        return;
    };
    let spans = dir.join("spans.jsonl");
    let (code, out, err) = write_back("phoenix-annotations", &[], &[&spans]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.iter()
            .all(|n| n["span_id"].as_str().is_some_and(|s| s.len() == 16))
    );
    let (code, _, err) = write_back("langsmith-feedback", &[], &[&spans]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("no LangSmith trace UUID"), "{err}");
}

#[test]
fn otel_evaluation_events_name_the_evaluator_and_its_version() {
    let Some(dir) = shared("traces/phoenix-openinference-langchain") else {
        return;
    };
    let (code, events, err) = write_back("otel-eval", &[], &[&dir.join("spans.jsonl")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(events.len(), 8);
    let version = env!("CARGO_PKG_VERSION");
    for e in &events {
        let rec = &e["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0];
        let hex = |k: &str, n: usize| {
            rec[k]
                .as_str()
                .is_some_and(|s| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit()))
        };
        assert!(hex("traceId", 32) && hex("spanId", 16), "{rec}");
        let attr = |k: &str| {
            rec["attributes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["key"] == k)
                .map(|a| a["value"]["stringValue"].clone())
        };
        assert_eq!(
            attr("gen_ai.evaluation.name").unwrap(),
            "citation_grounding"
        );
        assert_eq!(
            attr("grounding_audit.evaluator.name").unwrap(),
            "grounding-audit"
        );
        assert_eq!(attr("grounding_audit.evaluator.version").unwrap(), version);
    }
}

#[test]
fn an_agentfootprint_log_keeps_question_chunk_text_and_tool_calls() {
    let lines = converted(&fixture("agentfootprint/interleaved.ndjson"), &[]);
    let run_a = lines.iter().find(|l| l["turn_id"] == "run-a").unwrap();
    assert!(run_a["question"].as_str().is_some_and(|q| !q.is_empty()));
    assert_eq!(run_a["markers"], "id");
    let g = &run_a["grounding"];
    assert!(g["chunks"][0]["content"].is_string(), "{g}");
    let tools = g["tools"].as_array().unwrap();
    assert!(!tools.is_empty());
    assert!(
        tools
            .iter()
            .all(|t| t.get("arguments").is_some() && t.get("result").is_some())
    );
}

//! `evidence --for ragas|deepeval|promptfoo`: the units only a judge can
//! decide, loaded by the judges themselves. No model is called: each tool
//! only reads the file into its own dataset (Ragas `EvaluationDataset`,
//! DeepEval `EvaluationDataset` test cases) or validates it (promptfoo
//! `validate config`), and the test holds the count each tool read to the
//! count the tool wrote.
//!
//! The tools are a Python with `ragas` and `deepeval`
//! (`GROUNDING_AUDIT_JUDGE_PYTHON`) and a `promptfoo` executable
//! (`GROUNDING_AUDIT_PROMPTFOO`), which `.ci/run` installs; without them
//! the loading test says so and passes, unless
//! `GROUNDING_AUDIT_REQUIRE_JUDGES=1` (as `.ci/run` sets), where it fails.

use crate::common::{fixture, run, shared};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `evidence --for judge` of `log`: the file written and the count the
/// note on standard error gives (`wrote N of M units`).
fn export(judge: &str, log: &Path, dir: &Path) -> (PathBuf, u64, String) {
    let (code, out, err) = run(&["evidence", "--for", judge, log.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with(&format!("evidence --for {judge}: wrote ")))
        .unwrap_or_else(|| panic!("no count line: {err}"))
        .to_owned();
    let n: u64 = line
        .split("wrote ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    let file = dir.join(format!(
        "{judge}.{}",
        if judge == "ragas" { "jsonl" } else { "json" }
    ));
    std::fs::write(&file, out).unwrap();
    (file, n, line)
}

#[test]
fn undecided_units_are_written_hinted_first_and_the_rest_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (file, n, line) = export("ragas", &fixture("quotes/inline.jsonl"), dir.path());
    assert_eq!(
        line,
        "evidence --for ragas: wrote 5 of 9 units (0 hinted, first); left out 4: 1 fabricated quote, 1 misattributed quote, 2 uncited"
    );
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, n);
    let turns: Vec<&str> = lines
        .iter()
        .map(|l| l["grounding_audit"]["turn_id"].as_str().unwrap())
        .collect();
    // q-2 (misattributed) and q-4 (fabricated) are decided; q-3's stitched
    // quote is for a judge.
    assert_eq!(turns, ["q-1", "q-1", "q-3", "q-5", "q-6"]);
    assert_eq!(
        lines[0]["retrieved_contexts"][0].as_str().unwrap(),
        "Refunds are issued within 30 days of purchase. Items must be unused and in their original packaging. Shipping costs are not refunded."
    );
    // Hinted units come first: the attribution split has some.
    let Some(dev) = shared("attribution/dev/turns.jsonl") else {
        return;
    };
    let (file, n, line) = export("ragas", &dev, dir.path());
    eprintln!("{line}");
    let hinted: Vec<bool> = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["grounding_audit"]["hinted"]
                == true
        })
        .collect();
    assert_eq!(hinted.len() as u64, n);
    let k = hinted.iter().filter(|&&h| h).count();
    assert!(k > 0 && hinted[..k].iter().all(|&h| h) && !hinted[k..].iter().any(|&h| h));
}

/// The judges' tools, or why they are absent.
fn tools() -> Option<(String, String)> {
    let python = std::env::var("GROUNDING_AUDIT_JUDGE_PYTHON").ok();
    let promptfoo = std::env::var("GROUNDING_AUDIT_PROMPTFOO").ok();
    match (python, promptfoo) {
        (Some(p), Some(f)) => Some((p, f)),
        _ => {
            let required = std::env::var("GROUNDING_AUDIT_REQUIRE_JUDGES").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "GROUNDING_AUDIT_JUDGE_PYTHON and GROUNDING_AUDIT_PROMPTFOO are required (.ci/run installs them)"
            );
            eprintln!(
                "skipped: set GROUNDING_AUDIT_JUDGE_PYTHON (with ragas and deepeval) and GROUNDING_AUDIT_PROMPTFOO to load the exports"
            );
            None
        }
    }
}

const LOAD: &str = r#"
import sys
kind, path = sys.argv[1], sys.argv[2]
if kind == "ragas":
    from ragas import EvaluationDataset
    d = EvaluationDataset.from_jsonl(path)
    assert all(s.response and s.retrieved_contexts for s in d), "a sample without its response or contexts"
    print(len(d))
else:
    from deepeval.dataset import EvaluationDataset
    d = EvaluationDataset()
    d.add_test_cases_from_json_file(path, input_key_name="input", actual_output_key_name="actual_output", retrieval_context_key_name="retrieval_context")
    assert all(t.actual_output and t.retrieval_context for t in d.test_cases), "a test case without its output or context"
    print(len(d.test_cases))
"#;

/// How many units `tool` read from `file`.
fn loaded(python: &str, kind: &str, file: &Path) -> u64 {
    let out = Command::new(python)
        .args(["-c", LOAD, kind, file.to_str().unwrap()])
        .env("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{kind}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.trim().lines().last().unwrap().parse().unwrap()
}

/// promptfoo's own check of a config: the tests it holds, their vars and
/// assertions.
fn promptfoo_valid(promptfoo: &str, file: &Path) -> (bool, String) {
    let out = Command::new(promptfoo)
        .args(["validate", "config", "-c", file.to_str().unwrap()])
        .env("PROMPTFOO_DISABLE_TELEMETRY", "1")
        .env("PROMPTFOO_DISABLE_UPDATE", "1")
        .env("NO_COLOR", "1")
        .env("FORCE_COLOR", "0")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // promptfoo exits 0 and ends with "Configuration is valid." even after
    // naming a part it refused: valid is no part refused.
    let valid = out.status.success()
        && text.contains("Configuration is valid")
        && !text.contains("Invalid")
        && !text.contains("Failed to validate");
    (valid, text)
}

/// Inputs that cannot be read fail before a judge's document is begun: no
/// half-written JSON (`[`, promptfoo's open object) on standard output.
#[test]
fn an_unreadable_input_begins_no_document() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.jsonl");
    for judge in ["ragas", "deepeval", "promptfoo"] {
        let (code, out, err) = run(&["evidence", "--for", judge, missing.to_str().unwrap()]);
        assert_eq!(code, 3, "{judge}: {err}");
        assert_eq!(out, "", "{judge}");
        assert!(err.contains("missing.jsonl"), "{judge}: {err}");
    }
}

#[test]
fn each_judge_loads_what_was_written_for_it() {
    let Some((python, promptfoo)) = tools() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut logs = vec![fixture("quotes/inline.jsonl")];
    logs.extend(shared("attribution/dev/turns.jsonl"));
    for log in &logs {
        for kind in ["ragas", "deepeval"] {
            let (file, n, line) = export(kind, log, dir.path());
            eprintln!("{line}");
            assert_eq!(
                loaded(&python, kind, &file),
                n,
                "{kind} read every unit of {}",
                log.display()
            );
        }
        let (file, n, _) = export("promptfoo", log, dir.path());
        let (ok, text) = promptfoo_valid(&promptfoo, &file);
        assert!(ok, "{text}");
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(doc["tests"].as_array().unwrap().len() as u64, n);
    }
    // promptfoo's validation can fail: tests that are not a list are refused.
    let broken = dir.path().join("broken.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("promptfoo.json")).unwrap())
            .unwrap();
    doc["tests"] = serde_json::json!({"units": doc["tests"].clone()});
    std::fs::write(&broken, doc.to_string()).unwrap();
    let (ok, text) = promptfoo_valid(&promptfoo, &broken);
    assert!(!ok, "promptfoo validates the tests: {text}");
}

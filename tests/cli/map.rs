//! `--map` / `--map-file`: home-grown logs read through a field map grade
//! like the native log; a mapping that points at nothing is an error naming
//! it; near-miss logs read without a map always warn.

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// turn_id → verdict of `report --all --format json` with `args`.
fn verdicts(args: &[&str]) -> (BTreeMap<String, String>, Value) {
    let mut all = vec!["report", "--all", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    let doc = json(&out);
    let rows = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["turn_id"].as_str().unwrap().to_owned(),
                r["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (rows, doc["input"].clone())
}

fn demo() -> BTreeMap<String, String> {
    verdicts(&[fixture("demo.jsonl").to_str().unwrap()]).0
}

fn misread(input: &Value) -> Vec<String> {
    input["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["kind"] != "dropped_field")
        .map(|w| w["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_map_file_reads_a_home_grown_log_like_the_native_one() {
    let log = fixture("misread/home-grown.jsonl");
    let map = fixture("misread/home-grown.map.toml");
    let (got, input) = verdicts(&[log.to_str().unwrap(), "--map-file", map.to_str().unwrap()]);
    assert_eq!(got, demo());
    assert_eq!(input["invalid_lines"], 0);
    assert!(misread(&input).is_empty(), "{input}");
    // The same map as flags, and as JSON.
    let flags = [
        "turn_id=/id",
        "agent_id=/bot/name",
        "created_at=/ts",
        "conversation_id=/session",
        "channel=/via",
        "reply=/output/text",
        "chunks=/retrieval/hits",
        "citations=/retrieval/cited",
        "chunk.id=/key",
        "chunk.document_id=/doc",
        "chunk.score=/relevance",
    ];
    let mut args = vec![log.to_str().unwrap()];
    for f in &flags {
        args.extend(["--map", f]);
    }
    assert_eq!(verdicts(&args).0, got);
    let dir = tempfile::tempdir().unwrap();
    let json_map = dir.path().join("map.json");
    let obj: serde_json::Map<String, Value> = flags
        .iter()
        .map(|f| {
            let (k, v) = f.split_once('=').unwrap();
            (k.to_owned(), Value::String(v.to_owned()))
        })
        .collect();
    std::fs::write(&json_map, Value::Object(obj).to_string()).unwrap();
    assert_eq!(
        verdicts(&[
            log.to_str().unwrap(),
            "--map-file",
            json_map.to_str().unwrap()
        ])
        .0,
        got
    );
}

#[test]
fn a_mapping_that_points_at_nothing_is_an_error_naming_it() {
    let log = fixture("misread/answer.jsonl");
    let (code, _, err) = run(&["summary", log.to_str().unwrap(), "--map", "reply=/answr"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--map reply=/answr points at nothing"),
        "{err}"
    );
    // A pointer that resolves on some line is fine.
    let (code, _, err) = run(&["summary", log.to_str().unwrap(), "--map", "reply=/answer"]);
    assert_eq!(code, 0, "{err}");
    // Bad maps are usage errors.
    for bad in ["answer=/x", "reply=answer", "reply"] {
        let (code, _, err) = run(&["summary", log.to_str().unwrap(), "--map", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
    }
}

#[test]
fn near_miss_logs_never_give_a_rate_without_a_warning() {
    for (file, kind, fix) in [
        ("answer.jsonl", "near_miss_field", "--map reply=/answer"),
        (
            "top-chunks.jsonl",
            "near_miss_field",
            "--map chunks=/chunks",
        ),
        ("numeric.jsonl", "marker_grammar", "--markers numeric"),
        ("logits.jsonl", "score_range", "--map chunk.score"),
        ("array.json", "input_shape", "JSON array"),
        ("utf16.jsonl", "input_shape", "UTF-16"),
        ("turns.csv", "input_shape", "CSV"),
    ] {
        let path = fixture(&format!("misread/{file}"));
        let (code, out, err) = run(&["summary", "--format", "json", path.to_str().unwrap()]);
        if file.ends_with(".csv") {
            // No line of a CSV file reads as a turn: an input error naming
            // it as CSV, never an empty summary.
            assert_eq!(code, 3, "{file}: {err}");
            assert!(
                err.contains("none read as a turn: it looks like a CSV table"),
                "{err}"
            );
            continue;
        }
        assert_eq!(code, 0, "{file}: {err}");
        let doc = json(&out);
        let kinds = misread(&doc["input"]);
        assert!(kinds.iter().any(|k| k == kind), "{file}: {kinds:?}");
        assert!(err.contains(fix), "{file}: stderr lacks {fix:?}:\n{err}");
        // --strict makes a misread input an input error.
        let (code, _, err) = run(&["summary", "--strict", path.to_str().unwrap()]);
        assert_eq!(code, 3, "{file}: {err}");
    }
    // The JSON array and UTF-16 files are read all the same: same verdicts.
    for file in ["array.json", "utf16.jsonl"] {
        let (got, _) = verdicts(&[fixture(&format!("misread/{file}")).to_str().unwrap()]);
        assert_eq!(got, demo(), "{file}");
    }
    // The demo itself warns of nothing.
    let (_, input) = verdicts(&[fixture("demo.jsonl").to_str().unwrap()]);
    assert!(misread(&input).is_empty(), "{input}");
}

#[test]
fn the_fix_each_warning_names_grades_the_log_like_the_demo() {
    for (file, args) in [
        ("answer.jsonl", &["--map", "reply=/answer"][..]),
        ("top-chunks.jsonl", &["--map", "chunks=/chunks"]),
    ] {
        let path = fixture(&format!("misread/{file}"));
        let mut all = vec![path.to_str().unwrap()];
        all.extend_from_slice(args);
        let (got, input) = verdicts(&all);
        assert_eq!(got, demo(), "{file}");
        assert!(misread(&input).is_empty(), "{file}: {input}");
    }
}

/// Partials leave what only the whole input can decide to `merge`: a
/// mapping that resolves in one partition only, and `--strict`'s misread
/// check on a partition that looks misread alone, pass as one pass passes;
/// a mapping that resolves nowhere and a whole input that looks misread
/// fail in `merge` as in one pass.
#[test]
fn partials_leave_map_and_strict_judgements_to_merge() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("misread/answer.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Part b names the reply differently: `--map reply=/answer` finds
    // nothing there, and alone its turns are all unobserved.
    let a = lines[..17].join("\n") + "\n";
    let b = lines[17..]
        .iter()
        .map(|l| l.replace("\"answer\":", "\"text\":"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    let write = |name: &str, s: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, s).unwrap();
        p.display().to_string()
    };
    let (pa, pb, whole) = (
        write("a.jsonl", &a),
        write("b.jsonl", &b),
        write("all.jsonl", &(a.clone() + &b)),
    );
    let partials = |map: &str, strict: bool| -> Vec<String> {
        [&pa, &pb]
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let out = dir
                    .path()
                    .join(format!("{i}.partial"))
                    .display()
                    .to_string();
                let mut args = vec!["summary", p.as_str(), "--map", map, "--partial", &out];
                if strict {
                    args.push("--strict");
                }
                let (code, _, err) = run(&args);
                assert_eq!(code, 0, "a partition is not judged alone: {err}");
                out
            })
            .collect()
    };
    let merge = |parts: &[String]| {
        let mut args = vec!["merge", "--format", "json"];
        args.extend(parts.iter().map(String::as_str));
        run(&args)
    };
    let files = |s: &str| {
        let mut v = json(s);
        v["input"]["files"] = 0.into();
        v
    };
    // Resolves in one partition only; part b alone looks misread.
    let parts = partials("reply=/answer", true);
    let (code, merged, err) = merge(&parts);
    assert_eq!(code, 0, "{err}");
    let (code, one, err) = run(&[
        "summary",
        "--format",
        "json",
        &whole,
        "--map",
        "reply=/answer",
        "--strict",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(files(&merged), files(&one));
    // Resolves in part b only, and the whole looks misread (most turns
    // unobserved): --strict fails in merge as in one pass (exit 3).
    let parts = partials("reply=/text", true);
    let (code, _, err) = merge(&parts);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("(--strict)"), "{err}");
    let (code, _, err) = run(&["summary", &whole, "--map", "reply=/text", "--strict"]);
    assert_eq!(code, 3, "{err}");
    // Resolves nowhere: merge refuses it as one pass does (exit 2).
    let parts = partials("reply=/answr", false);
    let (code, _, err) = merge(&parts);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--map reply=/answr points at nothing"),
        "{err}"
    );
    let (code, _, _) = run(&["summary", &whole, "--map", "reply=/answr"]);
    assert_eq!(code, 2);
}

//! `inspect`: the format of every kind of file, and a command line that,
//! run as printed, grades every turn as intended (tested end to end on the
//! near-miss fixtures and on every file of ../shared it can grade).

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn inspect(path: &Path) -> Value {
    let (code, out, err) = run(&["inspect", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{}: {err}", path.display());
    let doc = json(&out);
    assert_eq!(doc.as_array().map(Vec::len), Some(1), "{doc}");
    doc[0].clone()
}

/// Runs the suggested command with `--all --format json`: (turn_id →
/// verdict, input).
fn run_suggested(report: &Value) -> (BTreeMap<String, String>, Value) {
    let argv: Vec<&str> = report["argv"]
        .as_array()
        .unwrap_or_else(|| panic!("no command: {report}"))
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(argv[..2], ["grounding-audit", "report"]);
    let mut args = argv[1..].to_vec();
    args.extend(["--all", "--format", "json"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let doc = json(&out);
    let rows = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let id = match &r["turn_id"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (id, r["verdict"].as_str().unwrap().to_owned())
        })
        .collect();
    (rows, doc["input"].clone())
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
fn every_near_miss_shape_gets_a_command_that_grades_it_like_the_demo() {
    let demo = inspect(&fixture("demo.jsonl"));
    assert_eq!(demo["format"], "turns");
    assert_eq!(
        demo["command"],
        format!(
            "grounding-audit report {} --markers kb",
            fixture("demo.jsonl").display()
        )
    );
    let (want, _) = run_suggested(&demo);
    assert_eq!(want.len(), 22);
    for (file, format, flags, allowed) in [
        (
            "answer.jsonl",
            "turns",
            &["--map", "reply=/answer", "--markers", "kb"][..],
            &[][..],
        ),
        (
            "top-chunks.jsonl",
            "turns",
            &["--map", "chunks=/chunks", "--markers", "kb"],
            &[],
        ),
        ("numeric.jsonl", "turns", &["--markers", "numeric"], &[]),
        (
            "array.json",
            "json_array",
            &["--markers", "kb"],
            &["input_shape"],
        ),
        (
            "utf16.jsonl",
            "utf16",
            &["--markers", "kb"],
            &["input_shape"],
        ),
    ] {
        let path = fixture(&format!("misread/{file}"));
        let r = inspect(&path);
        assert_eq!(r["format"], format, "{file}: {r}");
        let argv: Vec<&str> = r["argv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(argv[3..], *flags, "{file}");
        let (got, input) = run_suggested(&r);
        assert_eq!(got, want, "{file}");
        assert_eq!(input["invalid_lines"], 0, "{file}");
        for k in misread(&input) {
            assert!(allowed.contains(&k.as_str()), "{file}: {k} in {input}");
        }
    }
    // Reranker logits: read as they are, with the warning shown by inspect too.
    let r = inspect(&fixture("misread/logits.jsonl"));
    assert!(
        r["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["kind"] == "score_range"),
        "{r}"
    );
}

#[test]
fn the_marker_guess_counts_each_preset_with_an_example() {
    let r = inspect(&fixture("misread/numeric.jsonl"));
    let numeric = r["markers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["preset"] == "numeric")
        .unwrap();
    assert_eq!(numeric["example"], "[1]");
    assert!(numeric["replies_citing"].as_u64().unwrap() > 0);
    let kb = r["markers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["preset"] == "kb")
        .unwrap();
    assert_eq!(kb["replies_with_markers"], 0);
    assert_eq!(r["grammar"], "numeric");
    // Field coverage names the nearest names of a missing field.
    let r = inspect(&fixture("misread/answer.jsonl"));
    let reply = r["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "reply")
        .unwrap();
    assert_eq!(reply["share"], 0.0);
    assert_eq!(reply["nearest"][0]["pointer"], "/answer");
    // Text output says the same.
    let (code, out, _) = run(&["inspect", fixture("misread/answer.jsonl").to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("nearest: /answer"), "{out}");
    assert!(out.contains("--map reply=/answer"), "{out}");
}

#[test]
fn csv_parquet_and_unknown_files_get_no_command_but_a_fix() {
    let r = inspect(&fixture("misread/turns.csv"));
    assert_eq!(r["format"], "csv");
    assert!(r["command"].is_null());
    assert!(r["note"].as_str().unwrap().contains("JSON Lines"), "{r}");
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "just some notes\nno json here\n").unwrap();
    let r = inspect(&text);
    assert_eq!(r["format"], "unknown");
    assert!(r["command"].is_null());
    // Parquet is decoded to its rows at the source: a broken file is an
    // input error, a real one is inspected as the export inside.
    let parquet = dir.path().join("spans.parquet");
    std::fs::write(&parquet, b"PAR1\x15\x04\x15\x10\x00\x00PAR1").unwrap();
    let (code, _, err) = run(&["inspect", parquet.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("not a readable Parquet file"), "{err}");
    let r = inspect(&fixture("langsmith/runs.parquet"));
    assert_eq!(r["format"], "langsmith", "{r}");
    assert!(r["command"].is_string(), "{r}");
}

#[test]
fn a_sample_is_the_first_records_unless_all() {
    let log = fixture("demo.jsonl");
    let (code, out, _) = run(&[
        "inspect",
        "--format",
        "json",
        "--sample",
        "5",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let r = &json(&out)[0];
    assert_eq!(
        (r["records"].as_u64(), r["turns"].as_u64(), &r["complete"]),
        (Some(5), Some(5), &Value::Bool(false))
    );
    let (_, out, _) = run(&[
        "inspect",
        "--format",
        "json",
        "--all",
        log.to_str().unwrap(),
    ]);
    assert_eq!(json(&out)[0]["turns"], 22);
}

/// Every file of ../shared that a dialect of this build reads: inspect names
/// the format, and its command runs and grades the turns inspect counted,
/// with no misread warning (the reranker log-probabilities of
/// attributed-ir-hagrid excepted: they are what the score warning is for).
#[test]
fn every_shared_file_gets_the_right_format_and_a_command_that_grades_it() {
    let Some(root) = shared("") else { return };
    let mut files = Vec::new();
    for dir in ["realdata", "agentfootprint", "traces"] {
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    let mut graded = 0;
    for f in &files {
        let r = inspect(f);
        let name = f.display().to_string();
        let format = r["format"].as_str().unwrap();
        if name.contains("/realdata/") {
            assert_eq!(format, "turns", "{name}");
            let want_markers = name.ends_with("turns.orig.jsonl");
            assert_eq!(r["grammar"] == "numeric", want_markers, "{name}: {r}");
        }
        if name.contains("/agentfootprint/")
            && !name.contains("llm-requests")
            && !name.contains("index-report")
        {
            assert_eq!(format, "agentfootprint", "{name}");
        }
        if name.contains("/otlp-") || name.contains("langfuse-otel") {
            assert_eq!(format, "otlp", "{name}");
        }
        if name.contains("/phoenix-") {
            let want = if name.ends_with(".parquet") {
                "parquet"
            } else if name.contains("dataframe") {
                "phoenix-dataframe"
            } else if name.ends_with("otlp.json") {
                "phoenix-otlp"
            } else {
                "phoenix-jsonl"
            };
            if want != "parquet" || r["reads_as"].is_null() {
                assert_eq!(format, want, "{name}");
            }
        }
        if r["command"].is_null() {
            continue;
        }
        let (rows, input) = run_suggested(&r);
        assert_eq!(
            rows.len() as u64,
            input["turns"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(input["turns"], r["turns"], "{name}");
        for k in misread(&input) {
            // The REST page holds a cursor to a next page: it says so.
            let paged = k == "input_shape" && name.contains("rest_page_envelope");
            assert!(
                paged || k == "score_range" && name.contains("attributed-ir"),
                "{name}: {k}"
            );
        }
        graded += 1;
    }
    assert!(graded >= 30, "only {graded} files graded");
    // The original realdata replies graded with the suggested numeric
    // grammar agree with their [KB-N] rewrite graded with kb.
    for set in ["expertqa", "hagrid", "attributed-ir-hagrid"] {
        let orig = run_suggested(&inspect(
            &root.join(format!("realdata/{set}/turns.orig.jsonl")),
        ))
        .0;
        let kb = run_suggested(&inspect(
            &root.join(format!("realdata/{set}/turns.kb.jsonl")),
        ))
        .0;
        let count = |m: &BTreeMap<String, String>| {
            let mut c = BTreeMap::new();
            m.values()
                .for_each(|v| *c.entry(v.clone()).or_insert(0) += 1);
            c
        };
        assert_eq!(count(&orig).get("ok"), count(&kb).get("ok"), "{set}");
    }
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if !p.ends_with("raw") && !p.ends_with("scripts") && !p.ends_with("C-docs") {
                collect(&p, out);
            }
        } else if ["jsonl", "json", "ndjson", "parquet"]
            .iter()
            .any(|x| p.extension().is_some_and(|e| e == *x))
        {
            out.push(p);
        }
    }
}

/// A copy of `fixtures/NAME` in a fresh directory, last written at a fixed
/// time (the time a proposed `--set created_at` takes), and `inspect` run
/// there on it with `args`: (exit code, stdout, stderr).
fn inspect_copy(name: &str, args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = Path::new(name).file_name().unwrap();
    let copy = dir.path().join(file);
    std::fs::copy(fixture(name), &copy).unwrap();
    let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_717_243_200);
    std::fs::File::options()
        .write(true)
        .open(&copy)
        .unwrap()
        .set_modified(when)
        .unwrap();
    let out = bin()
        .current_dir(dir.path())
        .arg("inspect")
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An evaluator's rows (question, answer, a JSON string of products keyed
/// by id, no id, agent or time): the map printed in text and JSON is the
/// one the command uses, in `--map`'s own syntax, and pasted into
/// `report` it reads every record, citing by id.
#[test]
fn the_proposed_map_is_printed_and_pasted_it_reads_every_record() {
    let (code, text, err) = inspect_copy("misread/eval-context.jsonl", &[]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("inspect_eval_text", text);
    let (code, out, _) = inspect_copy("misread/eval-context.jsonl", &["--format", "json"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("inspect_eval_json", out);
    let r = &json(&out)[0];
    let want_map = [
        "turn_id=/question",
        "reply=/answer",
        "chunks=json:keyed:/context",
    ];
    let want_set = ["agent_id=eval-context", "created_at=2024-06-01T12:00:00Z"];
    assert_eq!(r["map"], serde_json::json!(want_map));
    assert_eq!(r["set"], serde_json::json!(want_set));
    // The text prints the same arguments on one line, to paste.
    let line: Vec<String> = want_map
        .iter()
        .map(|m| format!("--map {m}"))
        .chain(want_set.iter().map(|s| format!("--set {s}")))
        .collect();
    assert!(
        text.contains(&format!("\n    {}\n", line.join(" "))),
        "{text}"
    );
    // Every mapped field is on every record; every chunk has an id (its key).
    for f in r["map_fields"].as_array().unwrap() {
        assert_eq!(f["have"], f["of"], "{f}");
    }
    assert_eq!((&r["turns"], &r["records"]), (&json!(6), &json!(6)));
    // The command names its grammar: the ids are what the replies cite.
    assert_eq!(r["grammar"], "id");
    assert!(
        r["argv"]
            .as_array()
            .unwrap()
            .ends_with(&[json!("--markers"), json!("id")])
    );
    assert!(
        text.contains("grammar: id — cites a chunk in 5 of 6 replies"),
        "{text}"
    );
    // Pasted as printed, the map reads and grades every record.
    let path = fixture("misread/eval-context.jsonl");
    let mut args = vec![
        "report",
        path.to_str().unwrap(),
        "--all",
        "--format",
        "json",
    ];
    for m in &want_map {
        args.extend(["--map", m]);
    }
    for s in &want_set {
        args.extend(["--set", s]);
    }
    args.extend(["--markers", "id"]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    assert_eq!(doc["input"]["turns"], 6, "{err}");
    assert_eq!(doc["input"]["invalid_lines"], 0);
    let verdicts: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts.iter().filter(|v| **v == "ok").count(),
        5,
        "{verdicts:?}"
    );
    assert_eq!(verdicts.iter().filter(|v| **v == "no_marker").count(), 1);
}

use serde_json::json;

/// `--map`, `--set` and `--map-file` are tried: the given fields are kept,
/// the others proposed, and each is reported with the records holding it.
#[test]
fn a_given_map_is_tried_field_by_field() {
    let log = fixture("misread/home-grown.jsonl");
    let log = log.to_str().unwrap();
    let field = |r: &Value, name: &str| {
        r["map_fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["field"] == name)
            .unwrap_or_else(|| panic!("{name} in {r}"))
            .clone()
    };
    // Without a map, the nested agent and reply are not found: no turn.
    let r = inspect(Path::new(log));
    assert_eq!(r["turns"], 0);
    assert!(r["command"].is_null());
    let note = r["note"].as_str().unwrap();
    assert!(
        note.contains("under the map proposed") && note.contains("agent_id (/agent_id)"),
        "{note}"
    );
    // The fields it could not find, given; the rest proposed.
    let (code, out, err) = run(&[
        "inspect",
        "--format",
        "json",
        log,
        "--map",
        "agent_id=/bot/name",
        "--map",
        "reply=/output/text",
        "--map",
        "chunks=/retrieval/hits",
    ]);
    assert_eq!(code, 0, "{err}");
    let r = &json(&out)[0];
    assert_eq!((&r["turns"], &r["records"]), (&json!(22), &json!(22)));
    let agent = field(r, "agent_id");
    assert_eq!(
        (&agent["origin"], &agent["have"], &agent["of"]),
        (&json!("given"), &json!(22), &json!(22))
    );
    let reply = field(r, "reply");
    assert_eq!(
        (&reply["origin"], &reply["have"]),
        (&json!("given"), &json!(20))
    );
    let id = field(r, "turn_id");
    assert_eq!(
        (&id["origin"], &id["value"]),
        (&json!("proposed"), &json!("/id"))
    );
    let score = field(r, "chunk.score");
    assert_eq!(
        (&score["value"], &score["have"], &score["unit"]),
        (&json!("/relevance"), &json!(42), &json!("chunks"))
    );
    // The map file: every field given, nothing proposed, the same turns.
    let map = fixture("misread/home-grown.map.toml");
    let (code, out, _) = run(&[
        "inspect",
        "--format",
        "json",
        log,
        "--map-file",
        map.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let r = &json(&out)[0];
    assert_eq!(r["turns"], 22);
    assert!(
        r["map_fields"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["origin"] == "given"),
        "{r}"
    );
    let (_, text, _) = run(&["inspect", log, "--map-file", map.to_str().unwrap()]);
    assert!(
        text.contains("map (given):") && text.contains("22 of 22 records read as a turn"),
        "{text}"
    );
    // A field given that no record holds says so.
    let (_, out, _) = run(&[
        "inspect",
        "--format",
        "json",
        log,
        "--map",
        "reply=/answr",
        "--set",
        "agent_id=bot",
    ]);
    let r = &json(&out)[0];
    assert_eq!(field(r, "reply")["have"], 0);
    assert_eq!(field(r, "agent_id")["value"], "bot");
    assert!(r["command"].is_null(), "{r}");
    assert!(
        r["note"]
            .as_str()
            .unwrap()
            .contains("--map reply=/answr points at nothing"),
        "{r}"
    );
    // The map flags parse as everywhere: errors are usage errors, a map
    // file that cannot be read an input error.
    for (args, want) in [
        (&["--map", "reply=answer"][..], 2),
        (&["--map", "agent_id=/a", "--set", "agent_id=b"], 2),
        (&["--map", "reply=json:/a"], 2),
        (&["--map-file", "/nonexistent/map.toml"], 3),
    ] {
        let mut a = vec!["inspect", log];
        a.extend(args);
        assert_eq!(run(&a).0, want, "{args:?}");
    }
    // A file of another dialect is read as it is, and says so.
    let r = {
        let runs = fixture("langsmith/runs.parquet");
        let (_, out, _) = run(&[
            "inspect",
            "--format",
            "json",
            runs.to_str().unwrap(),
            "--map",
            "reply=/x",
        ]);
        json(&out)[0].clone()
    };
    assert!(
        r["map_note"]
            .as_str()
            .unwrap()
            .contains("read as langsmith"),
        "{r}"
    );
    assert!(r["map"].as_array().unwrap().is_empty());
}

/// Turn lines that name their own grammar (what `convert` writes) keep it:
/// the command adds no `--markers`, and the text says why.
#[test]
fn records_that_name_their_grammar_keep_it() {
    let dir = tempfile::tempdir().unwrap();
    let (code, converted, _) = run(&[
        "convert",
        fixture("misread/numeric.jsonl").to_str().unwrap(),
        "--to",
        "turns",
        "--markers",
        "numeric",
    ]);
    assert_eq!(code, 0);
    let file = dir.path().join("converted.jsonl");
    std::fs::write(&file, converted).unwrap();
    let r = inspect(&file);
    assert_eq!(r["grammar"], "numeric");
    assert!(
        !r["argv"].as_array().unwrap().contains(&json!("--markers")),
        "{r}"
    );
    assert!(
        r["grammar_reason"]
            .as_str()
            .unwrap()
            .contains("`markers` field"),
        "{r}"
    );
}

/// The real exports of other tools in ../shared/external: each dialect's
/// file gets a command, and the evaluator's output, read as a turn log,
/// gets a proposed map that reads every row as a turn (the one such file
/// whose records are turns; the two span attribute maps are not).
#[test]
fn real_exports_of_other_tools_get_a_map_or_a_command() {
    let Some(root) = shared("external") else {
        return;
    };
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(files.len() >= 11, "{files:?}");
    let (mut commands, mut mapped_turns) = (0, 0);
    for f in &files {
        let r = inspect(f);
        let name = f.display().to_string();
        if r["command"].is_string() {
            commands += 1;
            let (rows, input) = run_suggested(&r);
            assert_eq!(
                rows.len() as u64,
                input["turns"].as_u64().unwrap(),
                "{name}"
            );
            assert_eq!(input["turns"], r["turns"], "{name}");
        }
        if r["reads_as"] == "mapped" && r["turns"].as_u64() > Some(0) {
            mapped_turns += 1;
        }
    }
    assert_eq!((commands, mapped_turns), (9, 1));
    let r = inspect(&root.join("azure-rag-postgres-evals/eval_results.jsonl"));
    assert_eq!((&r["turns"], &r["records"]), (&json!(10), &json!(10)));
    assert_eq!(r["grammar"], "id");
    assert!(
        r["map"]
            .as_array()
            .unwrap()
            .contains(&json!("chunks=json:keyed:/context")),
        "{r}"
    );
    let (rows, _) = run_suggested(&r);
    assert_eq!(rows.values().filter(|v| *v == "ok").count(), 10, "{rows:?}");
}

/// A file cut off in the middle of its gzip stream, inside a directory:
/// the error names the file (exit 3), as `report` does.
#[test]
fn a_truncated_file_in_a_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        fixture("hostile/no-trailer.jsonl.gz"),
        dir.path().join("cut.jsonl.gz"),
    )
    .unwrap();
    let out = bin().arg("inspect").arg(dir.path()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("cut.jsonl.gz: read error"), "{err}");
}

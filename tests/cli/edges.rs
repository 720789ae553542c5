//! Contracts at the edges: policy files that say what is wrong in one line
//! and set every gate, flags that would be ignored refused, partials that
//! cannot be made to disagree or lie, and times printed and bucketed as the
//! clock on the wall shows them.

use crate::common::*;
use std::io::Write;

/// A file in `dir` holding `text`.
fn file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_owned()
}

/// Two agents: `a` with one orphan marker in four turns, `b` clean.
fn two_agents(dir: &tempfile::TempDir) -> String {
    let mut text = String::new();
    for (i, (agent, reply)) in [
        ("a", "yes [KB-1]"),
        ("a", "yes [KB-1]"),
        ("a", "yes [KB-1]"),
        ("a", "bad [KB-7]"),
        ("b", "yes [KB-1]"),
        ("b", "yes [KB-1]"),
    ]
    .iter()
    .enumerate()
    {
        text.push_str(&format!(
            r#"{{"turn_id":"t{i}","agent_id":"{agent}","created_at":"2026-08-01T00:00:00Z","reply":"{reply}","grounding":{{"chunks":[{{"document_id":"d","score":0.8}}]}}}}"#
        ));
        text.push('\n');
    }
    file(dir, "log.jsonl", &text)
}

#[test]
fn a_policy_error_is_one_readable_line_with_line_column_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let log = two_agents(&dir);
    let policy = file(
        &dir,
        "p.toml",
        "[defaults]\nmin_rate = 0.5\nmax_orphns = 0\n",
    );
    let (code, out, err) = run(&["check", &log, "--policy", &policy]);
    assert_eq!(code, 3, "{out}{err}");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("ERROR --policy "), "{first}");
    assert!(
        first.contains("line 3, column 1: unknown field `max_orphns`"),
        "{first}"
    );
    assert!(
        !out.contains("\\u{a}") && !err.contains("\\u{a}"),
        "{out}{err}"
    );
}

#[test]
fn a_policy_sets_the_count_gates_per_agent_and_overall() {
    let dir = tempfile::tempdir().unwrap();
    let log = two_agents(&dir);
    // Agent a has one orphan: held to zero by its own table, it fails.
    let policy = file(&dir, "p.toml", "[agents.a]\nmax_orphans = 0\n");
    let (code, out, _) = run(&["check", &log, "--policy", &policy]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with(r#"FAIL agent "a" orphan_marker=1 > max_orphans=0"#),
        "{out}"
    );
    // In [defaults] the count gates are overall, as their flags are.
    let policy = file(
        &dir,
        "p.toml",
        "[defaults]\nmax_orphans = 1\nmax_unobserved_rate = 0.0\n",
    );
    let (code, out, _) = run(&["check", &log, "--policy", &policy, "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let doc = json(&out);
    let gates: Vec<(String, String)> = doc["gates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["gate"].as_str().unwrap().to_owned(),
                g["scope"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        gates.contains(&("max_orphans".into(), "overall".into())),
        "{gates:?}"
    );
    assert!(
        gates.contains(&("max_unobserved_rate".into(), "overall".into())),
        "{gates:?}"
    );
    assert!(
        !gates
            .iter()
            .any(|(g, s)| g == "max_orphans" && s == "agent"),
        "{gates:?}"
    );
}

#[test]
fn partials_refuse_what_only_changes_rendering() {
    let dir = tempfile::tempdir().unwrap();
    let log = two_agents(&dir);
    let part = dir.path().join("p.json");
    let part = part.to_str().unwrap();
    let html = dir.path().join("r.html");
    let html = html.to_str().unwrap();
    for args in [
        vec!["summary", &log, "--partial", part, "--html", html],
        vec!["summary", &log, "--partial", part, "--format", "json"],
        vec!["summary", &log, "--partial", part, "--show-tz", "local"],
        vec!["summary", &log, "--partial", part, "--confidence", "0.9"],
        vec!["report", &log, "--partial", part, "--format", "csv"],
        vec!["report", &log, "--partial", part, "--columns", "turn_id"],
        // Given is given, even when it is the default.
        vec!["summary", &log, "--partial", part, "--format", "table"],
        vec![
            "summary",
            &log,
            "--partial",
            part,
            "--triage-order",
            "severity",
        ],
        vec!["report", &log, "--partial", part, "--format", "table"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains("give it to `grounding-audit merge`"),
            "{args:?}: {err}"
        );
        assert!(
            !std::path::Path::new(part).exists(),
            "{args:?} wrote a partial"
        );
        assert!(!std::path::Path::new(html).exists(), "{args:?} wrote HTML");
    }
}

/// Every flag a partial run refuses is one its command has, named as clap
/// names its argument, so a renamed flag fails here rather than passing as
/// never given.
#[test]
fn the_rendering_flags_a_partial_refuses_exist() {
    use clap::CommandFactory;
    let cmd = grounding_audit::cli::Cli::command();
    for (sub, flags) in [
        ("summary", grounding_audit::config::summary::RENDERED),
        ("report", grounding_audit::config::REPORT_RENDERED),
    ] {
        let sub = cmd.find_subcommand(sub).unwrap();
        for flag in flags {
            let long = flag.trim_start_matches('-');
            assert!(
                sub.get_arguments()
                    .any(|a| a.get_long() == Some(long)
                        && a.get_id().as_str() == long.replace('-', "_")),
                "{} has no {flag}",
                sub.get_name()
            );
        }
    }
}

#[test]
fn a_partial_of_a_relative_window_needs_now() {
    let dir = tempfile::tempdir().unwrap();
    let log = two_agents(&dir);
    let part = dir.path().join("p.json");
    let part = part.to_str().unwrap();
    for cmd in ["summary", "report", "check"] {
        let (code, _, err) = run(&[cmd, &log, "--since", "7d", "--partial", part]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains("--since needs --now TIME"), "{cmd}: {err}");
    }
    // With --now, two partitions agree on the window and merge.
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    for p in [&a, &b] {
        let (code, _, err) = run(&[
            "summary",
            &log,
            "--since",
            "7d",
            "--now",
            "2026-08-02T00:00:00Z",
            "--partial",
            p.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, out, err) = run(&["merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
}

/// A check partial of `log`, as JSON.
fn check_partial(dir: &tempfile::TempDir, log: &str) -> serde_json::Value {
    let p = dir.path().join("c.json");
    let (code, _, err) = run(&["check", log, "--partial", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    json(&std::fs::read_to_string(p).unwrap())
}

#[test]
fn a_partial_whose_counts_do_not_add_up_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let log = two_agents(&dir);
    let good = check_partial(&dir, &log);
    // One more ok turn overall than its agents and days hold; verdicts
    // that do not add up to the turns; more ok turns than with retrieval;
    // evidence counts that do not add up to the turns.
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 4] = [
        ("agents do not add up", |p| {
            let o = &mut p["gate"]["overall"];
            o[0] = (o[0].as_u64().unwrap() + 1).into();
            o[1] = (o[1].as_u64().unwrap() + 1).into();
            o[2][0] = (o[2][0].as_u64().unwrap() + 1).into();
            // The turn's evidence too, so the rollup alone adds up.
            o[3][8] = (o[3][8].as_u64().unwrap() + 1).into();
        }),
        ("verdict counts do not add up", |p| {
            let o = &mut p["gate"]["overall"];
            o[0] = (o[0].as_u64().unwrap() + 1).into();
        }),
        ("evidence counts add up to", |p| {
            let o = &mut p["gate"]["overall"];
            o[3][9] = (o[3][9].as_u64().unwrap() + 1).into();
        }),
        ("cannot hold", |p| {
            let o = &mut p["gate"]["overall"];
            o[1] = 0.into();
        }),
    ];
    for (says, edit) in edits {
        let mut bad = good.clone();
        edit(&mut bad);
        let path = file(&dir, "bad.json", &bad.to_string());
        let (code, out, err) = run(&["merge", &path, "--min-rate", "0.1"]);
        assert_ne!(code, 0, "{says}: {out}");
        assert!(err.contains(says), "{says}: {err}");
    }
    let path = file(&dir, "good.json", &good.to_string());
    let (code, out, err) = run(&["merge", &path, "--min-rate", "0.1"]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_mapped_field_given_twice_is_an_invalid_line_as_in_native_input() {
    let dir = tempfile::tempdir().unwrap();
    let mut f = std::fs::File::create(dir.path().join("m.jsonl")).unwrap();
    writeln!(
        f,
        r#"{{"id":"t1","text":"yes [KB-1]","docs":[{{"d":"x"}}]}}"#
    )
    .unwrap();
    writeln!(
        f,
        r#"{{"id":"t2","text":"yes [KB-1]","text":"no","docs":[{{"d":"x"}}]}}"#
    )
    .unwrap();
    writeln!(
        f,
        r#"{{"id":"t3","text":"yes [KB-1]","docs":[{{"d":"x","d":"y"}}]}}"#
    )
    .unwrap();
    writeln!(
        f,
        r#"{{"id":"t4","text":"yes","docs":[],"docs":[{{"d":"x"}}]}}"#
    )
    .unwrap();
    drop(f);
    let log = dir.path().join("m.jsonl");
    let (code, out, err) = run(&[
        "summary",
        log.to_str().unwrap(),
        "--map",
        "turn_id=/id",
        "--map",
        "reply=/text",
        "--map",
        "chunks=/docs",
        "--map",
        "chunk.document_id=/d",
        "--set",
        "agent_id=a",
        "--set",
        "created_at=2026-08-01T00:00:00Z",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    assert_eq!(doc["input"]["invalid_lines"], 3, "{err}");
    assert_eq!(doc["totals"]["turns"], 1, "{out}");
    for (line, field) in [(2, "text"), (3, "d"), (4, "docs")] {
        let _ = field;
        assert!(
            err.contains(&format!("m.jsonl:{line}: duplicate field")),
            "{err}"
        );
    }
    // The same line in the native format is refused the same way.
    let native = file(
        &dir,
        "n.jsonl",
        r#"{"turn_id":"t1","created_at":"2026-08-01T00:00:00Z","reply":"a","reply":"b"}"#,
    );
    let (code, out, err) = run(&["summary", &native, "--format", "json"]);
    // Its only line refused, the file holds no turn: an input error.
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("n.jsonl:1: duplicate field"), "{err}");
    let native = file(
        &dir,
        "n2.jsonl",
        &format!(
            "{}\n{}",
            r#"{"turn_id":"t1","created_at":"2026-08-01T00:00:00Z","reply":"a","reply":"b"}"#,
            r#"{"turn_id":"t2","agent_id":"a","created_at":"2026-08-01T00:00:00Z","reply":"a"}"#
        ),
    );
    let (_, out, _) = run(&["summary", &native, "--format", "json"]);
    assert_eq!(json(&out)["input"]["invalid_lines"], 1);
}

#[test]
fn a_long_reason_is_cut_to_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    // An agentfootprint run with no time on any event: its reason names
    // the run, whose id is 5,000 bytes long.
    let id = "r".repeat(5_000);
    let mut text = String::new();
    for (kind, payload) in [
        ("turn_start", r#"{"turnIndex":0,"userPrompt":"q"}"#),
        ("turn_end", r#"{"turnIndex":0,"content":"a"}"#),
    ] {
        text.push_str(&format!(
            r#"{{"type":"agentfootprint.agent.{kind}","payload":{payload},"meta":{{"runId":"{id}","sessionId":"s"}}}}"#
        ));
        text.push('\n');
    }
    let log = file(&dir, "runs.ndjson", &text);
    for strict in [false, true] {
        let mut args = vec!["summary", log.as_str()];
        if strict {
            args.push("--strict");
        }
        let (_, _, err) = run(&args);
        let line = err
            .lines()
            .find(|l| l.contains("runs.ndjson:1: "))
            .unwrap_or_else(|| panic!("no reason printed: {err}"));
        let reason = line.split_once("runs.ndjson:1: ").unwrap().1;
        assert!(reason.starts_with("run \"rrr"), "{}", &reason[..40]);
        assert!(
            reason.len() <= 303 + " (--strict)".len(),
            "{} bytes",
            reason.len()
        );
    }
}

#[test]
fn repeated_local_hours_are_two_buckets_with_their_offsets() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    // 00:30 and 01:30 UTC on 2026-10-25 are both 02:30 in Berlin.
    for (i, t) in ["2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z"]
        .iter()
        .enumerate()
    {
        text.push_str(&format!(
            r#"{{"turn_id":"t{i}","agent_id":"a","created_at":"{t}","reply":"yes [KB-1]","grounding":{{"chunks":[{{"document_id":"d","score":0.8}}]}}}}"#
        ));
        text.push('\n');
    }
    let log = file(&dir, "dst.jsonl", &text);
    let (code, out, err) = run(&[
        "summary",
        &log,
        "--tz",
        "Europe/Berlin",
        "--bucket",
        "hour",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let days: Vec<String> = json(&out)["days"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["day"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(days, ["2026-10-25T02+02:00", "2026-10-25T02+01:00"]);
}

#[test]
fn check_dates_a_change_by_the_local_day() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    let mut n = 0;
    let mut turn = |day: u32, hour: u32, reply: &str| {
        for minute in 0..10 {
            n += 1;
            text.push_str(&format!(
                r#"{{"turn_id":"t{n}","agent_id":"a","created_at":"2026-08-{day:02}T{hour:02}:{minute:02}:00Z","reply":"{reply}","grounding":{{"chunks":[{{"document_id":"d","score":0.8}}]}}}}"#
            ));
            text.push('\n');
        }
    };
    // Cited answers at noon UTC up to 1 August; from 23:00 UTC on 1 August
    // (1:00 on 2 August in Berlin) the answers stop citing.
    for day in 1..=5 {
        turn(day, 12, "yes [KB-1]");
    }
    for day in 5..=7 {
        turn(day, 23, "no");
    }
    let log = file(&dir, "days.jsonl", &text);
    let (code, utc, _) = run(&["check", &log, "--min-rate", "0.9"]);
    assert_eq!(code, 1, "{utc}");
    let (code, berlin, _) = run(&["check", &log, "--min-rate", "0.9", "--tz", "Europe/Berlin"]);
    assert_eq!(code, 1, "{berlin}");
    assert!(
        berlin.contains("change day 2026-08-06, 1.0000 before it and 0.0000 from it on"),
        "{berlin}"
    );
    assert!(!utc.contains("1.0000 before it and 0.0000"), "{utc}");
}

#[test]
fn now_without_since_is_refused_not_ignored() {
    let log = fixture("demo.jsonl");
    let log = log.to_str().unwrap();
    for cmd in ["summary", "report", "check"] {
        let mut args = vec![
            cmd,
            log,
            "--from",
            "2026-08-01",
            "--now",
            "2026-08-02T00:00:00Z",
        ];
        if cmd == "check" {
            args.extend(["--min-rate", "0.1"]);
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(
            err.contains("--now is the time --since counts back from"),
            "{err}"
        );
    }
}

#[test]
fn grep_is_smart_case() {
    let log = fixture("demo.jsonl");
    let log = log.to_str().unwrap();
    let count = |extra: &[&str]| {
        let mut args = vec!["report", log, "--all", "--format", "jsonl"];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out.lines().count()
    };
    // The demo's replies say "Refunds", never "refund".
    assert_eq!(count(&["--grep", "Refund"]), 3);
    assert_eq!(count(&["--grep", "refund"]), 3, "lower case ignores case");
    assert_eq!(count(&["--grep", "refund", "--case-sensitive"]), 0);
    assert_eq!(count(&["--grep", "REFUND"]), 0, "upper case keeps case");
}

#[test]
fn a_folder_of_other_files_is_one_note() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("demo.jsonl"), dir.path().join("a.jsonl")).unwrap();
    for i in 0..124 {
        std::fs::write(dir.path().join(format!("other-{i:03}.txt")), "x").unwrap();
    }
    let (code, _, err) = run(&["summary", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let notes: Vec<&str> = err.lines().filter(|l| l.contains("not read")).collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(
        notes[0].starts_with("note: 124 files not read ("),
        "{}",
        notes[0]
    );
    assert!(notes[0].ends_with(" and 121 more"), "{}", notes[0]);
}

#[test]
fn an_empty_window_names_when_the_input_is() {
    let log = fixture("demo.jsonl");
    let log = log.to_str().unwrap();
    for cmd in ["summary", "report"] {
        let (code, _, err) = run(&[cmd, log, "--since", "7d", "--now", "2026-12-01T00:00:00Z"]);
        assert_eq!(code, 0, "{err}");
        assert!(
            err.contains("note: no turn falls in the window 2026-11-24T00:00:00Z to 2026-12-01T00:00:00Z; the input's turns run from 2026-08-01T09:00:00Z to 2026-08-03T18:05:00Z"),
            "{cmd}: {err}"
        );
    }
    // Counted back from the clock, the window's bounds are whole seconds.
    let (code, _, err) = run(&["summary", log, "--since", "1d"]);
    assert_eq!(code, 0, "{err}");
    let note = err
        .lines()
        .find(|l| l.contains("no turn falls"))
        .expect(&err);
    let from = note.split_whitespace().nth(7).unwrap();
    assert!(from.len() == 20 && from.ends_with('Z'), "{note}");
    // A window that holds turns says nothing of the kind, even when
    // another filter leaves none.
    let (_, _, err) = run(&["report", log, "--from", "2026-08-01", "--agent", "nobody"]);
    assert!(!err.contains("no turn falls in the window"), "{err}");
}

#[test]
fn citations_with_nothing_retrieved_stand_beside_the_rate() {
    let dir = tempfile::tempdir().unwrap();
    let chunk = r#","grounding":{"chunks":[{"document_id":"d","score":0.8}]}"#;
    let text = [
        // Cites with nothing retrieved: orphan_marker, outside the rate.
        r#"{"turn_id":"x1","agent_id":"a","created_at":"2026-08-01T00:00:00Z","reply":"As [KB-1] says"}"#.to_owned(),
        format!(r#"{{"turn_id":"x2","agent_id":"a","created_at":"2026-08-01T00:00:00Z","reply":"yes [KB-1]"{chunk}}}"#),
        // Cites past what was retrieved: orphan_marker, inside the rate.
        format!(r#"{{"turn_id":"x3","agent_id":"b","created_at":"2026-08-01T00:00:00Z","reply":"bad [KB-4]"{chunk}}}"#),
    ]
    .join("\n");
    let log = file(&dir, "inv.jsonl", &text);
    let (_, out, _) = run(&["summary", &log, "--format", "json"]);
    let doc = json(&out);
    assert_eq!(doc["totals"]["cited_without_retrieval"], 1);
    assert_eq!(doc["totals"]["verdicts"]["orphan_marker"], 2);
    let per: Vec<(String, u64)> = doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["key"].as_str().unwrap().to_owned(),
                g["cited_without_retrieval"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        per.contains(&("a".to_owned(), 1)) && per.contains(&("b".to_owned(), 0)),
        "{per:?}"
    );
    let (_, out, _) = run(&["summary", &log]);
    assert!(
        out.contains("grounded rate 0.5000 · cited with nothing retrieved 1"),
        "{out}"
    );
    let (_, out, _) = run(&["check", &log, "--min-rate", "0.4"]);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .contains("[1 turn(s) cite with nothing retrieved"),
        "{out}"
    );
}

#[test]
fn explain_says_when_the_log_holds_no_chunk_text() {
    let log = fixture("demo.jsonl");
    let log = log.to_str().unwrap();
    let (code, out, err) = run(&["explain", "t-01", log, "--show-text"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("\nchunk text\n(the log holds no chunk text: its retrieval recorded ids and scores only)\n"), "{out}");
    // Without --show-text nothing of the kind is said.
    let (_, out, _) = run(&["explain", "t-01", log]);
    assert!(!out.contains("the log holds no chunk text"), "{out}");
}

/// A directory reads the JSON documents that hold a trace export (a
/// Langfuse trace download here) as it reads them when named, and passes
/// over other JSON files (a package.json, a tsconfig.json with comments),
/// naming them in its note instead of refusing the run.
#[test]
fn a_directory_reads_trace_documents_and_passes_over_other_json() {
    let dir = tempfile::tempdir().unwrap();
    let trace = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/langfuse/crewai-2025-07-11.trace.json");
    std::fs::copy(&trace, dir.path().join("crewai.trace.json")).unwrap();
    std::fs::write(
        dir.path().join("package.json"),
        r#"{"name":"x","version":"1.0.0"}"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("tsconfig.json"),
        "{\n  // comments are allowed here\n  \"compilerOptions\": {}\n}\n",
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, walked, err) = run(&["report", "--all", "--format", "json", d]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("2 files not read ("), "{err}");
    assert!(
        err.contains("package.json") && err.contains("tsconfig.json"),
        "{err}"
    );
    let (code, named, err) = run(&[
        "report",
        "--all",
        "--format",
        "json",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (walked, named) = (json(&walked), json(&named));
    assert!(walked["summary"]["turns"].as_u64().unwrap() > 0);
    assert_eq!(walked["summary"]["verdicts"], named["summary"]["verdicts"]);
    assert_eq!(
        walked["rows"].as_array().unwrap().len(),
        named["rows"].as_array().unwrap().len()
    );
}

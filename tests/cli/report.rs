//! `report`: rules, pages, formats, filters, cursors, accounting and exit codes.

use crate::common::*;
use serde_json::Value;

fn demo() -> String {
    fixture("demo.jsonl").to_str().unwrap().to_owned()
}

#[test]
fn every_rule_fixture_grades_as_expected() {
    let path = fixture("rules.jsonl");
    let (code, out, err) = run(&[
        "report",
        "--all",
        "--format",
        "jsonl",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let want: Value = serde_json::from_str(line).unwrap();
        let row = rows
            .iter()
            .find(|r| r["turn_id"] == want["turn_id"])
            .unwrap_or_else(|| panic!("no row for {}", want["turn_id"]));
        for (k, v) in want["expect"].as_object().unwrap() {
            assert_eq!(&row[k], v, "turn {} field {k}", want["turn_id"]);
            checked += 1;
        }
    }
    assert_eq!(rows.len(), text.lines().count());
    assert!(checked > 60);
}

#[test]
fn rows_never_carry_reply_text_or_unknown_fields() {
    let (_, out, _) = run(&["report", "--all", "--format", "jsonl", &demo()]);
    let row: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let mut keys: Vec<&str> = row
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    let mut contract = [
        "turn_id",
        "agent_id",
        "conversation_id",
        "channel",
        "created_at",
        "verdict",
        "partial",
        "cited_chunks",
        "marker_count",
        "out_of_range_markers",
        "malformed_markers",
        "markers_from",
        "chunk_count",
        "confidence",
        "chunks",
        "tool_calls",
        "tool_errors",
        "model",
        "tokens_used",
        "cost_cents",
        "latency_ms",
        "sentences",
        "cited_sentences",
        "coverage",
        "quotes_exact",
        "quotes_normalised",
        "quotes_absent",
        "offsets_mismatched",
        "hints",
        "unchecked",
        "quotes_misattributed",
        "quotes_stitched",
        "quotes_fabricated",
        "evidence",
    ];
    contract.sort();
    assert_eq!(keys, contract);
    assert!(!out.contains("Refunds are available"));
}

#[test]
fn page_is_newest_first_with_page_scoped_summary() {
    let (code, out, _) = run(&["report", "--format", "json", "--limit", "5", &demo()]);
    assert_eq!(code, 0);
    let v = json(&out);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    let times: Vec<&str> = rows
        .iter()
        .map(|r| r["created_at"].as_str().unwrap())
        .collect();
    let mut sorted = times.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(times, sorted);
    assert_eq!(v["summary"]["turns"], 5);
    assert!(v["next_cursor"].is_string());
    assert_eq!(v["input"]["turns"], 22);
}

#[test]
fn cursor_walks_every_row_exactly_once() {
    let mut cursor: Option<String> = None;
    let mut seen = Vec::new();
    for _ in 0..20 {
        let mut args = vec![
            "report".to_owned(),
            "--format".into(),
            "json".into(),
            "--limit".into(),
            "4".into(),
            demo(),
        ];
        if let Some(c) = &cursor {
            args.push("--cursor".into());
            args.push(c.clone());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        seen.extend(
            v["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["turn_id"].as_str().unwrap().to_owned()),
        );
        match v["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen.len(), 22);
    let mut uniq = seen.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(uniq.len(), 22);
    assert_eq!(seen.first().unwrap(), "t-22");
    assert_eq!(seen.last().unwrap(), "t-01");
}

#[test]
fn malformed_cursor_and_bad_limits_are_usage_errors() {
    let (code, _, err) = run(&["report", "--cursor", "not-a-cursor", &demo()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--cursor") && err.contains("not a cursor"),
        "{err}"
    );
    for limit in ["0", "201", "x"] {
        let (code, _, _) = run(&["report", "--limit", limit, &demo()]);
        assert_eq!(code, 2, "--limit {limit}");
    }
    let (code, _, err) = run(&["report", "--from", "yesterday", &demo()]);
    assert_eq!(code, 2);
    assert!(err.contains("--from"), "{err}");
}

#[test]
fn filters_select_turns() {
    let count = |extra: &[&str]| {
        let mut args = vec!["report", "--all", "--format", "jsonl"];
        args.extend_from_slice(extra);
        let d = demo();
        args.push(&d);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        out.lines().count()
    };
    assert_eq!(count(&[]), 22);
    assert_eq!(count(&["--agent", "billing-bot"]), 9);
    assert_eq!(
        count(&["--agent", "billing-bot", "--agent", "support-bot"]),
        16
    );
    assert_eq!(count(&["--channel", "voice"]), 7);
    assert_eq!(count(&["--verdict", "orphan_marker"]), 3);
    assert_eq!(
        count(&["--verdict", "no_marker", "--verdict", "orphan_marker"]),
        7
    );
    assert_eq!(count(&["--from", "2026-08-02", "--to", "2026-08-03"]), 7);
    // t-03 is 11:30+02:00 = 09:30Z: the bound is inclusive and in UTC.
    assert_eq!(
        count(&[
            "--from",
            "2026-08-01T09:30:00Z",
            "--to",
            "2026-08-01T09:30:01Z"
        ]),
        1
    );
}

#[test]
fn all_streams_in_input_order_with_summary_over_everything() {
    let (code, out, _) = run(&["report", "--all", "--format", "json", &demo()]);
    assert_eq!(code, 0);
    let v = json(&out);
    let ids: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["turn_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.first(), Some(&"t-01"));
    assert_eq!(ids.len(), 22);
    assert_eq!(v["summary"]["turns"], 22);
    assert_eq!(v["summary"]["grounded_rate"].as_f64().unwrap(), 12.0 / 18.0);
    assert!(v["next_cursor"].is_null());
}

#[test]
fn input_accounting_covers_every_line() {
    let cases: [(&str, u64, u64, u64, u64, u64); 5] = [
        // file, lines, turns, blank, skipped, invalid (duplicates are the rest)
        ("input/invalid.jsonl", 14, 3, 0, 0, 11),
        ("input/messy.jsonl", 9, 4, 2, 2, 0),
        ("input/demo.jsonl.gz", 22, 22, 0, 0, 0),
        ("input/demo-zstd.jsonl", 22, 22, 0, 0, 0),
        ("input/tree", 3, 3, 0, 0, 0),
    ];
    for (f, lines, turns, blank, skipped, invalid) in cases {
        let (code, out, err) = run(&["report", "--format", "json", fixture(f).to_str().unwrap()]);
        assert_eq!(code, 0, "{f}: {err}");
        let i = &json(&out)["input"];
        assert_eq!(i["lines"], lines, "{f}");
        assert_eq!(i["turns"], turns, "{f}");
        assert_eq!(i["blank_lines"], blank, "{f}");
        assert_eq!(i["skipped_records"], skipped, "{f}");
        assert_eq!(i["invalid_lines"], invalid, "{f}");
        assert_eq!(categories_sum(i), lines, "{f}");
    }
}

#[test]
fn invalid_lines_are_reported_with_path_and_line_then_counted() {
    let path = fixture("input/invalid.jsonl");
    let (code, _, err) = run(&["report", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(err.contains("invalid.jsonl:2: not valid JSON"), "{err}");
    assert!(err.contains("invalid.jsonl:3: not a JSON object"), "{err}");
    assert!(
        err.contains("invalid.jsonl:4: missing field `turn_id`"),
        "{err}"
    );
    assert!(
        err.contains("1 more invalid line(s) not shown (11 in total)"),
        "{err}"
    );
}

#[test]
fn strict_makes_the_first_invalid_line_fatal() {
    let path = fixture("input/invalid.jsonl");
    let (code, out, err) = run(&["report", "--strict", path.to_str().unwrap()]);
    assert_eq!(code, 3);
    assert!(out.is_empty());
    assert!(err.contains("invalid.jsonl:2: not valid JSON"), "{err}");
}

#[test]
fn unreadable_input_is_exit_3_naming_the_path() {
    let (code, _, err) = run(&["report", "no/such/file.jsonl"]);
    assert_eq!(code, 3);
    assert!(err.contains("no/such/file.jsonl"), "{err}");
}

#[test]
fn directories_note_files_they_do_not_read() {
    let (_, _, err) = run(&["report", fixture("input/tree").to_str().unwrap()]);
    assert!(err.contains("notes.txt: not read"), "{err}");
}

#[test]
fn stdin_is_read_with_dash_or_no_path() {
    let data = std::fs::read(fixture("demo.jsonl")).unwrap();
    for args in [
        &["report", "--format", "json", "-"][..],
        &["report", "--format", "json"][..],
    ] {
        let (code, out, _) = run_stdin(args, &data);
        assert_eq!(code, 0);
        assert_eq!(json(&out)["input"]["turns"], 22);
    }
}

#[test]
fn duplicates_keep_the_first_and_no_dedupe_keeps_all() {
    let d = demo();
    let (_, out, _) = run(&["report", "--format", "json", &d, &d]);
    let i = json(&out)["input"].clone();
    assert_eq!(
        (i["turns"].as_u64(), i["duplicates"].as_u64()),
        (Some(22), Some(22))
    );
    let (_, out, _) = run(&["report", "--format", "json", "--no-dedupe", &d, &d]);
    assert_eq!(json(&out)["input"]["turns"], 44);
}

#[test]
fn threads_do_not_change_output() {
    let d = demo();
    let big: Vec<&str> = std::iter::repeat_n(d.as_str(), 30).collect();
    for format in ["csv", "json", "table"] {
        let mut one = vec![
            "--threads",
            "1",
            "report",
            "--all",
            "--no-dedupe",
            "--format",
            format,
        ];
        one.extend(&big);
        let mut two = vec![
            "--threads",
            "2",
            "report",
            "--all",
            "--no-dedupe",
            "--format",
            format,
        ];
        two.extend(&big);
        assert_eq!(run(&one).1, run(&two).1, "{format}");
    }
}

#[test]
fn closed_stdout_exits_zero_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let d = demo();
    let mut args = vec!["report", "--all", "--no-dedupe", "--format", "csv"];
    for _ in 0..400 {
        args.push(&d);
    }
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("grounding-audit"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(first.starts_with("turn_id,"));
}

#[test]
fn every_format_snapshot() {
    let d = demo();
    for format in ["table", "csv", "json", "jsonl", "markdown"] {
        let (code, out, _) = run(&["report", "--limit", "6", "--format", format, &d]);
        assert_eq!(code, 0);
        insta::assert_snapshot!(format!("report_{format}"), out);
    }
    let (_, out, _) = run(&["report", "--all", "--format", "table", &d]);
    insta::assert_snapshot!("report_all_table", out);
    let (_, out, _) = run(&["report", "--all", "--format", "markdown", &d]);
    insta::assert_snapshot!("report_all_markdown", out);
}

#[test]
fn table_hint_for_next_page_goes_to_stderr() {
    let (_, out, err) = run(&["report", "--limit", "3", &demo()]);
    assert!(err.contains("--cursor"), "{err}");
    assert!(!out.contains("--cursor"));
}

#[test]
fn cursor_does_not_lose_repeated_turns_between_pages() {
    // With --no-dedupe the same turn appears twice with the same time and id;
    // an odd page size puts a page boundary between the two copies.
    let d = demo();
    let mut cursor: Option<String> = None;
    let mut seen = 0;
    for _ in 0..40 {
        let mut args = vec![
            "report",
            "--no-dedupe",
            "--format",
            "json",
            "--limit",
            "3",
            &d,
            &d,
        ];
        let c;
        if let Some(x) = &cursor {
            c = x.clone();
            args.extend(["--cursor", &c]);
        }
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        seen += v["rows"].as_array().unwrap().len();
        match v["next_cursor"].as_str() {
            Some(x) => cursor = Some(x.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, 44);
}

/// A native turn line with the given id, time and chunk scores (no marker).
fn turn_at(id: &str, created_at: &str, scores: &str) -> String {
    format!(
        r#"{{"turn_id":"{id}","agent_id":"a","created_at":"{created_at}","reply":"x","grounding":{{"chunks":[{scores}]}}}}"#
    )
}

/// Follows `next_cursor` from the first page to the last (at most `max_pages`)
/// and returns (turn_id, created_at) of every row in page order.
fn walk(log: &str, limit: &str, max_pages: usize) -> Vec<(String, String)> {
    let mut cursor: Option<String> = None;
    let mut seen = Vec::new();
    for _ in 0..max_pages {
        let mut args = vec!["report", "--format", "json", "--limit", limit, "-"];
        let c;
        if let Some(x) = &cursor {
            c = x.clone();
            args.extend(["--cursor", &c]);
        }
        let (code, out, err) = run_stdin(&args, log.as_bytes());
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        for r in v["rows"].as_array().unwrap() {
            seen.push((
                r["turn_id"].as_str().unwrap().to_owned(),
                r["created_at"].as_str().unwrap().to_owned(),
            ));
        }
        match v["next_cursor"].as_str() {
            Some(x) => cursor = Some(x.to_owned()),
            None => return seen,
        }
    }
    panic!("no last page after {max_pages} pages; rows so far: {seen:?}");
}

#[test]
fn cursor_walk_reaches_every_year_and_leap_second() {
    // Go's zero time (0001-01-01) is common in real exports; years outside
    // 1677–2262 and the leap second once made the walk skip rows or loop.
    let log = [
        turn_at("z0", "2026-08-01T10:00:00Z", ""),
        turn_at("z1", "0001-01-01T00:00:00Z", ""),
        turn_at("z2", "0001-01-01T00:00:00Z", ""),
        turn_at("leap", "2016-12-31T23:59:60Z", ""),
        turn_at("y9999", "9999-12-31T23:59:59.999999999Z", ""),
        turn_at("before-leap", "2016-12-31T23:59:59.5Z", ""),
        turn_at("y0000", "0000-01-01T00:00:00Z", ""),
        turn_at("after-leap", "2017-01-01T00:00:00Z", ""),
        turn_at("y2263", "2263-01-01T00:00:00Z", ""),
        turn_at("y1677", "1677-09-21T00:12:43Z", ""),
        turn_at("leap-offset", "2017-01-01T00:59:60.5+01:00", ""),
    ]
    .join("\n");
    let want = [
        ("y9999", "9999-12-31T23:59:59.999999999Z"),
        ("y2263", "2263-01-01T00:00:00Z"),
        ("z0", "2026-08-01T10:00:00Z"),
        ("after-leap", "2017-01-01T00:00:00Z"),
        ("leap-offset", "2016-12-31T23:59:60.500Z"),
        ("leap", "2016-12-31T23:59:60Z"),
        ("before-leap", "2016-12-31T23:59:59.500Z"),
        ("y1677", "1677-09-21T00:12:43Z"),
        ("z2", "0001-01-01T00:00:00Z"),
        ("z1", "0001-01-01T00:00:00Z"),
        ("y0000", "0000-01-01T00:00:00Z"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    for limit in ["1", "2", "3", "200"] {
        assert_eq!(walk(&log, limit, 20), want, "--limit {limit}");
    }
}

#[test]
fn created_at_outside_years_0000_to_9999_is_an_invalid_line() {
    let long = format!("9999-12-31T23:59:59.{}-00:01", "9".repeat(500));
    let log = [
        turn_at("ok", "9999-12-31T23:30:00+01:00", ""),
        turn_at("late", "9999-12-31T23:30:00-01:00", ""),
        turn_at("early", "0000-01-01T00:30:00+01:00", ""),
        turn_at("long", &long, ""),
    ]
    .join("\n");
    let (code, out, err) = run_stdin(&["report", "--format", "json", "-"], log.as_bytes());
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["input"]["turns"], 1);
    assert_eq!(v["input"]["invalid_lines"], 3);
    assert_eq!(v["rows"][0]["created_at"], "9999-12-31T22:30:00Z");
    for line in 2..=4 {
        assert!(
            err.contains(&format!("<stdin>:{line}: created_at \"")),
            "line {line}: {err}"
        );
    }
    assert_eq!(
        err.matches("is outside years 0000-9999 in UTC").count(),
        3,
        "{err}"
    );
    assert!(!err.contains(&"9".repeat(100)), "{err}");
}

/// Every format of `report` (page and `--all`), `summary` and `explain` over `log`.
fn every_output(log: &str, explain_id: &str) -> Vec<(String, String)> {
    let mut outs = Vec::new();
    let mut go = |args: &[&str]| {
        let (code, out, err) = run_stdin(args, log.as_bytes());
        assert_eq!(code, 0, "{args:?}: {err}");
        outs.push((format!("{args:?}"), out));
    };
    for format in ["table", "csv", "json", "jsonl", "markdown"] {
        go(&["report", "--format", format, "-"]);
        go(&["report", "--all", "--format", format, "-"]);
    }
    for format in ["table", "json", "markdown", "csv"] {
        go(&["summary", "--format", format, "-"]);
    }
    for format in ["text", "json"] {
        go(&["explain", explain_id, "--format", format, "-"]);
    }
    outs
}

#[test]
fn early_years_and_leap_seconds_print_as_rfc3339_in_every_format() {
    let log = [
        turn_at("y0", "0000-01-01T00:00:00Z", ""),
        turn_at("y999", "0999-06-01T12:00:00.25Z", ""),
        turn_at("leap", "2016-12-31T23:59:60Z", ""),
    ]
    .join("\n");
    for (args, out) in every_output(&log, "leap") {
        if args.contains("summary") {
            // The summary lists days and the triage list, not every turn's time.
            continue;
        }
        let times: &[&str] = if args.contains("explain") {
            &["2016-12-31T23:59:60Z"]
        } else {
            &[
                "0000-01-01T00:00:00Z",
                "0999-06-01T12:00:00.250Z",
                "2016-12-31T23:59:60Z",
            ]
        };
        for t in times {
            assert!(out.contains(t), "{args}: no {t} in\n{out}");
        }
        assert!(!out.contains("23:59:59Z"), "{args}:\n{out}");
    }
}

#[test]
fn negative_zero_scores_print_as_zero_in_every_format() {
    let log = [
        turn_at(
            "nz",
            "2026-08-01T10:00:00Z",
            r#"{"score":-0.0},{"score":-0.0}"#,
        ),
        turn_at("pz", "2026-08-01T11:00:00Z", r#"{"score":0.0}"#),
    ]
    .join("\n");
    // A minus sign before a zero that is a whole number (not a date part).
    let minus_zero = regex::Regex::new(r"(^|[^0-9A-Za-z])-0(\.0*)?([^0-9.]|$)").unwrap();
    for (args, out) in every_output(&log, "nz") {
        assert!(!minus_zero.is_match(&out), "{args}:\n{out}");
    }
    let (_, out, _) = run_stdin(&["report", "--format", "json", "-"], log.as_bytes());
    let v = json(&out);
    for r in v["rows"].as_array().unwrap() {
        assert_eq!(r["confidence"].to_string(), "0.0", "{r}");
        assert_eq!(r["chunks"][0]["score"].to_string(), "0.0", "{r}");
    }
}

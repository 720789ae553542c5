//! `summary`: sections, grouping, trend, triage order, formats, edge cases.

use crate::common::*;
use std::io::Write;

fn demo() -> String {
    fixture("demo.jsonl").to_str().unwrap().to_owned()
}

fn summary_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["summary", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    json(&out)
}

#[test]
fn json_has_every_section() {
    let v = summary_json(&[&demo()]);
    for key in [
        "totals",
        "groups",
        "triage",
        "days",
        "retrieval_use",
        "tools",
        "telemetry",
        "input",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["totals"]["turns"], 22);
    assert_eq!(v["totals"]["grounded"], 12);
    assert_eq!(v["days"].as_array().unwrap().len(), 3);
    assert_eq!(v["groups"][0]["key"], "billing-bot");
    // Failed tool calls: t-03 (orphan) and t-13 (no_marker) are ungrounded with a failed call.
    assert_eq!(v["tools"]["failed_calls"], 2);
    assert_eq!(v["tools"]["ungrounded_with_failed_tool"], 2);
    assert_eq!(v["telemetry"]["ok"]["turns"], 12);
    assert!(v["telemetry"]["ok"]["latency_ms_median"].is_u64());
    // Low-confidence citations (score < 0.5): t-02 and t-16 cite pricing.md (0.45), t-22 holidays.md (0.31).
    assert_eq!(v["retrieval_use"]["low_confidence_citations"], 3);
    // t-02 also cites plans.md (0.64): high and low mixed in one reply.
    assert_eq!(v["retrieval_use"]["mixed_confidence_turns"], 1);
}

#[test]
fn triage_is_bounded_and_recent_order_is_newest_ungrounded_first() {
    let ids = |args: &[&str]| -> Vec<String> {
        let v = summary_json(args);
        v["triage"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["turn_id"].as_str().unwrap().to_owned())
            .collect()
    };
    let demo = demo();
    assert_eq!(
        ids(&["--triage", "3", "--triage-order", "recent", &demo]),
        ["t-20", "t-17", "t-13"]
    );
    // By severity (the default), the demo's three invented citations come
    // first, t-11 and t-03 before newer missing markers.
    assert_eq!(ids(&["--triage", "3", &demo]), ["t-20", "t-11", "t-03"]);
    let v = summary_json(&["--triage", "0", &demo]);
    assert!(v["triage"].as_array().unwrap().is_empty());
}

#[test]
fn triage_ties_break_by_turn_id_descending() {
    let mut f = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .unwrap();
    for id in ["a", "c", "b"] {
        writeln!(f, r#"{{"turn_id":"{id}","agent_id":"x","created_at":"2026-08-01T00:00:00Z","reply":"none","grounding":{{"chunks":[{{"document_id":"d"}}]}}}}"#).unwrap();
    }
    f.flush().unwrap();
    let v = summary_json(&[f.path().to_str().unwrap()]);
    let ids: Vec<&str> = v["triage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["turn_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["c", "b", "a"]);
}

#[test]
fn group_by_channel_and_model() {
    let v = summary_json(&["--by", "channel", &demo()]);
    let keys: Vec<&str> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys.len(), 2);
    assert!(keys.contains(&"voice") && keys.contains(&"chat"));
    let v = summary_json(&["--by", "model", &demo()]);
    assert_eq!(v["groups"][0]["key"], "claude-x");
}

#[test]
fn voice_only_rollup() {
    let v = summary_json(&["--channel", "voice", &demo()]);
    assert_eq!(v["totals"]["turns"], 7);
}

#[test]
fn tz_moves_day_boundaries() {
    // t-03 is 09:30Z; at -10:00 it falls on 2026-07-31.
    let v = summary_json(&["--tz", "-10:00", &demo()]);
    assert_eq!(v["days"][0]["day"], "2026-07-31");
    let (code, _, err) = run(&["summary", "--tz", "nowhere", &demo()]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn empty_input_and_single_day() {
    let (code, out, _) = run_stdin(&["summary", "--format", "json"], b"");
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["totals"]["turns"], 0);
    assert!(v["totals"]["grounded_rate"].is_null());
    let (code, out, _) = run_stdin(&["summary"], b"\n");
    assert_eq!(code, 0);
    assert!(out.contains("turns 0"), "{out}");
    let v = summary_json(&["--from", "2026-08-02", "--to", "2026-08-03", &demo()]);
    assert_eq!(v["days"].as_array().unwrap().len(), 1);
}

#[test]
fn many_agents() {
    let mut f = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .unwrap();
    for i in 0..300 {
        let reply = if i % 3 == 0 { "no" } else { "yes [KB-1]" };
        writeln!(f, r#"{{"turn_id":"{i}","agent_id":"agent-{:03}","created_at":"2026-08-01T00:00:00Z","reply":"{reply}","grounding":{{"chunks":[{{"document_id":"d","score":0.9}}]}}}}"#, i % 100).unwrap();
    }
    f.flush().unwrap();
    let v = summary_json(&[f.path().to_str().unwrap()]);
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 100);
    // Worst first: agents with the most ungrounded turns lead.
    let ungrounded: Vec<u64> = groups
        .iter()
        .map(|g| g["ungrounded"].as_u64().unwrap())
        .collect();
    assert!(ungrounded.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn csv_sections() {
    for (section, header) in [
        ("groups", "group,turns"),
        ("days", "day,turns"),
        ("triage", "created_at,turn_id"),
    ] {
        let (code, out, _) = run(&["summary", "--format", "csv", "--section", section, &demo()]);
        assert_eq!(code, 0);
        assert!(out.starts_with(header), "{section}: {out}");
    }
}

/// The score distribution: every chunk of a turn with retrieval is counted
/// once, cited or uncited, in JSON and in `csv --section scores` alike, and
/// a partial carries it through `merge`.
#[test]
fn score_distribution_counts_every_retrieved_chunk_once() {
    let v = summary_json(&[&demo()]);
    let sum = |s: &serde_json::Value| {
        s["bins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_u64().unwrap())
            .sum::<u64>()
            + s["unscored"].as_u64().unwrap()
            + s["out_of_range"].as_u64().unwrap()
    };
    let r = &v["retrieval_use"];
    assert_eq!(r["scores"]["cited"]["bins"].as_array().unwrap().len(), 20);
    assert_eq!(
        sum(&r["scores"]["cited"]),
        r["chunks_cited"].as_u64().unwrap()
    );
    assert_eq!(
        sum(&r["scores"]["cited"]) + sum(&r["scores"]["uncited"]),
        r["chunks_retrieved"].as_u64().unwrap()
    );
    let (code, csv, err) = run(&["summary", "--format", "csv", "--section", "scores", &demo()]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "group,score,cited,cited_share,uncited,uncited_share"
    );
    // 22 rows (20 bins, unscored, out_of_range) for (all) and each of 3 agents.
    assert_eq!(lines.len(), 1 + 22 * 4);
    assert!(
        lines.contains(&"(all),0.80-0.85,4,0.2667,0,0.0000"),
        "{csv}"
    );
    assert!(lines.contains(&"billing-bot,out_of_range,0,,0,"), "{csv}");

    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("p.json");
    let p = p.to_str().unwrap();
    assert_eq!(run(&["summary", "--partial", p, &demo()]).0, 0);
    let partial = json(&std::fs::read_to_string(p).unwrap());
    assert_eq!(
        partial["summary"]["retrieval"]["scores"], r["scores"],
        "the partial holds the distribution"
    );
    let (code, merged, err) = run(&["merge", "--format", "csv", "--section", "scores", p]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, csv);
}

#[test]
fn table_and_markdown_snapshots() {
    let (_, table, _) = run(&["summary", &demo()]);
    insta::assert_snapshot!("summary_table", table);
    let (_, md, _) = run(&["summary", "--format", "markdown", &demo()]);
    insta::assert_snapshot!("summary_markdown", md);
    let (_, js, _) = run(&["summary", "--format", "json", &demo()]);
    insta::assert_snapshot!("summary_json", js);
}

#[test]
fn section_without_csv_is_a_usage_error() {
    for format in ["table", "json", "markdown"] {
        let (code, out, err) = run(&["summary", "--format", format, "--section", "days", &demo()]);
        assert_eq!(code, 2, "{format}: {err}");
        assert!(out.is_empty(), "{format}: {out}");
        assert!(
            err.contains("--section picks the table of --format csv"),
            "{format}: {err}"
        );
    }
    // Without --section, csv still defaults to the groups table.
    let (code, out, _) = run(&["summary", "--format", "csv", &demo()]);
    assert_eq!(code, 0);
    assert!(out.starts_with("group,turns"), "{out}");
}

/// Issue 18, item 5: a latency of 1e20 ms gave p50/p95 of 0 and token sums
/// wrapped (two turns of 2^64 − 1 plus one of 5 summed to 3).
#[test]
fn telemetry_past_its_range_is_top_bucket_and_sums_do_not_wrap() {
    let mut f = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .unwrap();
    for (i, (latency, tokens)) in [
        ("1e20", "18446744073709551615"),
        ("1e20", "18446744073709551615"),
        ("5", "5"),
    ]
    .iter()
    .enumerate()
    {
        writeln!(f, r#"{{"turn_id":"{i}","agent_id":"x","created_at":"2026-08-01T00:00:00Z","reply":"[KB-1]","grounding":{{"chunks":[{{"document_id":"d"}}]}},"latency_ms":{latency},"tokens_used":{tokens}}}"#).unwrap();
    }
    let (code, out, err) = run(&["summary", "--format", "json", f.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // Compared as text: the sum is past what a JSON number read as f64 keeps.
    let ok = &out[out.find(r#""ok": {"#).expect("telemetry of ok")..];
    let ok = &ok[..ok.find('}').unwrap()];
    assert!(
        ok.contains(r#""latency_ms_median": 18400000000000000000"#),
        "{ok}"
    );
    assert!(
        ok.contains(r#""latency_ms_p95": 18400000000000000000"#),
        "{ok}"
    );
    assert!(
        ok.contains(r#""tokens_used": 36893488147419103235"#),
        "{ok}"
    );
}

/// Partials made with different grading options refuse to merge, naming the
/// option; a turn in two partials' triage lists is reported as a
/// cross-partial duplicate; a partial of another version is refused.
#[test]
fn merge_refuses_mixed_options_and_reports_cross_partial_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_str().unwrap().to_owned();
    let (a, b, c) = (p("a.json"), p("b.json"), p("c.json"));
    assert_eq!(run(&["summary", "--partial", &a, &demo()]).0, 0);
    assert_eq!(run(&["summary", "--partial", &b, &demo()]).0, 0);
    assert_eq!(
        run(&["summary", "--by", "model", "--partial", &c, &demo()]).0,
        0
    );
    let (code, _, err) = run(&["merge", &a, &c]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--by model") && err.contains("--by agent"),
        "{err}"
    );
    let (code, out, err) = run(&["merge", "--format", "json", &a, &b]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("more than one partial"), "{err}");
    let merged = json(&out);
    let one = summary_json(&[&demo()]);
    assert_eq!(
        merged["totals"]["turns"],
        2 * one["totals"]["turns"].as_u64().unwrap()
    );
    let text = std::fs::read_to_string(&a).unwrap().replace(
        &format!("\"version\":{}", grounding_audit::partial::VERSION),
        "\"version\":99",
    );
    std::fs::write(&a, text).unwrap();
    let (code, _, err) = run(&["merge", &a, &b]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("partial version 99"), "{err}");
}

/// `merge` renders whichever command its partials hold, refuses partials
/// of different commands and the output flags of another command, and
/// keeps check's exit codes (0 pass, 1 fail, 3 more invalid lines than
/// --max-invalid). `report --all` and `check` gates take no --partial.
#[test]
fn merge_renders_report_and_check_partials_with_their_flags_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_str().unwrap().to_owned();
    let (r, c, s) = (p("r.json"), p("c.json"), p("s.json"));
    assert_eq!(
        run(&["report", "--limit", "3", "--partial", &r, &demo()]).0,
        0
    );
    assert_eq!(run(&["check", "--partial", &c, &demo()]).0, 0);
    assert_eq!(run(&["summary", "--partial", &s, &demo()]).0, 0);
    let (code, out, err) = run(&["merge", "--format", "json", &r]);
    assert_eq!(code, 0, "{err}");
    let one = run(&["report", "--format", "json", "--limit", "3", &demo()]).1;
    assert_eq!(out, one);
    let (code, _, err) = run(&["merge", &r, &c]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("partials of different commands"), "{err}");
    let (code, _, err) = run(&["merge", "--min-rate", "0.5", &r]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--min-rate is not an output flag of `report`"),
        "{err}"
    );
    let (code, _, err) = run(&["merge", "--format", "junit", &s]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a format of `summary`"), "{err}");
    for (gate, want) in [("0.5", 0), ("0.9", 1)] {
        let (code, out, _) = run(&["merge", "--min-rate", gate, &c]);
        let (one_code, one_out, _) = run(&["check", "--min-rate", gate, &demo()]);
        assert_eq!((code, &out), (one_code, &one_out));
        assert_eq!(code, want, "{out}");
    }
    let (code, _, err) = run(&["merge", "--min-rate", "0.5", &c, &c]);
    assert_eq!(code, 0, "{err}");
    // check --html from partials: the page of one pass, the log's paths aside.
    let html = |args: &[&str], page: &str| {
        let out = bin()
            .env("SOURCE_DATE_EPOCH", "1780000000")
            .args(args)
            .args(["--html", page])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        std::fs::read_to_string(page)
            .unwrap()
            .replace(&demo(), "LOGS")
    };
    let one_page = html(&["check", "--min-rate", "0.8", &demo()], &p("one.html"));
    let merged_page = html(&["merge", "--min-rate", "0.8", &c], &p("merged.html"));
    assert_eq!(one_page, merged_page);
    let (code, _, err) = run(&["check", "--min-rate", "0.5", "--partial", &c, &demo()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("give --min-rate to `grounding-audit merge`"),
        "{err}"
    );
    // Given is given, at the default value too: it would be ignored all the same.
    for (flag, value) in [
        ("--format", "text"),
        ("--max-invalid", "0"),
        ("--triage-order", "severity"),
    ] {
        let (code, _, err) = run(&["check", flag, value, "--partial", &c, &demo()]);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(
            err.contains(&format!("give {flag} to `grounding-audit merge`")),
            "{err}"
        );
    }
    let (code, _, err) = run(&["merge", "--max-invalid", "0", "--format", "json", &r]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--max-invalid is not an output flag of `report`"),
        "{err}"
    );
    let (code, _, err) = run(&["report", "--all", "--partial", &r, &demo()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--all streams every row"), "{err}");
    // More invalid lines over all partials than --max-invalid: exit 3, as one pass.
    let bad = p("bad.jsonl");
    std::fs::write(&bad, "{not json\n").unwrap();
    let cb = p("cb.json");
    assert_eq!(run(&["check", "--partial", &cb, &bad]).0, 0);
    let (code, out, _) = run(&["merge", "--min-rate", "0.5", "--format", "json", &c, &cb]);
    let (one_code, one_out, _) = run(&[
        "check",
        "--min-rate",
        "0.5",
        "--format",
        "json",
        &demo(),
        &bad,
    ]);
    assert_eq!(code, 3);
    assert_eq!(one_code, 3);
    assert_eq!(out, one_out);
}

/// The trend tables head their period column by the bucket.
#[test]
fn trend_tables_head_the_period_by_its_bucket() {
    let demo = crate::common::fixture("demo.jsonl");
    let (code, out, err) =
        crate::common::run(&["summary", "--bucket", "week", demo.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("│ week "), "{out}");
    assert!(!out.contains("│ day "), "{out}");
    assert!(out.contains("┆ week "), "{out}");
}

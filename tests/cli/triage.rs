//! Support triage (issue 15): finding the complained-about turn in local
//! time, by what the reply said, by conversation; what a page is; near
//! misses; the explain view of what was in front of the model.

use crate::common::*;
use serde_json::Value;

/// A native turn line.
fn turn(id: &str, agent: &str, conv: &str, at: &str, reply: &str, score: f64) -> String {
    serde_json::json!({
        "turn_id": id, "agent_id": agent, "conversation_id": conv, "created_at": at,
        "reply": reply, "model": if agent == "billing-bot" { "claude-x" } else { "gpt-y" },
        "grounding": {"chunks": [
            {"document_id": "refunds.md", "chunk_id": "refunds.md#0", "score": score,
             "content": "Refunds are available within 30 days of purchase."},
            {"document_id": "faq.md", "chunk_id": "faq.md#4", "score": 0.9,
             "page_content": "Contact support by chat."}
        ]}
    })
    .to_string()
}

/// The complaint: a customer in UTC+2 says the billing bot invented a
/// refund policy "on 2 August"; the turn was at 00:40 local time (22:40 UTC
/// on 1 August). Around it: a turn late on 1 August local time, one just
/// after midnight on 3 August local time, another agent, and a winter and
/// a daylight-saving-day pair.
fn complaint_log(dir: &std::path::Path) -> String {
    let lines = [
        turn(
            "t-before",
            "billing-bot",
            "c-1",
            "2026-08-01T21:50:00Z",
            "Hello [KB-2].",
            0.8,
        ),
        turn(
            "t-complaint",
            "billing-bot",
            "c-1",
            "2026-08-02T00:40:00+02:00",
            "You can get a refund within 90 days [KB-1].",
            0.44,
        ),
        turn(
            "t-noon",
            "support-bot",
            "c-2",
            "2026-08-02T10:00:00Z",
            "Chat with us [KB-2].",
            0.8,
        ),
        turn(
            "t-late",
            "billing-bot",
            "c-1",
            "2026-08-02T23:50:00+02:00",
            "Anything else? [KB-2]",
            0.8,
        ),
        turn(
            "t-after",
            "billing-bot",
            "c-3",
            "2026-08-03T00:10:00+02:00",
            "A refund takes 3 days [KB-1].",
            0.8,
        ),
        // Winter: Berlin is UTC+1.
        turn(
            "t-winter",
            "billing-bot",
            "c-4",
            "2026-01-15T00:40:00+01:00",
            "No refund after 30 days [KB-1].",
            0.8,
        ),
        // The day clocks go forward (29 March 2026, 23 hours long).
        turn(
            "t-dst-start",
            "billing-bot",
            "c-5",
            "2026-03-29T00:30:00+01:00",
            "Refund policy [KB-1].",
            0.8,
        ),
        turn(
            "t-dst-end",
            "billing-bot",
            "c-5",
            "2026-03-29T23:30:00+02:00",
            "More [KB-2].",
            0.8,
        ),
        turn(
            "t-dst-next",
            "billing-bot",
            "c-5",
            "2026-03-30T00:10:00+02:00",
            "Next day [KB-2].",
            0.8,
        ),
    ];
    let p = dir.join("log.jsonl");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p.to_str().unwrap().to_owned()
}

fn ids(args: &[&str]) -> Vec<String> {
    let mut a = vec!["report", "--format", "json"];
    a.extend_from_slice(args);
    let (code, out, err) = run(&a);
    assert_eq!(code, 0, "{args:?}: {err}");
    let v = json(&out);
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["turn_id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_complaint_is_found_in_local_time_and_by_what_the_reply_said() {
    let dir = tempfile::tempdir().unwrap();
    let log = complaint_log(dir.path());
    let window = [
        "--tz",
        "Europe/Berlin",
        "--from",
        "2026-08-02",
        "--to",
        "2026-08-03",
        "--agent",
        "billing-bot",
    ];
    let mut args = window.to_vec();
    args.push(&log);
    assert_eq!(ids(&args), ["t-late", "t-complaint"]);
    // In UTC the same dates miss the complaint (what the issue reported).
    let utc = ids(&[
        "--from",
        "2026-08-02",
        "--to",
        "2026-08-03",
        "--agent",
        "billing-bot",
        &log,
    ]);
    assert!(!utc.contains(&"t-complaint".to_owned()), "{utc:?}");
    // A fixed offset and the environment's default zone agree with the IANA name in summer.
    assert_eq!(
        ids(&[
            "--tz",
            "+02:00",
            "--from",
            "2026-08-02",
            "--to",
            "2026-08-03",
            "--agent",
            "billing-bot",
            &log
        ]),
        ["t-late", "t-complaint"]
    );
    let out = bin()
        .env("GROUNDING_AUDIT_TZ", "Europe/Berlin")
        .args([
            "report",
            "--format",
            "json",
            "--from",
            "2026-08-02",
            "--to",
            "2026-08-03",
            "--agent",
            "billing-bot",
            &log,
        ])
        .output()
        .unwrap();
    let v = json(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(v["matching"], 2);
    assert_eq!(v["rows"][1]["turn_id"], "t-complaint");
    // By what the reply said: selected by the text, the text never printed.
    assert_eq!(
        ids(&[
            "--grep",
            "refund",
            "--agent",
            "billing-bot",
            "--from",
            "2026-08-01",
            &log
        ]),
        ["t-after", "t-complaint"]
    );
    assert_eq!(
        ids(&["--grep", "(?i)^you can.*90 days", &log]),
        ["t-complaint"]
    );
    for format in ["table", "csv", "json", "jsonl", "markdown"] {
        let (code, out, _) = run(&["report", "--grep", "refund", "--format", format, &log]);
        assert_eq!(code, 0);
        assert!(out.contains("t-complaint"), "{format}");
        assert!(
            !out.contains("90 days") && !out.contains("refund within"),
            "{format}: {out}"
        );
    }
    // A bad regex is a usage error.
    assert_eq!(run(&["report", "--grep", "(", &log]).0, 2);
}

#[test]
fn local_days_follow_daylight_saving() {
    let dir = tempfile::tempdir().unwrap();
    let log = complaint_log(dir.path());
    let berlin =
        |from: &str, to: &str| ids(&["--tz", "Europe/Berlin", "--from", from, "--to", to, &log]);
    // Winter (UTC+1): 00:40 local on 15 January is 23:40 UTC on the 14th.
    assert_eq!(berlin("2026-01-15", "2026-01-16"), ["t-winter"]);
    assert!(ids(&["--from", "2026-01-15", "--to", "2026-01-16", &log]).is_empty());
    // The 23-hour day the clocks go forward holds both its turns and not the next day's.
    assert_eq!(
        berlin("2026-03-29", "2026-03-30"),
        ["t-dst-end", "t-dst-start"]
    );
    // A fixed +01:00 (the offset at that midnight) takes the next day's
    // first turn too: which is why IANA names are taken.
    let fixed = ids(&[
        "--tz",
        "+01:00",
        "--from",
        "2026-03-29",
        "--to",
        "2026-03-30",
        &log,
    ]);
    assert_ne!(fixed, ["t-dst-end", "t-dst-start"]);
    // summary counts days in the zone: the complaint is on 2 August.
    let (_, out, _) = run(&[
        "summary",
        "--tz",
        "Europe/Berlin",
        "--agent",
        "billing-bot",
        "--format",
        "json",
        "--from",
        "2026-08-01",
        &log,
    ]);
    let v = json(&out);
    assert_eq!(v["tz"], "Europe/Berlin");
    let days: Vec<(String, u64)> = v["days"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["day"].as_str().unwrap().to_owned(),
                d["turns"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        days,
        [
            ("2026-08-01".into(), 1),
            ("2026-08-02".into(), 2),
            ("2026-08-03".into(), 1)
        ]
    );
    // --tz prints local times in every format it filters in; JSON keeps
    // UTC in created_at and adds created_at_local beside it.
    let (_, out, _) = run(&[
        "report",
        "--tz",
        "Europe/Berlin",
        "--turn",
        "t-complaint",
        "--turn",
        "t-winter",
        &log,
    ]);
    assert!(out.contains("2026-08-02T00:40:00+02:00"), "{out}");
    assert!(out.contains("2026-01-15T00:40:00+01:00"), "{out}");
    let (_, out, _) = run(&[
        "report",
        "--tz",
        "Europe/Berlin",
        "--format",
        "csv",
        "--turn",
        "t-complaint",
        &log,
    ]);
    assert!(out.contains("2026-08-02T00:40:00+02:00"), "{out}");
    let (_, out, _) = run(&["explain", "t-complaint", &log, "--tz", "Europe/Berlin"]);
    assert!(out.contains("2026-08-02T00:40:00+02:00"), "{out}");
    let (_, out, _) = run(&[
        "explain",
        "t-complaint",
        &log,
        "--tz",
        "Europe/Berlin",
        "--format",
        "json",
    ]);
    assert_eq!(json(&out)["created_at_local"], "2026-08-02T00:40:00+02:00");
    for format in ["json", "jsonl"] {
        for all in [false, true] {
            let mut args = vec![
                "report",
                "--tz",
                "Europe/Berlin",
                "--format",
                format,
                "--turn",
                "t-complaint",
                &log,
            ];
            if all {
                args.push("--all");
            }
            let (_, out, _) = run(&args);
            let v = if format == "json" {
                json(&out)["rows"][0].clone()
            } else {
                json(out.lines().next().unwrap())
            };
            assert_eq!(v["created_at"], "2026-08-01T22:40:00Z", "{args:?}");
            assert_eq!(
                v["created_at_local"], "2026-08-02T00:40:00+02:00",
                "{args:?}"
            );
        }
    }
    let demo = crate::common::fixture("demo.jsonl");
    let demo = demo.to_str().unwrap();
    let (_, out, _) = run(&["summary", "--tz", "Europe/Berlin", "--format", "json", demo]);
    let triage = &json(&out)["triage"];
    assert!(!triage.as_array().unwrap().is_empty(), "{out}");
    assert!(
        triage
            .as_array()
            .unwrap()
            .iter()
            .all(
                |t| t["created_at_local"].as_str().unwrap().ends_with("+02:00")
                    || t["created_at_local"].as_str().unwrap().ends_with("+01:00")
            ),
        "{triage}"
    );
    // --show-tz utc keeps UTC on the page; JSON then has no local field.
    let (_, out, _) = run(&[
        "report",
        "--tz",
        "Europe/Berlin",
        "--show-tz",
        "utc",
        "--turn",
        "t-complaint",
        &log,
    ]);
    assert!(out.contains("2026-08-01T22:40:00Z"), "{out}");
    let (_, out, _) = run(&[
        "report",
        "--tz",
        "Europe/Berlin",
        "--show-tz",
        "utc",
        "--format",
        "json",
        "--turn",
        "t-complaint",
        &log,
    ]);
    assert!(
        json(&out)["rows"][0].get("created_at_local").is_none(),
        "{out}"
    );
    // Without a zone, times are UTC unless --show-tz local asks otherwise.
    let (_, out, _) = run(&["report", "--turn", "t-complaint", &log]);
    assert!(out.contains("2026-08-01T22:40:00Z"), "{out}");
    // Bad zones are usage errors, from the flag or the environment.
    assert_eq!(run(&["report", "--tz", "Mars/Olympus", &log]).0, 2);
    let out = bin()
        .env("GROUNDING_AUDIT_TZ", "nowhere")
        .args(["report", &log])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("GROUNDING_AUDIT_TZ"));
}

#[test]
fn since_counts_back_from_now() {
    let dir = tempfile::tempdir().unwrap();
    let log = complaint_log(dir.path());
    let now = "2026-08-03T00:30:00+02:00";
    assert_eq!(
        ids(&["--since", "3h", "--now", now, &log]),
        ["t-after", "t-late"]
    );
    assert_eq!(
        ids(&[
            "--since",
            "36h",
            "--now",
            now,
            "--agent",
            "billing-bot",
            &log
        ]),
        ["t-after", "t-late", "t-complaint", "t-before"]
    );
    assert_eq!(
        ids(&[
            "--since",
            "7d",
            "--now",
            "2026-01-20",
            "--tz",
            "Europe/Berlin",
            &log
        ]),
        ["t-winter"]
    );
    for bad in [
        &["--since", "7x"][..],
        &["--since", "7d", "--from", "2026-08-01"],
        &["--now", now],
    ] {
        let mut a = vec!["report"];
        a.extend_from_slice(bad);
        a.push(&log);
        assert_eq!(run(&a).0, 2, "{bad:?}");
    }
}

#[test]
fn turns_are_found_by_id_conversation_model_and_scores_on_every_reading_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let log = complaint_log(dir.path());
    assert_eq!(
        ids(&["--turn", "t-noon", "--turn", "t-winter", &log]),
        ["t-noon", "t-winter"]
    );
    assert_eq!(ids(&["--model", "gpt-y", &log]), ["t-noon"]);
    // The complaint cites a chunk scored 0.44.
    assert_eq!(ids(&["--cited-below", "0.5", &log]), ["t-complaint"]);
    // Confidence is the highest chunk score (0.9 here for every turn).
    assert_eq!(ids(&["--confidence-below", "0.95", &log]).len(), 9);
    assert!(ids(&["--confidence-below", "0.9", &log]).is_empty());
    // A conversation is listed whole, oldest first.
    assert_eq!(
        ids(&["--conversation", "c-1", &log]),
        ["t-before", "t-complaint", "t-late"]
    );
    let (_, out, _) = run(&["report", "--conversation", "c-1", &log]);
    assert!(
        out.contains("rows 1–3 of 3 matching, oldest first"),
        "{out}"
    );
    // summary, check and evidence select the same turns.
    let (_, out, _) = run(&["summary", "--format", "json", "--cited-below", "0.5", &log]);
    assert_eq!(json(&out)["totals"]["turns"], 1);
    let (code, out, _) = run(&[
        "check",
        "--min-rate",
        "0.5",
        "--format",
        "json",
        "--conversation",
        "c-5",
        &log,
    ]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["rollup"]["turns"], 3);
    let (_, out, _) = run(&[
        "evidence",
        "--grep",
        "refund",
        "--agent",
        "billing-bot",
        &log,
    ]);
    let recs: Vec<Value> = out.lines().map(json).collect();
    let got: Vec<&str> = recs
        .iter()
        .map(|r| r["turn_id"].as_str().unwrap())
        .collect();
    // Smart case: `refund` also finds "Refund policy".
    assert_eq!(got, ["t-complaint", "t-after", "t-winter", "t-dst-start"]);
}

#[test]
fn pages_say_what_they_are_and_json_carries_matching() {
    let (_, out, _) = run(&[
        "report",
        "--limit",
        "5",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    assert!(
        out.contains("page 1 · rows 1–5 of 22 matching · page-scoped rollup"),
        "{out}"
    );
    let (_, out, _) = run(&[
        "report",
        "--limit",
        "5",
        "--format",
        "json",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    let v = json(&out);
    assert_eq!(v["matching"], 22);
    let cursor = v["next_cursor"].as_str().unwrap().to_owned();
    let (_, out, _) = run(&[
        "report",
        "--limit",
        "5",
        "--cursor",
        &cursor,
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    assert!(out.contains("page 2 · rows 6–10 of 22 matching"), "{out}");
    let (_, out, _) = run(&[
        "report",
        "--all",
        "--format",
        "json",
        "--agent",
        "billing-bot",
        fixture("demo.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(json(&out)["matching"], 9);
}

#[test]
fn a_near_miss_names_the_values_that_exist() {
    let demo = fixture("demo.jsonl");
    for cmd in [
        &["report"][..],
        &["summary"],
        &["check", "--min-rate", "0.5", "--allow-empty"],
    ] {
        let mut a = cmd.to_vec();
        a.extend(["--agent", "Billing_Bot", demo.to_str().unwrap()]);
        let (_, _, err) = run(&a);
        assert!(
            err.contains(r#"no turn has agent "Billing_Bot"; the input has "billing-bot""#),
            "{cmd:?}: {err}"
        );
    }
    // A value that exists, or one with no relative, says nothing.
    let (_, _, err) = run(&[
        "report",
        "--agent",
        "billing-bot",
        "--from",
        "2030-01-01",
        demo.to_str().unwrap(),
    ]);
    assert!(!err.contains("no turn has"), "{err}");
}

#[test]
fn columns_have_one_name_in_every_format() {
    let demo = fixture("demo.jsonl");
    let demo = demo.to_str().unwrap();
    let cols = "turn_id,agent_id,out_of_range_markers,verdict";
    let (_, csv, _) = run(&[
        "report",
        "--columns",
        cols,
        "--format",
        "csv",
        "--limit",
        "2",
        demo,
    ]);
    assert_eq!(csv.lines().next(), Some(cols));
    assert_eq!(csv.lines().nth(1), Some("t-22,voice-concierge,0,ok"));
    let (_, md, _) = run(&[
        "report",
        "--columns",
        cols,
        "--format",
        "markdown",
        "--limit",
        "2",
        demo,
    ]);
    assert!(
        md.starts_with("| turn_id | agent_id | out_of_range_markers | verdict |"),
        "{md}"
    );
    let (_, table, _) = run(&["report", "--columns", cols, "--limit", "2", demo]);
    for c in cols.split(',') {
        assert!(table.lines().nth(1).unwrap().contains(c), "{table}");
    }
    let (_, all, _) = run(&["report", "--all", "--columns", cols, demo]);
    assert!(all.starts_with("turn_id"), "{all}");
    assert!(all.lines().next().unwrap().contains("out_of_range_markers"));
    // Default headers use the same names as the JSON row.
    let (_, table, _) = run(&["report", "--limit", "1", demo]);
    for name in ["agent_id", "out_of_range_markers", "cited_chunks"] {
        assert!(table.contains(name), "{table}");
    }
    assert_eq!(run(&["report", "--columns", "agent", demo]).0, 2);
}

#[test]
fn explain_shows_what_was_in_front_of_the_model_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let log = complaint_log(dir.path());
    let (code, out, _) = run(&["explain", "t-complaint", &log]);
    assert_eq!(code, 0);
    assert!(
        out.contains("it does not check that the chunk supports the claim"),
        "{out}"
    );
    assert!(
        out.contains("low-confidence citations (score < 0.5): chunk 1 (score 0.44)"),
        "{out}"
    );
    assert!(out.contains("yes (low score)"), "{out}");
    assert!(
        !out.contains("30 days") && !out.contains("90 days"),
        "{out}"
    );
    let (_, out, _) = run(&["explain", "t-complaint", &log, "--show-text"]);
    assert!(
        out.contains("You can get a refund within 90 days [KB-1]."),
        "{out}"
    );
    assert!(
        out.contains(">> [1] refunds.md#0 (score 0.44, cited: low-confidence citation)"),
        "{out}"
    );
    assert!(
        out.contains("Refunds are available within 30 days of purchase."),
        "{out}"
    );
    assert!(out.contains("   [2] faq.md#4 (score 0.9)"), "{out}");
    assert!(out.contains("Contact support by chat."), "{out}");
    let (_, out, _) = run(&[
        "explain",
        "t-complaint",
        &log,
        "--show-text",
        "--format",
        "json",
        "--low-score",
        "0.4",
    ]);
    let v = json(&out);
    assert_eq!(
        v["chunks"][0]["text"],
        "Refunds are available within 30 days of purchase."
    );
    assert_eq!(v["chunks"][0]["low_confidence"], false);
    assert!(v["caveat"].as_str().unwrap().starts_with("ok means"));
    let (_, out, _) = run(&["explain", "t-complaint", &log, "--format", "json"]);
    assert!(json(&out)["chunks"][0].get("text").is_none(), "{out}");
    // Arguments in the wrong order.
    let (code, _, err) = run(&["explain", &log, "t-complaint"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the arguments look reversed"), "{err}");
    assert!(
        err.contains(&format!("grounding-audit explain t-complaint {log}")),
        "{err}"
    );
}

/// A native turn for the triage order: `kind` is `ok`, `miss` (no marker)
/// or `orphan` (cites `[KB-9]` of two chunks); every chunk scores `score`.
fn graded(id: &str, agent: &str, at: &str, kind: &str, score: f64) -> String {
    let reply = match kind {
        "ok" => "See [KB-1].",
        "miss" => "Refunds take 5 days.",
        _ => "See [KB-9].",
    };
    serde_json::json!({
        "turn_id": id, "agent_id": agent, "created_at": at, "reply": reply,
        "grounding": {"chunks": [
            {"document_id": "a.md", "score": score},
            {"document_id": "b.md", "score": score / 2.0}
        ]}
    })
    .to_string()
}

/// Six days of three agents: billing-bot answers grounded for four days,
/// then mostly without a marker on confident retrieval (a significant
/// drop); support-bot misses a marker twice a day, late in the day, on
/// confident retrieval, and invented one citation on the first night;
/// faq-bot, on the last evening, misses a dozen markers on weak retrieval.
fn severity_log() -> Vec<String> {
    let mut lines = vec![graded(
        "s-orphan",
        "support-bot",
        "2026-08-01T00:05:00Z",
        "orphan",
        0.8,
    )];
    for day in 1..=6 {
        for i in 0..8 {
            let miss = day >= 5 && i >= 2;
            lines.push(graded(
                &format!("b-{day}-{i}"),
                "billing-bot",
                &format!("2026-08-0{day}T08:{i:02}:00Z"),
                if miss { "miss" } else { "ok" },
                0.9,
            ));
            lines.push(graded(
                &format!("s-{day}-{i}"),
                "support-bot",
                &format!("2026-08-0{day}T23:{i:02}:00Z"),
                if i >= 6 { "miss" } else { "ok" },
                0.95,
            ));
        }
    }
    for i in 0..12 {
        lines.push(graded(
            &format!("f-{i:02}"),
            "faq-bot",
            &format!("2026-08-06T20:{i:02}:00Z"),
            "miss",
            0.2,
        ));
    }
    lines
}

fn write_lines(dir: &std::path::Path, name: &str, lines: &[String]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p.to_str().unwrap().to_owned()
}

/// (turn id, reason) of a summary document's triage list.
fn triage_of(doc: &Value) -> Vec<(String, String)> {
    doc["triage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["turn_id"].as_str().unwrap().to_owned(),
                t["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn summary_doc(args: &[&str]) -> Value {
    let mut a = vec!["summary", "--format", "json"];
    a.extend_from_slice(args);
    let (code, out, err) = run(&a);
    assert_eq!(code, 0, "{args:?}: {err}");
    json(&out)
}

#[test]
fn triage_reads_invented_citations_first_then_confident_misses_of_a_dropping_agent() {
    let dir = tempfile::tempdir().unwrap();
    let log = write_lines(dir.path(), "log.jsonl", &severity_log());
    let v = summary_doc(&["--triage", "5", &log]);
    assert_eq!(v["triage_order"], "severity");
    let drop = "; agent billing-bot in a significant drop";
    let want: Vec<(String, String)> = [
        ("s-orphan", "invented citation [KB-9]".to_owned()),
        ("b-6-7", format!("missing marker, top score 0.9{drop}")),
        ("b-6-6", format!("missing marker, top score 0.9{drop}")),
        ("b-6-5", format!("missing marker, top score 0.9{drop}")),
        ("b-6-4", format!("missing marker, top score 0.9{drop}")),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_owned(), b))
    .collect();
    assert_eq!(triage_of(&v), want);
    let severities: Vec<&str> = v["triage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["severity"].as_str().unwrap())
        .collect();
    assert_eq!(
        severities,
        [
            "invented_citation",
            "missing_marker_high_score",
            "missing_marker_high_score",
            "missing_marker_high_score",
            "missing_marker_high_score"
        ]
    );
    // Past billing-bot's twelve, support-bot's newer misses; the weak
    // retrieval misses of faq-bot come last, though they are the newest.
    let all = triage_of(&summary_doc(&["--triage", "40", &log]));
    let ids: Vec<&str> = all.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(&ids[13..15], ["s-6-7", "s-6-6"]);
    assert_eq!(all[13].1, "missing marker, top score 0.95");
    assert_eq!(ids[25], "f-11");
    assert_eq!(all[25].1, "missing marker, top score 0.2 (below 0.5)");
    assert_eq!(ids.len(), 1 + 12 + 12 + 12);
    // The old order: the newest, whatever they are.
    let recent = triage_of(&summary_doc(&[
        "--triage",
        "5",
        "--triage-order",
        "recent",
        &log,
    ]));
    let ids: Vec<&str> = recent.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["s-6-7", "s-6-6", "f-11", "f-10", "f-09"]);
    // "High" is the top score at or above --low-score.
    let strict = triage_of(&summary_doc(&[
        "--triage",
        "2",
        "--low-score",
        "0.92",
        &log,
    ]));
    assert_eq!(strict[1].0, "s-6-7", "{strict:?}");
    // Against a baseline, the drop is the comparison's: billing-bot fell
    // from 24/24 to 12/24 against the three days before (the invented
    // citation is before the window).
    let compared = summary_doc(&[
        "--triage",
        "2",
        "--from",
        "2026-08-04",
        "--compare-from",
        "2026-08-01",
        "--compare-to",
        "2026-08-04",
        &log,
    ]);
    assert_eq!(
        triage_of(&compared)[0],
        (
            "b-6-7".to_owned(),
            format!("missing marker, top score 0.9{drop}")
        )
    );
}

#[test]
fn every_format_shows_why_a_turn_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let log = write_lines(dir.path(), "log.jsonl", &severity_log());
    for format in ["table", "markdown", "json", "html"] {
        let (code, out, err) = run(&["summary", "--triage", "3", "--format", format, &log]);
        assert_eq!(code, 0, "{format}: {err}");
        let why = if format == "markdown" {
            r"invented citation \[KB-9\]"
        } else {
            "invented citation [KB-9]"
        };
        assert!(out.contains(why), "{format}: {out}");
        assert!(
            out.contains("missing marker, top score 0.9; agent billing-bot in a significant drop"),
            "{format}"
        );
    }
    let (_, csv, _) = run(&[
        "summary",
        "--triage",
        "2",
        "--format",
        "csv",
        "--section",
        "triage",
        &log,
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].ends_with(",severity,reason"), "{csv}");
    assert!(
        lines[1].starts_with("2026-08-01T00:05:00Z,s-orphan,support-bot,orphan_marker,")
            && lines[1].ends_with(",invented_citation,invented citation [KB-9]"),
        "{csv}"
    );
    // The HTML page's headline names the turn to read first and why, for
    // `summary` and for `check --html` alike.
    let read_first = "Read first: turn <b>s-orphan</b> of support-bot (invented citation [KB-9]), the most severe of";
    let (_, page, _) = run(&["summary", "--format", "html", &log]);
    assert!(page.contains(read_first), "{page}");
    let html = dir.path().join("check.html");
    let (code, _, err) = run(&[
        "check",
        "--min-rate",
        "0.5",
        "--html",
        html.to_str().unwrap(),
        &log,
    ]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(read_first), "{page}");
    let (code, _, err) = run(&[
        "check",
        "--min-rate",
        "0.5",
        "--triage-order",
        "recent",
        "--html",
        html.to_str().unwrap(),
        &log,
    ]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("Read first: turn <b>s-6-7</b> of support-bot (missing marker, top score 0.95), the most recent of"),
        "{page}"
    );
}

/// The list merged from partials is the one pass's, in both orders,
/// however the input is split: each partial keeps the most recent turns
/// of each severity and agent, and the drop is judged on the merged trend.
#[test]
fn triage_from_partials_is_the_one_pass_list() {
    let dir = tempfile::tempdir().unwrap();
    let lines = severity_log();
    let log = write_lines(dir.path(), "log.jsonl", &lines);
    // Three parts: by line, round robin, and by agent.
    let splits: [fn(usize, &str) -> usize; 3] = [
        |i, _| i * 3 / 111,
        |i, _| i % 3,
        |_, l| usize::from(l.contains("billing")) + 2 * usize::from(l.contains("faq")),
    ];
    for (k, split) in splits.iter().enumerate() {
        let mut parts = vec![Vec::new(); 3];
        for (i, l) in lines.iter().enumerate() {
            parts[split(i, l) % 3].push(l.clone());
        }
        for (triage, by) in [
            ("4", "agent"),
            ("9", "agent"),
            ("30", "model"),
            ("1", "channel"),
        ] {
            let state = ["--triage", triage, "--by", by];
            let mut partials = Vec::new();
            for (j, part) in parts.iter().enumerate() {
                let path = write_lines(dir.path(), &format!("p{k}{j}.jsonl"), part);
                let out = dir.path().join(format!("p{k}{j}.json"));
                let out = out.to_str().unwrap().to_owned();
                let mut a = vec!["summary", "--partial", &out];
                a.extend(state);
                a.push(&path);
                let (code, _, err) = run(&a);
                assert_eq!(code, 0, "{err}");
                partials.push(out);
            }
            for order in ["severity", "recent"] {
                let mut a = vec!["--triage-order", order];
                a.extend(state);
                a.push(&log);
                let one = summary_doc(&a);
                let mut m = vec!["merge", "--format", "json", "--triage-order", order];
                m.extend(partials.iter().map(String::as_str));
                let (code, out, err) = run(&m);
                assert_eq!(code, 0, "{err}");
                let merged = json(&out);
                assert_eq!(
                    merged["triage"], one["triage"],
                    "split {k}, {state:?}, {order}"
                );
                assert_eq!(merged["triage_order"], order);
            }
        }
    }
    // The order is rendered, not kept: a partial refuses it, `merge` of a
    // report's partials refuses it.
    let p = dir.path().join("x.json");
    let (code, _, err) = run(&[
        "summary",
        "--partial",
        p.to_str().unwrap(),
        "--triage-order",
        "recent",
        &log,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--triage-order"), "{err}");
}

/// An `ok` turn listed for a shipped hint (a year its cited chunk does not
/// hold) joins the triage list after the ungrounded turns, and the title
/// counts it apart: it is not ungrounded.
#[test]
fn hinted_ok_turns_are_counted_apart_in_the_triage_title() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("hinted.jsonl");
    let chunk = r#"{"document_id":"history.md","score":0.9,"content":"The museum opened in 1990 in the old mill."}"#;
    std::fs::write(
        &log,
        format!(
            "{{\"turn_id\":\"t-1\",\"agent_id\":\"a\",\"created_at\":\"2026-08-01T10:00:00Z\",\"reply\":\"The museum opened in 1987 [KB-1].\",\"grounding\":{{\"chunks\":[{chunk}]}}}}\n\
             {{\"turn_id\":\"t-2\",\"agent_id\":\"a\",\"created_at\":\"2026-08-01T11:00:00Z\",\"reply\":\"It is in the old mill.\",\"grounding\":{{\"chunks\":[{chunk}]}}}}\n"
        ),
    )
    .unwrap();
    let (code, out, err) = run(&["summary", log.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Triage: 2 turns (1 ungrounded, 1 ok with hints to read), most severe first"),
        "{out}"
    );
    assert!(out.contains("turns with hints 1"), "{out}");
}

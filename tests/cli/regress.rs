//! Issue 13: did it get worse, for which agent, since when. A generated log
//! where billing-bot falls from 0.95 to 0.80 on 2026-07-27 while the other
//! agents hold at 0.95; `summary --compare` in every form and format,
//! `check --baseline`, the guardrail what-if, several outputs in one run,
//! output errors.

use crate::common::*;
use serde_json::Value;
use std::io::Write;
use std::path::Path;

const AGENTS: [&str; 3] = ["billing-bot", "support-bot", "voice-concierge"];
/// The day billing-bot's rate falls.
const CHANGE: &str = "2026-07-27";

/// 14 days from 2026-07-20, 60 turns per agent per day: 57 grounded (0.95),
/// and for billing-bot from 2026-07-27 on, 48 (0.80).
fn regression_log(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("turns.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut n = 0;
    for day in 0..14 {
        let date = chrono::NaiveDate::from_ymd_opt(2026, 7, 20).unwrap() + chrono::Days::new(day);
        for agent in AGENTS {
            let fallen = agent == "billing-bot" && date.to_string().as_str() >= CHANGE;
            for i in 0..60u32 {
                n += 1;
                let grounded = if fallen { i % 5 != 0 } else { i % 20 != 0 };
                let reply = if grounded { "yes [KB-1]" } else { "no marker" };
                writeln!(
                    f,
                    r#"{{"turn_id":"t{n}","agent_id":"{agent}","created_at":"{date}T{:02}:{:02}:00Z","reply":"{reply}","grounding":{{"chunks":[{{"document_id":"d","score":0.8}}]}}}}"#,
                    i / 6,
                    i % 6 * 10
                )
                .unwrap();
            }
        }
    }
    f.flush().unwrap();
    path
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

/// The comparison of a `summary --format json` document.
fn compared(args: &[&str]) -> Value {
    let v = json(&ok(args));
    v["compare"].clone()
}

fn assert_billing_bot_first(c: &Value) {
    let first = &c["groups"][0];
    assert_eq!(first["key"], "billing-bot", "{c:#}");
    assert_eq!(first["significant"], true);
    assert!(first["difference"].as_f64().unwrap() < -0.1, "{first}");
    assert!(first["high"].as_f64().unwrap() < 0.0, "{first}");
    assert_eq!(first["change"]["since"], CHANGE, "{first}");
    assert!((first["change"]["before_rate"].as_f64().unwrap() - 0.95).abs() < 1e-9);
    assert!((first["change"]["after_rate"].as_f64().unwrap() - 0.8).abs() < 1e-9);
    for g in &c["groups"].as_array().unwrap()[1..] {
        assert_eq!(g["significant"], false, "{g}");
        assert!(g["change"].is_null(), "{g}");
    }
}

#[test]
fn summary_compare_ranks_the_fallen_agent_first_and_names_the_day() {
    let dir = tempfile::tempdir().unwrap();
    let log = regression_log(dir.path());
    let log = log.to_str().unwrap();
    let base = dir.path().join("last-week.json");
    std::fs::write(
        &base,
        ok(&["summary", log, "--to", CHANGE, "--format", "json"]),
    )
    .unwrap();
    let base = base.to_str().unwrap();
    // A saved document as the baseline, this week as the current window.
    let c = compared(&[
        "summary",
        log,
        "--from",
        CHANGE,
        "--compare",
        base,
        "--format",
        "json",
    ]);
    assert_billing_bot_first(&c);
    assert_eq!(c["overall"]["baseline"]["with_retrieval"], 1260);
    assert_eq!(c["overall"]["current"]["with_retrieval"], 1260);
    // A window of the same logs.
    let c = compared(&[
        "summary",
        log,
        "--from",
        CHANGE,
        "--compare-from",
        "2026-07-20",
        "--compare-to",
        CHANGE,
        "--format",
        "json",
    ]);
    assert_billing_bot_first(&c);
    // The last 7 days against the 7 before.
    let c = compared(&[
        "summary",
        log,
        "--since",
        "7d",
        "--now",
        "2026-08-03",
        "--compare-previous",
        "--format",
        "json",
    ]);
    assert_billing_bot_first(&c);
    assert!(
        c["baseline"]
            .as_str()
            .unwrap()
            .contains("2026-07-20T00:00:00Z"),
        "{c}"
    );
    // Every human format carries it, the headline first.
    let line = "significant drop: billing-bot: 0.9500 → 0.8000 (baseline → this window); change day 2026-07-27, 0.9500 before it and 0.8000 from it on";
    for format in ["table", "markdown"] {
        let out = ok(&[
            "summary",
            log,
            "--from",
            CHANGE,
            "--compare",
            base,
            "--format",
            format,
        ]);
        assert!(out.contains(line), "{format}:\n{out}");
        assert!(out.find("billing-bot").unwrap() < out.find("support-bot").unwrap());
    }
    let csv = ok(&[
        "summary",
        log,
        "--from",
        CHANGE,
        "--compare",
        base,
        "--format",
        "csv",
        "--section",
        "compare",
    ]);
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].starts_with("group,baseline_rate,current_rate,difference,low,high"));
    assert!(rows[1].starts_with("(all),"), "{csv}");
    assert!(
        rows[2].starts_with("billing-bot,0.9500,0.8000,-0.1500,"),
        "{csv}"
    );
    assert!(rows[2].ends_with(",drop,2026-07-27"), "{csv}");
    // Without a baseline there is no compare section to choose.
    let (code, _, err) = run(&["summary", log, "--format", "csv", "--section", "compare"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn check_baseline_fails_naming_the_agent_and_the_day() {
    let dir = tempfile::tempdir().unwrap();
    let log = regression_log(dir.path());
    let log = log.to_str().unwrap();
    let base = dir.path().join("baseline.json");
    // check --write-baseline writes what summary --format json prints,
    // after the options it was graded under (`grading`, its first member).
    let (code, _, err) = run(&[
        "check",
        log,
        "--to",
        CHANGE,
        "--min-rate",
        "0.9",
        "--write-baseline",
        base.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&base).unwrap();
    let (grading, rest) = written.split_once(",\n  \"totals\"").unwrap();
    assert!(grading.starts_with("{\n  \"grading\": {"), "{grading}");
    assert_eq!(
        format!("{{\n  \"totals\"{rest}"),
        ok(&["summary", log, "--to", CHANGE, "--format", "json"])
    );
    let base = base.to_str().unwrap();
    let args = [
        "check",
        log,
        "--from",
        CHANGE,
        "--baseline",
        base,
        "--max-drop",
        "0.05",
        "--per-agent",
    ];
    let (code, out, _) = run(&args);
    assert_eq!(code, 1, "{out}");
    // The line docs/summary.md shows.
    assert_eq!(
        out.lines().next().unwrap(),
        r#"FAIL agent "billing-bot" drop=0.1500 > max_drop=0.0500 [0.9500 (399/420) → 0.8000 (336/420)] ("billing-bot": change day 2026-07-27, 0.9500 before it and 0.8000 from it on)"#
    );
    assert!(
        out.contains(r#"pass  max_drop (agent "support-bot"): drop=0.0000"#),
        "{out}"
    );
    // The failure names its first ten offending turns.
    let turns = out
        .lines()
        .find(|l| l.trim_start().starts_with("turns: "))
        .unwrap();
    assert_eq!(turns.split_whitespace().count(), 11, "{turns}");
    // Significant at 95 % as well.
    let (code, out, _) = run(&[&args[..], &["--confidence", "0.95"]].concat());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("a significant drop"), "{out}");
    // A baseline that is not a summary document is a configuration error:
    // decided ERROR, the reports still written, exit 3.
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{}").unwrap();
    let (code, out, err) = run(&[
        "check",
        log,
        "--baseline",
        junk.to_str().unwrap(),
        "--max-drop",
        "0.05",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.starts_with("ERROR --baseline") && out.contains("totals"),
        "{out}"
    );
}

/// Every outcome of `check` renders: a first run without its baseline, a
/// missing policy, decide `ERROR` first and write every report asked for
/// (JUnit with an errored case naming the file), exit 3.
#[test]
fn check_without_its_baseline_or_policy_still_reports() {
    let dir = tempfile::tempdir().unwrap();
    let log = fixture("demo.jsonl");
    let log = log.to_str().unwrap();
    let base = dir.path().join("base.json");
    let junit = dir.path().join("out.xml");
    let json_out = dir.path().join("out.json");
    let md = dir.path().join("out.md");
    let (code, out, err) = run(&[
        "check",
        log,
        "--baseline",
        base.to_str().unwrap(),
        "--max-drop",
        "0.05",
        "--junit",
        junit.to_str().unwrap(),
        "--json",
        json_out.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{err}");
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("ERROR --baseline"), "{out}");
    assert!(first.contains("--write-baseline"), "{first}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(r#"errors="1""#) && xml.contains("<error message=\"--baseline"),
        "{xml}"
    );
    assert!(xml.contains(base.to_str().unwrap()), "{xml}");
    let doc = json(&std::fs::read_to_string(&json_out).unwrap());
    assert_eq!(doc["decision"], "fail");
    assert_eq!(doc["gates"][0]["outcome"], "error");
    assert!(std::fs::read_to_string(&md).unwrap().contains("error"));
    // A missing policy: the same contract.
    let (code, out, _) = run(&[
        "check",
        log,
        "--policy",
        dir.path().join("nope.toml").to_str().unwrap(),
    ]);
    assert_eq!(code, 3);
    assert!(out.starts_with("ERROR --policy"), "{out}");
    // Under GitHub Actions the error is an annotation.
    let (code, out, _) = run(&[
        "check",
        log,
        "--baseline",
        base.to_str().unwrap(),
        "--max-drop",
        "0.05",
        "--format",
        "github",
    ]);
    assert_eq!(code, 3);
    assert!(
        out.contains("::error title=grounding-audit config::"),
        "{out}"
    );
}

/// Writes `n` turns of one night per agent, `grounded` of them grounded.
fn night(dir: &Path, agents: &[&str], grounded: u32, n: u32) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("night.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    for agent in agents {
        for i in 0..n {
            let reply = if i < grounded {
                "yes [KB-1]"
            } else {
                "no marker"
            };
            writeln!(
                f,
                r#"{{"turn_id":"{agent}-{i}","agent_id":"{agent}","created_at":"2026-08-02T01:{:02}:00Z","reply":"{reply}","grounding":{{"chunks":[{{"document_id":"d","score":0.8}}]}}}}"#,
                i % 60
            )
            .unwrap();
        }
    }
    path
}

#[test]
fn a_quiet_perfect_night_passes_and_a_small_terrible_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let quiet = night(&dir.path().join("quiet"), &["a", "b"], 25, 25);
    let terrible = night(&dir.path().join("terrible"), &["a", "b"], 12, 25);
    let gate = [
        "--min-rate",
        "0.9",
        "--per-agent",
        "--min-turns",
        "20",
        "--confidence",
        "0.95",
    ];
    let (code, out, _) = run(&[&["check", quiet.to_str().unwrap()][..], &gate].concat());
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run(&[&["check", terrible.to_str().unwrap()][..], &gate].concat());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(r#"agent "a" wilson95_upper=0.6650 < min_rate=0.9000"#),
        "{out}"
    );
    // The stricter rule fails the quiet night too.
    let (code, _, _) = run(&[
        &["check", quiet.to_str().unwrap()][..],
        &gate,
        &["--require-proof"],
    ]
    .concat());
    assert_eq!(code, 1);
}

#[test]
fn policy_file_gates_per_agent_and_names_unknown_keys() {
    let dir = tempfile::tempdir().unwrap();
    let log = night(dir.path(), &["a", "b"], 20, 25); // 0.8 each
    let log = log.to_str().unwrap();
    let policy = dir.path().join("policy.toml");
    std::fs::write(
        &policy,
        "[defaults]\nmin_rate = 0.9\n\n[agents.a]\nmin_rate = 0.75\n\n[agents.ghost]\nmin_rate = 0.5\n",
    )
    .unwrap();
    let p = policy.to_str().unwrap();
    let (code, out, _) = run(&["check", log, "--policy", p, "--min-rate", "0.75"]);
    assert_eq!(code, 0, "{out}");
    // Agent a has its own bar; b the default (--min-rate on the command line wins over [defaults]).
    let (code, out, _) = run(&["check", log, "--policy", p]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(r#"agent "b" 0.8000 (20/25) < 0.9000"#),
        "{out}"
    );
    assert!(
        out.contains(r#"pass  min_rate (agent "a"): 0.8000 (20/25) >= 0.7500"#),
        "{out}"
    );
    assert!(
        out.contains(r#"warning: policy names agent "ghost", which has no turn in this log"#),
        "{out}"
    );
    // A policy that does not read decides the run ERROR, naming the key.
    std::fs::write(&policy, "[defaults]\nmin_rate = 0.9\nmax_orphanz = 0\n").unwrap();
    let (code, out, err) = run(&["check", log, "--policy", p]);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.starts_with("ERROR --policy") && out.contains("line 3") && out.contains("max_orphanz"),
        "{out}"
    );
}

#[test]
fn several_outputs_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let log = night(dir.path(), &["a"], 20, 25);
    let (junit, js, md, summary) = (
        dir.path().join("g.xml"),
        dir.path().join("g.json"),
        dir.path().join("g.md"),
        dir.path().join("step.md"),
    );
    let out = bin()
        .args([
            "check",
            log.to_str().unwrap(),
            "--min-rate",
            "0.9",
            "--junit",
            junit.to_str().unwrap(),
            "--json",
            js.to_str().unwrap(),
            "--markdown",
            md.to_str().unwrap(),
            "--github",
        ])
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("FAIL grounded_rate=0.8000 (20/25)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("::error title=grounding-audit min_rate::"),
        "{stdout}"
    );
    assert!(
        std::fs::read_to_string(&junit)
            .unwrap()
            .contains("<failure")
    );
    assert_eq!(
        json(&std::fs::read_to_string(&js).unwrap())["decision"],
        "fail"
    );
    assert!(std::fs::read_to_string(&md).unwrap().starts_with("**FAIL"));
    assert!(
        std::fs::read_to_string(&summary)
            .unwrap()
            .starts_with("**FAIL")
    );
}

#[test]
fn a_failed_write_is_an_output_error() {
    let dir = tempfile::tempdir().unwrap();
    let log = night(dir.path(), &["a"], 25, 25);
    let log = log.to_str().unwrap();
    let nowhere = dir.path().join("missing-dir").join("x");
    let nowhere = nowhere.to_str().unwrap();
    for flag in [
        "--output",
        "--junit",
        "--json",
        "--markdown",
        "--write-baseline",
    ] {
        let (code, _, err) = run(&["check", log, "--min-rate", "0.9", flag, nowhere]);
        assert_eq!(code, 4, "{flag}: {err}");
        assert!(err.contains("missing-dir"), "{err}");
    }
    // $GITHUB_STEP_SUMMARY that is a directory.
    let out = bin()
        .args(["check", log, "--min-rate", "0.9", "--format", "github"])
        .env("GITHUB_STEP_SUMMARY", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    // A full stdout.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin!("grounding-audit"))
            .args(["summary", log])
            .env("CI", "true")
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(4),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn input_line_after_an_input_error_accounts_for_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl");
    std::fs::write(
        &path,
        "{\"turn_id\":\"t1\",\"agent_id\":\"a\",\"created_at\":\"2026-08-01T00:00:00Z\",\"reply\":\"hi\"}\nnot json\n\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let (code, out, _) = run(&["check", p, "--min-rate", "0.9"]);
    assert_eq!(code, 3);
    assert!(
        out.contains("input: 1 file(s), 3 line(s): 1 turn(s), 1 blank, 0 skipped record(s), 1 invalid, 0 duplicate(s)"),
        "{out}"
    );
    for format in ["json", "markdown"] {
        let (code, out, _) = run(&["check", p, "--min-rate", "0.9", "--format", format]);
        assert_eq!(code, 3);
        assert!(
            out.contains("1 invalid") || out.contains("\"invalid_lines\": 1"),
            "{format}: {out}"
        );
    }
}

#[test]
fn no_input_on_stdin_says_so_instead_of_advising_allow_empty() {
    let (code, out, _) = run_stdin(&["check", "--min-rate", "0.9"], b"");
    assert_eq!(code, 1);
    let first = out.lines().next().unwrap();
    assert!(first.starts_with("FAIL no input was read"), "{first}");
    assert!(first.contains("grounding-audit check exports/"), "{first}");
    assert!(!out.contains("--allow-empty"), "{out}");
}

/// The guardrail section's counts against the verdicts: it refuses exactly
/// the `no_marker` turns and lets every `orphan_marker` turn through; and
/// `report --would-block` lists those same turns.
fn guardrail_matches_verdicts(path: &Path, markers: &[&str]) {
    let p = path.to_str().unwrap();
    let v = json(&ok(
        &[&["summary", p, "--format", "json"][..], markers].concat()
    ));
    let g = &v["guardrail"];
    let t = &v["totals"];
    let answered = t["turns"].as_u64().unwrap() - t["verdicts"]["unobserved"].as_u64().unwrap();
    assert_eq!(g["answered"].as_u64().unwrap(), answered);
    assert_eq!(
        g["refused"],
        t["verdicts"]["no_marker"],
        "{}",
        path.display()
    );
    assert_eq!(g["orphans_passed"], t["verdicts"]["orphan_marker"]);
    for (row, group) in g["by_group"]
        .as_array()
        .unwrap()
        .iter()
        .zip(v["groups"].as_array().unwrap())
    {
        assert_eq!(row["key"], group["key"]);
        assert_eq!(row["refused"], group["verdicts"]["no_marker"]);
        assert_eq!(row["orphans_passed"], group["verdicts"]["orphan_marker"]);
    }
    let blocked = ok(&[
        &["report", p, "--would-block", "--all", "--format", "jsonl"][..],
        markers,
    ]
    .concat());
    let rows: Vec<Value> = blocked.lines().map(json).collect();
    assert_eq!(rows.len() as u64, g["refused"].as_u64().unwrap());
    assert!(
        rows.iter()
            .all(|r| r["verdict"] == "no_marker" && r["marker_count"] == 0)
    );
}

#[test]
fn guardrail_counts_agree_with_verdicts_on_the_demo_log() {
    guardrail_matches_verdicts(&fixture("demo.jsonl"), &[]);
    let v = json(&ok(&[
        "summary",
        fixture("demo.jsonl").to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(v["guardrail"]["refused"], 4);
    assert_eq!(v["guardrail"]["orphans_passed"], 3);
    assert_eq!(v["guardrail"]["answered"], 21);
}

#[test]
fn guardrail_counts_agree_with_verdicts_on_the_real_data() {
    for d in ["expertqa", "hagrid", "attributed-ir-hagrid"] {
        if let Some(p) = shared(&format!("realdata/{d}/turns.kb.jsonl")) {
            guardrail_matches_verdicts(&p, &[]);
        }
        if let Some(p) = shared(&format!("realdata/{d}/turns.orig.jsonl")) {
            guardrail_matches_verdicts(&p, &["--markers", "numeric"]);
        }
    }
}

#[test]
fn trend_buckets_and_per_agent_trend() {
    let dir = tempfile::tempdir().unwrap();
    let log = regression_log(dir.path());
    let log = log.to_str().unwrap();
    let v = json(&ok(&[
        "summary", log, "--bucket", "week", "--format", "json",
    ]));
    assert_eq!(v["bucket"], "week");
    let weeks: Vec<&str> = v["days"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["day"].as_str().unwrap())
        .collect();
    // 2026-07-20 is a Monday: two whole ISO weeks.
    assert_eq!(weeks, ["2026-W30", "2026-W31"]);
    let billing: Vec<&Value> = v["group_days"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["key"] == "billing-bot")
        .collect();
    assert_eq!(billing.len(), 2);
    assert_eq!(billing[0]["grounded"], 399);
    assert_eq!(billing[1]["grounded"], 336);
    let v = json(&ok(&[
        "summary",
        log,
        "--bucket",
        "hour",
        "--format",
        "json",
        "--to",
        "2026-07-21",
    ]));
    assert_eq!(v["days"][0]["day"], "2026-07-20T00");
    assert_eq!(v["days"].as_array().unwrap().len(), 10);
}

/// A baseline remembers how it was graded: compared under another grammar
/// it is refused (ERROR, exit 3) naming the option, never a false PASS.
#[test]
fn a_baseline_graded_otherwise_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let log = fixture("demo.jsonl");
    let log = log.to_str().unwrap();
    let base = dir.path().join("base.json");
    let base = base.to_str().unwrap();
    let (code, _, err) = run(&[
        "check",
        log,
        "--min-rate",
        "0",
        "--markers",
        "numeric",
        "--write-baseline",
        base,
    ]);
    assert_eq!(code, 0, "{err}");
    let doc = json(&std::fs::read_to_string(base).unwrap());
    assert_eq!(doc["grading"]["settings"]["--markers"], "numeric");
    let (code, out, _) = run(&["check", log, "--baseline", base, "--max-drop", "0.05"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.starts_with("ERROR --baseline") && out.contains("--markers numeric"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "check",
        log,
        "--baseline",
        base,
        "--max-drop",
        "0.05",
        "--markers",
        "numeric",
    ]);
    assert_eq!(code, 0, "{out}");
}

/// The nightly ratchet: `--ratchet` writes the baseline only from a run
/// that passed, and keeps overall and per agent the better of the old
/// baseline and this run, so it only moves up.
#[test]
fn a_ratcheted_baseline_only_moves_up() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.json");
    let b = base.to_str().unwrap();
    let rate = |agent: Option<&str>| {
        let doc = json(&std::fs::read_to_string(&base).unwrap());
        let side = match agent {
            None => doc["totals"].clone(),
            Some(a) => doc["groups"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["key"] == a)
                .unwrap()
                .clone(),
        };
        side["grounded"].as_f64().unwrap() / side["with_retrieval"].as_f64().unwrap()
    };
    // The first night: no baseline yet; it passes and writes one.
    let good = night(&dir.path().join("good"), &["a", "b"], 23, 25);
    let (code, out, _) = run(&[
        "check",
        good.to_str().unwrap(),
        "--min-rate",
        "0.5",
        "--write-baseline",
        b,
        "--ratchet",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(rate(Some("a")), 0.92);
    let first = json(&std::fs::read_to_string(&base).unwrap());
    // A worse night that still passes: agent a fell, b rose; a keeps its
    // old rate, b takes the new one.
    let mixed = dir.path().join("mixed");
    std::fs::create_dir_all(&mixed).unwrap();
    let a = night(&mixed.join("a"), &["a"], 20, 25);
    let bb = night(&mixed.join("b"), &["b"], 25, 25);
    let (code, out, _) = run(&[
        "check",
        a.to_str().unwrap(),
        bb.to_str().unwrap(),
        "--min-rate",
        "0.5",
        "--baseline",
        b,
        "--max-drop",
        "0.5",
        "--write-baseline",
        b,
        "--ratchet",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(rate(Some("a")), 0.92);
    assert_eq!(rate(Some("b")), 1.0);
    // One consistent document: the overall rate was kept (0.92 > 0.90), so
    // the triage list, daily series and input counts are the first
    // night's with it; agent b's rows everywhere are tonight's.
    let doc = json(&std::fs::read_to_string(&base).unwrap());
    for section in ["totals", "triage", "days", "input", "telemetry"] {
        assert_eq!(doc[section], first[section], "{section}");
    }
    assert_eq!(doc["input"]["turns"], doc["totals"]["turns"]);
    assert_eq!(doc["ratchet"]["kept_overall"], true);
    assert_eq!(doc["ratchet"]["kept_groups"], serde_json::json!(["a"]));
    let (_, tonight, _) = run(&[
        "summary",
        a.to_str().unwrap(),
        bb.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let tonight = json(&tonight);
    let rows = |d: &serde_json::Value, path: &[&str], k: &str| -> Vec<serde_json::Value> {
        let list = path.iter().fold(d, |v, p| &v[p]);
        list.as_array()
            .unwrap()
            .iter()
            .filter(|r| r["key"] == k)
            .cloned()
            .collect()
    };
    for path in [
        &["groups"][..],
        &["group_days"],
        &["guardrail", "by_group"],
        &["tools", "by_group"],
    ] {
        assert_eq!(rows(&doc, path, "b"), rows(&tonight, path, "b"), "{path:?}");
        assert_eq!(rows(&doc, path, "a"), rows(&first, path, "a"), "{path:?}");
    }
    // A failing night writes nothing.
    let before = std::fs::read_to_string(&base).unwrap();
    let bad = night(&dir.path().join("bad"), &["a", "b"], 5, 25);
    let (code, _, err) = run(&[
        "check",
        bad.to_str().unwrap(),
        "--min-rate",
        "0.9",
        "--write-baseline",
        b,
        "--ratchet",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("not written"), "{err}");
    assert_eq!(std::fs::read_to_string(&base).unwrap(), before);
    // --ratchet means nothing without --write-baseline.
    let (code, _, _) = run(&[
        "check",
        bad.to_str().unwrap(),
        "--min-rate",
        "0.9",
        "--ratchet",
    ]);
    assert_eq!(code, 2);
}

/// One ratchet command every night: on the first, its `--baseline` (the
/// file it writes) does not exist yet, which is a note, not an error; the
/// run writes it, and the next night the same command gates the drop.
/// Without `--ratchet` a missing baseline stays an error.
#[test]
fn one_ratchet_command_serves_the_first_night_too() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.json");
    let b = base.to_str().unwrap();
    let nightly = |log: &std::path::Path| {
        run(&[
            "check",
            log.to_str().unwrap(),
            "--min-rate",
            "0.5",
            "--baseline",
            b,
            "--max-drop",
            "0.05",
            "--write-baseline",
            b,
            "--ratchet",
        ])
    };
    let good = night(&dir.path().join("good"), &["a"], 24, 25);
    let (code, out, err) = nightly(&good);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("no baseline yet"), "{err}");
    assert!(base.exists());
    let worse = night(&dir.path().join("worse"), &["a"], 15, 25);
    let (code, out, _) = nightly(&worse);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("max_drop"), "{out}");
    let elsewhere = dir.path().join("none.json");
    let (code, out, _) = run(&[
        "check",
        good.to_str().unwrap(),
        "--min-rate",
        "0.5",
        "--baseline",
        elsewhere.to_str().unwrap(),
        "--max-drop",
        "0.05",
    ]);
    assert_eq!(code, 3, "{out}");
}

/// A baseline records its settings as a versioned record of typed JSON by
/// flag, spelled as the command line names them. The record of this run is
/// written out in full below: renaming a flag's value in the code fails
/// this test, not a user's stored baseline. Baselines in the older record
/// (a flat map of strings, in the value names or in Rust's debug text)
/// still match the run they were made for, and refuse one graded otherwise.
#[test]
fn baseline_settings_are_typed_versioned_and_old_ones_still_match() {
    let dir = tempfile::tempdir().unwrap();
    let log = fixture("demo.jsonl");
    let log = log.to_str().unwrap();
    let base = dir.path().join("base.json");
    let b = base.to_str().unwrap();
    let (code, _, err) = run(&[
        "check",
        log,
        "--min-rate",
        "0",
        "--retrievals",
        "last",
        "--markers",
        "kb",
        "--agent",
        "billing-bot",
        "--write-baseline",
        b,
    ]);
    assert_eq!(code, 0, "{err}");
    let doc = json(&std::fs::read_to_string(&base).unwrap());
    assert_eq!(
        doc["grading"],
        serde_json::json!({
            "version": 2,
            "settings": {
                "--agent": ["billing-bot"],
                "--agent-name": null,
                "--assembly-window": 50000,
                "--channel": [],
                "--cited-below": null,
                "--confidence-below": null,
                "--conversation": [],
                "--grep": null,
                "--input-format": "auto",
                "--map": [],
                "--map-file": null,
                "--markers": "kb",
                "--model": [],
                "--no-dedupe": false,
                "--retrievals": "last",
                "--set": [],
                "--turn": [],
                "--tz": "UTC"
            }
        })
    );
    let same = [
        "--retrievals",
        "last",
        "--markers",
        "kb",
        "--agent",
        "billing-bot",
    ];
    let gate = |base: &str, extra: &[&str]| {
        let mut args = vec!["check", log, "--baseline", base, "--max-drop", "0.05"];
        args.extend_from_slice(extra);
        run(&args)
    };
    assert_eq!(gate(b, &same).0, 0);
    // The same baseline in the older record: a flat map of strings, as
    // value names and JSON text, or as Rust's debug text.
    let settings = doc["grading"]["settings"].as_object().unwrap();
    let text = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_owned);
    let mut v1: serde_json::Map<String, serde_json::Value> = settings
        .iter()
        .map(|(k, v)| (k.clone(), text(v).into()))
        .collect();
    let write = |grading: &serde_json::Map<String, serde_json::Value>| {
        let mut old = doc.clone();
        old["grading"] = serde_json::Value::Object(grading.clone());
        std::fs::write(&base, old.to_string()).unwrap();
    };
    write(&v1);
    assert_eq!(gate(b, &same).0, 0);
    v1.insert("--retrievals".into(), "Last".into());
    v1.insert("--grep".into(), "None".into());
    v1.insert("--agent".into(), r#"["billing-bot"]"#.into());
    write(&v1);
    assert_eq!(gate(b, &same).0, 0);
    let (code, out, _) = gate(b, &["--markers", "kb", "--agent", "billing-bot"]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("--retrievals Last (this run: prompt)"),
        "{out}"
    );
    // A record newer than this tool reads is refused, never half-read.
    let mut newer = doc.clone();
    newer["grading"]["version"] = 3.into();
    std::fs::write(&base, newer.to_string()).unwrap();
    let (code, out, _) = gate(b, &same);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("version 3 of the grading record"), "{out}");
}

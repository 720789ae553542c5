//! `check`: every gate passes, fails, and passes at its exact boundary; the
//! decision word and the exit code agree in every case; every format.

use crate::common::*;
use std::io::Write;

/// Writes a log: for each agent, counts of (ok, no_marker, orphan_marker, unobserved, empty_retrieval).
fn log(spec: &[(&str, u32, u32, u32, u32, u32)]) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .unwrap();
    let mut n = 0;
    for (agent, ok, no, orphan, unobs, empty) in spec {
        let mut line = |reply: &str, chunks: bool| {
            n += 1;
            let g = if chunks {
                r#","grounding":{"chunks":[{"document_id":"d","score":0.8}]}"#
            } else {
                ""
            };
            let reply = if reply == "-" {
                String::new()
            } else {
                format!(r#","reply":"{reply}""#)
            };
            writeln!(f, r#"{{"turn_id":"t{n}","agent_id":"{agent}","created_at":"2026-08-01T00:00:00Z"{reply}{g}}}"#).unwrap();
        };
        (0..*ok).for_each(|_| line("yes [KB-1]", true));
        (0..*no).for_each(|_| line("no marker", true));
        (0..*orphan).for_each(|_| line("bad [KB-7]", true));
        (0..*unobs).for_each(|_| line("-", true));
        (0..*empty).for_each(|_| line("hi", false));
    }
    f.flush().unwrap();
    f
}

/// Runs check and asserts the decision line and exit code agree; returns (code, stdout).
fn check(file: &tempfile::NamedTempFile, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["check", file.path().to_str().unwrap()];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    let first = out.lines().next().unwrap_or("");
    match code {
        0 => assert!(first.starts_with("PASS "), "exit 0 but: {first}\n{err}"),
        1 | 3 => assert!(
            first.starts_with("FAIL "),
            "exit {code} but: {first}\n{err}"
        ),
        _ => panic!("unexpected exit {code}: {err}"),
    }
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("PASS ") || l.starts_with("FAIL "))
            .count(),
        1,
        "{out}"
    );
    (code, out, err)
}

#[test]
fn min_rate_pass_fail_and_boundary() {
    let f = log(&[("a", 3, 1, 0, 0, 0)]); // 3/4 = 0.75
    assert_eq!(check(&f, &["--min-rate", "0.7"]).0, 0);
    assert_eq!(check(&f, &["--min-rate", "0.8"]).0, 1);
    let (code, out, _) = check(&f, &["--min-rate", "0.75"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("PASS grounded_rate=0.7500 (3/4) >= min_rate=0.7500 [wilson95_lower="),
        "{out}"
    );
}

#[test]
fn documented_fail_line() {
    let f = log(&[("billing-bot", 3, 2, 0, 0, 0), ("other", 10, 1, 0, 0, 0)]); // 13/16, billing 3/5
    let (code, out, _) = check(&f, &["--min-rate", "0.9", "--per-agent"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("FAIL grounded_rate=0.8125 (13/16) < min_rate=0.9000; agent \"billing-bot\" 0.6000 (3/5) < 0.9000"),
        "{out}"
    );
}

#[test]
fn documented_pass_line_with_wilson() {
    let f = log(&[("a", 16, 1, 0, 0, 0)]);
    let (code, out, _) = check(&f, &["--min-rate", "0.9"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "PASS grounded_rate=0.9412 (16/17) >= min_rate=0.9000 [wilson95_lower=0.7302]"
        ),
        "{out}"
    );
}

#[test]
fn per_agent_pass_fail_boundary_and_not_enough_evidence() {
    let f = log(&[
        ("a", 3, 1, 0, 0, 0),
        ("b", 9, 1, 0, 0, 0),
        ("tiny", 0, 1, 0, 0, 0),
    ]);
    // Overall 12/15 = 0.8; agent a = 0.75 exactly; tiny has 1 turn, under --min-turns 2.
    assert_eq!(
        check(
            &f,
            &["--min-rate", "0.75", "--per-agent", "--min-turns", "2"]
        )
        .0,
        0
    );
    let (code, out, _) = check(
        &f,
        &["--min-rate", "0.76", "--per-agent", "--min-turns", "2"],
    );
    assert_eq!(code, 1);
    assert!(out.contains(r#"agent "a" 0.7500 (3/4) < 0.7600"#), "{out}");
    assert!(out.contains(r#""tiny": not enough evidence"#), "{out}");
    // Without the evidence floor, the tiny agent is gated and fails.
    assert_eq!(check(&f, &["--min-rate", "0.75", "--per-agent"]).0, 1);
}

#[test]
fn min_turns_pass_fail_and_boundary() {
    let f = log(&[("a", 5, 0, 0, 0, 0)]);
    assert_eq!(check(&f, &["--min-rate", "0.5", "--min-turns", "4"]).0, 0);
    assert_eq!(check(&f, &["--min-rate", "0.5", "--min-turns", "5"]).0, 0);
    let (code, out, _) = check(&f, &["--min-rate", "0.5", "--min-turns", "6"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("FAIL not enough evidence"), "{out}");
}

#[test]
fn require_proof_gates_on_the_lower_bound() {
    let f = log(&[("a", 16, 1, 0, 0, 0)]);
    let strict = ["--confidence", "0.95", "--require-proof"];
    let (code, out, _) = check(&f, &[&["--min-rate", "0.9"][..], &strict].concat());
    assert_eq!(code, 1);
    assert!(
        out.starts_with(
            "FAIL wilson95_lower=0.7302 < min_rate=0.9000 [grounded_rate=0.9412 (16/17), wilson95=[0.7302, 0.9895]; rule: require proof"
        ),
        "{out}"
    );
    assert_eq!(
        check(&f, &[&["--min-rate", "0.73"][..], &strict].concat()).0,
        0
    );
    // Boundary: no grounded turn gives a lower bound of exactly 0, which passes 0.
    let zero = log(&[("a", 0, 4, 0, 0, 0)]);
    assert_eq!(
        check(&zero, &[&["--min-rate", "0"][..], &strict].concat()).0,
        0
    );
    assert_eq!(
        check(&zero, &[&["--min-rate", "0.01"][..], &strict].concat()).0,
        1
    );
    // --require-proof means nothing without --confidence.
    assert_eq!(
        run(&[
            "check",
            f.path().to_str().unwrap(),
            "--min-rate",
            "0.9",
            "--require-proof"
        ])
        .0,
        2
    );
}

/// Issue 13: `--confidence` fails only when the data show the rate is
/// below the bar (the Wilson upper bound is under it).
#[test]
fn confidence_fails_only_when_the_upper_bound_is_below_the_bar() {
    let f = log(&[("a", 16, 1, 0, 0, 0)]);
    let (code, out, _) = check(&f, &["--min-rate", "0.9", "--confidence", "0.95"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with(
            "PASS wilson95_upper=0.9895 >= min_rate=0.9000 [grounded_rate=0.9412 (16/17), wilson95=[0.7302, 0.9895]; rule: fail only when the upper bound is below the bar]"
        ),
        "{out}"
    );
    // 10/20 = 0.5: its upper bound 0.7200 is below 0.9.
    let bad = log(&[("a", 10, 10, 0, 0, 0)]);
    let (code, out, _) = check(&bad, &["--min-rate", "0.9", "--confidence", "0.95"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("FAIL wilson95_upper=0.7"), "{out}");
    // Boundary: all grounded gives an upper bound of exactly 1, which passes 1.
    let all = log(&[("a", 3, 0, 0, 0, 0)]);
    assert_eq!(
        check(&all, &["--min-rate", "1", "--confidence", "0.95"]).0,
        0
    );
}

#[test]
fn max_orphans_pass_fail_and_boundary() {
    let f = log(&[("a", 5, 0, 2, 0, 0)]);
    assert_eq!(check(&f, &["--max-orphans", "3"]).0, 0);
    assert_eq!(check(&f, &["--max-orphans", "2"]).0, 0);
    let (code, out, _) = check(&f, &["--max-orphans", "0"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("FAIL orphan_marker=2 > max_orphans=0"),
        "{out}"
    );
}

#[test]
fn max_unobserved_rate_pass_fail_and_boundary() {
    let f = log(&[("a", 3, 0, 0, 1, 0)]); // 1/4 unobserved
    assert_eq!(check(&f, &["--max-unobserved-rate", "0.3"]).0, 0);
    assert_eq!(check(&f, &["--max-unobserved-rate", "0.25"]).0, 0);
    let (code, out, _) = check(&f, &["--max-unobserved-rate", "0.2"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("FAIL unobserved_rate=0.2500 (1/4) > max_unobserved_rate=0.2000"),
        "{out}"
    );
}

#[test]
fn max_invalid_pass_fail_and_boundary() {
    let mut f = log(&[("a", 4, 0, 0, 0, 0)]);
    writeln!(f, "not json").unwrap();
    writeln!(f, "{{\"turn_id\":1}}").unwrap();
    f.flush().unwrap();
    let (code, out, _) = check(&f, &["--min-rate", "0.5"]);
    assert_eq!(code, 3);
    assert!(
        out.starts_with("FAIL input error: 2 invalid line(s), more than --max-invalid 0"),
        "{out}"
    );
    assert_eq!(check(&f, &["--min-rate", "0.5", "--max-invalid", "1"]).0, 3);
    assert_eq!(check(&f, &["--min-rate", "0.5", "--max-invalid", "2"]).0, 0);
}

#[test]
fn unreadable_input_never_passes() {
    let (code, out, _) = run(&["check", "/no/such/log.jsonl", "--min-rate", "0"]);
    assert_eq!(code, 3);
    assert!(out.starts_with("FAIL input error"), "{out}");
}

#[test]
fn empty_log_fails_unless_allowed() {
    let f = log(&[("a", 0, 0, 0, 0, 3)]);
    let (code, out, _) = check(&f, &["--min-rate", "0.9"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("FAIL no turn with retrieval"), "{out}");
    let (code, out, _) = check(&f, &["--min-rate", "0.9", "--allow-empty"]);
    assert_eq!(code, 0);
    assert!(out.contains("warning: no turn with retrieval"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    let f = log(&[("a", 1, 0, 0, 0, 0)]);
    let p = f.path().to_str().unwrap();
    for args in [
        &["check", p][..],
        &["check", p, "--min-rate", "1.5"],
        &["check", p, "--min-rate", "-0.1"],
        &["check", p, "--max-unobserved-rate", "2"],
        &["check", p, "--min-rate", "0.5", "--confidence", "1"],
        &["check", p, "--min-rate", "0.5", "--bogus"],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

#[test]
fn json_document_and_decision_on_stderr() {
    let f = log(&[("a", 3, 1, 0, 0, 0)]);
    let (code, out, err) = run(&[
        "check",
        f.path().to_str().unwrap(),
        "--min-rate",
        "0.8",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let v = json(&out);
    assert_eq!(v["decision"], "fail");
    assert_eq!(v["rollup"]["grounded"], 3);
    assert_eq!(v["input"]["turns"], 4);
    assert!(
        v["gates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["gate"] == "min_rate" && g["outcome"] == "fail")
    );
    assert!(
        err.lines()
            .any(|l| l.starts_with("FAIL grounded_rate=0.7500")),
        "{err}"
    );
}

#[test]
fn junit_is_valid_xml_a_reporter_can_read() {
    use quick_xml::Reader;
    use quick_xml::events::Event;
    let f = log(&[("a", 3, 1, 0, 0, 0), ("b<&>'", 1, 3, 0, 0, 0)]);
    let (code, out, err) = run(&[
        "check",
        f.path().to_str().unwrap(),
        "--min-rate",
        "0.7",
        "--per-agent",
        "--format",
        "junit",
    ]);
    assert_eq!(code, 1);
    assert!(err.starts_with("FAIL "), "{err}");
    let mut reader = Reader::from_str(&out);
    let (mut suites, mut cases, mut failures) = (0, 0, 0);
    let mut root_failures = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "testsuites" => {
                    let a = e.try_get_attribute("failures").unwrap().unwrap();
                    root_failures = Some(
                        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .unwrap()
                            .parse::<u32>()
                            .unwrap(),
                    );
                }
                "testsuite" => {
                    suites += 1;
                    let name = e
                        .try_get_attribute("name")
                        .unwrap()
                        .unwrap()
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .unwrap()
                        .into_owned();
                    assert!(name == "overall" || name.starts_with("agent "), "{name}");
                }
                "testcase" => cases += 1,
                "failure" => failures += 1,
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(suites, 3);
    assert_eq!(cases, 4);
    assert_eq!(failures, 2);
    assert_eq!(root_failures, Some(2));
    assert!(out.contains("agent b&lt;&amp;&gt;&apos;"), "{out}");
}

#[test]
fn github_commands_and_step_summary() {
    let f = log(&[("a", 3, 1, 0, 0, 0)]);
    let summary = tempfile::NamedTempFile::new().unwrap();
    let out = bin()
        .args([
            "check",
            f.path().to_str().unwrap(),
            "--min-rate",
            "0.8",
            "--format",
            "github",
        ])
        .env("GITHUB_STEP_SUMMARY", summary.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "::error title=grounding-audit min_rate::grounded_rate=0.7500 (3/4) < min_rate=0.8000"
        ),
        "{stdout}"
    );
    let md = std::fs::read_to_string(summary.path()).unwrap();
    assert!(md.contains("| scope | gate | outcome |"), "{md}");
    assert!(md.contains("**FAIL grounded_rate=0.7500"), "{md}");
}

#[test]
fn output_file_gets_the_document_and_stdout_the_decision() {
    let f = log(&[("a", 3, 1, 0, 0, 0)]);
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.xml");
    let (code, out, _) = run(&[
        "check",
        f.path().to_str().unwrap(),
        "--min-rate",
        "0.5",
        "--format",
        "junit",
        "--output",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("PASS "));
    assert!(
        std::fs::read_to_string(report)
            .unwrap()
            .starts_with("<?xml")
    );
}

#[test]
fn markdown_and_text_snapshots() {
    let f = log(&[
        ("billing-bot", 3, 2, 1, 0, 0),
        ("support-bot", 5, 0, 0, 1, 1),
    ]);
    let p = f.path().to_str().unwrap();
    let args = ["--min-rate", "0.8", "--per-agent", "--max-orphans", "0"];
    let (_, text, _) = run(&[&["check", p][..], &args].concat());
    let text = text.replace(p, "LOG");
    insta::assert_snapshot!("check_text", text);
    let (_, md, _) = run(&[&["check", p, "--format", "markdown"][..], &args].concat());
    insta::assert_snapshot!("check_markdown", md.replace(p, "LOG"));
}

#[test]
fn unreadable_input_still_gets_a_whole_failing_document_in_every_format() {
    for format in ["json", "junit", "markdown", "github"] {
        let (code, out, err) = run(&[
            "check",
            "/no/such/log.jsonl",
            "--min-rate",
            "0",
            "--format",
            format,
        ]);
        assert_eq!(code, 3, "{format}");
        assert!(
            err.lines().any(|l| l.starts_with("FAIL input error")),
            "{format}: {err}"
        );
        match format {
            "json" => assert_eq!(json(&out)["decision"], "fail"),
            "junit" => {
                assert!(
                    out.starts_with("<?xml") && out.contains("<failure"),
                    "{out}"
                );
                assert!(out.contains(r#"failures="1""#), "{out}");
            }
            "github" => assert!(
                out.contains("::error title=grounding-audit input::"),
                "{out}"
            ),
            _ => assert!(out.contains("**FAIL input error"), "{out}"),
        }
    }
}

const FORMATS: [&str; 5] = ["text", "json", "junit", "github", "markdown"];

/// Runs the binary with stdout a pipe whose read end is already closed, so
/// that the first write to stdout fails with EPIPE. Returns (code, stderr).
fn run_with_closed_stdout(args: &[&str]) -> (i32, String) {
    use std::process::{Command, Stdio};
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(assert_cmd::cargo::cargo_bin("grounding-audit"))
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("CI", "true")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn closed_stdout_keeps_the_decision_and_its_exit_code_in_every_format() {
    let f = log(&[("a", 3, 1, 0, 0, 0)]); // 3/4
    let p = f.path().to_str().unwrap();
    for format in FORMATS {
        for (min, code, word) in [("0.5", 0, "PASS "), ("0.99", 1, "FAIL ")] {
            let (got, err) =
                run_with_closed_stdout(&["check", p, "--min-rate", min, "--format", format]);
            assert_eq!(got, code, "{format} --min-rate {min}: {err}");
            // The decision line reaches stderr, once, even for `text`, whose
            // stdout would have carried it: proof that the write failed.
            let lines: Vec<_> = err.lines().filter(|l| l.starts_with(word)).collect();
            assert_eq!(lines.len(), 1, "{format} --min-rate {min}: {err}");
            assert!(!err.contains("error:"), "{format}: {err}");
        }
        let (got, err) = run_with_closed_stdout(&[
            "check",
            "/no/such/log.jsonl",
            "--min-rate",
            "0",
            "--format",
            format,
        ]);
        assert_eq!(got, 3, "{format}: {err}");
        assert!(
            err.lines().any(|l| l.starts_with("FAIL input error")),
            "{format}: {err}"
        );
    }
    // Same with --output: the document goes to the file, the decision line to
    // the closed stdout, so to stderr instead.
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("g.xml");
    let (got, err) = run_with_closed_stdout(&[
        "check",
        p,
        "--min-rate",
        "0.99",
        "--format",
        "junit",
        "--output",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(got, 1, "{err}");
    assert!(err.starts_with("FAIL "), "{err}");
    assert!(std::fs::read_to_string(&xml).unwrap().contains("<failure"));
}

#[test]
fn a_reader_that_leaves_after_one_byte_does_not_change_the_exit_code() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // 20,000 agents, one failing: every format's document is far larger than
    // a pipe's buffer, so the writer is still writing when the reader leaves.
    let mut spec: Vec<(String, u32, u32, u32, u32, u32)> = (0..20_000)
        .map(|i| (format!("agent-{i:05}"), 1, 0, 0, 0, 0))
        .collect();
    spec.push(("z-failing".into(), 0, 1, 0, 0, 0));
    let spec: Vec<_> = spec
        .iter()
        .map(|(a, b, c, d, e, f)| (a.as_str(), *b, *c, *d, *e, *f))
        .collect();
    let f = log(&spec);
    for format in FORMATS {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("grounding-audit"))
            .args([
                "check",
                f.path().to_str().unwrap(),
                "--min-rate",
                "0.5",
                "--per-agent",
                "--format",
                format,
            ])
            .env_remove("GITHUB_STEP_SUMMARY")
            .env("CI", "true")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{format}: {err}");
        assert!(
            err.lines().any(|l| l.starts_with("FAIL ")
                && l.contains(r#"agent "z-failing" 0.0000 (0/1) < 0.5000"#)),
            "{format}: {err}"
        );
    }
}

#[test]
fn an_agent_named_overall_is_never_the_overall_scope() {
    use quick_xml::Reader;
    use quick_xml::events::Event;
    // Overall 10/12 passes 0.8; the agent called `overall` (1/2) fails.
    let f = log(&[("a", 9, 1, 0, 0, 0), ("overall", 1, 1, 0, 0, 0)]);
    let p = f.path().to_str().unwrap();
    let gate = ["--min-rate", "0.8", "--per-agent"];
    let (code, out, _) = check(&f, &gate);
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().next().unwrap(),
        r#"FAIL agent "overall" 0.5000 (1/2) < 0.8000"#
    );

    let (code, out, _) = run(&[&["check", p, "--format", "json"][..], &gate].concat());
    assert_eq!(code, 1);
    let v = json(&out);
    let rate: Vec<_> = v["gates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["gate"] == "min_rate")
        .map(|g| {
            (
                g["scope"].as_str().unwrap().to_owned(),
                g["agent"].clone(),
                g["outcome"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        rate,
        [
            ("overall".into(), serde_json::Value::Null, "pass".into()),
            ("agent".into(), serde_json::json!("a"), "pass".into()),
            ("agent".into(), serde_json::json!("overall"), "fail".into()),
        ]
    );

    let (code, out, _) = run(&[&["check", p, "--format", "junit"][..], &gate].concat());
    assert_eq!(code, 1);
    // The failure sits in the suite `agent overall`, not in `overall`.
    let mut reader = Reader::from_str(&out);
    let mut suite = String::new();
    let mut suites = Vec::new();
    let mut failures_in = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) => match e.name().as_ref() {
                "testsuite" => {
                    suite = e
                        .try_get_attribute("name")
                        .unwrap()
                        .unwrap()
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .unwrap()
                        .into_owned();
                    suites.push(suite.clone());
                }
                "failure" => failures_in.push(suite.clone()),
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(suites, ["overall", "agent a", "agent overall"]);
    assert_eq!(failures_in, ["agent overall"]);

    let (_, md, _) = run(&[&["check", p, "--format", "markdown"][..], &gate].concat());
    assert!(
        md.contains("| agent overall | min_rate | ❌ fail | 0.5000 | 0.8000 |"),
        "{md}"
    );
    assert!(
        md.contains("| overall | min_rate | ✅ pass | 0.8333 | 0.8000 |"),
        "{md}"
    );
}

#[test]
fn a_rate_just_under_the_bar_never_prints_equal_to_it() {
    // 16/17 at 95%: the Wilson lower bound is 0.730180 (0.7302 at four decimals).
    let f = log(&[("a", 16, 1, 0, 0, 0)]);
    let (code, out, _) = check(
        &f,
        &[
            "--min-rate",
            "0.7302",
            "--confidence",
            "0.95",
            "--require-proof",
        ],
    );
    assert_eq!(code, 1);
    assert!(
        out.starts_with(
            "FAIL wilson95_lower=0.73018 < min_rate=0.73020 [grounded_rate=0.9412 (16/17), wilson95="
        ),
        "{out}"
    );
    // A rate exactly at the bar still prints with four decimals.
    let f = log(&[("a", 3, 1, 0, 0, 0)]);
    let (_, out, _) = check(&f, &["--min-rate", "0.75"]);
    assert!(out.starts_with("PASS grounded_rate=0.7500 (3/4) >= min_rate=0.7500"));
}

#[test]
fn min_turns_0_lists_an_agent_without_retrieval_sensibly() {
    // Agent `quiet` has turns, but none with retrieval.
    let f = log(&[("a", 3, 0, 0, 0, 0), ("quiet", 0, 0, 0, 0, 2)]);
    let (code, out, _) = check(
        &f,
        &["--min-rate", "0.5", "--per-agent", "--min-turns", "0"],
    );
    assert_eq!(code, 0);
    assert!(
        out.contains(r#"agent "quiet": not enough evidence (no turn with retrieval)"#),
        "{out}"
    );
    assert!(!out.contains("< 1)"), "{out}");
    let (_, out, _) = check(
        &f,
        &["--min-rate", "0.5", "--per-agent", "--min-turns", "5"],
    );
    assert!(
        out.contains(r#"agent "a": not enough evidence (3 turn(s) with retrieval < min_turns=5)"#),
        "{out}"
    );
}

#[test]
fn markdown_counts_are_integers() {
    let f = log(&[("a", 566, 0, 2, 0, 0)]);
    let (_, md, _) = run(&[
        "check",
        f.path().to_str().unwrap(),
        "--max-orphans",
        "3",
        "--min-rate",
        "0.5",
        "--format",
        "markdown",
    ]);
    assert!(
        md.contains("| overall | min_turns | ✅ pass | 568 | 1 |"),
        "{md}"
    );
    assert!(
        md.contains("| overall | max_orphans | ✅ pass | 2 | 3 |"),
        "{md}"
    );
    assert!(!md.contains(".0000 |"), "{md}");
}

/// The `grounding-audit check` commands of `docs/ci.md`, every code block,
/// continuation lines joined, YAML list and `run:` prefixes dropped.
fn ci_recipe_commands() -> Vec<Vec<String>> {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md"),
    )
    .unwrap();
    let mut commands = Vec::new();
    let mut in_code = false;
    let mut pending = String::new();
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if !in_code {
            continue;
        }
        let line = line
            .trim()
            .trim_start_matches("- ")
            .trim_start_matches("run: ");
        if pending.is_empty() && !line.starts_with("grounding-audit check") {
            continue;
        }
        pending.push_str(line.trim_end_matches('\\'));
        pending.push(' ');
        if !line.ends_with('\\') {
            commands.push(
                pending
                    .split_whitespace()
                    .skip(1)
                    .map(str::to_owned)
                    .collect(),
            );
            pending.clear();
        }
    }
    assert!(
        pending.is_empty(),
        "a command runs past its block: {pending}"
    );
    commands
}

/// The files `docs/ci.md` shows whole: each TOML block whose first line is
/// a comment naming the file (`# gates.toml`).
fn ci_recipe_files() -> Vec<(String, String)> {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md"),
    )
    .unwrap();
    let mut files = Vec::new();
    for block in page.split("```toml\n").skip(1) {
        let body = block.split("```").next().unwrap();
        let name = body.lines().next().and_then(|l| l.strip_prefix("# "));
        if let Some(name) = name {
            files.push((name.trim().to_owned(), body.to_owned()));
        }
    }
    files
}

/// Every CI recipe of `docs/ci.md`, run in a directory holding
/// `exports/nightly/` and `baseline.json`: each passes on a quiet perfect
/// night and fails on a small terrible one, as the page says, and writes
/// every file it names.
#[test]
fn every_ci_recipe_runs() {
    let commands = ci_recipe_commands();
    // Two threshold recipes, three pipeline ones, the ratchet's two nights
    // and the two HTML ones.
    assert!(commands.len() >= 9, "{commands:?}");
    assert!(
        commands.iter().any(|c| c.iter().any(|a| a == "--ratchet")),
        "{commands:?}"
    );
    assert!(
        commands.iter().any(|c| c.iter().any(|a| a == "--policy")),
        "{commands:?}"
    );
    assert_eq!(ci_recipe_files().len(), 1, "the policy file is shown whole");
    for (grounded, expected) in [(25, 0), (12, 1)] {
        let dir = tempfile::tempdir().unwrap();
        let nightly = dir.path().join("exports").join("nightly");
        std::fs::create_dir_all(&nightly).unwrap();
        let mut f = std::fs::File::create(nightly.join("night.jsonl")).unwrap();
        for agent in ["billing-bot", "support-bot"] {
            for i in 0..25 {
                let reply = if i < grounded { "yes [KB-1]" } else { "none" };
                writeln!(f, r#"{{"turn_id":"{agent}-{i}","agent_id":"{agent}","created_at":"2026-08-02T01:{i:02}:00Z","reply":"{reply}","grounding":{{"chunks":[{{"document_id":"d","score":0.8}}]}}}}"#).unwrap();
            }
        }
        drop(f);
        // The files the page's code blocks write (`# gates.toml` first).
        for (name, text) in ci_recipe_files() {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        // Last week's baseline: the same agents at 0.96.
        std::fs::write(
            dir.path().join("baseline.json"),
            r#"{"totals":{"grounded":48,"with_retrieval":50},"group_by":"agent","groups":[{"key":"billing-bot","grounded":24,"with_retrieval":25},{"key":"support-bot","grounded":24,"with_retrieval":25}]}"#,
        )
        .unwrap();
        for args in &commands {
            let out = bin().current_dir(dir.path()).args(args).output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(expected),
                "grounded {grounded}/25: {args:?}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let outputs = args
                .windows(2)
                .filter(|w| {
                    [
                        "--output",
                        "--junit",
                        "--markdown",
                        "--html",
                        "--write-baseline",
                    ]
                    .contains(&w[0].as_str())
                })
                .map(|w| dir.path().join(&w[1]));
            for path in outputs {
                assert!(path.exists(), "{args:?}: {} not written", path.display());
            }
        }
    }
}

/// The text gate list names each gate's scope, and the decision line and
/// the list quote agent ids: an id with a space, one with a quote, and one
/// called `overall` each read as the one agent they are.
#[test]
fn the_gate_list_names_each_scope_and_agent_ids_are_quoted() {
    let f = log(&[
        ("billing bot", 1, 3, 0, 0, 0),
        (r#"say \"hi\""#, 4, 0, 0, 0, 0),
        ("overall", 1, 1, 1, 0, 0),
    ]);
    let (code, out, _) = check(
        &f,
        &["--min-rate", "0.5", "--per-agent", "--max-orphans", "0"],
    );
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        r#"FAIL orphan_marker=1 > max_orphans=0; agent "billing bot" 0.2500 (1/4) < 0.5000; agent "overall" 0.3333 (1/3) < 0.5000"#
    );
    let gates: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("  pass ") || l.starts_with("  FAIL "))
        .copied()
        .collect();
    assert_eq!(
        gates,
        [
            "  pass  min_turns (overall): turns_with_retrieval=11 >= min_turns=1",
            "  pass  min_rate (overall): grounded_rate=0.5455 (6/11) >= min_rate=0.5000 [wilson95_lower=0.2801]",
            "  FAIL  max_orphans (overall): orphan_marker=1 > max_orphans=0",
            r#"  FAIL  min_rate (agent "billing bot"): 0.2500 (1/4) < 0.5000"#,
            r#"  FAIL  min_rate (agent "overall"): 0.3333 (1/3) < 0.5000"#,
            r#"  pass  min_rate (agent "say \"hi\""): 1.0000 (4/4) >= 0.5000"#,
        ],
        "{out}"
    );
}

/// A drop equal to the limit passes, and so does a rate equal to the bar:
/// gates compare the counts with the decimals written (20/20 then 19/20 is
/// a drop of exactly 0.05, though `1.0 - 0.95` is 0.05000000000000004 in
/// floating point), and print them alike.
#[test]
fn a_drop_equal_to_the_limit_passes_and_prints_equal() {
    let f = log(&[("billing-bot", 19, 1, 0, 0, 0)]);
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.json");
    std::fs::write(
        &base,
        r#"{"totals":{"grounded":20,"with_retrieval":20},"group_by":"agent","groups":[]}"#,
    )
    .unwrap();
    let base = base.to_str().unwrap();
    let (code, out, err) = check(&f, &["--baseline", base, "--max-drop", "0.05"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("drop=0.0500 <= max_drop=0.0500"), "{out}");
    let (code, out, _) = check(&f, &["--baseline", base, "--max-drop", "0.0499"]);
    assert_eq!(code, 1, "{out}");
    let (code, out, _) = check(&f, &["--min-rate", "0.95"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0.9500 (19/20) >= min_rate=0.9500"), "{out}");
}

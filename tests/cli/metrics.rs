//! `summary --format prometheus` and `merge --format prometheus`: the
//! Prometheus text format. Its figures are the JSON summary's; `merge` of
//! partials prints what one pass prints; every fixture's and a hostile
//! corpus's metrics pass `promtool check metrics` with no output at all.
//!
//! The promtool test needs Debian's `prometheus` package (`.ci/run`
//! installs it). When promtool is missing the test says so on stderr and
//! skips, unless `GROUNDING_AUDIT_REQUIRE_PROMTOOL` is set (as `.ci/run`
//! does), when it fails.

use crate::common::{fixture, json, run};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn metrics(args: &[&str]) -> String {
    let mut all = vec!["summary", "--format", "prometheus"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    out
}

/// One sample line: (name, labels as written, value).
type Sample = (String, BTreeMap<String, String>, String);

/// Reads the text format back (the subset this tool writes): `# HELP` and
/// `# TYPE` per family, then samples `name{k="v",…} value`. Panics on
/// anything else, on a family without both headers, or on two samples of a
/// family with the same labels.
fn parse(text: &str) -> Vec<Sample> {
    let mut samples = Vec::new();
    let (mut helped, mut typed) = (BTreeSet::new(), BTreeMap::new());
    let mut seen = BTreeSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let name = rest.split(' ').next().unwrap();
            assert!(helped.insert(name.to_owned()), "second HELP: {line}");
            continue;
        }
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').unwrap();
            assert!(helped.contains(name), "TYPE before HELP: {line}");
            assert!(typed.insert(name.to_owned(), kind.to_owned()).is_none());
            continue;
        }
        let (head, value) = line.rsplit_once(' ').expect("name and value");
        let (name, labels) = match head.split_once('{') {
            None => (head.to_owned(), BTreeMap::new()),
            Some((name, rest)) => {
                let body = rest.strip_suffix('}').expect("closing brace");
                (name.to_owned(), labels_of(body))
            }
        };
        let kind = typed
            .get(&name)
            .unwrap_or_else(|| panic!("no TYPE: {line}"));
        assert!(name.starts_with("grounding_audit_"), "{name}");
        assert!(
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "{name}"
        );
        match kind.as_str() {
            "counter" => assert!(name.ends_with("_total"), "{name}"),
            "gauge" => assert!(!name.ends_with("_total"), "{name}"),
            k => panic!("unexpected type {k}"),
        }
        value.parse::<f64>().expect("numeric value");
        assert!(
            seen.insert((name.clone(), labels.clone())),
            "repeated series: {line}"
        );
        samples.push((name, labels, value.to_owned()));
    }
    samples
}

/// `k="v",…` with the format's escapes (`\\`, `\"`, `\n`) undone.
fn labels_of(body: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut chars = body.chars().peekable();
    while chars.peek().is_some() {
        let key: String = chars.by_ref().take_while(|c| *c != '=').collect();
        assert_eq!(chars.next(), Some('"'), "quoted value for {key}");
        let mut value = String::new();
        loop {
            match chars.next().expect("unterminated label value") {
                '"' => break,
                '\\' => match chars.next() {
                    Some('\\') => value.push('\\'),
                    Some('"') => value.push('"'),
                    Some('n') => value.push('\n'),
                    c => panic!("bad escape {c:?}"),
                },
                '\n' => panic!("raw newline in a label value"),
                c => value.push(c),
            }
        }
        assert!(!value.is_empty(), "empty label value for {key}");
        out.insert(key, value);
        if chars.peek() == Some(&',') {
            chars.next();
        }
    }
    out
}

fn value_of(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> Option<String> {
    let want: BTreeMap<String, String> = labels
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    samples
        .iter()
        .find(|(n, l, _)| n == name && *l == want)
        .map(|(_, _, v)| v.clone())
}

fn demo() -> String {
    fixture("demo.jsonl").to_str().unwrap().to_owned()
}

/// Every figure is the JSON summary's, overall and per agent.
#[test]
fn figures_are_the_json_summarys() {
    let text = metrics(&[&demo()]);
    let samples = parse(&text);
    let (code, out, err) = run(&["summary", "--format", "json", &demo()]);
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    let mut scopes = vec![(vec![], doc["totals"].clone())];
    for g in doc["groups"].as_array().unwrap() {
        scopes.push((vec![("agent", g["key"].as_str().unwrap())], g.clone()));
    }
    assert!(scopes.len() > 2, "demo has several agents");
    for (labels, r) in &scopes {
        let get = |name: &str| value_of(&samples, name, labels).unwrap_or_default();
        assert_eq!(get("grounding_audit_turns_total"), r["turns"].to_string());
        assert_eq!(
            get("grounding_audit_retrieval_turns_total"),
            r["with_retrieval"].to_string()
        );
        assert_eq!(
            get("grounding_audit_grounded_turns_total"),
            r["verdicts"]["ok"].to_string()
        );
        assert_eq!(
            get("grounding_audit_invented_citations_total"),
            r["verdicts"]["orphan_marker"].to_string()
        );
        for (verdict, n) in r["verdicts"].as_object().unwrap() {
            let mut l = labels.clone();
            l.push(("verdict", verdict));
            assert_eq!(
                value_of(&samples, "grounding_audit_verdicts_total", &l),
                Some(n.to_string()),
                "{verdict} {labels:?}"
            );
        }
        assert_eq!(
            get("grounding_audit_sentences_total"),
            r["sentences"].to_string()
        );
        assert_eq!(
            get("grounding_audit_cited_sentences_total"),
            r["cited_sentences"].to_string()
        );
        assert_eq!(
            get("grounding_audit_citation_coverage_ratio")
                .parse::<f64>()
                .ok(),
            r["coverage"].as_f64()
        );
        assert_eq!(
            get("grounding_audit_absent_quotes_total"),
            r["quotes_absent"].to_string()
        );
        assert_eq!(
            get("grounding_audit_hinted_turns_total"),
            r["turns_with_hints"].to_string()
        );
        let rate = get("grounding_audit_grounded_ratio");
        match r["grounded_rate"].as_f64() {
            Some(x) => assert_eq!(rate.parse::<f64>().unwrap(), x),
            None => assert_eq!(rate, ""),
        }
    }
    assert_eq!(
        value_of(&samples, "grounding_audit_invalid_lines_total", &[]),
        Some(doc["input"]["invalid_lines"].to_string())
    );
}

/// The group label is named after `--by`.
#[test]
fn group_label_follows_by() {
    let samples = parse(&metrics(&["--by", "channel", &demo()]));
    let keys: BTreeSet<&str> = samples
        .iter()
        .flat_map(|(_, l, _)| l.keys().map(String::as_str))
        .collect();
    assert_eq!(keys, BTreeSet::from(["channel", "evidence", "verdict"]));
}

/// `merge --format prometheus` over partials of two halves prints what
/// one pass over both prints.
#[test]
fn merge_of_partials_prints_the_one_pass_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("demo.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (a, b) = lines.split_at(lines.len() / 2);
    let path = |n: &str| dir.path().join(n).to_str().unwrap().to_owned();
    std::fs::write(path("a.jsonl"), a.join("\n") + "\n").unwrap();
    std::fs::write(path("b.jsonl"), b.join("\n") + "\n").unwrap();
    for half in ["a", "b"] {
        let (code, _, err) = run(&[
            "summary",
            "--partial",
            &path(&format!("{half}.json")),
            &path(&format!("{half}.jsonl")),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let (code, merged, err) = run(&[
        "merge",
        "--format",
        "prometheus",
        &path("a.json"),
        &path("b.json"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, metrics(&[&path("a.jsonl"), &path("b.jsonl")]));
    assert!(!parse(&merged).is_empty());
}

/// Agent ids that try to break out of a label value, forge a sample or
/// steer a terminal, ids that escape to the same text, and an empty id.
fn hostile_ids() -> Vec<String> {
    [
        "quote\"inside",
        "back\\slash",
        "trailing\\",
        "new\nline",
        "a\u{a}b",
        "a\\u{a}b",
        "x\"} 1\ngrounding_audit_turns_total{agent=\"forged",
        "esc\u{1b}[31mred",
        "bidi\u{202e}txet",
        "zero\u{200b}width",
        "café ☕ 日本語 🤖",
        "tab\tand\rcr",
        "nul\u{0}byte",
        "",
        "#2",
        "  spaces  ",
        "{braces}=,comma",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

fn hostile_log(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for (i, id) in hostile_ids().iter().enumerate() {
        for (j, reply) in ["cites [KB-1]", "no marker", "cites [KB-9]"]
            .iter()
            .enumerate()
        {
            let turn = serde_json::json!({
                "turn_id": format!("h-{i}-{j}"),
                "agent_id": id,
                "channel": id,
                "created_at": "2026-08-01T10:00:00Z",
                "reply": reply,
                "grounding": {"chunks": [{"document_id": "d.md", "score": 0.8}], "model": id},
            });
            text.push_str(&turn.to_string());
            text.push('\n');
        }
    }
    let path = dir.join("hostile-metrics.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

/// Hostile ids: one series per group, every value quoted and escaped, no
/// control character in the output, no forged sample.
#[test]
fn hostile_ids_stay_inside_their_label_values() {
    let dir = tempfile::tempdir().unwrap();
    let log = hostile_log(dir.path());
    for by in ["agent", "channel", "model"] {
        let text = metrics(&["--by", by, log.to_str().unwrap()]);
        assert!(
            !text
                .chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "a control or bidi character reached the output"
        );
        let samples = parse(&text);
        let turns: Vec<&Sample> = samples
            .iter()
            .filter(|(n, _, _)| n == "grounding_audit_turns_total")
            .collect();
        assert_eq!(turns.len(), 1 + hostile_ids().len(), "{by}");
        for (_, labels, value) in &turns[1..] {
            assert_eq!(value, "3", "{labels:?}");
            assert!(labels.contains_key(by));
        }
        assert!(text.contains(r#"="quote\"inside""#), "{text}");
        assert!(text.contains(r#"="back\\slash""#));
        assert!(text.contains("=\"café ☕ 日本語 🤖\""));
        assert!(!text.contains("\ngrounding_audit_turns_total{agent=\"forged"));
    }
}

/// promtool, or None (with a message) when it is missing; with
/// `GROUNDING_AUDIT_REQUIRE_PROMTOOL` set a missing promtool fails.
fn promtool() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("promtool"))
            .find(|p| p.is_file())
    });
    if found.is_some() {
        return found;
    }
    let msg = "promtool is not installed: the metrics were not checked with `promtool check metrics` \
               (install it with `apt-get install -y prometheus`; .ci/run does)";
    if std::env::var_os("GROUNDING_AUDIT_REQUIRE_PROMTOOL").is_some() {
        panic!("{msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

/// `promtool check metrics` on `text`: it must print nothing and exit 0.
fn promtool_accepts(promtool: &Path, what: &str, text: &str) {
    let mut child = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && said.is_empty(),
        "promtool check metrics on {what}: {:?}\n{said}\n{text}",
        out.status.code()
    );
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every fixture, every grouping of the whole fixtures tree, the third-party
/// corpus, a merge and the hostile corpus: promtool accepts each without a
/// word.
#[test]
fn promtool_accepts_every_fixture_and_the_hostile_corpus() {
    let Some(promtool) = promtool() else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    files_under(&root.join("fixtures"), &mut files);
    files.sort();
    let mut checked = 0;
    for f in &files {
        let p = f.to_str().unwrap();
        for by in ["agent", "channel", "model"] {
            let (code, out, _) = run(&["summary", "--format", "prometheus", "--by", by, p]);
            // Not a log, or one the tool refuses (a truncated archive): no metrics.
            if code != 0 {
                continue;
            }
            promtool_accepts(&promtool, &format!("{p} --by {by}"), &out);
            checked += 1;
        }
    }
    assert!(
        checked >= 120,
        "only {checked} fixture runs were summarised"
    );
    let dir = tempfile::tempdir().unwrap();
    let hostile = hostile_log(dir.path());
    // The corpus files that read without flags, as one run; the hostile log.
    let mut corpus = Vec::new();
    files_under(&root.join("tests/corpus/langfuse"), &mut corpus);
    let corpus: Vec<String> = corpus
        .iter()
        .map(|p| p.to_str().unwrap().to_owned())
        .collect();
    for input in [corpus, vec![hostile.to_str().unwrap().to_owned()]] {
        for by in ["agent", "channel", "model"] {
            let mut args = vec!["summary", "--format", "prometheus", "--by", by];
            args.extend(input.iter().map(String::as_str));
            let (code, out, err) = run(&args);
            assert_eq!(code, 0, "{input:?}: {err}");
            promtool_accepts(&promtool, &format!("{input:?} --by {by}"), &out);
        }
    }
    let part = dir.path().join("part.json");
    let part = part.to_str().unwrap();
    let hostile = dir.path().join("hostile-metrics.jsonl");
    assert_eq!(
        run(&["summary", "--partial", part, hostile.to_str().unwrap()]).0,
        0
    );
    let (code, out, err) = run(&["merge", "--format", "prometheus", part, part]);
    assert_eq!(code, 0, "{err}");
    promtool_accepts(&promtool, "merge of the hostile corpus", &out);
}

/// Over a window with a start the counts fall as turns leave it: every
/// count is a gauge without `_total` (a falling counter reads as a reset),
/// with the same figures, and promtool accepts it.
#[test]
fn counts_over_a_window_are_gauges() {
    let all = parse(&metrics(&[&demo()]));
    let since = metrics(&["--since", "3650d", "--now", "2030-01-01T00:00:00Z", &demo()]);
    assert!(!since.contains("_total"), "{since}");
    assert!(!since.contains(" counter\n"), "{since}");
    let windowed = parse(&since);
    assert_eq!(
        value_of(&windowed, "grounding_audit_turns", &[]),
        value_of(&all, "grounding_audit_turns_total", &[])
    );
    assert_eq!(
        value_of(
            &windowed,
            "grounding_audit_invented_citations",
            &[("agent", "billing-bot")]
        ),
        value_of(
            &all,
            "grounding_audit_invented_citations_total",
            &[("agent", "billing-bot")]
        )
    );
    assert!(value_of(&windowed, "grounding_audit_grounded_ratio", &[]).is_some());
    if let Some(promtool) = promtool() {
        promtool_accepts(&promtool, "a windowed summary", &since);
    }
}

/// The alert `docs/metrics.md` gives for a windowed textfile, run by
/// `promtool test rules` on the figures the tool printed at two scrapes a
/// day apart: it fires while an invented citation is in the window, and
/// stops, with no false alarm, when that turn leaves it (a `_total` counter
/// falling there would read as a reset and fire `increase()`).
#[test]
fn the_documented_windowed_alert_stops_when_the_turn_leaves_the_window() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/metrics.md"),
    )
    .unwrap();
    let expr = doc
        .split("the alert is `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("docs/metrics.md gives the windowed alert");
    let at = |now: &str| {
        let text = metrics(&["--since", "1d", "--now", now, &demo()]);
        assert!(!text.contains("_total"), "{text}");
        value_of(&parse(&text), "grounding_audit_invented_citations", &[]).unwrap()
    };
    let (inside, after) = (at("2026-08-03T14:00:00Z"), at("2026-08-04T14:00:00Z"));
    assert_eq!((inside.as_str(), after.as_str()), ("1", "0"));
    let Some(promtool) = promtool() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("rules.yml"),
        format!(
            "groups:\n  - name: grounding\n    rules:\n      - alert: InventedCitations\n        expr: '{expr}'\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("test.yml"),
        format!(
            "rule_files: [rules.yml]\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n      \
             - series: 'grounding_audit_invented_citations{{agent=\"\"}}'\n        values: '{inside} {inside} {inside} {after} {after} {after}'\n    \
             alert_rule_test:\n      - eval_time: 2m\n        alertname: InventedCitations\n        exp_alerts: [{{exp_labels: {{}}}}]\n      \
             - eval_time: 4m\n        alertname: InventedCitations\n        exp_alerts: []\n"
        ),
    )
    .unwrap();
    let out = Command::new(promtool)
        .args(["test", "rules", "test.yml"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "promtool test rules: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

//! Safe output and privacy.
//!
//! `fixtures/hostile/hostile-ids.jsonl` carries agent ids, turn ids,
//! conversation ids, channels, document and chunk ids and model names with
//! terminal escapes, carriage returns, bidi overrides, table pipes,
//! spreadsheet formulas, markup, quotes and newlines. No human-facing format
//! may pass a control character through or let a value add a line or a
//! column; CSV neutralises formulas unless `--csv-raw`; JSON and JUnit XML
//! stay parseable and keep the values as data.
//!
//! `fixtures/hostile/secrets.jsonl` plants a secret in replies, in chunk
//! `content`, in tool arguments and in invalid lines whose parse errors would
//! quote it; no output of `report`, `summary` or `check` may contain it.

use crate::common::{fixture, json, run};

const SECRET: &str = "SECRET-7f3a";

fn hostile(name: &str) -> String {
    fixture(&format!("hostile/{name}")).display().to_string()
}

/// The raw values planted in `hostile-ids.jsonl` (turn ids).
const TURN_IDS: [&str; 9] = [
    "h-esc\u{1b}[31mRED",
    "h-cr\rFORGED",
    "h-bidi\u{202e}txt.exe",
    "h-pipe|col|",
    "=cmd|' /C calc'!A0",
    "h-xml<script>alert(1)</script>",
    "h-quote\"q\"",
    "h-nl\nsecond line",
    "+h-plus",
];

/// Fails when `s` holds a character that could steer a terminal or forge a line.
fn assert_terminal_safe(what: &str, s: &str) {
    for (i, c) in s.char_indices() {
        let bad = (c.is_control() && c != '\n')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200B}'..='\u{200F}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}');
        assert!(!bad, "{what}: unsafe character {:?} at byte {i}:\n{s}", c);
    }
}

/// Every Markdown table row has as many unescaped `|` as its header.
fn assert_markdown_tables_intact(what: &str, s: &str) {
    let pipes = |l: &str| {
        let b = l.as_bytes();
        (0..b.len())
            .filter(|&i| {
                b[i] == b'|' && (i == 0 || b[i - 1] != b'\\' || (i >= 2 && b[i - 2] == b'\\'))
            })
            .count()
    };
    let mut want = None;
    for l in s.lines() {
        if l.starts_with('|') {
            let n = pipes(l);
            match want {
                None => want = Some(n),
                Some(w) => assert_eq!(n, w, "{what}: row changes the column count: {l}"),
            }
        } else {
            want = None;
        }
        assert!(!l.contains("<script>"), "{what}: raw markup: {l}");
    }
}

#[test]
fn human_formats_escape_every_hostile_field() {
    let path = hostile("hostile-ids.jsonl");
    let runs: Vec<Vec<&str>> = vec![
        vec!["report", &path],
        vec!["report", "--all", &path],
        vec!["report", "--format", "markdown", &path],
        vec!["report", "--all", "--format", "markdown", &path],
        vec!["summary", &path],
        vec!["summary", "--format", "markdown", &path],
        vec!["summary", "--by", "channel", &path],
        vec!["summary", "--by", "model", "--format", "markdown", &path],
        vec!["check", "--min-rate", "1", "--per-agent", &path],
        vec![
            "check",
            "--min-rate",
            "1",
            "--per-agent",
            "--format",
            "markdown",
            &path,
        ],
        vec![
            "check",
            "--min-rate",
            "1",
            "--per-agent",
            "--format",
            "github",
            &path,
        ],
        vec!["explain", "h-pipe|col|", &path],
        vec!["explain", "h-pipe|col|", "--show-text", &path],
        vec!["explain", "=cmd|' /C calc'!A0", &path],
    ];
    for args in runs {
        let what = args.join(" ");
        let (code, out, err) = run(&args);
        assert!(code == 0 || code == 1, "{what}: exit {code}: {err}");
        assert_terminal_safe(&what, &out);
        assert_terminal_safe(&format!("{what} (stderr)"), &err);
        if args.contains(&"markdown") {
            assert_markdown_tables_intact(&what, &out);
        }
    }
}

#[test]
fn the_streamed_table_has_one_line_per_row() {
    let (code, out, _) = run(&["report", "--all", &hostile("hostile-ids.jsonl")]);
    assert_eq!(code, 0);
    // Header, nine rows, the rows line, two summary lines and the input line.
    assert_eq!(out.lines().count(), 1 + 9 + 4, "{out}");
    // The boxed table: every line has the same width.
    let (_, out, _) = run(&["report", &hostile("hostile-ids.jsonl")]);
    let table: Vec<&str> = out
        .lines()
        .take_while(|l| !l.starts_with("page "))
        .collect();
    assert_eq!(table.len(), 3 + 9 + 1, "{out}");
    let width = table[0].chars().count();
    for l in &table {
        assert_eq!(l.chars().count(), width, "forged table line: {l}");
    }
    // Escapes are visible, not dropped.
    assert!(out.contains("h-esc\\u{1b}[31mRED"), "{out}");
    assert!(out.contains("h-bidi\\u{202e}txt.exe"), "{out}");
}

#[test]
fn markdown_cells_escape_pipes_and_markup() {
    let (_, out, _) = run(&[
        "report",
        "--format",
        "markdown",
        &hostile("hostile-ids.jsonl"),
    ]);
    assert!(out.contains("h-pipe\\|col\\|"), "{out}");
    assert!(out.contains("&lt;script>"), "{out}");
}

/// The text columns of `report --format csv`.
const CSV_TEXT_COLUMNS: [&str; 7] = [
    "turn_id",
    "agent_id",
    "conversation_id",
    "channel",
    "document_ids",
    "chunk_ids",
    "model",
];

fn csv_records(s: &str) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut r = csv::Reader::from_reader(s.as_bytes());
    let header = r.headers().expect("a header").clone();
    let rows = r.records().map(|x| x.expect("a valid record")).collect();
    (header, rows)
}

fn formula_like(v: &str) -> bool {
    v.starts_with(['=', '+', '-', '@', '\t', '\r'])
}

#[test]
fn csv_neutralises_formulas_unless_csv_raw() {
    let path = hostile("hostile-ids.jsonl");
    for all in [false, true] {
        let mut args = vec!["report", "--format", "csv", &path];
        if all {
            args.push("--all");
        }
        let (code, out, _) = run(&args);
        assert_eq!(code, 0);
        let (header, rows) = csv_records(&out);
        assert_eq!(rows.len(), 9);
        let mut neutralised = 0;
        for r in &rows {
            for col in CSV_TEXT_COLUMNS {
                let i = header.iter().position(|h| h == col).unwrap();
                let v = &r[i];
                assert!(
                    !formula_like(v),
                    "{col} = {v:?} reaches the spreadsheet as a formula"
                );
                neutralised += usize::from(v.starts_with('\''));
            }
        }
        assert!(neutralised >= 8, "{out}");
        // The values themselves survive, after the quote mark.
        let ids: Vec<String> = rows
            .iter()
            .map(|r| r[0].trim_start_matches('\'').to_owned())
            .collect();
        for id in TURN_IDS {
            assert!(ids.iter().any(|x| x == id), "{id:?} lost: {ids:?}");
        }
        args.push("--csv-raw");
        let (_, raw, _) = run(&args);
        let (_, rows) = csv_records(&raw);
        assert!(rows.iter().any(|r| &r[0] == "=cmd|' /C calc'!A0"), "{raw}");
        assert!(rows.iter().any(|r| &r[0] == "+h-plus"), "{raw}");
    }
    for section in ["groups", "triage"] {
        let (code, out, _) = run(&[
            "summary",
            "--format",
            "csv",
            "--section",
            section,
            "--by",
            "model",
            &path,
        ]);
        assert_eq!(code, 0);
        let (_, rows) = csv_records(&out);
        for r in &rows {
            for v in r.iter() {
                assert!(!formula_like(v), "summary {section}: {v:?}");
            }
        }
    }
    let (_, out, _) = run(&[
        "summary",
        "--format",
        "csv",
        "--section",
        "groups",
        "--csv-raw",
        &path,
    ]);
    assert!(out.contains("=cmd|' /C calc'!A0"), "{out}");
}

#[test]
fn json_keeps_hostile_values_as_data() {
    let path = hostile("hostile-ids.jsonl");
    let (_, out, _) = run(&["report", "--format", "json", &path]);
    let doc = json(&out);
    let ids: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["turn_id"].as_str().unwrap())
        .collect();
    for id in TURN_IDS {
        assert!(ids.contains(&id), "{id:?} not round-tripped");
    }
    assert!(
        !out.contains('\u{1b}') && !out.contains('\r'),
        "raw control in JSON"
    );
    let (_, out, _) = run(&["report", "--all", "--format", "jsonl", &path]);
    for l in out.lines() {
        json(l);
    }
    assert_eq!(out.lines().count(), 9);
    for args in [
        vec!["summary", "--format", "json", &path],
        vec![
            "check",
            "--min-rate",
            "1",
            "--per-agent",
            "--format",
            "json",
            &path,
        ],
        vec!["explain", "h-nl\nsecond line", "--format", "json", &path],
    ] {
        let (_, out, _) = run(&args);
        json(&out);
    }
}

#[test]
fn junit_xml_is_well_formed_with_hostile_agent_ids() {
    let path = hostile("hostile-ids.jsonl");
    let (code, out, _) = run(&[
        "check",
        "--min-rate",
        "1",
        "--per-agent",
        "--format",
        "junit",
        &path,
    ]);
    assert_eq!(code, 0, "{out}");
    let mut reader = quick_xml::Reader::from_str(&out);
    let mut suites = Vec::new();
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e)) if e.name().as_ref() == "testsuite" => {
                let name = e
                    .try_get_attribute("name")
                    .expect("a well-formed attribute")
                    .expect("a name")
                    .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                    .expect("escaped")
                    .into_owned();
                suites.push(name);
            }
            Ok(_) => {}
            Err(e) => panic!("not well-formed XML ({e}):\n{out}"),
        }
    }
    assert!(suites.contains(&"agent <script>".to_owned()), "{suites:?}");
    assert!(
        suites.contains(&"agent =cmd|' /C calc'!A0".to_owned()),
        "{suites:?}"
    );
    assert!(!out.contains("<script>"), "{out}");
    assert!(!out.contains('\u{1b}'), "{out}");
}

#[test]
fn error_messages_escape_hostile_paths() {
    let dir = tempfile::tempdir().unwrap();
    let evil = dir.path().join("evil\u{1b}[2J\u{202e}.jsonl");
    let p = evil.display().to_string();
    let (code, _, err) = run(&["report", &p]);
    assert_eq!(code, 3);
    assert_terminal_safe("missing hostile path", &err);
    assert!(err.contains("evil\\u{1b}[2J\\u{202e}.jsonl"), "{err}");
    std::fs::write(&evil, b"not json\n").unwrap();
    let (code, _, err) = run(&["report", "--strict", &p]);
    assert_eq!(code, 3);
    assert_terminal_safe("strict hostile path", &err);
    let (_, _, err) = run(&["report", &p]);
    assert_terminal_safe("invalid line in hostile path", &err);
    let (_, out, _) = run(&["check", "--min-rate", "0", &p]);
    assert_terminal_safe("check on hostile path", &out);
}

/// Every way to run `report`, `summary` and `check` over one input.
fn every_format(path: &str) -> Vec<Vec<String>> {
    let mut runs = Vec::new();
    for f in ["table", "json", "jsonl", "csv", "markdown"] {
        runs.push(vec!["report", "--format", f, path]);
        runs.push(vec!["report", "--all", "--format", f, path]);
    }
    for f in ["table", "json", "markdown"] {
        runs.push(vec!["summary", "--format", f, path]);
    }
    for s in ["groups", "days", "triage"] {
        runs.push(vec!["summary", "--format", "csv", "--section", s, path]);
    }
    for f in ["text", "json", "junit", "github", "markdown"] {
        runs.push(vec![
            "check",
            "--min-rate",
            "0.5",
            "--per-agent",
            "--format",
            f,
            path,
        ]);
        runs.push(vec![
            "check",
            "--max-orphans",
            "0",
            "--max-invalid",
            "100",
            "--format",
            f,
            path,
        ]);
    }
    runs.into_iter()
        .map(|r| r.into_iter().map(str::to_owned).collect())
        .collect()
}

#[test]
fn a_secret_in_replies_and_chunks_never_reaches_any_output() {
    let path = hostile("secrets.jsonl");
    let raw = std::fs::read_to_string(&path).unwrap();
    assert!(
        raw.matches(SECRET).count() >= 9,
        "the fixture plants the secret"
    );
    for args in every_format(&path) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let what = args.join(" ");
        let (code, out, err) = run(&args);
        assert!(matches!(code, 0 | 1 | 3), "{what}: exit {code}: {err}");
        assert!(!out.contains(SECRET), "{what}: secret on stdout:\n{out}");
        assert!(!err.contains(SECRET), "{what}: secret on stderr:\n{err}");
        assert!(
            !out.contains("7f3a") && !err.contains("7f3a"),
            "{what}: part of the secret"
        );
    }
    // Invalid-line messages are printed, and redacted.
    let (_, _, err) = run(&["report", &path]);
    // They name the field and its type, never the value.
    assert!(
        err.contains(&format!(
            "{path}:3: field `grounding.chunks[]`: expected an object, found a string"
        )),
        "{err}"
    );
    // With --strict too.
    let (code, _, err) = run(&["report", "--strict", &path]);
    assert_eq!(code, 3);
    assert!(!err.contains(SECRET), "{err}");
}

#[test]
fn explain_shows_the_reply_only_with_show_text() {
    let path = hostile("secrets.jsonl");
    for id in ["s-1", "s-2"] {
        for f in ["text", "json"] {
            let (code, out, err) = run(&["explain", id, "--format", f, &path]);
            assert_eq!(code, 0, "{err}");
            assert!(
                !out.contains(SECRET) && !err.contains(SECRET),
                "explain {id} {f}:\n{out}"
            );
        }
    }
    // The opt-in works, so the test above would notice a leak.
    let (_, out, _) = run(&["explain", "s-1", "--show-text", &path]);
    assert!(out.contains(SECRET), "{out}");
}

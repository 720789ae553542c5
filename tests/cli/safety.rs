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
    // Header, nine rows, the rows line, three summary lines (counts,
    // verdicts, coverage) and the input line.
    assert_eq!(out.lines().count(), 1 + 9 + 5, "{out}");
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

/// `workflow-invisible-ids.jsonl`: ids that would run GitHub workflow
/// commands at the start of a line, an OSC 52 clipboard write, the
/// invisible and bidi characters, and a turn id that reads as a flag.
const RED_TEAM: &str = "workflow-invisible-ids.jsonl";

/// Runs with `GITHUB_ACTIONS` set to `actions`: (exit code, stdout, stderr).
fn run_actions(actions: &str, args: &[&str]) -> (i32, String, String) {
    let out = crate::common::bin()
        .env("GITHUB_ACTIONS", actions)
        .args(args)
        .output()
        .expect("binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// The token of a stdout that opens a stop-commands stretch on its first
/// line, and the lines after the line that closes it; fails when either is
/// missing.
fn stretch<'a>(what: &str, out: &'a str) -> (String, Vec<&'a str>) {
    let lines: Vec<&str> = out.lines().collect();
    let token = lines
        .first()
        .and_then(|l| l.strip_prefix("::stop-commands::"))
        .unwrap_or_else(|| panic!("{what}: does not open with stop-commands:\n{out}"));
    assert!(
        token.len() >= 32 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{what}: token {token:?}"
    );
    let end = format!("::{token}::");
    let close = lines
        .iter()
        .position(|l| *l == end)
        .unwrap_or_else(|| panic!("{what}: never resumes commands:\n{out}"));
    (token.to_owned(), lines[close + 1..].to_vec())
}

#[test]
fn under_github_actions_human_stdout_cannot_start_a_workflow_command() {
    let path = hostile(RED_TEAM);
    let runs: Vec<Vec<&str>> = vec![
        vec!["report", &path],
        vec!["report", "--all", &path],
        vec!["report", "--format", "csv", &path],
        vec!["report", "--all", "--format", "csv", "--csv-raw", &path],
        vec!["report", "--format", "markdown", &path],
        vec!["summary", &path],
        vec!["summary", "--format", "csv", "--section", "triage", &path],
        vec!["summary", "--format", "markdown", &path],
        vec!["check", "--min-rate", "1", "--per-agent", &path],
        vec!["check", "--min-rate", "1", "--format", "markdown", &path],
        vec!["explain", "--", "::add-mask::x", &path],
        vec!["inspect", &path],
    ];
    let mut tokens = std::collections::BTreeSet::new();
    for args in runs {
        let what = args.join(" ");
        let (code, out, err) = run_actions("true", &args);
        assert!(code == 0 || code == 1, "{what}: exit {code}: {err}");
        let (token, after) = stretch(&what, &out);
        assert!(
            after.is_empty(),
            "{what}: output after the stretch: {after:?}"
        );
        assert!(tokens.insert(token), "{what}: a token seen before");
    }
    // The data is there, inside the stretch, unchanged for CSV.
    let (_, out, _) = run_actions("true", &["report", "--all", "--format", "csv", &path]);
    assert!(
        out.lines().any(|l| l.starts_with("::add-mask::x,")),
        "{out}"
    );
}

#[test]
fn workflow_commands_and_documents_are_not_wrapped() {
    let path = hostile(RED_TEAM);
    // Annotations are workflow commands: never stopped.
    let (code, out, _) = run_actions(
        "true",
        &["check", "--min-rate", "1", "--format", "github", &path],
    );
    assert_eq!(code, 1);
    assert!(!out.contains("stop-commands"), "{out}");
    assert!(
        out.lines()
            .all(|l| l.starts_with("::error") || l.starts_with("::warning")),
        "{out}"
    );
    // Next to a human format, they follow the stretch.
    let (_, out, _) = run_actions("true", &["check", "--min-rate", "1", "--github", &path]);
    let (_, after) = stretch("check --github", &out);
    assert!(
        !after.is_empty() && after.iter().all(|l| l.starts_with("::error")),
        "{out}"
    );
    // Machine documents stay exact.
    for args in [
        vec!["report", "--format", "json", path.as_str()],
        vec!["summary", "--format", "json", path.as_str()],
        vec![
            "check",
            "--min-rate",
            "1",
            "--format",
            "json",
            path.as_str(),
        ],
    ] {
        let (_, out, _) = run_actions("true", &args);
        json(&out);
    }
    let (_, out, _) = run_actions("true", &["report", "--format", "jsonl", &path]);
    assert!(out.lines().all(|l| l.starts_with('{')), "{out}");
    // Outside Actions nothing changes.
    for actions in ["false", ""] {
        let (_, out, _) = run_actions(actions, &["report", "--format", "csv", &path]);
        assert!(out.starts_with("turn_id,"), "{actions:?}: {out}");
    }
}

#[test]
fn csv_to_a_pipe_keeps_an_osc52_id_byte_for_byte() {
    let path = hostile(RED_TEAM);
    let (code, out, _) = run(&["report", "--all", "--format", "csv", &path]);
    assert_eq!(code, 0);
    let (_, rows) = csv_records(&out);
    let ids: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
    assert!(ids.contains(&"h-osc\u{1b}]52;c;aGVsbG8=\u{7}"), "{ids:?}");
    assert!(ids.contains(&"h-tag\u{E0041}\u{E007F}"), "{ids:?}");
}

/// The invisible and bidi characters planted in the red-team ids.
const INVISIBLE: [char; 15] = [
    '\u{061C}',
    '\u{00AD}',
    '\u{2061}',
    '\u{2064}',
    '\u{206A}',
    '\u{206F}',
    '\u{FFF9}',
    '\u{FFFA}',
    '\u{FFFB}',
    '\u{FEFF}',
    '\u{E0041}',
    '\u{E007F}',
    '\u{034F}',
    '\u{3164}',
    '\u{1b}',
];

#[test]
fn invisible_and_bidi_characters_are_escaped_in_every_human_format() {
    let path = hostile(RED_TEAM);
    let runs: Vec<Vec<&str>> = vec![
        vec!["report", &path],
        vec!["report", "--all", &path],
        vec!["report", "--format", "markdown", &path],
        vec!["summary", &path],
        vec!["summary", "--format", "markdown", &path],
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
        vec!["explain", "h-tag\u{E0041}\u{E007F}", &path],
        vec![
            "explain",
            "h-ann\u{FFF9}x\u{FFFA}\u{FFFB}",
            "--show-text",
            &path,
        ],
    ];
    for args in runs {
        let what = args.join(" ");
        let (code, out, err) = run(&args);
        assert!(code == 0 || code == 1, "{what}: exit {code}: {err}");
        for c in INVISIBLE {
            assert!(!out.contains(c), "{what}: raw U+{:04X}:\n{out}", c as u32);
        }
        if what.starts_with("explain h-tag") {
            assert!(out.contains("h-tag\\u{e0041}\\u{e007f}"), "{what}:\n{out}");
        }
    }
}

/// Splits a shell line into words: plain words and '…' quotes, as
/// `shell::word` writes them.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut cur, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            ' ' if !quoted => {
                if any || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        words.push(cur);
    }
    words
}

#[test]
fn a_suggested_explain_command_explains_a_turn_id_that_reads_as_a_flag() {
    let path = hostile(RED_TEAM);
    let (code, html, err) = run(&["summary", "--format", "html", "--markers", "kb", &path]);
    assert_eq!(code, 0, "{err}");
    let line = html
        .split("<code class=\"cmd\">")
        .skip(1)
        .map(|s| s.split("</code>").next().unwrap().replace("&#39;", "'"))
        .find(|c| c.contains("--show-text"))
        .unwrap_or_else(|| panic!("no command for the turn --show-text"));
    assert!(line.contains(" -- --show-text "), "{line}");
    let words = shell_words(&line);
    assert_eq!(words[..2], ["grounding-audit", "explain"], "{line}");
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{line}: {err}");
    assert!(out.contains("--show-text"), "{line}: {out}");
    assert!(out.contains("no_marker"), "{line}: {out}");
    // It names the turn, and did not turn on --show-text: the reply stays out.
    assert!(!out.contains("no marker here"), "{line}: {out}");
}

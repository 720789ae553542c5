//! The `exchange` dialect: recorded provider API calls graded by their
//! structured citations. The self-written fixture names each line's
//! expected verdict in its id (`provider.verdict.n`); the recordings in
//! `../shared/provider-citations/` are wrapped into exchange lines here and
//! held to what their MANIFEST.md says was checked.

use crate::common::{fixture, run, shared};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Grades `path` and returns each turn's row as JSON, by turn id.
pub(crate) fn rows(path: &Path) -> BTreeMap<String, Value> {
    report_rows(&["--input-format", "exchange"], path)
}

/// `report --all --format json` of `path` with `flags`: each row by turn id.
pub(crate) fn report_rows(flags: &[&str], path: &Path) -> BTreeMap<String, Value> {
    let mut args = vec!["report", "--all", "--format", "json"];
    args.extend_from_slice(flags);
    args.push(path.to_str().unwrap());
    let (code, out, err) = run(&args);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let doc: Value = serde_json::from_str(&out).expect("report --format json is JSON");
    let list = doc.get("rows").or(doc.get("turns")).unwrap_or(&doc);
    list.as_array()
        .expect("rows")
        .iter()
        .map(|r| (r["turn_id"].as_str().unwrap().to_owned(), r.clone()))
        .collect()
}

/// What a call's citations decide in a report row: a recording graded in
/// another shape (a trace span, a run, a generation) agrees on each.
pub(crate) const GRADED: [&str; 13] = [
    "verdict",
    "markers_from",
    "marker_count",
    "cited_chunks",
    "out_of_range_markers",
    "malformed_markers",
    "chunks",
    "sentences",
    "cited_sentences",
    "quotes_exact",
    "quotes_normalised",
    "quotes_absent",
    "offsets_mismatched",
];

#[test]
fn fixture_lines_grade_as_their_ids_say() {
    let f = fixture("exchange/providers.jsonl");
    let rows = rows(&f);
    let lines = std::fs::read_to_string(&f).unwrap().lines().count();
    assert_eq!(rows.len(), lines, "every line is a turn");
    for (id, row) in &rows {
        let mut parts = id.split('.');
        let (provider, verdict) = (parts.next().unwrap(), parts.next().unwrap());
        assert_eq!(row["verdict"], verdict, "{id}");
        assert_eq!(row["markers_from"], provider, "{id}");
    }
    for provider in [
        "anthropic",
        "openai",
        "cohere",
        "gemini",
        "bedrock",
        "perplexity",
    ] {
        for verdict in ["ok", "orphan_marker"] {
            assert!(
                rows.keys()
                    .any(|k| k.starts_with(&format!("{provider}.{verdict}."))),
                "{provider} has a {verdict} line"
            );
        }
        assert!(
            rows.contains_key(&format!("{provider}.ok.stream")),
            "{provider} stream"
        );
    }
}

#[test]
fn exchange_files_are_detected_without_the_flag() {
    let f = fixture("exchange/providers.jsonl");
    let (code, out, err) = run(&["inspect", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("exchange"), "{out}");
}

/// The `data:` objects of a server-sent-events body, in order.
fn sse(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| serde_json::from_str(d.trim()).ok())
        .collect()
}

/// One recording: its file stem and its exchange line.
#[derive(Clone)]
pub(crate) struct Recording {
    pub(crate) provider: String,
    pub(crate) stem: String,
    pub(crate) stream: bool,
    pub(crate) line: Value,
}

/// Wraps every request/response pair of `dir` into an exchange line (a
/// response-only recording gets an empty request; a stream's body becomes
/// `events`).
pub(crate) fn recordings(dir: &Path) -> Vec<Recording> {
    let mut out = Vec::new();
    let mut providers: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    providers.sort_by_key(|e| e.path());
    for p in providers.iter().filter(|p| p.path().is_dir()) {
        let provider = p.file_name().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(p.path()).unwrap().flatten().collect();
        files.sort_by_key(|e| e.path());
        for f in files {
            let name = f.file_name().to_string_lossy().into_owned();
            let Some(cut) = name.find(".response.") else {
                continue;
            };
            let stem = name[..cut].to_owned();
            let body = std::fs::read_to_string(f.path()).unwrap();
            let response = if name.ends_with(".response.json") {
                serde_json::from_str(&body).unwrap()
            } else if name.ends_with(".sse.txt") {
                json!({ "events": sse(&body) })
            } else if name.ends_with(".jsonl") || name.ends_with(".chunks.txt") {
                let events: Vec<Value> = body
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect();
                json!({ "events": events })
            } else {
                continue;
            };
            // The MANIFEST: this earlier recording's request is identical to
            // ruby_llm__pdf_documents' and is not kept twice.
            let req_stem = stem.replace("ruby_llm_f6c0e660__", "ruby_llm__");
            let request =
                std::fs::read_to_string(p.path().join(format!("{req_stem}.request.json")))
                    .map(|s| serde_json::from_str(&s).unwrap())
                    .unwrap_or(json!({}));
            let stream = response.get("events").is_some();
            let line = json!({
                "id": format!("{provider}/{stem}"),
                "created_at": "2026-01-01T00:00:00Z",
                "agent_id": provider,
                "request": request,
                "response": response,
            });
            out.push(Recording {
                provider: provider.clone(),
                stem,
                stream,
                line,
            });
        }
    }
    out
}

/// The non-streamed recordings of `dir` and their exchange lines' rows, by
/// line id: what a recording placed in another shape is held to.
pub(crate) fn non_streamed(dir: &Path) -> (Vec<Recording>, BTreeMap<String, Value>) {
    let recs: Vec<Recording> = recordings(dir).into_iter().filter(|r| !r.stream).collect();
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    (recs, rows)
}

/// Grades exchange lines through the binary.
pub(crate) fn grade(lines: &[&Value]) -> BTreeMap<String, Value> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exchange.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    rows(&path)
}

/// What MANIFEST.md's table of automated checks says of each response file
/// it lists: the citations it holds.
fn manifest_counts(manifest: &str) -> BTreeMap<String, u64> {
    manifest
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let file = cells.get(1)?;
            let n: u64 = cells.get(2)?.parse().ok()?;
            file.contains(".response").then(|| (file.to_string(), n))
        })
        .collect()
}

fn manifest_file(r: &Recording, counts: &BTreeMap<String, u64>) -> Option<u64> {
    counts
        .iter()
        .find(|(f, _)| f.starts_with(&format!("{}/{}.response", r.provider, r.stem)))
        .map(|(_, n)| *n)
}

#[test]
fn shared_recordings_grade_as_the_manifest_checked() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.md")).unwrap();
    let counts = manifest_counts(&manifest);
    let recs: Vec<Recording> = recordings(&dir).into_iter().collect();
    assert!(recs.len() >= 30, "{} recordings", recs.len());
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    assert_eq!(rows.len(), recs.len(), "every recording is one turn");
    let mut per_provider: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for r in &recs {
        let row = &rows[r.line["id"].as_str().unwrap()];
        let seen = per_provider.entry(&r.provider).or_default();
        seen.0 += 1;
        let want = match manifest_file(r, &counts) {
            Some(0) => "no_marker",
            Some(_) => "ok",
            // Not in the table of checks: a recording that cites (its
            // citations resolve, as in every checked one) is ok; one that
            // carries none (a tool call, a follow-up without search) is not
            // counted.
            None if row["marker_count"] != 0 => "ok",
            None => continue,
        };
        assert_eq!(row["verdict"], want, "{}: {row}", r.stem);
        seen.1 += 1;
        // OpenRouter's Perplexity passthrough has the shape of OpenAI chat.
        let from = if r.stem.contains("openrouter") {
            "openai"
        } else {
            r.provider.as_str()
        };
        assert_eq!(row["markers_from"], from, "{}", r.stem);
    }
    eprintln!("recordings graded, citation-bearing: {per_provider:?}");
}

/// A Perplexity `[n]` marker.
static MARKER: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"\[(\d+)\]").unwrap());

/// Points every citation of a response outside what was given or returned.
fn mutate(v: &mut Value, parent: &str) {
    match v {
        Value::Object(m) => {
            let kind = m
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            for (k, x) in m.iter_mut() {
                match (k.as_str(), &kind[..]) {
                    (
                        "document_index"
                        | "search_result_index"
                        | "documentIndex"
                        | "searchResultIndex",
                        _,
                    ) => *x = json!(x.as_u64().unwrap_or(0) + 1000),
                    ("url", "web_search_result_location" | "url_citation")
                    | ("file_id", "file_citation") => *x = json!("https://outside.invalid/"),
                    ("groundingChunkIndices", _) => {
                        for i in x.as_array_mut().into_iter().flatten() {
                            *i = json!(i.as_u64().unwrap_or(0) + 1000);
                        }
                    }
                    ("document_ids", _) => *x = json!(["outside"]),
                    ("retrievedReferences", _) => *x = json!([]),
                    ("id", _) if parent == "sources" => *x = json!("outside"),
                    ("text", _) if parent == "document" => *x = json!("outside"),
                    ("content", _) if x.is_string() && parent == "message" => {
                        let s = x.as_str().unwrap();
                        *x = json!(MARKER.replace_all(s, "[${1}000]").into_owned());
                    }
                    _ => mutate(x, k),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| mutate(x, parent)),
        _ => {}
    }
}

#[test]
fn citations_pointed_outside_are_orphans() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let counts = manifest_counts(&std::fs::read_to_string(dir.join("MANIFEST.md")).unwrap());
    let mut recs: Vec<Recording> = recordings(&dir)
        .into_iter()
        .filter(|r| manifest_file(r, &counts) != Some(0))
        .collect();
    let before = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    recs.retain(|r| before[r.line["id"].as_str().unwrap()]["verdict"] == "ok");
    for r in &mut recs {
        mutate(&mut r.line["response"], "");
    }
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    let mut orphans = 0;
    for r in &recs {
        let row = &rows[r.line["id"].as_str().unwrap()];
        // OpenAI returns no search results without `include`, chat
        // completions and Bedrock's Nova web grounding never do: the chunks
        // are then the sources the citations name, so nothing can point
        // outside them.
        let unchecked = row["markers_from"] == "openai"
            && !r.line["request"]["include"].to_string().contains("results")
            || row["markers_from"] == "bedrock"
                && r.line["response"].to_string().contains("\"web\":{");
        let want = if unchecked { "ok" } else { "orphan_marker" };
        assert_eq!(row["verdict"], want, "{}: {row}", r.stem);
        orphans += u32::from(!unchecked);
    }
    eprintln!(
        "{orphans} of {} recordings turn orphan_marker when pointed outside",
        recs.len()
    );
    assert!(orphans >= 25, "{orphans} recordings checked for orphans");
}

#[test]
fn each_stream_grades_like_its_twin() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let recs: Vec<Recording> = recordings(&dir).into_iter().collect();
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    let mut twins = 0;
    for s in recs.iter().filter(|r| r.stream) {
        let plain = s.stem.replace("_stream", "").replace("stream_", "");
        let Some(twin) = recs
            .iter()
            .find(|r| !r.stream && r.provider == s.provider && r.stem == plain)
        else {
            continue;
        };
        let (a, b) = (
            &rows[s.line["id"].as_str().unwrap()],
            &rows[twin.line["id"].as_str().unwrap()],
        );
        for key in ["verdict", "markers_from"] {
            assert_eq!(a[key], b[key], "{} vs {}: {key}", s.stem, twin.stem);
        }
        // Twins are separate calls whose answers may differ: their checks
        // come out alike (each stream's own figures are held to its body
        // by `restreamed_bodies_keep_their_support`).
        let (x, y) = (support(a), support(b));
        assert!(x[0] > 0 && y[0] > 0, "{} vs {}", s.stem, twin.stem);
        assert_eq!(
            x[2] + x[3] > 0,
            y[2] + y[3] > 0,
            "{} vs {}",
            s.stem,
            twin.stem
        );
        assert_eq!(x[4..6], y[4..6], "{} vs {}", s.stem, twin.stem);
        twins += 1;
    }
    eprintln!("{twins} streams grade like their non-streamed twin");
    assert!(twins >= 4, "{twins} streams with a non-streamed twin");
}

/// `--partial` and `merge` over any split of the fixture print what one
/// pass over the same files prints, for summary and report.
#[test]
fn partials_of_exchange_lines_merge_to_one_pass() {
    let text = std::fs::read_to_string(fixture("exchange/providers.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dir = tempfile::tempdir().unwrap();
    for cut in [1, lines.len() / 3, lines.len() / 2, lines.len() - 1] {
        let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
        std::fs::write(&a, lines[..cut].join("\n") + "\n").unwrap();
        std::fs::write(&b, lines[cut..].join("\n") + "\n").unwrap();
        let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
        for command in ["summary", "report"] {
            let mut partials = Vec::new();
            for (i, part) in [a, b].into_iter().enumerate() {
                let p = dir.path().join(format!("{command}{i}.json"));
                let p = p.to_str().unwrap().to_owned();
                let (code, _, err) = run(&[command, "--partial", &p, part]);
                assert_eq!(code, 0, "{err}");
                partials.push(p);
            }
            let (_, merged, err) = run(&["merge", "--format", "json", &partials[0], &partials[1]]);
            assert!(err.is_empty() || !merged.is_empty(), "{err}");
            let (_, one, _) = run(&[command, "--format", "json", a, b]);
            assert_eq!(merged, one, "{command} split at {cut}");
            assert!(one.contains("\"markers_from\": \"gemini\"") || command == "summary");
        }
    }
}

/// `convert` writes exchange turns as native lines whose
/// `grounding.citations` grade to the same verdicts.
#[test]
fn converted_exchange_lines_keep_their_verdicts() {
    let f = fixture("exchange/providers.jsonl");
    let (code, native, err) = run(&["convert", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("native.jsonl");
    std::fs::write(&out, native).unwrap();
    let (code, text, err) = run(&["report", "--all", "--format", "json", out.to_str().unwrap()]);
    assert!(code == 0 || code == 1, "{err}");
    let doc: Value = serde_json::from_str(&text).unwrap();
    let back: BTreeMap<String, Value> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["turn_id"].as_str().unwrap().to_owned(), r.clone()))
        .collect();
    let first = rows(&f);
    assert_eq!(back.len(), first.len());
    for (id, row) in first {
        assert_eq!(back[&id]["verdict"], row["verdict"], "{id}");
        assert_eq!(back[&id]["markers_from"], "citations", "{id}");
    }
}

/// The support counts of a row: sentences, cited sentences, quotes exact,
/// normalised and absent, offsets mismatched, hints.
fn support(row: &Value) -> [u64; 7] {
    let n = |k: &str| row[k].as_u64().unwrap();
    [
        n("sentences"),
        n("cited_sentences"),
        n("quotes_exact"),
        n("quotes_normalised"),
        n("quotes_absent"),
        n("offsets_mismatched"),
        n("hints"),
    ]
}

/// The self-written lines: a quote the document holds only once Unicode
/// forms are folded (`ligature`) is normalised, a quote it does not hold
/// (`misquoted`) absent, offsets that do not hold their text (`offsets`)
/// a mismatch; every other line's quotes and offsets hold, and every line
/// has its sentences counted.
#[test]
fn fixture_lines_check_their_quotes_and_offsets() {
    let rows = rows(&fixture("exchange/providers.jsonl"));
    for (id, row) in &rows {
        let [sentences, cited, exact, normalised, absent, mismatched, _] = support(row);
        assert!(sentences > 0, "{id}: {row}");
        assert_eq!(cited > 0, row["verdict"] == "ok", "{id}: {row}");
        assert_eq!(normalised, u64::from(id.ends_with(".ligature")), "{id}");
        assert_eq!(absent, u64::from(id.ends_with(".misquoted")), "{id}");
        let want = u64::from(id.ends_with(".misquoted") || id.ends_with(".offsets"));
        assert_eq!(mismatched, want, "{id}");
        if id.starts_with("anthropic.ok.") && !id.ends_with(".web") {
            assert_eq!(exact + normalised + absent, 1, "{id}");
        }
    }
}

/// MANIFEST.md's note of each response file it checked.
fn manifest_notes(manifest: &str) -> BTreeMap<String, String> {
    manifest
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let file = cells.get(1)?;
            let note = cells.get(4)?;
            file.contains(".response")
                .then(|| (file.to_string(), note.to_string()))
        })
        .collect()
}

fn manifest_note<'a>(r: &Recording, notes: &'a BTreeMap<String, String>) -> &'a str {
    notes
        .iter()
        .find(|(f, _)| f.starts_with(&format!("{}/{}.response", r.provider, r.stem)))
        .map_or("", |(_, n)| n.as_str())
}

/// Whether MANIFEST.md found the recording's quotes verbatim in text the
/// request holds.
fn quotes_checked(note: &str) -> bool {
    note.contains("exact=True")
        || note.contains("exact:True")
        || note.contains("==sourceContent.text:True")
}

#[test]
fn shared_recordings_check_quotes_offsets_and_coverage() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let notes = manifest_notes(&std::fs::read_to_string(dir.join("MANIFEST.md")).unwrap());
    let recs: Vec<Recording> = recordings(&dir);
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    // Per provider: recordings, citations, exact, normalised, absent,
    // offsets mismatched, recordings with sentences counted.
    let mut figures: BTreeMap<&str, [u64; 7]> = BTreeMap::new();
    let mut quoting = 0;
    for r in &recs {
        let row = &rows[r.line["id"].as_str().unwrap()];
        let [sentences, cited, exact, normalised, absent, mismatched, _] = support(row);
        let cites = row["marker_count"].as_u64().unwrap();
        let f = figures.entry(&r.provider).or_default();
        for (k, v) in [1, cites, exact, normalised, absent, mismatched]
            .into_iter()
            .enumerate()
        {
            f[k] += v;
        }
        f[6] += u64::from(sentences > 0);
        // Every quote and every offset of a real recording holds.
        assert_eq!((absent, mismatched), (0, 0), "{}: {row}", r.stem);
        if cites > 0 {
            assert!(sentences > 0 && cited > 0, "{}: {row}", r.stem);
        }
        if quotes_checked(manifest_note(r, &notes)) {
            assert!(exact + normalised > 0, "{}: {row}", r.stem);
            quoting += 1;
        }
    }
    eprintln!(
        "per provider [recordings, citations, exact, normalised, absent, mismatched, with sentences]: {figures:?}"
    );
    assert!(quoting >= 5, "{quoting} recordings with quotes checked");
}

/// Rewrites every quote a response carries (Anthropic `cited_text`,
/// Converse `sourceContent[].text`) into words no document holds.
fn misquote(v: &mut Value, parent: &str) {
    const WORDS: &str = "Nothing of the kind was ever written here.";
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match k.as_str() {
                    "cited_text" => *x = json!(WORDS),
                    "text" if parent == "sourceContent" => *x = json!(WORDS),
                    _ => misquote(x, k),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| misquote(x, parent)),
        _ => {}
    }
}

#[test]
fn misquoted_recordings_come_out_fabricated() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let notes = manifest_notes(&std::fs::read_to_string(dir.join("MANIFEST.md")).unwrap());
    let mut recs: Vec<Recording> = recordings(&dir)
        .into_iter()
        .filter(|r| quotes_checked(manifest_note(r, &notes)))
        .collect();
    assert!(recs.len() >= 5, "{} recordings quote", recs.len());
    for r in &mut recs {
        misquote(&mut r.line["response"], "");
    }
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    for r in &recs {
        let row = &rows[r.line["id"].as_str().unwrap()];
        let [_, _, exact, normalised, absent, ..] = support(row);
        assert_eq!(exact + normalised, 0, "{}: {row}", r.stem);
        assert!(absent >= 1, "{}: {row}", r.stem);
        assert_eq!(row["quotes_fabricated"], absent, "{}: {row}", r.stem);
    }
}

/// Applies `f` to every quote a response carries (Anthropic
/// `cited_text`, Converse `sourceContent[].text`).
fn each_quote(v: &mut Value, parent: &str, f: &mut dyn FnMut(&str) -> String) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match (k.as_str(), x.as_str()) {
                    ("cited_text", Some(q)) => *x = json!(f(q)),
                    ("text", Some(q)) if parent == "sourceContent" => *x = json!(f(q)),
                    _ => each_quote(x, k, f),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| each_quote(x, parent, f)),
        _ => {}
    }
}

/// Real recordings whose quotes their documents hold, changed two ways:
/// an unrelated document put first in the request, so that each citation
/// by document index now names it while the quote stays in the document
/// it came from (misattributed, naming that chunk), and each quote of nine
/// words or more cut to its first and last four words (pieces of the
/// document, not one passage of it: stitched).
#[test]
fn requoted_recordings_are_misattributed_or_stitched() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let notes = manifest_notes(&std::fs::read_to_string(dir.join("MANIFEST.md")).unwrap());
    let recs: Vec<Recording> = recordings(&dir)
        .into_iter()
        .filter(|r| quotes_checked(manifest_note(r, &notes)))
        .collect();
    let mut moved = Vec::new();
    let mut stitched = Vec::new();
    for r in &recs {
        let text = r.line["response"].to_string();
        let first = r.line["request"]["messages"][0]["content"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if r.provider == "anthropic"
            && text.contains("document_index")
            && first.iter().any(|c| c["type"] == "document")
        {
            let mut m = r.clone();
            let unrelated = json!({"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "The shop opens at nine and closes at six on weekdays."}});
            let mut content = first.clone();
            content.insert(0, unrelated);
            m.line["request"]["messages"][0]["content"] = json!(content);
            m.line["id"] = json!(format!("{}.moved", r.stem));
            moved.push(m);
        }
        let mut s = r.clone();
        let mut long = 0u64;
        each_quote(&mut s.line["response"], "", &mut |q| {
            let w: Vec<&str> = q.split_whitespace().collect();
            if w.len() < 9 {
                return q.to_owned();
            }
            long += 1;
            [&w[..4], &w[w.len() - 4..]].concat().join(" ")
        });
        if long > 0 {
            s.line["id"] = json!(format!("{}.stitched", r.stem));
            stitched.push((s, long));
        }
    }
    assert!(
        moved.len() >= 2,
        "{} recordings cite a document by index",
        moved.len()
    );
    assert!(
        stitched.len() >= 3,
        "{} recordings quote nine words or more",
        stitched.len()
    );
    let lines: Vec<&Value> = moved
        .iter()
        .chain(stitched.iter().map(|(s, _)| s))
        .map(|r| &r.line)
        .collect();
    let rows = grade(&lines);
    for r in &moved {
        let row = &rows[r.line["id"].as_str().unwrap()];
        let [_, _, exact, normalised, absent, ..] = support(row);
        assert_eq!(exact + normalised, 0, "{}: {row}", r.stem);
        assert!(absent >= 1, "{}: {row}", r.stem);
        assert_eq!(row["quotes_misattributed"], absent, "{}: {row}", r.stem);
    }
    for (r, long) in &stitched {
        let row = &rows[r.line["id"].as_str().unwrap()];
        assert_eq!(row["quotes_stitched"], *long, "{}: {row}", r.stem);
        assert_eq!(row["quotes_fabricated"], 0, "{}: {row}", r.stem);
    }
}

/// Moves every answer offset a response gives (Cohere `start`/`end`,
/// Gemini `startIndex`/`endIndex`, Bedrock `span`) three places on (one
/// place can land on the same text once whitespace is folded).
fn shift(v: &mut Value, parent: &str) {
    match v {
        Value::Object(m) => {
            let segment = parent == "segment";
            if segment && !m.contains_key("startIndex") {
                m.insert("startIndex".into(), json!(0));
            }
            for (k, x) in m.iter_mut() {
                let offset = matches!(
                    (k.as_str(), parent),
                    ("start" | "end", "citations" | "span")
                        | ("startIndex" | "endIndex", "segment")
                );
                match x.as_u64() {
                    Some(n) if offset => *x = json!(n + 3),
                    _ => shift(x, k),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| shift(x, parent)),
        _ => {}
    }
}

#[test]
fn shifted_offsets_are_mismatches() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let mut recs: Vec<Recording> = recordings(&dir)
        .into_iter()
        .filter(|r| matches!(&r.provider[..], "cohere" | "gemini" | "bedrock"))
        .collect();
    let before = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    for r in &mut recs {
        shift(&mut r.line["response"], "");
    }
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    let mut shifted = 0;
    for r in &recs {
        let id = r.line["id"].as_str().unwrap();
        let text = r.line["response"].to_string();
        // Converse gives no answer offsets; a recording without citations
        // has none to move.
        if before[id]["marker_count"] == 0
            || text.contains("citationsContent")
            || text.contains("contentBlockDelta")
        {
            continue;
        }
        assert_eq!(support(&before[id])[5], 0, "{}", r.stem);
        assert!(support(&rows[id])[5] >= 1, "{}: {}", r.stem, rows[id]);
        shifted += 1;
    }
    eprintln!("{shifted} recordings' offsets checked against their texts");
    assert!(shifted >= 15, "{shifted}");
}

/// `text` cut into pieces of at most `n` characters.
fn pieces(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(n).map(|c| c.iter().collect()).collect()
}

/// The stream a provider would send for `body`, as the recorded streams
/// are shaped (citations before their text where the provider sends them
/// so; Bedrock's span ends exclusive), or `None` where this test does not
/// write one.
fn restream(provider: &str, body: &Value) -> Option<Vec<Value>> {
    let mut ev = Vec::new();
    match provider {
        "anthropic" => {
            let mut start = body.clone();
            start["content"] = json!([]);
            ev.push(json!({"type": "message_start", "message": start}));
            for (i, b) in body["content"].as_array()?.iter().enumerate() {
                let mut open = b.clone();
                if b["type"] == "text" {
                    open["text"] = json!("");
                    open["citations"] = json!([]);
                }
                ev.push(json!({"type": "content_block_start", "index": i, "content_block": open}));
                if b["type"] != "text" {
                    continue;
                }
                for c in b["citations"].as_array().into_iter().flatten() {
                    ev.push(json!({"type": "content_block_delta", "index": i,
                        "delta": {"type": "citations_delta", "citation": c}}));
                }
                for t in pieces(b["text"].as_str()?, 7) {
                    ev.push(json!({"type": "content_block_delta", "index": i,
                        "delta": {"type": "text_delta", "text": t}}));
                }
            }
            ev.push(json!({"type": "message_stop"}));
        }
        "gemini" => {
            let text: String = body["candidates"][0]["content"]["parts"]
                .as_array()?
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect();
            let parts = pieces(&text, 5);
            for (k, t) in parts.iter().enumerate() {
                let mut c = json!({"content": {"parts": [{"text": t}], "role": "model"}});
                if k + 1 == parts.len() {
                    c["groundingMetadata"] = body["candidates"][0]["groundingMetadata"].clone();
                }
                ev.push(json!({"candidates": [c]}));
            }
        }
        "cohere" if body["message"].is_object() => {
            ev.push(json!({"type": "message-start", "delta": {"message": {"role": "assistant"}}}));
            for (i, c) in body["message"]["content"].as_array()?.iter().enumerate() {
                let mut open = c.clone();
                open["text"] = json!("");
                ev.push(json!({"type": "content-start", "index": i,
                    "delta": {"message": {"content": open}}}));
                for t in pieces(c["text"].as_str().unwrap_or(""), 4) {
                    ev.push(json!({"type": "content-delta", "index": i,
                        "delta": {"message": {"content": {"text": t}}}}));
                }
            }
            for (i, c) in body["message"]["citations"].as_array()?.iter().enumerate() {
                ev.push(json!({"type": "citation-start", "index": i,
                    "delta": {"message": {"citations": c}}}));
            }
            ev.push(json!({"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}));
        }
        "bedrock" if body.get("citations").is_some() => {
            let frame = |kind: &str, payload: Value| json!({"headers": {":event-type": kind}, "payload": payload});
            for t in pieces(body["output"]["text"].as_str()?, 9) {
                ev.push(frame("output", json!({"text": t})));
            }
            for c in body["citations"].as_array()? {
                let mut c = c.clone();
                let span = &mut c["generatedResponsePart"]["textResponsePart"]["span"];
                span["end"] = json!(span["end"].as_u64()? + 1);
                ev.push(frame("citation", json!({"citation": c})));
            }
        }
        "bedrock" => {
            let frame = |payload: Value| json!({"headers": {":event-type": "contentBlockDelta"}, "payload": payload});
            for (i, b) in body["output"]["message"]["content"]
                .as_array()?
                .iter()
                .enumerate()
            {
                let cc = &b["citationsContent"];
                for c in cc["citations"].as_array().into_iter().flatten() {
                    ev.push(frame(
                        json!({"contentBlockIndex": i, "delta": {"citation": c}}),
                    ));
                }
                let text = match b["text"].as_str() {
                    Some(t) => t.to_owned(),
                    None => cc["content"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|x| x["text"].as_str())
                        .collect::<Vec<_>>()
                        .join("\n"),
                };
                for t in pieces(&text, 6) {
                    ev.push(frame(json!({"contentBlockIndex": i, "delta": {"text": t}})));
                }
            }
        }
        "openai" if body.get("output").is_some() => {
            ev.push(json!({"type": "response.created", "response": {"status": "in_progress"}}));
            ev.push(json!({"type": "response.completed", "response": body}));
        }
        _ => return None,
    }
    Some(ev)
}

/// Every non-streamed recording sent again as the stream its provider
/// would send gives the same verdict and the same support counts.
#[test]
fn restreamed_bodies_keep_their_support() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let recs: Vec<Recording> = recordings(&dir).into_iter().filter(|r| !r.stream).collect();
    let mut streams = Vec::new();
    for r in &recs {
        let Some(events) = restream(&r.provider, &r.line["response"]) else {
            continue;
        };
        let mut line = r.line.clone();
        line["id"] = json!(format!("{}#stream", r.line["id"].as_str().unwrap()));
        line["response"] = json!({ "events": events });
        streams.push(line);
    }
    let all: Vec<&Value> = recs.iter().map(|r| &r.line).chain(&streams).collect();
    let rows = grade(&all);
    let mut quoted = 0;
    for s in &streams {
        let id = s["id"].as_str().unwrap();
        let (a, b) = (&rows[id], &rows[id.trim_end_matches("#stream")]);
        assert_eq!(a["verdict"], b["verdict"], "{id}");
        assert_eq!(a["marker_count"], b["marker_count"], "{id}");
        assert_eq!(support(a), support(b), "{id}");
        assert_eq!(a["coverage"], b["coverage"], "{id}");
        quoted += u64::from(support(a)[2] > 0);
    }
    eprintln!(
        "{} bodies restreamed, {quoted} with quotes checked",
        streams.len()
    );
    assert!(streams.len() >= 25 && quoted >= 3, "{}", streams.len());
}

/// One span line as Phoenix's JSONL download writes it.
fn phoenix_span(trace: &str, id: &str, parent: Option<&str>, kind: &str, attrs: Value) -> String {
    json!({
        "name": format!("{kind}-{id}"),
        "context": {"trace_id": trace, "span_id": id},
        "span_kind": kind,
        "parent_id": parent,
        "start_time": "2026-01-01T00:00:00.000000+00:00",
        "end_time": "2026-01-01T00:00:01.000000+00:00",
        "status_code": "OK",
        "attributes": attrs,
    })
    .to_string()
}

/// A model call recorded the way OpenInference's Anthropic and OpenAI
/// instrumentors record it: an LLM span whose `input.value` is the call's
/// arguments as JSON and whose `output.value` is the response body
/// (`model_dump_json()`, mime type JSON). Every non-streamed recording so
/// wrapped grades like its exchange line: the same verdict, provider,
/// citations, chunks and support counts, whether the reply is the root's
/// output or the LLM span's.
#[test]
fn recordings_in_llm_spans_grade_like_their_exchange_lines() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let (recs, want) = non_streamed(&dir);
    let mut lines = String::new();
    for (i, r) in recs.iter().enumerate() {
        let llm = json!({
            "input.value": r.line["request"].to_string(),
            "input.mime_type": "application/json",
            "output.value": r.line["response"].to_string(),
            "output.mime_type": "application/json",
        });
        for (variant, root) in [
            ("llm", json!({})),
            ("root", json!({"output.value": "the answer"})),
        ] {
            let trace = format!("{variant}{i:04}");
            lines += &phoenix_span(&trace, "root", None, "AGENT", root.clone());
            lines += "\n";
            lines += &phoenix_span(&trace, "call", Some("root"), "LLM", llm.clone());
            lines += "\n";
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("spans.jsonl");
    std::fs::write(&path, lines).unwrap();
    let got = report_rows(&[], &path);
    let mut cited = 0;
    for (i, r) in recs.iter().enumerate() {
        let line = &want[r.line["id"].as_str().unwrap()];
        let structured = line["marker_count"] != 0;
        for variant in ["llm", "root"] {
            let row = &got[&format!("{variant}{i:04}")];
            if line["unobserved_reason"] == "no_reply" {
                // A call answered by a tool request alone: no answer either way.
                if variant == "llm" {
                    assert_eq!(row["verdict"], "unobserved", "{}: {row}", r.stem);
                }
                continue;
            }
            if !structured {
                // Nothing structured was cited: the span's reply text is
                // graded by its markers, as any other trace's.
                assert_ne!(
                    row["markers_from"], line["markers_from"],
                    "{}: {row}",
                    r.stem
                );
                continue;
            }
            for k in GRADED {
                assert_eq!(row[k], line[k], "{} ({variant}) {k}: {row}", r.stem);
            }
            cited += 1;
        }
    }
    eprintln!("{cited} traced calls graded by their provider citations");
    assert!(
        cited >= 40,
        "{cited} traced calls graded by their citations"
    );
}

/// A stream assembles by index in any event order: deltas before their
/// block's start, `message_start` last, no block start at all, a Cohere
/// delta before its part's start: each grades like the stream in order.
/// A stream cut off before its last event is unobserved (`stream_cut`),
/// never graded on half an answer.
#[test]
fn streams_assemble_in_any_order_and_a_cut_stream_is_unobserved() {
    for (file, cut) in [
        (
            "hostile/stream-order-anthropic.jsonl",
            Some("truncated_after_citation"),
        ),
        ("hostile/stream-order-cohere.jsonl", None),
    ] {
        let doc = crate::common::report_all(&crate::common::fixture(file));
        for row in doc["rows"].as_array().unwrap() {
            let id = row["turn_id"].as_str().unwrap();
            if Some(id) == cut {
                assert_eq!(row["verdict"], "unobserved", "{id}");
                assert_eq!(row["unobserved_reason"], "stream_cut", "{id}");
            } else {
                assert_eq!(row["verdict"], "ok", "{file} {id}");
                assert_eq!(row["cited_chunks"], serde_json::json!([1]), "{file} {id}");
                assert_eq!(row["cited_sentences"], 1, "{file} {id}: the text is kept");
            }
        }
    }
}

/// A VCR cassette written as JSON (vcrpy's serializer, Ruby VCR's with a
/// base64 body) reads as the same recording written as YAML: one turn, the
/// same id, verdict, chunks and citations.
#[test]
fn json_cassettes_read_as_their_yaml_recording() {
    let rows = |path: &std::path::Path| {
        crate::common::report_all(path)["rows"]
            .as_array()
            .unwrap()
            .clone()
    };
    let yaml = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/vcr-cohere/langchain_cohere_test_who_founded_cohere_with_custom_documents.yaml");
    let want = rows(&yaml);
    assert_eq!(want.len(), 1);
    assert_eq!(want[0]["verdict"], "ok");
    for name in ["vcrpy.json", "ruby-vcr.json"] {
        let got = rows(&fixture(&format!("exchange/cassette-json/{name}")));
        assert_eq!(got.len(), 1, "{name}");
        for field in [
            "turn_id",
            "verdict",
            "cited_chunks",
            "chunks",
            "marker_count",
            "markers_from",
        ] {
            assert_eq!(got[0][field], want[0][field], "{name}: {field}");
        }
    }
}

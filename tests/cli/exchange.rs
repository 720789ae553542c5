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
fn rows(path: &Path) -> BTreeMap<String, Value> {
    let (code, out, err) = run(&[
        "report",
        "--all",
        "--format",
        "json",
        "--input-format",
        "exchange",
        path.to_str().unwrap(),
    ]);
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let doc: Value = serde_json::from_str(&out).expect("report --format json is JSON");
    let list = doc.get("rows").or(doc.get("turns")).unwrap_or(&doc);
    list.as_array()
        .expect("rows")
        .iter()
        .map(|r| (r["turn_id"].as_str().unwrap().to_owned(), r.clone()))
        .collect()
}

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
struct Recording {
    provider: String,
    stem: String,
    stream: bool,
    line: Value,
}

/// Wraps every request/response pair of `dir` into an exchange line (a
/// response-only recording gets an empty request; a stream's body becomes
/// `events`).
fn recordings(dir: &Path) -> Vec<Recording> {
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

/// Grades exchange lines through the binary.
fn grade(lines: &[&Value]) -> BTreeMap<String, Value> {
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

/// Per provider: recordings, citations, quote checks (exact, normalised,
/// absent), offset mismatches, recordings with sentences counted.
fn support_figures(
    recs: &[Recording],
    rows: &BTreeMap<String, Value>,
) -> BTreeMap<String, [u64; 7]> {
    let mut out: BTreeMap<String, [u64; 7]> = BTreeMap::new();
    for r in recs {
        let row = &rows[r.line["id"].as_str().unwrap()];
        let s = &row["support"];
        let n = |k: &str| s[k].as_u64().unwrap_or(0);
        let f = out.entry(r.provider.clone()).or_default();
        f[0] += 1;
        f[1] += row["marker_count"].as_u64().unwrap_or(0);
        f[2] += n("quotes_exact");
        f[3] += n("quotes_normalised");
        f[4] += n("quotes_absent");
        f[5] += n("offsets_mismatched");
        f[6] += u64::from(n("sentences") > 0);
    }
    out
}

#[test]
fn shared_recordings_measure() {
    let Some(dir) = shared("provider-citations") else {
        return;
    };
    let recs: Vec<Recording> = recordings(&dir);
    let rows = grade(&recs.iter().map(|r| &r.line).collect::<Vec<_>>());
    for r in &recs {
        let row = &rows[r.line["id"].as_str().unwrap()];
        eprintln!("{:60} {} {}", r.stem, row["marker_count"], row["support"]);
    }
    eprintln!("{:?}", support_figures(&recs, &rows));
}

//! Marker grammars end to end: hand-written fixtures of the hardest patterns
//! seen in real model output (`fixtures/markers/`), and the marker flags.

use crate::common::*;
use serde_json::Value;

/// `report --all --format jsonl` rows of a fixture, keyed by turn id.
fn rows(args: &[&str], file: &str) -> Vec<Value> {
    let path = fixture(&format!("markers/{file}"));
    let mut all = vec!["report", "--all", "--format", "jsonl"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    out.lines().map(json).collect()
}

/// (verdict, partial, cited_chunks, marker_count, out_of_range_markers, malformed_markers)
type Expect = (&'static str, bool, &'static [u64], u64, u64, u64);

fn check(args: &[&str], file: &str, expect: &[(&str, Expect)]) {
    let got = rows(args, file);
    assert_eq!(got.len(), expect.len(), "{file}: one row per turn");
    for (row, (id, (verdict, partial, cited, markers, oor, malformed))) in got.iter().zip(expect) {
        assert_eq!(row["turn_id"], *id, "{file}");
        let cited_got: Vec<u64> = row["cited_chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(
            (
                row["verdict"].as_str().unwrap(),
                row["partial"].as_bool().unwrap(),
                cited_got.as_slice(),
                row["marker_count"].as_u64().unwrap(),
                row["out_of_range_markers"].as_u64().unwrap(),
                row["malformed_markers"].as_u64().unwrap(),
            ),
            (*verdict, *partial, *cited, *markers, *oor, *malformed),
            "{file} {id}"
        );
    }
}

const NUMERIC: &[&str] = &["--markers", "numeric"];

#[test]
fn copied_footnotes_are_out_of_range_markers() {
    check(
        NUMERIC,
        "footnotes.jsonl",
        &[
            ("fn-1", ("ok", true, &[2], 3, 2, 0)),
            ("fn-2", ("orphan_marker", false, &[], 3, 3, 0)),
            ("fn-3", ("ok", true, &[2], 2, 1, 0)),
        ],
    );
}

#[test]
fn bracketed_text_that_is_not_a_citation_is_no_marker() {
    check(
        NUMERIC,
        "not-citations.jsonl",
        &[
            ("nc-1", ("no_marker", false, &[], 0, 0, 0)),
            ("nc-2", ("ok", false, &[1], 1, 0, 0)),
            ("nc-3", ("no_marker", false, &[], 0, 0, 0)),
            ("nc-4", ("ok", false, &[2], 1, 0, 0)),
        ],
    );
}

#[test]
fn glued_markers_runs_lists_and_ranges() {
    check(
        NUMERIC,
        "glued-runs-lists.jsonl",
        &[
            ("gl-1", ("ok", false, &[1, 2, 3, 4], 4, 0, 0)),
            ("gl-2", ("ok", false, &[1, 3, 4, 2], 7, 0, 0)),
            ("gl-3", ("ok", false, &[2, 3, 4], 3, 0, 1)),
            // The reference list's entries are markers too; its `[2]` is out of range.
            ("gl-4", ("ok", true, &[1], 3, 1, 0)),
        ],
    );
}

#[test]
fn the_kb_rewrite_of_the_glued_fixture_grades_the_same() {
    let numeric = rows(NUMERIC, "glued-runs-lists.jsonl");
    let kb = rows(&[], "glued-runs-lists.kb.jsonl");
    assert_eq!(numeric.len(), kb.len());
    for (a, b) in numeric.iter().zip(&kb) {
        for field in [
            "turn_id",
            "verdict",
            "cited_chunks",
            "marker_count",
            "out_of_range_markers",
        ] {
            assert_eq!(a[field], b[field], "{} {field}", a["turn_id"]);
        }
    }
}

#[test]
fn closed_book_citations_empty_replies_and_prose_citations() {
    check(
        NUMERIC,
        "closed-book-empty.jsonl",
        &[
            ("cb-1", ("orphan_marker", false, &[], 2, 2, 0)),
            ("cb-2", ("empty_retrieval", false, &[], 0, 0, 0)),
            ("cb-3", ("no_marker", false, &[], 0, 0, 0)),
            ("cb-4", ("no_marker", false, &[], 0, 0, 0)),
            ("cb-5", ("orphan_marker", false, &[], 1, 1, 0)),
            ("cb-6", ("no_marker", false, &[], 0, 0, 0)),
        ],
    );
}

#[test]
fn the_default_kb_grammar_sees_no_marker_in_numeric_replies() {
    for row in rows(&[], "glued-runs-lists.jsonl") {
        assert_eq!(row["verdict"], "no_marker", "{}", row["turn_id"]);
    }
}

#[test]
fn a_custom_regex_reads_the_same_markers() {
    // `[N]` singles only, through --marker-regex, base 1 and base 0.
    let one = rows(&["--marker-regex", r"\[(\d+)\]"], "glued-runs-lists.jsonl");
    assert_eq!(one[0]["cited_chunks"], serde_json::json!([1, 2, 3, 4]));
    let zero = rows(
        &["--marker-regex", r"\[(\d+)\]", "--marker-base", "0"],
        "glued-runs-lists.jsonl",
    );
    // Base 0: `[1]` is the second chunk and `[4]` is past the end of four.
    assert_eq!(zero[0]["cited_chunks"], serde_json::json!([2, 3, 4]));
    assert_eq!(zero[0]["out_of_range_markers"], 1);
}

#[test]
fn marker_flag_usage_errors() {
    let f = fixture("markers/footnotes.jsonl");
    let f = f.to_str().unwrap();
    let (code, _, err) = run(&["report", "--marker-regex", r"\[\d+\]", f]);
    assert_eq!(code, 2);
    assert!(err.contains("exactly one capture group"), "{err}");
    let (code, _, _) = run(&[
        "report",
        "--markers",
        "numeric",
        "--marker-regex",
        r"\[(\d+)\]",
        f,
    ]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["report", "--marker-base", "0", f]);
    assert_eq!(code, 2, "--marker-base needs --marker-regex");
    let (code, _, _) = run(&[
        "report",
        "--marker-regex",
        r"\[(\d+)\]",
        "--marker-base",
        "2",
        f,
    ]);
    assert_eq!(code, 2);
    let (code, _, err) = run(&["report", "--marker-regex", r"\[(\d+", f]);
    assert_eq!(code, 2);
    assert!(err.contains("does not compile"), "{err}");
}

/// A real agent answer that links its two web search results as Markdown
/// links (an OpenLLMetry cassette, as a turn log without its citations
/// list): under `--markers id` each link cites the result at its address,
/// and a link to a page not retrieved is an invented citation.
#[test]
fn links_to_retrieved_pages_cite_them() {
    let cassette = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/openllmetry/langchain_test_agents.yaml");
    let (code, line, err) =
        crate::common::run(&["convert", "--to", "turns", cassette.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let mut turn: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
    let o = turn.as_object_mut().unwrap();
    o.remove("markers");
    o["grounding"].as_object_mut().unwrap().remove("citations");
    let reply = o["reply"].as_str().unwrap().to_owned();
    assert!(
        reply.contains("](https://github.com/traceloop/openllmetry)"),
        "{reply}"
    );
    let dir = tempfile::tempdir().unwrap();
    let grade = |reply: &str| {
        let mut t = turn.clone();
        t["reply"] = reply.into();
        let p = dir.path().join("t.jsonl");
        std::fs::write(&p, format!("{t}\n")).unwrap();
        let (code, out, err) = crate::common::run(&[
            "report",
            "--markers",
            "id",
            "--format",
            "jsonl",
            p.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let r: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        (
            r["verdict"].as_str().unwrap().to_owned(),
            r["cited_chunks"].clone(),
        )
    };
    assert_eq!(grade(&reply), ("ok".to_owned(), serde_json::json!([1, 2])));
    let invented = reply
        .replace(
            "https://github.com/traceloop/openllmetry",
            "https://example.com/elsewhere",
        )
        .replace(
            "https://www.traceloop.com/docs/openllmetry/introduction",
            "https://example.com/other",
        );
    assert_eq!(
        grade(&invented),
        ("orphan_marker".to_owned(), serde_json::json!([]))
    );
}

//! Every marker example of the core and marker-grammar issues, preset by
//! preset, plus the JSON-escape rule and a raw-versus-decoded property.

use super::*;
use crate::model::{Answer, Id, Reply, Unobserved, has_unicode_escape};
use MarkerKind::{Cited, Malformed, OutOfRange};
use proptest::prelude::*;
use std::borrow::Cow;

/// `n` chunks with no ids (enough for every index-based grammar).
fn chunks(n: u32) -> Vec<Chunk<'static>> {
    (1..=n)
        .map(|index| Chunk {
            index,
            document_id: None,
            chunk_id: None,
            score: None,
        })
        .collect()
}

fn scan_all(g: &Grammar, text: &str, chunks: &[Chunk<'_>]) -> Vec<Marker> {
    let mut out = Vec::new();
    g.scan(text, chunks, &mut |m| out.push(m));
    out
}

/// The kinds of every marker `g` finds in `text` against `n` chunks.
fn kinds(g: &Grammar, text: &str, n: u32) -> Vec<MarkerKind> {
    scan_all(g, text, &chunks(n))
        .into_iter()
        .map(|m| m.kind)
        .collect()
}

fn kb(text: &str, n: u32) -> Vec<MarkerKind> {
    kinds(&Grammar::Preset(Preset::Kb), text, n)
}

fn numeric(text: &str, n: u32) -> Vec<MarkerKind> {
    kinds(&Grammar::Preset(Preset::Numeric), text, n)
}

// ---------------------------------------------------------------- kb

#[test]
fn kb_boundaries_are_one_based_and_inclusive() {
    assert_eq!(kb("[KB-1]", 2), [Cited(1)]);
    assert_eq!(kb("[KB-2]", 2), [Cited(2)]);
    assert_eq!(kb("[KB-3]", 2), [OutOfRange]);
    assert_eq!(kb("[KB-1]", 0), [OutOfRange]);
}

#[test]
fn kb_zero_is_out_of_range() {
    assert_eq!(kb("[KB-0]", 3), [OutOfRange]);
    assert_eq!(kb("[KB-000]", 3), [OutOfRange]);
    // Leading zeros are still digits: `[KB-02]` is chunk 2.
    assert_eq!(kb("[KB-02]", 3), [Cited(2)]);
}

#[test]
fn kb_huge_index_is_out_of_range_not_a_panic() {
    assert_eq!(kb("[KB-4294967297]", 3), [OutOfRange]); // wraps to 1 as a u32
    assert_eq!(kb("[KB-18446744073709551615]", 3), [OutOfRange]); // u64::MAX
    assert_eq!(kb("[KB-18446744073709551616]", 3), [OutOfRange]); // u64::MAX + 1
    assert_eq!(kb(&format!("[KB-{}]", "9".repeat(200)), 3), [OutOfRange]);
}

#[test]
fn kb_malformed_examples_are_counted_never_cited() {
    for text in [
        "[kb-1]",
        "[KB 1]",
        "[KB-]",
        "[KB-1, KB-2]",
        "[KB-1a]",
        "[Kb-1]",
        "[kB-1]",
        "[KB-1 ]",
        "[KB--1]",
        "[KB-+1]",
        "[KB1]",
        "[KB]",
        "[kbps]",
    ] {
        assert_eq!(kb(text, 3), [Malformed], "{text}");
    }
}

#[test]
fn kb_ignores_brackets_that_do_not_start_with_kb() {
    for text in [
        "KB-1",
        "(KB-1)",
        "[see KB-1]",
        "[ KB-1]",
        "[1]",
        "[K]",
        "[",
        "]",
        "[]",
        "[KB-1",
        "[KB-1\n]",
        "[KB-1\r\n]",
        "{KB-1}",
    ] {
        assert_eq!(kb(text, 3), [], "{text:?}");
    }
}

#[test]
fn kb_bracket_interrupted_by_another_bracket_starts_over() {
    assert_eq!(kb("[KB-[KB-2]", 3), [Cited(2)]);
    assert_eq!(kb("[[KB-1]]", 3), [Cited(1)]);
}

#[test]
fn kb_overlong_bracket_is_prose() {
    let long = format!("[KB {}]", "x".repeat(MAX_BRACKET));
    assert_eq!(kb(&long, 3), []);
    let just_fits = format!("[KB{}]", "x".repeat(MAX_BRACKET - 3));
    assert_eq!(kb(&just_fits, 3), [Malformed]);
}

#[test]
fn kb_repeats_glued_and_runs_each_count() {
    assert_eq!(
        kb("a[KB-1][KB-1] b [KB-2].", 2),
        [Cited(1), Cited(1), Cited(2)]
    );
    let found = scan_all(&Grammar::Preset(Preset::Kb), "See[KB-2].", &chunks(2));
    assert_eq!(
        found,
        [Marker {
            start: 3,
            end: 9,
            kind: Cited(2)
        }]
    );
}

// ----------------------------------------------------------- numeric

#[test]
fn numeric_single_lists_and_ranges() {
    assert_eq!(numeric("[3]", 3), [Cited(3)]);
    assert_eq!(numeric("[1,2]", 3), [Cited(1), Cited(2)]);
    assert_eq!(numeric("[1, 2]", 3), [Cited(1), Cited(2)]);
    assert_eq!(numeric("[1-3]", 3), [Cited(1), Cited(2), Cited(3)]);
    assert_eq!(numeric("[1–3]", 3), [Cited(1), Cited(2), Cited(3)]); // en dash
    assert_eq!(numeric("[2 and 3]", 3), [Cited(2), Cited(3)]);
    assert_eq!(numeric("[1, 3, and 4]", 4), [Cited(1), Cited(3), Cited(4)]);
    assert_eq!(numeric("[1,3 and 4]", 4), [Cited(1), Cited(3), Cited(4)]);
    assert_eq!(numeric("[1-2, 4]", 4), [Cited(1), Cited(2), Cited(4)]);
    assert_eq!(numeric("[ 2 ]", 3), [Cited(2)]);
    assert_eq!(numeric("[2-2]", 3), [Cited(2)]);
}

#[test]
fn numeric_range_of_at_most_100_indexes_expands_wider_is_malformed() {
    assert_eq!(
        numeric("[1-100]", 100),
        (1..=100).map(Cited).collect::<Vec<_>>()
    );
    assert_eq!(numeric("[1-101]", 200), [Malformed]);
    assert_eq!(numeric("[5-900]", 3), [Malformed]);
    assert_eq!(numeric("[3-1]", 3), [Malformed]); // backwards
    assert_eq!(numeric("[1-99999999999999999999999]", 3), [Malformed]); // overflow
    // The bad range spoils only itself, not the rest of the list.
    assert_eq!(numeric("[1, 7-1]", 3), [Cited(1), Malformed]);
}

#[test]
fn numeric_zero_and_out_of_range_are_markers_out_of_range() {
    assert_eq!(numeric("[0]", 3), [OutOfRange]);
    assert_eq!(numeric("[4]", 3), [OutOfRange]);
    assert_eq!(numeric("[2, 22]", 2), [Cited(2), OutOfRange]);
    assert_eq!(numeric("[0-2]", 2), [OutOfRange, Cited(1), Cited(2)]);
    assert_eq!(numeric("[99999999999999999999999]", 3), [OutOfRange]);
    // A Wikipedia footnote copied with the text is a marker, out of range.
    assert_eq!(numeric("restore confidence[49].", 5), [OutOfRange]);
}

#[test]
fn numeric_bracketed_text_that_is_not_a_list_is_no_marker() {
    for text in [
        "[Online]",
        "[Reinhardt, 2014]",
        "[...]",
        "[Accessed: 22-Oct-2021]",
        "[Context 1]",
        "[1.]",
        "[1 2]",
        "[1,]",
        "[,1]",
        "[and 1]",
        "[1 and]",
        "[1 and2]",
        "[1 - 3]",
        "[1-]",
        "[-1]",
        "[]",
        "[ ]",
        "[1a]",
        "[x1]",
        "[1;2]",
        "[1\t2]",
        "[１]", // full-width digit
        "[1\n]",
        "(1)",
    ] {
        assert_eq!(numeric(text, 5), [], "{text:?}");
    }
}

#[test]
fn numeric_glued_runs_and_spaced_runs() {
    assert_eq!(numeric("text[1].", 2), [Cited(1)]);
    assert_eq!(numeric("a claim[1][2]. Next", 2), [Cited(1), Cited(2)]);
    assert_eq!(numeric("a claim [1] [2].", 2), [Cited(1), Cited(2)]);
    assert_eq!(numeric("known as [EMIM][TfO] in [1]", 2), [Cited(1)]);
    let found = scan_all(&Grammar::Preset(Preset::Numeric), "ab[1, 2]", &chunks(2));
    // Every index of one bracket shares the bracket's span.
    assert!(found.iter().all(|m| (m.start, m.end) == (2, 8)));
}

#[test]
fn numeric_reference_list_entries_are_markers_too() {
    // A trailing reference list cites by the same numbers: counted, same chunks.
    let text = "Lagos is large [1][2].\n\n[1] Lagos, Wikipedia. [Online]. [Accessed: 22-Oct-2021].\n[2] Lagos State.";
    assert_eq!(numeric(text, 2), [Cited(1), Cited(2), Cited(1), Cited(2)]);
}

// ------------------------------------------------------ doc, footnote

#[test]
fn doc_preset() {
    let g = Grammar::Preset(Preset::Doc);
    assert_eq!(kinds(&g, "Yes [doc1][doc2].", 2), [Cited(1), Cited(2)]);
    assert_eq!(kinds(&g, "[doc0] [doc3]", 2), [OutOfRange, OutOfRange]);
    assert_eq!(kinds(&g, "[doc99999999999999999999999]", 2), [OutOfRange]);
    // Nothing else is a marker and nothing is malformed.
    for text in [
        "[Doc1]",
        "[DOC1]",
        "[doc]",
        "[doc 1]",
        "[doc1, doc2]",
        "[doc1a]",
        "[1]",
        "[^1]",
        "doc1",
    ] {
        assert_eq!(kinds(&g, text, 2), [], "{text}");
    }
}

#[test]
fn footnote_preset() {
    let g = Grammar::Preset(Preset::Footnote);
    assert_eq!(kinds(&g, "Yes[^1] and[^2].", 2), [Cited(1), Cited(2)]);
    assert_eq!(kinds(&g, "[^0] [^3]", 2), [OutOfRange, OutOfRange]);
    for text in ["[^]", "[^a]", "[^ 1]", "[^1, ^2]", "[1]", "^1", "[doc1]"] {
        assert_eq!(kinds(&g, text, 2), [], "{text}");
    }
}

// --------------------------------------------------------------- id

fn id_chunks() -> Vec<Chunk<'static>> {
    let c = |index, doc: Option<Id<'static>>, chunk: Option<&'static str>| Chunk {
        index,
        document_id: doc,
        chunk_id: chunk.map(Id::string),
        score: None,
    };
    vec![
        c(1, Some(Id::string("faq.md")), Some("faq.md#4")),
        c(2, Some(Id::string("refunds.md")), None),
        c(
            3,
            Some(Id {
                text: Cow::Borrowed("9"),
                numeric: true,
            }),
            Some("café-1"),
        ),
        c(4, Some(Id::string("refunds.md")), Some("refunds.md#7")),
    ]
}

fn id(text: &str) -> Vec<MarkerKind> {
    scan_all(&Grammar::Preset(Preset::Id), text, &id_chunks())
        .into_iter()
        .map(|m| m.kind)
        .collect()
}

#[test]
fn id_matches_chunk_id_or_document_id() {
    assert_eq!(id("[faq.md#4]"), [Cited(1)]);
    assert_eq!(id("[faq.md]"), [Cited(1)]);
    assert_eq!(id("[refunds.md#7]"), [Cited(4)]);
    // Integer ids compare by their text; non-ASCII ids match exactly.
    assert_eq!(id("[9]"), [Cited(3)]);
    assert_eq!(id("[café-1]"), [Cited(3)]);
    // A document id shared by several chunks names the first of them.
    assert_eq!(id("[refunds.md]"), [Cited(2)]);
    assert_eq!(id("see[faq.md#4][refunds.md]."), [Cited(1), Cited(2)]);
}

#[test]
fn id_reads_page_references_and_url_queries() {
    let c = |index, doc: &'static str, chunk: &'static str| Chunk {
        index,
        document_id: Some(Id::string(doc)),
        chunk_id: Some(Id::string(chunk)),
        score: None,
    };
    let chunks = [
        c(1, "report.pdf", "report.pdf#page=4"),
        c(2, "https://a.example/b?id=7", "web-2"),
    ];
    let got: Vec<MarkerKind> = scan_all(
        &Grammar::Preset(Preset::Id),
        "Up [report.pdf#page=4], down [report.pdf#page=9], see [https://a.example/b?id=7].",
        &chunks,
    )
    .into_iter()
    .map(|m| m.kind)
    .collect();
    assert_eq!(got, [Cited(1), OutOfRange, Cited(2)]);
}

#[test]
fn id_plain_words_and_prose_are_not_markers() {
    for text in [
        "[Online]",
        "[x]",
        "[TfO]",
        "[Reinhardt, 2014]",
        "[a b]",
        "[...]",
        "[-]",
        "[#]",
        "[/]",
        "[]",
        "[faq.md#4 ]",
        "[\"faq.md\"]",
        "[über]",
    ] {
        assert_eq!(id(text), [], "{text}");
    }
    // An exact id match wins even where the token is not id-shaped.
    assert_eq!(id("[café-1]"), [Cited(3)]);
}

#[test]
fn id_markdown_link_text_is_not_a_marker() {
    assert_eq!(id("see [Trends24](https://trends24.in/) today"), []);
    assert_eq!(id("[café-1](https://x.org)"), []);
    // A marker followed by a parenthesis after a space is still a marker.
    assert_eq!(id("[café-1] (see)"), [Cited(3)]);
}

#[test]
fn a_link_to_a_retrieved_address_cites_it() {
    let c = |index, doc: &'static str| Chunk {
        index,
        document_id: Some(Id::string(doc)),
        chunk_id: None,
        score: None,
    };
    let web = [c(1, "https://a.example/x"), c(2, "https://b.example/")];
    let kinds = |text: &str, chunks: &[Chunk<'static>]| -> Vec<MarkerKind> {
        scan_all(&Grammar::Preset(Preset::Id), text, chunks)
            .into_iter()
            .map(|m| m.kind)
            .collect()
    };
    // The link text is never the id; the address is, a trailing `/` aside.
    assert_eq!(
        kinds(
            "see [the page](https://a.example/x/) and [B](https://b.example/).",
            &web
        ),
        [Cited(1), Cited(2)]
    );
    // An address this turn did not retrieve, among retrieved addresses, is invented.
    assert_eq!(
        kinds("[Trends24](https://trends24.in/)", &web),
        [OutOfRange]
    );
    // Without retrieved addresses a link is a link; so is a relative one.
    assert_eq!(kinds("[Trends24](https://trends24.in/)", &id_chunks()), []);
    assert_eq!(kinds("[docs](/guide) [x](https://a.example/x", &web), []);
    // A marker spans the whole link.
    let m = &scan_all(
        &Grammar::Preset(Preset::Id),
        "a [b](https://b.example/) c",
        &web,
    )[0];
    assert_eq!((m.start, m.end), (2, 25));
}

// ------------------------------------------------------------ regex

#[test]
fn regex_base_one_and_zero() {
    let one = Grammar::regex(r"\(source (\d+)\)", 1).unwrap();
    assert_eq!(
        kinds(&one, "a (source 1) b (source 2) (source 0) (source 3)", 2),
        [Cited(1), Cited(2), OutOfRange, OutOfRange]
    );
    let zero = Grammar::regex(r"\(source (\d+)\)", 0).unwrap();
    assert_eq!(
        kinds(&zero, "a (source 0) b (source 1) (source 2)", 2),
        [Cited(1), Cited(2), OutOfRange]
    );
    assert_eq!(
        kinds(&zero, &format!("(source {})", u64::MAX), 2),
        [OutOfRange]
    );
    assert_eq!(
        kinds(&one, "(source 99999999999999999999999)", 2),
        [OutOfRange]
    );
}

#[test]
fn regex_capture_that_is_not_a_number_is_malformed() {
    let g = Grammar::regex(r"<<(\w+)>>", 1).unwrap();
    assert_eq!(kinds(&g, "<<2>> <<two>>", 2), [Cited(2), Malformed]);
    // A group that did not take part in the match.
    let g = Grammar::regex(r"\[(?:ref|(\d+))\]", 1).unwrap();
    assert_eq!(kinds(&g, "[ref] [1]", 2), [Malformed, Cited(1)]);
}

#[test]
fn regex_empty_matches_are_not_markers() {
    let g = Grammar::regex(r"(\d*)", 1).unwrap();
    assert_eq!(kinds(&g, "ab 2 cd", 2), [Cited(2)]);
}

#[test]
fn regex_needs_exactly_one_capture_group() {
    let e = Grammar::regex(r"\[\d+\]", 1).unwrap_err();
    assert!(
        e.contains("exactly one capture group") && e.contains("has 0"),
        "{e}"
    );
    let e = Grammar::regex(r"\[(\d+)-(\d+)\]", 1).unwrap_err();
    assert!(
        e.contains("exactly one capture group") && e.contains("has 2"),
        "{e}"
    );
    // Named groups count; non-capturing ones do not.
    assert!(Grammar::regex(r"\[(?P<n>\d+)\]", 1).is_ok());
    assert!(Grammar::regex(r"(?:\[|\()(\d+)(?:\]|\))", 1).is_ok());
    let e = Grammar::regex(r"\[(\d+", 1).unwrap_err();
    assert!(e.contains("does not compile"), "{e}");
    let e = Grammar::regex(r"\[(\d+)\]", 2).unwrap_err();
    assert!(e.contains("0 or 1"), "{e}");
}

// ------------------------------------------------------ JSON escapes

#[test]
fn escapes_outside_brackets_keep_the_raw_fast_path() {
    let g = Grammar::default();
    assert!(!g.needs_decoding(r#""para one [KB-1].\n\nShe said \"yes\" [KB-2]\\ \/""#));
    assert!(g.needs_decoding(r#""\u005BKB-1]""#));
    assert!(g.needs_decoding(r#""caf\u00e9 [KB-1]""#));
    assert!(g.needs_decoding(r#""[KB-1\n]""#));
    assert!(g.needs_decoding(r#""[KB\/1]""#));
    assert!(!g.needs_decoding(r#""[KB-1] \n""#));
    assert!(
        Grammar::regex(r"\[(\d+)\]", 1)
            .unwrap()
            .needs_decoding(r#""a\nb""#)
    );
}

/// A line break ends a run in the raw scan as in the decoded one (the
/// markers fuzz target found the raw scan reading `[KB\r-2]` as a run).
#[test]
fn raw_scan_ends_a_run_at_a_line_break() {
    let g = Grammar::default();
    for text in ["a [K\rB-2] b [KB-1]", "[KB-1\n]", "[KB\n\\n]"] {
        let mut fused = Vec::new();
        let clean = g.scan_raw(text, has_unicode_escape(text), &chunks(2), &mut |m| {
            fused.push(m)
        });
        assert_eq!(clean, !g.needs_decoding(&format!("\"{text}\"")), "{text:?}");
        let mut plain = Vec::new();
        g.scan(text, &chunks(2), &mut |m| plain.push(m));
        if clean {
            assert_eq!(fused, plain, "{text:?}");
        }
    }
}

#[test]
fn unobserved_and_citations_answers_are_not_scanned() {
    let g = Grammar::default();
    assert!(
        crate::grade::tally(&Answer::Unobserved(Unobserved::NoReply), &chunks(1), &g).is_none()
    );
    let (t, _) =
        crate::grade::tally(&Answer::Reply(Reply::Text("[KB-1]".into())), &chunks(1), &g).unwrap();
    assert_eq!(t.cited, [1]);
}

/// A JSON string literal for `text` that escapes each character the
/// `escape` flags pick (`\uXXXX`, `\/`, or the short form), and the rest only
/// where JSON requires it.
fn encode(text: &str, escape: &[bool]) -> String {
    let mut out = String::from("\"");
    for (i, c) in text.chars().enumerate() {
        let pick = escape.get(i).copied().unwrap_or(false);
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' if !pick => out.push_str("\\n"),
            '\r' if !pick => out.push_str("\\r"),
            '\t' if !pick => out.push_str("\\t"),
            '/' if pick => out.push_str("\\/"),
            c if pick || (c as u32) < 0x20 => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "[",
        "]",
        "[KB-1",
        "[KB-",
        "[1, 2",
        "[2-3",
        "[doc2",
        "[^1",
        "[faq.md#4",
        "[refunds.md",
        "]",
        "]",
        "KB-",
        "kb-",
        "KB",
        "1",
        "2",
        "0",
        "9",
        "22",
        ",",
        " ",
        " and ",
        "-",
        "–",
        "doc",
        "^",
        "faq.md#4",
        "refunds.md",
        "\n",
        "\r",
        "\t",
        "\"",
        "\\",
        "/",
        "é",
        "x",
        ".",
        "#",
        ":",
        "Online",
        "\u{2028}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Scanning the raw literal (when `needs_decoding` says that is safe)
    /// gives exactly the tally of scanning the decoded text, for every preset.
    #[test]
    fn raw_scan_agrees_with_decoded_scan(parts in prop::collection::vec(piece(), 0..40), escape in prop::collection::vec(prop::bool::weighted(0.03), 0..120)) {
        let text: String = parts.concat();
        let raw = encode(&text, &escape);
        prop_assert_eq!(serde_json::from_str::<String>(&raw).unwrap(), text.clone());
        let cs = id_chunks();
        for p in [Preset::Kb, Preset::Numeric, Preset::Doc, Preset::Footnote, Preset::Id] {
            let g = Grammar::Preset(p);
            let from_raw = crate::grade::tally(&Answer::Reply(Reply::json(&raw)), &cs, &g).unwrap().0;
            let from_text = crate::grade::tally(&Answer::Reply(Reply::Text(text.as_str().into())), &cs, &g).unwrap().0;
            prop_assert_eq!(from_raw, from_text, "{:?} raw {}", p, raw);
        }
    }

    /// No input makes a scanner panic, and every span is a bracket of the text.
    #[test]
    fn scanners_never_panic(text in "\\PC{0,200}", n in 0u32..5) {
        let cs = chunks(n);
        for p in [Preset::Kb, Preset::Numeric, Preset::Doc, Preset::Footnote, Preset::Id] {
            for m in scan_all(&Grammar::Preset(p), &text, &cs) {
                prop_assert!(m.start < m.end && m.end <= text.len());
                prop_assert_eq!(text.as_bytes()[m.start], b'[');
                prop_assert_eq!(text.as_bytes()[m.end - 1], b']');
            }
        }
    }
}

// ------------------------------------------------------- throughput

/// About 100 KB of prose with a marker every sentence or so.
fn long_reply(style: &str) -> String {
    let sentence = "The refund window is thirty days from delivery, and the policy applies to every plan we sell";
    let mut s = String::with_capacity(110_000);
    let mut i = 0u32;
    while s.len() < 100_000 {
        s.push_str(sentence);
        let k = i % 7 + 1;
        match style {
            "kb" => s.push_str(&format!(" [KB-{k}]. ")),
            "numeric" => s.push_str(&format!(" [{k}, {}]. [Online] ", k + 1)),
            _ => s.push_str(&format!(" [doc{k}]. ")),
        }
        if i % 5 == 4 {
            s.push_str("\n\n");
        }
        i += 1;
    }
    s
}

/// `cargo test --release --lib -- --ignored --nocapture scanner_throughput`
#[test]
#[ignore = "timing; run in release with --ignored --nocapture"]
fn scanner_throughput() {
    let cs = chunks(8);
    for (name, g, text) in [
        ("kb", Grammar::Preset(Preset::Kb), long_reply("kb")),
        (
            "numeric",
            Grammar::Preset(Preset::Numeric),
            long_reply("numeric"),
        ),
        ("doc", Grammar::Preset(Preset::Doc), long_reply("doc")),
        ("id", Grammar::Preset(Preset::Id), long_reply("numeric")),
        (
            "regex",
            Grammar::regex(r"\[KB-(\d+)\]", 1).unwrap(),
            long_reply("kb"),
        ),
    ] {
        let rounds = 300;
        let mut markers = 0u64;
        let start = std::time::Instant::now();
        for _ in 0..rounds {
            g.scan(std::hint::black_box(&text), &cs, &mut |m| {
                markers += 1;
                std::hint::black_box(m);
            });
        }
        let secs = start.elapsed().as_secs_f64();
        let mb = (text.len() * rounds) as f64 / 1e6;
        eprintln!(
            "{name:8} {} bytes x {rounds}: {:8.0} MB/s ({} markers per reply)",
            text.len(),
            mb / secs,
            markers / rounds as u64
        );
    }
}

// The two scans `escape_matters` replaced, as they were: the reference.
/// Whether `b` holds a `\u` escape. An escaped backslash (`\\u`) is not
/// one; skipping both bytes of every escape keeps that straight.
fn has_unicode_escape_ref(b: &[u8]) -> bool {
    let mut at = 0;
    while let Some(off) = memchr(b'\\', &b[at..]) {
        let i = at + off;
        match b.get(i + 1) {
            Some(b'u') => return true,
            Some(_) => at = i + 2,
            None => return false,
        }
    }
    false
}

/// Whether a backslash occurs inside some bracketed run of `b`: after a `[`,
/// before the next `]` or `[`, within the window [`close_of`] looks at. Where
/// no run holds one, every run reads the same raw as decoded.
fn escape_in_bracket_ref(b: &[u8]) -> bool {
    let mut at = 0;
    while let Some(off) = memchr(b'[', &b[at..]) {
        let open = at + off;
        let end = (open + 2 + MAX_BRACKET).min(b.len());
        for &c in &b[open + 1..end] {
            match c {
                b'\\' => return true,
                b']' | b'[' => break,
                _ => {}
            }
        }
        at = open + 1;
    }
    false
}

proptest! {
    #[test]
    fn escape_matters_is_the_two_scans_it_replaced(
        b in prop::collection::vec(prop::sample::select(b"\\[]uKB-1x ".to_vec()), 0..400)
    ) {
        let reference = match memchr(b'\\', &b) {
            Some(first) => has_unicode_escape_ref(&b[first..]) || escape_in_bracket_ref(&b),
            None => false,
        };
        let mut long = b.clone();
        long.extend(std::iter::repeat_n(b'x', MAX_BRACKET));
        long.extend_from_slice(&b);
        let long_reference = match memchr(b'\\', &long) {
            Some(first) => has_unicode_escape_ref(&long[first..]) || escape_in_bracket_ref(&long),
            None => false,
        };
        prop_assert_eq!(escape_matters(&b) && memchr(b'\\', &b).is_some(), reference);
        prop_assert_eq!(escape_matters(&long) && memchr(b'\\', &long).is_some(), long_reference);
    }
}

proptest! {
    /// `scan_raw` is `needs_decoding` and `scan` in one pass: false exactly
    /// when `needs_decoding` says the literal must be decoded, and otherwise
    /// the markers (kinds and spans, in order) of scanning the raw text.
    #[test]
    fn scan_raw_is_needs_decoding_then_scan(
        b in prop::collection::vec(prop::sample::select(b"\\[]uKB-1x d^c,o2\n".to_vec()), 0..400),
        pad in prop::bool::ANY,
    ) {
        let mut b = b;
        if pad {
            // A run longer than the window, then the same bytes again.
            let copy = b.clone();
            b.extend(std::iter::repeat_n(b'x', MAX_BRACKET));
            b.extend_from_slice(&copy);
        }
        let inner = String::from_utf8(b).unwrap();
        let raw = format!("\"{inner}\"");
        let cs = id_chunks();
        let grammars = [Preset::Kb, Preset::Numeric, Preset::Doc, Preset::Footnote, Preset::Id]
            .map(Grammar::Preset)
            .into_iter()
            .chain([Grammar::regex(r"\[(\d+)\]", 1).unwrap()]);
        for g in grammars {
            let mut fused = Vec::new();
            let clean = g.scan_raw(&inner, has_unicode_escape(&inner), &cs, &mut |m| fused.push(m));
            prop_assert_eq!(clean, !g.needs_decoding(&raw), "{:?} {}", g, raw);
            if clean {
                let mut plain = Vec::new();
                g.scan(&inner, &cs, &mut |m| plain.push(m));
                prop_assert_eq!(fused, plain, "{:?} {}", g, raw);
            }
        }
    }
}

#[test]
fn whole_numbers_in_any_spelling_are_indices() {
    use crate::model::CitationIndex::*;
    for (json, want) in [
        ("18446744073709551615", Index(u64::MAX)),
        ("18446744073709551616", OutOfRange),
        ("1e300", OutOfRange),
        ("-1e300", OutOfRange),
        ("2.0", Index(2)),
        ("2e0", Index(2)),
        ("-0.0", Index(0)),
        ("-3", OutOfRange),
        ("0.5", Malformed),
        ("\"1\"", Malformed),
        ("null", Malformed),
    ] {
        assert_eq!(citation_index(json), want, "{json}");
    }
}

/// Issue 18, item 11: docs/markers.md allows up to 256 bytes between the
/// brackets; exactly 256 was rejected.
#[test]
fn a_bracket_holds_up_to_256_bytes() {
    let kb_of = |len: usize| format!("[KB-{}1]", "0".repeat(len - 4));
    assert_eq!(kb(&kb_of(255), 3), [Cited(1)]);
    assert_eq!(kb(&kb_of(256), 3), [Cited(1)]);
    assert_eq!(kb(&kb_of(257), 3), []);
    let id = |len: usize| "d".repeat(len - 1) + "1";
    for (len, found) in [(255, true), (256, true), (257, false)] {
        let chunk = Chunk {
            index: 1,
            document_id: Some(Id::string(id(len))),
            chunk_id: None,
            score: None,
        };
        let text = format!("see [{}].", id(len));
        let got = scan_all(&Grammar::Preset(Preset::Id), &text, &[chunk]);
        assert_eq!(got.len(), usize::from(found), "{len} bytes");
    }
}

#[test]
fn id_shaped_tokens_that_match_nothing_are_out_of_range() {
    for text in [
        "[nope.md]",
        "[faq.md#5]",
        "[FAQ.md#4]",
        "[1]",
        "[2021-05-20]",
        "[doc_7]",
        "[a:b]",
        "[x/y]",
        "[https://example.com/a]",
        "[faq.md#page=4]",
        "[https://example.com/a?id=7&x=%20]",
    ] {
        assert_eq!(id(text), [OutOfRange], "{text}");
    }
}

//! The specialised reader against serde_json: for every line, both accept
//! or reject it alike, with the same turn, the same reason and the same
//! dropped-field warnings. Lines come from a generator of turn-shaped JSON
//! text (hostile strings, numbers at every edge, keys named twice, escaped
//! keys, deep nesting), mutated byte by byte, and from every fixture.

use super::{fast_path_handles, parse_line_reporting, parse_line_reporting_serde};
use proptest::prelude::*;

/// Both readers' results, compared in full (`Turn` has no `PartialEq`; its
/// `Debug` shows every field, `-0.0` apart from `0.0`).
fn same(line: &str) -> Result<(), String> {
    let fast = format!("{:?}", parse_line_reporting(line));
    let slow = format!("{:?}", parse_line_reporting_serde(line));
    if fast == slow {
        Ok(())
    } else {
        Err(format!("line {line:?}\n fast {fast}\n serde {slow}"))
    }
}

fn pick(items: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(items).prop_map(str::to_owned)
}

fn ws_unboxed() -> impl Strategy<Value = String> {
    pick(&["", "", "", " ", "\t", "\r", "  "])
}

/// A string literal: mostly well-formed (plain text, markers, valid
/// escapes, non-ASCII), sometimes hostile (lone surrogates, malformed
/// escapes, raw control characters).
fn string_unboxed() -> impl Strategy<Value = String> {
    let good = pick(&[
        "a",
        "turn",
        "[KB-1]",
        "[KB-2]",
        "see [1]",
        "2026-08-01T00:00:00Z",
        "no_reply",
        "withheld",
        "ok",
        "\\\"",
        "\\\\",
        "\\/",
        "\\n",
        "\\t",
        "\\b\\f\\r",
        "\\u0041",
        "\\u005B",
        "\\u00e9",
        "\\uD83D\\uDE00",
        "é",
        "\u{1F600}",
        "\u{7f}",
        " ",
        "0123456789abcdef",
    ]);
    let bad = pick(&[
        "\\ud800", "\\udc00", "\\u12", "\\x", "\\", "\t", "\u{1}", "\u{1f}", "\"",
    ]);
    let piece = prop_oneof![200 => good, 1 => bad];
    (prop::collection::vec(piece, 0..6), 0usize..3).prop_map(|(p, long)| {
        let mut s = p.concat();
        if long == 2 {
            // Long enough for the sixteen-byte steps, with the piece at any offset.
            s = format!("{}{s}{}", "x".repeat(37), "y".repeat(21));
        }
        format!("\"{s}\"")
    })
}

fn number_unboxed() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => pick(&["01", "1.", ".5", "-", "+1", "1e", "NaN", "Infinity", "0x1", "1.5.2"]),
        16 => pick(&[
            "0", "-0", "-0.0", "0.0", "1", "7", "0.721", "0.680",
            "-3", "1e400", "-1e400", "1e-400", "1.5e3", "1E2", "1e+2", "3.0", "2.50",
            "18446744073709551615", "18446744073709551616", "9999999999999999999",
            "-9223372036854775808", "-9223372036854775809", "123456789012345678.5",
            "12345678901234567.8", "0.1234567890123456789", "0.0000000000000000000001",
            "4111111111111111", "99999999999999999999999", "1e30", "-1.5",
        ]),
        4 => any::<u64>().prop_map(|n| n.to_string()),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        8 => (any::<bool>(), any::<u32>(), 1usize..10).prop_map(|(neg, n, k)| {
            // Short decimals: the ones the reader computes itself.
            let s = format!("{:0>10}", n);
            let (a, b) = s.split_at(10 - k);
            let a = a.trim_start_matches('0');
            format!("{}{}.{b}", if neg { "-" } else { "" }, if a.is_empty() { "0" } else { a })
        }),
        4 => (any::<i64>(), 0u32..24).prop_map(|(n, k)| {
            let s = n.unsigned_abs().to_string();
            let k = (k as usize).min(s.len().saturating_sub(1));
            let sign = if n < 0 { "-" } else { "" };
            if k == 0 { format!("{sign}{s}") } else {
                let (a, b) = s.split_at(s.len() - k);
                format!("{sign}{a}.{b}")
            }
        }),
        4 => any::<f64>().prop_map(|f| f.to_string()),
    ]
}

fn scalar_unboxed() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => string(),
        12 => number(),
        3 => pick(&["true", "false", "null", "[]", "{}", "[ ]", "{ }"]),
        1 => pick(&["nul", "tru", "nulll", "[,]", "{,}", "[1,]", "x"]),
    ]
}

/// Keys: every field name the readers know at any level, unknown ones,
/// escaped spellings of known ones.
fn key_unboxed() -> impl Strategy<Value = String> {
    prop_oneof![
        16 => pick(&[
            "type", "turn_id", "agent_id", "conversation_id", "channel", "created_at", "reply",
            "grounding", "model", "tokens_used", "cost_cents", "latency_ms", "unobserved",
            "markers", "chunks", "citations", "tools", "document_id", "chunk_id", "score", "status",
            "index", "question", "x", "",
        ])
        .prop_map(|k| format!("\"{k}\"")),
        1 => pick(&["\"turn\\u005fid\"", "\"a\\\"b\"", "\"\\u00e9\""]),
        1 => pick(&["\"\\ud800\"", "\"\\x\""]),
    ]
}

/// Any JSON-ish value, nested.
fn value_unboxed() -> impl Strategy<Value = String> {
    scalar().prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec((ws(), inner.clone()), 0..5).prop_map(|v| {
                let items: Vec<String> = v.into_iter().map(|(w, x)| format!("{w}{x}{w}")).collect();
                format!("[{}]", items.join(","))
            }),
            prop::collection::vec((key(), ws(), inner), 0..5).prop_map(|v| {
                let items: Vec<String> = v
                    .into_iter()
                    .map(|(k, w, x)| format!("{w}{k}{w}:{w}{x}"))
                    .collect();
                format!("{{{}}}", items.join(","))
            }),
        ]
    })
}

fn object(entries: Vec<(String, String)>, w: &str) -> String {
    let items: Vec<String> = entries
        .into_iter()
        .map(|(k, v)| format!("{w}\"{k}\"{w}:{w}{v}{w}"))
        .collect();
    format!("{{{}}}", items.join(","))
}

fn id_unboxed() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => pick(&["\"t1\"", "\"kb/a.md\"", "\"d#2\"", "17", "\"t\\u0031\""]),
        1 => scalar(),
    ]
}

fn chunk_unboxed() -> impl Strategy<Value = String> {
    let score = prop_oneof![
        6 => pick(&["0.721", "0.5", "1", "0", "-0.25", "0.6805", "12.125"]),
        3 => number(),
        1 => scalar(),
    ];
    let fields = (
        prop::option::weighted(0.8, id()),
        prop::option::weighted(0.7, id()),
        prop::option::weighted(0.8, score),
        prop::collection::vec(
            (
                pick(&["extra", "text", "x", "y", "score", "document_id"]),
                value(),
            ),
            0..2,
        ),
    )
        .prop_map(|(d, c, s, rest)| {
            let mut e = Vec::new();
            e.extend(d.map(|v| ("document_id".to_owned(), v)));
            e.extend(c.map(|v| ("chunk_id".to_owned(), v)));
            e.extend(s.map(|v| ("score".to_owned(), v)));
            e.extend(rest.into_iter().map(|(k, v)| (k.to_owned(), v)));
            e
        })
        .prop_shuffle();
    prop_oneof![
        12 => (fields, ws()).prop_map(|(e, w)| object(e, &w)),
        1 => value(),
    ]
}

fn grounding_unboxed() -> impl Strategy<Value = String> {
    let chunks = prop_oneof![
        8 => (prop::collection::vec(chunk(), 0..5), ws())
            .prop_map(|(c, w)| format!("[{w}{}{w}]", c.join(&format!("{w},{w}")))),
        1 => value(),
    ];
    let citation = prop_oneof![
        pick(&[
            "{\"index\":1}",
            "{\"index\":2}",
            "1",
            "{\"index\":1,\"index\":2}",
            "{}",
            "\"1\"",
            "{\"ind\\u0065x\":2}",
            "{\"index\":1,\"x\":{\"index\":3}}",
            "{\"index\":null}",
            "{\"index\":99999999999999999999999}",
            "{\"index\":-1}",
            "{\"index\":1.5}",
            "{\"model\":1,\"model\":2,\"index\":1}",
            "null"
        ]),
        value(),
    ];
    let tool = prop_oneof![
        pick(&[
            "{\"name\":\"x\",\"status\":\"ok\"}",
            "{\"status\":\"error\",\"arguments\":{\"id\":\"A-1\"}}",
            "{\"status\":5}",
            "{\"status\":\"ok\",\"status\":\"error\"}",
            "{\"st\\u0061tus\":\"error\"}",
            "{\"status\":null}",
            "{\"status\":\"S\\u0055CCESS\"}",
            "{\"status\":[\"ok\"]}",
            "{}",
            "null",
            "[]",
        ]),
        value(),
    ];
    let fields = (
        prop::option::weighted(0.9, chunks),
        prop::option::weighted(0.5, prop::collection::vec(citation, 0..4)),
        prop::option::weighted(0.5, prop::collection::vec(tool, 0..3)),
        prop::collection::vec(
            (
                pick(&[
                    "model",
                    "tokens_used",
                    "cost_cents",
                    "latency_ms",
                    "confidence",
                    "x",
                ]),
                scalar(),
            ),
            0..3,
        ),
        prop::option::weighted(0.03, value()),
    )
        .prop_map(|(ch, ci, t, rest, odd)| {
            let mut e = Vec::new();
            e.extend(ch.map(|v| ("chunks".to_owned(), v)));
            e.extend(ci.map(|c| ("citations".to_owned(), format!("[{}]", c.join(",")))));
            e.extend(t.map(|t| ("tools".to_owned(), format!("[{}]", t.join(",")))));
            e.extend(rest.into_iter().map(|(k, v)| (k.to_owned(), v)));
            e.extend(odd.map(|v| ("citations".to_owned(), v)));
            e
        })
        .prop_shuffle();
    prop_oneof![
        12 => (fields, ws()).prop_map(|(e, w)| object(e, &w)),
        1 => value(),
    ]
}

/// A turn-shaped line: the required fields most of the time, optional
/// fields of every type, unknown keys, in any order, sometimes mutated.
fn line_unboxed() -> impl Strategy<Value = String> {
    let time = prop_oneof![
        24 => pick(&[
            "\"2026-08-01T10:00:00Z\"",
            "\"2026-08-01T10:00:00.123-05:00\"",
            "\"2026-08-01T10:00:00\\u005a\"",
        ]),
        1 => pick(&["\"2026-08-01\"", "\"9999-12-31T23:30:00-01:00\""]),
        1 => scalar(),
    ];
    let reply = prop_oneof![12 => string(), 1 => scalar(), 1 => value()];
    let optional = prop_oneof![
        1 => pick(&["\"turn\"", "\"event\"", "null", "\"t\\u0075rn\"", "1", "\"\\ud800\""])
            .prop_map(|v| ("type".to_owned(), v)),
        6 => (pick(&["conversation_id", "channel", "model", "tokens_used", "cost_cents",
                     "latency_ms", "unobserved", "markers", "question", "x", "y", "z"]),
              prop_oneof![3 => scalar(), 1 => value()]),
        1 => (pick(&["turn_id", "reply", "turn\\u005fid", "agent_id", "grounding"]), scalar())
            .prop_map(|(k, v)| (k.to_owned(), v)),
    ];
    let entries = (
        prop::option::weighted(0.95, id()),
        prop::option::weighted(0.95, prop_oneof![12 => string(), 1 => scalar()]),
        prop::option::weighted(0.95, time),
        prop::option::weighted(0.8, reply),
        prop::option::weighted(0.85, grounding()),
        prop::collection::vec(optional, 0..3),
    )
        .prop_map(|(t, a, c, r, g, rest)| {
            let mut e = Vec::new();
            e.extend(t.map(|v| ("turn_id".to_owned(), v)));
            e.extend(a.map(|v| ("agent_id".to_owned(), v)));
            e.extend(c.map(|v| ("created_at".to_owned(), v)));
            e.extend(r.map(|v| ("reply".to_owned(), v)));
            e.extend(g.map(|v| ("grounding".to_owned(), v)));
            e.extend(rest);
            e
        })
        .prop_shuffle();
    let mutation = prop_oneof![
        4 => Just(None),
        1 => (any::<prop::sample::Index>(), 0u8..4, pick(&["{", "}", "[", "]", ",", ":", "\"",
                 "\\", " ", "0", "e", ".", "-", "n", "\u{0}"]))
            .prop_map(Some),
    ];
    (entries, ws(), ws(), mutation).prop_map(|(e, w, w2, m)| {
        let mut s = format!("{w2}{}{w2}", object(e, &w));
        if let Some((at, op, c)) = m {
            let cuts: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let i = cuts[at.index(cuts.len())];
            match op {
                0 => s.insert_str(i, &c),
                1 if i < s.len() => {
                    let n = s[i..].chars().next().map_or(0, char::len_utf8);
                    s.replace_range(i..i + n, "");
                }
                2 => s.truncate(i),
                _ => s.replace_range(i..i, &c.repeat(2)),
            }
        }
        s
    })
}

// Boxed, so the strategies' types (and their stack frames in debug
// builds) stay small.
pub(in crate::dialect) fn ws() -> BoxedStrategy<String> {
    ws_unboxed().boxed()
}

fn string() -> BoxedStrategy<String> {
    string_unboxed().boxed()
}

fn number() -> BoxedStrategy<String> {
    number_unboxed().boxed()
}

fn scalar() -> BoxedStrategy<String> {
    scalar_unboxed().boxed()
}

fn key() -> BoxedStrategy<String> {
    key_unboxed().boxed()
}

pub(in crate::dialect) fn value() -> BoxedStrategy<String> {
    value_unboxed().boxed()
}

fn id() -> BoxedStrategy<String> {
    id_unboxed().boxed()
}

fn chunk() -> BoxedStrategy<String> {
    chunk_unboxed().boxed()
}

fn grounding() -> BoxedStrategy<String> {
    grounding_unboxed().boxed()
}

pub(in crate::dialect) fn line() -> BoxedStrategy<String> {
    line_unboxed().boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn the_specialised_reader_agrees_with_serde_json(line in line()) {
        if let Err(e) = same(&line) {
            prop_assert!(false, "{}", e);
        }
    }

    #[test]
    fn the_readers_agree_on_any_value(v in value(), w in ws()) {
        let line = format!("{w}{v}{w}");
        if !line.trim().is_empty() && let Err(e) = same(&line) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// Lines the generator rarely writes, each once.
#[test]
fn edge_cases_agree() {
    let head = r#""turn_id":"t","agent_id":"a","created_at":"2026-08-01T00:00:00Z""#;
    let deep = |n: usize| format!("{{{head},\"x\":{}{}}}", "[".repeat(n), "]".repeat(n));
    let cases = [
        format!("{{{head},\"reply\":\"x [KB-1]\"}}"),
        format!("{{{head},\"reply\":\"x\",\"reply\":\"y\"}}"),
        format!("{{{head},\"x\":1,\"x\":2}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[],\"chunks\":[]}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[{{\"score\":1,\"score\":2}}]}}}}"),
        format!(
            "{{{head},\"grounding\":{{\"chunks\":[{{\"score\":\"s\"}},{{\"score\":1,\"score\":2}}]}}}}"
        ),
        format!(
            "{{{head},\"grounding\":{{\"chunks\":[{{\"score\":\"s\"}},{{\"x\":\"\\ud800\"}}]}}}}"
        ),
        format!("{{{head},\"grounding\":{{\"chunks\":[1]}}}}"),
        format!("{{{head},\"grounding\":{{\"chunks\":[{{}},]}}}}"),
        format!("{{{head},}}"),
        format!("{{{head}}} x"),
        format!("{{{head}}}\r"),
        format!("{{{head},\"agent_id\":\"\\ud800\"}}"),
        format!("{{{head},\"reply\":\"\\ud800 [KB-1]\"}}"),
        format!("{{{head},\"tokens_used\":1e400}}"),
        format!("{{{head},\"x\":1e400}}"),
        format!("{{{head},\"cost_cents\":-0}}"),
        format!("{{{head},\"tokens_used\":-0.0}}"),
        format!("{{{head},\"turn_id\":-0}}"),
        format!("{{{head},\"grounding\":{{\"citations\":[{{\"index\":1,\"index\":1}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"citations\":[{{\"ind\\u0065x\":1}},2]}}}}"),
        format!("{{{head},\"grounding\":{{\"citations\":{{\"index\":1}}}}}}"),
        format!("{{{head},\"grounding\":{{\"citations\":[1,]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[{{\"status\":\"fail\"}},1]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[{{\"status\":\"ok\",\"status\":7}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[{{\"status\":\"x\"}}}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[1e400]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[\"\\ud800\"]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[[\"\\ud800\"]]}}}}"),
        format!("{{{head},\"grounding\":{{\"citations\":[\"\\ud800\"]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[-1e400,{{}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[[1e400]]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[{{\"status\":1e400}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"tools\":[{{\"x\":1e400}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"citations\":[1e400]}}}}"),
        format!("{{{head},\"grounding\":{{\"citations\":[{{\"index\":1e400}}]}}}}"),
        format!("{{{head},\"grounding\":{{\"citations\":[{{\"x\":1e400,\"index\":1}}]}}}}"),
        deep(60),
        deep(63),
        deep(64),
        deep(127),
        deep(200),
        r#"{"turn_id":7,"agent_id":"a","created_at":"2026-08-01T00:00:00Z"}"#.to_owned(),
        r#"{"type":"event"}"#.to_owned(),
        r#"{"type":"t\u0075rn","turn_id":"t"}"#.to_owned(),
        "{}".to_owned(),
        "[]".to_owned(),
        " {\"a\":1} ".to_owned(),
    ];
    for line in &cases {
        same(line).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Hands `each` every non-blank UTF-8 line of every file under `fixtures/`
/// (the hostile corpus included), with its file.
pub(in crate::dialect) fn fixture_lines(mut each: impl FnMut(&std::path::Path, &str)) {
    let root = std::path::Path::new(crate::test_support::ROOT).join("fixtures");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("fixtures are readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    for f in files {
        let data = std::fs::read(&f).expect("fixture");
        for raw in data.split(|&b| b == b'\n') {
            if let Ok(line) = std::str::from_utf8(raw)
                && !line.trim().is_empty()
            {
                each(&f, line);
            }
        }
    }
}

/// Every line of every fixture (the hostile corpus included) reads the same
/// through both, and the common lines take the fast path.
#[test]
fn fixtures_agree_and_common_lines_take_the_fast_path() {
    let (mut lines, mut fast) = (0, 0);
    fixture_lines(|f, line| {
        same(line).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        lines += 1;
        fast += usize::from(fast_path_handles(line));
    });
    assert!(lines > 500, "{lines} fixture lines");
    let demo = std::fs::read_to_string(
        std::path::Path::new(crate::test_support::ROOT).join("fixtures/demo.jsonl"),
    )
    .expect("demo log");
    let handled = demo.lines().filter(|l| fast_path_handles(l)).count();
    assert!(
        handled * 10 >= demo.lines().count() * 9,
        "{handled} of {} demo lines on the fast path ({fast} of {lines} fixture lines)",
        demo.lines().count()
    );
}

/// The generator is worth its cases: a good share of its lines are turns
/// the specialised reader reads itself (not only lines it hands back).
#[test]
fn generated_lines_reach_the_fast_path() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (n, mut fast_turns) = (2000, 0);
    for _ in 0..n {
        let l = line().new_tree(&mut runner).expect("a line").current();
        let turn = matches!(parse_line_reporting(&l).0, super::Parsed::Turn(_));
        fast_turns += usize::from(turn && fast_path_handles(&l));
    }
    assert!(fast_turns * 10 >= n, "{fast_turns} of {n}");
}

/// Both readers' speed on the lines of `GA_BENCH_FILE` (default: the demo
/// log): `cargo test --release --lib -- --ignored --nocapture native_throughput`.
#[test]
#[ignore = "a measurement, not a test"]
fn native_throughput() {
    let path = std::env::var("GA_BENCH_FILE").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/demo.jsonl").into()
    });
    let text = std::fs::read_to_string(&path).expect("bench file");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    let time = |f: &dyn Fn(&str) -> usize| {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let n: usize = lines.iter().map(|l| f(l)).sum();
            std::hint::black_box(n);
            best = best.min(t.elapsed().as_secs_f64());
        }
        bytes as f64 / best / 1e6
    };
    let turn = |p: &super::Parsed<'_>| usize::from(matches!(p, super::Parsed::Turn(_)));
    let only = std::env::var("GA_BENCH_ONLY").unwrap_or_default();
    let fast = if only == "serde" {
        1.0
    } else {
        time(&|l| turn(&parse_line_reporting(l).0))
    };
    let serde = if only == "fast" {
        1.0
    } else {
        time(&|l| turn(&parse_line_reporting_serde(l).0))
    };
    let handled = lines.iter().filter(|l| fast_path_handles(l)).count();
    println!(
        "{path}: {} lines, {handled} on the fast path; specialised {fast:.0} MB/s, serde_json {serde:.0} MB/s ({:.2}x)",
        lines.len(),
        fast / serde
    );
}

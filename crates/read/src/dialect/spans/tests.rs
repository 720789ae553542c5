use super::*;
use crate::dialect::ChunkRule;
use crate::grade::grade;
use crate::markers::{Grammar, Preset};
use crate::model::{Row, Unobserved, Verdict};
use std::collections::BTreeMap;
use std::path::PathBuf;

// The row invariants the fuzz targets check, read from their file so the
// two cannot drift apart.
#[path = "../../../../../fuzz/common/rows.rs"]
mod rows;

/// [`parse_line`] into a list of spans (it boxes each span it reads).
fn read_line(format: &SpanFormat, line: &[u8], out: &mut Vec<Span>) -> Result<(), String> {
    let mut boxed = Vec::new();
    let r = parse_line(format, line, &mut boxed);
    out.extend(boxed.into_iter().map(|s| *s));
    r
}

// ------------------------------------------------------------ helpers

/// The span format a source is detected as, asking every dialect in
/// detection order, as the engine does (none: not a span format).
fn sniff(first: &[u8]) -> Option<&'static SpanFormat> {
    let name = crate::dialect::detect(None, first).name();
    [
        &OTLP,
        &PHOENIX_OTLP,
        &DATADOG,
        &PHOENIX_DATAFRAME,
        &PHOENIX_JSONL,
        &TRULENS,
        &OTEL_SDK,
    ]
    .into_iter()
    .find(|f| f.name == name)
}

fn shared() -> Option<PathBuf> {
    crate::test_support::shared("traces")
}

/// Reads a file the way the pipeline will: sniff, then lines or document.
fn read_spans(data: &[u8]) -> (&'static SpanFormat, Vec<Span>) {
    let head = &data[..data.len().min(64 * 1024)];
    let format = sniff(head).expect("sniffed as spans");
    let mut spans = Vec::new();
    if is_document(format, head) {
        let mut out = Vec::new();
        parse_document(format, data, &mut out).expect("document parses");
        let mut last = 0;
        for (line, s) in out {
            assert!(line >= 1 && line >= last, "line numbers ascend");
            last = line;
            spans.push(s);
        }
    } else {
        for (n, line) in data.split(|&b| b == b'\n').enumerate() {
            if let Err(e) = read_line(format, line, &mut spans) {
                panic!("line {}: {e}", n + 1);
            }
        }
    }
    (format, spans)
}

fn group(spans: Vec<Span>) -> BTreeMap<String, Vec<Span>> {
    let mut by: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for s in spans {
        by.entry(s.trace_id().to_owned()).or_default().push(s);
    }
    by
}

fn numeric() -> Grammar {
    Grammar::Preset(Preset::Numeric)
}

fn graded(t: &Trace, g: &Grammar) -> Row<'static> {
    grade(t.turn(), g).into_owned()
}

/// turn number → (agent, session, trace id) from a capture README's table.
fn turn_table(readme: &str) -> BTreeMap<u32, (String, String, String)> {
    let mut out = BTreeMap::new();
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 6 {
            continue;
        }
        if let Ok(n) = cells[1].parse::<u32>() {
            let id = cells[4].trim_matches('`').to_owned();
            if id.len() == 32 {
                out.insert(n, (cells[2].to_owned(), cells[3].to_owned(), id));
            }
        }
    }
    out
}

fn ids(row: &Row<'_>) -> Vec<String> {
    row.chunks
        .iter()
        .map(|c| {
            c.chunk_id
                .as_ref()
                .map(|i| i.as_str().to_owned())
                .unwrap_or_default()
        })
        .collect()
}

/// Checks every turn of one capture file against the expected situations.
fn check_capture(folder: &str, file: &str, expect_format: &SpanFormat, channel: &str) {
    let Some(root) = shared() else { return };
    let dir = root.join(folder);
    let table = turn_table(&std::fs::read_to_string(dir.join("README.md")).unwrap());
    assert_eq!(table.len(), 8, "{folder}: turn table");
    let data = std::fs::read(dir.join(file)).unwrap();
    let (format, spans) = read_spans(&data);
    assert_eq!(format, expect_format, "{folder}/{file}");
    let traces = group(spans);
    assert_eq!(traces.len(), 8, "{folder}/{file}: traces");
    let opts = AssembleOptions::default();
    for (turn, (agent, session, trace_id)) in &table {
        let spans = traces
            .get(trace_id)
            .unwrap_or_else(|| panic!("{file}: trace of turn {turn}"))
            .clone();
        let t = assemble(trace_id, spans, &opts);
        let row = graded(&t, &numeric());
        let ctx = format!(
            "{folder}/{file} turn {turn}: {row:?}\n{:#?}",
            t.extras().notes
        );
        assert_eq!(row.turn_id.as_str(), trace_id, "{ctx}");
        assert_eq!(&*row.agent_id, agent, "{ctx}");
        assert_eq!(
            row.conversation_id.as_ref().map(|c| c.as_str()),
            Some(session.as_str()),
            "{ctx}"
        );
        assert_eq!(&*row.channel, channel, "{ctx}");
        assert!(t.reply_span().is_some(), "{ctx}");
        assert!(row.latency_ms.is_some_and(|l| l > 0.0), "{ctx}");
        let expected = match turn {
            1 | 8 => Verdict::Ok,
            2 | 3 => Verdict::NoMarker,
            4 | 7 => Verdict::OrphanMarker,
            _ => Verdict::EmptyRetrieval,
        };
        assert_eq!(row.verdict, expected, "{ctx}");
        let chunks = match turn {
            1..=4 | 8 => 3,
            _ => 0,
        };
        assert_eq!(row.chunk_count, chunks, "{ctx}");
        match turn {
            1 => {
                assert_eq!(row.cited_chunks, vec![1], "{ctx}");
                assert_eq!(ids(&row)[0], "KB-1", "{ctx}");
            }
            2 => {
                // Cited by chunk id: the id grammar resolves it.
                let by_id = graded(&t, &Grammar::Preset(Preset::Id));
                assert_eq!(by_id.verdict, Verdict::Ok, "{ctx}");
                assert_eq!(by_id.cited_chunks, vec![1], "{ctx}");
                assert_eq!(ids(&row)[0], "KB-4", "{ctx}");
            }
            4 => assert_eq!(row.out_of_range_markers, 1, "{ctx}"),
            6 => assert_eq!((row.tool_calls, row.tool_errors), (1, 1), "{ctx}"),
            8 => {
                assert_eq!(row.cited_chunks, vec![1, 2], "{ctx}");
                assert_eq!(ids(&row), ["KB-7", "KB-1", "KB-4"], "{ctx}");
                let r = t.retrievals();
                assert_eq!(r.len(), 2, "{ctx}");
                assert_eq!((r[0].used, r[1].used), (false, true), "{ctx}");
                // --retrievals all: both lists, in start order.
                let all = assemble(
                    trace_id,
                    traces[trace_id].clone(),
                    &AssembleOptions {
                        retrievals: ChunkRule::All,
                        ..Default::default()
                    },
                );
                assert_eq!(all.turn().chunks.len(), 6, "{ctx}");
                assert_eq!(
                    ids(&graded(&all, &numeric()))[..3],
                    ["KB-7", "KB-3", "KB-4"]
                );
            }
            _ => {}
        }
        if (1..=4).contains(turn) || *turn == 8 {
            assert!(row.confidence.is_some(), "{ctx}");
            assert!(row.tokens_used.is_some_and(|t| t > 0), "{ctx}");
        }
        // Evidence carries no free text unless asked.
        let ev = t.evidence().to_string();
        assert!(!ev.contains("business days"), "{ctx}");
        assert!(t.evidence_with(true).get("reply").is_some());
        assert_eq!(t.chunk_texts().len(), row.chunk_count as usize);
    }
}

// ------------------------------------------------------------ captures

#[test]
fn phoenix_jsonl_capture() {
    check_capture(
        "phoenix-openinference-langchain",
        "spans.jsonl",
        &PHOENIX_JSONL,
        "web",
    );
}

#[test]
fn phoenix_otlp_capture() {
    check_capture(
        "phoenix-openinference-langchain",
        "spans.otlp.json",
        &PHOENIX_OTLP,
        "web",
    );
}

#[test]
fn phoenix_dataframe_captures() {
    for file in ["spans_dataframe.jsonl", "spans_dataframe.iso.jsonl"] {
        check_capture(
            "phoenix-openinference-langchain",
            file,
            &PHOENIX_DATAFRAME,
            "web",
        );
    }
}

#[test]
fn otlp_genai_util_captures() {
    for file in ["traces.otlp.jsonl", "traces.sdk-json-file.jsonl"] {
        check_capture("otlp-genai-util", file, &OTLP, "chat");
    }
}

#[test]
fn otlp_openllmetry_captures() {
    for file in ["traces.otlp.jsonl", "traces.sdk-json-file.jsonl"] {
        check_capture("otlp-openllmetry-langchain", file, &OTLP, "web");
    }
}

#[test]
fn phoenix_formats_agree_on_chunk_text_and_times() {
    let Some(root) = shared() else { return };
    let dir = root.join("phoenix-openinference-langchain");
    let read = |f: &str| group(read_spans(&std::fs::read(dir.join(f)).unwrap()).1);
    let jsonl = read("spans.jsonl");
    let otlp = read("spans.otlp.json");
    let df = read("spans_dataframe.jsonl");
    let opts = AssembleOptions::default();
    for (id, spans) in &jsonl {
        let a = assemble(id, spans.clone(), &opts);
        let b = assemble(id, otlp[id].clone(), &opts);
        let c = assemble(id, df[id].clone(), &opts);
        assert_eq!(a.chunk_texts(), b.chunk_texts());
        assert_eq!(a.chunk_texts(), c.chunk_texts());
        assert_eq!(a.evidence()["retrievals"], b.evidence()["retrievals"]);
        // ISO microseconds vs exact nanoseconds vs milliseconds.
        let (ta, tb) = (a.turn().created_at, b.turn().created_at);
        assert!((ta - tb).num_microseconds().unwrap().abs() <= 1);
        let tc = c.turn().created_at;
        assert!((ta - tc).num_milliseconds().abs() <= 1);
    }
    // The exact nanosecond integer above 2^53 survives.
    let data = std::fs::read(dir.join("spans.otlp.json")).unwrap();
    let mut out = Vec::new();
    parse_document(&PHOENIX_OTLP, &data, &mut out).unwrap();
    let root = out
        .iter()
        .find(|(_, s)| s.span_id() == "32643381aa209a54")
        .unwrap();
    assert_eq!(root.1.start_ns, Some(1_796_028_320_611_558_912));
    assert_eq!(root.1.end_ns, Some(1_796_028_320_693_167_872));
}

#[test]
fn rest_page_envelope_is_a_document() {
    let Some(root) = shared() else { return };
    let data = std::fs::read(root.join("phoenix-openinference-langchain/rest_page_envelope.json"))
        .unwrap();
    assert_eq!(sniff(&data), Some(&PHOENIX_JSONL));
    assert!(is_document(&PHOENIX_JSONL, &data));
    let mut out = Vec::new();
    parse_document(&PHOENIX_JSONL, &data, &mut out).unwrap();
    assert_eq!(out.len(), 2);
    assert!(out.iter().all(|(line, _)| *line == 1));
    // The same page on one line reads through parse_line too.
    let mut spans = Vec::new();
    read_line(&PHOENIX_JSONL, &data, &mut spans).unwrap();
    assert_eq!(spans.len(), 2);
}

#[test]
fn langfuse_otlp_captures() {
    // Observation types, the root's `langfuse.observation.output`, retriever
    // output JSON and double-encoded metadata (`channel` = "\"web\"").
    for file in ["traces.otlp.jsonl", "traces.sdk-json-file.jsonl"] {
        check_capture("langfuse-otel-langchain", file, &OTLP, "web");
    }
}

#[test]
fn other_captures_are_not_claimed() {
    let Some(root) = shared() else { return };
    for f in [
        "langsmith-langchain/runs.jsonl",
        "langsmith-langchain/ingest_parts.jsonl",
        "langsmith-traceable/runs.jsonl",
    ] {
        let data = std::fs::read(root.join(f)).unwrap();
        assert_eq!(sniff(&data[..data.len().min(64 * 1024)]), None, "{f}");
    }
}

// ------------------------------------------------------------ sniffing

#[test]
fn sniff_tells_formats_apart() {
    assert_eq!(sniff(br#"{"resourceSpans":[]}"#), Some(&OTLP));
    assert_eq!(sniff(b"{\n  \"resourceSpans\": [\n"), Some(&OTLP));
    assert_eq!(
        sniff(br#"{"resource_spans":[{"scope_spans":[{"spans":[{"#),
        Some(&PHOENIX_OTLP)
    );
    assert_eq!(
        sniff(br#"{"id":"x","name":"a","context":{"trace_id":"t","span_id":"s"},"span_kind":"LLM","attributes":{"output.value":"cut he"#),
        Some(&PHOENIX_JSONL)
    );
    assert_eq!(
        sniff(br#"{"name":"a","span_kind":"LLM","context.span_id":"s","context.trace_id":"t"}"#),
        Some(&PHOENIX_DATAFRAME)
    );
    assert_eq!(
        sniff(br#"[{"name":"a","context.span_id":"s"}]"#),
        Some(&PHOENIX_DATAFRAME)
    );
    // Never native turns or agentfootprint events.
    assert_eq!(
        sniff(br#"{"turn_id":"t","agent_id":"a","context":{},"span_kind":"x","reply":"y"}"#),
        None
    );
    assert_eq!(sniff(br#"{"turn_id":"t","reply":"cut"#), None);
    assert_eq!(
        sniff(br#"{"type":"agentfootprint.stream.llm_end","payload":{},"meta":{}}"#),
        None
    );
    assert_eq!(sniff(b""), None);
    assert_eq!(sniff(b"   \n"), None);
    assert_eq!(sniff(b"not json"), None);
    // An event that also has a span's keys: agentfootprint's, both when
    // `sniff` is asked alone and in detection order, where the span
    // dialects no longer parse the first line for agentfootprint again.
    let both =
        br#"{"type":"agentfootprint.stream.llm_end","context":{},"span_kind":"LLM","data":[]}"#;
    assert_eq!(sniff(both), None);
    assert!(Head::of(both).is_some_and(|h| (PHOENIX_JSONL.claims)(&h)));
    assert_eq!(crate::dialect::detect(None, both).name(), "agentfootprint");
    let spans = br#"{"name":"a","context":{},"span_kind":"LLM"}"#;
    assert_eq!(crate::dialect::detect(None, spans).name(), "phoenix-jsonl");
}

#[test]
fn documents_and_lines() {
    assert!(is_document(&PHOENIX_OTLP, br#"{"resource_spans":[]}"#));
    assert!(is_document(
        &PHOENIX_JSONL,
        br#"{"data":[],"next_cursor":null}"#
    ));
    assert!(!is_document(
        &PHOENIX_JSONL,
        br#"{"name":"a","context":{}}"#
    ));
    assert!(is_document(&OTLP, b"{\n  \"resourceSpans\": [\n"));
    assert!(!is_document(
        &OTLP,
        b"{\"resourceSpans\":[]}\n{\"resourceSpans\":[]}\n"
    ));
    assert!(is_document(&PHOENIX_DATAFRAME, b"[{\"name\":1}]"));
}

// ------------------------------------------------------------ fixtures

/// A Phoenix JSONL span line.
fn px(
    trace: &str,
    id: &str,
    parent: Option<&str>,
    kind: &str,
    start_ms: u32,
    end_ms: u32,
    attrs: &str,
) -> String {
    let parent = parent.map_or("null".to_owned(), |p| format!("\"{p}\""));
    format!(
        r#"{{"name":"{kind}-{id}","context":{{"trace_id":"{trace}","span_id":"{id}"}},"span_kind":"{kind}","parent_id":{parent},"start_time":"2026-01-01T00:00:00.{start_ms:03}000+00:00","end_time":"2026-01-01T00:00:00.{end_ms:03}000+00:00","status_code":"OK","attributes":{{{attrs}}}}}"#
    )
}

fn spans_of(lines: &[String]) -> Vec<Span> {
    let mut out = Vec::new();
    for l in lines {
        read_line(&PHOENIX_JSONL, l.as_bytes(), &mut out).unwrap();
    }
    out
}

fn docs(prefix: &str, ids: &[&str]) -> String {
    ids.iter()
        .enumerate()
        .map(|(i, id)| {
            format!(
                r#""{prefix}.{i}.document.id":"{id}","{prefix}.{i}.document.score":0.{i}5,"{prefix}.{i}.document.content":"text {id}""#
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn rag_trace() -> Vec<String> {
    vec![
        px(
            "t1",
            "root",
            None,
            "AGENT",
            0,
            900,
            r#""output.value":"A [1] and [2].","agent.name":"bot","session.id":"s1","metadata.channel":"web""#,
        ),
        px(
            "t1",
            "r1",
            Some("root"),
            "RETRIEVER",
            10,
            20,
            &docs("retrieval.documents", &["a", "b", "c"]),
        ),
        px(
            "t1",
            "llm",
            Some("root"),
            "LLM",
            30,
            800,
            r#""llm.output_messages.0.message.content":"A [1] and [2].","llm.token_count.prompt":10,"llm.token_count.completion":5,"llm.model_name":"m1","llm.cost.total":0.01"#,
        ),
        px(
            "t1",
            "tool",
            Some("root"),
            "TOOL",
            25,
            28,
            r#""tool.name":"lookup""#,
        ),
    ]
}

#[test]
fn fixture_basic_and_out_of_order() {
    let lines = rag_trace();
    let t = assemble("t1", spans_of(&lines), &AssembleOptions::default());
    let row = graded(&t, &numeric());
    assert_eq!(row.verdict, Verdict::Ok);
    assert_eq!(row.cited_chunks, vec![1, 2]);
    assert_eq!(ids(&row), ["a", "b", "c"]);
    assert_eq!(row.chunks[1].score, Some(0.15));
    assert_eq!(
        (&*row.agent_id, &*row.channel, row.model.as_deref()),
        ("bot", "web", Some("m1"))
    );
    assert_eq!(row.tokens_used, Some(15));
    assert!((row.cost_cents.unwrap() - 1.0).abs() < 1e-9);
    assert_eq!((row.tool_calls, row.tool_errors), (1, 0));
    assert_eq!(row.latency_ms, Some(900.0));
    assert_eq!(t.reply_span(), Some("root"));
    assert_eq!(
        t.chunk_texts(),
        vec![
            Some("text a".into()),
            Some("text b".into()),
            Some("text c".into())
        ]
    );
    // Every arrival order gives the same turn.
    let mut rev = lines.clone();
    rev.reverse();
    let mut rot = lines.clone();
    rot.rotate_left(2);
    for order in [rev, rot] {
        let u = assemble("t1", spans_of(&order), &AssembleOptions::default());
        assert_eq!(format!("{:?}", u.turn()), format!("{:?}", t.turn()));
        assert_eq!(u.evidence(), t.evidence());
    }
    // The agent option wins.
    let o = AssembleOptions {
        agent_name: Some("forced".into()),
        retrievals: ChunkRule::Last,
    };
    assert_eq!(
        &*assemble("t1", spans_of(&lines), &o).turn().agent_id,
        "forced"
    );
}

#[test]
fn fixture_missing_root() {
    let mut lines = rag_trace();
    lines.remove(0);
    let t = assemble("t1", spans_of(&lines), &AssembleOptions::default());
    let row = graded(&t, &numeric());
    assert_eq!(row.verdict, Verdict::Unobserved);
    assert_eq!(row.unobserved_reason, Some(Unobserved::NoRoot));
    assert_eq!(row.chunk_count, 3, "chunks are still reported");
    assert_eq!(t.root_span(), None);
    assert_eq!(t.reply_span(), None);
    // A parent cycle is handled too.
    let cyc = vec![
        px("t2", "a", Some("b"), "CHAIN", 0, 5, ""),
        px("t2", "b", Some("a"), "CHAIN", 1, 4, ""),
    ];
    let t = assemble("t2", spans_of(&cyc), &AssembleOptions::default());
    assert!(matches!(
        t.turn().answer,
        crate::model::Answer::Unobserved(Unobserved::NoRoot)
    ));
    // No spans at all.
    let t = assemble("t3", Vec::new(), &AssembleOptions::default());
    assert_eq!(graded(&t, &numeric()).verdict, Verdict::Unobserved);
}

#[test]
fn fixture_reranker_replaces_its_list() {
    let lines = vec![
        px(
            "t",
            "root",
            None,
            "CHAIN",
            0,
            900,
            r#""output.value":"See [1].""#,
        ),
        px(
            "t",
            "r1",
            Some("root"),
            "RETRIEVER",
            10,
            20,
            &docs("retrieval.documents", &["a", "b", "c"]),
        ),
        px(
            "t",
            "rr",
            Some("root"),
            "RERANKER",
            21,
            25,
            &format!(
                "{},{}",
                docs("reranker.input_documents", &["a", "b", "c"]),
                docs("reranker.output_documents", &["c", "a"])
            ),
        ),
        px(
            "t",
            "llm",
            Some("root"),
            "LLM",
            30,
            800,
            r#""llm.output_messages.0.message.content":"See [1].""#,
        ),
    ];
    for all in [false, true] {
        let o = AssembleOptions {
            agent_name: None,
            retrievals: if all { ChunkRule::All } else { ChunkRule::Last },
        };
        let t = assemble("t", spans_of(&lines), &o);
        let row = graded(&t, &numeric());
        assert_eq!(ids(&row), ["c", "a"], "all={all}");
        assert_eq!(t.retrievals()[0].replaced_by.as_deref(), Some("rr"));
        assert!(
            t.extras()
                .notes
                .iter()
                .any(|n| n.contains("replaced by reranker"))
        );
    }
}

#[test]
fn fixture_retrieval_after_the_answer_is_not_a_source() {
    let lines = vec![
        px("t", "root", None, "CHAIN", 0, 900, ""),
        px(
            "t",
            "r1",
            Some("root"),
            "RETRIEVER",
            10,
            20,
            &docs("retrieval.documents", &["a"]),
        ),
        px(
            "t",
            "llm",
            Some("root"),
            "LLM",
            30,
            40,
            r#""llm.output_messages.0.message.content":"Done [1].""#,
        ),
        px(
            "t",
            "r2",
            Some("root"),
            "RETRIEVER",
            50,
            60,
            &docs("retrieval.documents", &["late1", "late2"]),
        ),
    ];
    let t = assemble("t", spans_of(&lines), &AssembleOptions::default());
    let row = graded(&t, &numeric());
    assert_eq!(t.reply_span(), Some("llm"));
    assert_eq!(ids(&row), ["a"]);
    assert_eq!(row.verdict, Verdict::Ok);
    assert!(!t.retrievals()[1].used && !t.retrievals()[1].before_reply);
    // Also with --retrievals all.
    let all = AssembleOptions {
        agent_name: None,
        retrievals: ChunkRule::All,
    };
    assert_eq!(assemble("t", spans_of(&lines), &all).turn().chunks.len(), 1);
    // An empty retrieval is a single unflattened empty list.
    let empty = vec![
        px(
            "t",
            "root",
            None,
            "CHAIN",
            0,
            900,
            r#""output.value":"Sure [1].""#,
        ),
        px(
            "t",
            "r1",
            Some("root"),
            "RETRIEVER",
            10,
            20,
            r#""retrieval.documents":[]"#,
        ),
    ];
    let t = assemble("t", spans_of(&empty), &AssembleOptions::default());
    let row = graded(&t, &numeric());
    assert_eq!(row.verdict, Verdict::OrphanMarker);
    assert_eq!(t.retrievals().len(), 1);
    assert!(t.retrievals()[0].recorded && t.retrievals()[0].used);
}

#[test]
fn fixture_documents_without_ids_or_scores() {
    let a = r#""retrieval.documents.0.document.content":"x","retrieval.documents.0.document.metadata.doc_id":"D1","retrieval.documents.0.document.metadata.chunk_id":"C1","retrieval.documents.0.document.metadata.source":"src.md","retrieval.documents.0.document.metadata.score":0.5"#;
    let b = r#""retrieval.documents.1.document.metadata":"{\"source\":\"s.md\",\"id\":\"M2\"}""#;
    let c = r#""retrieval.documents.2.document.content":"no ids at all","retrieval.documents.2.document.score":0"#;
    let lines = vec![
        px(
            "t",
            "root",
            None,
            "CHAIN",
            0,
            900,
            r#""output.value":"[1]""#,
        ),
        px(
            "t",
            "r1",
            Some("root"),
            "RETRIEVER",
            10,
            20,
            &format!("{a},{b},{c}"),
        ),
    ];
    let t = assemble("t", spans_of(&lines), &AssembleOptions::default());
    let row = graded(&t, &numeric());
    let c0 = &row.chunks[0];
    assert_eq!(c0.chunk_id.as_ref().unwrap().as_str(), "C1");
    assert_eq!(c0.document_id.as_ref().unwrap().as_str(), "D1");
    assert_eq!(c0.score, Some(0.5), "metadata score");
    let c1 = &row.chunks[1];
    assert_eq!(c1.chunk_id.as_ref().unwrap().as_str(), "M2");
    assert_eq!(c1.document_id.as_ref().unwrap().as_str(), "s.md");
    assert_eq!(c1.score, None, "no score is null, never 0");
    let c2 = &row.chunks[2];
    assert!(c2.chunk_id.is_none() && c2.document_id.is_none());
    assert_eq!(c2.score, Some(0.0), "a real 0 stays");
    let notes = t.extras().notes.join("\n");
    assert!(notes.contains("1 chunk(s) have no id"), "{notes}");
    assert!(notes.contains("1 chunk(s) have no score"), "{notes}");
}

/// An OTLP request line with the given spans (each already JSON).
fn otlp(spans: &[String]) -> String {
    format!(
        r#"{{"resourceSpans":[{{"resource":{{"attributes":[{{"key":"service.name","value":{{"stringValue":"svc"}}}}]}},"scopeSpans":[{{"scope":{{"name":"x"}},"spans":[{}]}}]}}]}}"#,
        spans.join(",")
    )
}

fn ospan(id: &str, parent: Option<&str>, start: u64, end: u64, attrs: &[(&str, &str)]) -> String {
    let parent = parent.map_or(String::new(), |p| format!(r#""parentSpanId":"{p}","#));
    let attrs: Vec<String> = attrs
        .iter()
        .map(|(k, v)| format!(r#"{{"key":"{k}","value":{v}}}"#))
        .collect();
    format!(
        r#"{{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"{id}",{parent}"name":"n-{id}","kind":1,"startTimeUnixNano":"{start}","endTimeUnixNano":"{end}","attributes":[{}],"status":{{}}}}"#,
        attrs.join(",")
    )
}

fn otlp_trace(line: &str) -> Trace {
    let mut out = Vec::new();
    read_line(&OTLP, line.as_bytes(), &mut out).unwrap();
    let id = out[0].trace_id().to_owned();
    assemble(&id, out, &AssembleOptions::default())
}

const S: &str = r#"{"stringValue":"#;

#[test]
fn fixture_content_not_recorded() {
    let op = |o: &str| format!(r#"{S}"{o}"}}"#);
    let line = otlp(&[
        ospan(
            "00000000000000a1",
            None,
            1_000,
            9_000,
            &[
                ("gen_ai.operation.name", &op("invoke_agent")),
                ("gen_ai.agent.name", &op("bot")),
            ],
        ),
        ospan(
            "00000000000000a2",
            Some("00000000000000a1"),
            2_000,
            3_000,
            &[("gen_ai.operation.name", &op("retrieval"))],
        ),
        ospan(
            "00000000000000a3",
            Some("00000000000000a1"),
            4_000,
            8_000,
            &[
                ("gen_ai.operation.name", &op("chat")),
                ("gen_ai.usage.input_tokens", r#"{"intValue":"7"}"#),
            ],
        ),
    ]);
    let t = otlp_trace(&line);
    let row = graded(&t, &numeric());
    assert_eq!(row.verdict, Verdict::Unobserved);
    assert_eq!(row.unobserved_reason, Some(Unobserved::ContentNotRecorded));
    assert_eq!(&*row.agent_id, "bot");
    assert_eq!(row.tokens_used, Some(7));
    assert!(!t.retrievals()[0].recorded);
    // Without any model span, a missing reply is just no_reply.
    let line = otlp(&[ospan("00000000000000a1", None, 1, 9, &[])]);
    let row = graded(&otlp_trace(&line), &numeric());
    assert_eq!(row.unobserved_reason, Some(Unobserved::NoReply));
    assert_eq!(&*row.agent_id, "n-00000000000000a1");
}

#[test]
fn fixture_genai_reply_chunks_and_usage_names() {
    let docs =
        r#"{"stringValue":"[{\"id\":\"KB-1\",\"score\":0.9},{\"id\":\"KB-2\",\"score\":null}]"}"#;
    let out = r#"{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"name\":\"x\"},{\"content\":\"Yes [2].\",\"type\":\"text\"}],\"finish_reason\":\"stop\"}]"}"#;
    let line = otlp(&[
        ospan(
            "00000000000000a1",
            None,
            1_000,
            9_000,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"invoke_agent"}"#),
                ("gen_ai.agent.id", r#"{"stringValue":"agt-7"}"#),
                ("gen_ai.conversation.id", r#"{"stringValue":"c9"}"#),
            ],
        ),
        ospan(
            "00000000000000a2",
            Some("00000000000000a1"),
            2_000,
            3_000,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"retrieval"}"#),
                ("gen_ai.retrieval.documents", docs),
            ],
        ),
        ospan(
            "00000000000000a3",
            Some("00000000000000a1"),
            4_000,
            5_000,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"chat"}"#),
                ("gen_ai.usage.prompt_tokens", r#"{"intValue":"10"}"#),
                ("gen_ai.usage.completion_tokens", r#"{"intValue":3}"#),
                ("gen_ai.response.model", r#"{"stringValue":"m"}"#),
            ],
        ),
        ospan(
            "00000000000000a4",
            Some("00000000000000a1"),
            6_000,
            8_000,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"chat"}"#),
                ("gen_ai.usage.input_tokens", r#"{"intValue":"20"}"#),
                ("gen_ai.usage.output_tokens", r#"{"intValue":"5"}"#),
                ("gen_ai.output.messages", out),
            ],
        ),
        ospan(
            "00000000000000a5",
            Some("00000000000000a1"),
            5_100,
            5_900,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"execute_tool"}"#),
                ("gen_ai.tool.name", r#"{"stringValue":"lookup"}"#),
                ("error.type", r#"{"stringValue":"Timeout"}"#),
            ],
        ),
    ]);
    let t = otlp_trace(&line);
    let row = graded(&t, &numeric());
    assert_eq!(row.verdict, Verdict::Ok);
    assert_eq!(row.cited_chunks, vec![2]);
    assert_eq!(row.chunks[1].score, None);
    assert_eq!(t.reply_span(), Some("00000000000000a4"));
    assert_eq!(row.tokens_used, Some(38), "old and new usage names summed");
    assert_eq!((row.tool_calls, row.tool_errors), (1, 1));
    assert_eq!(&*row.agent_id, "agt-7");
    assert_eq!(row.conversation_id.as_ref().unwrap().as_str(), "c9");
    assert_eq!(row.latency_ms, Some(0.008));
    assert_eq!(t.extras().tools[0].status, "error");
    assert_eq!(t.extras().tools[0].duration_ms, Some(0.0008));
}

#[test]
fn fixture_structured_attributes_as_kvlist() {
    // gen_ai.output.messages as a structured arrayValue of kvlists.
    let kv = |k: &str, v: &str| format!(r#"{{"key":"{k}","value":{v}}}"#);
    let part = format!(
        r#"{{"kvlistValue":{{"values":[{},{}]}}}}"#,
        kv("type", r#"{"stringValue":"text"}"#),
        kv("content", r#"{"stringValue":"Hello [1]."}"#)
    );
    let msg = format!(
        r#"{{"arrayValue":{{"values":[{{"kvlistValue":{{"values":[{},{}]}}}}]}}}}"#,
        kv("role", r#"{"stringValue":"assistant"}"#),
        kv(
            "parts",
            &format!(r#"{{"arrayValue":{{"values":[{part}]}}}}"#)
        )
    );
    let line = otlp(&[ospan(
        "00000000000000a1",
        None,
        1,
        9,
        &[
            ("gen_ai.operation.name", r#"{"stringValue":"invoke_agent"}"#),
            ("gen_ai.output.messages", &msg),
        ],
    )]);
    let t = otlp_trace(&line);
    assert_eq!(graded(&t, &numeric()).verdict, Verdict::OrphanMarker);
    assert_eq!(&*t.turn().agent_id, "n-00000000000000a1", "the root's name");
}

#[test]
fn output_text_reads_json_replies() {
    use super::attrs::output_text;
    assert_eq!(output_text("plain [1]", None).as_deref(), Some("plain [1]"));
    assert_eq!(
        output_text(r#"{"output":"x [1]"}"#, None).as_deref(),
        Some("x [1]")
    );
    assert_eq!(
        output_text(r#"{"outputs":"y","kwargs":{"tags":["a"]}}"#, None).as_deref(),
        Some("y")
    );
    assert_eq!(
        output_text(
            r#"{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a [2]"}]}"#,
            Some("application/json")
        )
        .as_deref(),
        Some("a [2]")
    );
    assert_eq!(
        output_text(
            r#"{"messages":[{"type":"ai","content":"z"},{"type":"human","content":"q"}]}"#,
            None
        )
        .as_deref(),
        Some("z")
    );
    assert_eq!(
        output_text(r#"{"documents":[]}"#, None),
        None,
        "non-text JSON"
    );
    assert_eq!(output_text("", None), None);
    assert_eq!(
        output_text("[1] cites first", None).as_deref(),
        Some("[1] cites first")
    );
    assert_eq!(output_text("[1]", None).as_deref(), Some("[1]"));
    assert_eq!(
        output_text("{not json", Some("application/json")).as_deref(),
        Some("{not json")
    );
}

// ------------------------------------------------------------ hostile input

const SECRET: &str = "SECRET-VALUE";

fn reason_of(format: &SpanFormat, line: &str) -> String {
    let mut out = Vec::new();
    let r = read_line(format, line.as_bytes(), &mut out);
    assert!(out.is_empty(), "nothing kept on error");
    r.expect_err("invalid")
}

#[test]
fn hostile_lines_give_clean_reasons() {
    let cases: Vec<(&'static SpanFormat, String)> = vec![
        (
            &OTLP,
            format!(
                r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"traceId":5,"spanId":"{SECRET}"}}]}}]}}]}}"#
            ),
        ),
        (
            &OTLP,
            format!(
                r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"traceId":"{SECRET}","spanId":"b","startTimeUnixNano":"{SECRET}"}}]}}]}}]}}"#
            ),
        ),
        (&OTLP, format!(r#"{{"resourceSpans":"{SECRET}"}}"#)),
        (&OTLP, format!(r#"{{"other":"{SECRET}"}}"#)),
        (
            &OTLP,
            format!(
                r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"spanId":"{SECRET}"}}]}}]}}]}}"#
            ),
        ),
        (&OTLP, format!(r#"{{"resourceSpans":[ "{SECRET}"#)),
        (
            &PHOENIX_JSONL,
            format!(r#"{{"context":{{"trace_id":"{SECRET}"}},"name":"x"}}"#),
        ),
        (
            &PHOENIX_JSONL,
            format!(r#"{{"context":{{"trace_id":"a","span_id":"b"}},"name":["{SECRET}"]}}"#),
        ),
        (
            &PHOENIX_JSONL,
            format!(
                r#"{{"context":{{"trace_id":"a","span_id":"b"}},"start_time":{{"x":"{SECRET}"}}}}"#
            ),
        ),
        (&PHOENIX_JSONL, format!(r#"["{SECRET}"]"#)),
        (
            &PHOENIX_DATAFRAME,
            format!(r#"{{"context.span_id":"b","context.trace_id":["{SECRET}"]}}"#),
        ),
        (&PHOENIX_JSONL, format!(r#"{{"{SECRET}":1"#)),
    ];
    for (format, line) in cases {
        let r = reason_of(format, &line);
        assert!(!r.contains("SECRET"), "{r}");
        assert!(r.len() <= crate::dialect::MAX_REASON + 3, "{r}");
        assert!(!r.is_empty());
    }
}

#[test]
fn hostile_attribute_values_are_ignored_not_fatal() {
    let deep_any = format!(
        "{}{{\"stringValue\":\"x\"}}{}",
        r#"{"arrayValue":{"values":["#.repeat(300),
        "]}}".repeat(300)
    );
    let deep_json = format!(
        r#"{{"stringValue":"{}1{}"}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let line = otlp(&[ospan(
        "00000000000000a1",
        None,
        1,
        9,
        &[
            ("output.value", r#"{"stringValue":5}"#),
            (
                "gen_ai.usage.input_tokens",
                r#"{"intValue":"99999999999999999999999999"}"#,
            ),
            ("gen_ai.usage.output_tokens", r#"{"intValue":"-4"}"#),
            ("llm.token_count.total", r#"{"doubleValue":"NaN"}"#),
            ("gen_ai.agent.name", &deep_any),
            ("gen_ai.output.messages", &deep_json),
            (
                "gen_ai.retrieval.documents",
                r#"{"stringValue":"[{\"id\":{\"x\":1},\"score\":\"high\"}]"}"#,
            ),
            (
                "retrieval.documents.99999999999.document.id",
                r#"{"stringValue":"far"}"#,
            ),
            (
                "retrieval.documents.4294967296.document.id",
                r#"{"stringValue":"far"}"#,
            ),
            ("llm.cost.total", r#"{"doubleValue":1e308}"#),
            ("session.id", r#"{"boolValue":true}"#),
        ],
    )]);
    let mut out = Vec::new();
    read_line(&OTLP, line.as_bytes(), &mut out).unwrap();
    let s = &out[0];
    assert_eq!(s.output, None);
    assert_eq!(s.tokens.prompt, None);
    assert_eq!(s.tokens.completion, None);
    assert_eq!(s.tokens.total, None);
    assert_eq!(s.conversation, None);
    assert_eq!(s.retrieval.as_ref().map(Vec::len), Some(1));
    let d = &s.retrieval.as_ref().unwrap()[0];
    assert_eq!((d.chunk_id.as_deref(), d.score), (None, None));
    let t = assemble(s.trace_id(), out.clone(), &AssembleOptions::default());
    let _ = graded(&t, &numeric());
    let _ = t.evidence_with(true);

    // Phoenix: wrong-typed, huge and deep attribute values.
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    let line = format!(
        r#"{{"context":{{"trace_id":"a","span_id":"b"}},"span_kind":"RETRIEVER","start_time":123456789012345678901234567890,"end_time":"garbage","attributes":{{"retrieval.documents":{deep},"retrieval.documents.0.document.score":"0.5","retrieval.documents.0.document.id":12,"output.value":{{"a":1}},"metadata":{{"channel":7,"session_id":["x"]}},"llm.token_count.total":1e400}}}}"#
    );
    // 1e400 is not a number serde accepts, and the times do not read: the
    // line is invalid, never a panic.
    let _ = reason_of(&PHOENIX_JSONL, &line);
    // Times that do not read make the span invalid, naming the field.
    let line = line.replace("1e400", "1");
    let r = reason_of(&PHOENIX_JSONL, &line);
    assert!(r.contains("`start_time`: outside years 0000-9999"), "{r}");
    let line = line.replace("123456789012345678901234567890", "null");
    let r = reason_of(&PHOENIX_JSONL, &line);
    assert!(
        r.contains("`end_time`: not a time (RFC 3339 or epoch)"),
        "{r}"
    );
    // Wrong-typed attributes are ignored.
    let line = line.replace(r#""garbage""#, "null");
    let mut out = Vec::new();
    read_line(&PHOENIX_JSONL, line.as_bytes(), &mut out).unwrap();
    let s = &out[0];
    assert_eq!(
        s.retrieval.as_ref().unwrap()[0].chunk_id.as_deref(),
        Some("12")
    );
    assert_eq!(s.retrieval.as_ref().unwrap()[0].score, Some(0.5));
    assert_eq!(s.channel, None);
    assert_eq!((s.start_ns, s.end_ns), (None, None));
    let t = assemble("a", out, &AssembleOptions::default());
    let _ = graded(&t, &numeric());
}

/// A time that does not read makes its span invalid, the reason naming
/// the field (never the value, never the epoch in its place), in the
/// one-pass OTLP reader and the serde reader alike.
#[test]
fn unreadable_times_make_the_span_invalid_naming_the_field() {
    let line = otlp(&[ospan("00000000000000a1", None, 1, 9, &[])]);
    let start = r#""startTimeUnixNano":"1""#;
    let end = r#""endTimeUnixNano":"9""#;
    for (field, time, want) in [
        (
            start,
            r#""2024-12-04T10:00:00Z""#,
            "`startTimeUnixNano`: not a time",
        ),
        (start, r#""2024-12-04""#, "`startTimeUnixNano`: not a time"),
        (start, r#""SECRET""#, "`startTimeUnixNano`: not a time"),
        (start, r#""""#, "`startTimeUnixNano`: not a time"),
        (start, "true", "`startTimeUnixNano`: not a time"),
        (
            start,
            r#""253402300800000000000""#,
            "`startTimeUnixNano`: outside years 0000-9999",
        ),
        (
            start,
            &"9".repeat(45),
            "`startTimeUnixNano`: outside years 0000-9999",
        ),
        (end, "1e30", "`endTimeUnixNano`: outside years 0000-9999"),
        (
            end,
            r#""-62167219200000000001""#,
            "`endTimeUnixNano`: outside years 0000-9999",
        ),
    ] {
        let bad = line.replace(
            field,
            &format!("{}:{time}", field.split(':').next().unwrap()),
        );
        assert_ne!(bad, line);
        let r = reason_of(&OTLP, &bad);
        assert!(r.contains(want), "{time}: {r}");
        assert!(!r.contains("SECRET"), "{r}");
        let mut out = Vec::new();
        assert!(parse_document(&OTLP, bad.as_bytes(), &mut out).is_err());
    }
    // The edges of the years, exactly; a float is rounded.
    for (time, ns) in [
        (r#""-62167219200000000000""#, -62_167_219_200_000_000_000),
        (r#""253402300799999999999""#, 253_402_300_799_999_999_999),
        ("1.5e18", 1_500_000_000_000_000_000),
    ] {
        let good = line.replace(start, &format!(r#""startTimeUnixNano":{time}"#));
        let mut out = Vec::new();
        read_line(&OTLP, good.as_bytes(), &mut out).unwrap();
        assert_eq!(out[0].start_ns, Some(ns), "{time}");
    }

    // Phoenix: ISO text in any offset spelling, epoch numbers and digits.
    let span = px("t", "s", None, "LLM", 0, 1, "");
    let start = r#""start_time":"2026-01-01T00:00:00.000000+00:00""#;
    assert!(span.contains(start));
    let at = |time: &str| {
        let mut out = Vec::new();
        let line = span.replace(start, &format!(r#""start_time":{time}"#));
        read_line(&PHOENIX_JSONL, line.as_bytes(), &mut out).map(|()| out[0].start_ns)
    };
    let ms = Some(1_733_342_369_374_000_000);
    for time in [
        r#""2024-12-04T19:59:29.374Z""#,
        r#""2024-12-04T19:59:29.374+00:00""#,
        r#""2024-12-04T19:59:29.374+0000""#,
        r#""2024-12-04T14:29:29.374-0530""#,
        r#""2024-12-04 19:59:29.374""#,
        r#""1733342369374""#,
        "1733342369374",
        "1733342369.374",
    ] {
        let got = at(time).unwrap();
        assert!(
            got.zip(ms).is_some_and(|(g, m)| (g - m).abs() < 1_000),
            "{time}: {got:?}"
        );
    }
    assert_eq!(at("null"), Ok(None));
    assert_eq!(at(r#""""#), Ok(None));
    for (time, want) in [
        (
            r#""2024-12-04""#,
            "`start_time`: not a time (RFC 3339 or epoch)",
        ),
        (
            r#""SECRET""#,
            "`start_time`: not a time (RFC 3339 or epoch)",
        ),
        (
            r#""9999-12-31T23:30:00-01:00""#,
            "`start_time`: outside years 0000-9999",
        ),
        ("1e25", "`start_time`: outside years 0000-9999"),
        (
            r#""300000000000000000000""#,
            "`start_time`: outside years 0000-9999",
        ),
    ] {
        let r = at(time).unwrap_err();
        assert!(r.contains(want), "{time}: {r}");
        assert!(!r.contains("SECRET"), "{r}");
    }
}

#[test]
fn ids_are_normalized() {
    let line = otlp(&[ospan(
        "00000000000000a1",
        Some("0000000000000000"),
        1,
        9,
        &[],
    )]);
    let mut out = Vec::new();
    read_line(&OTLP, line.as_bytes(), &mut out).unwrap();
    assert_eq!(out[0].parent_id, None, "an all-zero parent is no parent");
    let line = line.replace(
        r#""parentSpanId":"0000000000000000","#,
        r#""parentSpanId":"","#,
    );
    let mut out = Vec::new();
    read_line(&OTLP, line.as_bytes(), &mut out).unwrap();
    assert_eq!(out[0].parent_id, None);
    // Blank lines give nothing.
    read_line(&OTLP, b"  \r", &mut out).unwrap();
    assert_eq!(out.len(), 1);
}

/// One trace written with upper-case hex ids in some spans and lower-case
/// in others (the OTLP spec's own example writes upper case) is one trace,
/// its ids in lower case wherever they are read; other ids keep their case.
#[test]
fn hex_ids_are_read_in_lower_case() {
    const UPPER: &str = "0AF7651916CD43DD8448EB211C80319C";
    let root = ospan("00000000000000A1", None, 1, 9, &[])
        .replace("0af7651916cd43dd8448eb211c80319c", UPPER);
    let child = ospan("00000000000000b2", Some("00000000000000A1"), 2, 8, &[]);
    let line = otlp(&[root, child]);
    // The one-pass reader (a line) and the serde reader (a document).
    let mut by_line = Vec::new();
    read_line(&OTLP, line.as_bytes(), &mut by_line).unwrap();
    let mut by_doc = Vec::new();
    parse_document(&OTLP, line.as_bytes(), &mut by_doc).unwrap();
    let by_doc: Vec<Span> = by_doc.into_iter().map(|(_, s)| s).collect();
    assert_eq!(by_line, by_doc);
    let traces = group(by_line);
    assert_eq!(traces.len(), 1, "one trace, not one per spelling");
    let (id, spans) = traces.into_iter().next().unwrap();
    assert_eq!(id, "0af7651916cd43dd8448eb211c80319c");
    assert_eq!(spans[0].span_id(), "00000000000000a1");
    assert_eq!(spans[1].parent_id.as_deref(), Some("00000000000000a1"));
    let t = assemble(&id, spans, &AssembleOptions::default());
    assert_eq!(t.turn().turn_id.as_str(), id);
    let notes = t.extras().notes.join("\n");
    assert!(!notes.contains("never arrived"), "{notes}");

    // Phoenix: trace, span and parent ids; a UUID too.
    let uuid = "01A22BA1-F55E-731E-8981-B9B09FDCC14B";
    let spans = spans_of(&[
        px(UPPER, "EEE19B7EC3C1B174", None, "AGENT", 0, 9, ""),
        px(uuid, "r1", Some("EEE19B7EC3C1B174"), "RETRIEVER", 1, 2, ""),
    ]);
    assert_eq!(spans[0].trace_id(), "0af7651916cd43dd8448eb211c80319c");
    assert_eq!(spans[0].span_id(), "eee19b7ec3c1b174");
    assert_eq!(spans[1].trace_id(), uuid.to_ascii_lowercase());
    assert_eq!(spans[1].parent_id.as_deref(), Some("eee19b7ec3c1b174"));

    // Free text keeps its case: it is not a hex id.
    let spans = spans_of(&[px(
        "Fixture-Trace-1",
        "ABCDEF",
        Some("Root-A"),
        "LLM",
        0,
        1,
        "",
    )]);
    assert_eq!(spans[0].trace_id(), "Fixture-Trace-1");
    assert_eq!(spans[0].span_id(), "ABCDEF");
    assert_eq!(spans[0].parent_id.as_deref(), Some("Root-A"));
}

#[test]
fn nested_phoenix_attributes_are_flattened() {
    let line = r#"{"name":"r","context":{"trace_id":"t","span_id":"s"},"parent_id":null,"start_time":"2026-01-01T00:00:00Z","end_time":"2026-01-01T00:00:01Z","attributes":{"openinference":{"span":{"kind":"AGENT"}},"output":{"value":"Hi [1]."},"session":{"id":"s9"},"retrieval":{"documents":[{"document":{"id":"d1","score":0.4}}]}}}"#;
    let mut out = Vec::new();
    read_line(&PHOENIX_JSONL, line.as_bytes(), &mut out).unwrap();
    let s = &out[0];
    assert_eq!(s.kind, SpanKind::Agent);
    assert_eq!(s.output.as_deref(), Some("Hi [1]."));
    assert_eq!(s.conversation.as_deref(), Some("s9"));
    assert_eq!(
        s.retrieval.as_ref().unwrap()[0].chunk_id.as_deref(),
        Some("d1")
    );
}

#[test]
fn fixture_langfuse_attributes() {
    let st = |v: &str| format!("{S}{}}}", serde_json::to_string(v).unwrap());
    let (root, retr, generation, tool, event) = (
        "1000000000000001",
        "1000000000000002",
        "1000000000000003",
        "1000000000000004",
        "1000000000000005",
    );
    let docs = r#"[{"id": "KB-1", "metadata": {"source": "a.md", "score": 0.5}, "page_content": "one", "type": "Document"}, {"metadata": {"chunk_id": "KB-2"}, "page_content": "two"}]"#;
    let line = otlp(&[
        ospan(
            retr,
            Some(root),
            20,
            30,
            &[
                ("langfuse.observation.type", &st("retriever")),
                ("langfuse.observation.input", &st("refunds?")),
                ("langfuse.observation.output", &st(docs)),
            ],
        ),
        ospan(
            generation,
            Some(root),
            40,
            60,
            &[
                ("langfuse.observation.type", &st("generation")),
                (
                    "langfuse.observation.output",
                    &st(r#"{"role": "assistant", "content": "from the llm [1]"}"#),
                ),
                ("langfuse.observation.model.name", &st("gpt-x")),
                (
                    "langfuse.observation.usage_details",
                    &st(r#"{"input": 100, "output": 20, "total": 120}"#),
                ),
                (
                    "langfuse.observation.cost_details",
                    &st(r#"{"input": 0.01, "output": 0.02, "total": 0.03}"#),
                ),
            ],
        ),
        ospan(
            tool,
            Some(root),
            61,
            62,
            &[
                ("langfuse.observation.type", &st("tool")),
                ("langfuse.observation.level", &st("ERROR")),
            ],
        ),
        ospan(
            event,
            Some(root),
            63,
            63,
            &[("langfuse.observation.type", &st("event"))],
        ),
        ospan(
            root,
            None,
            10,
            100,
            &[
                ("langfuse.observation.type", &st("agent")),
                ("langfuse.session.id", &st("sess-9")),
                ("langfuse.trace.metadata.channel", &st("\"web\"")),
                (
                    "langfuse.observation.metadata.agent",
                    &st("\"billing-bot\""),
                ),
                ("langfuse.trace.metadata.turn", &st("1")),
                (
                    "langfuse.observation.output",
                    &st("Refunds take 5 days [1] [2]."),
                ),
            ],
        ),
    ]);
    let t = otlp_trace(&line);
    let row = graded(&t, &numeric());
    let ctx = format!("{row:?}\n{:#?}", t.extras().notes);
    assert_eq!(row.verdict, Verdict::Ok, "{ctx}");
    assert_eq!(row.cited_chunks, vec![1, 2], "{ctx}");
    assert_eq!(ids(&row), ["KB-1", "KB-2"], "{ctx}");
    assert_eq!(row.chunks[0].score, Some(0.5), "{ctx}");
    assert_eq!(
        row.chunks[0].document_id.as_ref().map(|d| d.as_str()),
        Some("a.md")
    );
    assert_eq!(&*row.channel, "web", "{ctx}");
    assert_eq!(&*row.agent_id, "billing-bot", "{ctx}");
    assert_eq!(
        row.conversation_id.as_ref().map(|c| c.as_str()),
        Some("sess-9")
    );
    assert_eq!(row.model.as_deref(), Some("gpt-x"), "{ctx}");
    assert_eq!(row.tokens_used, Some(120), "{ctx}");
    assert!(
        row.cost_cents.is_some_and(|c| (c - 3.0).abs() < 1e-9),
        "{ctx}"
    );
    assert_eq!((row.tool_calls, row.tool_errors), (1, 1), "{ctx}");
    assert_eq!(t.reply_span(), Some(root));
    let kinds = &t.evidence()["span_kinds"];
    assert_eq!(kinds["agent"], 1, "{kinds}");
    assert_eq!(kinds["llm"], 1, "{kinds}");
    assert_eq!(kinds["retriever"], 1, "{kinds}");
    assert_eq!(kinds["tool"], 1, "{kinds}");
    assert_eq!(kinds["unknown"], 1, "{kinds}");

    // Metadata set as one map is one JSON string; plain (not double-encoded)
    // values are read as they are.
    let line = otlp(&[ospan(
        root,
        None,
        10,
        100,
        &[
            ("langfuse.observation.type", &st("span")),
            (
                "langfuse.trace.metadata",
                &st(r#"{"channel": "voice", "session_id": "sess-7", "agent": "bot-7"}"#),
            ),
            ("langfuse.observation.output", &st("no sources")),
        ],
    )]);
    let t = otlp_trace(&line);
    let row = graded(&t, &numeric());
    assert_eq!(&*row.channel, "voice");
    assert_eq!(&*row.agent_id, "bot-7");
    assert_eq!(
        row.conversation_id.as_ref().map(|c| c.as_str()),
        Some("sess-7")
    );
    let line = otlp(&[ospan(
        root,
        None,
        10,
        100,
        &[
            ("langfuse.observation.metadata.channel", &st("sms")),
            ("langfuse.observation.output", &st("hello")),
        ],
    )]);
    assert_eq!(&*graded(&otlp_trace(&line), &numeric()).channel, "sms");
}

// ------------------------------------------------------------ properties
//
// The invariants of fuzz/fuzz_targets/spans.rs, checked in `cargo test` on
// random bytes and on random OTLP / Phoenix / dataframe JSON with hostile
// attribute values (wrong types, huge numbers, nested arrays, invalid hex
// ids, times as huge strings, negative or fractional). A canary planted in
// string values must never come back in a reason.

mod props {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    const CANARY: &str = "PLANTEDzq7marker";
    const FORMATS: [&SpanFormat; 4] = [&PHOENIX_JSONL, &PHOENIX_OTLP, &PHOENIX_DATAFRAME, &OTLP];
    const PRESETS: [Preset; 5] = [
        Preset::Kb,
        Preset::Numeric,
        Preset::Doc,
        Preset::Footnote,
        Preset::Id,
    ];

    fn check_reason(reason: &str) {
        assert!(!reason.is_empty());
        assert!(reason.len() <= 400, "reason of {} bytes", reason.len());
        assert!(
            !reason.contains(CANARY),
            "reason quotes the input: {reason}"
        );
    }

    /// The invariants every graded row keeps (shared with the fuzz
    /// targets), and the chunk list a span turn was assembled with.
    fn check_row(row: &Row<'_>, n: usize) {
        super::rows::check_row(row);
        assert_eq!(row.chunk_count as usize, n);
        for (i, c) in row.chunks.iter().enumerate() {
            assert_eq!(c.index as usize, i + 1, "chunk indexes are 1..=n");
        }
    }

    fn grade_all(spans: Vec<Span>) {
        for (id, spans) in group(spans) {
            for retrievals in [ChunkRule::Prompt, ChunkRule::Last, ChunkRule::All] {
                let opts = AssembleOptions {
                    retrievals,
                    ..Default::default()
                };
                let t = assemble(&id, spans.clone(), &opts);
                let turn = t.turn();
                assert_eq!(turn.turn_id.as_str(), id);
                serde_json::to_vec(&t.evidence_with(true)).expect("evidence serialises");
                for p in PRESETS {
                    let row = grade(turn.clone(), &Grammar::Preset(p));
                    check_row(&row, turn.chunks.len());
                }
            }
        }
    }

    /// Every format, line by line and as a document.
    fn run_all(data: &[u8]) {
        let _ = sniff(data);
        for format in FORMATS {
            let _ = is_document(format, data);
            let mut spans = Vec::new();
            for line in data.split(|&b| b == b'\n') {
                let before = spans.len();
                if let Err(r) = read_line(format, line, &mut spans) {
                    assert_eq!(spans.len(), before, "a failed line adds no span");
                    check_reason(&r);
                }
            }
            grade_all(spans);
            let mut out = Vec::new();
            if let Err(r) = parse_document(format, data, &mut out) {
                check_reason(&r);
            }
            assert!(out.iter().all(|(l, _)| *l >= 1));
            grade_all(out.into_iter().map(|(_, s)| s).collect());
        }
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            Just(CANARY.to_owned()),
            Just(format!("see [1] and [KB-2] {CANARY} [^1] [doc:3]")),
            Just(format!("[{CANARY}]")),
            Just("NaN".to_owned()),
            Just("-Infinity".to_owned()),
            Just("9".repeat(60)),
            Just("-1".to_owned()),
            Just("1e400".to_owned()),
            Just("0x00".to_owned()),
            Just(r#"{"role":"assistant","content":"[1]"}"#.to_owned()),
            Just(format!(
                r#"[{{"id":"{CANARY}","metadata":{{"score":"x"}},"page_content":7}}]"#
            )),
            Just(format!(r#""\"{CANARY}\"""#)),
            "\\PC{0,24}".prop_map(|s| format!("{s}{CANARY}")),
        ]
    }

    /// Any JSON value, hostile for whatever type was expected.
    fn hostile() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            Just(json!(u64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!(1e308)),
            Just(json!(-1e308)),
            Just(json!(-0.0)),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            text().prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::vec((key(), inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// Attribute keys the readers know (and some they do not).
    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(vec![
                "openinference.span.kind",
                "span_kind",
                "output.value",
                "output.mime_type",
                "retrieval.documents",
                "retrieval.documents.0.document.id",
                "retrieval.documents.1.document.score",
                "retrieval.documents.0.document.metadata",
                "reranker.output_documents",
                "reranker.output_documents.0.document.id",
                "llm.output_messages.0.message.content",
                "llm.output_messages.0.message.contents.0.message_content.text",
                "llm.token_count.total",
                "llm.cost.total",
                "llm.model_name",
                "metadata",
                "session.id",
                "agent.name",
                "tool.name",
                "error.type",
                "gen_ai.operation.name",
                "gen_ai.output.messages",
                "gen_ai.retrieval.documents",
                "gen_ai.usage.input_tokens",
                "gen_ai.agent.id",
                "gen_ai.conversation.id",
                "gen_ai.completion.0.content",
                "traceloop.span.kind",
                "traceloop.entity.output",
                "traceloop.association.properties.channel",
                "langfuse.observation.type",
                "langfuse.observation.output",
                "langfuse.observation.level",
                "langfuse.observation.usage_details",
                "langfuse.observation.cost_details",
                "langfuse.observation.model.name",
                "langfuse.observation.metadata.agent",
                "langfuse.trace.metadata",
                "langfuse.trace.metadata.channel",
                "langfuse.session.id",
                "llm",
                "retrieval",
                "document",
                "0",
                "99999999999",
            ])
            .prop_map(str::to_owned),
            "[a-z._0-9]{0,12}",
        ]
    }

    /// An OTLP AnyValue: well-formed of any type, or anything at all.
    fn any_value() -> impl Strategy<Value = Value> {
        let kv = |v: Value| json!({"kvlistValue": {"values": [{"key": "k", "value": v}]}});
        prop_oneof![
            text().prop_map(|s| json!({ "stringValue": s })),
            text().prop_map(|s| json!({ "intValue": s })),
            hostile().prop_map(|v| json!({ "intValue": v })),
            hostile().prop_map(|v| json!({ "doubleValue": v })),
            hostile().prop_map(|v| json!({ "boolValue": v })),
            prop::collection::vec(text(), 0..3).prop_map(|l| json!({"arrayValue": {"values":
                l.into_iter().map(|s| json!({"stringValue": s})).collect::<Vec<_>>()}})),
            hostile().prop_map(
                |v| json!({ "arrayValue": { "values": [{"arrayValue": {"values": [v]}}] } })
            ),
            hostile().prop_map(kv),
            hostile(),
        ]
    }

    fn id(len: usize) -> impl Strategy<Value = Value> {
        prop_oneof![
            4 => (0u8..4).prop_map(move |i| Value::from(format!("{:0len$x}", i as u64 + 1))),
            1 => Just(Value::from("")),
            1 => Just(Value::from("0".repeat(len))),
            1 => Just(Value::from("zz-not-hex")),
            1 => Just(Value::from(CANARY)),
            1 => Just(json!(u64::MAX)),
            1 => hostile(),
        ]
    }

    fn time() -> impl Strategy<Value = Value> {
        prop_oneof![
            (0u64..4_000_000_000).prop_map(|s| Value::from((s * 1_000_000_000).to_string())),
            (0u64..4_000_000_000).prop_map(|s| Value::from(s * 1_000_000_000)),
            Just(Value::from("9".repeat(45))),
            Just(Value::from("-1")),
            Just(json!(-5)),
            Just(json!(1.5e18)),
            Just(json!(1e300)),
            Just(Value::from("2026-11-30T08:46:19.247183036Z")),
            Just(Value::from("+275760-09-13T00:00:00Z")),
            Just(Value::from("1.5")),
            hostile(),
        ]
    }

    fn otlp_span() -> impl Strategy<Value = Value> {
        (
            id(32),
            id(16),
            prop::option::of(id(16)),
            text(),
            (time(), time()),
            prop::collection::vec((key(), any_value()), 0..8),
            hostile(),
        )
            .prop_map(|(t, s, p, name, (start, end), attrs, code)| {
                let attrs: Vec<Value> = attrs
                    .into_iter()
                    .map(|(k, v)| json!({"key": k, "value": v}))
                    .collect();
                json!({"traceId": t, "spanId": s, "parentSpanId": p, "name": name,
                   "startTimeUnixNano": start, "endTimeUnixNano": end,
                   "attributes": attrs, "status": {"code": code}})
            })
    }

    fn phoenix_span() -> impl Strategy<Value = Value> {
        (
            id(32),
            id(16),
            prop::option::of(id(16)),
            text(),
            (time(), time()),
            prop::collection::vec((key(), hostile()), 0..8),
            any::<bool>(),
        )
            .prop_map(|(t, s, p, name, (start, end), attrs, frame)| {
                if frame {
                    let mut row = json!({"context.trace_id": t, "context.span_id": s,
                        "parent_id": p, "name": name, "span_kind": "LLM",
                        "start_time": start, "end_time": end});
                    for (k, v) in attrs {
                        row[format!("attributes.{k}")] = v;
                    }
                    row
                } else {
                    let attrs: serde_json::Map<String, Value> = attrs.into_iter().collect();
                    json!({"name": name, "context": {"trace_id": t, "span_id": s},
                        "parent_id": p, "span_kind": "RETRIEVER", "start_time": start,
                        "end_time": end, "status_code": "ERROR", "attributes": attrs})
                }
            })
    }

    /// A file: OTLP request lines, a Phoenix OTLP document, Phoenix lines,
    /// a REST envelope or a JSON array.
    fn file() -> impl Strategy<Value = String> {
        let spans = || prop::collection::vec(otlp_span(), 1..6);
        let rows = || prop::collection::vec(phoenix_span(), 1..6);
        prop_oneof![
            spans().prop_map(|s| {
                s.chunks(2)
                    .map(|c| {
                        json!({"resourceSpans": [{"resource": {"attributes": [
                        {"key": "service.name", "value": {"stringValue": CANARY}}]},
                        "scopeSpans": [{"spans": c}]}]})
                        .to_string()
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            spans().prop_map(|s| {
                serde_json::to_string_pretty(
                    &json!({"resource_spans": [{"scope_spans": [{"spans": s}]}]}),
                )
                .unwrap()
            }),
            rows().prop_map(|r| r
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join("\n")),
            rows().prop_map(|r| json!({ "data": r, "next_cursor": CANARY }).to_string()),
            rows().prop_map(|r| Value::from(r).to_string()),
        ]
    }

    /// A RAG trace shaped the way exports are (root with a reply, a
    /// retriever child with documents), its values still hostile: OTLP, or
    /// Phoenix span lines.
    fn rag_file() -> impl Strategy<Value = String> {
        let doc =
            (hostile(), hostile(), hostile(), text()).prop_map(|(id, score, meta, content)| {
                json!({"document.id": id, "document.score": score,
                   "document.metadata": meta, "document.content": content})
            });
        (
            text(),
            prop::collection::vec(doc, 0..5),
            prop::collection::vec((key(), hostile()), 0..4),
            (time(), time(), time()),
            any::<bool>(),
        )
            .prop_map(|(reply, docs, extra, (t0, t1, t2), otlp)| {
                let reply = format!("answer [1] [2] [KB-1] {reply}");
                let (tid, root, child) = ("0af7651916cd43dd8448eb211c80319c", "00f067aa0ba902b7", "00f067aa0ba902b8");
                if otlp {
                    let sv = |s: &str| json!({"stringValue": s});
                    let mut ra = vec![json!({"key": "openinference.span.kind", "value": sv("AGENT")}),
                                      json!({"key": "output.value", "value": sv(&reply)})];
                    for (k, v) in &extra {
                        ra.push(json!({"key": k, "value": {"stringValue": v.to_string()}}));
                    }
                    let ca = vec![json!({"key": "openinference.span.kind", "value": sv("RETRIEVER")}),
                                  json!({"key": "retrieval.documents", "value": {"stringValue": Value::from(docs.clone()).to_string()}}),
                                  json!({"key": "langfuse.observation.output", "value": sv(&Value::from(docs).to_string())})];
                    json!({"resourceSpans": [{"scopeSpans": [{"spans": [
                        {"traceId": tid, "spanId": child, "parentSpanId": root, "startTimeUnixNano": t1,
                         "endTimeUnixNano": t2, "attributes": ca},
                        {"traceId": tid, "spanId": root, "startTimeUnixNano": t0,
                         "endTimeUnixNano": t2, "attributes": ra}]}]}]})
                    .to_string()
                } else {
                    let mut ra: serde_json::Map<String, Value> = extra.into_iter().collect();
                    ra.insert("output.value".into(), reply.into());
                    let root_line = json!({"name": "agent", "context": {"trace_id": tid, "span_id": root},
                        "parent_id": null, "span_kind": "AGENT", "start_time": t0, "end_time": t2,
                        "attributes": ra});
                    let child_line = json!({"name": "retriever", "context": {"trace_id": tid, "span_id": child},
                        "parent_id": root, "span_kind": "RETRIEVER", "start_time": t1, "end_time": t2,
                        "attributes": {"retrieval": {"documents": docs}}});
                    format!("{child_line}\n{root_line}")
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Shaped RAG traces with hostile documents and times.
        #[test]
        fn hostile_rag_traces_keep_the_invariants(f in rag_file()) {
            run_all(f.as_bytes());
        }

        /// Random bytes: no panic, clean reasons.
        #[test]
        fn random_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..300)) {
            run_all(&data);
        }

        /// Random structured exports with hostile values: every invariant.
        #[test]
        fn hostile_exports_keep_the_invariants(f in file()) {
            run_all(f.as_bytes());
        }

        /// The same export cut short anywhere still keeps them.
        #[test]
        fn truncated_exports_keep_the_invariants(f in file(), cut in any::<prop::sample::Index>()) {
            let at = cut.index(f.len() + 1);
            run_all(&f.as_bytes()[..at]);
        }
    }
}

/// A repeated span id keeps its first span, whether the trace is short
/// (compared with the spans before) or long (ids indexed).
#[test]
fn a_repeated_span_id_keeps_the_first_span_in_short_and_long_traces() {
    for n in [3, 16, 17, 40] {
        let mut lines = vec![px("t", "root", None, "AGENT", 0, 900, "")];
        for i in 1..n {
            lines.push(px("t", &format!("c{i}"), Some("root"), "LLM", i, i + 1, ""));
        }
        // A repeat of a child, read last, with other times: dropped.
        lines.push(px("t", "c1", Some("root"), "TOOL", 500, 600, ""));
        let t = assemble("t", spans_of(&lines), &AssembleOptions::default());
        let notes = t.notes().join("\n");
        assert!(
            notes.contains(&format!("assembled from {n} span(s)")),
            "{n}: {notes}"
        );
        assert!(
            notes.contains("1 duplicate span(s) ignored"),
            "{n}: {notes}"
        );
        assert!(!notes.contains("tool"), "{n}: the repeat was kept: {notes}");
    }
}

/// No silent cap on a retrieval's documents: the one recorded at index
/// 100,002 is read (the position it holds among those recorded).
#[test]
fn a_document_past_a_hundred_thousand_is_read() {
    let line = r#"{"name":"kb","context":{"trace_id":"t1","span_id":"s1"},"span_kind":"RETRIEVER","attributes":{"retrieval.documents.0.document.id":"KB-0","retrieval.documents.100001.document.id":"KB-X","retrieval.documents.2500000.document.id":"KB-Y"}}"#;
    let mut out = Vec::new();
    read_line(&PHOENIX_JSONL, line.as_bytes(), &mut out).unwrap();
    let ids: Vec<_> = out[0]
        .retrieval
        .as_ref()
        .unwrap()
        .iter()
        .map(|d| d.chunk_id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, ["KB-0", "KB-X", "KB-Y"]);
}

// ---------------------------------------------- the chunks the answer stood on

/// Three documents of two retrievals (`A1`, `A2`, then `B1`), of which the
/// answering LLM call's input holds `B1` and then `A1`: the case each
/// reader family's test records in its own shape.
pub(super) const STOOD: [(&str, &str); 3] = [
    (
        "A1",
        "Refunds take five business days from the day the parcel arrives.",
    ),
    (
        "A2",
        "Shipping is free on every order over fifty euros in the EU.",
    ),
    (
        "B1",
        "Gift cards never expire and work online and in every store.",
    ),
];

/// The answering LLM call's system prompt: `B1` (its whitespace changed)
/// and then `A1`, inside a template.
pub(super) fn stood_prompt() -> String {
    format!(
        "Answer from these documents only.\n<doc id='1'>\n{}\n</doc>\n<doc id='2'>{}</doc>",
        STOOD[2].1.replace(' ', "\n  "),
        STOOD[0].1
    )
}

/// What every reader family assembles from that case: `B1`, `A1` (the
/// input's order) under the default rule, and `B1` alone (the last
/// retrieval) under `--retrievals last`.
pub(super) fn check_stood_on(spans: Vec<Span>) {
    let id = spans[0].trace_id().to_owned();
    let t = assemble(&id, spans.clone(), &AssembleOptions::default());
    let notes = t.notes();
    assert_eq!(ids(&graded(&t, &numeric())), ["B1", "A1"], "{notes:#?}");
    assert!(
        notes
            .iter()
            .any(|n| n
                .starts_with("chunks: the 2 document(s) found in the answering LLM call's input")),
        "{notes:#?}"
    );
    assert!(t.retrievals().iter().all(|r| r.used));
    let last = AssembleOptions {
        retrievals: ChunkRule::Last,
        ..Default::default()
    };
    let t = assemble(&id, spans, &last);
    assert_eq!(ids(&graded(&t, &numeric())), ["B1"]);
    assert!(
        t.notes().contains(
            &"chunks: the last retrieval before the answer (--retrievals last)".to_owned()
        )
    );
}

/// The OpenInference spans of that case (Phoenix JSONL), the LLM span's
/// input in `attrs`.
fn stood_phoenix(llm_input: &str) -> Vec<Span> {
    let doc = |prefix: &str, i: usize, (id, text): (&str, &str)| {
        format!(r#""{prefix}.{i}.document.id":"{id}","{prefix}.{i}.document.content":"{text}""#)
    };
    let p = "retrieval.documents";
    let a = format!("{},{}", doc(p, 0, STOOD[0]), doc(p, 1, STOOD[1]));
    let b = doc(p, 0, STOOD[2]);
    let llm = format!(
        r#"{llm_input},"llm.output_messages.0.message.role":"assistant","llm.output_messages.0.message.content":"Yes [1]""#
    );
    spans_of(&[
        px("t", "r", None, "CHAIN", 0, 100, ""),
        px("t", "a", Some("r"), "RETRIEVER", 10, 20, &a),
        px("t", "b", Some("r"), "RETRIEVER", 30, 40, &b),
        px("t", "l", Some("r"), "LLM", 50, 90, &llm),
    ])
}

#[test]
fn openinference_chunks_are_the_documents_in_the_llm_input() {
    let prompt = serde_json::to_string(&stood_prompt()).unwrap();
    // Input messages.
    let msgs = format!(
        r#""llm.input_messages.0.message.role":"system","llm.input_messages.0.message.content":{prompt},"llm.input_messages.1.message.role":"user","llm.input_messages.1.message.content":"Do gift cards expire?""#
    );
    check_stood_on(stood_phoenix(&msgs));
    // `input.value` alone, LangChain's serialized messages as JSON.
    let value = serde_json::json!({"messages": [[{"lc": 1, "type": "constructor",
        "kwargs": {"content": stood_prompt(), "type": "system"}}]]});
    let value = format!(
        r#""input.value":{},"input.mime_type":"application/json""#,
        serde_json::to_string(&value.to_string()).unwrap()
    );
    check_stood_on(stood_phoenix(&value));
    // Nothing of the documents in the input: the last retrieval, and why.
    let other = r#""input.value":"Do gift cards expire? Answer from what you know.""#;
    let spans = stood_phoenix(other);
    let t = assemble("t", spans, &AssembleOptions::default());
    assert_eq!(ids(&graded(&t, &numeric())), ["B1"]);
    assert!(t.notes().contains(&"chunks: the last retrieval before the answer (no retrieved document's text is in the answering LLM call's input, span l)".to_owned()), "{:#?}", t.notes());
    // Only the LLM span keeps its input.
    let spans = stood_phoenix(&msgs);
    assert!(
        spans
            .iter()
            .all(|s| s.input_text.is_some() == (s.kind == SpanKind::Llm))
    );
}

#[test]
fn genai_chunks_are_the_documents_in_the_llm_input() {
    let messages = serde_json::json!([
        {"role": "system", "parts": [{"type": "text", "content": stood_prompt()}]},
        {"role": "user", "parts": [{"type": "text", "content": "Do gift cards expire?"}]}
    ]);
    let string = |s: &str| format!("{S}{}}}", serde_json::to_string(s).unwrap());
    let docs = |d: &[(&str, &str)]| {
        let v: Vec<_> = d
            .iter()
            .map(|(id, text)| serde_json::json!({"id": id, "content": text}))
            .collect();
        string(&serde_json::Value::from(v).to_string())
    };
    let retrieval = string("retrieval");
    let chat = string("chat");
    let (a, b) = (docs(&STOOD[..2]), docs(&STOOD[2..]));
    let input = string(&messages.to_string());
    let output = string(r#"[{"role":"assistant","parts":[{"type":"text","content":"Yes [1]"}]}]"#);
    let line = otlp(&[
        ospan("00000000000000a0", None, 0, 100, &[]),
        ospan(
            "00000000000000a1",
            Some("00000000000000a0"),
            10,
            20,
            &[
                ("gen_ai.operation.name", &retrieval),
                ("gen_ai.retrieval.documents", &a),
            ],
        ),
        ospan(
            "00000000000000a2",
            Some("00000000000000a0"),
            30,
            40,
            &[
                ("gen_ai.operation.name", &retrieval),
                ("gen_ai.retrieval.documents", &b),
            ],
        ),
        ospan(
            "00000000000000a3",
            Some("00000000000000a0"),
            50,
            90,
            &[
                ("gen_ai.operation.name", &chat),
                ("gen_ai.input.messages", &input),
                ("gen_ai.output.messages", &output),
            ],
        ),
    ]);
    let mut out = Vec::new();
    read_line(&OTLP, line.as_bytes(), &mut out).unwrap();
    check_stood_on(out);
}

/// The question is the root's: its last user input message, else its
/// recorded input; a tool's input is its arguments (a structured value as
/// its JSON) and its output its result. No other span keeps its input, and
/// a child's `traceloop.entity.input` is never read, whatever order the
/// parent id and the attributes come in.
#[test]
fn fixture_question_and_tool_arguments() {
    let kv = |k: &str, v: &str| format!(r#"{{"key":"{k}","value":{v}}}"#);
    let args = format!(
        r#"{{"kvlistValue":{{"values":[{}]}}}}"#,
        kv("order_id", r#"{"stringValue":"A-1"}"#)
    );
    let messages = r#"{"stringValue":"[{\"role\":\"system\",\"parts\":[{\"type\":\"text\",\"content\":\"Be brief.\"}]},{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"Where is \"},{\"type\":\"text\",\"content\":\"my refund?\"}]}]"}"#;
    let entity = r#"{"stringValue":"{\"inputs\": \"child input\"}"}"#;
    let spans = [
        ospan(
            "00000000000000a1",
            None,
            1_000,
            9_000,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"invoke_agent"}"#),
                ("gen_ai.input.messages", messages),
                (
                    "gen_ai.output.messages",
                    r#"{"stringValue":"[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Soon.\"}]}]"}"#,
                ),
            ],
        ),
        ospan(
            "00000000000000b2",
            Some("00000000000000a1"),
            2_000,
            3_000,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"execute_tool"}"#),
                ("gen_ai.tool.name", r#"{"stringValue":"lookup_order"}"#),
                ("gen_ai.tool.call.arguments", &args),
                (
                    "gen_ai.tool.call.result",
                    r#"{"stringValue":"{\"status\": \"shipped\"}"}"#,
                ),
                ("traceloop.entity.input", entity),
            ],
        ),
        ospan(
            "00000000000000c3",
            Some("00000000000000a1"),
            4_000,
            5_000,
            &[
                ("gen_ai.operation.name", r#"{"stringValue":"chat"}"#),
                ("gen_ai.input.messages", messages),
                ("traceloop.entity.input", entity),
            ],
        ),
    ];
    // The parent id after the attributes, as an exporter may write it.
    let late_parent = spans[2]
        .replace(r#""parentSpanId":"00000000000000a1","#, "")
        .replacen(
            r#""status":{}"#,
            r#""status":{},"parentSpanId":"00000000000000a1""#,
            1,
        );
    for third in [spans[2].clone(), late_parent] {
        let line = otlp(&[spans[0].clone(), spans[1].clone(), third]);
        let mut out = Vec::new();
        read_line(&OTLP, line.as_bytes(), &mut out).unwrap();
        let (reference, _) = {
            let mut r = Vec::new();
            crate::dialect::spans::otlp::parse(line.as_bytes(), &mut |_, s| r.push(s)).unwrap();
            (r, ())
        };
        assert_eq!(out, reference, "the one-pass reader agrees with serde");
        assert!(out[0].recorded.as_ref().unwrap().messages.is_some());
        let args = out[1].recorded.as_ref().unwrap().input.as_deref();
        assert_eq!(args, Some(r#"{"order_id":"A-1"}"#));
        assert!(out[2].recorded.is_none());
        let t = assemble("t", out, &AssembleOptions::default());
        let x = t.extras();
        assert_eq!(x.question.as_deref(), Some("Where is my refund?"));
        assert_eq!(
            x.tools[0].arguments,
            Some(serde_json::json!({"order_id": "A-1"}))
        );
        assert_eq!(
            x.tools[0].result,
            Some(serde_json::json!({"status": "shipped"}))
        );
    }
    // A root with only a recorded input (OpenLLMetry): the question it holds.
    let line = otlp(&[ospan(
        "00000000000000a1",
        None,
        1,
        9,
        &[
            ("traceloop.span.kind", r#"{"stringValue":"workflow"}"#),
            (
                "traceloop.entity.input",
                r#"{"stringValue":"{\"inputs\": \"How long?\", \"kwargs\": {\"name\": \"bot\"}}"}"#,
            ),
            (
                "traceloop.entity.output",
                r#"{"stringValue":"5 days [1]."}"#,
            ),
        ],
    )]);
    assert_eq!(
        otlp_trace(&line).extras().question.as_deref(),
        Some("How long?")
    );
}

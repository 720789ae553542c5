//! Linear work and bounded memory on pathological lines.
//!
//! Each shape below is one turn or exchange line built to make a per-turn
//! analysis do too much: a long run of marks, brackets never closed, a
//! stream of many deltas, citations that span a whole answer, many
//! citations into one long document, one span naming thousands of chunks.
//! Each is written at three sizes, `n`, `2n` and `4n`, and `summary
//! --threads 1` runs on each under valgrind's cachegrind, which counts the
//! instructions executed: a count that does not depend on the machine or
//! its load. Linear work adds as much from `2n` to `4n` as twice what it
//! adds from `n` to `2n` (a ratio of 2); quadratic work, twice as much
//! again (a ratio of 4). The test asserts a ratio of at most
//! [`MAX_GROWTH`], and a peak resident set at `4n` of at most
//! [`MEMORY_BASE`] plus [`MEMORY_PER_BYTE`] per input byte (GNU time's
//! `%M`).
//!
//! valgrind and GNU time are Debian packages (`valgrind`, `time`); without
//! them the test says so and passes, unless `GROUNDING_AUDIT_REQUIRE_VALGRIND=1`
//! (as `.ci/run` sets), where it fails.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most the added work may grow from one doubling to the next.
const MAX_GROWTH: f64 = 2.6;
/// Peak resident memory allowed whatever the input…
const MEMORY_BASE: u64 = 64 << 20;
/// …and per byte of it.
const MEMORY_PER_BYTE: u64 = 32;

/// A pathological shape: its name, the size `n` it starts from, and the
/// line it makes at a size.
struct Shape {
    name: &'static str,
    /// Arguments given before the file (a map), none for most shapes.
    args: &'static [&'static str],
    n: usize,
    line: fn(usize) -> String,
}

fn native(reply: String) -> String {
    json!({
        "turn_id": "t1", "agent_id": "a", "created_at": "2026-08-01T09:00:00Z",
        "reply": reply,
        "grounding": {"chunks": [{"document_id": "d", "chunk_id": "c"}]}
    })
    .to_string()
}

/// A turn whose chunks have text, which the quote and hint checks read.
fn native_with(reply: String, chunks: Vec<String>) -> String {
    let chunks: Vec<Value> = chunks
        .into_iter()
        .enumerate()
        .map(|(k, t)| json!({"document_id": format!("d{k}"), "content": t}))
        .collect();
    json!({
        "turn_id": "t1", "agent_id": "a", "created_at": "2026-08-01T09:00:00Z",
        "reply": reply, "grounding": {"chunks": chunks}
    })
    .to_string()
}

fn exchange(request: Value, response: Value) -> String {
    json!({
        "id": "x1", "created_at": "2026-03-01T10:00:00Z", "agent_id": "a",
        "request": request, "response": response
    })
    .to_string()
}

fn anthropic_doc(text: &str) -> Value {
    json!({"model": "claude-x", "messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": text},
         "title": "Alpha"}
    ]}]})
}

fn anthropic_message(content: Value) -> Value {
    json!({"type": "message", "role": "assistant", "content": content})
}

fn shapes() -> Vec<Shape> {
    vec![
        // The sentence splitter looked at a run of marks from every mark.
        Shape {
            args: &[],
            name: "run of full stops",
            n: 20_000,
            line: |n| native(format!("Loading{}done [KB-1].", ".".repeat(n))),
        },
        Shape {
            args: &[],
            name: "run of exclamation marks",
            n: 20_000,
            line: |n| native(format!("Wow{}x [KB-1].", "!".repeat(n))),
        },
        // Every sentence looked for a `]` to the end of the text.
        Shape {
            args: &[],
            name: "brackets never closed",
            n: 10_000,
            line: |n| native(format!("{} [KB-1].", "xy. [".repeat(n))),
        },
        Shape {
            args: &[],
            name: "CJK brackets never closed",
            n: 10_000,
            line: |n| native(format!("{} [KB-1].", "東京。[".repeat(n))),
        },
        // Each stream event copied the whole text so far.
        Shape {
            args: &[],
            name: "Anthropic stream of many deltas",
            n: 4_000,
            line: |n| {
                let mut events = vec![
                    json!({"type": "message_start", "message": {"id": "m", "type": "message",
                        "role": "assistant", "content": [], "model": "claude-x"}}),
                    json!({"type": "content_block_start", "index": 0,
                        "content_block": {"type": "text", "text": ""}}),
                ];
                let delta = json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": "x".repeat(100)}});
                events.extend(std::iter::repeat_n(delta, n));
                events.push(json!({"type": "message_stop"}));
                exchange(json!({"messages": []}), json!({"events": events}))
            },
        },
        Shape {
            args: &[],
            name: "Cohere stream of many deltas",
            n: 4_000,
            line: |n| {
                let mut events = vec![
                    json!({"type": "message-start", "delta": {"message": {"role": "assistant"}}}),
                    json!({"type": "content-start", "index": 0,
                        "delta": {"message": {"content": {"type": "text", "text": ""}}}}),
                ];
                let delta = json!({"type": "content-delta", "index": 0,
                    "delta": {"message": {"content": {"text": "y".repeat(100)}}}});
                events.extend(std::iter::repeat_n(delta, n));
                events.push(json!({"type": "message-end"}));
                exchange(
                    json!({"documents": [{"id": "d1", "data": {"text": "hi"}}]}),
                    json!({"events": events}),
                )
            },
        },
        // Coverage listed a (sentence, chunk) pair per citation per sentence.
        Shape {
            args: &[],
            name: "citations spanning a whole answer",
            n: 1_000,
            line: |n| {
                let cite = json!({"type": "char_location", "cited_text": "Alpha",
                    "document_index": 0, "start_char_index": 0, "end_char_index": 5});
                exchange(
                    anthropic_doc(&"Alpha facts. ".repeat(10)),
                    anthropic_message(json!([{"type": "text", "text": "Ab cd. ".repeat(n),
                        "citations": vec![cite; n]}])),
                )
            },
        },
        // The quote check normalised the whole document for every citation.
        Shape {
            args: &[],
            name: "absent quotes into a long document",
            n: 1_000,
            line: |n| {
                let cite =
                    json!({"type": "char_location", "cited_text": "zz", "document_index": 0});
                exchange(
                    anthropic_doc(&"Alpha facts ﬁ. ".repeat(n)),
                    anthropic_message(json!([{"type": "text", "text": "Ab.",
                        "citations": vec![cite; n]}])),
                )
            },
        },
        // The same, with every quote different: the budget bounds it.
        Shape {
            args: &[],
            name: "distinct absent quotes into a long document",
            n: 1_000,
            line: |n| {
                let cites: Vec<Value> = (0..n)
                    .map(|k| {
                        json!({"type": "char_location", "cited_text": format!("zz{k}"),
                        "document_index": 0})
                    })
                    .collect();
                exchange(
                    anthropic_doc(&"Alpha facts ﬁ. ".repeat(n)),
                    anthropic_message(json!([{"type": "text", "text": "Ab.", "citations": cites}])),
                )
            },
        },
        // Each quotation is looked for in every chunk that does not cite it.
        Shape {
            args: &[],
            name: "quotations from no chunk over many chunks",
            n: 500,
            line: |n| {
                let reply: String = (0..n)
                    .map(|k| format!("It says \"words of quote number {k} here\" [KB-1]. "))
                    .collect();
                let chunks = (0..n)
                    .map(|k| format!("Chunk {k} holds other words entirely."))
                    .collect();
                native_with(reply, chunks)
            },
        },
        // Quotation marks opened and never closed, and one long block quote.
        Shape {
            args: &[],
            name: "quotation marks never closed",
            n: 10_000,
            line: |n| {
                native_with(
                    format!("{} [KB-1].", "say \"a b c d ".repeat(n)),
                    vec!["a b".into()],
                )
            },
        },
        Shape {
            args: &[],
            name: "one long block quote",
            n: 10_000,
            line: |n| {
                native_with(
                    format!("{}[KB-1]", "> alpha beta gamma delta\n".repeat(n)),
                    vec!["alpha beta gamma delta epsilon ".repeat(50)],
                )
            },
        },
        // Each id marker searched every chunk for its id.
        Shape {
            args: &[],
            name: "id markers over many chunks",
            n: 4_000,
            line: |n| {
                let reply: String = (0..n).map(|k| format!("Fact {k} [c{k}]. ")).collect();
                let chunks: Vec<Value> = (0..n)
                    .map(|k| json!({"chunk_id": format!("c{k}")}))
                    .collect();
                json!({
                    "turn_id": "t1", "agent_id": "a", "created_at": "2026-08-01T09:00:00Z",
                    "markers": "id", "reply": reply, "grounding": {"chunks": chunks}
                })
                .to_string()
            },
        },
        // Every number of a cited sentence against every number of its chunk.
        Shape {
            args: &[],
            name: "numbers in a cited sentence and its chunk",
            n: 4_000,
            line: |n| {
                let said: String = (0..n).map(|k| format!("{k} ")).collect();
                let held: String = (0..n).map(|k| format!("{}.5 % ", k * 7)).collect();
                native_with(format!("Figures {said}[KB-1]."), vec![held])
            },
        },
        // Character offsets were found by walking the answer from its start.
        Shape {
            args: &[],
            name: "many cited blocks past a non-ASCII character",
            n: 4_000,
            line: |n| {
                let blocks: Vec<Value> = (0..n)
                    .map(|k| {
                        json!({"type": "text", "text": format!("Élan {k}. "),
                        "citations": [{"type": "char_location", "document_index": 0}]})
                    })
                    .collect();
                exchange(
                    anthropic_doc("Alpha facts. "),
                    anthropic_message(json!(blocks)),
                )
            },
        },
        // One support's span text was copied once per chunk it names.
        Shape {
            args: &[],
            name: "Gemini support naming many chunks",
            n: 2_000,
            line: |n| {
                let support = json!({"segment": {"startIndex": 0, "endIndex": 5, "text": "z".repeat(10 * n)},
                    "groundingChunkIndices": vec![0; n]});
                exchange(
                    json!({}),
                    json!({"candidates": [{"content": {"parts": [{"text": "Short answer."}]},
                        "groundingMetadata": {
                            "groundingChunks": [{"web": {"uri": "https://a", "title": "a"}}],
                            "groundingSupports": [support]}}]}),
                )
            },
        },
        // A Datadog payload: one trace whose retrieval holds many documents
        // as flattened tags, and an answer citing each; the tags fold back
        // into JSON once per span.
        Shape {
            args: &[],
            name: "Datadog span of many flattened document tags",
            n: 1_000,
            line: |n| {
                let mut meta = serde_json::Map::new();
                for k in 0..n {
                    meta.insert(
                        format!("langchain.response.document.{k}.page_content"),
                        json!(format!("passage {k} text")),
                    );
                    meta.insert(
                        format!("langchain.response.document.{k}.metadata.source"),
                        json!(format!("doc-{k}")),
                    );
                }
                let answer: String = (1..=n).map(|k| format!("Claim {k} [{k}]. ")).collect();
                let root = json!({"trace_id": 1, "span_id": 1, "parent_id": 0, "resource": "chain", "start": 1, "duration": 9,
                    "meta": {"langchain.request.type": "chain", "langchain.request.inputs.question": "q",
                             "langchain.response.outputs.answer": answer}});
                let docs = json!({"trace_id": 1, "span_id": 2, "parent_id": 1, "resource": "retriever", "start": 2, "duration": 1,
                    "meta": meta});
                json!([[root, docs]]).to_string()
            },
        },
        // A model's answer written as a Python repr of many text blocks.
        Shape {
            args: &[],
            name: "Datadog answer as a long Python repr",
            n: 2_000,
            line: |n| {
                let blocks: Vec<String> = (0..n)
                    .map(|k| format!("{{'type': 'text', 'text': 'part {k} it\\'s [1]'}}"))
                    .collect();
                let span = json!({"trace_id": 1, "span_id": 1, "parent_id": 0, "start": 1, "duration": 9,
                    "meta": {"bedrock.request.prompt": "[{'role': 'user', 'content': 'q'}]",
                             "bedrock.response.choices.0.text": format!("[{}]", blocks.join(", "))}});
                json!([[span]]).to_string()
            },
        },
        // An evaluator's context of many passages, each after a blank line,
        // read through `passages:` and cited by source.
        Shape {
            args: &[
                "--map",
                "turn_id=/question",
                "--map",
                "reply=/answer",
                "--map",
                "chunks=passages:/context",
                "--set",
                "agent_id=a",
                "--set",
                "created_at=2026-08-01T09:00:00Z",
                "--markers",
                "id",
            ],
            name: "passages context cited by source",
            n: 2_000,
            line: |n| {
                let context: Vec<String> = (0..n)
                    .map(|k| format!("doc{k}.pdf#page={k}: text of page {k}\n\nNote: more"))
                    .collect();
                let answer: String = (0..n)
                    .map(|k| format!("Fact [doc{k}.pdf#page={k}]. "))
                    .collect();
                json!({"question": "q", "answer": answer, "context": context.join("\n\n")})
                    .to_string()
            },
        },
        // One Google ADK invocation of many tool calls, answered by name
        // (no call ids), each response a list of results, then the answer.
        Shape {
            args: &[],
            name: "ADK invocation of many tool calls",
            n: 500,
            line: |n| {
                let event = |id: String, author: &str, role: &str, part: Value| {
                    json!({"invocation_id": "i1", "author": author, "id": id,
                        "timestamp": 1_785_000_000.5, "content": {"role": role, "parts": [part]}})
                };
                let mut events = vec![event("e0".into(), "user", "user", json!({"text": "q"}))];
                for k in 0..n {
                    let call = json!({"function_call": {"name": "search", "args": {"q": k}}});
                    let results = json!([{"url": format!("https://x.test/{k}"), "title": format!("page {k}")}]);
                    let response = json!({"function_response": {"name": "search",
                        "response": {"result": results}}});
                    events.push(event(format!("c{k}"), "agent", "model", call));
                    events.push(event(format!("r{k}"), "agent", "user", response));
                }
                let answer: String = (0..n).map(|k| format!("Fact [{}]. ", k + 1)).collect();
                events.push(event(
                    "last".into(),
                    "agent",
                    "model",
                    json!({"text": answer}),
                ));
                json!({"id": "s", "app_name": "a", "events": events}).to_string()
            },
        },
        // One Braintrust trace: a turn's root, many tool spans each
        // written as a start row and a merge row that adds its results,
        // then the model call and the root's answer as merges.
        Shape {
            args: &[],
            name: "Braintrust trace of many merged spans",
            n: 500,
            line: |n| {
                let row = |span: String, kind: &str, fields: Value| {
                    let mut row = json!({"id": format!("r-{span}"), "span_id": span,
                        "root_span_id": "root", "log_id": "g", "_is_merge": false,
                        "span_attributes": {"name": kind, "type": kind},
                        "metrics": {"start": 1_785_000_000.5}});
                    if span != "root" {
                        row["span_parents"] = json!(["root"]);
                    }
                    for (k, v) in fields.as_object().unwrap() {
                        row[k] = v.clone();
                    }
                    row
                };
                let merge = |span: String, fields: Value| {
                    let mut row = json!({"id": format!("r-{span}"), "span_id": span,
                        "root_span_id": "root", "_is_merge": true,
                        "metrics": {"end": 1_785_000_001.5}});
                    for (k, v) in fields.as_object().unwrap() {
                        row[k] = v.clone();
                    }
                    row
                };
                let mut rows = vec![row("root".into(), "task", json!({"input": "q"}))];
                for k in 0..n {
                    let id = format!("tool-{k}");
                    rows.push(row(id.clone(), "tool", json!({"input": {"q": k}})));
                    let results = json!([{"url": format!("https://x.test/{k}"),
                        "title": format!("page {k}"), "content": "a fact"}]);
                    rows.push(merge(id, json!({"output": results})));
                }
                let answer: String = (0..n).map(|k| format!("Fact [{}]. ", k + 1)).collect();
                let messages = json!([{"role": "user", "content": "q"}]);
                let call = json!({"input": messages, "metrics": {"start": 1_785_000_002.0}});
                rows.push(row("llm".into(), "llm", call));
                rows.push(merge("llm".into(), json!({"output": answer})));
                rows.push(merge("root".into(), json!({"output": answer})));
                json!({"rows": rows}).to_string()
            },
        },
        // Offset checks normalised the whole answer for every citation.
        Shape {
            args: &[],
            name: "Cohere citations spanning a long answer",
            n: 1_000,
            line: |n| {
                let answer = "Café é bom. ".repeat(n);
                let len = answer.chars().count();
                let cites: Vec<Value> = (0..n)
                    .map(|k| {
                        json!({"start": 0, "end": len, "text": format!("x{k}"),
                        "sources": [{"type": "document", "id": "d1"}]})
                    })
                    .collect();
                exchange(
                    json!({"documents": [{"id": "d1", "data": {"text": "hi"}}]}),
                    json!({"message": {"role": "assistant",
                        "content": [{"type": "text", "text": answer}], "citations": cites}}),
                )
            },
        },
    ]
}

fn have(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether valgrind and GNU time are here (see the module documentation).
fn tools() -> bool {
    if have("valgrind", "--version") && have("/usr/bin/time", "--version") {
        return true;
    }
    let required = std::env::var("GROUNDING_AUDIT_REQUIRE_VALGRIND").as_deref() == Ok("1");
    assert!(
        !required,
        "valgrind or GNU time is missing, and GROUNDING_AUDIT_REQUIRE_VALGRIND=1 requires them"
    );
    eprintln!("bounds: valgrind or GNU time is missing (Debian: valgrind, time); not measured");
    false
}

/// The binary measured: this build's, or `GROUNDING_AUDIT_BOUNDS_BIN` (to
/// hold another build to the same bounds).
fn binary() -> PathBuf {
    std::env::var_os("GROUNDING_AUDIT_BOUNDS_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| assert_cmd::cargo::cargo_bin("grounding-audit"))
}

/// Instructions `summary --threads 1` executes on `file`.
fn instructions(file: &Path, args: &[&str]) -> u64 {
    let out = Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(binary())
        .args(["summary", "--threads", "1", "--format", "json"])
        .args(args)
        .arg(file)
        .output()
        .expect("valgrind runs");
    assert!(out.status.success(), "summary failed on {}", file.display());
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find(|l| l.contains("I   refs:") || l.contains("I refs:"))
        .unwrap_or_else(|| panic!("no instruction count in valgrind's output:\n{err}"));
    line.rsplit(':')
        .next()
        .unwrap()
        .trim()
        .replace(',', "")
        .parse()
        .expect("a count")
}

/// Peak resident memory of `summary --threads 1` on `file`, in bytes.
fn peak_memory(file: &Path, args: &[&str]) -> u64 {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(binary())
        .args(["summary", "--threads", "1"])
        .args(args)
        .arg(file)
        .output()
        .expect("time runs");
    assert!(out.status.success(), "summary failed on {}", file.display());
    let err = String::from_utf8_lossy(&out.stderr);
    let kib: u64 = err
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak memory in time's output:\n{err}"));
    kib * 1024
}

#[test]
fn every_pathological_shape_costs_linear_work_and_bounded_memory() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for shape in shapes() {
        let mut counts = Vec::new();
        let mut last = (PathBuf::new(), 0);
        for k in 0..3 {
            let n = shape.n << k;
            let path = dir.path().join(format!("{k}.jsonl"));
            let line = (shape.line)(n);
            std::fs::write(&path, format!("{line}\n")).unwrap();
            counts.push(instructions(&path, shape.args) as f64);
            last = (path, line.len() as u64 + 1);
        }
        let growth = (counts[2] - counts[1]) / (counts[1] - counts[0]).max(1.0);
        let memory = peak_memory(&last.0, shape.args);
        let allowed = MEMORY_BASE + MEMORY_PER_BYTE * last.1;
        eprintln!(
            "bounds: {}: {:.0} / {:.0} / {:.0} instructions, growth {growth:.2}; {} KiB at {} bytes",
            shape.name,
            counts[0],
            counts[1],
            counts[2],
            memory >> 10,
            last.1
        );
        if growth > MAX_GROWTH {
            failures.push(format!(
                "{}: work grew {growth:.2}× from one doubling to the next (linear: 2)",
                shape.name
            ));
        }
        if memory > allowed {
            failures.push(format!(
                "{}: peak memory {} MiB on {} bytes (allowed {} MiB)",
                shape.name,
                memory >> 20,
                last.1,
                allowed >> 20
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the checks do with the red-team lines of the hostile corpus: a
/// quote cited 600 times over is checked once and found absent 600 times;
/// 600 distinct quotes into one long document run until the turn's budget
/// is spent and the rest are counted unchecked, never dropped: every
/// citation is either checked or counted unchecked.
#[test]
fn the_check_budget_counts_what_it_leaves_unchecked() {
    let path = crate::common::fixture("hostile/pathological-citations.jsonl");
    let doc = crate::common::report_all(&path);
    let row = |id: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["turn_id"] == id)
            .unwrap_or_else(|| panic!("no row {id}"))
            .clone()
    };
    let same = row("absent-quotes");
    assert_eq!(
        (same["quotes_absent"].as_u64(), same["unchecked"].as_u64()),
        (Some(600), Some(0))
    );
    let distinct = row("distinct-absent-quotes");
    let absent = distinct["quotes_absent"].as_u64().unwrap();
    let unchecked = distinct["unchecked"].as_u64().unwrap();
    assert_eq!(absent + unchecked, 600, "{distinct}");
    assert!(absent > 0 && unchecked > 0, "{distinct}");
    assert_eq!(
        doc["summary"]["unchecked_citations"].as_u64(),
        Some(unchecked),
        "the summary counts them"
    );
    let (_, shown, _) =
        crate::common::run(&["explain", "distinct-absent-quotes", path.to_str().unwrap()]);
    assert!(
        shown.contains(&format!("{unchecked} citation(s) not checked")),
        "{shown}"
    );
}

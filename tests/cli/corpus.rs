//! The corpus of real exports (`tests/corpus/`): files other people's
//! tools wrote, copied from public repositories (`MANIFEST.md`), each with
//! what a person reading the raw file concludes (`expectations.json`): how
//! many turns, which reply, how many chunks. A file the readers read grades
//! as stated; a file no reader reads is named so, and yields no turn with a
//! reply rather than a wrong one. The files of `../shared/external/` follow.

use crate::common::*;
use serde_json::Value;
use std::path::PathBuf;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("corpus")
}

fn expectations() -> Vec<Value> {
    let text = std::fs::read_to_string(corpus().join("expectations.json")).unwrap();
    match json(&text) {
        Value::Array(entries) => entries,
        other => panic!("expectations.json is not an array: {other}"),
    }
}

/// `evidence --show-text` of a file: one record per turn.
fn evidence(file: &str, args: &[String]) -> Vec<Value> {
    let mut all: Vec<&str> = vec!["evidence", "-q", "--show-text"];
    all.extend(args.iter().map(String::as_str));
    all.push(file);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{file}: {err}");
    out.lines().map(json).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The first characters of `s`, at most `n`.
fn head(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The record of the trace `id` (hex ids in any case), or the only one,
/// or, for a trace the file gives no id, the one whose reply starts as
/// `reply` does.
fn find<'a>(rows: &'a [Value], id: &str, reply: &str) -> Option<&'a Value> {
    rows.iter()
        .find(|r| {
            r["turn_id"]
                .as_str()
                .is_some_and(|t| t.eq_ignore_ascii_case(id))
        })
        .or_else(|| (rows.len() == 1).then(|| &rows[0]))
        .or_else(|| {
            let want = head(reply, 30);
            rows.iter().find(|r| {
                id.is_empty()
                    && !want.is_empty()
                    && head(r["reply"].as_str().unwrap_or_default(), 30) == want
            })
        })
}

/// Questions the corpus states and the readers do not find (a trace
/// whose root records no input, a `--map` with no question field): counted,
/// never guessed. A question found that is not the one stated is a misreading.
#[derive(Default)]
struct Questions {
    stated: usize,
    not_found: Vec<String>,
}

/// Checks one read file against its entry; the problems found.
fn check_read(e: &Value, file: &str, rows: &[Value], questions: &mut Questions) -> Vec<String> {
    let mut problems = Vec::new();
    let turns = e["turns"].as_u64().unwrap();
    if rows.len() as u64 != turns {
        problems.push(format!("{} turns, expected {turns}", rows.len()));
    }
    for t in e["traces"].as_array().unwrap() {
        let id = t["trace_id"].as_str().unwrap_or_default();
        let want_reply = t["reply_starts"].as_str().unwrap_or_default();
        let Some(row) = find(rows, id, want_reply) else {
            problems.push(format!("no turn {id}"));
            continue;
        };
        let reply = row["reply"].as_str().unwrap_or_default();
        if let Some(want) = t["reply_starts"].as_str().filter(|w| !w.is_empty()) {
            // The first 30 characters: enough to tell replies apart.
            if head(reply, 30) != head(want, 30) {
                problems.push(format!(
                    "{id}: reply {:?}, expected {:?}",
                    head(reply, 30),
                    head(want, 30)
                ));
            }
        }
        if let Some(want) = t["question_starts"].as_str().filter(|w| !w.is_empty()) {
            questions.stated += 1;
            match row["question"].as_str().filter(|q| !q.is_empty()) {
                None => questions.not_found.push(format!("{file} {id}")),
                Some(q) if head(q, 30) != head(want, 30) => problems.push(format!(
                    "{id}: question {:?}, expected {:?}",
                    head(q, 30),
                    head(want, 30)
                )),
                Some(_) => {}
            }
        }
        if let Some(n) = t["chunks"].as_u64() {
            let got = row["chunks"].as_array().map_or(0, Vec::len) as u64;
            if got != n {
                problems.push(format!("{id}: {got} chunks, expected {n}"));
            }
        }
    }
    if let Some(verdicts) = e["verdicts"].as_object() {
        for (v, n) in verdicts {
            let got = rows.iter().filter(|r| r["verdict"] == *v).count() as u64;
            if Some(got) != n.as_u64() {
                problems.push(format!("{got} {v}, expected {n}"));
            }
        }
    }
    let (_, out, _) = run(&["inspect", file]);
    let reads_as = e["reads_as"].as_str().unwrap();
    if !out.contains(&format!("format: {reads_as}"))
        && !out.contains(&format!("(read as {reads_as})"))
    {
        problems.push(format!(
            "inspect does not say it reads as {reads_as}:\n{out}"
        ));
    }
    problems
}

/// A file no reader reads: the grading commands stop with an input error
/// naming it and what it looks like, and `inspect` names its format when
/// it is one recognised (`looks_like`).
fn check_unread(e: &Value, file: &str, args: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for cmd in ["evidence", "summary", "report", "convert"] {
        let mut all: Vec<&str> = vec![cmd];
        if cmd == "convert" {
            all.extend(["--to", "turns"]);
        }
        all.extend(args.iter().map(String::as_str));
        all.push(file);
        let (code, out, err) = run(&all);
        if code != 3 || !err.contains(&format!("{file}: ")) || !err.contains("none read as a turn")
        {
            problems.push(format!(
                "{cmd} exited {code} ({} bytes out): {err}",
                out.len()
            ));
        }
    }
    if let Some(name) = e["looks_like"].as_str() {
        let (_, out, _) = run(&["inspect", file]);
        if !out.contains(&format!("format: {name} (not read)")) {
            problems.push(format!("inspect does not name it {name}:\n{out}"));
        }
    }
    problems
}

#[test]
fn the_corpus_reads_as_a_person_reads_it() {
    let entries = expectations();
    let tools: std::collections::BTreeSet<&str> =
        entries.iter().filter_map(|e| e["tool"].as_str()).collect();
    assert!(entries.len() >= 71, "{} files", entries.len());
    assert!(tools.len() >= 20, "{tools:?}");
    let mut failures = Vec::new();
    let mut read = 0;
    let mut questions = Questions::default();
    for e in &entries {
        let rel = e["file"].as_str().unwrap();
        let path = corpus().join(rel);
        assert!(path.is_file(), "{rel} is listed but absent");
        let file = path.to_str().unwrap();
        let problems = if e.get("unread").is_some() {
            check_unread(e, file, &strings(&e["args"]))
        } else {
            read += 1;
            check_read(
                e,
                file,
                &evidence(file, &strings(&e["args"])),
                &mut questions,
            )
        };
        failures.extend(problems.into_iter().map(|p| format!("{rel}: {p}")));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The files read are the most of the corpus: a reader lost shows here.
    assert!(read >= 67, "{read} files read");
    // Most stated questions are found; the rest are listed, never wrong.
    assert!(
        questions.not_found.len() <= 17 && questions.stated >= 88,
        "{} of {} questions not found:\n{}",
        questions.not_found.len(),
        questions.stated,
        questions.not_found.join("\n")
    );
}

/// Every corpus file is listed in the manifest with its source and licence,
/// and every listed file has an expectation.
#[test]
fn every_corpus_file_has_a_source_a_licence_and_an_expectation() {
    let manifest = std::fs::read_to_string(corpus().join("MANIFEST.md")).unwrap();
    let listed: Vec<String> = expectations()
        .iter()
        .map(|e| e["file"].as_str().unwrap().to_owned())
        .collect();
    let mut on_disk = Vec::new();
    for dir in std::fs::read_dir(corpus()).unwrap().flatten() {
        let name = dir.file_name().into_string().unwrap();
        if !dir.path().is_dir() || name == "LICENSES" {
            continue;
        }
        for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
            on_disk.push(format!("{name}/{}", f.file_name().into_string().unwrap()));
        }
    }
    on_disk.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(on_disk, sorted);
    for f in &listed {
        assert!(
            manifest.contains(&format!("`{f}`")),
            "{f} is not in MANIFEST.md"
        );
        let size = std::fs::metadata(corpus().join(f)).unwrap().len();
        assert!(size < 200 * 1024, "{f} is {size} bytes");
    }
    let licences = std::fs::read_dir(corpus().join("LICENSES"))
        .unwrap()
        .count();
    assert!(licences >= 8, "{licences} licence texts");
}

fn external(rel: &str) -> Option<String> {
    shared(&format!("external/{rel}")).map(|p| p.to_str().unwrap().to_owned())
}

/// The LangSmith SDK's run operations of one chat-langchain trace: 81 runs,
/// each a post and a later patch without `trace_id`. One turn, its answer
/// citing none of the chunks, every line accounted for.
#[test]
fn a_langsmith_run_dump_is_one_turn() {
    let Some(f) = external("langsmith-chat-langchain/run_ops_1efb27a4.jsonl") else {
        return;
    };
    let rows = evidence(&f, &[]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["turn_id"], "1efb27a4-5264-6908-9ab5-23fc3c60ae2d");
    assert_eq!(rows[0]["verdict"], "no_marker");
    assert!(!rows[0]["chunks"].as_array().unwrap().is_empty());
    assert!(
        rows[0]["created_at"]
            .as_str()
            .unwrap()
            .starts_with("2024-12-04")
    );
    let (code, out, err) = run(&["summary", "--format", "json", &f]);
    assert_eq!(code, 0, "{err}");
    let input = &json(&out)["input"];
    assert_eq!(input["lines"], 162);
    assert_eq!(input["turns"], 1);
    assert_eq!(input["invalid_lines"], 0);
    assert_eq!(categories_sum(input), 162);
}

/// The chat-langchain trace's answering LLM call was given 20 documents
/// (its system prompt holds 20 `<document>` elements: the graph's
/// `respond` node keeps the first 20 of the 26 its research found, the 26
/// the root's `outputs.documents` holds), drawn from 8 of its 9
/// retrievals: those 20 are the turn's chunks, not the last retrieval's 4.
#[test]
fn a_langsmith_turns_chunks_are_the_documents_its_llm_call_was_given() {
    let Some(f) = external("langsmith-chat-langchain/run_ops_1efb27a4.jsonl") else {
        return;
    };
    let chunks = |args: &[&str]| {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        evidence(&f, &args)[0]["chunks"].as_array().unwrap().len()
    };
    assert_eq!(chunks(&[]), 20);
    assert_eq!(chunks(&["--retrievals", "prompt"]), 20);
    assert_eq!(chunks(&["--retrievals", "last"]), 4);
    assert_eq!(chunks(&["--retrievals", "all"]), 36);
    let (code, out, err) = run(&["explain", "1efb27a4-5264-6908-9ab5-23fc3c60ae2d", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("chunks: the 20 document(s) found in the answering LLM call's input (span "),
        "{out}"
    );
    assert_eq!(
        out.matches("found in the answering LLM call's input, used as chunks")
            .count(),
        8
    );
    assert!(out.contains("not used: none of its documents is in the answering LLM call's input"));
}

/// Each Langfuse trace download, in both shapes: one turn with its reply.
#[test]
fn langfuse_trace_downloads_are_one_turn_each_with_their_reply() {
    let files = [
        (
            "langfuse-trace-with-observations/langgraph-2025-08-22.json",
            "The search for \"example\"",
        ),
        (
            "langfuse-trace-with-observations/llamaindex-2025-06-05.json",
            "Langfuse is a tool",
        ),
        (
            "langfuse-trace-with-observations/microsoft-agent-2025-10-14.json",
            "The weather in Portland",
        ),
        (
            "langfuse-ui-download/langgraph-python-2025-08-22.trace.json",
            "The search for \"example\"",
        ),
        (
            "langfuse-ui-download/llamaindex-2025-06-05.trace.json",
            "Langfuse is a tool",
        ),
    ];
    for (rel, reply) in files {
        let Some(f) = external(rel) else { return };
        let rows = evidence(&f, &[]);
        assert_eq!(rows.len(), 1, "{rel}");
        let got = rows[0]["reply"].as_str().unwrap_or_default();
        assert!(got.starts_with(reply), "{rel}: {got:?}");
        assert_ne!(rows[0]["verdict"], "unobserved", "{rel}");
    }
}

/// Steps typed only `SPAN` are found by what they hold: a search that
/// returned results is a retrieval (each result's address its chunk id, so
/// the answer's links cite them), a `tool.…` step or one that returned a
/// tool message is a tool call.
#[test]
fn plain_langfuse_steps_are_read_by_what_they_hold() {
    let cases = [
        ("agno-2025-06-11.trace.json", 1, 5, "ok"),
        ("koog-2025-08-26.trace.json", 2, 0, "empty_retrieval"),
        ("langgraph-python-2025-08-22.trace.json", 1, 1, "ok"),
    ];
    for (name, tools, chunks, verdict) in cases {
        let f = corpus().join("langfuse").join(name);
        let f = f.to_str().unwrap();
        let (code, out, err) = run(&["report", "--all", "--format", "json", "--markers", "id", f]);
        assert_eq!(code, 0, "{name}: {err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        let row = &doc["rows"][0];
        assert_eq!(row["tool_calls"], tools, "{name}");
        assert_eq!(row["chunk_count"], chunks, "{name}");
        assert_eq!(row["verdict"], verdict, "{name}");
    }
    let agno = corpus().join("langfuse/agno-2025-06-11.trace.json");
    let rows = evidence(agno.to_str().unwrap(), &[]);
    assert_eq!(
        rows[0]["chunks"][0]["chunk_id"], "https://twitter.com/explore/tabs/trending/",
        "{}",
        rows[0]["chunks"]
    );
}

/// Google ADK files read as turns, one per invocation: the user's text is
/// the question, the agent's last text the reply (not the hand-over calls
/// after it), each `function_call` a tool call, and what the tools gave
/// the model before it (a search page of 10 products, a page per click)
/// its chunks. An eval set's turns are the expected ones, and said so.
#[test]
fn adk_sessions_and_eval_sets_read_one_turn_per_invocation() {
    // (file, turn, question, reply, tool calls, chunks, verdict)
    let cases = [
        (
            "successful_test.session.json",
            0,
            "hi",
            "Hello!",
            0,
            0,
            "empty_retrieval",
        ),
        (
            "successful_test.session.json",
            1,
            "update data_one",
            "OK. I've updated",
            1,
            0,
            "empty_retrieval",
        ),
        (
            "sample.session.json",
            0,
            "Research on the factors",
            "## Flooding in Florida",
            2,
            0,
            "empty_retrieval",
        ),
        (
            "text_search_floral_dress.session.json",
            0,
            "Hello, can you help",
            "Okay, I see a few",
            1,
            10,
            "no_marker",
        ),
        (
            "text_search_floral_dress.session.json",
            1,
            "B092QL1FLW looks good",
            "Okay, I have gathered",
            6,
            6,
            "no_marker",
        ),
        (
            "text_search_floral_dress.session.json",
            2,
            "Okay, this looks good",
            "What size and color",
            0,
            0,
            "empty_retrieval",
        ),
        (
            "simple_multi_turn_conversation.test.json",
            0,
            "Turn off device_2",
            "I have set the device 2 status to off.",
            1,
            0,
            "empty_retrieval",
        ),
        (
            "order_query.test.json",
            2,
            "Cancel all pending",
            "I have checked your orders",
            4,
            0,
            "empty_retrieval",
        ),
    ];
    for (name, i, question, reply, tools, chunks, verdict) in cases {
        let f = corpus().join("adk").join(name);
        let f = f.to_str().unwrap();
        let rows = evidence(f, &[]);
        let r = &rows[i];
        let what = format!("{name} turn {i}");
        assert!(
            r["question"].as_str().unwrap().starts_with(question),
            "{what}: {}",
            r["question"]
        );
        assert!(
            r["reply"].as_str().unwrap().starts_with(reply),
            "{what}: {}",
            r["reply"]
        );
        assert_eq!(r["chunks"].as_array().unwrap().len(), chunks, "{what}");
        assert_eq!(r["verdict"], verdict, "{what}");
        let (code, out, err) = run(&["report", "--all", "--format", "json", f]);
        assert_eq!(code, 0, "{what}: {err}");
        let doc: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["rows"][i]["tool_calls"], tools, "{what}");
    }
    // The search page's products are its chunks, each by its id.
    let f = corpus().join("adk/text_search_floral_dress.session.json");
    let rows = evidence(f.to_str().unwrap(), &[]);
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0]["chunks"][0]["chunk_id"], "B092QL1FLW");
    assert_eq!(rows[0]["agent_id"], "personalized_shopping");
    // An eval set says its turns are expected, not given.
    let f = corpus().join("adk/order_query.test.json");
    let (code, _, err) = run(&["summary", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("answers expected of the agent"), "{err}");
}

/// Braintrust rows: start and merge rows of each span merged by span id.
/// The LangChain scenario's wrapper root recorded nothing, so each of its
/// five operations is a turn; the jest recording holds each `/logs3` body
/// twice and one question among structural spans.
#[test]
fn braintrust_rows_read_one_turn_per_operation_and_root() {
    // (turn, question, reply, chunks). The harness replaced the model's
    // text with `<llm-response>`; the weather turn's call said nothing
    // (its message content is empty), so it has no reply, whatever
    // placeholder the harness wrote into its generation's text.
    let cases = [
        ("<span:4>", "Reply with exactly OK.", "<llm-response>", 0),
        ("<span:9>", "Reply with the single word PARIS", "PARIS", 0),
        ("<span:18>", "Count from 1 to 3", "<llm-response>", 0),
        ("<span:23>", "Use the get_weather tool", "", 0),
        (
            "<span:29>",
            "What is 127 multiplied by 49?",
            "<llm-response>",
            1,
        ),
    ];
    let f = corpus().join("braintrust/wrap-langchain-js-traces__log-payloads.json");
    let f = f.to_str().unwrap();
    let rows = evidence(f, &[]);
    assert_eq!(rows.len(), 5);
    for (r, (id, question, reply, chunks)) in rows.iter().zip(cases) {
        assert_eq!(r["turn_id"], id);
        let q = r["question"].as_str().unwrap_or_default();
        assert!(q.starts_with(question), "{id}: {q}");
        assert_eq!(r["reply"].as_str().unwrap_or_default(), reply, "{id}");
        assert_eq!(r["chunks"].as_array().unwrap().len(), chunks, "{id}");
    }
    // The tool's result, given back to the model, is its chunk.
    let given = &rows[4]["retrievals"][0]["documents"][0];
    assert_eq!(given["content"], "6223");
    assert_eq!(given["chunk_id"], "<tool_call_id>");
    let (code, out, err) = run(&["summary", "--format", "json", f]);
    assert_eq!(code, 0, "{err}");
    let input = &json(&out)["input"];
    assert_eq!(input["turns"], 5);
    // No tool span was logged: the calls the model asked for are the
    // turns' tool calls, with their arguments (the weather turn ended at
    // its call, the calculator's result came back as a tool message).
    let (code, out, err) = run(&["report", "--all", "--format", "json", f]);
    assert_eq!(code, 0, "{err}");
    let calls: Vec<u64> = json(&out)["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["tool_calls"].as_u64().unwrap())
        .collect();
    assert_eq!(calls, [0, 0, 0, 1, 1]);
    let (code, out, err) = run(&[
        "explain",
        "<span:23>",
        "--show-tools",
        "--format",
        "json",
        f,
    ]);
    assert_eq!(code, 0, "{err}");
    let tools = &json(&out)["tools"];
    assert_eq!(tools[0]["name"], "get_weather");
    assert_eq!(tools[0]["arguments"]["location"], "Paris, France");
    let f = corpus().join("braintrust/test-framework-evals-jest__request-flow.json");
    let f = f.to_str().unwrap();
    let rows = evidence(f, &[]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["turn_id"], "<span:3>");
    assert_eq!(rows[0]["question"], "What is the capital of France?");
    assert_eq!(rows[0]["reply"], "Paris");
}

/// A `RetrievalQAWithSourcesChain` names its sources beside its answer:
/// a source that is a retrieved document's `metadata.source` cites every
/// chunk of it; one naming no retrieved document is an orphan.
#[test]
fn a_chains_named_sources_cite_the_chunks_of_their_documents() {
    let cases = [
        ("test_langchain", "ok", vec![1, 2, 3, 4]),
        ("test_langchain_community", "orphan_marker", vec![]),
    ];
    for (module, verdict, cited) in cases {
        let name = format!(
            "datadog/tests.contrib.langchain.{module}.test_pinecone_vectorstore_retrieval_chain.json"
        );
        let f = corpus().join(&name);
        let (code, out, err) = run(&["report", "--all", "--format", "json", f.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let row = &json(&out)["rows"][0];
        assert_eq!(row["verdict"], verdict, "{name}: {row}");
        assert_eq!(row["markers_from"], "sources", "{name}");
        assert_eq!(row["cited_chunks"], serde_json::json!(cited), "{name}");
        assert_eq!(row["marker_count"], cited.len().max(1), "{name}");
    }
}

/// An agent's `[name]: ` prefix (ADK's multi-agent texts) is its text, not
/// a citation: under the default grammar the reply has no marker.
#[test]
fn an_adk_agents_name_prefix_is_not_a_marker() {
    let session = serde_json::json!({"id": "s", "app_name": "spark", "events": [
        {"invocation_id": "i1", "author": "user", "id": "e1", "timestamp": 1734292270.5,
         "content": {"role": "user", "parts": [{"text": "Floods in Florida?"}]}},
        {"invocation_id": "i1", "author": "research", "id": "e2", "timestamp": 1734292271.5,
         "content": {"role": "model", "parts": [{"function_call": {"id": "c1", "name": "search", "args": {"q": "floods"}}}]}},
        {"invocation_id": "i1", "author": "research", "id": "e3", "timestamp": 1734292272.5,
         "content": {"role": "user", "parts": [{"function_response": {"id": "c1", "name": "search",
            "response": {"result": "Heavy rainfall and storm surge cause most floods in Florida."}}}]}},
        {"invocation_id": "i1", "author": "research", "id": "e4", "timestamp": 1734292273.5,
         "content": {"role": "model", "parts": [{"text": "[research_agent]: Rain and surge cause floods."}]}},
        {"invocation_id": "x", "author": "model", "id": "e5", "timestamp": 1734292274.5,
         "actions": {"state_delta": {"_time": "t"}}}
    ]});
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("session.json");
    std::fs::write(&file, serde_json::to_string_pretty(&session).unwrap()).unwrap();
    let f = file.to_str().unwrap();
    let rows = evidence(f, &[]);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["verdict"], "no_marker", "{}", rows[0]);
    assert_eq!(rows[0]["agent_id"], "spark");
    let (code, out, err) = run(&["summary", "--format", "json", f]);
    assert_eq!(code, 0, "{err}");
    let input = &json(&out)["input"];
    assert_eq!(input["turns"], 1);
    assert_eq!(categories_sum(input), 5, "{input}");
}

/// An evaluator's output has no id, agent or time: `--map` and `--set`
/// grade it, one pointer feeding two fields; its `[n]` markers (with no
/// chunks) name the grammar that reads them.
#[test]
fn an_eval_file_grades_through_map_and_set() {
    let Some(f) = external("azure-rag-postgres-evals/eval_results.jsonl") else {
        return;
    };
    let args = [
        "report",
        "--all",
        "--format",
        "jsonl",
        "--map",
        "turn_id=/question",
        "--map",
        "conversation_id=/question",
        "--map",
        "reply=/answer",
        "--set",
        "agent_id=rag-postgres",
        "--set",
        "created_at=2024-06-01T00:00:00Z",
    ];
    let (code, out, err) = run(&[&args[..], &[f.as_str()]].concat());
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = out.lines().map(json).collect();
    assert_eq!(rows.len(), 10);
    for r in &rows {
        assert_eq!(r["agent_id"], "rag-postgres");
        assert_eq!(r["conversation_id"], r["turn_id"]);
        assert_eq!(r["created_at"], "2024-06-01T00:00:00Z");
    }
    assert!(err.contains("--markers numeric"), "{err}");
    // A field is mapped or set, not both; only fields that place a turn.
    let (code, _, err) = run(&["report", "--map", "agent_id=/x", "--set", "agent_id=y", &f]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["report", "--set", "turn_id=x", &f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be a constant"), "{err}");
}

/// A document too large to hold is an input error that says how to stream
/// it, never a line-by-line failure.
#[test]
fn a_document_past_the_limit_says_how_to_stream_it() {
    for rel in [
        "langfuse/crewai-2025-07-11.trace.json",
        "vercel-ai/all-spans.json",
    ] {
        let path = corpus().join(rel);
        let file = path.to_str().unwrap();
        let (code, out, err) = run(&["report", "--max-document-bytes", "1000", file]);
        assert_eq!(code, 3, "{rel}: {err}");
        assert!(out.is_empty(), "{rel}: {out}");
        assert!(err.contains(file) && err.contains("jq -c"), "{rel}: {err}");
        assert_eq!(err.lines().count(), 1, "{rel}: {err}");
    }
}

/// One page of a paginated export is read with a warning naming it: the
/// turns of later pages (or their retrievals) are not in the file.
#[test]
fn a_page_that_says_more_follow_is_named() {
    // A Langfuse API page built from a real download's observations.
    let text = std::fs::read_to_string(corpus().join("langfuse/pydantic-ai-tools-2025-12-04.json"))
        .unwrap();
    let download = json(&text);
    let page = serde_json::json!({
        "data": download["observations"],
        "meta": {"page": 1, "limit": 50, "totalItems": 120, "totalPages": 3},
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page1.json");
    std::fs::write(&file, serde_json::to_string_pretty(&page).unwrap()).unwrap();
    let file = file.to_str().unwrap();
    let (code, _, err) = run(&["report", file]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("{file} is page 1 of 3")), "{err}");
    // The last page says nothing.
    let last =
        serde_json::json!({"data": download["observations"], "meta": {"page": 3, "totalPages": 3}});
    std::fs::write(file, serde_json::to_string(&last).unwrap()).unwrap();
    let (_, _, err) = run(&["report", file]);
    assert!(!err.contains("page"), "{err}");
    // Phoenix's REST page with a next cursor.
    let Some(rest) = shared("traces/phoenix-openinference-langchain/rest_page_envelope.json")
    else {
        return;
    };
    let rest = rest.to_str().unwrap();
    let (code, _, err) = run(&["report", rest]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("is one page of a paginated export"), "{err}");
}

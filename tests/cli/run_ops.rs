//! LangSmith run operations in any order: the SDK posts a run when it
//! starts (with its trace id) and patches it when it ends (with only its
//! id). Any shuffle of a trace's lines across any number of files, and any
//! split of a run between post and patch, grades like the whole trace read
//! in order: same turn, verdict, chunks and reply, every line accounted for.

use crate::common::shared;
use crate::props::cli_out;
use proptest::prelude::*;
use serde_json::{Value, json};

/// The lines of one generated trace, in the order the SDK writes them:
/// every post, then every patch. A root chain, a retriever with three
/// documents and an LLM call; the answer cites `[2]`.
fn trace_lines() -> Vec<Value> {
    let root = "5f0e7c8a-0000-4000-8000-000000000001";
    let runs = [
        (
            root,
            None,
            "chain",
            "RAG",
            json!({"answer": "Refunds take 5 days [2]."}),
        ),
        (
            "5f0e7c8a-0000-4000-8000-000000000002",
            Some(root),
            "retriever",
            "kb",
            json!({"documents": [
                {"id": "KB-1", "page_content": "a"},
                {"id": "KB-2", "page_content": "b"},
                {"id": "KB-3", "page_content": "c"}]}),
        ),
        (
            "5f0e7c8a-0000-4000-8000-000000000003",
            Some(root),
            "llm",
            "ChatOpenAI",
            json!({"generations": [[{"text": "Refunds take 5 days [2]."}]]}),
        ),
    ];
    let mut posts = Vec::new();
    let mut patches = Vec::new();
    // (start, end) seconds: the root spans the others; the retrieval ends
    // before the model is called.
    let times = [(0, 9), (1, 2), (3, 8)];
    for ((id, parent, kind, name, outputs), (start, end)) in runs.into_iter().zip(times) {
        posts.push(json!({
            "id": id, "trace_id": root, "parent_run_id": parent, "name": name,
            "run_type": kind, "start_time": format!("2026-11-30T08:46:0{start}.000000"),
            "inputs": {"question": "How long do refunds take?"},
        }));
        patches.push(json!({
            "id": id, "name": name, "end_time": format!("2026-11-30T08:46:0{end}.000000"),
            "outputs": outputs, "error": null,
        }));
    }
    posts.extend(patches);
    posts
}

/// What a turn grades as, from its evidence record.
fn graded(records: &str) -> Vec<(String, String, usize, String)> {
    let mut out: Vec<_> = records
        .lines()
        .map(|l| {
            let r: Value = serde_json::from_str(l).unwrap();
            (
                r["turn_id"].as_str().unwrap_or_default().to_owned(),
                r["verdict"].as_str().unwrap_or_default().to_owned(),
                r["chunks"].as_array().map_or(0, Vec::len),
                r["reply"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Writes `lines` into files (`cuts` say where each file ends) and grades
/// them together.
fn grade_files(lines: &[String], cuts: &[usize]) -> (Vec<(String, String, usize, String)>, Value) {
    let dir = tempfile::tempdir().unwrap();
    let mut bounds: Vec<usize> = cuts.iter().map(|c| c % (lines.len() + 1)).collect();
    bounds.push(0);
    bounds.push(lines.len());
    bounds.sort_unstable();
    bounds.dedup();
    let mut paths = Vec::new();
    for (k, w) in bounds.windows(2).enumerate() {
        let p = dir.path().join(format!("part{k}.jsonl"));
        std::fs::write(&p, lines[w[0]..w[1]].join("\n") + "\n").unwrap();
        paths.push(p.to_str().unwrap().to_owned());
    }
    let files: Vec<&str> = paths.iter().map(String::as_str).collect();
    let evidence = cli_out(
        &[
            &["grounding-audit", "evidence", "-q", "--show-text"],
            &files[..],
        ]
        .concat(),
    );
    let summary = cli_out(
        &[
            &["grounding-audit", "-q", "summary", "--format", "json"],
            &files[..],
        ]
        .concat(),
    );
    let input = serde_json::from_str::<Value>(&summary).unwrap()["input"].clone();
    (graded(&evidence), input)
}

/// A permutation of `0..n` from proptest's keys.
fn shuffled<T: Clone>(items: &[T], keys: &[u32]) -> Vec<T> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (keys[i % keys.len()], i));
    order.into_iter().map(|i| items[i].clone()).collect()
}

/// How one run is written: posted whole (no patch), or posted and
/// patched once, or patched twice (when it ended and whether it failed,
/// then its outputs).
#[derive(Debug, Clone, Copy)]
enum Shape {
    Whole,
    Patched,
    TwicePatched,
}

/// The lines of one run (a post and its patch from [`trace_lines`]) in `shape`.
fn written(post: &Value, patch: &Value, shape: Shape) -> Vec<Value> {
    match shape {
        Shape::Whole => {
            let mut whole = post.as_object().unwrap().clone();
            for (k, v) in patch.as_object().unwrap() {
                whole.insert(k.clone(), v.clone());
            }
            vec![Value::Object(whole)]
        }
        Shape::Patched => vec![post.clone(), patch.clone()],
        Shape::TwicePatched => {
            let mut outputs = patch.as_object().unwrap().clone();
            let error = json!({"id": patch["id"], "end_time": patch["end_time"],
                "error": outputs.remove("error").unwrap()});
            vec![post.clone(), error, Value::Object(outputs)]
        }
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        Just(Shape::Whole),
        Just(Shape::Patched),
        Just(Shape::TwicePatched)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_order_and_any_split_grades_like_the_whole(
        keys in proptest::collection::vec(any::<u32>(), 1..40),
        cuts in proptest::collection::vec(0usize..40, 0..3),
        shapes in proptest::collection::vec(shape(), 3),
    ) {
        let whole: Vec<String> = trace_lines().iter().map(Value::to_string).collect();
        let (expected, _) = grade_files(&whole, &[]);
        prop_assert_eq!(expected.len(), 1);
        prop_assert_eq!(&expected[0].1, "ok");
        prop_assert_eq!(expected[0].2, 3);
        let runs = trace_lines();
        let (posts, patches) = runs.split_at(3);
        let mut lines = Vec::new();
        for ((post, patch), shape) in posts.iter().zip(patches).zip(&shapes) {
            lines.extend(written(post, patch, *shape).iter().map(Value::to_string));
        }
        let lines = shuffled(&lines, &keys);
        let (got, input) = grade_files(&lines, &cuts);
        prop_assert_eq!(got, expected);
        prop_assert_eq!(&input["lines"], &json!(lines.len()));
        prop_assert_eq!(&input["turns"], &json!(1));
        prop_assert_eq!(&input["invalid_lines"], &json!(0));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// The real chat-langchain run dump (162 lines) in any order, over up to
    /// three files, is the same one turn.
    #[test]
    fn a_real_run_dump_in_any_order_is_the_same_turn(
        keys in proptest::collection::vec(any::<u32>(), 1..200),
        cuts in proptest::collection::vec(0usize..163, 0..3),
    ) {
        let Some(path) = shared("external/langsmith-chat-langchain/run_ops_1efb27a4.jsonl") else {
            return Ok(());
        };
        let text = std::fs::read_to_string(path).unwrap();
        let whole: Vec<String> = text.lines().map(str::to_owned).collect();
        let (expected, _) = grade_files(&whole, &[]);
        prop_assert_eq!(expected.len(), 1);
        let (got, input) = grade_files(&shuffled(&whole, &keys), &cuts);
        prop_assert_eq!(got, expected);
        prop_assert_eq!(&input["turns"], &json!(1));
        prop_assert_eq!(&input["lines"], &json!(162));
    }
}

/// A patch whose post never arrives joins no turn: it is an invalid line,
/// named, not a turn of its own.
#[test]
fn a_patch_without_its_post_is_invalid() {
    let lines: Vec<String> = trace_lines()
        .iter()
        .filter(|l| {
            l["id"] != "5f0e7c8a-0000-4000-8000-000000000003" || l.get("trace_id").is_none()
        })
        .map(Value::to_string)
        .collect();
    let (got, input) = grade_files(&lines, &[]);
    assert_eq!(got.len(), 1);
    assert_eq!(input["lines"], json!(6 - 1));
    assert_eq!(input["invalid_lines"], json!(1));
    assert_eq!(input["turns"], json!(1));
}

/// `merge` prints a partial's warnings escaped: a line break, a GitHub
/// workflow command and a terminal escape sequence in a crafted partial
/// stay inert text on one line.
#[test]
fn merge_escapes_the_warnings_of_a_partial() {
    let dir = tempfile::tempdir().unwrap();
    let part = dir.path().join("p.json");
    let log = crate::common::fixture("hostile/wrong-types.jsonl");
    let (code, _, err) = crate::common::run(&[
        "summary",
        "--partial",
        part.to_str().unwrap(),
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&part).unwrap()).unwrap();
    doc["input"]["warnings"][0]["message"] =
        serde_json::json!("x\n::error title=pwned::boom \u{1b}]52;c;Zm9v\u{7}");
    std::fs::write(&part, doc.to_string()).unwrap();
    let (code, _, err) = crate::common::run(&["merge", part.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.lines().any(|l| l.starts_with("::")), "{err}");
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains("x\\u{a}::error title=pwned::boom"), "{err}");
}

use super::*;
use chrono::TimeZone;

fn lines(v: &[Value]) -> Vec<String> {
    v.iter().map(Value::to_string).collect()
}

/// An evaluator's rows: a question, an answer, a JSON string of products
/// keyed by id; no id, agent or time.
fn eval_rows() -> Vec<String> {
    let rows: Vec<Value> = (0..4)
        .map(|i| {
            let context = serde_json::json!({
                format!("{}", 10 + i): {"id": 10 + i, "name": "a"},
                "58": {"id": 58, "name": "b"},
            });
            serde_json::json!({
                "question": format!("q{i}"),
                "answer": format!("see [{}]", 10 + i),
                "context": context.to_string(),
                "latency": 1.5,
            })
        })
        .collect();
    lines(&rows)
}

fn about() -> About<'static> {
    About {
        name: "evals/eval_results.jsonl",
        modified: Some(Utc.with_ymd_and_hms(2024, 6, 1, 12, 30, 5).unwrap()),
    }
}

fn args(s: &Survey) -> Vec<String> {
    s.proposed
        .iter()
        .map(|p| format!("--{} {}={}", p.flag, p.field, p.value))
        .collect()
}

#[test]
fn an_evaluators_rows_get_a_map_that_reads_every_field_a_turn_needs() {
    let s = survey(&eval_rows(), &FieldMap::default(), &about());
    assert_eq!(
        args(&s),
        [
            "--map reply=/answer",
            "--map chunks=json:keyed:/context",
            "--map turn_id=/question",
            "--set agent_id=eval_results",
            "--set created_at=2024-06-01T12:30:05Z",
        ]
    );
    let chunks = s.fields.iter().find(|f| f.field == "chunks").unwrap();
    assert_eq!(chunks.nearest[0].pointer, "json:keyed:/context");
    assert_eq!(chunks.nearest[0].share, 1.0);
    // Under that map every record holds each field, and every chunk an id
    // (its key).
    let got: Vec<(&str, u64, u64, Origin)> = s
        .entries
        .iter()
        .map(|e| (e.field.as_str(), e.have, e.of, e.origin))
        .collect();
    assert_eq!(
        got,
        [
            ("turn_id", 4, 4, Origin::Proposed),
            ("agent_id", 4, 4, Origin::Proposed),
            ("created_at", 4, 4, Origin::Proposed),
            ("reply", 4, 4, Origin::Proposed),
            ("chunks", 4, 4, Origin::Proposed),
            ("chunk.id", 8, 8, Origin::Native),
        ]
    );
    assert!(s.entries[1].why.as_deref().unwrap().contains("file"));
    let m = mapped::Mapped::new(s.map).expect("a map that compiles");
    assert_eq!(m.map().turn[6], "json:keyed:/context");
}

#[test]
fn a_given_map_is_kept_and_its_fields_are_not_proposed() {
    let mut given = FieldMap::default();
    given.set_arg("chunks=/context").unwrap();
    given.set_constant_arg("agent_id=bot").unwrap();
    let s = survey(&eval_rows(), &given, &about());
    assert!(
        args(&s)
            .iter()
            .all(|a| !a.contains("chunks=") && !a.contains("agent_id"))
    );
    let chunks = s.entries.iter().find(|e| e.field == "chunks").unwrap();
    // A string is not the array the given map says: no record holds it so.
    assert_eq!(
        (chunks.origin, chunks.have, chunks.of),
        (Origin::Given, 0, 4)
    );
    let agent = s.entries.iter().find(|e| e.field == "agent_id").unwrap();
    assert_eq!(
        (agent.flag, agent.value.as_str(), agent.have),
        (Some("--set"), "bot", 4)
    );
}

#[test]
fn chunk_fields_of_other_names_are_proposed_where_the_chunks_are() {
    let rows: Vec<Value> = (0..3)
        .map(|i| {
            serde_json::json!({
                "turn_id": i, "agent_id": "a", "created_at": 1785578400 + i,
                "reply": "x", "sources": [{"key": "k", "relevance": 0.5, "text": "t"}],
            })
        })
        .collect();
    let s = survey(&lines(&rows), &FieldMap::default(), &about());
    assert_eq!(
        args(&s),
        [
            "--map created_at=/created_at",
            "--map chunks=/sources",
            "--map chunk.id=/key",
            "--map chunk.score=/relevance",
            "--map chunk.content=/text",
        ]
    );
    // A native log needs nothing, not even a constant.
    let native =
        r#"{"turn_id":"t","agent_id":"a","created_at":"2026-08-01T00:00:00Z","reply":"x"}"#;
    let s = survey(&vec![native.to_owned(); 2], &FieldMap::default(), &about());
    assert!(s.proposed.is_empty() && s.map.is_empty(), "{:?}", args(&s));
}

#[test]
fn a_question_is_an_id_only_when_it_tells_every_record_apart() {
    let rows = |qs: &[&str]| -> Vec<Value> {
        qs.iter()
            .map(|q| serde_json::json!({"question": q, "answer": "a"}))
            .collect()
    };
    assert_eq!(
        distinct_question(&rows(&["a", "b"])),
        Some("/question".into())
    );
    assert_eq!(distinct_question(&rows(&["a", "a"])), None);
    assert_eq!(distinct_question(&rows(&["a"])), None);
    assert_eq!(agent_name("dir/my log.jsonl.gz"), "my-log");
    assert_eq!(agent_name(".jsonl"), "agent");
}

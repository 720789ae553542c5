use super::*;
use crate::grade::grade;
use crate::markers::{Grammar, Preset};
use crate::model::Verdict;

fn ev(kind: &str, payload: &str, run: &str, ms: u64) -> String {
    format!(
        r#"{{"type":"agentfootprint.{kind}","payload":{payload},"meta":{{"wallClockMs":{ms},"runId":"{run}","sessionId":"s-1"}}}}"#
    )
}

fn rag(chunk: &str, score: f64) -> String {
    format!(
        r#"{{"source":"rag","slot":"system-prompt","sourceId":"memory:docs#{chunk}","retrievalScore":{score},"contentHash":"h{chunk}","rawContent":"<source id=\"{chunk}\" doc=\"d/{chunk}.md\">text</source>"}}"#
    )
}

fn lines(parts: &[String]) -> Vec<u8> {
    let mut s = parts.join("\n");
    s.push('\n');
    s.into_bytes()
}

fn id() -> Grammar {
    Grammar::Preset(Preset::Id)
}

fn check_accounting(r: &Runs) {
    let s = &r.stats;
    assert_eq!(
        s.lines,
        r.runs.len() as u64 + s.blank_lines + s.skipped_records + s.invalid_lines,
        "{s:?}"
    );
}

#[test]
fn sniff_recognises_each_export_and_nothing_else() {
    assert!(sniff(ev("agent.turn_start", "{}", "r", 1).as_bytes()));
    assert!(sniff(
        b"\xEF\xBB\xBF  \n{\"type\" : \"agentfootprint.x\"}\n"
    ));
    assert!(sniff(
        b"{\n  \"format\": \"agentfootprint.recording.v1\",\n  \"run\": {}\n"
    ));
    assert!(sniff(
        b"{\n  \"header\": {\n    \"format\" :\"agentfootprint.audit/1\"\n"
    ));
    assert!(sniff(
        b"{\"header\":{\"format\":\"agentfootprint.audit/1\"},\"records\":[]}"
    ));
    assert!(!sniff(br#"{"turn_id":"t","reply":"see agentfootprint.audit/1 and \"type\":\"agentfootprint.x\""}"#));
    assert!(!sniff(b""));
    assert!(!sniff(b"[1,2]"));
    assert!(!sniff(b"\xff\xfe garbage"));
}

#[test]
fn a_run_is_one_turn_and_reinjected_chunks_count_once() {
    let data = lines(&[
        ev(
            "agent.run_configured",
            r#"{"agentId":"bot","llm":{"model":"m1"}}"#,
            "r1",
            1_700_000_000_000,
        ),
        ev(
            "agent.turn_start",
            r#"{"userPrompt":"q?"}"#,
            "r1",
            1_700_000_000_001,
        ),
        ev("context.injected", &rag("a", 0.9), "r1", 1_700_000_000_002),
        ev("context.injected", &rag("b", 0.6), "r1", 1_700_000_000_003),
        ev("context.injected", &rag("a", 0.9), "r1", 1_700_000_000_004),
        String::new(),
        ev(
            "agent.turn_end",
            r#"{"finalContent":"A [b] and [a].","totalInputTokens":10,"totalOutputTokens":5,"durationMs":42}"#,
            "r1",
            1_700_000_000_005,
        ),
    ]);
    let r = read_runs(&data, None).unwrap();
    check_accounting(&r);
    assert_eq!(r.runs.len(), 1);
    assert_eq!(
        (r.stats.lines, r.stats.blank_lines, r.stats.skipped_records),
        (7, 1, 5)
    );
    let run = &r.runs[0];
    assert_eq!(run.line, 1);
    assert_eq!(run.chunks.len(), 2);
    assert_eq!(run.chunks[0].chunk_id.as_deref(), Some("a"));
    assert_eq!(run.chunks[0].document_id.as_deref(), Some("d/a.md"));
    let turn = run.turn();
    assert_eq!(turn.agent_id, "bot");
    assert_eq!(turn.model.as_deref(), Some("m1"));
    assert_eq!(turn.tokens_used, Some(15));
    assert_eq!(turn.latency_ms, Some(42.0));
    assert_eq!(
        turn.conversation_id.as_ref().map(|c| c.as_str()),
        Some("s-1")
    );
    assert_eq!(
        crate::model::format_time(&turn.created_at),
        "2023-11-14T22:13:20Z"
    );
    let row = grade(turn, &id());
    assert_eq!(row.verdict, Verdict::Ok);
    assert_eq!(row.cited_chunks, vec![2, 1]);
    assert_eq!(run.extras().question.as_deref(), Some("q?"));
}

#[test]
fn agent_flag_wins_then_data_then_default() {
    let data = lines(&[ev("agent.turn_start", "{}", "r", 1)]);
    assert_eq!(
        read_runs(&data, Some("named")).unwrap().runs[0].agent,
        "named"
    );
    assert_eq!(read_runs(&data, None).unwrap().runs[0].agent, DEFAULT_AGENT);
}

#[test]
fn missing_turn_end_and_withheld_draft_are_unobserved() {
    let data = lines(&[
        ev("context.injected", &rag("a", 0.9), "r1", 1),
        ev(
            "stream.llm_end",
            r#"{"iteration":1,"content":"x [a]"}"#,
            "r1",
            2,
        ),
        ev("context.injected", &rag("a", 0.9), "r2", 3),
        ev(
            "stream.llm_end",
            r#"{"iteration":1,"content":"","contentWithheld":true}"#,
            "r2",
            4,
        ),
    ]);
    let r = read_runs(&data, None).unwrap();
    let rows: Vec<_> = r.runs.iter().map(|run| grade(run.turn(), &id())).collect();
    assert_eq!(rows[0].verdict, Verdict::Unobserved);
    assert_eq!(rows[0].unobserved_reason, Some(Unobserved::NoTurnEnd));
    assert_eq!(rows[1].unobserved_reason, Some(Unobserved::Withheld));
    assert_eq!(r.runs[1].model_calls[0].output, Output::Withheld);
}

#[test]
fn withheld_draft_with_a_delivered_answer_grades_the_answer() {
    let data = lines(&[
        ev("context.injected", &rag("a", 0.9), "r1", 1),
        ev(
            "stream.llm_end",
            r#"{"iteration":1,"content":"","contentWithheld":true}"#,
            "r1",
            2,
        ),
        ev("agent.turn_end", r#"{"finalContent":"Yes [a]."}"#, "r1", 3),
    ]);
    let r = read_runs(&data, None).unwrap();
    assert_eq!(grade(r.runs[0].turn(), &id()).verdict, Verdict::Ok);
}

#[test]
fn tools_pair_by_call_id_and_errors_count() {
    let data = lines(&[
        ev(
            "stream.tool_start",
            r#"{"toolName":"a","toolCallId":"1","args":{}}"#,
            "r",
            1,
        ),
        ev(
            "stream.tool_start",
            r#"{"toolName":"b","toolCallId":"2"}"#,
            "r",
            2,
        ),
        ev(
            "stream.tool_end",
            r#"{"toolCallId":"2","error":true,"result":"boom","durationMs":3}"#,
            "r",
            3,
        ),
        ev(
            "stream.tool_start",
            r#"{"toolName":"c","toolCallId":"3"}"#,
            "r",
            4,
        ),
        ev(
            "stream.tool_end",
            r#"{"toolCallId":"1","result":1}"#,
            "r",
            5,
        ),
    ]);
    let run = &read_runs(&data, None).unwrap().runs[0];
    let turn = run.turn();
    assert_eq!((turn.tool_calls, turn.tool_errors), (3, 1));
    let status: Vec<_> = run.tools.iter().map(Tool::status).collect();
    assert_eq!(status, ["ok", "error", "no_end"]);
    assert_eq!(run.extras().tools[1].duration_ms, Some(3.0));
}

#[test]
fn bad_lines_are_invalid_with_reasons_and_never_panic() {
    let data = lines(&[
        "{not json".into(),
        r#"{"type":5,"payload":{}}"#.into(),
        r#"{"turn_id":"t"}"#.into(),
        r#"{"type":"other.event"}"#.into(),
        r#"{"type":"agentfootprint.x","meta":{}}"#.into(),
        r#"{"type":"agentfootprint.x","meta":{"runId":"no-time"}}"#.into(),
        r#"{"header":{"format":"agentfootprint.audit/1"},"records":[]}"#.into(),
        "[]".into(),
        ev("agent.turn_start", "{}", "r", 1),
    ]);
    let r = read_runs(&data, None).unwrap();
    check_accounting(&r);
    assert_eq!(r.runs.len(), 1);
    assert_eq!(r.stats.invalid_lines, 6, "{:?}", r.invalid);
    assert_eq!(r.stats.skipped_records, 2);
    let lines: Vec<u64> = r.invalid.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [1, 2, 3, 7, 8, 6]);
    assert!(r.invalid[1].1.contains("not a string"), "{:?}", r.invalid);
    assert!(r.invalid[5].1.contains("no time"), "{:?}", r.invalid);
    assert!(r.invalid[3].1.contains("only document"), "{:?}", r.invalid);
    for bad in [
        &b"{"[..],
        b"{\n",
        b"\xff",
        b"{\n\"format\":\"agentfootprint.recording.v1\"\n}",
        b"{\n\"format\":\"x\"\n}",
    ] {
        let r = read_runs(bad, None).unwrap();
        check_accounting(&r);
        assert!(r.runs.is_empty());
    }
}

#[test]
fn times_outside_years_0000_to_9999_are_invalid() {
    // 10000-01-01T00:00:00Z and one millisecond before 0000-01-01T00:00:00Z.
    let data = lines(&[
        ev("agent.turn_start", "{}", "late", 253_402_300_800_000),
        r#"{"type":"agentfootprint.agent.turn_start","payload":{},"meta":{"wallClockMs":-62167219200001,"runId":"early"}}"#.into(),
        ev("agent.turn_start", "{}", "last", 253_402_300_799_999),
    ]);
    let r = read_runs(&data, None).unwrap();
    check_accounting(&r);
    assert_eq!(r.runs.len(), 1);
    assert_eq!(
        crate::model::format_time(&r.runs[0].created_at),
        "9999-12-31T23:59:59.999Z"
    );
    assert_eq!(r.stats.invalid_lines, 2, "{:?}", r.invalid);
    for (_, reason) in &r.invalid {
        assert!(reason.contains("years 0000-9999"), "{reason}");
    }
}

#[test]
fn pretty_audit_counts_records_and_bounded_text_is_never_graded() {
    let doc = r#"{
  "header": {"format": "agentfootprint.audit/1"},
  "records": [
    {"seq": 0, "timestamp": 10, "eventType": "audit.genesis",
     "payload": {"runId": "r", "agent": "named-in-genesis", "payloadMode": "bounded"}, "meta": {"runId": "r"}},
    {"seq": 1, "timestamp": 11, "eventType": "agentfootprint.context.injected",
     "payload": {"source": "rag", "sourceId": "memory:k#c1", "retrievalScore": 0.7, "rawContent": "[12 chars]"}, "meta": {"runId": "r"}},
    {"seq": 2, "timestamp": 12, "eventType": "agentfootprint.stream.llm_end",
     "payload": {"iteration": 1, "content": "[9 chars]"}, "meta": {"runId": "r"}},
    {"seq": 3, "timestamp": 13, "eventType": "agentfootprint.agent.turn_end",
     "payload": {"finalContent": "[9 chars]"}, "meta": {"runId": "r"}}
  ]
}
"#;
    let r = read_runs(doc.as_bytes(), None).unwrap();
    check_accounting(&r);
    assert_eq!((r.stats.lines, r.stats.skipped_records), (4, 3));
    let run = &r.runs[0];
    assert_eq!(run.export, Export::Audit);
    assert_eq!(run.line, 4);
    assert!(run.bounded);
    assert_eq!(run.agent, "named-in-genesis");
    assert_eq!(run.model_calls[0].output, Output::Bounded(9));
    let row = grade(run.turn(), &id());
    assert_eq!(row.verdict, Verdict::Unobserved);
    assert_eq!(row.unobserved_reason, Some(Unobserved::BoundedAudit));
    assert_eq!(row.chunk_count, 1);
}

#[test]
fn bracketed_lengths_are_text_outside_audits() {
    let data = lines(&[ev(
        "agent.turn_end",
        r#"{"finalContent":"[5 chars]"}"#,
        "r",
        1,
    )]);
    let run = &read_runs(&data, None).unwrap().runs[0];
    assert!(matches!(run.answer(), Answer::Reply(_)));
}

#[test]
fn compact_recording_keeps_distinct_positions_and_notes_incompleteness() {
    let e1 = ev("agent.turn_start", "{}", "a", 1);
    let e2 = ev("agent.turn_start", "{}", "b", 2);
    let doc = format!(
        r#"{{"format":"agentfootprint.recording.v1","run":{{"runId":"a","complete":false}},"recording":{{"events":[{e1},{e2}]}}}}"#
    );
    let r = read_runs(doc.as_bytes(), None).unwrap();
    check_accounting(&r);
    let lines: Vec<u64> = r.runs.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2]);
    assert!(r.runs[0].notes.iter().any(|n| n.contains("not complete")));
    assert_eq!(r.runs[0].export, Export::Recording);
}

#[test]
fn bounded_len_reads_only_the_exact_marker() {
    assert_eq!(bounded_len("[54 chars]"), Some(54));
    assert_eq!(bounded_len("[0 chars]"), Some(0));
    for no in [
        "[chars]",
        "[5 char]",
        "x[5 chars]",
        "[-1 chars]",
        "[99999999999999999999999 chars]",
    ] {
        assert_eq!(bounded_len(no), None, "{no}");
    }
}

#[test]
fn a_run_is_one_run_however_its_records_are_read() {
    let data = lines(&[ev("agent.turn_start", r#"{"userPrompt":"hi"}"#, "r", 1)]);
    let r = read_runs(&data, None).unwrap();
    assert_eq!(r.runs.len(), 1);
    assert_eq!(r.runs[0].line, 1);
    assert_eq!(r.runs[0].extras().question.as_deref(), Some("hi"));
    assert_eq!(r.runs[0].turn().turn_id.as_str(), "r");
}

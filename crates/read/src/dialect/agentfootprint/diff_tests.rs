//! The one-pass reader ([`super::fast`]) against the `Value` reader
//! ([`super::parse::parse_event_value`]): on every event line and record of
//! the shared captures and the fixtures, and on single-byte edits of a line
//! of each event type, the one-pass reader either gives exactly the
//! reference's item (kind, fields, meta, de-duplication key) or declines.

use super::canon;
use super::fast::{Readers, read_event};
use super::parse::{Item, parse_event_value};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn files(root: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.metadata().is_ok_and(|m| m.len() < 4 << 20) {
            out.push(p);
        }
    }
}

#[derive(Deserialize)]
struct Doc<'a> {
    #[serde(borrow, default)]
    records: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    recording: Option<Recording<'a>>,
}

#[derive(Deserialize)]
struct Recording<'a> {
    #[serde(borrow, default)]
    events: Option<Vec<&'a RawValue>>,
}

/// Every line of a file, and every record of a recording or audit bundle.
fn units(data: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = data.lines().map(|l| (l.to_owned(), false)).collect();
    if let Ok(doc) = serde_json::from_str::<Doc<'_>>(data) {
        let records = doc.records.into_iter().flatten();
        let events = doc.recording.and_then(|r| r.events).into_iter().flatten();
        out.extend(records.chain(events).map(|r| (r.get().to_owned(), true)));
    }
    out
}

/// The corpus: the shared captures (when present) and every fixture.
fn corpus() -> Vec<(String, bool)> {
    let mut paths = Vec::new();
    if let Some(shared) = crate::test_support::shared("agentfootprint") {
        files(&shared, &mut paths);
    }
    files(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures")),
        &mut paths,
    );
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .flat_map(|d| units(&d))
        .collect()
}

/// Checks one input; true when the one-pass reader read it itself.
fn agrees(text: &str, in_document: bool, scratch: &mut Vec<(u128, u128)>) -> bool {
    match super::fast::agrees(text, in_document, scratch) {
        Ok(read_itself) => read_itself,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn one_pass_reader_agrees_on_every_line_and_record() {
    let mut scratch = Vec::new();
    let (mut events, mut read) = (0, 0);
    for (text, in_doc) in corpus() {
        let fast = agrees(&text, in_doc, &mut scratch);
        if matches!(
            parse_event_value(text.as_bytes(), 9, in_doc),
            Item::Event(_)
        ) {
            events += 1;
            read += usize::from(fast);
            assert!(fast, "an event the one-pass reader declined: {text:?}");
        }
    }
    assert!(events >= 20, "only {events} events in the corpus");
    eprintln!("{read} of {events} events read in one pass");
}

/// Both readers of the one-pass path read the corpus's events themselves
/// (so the differential checks above test each, not a fallback).
#[test]
fn each_one_pass_reader_reads_the_corpus() {
    let mut scratch = Vec::new();
    let (mut events, mut scanned, mut visited) = (0, 0, 0);
    for (text, in_doc) in corpus() {
        if !matches!(
            parse_event_value(text.as_bytes(), 9, in_doc),
            Item::Event(_)
        ) {
            continue;
        }
        events += 1;
        scratch.clear();
        scanned += usize::from(read_event(&text, 9, &mut scratch, Readers::ScannerOnly).is_some());
        scratch.clear();
        visited += usize::from(read_event(&text, 9, &mut scratch, Readers::VisitorsOnly).is_some());
    }
    eprintln!("of {events} events: the scanner read {scanned}, the visitors {visited}");
    assert_eq!(visited, events, "the visitors declined an event");
    assert!(
        scanned * 10 >= events * 9,
        "the scanner read {scanned} of {events} events"
    );
}

#[test]
fn one_pass_reader_agrees_on_single_byte_edits() {
    // One line or record of each event type in the corpus.
    let mut by_type: BTreeMap<String, (String, bool)> = BTreeMap::new();
    for (text, in_doc) in corpus() {
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            let kind = v.get("type").or(v.get("eventType")).and_then(Value::as_str);
            if let Some(k) = kind {
                by_type.entry(k.to_owned()).or_insert((text, in_doc));
            }
        }
    }
    assert!(by_type.len() >= 10, "{} event types", by_type.len());
    let mut scratch = Vec::new();
    let (mut tried, mut read) = (0usize, 0usize);
    for (text, in_doc) in by_type.values() {
        let bytes = text.as_bytes();
        // Long lines: every position in the first 300 bytes and the last 100.
        let positions = (0..bytes.len()).filter(|&i| i < 300 || i + 100 >= bytes.len());
        for i in positions {
            let mut edits: Vec<Vec<u8>> = Vec::new();
            let mut deleted = bytes.to_vec();
            deleted.remove(i);
            edits.push(deleted);
            for b in *b"\"\\{}[],:0-e.nu \x01" {
                let mut sub = bytes.to_vec();
                sub[i] = b;
                edits.push(sub);
                let mut ins = bytes.to_vec();
                ins.insert(i, b);
                edits.push(ins);
            }
            for e in edits {
                if let Ok(s) = std::str::from_utf8(&e) {
                    tried += 1;
                    read += usize::from(agrees(s, *in_doc, &mut scratch));
                }
            }
        }
    }
    eprintln!("{read} of {tried} edited lines read in one pass");
    assert!(read * 2 > tried, "the one-pass reader declined most edits");
}

#[test]
fn canonical_hash_is_value_equality() {
    let same = [
        (r#"{"a":1,"b":[2,3]}"#, r#"{ "b" : [2, 3], "a" : 1 }"#),
        (r#"{"a":1,"a":2}"#, r#"{"a":2}"#),
        (r#""\u0041\n""#, r#""A\n""#),
        ("1e2", "100.0"),
        ("-0", "-0.0"),
        ("18446744073709551616", "1.8446744073709552e19"),
        (r#""abcdefghijklmnop""#, r#""abcdefghijklm\u006eop""#),
        (r#"{"k":1,"k":2,"j":3,"k":4}"#, r#"{"j":3,"k":4}"#),
    ];
    let different = [
        ("1", "1.0"),
        ("0", "-0"),
        ("[]", "{}"),
        ("null", "[]"),
        (r#"{"a":[1]}"#, r#"{"a":1}"#),
        (r#"[1,2]"#, r#"[2,1]"#),
        (r#"{"a":1,"a":2}"#, r#"{"a":1}"#),
        (r#""1""#, "1"),
        // Short strings are encoded, longer ones hashed: at the boundary,
        // with trailing NULs, and against scalars of every kind.
        (r#""abcdefghijklmno""#, r#""abcdefghijklmnop""#),
        (r#""abcdefghijklmnop""#, r#""abcdefghijklmnoq""#),
        (r#""a""#, r#""a\u0000""#),
        (r#""""#, "null"),
        (r#""""#, r#""\u0000""#),
        ("true", "1"),
        ("false", "0"),
        ("-1", "18446744073709551615"),
        ("0.5", "1"),
        (r#"{"":0}"#, r#"{"\u0000":0}"#),
    ];
    // Longer objects (either key order, the last value changed) and arrays
    // (one element more, or nested).
    let obj = |n: usize, rev: bool, last: u32| {
        let mut keys: Vec<usize> = (0..n).collect();
        if rev {
            keys.reverse();
        }
        let body: Vec<String> = keys
            .iter()
            .map(|k| format!(r#""k{k}":{}"#, if *k + 1 == n { last } else { 0 }))
            .collect();
        format!("{{{}}}", body.join(","))
    };
    let arr = |n: usize| format!("[{}]", vec!["0"; n].join(","));
    let mut same: Vec<(String, String)> = same
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let mut different: Vec<(String, String)> = different
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    for n in [6, 7, 8, 14, 15] {
        same.push((obj(n, false, 1), obj(n, true, 1)));
        different.push((obj(n, false, 1), obj(n, true, 2)));
        different.push((obj(n, false, 0), obj(n + 1, false, 0)));
        different.push((arr(n), arr(n + 1)));
        different.push((arr(n), format!("[{},0]", arr(n - 1))));
    }
    let walk = |s: &str| {
        let mut scratch = Vec::new();
        let mut de = serde_json::Deserializer::from_str(s);
        serde::de::DeserializeSeed::deserialize(
            canon::Walk {
                scratch: &mut scratch,
            },
            &mut de,
        )
        .unwrap()
    };
    for (pairs, equal) in [(&same[..], true), (&different[..], false)] {
        for (a, b) in pairs {
            let (a, b) = (a.as_str(), b.as_str());
            let (va, vb): (Value, Value) = (
                serde_json::from_str(a).unwrap(),
                serde_json::from_str(b).unwrap(),
            );
            // The old key re-serialised the value: the same classes.
            let old = serde_json::to_vec(&va).unwrap() == serde_json::to_vec(&vb).unwrap();
            assert_eq!(old, equal, "{a} / {b}");
            assert_eq!(
                canon::of_value(&va) == canon::of_value(&vb),
                equal,
                "{a} / {b}"
            );
            assert_eq!(walk(a), canon::of_value(&va), "{a}");
            assert_eq!(walk(b), canon::of_value(&vb), "{b}");
        }
    }
}

#[test]
#[allow(clippy::useless_format)] // one notation for every line, with or without `{m}`
fn one_pass_reader_agrees_on_hostile_lines() {
    let m = r#""meta":{"runId":"r","wallClockMs":1700000000000}"#;
    let lines = [
        format!(
            r#"{{"type":"agentfootprint.x","meta":{{"runId":"r","wallClockMs":1,"o":{{"$serde_json::private::RawValue":"nope"}}}}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.x","payload":{{"$serde_json::private::RawValue":"5"}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.x","payload":{{"a":{{"$serde_json::private::RawValue":"[1]"}}}},{m}}}"#
        ),
        format!(
            r#"{{"payload":{{"userPrompt":"q"}},"type":"agentfootprint.agent.turn_start",{m}}}"#
        ),
        format!(
            r#"{{"eventType":"audit.x","payload":{{"userPrompt":"q"}},"type":"agentfootprint.agent.turn_start",{m}}}"#
        ),
        format!(
            r#"{{"type":null,"eventType":"agentfootprint.agent.turn_start","payload":{{"userPrompt":"q"}},{m}}}"#
        ),
        format!(r#"{{"type":"agentfootprint.x","payload":{{}},"payload":null,{m}}}"#),
        format!(r#"{{"type":"agentfootprint.x","payload":{{"z":"\ud800"}},{m}}}"#),
        format!(r#"{{"type":"agentfootprint.x","payload":{{"z":1e400}},{m}}}"#),
        format!(r#"{{"type":"agentfootprint.x","meta":{{"runId":"r","z":"\udc00"}}}}"#),
        format!(r#"{{"type":"agentfootprint.x","meta":{{"runId":"r","z":[-1e999]}}}}"#),
        format!(r#"{{"type":"agentfootprint.x","z":"\ud800","w":1e400,{m}}}"#),
        format!(r#"{{"type":"agentfootprint.x","format":null,"header":{{}},{m}}}"#),
        r#"{"format":"agentfootprint.recording.v1"}"#.to_owned(),
        r#"["agentfootprint.x",null,{},{"runId":"r","wallClockMs":1}]"#.to_owned(),
        format!(r#"{{"type":5,{m}}}"#),
        format!(r#"{{"type":"agentfootprint.x","payload":[1,{{"a":2}}],{m}}}"#),
        format!(r#"{{"type":"agentfootprint.x","payload":{{"runId":"p"}},"meta":{{"runId":7}}}}"#),
        format!(
            r#"{{"type":"agentfootprint.stream.llm_end","payload":{{"content":"a","content":5,"usage":null,"durationMs":-3}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.context.injected","payload":{{"rawContent":7,"contentSummary":"s\u0041","rankPosition":2.0,"retrievalScore":-0}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.x","meta":{{"runId":"r","compositionPath":["a",1,"b",{{}}],"compositionPath":"c"}}}}"#
        ),
        // Values read without their hash: checked as `Value` checks them.
        format!(
            r#"{{"type":"agentfootprint.x","meta":{{"runId":"r","compositionPath":[{{"$serde_json::private::RawValue":"1"}}]}}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.x","meta":{{"runId":"r","compositionPath":{{"$serde_json::private::RawValue":"1"}}}}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.x","meta":{{"runId":{{"a":[1e999]}},"sessionId":["\ud800"]}}}}"#
        ),
        format!(r#"{{"type":"agentfootprint.x","timestamp":{{"a":1}},{m}}}"#),
        format!(
            r#"{{"type":"agentfootprint.x","timestamp":[{{"$serde_json::private::RawValue":"1"}}],{m}}}"#
        ),
        r#"{"type":"agentfootprint.x","meta":[{"$serde_json::private::RawValue":"1"}]}"#.to_owned(),
        r#"{"type":"agentfootprint.x","meta":[1,{"a":"A"}]}"#.to_owned(),
        // Numbers and escapes as the cursor reads them, keys next to the
        // expected ones, whitespace where a key compare looks.
        format!(
            r#"{{"type":"agentfootprint.context.injected","payload":{{"retrievalScore":-1.5,"rankPosition":-0.0,"score":0.30000000000000004,"x":12345678901234567890}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.agent.turn_start","payload":{{"userPrompt":"a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac!"}},{m}}}"#
        ),
        r#"{ "type" : "agentfootprint.x" , "typeX":1, "meta" :{ "runId" : "r" ,"runIdX":"s", "wallClockMs" :1 } }"#.to_owned(),
        r#"{"type":"agentfootprint.x","meta":{"runtimeStageId":"a","runId":"r","wallClockMs":2,"runId":"q","sessionId":"s\u0041"}}"#.to_owned(),
        r#"{"type":"agentfootprint.x","meta":{"runId":"r","wallClockMs":1.5e3,"runOffsetMs":-2.25}}"#.to_owned(),
        // Candidates read without a `Value`: the last of a repeated key,
        // ids that are not strings, elements that are not objects, nested
        // and escaped values, and a `candidates` that is not an array.
        format!(
            r#"{{"type":"agentfootprint.memory.retrieved","payload":{{"k":2,"candidates":[{{"id":"a","score":1,"rank":2.0,"admitted":true,"reason":"r\u0041","docUri":"d","x":{{"y":[1,{{"z":null}}]}}}},{{"id":7,"score":0.5}},{{"id":"b","id":"c","score":"s","rank":1.5,"admitted":1,"reason":null}},{{"score":0.1,"id":"e","id":{{"a":1}}}},3,"f",[{{"id":"g"}}],{{}},{{"id":"","docUri":["u"],"docUri":"v"}}]}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.memory.retrieved","payload":{{"candidates":{{"id":"a"}},"threshold":0.5}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.memory.retrieved","payload":{{"candidates":[],"candidates":[{{"id":"z"}}]}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.memory.retrieved","payload":{{"candidates":[{{"id":"a","score":1e400}}]}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.memory.retrieved","payload":{{"candidates":[{{"id":"a"}},{{"$serde_json::private::RawValue":"1"}}]}},{m}}}"#
        ),
        format!(
            r#"{{"type":"agentfootprint.memory.retrieved","payload":{{"candidates":[{{ "id" : "a" , "score":0.25 }} , {{"id":"b\ud83d\ude00"}}]}},{m}}}"#
        ),
        format!(r#"{{"\u0074ype":"agentfootprint.x",{m}}} "#),
        format!(r#"{{"type":"agentfootprint.x",{m}}} x"#),
    ];
    let mut scratch = Vec::new();
    for l in &lines {
        for in_doc in [false, true] {
            agrees(l, in_doc, &mut scratch);
        }
    }
}

/// The byte scanner reads `candidates` itself, to the candidates a
/// `Value` gives (checked field by field here, not only against the
/// reference reader).
#[test]
fn scanner_reads_candidates_as_a_value_does() {
    use super::event::Fields;
    use super::fast::{Readers, read_event};
    use super::parse::Item;
    let line = r#"{"type":"agentfootprint.memory.retrieved","payload":{"candidates":[{"id":"a","score":1,"rank":2.0,"admitted":true,"reason":"r\u0041","docUri":"d","x":{"y":[1]}},{"id":7},{"id":"b","id":"c","score":"s","rank":1.5,"admitted":1},3,{"id":{"a":1}},{"id":"","docUri":["u"],"docUri":"v"}]},"meta":{"runId":"r","wallClockMs":1}}"#;
    let mut scratch = Vec::new();
    let Some(Item::Event(e)) = read_event(line, 1, &mut scratch, Readers::ScannerOnly) else {
        panic!("the scanner gave up on {line}");
    };
    let Fields::Retrieved { candidates, .. } = &e.fields else {
        panic!("not a retrieval: {:?}", e.fields);
    };
    let got: Vec<_> = candidates
        .iter()
        .map(|c| {
            (
                c.id.as_str(),
                c.score,
                c.rank,
                c.admitted,
                c.reason.as_deref(),
                c.doc_uri.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("a", Some(1.0), Some(2), true, Some("rA"), Some("d")),
            ("c", None, None, false, None, None),
            ("", None, None, false, None, Some("v")),
        ]
    );
    assert!(agrees(line, false, &mut scratch));
}

/// The corpus's event lines and records, read once.
fn events() -> &'static [(String, bool)] {
    static EVENTS: std::sync::OnceLock<Vec<(String, bool)>> = std::sync::OnceLock::new();
    EVENTS.get_or_init(|| {
        corpus()
            .into_iter()
            .filter(|(t, d)| matches!(parse_event_value(t.as_bytes(), 9, *d), Item::Event(_)))
            .collect()
    })
}

/// One edit: at a fraction of the length, delete, replace or insert a byte.
fn edit() -> impl proptest::strategy::Strategy<Value = (f64, u8, u8)> {
    use proptest::prelude::*;
    let bytes = prop_oneof![
        proptest::sample::select(b"\"\\{}[],:0123456789-+eE.ntfrlu \t\n".to_vec()),
        0x01u8..0x7f,
    ];
    (0.0..1.0f64, 0u8..3, bytes)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

    #[test]
    fn one_pass_reader_agrees_on_random_edits(
        pick in proptest::prelude::any::<proptest::sample::Index>(),
        edits in proptest::collection::vec(edit(), 1..5),
    ) {
        let events = events();
        proptest::prop_assume!(!events.is_empty());
        let (text, in_doc) = &events[pick.index(events.len())];
        let mut b = text.as_bytes().to_vec();
        for (at, op, byte) in edits {
            let i = ((b.len() as f64) * at) as usize;
            match op {
                0 if i < b.len() => {
                    b.remove(i);
                }
                1 if i < b.len() => b[i] = byte,
                _ => b.insert(i.min(b.len()), byte),
            }
        }
        if let Ok(s) = std::str::from_utf8(&b) {
            agrees(s, *in_doc, &mut Vec::new());
        }
    }
}

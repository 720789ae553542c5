//! The one-pass cursor reader against the serde reader ([`parse`]), the
//! reference: the cursor reader ([`scan::line`]), whenever it reads a
//! line, gives the same spans, and [`parse_line`] (the cursor reader, else
//! the reference) gives the same spans or the same reason, on the shared captures, hand-written requests, generated
//! requests (hostile strings, numbers at every edge, fields named twice,
//! every `AnyValue` shape) and every single-byte deletion and substitution
//! of them.

use super::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

fn reference(line: &[u8]) -> Result<Vec<Span>, String> {
    let mut out = Vec::new();
    parse(line, &mut |_, s| out.push(s)).map(|()| out)
}

/// `Span` compared by its `Debug` text, which tells `-0.0` from `0.0`
/// and shows `NaN` equal to itself.
fn shown<S: std::fmt::Debug>(r: &Result<Vec<S>, String>) -> String {
    format!("{r:?}")
}

/// The cursor reader and [`parse_line`] against the reference; true when the cursor
/// reader read the line itself.
fn check(line: &[u8]) -> Result<bool, String> {
    let Ok(text) = std::str::from_utf8(line) else {
        return Ok(false); // lines reach the cursor reader as text only
    };
    let want = shown(&reference(line));
    let mut spans = Vec::new();
    let scanned = scan::line(text, &mut spans).is_some();
    if scanned && shown(&Ok(spans)) != want {
        return Err(format!("cursor reader differs on {text:?}"));
    }
    let mut out = Vec::new();
    let got = shown(&parse_line(text, &mut out).map(|()| out));
    if got != want {
        return Err(format!(
            "parse_line differs on {text:?}\n got {got}\nwant {want}"
        ));
    }
    Ok(scanned)
}

fn both(line: &[u8]) -> bool {
    check(line).unwrap_or_else(|e| panic!("{e}"))
}

/// Every single-byte deletion and substitution of `line`.
fn edits(line: &str) {
    let bytes = line.as_bytes();
    let subst: &[u8] = b"\"{}[]:,0a\\ -.n";
    for i in 0..bytes.len() {
        let mut cut = bytes.to_vec();
        cut.remove(i);
        both(&cut);
        for &c in subst {
            let mut m = bytes.to_vec();
            m[i] = c;
            both(&m);
        }
    }
}

const SMALL: &str = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"svc"}}]},"scopeSpans":[{"spans":[{"traceId":"ab12","spanId":"01","parentSpanId":"","name":"root","startTimeUnixNano":"1700000000000000000","endTimeUnixNano":"1700000001000000000","attributes":[{"value":{"stringValue":"A [1]"},"key":"output.value"},{"key":"llm.input_messages","value":{"arrayValue":{"values":[{"intValue":"3"}]}}},{"key":"openinference.span.kind","value":{"stringValue":"AGENT"}},{"key":"x","value":null}],"status":{"code":2}}]}]}]}"#;

/// Phoenix's snake_case download and the rarer shapes: nested values,
/// numbers as numbers, escapes, a value before its key, the resource after
/// the spans, unknown and null fields, two requests on a line.
const RICH: &str = r#"{"resource_spans":[{"scope_spans":[{"scope":{"name":"s"},"spans":[{"trace_id":"0xAB","span_id":"02","parent_span_id":null,"name":"re\"triever","kind":"SPAN_KIND_INTERNAL","start_time_unix_nano":1700000000000000001,"end_time_unix_nano":null,"attributes":[{"key":"openinference.span.kind","value":{"string_value":"RETRIEVER","int_value":null,"double_value":null,"bool_value":null,"array_value":null,"kvlist_value":null,"bytes_value":null}},{"key":"retrieval.documents","value":{"array_value":{"values":[{"kvlist_value":{"values":[{"key":"document.id","value":{"string_value":"d\u00e91"}},{"key":"document.score","value":{"double_value":0.25}},{"key":"document.metadata","value":{"string_value":"{\"chunk_id\":7}"}}]}},{"kvlist_value":{"values":[{"key":"document.id","value":{"int_value":-5}},{"key":"document.score","value":{"double_value":3}},{"key":"x"}]}}]}}},{"key":"llm.token_count.prompt","value":{"int_value":12}},{"key":"llm.token_count.completion","value":{"intValue":"7"}},{"key":"llm.model_name","value":{"boolValue":true}},{"key":"metadata","value":{"stringValue":"{\"channel\":\"web\",\"n\":1e3}"}},{"key":"gen_ai.usage.cost","value":{"doubleValue":"NaN"}},{"key":"tool.name","value":{"bytesValue":"AAE="}},{"key":"error.type","value":{"stringValue":"x","intValue":"nope"}}],"status":{"code":"STATUS_CODE_ERROR","message":"m"},"events":[{"name":"e","attributes":[]}]}]}],"resource":{"attributes":[{"value":{"stringValue":"late"},"key":"service.name"}]}}]} {"resourceSpans":[{"instrumentationLibrarySpans":[{"spans":[{"traceId":"cd","spanId":"03","startTimeUnixNano":"  5 ","status":{"code":-1},"attributes":null}]}]}]}"#;

#[test]
fn the_cursor_reader_reads_the_common_shapes_alike() {
    assert!(both(SMALL.as_bytes()));
    assert!(both(RICH.as_bytes()));
    assert!(both(format!("{SMALL} {SMALL}\n").as_bytes()));
    assert!(both(b"  "));
    // An attribute may mark the span as failed before its status says OK.
    let level = r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","spanId":"b","attributes":[{"key":"langfuse.observation.level","value":{"stringValue":"ERROR"}}],"status":{"code":0}}]}]}]}"#;
    assert!(both(level.as_bytes()));
    let mut spans = Vec::new();
    scan::line(level, &mut spans).expect("read by the cursor reader");
    assert!(spans[0].error);
    // What it leaves to the reference: a request without spans, an escaped
    // key, a field named twice, a time as a float, `-0`, a missing id.
    for line in [
        r#"{"x":1}"#,
        r#"{"resourceSpans":null}"#,
        r#"{"resource\u0053pans":[]}"#,
        r#"{"resourceSpans":[],"resource_spans":[]}"#,
        r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","spanId":"b","startTimeUnixNano":1.5}]}]}]}"#,
        r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","spanId":"b","status":{"code":-0}}]}]}]}"#,
        r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"a","spanId":"00"}]}]}]}"#,
    ] {
        assert!(!both(line.as_bytes()), "{line}");
    }
}

#[test]
fn single_byte_edits_read_alike() {
    edits(SMALL);
    edits(RICH);
}

#[test]
fn the_shared_captures_read_alike() {
    let Some(files) = super::super::shared_captures() else {
        return;
    };
    let (mut seen, mut scanned) = (0, 0);
    for (_, data) in &files {
        for line in data.split(|&b| b == b'\n') {
            if line.starts_with(b"{\"resourceSpans\"") || line.starts_with(b"{\"resource_spans\"") {
                seen += 1;
                scanned += usize::from(both(line));
            }
        }
    }
    assert!(seen > 0, "no OTLP line in the shared captures");
    assert_eq!(scanned, seen, "lines the cursor reader left to serde_json");
}

// ------------------------------------------------------------ generated

fn pick(items: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(items).prop_map(str::to_owned)
}

/// A string literal, mostly plain, sometimes escaped or hostile.
fn string() -> impl Strategy<Value = String> {
    pick(&[
        r#""a""#,
        r#""ab12""#,
        r#""0""#,
        r#""""#,
        r#""2""#,
        r#""ERROR""#,
        r#"" 17 ""#,
        r#""1700000000000000000""#,
        r#""-3""#,
        r#""18446744073709551615""#,
        r#""1.5""#,
        r#""NaN""#,
        r#""see [1]""#,
        r#""{\"chunk_id\":\"c\"}""#,
        r#""\u0041\n""#,
        r#""\uD83D\uDE00""#,
        r#""é""#,
    ])
}

/// Invalid JSON (a bad escape, a raw control character, a leading zero, a
/// bare point) or a lone surrogate (valid JSON serde_json does not decode).
fn hostile() -> impl Strategy<Value = String> {
    pick(&[r#""\uD800""#, r#""\x""#, "\"tab\there\"", "01", "1.", "-"])
}

fn number() -> impl Strategy<Value = String> {
    pick(&[
        "0",
        "2",
        "-1",
        "-0",
        "1.5",
        "0.497",
        "-2.25",
        "1e3",
        "1E-2",
        "1700000000000000000",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234",
    ])
}

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        30 => string(),
        20 => number(),
        1 => hostile(),
        10 => pick(&["null", "true", "false", "[]", "{}", "[1,\"a\"]", "{\"a\":[{}]}"]),
    ]
}

/// An object from `(key, value)` members, sometimes with whitespace.
fn object(members: Vec<(String, String)>, spaced: bool) -> String {
    let sep = if spaced { " , " } else { "," };
    let colon = if spaced { " : " } else { ":" };
    let body: Vec<String> = members
        .into_iter()
        .map(|(k, v)| format!("\"{k}\"{colon}{v}"))
        .collect();
    format!("{{{}}}", body.join(sep))
}

/// Members drawn from `fields` (name, value strategy), in any order, some
/// missing, some twice.
fn members(
    fields: Vec<(&'static [&'static str], BoxedStrategy<String>)>,
) -> impl Strategy<Value = Vec<(String, String)>> {
    let each: Vec<_> = fields
        .into_iter()
        .map(|(names, value)| {
            (
                prop::sample::select(names),
                value,
                0u8..60,
                prop::sample::select(names),
            )
                .prop_map(|(name, v, n, other)| match n {
                    0 => vec![],
                    59 => vec![(name.to_owned(), v.clone()), (other.to_owned(), v)],
                    _ => vec![(name.to_owned(), v)],
                })
        })
        .collect();
    (each, any::<prop::sample::Index>()).prop_map(|(groups, shuffle)| {
        let mut all: Vec<(String, String)> = groups.into_iter().flatten().collect();
        if !all.is_empty() {
            let k = shuffle.index(all.len());
            all.rotate_left(k);
        }
        all
    })
}

fn any_value() -> BoxedStrategy<String> {
    let leaf = prop_oneof![scalar(), Just("null".to_owned())];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let list = prop::collection::vec(inner.clone(), 0..3)
            .prop_map(|v| format!("{{\"values\":[{}]}}", v.join(",")));
        let pair = (pick(&["document.id", "document.score", "k"]), inner.clone())
            .prop_map(|(k, v)| format!("{{\"key\":\"{k}\",\"value\":{v}}}"));
        let kvlist = prop::collection::vec(pair, 0..3)
            .prop_map(|v| format!("{{\"values\":[{}]}}", v.join(",")));
        (
            members(vec![
                (&["stringValue", "string_value"][..], scalar().boxed()),
                (&["intValue", "int_value"][..], scalar().boxed()),
                (&["doubleValue", "double_value"][..], scalar().boxed()),
                (&["boolValue", "bool_value"][..], scalar().boxed()),
                (&["arrayValue", "array_value"][..], list.boxed()),
                (&["kvlistValue", "kvlist_value"][..], kvlist.boxed()),
                (&["bytesValue", "other"][..], scalar().boxed()),
            ]),
            any::<bool>(),
        )
            .prop_map(|(m, spaced)| object(m, spaced))
    })
    .boxed()
}

/// Attributes the builder acts on (an error level, a span kind, counts, a
/// document), so a span's fields, not only its validity, are compared.
fn known_attribute() -> impl Strategy<Value = String> {
    pick(&[
        r#"{"key":"langfuse.observation.level","value":{"stringValue":"ERROR"}}"#,
        r#"{"value":{"stringValue":"ERROR"},"key":"langfuse.observation.level"}"#,
        r#"{"key":"openinference.span.kind","value":{"stringValue":"RETRIEVER"}}"#,
        r#"{"key":"llm.token_count.prompt","value":{"intValue":"12"}}"#,
        r#"{"key":"llm.token_count.completion","value":{"intValue":7}}"#,
        r#"{"key":"retrieval.documents.0.document.score","value":{"doubleValue":0.5}}"#,
        r#"{"key":"retrieval.documents.0.document.id","value":{"stringValue":"KB-1"}}"#,
        r#"{"key":"output.value","value":{"stringValue":"see [1]"}}"#,
    ])
}

fn attribute() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        8 => pick(&[
            "\"openinference.span.kind\"",
            "\"output.value\"",
            "\"llm.token_count.prompt\"",
            "\"retrieval.documents\"",
            "\"retrieval.documents.0.document.id\"",
            "\"metadata\"",
            "\"service.name\"",
            "\"llm.input_messages\"",
            "\"unwanted.key\"",
            "\"langfuse.observation.level\"",
            "\"output\\u002evalue\"",
        ]),
        1 => scalar(),
    ];
    (
        members(vec![
            (&["key"][..], key.prop_map(|k| k).boxed()),
            (&["value"][..], any_value()),
            (&["extra"][..], scalar().boxed()),
        ]),
        any::<bool>(),
    )
        .prop_map(|(m, spaced)| {
            // `key` holds its own quotes: the generic helper would add more.
            let body: Vec<String> = m
                .into_iter()
                .map(|(k, v)| {
                    if k == "key" {
                        format!("\"key\":{v}")
                    } else {
                        format!("\"{k}\":{v}")
                    }
                })
                .collect();
            let sep = if spaced { " , " } else { "," };
            format!("{{{}}}", body.join(sep))
        })
}

fn attributes() -> BoxedStrategy<String> {
    prop_oneof![
        40 => prop::collection::vec(prop_oneof![2 => attribute(), 1 => known_attribute()], 0..5)
            .prop_map(|v| format!("[{}]", v.join(","))),
        1 => scalar(),
    ]
    .boxed()
}

fn span() -> impl Strategy<Value = String> {
    let id = prop_oneof![
        40 => pick(&["\"ab12\"", "\"0x01\"", "\"cd\"", "\" 7f \""]),
        1 => scalar(),
    ]
    .boxed();
    let status = prop_oneof![
        30 => pick(&["0", "1", "2", "\"ERROR\"", "null"]).prop_map(|c| format!("{{\"code\":{c}}}")),
        2 => scalar().prop_map(|c| format!("{{\"code\":{c}}}")),
        1 => scalar(),
    ]
    .boxed();
    let time =
        prop_oneof![40 => pick(&["\"1700000000000000000\"", "1700000000000000001"]), 1 => scalar()]
            .boxed();
    let name =
        prop_oneof![40 => pick(&["\"root\"", "\"kb_search\"", "\"\""]), 1 => scalar()].boxed();
    (
        members(vec![
            (&["traceId", "trace_id"][..], id.clone()),
            (&["spanId", "span_id"][..], id.clone()),
            (&["parentSpanId", "parent_span_id"][..], id),
            (&["name"][..], name),
            (
                &["startTimeUnixNano", "start_time_unix_nano"][..],
                time.clone(),
            ),
            (&["endTimeUnixNano", "end_time_unix_nano"][..], time),
            (&["attributes"][..], attributes()),
            (&["status"][..], status),
            (&["kind", "events"][..], scalar().boxed()),
        ]),
        any::<bool>(),
    )
        .prop_map(|(m, spaced)| object(m, spaced))
}

fn request() -> impl Strategy<Value = String> {
    let spans = prop::collection::vec(span(), 0..3).prop_map(|v| format!("[{}]", v.join(",")));
    let scope = members(vec![
        (&["spans"][..], spans.boxed()),
        (&["scope"][..], scalar().boxed()),
    ])
    .prop_map(|m| object(m, false));
    let scopes = prop::collection::vec(scope, 0..3).prop_map(|v| format!("[{}]", v.join(",")));
    let resource = prop_oneof![
        3 => attributes().prop_map(|a| format!("{{\"attributes\":{a}}}")),
        1 => scalar(),
    ];
    let rs = members(vec![
        (&["resource"][..], resource.boxed()),
        (
            &["scopeSpans", "scope_spans", "instrumentationLibrarySpans"][..],
            scopes.boxed(),
        ),
    ])
    .prop_map(|m| object(m, false));
    let all = prop::collection::vec(rs, 0..3).prop_map(|v| format!("[{}]", v.join(",")));
    members(vec![(
        &["resourceSpans", "resource_spans"][..],
        all.boxed(),
    )])
    .prop_map(|m| object(m, false))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn generated_requests_read_alike(line in request(), at in any::<prop::sample::Index>(), c in prop::sample::select(b"\"{}[]:,0a\\ -.n".to_vec())) {
        check(line.as_bytes()).map_err(TestCaseError::fail)?;
        let mut edited = line.clone().into_bytes();
        if !edited.is_empty() {
            let i = at.index(edited.len());
            let mut cut = edited.clone();
            cut.remove(i);
            check(&cut).map_err(TestCaseError::fail)?;
            edited[i] = c;
            check(&edited).map_err(TestCaseError::fail)?;
        }
    }
}

/// An attribute value as the reference decodes it (`None`: ignored), and
/// as the cursor reader does (`Err`: it leaves the line to serde_json);
/// compared directly, as most of a value never reaches a span's fields.
fn value_check(v: &str) -> Result<(), String> {
    let want = serde_json::from_str::<AnyValue<'_>>(v)
        .ok()
        .map(AnyValue::into_val);
    let mut p = crate::dialect::cursor::Cursor::new(v);
    let got = p.attr_value(4).filter(|_| {
        p.ws();
        p.i == v.len()
    });
    match got {
        // A value that is not JSON (or is null) is the caller's business.
        None => Ok(()),
        Some(got) if v.trim() == "null" || format!("{got:?}") == format!("{want:?}") => Ok(()),
        Some(got) => Err(format!(
            "value {v:?}
 got {got:?}
want {want:?}"
        )),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn generated_values_decode_alike(v in any_value(), at in any::<prop::sample::Index>(), c in prop::sample::select(b"\"{}[]:,0a\\ -.n".to_vec())) {
        value_check(&v).map_err(TestCaseError::fail)?;
        let mut edited = v.into_bytes();
        let i = at.index(edited.len());
        edited[i] = c;
        if let Ok(e) = std::str::from_utf8(&edited) {
            value_check(e).map_err(TestCaseError::fail)?;
        }
    }
}

/// The generator reaches the cursor reader's own path, not only its
/// fallbacks: lines it reads, and spans in them (a guard on the generator).
#[test]
fn the_generator_reaches_the_cursor_reader() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = request();
    let (mut read, mut spans, n) = (0, 0, 500);
    for _ in 0..n {
        let line = strategy.new_tree(&mut runner).expect("a value").current();
        if both(line.as_bytes()) {
            read += 1;
            let mut out = Vec::new();
            scan::line(&line, &mut out).expect("read");
            spans += out.len();
        }
    }
    assert!(read * 10 >= n, "the cursor reader read {read} of {n} lines");
    assert!(
        spans >= 25,
        "the cursor reader read {spans} spans in {n} lines"
    );
}

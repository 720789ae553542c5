//! The span formats read by Phoenix's row reader ([`super::phoenix`]):
//! Phoenix's own spans and dataframe rows, OpenTelemetry SDK span objects
//! and TruLens event rows. They differ in the keys their first object
//! holds, and in the words their reasons begin with.

use super::phoenix::{parse_line, parse_pages};
use super::{Head, Reader, SpanFormat};

/// Phoenix span JSON: one span per line (UI `jsonl` download, REST
/// `/v1/projects/{p}/spans`), or a REST page envelope `{"data":[…]}`.
pub static PHOENIX_JSONL: SpanFormat = SpanFormat {
    name: "phoenix-jsonl",
    about: "Phoenix spans (JSONL download or REST page)",
    claims: |h| match h.is_whole() {
        true => {
            (h.has("context") && h.has("span_kind"))
                || (h.has("data") && h.line_holds(b"\"context\""))
        }
        false => h.line_holds_all(&[b"\"span_kind\"", b"\"context\""]),
    },
    document: |rest| super::head::first_key(rest) == Some(b"data"),
    read: Reader {
        line: |line, out| parse_line("not a Phoenix span", line, out),
        pages: |data, sink| parse_pages("not a Phoenix span", data, sink),
    },
};

/// `get_spans_dataframe()` written as JSON records (lines or an array).
pub static PHOENIX_DATAFRAME: SpanFormat = SpanFormat {
    name: "phoenix-dataframe",
    about: "Phoenix get_spans_dataframe() rows as JSON",
    claims: |h| match h.is_whole() {
        true => h.has("context.span_id") || h.has("context.trace_id"),
        false => h.line_holds(b"\"context.span_id\"") || h.line_holds(b"\"context.trace_id\""),
    },
    document: |_| false,
    read: Reader {
        line: |line, out| parse_line("not a Phoenix dataframe row", line, out),
        pages: |data, sink| parse_pages("not a Phoenix dataframe row", data, sink),
    },
};

/// TruLens OTel event rows (`trace`, `record`, `record_attributes` with
/// `ai.observability.*`), as its event table exports them.
pub static TRULENS: SpanFormat = SpanFormat {
    name: "trulens-events",
    about: "TruLens OTel event rows (record, record_attributes)",
    claims: |h| match h.is_whole() {
        true => h.has("record_attributes"),
        false => h.line_holds_all(&[b"\"record_attributes\"", b"\"trace\""]),
    },
    document: |_| false,
    read: Reader {
        line: |line, out| parse_line("not a TruLens event row", line, out),
        pages: |data, sink| parse_pages("not a TruLens event row", data, sink),
    },
};

/// OpenTelemetry SDK span objects as the SDKs print them: Python's
/// `span.to_json()` (`context.trace_id`, `parent_id`, ISO times) and
/// JavaScript's `ReadableSpan` (`spanContext.traceId`, `parentSpanId`,
/// `[seconds, nanos]` times); one per line or a JSON array; and Monocle's
/// trace files, which hold such spans.
pub static OTEL_SDK: SpanFormat = SpanFormat {
    name: "otel-sdk-json",
    about: "OpenTelemetry SDK span objects (Python span.to_json(), JS ReadableSpan), lines or an array",
    claims: |h| match (h.is_array(), h.is_whole()) {
        (true, _) => sdk_span(h),
        (false, true) => {
            h.has("spanContext")
                || (h.has("context") && h.has("kind"))
                || (h.has("spans") && h.line_holds_all(MONOCLE))
        }
        (false, false) => MONOCLE.iter().all(|n| h.block_holds(n)) || sdk_span(h),
    },
    document: |_| false,
    read: Reader {
        line: |line, out| parse_line("not an OpenTelemetry SDK span", line, out),
        pages: |data, sink| parse_pages("not an OpenTelemetry SDK span", data, sink),
    },
};

/// What Monocle's own trace file holds: `{trace_id, …, spans:
/// [{span_name, span_id, trace_id, parent_id, attributes, events}]}`.
const MONOCLE: &[&[u8]] = &[b"\"spans\"", b"\"span_name\""];

/// An SDK span object: a JS `ReadableSpan` (`spanContext`), or a Python
/// `span.to_json()` (`context` with a `trace_id`, and the span's `kind`).
fn sdk_span(h: &Head<'_>) -> bool {
    h.line_holds(b"\"spanContext\"")
        || h.line_holds_all(&[
            b"\"context\"",
            b"\"trace_id\"",
            b"\"kind\"",
            b"\"attributes\"",
        ])
}

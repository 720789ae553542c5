//! One event as the dialect keeps it until its run is assembled: the kind,
//! the few payload fields that kind contributes to a [`Run`], and the meta
//! fields every event has. Both readers (the one-pass reader in `fast` and
//! the `Value` reader in `parse`) fill it through [`Fields::read`], so they
//! read the same fields the same way.

use super::*;

/// An event's type, as far as building a run tells them apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    RunConfigured,
    TurnStart,
    LlmStart,
    Retrieved,
    Injected,
    LlmEnd,
    ToolStart,
    ToolEnd,
    TurnEnd,
    EvidenceChecked,
    /// `audit.genesis`: the audit bundle's first record.
    Genesis,
    /// A note a document adds about its run (not an input record).
    Note,
    /// Any other event: it still gives the run a time, session and agent.
    Other,
}

impl Kind {
    /// The kind of an event type as written.
    pub(super) fn of(kind: &str) -> Kind {
        if kind == "audit.genesis" {
            return Kind::Genesis;
        }
        match kind.strip_prefix(EVENT_PREFIX).unwrap_or(kind) {
            "agent.run_configured" => Kind::RunConfigured,
            "agent.turn_start" => Kind::TurnStart,
            "stream.llm_start" => Kind::LlmStart,
            "memory.retrieved" => Kind::Retrieved,
            "context.injected" => Kind::Injected,
            "stream.llm_end" => Kind::LlmEnd,
            "stream.tool_start" => Kind::ToolStart,
            "stream.tool_end" => Kind::ToolEnd,
            "agent.turn_end" => Kind::TurnEnd,
            "agent.evidence_checked" => Kind::EvidenceChecked,
            _ => Kind::Other,
        }
    }

    /// The payload keys [`Fields::read`] asks for with this kind (and
    /// `runId`, which every kind may give).
    pub(super) fn keys(self) -> &'static [&'static str] {
        match self {
            Kind::RunConfigured => &["agentId", "llm"],
            Kind::TurnStart => &["userPrompt"],
            Kind::LlmStart => &["model"],
            Kind::Retrieved => &["k", "threshold", "candidates"],
            Kind::Injected => &[
                "source",
                "sourceId",
                "slot",
                "rawContent",
                "contentSummary",
                "contentHash",
                "retrievalScore",
                "rankPosition",
            ],
            Kind::LlmEnd => &[
                "contentWithheld",
                "content",
                "iteration",
                "usage",
                "stopReason",
                "durationMs",
                "toolCallCount",
            ],
            Kind::ToolStart => &["toolName", "toolCallId", "args"],
            Kind::ToolEnd => &["toolCallId", "toolName", "error", "result", "durationMs"],
            Kind::TurnEnd => &[
                "finalContent",
                "totalInputTokens",
                "totalOutputTokens",
                "durationMs",
                "stoppedEarly",
            ],
            Kind::EvidenceChecked => &["unsupported", "action"],
            Kind::Genesis => &["payloadMode", "agent"],
            Kind::Note | Kind::Other => &[],
        }
    }
}

/// Payload keys whose whole value is kept or walked (the others are read
/// as a string, number or boolean).
pub(super) const VALUE_KEYS: [&str; 6] = [
    "llm",
    "candidates",
    "usage",
    "args",
    "result",
    "unsupported",
];

/// What a run needs from one event's payload, by kind.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Fields {
    None,
    RunConfigured {
        agent_id: Option<String>,
        model: Option<String>,
    },
    TurnStart {
        prompt: Option<String>,
    },
    LlmStart {
        model: Option<String>,
    },
    Retrieved {
        k: Option<u64>,
        threshold: Option<f64>,
        candidates: Vec<Candidate>,
    },
    Injected {
        source: Option<String>,
        source_id: Option<String>,
        slot: Option<String>,
        /// `rawContent` when a string, else `contentSummary` when a string.
        raw: Option<String>,
        content_hash: Option<String>,
        score: Option<f64>,
        rank: Option<u64>,
    },
    LlmEnd {
        withheld: bool,
        content: Option<String>,
        iteration: Option<u64>,
        usage: Option<Value>,
        stop_reason: Option<String>,
        duration_ms: Option<f64>,
        tool_call_count: Option<u64>,
    },
    ToolStart {
        name: Option<String>,
        call_id: Option<String>,
        args: Option<Value>,
    },
    ToolEnd {
        call_id: Option<String>,
        name: Option<String>,
        error: bool,
        result: Option<Value>,
        duration_ms: Option<f64>,
    },
    TurnEnd {
        final_content: Option<String>,
        input_tokens: Option<u64>,
        output_tokens: Option<u64>,
        duration_ms: Option<f64>,
        stopped_early: Option<bool>,
    },
    EvidenceChecked {
        unsupported: Vec<String>,
        action: Option<String>,
    },
    Genesis {
        mode: Option<String>,
        agent: Option<String>,
    },
    Note(String),
}

/// A scalar read while deserializing, or a whole value kept.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Got<'a> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(Cow<'a, str>),
    /// An array or object that was walked, not kept.
    Other,
    Value(Value),
    /// A `memory.retrieved` event's `candidates`, read by the byte scanner
    /// as [`candidate_of`] reads each one (no `Value` built).
    Candidates(Vec<Candidate>),
}

/// One payload field as either reader holds it.
#[derive(Clone, Copy)]
pub(super) enum Field<'a> {
    V(&'a Value),
    G(&'a Got<'a>),
}

impl<'a> Field<'a> {
    pub(super) fn str(self) -> Option<&'a str> {
        match self {
            Field::V(v) => v.as_str(),
            Field::G(Got::Str(s)) => Some(s),
            Field::G(Got::Value(v)) => v.as_str(),
            Field::G(_) => None,
        }
    }
    pub(super) fn f64(self) -> Option<f64> {
        match self {
            Field::V(v) | Field::G(Got::Value(v)) => v.as_f64(),
            Field::G(Got::U64(u)) => Some(*u as f64),
            Field::G(Got::I64(i)) => Some(*i as f64),
            Field::G(Got::F64(f)) => Some(*f),
            Field::G(_) => None,
        }
    }
    fn u64(self) -> Option<u64> {
        match self {
            Field::V(v) | Field::G(Got::Value(v)) => v.as_u64(),
            Field::G(Got::U64(u)) => Some(*u),
            Field::G(_) => None,
        }
    }
    fn bool(self) -> Option<bool> {
        match self {
            Field::V(v) | Field::G(Got::Value(v)) => v.as_bool(),
            Field::G(Got::Bool(b)) => Some(*b),
            Field::G(_) => None,
        }
    }
    /// The whole value (only asked of [`VALUE_KEYS`], which the one-pass
    /// reader keeps whole).
    fn value(self) -> Option<&'a Value> {
        match self {
            Field::V(v) | Field::G(Got::Value(v)) => Some(v),
            Field::G(_) => None,
        }
    }
    /// A non-negative whole number, written as an integer or a float.
    fn count(self) -> Option<u64> {
        self.u64().or_else(|| {
            self.f64()
                .filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x < 1.8e19)
                .map(|x| x as u64)
        })
    }
}

fn count(v: Option<Field<'_>>) -> Option<u64> {
    v.and_then(Field::count)
}

impl Fields {
    /// Reads the fields of `kind` through `get` (a payload key to its field).
    pub(super) fn read<'a>(kind: Kind, get: &dyn Fn(&str) -> Option<Field<'a>>) -> Fields {
        let string = |k: &str| get(k).and_then(Field::str).map(str::to_owned);
        let float = |k: &str| get(k).and_then(Field::f64);
        let boolean = |k: &str| get(k).and_then(Field::bool);
        let value = |k: &str| get(k).and_then(Field::value);
        match kind {
            Kind::RunConfigured => Fields::RunConfigured {
                agent_id: string("agentId"),
                model: value("llm")
                    .and_then(|l| l.get("model"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            },
            Kind::TurnStart => Fields::TurnStart {
                prompt: string("userPrompt"),
            },
            Kind::LlmStart => Fields::LlmStart {
                model: string("model"),
            },
            Kind::Retrieved => Fields::Retrieved {
                k: count(get("k")),
                threshold: float("threshold"),
                candidates: match get("candidates") {
                    Some(Field::G(Got::Candidates(c))) => c.clone(),
                    v => v
                        .and_then(Field::value)
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|c| candidate_of(&|k| c.get(k).map(Field::V)))
                        .collect(),
                },
            },
            Kind::Injected => Fields::Injected {
                source: string("source"),
                source_id: string("sourceId"),
                slot: string("slot"),
                raw: string("rawContent").or_else(|| string("contentSummary")),
                content_hash: string("contentHash"),
                score: float("retrievalScore"),
                rank: count(get("rankPosition")),
            },
            Kind::LlmEnd => Fields::LlmEnd {
                withheld: boolean("contentWithheld") == Some(true),
                content: string("content"),
                iteration: count(get("iteration")),
                usage: value("usage").cloned(),
                stop_reason: string("stopReason"),
                duration_ms: float("durationMs"),
                tool_call_count: count(get("toolCallCount")),
            },
            Kind::ToolStart => Fields::ToolStart {
                name: string("toolName"),
                call_id: string("toolCallId"),
                args: value("args").cloned(),
            },
            Kind::ToolEnd => Fields::ToolEnd {
                call_id: string("toolCallId"),
                name: string("toolName"),
                error: boolean("error") == Some(true),
                result: value("result").cloned(),
                duration_ms: float("durationMs"),
            },
            Kind::TurnEnd => Fields::TurnEnd {
                final_content: string("finalContent"),
                input_tokens: count(get("totalInputTokens")),
                output_tokens: count(get("totalOutputTokens")),
                duration_ms: float("durationMs"),
                stopped_early: boolean("stoppedEarly"),
            },
            Kind::EvidenceChecked => Fields::EvidenceChecked {
                unsupported: value("unsupported")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|u| {
                        let v = u.get("value").and_then(Value::as_str)?;
                        Some(match u.get("shape").and_then(Value::as_str) {
                            Some(s) => format!("{v} ({s})"),
                            None => v.to_owned(),
                        })
                    })
                    .collect(),
                action: string("action"),
            },
            Kind::Genesis => Fields::Genesis {
                mode: string("payloadMode"),
                agent: string("agent"),
            },
            Kind::Note | Kind::Other => Fields::None,
        }
    }
}

/// The keys of a candidate [`candidate_of`] reads, in its order.
pub(super) const CANDIDATE_KEYS: [&str; 6] =
    ["id", "score", "rank", "admitted", "reason", "docUri"];

/// One retrieval candidate through `field` (a key of
/// [`CANDIDATE_KEYS`] to its field), or None without a string `id`.
pub(super) fn candidate_of<'a>(field: &dyn Fn(&str) -> Option<Field<'a>>) -> Option<Candidate> {
    Some(Candidate {
        id: field("id")?.str()?.to_owned(),
        score: field("score").and_then(Field::f64),
        rank: count(field("rank")),
        admitted: field("admitted").and_then(Field::bool).unwrap_or(false),
        reason: field("reason").and_then(Field::str).map(str::to_owned),
        doc_uri: field("docUri").and_then(Field::str).map(str::to_owned),
    })
}

/// One event, normalised across the three exports.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Event {
    pub kind: Kind,
    /// The type ends with `agent.turn_end`: the run is complete.
    pub completes: bool,
    pub fields: Fields,
    pub run_id: Option<crate::dialect::ShortId>,
    pub session_id: Option<crate::dialect::ShortId>,
    pub time_ms: Option<f64>,
    /// Shared with the previous event of the thread when the same (nearly
    /// every event repeats its agent's path): no allocation per event.
    pub composition: Option<std::sync::Arc<str>>,
    pub line: u64,
    pub export: Export,
    /// Identity across exports (see [`event_key`]).
    pub key: u128,
}

/// The meta fields of an event, as either reader found them.
#[derive(Default)]
pub(super) struct Meta<'a> {
    pub run_id: Option<Cow<'a, str>>,
    pub session_id: Option<Cow<'a, str>>,
    pub wall_clock_ms: Option<f64>,
    /// The last string of `compositionPath`.
    pub composition: Option<Cow<'a, str>>,
    pub stage: Option<Cow<'a, str>>,
    /// [`super::canon`] hash of `runOffsetMs`, when present.
    pub offset: Option<u128>,
}

/// The de-duplication key of an event: its type, run, stage, offset in the
/// run, time and payload. The same event read twice (a file given twice, or
/// the same run in another export: event lines, a recording, a verbatim
/// audit) counts once, while a run split over files (log rotation)
/// assembles whole. Two events of one stage at the same millisecond differ
/// by payload (compared as values: key order and number spelling do not
/// matter).
pub(super) fn event_key(
    kind: &str,
    run: &str,
    meta: &Meta<'_>,
    time_ms: Option<f64>,
    payload: u128,
) -> u128 {
    use super::canon::{float, fold, string, unsigned};
    let parts = [
        (string(kind), string(run)),
        (
            string(meta.stage.as_deref().unwrap_or("")),
            meta.offset.unwrap_or(0),
        ),
        (
            unsigned(u64::from(meta.offset.is_some())),
            time_ms.map_or(0, float),
        ),
        (payload, 0),
    ];
    fold(0, &parts)
}

/// Events that share one `Arc` of a path before a thread makes a new one.
const SHARES: u32 = 256;

/// `s` as an `Arc`, the thread's last one when equal (for up to [`SHARES`]
/// events: the merging thread drops the events' clones, and a count that
/// both threads keep changing would move between their caches at every
/// event).
fn shared(s: &str) -> std::sync::Arc<str> {
    type Last = Option<(std::sync::Arc<str>, u32)>;
    thread_local! {
        static LAST: std::cell::RefCell<Last> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        match last.as_mut() {
            Some((a, uses)) if *uses < SHARES && **a == *s => {
                *uses += 1;
                a.clone()
            }
            _ => last.insert((std::sync::Arc::from(s), 1)).0.clone(),
        }
    })
}

/// The event of a line or record whose type `kind` (of [`Kind`] `k`) is an
/// agentfootprint event, or None when it names no run (skipped).
#[allow(clippy::too_many_arguments)] // an event's parts, as both readers hold them
pub(super) fn event_of(
    kind: &str,
    k: Kind,
    fields: Fields,
    payload_run: Option<&str>,
    meta: &Meta<'_>,
    timestamp: Option<f64>,
    payload_hash: u128,
    line: u64,
) -> Option<Box<Event>> {
    // The audit's genesis record names its run in the payload as well.
    let run_id = meta.run_id.as_deref().or(payload_run)?;
    let time_ms = meta.wall_clock_ms.or(timestamp);
    let key = event_key(kind, run_id, meta, time_ms, payload_hash);
    // Made in its box: an event is a few hundred bytes, moved once less.
    Some(Box::new(Event {
        kind: k,
        completes: kind.ends_with("agent.turn_end"),
        fields,
        run_id: Some(crate::dialect::ShortId::new(run_id)),
        session_id: meta.session_id.as_deref().map(crate::dialect::ShortId::new),
        time_ms,
        composition: meta
            .composition
            .as_deref()
            .map(|s| shared(s.strip_prefix("Agent:").unwrap_or(s))),
        line,
        export: Export::Events,
        key,
    }))
}

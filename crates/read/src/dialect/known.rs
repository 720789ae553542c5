//! Formats this tool recognises but does not read: HTTP recordings, other
//! tools' trace and conversation files. A file that holds
//! records of which none reads as a turn is named by what it looks like
//! (`inspect`'s note, and the input error of the grading commands), never
//! graded as nothing.
//!
//! Recognition looks at the first bytes of a source only (what a person
//! sees on opening it), so it is cheap and never depends on the file's size.

/// A recognised format: its name, what it is, and what it would take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Known {
    /// A short, stable name (`har`, `vcr`, `mlflow`, …).
    pub name: &'static str,
    /// What the file is, as a person would say it.
    pub what: &'static str,
    /// What would make its turns gradable.
    pub takes: &'static str,
}

/// How many bytes of a source [`recognise`] looks at.
pub const HEAD: usize = 64 * 1024;

const TAKES_EXCHANGE: &str = "write each provider call as an exchange line ({id, created_at, agent_id, request, response}; docs/exchange.md) to grade it by its citations";

/// Recognised formats, most specific first: (name, what, takes, test).
type Rule = (&'static str, &'static str, &'static str, fn(&Head) -> bool);

const RULES: &[Rule] = &[
    (
        "har",
        "a HAR (HTTP Archive) recording of HTTP calls",
        "its entries are read as recorded API calls (exchange), and none is a call of a provider this tool reads (docs/exchange.md)",
        |h| h.json && h.key("log") && h.key("entries"),
    ),
    (
        "vcr",
        "a VCR cassette (recorded HTTP interactions, YAML or JSON)",
        "its interactions are read as recorded API calls (exchange), and none is a call of a provider this tool reads (docs/exchange.md)",
        |h| {
            h.line_is("interactions:")
                || h.line_is("http_interactions:")
                || h.key("http_interactions")
                || h.text.starts_with("requests:\n- body:")
        },
    ),
    (
        "mlflow",
        "an MLflow trace ({info, data: {spans}})",
        "export the spans as OTLP/JSON (MLflow's OpenTelemetry exporter) and read those",
        |h| {
            h.json
                && h.key("info")
                && h.key("spans")
                && (h.key("request_id") || h.key("trace_id") || h.key("trace_location"))
        },
    ),
    (
        "adk-session-list",
        "a Google ADK session list (a session service's list of sessions, which leaves out their events)",
        "fetch each session with its events (GET /apps/APP/users/USER/sessions/ID, or the session service's get_session) and read those",
        |h| {
            h.json
                && (h.key("appName") || h.key("app_name"))
                && (h.key("userId") || h.key("user_id"))
                && (h.key("lastUpdateTime") || h.key("last_update_time"))
                && h.empty_lists("events")
        },
    ),
    (
        "agentfootprint-run",
        "an agentfootprint recorded run (runId, commits, finalState, and its events in one document)",
        "write its events one per line (jq -c '.events[]' FILE) and read those",
        |h| h.json && h.key("runId") && h.key("commits") && h.key("runtimeStageId"),
    ),
    (
        "api-recording",
        "a recording of SDK calls ([method, payload] per line)",
        TAKES_EXCHANGE,
        |h| h.starts("[\"") && h.key("type"),
    ),
    (
        "trulens-csv",
        "a TruLens event table written as CSV (cells are Python reprs, not JSON)",
        "export the event table as JSON Lines (to_json(orient='records', lines=True)) and read that",
        |h| !h.json && h.text.contains("record_attributes") && h.text.contains("trace"),
    ),
    (
        "csv",
        "a CSV table",
        "write it as JSON Lines, one object per row (duckdb -c \"COPY (FROM 'FILE') TO 'FILE.jsonl'\"), then grade that, with a --map where its columns are named otherwise",
        |h| {
            !h.json
                && h.text
                    .lines()
                    .next()
                    .is_some_and(|l| l.matches(',').count() >= 2)
        },
    ),
];

/// The first bytes of a source, with what is asked of them often.
struct Head<'a> {
    text: &'a str,
    /// The first non-blank character is `{` or `[`.
    json: bool,
}

impl Head<'_> {
    fn key(&self, k: &str) -> bool {
        let quoted = format!("\"{k}\"");
        self.text
            .match_indices(&quoted)
            .any(|(at, _)| self.text[at + quoted.len()..].trim_start().starts_with(':'))
    }

    /// Whether `"k"` is a key and every value it holds is an empty list.
    fn empty_lists(&self, k: &str) -> bool {
        let quoted = format!("\"{k}\"");
        let values: Vec<&str> = self
            .text
            .match_indices(&quoted)
            .filter_map(|(at, _)| {
                let rest = self.text[at + quoted.len()..].trim_start();
                rest.strip_prefix(':').map(str::trim_start)
            })
            .collect();
        let empty = |v: &&str| {
            v.strip_prefix('[')
                .is_some_and(|v| v.trim_start().starts_with(']'))
        };
        !values.is_empty() && values.iter().all(empty)
    }

    fn starts(&self, s: &str) -> bool {
        let squeezed: String = self
            .text
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(s.len())
            .collect();
        squeezed == s
    }

    fn line_is(&self, s: &str) -> bool {
        self.text.lines().any(|l| l.trim_end() == s)
    }
}

/// The format of a source whose first bytes are `head`, when it is one
/// this tool recognises without reading.
pub fn recognise(head: &[u8]) -> Option<Known> {
    let head = &head[..head.len().min(HEAD)];
    let text = String::from_utf8_lossy(head);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    let h = Head {
        text,
        json: text.starts_with('{') || text.starts_with('['),
    };
    RULES
        .iter()
        .find(|(_, _, _, test)| test(&h))
        .map(|&(name, what, takes, _)| Known { name, what, takes })
}

/// What a source whose first bytes are `head` looks like, in a phrase: the
/// recognised format and what it takes, or the keys of its first JSON
/// object, or its first characters.
pub fn describe(head: &[u8]) -> String {
    if let Some(k) = recognise(head) {
        return format!("it looks like {}: not read; {}", k.what, k.takes);
    }
    let text = String::from_utf8_lossy(&head[..head.len().min(HEAD)]);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if let Some(keys) = first_keys(text) {
        if keys.iter().any(|k| k == "turn_id" || k == "reply") {
            return "its records are turn-log lines, each of them invalid: the reasons are printed above (FILE:LINE: …)".to_owned();
        }
        let mut shown: Vec<&str> = keys.iter().map(String::as_str).take(8).collect();
        if keys.len() > shown.len() {
            shown.push("…");
        }
        return format!(
            "its records are JSON with the keys {}, none of a turn or of a trace this tool reads: grounding-audit inspect FILE shows them and proposes a --map",
            shown.join(", ")
        );
    }
    let start: String = text
        .chars()
        .take(40)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("it starts {start:?}, which is neither JSON Lines nor a format this tool reads")
}

/// The top-level keys of the first JSON object of `text` (the first line's,
/// or the whole text's; an array's first element's).
fn first_keys(text: &str) -> Option<Vec<String>> {
    let first = text.lines().next().unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(first)
        .or_else(|_| serde_json::from_str(text))
        .ok()?;
    let object = match &value {
        serde_json::Value::Array(items) => items.first()?.as_object()?,
        v => v.as_object()?,
    };
    Some(object.keys().cloned().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Option<&'static str> {
        recognise(s.as_bytes()).map(|k| k.name)
    }

    #[test]
    fn recognises_by_the_keys_a_person_sees() {
        assert_eq!(
            name("{\"log\": {\"version\": \"1.2\", \"entries\": []}}"),
            Some("har")
        );
        assert_eq!(
            name("interactions:\n- request:\n    body: x\n"),
            Some("vcr")
        );
        assert_eq!(
            name("{\"info\": {\"request_id\": \"tr-1\"}, \"data\": {\"spans\": []}}"),
            Some("mlflow")
        );
        // Read now (the `adk` and `braintrust` dialects): no longer named here.
        assert_eq!(name("{\"eval_set_id\": \"x\", \"eval_cases\": []}"), None);
        assert_eq!(
            name("[{\"span_attributes\": {}, \"root_span_id\": \"r\"}]"),
            None
        );
        let list = "{\"sessions\": [{\"id\": \"s1\", \"appName\": \"a\", \"userId\": \"u\", \"state\": {}, \"events\": [], \"lastUpdateTime\": 1.5}]}";
        assert_eq!(name(list), Some("adk-session-list"));
        // Sessions that carry their events are no such list.
        let whole = list.replace("\"events\": []", "\"events\": [{\"author\": \"user\"}]");
        assert_eq!(name(&whole), None);
        assert_eq!(
            name(&list["{\"sessions\": ".len()..list.len() - 1]),
            Some("adk-session-list")
        );
        assert_eq!(
            name("[\"beta.sessions.create\", {\"type\": \"x\"}]"),
            Some("api-recording")
        );
    }

    #[test]
    fn a_value_named_like_a_key_is_not_a_key() {
        // "log" as a value, not a key: not a HAR file.
        assert_eq!(name("{\"kind\": \"log\", \"entries\": 3}"), None);
        assert_eq!(name("{\"turn_id\": \"t\", \"reply\": \"hi\"}"), None);
    }

    #[test]
    fn describes_what_it_does_not_recognise() {
        let d = describe(b"{\"question\": \"q\", \"answer\": \"a\"}\n");
        assert!(d.contains("keys answer, question,"), "{d}");
        let d = describe(b"{\"turn_id\": \"t\", \"created_at\": \"then\"}\n");
        assert!(d.contains("turn-log lines, each of them invalid"), "{d}");
        let d = describe(b"hello,world\n1,2\n");
        assert!(d.contains("\"hello,world 1,2"), "{d}");
    }
}

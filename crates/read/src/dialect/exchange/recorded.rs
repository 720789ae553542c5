//! Model calls a tracing SDK recorded as JSON text (a trace's LLM span, a
//! LangSmith run, a Langfuse generation): their request and response read
//! as the bodies the provider's reader takes, and the cheap tests a whole
//! line passes before its bodies are parsed.

use super::{Found, read};
use crate::model::CitationIndex;
use serde_json::{Value, json};

/// Keys whose presence in a recorded response body may mean structured
/// citations; a body without any of them is not parsed.
const CITATION_KEYS: [&[u8]; 4] = [
    b"\"citations\"",
    b"\"annotations\"",
    b"\"groundingSupports\"",
    b"\"retrievedReferences\"",
];

/// True when `text` may hold a recorded response body with structured
/// citations: it names a key of [`CITATION_KEYS`], quoted or not (a body
/// kept as a JSON string escapes its quotes). A cheap test for a whole
/// line before its bodies are parsed, in two searches: `citations` and
/// `annotations` both end in `tations` and a quote or backslash (Bedrock's
/// `retrievedReferences` sit inside `citations`), and Gemini's
/// `groundingSupports`.
pub(crate) fn may_cite(text: &[u8]) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static TATIONS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("tations"));
    static SUPPORTS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("groundingSupports"));
    TATIONS
        .find_iter(text)
        .any(|at| matches!(text.get(at + 7), Some(b'"' | b'\\')))
        || SUPPORTS.find(text).is_some()
}

/// True when `text` may hold a recorded request that gave the model
/// documents to cite, as the readers read them: Anthropic, Bedrock Converse
/// and Cohere `document`s (Cohere's `documents` too), Anthropic
/// `search_result` and Converse `searchResult` blocks.
pub(crate) fn may_give_documents(text: &[u8]) -> bool {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    static KEYS: LazyLock<[Finder<'static>; 3]> =
        LazyLock::new(|| ["document", "search_result", "searchResult"].map(Finder::new));
    KEYS.iter().any(|k| k.find(text).is_some())
}

/// The provider citations in a model call that a trace recorded as JSON
/// text: `output` the response body (OpenInference `output.value`, a
/// Langfuse observation's output), `input` the request (`input.value`;
/// a bare list is read as the request's `messages`). `None` unless the
/// body is one a provider reader knows and it holds at least one citation:
/// a call that cited nothing leaves the turn to its reply text's markers.
/// Without a recorded request (inputs hidden, say) the documents it gave
/// are unknown: the citations are read only when each resolves to what the
/// response returned, never turned into orphans of documents not recorded.
pub(crate) fn read_recorded(input: Option<&str>, output: &str) -> Option<Found> {
    let body = output.as_bytes();
    if !CITATION_KEYS
        .iter()
        .any(|k| memchr::memmem::find(body, k).is_some())
    {
        return None;
    }
    let resp = as_body(serde_json::from_str(output).ok()?)?;
    let req = match input.and_then(|i| serde_json::from_str::<Value>(i).ok()) {
        Some(list @ Value::Array(_)) => json!({ "messages": list }),
        Some(req @ Value::Object(_)) => as_request(req),
        _ => Value::Null,
    };
    let unknown_request = req.is_null();
    let mut found = read(&req, &resp).ok()?;
    let unplaceable = unknown_request && found.citations.contains(&CitationIndex::OutOfRange);
    if found.citations.is_empty() || unplaceable {
        return None;
    }
    found.model = [&resp, &req]
        .into_iter()
        .find_map(|v| v.get("model").and_then(Value::as_str))
        .map(str::to_owned);
    Some(found)
}

/// A response as a tracing SDK recorded it, as the body the provider
/// returned: Langfuse's OpenAI integration keeps a Responses call's
/// `output` items (a list, or its one item); a LangChain chat model's
/// result (a LangSmith `llm` run's outputs) keeps the reply's content
/// blocks as the provider returned them ([`langchain_reply`]); any other
/// object is the body itself. (Langfuse keeps a chat completion's message
/// as its role and content alone, without annotations: nothing to read.)
pub(super) fn as_body(resp: Value) -> Option<Value> {
    let typed = |v: &Value| v.get("type").is_some_and(Value::is_string);
    let output_item = |v: &Value| {
        v.get("type").and_then(Value::as_str) == Some("message")
            && v["content"]
                .as_array()
                .is_some_and(|c| c.iter().any(|b| b["type"] == "output_text"))
    };
    match resp {
        Value::Array(items) if !items.is_empty() && items.iter().all(typed) => {
            Some(json!({ "object": "response", "output": items }))
        }
        v if output_item(&v) => Some(json!({ "object": "response", "output": [v] })),
        v @ Value::Object(_) => Some(langchain_reply(&v).unwrap_or(v)),
        _ => None,
    }
}

/// A LangChain chat result (`generations[0][0].message`, serialized) whose
/// reply content is a list of Anthropic content blocks, as the Anthropic
/// message it came from: `langchain-anthropic` keeps each block whole, its
/// `citations` too, and the model in `response_metadata`.
fn langchain_reply(v: &Value) -> Option<Value> {
    let message = v.pointer("/generations/0/0/message")?;
    let kwargs = message.get("kwargs").unwrap_or(message);
    let blocks = kwargs.get("content")?.as_array()?;
    let anthropic = blocks
        .iter()
        .all(|b| b.get("type").is_some_and(Value::is_string));
    let meta = kwargs.get("response_metadata");
    let model = meta
        .and_then(|m| m.get("model").or(m.get("model_name")))
        .cloned();
    anthropic.then(
        || json!({ "type": "message", "role": "assistant", "content": blocks, "model": model }),
    )
}

/// A request as a tracing SDK recorded it: a LangChain chat model's input
/// (`messages`, a list of conversations of serialized messages) as the
/// provider's `messages` with their content blocks; any other object as it
/// is.
fn as_request(req: Value) -> Value {
    let Some(conversation) = req.pointer("/messages/0").and_then(Value::as_array) else {
        return req;
    };
    let role = |m: &Value| {
        let kind = m
            .pointer("/kwargs/type")
            .or(m.get("type"))
            .and_then(Value::as_str);
        match kind {
            Some("ai") => "assistant",
            Some("system") => "system",
            _ => "user",
        }
    };
    let messages: Vec<Value> = conversation
        .iter()
        .map(|m| {
            let content = m.pointer("/kwargs/content").or(m.get("content"));
            json!({ "role": role(m), "content": content.cloned().unwrap_or(Value::Null) })
        })
        .collect();
    json!({ "messages": messages })
}

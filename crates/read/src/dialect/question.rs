//! The question of a turn in what a recorded input holds: a trace's
//! root or agent input, a provider request. Text as it is; JSON (also
//! encoded as a JSON string) by its keys and message lists, the last
//! user message first. Shared by the span readers and the exchange reader.

use serde_json::Value;

/// The keys a question is written under in a recorded input, in the order
/// they are looked for: LangChain's `input`/`inputs`, a `@traceable`
/// function's argument names, message lists; then provider requests'
/// own: Gemini's `contents`, Bedrock Agents' `inputText`, Cohere's
/// `message`.
const QUESTION_KEYS: [&str; 12] = [
    "question",
    "query",
    "input",
    "inputs",
    "prompt",
    "user_input",
    "text",
    "content",
    "messages",
    "contents",
    "inputText",
    "message",
];

/// Deepest nesting a question is looked for in.
const QUESTION_DEPTH: u32 = 8;

/// The question in a recorded input (`input.value`, a run's `inputs`, an
/// observation's `input`): text as it is; JSON text (also encoded as a
/// JSON string) read as JSON; in an
/// object the first of [`QUESTION_KEYS`] holding one, else its only text
/// member; in a message list the last user message (`role` or `type`
/// `user`/`human`, LangChain's serialized `HumanMessage`), its `content`
/// or its text parts.
pub(crate) fn question_of(recorded: &str) -> Option<String> {
    let t = recorded.trim();
    if t.is_empty() {
        return None;
    }
    let json = t.starts_with(['{', '[', '"']);
    match json
        .then(|| serde_json::from_str::<Value>(t).ok())
        .flatten()
    {
        Some(v @ (Value::Object(_) | Value::Array(_))) => question_in(&v, 0),
        // JSON-encoded once more (Langfuse writes an input so).
        Some(Value::String(inner)) if inner.trim() != t => question_of(&inner),
        _ => Some(t.to_owned()),
    }
}

fn question_in(v: &Value, depth: u32) -> Option<String> {
    if depth > QUESTION_DEPTH {
        return None;
    }
    match v {
        Value::String(s) => question_of(s),
        Value::Object(m) => {
            if let Some(role) = ["role", "type"]
                .iter()
                .find_map(|k| m.get(*k).and_then(Value::as_str))
                // A content block of text (`{"type": "text", "text": …}`)
                // is read; another party's message or block is not.
                && !matches!(role, "user" | "human" | "constructor" | "text" | "input_text")
            {
                return None;
            }
            // LangChain's serialized message: its fields are in `kwargs`;
            // the model's, the system's or a tool's is not the question.
            if m.contains_key("lc")
                && let Some(k) = m.get("kwargs")
            {
                if not_human(m) {
                    return None;
                }
                return question_in(k, depth + 1);
            }
            if let Some(q) = QUESTION_KEYS
                .iter()
                .find_map(|k| m.get(*k).and_then(|x| question_in(x, depth + 1)))
            {
                return Some(q);
            }
            if let Some(parts) = m.get("parts").and_then(Value::as_array) {
                let text: Vec<&str> = parts
                    .iter()
                    .filter_map(|p| p.get("text").or_else(|| p.get("content")))
                    .filter_map(Value::as_str)
                    .collect();
                return (!text.is_empty()).then(|| text.join(""));
            }
            // The only text member, not counting the role or type words.
            let mut texts = m
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "role" | "type" | "model"))
                .filter_map(|(_, v)| v.as_str());
            match (texts.next(), texts.next()) {
                (Some(only), None) => question_of(only),
                _ => None,
            }
        }
        // A message list (or LangChain's list of lists): its last user message.
        Value::Array(items) => items.iter().rev().find_map(|i| question_in(i, depth + 1)),
        _ => None,
    }
}

/// True for a LangChain serialized message of another party than the
/// user: its class (the last of its `id`) is an AI, system, tool or
/// function message.
fn not_human(m: &serde_json::Map<String, Value>) -> bool {
    let class = m
        .get("id")
        .and_then(Value::as_array)
        .and_then(|id| id.last())
        .and_then(Value::as_str)
        .unwrap_or_default();
    matches!(
        class,
        "AIMessage" | "AIMessageChunk" | "SystemMessage" | "ToolMessage" | "FunctionMessage"
    )
}

/// [`question_of`] of a value already parsed (a provider request).
pub(crate) fn question_in_value(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => question_of(s),
        other => question_in(other, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn recorded_text(v: &Value) -> Option<String> {
        match v {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }

    /// The question in every recorded input shape the exports write.
    #[test]
    fn the_question_in_a_recorded_input() {
        let q = |v: Value| question_of(&recorded_text(&v).unwrap());
        let want = Some("How long do refunds take?".to_owned());
        assert_eq!(q(json!("How long do refunds take?")), want);
        assert_eq!(q(json!({"input": "How long do refunds take?"})), want);
        assert_eq!(
            q(json!({"question": "How long do refunds take?", "k": 3})),
            want
        );
        // OpenLLMetry: `inputs` beside the callback's kwargs and metadata.
        let tl = json!({"inputs": "How long do refunds take?", "tags": ["a"],
            "kwargs": {"name": "billing-bot"}, "metadata": {"agent": "billing-bot"}});
        assert_eq!(q(tl), want);
        // Message lists: the last user message, in each family's shape.
        let openai = json!({"messages": [{"role": "system", "content": "Be brief."},
            {"role": "user", "content": "How long do refunds take?"},
            {"role": "assistant", "content": "Soon."}]});
        assert_eq!(q(openai), want);
        let genai = json!([{"role": "user", "parts": [{"type": "text", "content": "How long do "},
            {"type": "text", "content": "refunds take?"}]}]);
        assert_eq!(q(genai), want);
        let langchain = json!({"messages": [[
            {"lc": 1, "type": "constructor", "id": ["langchain", "SystemMessage"],
             "kwargs": {"content": "Be brief.", "type": "system"}},
            {"lc": 1, "type": "constructor", "id": ["langchain", "HumanMessage"],
             "kwargs": {"content": "How long do refunds take?", "type": "human"}}]]});
        assert_eq!(q(langchain), want);
        // Langfuse writes a JSON text as a JSON string once more.
        let twice = json!(json!({"input": "How long do refunds take?"}).to_string());
        assert_eq!(q(json!(twice.to_string())), want);
        // A tool-like input of one text member; nothing to ask in others.
        assert_eq!(q(json!({"order_id": "A-1"})).as_deref(), Some("A-1"));
        assert_eq!(q(json!([{"role": "system", "content": "x"}])), None);
        assert_eq!(q(json!({"a": "x", "b": "y"})), None);
        // Anthropic content blocks: the text block is the question; a user
        // message holding only a tool result is passed over, and its role
        // word is never taken for its text.
        let blocks = json!({"messages": [
            {"role": "user", "content": [{"type": "text", "text": "How long do refunds take?"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "name": "kb"}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_result": {"content": "r"}}]}
        ]});
        assert_eq!(q(blocks), want);
        assert_eq!(question_of("  "), None);
        assert_eq!(question_of("{not json").as_deref(), Some("{not json"));
        let deep = format!("{}\"q\"{}", "[".repeat(50), "]".repeat(50));
        assert_eq!(question_of(&deep), None);
    }
}

//! The one message-text finder, on the message shape of every provider and
//! framework the readers meet: the reply text is found, tool calls,
//! reasoning and the user's words never are.

use grounding_audit::dialect::spans::message_text;

/// Both ways the readers ask (an attribute's text, an export's value).
fn found(s: &str) -> (Option<String>, Option<String>) {
    message_text(s)
}

#[test]
fn every_message_shape_gives_its_reply_text() {
    let shapes = [
        // OpenAI chat completion
        r#"{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Refunds take 5 days [1]."}}]}"#,
        // OpenAI chat, content as an array of parts
        r#"{"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"Refunds take 5 days [1]."}]}}]}"#,
        // OpenAI Responses
        r#"{"output":[{"type":"reasoning","summary":[]},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Refunds take 5 days [1]."}]}]}"#,
        // Anthropic content blocks
        r#"{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"kb","input":{}},{"type":"text","text":"Refunds take 5 days [1]."}]}"#,
        // OTel GenAI parts
        r#"[{"role":"assistant","parts":[{"type":"tool_call","name":"kb","arguments":{}}]},{"role":"tool","parts":[{"type":"tool_call_response","response":"x"}]},{"role":"assistant","parts":[{"type":"text","content":"Refunds take 5 days [1]."}]}]"#,
        // Gemini / ADK
        r#"{"content":{"parts":[{"text":"Refunds take 5 days [1]."}],"role":"model"},"finish_reason":"STOP"}"#,
        r#"{"candidates":[{"content":{"parts":[{"text":"Refunds take 5 days [1]."}],"role":"model"}}]}"#,
        // LangChain AIMessage and generations
        r#"{"lc":1,"type":"constructor","id":["langchain","schema","messages","AIMessage"],"kwargs":{"content":"Refunds take 5 days [1].","type":"ai"}}"#,
        r#"{"generations":[[{"text":"Refunds take 5 days [1].","message":{"kwargs":{"content":"Refunds take 5 days [1]."}}}]]}"#,
        // Cohere v2
        r#"{"message":{"role":"assistant","content":[{"type":"text","text":"Refunds take 5 days [1]."}]}}"#,
        // A message keyed by its role (Monocle)
        r#"{"assistant":"Refunds take 5 days [1]."}"#,
        // A JSON string of a JSON string (Langfuse trace output)
        r#""\"Refunds take 5 days [1].\"""#,
    ];
    for s in shapes {
        let (attr, value) = found(s);
        let want = Some("Refunds take 5 days [1].".to_owned());
        assert!(attr == want || value == want, "{s}: {attr:?} / {value:?}");
    }
}

#[test]
fn tool_calls_reasoning_and_user_words_are_never_the_reply() {
    for s in [
        r#"{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"kb","input":{"q":"refunds"}}]}"#,
        r#"[{"role":"assistant","parts":[{"type":"tool_call","name":"kb","arguments":{"q":"x"}}]}]"#,
        r#"{"output":[{"type":"reasoning","summary":[{"type":"summary_text","text":"thinking"}]}]}"#,
        r#"{"role":"user","content":"How long do refunds take?"}"#,
    ] {
        let (attr, value) = found(s);
        assert_eq!((attr.as_deref(), value.as_deref()), (None, None), "{s}");
    }
}

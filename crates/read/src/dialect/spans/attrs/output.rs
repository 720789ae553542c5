//! Reply text and retrieved documents inside an output value (plain text,
//! or JSON written by a framework).

use super::builder::DocAcc;
use super::value::{MAX_INDEX, Val, flatten, looks_like_json};
use crate::dialect::spans::Doc;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Documents in a retriever's output JSON: LangChain's
/// `{"documents":[{id?, page_content, metadata}]}`, Bedrock's
/// `{"retrieved_references":[{content, location, metadata}]}`, or a bare
/// list of them.
pub(in crate::dialect::spans) fn output_documents(s: &str) -> Option<Vec<Doc>> {
    if !looks_like_json(s) {
        return None;
    }
    let v: Val<'_> = serde_json::from_str(s).ok()?;
    let list = match &v {
        Val::List(l) => l,
        // Bedrock's RetrieveAndGenerate names them `retrieved_references`.
        Val::Map(m) => match m
            .iter()
            .find(|(k, _)| k == "documents" || k == "retrieved_references")
        {
            Some((_, Val::List(l))) => l,
            _ => return None,
        },
        _ => return None,
    };
    if !list.iter().all(|d| matches!(d, Val::Map(_))) {
        return None;
    }
    let mut docs: BTreeMap<u32, DocAcc> = BTreeMap::new();
    for (i, d) in list.iter().enumerate().take(MAX_INDEX as usize) {
        let acc = docs.entry(i as u32).or_default();
        flatten("", d, &mut |k, v| {
            acc.set(k.strip_prefix('.').unwrap_or(k), v);
        });
    }
    Some(docs.into_values().map(DocAcc::finish).collect())
}

/// The reply text in an output value: plain text as is; JSON (by
/// `mime_type`, or by shape when there is none) yields the assistant text it
/// holds, or `None` when it holds none ("non-text JSON").
pub(in crate::dialect::spans) fn output_text<'a>(
    s: &'a str,
    mime: Option<&str>,
) -> Option<Cow<'a, str>> {
    let is_json_mime = mime.is_some_and(|m| m.contains("json"));
    let is_text_mime = mime.is_some_and(|m| m.starts_with("text/"));
    let whole = || (!s.trim().is_empty()).then_some(Cow::Borrowed(s));
    if is_text_mime || !looks_like_json(s) && !is_json_mime {
        return whole();
    }
    match serde_json::from_str::<Val<'_>>(s) {
        Ok(v @ (Val::Map(_) | Val::List(_))) => {
            let scalars_only = matches!(&v, Val::List(l) if l.iter().all(|x| !matches!(x, Val::Map(_) | Val::List(_))));
            match text_of(&v, 0) {
                Some(t) => Some(Cow::Owned(t)),
                None if scalars_only && mime.is_none() => Some(Cow::Borrowed(s)),
                None => None,
            }
        }
        Ok(Val::Str(t)) => (!t.trim().is_empty()).then_some(t),
        Ok(_) if mime.is_none() => Some(Cow::Borrowed(s)),
        Ok(_) => None,
        Err(_) => whole(),
    }
}

/// The assistant text a JSON value holds, as [`output_text`] reads it from
/// the value's JSON text with a JSON `mime_type` (so a caller holding the
/// value already need not write it out and read it back).
pub(in crate::dialect::spans) fn json_text(v: &Val<'_>) -> Option<String> {
    match v {
        Val::Map(_) | Val::List(_) => text_of(v, 0),
        _ => None,
    }
}

/// Content part types that are not text.
fn non_text_part(t: &str) -> bool {
    matches!(
        t,
        "tool_call"
            | "tool_use"
            | "tool_result"
            | "tool_call_response"
            | "function_call"
            | "image"
            | "image_url"
            | "audio"
            | "file"
            | "blob"
            | "uri"
            | "reasoning"
            | "thinking"
    )
}

/// Roles whose text is never the reply.
fn not_assistant(m: &[(Cow<'_, str>, Val<'_>)]) -> bool {
    m.iter().any(|(k, v)| {
        (k == "role" || k == "type")
            && v.as_str()
                .is_some_and(|r| matches!(r, "user" | "human" | "system" | "tool"))
    })
}

fn text_of(v: &Val<'_>, depth: u32) -> Option<String> {
    if depth > 8 {
        return None;
    }
    match v {
        Val::Str(s) => (!s.trim().is_empty()).then(|| s.to_string()),
        Val::List(items) => items.iter().rev().find_map(|i| match i {
            Val::Map(m) if not_assistant(m) => None,
            // A list of content parts: text parts only.
            Val::Map(m)
                if m.iter()
                    .any(|(k, v)| k == "type" && v.as_str().is_some_and(non_text_part)) =>
            {
                None
            }
            other => text_of(other, depth + 1),
        }),
        Val::Map(m) => {
            if not_assistant(m) {
                return None;
            }
            // A LangChain generation (`{text, message}`): its `text` is
            // derived from the message, whose content is what the model
            // said (none when it only asked for tools).
            let key = |want: &str| m.iter().find(|(k, _)| k == want).map(|(_, v)| v);
            if let (Some(_), Some(message)) = (key("text"), key("message")) {
                return text_of(message, depth + 1);
            }
            // Plain answers first, then the message shapes of each family:
            // LangChain (`kwargs`, `generations`), OpenAI chat (`choices`),
            // Gemini (`candidates`, `content.parts`), OTel GenAI (`parts`),
            // and a message keyed by its role.
            const KEYS: [&str; 17] = [
                "output",
                "outputs",
                "answer",
                "response",
                "result",
                "final_answer",
                "content",
                "text",
                "kwargs",
                "message",
                "messages",
                "generations",
                "choices",
                "candidates",
                "parts",
                // A message keyed by its role (Monocle: `{"assistant": …}`).
                "assistant",
                "ai",
            ];
            KEYS.iter().find_map(|want| {
                m.iter()
                    .find(|(k, _)| k == want)
                    .and_then(|(_, v)| text_of(v, depth + 1))
            })
        }
        _ => None,
    }
}

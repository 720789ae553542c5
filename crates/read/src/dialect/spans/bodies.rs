//! An LLM call recorded with its provider's request and response (LangSmith
//! runs of `wrap_anthropic`, `wrap_openai` and LangChain's `ChatAnthropic`,
//! Langfuse generations of a provider SDK's integration): the structured
//! citations they may hold, read by [`read_recorded`]. The exports' readers keep only the members of `inputs`
//! and `outputs` a span reads, so the bodies are read again, whole, from
//! the row's text, and only when that text names a citation key or a
//! document: other rows pay one substring search.

use super::json;
use crate::dialect::exchange::{Found, may_cite, may_give_documents, read_recorded};
use serde_json::{Map, Value};

/// A call's request and response as JSON text: the response when it names
/// a citation key, with its request; a request alone when the row has no
/// response yet and the request may give documents (a LangSmith create
/// part: its outputs arrive in a later part, and parts merge field by
/// field).
#[derive(Debug, Clone, Default)]
pub(super) struct Bodies {
    pub(super) request: Option<String>,
    pub(super) response: Option<String>,
}

impl Bodies {
    /// The bodies under `input` and `output` of the row whose JSON text is
    /// `text` (values or JSON strings holding them). `pending`: the row
    /// records no response yet (a LangSmith create part), so a request that
    /// may give documents is kept for the part that will.
    pub(super) fn of(text: &str, input: &str, output: &str, pending: bool) -> Bodies {
        let bytes = text.as_bytes();
        let cites = !pending && may_cite(bytes);
        let gives = pending && may_give_documents(bytes);
        if !cites && !gives {
            return Bodies::default();
        }
        let Ok(mut m) = serde_json::from_str::<Map<String, Value>>(text) else {
            return Bodies::default();
        };
        let body = |v: Option<Value>| {
            let v = v.filter(|v| !json::is_blank(v))?;
            Some(json::unstring(&v).into_owned().to_string())
        };
        let response = body(m.remove(output)).filter(|o| may_cite(o.as_bytes()));
        let request = match (&response, pending) {
            (Some(_), _) => body(m.remove(input)),
            (None, true) => body(m.remove(input)).filter(|i| may_give_documents(i.as_bytes())),
            (None, false) => None,
        };
        Bodies { request, response }
    }

    /// The citations of the call, as [`read_recorded`] reads them.
    pub(super) fn read(&self) -> Option<Box<Found>> {
        let out = self.response.as_deref()?;
        read_recorded(self.request.as_deref(), out).map(Box::new)
    }
}

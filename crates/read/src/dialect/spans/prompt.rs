//! What an LLM call was given: its recorded input kept as one normalised
//! string ([`Prompt`]), and how a retrieved document is found in it
//! ([`doc_key`], [`find`]).
//!
//! Normalised means every run of whitespace (any Unicode white space,
//! newlines included) is one space, with none at either end, and the
//! strings of a structured input (messages, parts) are joined by one space.
//! A document appears in an input when the first [`DOC_PREFIX`] characters
//! of its normalised text are found in the normalised input: prompt
//! templates wrap, number and cut documents (a long document may be
//! truncated), but they rarely rewrite a document's opening. A document
//! whose normalised text is shorter than [`MIN_DOC`] characters is never
//! looked for (a short text such as `Yes` is found in any prompt).
//!
//! Only LLM spans keep their input as one normalised string: the readers
//! drop it from every other span when they finish one (a root keeps its
//! recorded input as its question, a tool as its arguments).

use super::keeping::Keep;
use serde_json::Value;

/// Characters of a document's normalised text looked for in an input.
pub(super) const DOC_PREFIX: usize = 200;

/// Normalised characters below which a document is never looked for.
pub(super) const MIN_DOC: usize = 20;

/// An input's text while its strings arrive, normalised as they do.
#[derive(Debug, Default)]
pub(super) struct Prompt(String);

impl Prompt {
    /// Adds one string of the input (one space from the text before it).
    pub(super) fn push(&mut self, text: &str) {
        each_word(text, |word| {
            if !self.0.is_empty() {
                self.0.push(' ');
            }
            self.0.push_str(word);
            true
        });
    }

    /// Adds every string inside a JSON value: list items in order, object
    /// members in key order (documents are found wherever they are).
    pub(super) fn push_value(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.push(s),
            Value::Array(items) => items.iter().for_each(|i| self.push_value(i)),
            Value::Object(m) => m.values().for_each(|i| self.push_value(i)),
            _ => {}
        }
    }

    /// Adds a text value that may be JSON (`input.value`, a JSON string
    /// attribute): its strings when it is, else the text.
    pub(super) fn push_text(&mut self, text: &str) {
        match parse_json(text) {
            Some(v) => self.push_value(&v),
            None => self.push(text),
        }
    }

    /// The normalised text; none when the input held no text.
    pub(super) fn finish(self) -> Option<String> {
        (!self.0.is_empty()).then_some(self.0)
    }
}

/// A string that is a JSON object or array, read.
fn parse_json(s: &str) -> Option<Value> {
    let t = s.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    serde_json::from_str::<Value>(s)
        .ok()
        .filter(|v| v.is_object() || v.is_array())
}

/// The normalised text of a whole recorded input: its strings
/// ([`Prompt::push_value`]); a string holding JSON (as exports write a
/// column) is read as that JSON.
#[cfg(test)]
pub(super) fn value_text(v: &Value) -> Option<String> {
    let mut p = Prompt::default();
    match v {
        Value::String(s) => p.push_text(s),
        other => p.push_value(other),
    }
    p.finish()
}

/// The normalised text of a recorded input (its strings; a string holding
/// JSON read as that JSON) as reading it with [`Keep::Only`]`(keep)` builds
/// it: only the strings under the members `keep` keeps, without building
/// the pruned value (a row's `inputs` keep more members than an LLM's input
/// text reads).
pub(super) fn value_text_kept(v: &Value, keep: fn(&str) -> Keep) -> Option<String> {
    let mut p = Prompt::default();
    match v {
        Value::String(s) => p.push_text(s),
        other => p.push_kept(other, keep),
    }
    p.finish()
}

impl Prompt {
    /// [`Prompt::push_value`] of what `keep` keeps of `v`.
    fn push_kept(&mut self, v: &Value, keep: fn(&str) -> Keep) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match keep(k) {
                        Keep::Drop | Keep::Stub => {}
                        Keep::Whole => self.push_value(x),
                        Keep::Only(inner) => self.push_kept(x, inner),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| self.push_kept(i, keep)),
            other => self.push_value(other),
        }
    }
}

/// The members of a recorded input (LangSmith `inputs`, Langfuse `input`)
/// kept when a row is read: those an LLM's messages are written under
/// ([`input_member`]), and of every other member its scalars two levels
/// deep (a question, a tool's arguments), nothing nested further.
pub(super) fn recorded_input_member(key: &str) -> Keep {
    fn scalars(_: &str) -> Keep {
        Keep::Drop
    }
    fn one_level(_: &str) -> Keep {
        Keep::Only(scalars)
    }
    match input_member(key) {
        Keep::Drop => Keep::Only(one_level),
        keep => keep,
    }
}

/// What is looked for of a document: the first [`DOC_PREFIX`] characters
/// of its normalised text; none when that text is shorter than
/// [`MIN_DOC`] characters.
pub(super) fn doc_key(content: &str) -> Option<String> {
    let mut key = String::new();
    let mut chars = 0;
    let mut full = false;
    each_word(content, |word| {
        if chars > 0 {
            key.push(' ');
            chars += 1;
        }
        for c in word.chars() {
            if chars == DOC_PREFIX {
                break;
            }
            key.push(c);
            chars += 1;
        }
        full = chars == DOC_PREFIX;
        !full
    });
    (full || chars >= MIN_DOC).then_some(key)
}

/// Calls `f` with each word of `text`, as `str::split_whitespace` splits
/// it, until `f` says no more. An ASCII byte is told by itself; a
/// character is decoded only where a byte above ASCII begins one.
fn each_word(text: &str, mut f: impl FnMut(&str) -> bool) {
    let bytes = text.as_bytes();
    let mut start = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (space, width) = if b.is_ascii() {
            (b == b' ' || (b'\t'..=b'\r').contains(&b), 1)
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            (c.is_whitespace(), c.len_utf8())
        };
        match (space, start) {
            (true, Some(s)) => {
                if !f(&text[s..i]) {
                    return;
                }
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
        i += width;
    }
    if let Some(s) = start {
        f(&text[s..]);
    }
}

/// Where a document's key first occurs in a normalised input.
pub(super) fn find(input: &str, key: &str) -> Option<usize> {
    memchr::memmem::find(input.as_bytes(), key.as_bytes())
}

/// The members of a recorded LLM input kept when a row is read (LangSmith
/// `inputs`, Langfuse `input`), at any depth: the keys messages and
/// prompts are written under (LangChain's `messages` and `prompts`, its
/// serialized messages' `kwargs`, OpenAI `content` parts, Gemini
/// `contents`/`parts`, …). Every other member (a chain's state, its
/// documents, tool schemas, run ids) is never built.
pub(super) fn input_member(key: &str) -> Keep {
    match key {
        "messages" | "prompts" | "prompt" | "input" | "inputs" | "kwargs" | "data" | "content"
        | "contents" | "parts" | "text" | "system" | "instructions" | "context" => {
            Keep::Only(input_member)
        }
        _ => Keep::Drop,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn whitespace_is_collapsed_and_strings_are_joined() {
        let mut p = Prompt::default();
        p.push("  You answer\n\nfrom:\t");
        p.push("");
        p.push("<doc>Refunds  take\nfive days</doc>");
        assert_eq!(
            p.finish().as_deref(),
            Some("You answer from: <doc>Refunds take five days</doc>")
        );
        assert_eq!(Prompt::default().finish(), None);
        // Words split as `split_whitespace` splits them, in and out of ASCII.
        for text in [
            "a\u{b}b\u{c}c\r d",
            "x\u{a0}y\u{3000}z é\u{2029}",
            " \u{85}é ",
            "",
        ] {
            let mut words = Vec::new();
            each_word(text, |w| {
                words.push(w.to_owned());
                true
            });
            let split: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
            assert_eq!(words, split, "{text:?}");
        }
        let v =
            json!({"messages": [[{"kwargs": {"content": "a\nb"}}, {"content": [{"text": "c"}]}]]});
        assert_eq!(value_text(&v).as_deref(), Some("a b c"));
        // A whole input written as a JSON string is read as JSON; a
        // string inside it is text.
        let v = json!(r#"[{"role": "user", "content": "x\ny {\"a\": 1}"}]"#);
        assert_eq!(value_text(&v).as_deref(), Some(r#"x y {"a": 1} user"#));
    }

    #[test]
    fn a_document_is_looked_for_by_its_normalised_opening() {
        assert_eq!(doc_key("too short"), None);
        let long = "word ".repeat(100);
        let key = doc_key(&format!("\n {long}")).unwrap();
        assert_eq!(key.chars().count(), DOC_PREFIX);
        assert!(key.starts_with("word word"));
        assert_eq!(
            doc_key("Refunds take\n\nfive business days.").as_deref(),
            Some("Refunds take five business days.")
        );
        let input = "Context: <doc>Refunds take five business days. More.</doc>";
        assert_eq!(find(input, "Refunds take five business days."), Some(14));
        // Multi-byte characters are counted as characters.
        let key = doc_key(&"é".repeat(300)).unwrap();
        assert_eq!(key.chars().count(), DOC_PREFIX);
    }
}

//! Chunks held in another shape than an array: a string holding the chunks
//! as JSON (`json:`), an object of chunks keyed by their ids (`keyed:`), or
//! both (`json:keyed:`), as evaluators and RAG samples write a `context`:
//! `"context": "{\"34\": {\"id\": 34, …}, \"58\": {…}}"`; or a text of
//! passages each led by its source (`passages:`), as the prompt the model
//! was given writes them: `"report.pdf#page=4: text…\n\nfaq.md: text…"`.
//! The prefixes go before the pointer (`--map chunks=json:keyed:/context`).
//!
//! Both readers of a mapped line keep such a value raw; [`Container::each`]
//! then hands over its elements, so the two agree by construction, and
//! `inspect` surveys a sample with the same function.

use super::values::kind_of;
use super::walk::Key;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// How the chunks value is written: an array, unless `json` (a string
/// holding JSON) or `keyed` (an object whose members are the chunks, each
/// key the chunk's id when the chunk has none of its own).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Container {
    pub json: bool,
    pub keyed: bool,
    /// A string of passages ([`passages`]), each a chunk whose id is its
    /// source; neither `json` nor `keyed` with it.
    pub passages: bool,
}

/// Why a value is not the container the map says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfit {
    /// It is another kind of value (`an array`, `a number` …).
    Found(&'static str),
    /// A `json:` string holding another kind of value.
    Holds(&'static str),
    /// A `json:` string whose text is not JSON.
    NotJson,
    /// A string (or a `json:` string) of passages led by their sources.
    Passages,
}

/// What a string found where chunks were wanted is, for messages: a
/// string of passages ([`PASSAGES_FOUND`]) or just a string.
pub fn text_kind(text: &str) -> &'static str {
    if passages(text.trim()).is_empty() {
        "a string"
    } else {
        PASSAGES_FOUND
    }
}

/// [`text_kind`] of a JSON string as written (quoted, escapes in place).
pub fn string_kind(raw: &[u8]) -> &'static str {
    match std::str::from_utf8(raw) {
        Ok(raw) => text_kind(&crate::model::decode_json_string(raw)),
        Err(_) => "a string",
    }
}

/// How [`text_kind`] names a string of passages led by their sources.
pub const PASSAGES_FOUND: &str = "a string of passages led by their sources";

/// How a string that is not the container reads: passages when its text
/// is led by a source, else `otherwise`.
fn unfit_string(raw: &str, otherwise: Unfit) -> Unfit {
    match string_kind(raw.as_bytes()) {
        PASSAGES_FOUND => Unfit::Passages,
        _ => otherwise,
    }
}

impl Container {
    /// A plain array.
    pub const ARRAY: Container = Container {
        json: false,
        keyed: false,
        passages: false,
    };

    /// A string of passages led by their sources.
    pub const PASSAGES: Container = Container {
        json: false,
        keyed: false,
        passages: true,
    };

    /// Splits the `json:` and `keyed:` prefixes (in either order) off a
    /// chunks pointer.
    pub fn split(spec: &str) -> Result<(Container, &str), String> {
        let mut c = Container::ARRAY;
        let mut rest = spec;
        loop {
            let (flag, r) = if let Some(r) = rest.strip_prefix("json:") {
                (&mut c.json, r)
            } else if let Some(r) = rest.strip_prefix("keyed:") {
                (&mut c.keyed, r)
            } else if let Some(r) = rest.strip_prefix("passages:") {
                (&mut c.passages, r)
            } else if c.passages && (c.json || c.keyed) {
                return Err(format!(
                    "`{spec}`: passages: stands alone, without json: or keyed:"
                ));
            } else {
                return Ok((c, rest));
            };
            if *flag {
                return Err(format!("`{spec}`: a prefix given twice"));
            }
            *flag = true;
            rest = r;
        }
    }

    /// True for a plain array, read as it streams by.
    pub fn is_array(self) -> bool {
        self == Container::ARRAY
    }

    /// The prefixes as written before a pointer (`json:keyed:`).
    pub fn prefix(self) -> &'static str {
        if self.passages {
            return "passages:";
        }
        match (self.json, self.keyed) {
            (false, false) => "",
            (true, false) => "json:",
            (false, true) => "keyed:",
            (true, true) => "json:keyed:",
        }
    }

    /// The container a value that is not this one reads as, when the
    /// kind found says (a string: `json:`; an object: `keyed:`).
    pub fn fitting(self, unfit: Unfit) -> Option<Container> {
        if self.passages {
            return None;
        }
        let c = match unfit {
            Unfit::Passages => Container::PASSAGES,
            Unfit::Found("a string") => Container { json: true, ..self },
            Unfit::Found("an object") | Unfit::Holds("an object") => Container {
                keyed: true,
                ..self
            },
            _ => return None,
        };
        (c != self).then_some(c)
    }

    /// What a value must be, for messages.
    pub fn expected(self) -> &'static str {
        if self.passages {
            return "a string of passages, each led by its source (`report.pdf#page=4: text`)";
        }
        match (self.json, self.keyed) {
            (false, false) => "an array",
            (true, false) => "a string holding a JSON array",
            (false, true) => "an object of chunks keyed by id",
            (true, true) => "a string holding a JSON object of chunks keyed by id",
        }
    }

    /// Hands each element of the chunks value `raw` (its JSON text) to `f`,
    /// with its key when keyed. False when the value stands for no chunks
    /// (null; under `json:` also an empty string or one holding null).
    pub fn each(self, raw: &str, f: &mut dyn FnMut(Option<&str>, &str)) -> Result<bool, Unfit> {
        let raw = raw.trim();
        if raw == "null" {
            return Ok(false);
        }
        if self.passages {
            return each_passage(raw, f);
        }
        let decoded;
        let text = if self.json {
            if !raw.starts_with('"') {
                return Err(Unfit::Found(kind_of(raw)));
            }
            decoded = crate::model::decode_json_string(raw);
            let t = decoded.trim();
            if t.is_empty() || t == "null" {
                return Ok(false);
            }
            if serde_json::from_str::<IgnoredAny>(t).is_err() {
                return Err(unfit_string(raw, Unfit::NotJson));
            }
            t
        } else {
            raw
        };
        let wanted = if self.keyed { b'{' } else { b'[' };
        if text.as_bytes().first() != Some(&wanted) {
            let kind = kind_of(text);
            return Err(if self.json {
                Unfit::Holds(kind)
            } else if text.starts_with('"') {
                unfit_string(text, Unfit::Found(kind))
            } else {
                Unfit::Found(kind)
            });
        }
        if self.keyed {
            let mut de = serde_json::Deserializer::from_str(text);
            de.deserialize_map(Members(f))
                .and_then(|()| de.end())
                .map_err(|_| Unfit::NotJson)?;
        } else {
            let list: Vec<&RawValue> = serde_json::from_str(text).map_err(|_| Unfit::NotJson)?;
            for e in list {
                f(None, e.get());
            }
        }
        Ok(true)
    }
}

/// The passages of the JSON string `raw`, each handed over as a chunk
/// object holding its text (`{"content": …}`) with its source as key. An
/// empty string holds none; a text that does not begin with a source is
/// not passages.
fn each_passage(raw: &str, f: &mut dyn FnMut(Option<&str>, &str)) -> Result<bool, Unfit> {
    if !raw.starts_with('"') {
        return Err(Unfit::Found(kind_of(raw)));
    }
    let text = crate::model::decode_json_string(raw);
    let text = text.trim();
    if text.is_empty() {
        return Ok(false);
    }
    let list = passages(text);
    if list.is_empty() {
        return Err(Unfit::Holds("text not led by a source"));
    }
    for (source, body) in list {
        let element = serde_json::json!({ "content": body }).to_string();
        f(Some(source), &element);
    }
    Ok(true)
}

/// The passages of a text, each `(source, text)`: a passage begins the
/// text or follows a blank line, and is led by its source, a token with
/// no space that names a file, page or address (it holds `.`, `#` or `/`)
/// and ends with `:` and a space or line break. A blank line not followed
/// by a source belongs to the passage before it. Empty when the text does
/// not begin with a source. One pass over the text.
pub fn passages(text: &str) -> Vec<(&str, &str)> {
    let Some((first, mut body_at)) = source_at(text, 0) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut source = first;
    let mut from = body_at;
    while let Some(off) = memchr::memmem::find(&text.as_bytes()[from..], b"\n\n") {
        let blank = from + off;
        let next = blank + text[blank..].len() - text[blank..].trim_start().len();
        match source_at(text, next) {
            Some((s, at)) => {
                out.push((source, text[body_at..blank].trim()));
                (source, body_at) = (s, at);
                from = at;
            }
            None => from = blank + 2,
        }
    }
    out.push((source, text[body_at..].trim()));
    out
}

/// The source leading a passage at byte `at` of `text`, and where its
/// text begins.
fn source_at(text: &str, at: usize) -> Option<(&str, usize)> {
    const LONGEST: usize = 512;
    let rest = &text.as_bytes()[at..];
    // At most LONGEST bytes are looked at, so a text of one long word
    // costs no more per blank line than a text of short ones.
    let end = rest
        .iter()
        .take(LONGEST + 1)
        .position(u8::is_ascii_whitespace)?;
    let token = text[at..at + end].strip_suffix(':')?;
    let named = token.len() > 1 && token.contains(['.', '#', '/']);
    named.then_some((token, at + end + 1))
}

/// The members of a keyed container, each handed over as it is read.
struct Members<'f>(&'f mut dyn FnMut(Option<&str>, &str));

impl<'de> Visitor<'de> for Members<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let f = self.0;
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let value: &'de RawValue = map.next_value()?;
            f(Some(&key.0), value.get());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passages_are_split_at_blank_lines_before_a_source() {
        let text = "a.pdf#page=7: one\n\ntwo\n\nb.md: three\n\nhttps://x.example/y: four";
        assert_eq!(
            passages(text),
            [
                ("a.pdf#page=7", "one\n\ntwo"),
                ("b.md", "three"),
                ("https://x.example/y", "four")
            ]
        );
        // Prose is not a source: `Note:` names no file.
        assert!(passages("Note: not a source").is_empty());
        assert_eq!(passages("a.pdf: x\n\nNote: y"), [("a.pdf", "x\n\nNote: y")]);
        let (c, p) = Container::split("passages:/context").unwrap();
        assert_eq!((c, p), (Container::PASSAGES, "/context"));
        assert_eq!(c.prefix(), "passages:");
        assert!(Container::split("json:passages:/x").is_err());
        let mut got = Vec::new();
        let raw = serde_json::to_string("a.pdf#page=1: x").unwrap();
        assert_eq!(
            c.each(&raw, &mut |k, e| got
                .push((k.unwrap().to_owned(), e.to_owned()))),
            Ok(true)
        );
        assert_eq!(
            got,
            [("a.pdf#page=1".to_owned(), r#"{"content":"x"}"#.to_owned())]
        );
        assert_eq!(c.each(r#""""#, &mut |_, _| {}), Ok(false));
        assert!(
            c.each(r#""Response does not adhere""#, &mut |_, _| {})
                .is_err()
        );
    }

    type Elements = Vec<(Option<String>, String)>;

    fn elements(c: &str, raw: &str) -> Result<(bool, Elements), Unfit> {
        let (c, _) = Container::split(&format!("{c}/x")).unwrap();
        let mut out = Vec::new();
        let any = c.each(raw, &mut |k, e| {
            out.push((k.map(str::to_owned), e.to_owned()))
        })?;
        Ok((any, out))
    }

    #[test]
    fn prefixes_in_either_order_once_each() {
        assert_eq!(
            Container::split("json:keyed:/a").unwrap(),
            Container::split("keyed:json:/a").unwrap()
        );
        let (c, p) = Container::split("json:keyed:/context").unwrap();
        assert_eq!((c.prefix(), p), ("json:keyed:", "/context"));
        assert!(Container::split("json:json:/a").is_err());
        assert_eq!(Container::split("/a").unwrap().0, Container::ARRAY);
    }

    #[test]
    fn each_container_gives_its_elements_in_order() {
        let keyed = r#"{"34": {"id": 34}, "58": "text", "34": {}}"#;
        let (any, got) = elements("keyed:", keyed).unwrap();
        assert!(any);
        let keys: Vec<_> = got.iter().map(|(k, _)| k.clone().unwrap()).collect();
        assert_eq!(keys, ["34", "58", "34"]);
        assert_eq!(got[0].1, r#"{"id": 34}"#);
        let inner = serde_json::to_string(keyed).unwrap();
        assert_eq!(elements("json:keyed:", &inner).unwrap(), (true, got));
        let array = serde_json::to_string(r#"[{"a":1},{"a":2}]"#).unwrap();
        let (_, got) = elements("json:", &array).unwrap();
        assert_eq!(got.len(), 2);
        assert!(got.iter().all(|(k, _)| k.is_none()));
    }

    #[test]
    fn no_chunks_and_the_wrong_shapes() {
        assert!(!elements("json:", "null").unwrap().0);
        assert!(!elements("json:", r#""""#).unwrap().0);
        assert!(!elements("json:", r#"" null ""#).unwrap().0);
        assert_eq!(elements("json:", "[1]"), Err(Unfit::Found("an array")));
        assert_eq!(elements("json:", r#""not json""#), Err(Unfit::NotJson));
        assert_eq!(
            elements("json:keyed:", r#""[1]""#),
            Err(Unfit::Holds("an array"))
        );
        assert_eq!(elements("json:", r#""{}""#), Err(Unfit::Holds("an object")));
        let fit = |c: Container, u| c.fitting(u).map(Container::prefix);
        assert_eq!(
            fit(Container::ARRAY, Unfit::Found("a string")),
            Some("json:")
        );
        assert_eq!(
            fit(Container::ARRAY, Unfit::Found("an object")),
            Some("keyed:")
        );
        let json = Container {
            json: true,
            ..Container::ARRAY
        };
        assert_eq!(fit(json, Unfit::Holds("an object")), Some("json:keyed:"));
        assert_eq!(fit(json, Unfit::Holds("an array")), None);
        // A string of passages reads through `passages:`, under either map.
        let text = r#""a.pdf#page=2: one\n\nb.md: two""#;
        assert_eq!(elements("", text), Err(Unfit::Passages));
        assert_eq!(elements("json:", text), Err(Unfit::Passages));
        assert_eq!(fit(Container::ARRAY, Unfit::Passages), Some("passages:"));
        assert_eq!(fit(json, Unfit::Passages), Some("passages:"));
        assert_eq!(
            elements("", r#""plain words""#),
            Err(Unfit::Found("a string"))
        );
        assert_eq!(elements("keyed:", "[1]"), Err(Unfit::Found("an array")));
        assert_eq!(elements("keyed:", "{\"a\":1}").unwrap().1.len(), 1);
    }
}

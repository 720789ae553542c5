//! Python literals as some tracers write them (`str(dict)` rather than
//! JSON): `{'type': 'text', 'text': "it's"}`, `[{'role': 'user'}]`,
//! `True`, `None`. Read into JSON values so what they hold can be found
//! like any JSON; anything else (a call, a set, an unterminated string) is
//! not a literal and reads as none. One pass, nesting at most [`MAX_DEPTH`].

use serde_json::{Map, Number, Value};

/// Deepest nesting read; deeper literals read as none.
const MAX_DEPTH: u32 = 32;

/// `text` as a Python literal, when the whole of it is one and it is a
/// dict or a list (plain words are text, not literals).
pub(super) fn literal(text: &str) -> Option<Value> {
    let t = text.trim();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    let mut p = Parser {
        s: t.as_bytes(),
        at: 0,
    };
    let v = p.value(0)?;
    p.ws();
    (p.at == p.s.len()).then_some(v)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        let hit = self.s.get(self.at) == Some(&b);
        if hit {
            self.at += 1;
        }
        hit
    }

    fn value(&mut self, depth: u32) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match *self.s.get(self.at)? {
            b'{' => self.dict(depth),
            b'[' | b'(' => self.list(depth),
            b'\'' | b'"' => self.string().map(Value::String),
            _ => self.word(),
        }
    }

    fn dict(&mut self, depth: u32) -> Option<Value> {
        self.at += 1;
        let mut m = Map::new();
        if self.eat(b'}') {
            return Some(Value::Object(m));
        }
        loop {
            let key = match self.value(depth + 1)? {
                Value::String(k) => k,
                other => other.to_string(),
            };
            if !self.eat(b':') {
                return None;
            }
            let v = self.value(depth + 1)?;
            m.insert(key, v);
            if self.eat(b'}') {
                return Some(Value::Object(m));
            }
            if !self.eat(b',') {
                return None;
            }
            if self.eat(b'}') {
                return Some(Value::Object(m));
            }
        }
    }

    fn list(&mut self, depth: u32) -> Option<Value> {
        let close = if self.s[self.at] == b'[' { b']' } else { b')' };
        self.at += 1;
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Some(Value::Array(items));
            }
            items.push(self.value(depth + 1)?);
            if !self.eat(b',') {
                return self.eat(close).then_some(Value::Array(items));
            }
        }
    }

    /// A quoted string, with Python's common escapes.
    fn string(&mut self) -> Option<String> {
        let quote = self.s[self.at];
        self.at += 1;
        let mut out = Vec::new();
        while let Some(&b) = self.s.get(self.at) {
            self.at += 1;
            match b {
                _ if b == quote => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = *self.s.get(self.at)?;
                    self.at += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'u' | b'x' => {
                            let n = if e == b'u' { 4 } else { 2 };
                            let hex =
                                std::str::from_utf8(self.s.get(self.at..self.at + n)?).ok()?;
                            let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                            self.at += n;
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
        None
    }

    /// `True`, `False`, `None`, or a number.
    fn word(&mut self) -> Option<Value> {
        let start = self.at;
        while self
            .s
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+' | b'_'))
        {
            self.at += 1;
        }
        let w = std::str::from_utf8(&self.s[start..self.at]).ok()?;
        Some(match w {
            "True" => Value::Bool(true),
            "False" => Value::Bool(false),
            "None" => Value::Null,
            _ => {
                if let Ok(i) = w.parse::<i64>() {
                    Value::Number(i.into())
                } else {
                    Value::Number(Number::from_f64(w.parse::<f64>().ok()?)?)
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_literals_read_as_json() {
        assert_eq!(
            literal(r#"{'type': 'text', 'text': "it's 73\u00b0F", 'n': 2, 'ok': True, 'x': None}"#),
            Some(json!({"type": "text", "text": "it's 73°F", "n": 2, "ok": true, "x": null}))
        );
        assert_eq!(
            literal("[{'role': 'user', 'content': [{'type': 'text', 'text': 'hi\\n'}]}]"),
            Some(json!([{"role": "user", "content": [{"type": "text", "text": "hi\n"}]}]))
        );
        assert_eq!(
            literal("('a', 1.5,)"),
            None,
            "a tuple is not a dict or a list"
        );
        assert_eq!(literal("[('a', 1.5)]"), Some(json!([["a", 1.5]])));
        assert_eq!(literal("{'a': 1} trailing"), None);
        assert_eq!(literal("{'a': open('f')}"), None);
        assert_eq!(literal("{'a': 'never closed}"), None);
        assert_eq!(literal("plain words"), None);
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(literal(&deep), None);
    }
}

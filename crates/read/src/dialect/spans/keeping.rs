//! One JSON row read into only the fields its export reads (LangSmith runs,
//! Langfuse observations): each field into its own slot of a [`Row`], every
//! other member checked as a `Value` would check it and dropped, never
//! built. A field may itself be pruned as it is read ([`Keep::Only`]: an
//! object keeping only the members named, at any depth).
//!
//! What is accepted, every error message and position, and a repeated key's
//! last value winning stay `serde_json::from_str::<Map<String, Value>>`'s
//! own: a text the one-pass reader refuses, or that holds a member `Value`
//! reads specially ([`crate::dialect::checked`]), is read again that way and
//! pruned by [`prune`] to the same row.

use super::json::Members;
use crate::dialect::checked::{Check, Key};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// What a reader builds of one member of an object.
#[derive(Clone, Copy)]
pub(super) enum Keep {
    /// Checked as a [`Value`] would check it, and dropped (never allocated).
    Drop,
    /// Built whole, as a [`Value`].
    Whole,
    /// Built as a [`Value`], except that an object keeps only the members
    /// this function keeps (at every depth it names), and an array's
    /// elements are kept the same way; a scalar is built whole.
    Only(fn(&str) -> Keep),
    /// Checked, and kept as `null`: the key stays (so an object is as empty
    /// as it was), its value is never read.
    Stub,
}

/// The fields an export reads from a row: their names, the slot of each
/// (a `match`, which the compiler turns into a switch on length and bytes:
/// a row has dozens of keys, most of them not read), and how each is kept.
pub(super) struct Schema {
    pub names: &'static [&'static str],
    /// The place of a field in `names`; `None` for a field not read.
    pub slot: fn(&str) -> Option<usize>,
    /// How a field read is kept (never asked of a field not read).
    pub keep: fn(&str) -> Keep,
}

impl Schema {
    fn keep_of(&self, key: &str) -> Option<(usize, Keep)> {
        let i = (self.slot)(key)?;
        match (self.keep)(key) {
            Keep::Drop => None,
            k => Some((i, k)),
        }
    }
}

/// The fields of one row an export reads, each in its slot; `null` is kept
/// as a value ([`super::json::field`] reads it as absent).
pub(super) struct Row {
    schema: &'static Schema,
    values: Vec<Option<Value>>,
}

impl Row {
    fn new(schema: &'static Schema) -> Row {
        Row {
            schema,
            values: vec![None; schema.names.len()],
        }
    }

    /// Takes a field out of the row.
    pub(super) fn take(&mut self, key: &str) -> Option<Value> {
        let i = (self.schema.slot)(key)?;
        self.values[i].take()
    }

    /// The row as a map (tests, and callers that want one).
    #[cfg(test)]
    pub(super) fn into_map(self) -> Map<String, Value> {
        let names = self.schema.names;
        names
            .iter()
            .zip(self.values)
            .filter_map(|(k, v)| Some(((*k).to_owned(), v?)))
            .collect()
    }
}

impl Members for Row {
    fn member(&self, key: &str) -> Option<&Value> {
        let i = (self.schema.slot)(key)?;
        self.values[i].as_ref()
    }
}

/// One JSON object (the text of a whole line or array element) read into a
/// [`Row`] of `schema`.
pub(super) fn read_row(text: &str, schema: &'static Schema) -> serde_json::Result<Row> {
    let mut de = serde_json::Deserializer::from_str(text);
    match RowSeed(schema)
        .deserialize(&mut de)
        .and_then(|r| de.end().map(|()| r))
    {
        Ok(r) => Ok(r),
        // An error, or a member `Value` reads specially (see
        // `dialect::checked`): `Value` reads the text again and decides.
        Err(_) => serde_json::from_str::<Map<String, Value>>(text).map(|m| {
            let mut row = Row::new(schema);
            for (k, mut v) in m {
                if let Some((i, keep)) = schema.keep_of(&k) {
                    apply(keep, &mut v);
                    row.values[i] = Some(v);
                }
            }
            row
        }),
    }
}

/// Drops the members of `m` that `keep` does not keep, at every depth it
/// names: what reading with [`Keep::Only`] builds, from a whole value.
pub(super) fn prune(m: &mut Map<String, Value>, keep: fn(&str) -> Keep) {
    m.retain(|k, v| match keep(k) {
        Keep::Drop => false,
        other => {
            apply(other, v);
            true
        }
    });
}

/// A whole value made what reading it with `keep` builds.
fn apply(keep: Keep, v: &mut Value) {
    match (keep, v) {
        (Keep::Only(inner), Value::Object(o)) => prune(o, inner),
        (Keep::Only(inner), Value::Array(items)) => {
            for item in items {
                apply(Keep::Only(inner), item);
            }
        }
        (Keep::Stub, v) => *v = Value::Null,
        _ => {}
    }
}

/// The seed and visitor of [`read_row`].
struct RowSeed(&'static Schema);

impl<'de> DeserializeSeed<'de> for RowSeed {
    type Value = Row;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Row, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for RowSeed {
    type Value = Row;
    // serde_json's own wording for a map, so errors read the same.
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a map")
    }
    fn visit_unit<E>(self) -> Result<Row, E> {
        Ok(Row::new(self.0))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Row, A::Error> {
        let mut row = Row::new(self.0);
        // Top-level keys are plain strings to `Map<String, Value>`.
        while let Some(k) = a.next_key_seed(Key { first: false })? {
            match self.0.keep_of(&k) {
                None => a.next_value_seed(Check)?,
                Some((i, keep)) => row.values[i] = Some(kept_value(&mut a, keep)?),
            }
        }
        Ok(row)
    }
}

/// The members of an object kept with [`Keep::Only`]: a repeated key's last
/// value wins, as in a `Map`.
fn members<'de, A: MapAccess<'de>>(
    mut a: A,
    keep: fn(&str) -> Keep,
) -> Result<Map<String, Value>, A::Error> {
    let mut m = Map::new();
    // `Value` reads an object whose first key is the raw-value token
    // specially: `Key` refuses it, and the text is left to `Value`.
    let mut first = true;
    while let Some(k) = a.next_key_seed(Key { first })? {
        first = false;
        match keep(&k) {
            Keep::Drop => a.next_value_seed(Check)?,
            keep => {
                let v = kept_value(&mut a, keep)?;
                m.insert(k.into_owned(), v);
            }
        }
    }
    Ok(m)
}

/// A member kept with [`Keep::Only`], as a [`Value`].
struct Pruned(fn(&str) -> Keep);

impl<'de> DeserializeSeed<'de> for Pruned {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A member kept, as `keep` says (never [`Keep::Drop`]).
fn kept_value<'de, A: MapAccess<'de>>(a: &mut A, keep: Keep) -> Result<Value, A::Error> {
    match keep {
        Keep::Only(inner) => a.next_value_seed(Pruned(inner)),
        Keep::Stub => a.next_value_seed(Check).map(|()| Value::Null),
        _ => a.next_value::<Value>(),
    }
}

/// [`Keep::Only`]: what `Value` builds, except an object's members (and
/// those of the objects in an array).
impl<'de> Visitor<'de> for Pruned {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Pruned(self.0))? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Value, A::Error> {
        members(a, self.0).map(Value::Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A test schema: any of these keys, kept as `keep` says.
    macro_rules! schema {
        ($keep:expr) => {{
            static S: Schema = Schema {
                names: &["id", "input", "output", "n", "trace_id", "tags", "in", "s"],
                slot: |k| S.names.iter().position(|n| *n == k),
                keep: $keep,
            };
            &S
        }};
    }

    /// `read_row` reads as `from_str::<Map<String, Value>>` and then
    /// dropping the members the schema does not keep: the same map, or the
    /// same error.
    fn agrees(text: &str, schema: &'static Schema) {
        let reference = serde_json::from_str::<Map<String, Value>>(text).map(|mut m| {
            m.retain(|k, v| match schema.keep_of(k) {
                None => false,
                Some((_, keep)) => {
                    apply(keep, v);
                    true
                }
            });
            m
        });
        match (read_row(text, schema).map(Row::into_map), reference) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
            (a, b) => panic!("{text}: {a:?} vs {b:?}"),
        }
    }

    fn no_input(k: &str) -> Keep {
        if k != "input" && k != "i\u{6e}" {
            Keep::Whole
        } else {
            Keep::Drop
        }
    }

    /// `input` pruned to `x`, `q` and `k` at every depth.
    fn input_pruned(k: &str) -> Keep {
        match k {
            "input" => Keep::Only(only_xqk),
            _ => Keep::Whole,
        }
    }

    fn only_xqk(k: &str) -> Keep {
        match k {
            "x" | "q" => Keep::Whole,
            "k" => Keep::Only(only_xqk),
            "z" => Keep::Stub,
            _ => Keep::Drop,
        }
    }

    fn all_schemas() -> [&'static Schema; 3] {
        [
            schema!(no_input),
            schema!(input_pruned),
            schema!(|_| Keep::Whole),
        ]
    }

    #[test]
    fn pruning_keeps_only_the_members_named() {
        let text = r#"{"id":1,"input":{"x":[{"k":1,"z":2}],"k":{"k":[{"z":1,"q":2,"y":3},5],"z":3},"y":[{"k":{"x":1,"y":2}}],"z":{"x":1}},"in":{"z":1},"zz":2}"#;
        let want = json!({"id":1,"input":{"x":[{"k":1,"z":2}],"k":{"k":[{"z":null,"q":2},5],"z":null},"z":null},"in":{"z":1}});
        let row = read_row(text, schema!(input_pruned)).unwrap();
        assert_eq!(row.member("zz"), None);
        assert_eq!(Value::Object(row.into_map()), want);
        // The same row when `Value` reads the text (a raw-value key inside).
        let slow = r#"{"id":1,"input":{"x":[{"k":1,"z":2}],"k":{"k":[{"z":1,"q":2},5],"z":3},"z":{"$serde_json::private::RawValue":"1"}},"in":{"z":1}}"#;
        let row = read_row(slow, schema!(input_pruned)).unwrap();
        assert_eq!(Value::Object(row.into_map()), want);
    }

    #[test]
    fn keeping_members_reads_as_serde_json_does() {
        let deep = format!("{{\"input\":{}1{}}}", "[".repeat(200), "]".repeat(200));
        let lines = [
            r#"{"id":"a","input":{"x":[1,2,{"y":null}]},"output":"o"}"#,
            r#"{"id":"a","input":1e400}"#,
            r#"{"id":"a","input":"\ud800"}"#,
            r#"{"id":"a","input":"\ud83d\ude00 ok"}"#,
            r#"{"id":"a","input":{"\ud800":1}}"#,
            r#"{"id":"a","input":{"$serde_json::private::RawValue":"1"}}"#,
            r#"{"id":"a","input":{"k":{"$serde_json::private::RawValue":"[1]"}}}"#,
            r#"{"id":"a","input":[{"$serde_json::private::RawValue":5}]}"#,
            r#"{"id":"a","input":"\x"}"#,
            r#"{"id":"a","input":-0.0,"output":-0}"#,
            r#"{"id":"a","input":18446744073709551616,"n":18446744073709551615}"#,
            r#"{"id":"a","id":"b","input":1,"input":2}"#,
            r#"{"id":"a","input":{"x":1,"x":2,"k":{"q":1},"k":5}}"#,
            r#"{"i\u006e":{"a":1},"\u0069d":"e"}"#,
            r#"{"id":"a"} x"#,
            r#"{"id":"a",}"#,
            r#"{"id":"a" "input":1}"#,
            r#"{"input":[1,2,]}"#,
            r#"{"input":tru}"#,
            r#"{"input":"a
b"}"#,
            "{}",
            " {\"id\" : \"a\" } ",
            "[]",
            "null",
            "5",
            "\"s\"",
            "",
            "{",
            deep.as_str(),
        ];
        for line in lines {
            for s in all_schemas() {
                agrees(line, s);
            }
        }
        // Every single-byte deletion and substitution of a row.
        let row = r#"{"id":"o1","trace_id":"t","input":{"q":["a",1.5e3,{"k":null}],"k":{"x":"\u00e9\n","z":[]}},"output":"x [1]","tags":[true,false]}"#;
        for i in 0..row.len() {
            let mut cut = row.as_bytes().to_vec();
            cut.remove(i);
            if let Ok(t) = std::str::from_utf8(&cut) {
                agrees(t, schema!(no_input));
                agrees(t, schema!(input_pruned));
            }
            for b in [
                b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b'0', b'e', b' ', 0x01,
            ] {
                let mut sub = row.as_bytes().to_vec();
                sub[i] = b;
                if let Ok(t) = std::str::from_utf8(&sub) {
                    agrees(t, schema!(no_input));
                    agrees(t, schema!(input_pruned));
                }
            }
        }
    }

    /// Every row of the shared LangSmith and Langfuse captures reads the same
    /// through each export's schema.
    #[test]
    fn keeping_members_agrees_on_the_shared_captures() {
        let Some(files) = super::super::shared_captures() else {
            return;
        };
        let files: Vec<_> = files
            .into_iter()
            .filter(|(p, _)| p.extension().is_some_and(|x| x == "jsonl" || x == "json"))
            .collect();
        let mut rows = 0;
        for (_, data) in &files {
            let text = String::from_utf8_lossy(data);
            let items: Vec<String> =
                match serde_json::from_str::<Vec<Box<serde_json::value::RawValue>>>(&text) {
                    Ok(list) => list.iter().map(|r| r.get().to_owned()).collect(),
                    Err(_) => text.lines().map(str::to_owned).collect(),
                };
            for item in &items {
                agrees(item, &super::super::langsmith::SCHEMA);
                agrees(item, &super::super::langfuse::SCHEMA);
                rows += 1;
            }
        }
        assert!(rows > 50, "{rows} rows");
    }
}

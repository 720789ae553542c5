//! Parquet files (recognised by their `PAR1` magic bytes): LangSmith's bulk
//! export, Langfuse's blob-storage export, Phoenix `get_spans_dataframe()`
//! written with `to_parquet`. Each row is converted to the JSON object the
//! same export writes as JSON (nested groups as objects, lists as arrays,
//! timestamps as RFC 3339 UTC text), the export is recognised from the
//! first row as any JSON source is, and every row is read as one line of
//! that dialect. Rows are decoded one row group at a time; the file itself
//! is held in memory (it is read whole like any whole-document source).

use crate::dialect::{
    AssembleOptions, Assembled, Dialect, DocumentRecords, Parsed, Record, cap_reason,
};
use crate::markers::{Grammar, Preset};
use crate::messages::Warnings;
use chrono::DateTime;
use parquet::basic::{LogicalType, TimeUnit};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::{Field, Row};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Parquet, read as rows of the export inside.
pub struct ParquetDialect;

/// The one Parquet dialect.
pub static PARQUET: ParquetDialect = ParquetDialect;

/// The Parquet magic number, at the start (and end) of every file.
pub const MAGIC: &[u8] = b"PAR1";

/// An RFC 3339 UTC time from nanoseconds since the epoch.
fn rfc3339(nanos: i128) -> Value {
    let secs = nanos.div_euclid(1_000_000_000);
    let sub = nanos.rem_euclid(1_000_000_000) as u32;
    match i64::try_from(secs)
        .ok()
        .and_then(|s| DateTime::from_timestamp(s, sub))
    {
        Some(t) => Value::String(t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)),
        None => Value::Null,
    }
}

/// One Parquet value as JSON. `nanos`: the column is a nanosecond timestamp
/// (stored as a plain 64-bit integer by the row reader).
fn to_json(f: &Field, nanos: bool) -> Value {
    match f {
        Field::Null => Value::Null,
        Field::Bool(b) => Value::Bool(*b),
        Field::Byte(n) => Value::from(*n),
        Field::Short(n) => Value::from(*n),
        Field::Int(n) => Value::from(*n),
        Field::Long(n) if nanos => rfc3339(*n as i128),
        Field::Long(n) => Value::from(*n),
        Field::UByte(n) => Value::from(*n),
        Field::UShort(n) => Value::from(*n),
        Field::UInt(n) => Value::from(*n),
        Field::ULong(n) => Value::from(*n),
        Field::Float16(n) => float(f64::from(*n)),
        Field::Float(n) => float(f64::from(*n)),
        Field::Double(n) => float(*n),
        Field::Decimal(_) => Value::String(f.to_string()),
        Field::Str(s) => Value::String(s.clone()),
        Field::Bytes(b) => Value::String(String::from_utf8_lossy(b.data()).into_owned()),
        Field::Date(d) => date(*d),
        Field::TimeMillis(t) => Value::from(*t),
        Field::TimeMicros(t) => Value::from(*t),
        Field::TimestampMillis(ms) => rfc3339(*ms as i128 * 1_000_000),
        Field::TimestampMicros(us) => rfc3339(*us as i128 * 1_000),
        Field::Group(row) => object(row, &HashMap::new()),
        Field::ListInternal(list) => {
            Value::Array(list.elements().iter().map(|e| to_json(e, false)).collect())
        }
        Field::MapInternal(map) => Value::Object(
            map.entries()
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        Field::Str(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (key, to_json(v, false))
                })
                .collect(),
        ),
    }
}

/// Days since the epoch as `YYYY-MM-DD`.
fn date(days: i32) -> Value {
    DateTime::from_timestamp(i64::from(days) * 86_400, 0).map_or(Value::Null, |t| {
        Value::String(t.format("%Y-%m-%d").to_string())
    })
}

fn float(f: f64) -> Value {
    serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// A row as a JSON object; `nanos` names the top-level nanosecond timestamp columns.
fn object(row: &Row, nanos: &HashMap<String, ()>) -> Value {
    let mut m = Map::new();
    for (name, f) in row.get_column_iter() {
        m.insert(name.clone(), to_json(f, nanos.contains_key(name)));
    }
    Value::Object(m)
}

/// Reads every row of a Parquet file: `row(index, json text)`. Stops at
/// the first error, which names the row group.
fn rows(data: &[u8], row: &mut dyn FnMut(u64, String)) -> Result<(), String> {
    let bytes = bytes::Bytes::copy_from_slice(data);
    let reader = SerializedFileReader::new(bytes)
        .map_err(|e| cap_reason(format!("not a Parquet file: {e}")))?;
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let mut nanos = HashMap::new();
    for f in schema.root_schema().get_fields() {
        if let Some(LogicalType::Timestamp(t)) = f.get_basic_info().logical_type_ref()
            && matches!(t.unit, TimeUnit::NANOS)
        {
            nanos.insert(f.name().to_owned(), ());
        }
    }
    let mut n = 0u64;
    for g in 0..reader.num_row_groups() {
        let group = reader
            .get_row_group(g)
            .map_err(|e| cap_reason(format!("Parquet row group {}: {e}", g + 1)))?;
        let iter = group
            .get_row_iter(None)
            .map_err(|e| cap_reason(format!("Parquet row group {}: {e}", g + 1)))?;
        for r in iter {
            let r = r.map_err(|e| cap_reason(format!("Parquet row group {}: {e}", g + 1)))?;
            n += 1;
            row(n, object(&r, &nanos).to_string());
        }
    }
    Ok(())
}

impl Dialect for ParquetDialect {
    fn name(&self) -> &'static str {
        "parquet"
    }
    fn about(&self) -> &'static str {
        "Parquet: LangSmith bulk export, Langfuse blob export, Phoenix dataframe"
    }
    fn sniff(&self, first: &[u8]) -> bool {
        first.starts_with(MAGIC)
    }
    /// RAG prompts number their sources: `[1]`, `[1, 2]`, `[1-3]`.
    fn grammar(&self) -> Grammar {
        Grammar::Preset(Preset::Numeric)
    }
    fn family(&self) -> &'static str {
        "spans"
    }
    fn is_document(&self, _first: &[u8]) -> bool {
        true
    }
    fn parse_line<'a>(
        &self,
        _line: &'a str,
        _out: &mut Vec<Record>,
        _warnings: &mut Warnings,
    ) -> Parsed<'a> {
        Parsed::Invalid("a Parquet file is read whole, not line by line".into())
    }
    fn parse_document(&self, data: &[u8], out: &mut DocumentRecords) {
        let mut inner: Option<&'static dyn Dialect> = None;
        let mut warnings = Warnings::default();
        let mut recs = Vec::new();
        let mut last = 0;
        let result = rows(data, &mut |n, text| {
            last = n;
            let d = *inner.get_or_insert_with(|| super::detect(None, text.as_bytes()));
            if d.family() != "spans" || d.name() == "parquet" {
                out.invalid(
                    n,
                    format!(
                        "a Parquet row read as {}: only trace exports (LangSmith runs, Langfuse observations, Phoenix dataframes) are read from Parquet",
                        d.name()
                    ),
                );
                return;
            }
            match d.parse_line(&text, &mut recs, &mut warnings) {
                Parsed::Records(_) => out.records.extend(recs.drain(..).map(|r| (n, r))),
                Parsed::Skipped | Parsed::Turn(_) => out.skipped += 1,
                Parsed::Invalid(reason) => out.invalid(n, reason),
            }
        });
        if let Err(reason) = result {
            out.invalid(last.max(1), reason);
        }
    }
    fn assemble(
        &self,
        group: &str,
        records: Vec<Record>,
        opts: &AssembleOptions,
    ) -> Result<Box<dyn Assembled>, String> {
        Ok(Box::new(super::spans::assemble_records(
            group, records, opts,
        )))
    }
}

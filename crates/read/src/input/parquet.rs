//! Parquet decoded to JSON Lines at the source, like gzip and zstd are
//! decompressed: a file that starts with the `PAR1` magic bytes is read one
//! row group at a time, and each row becomes one line holding the JSON
//! object the same export writes as JSON (nested groups as objects, lists
//! as arrays, timestamps as RFC 3339 UTC text). The dialects then read those
//! lines as they read any JSON source (LangSmith's bulk export, Langfuse's
//! blob-storage export, Phoenix `get_spans_dataframe()` written with
//! `to_parquet`, or turn lines). Memory is one row group's lines; a file is
//! read in place (Parquet needs random access), while stdin or a compressed
//! Parquet stream is read whole first. A row's line number is its 1-based
//! position in the file.
//!
//! A row group is read whole or not at all: a page that does not decode
//! (an error, or a panic of the decoder on a corrupt page), a row that does
//! not, or fewer rows than the row group's metadata gives is an input error
//! naming the row group, and every later read gives it again, so no caller
//! can read past it into a shorter input.

use bytes::Bytes;
use chrono::DateTime;
use parquet::basic::{LogicalType, TimeUnit};
use parquet::file::reader::{ChunkReader, FileReader, SerializedFileReader};
use parquet::record::{Field, Row};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::{self, Read};

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

/// A Parquet file as JSON Lines, decoded one row group at a time.
pub struct ParquetLines<R: ChunkReader + 'static> {
    reader: SerializedFileReader<R>,
    nanos: HashMap<String, ()>,
    next_group: usize,
    buf: Vec<u8>,
    at: usize,
    /// Why reading stopped, given again by every later read: a caller that
    /// reads on past an error (as a first `fill_buf` does) must never get
    /// the next row group as if the failed one had been read.
    failed: Option<String>,
}

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

impl<R: ChunkReader + 'static> ParquetLines<R> {
    /// Opens a Parquet file; an unreadable footer is an error.
    pub fn new(chunks: R) -> io::Result<Self> {
        let reader = SerializedFileReader::new(chunks)
            .map_err(|e| invalid(format!("not a readable Parquet file: {e}")))?;
        let schema = reader.metadata().file_metadata().schema_descr_ptr();
        let mut nanos = HashMap::new();
        for f in schema.root_schema().get_fields() {
            if let Some(LogicalType::Timestamp(t)) = f.get_basic_info().logical_type_ref()
                && matches!(t.unit, TimeUnit::NANOS)
            {
                nanos.insert(f.name().to_owned(), ());
            }
        }
        Ok(ParquetLines {
            reader,
            nanos,
            next_group: 0,
            buf: Vec::new(),
            at: 0,
            failed: None,
        })
    }

    /// Decodes the next row group into `buf`; false at the end. A row group
    /// that cannot be read whole fails the file, now and on every later call.
    fn fill(&mut self) -> io::Result<bool> {
        if let Some(e) = &self.failed {
            return Err(invalid(e.clone()));
        }
        self.buf.clear();
        self.at = 0;
        while self.buf.is_empty() {
            if self.next_group >= self.reader.num_row_groups() {
                return Ok(false);
            }
            let g = self.next_group;
            self.next_group += 1;
            if let Err(e) = self.decode_guarded(g) {
                let e = format!("Parquet row group {}: {e}", g + 1);
                self.buf.clear();
                self.failed = Some(e.clone());
                return Err(invalid(e));
            }
        }
        Ok(true)
    }

    /// [`Self::decode`], with a panic of the decoder (the parquet crate
    /// asserts on some corrupt pages) caught and made an error: the row
    /// group is unreadable, and the reader is not used again.
    fn decode_guarded(&mut self, g: usize) -> Result<(), String> {
        quiet_decoder_panics();
        DECODING.with(|d| d.set(true));
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.decode(g)));
        DECODING.with(|d| d.set(false));
        r.unwrap_or_else(|panic| Err(decoder_failed(panic.as_ref())))
    }

    /// Row group `g`'s rows as lines in `buf`: every row read, and as many
    /// as its metadata gives (a page the reader skipped is an error, never
    /// a shorter input).
    fn decode(&mut self, g: usize) -> Result<(), String> {
        let group = self.reader.get_row_group(g).map_err(|e| e.to_string())?;
        let expected = group.metadata().num_rows();
        let mut read: i64 = 0;
        for row in group.get_row_iter(None).map_err(|e| e.to_string())? {
            let row = row.map_err(|e| e.to_string())?;
            serde_json::to_writer(&mut self.buf, &object(&row, &self.nanos))
                .map_err(|e| e.to_string())?;
            self.buf.push(b'\n');
            read += 1;
        }
        if read != expected {
            return Err(format!(
                "{read} rows read of the {expected} its metadata gives"
            ));
        }
        Ok(())
    }
}

/// The reason for a decoder's panic: its message, when it has one, cut short.
fn decoder_failed(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic");
    let what: String = what.chars().take(120).collect();
    format!("a page cannot be decoded (the decoder failed: {what})")
}

thread_local! {
    /// True while this thread decodes a row group ([`ParquetLines::decode_guarded`]).
    static DECODING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs, once, a panic hook that stays silent for a panic of the
/// Parquet decoder (it becomes an input error with its own message) and
/// hands every other panic to the hook it replaced.
fn quiet_decoder_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !DECODING.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
}

impl<R: ChunkReader + 'static> Read for ParquetLines<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.buf.len() && !self.fill()? {
            return Ok(0);
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A whole Parquet stream held in memory (stdin, or compressed).
pub fn from_reader(mut r: impl Read) -> io::Result<ParquetLines<Bytes>> {
    let mut data = Vec::new();
    r.read_to_end(&mut data)?;
    ParquetLines::new(Bytes::from(data))
}

#[cfg(test)]
mod tests;

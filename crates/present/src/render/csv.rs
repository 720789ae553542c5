//! CSV: fixed columns, one record per row, list fields joined with `;`.
//! Values that a spreadsheet would run as formulas are neutralised unless
//! `--csv-raw` is given.

use super::columns::{self, Style};
use super::escape::{Csv, csv_cell};
use super::report::{Exporter, Options};
use super::{Clock, ReportDoc, push_num};
use crate::model::{Chunk, MarkersFrom, Row};
use crate::pipeline::Graded;
use anyhow::Result;

/// The columns of `report --format csv`, in order: every column.
pub const REPORT_COLUMNS: [&str; 38] = columns::NAMES;

/// A CSV writer with the settings every CSV output uses.
pub fn writer<W: std::io::Write>(out: W) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(out)
}

/// Writes the header record of `report`: `cols`, or every column when empty.
pub fn header<W: std::io::Write>(w: &mut csv::Writer<W>, cols: &[String]) -> Result<()> {
    if cols.is_empty() {
        w.write_record(REPORT_COLUMNS)?;
    } else {
        w.write_record(cols)?;
    }
    Ok(())
}

/// Writes one row with the columns `cols` (every column when empty).
pub fn row_in<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    r: &Row<'_>,
    cols: &[String],
    mode: Csv,
    clock: &Clock,
) -> Result<()> {
    if cols.is_empty() {
        return row(w, r, mode, clock);
    }
    for c in cols {
        let v = columns::cell(r, c, Style::Csv, clock);
        if columns::is_text(c) {
            w.write_field(csv_cell(&v, mode).as_bytes())?;
        } else {
            w.write_field(&v)?;
        }
    }
    w.write_record(None::<&[u8]>)?;
    Ok(())
}

/// `report --format csv`: a header record, then a record per row; a page
/// and a stream differ only in where the rows come from.
pub struct Report<'a>(pub Options<'a>);

impl Exporter for Report<'_> {
    fn page(&self, out: &mut dyn std::io::Write, doc: &ReportDoc<'_>) -> Result<()> {
        let o = &self.0;
        let mut w = writer(&mut *out);
        header(&mut w, o.columns)?;
        for r in doc.rows {
            row_in(&mut w, r, o.columns, o.csv, &o.clock)?;
        }
        w.flush()?;
        Ok(())
    }
    fn open(&self, out: &mut dyn std::io::Write) -> Result<()> {
        let mut w = writer(&mut *out);
        header(&mut w, self.0.columns)?;
        w.flush()?;
        Ok(())
    }
    fn rows(&self, buf: &mut Vec<u8>, rows: &[Graded<'_>]) {
        let o = &self.0;
        if o.columns.is_empty() {
            // Every column: written straight into the block's bytes.
            let mut w = Fields::new(buf);
            for g in rows {
                let _ = row(&mut w, &g.row, o.csv, &o.clock);
            }
        } else {
            let mut w = writer(buf);
            for g in rows {
                let _ = row_in(&mut w, &g.row, o.columns, o.csv, &o.clock);
            }
            let _ = w.flush();
        }
    }
}

/// Where [`row`] writes a record: the csv crate's writer, or [`Fields`].
pub trait FieldSink {
    fn field(&mut self, value: &[u8]) -> Result<()>;
    /// A field that holds none of `,` `"` `\r` `\n` (a number, a UTC time,
    /// a fixed word), which no writer quotes: the buffer writer appends it
    /// without looking.
    fn plain(&mut self, value: &[u8]) -> Result<()> {
        self.field(value)
    }
    fn end_record(&mut self) -> Result<()>;
}

impl<W: std::io::Write> FieldSink for csv::Writer<W> {
    fn field(&mut self, value: &[u8]) -> Result<()> {
        Ok(self.write_field(value)?)
    }
    fn end_record(&mut self) -> Result<()> {
        Ok(self.write_record(None::<&[u8]>)?)
    }
}

/// Records appended to a byte buffer exactly as [`writer`] writes them
/// (a field is quoted, its quotes doubled, when it holds `,` `"` `\r` or
/// `\n`; `\n` ends a record), without the csv crate's per-field state
/// machine: `report --all --format csv` writes 24 fields a turn. Only for
/// records of two fields or more (the csv crate quotes a lone empty field).
pub struct Fields<'o> {
    out: &'o mut Vec<u8>,
    first: bool,
}

impl<'o> Fields<'o> {
    pub fn new(out: &'o mut Vec<u8>) -> Self {
        Fields { out, first: true }
    }
}

impl FieldSink for Fields<'_> {
    fn field(&mut self, value: &[u8]) -> Result<()> {
        if !std::mem::replace(&mut self.first, false) {
            self.out.push(b',');
        }
        if !crate::bytes::has_any(value, b",\"\r\n") {
            self.out.extend_from_slice(value);
            return Ok(());
        }
        self.out.push(b'"');
        for part in value.split_inclusive(|&c| c == b'"') {
            self.out.extend_from_slice(part);
            if part.ends_with(b"\"") {
                self.out.push(b'"');
            }
        }
        self.out.push(b'"');
        Ok(())
    }
    fn plain(&mut self, value: &[u8]) -> Result<()> {
        debug_assert!(!crate::bytes::has_any(value, b",\"\r\n"));
        if !std::mem::replace(&mut self.first, false) {
            self.out.push(b',');
        }
        self.out.extend_from_slice(value);
        Ok(())
    }
    fn end_record(&mut self) -> Result<()> {
        self.out.push(b'\n');
        self.first = true;
        Ok(())
    }
}

/// Writes one row as a CSV record. Fields are formatted into one scratch
/// buffer and handed to the sink one by one: this runs once per turn in
/// `report --all --format csv`, so it avoids a string per field.
pub fn row<S: FieldSink>(w: &mut S, r: &Row<'_>, mode: Csv, clock: &Clock) -> Result<()> {
    use std::fmt::Write as _;
    let mut tmp = String::with_capacity(128);
    let text = |w: &mut S, s: &str| w.field(csv_cell(s, mode).as_bytes());
    text(w, r.turn_id.as_str())?;
    text(w, &r.agent_id)?;
    text(w, r.conversation_id.as_ref().map_or("", |c| c.as_str()))?;
    text(w, &r.channel)?;
    if clock.local {
        tmp = clock.time(&r.created_at);
        w.field(tmp.as_bytes())?;
    } else {
        write_time(&mut tmp, &r.created_at);
        w.plain(tmp.as_bytes())?;
    }
    w.plain(r.verdict.as_str().as_bytes())?;
    w.plain(if r.partial { b"true" } else { b"false" })?;
    tmp.clear();
    for (i, c) in r.cited_chunks.iter().enumerate() {
        let _ = write!(tmp, "{}{c}", if i > 0 { ";" } else { "" });
    }
    w.plain(tmp.as_bytes())?;
    let mut int = itoa::Buffer::new();
    w.plain(int.format(r.marker_count).as_bytes())?;
    w.plain(int.format(r.out_of_range_markers).as_bytes())?;
    w.plain(int.format(r.malformed_markers).as_bytes())?;
    w.plain(
        r.markers_from
            .as_ref()
            .map_or("", MarkersFrom::as_str)
            .as_bytes(),
    )?;
    w.plain(int.format(r.chunk_count).as_bytes())?;
    num(w, &mut tmp, r.confidence)?;
    let ids = |tmp: &mut String, pick: for<'c> fn(&'c Chunk<'_>) -> Option<&'c str>| {
        tmp.clear();
        for (i, c) in r.chunks.iter().enumerate() {
            if i > 0 {
                tmp.push(';');
            }
            tmp.push_str(pick(c).unwrap_or(""));
        }
    };
    ids(&mut tmp, |c| c.document_id.as_ref().map(|d| d.as_str()));
    text(w, &tmp)?;
    ids(&mut tmp, |c| c.chunk_id.as_ref().map(|d| d.as_str()));
    text(w, &tmp)?;
    tmp.clear();
    for (i, c) in r.chunks.iter().enumerate() {
        if i > 0 {
            tmp.push(';');
        }
        if let Some(s) = c.score {
            push_num(&mut tmp, s);
        }
    }
    w.plain(tmp.as_bytes())?;
    w.plain(int.format(r.tool_calls).as_bytes())?;
    w.plain(int.format(r.tool_errors).as_bytes())?;
    text(w, r.model.as_deref().unwrap_or(""))?;
    match r.tokens_used {
        Some(t) => w.plain(int.format(t).as_bytes())?,
        None => w.field(b"")?,
    }
    num(w, &mut tmp, r.cost_cents)?;
    num(w, &mut tmp, r.latency_ms)?;
    w.plain(r.unobserved_reason.map_or("", |u| u.as_str()).as_bytes())?;
    let s = &r.support;
    w.plain(int.format(s.sentences).as_bytes())?;
    w.plain(int.format(s.cited_sentences).as_bytes())?;
    num(w, &mut tmp, s.coverage())?;
    for n in [
        s.quotes_exact,
        s.quotes_normalised,
        s.quotes_absent,
        s.offsets_mismatched,
        s.hints,
        s.unchecked,
    ] {
        w.plain(int.format(n).as_bytes())?;
    }
    columns::cited_documents_into(r, &mut tmp);
    text(w, &tmp)?;
    for n in [
        s.quotes_misattributed,
        s.quotes_stitched,
        s.quotes_fabricated,
    ] {
        w.plain(int.format(n).as_bytes())?;
    }
    w.plain(r.evidence.as_str().as_bytes())?;
    w.end_record()
}

/// Writes an optional number as [`super::opt_num`] does, through `tmp`.
fn num<S: FieldSink>(w: &mut S, tmp: &mut String, x: Option<f64>) -> Result<()> {
    tmp.clear();
    if let Some(x) = x {
        push_num(tmp, x);
    }
    w.plain(tmp.as_bytes())
}

/// Writes a UTC time as RFC 3339 with `Z` into `out` (cleared first), the
/// same text as [`crate::model::format_time`] without its allocation or
/// the formatting machinery (once per row of a CSV export).
fn write_time(out: &mut String, t: &chrono::DateTime<chrono::Utc>) {
    use chrono::{Datelike, Timelike};
    out.clear();
    // chrono keeps a leap second as second 59 with nanoseconds past 1e9.
    let leap = t.nanosecond() >= 1_000_000_000;
    match u32::try_from(t.year()) {
        Ok(year) => push_digits(out, year, 4),
        // Before year 0 (no input reads as one): a sign, then the digits.
        Err(_) => {
            use std::fmt::Write as _;
            let _ = write!(out, "{:04}", t.year());
        }
    }
    out.push('-');
    push_digits(out, t.month(), 2);
    out.push('-');
    push_digits(out, t.day(), 2);
    out.push('T');
    push_digits(out, t.hour(), 2);
    out.push(':');
    push_digits(out, t.minute(), 2);
    out.push(':');
    push_digits(out, t.second() + u32::from(leap), 2);
    let nanos = t.nanosecond() % 1_000_000_000;
    if nanos != 0 {
        // Same digits as chrono's AutoSi: 3, 6 or 9.
        out.push('.');
        if nanos.is_multiple_of(1_000_000) {
            push_digits(out, nanos / 1_000_000, 3);
        } else if nanos.is_multiple_of(1_000) {
            push_digits(out, nanos / 1_000, 6);
        } else {
            push_digits(out, nanos, 9);
        }
    }
    out.push('Z');
}

/// `n` in decimal, zero-padded to at least `width` digits (as `{:0width$}`).
fn push_digits(out: &mut String, n: u32, width: usize) {
    let mut buf = itoa::Buffer::new();
    let s = buf.format(n);
    for _ in s.len()..width {
        out.push('0');
    }
    out.push_str(s);
}

/// Writes a generic table (header plus records) as CSV, neutralising cells.
pub fn table(
    out: &mut dyn std::io::Write,
    header: &[&str],
    rows: &[Vec<String>],
    mode: Csv,
) -> Result<()> {
    table_with_numbers(out, header, rows, mode, &[])
}

/// [`table`], with columns of numbers this tool formatted itself (signed
/// differences such as `-0.1500`) written as they are: a number is not a
/// formula, and neutralising it would turn it into text.
pub fn table_with_numbers(
    out: &mut dyn std::io::Write,
    header: &[&str],
    rows: &[Vec<String>],
    mode: Csv,
    numbers: &[usize],
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(header)?;
    for r in rows {
        w.write_record(r.iter().enumerate().map(|(i, c)| {
            if numbers.contains(&i) && c.parse::<f64>().is_ok_and(f64::is_finite) {
                c.clone()
            } else {
                csv_cell(c, mode).into_owned()
            }
        }))?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::DateTime;

    /// A row graded from a native line with these fields spliced in.
    fn graded(fields: &str) -> Row<'_> {
        let line = format!(r#"{{"created_at":"2026-08-01T00:00:00.5+02:00",{fields}}}"#);
        let line: &'static str = Box::leak(line.into_boxed_str());
        match crate::dialect::native::parse_line_reporting(line).0 {
            crate::dialect::Parsed::Turn(t) => {
                crate::grade::grade(t, &crate::markers::Grammar::default())
            }
            _ => panic!("not a turn: {line}"),
        }
    }

    #[test]
    fn the_byte_writer_writes_what_the_csv_crate_writes() {
        // JSON text: the escapes are decoded into the row's strings.
        let texts = [
            r"plain",
            r"",
            r"a,b",
            r#"say \"hi\""#,
            r#"\""#,
            r#"\"\""#,
            r"x\ny",
            r"x\r\ny",
            r"=SUM(A1)",
            r"+1",
            r"-1",
            r"@x",
            r"\tx",
            r"é,ü \u2028",
            r";",
            r"a\\b",
        ];
        let mut cases = Vec::new();
        for t in texts {
            cases.push(format!(
                r#""turn_id":"{t}","agent_id":"{t}","conversation_id":"{t}","channel":"{t}","reply":"{t} [KB-1] [KB-9] [kb-1]","grounding":{{"chunks":[{{"document_id":"{t}","chunk_id":"{t}","score":0.75}},{{"score":-0.0}},{{"document_id":7,"score":1e-7}}],"model":"{t}","tokens_used":3,"cost_cents":1.5,"latency_ms":12}}"#
            ));
            cases.push(format!(
                r#""turn_id":"t","agent_id":"a","conversation_id":"{t}","grounding":{{"citations":[1,2]}}"#
            ));
        }
        cases.push(
            r#""turn_id":"t","agent_id":"a","reply":null,"unobserved":"withheld""#.to_owned(),
        );
        cases
            .push(r#""turn_id":12,"agent_id":"a","reply":"","grounding":{"chunks":[]}"#.to_owned());
        let clock = Clock {
            zone: crate::filter::Zone::utc(),
            local: false,
        };
        for fields in &cases {
            let r = graded(fields);
            for (raw, terminal) in [(false, false), (true, false), (false, true)] {
                let mode = Csv { raw, terminal };
                let mut reference = writer(Vec::new());
                row(&mut reference, &r, mode, &clock).unwrap();
                let reference = reference.into_inner().unwrap();
                let mut bytes = Vec::new();
                row(&mut Fields::new(&mut bytes), &r, mode, &clock).unwrap();
                assert_eq!(
                    String::from_utf8_lossy(&bytes),
                    String::from_utf8_lossy(&reference),
                    "{fields}"
                );
            }
        }
    }

    #[test]
    fn time_text_matches_the_model_formatter() {
        for (secs, nanos) in [
            (1_785_000_000, 0),
            (1_785_000_000, 5_000_000),
            (1_785_000_000, 7_000),
            (1_785_000_000, 123_456_789),
            (0, 0),
            // 2016-12-31T23:59:60Z and 23:59:60.5Z: leap seconds.
            (1_483_228_799, 1_000_000_000),
            (1_483_228_799, 1_500_000_000),
            // 0000-01-01T00:00:00Z, 0999-12-31T23:59:59.25Z, 9999-12-31T23:59:59Z.
            (-62_167_219_200, 0),
            (-30_610_224_001, 250_000_000),
            (253_402_300_799, 0),
        ] {
            let t = DateTime::from_timestamp(secs, nanos).unwrap();
            let mut s = String::new();
            write_time(&mut s, &t);
            assert_eq!(s, crate::model::format_time(&t));
        }
    }
}

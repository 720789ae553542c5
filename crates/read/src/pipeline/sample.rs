//! A sample of one source's records for `inspect`, read by the engine's own
//! reader (the decoding, the shape found in the first bytes, the cutting of
//! a JSON array or a spread document into one record per line, the line
//! limit): the records `inspect` surveys are those the command it suggests
//! reads.

use super::{Engine, Unit, Work, read_all};
use crate::dialect::{self, Dialect};
use crate::input::{self, Shape, Source};
use anyhow::Result;
use chrono::{DateTime, Utc};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::sync_channel;

/// What the first records of a source are.
pub struct Sample {
    /// The records of a turn log, as text (blank lines left out); empty for
    /// the other dialects, which take no map.
    pub records: Vec<String>,
    /// Records read (blank lines left out); for a whole document, 0: its
    /// dialect counts them.
    pub count: u64,
    /// Every record of the source was read.
    pub complete: bool,
    /// The dialect that reads the source without a map, and whether it
    /// reads it as one document.
    pub dialect: &'static dyn Dialect,
    pub whole: bool,
    /// Shapes of the source worth naming: UTF-16, a JSON array, a document
    /// spread over lines, CSV.
    pub shapes: Vec<Shape>,
    /// When the file was last written (None for stdin).
    pub modified: Option<DateTime<Utc>>,
}

impl Sample {
    /// True when the source is read as the native turn log (or, with a map,
    /// through it).
    pub fn is_turn_log(&self) -> bool {
        self.dialect.name() == dialect::native::NATIVE.name()
    }

    /// Counts the lines of a unit, keeping the records of a turn log, until
    /// `limit` lines were read; false once it is passed.
    fn add_lines(&mut self, block: &input::Block, physical: &mut u64, limit: Option<u64>) -> bool {
        if block.oversized.is_some() {
            *physical += 1;
            return limit.is_none_or(|l| *physical <= l);
        }
        let data: &[u8] = &block.data;
        let data = data.strip_suffix(b"\n").unwrap_or(data);
        if data.is_empty() {
            return true;
        }
        let keep = self.is_turn_log();
        for (k, line) in data.split(|&b| b == b'\n').enumerate() {
            *physical += 1;
            if limit.is_some_and(|l| *physical > l) {
                return false;
            }
            let line = input::clean_line(line, block.first && k == 0);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            self.count += 1;
            if keep {
                self.records
                    .push(String::from_utf8_lossy(line).into_owned());
            }
        }
        true
    }
}

/// Reads the first `limit` lines of `src` (every line when None) with the
/// reader of `engine`, without its map.
pub fn sample(engine: &Engine, src: &Source, limit: Option<u64>) -> Result<Sample> {
    // One line more than the sample tells whether the sample is all.
    let engine = Engine {
        map: None,
        max_lines: limit.map(|l| l.saturating_add(1)),
        ..engine.clone()
    };
    let sources = std::slice::from_ref(src);
    let mut s = Sample {
        records: Vec::new(),
        count: 0,
        complete: true,
        dialect: &dialect::native::NATIVE,
        whole: false,
        shapes: Vec::new(),
        modified: input::modified(src),
    };
    std::thread::scope(|scope| {
        let (work_tx, work_rx) = sync_channel::<Work>(1);
        let (permit_tx, permit_rx) = sync_channel::<()>(2);
        let (_, recycle_rx) = sync_channel::<input::Buf>(1);
        permit_tx.send(()).expect("receiver is alive");
        let engine = &engine;
        scope.spawn(move || {
            read_all(
                engine,
                sources,
                Arc::new(AtomicU64::new(0)),
                work_tx,
                permit_rx,
                recycle_rx,
            )
        });
        let mut physical = 0;
        let mut first = true;
        while let Ok(work) = work_rx.recv() {
            let unit = match work {
                Work::Unit(_, unit) => unit,
                Work::Failed(_, e, _) => return Err(e),
            };
            let (d, whole, notes) = match &*unit {
                Unit::Lines(block, d) => (*d, false, &block.notes),
                Unit::Document { dialect, notes, .. } => (*dialect, true, notes),
            };
            if std::mem::take(&mut first) {
                (s.dialect, s.whole) = (d, whole);
            }
            s.shapes.extend(notes.iter().copied());
            if let Unit::Lines(block, _) = &*unit
                && !s.add_lines(block, &mut physical, limit)
            {
                s.complete = false;
                break;
            }
            // The reader waits for a permit before each unit it sends.
            if permit_tx.send(()).is_err() {
                break;
            }
        }
        Ok(())
    })?;
    Ok(s)
}

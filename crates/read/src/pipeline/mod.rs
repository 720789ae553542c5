//! The engine: sources → blocks → turns → graded rows → accumulators.
//!
//! A reader thread cuts sources into blocks; worker threads parse and grade
//! each block into a fresh accumulator; the calling thread merges block
//! results strictly in input order. That order is what makes output,
//! de-duplication ("keep the first") and line numbers in messages identical
//! whatever the thread count. A window of permits bounds the blocks in
//! flight, so memory does not grow with the input.

// The set of de-duplication keys: at most 24 bytes a distinct turn.
use crate::dialect::{self, AssembleOptions, Assembled, Dialect, Record};
use crate::keyset::KeySet;

use crate::filter::Filter;

use crate::input::{self, Block, Blocks, Source};
use crate::markers::Grammar;
use crate::model::{Extras, Row, Turn};
use anyhow::Result;
use std::io::Write;
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

/// Where a row stands in the input: block sequence number and line in the block.
/// Later rows compare greater; used to break ties deterministically.
pub type Pos = (u64, u64);

/// The error `--max-invalid` raises when more lines than it allows were
/// invalid (exit 3); `merge` raises it over the sum of the partials.
pub fn too_many_invalid(invalid: u64, max: u64) -> anyhow::Error {
    crate::exit::input(format!(
        "{invalid} invalid line(s), more than --max-invalid {max}: refusing to judge a log that could not be read"
    ))
}

/// A graded row with its position in the input.
#[derive(Debug, Clone)]
pub struct Graded<'a> {
    pub row: Row<'a>,
    pub pos: Pos,
    /// What `explain`, `evidence` and `convert` need beyond the row; only
    /// when [`Engine::detail`] asks for it.
    pub detail: Option<Arc<Detail>>,
}

/// A turn in full, for the commands that show more than a row.
pub struct Detail {
    pub dialect: &'static dyn Dialect,
    /// Source index and line of the turn (its first record, for assembled turns).
    pub source: usize,
    pub line: u64,
    pub turn: Turn<'static>,
    pub extras: Extras,
    /// The assembled object, for dialects that assemble records.
    pub assembled: Option<Arc<dyn Assembled>>,
    /// The support checks in full: each citation's, each hint.
    pub support: crate::support::Analysis,
}

impl std::fmt::Debug for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Detail")
            .field("dialect", &self.dialect.name())
            .field("source", &self.source)
            .field("line", &self.line)
            .finish_non_exhaustive()
    }
}

/// Graded rows handed to the accumulator at a time: about 150 KB of
/// typical lines, so the strings a row borrows are still in the CPU cache
/// when the accumulator reads them (handing over a whole 4 MB block at its
/// end cost a cache miss per row: about 4 % of a one-thread `summary`).
pub const BATCH: usize = 64;

/// State that consumes graded rows block by block and merges with a later
/// instance of itself. Implementations must make `merge` associative and
/// order-aware so that any split of the input gives the same result.
pub trait Accumulator: Send + Sized {
    /// Consumes rows of one block, in input order (only rows that passed
    /// the filter). A block's rows may come in several consecutive calls:
    /// the result must be the same as one call with all of them.
    fn add_block(&mut self, rows: &[Graded<'_>]);
    /// Folds a later accumulator into this one.
    fn merge(&mut self, later: Self);
    /// How many rows [`Accumulator::add_block`] is handed at a time, at
    /// most (the last call of a block gets the rest): 64 by default, while
    /// the lines the rows borrow are in the cache. An accumulator that
    /// copies the rows it keeps (a page heap) asks for more, so that of a
    /// block's rows it copies only those that stay.
    fn batch(&self) -> usize {
        BATCH
    }
    /// Called before the sink receives a unit of lines from `source` that
    /// started after `offset` lines: details carry unit-relative lines until then.
    fn relocate(&mut self, _source: usize, _offset: u64) {}
}

/// Two accumulators fed the same rows: a run that needs both reads once.
impl<A: Accumulator, B: Accumulator> Accumulator for (A, B) {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.0.add_block(rows);
        self.1.add_block(rows);
    }
    fn merge(&mut self, later: Self) {
        self.0.merge(later.0);
        self.1.merge(later.1);
    }
    fn batch(&self) -> usize {
        self.0.batch().min(self.1.batch())
    }
    fn relocate(&mut self, source: usize, offset: u64) {
        self.0.relocate(source, offset);
        self.1.relocate(source, offset);
    }
}

pub use crate::input::InputStats;

/// Everything a run needs besides its accumulator, resolved once.
#[derive(Debug, Clone)]
pub struct Engine {
    /// `--markers`: the grammar for every source; None: each dialect's own.
    pub markers: Option<Grammar>,
    pub filter: Filter,
    pub dedupe: bool,
    pub threads: usize,
    pub max_line: u64,
    /// The largest whole document read into memory (`--max-document-bytes`).
    pub max_document: u64,
    pub strict: bool,
    /// `--input-format`: None decides per source by content.
    pub input_format: Option<&'static dyn Dialect>,
    /// Invalid lines printed on stderr before only a count is given.
    pub warn_limit: u64,
    /// Invalid lines above this fail the run (exit 3); None: never.
    pub max_invalid: Option<u64>,
    /// How record dialects assemble turns (`--agent-name`, `--retrievals`).
    pub assemble: AssembleOptions,
    /// Attach a [`Detail`] to every graded row (`explain`, `evidence`, `convert`).
    pub detail: bool,
    /// Records read without one of a turn's own before its group closes.
    pub assembly_window: u64,
    /// `--map`/`--map-file`: sources that would be read as the native log
    /// are read through this map.
    pub map: Option<&'static dialect::mapped::Mapped>,
    /// Read at most this many lines of each source (`inspect`'s sample).
    pub max_lines: Option<u64>,
    /// Print nothing on stderr (`inspect` reports warnings itself).
    pub silent: bool,
    /// A partial run (`--partial`): what can only be judged over the whole
    /// input — a `--map` pointer that resolves on no line, `--strict`'s
    /// misread check — is left to `merge`, which sees every partition
    /// (and `inspect` reports each mapping's coverage itself).
    pub deferred: bool,
    /// A source that holds records of which none reads as a turn is an
    /// input error naming what it looks like (the grading commands), not
    /// an empty result.
    pub require_turns: bool,
}

impl Engine {
    /// The dialect a source whose first block is `first` is read in, and
    /// whether it is read as one document: the detected (or forced) one, or
    /// the field map for sources the native log would read.
    pub fn dialect_for(&self, first: &[u8]) -> (&'static dyn Dialect, bool) {
        let d = dialect::detect(self.input_format, first);
        let d: &'static dyn Dialect = match self.map {
            Some(m) if d.name() == dialect::native::NATIVE.name() => m,
            _ => d,
        };
        (d, d.is_document(first))
    }

    /// The grammar a source of `dialect` is graded with.
    pub fn grammar_for(&self, dialect: &dyn Dialect) -> Grammar {
        self.markers.clone().unwrap_or_else(|| dialect.grammar())
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine {
            markers: None,
            filter: Filter::default(),
            dedupe: true,
            threads: 1,
            max_line: input::DEFAULT_MAX_LINE,
            max_document: input::DEFAULT_MAX_DOCUMENT,
            strict: false,
            input_format: None,
            warn_limit: 10,
            max_invalid: None,
            assemble: AssembleOptions::default(),
            detail: false,
            assembly_window: dialect::assembly::DEFAULT_WINDOW,
            map: None,
            max_lines: None,
            silent: false,
            deferred: false,
            require_turns: false,
        }
    }
}

/// 128-bit key of a turn id, for de-duplication in bounded memory: the set
/// keeps 16 bytes per distinct turn instead of the id itself.
fn id_key(id: &str) -> u128 {
    xxhash_rust::xxh3::xxh3_128(id.as_bytes())
}

/// One unit of work: a block of lines, or a whole-document source, with
/// the dialect it is read in.
pub enum Unit {
    Lines(Block, &'static dyn Dialect),
    Document {
        source: usize,
        data: Vec<u8>,
        dialect: &'static dyn Dialect,
        /// Shapes of the source worth a warning.
        notes: Vec<input::Shape>,
    },
}

/// What the reader hands to workers.
enum Work {
    Unit(u64, Arc<Unit>),
    /// Reading failed; with a source index, the merger adds where (`path:line`).
    Failed(u64, anyhow::Error, Option<usize>),
}

/// What processing one unit produced, before it is merged.
pub struct Done<A> {
    pub acc: A,
    pub stats: InputStats,
    pub source: usize,
    /// (line within the unit, reason) for each invalid line.
    pub invalid: Vec<(u64, String)>,
    /// De-duplication keys of the turns kept, with their line numbers.
    pub keys: Vec<(u128, u64)>,
    /// Records for assembly: (line within the unit, record).
    pub records: Vec<(u64, Record)>,
    /// Physical lines the unit spans (its `stats.lines` counts records).
    pub physical: u64,
    pub dialect: &'static dyn Dialect,
}

/// A unit's result, or a failure with the source it happened in (if known).
type DoneMsg<A> = (
    u64,
    std::result::Result<(Done<A>, Arc<Unit>), (anyhow::Error, Option<usize>)>,
);

/// Runs the engine over `sources`, handing each unit's accumulator to `sink`
/// in input order. Returns the input accounting.
pub fn run<A, F, S>(
    engine: &Engine,
    sources: &[Source],
    progress: Option<&indicatif::ProgressBar>,
    make: F,
    sink: S,
) -> Result<InputStats>
where
    A: Accumulator,
    F: Fn() -> A + Sync,
    S: FnMut(A) -> Result<()>,
{
    run_accounted(
        engine,
        sources,
        progress,
        make,
        sink,
        &mut InputStats::default(),
    )
}

/// [`run`], and on an error the accounting of what was read before it in
/// `accounted` (`check` reports it under its `FAIL input error` line).
pub fn run_accounted<A, F, S>(
    engine: &Engine,
    sources: &[Source],
    progress: Option<&indicatif::ProgressBar>,
    make: F,
    mut sink: S,
    accounted: &mut InputStats,
) -> Result<InputStats>
where
    A: Accumulator,
    F: Fn() -> A + Sync,
    S: FnMut(A) -> Result<()>,
{
    let threads = engine.threads.max(1);
    // Blocks in flight: one per worker plus two queued keeps workers busy and memory flat.
    let window = threads + 2;
    let counter = Arc::new(AtomicU64::new(0));
    std::thread::scope(|scope| {
        let (work_tx, work_rx) = sync_channel::<Work>(threads);
        let (done_tx, done_rx) = sync_channel::<DoneMsg<A>>(window);
        let (permit_tx, permit_rx) = sync_channel::<()>(window);
        let (recycle_tx, recycle_rx) = sync_channel::<input::Buf>(window);
        for _ in 0..window {
            permit_tx.send(()).expect("receiver is alive");
        }
        let reader_counter = counter.clone();
        scope.spawn(move || {
            read_all(
                engine,
                sources,
                reader_counter,
                work_tx,
                permit_rx,
                recycle_rx,
            )
        });
        let work_rx = Arc::new(Mutex::new(work_rx));
        for _ in 0..threads {
            let work_rx = work_rx.clone();
            let done_tx = done_tx.clone();
            let make = &make;
            scope.spawn(move || worker(engine, sources, work_rx, done_tx, make));
        }
        drop(done_tx);
        let merger = Merger {
            engine,
            sources,
            seen: KeySet::default(),
            total: InputStats::default(),
            shown: 0,
            current: None,
            offset: 0,
            recycle: recycle_tx,
            assembly: dialect::Assembly::new(engine.dedupe, engine.assembly_window),
            idle: Vec::new(),
            tally: vec![merge::Tally::default(); sources.len()],
        };
        merger.run(
            done_rx, permit_tx, progress, &counter, &make, &mut sink, accounted,
        )
    })
}

fn read_all(
    engine: &Engine,
    sources: &[Source],
    counter: Arc<AtomicU64>,
    tx: SyncSender<Work>,
    permits: Receiver<()>,
    recycle: Receiver<input::Buf>,
) {
    let mut out = Sender {
        tx: &tx,
        permits: &permits,
        seq: 0,
    };
    let mut pool = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        let (reader, utf16) = match input::open_decoded(src, counter.clone()) {
            Ok(r) => r,
            Err(e) => {
                let _ = tx.send(Work::Failed(out.seq, e, None));
                return;
            }
        };
        let mut blocks = Blocks::new(reader, i, engine.max_line);
        blocks.pool = std::mem::take(&mut pool);
        let Some(mut end) = read_blocks(engine, &mut out, &mut blocks, &recycle, i, utf16) else {
            return;
        };
        if end.cassette {
            end.modified = input::modified(src);
        }
        if !end.send(engine, &mut out, i) {
            return;
        }
        pool = std::mem::take(&mut blocks.pool);
    }
}

/// The reading thread's end of the work channel: units numbered in order,
/// each sent once a worker's permit is free.
struct Sender<'a> {
    tx: &'a SyncSender<Work>,
    permits: &'a Receiver<()>,
    seq: u64,
}

impl Sender<'_> {
    /// Sends one unit; false when the pipeline has stopped.
    fn send(&mut self, unit: Unit) -> bool {
        let ok = self.permits.recv().is_ok()
            && self.tx.send(Work::Unit(self.seq, Arc::new(unit))).is_ok();
        self.seq += 1;
        ok
    }

    /// Sends the failure of reading source `i`, in a unit's turn.
    fn fail(&self, e: anyhow::Error, i: usize) {
        let _ = self.permits.recv();
        let _ = self.tx.send(Work::Failed(self.seq, e, Some(i)));
    }
}

/// What reading the blocks of one source leaves to send at its end.
struct SourceEnd {
    /// The dialect of its lines, and whether it reads whole documents.
    dialect: Option<(&'static dyn Dialect, bool)>,
    /// A whole document, gathered block by block.
    document: Vec<u8>,
    notes: Vec<input::Shape>,
    /// A JSON array is read whole, then cut into one line per element;
    /// so is a document spread over lines that no document dialect reads.
    array: bool,
    spread: bool,
    /// A VCR cassette (YAML), gathered whole like a spread document, and
    /// when its file was written (the time of calls that recorded none).
    cassette: bool,
    modified: Option<chrono::DateTime<chrono::Utc>>,
    /// Lines still to read (`--max-lines`).
    left: Option<u64>,
}

/// Reads the blocks of source `i`, sending its line units as they come;
/// None when reading stopped (an error was sent, or the pipeline stopped).
fn read_blocks<R: std::io::Read>(
    engine: &Engine,
    out: &mut Sender<'_>,
    blocks: &mut Blocks<R>,
    recycle: &Receiver<input::Buf>,
    i: usize,
    utf16: bool,
) -> Option<SourceEnd> {
    let mut end = SourceEnd {
        dialect: None,
        document: Vec::new(),
        notes: Vec::new(),
        array: false,
        spread: false,
        cassette: false,
        modified: None,
        left: engine.max_lines,
    };
    loop {
        if end.left == Some(0) {
            break;
        }
        while let Ok(buf) = recycle.try_recv() {
            blocks.pool.push(buf);
        }
        let mut block = match blocks.next_block() {
            Ok(Some(b)) => b,
            Ok(None) => break,
            Err(e) => {
                out.fail(crate::exit::input(format!("read error: {e}")), i);
                return None;
            }
        };
        if block.first {
            end.first_block(engine, &block.data, utf16);
        }
        if end.array || end.spread {
            if !end.gather(engine, &block.data) {
                out.fail(too_large(engine), i);
                return None;
            }
            continue;
        }
        if let Some(n) = &mut end.left {
            cut_lines(&mut block, n);
        }
        let (d, whole) = *end.dialect.get_or_insert_with(|| {
            let found = engine.dialect_for(&block.data);
            blocks.limit(found.0.block_size());
            found
        });
        if !whole {
            block.notes = std::mem::take(&mut end.notes);
            if !out.send(Unit::Lines(block, d)) {
                return None;
            }
        } else if block.oversized.is_some() {
            let msg = "a line longer than --max-line-bytes in a whole-document export";
            out.fail(crate::exit::input(msg), i);
            return None;
        } else if !end.gather(engine, &block.data) {
            out.fail(too_large(engine), i);
            return None;
        }
    }
    Some(end)
}

impl SourceEnd {
    /// What the first block says of the source: UTF-16, a JSON array, a
    /// document spread over lines, or another shape to note.
    fn first_block(&mut self, engine: &Engine, data: &[u8], utf16: bool) {
        if utf16 {
            self.notes.push(input::Shape::Utf16);
        }
        match input::sniff_shape(data) {
            Some(input::Shape::JsonArray) => self.array = true,
            Some(shape) => self.notes.push(shape),
            None => {}
        }
        self.spread = !self.array && input::is_spread_object(data) && !engine.dialect_for(data).1;
        // A VCR cassette is gathered whole, like a spread document, and cut
        // into its interactions.
        self.cassette = !self.array && input::vcr::sniff(data);
        self.spread |= self.cassette;
    }

    /// Adds a block to the whole document; false when that makes it larger
    /// than `--max-document-bytes`.
    fn gather(&mut self, engine: &Engine, data: &[u8]) -> bool {
        self.document.extend_from_slice(data);
        self.document.len() as u64 <= engine.max_document
    }

    /// Sends what is left of source `i`: a whole document, or the lines of
    /// an array or spread document; false when the pipeline stopped.
    fn send(self, engine: &Engine, out: &mut Sender<'_>, i: usize) -> bool {
        if self.spread && engine.dialect_for(&self.document).1 {
            // The whole document tells its dialect where its first block
            // could not (a document larger than the block).
            let (d, _) = engine.dialect_for(&self.document);
            let unit = Unit::Document {
                source: i,
                data: self.document,
                dialect: d,
                notes: self.notes,
            };
            return out.send(unit);
        }
        if self.array || self.spread {
            return out.send(self.cut(engine, i));
        }
        match self.dialect {
            Some((d, true)) => out.send(Unit::Document {
                source: i,
                data: self.document,
                dialect: d,
                notes: self.notes,
            }),
            _ => true,
        }
    }

    /// The unit of an array or spread document of source `i`: cut into one
    /// line per element, or (not whole JSON after all) its lines as they are.
    fn cut(mut self, engine: &Engine, i: usize) -> Unit {
        // A HAR recording: its entries as recorded API calls, one a line.
        if let Some(lines) = (!self.array)
            .then(|| input::har::lines(&self.document))
            .flatten()
        {
            self.document = Vec::new();
            return self.lines(engine, i, lines);
        }
        // A VCR cassette: its interactions, likewise; one it cannot cut
        // is read as the lines it has.
        if self.cassette {
            let data = input::vcr::lines(&self.document, self.modified)
                .unwrap_or_else(|| std::mem::take(&mut self.document));
            return self.lines(engine, i, data);
        }
        let (shape, lines) = if self.array {
            (
                input::Shape::JsonArray,
                input::json_array_lines(&self.document),
            )
        } else {
            (
                input::Shape::JsonDocument,
                input::json_document_lines(&self.document),
            )
        };
        self.notes.push(shape);
        let data = match lines {
            Some(lines) => lines,
            // Not whole JSON after all: its lines are read as they are.
            None => {
                self.notes.retain(|n| *n != shape);
                std::mem::take(&mut self.document)
            }
        };
        self.lines(engine, i, data)
    }

    /// The unit of source `i` read as the lines `data`.
    fn lines(mut self, engine: &Engine, i: usize, data: Vec<u8>) -> Unit {
        let (d, whole) = engine.dialect_for(&data);
        if whole {
            return Unit::Document {
                source: i,
                data,
                dialect: d,
                notes: self.notes,
            };
        }
        let mut block = input::Block {
            source: i,
            data: data.into(),
            first: true,
            oversized: None,
            notes: self.notes,
        };
        if let Some(n) = &mut self.left {
            cut_lines(&mut block, n);
        }
        Unit::Lines(block, d)
    }
}

/// The error of a whole document past `--max-document-bytes`: how to
/// stream it instead.
fn too_large(engine: &Engine) -> anyhow::Error {
    crate::exit::input(format!(
        "one JSON document larger than --max-document-bytes ({}) is not read into memory: write it as JSON Lines and read that as a stream (jq -c '.[]' FILE for an array, jq -c '.observations[]' for a Langfuse trace download, jq -c '.data[]' for an API page), or raise --max-document-bytes",
        engine.max_document
    ))
}

/// Keeps at most `left` lines of `block`, counting them off.
fn cut_lines(block: &mut input::Block, left: &mut u64) {
    let mut kept = 0u64;
    let mut end = block.data.len();
    for (k, pos) in memchr::memchr_iter(b'\n', &block.data).enumerate() {
        if k as u64 + 1 == *left {
            end = pos + 1;
            kept = *left;
            break;
        }
        kept = k as u64 + 1;
    }
    if end == block.data.len() && !block.data.is_empty() && !block.data.ends_with(b"\n") {
        kept += 1;
    }
    block.data.truncate(end);
    *left = left.saturating_sub(kept.max(u64::from(block.oversized.is_some())));
}

fn worker<A: Accumulator>(
    engine: &Engine,
    sources: &[Source],
    rx: Arc<Mutex<Receiver<Work>>>,
    tx: SyncSender<DoneMsg<A>>,
    make: &(dyn Fn() -> A + Sync),
) {
    loop {
        let work = match rx.lock() {
            Ok(guard) => match guard.recv() {
                Ok(w) => w,
                Err(_) => return,
            },
            Err(_) => return,
        };
        let msg = match work {
            Work::Unit(seq, unit) => (
                seq,
                process(engine, sources, &unit, seq, make(), None)
                    .map(|d| (d, unit))
                    .map_err(|e| (e, None)),
            ),
            Work::Failed(seq, e, at) => (seq, Err((e, at))),
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// Prints a warning on stderr without tearing the progress bar; a closed stderr is ignored.
pub fn warn(progress: Option<&indicatif::ProgressBar>, msg: &str) {
    let print = || {
        let _ = writeln!(std::io::stderr(), "{}", crate::escape::terminal(msg));
    };
    match progress {
        Some(p) => p.suspend(print),
        None => print(),
    }
}

mod merge;

/// The first source that held records of which none read as a turn, as an
/// input error naming it and what it looks like (its first bytes, read
/// again from the source of that name in `sources`, or from the file of
/// that name when `sources` is None: `merge`, which has only names).
pub fn no_turn_read(
    tallies: &crate::input::SourceTallies,
    sources: Option<&[Source]>,
) -> Result<()> {
    let Some((name, [records, _])) = tallies.iter().find(|(_, [r, t])| *r > 0 && *t == 0) else {
        return Ok(());
    };
    let source = match sources {
        Some(all) => all.iter().find(|s| &s.name == name).cloned(),
        None => {
            let path = std::path::PathBuf::from(name);
            path.is_file().then(|| Source {
                name: name.clone(),
                path: Some(path),
            })
        }
    };
    let looks = match source.and_then(|s| input::head(&s, dialect::known::HEAD)) {
        Some(head) => dialect::known::describe(&head),
        None => "it cannot be read again to say what it looks like (standard input, or a file no longer there); the reasons of its invalid records are printed above".to_owned(),
    };
    Err(crate::exit::input(format!(
        "{name}: {records} record(s), none read as a turn: {looks}"
    )))
}
pub mod probe;
pub mod sample;
pub mod survey;
mod unit;

use merge::Merger;
pub use merge::{misread_strict, misread_subjects, unresolved_map};
pub use unit::process;

#[cfg(test)]
mod tests;

//! Sources and blocks: where bytes come from and how they are cut.
//!
//! Paths expand to files (directories are walked in sorted path order), `-`
//! or no path means stdin, and gzip or zstd streams are recognised by their
//! magic bytes, as Parquet files are (decoded to JSON Lines, one row a line:
//! [`parquet`]). Each source is cut into large blocks of whole lines.

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Target size of a block of a line dialect's source (the native log).
pub const BLOCK_SIZE: usize = 4 << 20;
/// Target size of a block of a record dialect's source: half of
/// [`BLOCK_SIZE`], since each block's parsed records stay in memory until the
/// merging thread has taken them (docs/performance.md, "Block sizes").
pub const RECORD_BLOCK_SIZE: usize = 2 << 20;
/// Default longest line (`--max-line-bytes`).
pub const DEFAULT_MAX_LINE: u64 = 64 << 20;
/// The largest whole JSON document read into memory, by default (4 GiB).
pub const DEFAULT_MAX_DOCUMENT: u64 = 4 << 30;

/// One input: a file or stdin.
#[derive(Debug, Clone)]
pub struct Source {
    /// How the source is named in messages (`-` is `<stdin>`).
    pub name: String,
    /// None for stdin.
    pub path: Option<PathBuf>,
}

/// When a file source was last written: None for stdin, or when the file
/// system does not say.
pub fn modified(source: &Source) -> Option<chrono::DateTime<chrono::Utc>> {
    let path = source.path.as_ref()?;
    let time = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(time.into())
}

/// The file names a directory walk picks up (Parquet: a bulk export's
/// `runs/year=…/…` tree).
pub fn is_log_name(name: &str) -> bool {
    [
        ".jsonl",
        ".jsonl.gz",
        ".jsonl.zst",
        ".ndjson",
        ".ndjson.gz",
        ".ndjson.zst",
        ".parquet",
    ]
    .iter()
    .any(|ext| name.ends_with(ext))
}

/// The document names a directory walk reads only when their content is a
/// log ([`expand`]'s `reads` says so): JSON documents, plain or compressed.
/// Named on the command line, any file is read.
pub fn is_document_name(name: &str) -> bool {
    [".json", ".json.gz", ".json.zst"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// The result of expanding the command-line paths.
#[derive(Debug, Default)]
pub struct Expanded {
    pub sources: Vec<Source>,
    /// Files found in directories that are not logs by name: reported, not read.
    pub ignored: Vec<PathBuf>,
}

/// Expands paths into sources. No path means stdin. In a directory, log
/// names are read, and documents ([`is_document_name`]) when `reads` finds
/// a log in them; every other file is `ignored`.
pub fn expand(paths: &[PathBuf], reads: &dyn Fn(&Source) -> bool) -> Result<Expanded> {
    let mut out = Expanded::default();
    if paths.is_empty() {
        out.sources.push(Source {
            name: "<stdin>".into(),
            path: None,
        });
        return Ok(out);
    }
    for p in paths {
        if p.as_os_str() == "-" {
            out.sources.push(Source {
                name: "<stdin>".into(),
                path: None,
            });
            continue;
        }
        let meta = std::fs::metadata(p)
            .map_err(|e| crate::exit::input(format!("{}: {e}", p.display())))?;
        if meta.is_dir() {
            let mut files = Vec::new();
            walk(p, &mut files, &mut Default::default())
                .map_err(|e| crate::exit::input(format!("{e:#}")))?;
            files.sort();
            for f in files {
                let name = f
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let source = Source {
                    name: f.display().to_string(),
                    path: Some(f),
                };
                if is_log_name(&name) || (is_document_name(&name) && reads(&source)) {
                    out.sources.push(source);
                } else {
                    out.ignored.extend(source.path);
                }
            }
        } else {
            out.sources.push(Source {
                name: p.display().to_string(),
                path: Some(p.clone()),
            });
        }
    }
    Ok(out)
}

/// Collects the files below `dir`, following symlinks. A directory reached
/// a second time (a symlink loop, or two links to one place) is walked once,
/// so a loop can neither hang the walk nor read a file twice through it.
fn walk(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    visited: &mut std::collections::HashSet<PathBuf>,
) -> Result<()> {
    let real = std::fs::canonicalize(dir)
        .with_context(|| format!("{}: cannot resolve directory", dir.display()))?;
    if !visited.insert(real) {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)
        .with_context(|| format!("{}: cannot list directory", dir.display()))?
    {
        let entry = entry.with_context(|| format!("{}: cannot list directory", dir.display()))?;
        let path = entry.path();
        let ft = entry
            .file_type()
            .with_context(|| format!("{}: cannot stat", path.display()))?;
        if ft.is_dir() || (ft.is_symlink() && path.is_dir()) {
            walk(&path, out, visited)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Total size in bytes of the file sources (for the progress bar).
pub fn total_bytes(sources: &[Source]) -> Option<u64> {
    let mut total = 0;
    for s in sources {
        total += std::fs::metadata(s.path.as_ref()?).ok()?.len();
    }
    Some(total)
}

/// Counts bytes read from the underlying file, for progress.
struct Counting<R> {
    inner: R,
    counter: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The first `n` bytes of a file source, decoded like its blocks (`None`
/// for stdin, which cannot be read twice, or a file that cannot be read).
pub fn head(source: &Source, n: usize) -> Option<Vec<u8>> {
    source.path.as_ref()?;
    let reader = open(source, Arc::new(AtomicU64::new(0))).ok()?;
    let mut head = Vec::new();
    reader.take(n as u64).read_to_end(&mut head).ok()?;
    Some(head)
}

/// Opens a source, wrapping it in a decompressor when its first bytes say so.
pub fn open(source: &Source, counter: Arc<AtomicU64>) -> Result<Box<dyn Read + Send>> {
    open_decoded(source, counter).map(|(r, _)| r)
}

/// Opens a source like [`open`], and decodes UTF-16 (recognised by its
/// byte-order mark, or by a `{` followed or preceded by a zero byte) to
/// UTF-8; the flag says whether it did.
pub fn open_decoded(
    source: &Source,
    counter: Arc<AtomicU64>,
) -> Result<(Box<dyn Read + Send>, bool)> {
    let mut reader = io::BufReader::with_capacity(1 << 16, open_raw(source, counter)?);
    // A stream that fails this early fails again when its blocks are read,
    // where the error is reported at its line.
    let magic = io::BufRead::fill_buf(&mut reader).unwrap_or(&[]);
    let big = match magic {
        [0xFF, 0xFE, ..] | [b'{', 0, ..] => Some(false),
        [0xFE, 0xFF, ..] | [0, b'{', ..] => Some(true),
        _ => None,
    };
    Ok(match big {
        Some(big) => (Box::new(Utf16::new(reader, big)), true),
        None => (Box::new(reader), false),
    })
}

/// UTF-16 (either byte order) decoded to UTF-8; a byte-order mark is
/// dropped, and an unpaired surrogate becomes U+FFFD.
pub struct Utf16<R> {
    inner: R,
    big: bool,
    /// Bytes read but not yet decoded (an odd byte, a lone high surrogate).
    raw: Vec<u8>,
    out: Vec<u8>,
    at: usize,
    start: bool,
    eof: bool,
}

impl<R: Read> Utf16<R> {
    pub fn new(inner: R, big: bool) -> Self {
        Utf16 {
            inner,
            big,
            raw: Vec::new(),
            out: Vec::new(),
            at: 0,
            start: true,
            eof: false,
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.at = 0;
        while self.out.is_empty() && !self.eof {
            let mut buf = [0u8; 1 << 16];
            let n = read_some(&mut self.inner, &mut buf)?;
            self.raw.extend_from_slice(&buf[..n]);
            self.eof = n == 0;
            let whole = self.raw.len() / 2 * 2;
            let mut units: Vec<u16> = self.raw[..whole]
                .chunks_exact(2)
                .map(|p| {
                    if self.big {
                        u16::from_be_bytes([p[0], p[1]])
                    } else {
                        u16::from_le_bytes([p[0], p[1]])
                    }
                })
                .collect();
            let mut keep = whole;
            // A high surrogate at the end waits for its pair, unless input ended.
            if !self.eof && units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
                units.pop();
                keep -= 2;
            }
            self.raw.drain(..keep);
            if self.start && units.first() == Some(&0xFEFF) {
                units.remove(0);
            }
            if !units.is_empty() {
                self.start = false;
            }
            let text: String = char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect();
            self.out.extend_from_slice(text.as_bytes());
            if self.eof && !self.raw.is_empty() {
                self.raw.clear();
                self.out.extend_from_slice("\u{FFFD}".as_bytes());
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for Utf16<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.out.len() {
            self.fill()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A file shape worth a warning: read after conversion (a JSON array, UTF-16)
/// or not read at all (CSV). Parquet is decoded at the source and needs none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    JsonArray,
    /// One JSON document spread over lines (pretty-printed), not a
    /// document dialect: read one top-level value per line.
    JsonDocument,
    Utf16,
    Csv,
}

impl Shape {
    /// The warning's subject.
    pub fn subject(self) -> &'static str {
        match self {
            Shape::JsonArray => "json_array",
            Shape::JsonDocument => "json_document",
            Shape::Utf16 => "utf16",
            Shape::Csv => "csv",
        }
    }

    /// The warning's message: what was done and the fix.
    pub fn message(self) -> &'static str {
        match self {
            Shape::JsonArray => {
                "is one JSON array, not JSON Lines: read element by element (an element's number stands for its line); write one object per line (jq -c '.[]' FILE) to stream it"
            }
            Shape::JsonDocument => {
                "is one JSON document spread over lines (pretty-printed), not JSON Lines: read whole, one record per top-level value (a value's number stands for its line); write it compact (jq -c . FILE) to stream it"
            }
            Shape::Utf16 => {
                "is UTF-16: decoded and read; re-encode as UTF-8 (iconv -f UTF-16 -t UTF-8) for speed"
            }
            Shape::Csv => {
                "looks like CSV: not read (every line is invalid); convert it to JSON Lines, one object per row, then run `grounding-audit inspect` on the result for the --map it needs"
            }
        }
    }
}

/// What the first bytes of a (decompressed, decoded) source look like
/// beyond JSON Lines; None for JSON Lines or anything else.
pub fn sniff_shape(first: &[u8]) -> Option<Shape> {
    let data = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    let start = data.iter().position(|b| !b.is_ascii_whitespace())?;
    let data = &data[start..];
    if data[0] == b'[' {
        let next = data[1..].iter().find(|b| !b.is_ascii_whitespace());
        return matches!(next, Some(b'{' | b']')).then_some(Shape::JsonArray);
    }
    if data[0] == b'{' {
        return None;
    }
    // A CSV header: comma-separated names, at least two.
    let header = memchr::memchr(b'\n', data).map_or(data, |e| &data[..e]);
    let header = header.strip_suffix(b"\r").unwrap_or(header);
    let names: Vec<&[u8]> = header.split(|&b| b == b',').collect();
    let name_like = |n: &&[u8]| {
        let n = n
            .strip_prefix(b"\"")
            .and_then(|n| n.strip_suffix(b"\""))
            .unwrap_or(n);
        !n.is_empty()
            && n.len() <= 64
            && n.iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b' '))
    };
    (names.len() >= 2 && names.iter().all(name_like)).then_some(Shape::Csv)
}

/// True when `first` starts a JSON object whose first line does not hold a
/// whole JSON value (a pretty-printed document), and holds a line break.
pub fn is_spread_object(first: &[u8]) -> bool {
    let data = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    let Some(start) = data.iter().position(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    let data = &data[start..];
    if data[0] != b'{' {
        return false;
    }
    match memchr::memchr(b'\n', data) {
        Some(end) => serde_json::from_slice::<serde::de::IgnoredAny>(&data[..end]).is_err(),
        None => false,
    }
}

/// The top-level JSON values of `data`, one per line (newlines inside a
/// value can only be whitespace, so they become spaces); None when `data`
/// is not a sequence of whole JSON values.
pub fn json_document_lines(data: &[u8]) -> Option<Vec<u8>> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let text = std::str::from_utf8(data).ok()?;
    let mut out = Vec::with_capacity(data.len());
    for value in
        serde_json::Deserializer::from_str(text).into_iter::<&serde_json::value::RawValue>()
    {
        let value = value.ok()?;
        out.extend(
            value
                .get()
                .bytes()
                .map(|b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
        );
        out.push(b'\n');
    }
    Some(out)
}

/// The elements of a JSON array, one per line (newlines inside an element
/// can only be whitespace, so they become spaces); None when `data` is not
/// a JSON array.
pub fn json_array_lines(data: &[u8]) -> Option<Vec<u8>> {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let text = std::str::from_utf8(data).ok()?;
    let items: Vec<&serde_json::value::RawValue> = serde_json::from_str(text).ok()?;
    let mut out = Vec::with_capacity(data.len());
    for item in items {
        out.extend(
            item.get()
                .bytes()
                .map(|b| if b == b'\n' || b == b'\r' { b' ' } else { b }),
        );
        out.push(b'\n');
    }
    Some(out)
}

/// The file or stdin, decompressed when its first bytes say so.
fn open_raw(source: &Source, counter: Arc<AtomicU64>) -> Result<Box<dyn Read + Send>> {
    let raw: Box<dyn Read + Send> = match &source.path {
        None => Box::new(io::stdin()),
        Some(p) => Box::new(
            File::open(p).map_err(|e| crate::exit::input(format!("{}: {e}", p.display())))?,
        ),
    };
    let mut reader = io::BufReader::with_capacity(
        1 << 16,
        Counting {
            inner: raw,
            counter,
        },
    );
    let magic = io::BufRead::fill_buf(&mut reader)
        .with_context(|| format!("{}: cannot read", source.name))?;
    let parquet_error = |e: io::Error| crate::exit::input(format!("{}: {e}", source.name));
    Ok(if magic.starts_with(parquet::MAGIC) {
        // Parquet needs random access: a file is read in place, row group by
        // row group; stdin is read whole first.
        match &source.path {
            Some(p) => {
                let file = File::open(p)
                    .map_err(|e| crate::exit::input(format!("{}: {e}", p.display())))?;
                Box::new(parquet::ParquetLines::new(file).map_err(parquet_error)?)
            }
            None => Box::new(parquet::from_reader(reader).map_err(parquet_error)?),
        }
    } else if magic.starts_with(&[0x1f, 0x8b]) {
        Box::new(flate2::read::MultiGzDecoder::new(reader))
    } else if magic.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(
            zstd::stream::read::Decoder::with_buffer(reader)
                .with_context(|| format!("{}: bad zstd stream", source.name))?,
        )
    } else {
        Box::new(reader)
    })
}

/// A run of whole lines from one source.
#[derive(Debug)]
pub struct Block {
    /// Index into the source list.
    pub source: usize,
    /// Whole lines; the last may lack its newline only at end of input.
    pub data: Buf,
    /// True for the first block of a source (a byte-order mark may lead it).
    pub first: bool,
    /// A line longer than the limit: the block stands for that one line,
    /// whose bytes were skipped and not kept.
    pub oversized: Option<u64>,
    /// Shapes of the source worth a warning, on its first block only.
    pub notes: Vec<Shape>,
}

/// Cuts a reader into blocks of whole lines. Line numbers are not counted
/// here: workers count the lines they split anyway, and the merger adds
/// them up in order.
pub struct Blocks<R> {
    reader: R,
    source: usize,
    carry: Vec<u8>,
    first: bool,
    eof: bool,
    max_line: u64,
    /// A read error met after some whole lines: those lines go out first,
    /// the error with the next call, so it is reported at the right line.
    failed: Option<io::Error>,
    /// Buffers handed back after use, so blocks reuse memory that is
    /// already mapped instead of faulting in fresh pages.
    pub pool: Vec<Buf>,
    /// The size of the next block: a source's first blocks are small and
    /// grow fourfold to [`BLOCK_SIZE`], so a small file costs no 4 MB
    /// buffer (zeroing one was two thirds of reading a one-line log).
    size: usize,
    /// The size blocks grow to: [`BLOCK_SIZE`] unless [`Blocks::limit`]
    /// set less (a line longer than it still makes a longer block).
    max: usize,
}

/// The first block of a source.
const FIRST_BLOCK: usize = 64 << 10;

impl<R: Read> Blocks<R> {
    pub fn new(reader: R, source: usize, max_line: u64) -> Self {
        Blocks {
            reader,
            source,
            carry: Vec::new(),
            first: true,
            eof: false,
            max_line,
            failed: None,
            pool: Vec::new(),
            size: FIRST_BLOCK,
            max: BLOCK_SIZE,
        }
    }

    /// Lets the blocks to come grow to `max` bytes, not [`BLOCK_SIZE`]
    /// (never below the first block's size).
    pub fn limit(&mut self, max: usize) {
        self.max = max.max(FIRST_BLOCK);
        self.size = self.size.min(self.max);
    }

    fn emit(&mut self, data: Buf, oversized: Option<u64>) -> Block {
        let block = Block {
            source: self.source,
            data,
            first: self.first,
            oversized,
            notes: Vec::new(),
        };
        self.first = false;
        block
    }

    /// Reads until a newline, discarding, for a line over the limit.
    fn skip_line(&mut self) -> io::Result<u64> {
        let mut skipped = self.carry.len() as u64;
        self.carry.clear();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = read_some(&mut self.reader, &mut buf)?;
            if n == 0 {
                self.eof = true;
                return Ok(skipped);
            }
            if let Some(pos) = memchr::memchr(b'\n', &buf[..n]) {
                self.carry.extend_from_slice(&buf[pos + 1..n]);
                return Ok(skipped + pos as u64);
            }
            skipped += n as u64;
        }
    }

    /// The next block, or None at end of input.
    pub fn next_block(&mut self) -> io::Result<Option<Block>> {
        loop {
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            if self.eof {
                if self.carry.is_empty() {
                    return Ok(None);
                }
                let data = std::mem::take(&mut self.carry);
                return Ok(Some(self.emit(data.into(), None)));
            }
            let want = self.size.max(self.carry.len() * 2);
            self.size = (self.size * 4).min(self.max);
            // A pooled buffer too small for this block is dropped.
            let mut buf = match self.pool.pop() {
                Some(b) if b.capacity() >= want => b,
                _ => Buf::with_capacity(want),
            };
            buf.clear();
            buf.extend_from_slice(&self.carry);
            self.carry.clear();
            while buf.len() < want {
                match read_some(&mut self.reader, buf.spare(want)) {
                    Ok(0) => {
                        self.eof = true;
                        break;
                    }
                    Ok(n) => buf.filled(n),
                    // A truncated or corrupt stream: hand out the whole lines
                    // read so far; the error follows at the line it broke.
                    Err(e) => match memchr::memrchr(b'\n', &buf) {
                        Some(pos) => {
                            self.failed = Some(e);
                            buf.truncate(pos + 1);
                            return Ok(Some(self.emit(buf, None)));
                        }
                        None => return Err(e),
                    },
                }
            }
            match memchr::memrchr(b'\n', &buf) {
                Some(pos) => {
                    // At end of input the last line may lack its newline: keep it in this block.
                    if !self.eof {
                        self.carry.extend_from_slice(&buf[pos + 1..]);
                        buf.truncate(pos + 1);
                    }
                    return Ok(Some(self.emit(buf, None)));
                }
                None if buf.is_empty() => return Ok(None),
                None if buf.len() as u64 > self.max_line => {
                    let n = if self.eof {
                        buf.len() as u64
                    } else {
                        self.carry = buf.to_vec();
                        self.skip_line()?
                    };
                    return Ok(Some(self.emit(Buf::default(), Some(n))));
                }
                None if self.eof => return Ok(Some(self.emit(buf, None))),
                None => {
                    // A line longer than a block: keep reading into a bigger buffer.
                    self.carry.extend_from_slice(&buf);
                    buf.clear();
                    self.pool.push(buf);
                }
            }
        }
    }
}

fn read_some(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// Strips a trailing `\r` (CRLF files) and, on the first line of a source, a byte-order mark.
pub fn clean_line(mut line: &[u8], first_of_source: bool) -> &[u8] {
    if first_of_source {
        line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    }
    line.strip_suffix(b"\r").unwrap_or(line)
}

mod buf;
pub mod eventstream;
pub mod har;
pub mod parquet;
mod stats;
pub mod vcr;

pub use buf::Buf;
pub use stats::{InputStats, Probe, SourceTallies};

#[cfg(test)]
mod tests;

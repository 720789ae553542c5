//! Sources and blocks: where bytes come from and how they are cut.
//!
//! Paths expand to files (directories are walked in sorted path order), `-`
//! or no path means stdin, and gzip or zstd streams are recognised by their
//! magic bytes. Each source is cut into large blocks of whole lines. This
//! module knows nothing of JSON.

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Target size of a block.
pub const BLOCK_SIZE: usize = 4 << 20;
/// Default longest line (`--max-line-bytes`).
pub const DEFAULT_MAX_LINE: u64 = 64 << 20;

/// One input: a file or stdin.
#[derive(Debug, Clone)]
pub struct Source {
    /// How the source is named in messages (`-` is `<stdin>`).
    pub name: String,
    /// None for stdin.
    pub path: Option<PathBuf>,
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

/// The result of expanding the command-line paths.
#[derive(Debug, Default)]
pub struct Expanded {
    pub sources: Vec<Source>,
    /// Files found in directories that are not logs by name: reported, not read.
    pub ignored: Vec<PathBuf>,
}

/// Expands paths into sources. No path means stdin.
pub fn expand(paths: &[PathBuf]) -> Result<Expanded> {
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
                if is_log_name(&name) {
                    out.sources.push(Source {
                        name: f.display().to_string(),
                        path: Some(f),
                    });
                } else {
                    out.ignored.push(f);
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

/// Opens a source, wrapping it in a decompressor when its first bytes say so.
pub fn open(source: &Source, counter: Arc<AtomicU64>) -> Result<Box<dyn Read + Send>> {
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
    Ok(if magic.starts_with(&[0x1f, 0x8b]) {
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
    pub data: Vec<u8>,
    /// True for the first block of a source (a byte-order mark may lead it).
    pub first: bool,
    /// A line longer than the limit: the block stands for that one line,
    /// whose bytes were skipped and not kept.
    pub oversized: Option<u64>,
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
    pub pool: Vec<Vec<u8>>,
}

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
        }
    }

    fn emit(&mut self, data: Vec<u8>, oversized: Option<u64>) -> Block {
        let block = Block {
            source: self.source,
            data,
            first: self.first,
            oversized,
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
                return Ok(Some(self.emit(data, None)));
            }
            let want = BLOCK_SIZE.max(self.carry.len() * 2);
            let mut buf = self.pool.pop().unwrap_or_default();
            if buf.len() < want {
                // Zeroing happens only when a buffer first grows.
                buf.resize(want, 0);
            }
            let start = self.carry.len();
            buf[..start].copy_from_slice(&self.carry);
            self.carry.clear();
            let mut filled = start;
            while filled < want {
                match read_some(&mut self.reader, &mut buf[filled..want]) {
                    Ok(0) => {
                        self.eof = true;
                        break;
                    }
                    Ok(n) => filled += n,
                    // A truncated or corrupt stream: hand out the whole lines
                    // read so far; the error follows at the line it broke.
                    Err(e) => match memchr::memrchr(b'\n', &buf[..filled]) {
                        Some(pos) => {
                            self.failed = Some(e);
                            buf.truncate(pos + 1);
                            return Ok(Some(self.emit(buf, None)));
                        }
                        None => return Err(e),
                    },
                }
            }
            buf.truncate(filled);
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
                        self.carry = buf;
                        self.skip_line()?
                    };
                    return Ok(Some(self.emit(Vec::new(), Some(n))));
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

#[cfg(test)]
mod tests;

//! Unit tests for cutting sources into blocks: read errors, long lines,
//! missing final newlines.

use super::*;

/// Yields `data`, then fails (a truncated or corrupt compressed stream).
struct FailsAfter {
    data: Vec<u8>,
    at: usize,
}

impl Read for FailsAfter {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.data.len() {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "stream cut"));
        }
        let n = buf.len().min(self.data.len() - self.at).min(7);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[test]
fn whole_lines_before_a_read_error_come_out_first() {
    let r = FailsAfter {
        data: b"one\ntwo\nthr".to_vec(),
        at: 0,
    };
    let mut b = Blocks::new(r, 0, DEFAULT_MAX_LINE);
    let first = b.next_block().unwrap().unwrap();
    assert_eq!(&first.data[..], b"one\ntwo\n");
    let e = b.next_block().unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
}

#[test]
fn a_read_error_before_any_whole_line_is_an_error_at_once() {
    let r = FailsAfter {
        data: b"partial".to_vec(),
        at: 0,
    };
    let mut b = Blocks::new(r, 0, DEFAULT_MAX_LINE);
    assert!(b.next_block().is_err());
}

#[test]
fn the_last_line_may_lack_its_newline() {
    let mut b = Blocks::new(&b"a\nb"[..], 0, DEFAULT_MAX_LINE);
    let block = b.next_block().unwrap().unwrap();
    assert_eq!(&block.data[..], b"a\nb");
    assert!(block.first);
    assert!(b.next_block().unwrap().is_none());
}

#[test]
fn clean_line_strips_bom_only_on_the_first_line_and_cr_always() {
    assert_eq!(clean_line(b"\xEF\xBB\xBF{}\r", true), b"{}");
    assert_eq!(clean_line(b"\xEF\xBB\xBF{}\r", false), b"\xEF\xBB\xBF{}");
    assert_eq!(clean_line(b"x\r\r", false), b"x\r");
}

#[test]
fn symlink_loops_in_a_directory_are_walked_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("logs");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("a.jsonl"), b"{}\n").unwrap();
    std::fs::write(root.join("sub/b.jsonl"), b"{}\n").unwrap();
    std::os::unix::fs::symlink("..", root.join("sub/up")).unwrap();
    std::os::unix::fs::symlink(".", root.join("self")).unwrap();
    let e = expand(std::slice::from_ref(&root), &|_| false).unwrap();
    let mut names: Vec<_> = e
        .sources
        .iter()
        .map(|s| {
            s.path
                .as_ref()
                .unwrap()
                .strip_prefix(&root)
                .unwrap()
                .to_owned()
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [PathBuf::from("a.jsonl"), PathBuf::from("sub/b.jsonl")]
    );
}

/// Gives at most `step` bytes a read.
struct Chunked<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.data.len()).min(self.step);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Blocks hold whole lines and give back the input byte for byte, with
/// lines longer than the first blocks and than a full block (the buffer
/// grows past [`BLOCK_SIZE`]), whether buffers come back to the pool or not.
#[test]
fn blocks_cut_any_line_lengths_into_whole_lines() {
    let mut input = Vec::new();
    for (i, len) in [10, 70_000, 5, 300_000, 3, BLOCK_SIZE + 123, 7, 1_500_000]
        .into_iter()
        .chain((0..40_000).map(|i| 40 + i % 300))
        .enumerate()
    {
        input.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, len));
        input.push(b'\n');
    }
    input.extend_from_slice(b"last line without newline");
    for recycle in [false, true] {
        let mut b = Blocks::new(
            Chunked {
                data: &input,
                step: 777_777,
            },
            0,
            DEFAULT_MAX_LINE,
        );
        let mut out = Vec::new();
        let mut blocks = 0;
        while let Some(block) = b.next_block().unwrap() {
            assert!(block.oversized.is_none());
            assert_eq!(block.first, blocks == 0);
            out.extend_from_slice(&block.data);
            if out.len() < input.len() {
                assert!(block.data.ends_with(b"\n"), "block {blocks} cuts a line");
            }
            if recycle {
                b.pool.push(block.data);
            }
            blocks += 1;
        }
        assert!(blocks > 4, "{blocks} blocks");
        assert!(
            out == input,
            "recycle {recycle}: the blocks differ from the input"
        );
    }
}

/// A line that outgrows the limit before its newline is read stands as
/// one block of its length, with no bytes; the lines around it are read
/// whole. (A shorter line over the limit is read, and the worker rejects it.)
#[test]
fn a_line_over_the_limit_is_skipped_as_one_block() {
    let mut input = b"short\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 2_000_000));
    input.extend_from_slice(b"\nafter\n");
    let mut b = Blocks::new(
        Chunked {
            data: &input,
            step: 4096,
        },
        0,
        100_000,
    );
    let (mut lines, mut over) = (Vec::new(), Vec::new());
    while let Some(block) = b.next_block().unwrap() {
        match block.oversized {
            Some(n) => over.push((block.data.len(), n)),
            None => lines.extend(
                block
                    .data
                    .split(|&c| c == b'\n')
                    .filter(|l| !l.is_empty())
                    .map(|l| String::from_utf8_lossy(&l[..l.len().min(20)]).into_owned()),
            ),
        }
    }
    assert_eq!(lines, ["short", "after"]);
    assert_eq!(over, [(0, 2_000_000)]);
}

/// A limit set after the first block caps the blocks that follow (a record
/// dialect's), a longer line still makes a longer block, and the input
/// comes back byte for byte.
#[test]
fn a_limit_caps_the_blocks_that_follow() {
    const LIMIT: usize = 300_000;
    let mut input = Vec::new();
    for i in 0..20_000 {
        input.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, 50 + i % 200));
        input.push(b'\n');
    }
    let long_at = input.len();
    input.extend(std::iter::repeat_n(b'z', LIMIT + 5_000));
    input.extend_from_slice(b"\nend\n");
    let mut b = Blocks::new(
        Chunked {
            data: &input,
            step: 1 << 20,
        },
        0,
        DEFAULT_MAX_LINE,
    );
    let (mut out, mut sizes) = (Vec::new(), Vec::new());
    while let Some(block) = b.next_block().unwrap() {
        if sizes.is_empty() {
            b.limit(LIMIT);
        }
        sizes.push(block.data.len());
        out.extend_from_slice(&block.data);
        b.pool.push(block.data);
    }
    assert!(out == input, "the blocks differ from the input");
    let over: Vec<usize> = sizes.iter().copied().filter(|&n| n > LIMIT).collect();
    assert_eq!(
        over.len(),
        1,
        "only the long line's block is over: {sizes:?}"
    );
    assert!(over[0] > LIMIT + 5_000 && over[0] < input.len() - long_at + LIMIT);
    assert!(sizes.len() > input.len() / LIMIT, "{sizes:?}");
}

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
    let e = expand(std::slice::from_ref(&root)).unwrap();
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

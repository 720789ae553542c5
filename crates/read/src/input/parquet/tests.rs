//! Corrupt Parquet files: one byte changed at offsets spread over every
//! column chunk (dictionary and data pages with their headers) of every row
//! group, read through [`crate::input::open_decoded`] as every command reads
//! a file. Each read gives an error naming the row group, or every row:
//! never fewer. (A byte changed inside a compressed literal can change a
//! value and nothing else: without page checksums, which these exports do
//! not write, no reader can tell; the rows of the other row groups are then
//! still exactly the original's.)

use super::*;
use crate::input::{Source, open_decoded};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

fn fixture(rel: &str) -> PathBuf {
    Path::new(crate::test_support::ROOT).join(rel)
}

/// The file's lines as every command reads them, or the error it stops with.
fn read_lines(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let source = Source {
        name: path.display().to_string(),
        path: Some(path.to_path_buf()),
    };
    let (mut r, _) =
        open_decoded(&source, Arc::new(AtomicU64::new(0))).map_err(|e| format!("{e:#}"))?;
    let mut out = Vec::new();
    r.read_to_end(&mut out).map_err(|e| e.to_string())?;
    Ok(out.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect())
}

/// A row group's rows (as line indexes) and its column chunks' byte ranges.
type Group = (std::ops::Range<usize>, Vec<(u64, u64)>);

/// Each row group's [`Group`].
fn layout(data: &[u8]) -> Vec<Group> {
    let reader = SerializedFileReader::new(Bytes::from(data.to_vec())).unwrap();
    let mut first = 0;
    let mut out = Vec::new();
    for rg in reader.metadata().row_groups() {
        let rows = first..first + rg.num_rows() as usize;
        first = rows.end;
        out.push((rows, rg.columns().iter().map(|c| c.byte_range()).collect()));
    }
    out
}

/// Tallies of one file's corruptions: errors, reads equal to the original,
/// reads with a value changed.
fn corrupt_each_row_group(rel: &str) -> (usize, usize, usize) {
    let path = fixture(rel);
    let data = std::fs::read(&path).unwrap();
    let good = read_lines(&path).unwrap();
    let groups = layout(&data);
    assert!(groups.len() > 1, "{rel}: several row groups");
    let dir = tempfile::tempdir().unwrap();
    let bad_path = dir.path().join("corrupt.parquet");
    let (mut errors, mut same, mut changed) = (0, 0, 0);
    for (g, (rows, chunks)) in groups.iter().enumerate() {
        for &(start, len) in chunks {
            for k in 0..6 {
                let at = (start + len * k / 6 + 5).min(start + len - 1) as usize;
                let mut bad = data.clone();
                bad[at] ^= 0x5a;
                std::fs::write(&bad_path, &bad).unwrap();
                match read_lines(&bad_path) {
                    Err(e) => {
                        let group = format!("row group {}:", g + 1);
                        assert!(e.contains(&group), "{rel} byte {at}: {e}");
                        errors += 1;
                    }
                    Ok(lines) if lines == good => same += 1,
                    Ok(lines) => {
                        assert_eq!(lines.len(), good.len(), "{rel} byte {at}: rows lost");
                        let outside = |l: &[Vec<u8>]| {
                            let (a, b) = (&l[..rows.start], &l[rows.end..]);
                            (a.to_vec(), b.to_vec())
                        };
                        assert_eq!(outside(&lines), outside(&good), "{rel} byte {at}");
                        changed += 1;
                    }
                }
            }
        }
    }
    (errors, same, changed)
}

#[test]
fn a_corrupt_row_group_is_an_error_never_fewer_rows() {
    for rel in [
        "fixtures/langsmith/runs.parquet",
        "fixtures/langfuse/observations_v2.parquet",
    ] {
        let (errors, same, changed) = corrupt_each_row_group(rel);
        eprintln!("{rel}: {errors} errors, {same} same rows, {changed} with a value changed");
        assert!(errors > 0 && same > 0, "{rel}");
    }
}

#[test]
fn a_reader_that_failed_keeps_failing() {
    let path = fixture("fixtures/langsmith/runs.parquet");
    let mut data = std::fs::read(&path).unwrap();
    let groups = layout(&data);
    // The first column chunk's page header: its sizes no longer read.
    let (start, _) = groups[0].1[0];
    data[start as usize + 1] ^= 0xff;
    let mut r = ParquetLines::new(Bytes::from(data)).unwrap();
    let mut buf = [0u8; 1024];
    let first = r.read(&mut buf).unwrap_err().to_string();
    assert!(first.starts_with("Parquet row group 1: "), "{first}");
    for _ in 0..3 {
        assert_eq!(r.read(&mut buf).unwrap_err().to_string(), first);
    }
}

//! The memory a block of lines is read into.
//!
//! A block buffer is an anonymous mapping rather than a heap vector, for two
//! reasons measured on 200 MB of native lines (two threads): the kernel hands
//! the mapping over zeroed, so no pass zeroes a fresh buffer here; and from
//! [`HUGE`] up the mapping is advised to be backed by transparent huge pages
//! (`MADV_HUGEPAGE`, Linux), so filling a 4 MiB buffer the first time takes
//! two page faults instead of 1,024 (a run took 8,179 page faults, most of
//! them the first touch of its five or six block buffers; with huge pages,
//! 3,122, and 6 % less CPU). Peak RSS does not change: a full block uses
//! all of its pages either way. Where mapping fails, and for bytes that come
//! from elsewhere (a JSON array cut into lines, tests), the buffer is a
//! vector.
//!
//! The mapping's advice is the safe subset of `madvise` that `memmap2`
//! offers, so this crate still has no `unsafe`. This is not a mapping of the
//! input file: the file is read into the buffer, and a file truncated while
//! it is read is a short read, never a fault.

use std::fmt;
use std::ops::Deref;

/// Buffers of at least this size are advised to use huge pages (2 MiB, the
/// x86-64 and arm64 huge page).
pub const HUGE: usize = 2 << 20;

/// Bytes `..len` of a fixed room: a block's whole lines.
#[derive(Default)]
pub struct Buf {
    room: Room,
    len: usize,
}

enum Room {
    Heap(Vec<u8>),
    Map(memmap2::MmapMut),
}

impl Default for Room {
    fn default() -> Self {
        Room::Heap(Vec::new())
    }
}

impl Buf {
    /// An empty buffer with room for `cap` bytes.
    pub fn with_capacity(cap: usize) -> Buf {
        let room = match memmap2::MmapMut::map_anon(cap.max(1)) {
            Ok(map) => {
                if cap >= HUGE {
                    advise_huge(&map);
                }
                Room::Map(map)
            }
            Err(_) => Room::Heap(vec![0; cap]),
        };
        Buf { room, len: 0 }
    }

    /// Bytes it can hold.
    pub fn capacity(&self) -> usize {
        match &self.room {
            Room::Heap(v) => v.len(),
            Room::Map(m) => m.len(),
        }
    }

    /// Keeps the first `n` bytes (all of them when there are fewer).
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    /// Empties it, keeping its room.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends `data`, which must fit in the room left.
    pub fn extend_from_slice(&mut self, data: &[u8]) {
        let start = self.len;
        self.spare(start + data.len()).copy_from_slice(data);
        self.len += data.len();
    }

    /// The room after the bytes held, up to `end`, to read into; then
    /// [`Buf::filled`] with what was read.
    pub fn spare(&mut self, end: usize) -> &mut [u8] {
        let start = self.len;
        match &mut self.room {
            Room::Heap(v) => &mut v[start..end],
            Room::Map(m) => &mut m[start..end],
        }
    }

    /// Counts `n` more bytes as held (written through [`Buf::spare`]).
    pub fn filled(&mut self, n: usize) {
        assert!(self.len + n <= self.capacity(), "past the buffer's room");
        self.len += n;
    }
}

impl Deref for Buf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.room {
            Room::Heap(v) => &v[..self.len],
            Room::Map(m) => &m[..self.len],
        }
    }
}

impl From<Vec<u8>> for Buf {
    fn from(v: Vec<u8>) -> Buf {
        let len = v.len();
        Buf {
            room: Room::Heap(v),
            len,
        }
    }
}

impl fmt::Debug for Buf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buf")
            .field("len", &self.len)
            .field("capacity", &self.capacity())
            .finish()
    }
}

/// Asks for huge pages; a kernel without them (or another system) keeps
/// small pages, which only costs the faults.
fn advise_huge(map: &memmap2::MmapMut) {
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    #[cfg(not(target_os = "linux"))]
    let _ = map;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mapped and a heap buffer hold the same bytes through the same calls.
    #[test]
    fn a_buffer_holds_what_was_put_in_it() {
        for mut b in [Buf::with_capacity(HUGE + 10), Buf::from(vec![7; 16])] {
            b.clear();
            assert!(b.is_empty());
            b.extend_from_slice(b"ab");
            let room = b.spare(6);
            assert_eq!(room.len(), 4);
            room[..3].copy_from_slice(b"cde");
            b.filled(3);
            assert_eq!(&b[..], b"abcde");
            b.truncate(9);
            assert_eq!(&b[..], b"abcde");
            b.truncate(2);
            assert_eq!(&b[..], b"ab");
        }
        let fresh = Buf::with_capacity(100);
        assert_eq!(fresh.capacity(), 100);
        assert!(fresh.is_empty());
    }

    #[test]
    #[should_panic(expected = "past the buffer's room")]
    fn a_buffer_does_not_count_bytes_past_its_room() {
        let mut b = Buf::with_capacity(4);
        b.filled(5);
    }
}

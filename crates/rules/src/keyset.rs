//! A set of 128-bit keys in at most 24 bytes a key: what de-duplication
//! keeps for every distinct turn (and assembly for every record and closed
//! group), so its memory is the one part of a run that grows with the input.
//!
//! The keys are already uniform hashes (xxh3-128 of an id), so they are
//! their own hash. The set is 64 segments picked by the key's top bits; each
//! segment is an open-addressing table of 8-key buckets (two cache lines),
//! probed linearly from a home bucket picked by the key's low 64 bits, and
//! grown by a third when it is 15/16 full. So a table is always between 70 %
//! and 94 % full once it holds a few thousand keys (16 bytes a key / load:
//! 17.1–22.8 bytes; buckets of eight keep probes short at that load; a key
//! is placed again about three times as the set grows, five times when it
//! grew by a fifth), and
//! growing rehashes one segment at a time, so the old and the new copy of a
//! segment together add at most 1/64 of the set for a moment, not a whole
//! second table. Keys are never removed, so a probe ends
//! at the first empty slot. The key 0 marks an empty slot and is kept aside.
//! A batch of keys goes in through [`KeySet::insert_all`], which reads the
//! keys' home buckets before it inserts them, so their cache misses overlap.
//!
//! [`KeyMap`] is the same table with a `u64` beside each key (24 bytes a
//! slot: 25.5–34 bytes an entry), for assembly's closed groups.
//!
//! `std::collections::HashSet<u128>` costs about 33 bytes a key here (its
//! load swings between 44 % and 87.5 % over a doubling, one control byte a
//! slot, and both tables are alive while it grows).

/// Segments, picked by the key's top bits.
const SEGMENT_BITS: u32 = 6;
const SEGMENTS: usize = 1 << SEGMENT_BITS;
/// Keys per bucket.
const BUCKET: usize = 8;
/// Keys whose buckets [`KeySet::insert_all`] reads ahead of inserting them.
const AHEAD: usize = 16;
/// A segment grows when more than `LOAD_NUM / LOAD_DEN` of its slots are used.
const LOAD_NUM: usize = 15;
const LOAD_DEN: usize = 16;

/// A table of 128-bit keys, each with a value `V` (see the module
/// documentation); `()` makes it a set.
#[derive(Clone)]
pub struct Table<V> {
    segments: Box<[Segment<V>]>,
    len: usize,
    /// The value of the key 0 (the empty-slot marker), when it is in.
    zero: Option<V>,
}

/// A set of 128-bit keys.
pub type KeySet = Table<()>;
/// 128-bit keys with a `u64` each.
pub type KeyMap = Table<u64>;

#[derive(Clone, Default)]
struct Segment<V> {
    slots: Vec<u128>,
    /// Beside `slots`, index for index (nothing is allocated for `()`).
    values: Vec<V>,
    len: usize,
}

impl<V: Copy + Default> Default for Table<V> {
    fn default() -> Self {
        Table::new()
    }
}

impl<V> std::fmt::Debug for Table<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("len", &self.len).finish()
    }
}

impl<V: Copy + Default> Table<V> {
    /// An empty table; nothing is allocated until a key arrives.
    pub fn new() -> Self {
        Table {
            segments: (0..SEGMENTS)
                .map(|_| Segment {
                    slots: Vec::new(),
                    values: Vec::new(),
                    len: 0,
                })
                .collect(),
            len: 0,
            zero: None,
        }
    }

    /// An empty table sized for about `n` keys without growing.
    pub fn with_capacity(n: usize) -> Self {
        let mut set = Table::new();
        if n > 0 {
            let per = n.div_ceil(SEGMENTS);
            let buckets = (per * LOAD_DEN).div_ceil(LOAD_NUM * BUCKET).max(1);
            for s in set.segments.iter_mut() {
                s.slots = fresh(buckets * BUCKET);
                s.values = fresh(buckets * BUCKET);
            }
        }
        set
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the table holds no key.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes allocated for the keys and values (what the table costs,
    /// beyond its fixed 64 segment headers).
    pub fn allocated_bytes(&self) -> usize {
        self.segments
            .iter()
            .map(|s| s.slots.capacity() * size_of::<u128>() + s.values.capacity() * size_of::<V>())
            .sum()
    }

    fn segment(&self, key: u128) -> usize {
        (key >> (128 - SEGMENT_BITS)) as usize
    }

    /// The low words of the first slot of each cache line of `key`'s home
    /// bucket (0 when its segment is empty): reads whose only use is to
    /// bring that bucket into cache.
    #[inline]
    fn peek(&self, key: u128) -> u64 {
        let s = &self.segments[self.segment(key)];
        let buckets = s.slots.len() / BUCKET;
        let b = ((u128::from(key as u64) * buckets as u128) >> 64) as usize;
        let word = |i: usize| s.slots.get(i).map_or(0, |&k| k as u64);
        word(b * BUCKET) ^ word(b * BUCKET + BUCKET / 2)
    }

    /// True when `key` is in the table.
    pub fn contains(&self, key: u128) -> bool {
        self.get(key).is_some()
    }

    /// The value of `key`, when it is in the table.
    pub fn get(&self, key: u128) -> Option<V> {
        if key == 0 {
            return self.zero;
        }
        let s = &self.segments[self.segment(key)];
        s.find(key).ok().map(|i| s.values[i])
    }

    /// Adds `key` with `value`; true when it was not in the table yet (a
    /// key already in keeps its value).
    pub fn insert_with(&mut self, key: u128, value: V) -> bool {
        let added = if key == 0 {
            let added = self.zero.is_none();
            self.zero.get_or_insert(value);
            added
        } else {
            let i = self.segment(key);
            self.segments[i].insert(key, value)
        };
        self.len += usize::from(added);
        added
    }
}

impl KeySet {
    /// Adds `key`; true when it was not in the set yet.
    pub fn insert(&mut self, key: u128) -> bool {
        self.insert_with(key, ())
    }

    /// Adds every key of `items` in order, telling `seen` for each item
    /// whether its key was already in the set (as [`KeySet::insert`] would,
    /// one by one). A large set is a cache and TLB miss a key: the home
    /// buckets of the next [`AHEAD`] keys are read first, loads that do not
    /// depend on each other and so wait for memory together, then the
    /// keys are inserted into buckets already in cache.
    pub fn insert_all<T>(
        &mut self,
        items: &[T],
        key: impl Fn(&T) -> u128,
        mut seen: impl FnMut(&T, bool),
    ) {
        for group in items.chunks(AHEAD) {
            let mut touched = 0u64;
            for item in group {
                touched ^= self.peek(key(item));
            }
            std::hint::black_box(touched);
            for item in group {
                seen(item, !self.insert(key(item)));
            }
        }
    }
}

impl Extend<u128> for KeySet {
    fn extend<I: IntoIterator<Item = u128>>(&mut self, keys: I) {
        for k in keys {
            self.insert(k);
        }
    }
}

impl<V: Copy + Default> Segment<V> {
    /// The slot holding `key` (never 0), or the empty slot where it would go.
    #[inline]
    fn find(&self, key: u128) -> Result<usize, usize> {
        let buckets = self.slots.len() / BUCKET;
        if buckets == 0 {
            return Err(usize::MAX);
        }
        // The low 64 bits, scaled to the bucket count (no power of two needed).
        let mut b = ((u128::from(key as u64) * buckets as u128) >> 64) as usize;
        loop {
            let start = b * BUCKET;
            for (j, &k) in self.slots[start..start + BUCKET].iter().enumerate() {
                if k == key {
                    return Ok(start + j);
                }
                if k == 0 {
                    return Err(start + j);
                }
            }
            b += 1;
            if b == buckets {
                b = 0;
            }
        }
    }

    fn insert(&mut self, key: u128, value: V) -> bool {
        if (self.len + 1) * LOAD_DEN > self.slots.len() * LOAD_NUM {
            self.grow();
        }
        match self.find(key) {
            Ok(_) => false,
            Err(i) => {
                self.slots[i] = key;
                self.values[i] = value;
                self.len += 1;
                true
            }
        }
    }

    /// A third more buckets (at least one more), every key placed again.
    fn grow(&mut self) {
        let buckets = self.slots.len() / BUCKET;
        let more = (buckets + buckets / 3).max(buckets + 1);
        let old = std::mem::replace(&mut self.slots, fresh(more * BUCKET));
        let values = std::mem::replace(&mut self.values, fresh(more * BUCKET));
        for (k, v) in old.into_iter().zip(values).filter(|&(k, _)| k != 0) {
            if let Err(i) = self.find(k) {
                self.slots[i] = k;
                self.values[i] = v;
            }
        }
    }
}

/// `n` empty slots (or values), every page of them written once. A zeroed allocation
/// comes from the kernel untouched; the first probe into a page would map
/// the shared zero page for reading and the first key written there would
/// replace it, a second fault that also flushes the page from every core's
/// TLB. Writing each page first takes one fault a page and no flush.
fn fresh<T: Copy + Default>(n: usize) -> Vec<T> {
    let mut slots = vec![T::default(); n];
    if size_of::<T>() > 0 {
        for s in slots.iter_mut().step_by(4096 / size_of::<T>()) {
            *s = std::hint::black_box(T::default());
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for xxh3 keys: distinct and spread over all 128 bits.
    fn key(i: u64) -> u128 {
        xxhash_rust::xxh3::xxh3_128(&i.to_le_bytes())
    }

    #[test]
    fn behaves_as_a_set() {
        let mut s = KeySet::new();
        let mut std = std::collections::HashSet::new();
        // Keys with equal segments or equal low bits collide on purpose.
        let odd = [
            0u128,
            1,
            u128::MAX,
            1 << 64,
            (1 << 64) | 1,
            5 << 122,
            (5 << 122) | 7,
        ];
        for round in 0..2 {
            for &k in &odd {
                assert_eq!(s.insert(k), std.insert(k), "round {round}, {k:x}");
            }
            for i in 0..50_000 {
                let k = key(i % 30_000);
                assert_eq!(s.insert(k), std.insert(k));
            }
        }
        assert_eq!(s.len(), std.len());
        for i in 0..60_000 {
            assert_eq!(s.contains(key(i)), std.contains(&key(i)));
        }
        for &k in &odd {
            assert!(s.contains(k));
        }
        let mut e = KeySet::with_capacity(10);
        e.extend([3, 3, 4, 0]);
        assert_eq!(e.len(), 3);
        assert!(e.contains(0) && e.contains(4) && !e.contains(5));
        assert!(KeySet::default().is_empty());
    }

    #[test]
    fn inserting_all_at_once_tells_what_one_by_one_does() {
        let items: Vec<u128> = (0..70_000u64)
            .map(|i| if i % 11 == 0 { 0 } else { key(i % 40_000) })
            .collect();
        let mut one = KeySet::new();
        let expected: Vec<bool> = items.iter().map(|&k| !one.insert(k)).collect();
        let mut all = KeySet::new();
        let mut got = Vec::new();
        // Uneven slices, so groups end mid-slice and the set grows mid-group.
        for part in items.chunks(997) {
            all.insert_all(part, |&k| k, |_, dup| got.push(dup));
        }
        assert_eq!(got, expected);
        assert_eq!(all.len(), one.len());
        assert!(expected.iter().any(|&d| d) && expected.iter().any(|&d| !d));
    }

    #[test]
    fn a_map_keeps_each_keys_first_value() {
        let mut m = KeyMap::new();
        let mut std = std::collections::HashMap::new();
        for i in 0..40_000u64 {
            let k = if i % 7 == 0 {
                u128::from(i % 5)
            } else {
                key(i % 25_000)
            };
            assert_eq!(m.insert_with(k, i), !std.contains_key(&k));
            std.entry(k).or_insert(i);
        }
        assert_eq!(m.len(), std.len());
        for (k, v) in &std {
            assert_eq!(m.get(*k), Some(*v));
        }
        assert_eq!(m.get(key(30_000)), None);
        assert!(!m.contains(key(30_000)) && m.contains(0));
    }

    /// Issue 16: at most 24 bytes per distinct key, at every size that
    /// matters (past the minimum of one bucket per segment).
    #[test]
    fn costs_at_most_24_bytes_a_key() {
        let mut s = KeySet::new();
        let mut worst: f64 = 0.0;
        for i in 0..1_000_000u64 {
            s.insert(key(i));
            if i >= 20_000 && i % 997 == 0 {
                worst = worst.max(s.allocated_bytes() as f64 / s.len() as f64);
            }
        }
        assert!(worst <= 24.0, "{worst:.1} bytes a key");
        let sized = KeySet::with_capacity(100_000);
        assert!(sized.allocated_bytes() <= 24 * 100_000);
        // A map's entries: 24 bytes a slot at the same load.
        let mut m = KeyMap::new();
        let mut worst: f64 = 0.0;
        for i in 0..300_000u64 {
            m.insert_with(key(i), i);
            if i >= 20_000 && i % 997 == 0 {
                worst = worst.max(m.allocated_bytes() as f64 / m.len() as f64);
            }
        }
        assert!(worst <= 34.3, "{worst:.1} bytes an entry");
    }
}

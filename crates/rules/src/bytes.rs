//! Byte classes found sixteen bytes at a time: where a JSON string's plain
//! run ends (every byte reader of JSON), and whether a CSV field needs
//! quotes. SSE2 compares and byte masks on x86-64 (the baseline there, so
//! no runtime detection), through `safe_arch`, so this crate keeps no
//! `unsafe`; eight-byte words (SWAR) on other targets.

/// The position of the first `"`, `\\` or control character in `b` at or
/// after `i`: what ends a JSON string's plain run. Sixteen bytes twice
/// first (keys, ids and short values end there), then sixty-four at a time
/// with one test per step (a long reply), then sixteen to find the byte,
/// then eight, then one at a time in the last bytes of the line.
#[inline]
pub fn json_stop(b: &[u8], mut i: usize) -> Option<usize> {
    for _ in 0..2 {
        match stop_within16(b, i) {
            Some(None) => i += 16,
            Some(stop) => return stop,
            None => break,
        }
    }
    while let Some(w) = b.get(i..i + 64) {
        if !plain64(w.try_into().expect("64 bytes")) {
            break;
        }
        i += 64;
    }
    while let Some(within) = stop_within16(b, i) {
        if within.is_some() {
            return within;
        }
        i += 16;
    }
    // The last bytes of the line, eight at a time, then one at a time.
    while let Some(w) = b.get(i..i + 8) {
        let m = special(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    b.get(i..)?
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map(|p| i + p)
}

/// The first quote, backslash or control character among the sixteen bytes
/// at `i` (`Some(None)` when they hold none; `None` when fewer than sixteen
/// bytes are left): keys and short values end within them, and the check is
/// small enough to sit in every caller, ahead of [`json_stop`]'s loop.
#[inline(always)]
pub fn stop_within16(b: &[u8], i: usize) -> Option<Option<usize>> {
    let w = b.get(i..i + 16)?;
    let m = json_mask16(w.try_into().expect("16 bytes"));
    Some((m != 0).then(|| i + m.trailing_zeros() as usize))
}

/// Bit `k` set when byte `k` of `w` is a quote, a backslash or a control
/// character.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn json_mask16(w: &[u8; 16]) -> u32 {
    safe_arch::move_mask_i8_m128i(json_bytes16(w)) as u32
}

/// The bytes of `w` that are a quote, a backslash or a control character,
/// as all-ones lanes. `x ^ 2` maps the quote (0x22) to 0x20 and keeps the
/// control characters within 0x00..=0x1f, and no other byte lands at or
/// below 0x20; flipping the top bit as well (`x ^ 0x82`) turns that
/// unsigned test into SSE2's signed compare: one compare finds both.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn json_bytes16(w: &[u8; 16]) -> safe_arch::m128i {
    use safe_arch::{
        bitor_m128i, bitxor_m128i, cmp_eq_mask_i8_m128i, cmp_gt_mask_i8_m128i,
        load_unaligned_m128i, set_splat_i8_m128i,
    };
    let x = load_unaligned_m128i(w);
    let y = bitxor_m128i(x, set_splat_i8_m128i(0x82_u8 as i8));
    // Signed `y < 0x21 ^ 0x80`, which is unsigned `x ^ 2 <= 0x20`.
    let quote_or_control = cmp_gt_mask_i8_m128i(set_splat_i8_m128i((0x21 ^ 0x80_u8) as i8), y);
    let backslash = cmp_eq_mask_i8_m128i(x, set_splat_i8_m128i(b'\\' as i8));
    bitor_m128i(quote_or_control, backslash)
}

/// Whether none of the sixty-four bytes of `w` is a quote, a backslash or
/// a control character: the four lanes' flags merged, one test.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn plain64(w: &[u8; 64]) -> bool {
    use safe_arch::{bitor_m128i, move_mask_i8_m128i};
    let lane = |k: usize| json_bytes16(w[16 * k..16 * k + 16].try_into().expect("16 bytes"));
    let any = bitor_m128i(bitor_m128i(lane(0), lane(1)), bitor_m128i(lane(2), lane(3)));
    move_mask_i8_m128i(any) == 0
}

/// [`plain64`] on any other target.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn plain64(w: &[u8; 64]) -> bool {
    plain64_by_words(w)
}

/// [`plain64`] by eight-byte words ([`special`]).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn plain64_by_words(w: &[u8; 64]) -> bool {
    w.chunks_exact(8)
        .all(|c| special(u64::from_le_bytes(c.try_into().expect("8 bytes"))) == 0)
}

/// [`json_mask16`] on any other target.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn json_mask16(w: &[u8; 16]) -> u32 {
    json_mask16_by_words(w)
}

/// [`json_mask16`] from two words by [`special`], their high bits gathered:
/// exact for the lowest flagged byte, which is the one used.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn json_mask16_by_words(w: &[u8; 16]) -> u32 {
    let lo = special(u64::from_le_bytes(w[..8].try_into().expect("8 bytes")));
    let hi = special(u64::from_le_bytes(w[8..].try_into().expect("8 bytes")));
    let bits = |m: u64| (0..8).fold(0u32, |acc, k| acc | (((m >> (8 * k + 7)) & 1) as u32) << k);
    bits(lo) | bits(hi) << 8
}

/// The bytes of `word` (little-endian) that are a quote, a backslash or a
/// control character, as their high bits: exact for the lowest such byte
/// (a borrow only spreads upwards), which is the one used.
#[inline]
fn special(word: u64) -> u64 {
    const ONES: u64 = u64::MAX / 255;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    ((word.wrapping_sub(ONES * 0x20) & !word)
        | (quote.wrapping_sub(ONES) & !quote)
        | (backslash.wrapping_sub(ONES) & !backslash))
        & (ONES << 7)
}

/// Whether any byte of `b` is one of the four in `set` (a CSV field's
/// `,` `"` `\r` `\n`).
#[inline]
pub fn has_any(b: &[u8], set: &[u8; 4]) -> bool {
    let mut chunks = b.chunks_exact(16);
    for w in &mut chunks {
        if eq_mask16(w.try_into().expect("16 bytes"), set) != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(|c| set.contains(c))
}

/// Bit `k` set when byte `k` of `w` is one of `set`'s.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn eq_mask16(w: &[u8; 16], set: &[u8; 4]) -> u32 {
    use safe_arch::{
        bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i,
    };
    let x = load_unaligned_m128i(w);
    let eq = |c: u8| cmp_eq_mask_i8_m128i(x, set_splat_i8_m128i(c as i8));
    let any = bitor_m128i(
        bitor_m128i(eq(set[0]), eq(set[1])),
        bitor_m128i(eq(set[2]), eq(set[3])),
    );
    move_mask_i8_m128i(any) as u32
}

/// [`eq_mask16`] on any other target, a byte at a time.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn eq_mask16(w: &[u8; 16], set: &[u8; 4]) -> u32 {
    w.iter()
        .enumerate()
        .fold(0, |m, (k, c)| m | u32::from(set.contains(c)) << k)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time answer the finder must give.
    fn reference(b: &[u8], i: usize) -> Option<usize> {
        (i..b.len()).find(|&k| matches!(b[k], b'"' | b'\\' | 0..=0x1f))
    }

    /// `json_stop` stops where the byte search does, and `stop_within16`
    /// finds exactly the stops within sixteen bytes.
    fn agree(b: &[u8], start: usize) {
        let stop = reference(b, start);
        assert_eq!(json_stop(b, start), stop, "{b:?} {start}");
        let within = (start + 16 <= b.len()).then(|| stop.filter(|&j| j < start + 16));
        assert_eq!(stop_within16(b, start), within, "{b:?} {start}");
    }

    #[test]
    fn the_finder_stops_where_a_byte_at_a_time_search_does() {
        // Every length up to past two 32-byte steps, every start, and the
        // flagged byte (or none) at every place: bytes just outside the
        // classes (space, `!`, `#`, `[`, `]`, DEL, non-ASCII) never stop it.
        let fillers = [b' ', b'!', b'#', b'[', b']', 0x7f, 0x80, 0xc3, 0xff, b'a'];
        let stops = [b'"', b'\\', 0x00, 0x09, 0x0a, 0x1f];
        for len in 0..90 {
            for (f, &filler) in fillers.iter().enumerate() {
                let mut b = vec![filler; len];
                // Vary the filler within the line too.
                for (k, c) in b.iter_mut().enumerate() {
                    if (k + f) % 7 == 0 {
                        *c = fillers[(k + f) % fillers.len()];
                    }
                }
                for start in 0..=len {
                    agree(&b, start);
                }
                for at in 0..len {
                    let stop = stops[(at + len) % stops.len()];
                    let mut s = b.clone();
                    s[at] = stop;
                    for start in [0, at / 2, at, at + 1] {
                        agree(&s, start);
                    }
                }
            }
        }
    }

    #[test]
    fn both_masks_agree_on_the_first_flagged_byte() {
        // The target's mask and the portable one (what other targets run).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            let mut w = [0u8; 16];
            for c in &mut w {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly plain bytes, now and then one of the classes.
                *c = match x % 40 {
                    0 => b'"',
                    1 => b'\\',
                    2 => (x >> 8) as u8 & 0x1f,
                    _ => 0x20 + (x >> 8) as u8 % 0xe0,
                };
            }
            let (a, b) = (json_mask16(&w), json_mask16_by_words(&w));
            assert_eq!(a == 0, b == 0, "{w:?}");
            if a != 0 {
                assert_eq!(a.trailing_zeros(), b.trailing_zeros(), "{w:?}");
            }
        }
    }

    #[test]
    fn every_byte_value_is_flagged_as_the_classes_say() {
        // Each byte value at each of the sixty-four places of a plain run:
        // the vector tests (the quote found by one compare with the control
        // characters) and the portable ones flag exactly the three classes.
        for c in 0..=255u8 {
            let flagged = c == b'"' || c == b'\\' || c < 0x20;
            for at in 0..64 {
                let mut w = [b'a'; 64];
                w[at] = c;
                assert_eq!(!plain64(&w), flagged, "byte {c:#04x} at {at}");
                assert_eq!(!plain64_by_words(&w), flagged, "byte {c:#04x} at {at}");
                let lane: &[u8; 16] = w[at / 16 * 16..at / 16 * 16 + 16].try_into().unwrap();
                assert_eq!(json_mask16(lane) != 0, flagged, "byte {c:#04x} at {at}");
            }
        }
    }

    #[test]
    fn long_runs_stop_where_a_byte_at_a_time_search_does() {
        // Past the sixty-four-byte steps: runs up to 400 bytes, the stop (or
        // none) at every place, from a few starts.
        let stops = [b'"', b'\\', 0x00, 0x1f, 0x0a];
        for len in [
            63, 64, 65, 79, 80, 81, 95, 96, 97, 143, 144, 145, 200, 272, 399, 400,
        ] {
            let plain: Vec<u8> = (0..len)
                .map(|k| [b'a', b' ', 0xc3, b'[', 0x7f][k % 5])
                .collect();
            for start in [0, 1, 15, 16, 17, 63] {
                agree(&plain, start.min(len));
            }
            for at in 0..len {
                let mut s = plain.clone();
                s[at] = stops[at % stops.len()];
                for start in [0, 1, 16, at.saturating_sub(64), at] {
                    agree(&s, start);
                }
            }
        }
    }

    #[test]
    fn a_csv_field_needs_quotes_where_a_byte_test_says_so() {
        let set = *b",\"\r\n";
        for len in 0..70 {
            let plain: Vec<u8> = (0..len)
                .map(|k| [b'a', b';', b'#', 0xc3, b' ', b'\t'][k % 6])
                .collect();
            assert!(!has_any(&plain, &set), "{plain:?}");
            for at in 0..len {
                for &c in &set {
                    let mut v = plain.clone();
                    v[at] = c;
                    assert!(has_any(&v, &set), "{v:?}");
                }
            }
        }
    }
}

/// `a == b`, without a call to `memcmp` for up to sixteen bytes: two loads
/// from each, which may overlap, hold every byte of strings of one length
/// (a key against the few a reader looks for, per key read).
#[inline(always)]
pub fn eq_short(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().expect("4 bytes"));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

#[cfg(test)]
mod eq_short_tests {
    use super::eq_short;

    /// Every pair of strings up to 20 bytes that differ in one byte, or in
    /// length, is told apart; equal ones are equal.
    #[test]
    fn eq_short_is_equality() {
        for n in 0..=20usize {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i).collect();
            assert!(eq_short(&a, &a.clone()));
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!eq_short(&a, &b), "{n} bytes, differing at {at}");
            }
            assert!(!eq_short(&a, &a[..n.saturating_sub(1)]) || n == 0);
            let mut longer = a.clone();
            longer.push(b'z');
            assert!(!eq_short(&a, &longer));
        }
    }
}

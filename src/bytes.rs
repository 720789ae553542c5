//! Byte classes found sixteen bytes at a time: where a JSON string's plain
//! run ends (every byte reader of JSON), and whether a CSV field needs
//! quotes. SSE2 compares and byte masks on x86-64 (the baseline there, so
//! no runtime detection), through `safe_arch`, so this crate keeps no
//! `unsafe`; eight-byte words (SWAR) on other targets.

/// The position of the first `"`, `\\` or control character in `b` at or
/// after `i`: what ends a JSON string's plain run. Sixteen bytes at a time,
/// thirty-two once a string is long, then eight, then one at a time in the
/// last bytes of the line.
#[inline]
pub fn json_stop(b: &[u8], mut i: usize) -> Option<usize> {
    // Keys and short values end within the first sixteen bytes.
    if let Some(w) = b.get(i..i + 16) {
        let m = json_mask16(w.try_into().expect("16 bytes"));
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 16;
    }
    while let Some(w) = b.get(i..i + 32) {
        let m = json_mask16(w[..16].try_into().expect("16 bytes"))
            | json_mask16(w[16..].try_into().expect("16 bytes")) << 16;
        if m != 0 {
            return Some(i + m.trailing_zeros() as usize);
        }
        i += 32;
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

/// The closing quote of a string at `i` (past its opening quote) when it
/// is the first quote, backslash or control character among the sixteen
/// bytes at `i`: keys and short values end so, and the check is small
/// enough to sit in every caller, ahead of [`json_stop`]'s loop.
#[inline(always)]
pub fn quote_within16(b: &[u8], i: usize) -> Option<usize> {
    let w = b.get(i..i + 16)?;
    let m = json_mask16(w.try_into().expect("16 bytes"));
    let j = m.trailing_zeros() as usize;
    (m != 0 && w[j] == b'"').then_some(i + j)
}

/// Bit `k` set when byte `k` of `w` is a quote, a backslash or a control
/// character.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn json_mask16(w: &[u8; 16]) -> u32 {
    use safe_arch::{
        bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, min_u8_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i,
    };
    let x = load_unaligned_m128i(w);
    let quote = cmp_eq_mask_i8_m128i(x, set_splat_i8_m128i(b'"' as i8));
    let backslash = cmp_eq_mask_i8_m128i(x, set_splat_i8_m128i(b'\\' as i8));
    // Unsigned `x <= 0x1f`: the smaller of the two is `x` itself.
    let control = cmp_eq_mask_i8_m128i(min_u8_m128i(x, set_splat_i8_m128i(0x1f)), x);
    move_mask_i8_m128i(bitor_m128i(bitor_m128i(quote, backslash), control)) as u32
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

    /// `json_stop` stops where the byte search does, and `quote_within16`
    /// finds exactly the stops that are a quote within sixteen bytes.
    fn agree(b: &[u8], start: usize) {
        let stop = reference(b, start);
        assert_eq!(json_stop(b, start), stop, "{b:?} {start}");
        let quote = stop.filter(|&j| start + 16 <= b.len() && j < start + 16 && b[j] == b'"');
        assert_eq!(quote_within16(b, start), quote, "{b:?} {start}");
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

//! The common shape of `created_at` read without chrono's general RFC 3339
//! parser: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1–9 digits, and
//! `Z` or a `±HH:MM` offset. Anything else (a leap second, a space or a
//! lower-case `t`, an offset of 24 hours or more, an impossible date) gives
//! `None`, and chrono reads the text, so every accepted time and every
//! message still comes from chrono. A unit test checks both agree.

use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Utc};

/// The time in UTC, or `None` when chrono must read `s`.
pub(super) fn fast(s: &str) -> Option<DateTime<Utc>> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let year = digits(&b[0..4])?;
    let month = digits(&b[5..7])?;
    let day = digits(&b[8..10])?;
    let hour = digits(&b[11..13])?;
    let minute = digits(&b[14..16])?;
    let second = digits(&b[17..19])?;
    let mut i = 19;
    let mut nanos = 0;
    if b[i] == b'.' {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let n = i - start;
        if n == 0 || n > 9 {
            return None;
        }
        nanos = digits(&b[start..i])? * 10u32.pow((9 - n) as u32);
    }
    let offset = match &b[i..] {
        [b'Z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (h, m) = (digits(&[*h1, *h2])?, digits(&[*m1, *m2])?);
            if h > 23 || m > 59 {
                return None;
            }
            let secs = i64::from(h * 3600 + m * 60);
            if *sign == b'-' { -secs } else { secs }
        }
        _ => return None,
    };
    // A leap second (`:60`) is left to chrono.
    if second > 59 {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(year as i32, month, day)?;
    let time = NaiveTime::from_hms_nano_opt(hour, minute, second, nanos)?;
    let local = date.and_time(time);
    if offset == 0 {
        return Some(local.and_utc());
    }
    Some(
        local
            .checked_sub_signed(TimeDelta::seconds(offset))?
            .and_utc(),
    )
}

/// ASCII digits as a number (at most 9 of them).
fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::fast;
    use chrono::{DateTime, Utc};

    fn chrono(s: &str) -> Option<DateTime<Utc>> {
        DateTime::parse_from_rfc3339(s)
            .ok()
            .map(|t| t.with_timezone(&Utc))
    }

    /// Whenever the fast path reads a time, chrono reads the same one.
    fn agree(s: &str) {
        if let Some(t) = fast(s) {
            assert_eq!(Some(t), chrono(s), "{s:?}");
        }
    }

    #[test]
    fn the_fast_path_agrees_with_chrono() {
        let common = [
            "2026-06-01T00:00:12.134+00:00",
            "2026-08-02T10:15:00+02:00",
            "2026-08-02T10:15:00Z",
            "0000-01-01T00:30:00+01:00",
            "9999-12-31T23:30:00-01:00",
            "2024-02-29T23:59:59.999999999-23:59",
            "2016-12-31T23:59:60Z",
        ];
        for s in common {
            agree(s);
        }
        assert!(fast(common[0]).is_some() && fast(common[1]).is_some());
        // Every single-byte change of a few shapes, and every truncation.
        let alphabet = b"0123456789-+:.TtZz _\xc3";
        for s in common {
            for i in 0..s.len() {
                agree(&s[..i]);
                for &c in alphabet {
                    let mut b = s.as_bytes().to_vec();
                    b[i] = c;
                    if let Ok(m) = String::from_utf8(b.clone()) {
                        agree(&m);
                    }
                    b.insert(i, c);
                    if let Ok(m) = String::from_utf8(b) {
                        agree(&m);
                    }
                }
            }
        }
        // Dates and times all over the calendar, with fractions and offsets.
        for k in 0..200_000u64 {
            let h = xxhash_rust::xxh3::xxh3_64(&k.to_le_bytes());
            let f = |shift: u32, m: u64| (h >> shift) % m;
            let frac = match f(40, 4) {
                0 => String::new(),
                n => format!(
                    ".{:0w$}",
                    f(44, 10u64.pow(n as u32 * 3)),
                    w = n as usize * 3
                ),
            };
            let off = match f(56, 3) {
                0 => "Z".to_owned(),
                1 => format!("+{:02}:{:02}", f(20, 26), f(26, 61)),
                _ => format!("-{:02}:{:02}", f(20, 26), f(26, 61)),
            };
            let s = format!(
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{frac}{off}",
                f(0, 10_000),
                f(14, 14),
                f(18, 33),
                f(24, 25),
                f(30, 61),
                f(36, 62),
            );
            agree(&s);
        }
    }
}

//! Span, run and observation times: one set of rules for every span reader,
//! the native turn log's rules ([`crate::dialect::native::parse_time`]) made
//! to fit the spellings exports use.
//!
//! - Text: an RFC 3339 date-time with `T`, `t` or a space between date and
//!   time, a fraction of any length (read to the nanosecond), and an offset
//!   spelled `Z`, `z`, `±HH:MM`, `±HHMM` or `±HH`; no offset at all is UTC
//!   (Langfuse's blob export, LangSmith's naive times). A string of digits
//!   (with a sign or a fraction) is an epoch number, as a number is.
//! - Numbers: epoch seconds, milliseconds, microseconds or nanoseconds by
//!   magnitude (pandas writes milliseconds); OTLP's are always nanoseconds.
//! - Every time falls in years 0000–9999 once in UTC ([`crate::model::YEARS`]).
//!
//! Anything else is an error, never the epoch and never dropped: the
//! reader makes the record invalid with [`Bad::reason`], which names the
//! field and what was expected, never the value.

/// Why a time was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bad {
    /// Not text or a number this module reads.
    NotATime,
    /// Read, but outside years 0000–9999 in UTC.
    OutOfYears,
}

impl Bad {
    /// The reason for a record whose `field` holds the time.
    pub(super) fn reason(self, field: &str) -> String {
        match self {
            Bad::NotATime => format!("`{field}`: not a time (RFC 3339 or epoch)"),
            Bad::OutOfYears => format!("`{field}`: outside years 0000-9999"),
        }
    }
}

const NS: i128 = 1_000_000_000;
/// 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z, in seconds.
const FIRST_SEC: i128 = -62_167_219_200;
const END_SEC: i128 = 253_402_300_800;

/// Nanoseconds since the epoch, when they fall in years 0000–9999.
pub(super) fn nanos(ns: i128) -> Result<i128, Bad> {
    if (FIRST_SEC * NS..END_SEC * NS).contains(&ns) {
        Ok(ns)
    } else {
        Err(Bad::OutOfYears)
    }
}

/// Nanoseconds written as a float (OTLP from a writer that used a double).
pub(super) fn float_nanos(f: f64) -> Result<i128, Bad> {
    if !f.is_finite() {
        return Err(Bad::NotATime);
    }
    // `as` saturates: a huge value stays huge and is out of years.
    nanos(f.round() as i128)
}

/// The factor from an epoch number of this magnitude to nanoseconds.
fn scale(magnitude: f64) -> i128 {
    if magnitude >= 1e17 {
        1
    } else if magnitude >= 1e14 {
        1_000
    } else if magnitude >= 1e11 {
        1_000_000
    } else {
        NS
    }
}

/// An integer epoch time, its unit by magnitude.
pub(super) fn epoch(n: i128) -> Result<i128, Bad> {
    nanos(n.saturating_mul(scale(n.unsigned_abs() as f64)))
}

/// A float epoch time, its unit by magnitude.
pub(super) fn epoch_float(f: f64) -> Result<i128, Bad> {
    if !f.is_finite() {
        return Err(Bad::NotATime);
    }
    float_nanos(f * scale(f.abs()) as f64)
}

/// A time written as text: `Ok(None)` when blank (exports write `""` for
/// unset), else a date-time or an epoch number (see the module doc).
pub(super) fn text(s: &str) -> Result<Option<i128>, Bad> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    if let Some(n) = epoch_text(s) {
        return n.map(Some);
    }
    date_time(s).ok_or(Bad::NotATime)?.map(Some)
}

/// A string of digits with an optional sign and fraction, as an epoch
/// number, read exactly (no `f64` in between); `None` for any other text.
fn epoch_text(s: &str) -> Option<Result<i128, Bad>> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (whole, frac) = match digits.split_once('.') {
        Some((w, f)) if !f.is_empty() => (w, f),
        Some(_) => return None,
        None => (digits, ""),
    };
    let all = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all(whole) || !all(frac) {
        return None;
    }
    // Too many digits for any unit: past every year.
    let Ok(whole) = whole.parse::<i128>() else {
        return Some(Err(Bad::OutOfYears));
    };
    let unit = scale(whole as f64);
    // The fraction's first 18 digits: finer than a nanosecond in any unit.
    let kept = &frac[..frac.len().min(18)];
    let part = kept.parse::<i128>().unwrap_or(0) * unit / 10i128.pow(kept.len() as u32);
    let Some(n) = whole.checked_mul(unit).and_then(|w| w.checked_add(part)) else {
        return Some(Err(Bad::OutOfYears));
    };
    Some(nanos(if negative { -n } else { n }))
}

/// `YYYY-MM-DD(T|t| )HH:MM:SS[.f][offset]`: `None` when it is not one,
/// `Some(Err)` when it is one outside the years.
fn date_time(s: &str) -> Option<Result<i128, Bad>> {
    let b = s.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let date =
        chrono::NaiveDate::from_ymd_opt(num(&b[0..4])? as i32, num(&b[5..7])?, num(&b[8..10])?)?;
    let (h, m, sec) = (num(&b[11..13])?, num(&b[14..16])?, num(&b[17..19])?);
    // A leap second (`:60`) counts as the next second, as chrono's instant does.
    if h > 23 || m > 59 || sec > 60 {
        return None;
    }
    let (frac, rest) = fraction(&b[19..])?;
    let offset = offset(rest)?;
    let midnight = i128::from(date.and_hms_opt(0, 0, 0)?.and_utc().timestamp());
    let secs = midnight + i128::from(h * 3600 + m * 60 + sec) - offset;
    Some(nanos(secs * NS + frac))
}

/// An optional `.` and digits: their nanoseconds (digits past the ninth
/// dropped) and the bytes after them.
fn fraction(b: &[u8]) -> Option<(i128, &[u8])> {
    let Some(after) = b.strip_prefix(b".") else {
        return Some((0, b));
    };
    let n = after.iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 {
        return None;
    }
    let kept = &after[..n.min(9)];
    let ns = i128::from(num(kept)?) * 10i128.pow(9 - kept.len() as u32);
    Some((ns, &after[n..]))
}

/// An offset in seconds east of UTC: none (UTC), `Z`, `z`, `±HH:MM`,
/// `±HHMM` or `±HH`, hours under 24 and minutes under 60.
fn offset(b: &[u8]) -> Option<i128> {
    let (sign, hm): (i128, &[u8]) = match b {
        [] | [b'Z' | b'z'] => return Some(0),
        [b'+', rest @ ..] => (1, rest),
        [b'-', rest @ ..] => (-1, rest),
        _ => return None,
    };
    let (h, m) = match hm {
        [h1, h2] => (num(&[*h1, *h2])?, 0),
        [h1, h2, b':', m1, m2] | [h1, h2, m1, m2] => (num(&[*h1, *h2])?, num(&[*m1, *m2])?),
        _ => return None,
    };
    (h < 24 && m < 60).then(|| sign * i128::from(h * 3600 + m * 60))
}

/// ASCII digits as a number (at most 9 of them), `None` for anything else.
fn num(b: &[u8]) -> Option<u32> {
    if b.is_empty() {
        return None;
    }
    b.iter().try_fold(0u32, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

#[cfg(test)]
mod tests;

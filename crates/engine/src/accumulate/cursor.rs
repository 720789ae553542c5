//! Report cursors: the position after which the next page starts, as an
//! opaque string a user passes back with `--cursor`.

use super::After;
use crate::exit;
use crate::pipeline;
use anyhow::Result;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::DateTime;

/// Encodes the position after which the next page starts, as base64url of
/// `v2:{secs}:{nanos}:{seq}:{line}:{turn_id}`. The time is chrono's own
/// representation (seconds since the epoch, and nanoseconds that run past
/// 1e9 in a leap second), so every time a dialect accepts round-trips
/// exactly and the cursor orders like the rows of a page.
pub fn encode_cursor(a: &After) -> String {
    let (secs, nanos) = (
        a.created_at.timestamp(),
        a.created_at.timestamp_subsec_nanos(),
    );
    let (seq, line) = a.pos;
    URL_SAFE_NO_PAD.encode(format!("v2:{secs}:{nanos}:{seq}:{line}:{}", a.turn_id))
}

/// Decodes a cursor; a malformed one is a usage error. `v1` cursors (time
/// as i64 nanoseconds, from earlier versions) are still read: they are exact
/// for the years 1677–2262 they could hold.
pub fn decode_cursor(s: &str) -> Result<After> {
    let bad = || {
        exit::usage(format!(
            "--cursor {s:?} is not a cursor this tool wrote (pass next_cursor from a previous page)"
        ))
    };
    let bytes = URL_SAFE_NO_PAD.decode(s.trim()).map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let (created_at, rest) = if let Some(rest) = text.strip_prefix("v2:") {
        let (secs, rest) = rest.split_once(':').ok_or_else(bad)?;
        let (nanos, rest) = rest.split_once(':').ok_or_else(bad)?;
        let time = match (secs.parse::<i64>(), nanos.parse::<u32>()) {
            (Ok(secs), Ok(nanos)) => DateTime::from_timestamp(secs, nanos),
            _ => None,
        };
        (time.ok_or_else(bad)?, rest)
    } else if let Some(rest) = text.strip_prefix("v1:") {
        let (nanos, rest) = rest.split_once(':').ok_or_else(bad)?;
        let nanos = nanos.parse::<i64>().map_err(|_| bad())?;
        (DateTime::from_timestamp_nanos(nanos), rest)
    } else {
        return Err(bad());
    };
    // The turn id comes last and may itself hold `:`.
    let mut parts = rest.splitn(3, ':');
    let (Some(seq), Some(line), Some(turn_id)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let (Ok(seq), Ok(line)) = (seq.parse::<u64>(), line.parse::<u64>()) else {
        return Err(bad());
    };
    Ok(After {
        created_at,
        turn_id: turn_id.to_owned(),
        pos: (seq, line),
    })
}

/// The position after `r` in the report order, as a cursor. Under
/// de-duplication a turn id names one row, so the cursor leaves out its
/// input position (written as 0:0, before every row of that id): the
/// cursor then means the same in one pass and in a `merge` of partials,
/// whose positions differ. With `--no-dedupe` the position tells repeated
/// turns apart.
pub fn cursor_after(r: &crate::model::Row<'_>, pos: pipeline::Pos, dedupe: bool) -> String {
    encode_cursor(&After {
        created_at: r.created_at,
        turn_id: r.turn_id.as_str().to_owned(),
        pos: if dedupe { (0, 0) } else { pos },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<chrono::Utc> {
        crate::dialect::native::parse_time(s).unwrap()
    }

    #[test]
    fn cursor_round_trips_every_time_the_parser_accepts() {
        for t in [
            DateTime::from_timestamp(1_700_000_000, 5).unwrap(),
            at("0000-01-01T00:00:00Z"),
            at("0001-01-01T00:00:00Z"),
            at("1677-09-21T00:12:43.145224191Z"),
            at("1677-09-21T00:12:43.145224192Z"),
            at("2262-04-11T23:47:16.854775807Z"),
            at("2262-04-11T23:47:16.854775808Z"),
            at("9999-12-31T23:59:59.999999999Z"),
            at("2016-12-31T23:59:60Z"),
            at("2016-12-31T23:59:60.999999999Z"),
            at("9999-12-31T23:59:60.5Z"),
        ] {
            let a = After {
                created_at: t,
                turn_id: "t:9".into(),
                pos: (3, 17),
            };
            let back = decode_cursor(&encode_cursor(&a)).unwrap();
            assert_eq!(back, a, "{t:?}");
            // Exact, so its place among the rows is exact too (leap seconds included).
            assert_eq!(back.created_at.cmp(&t), std::cmp::Ordering::Equal);
        }
    }

    #[test]
    fn v1_cursors_from_earlier_versions_are_still_read() {
        let v1 = URL_SAFE_NO_PAD.encode("v1:1785676320000000000:0:15:t-15");
        let a = decode_cursor(&v1).unwrap();
        assert_eq!(a.created_at, at("2026-08-02T13:12:00Z"));
        assert_eq!((a.turn_id.as_str(), a.pos), ("t-15", (0, 15)));
    }

    #[test]
    fn malformed_cursor_is_a_usage_error() {
        for bad in [
            "",
            "!!!",
            "djE6",
            &URL_SAFE_NO_PAD.encode("v3:1:0:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:1:x"),
            &URL_SAFE_NO_PAD.encode("v2:1:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:1:-1:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:0:1500000000:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:59:2000000000:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:99999999999999999:0:0:0:t"),
            &URL_SAFE_NO_PAD.encode("v2:1:0:-1:0:t"),
            &URL_SAFE_NO_PAD.encode("v1:x:y"),
        ] {
            let e = decode_cursor(bad).unwrap_err();
            assert_eq!(exit::code_for(&e), exit::USAGE, "{bad}");
        }
    }
}

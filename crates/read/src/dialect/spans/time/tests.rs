use super::*;
use chrono::DateTime;

/// The instant of an RFC 3339 time, by chrono.
fn at(s: &str) -> i128 {
    let t = DateTime::parse_from_rfc3339(s).unwrap();
    i128::from(t.timestamp()) * NS + i128::from(t.timestamp_subsec_nanos())
}

fn read(s: &str) -> Result<i128, Bad> {
    text(s).map(|t| t.expect("not blank"))
}

#[test]
fn every_offset_spelling_reads_the_same_instant() {
    let utc = at("2024-12-04T19:59:29.374Z");
    for s in [
        "2024-12-04T19:59:29.374Z",
        "2024-12-04T19:59:29.374z",
        "2024-12-04t19:59:29.374Z",
        "2024-12-04 19:59:29.374Z",
        "2024-12-04T19:59:29.374+00:00",
        "2024-12-04T19:59:29.374-00:00",
        "2024-12-04T19:59:29.374+0000",
        "2024-12-04T19:59:29.374+00",
        "2024-12-05T01:29:29.374+05:30",
        "2024-12-05T01:29:29.374+0530",
        "2024-12-04T14:29:29.374-0530",
        "2024-12-04T14:29:29.374-05:30",
        "2024-12-04T21:59:29.374+02",
        "  2024-12-04T19:59:29.374000000Z\t",
        "2024-12-04T19:59:29.374000000123Z",
    ] {
        assert_eq!(read(s), Ok(utc), "{s}");
    }
}

#[test]
fn no_offset_is_utc() {
    let utc = at("2026-03-04T09:15:01.12Z");
    assert_eq!(read("2026-03-04 09:15:01.120000"), Ok(utc));
    assert_eq!(read("2026-03-04T09:15:01.12"), Ok(utc));
    assert_eq!(read("2026-03-04T09:15:01"), Ok(at("2026-03-04T09:15:01Z")));
}

#[test]
fn the_edges_of_the_years_and_leap_seconds() {
    assert_eq!(read("0000-01-01T00:00:00Z"), Ok(FIRST_SEC * NS));
    assert_eq!(read("9999-12-31T23:59:59.999999999Z"), Ok(END_SEC * NS - 1));
    assert_eq!(read("0001-01-01T00:00:00Z"), Ok(at("0001-01-01T00:00:00Z")));
    assert_eq!(read("0000-01-01T00:30:00+01:00"), Err(Bad::OutOfYears));
    assert_eq!(read("9999-12-31T23:30:00-01:00"), Err(Bad::OutOfYears));
    assert_eq!(read("2016-12-31T23:59:60Z"), Ok(at("2016-12-31T23:59:60Z")));
    assert_eq!(read("2024-02-29T12:00:00Z"), Ok(at("2024-02-29T12:00:00Z")));
}

#[test]
fn epoch_numbers_by_magnitude() {
    let t = at("2024-12-04T19:59:29Z");
    let ms = at("2024-12-04T19:59:29.374Z");
    assert_eq!(epoch(1_733_342_369), Ok(t));
    assert_eq!(epoch(1_733_342_369_374), Ok(ms));
    assert_eq!(epoch(1_733_342_369_374_000), Ok(ms));
    assert_eq!(epoch(1_733_342_369_374_000_000), Ok(ms));
    // A float is as exact as a double: within a microsecond here.
    let near = |r: Result<i128, Bad>| (r.unwrap() - ms).abs() < 1_000;
    assert!(near(epoch_float(1_733_342_369.374)));
    assert!(near(epoch_float(1_733_342_369_374.0)));
    assert!(near(epoch_float(1.733_342_369_374e18)));
    assert_eq!(epoch(0), Ok(0));
    assert_eq!(epoch(-86_400), Ok(-86_400 * NS));
    // Digit strings are epoch numbers too.
    assert_eq!(read("1733342369374"), Ok(ms));
    assert_eq!(read("1733342369"), Ok(t));
    assert_eq!(read("1733342369.374"), Ok(ms));
    assert_eq!(read("+1733342369"), Ok(t));
    assert_eq!(read("1733342369374.5"), Ok(ms + 500_000));
    assert_eq!(read("-1.5"), Ok(-1_500_000_000));
    assert_eq!(read("0.000000001"), Ok(1));
    // OTLP: nanoseconds, exactly.
    assert_eq!(
        nanos(1_544_712_660_000_000_001),
        Ok(1_544_712_660_000_000_001)
    );
    assert_eq!(float_nanos(1.5e18), Ok(1_500_000_000_000_000_000));
}

#[test]
fn epochs_past_the_years_are_out_of_them() {
    for n in [
        END_SEC * NS,
        i128::from(u64::MAX) * 100,
        -99_999_999_999,
        i128::MAX,
        i128::MIN,
    ] {
        assert_eq!(epoch(n), Err(Bad::OutOfYears), "{n}");
    }
    assert_eq!(nanos(END_SEC * NS), Err(Bad::OutOfYears));
    assert_eq!(nanos(FIRST_SEC * NS - 1), Err(Bad::OutOfYears));
    assert_eq!(float_nanos(1e30), Err(Bad::OutOfYears));
    assert_eq!(epoch_float(-1e300), Err(Bad::OutOfYears));
    assert_eq!(epoch_float(f64::NAN), Err(Bad::NotATime));
    assert_eq!(float_nanos(f64::INFINITY), Err(Bad::NotATime));
    assert_eq!(read(&"9".repeat(45)), Err(Bad::OutOfYears));
    assert_eq!(read("253402300800000000000"), Err(Bad::OutOfYears));
}

#[test]
fn what_is_not_a_time() {
    for s in [
        "2024-12-04",
        "2024-12-04T10:00",
        "2024-12-04T10:00Z",
        "garbage",
        "2025-02-29T00:00:00Z",
        "2024-13-01T00:00:00Z",
        "2024-12-04T24:00:00Z",
        "2024-12-04T10:60:00Z",
        "2024-12-04T10:00:61Z",
        "2024-12-04T10:00:00.Z",
        "2024-12-04T10:00:00+24:00",
        "2024-12-04T10:00:00+01:60",
        "2024-12-04T10:00:00+1",
        "2024-12-04T10:00:00+01:0",
        "2024-12-04T10:00:00 Z",
        "2024-12-04T10:00:00UTC",
        "2024-12-04_10:00:00Z",
        "+275760-09-13T00:00:00Z",
        "1.",
        ".5",
        "1e9",
        "-",
        "NaN",
        "0x10",
        "１７３３３４２３６９",
    ] {
        assert_eq!(read(s), Err(Bad::NotATime), "{s}");
    }
    assert_eq!(text(""), Ok(None));
    assert_eq!(text("  "), Ok(None));
}

#[test]
fn reasons_name_the_field_never_the_value() {
    assert_eq!(
        Bad::NotATime.reason("start_time"),
        "`start_time`: not a time (RFC 3339 or epoch)"
    );
    assert_eq!(
        Bad::OutOfYears.reason("startTimeUnixNano"),
        "`startTimeUnixNano`: outside years 0000-9999"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 20_000, ..Default::default() })]
    /// Wherever chrono reads an RFC 3339 time, this reads the same instant
    /// (or says it is outside the years).
    #[test]
    fn rfc3339_times_read_as_chrono_reads_them(
        y in 0u32..10_000, mo in 0u32..14, d in 0u32..33,
        sep in proptest::sample::select(vec!["T", " ", "t", "_"]),
        h in 0u32..26, mi in 0u32..62, sec in 0u32..62, frac in "(\\.[0-9]{0,11})?",
        tail in proptest::sample::select(vec!["Z", "z", "+00:00", "-00:00", "+05:30", "-11:45", "+23:59", "+24:00", "+01:60", " ", "x"]),
    ) {
        let s = format!("{y:04}-{mo:02}-{d:02}{sep}{h:02}:{mi:02}:{sec:02}{frac}{tail}");
        if let Ok(t) = DateTime::parse_from_rfc3339(&s) {
            let ns = i128::from(t.timestamp()) * NS + i128::from(t.timestamp_subsec_nanos());
            let want = if crate::model::in_years(&t.to_utc()) { Ok(ns) } else { Err(Bad::OutOfYears) };
            proptest::prop_assert_eq!(read(&s), want, "{}", s);
        }
    }
}

//! Which turns a command looks at, and the one place their flags are
//! interpreted: time (`--from`, `--to`, `--since`, `--now`, `--tz`), who and
//! where (`--agent`, `--channel`, `--model`), which turns (`--turn`,
//! `--conversation`), what the reply says (`--grep`), and what grading
//! found (`--verdict`, `--cited-below`, `--confidence-below`). Resolved once
//! from the command line by `config`; applied to every turn by the engine.
//!
//! Time zones live here too ([`Zone`]): a date-only bound is a local
//! midnight in the zone, and days in `summary` are local days. IANA names
//! come from `chrono-tz`, whose compiled tables know every daylight-saving
//! change, so `Europe/Berlin` is +02:00 in August and +01:00 in January.

use crate::model::{Answer, Row, Turn, Verdict, same_id};
use chrono::{
    DateTime, Duration, FixedOffset, LocalResult, NaiveDate, NaiveDateTime, Offset, SecondsFormat,
    TimeZone, Utc,
};

/// A time zone: a fixed offset (`+02:00`, `Z`) or an IANA zone with its
/// daylight-saving rules (`Europe/Berlin`). UTC unless told otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Fixed(FixedOffset),
    Named(chrono_tz::Tz),
}

impl Default for Zone {
    fn default() -> Self {
        Zone::utc()
    }
}

impl Zone {
    /// UTC.
    pub fn utc() -> Zone {
        Zone::Fixed(FixedOffset::east_opt(0).expect("zero offset"))
    }

    /// Parses `UTC`, `Z`, `+HH:MM`, `-HH:MM`, `+HHMM`, `+HH`, or an IANA
    /// name (`Europe/Berlin`, `America/New_York`).
    pub fn parse(s: &str) -> Result<Zone, String> {
        let s = s.trim();
        let bad = || {
            format!(
                "{s:?} is not a time zone: give an IANA name (Europe/Berlin) or an offset (+02:00, -05:30, Z)"
            )
        };
        if s.eq_ignore_ascii_case("z") || s.eq_ignore_ascii_case("utc") {
            return Ok(Zone::utc());
        }
        if let Some(rest) = s.strip_prefix(['+', '-']) {
            let sign = if s.starts_with('-') { -1 } else { 1 };
            let (h, m) = match rest.split_once(':') {
                Some((h, m)) => (h, m),
                None if rest.len() == 4 => rest.split_at(2),
                None => (rest, "0"),
            };
            let digits =
                |x: &str| !x.is_empty() && x.len() <= 2 && x.bytes().all(|b| b.is_ascii_digit());
            if !digits(h) || !digits(m) {
                return Err(bad());
            }
            let (h, m): (i32, i32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
            if h > 23 || m > 59 {
                return Err(bad());
            }
            return FixedOffset::east_opt(sign * (h * 3600 + m * 60))
                .map(Zone::Fixed)
                .ok_or_else(bad);
        }
        s.parse::<chrono_tz::Tz>()
            .map(Zone::Named)
            .map_err(|_| bad())
    }

    /// True for UTC (the default, where local and UTC times are the same).
    pub fn is_utc(&self) -> bool {
        match self {
            Zone::Fixed(o) => o.local_minus_utc() == 0,
            Zone::Named(tz) => *tz == chrono_tz::UTC,
        }
    }

    /// The zone as the user wrote it, normalised (`Europe/Berlin`, `+02:00`).
    pub fn name(&self) -> String {
        match self {
            Zone::Fixed(o) if o.local_minus_utc() == 0 => "UTC".to_owned(),
            Zone::Fixed(o) => o.to_string(),
            Zone::Named(tz) => tz.name().to_owned(),
        }
    }

    /// Seconds east of UTC at the instant `t`.
    pub fn offset_secs(&self, t: &DateTime<Utc>) -> i32 {
        match self {
            Zone::Fixed(o) => o.local_minus_utc(),
            Zone::Named(tz) => tz
                .offset_from_utc_datetime(&t.naive_utc())
                .fix()
                .local_minus_utc(),
        }
    }

    /// The offset in force at `t`, as a fixed offset.
    pub fn offset_at(&self, t: &DateTime<Utc>) -> FixedOffset {
        FixedOffset::east_opt(self.offset_secs(t)).expect("zone offsets are under a day")
    }

    /// True for a local time the clocks show twice (the hour repeated when
    /// they go back).
    pub fn repeats(&self, local: NaiveDateTime) -> bool {
        match self {
            Zone::Fixed(_) => false,
            Zone::Named(tz) => matches!(tz.from_local_datetime(&local), LocalResult::Ambiguous(..)),
        }
    }

    /// The local calendar day of `t`.
    pub fn local_date(&self, t: &DateTime<Utc>) -> NaiveDate {
        t.with_timezone(&self.offset_at(t)).date_naive()
    }

    /// `t` as RFC 3339 with the local offset (`2026-08-02T00:40:00+02:00`).
    /// An offset with seconds (local mean time before standard zones,
    /// `+00:53:28`) is printed whole: RFC 3339 has no room for it, and
    /// rounding it would print another instant.
    pub fn format(&self, t: &DateTime<Utc>) -> String {
        let offset = self.offset_at(t);
        let local = t.with_timezone(&offset);
        let text = local.to_rfc3339_opts(SecondsFormat::AutoSi, true);
        if offset.local_minus_utc() % 60 == 0 {
            return text;
        }
        let cut = text.len() - "+00:00".len();
        format!("{}{}", &text[..cut], local.format("%::z"))
    }

    /// The UTC instant of a local wall-clock time. An ambiguous time (the
    /// hour repeated when clocks go back) is its earlier instant; a time
    /// skipped when clocks go forward is an error.
    pub fn from_local(&self, local: NaiveDateTime) -> Result<DateTime<Utc>, String> {
        let r = match self {
            Zone::Fixed(o) => o.from_local_datetime(&local).map(|t| t.with_timezone(&Utc)),
            Zone::Named(tz) => tz
                .from_local_datetime(&local)
                .map(|t| t.with_timezone(&Utc)),
        };
        match r {
            LocalResult::Single(t) => Ok(t),
            LocalResult::Ambiguous(a, b) => Ok(a.min(b)),
            LocalResult::None => Err(format!(
                "{} does not exist in {} (the clocks skip it)",
                local.format("%Y-%m-%dT%H:%M:%S"),
                self.name()
            )),
        }
    }

    /// The first instant of the local day `d`: midnight, or where a zone
    /// skips midnight itself, the first minute that exists that day.
    pub fn midnight(&self, d: NaiveDate) -> DateTime<Utc> {
        let start = d.and_hms_opt(0, 0, 0).expect("midnight exists");
        (0..=24 * 60)
            .find_map(|m| self.from_local(start + Duration::minutes(m)).ok())
            .unwrap_or_else(|| start.and_utc())
    }
}

/// Parses `--from`/`--to`: RFC 3339 with an offset; a local date-time
/// without one (`2026-08-02T00:40`) in `zone`; or a date (`2026-08-02`)
/// meaning that day's local midnight in `zone`.
pub fn parse_bound(s: &str, zone: &Zone) -> Result<DateTime<Utc>, String> {
    let s = s.trim();
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Ok(zone.midnight(d));
    }
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Ok(t.with_timezone(&Utc));
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(local) = NaiveDateTime::parse_from_str(s, f) {
            return zone.from_local(local);
        }
    }
    Err(format!(
        "{s:?} is neither an RFC 3339 time (2026-08-02T10:15:00Z), a local time (2026-08-02T10:15) nor a date (2026-08-02)"
    ))
}

/// Parses a `--since` span: a whole number with a unit, `s`, `m`, `h`, `d`
/// or `w` (`90m`, `36h`, `7d`, `2w`).
pub fn parse_span(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let bad = || format!("{s:?} is not a span: give a number and a unit, e.g. 90m, 36h, 7d, 2w");
    let unit = s.chars().last().ok_or_else(bad)?;
    let n: i64 = s[..s.len() - unit.len_utf8()].parse().map_err(|_| bad())?;
    if n < 0 {
        return Err(bad());
    }
    let secs = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        'w' => 7 * 86_400,
        _ => return Err(bad()),
    };
    n.checked_mul(secs)
        .and_then(Duration::try_seconds)
        .ok_or_else(bad)
}

/// The resolved filter. Empty lists and `None` match everything.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Inclusive lower bound on `created_at`.
    pub from: Option<DateTime<Utc>>,
    /// Exclusive upper bound on `created_at`.
    pub to: Option<DateTime<Utc>>,
    pub agents: Vec<String>,
    pub channels: Vec<String>,
    pub models: Vec<String>,
    pub turn_ids: Vec<String>,
    pub conversations: Vec<String>,
    /// Over the reply text: selects turns; the text itself is never printed by it.
    pub grep: Option<regex::Regex>,
    pub verdicts: Vec<Verdict>,
    /// Turns citing at least one chunk whose score is under this.
    pub cited_below: Option<f64>,
    /// Turns whose confidence is under this (a null confidence never is).
    pub confidence_below: Option<f64>,
    /// Only turns Orbit's `require_citation` would refuse (`report --would-block`).
    pub would_block: bool,
}

fn any_is(list: &[String], v: &str) -> bool {
    list.is_empty() || list.iter().any(|x| x == v)
}

impl Filter {
    /// Checks what can be decided before grading. The reply is decoded only
    /// when `--grep` asks for it, so the native fast path keeps reading
    /// replies raw otherwise.
    pub fn keep_turn(&self, t: &Turn<'_>) -> bool {
        self.from.is_none_or(|f| t.created_at >= f)
            && self.to.is_none_or(|to| t.created_at < to)
            && any_is(&self.agents, &t.agent_id)
            && any_is(&self.channels, &t.channel)
            && (self.turn_ids.is_empty()
                || self.turn_ids.iter().any(|x| same_id(x, t.turn_id.as_str())))
            && (self.conversations.is_empty()
                || t.conversation_id
                    .as_ref()
                    .is_some_and(|c| any_is(&self.conversations, c.as_str())))
            && (self.models.is_empty()
                || t.model.as_deref().is_some_and(|m| any_is(&self.models, m)))
            && self.grep.as_ref().is_none_or(|re| match &t.answer {
                Answer::Reply(r) => re.is_match(&r.decoded()),
                _ => false,
            })
    }

    /// Checks what needs the verdict.
    pub fn keep_row(&self, r: &Row<'_>) -> bool {
        (self.verdicts.is_empty() || self.verdicts.contains(&r.verdict))
            && (!self.would_block || crate::grade::row_refused(r))
            && self
                .confidence_below
                .is_none_or(|s| r.confidence.is_some_and(|c| c < s))
            && self.cited_below.is_none_or(|s| {
                r.cited_chunks.iter().any(|&i| {
                    r.chunks
                        .get((i as usize).wrapping_sub(1))
                        .and_then(|c| c.score)
                        .is_some_and(|score| score < s)
                })
            })
    }
}

/// The value a near miss is compared by: lower case, separators dropped,
/// so `Billing_Bot`, `billing-bot` and `billingbot` are the same.
pub fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | ' ' | '/' | ':'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// For each value a filter asked for that matched no turn, the values the
/// input does hold that differ from it only in case or separators
/// (`billing_bot` for `--agent billing-bot`). `seen` is every distinct
/// value of that field in the input, within the other filters.
pub fn near_misses<'a>(
    asked: &'a [String],
    seen: impl IntoIterator<Item = &'a str> + Clone,
) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut out = Vec::new();
    for a in asked {
        if seen.clone().into_iter().any(|s| s == a) {
            continue;
        }
        let fa = fold(a);
        let mut close: Vec<&str> = seen.clone().into_iter().filter(|s| fold(s) == fa).collect();
        close.sort_unstable();
        close.dedup();
        if !close.is_empty() {
            out.push((a.as_str(), close));
        }
    }
    out
}

/// How times are written: UTC RFC 3339 with `Z` (the default), or with
/// `--show-tz` the local time in the `--tz` zone with its offset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clock {
    pub zone: crate::filter::Zone,
    pub local: bool,
}

impl Clock {
    /// `t` as it is shown.
    pub fn time(&self, t: &chrono::DateTime<chrono::Utc>) -> String {
        if self.local {
            self.zone.format(t)
        } else {
            crate::model::format_time(t)
        }
    }
}

/// Whether a `--grep` pattern asks for case (smart case, as ripgrep): an
/// upper-case letter that is not the name of an escape (`\S`, `\W`, `\D`,
/// `\B`, `\A`, `\Z`, `\P{..}`) makes the pattern case-sensitive.
pub fn has_upper(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            // An escape's name, and a class name in `\p{..}`, are not text.
            // `\pL` names a one-letter class; `\p{Greek}` a longer one.
            if matches!(chars.next(), Some('p' | 'P')) && chars.next() == Some('{') {
                chars.by_ref().find(|&c| c == '}');
            }
        } else if c.is_uppercase() {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn zones_parse_names_and_offsets() {
        assert_eq!(Zone::parse("+02:00").unwrap().name(), "+02:00");
        assert_eq!(Zone::parse("-0530").unwrap().name(), "-05:30");
        assert_eq!(Zone::parse("+2").unwrap().name(), "+02:00");
        assert!(Zone::parse("Z").unwrap().is_utc());
        assert!(Zone::parse("utc").unwrap().is_utc());
        assert_eq!(
            Zone::parse("Europe/Berlin").unwrap().name(),
            "Europe/Berlin"
        );
        for bad in ["2", "+25:00", "+02:61", "Mars/Olympus", "", "+", "+1:2:3"] {
            assert!(Zone::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn date_only_bounds_are_local_midnights_across_daylight_saving() {
        let berlin = Zone::parse("Europe/Berlin").unwrap();
        // Summer (CEST, +02:00) and winter (CET, +01:00).
        assert_eq!(
            parse_bound("2026-08-02", &berlin).unwrap(),
            at("2026-08-01T22:00:00Z")
        );
        assert_eq!(
            parse_bound("2026-01-15", &berlin).unwrap(),
            at("2026-01-14T23:00:00Z")
        );
        // The day clocks go forward (29 March 2026) is 23 hours long.
        let a = parse_bound("2026-03-29", &berlin).unwrap();
        let b = parse_bound("2026-03-30", &berlin).unwrap();
        assert_eq!((b - a).num_hours(), 23);
        // A local time without an offset is read in the zone; one the clocks skip is an error.
        assert_eq!(
            parse_bound("2026-08-02T00:40", &berlin).unwrap(),
            at("2026-08-01T22:40:00Z")
        );
        assert!(parse_bound("2026-03-29T02:30", &berlin).is_err());
        // The repeated hour when clocks go back is its earlier instant.
        assert_eq!(
            parse_bound("2026-10-25T02:30", &berlin).unwrap(),
            at("2026-10-25T00:30:00Z")
        );
        // RFC 3339 keeps its own offset; UTC dates stay UTC midnights.
        assert_eq!(
            parse_bound("2026-08-02T00:40:00+02:00", &berlin).unwrap(),
            at("2026-08-01T22:40:00Z")
        );
        assert_eq!(
            parse_bound("2026-08-02", &Zone::utc()).unwrap(),
            at("2026-08-02T00:00:00Z")
        );
    }

    #[test]
    fn a_zone_that_skips_midnight_starts_the_day_at_its_first_minute() {
        // Santiago moves clocks forward at 00:00 (2026-09-06 00:00 does not exist).
        let z = Zone::parse("America/Santiago").unwrap();
        let d = NaiveDate::from_ymd_opt(2026, 9, 6).unwrap();
        let m = z.midnight(d);
        assert_eq!(z.local_date(&m), d);
        assert_eq!(z.format(&m), "2026-09-06T01:00:00-03:00");
    }

    #[test]
    fn local_dates_and_formatting_follow_the_offset_in_force() {
        let berlin = Zone::parse("Europe/Berlin").unwrap();
        let t = at("2026-08-01T22:40:00Z");
        assert_eq!(berlin.local_date(&t).to_string(), "2026-08-02");
        assert_eq!(berlin.format(&t), "2026-08-02T00:40:00+02:00");
        assert_eq!(
            berlin.format(&at("2026-01-01T12:00:00Z")),
            "2026-01-01T13:00:00+01:00"
        );
        // New York kept local mean time, 4:56:02 behind UTC, until 1883.
        let ny = Zone::parse("America/New_York").unwrap();
        let lmt = ny.format(&at("1880-01-01T00:00:00Z"));
        // 19:03:58 + 4:56:02 is midnight: the same instant, to the second.
        assert_eq!(lmt, "1879-12-31T19:03:58-04:56:02");
    }

    #[test]
    fn smart_case_looks_past_escapes() {
        assert!(!has_upper("refund"));
        assert!(has_upper("Refund"));
        assert!(!has_upper(r"refund\s+\Dday"));
        assert!(has_upper(r"\SRefund"));
        assert!(has_upper("ÉTÉ"));
        assert!(!has_upper(r"\p{Greek}+ \PL"));
    }

    #[test]
    fn spans_parse() {
        assert_eq!(parse_span("7d").unwrap(), Duration::days(7));
        assert_eq!(parse_span("36h").unwrap(), Duration::hours(36));
        assert_eq!(parse_span("90m").unwrap(), Duration::minutes(90));
        assert_eq!(parse_span("2w").unwrap(), Duration::days(14));
        for bad in ["", "7", "d", "-1d", "1.5h", "7y", "99999999999999999w"] {
            assert!(parse_span(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn near_misses_differ_only_in_case_or_separators() {
        let asked = vec![
            "billing-bot".to_owned(),
            "support-bot".to_owned(),
            "x".to_owned(),
        ];
        let seen = ["Billing_Bot", "billing.bot", "support-bot", "voice"];
        let m = near_misses(&asked, seen.iter().copied());
        assert_eq!(m, vec![("billing-bot", vec!["Billing_Bot", "billing.bot"])]);
    }
}

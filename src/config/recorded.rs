//! The options a partial records, read back by `merge`: what the merged
//! state is rebuilt with. A value this build cannot read is a usage error
//! naming the option.

use crate::accumulate::summary::{Bucket, GroupBy, SummaryOptions};
use crate::exit;
use anyhow::Result;
use std::collections::BTreeMap;

/// The summary options recorded in a partial's options.
pub fn summary_options(o: &BTreeMap<String, String>) -> Result<SummaryOptions> {
    use crate::model::Named;
    let get = |k: &str| {
        o.get(k)
            .map(String::as_str)
            .ok_or_else(|| exit::usage(format!("partial: option {k} is missing")))
    };
    let bad = |k: &str| exit::usage(format!("partial: option {k} is not valid"));
    Ok(SummaryOptions {
        by: GroupBy::from_name(get("--by")?).ok_or_else(|| bad("--by"))?,
        triage: get("--triage")?.parse().map_err(|_| bad("--triage"))?,
        tz: super::zone_from(Some(get("--tz")?), None).map_err(|_| bad("--tz"))?,
        low_score: get("--low-score")?
            .parse()
            .map_err(|_| bad("--low-score"))?,
        bucket: Bucket::from_name(get("--bucket")?).ok_or_else(|| bad("--bucket"))?,
    })
}

/// The `--tz` the partials were made in.
pub fn zone_of(options: &BTreeMap<String, String>) -> Result<crate::filter::Zone> {
    let tz = options.get("--tz").map(String::as_str);
    super::zone_from(tz, None).map_err(|_| exit::usage("partial: option --tz is not valid"))
}

/// The `--limit` report partials were made with.
pub fn report_limit(options: &BTreeMap<String, String>) -> Result<usize> {
    options
        .get("--limit")
        .and_then(|l| l.parse::<usize>().ok())
        .filter(|&l| l > 0)
        .ok_or_else(|| exit::usage("partial: option --limit is missing or not valid"))
}

/// Whether report partials list a conversation (`--conversation`): the
/// whole conversation, oldest first, on one page.
pub fn conversation(options: &BTreeMap<String, String>) -> bool {
    options
        .get("--conversation")
        .is_some_and(|c| c != "[]" && !c.is_empty())
}

/// The time window the partials recorded (`--from`, `--to`, resolved).
pub fn window_of(
    options: &std::collections::BTreeMap<String, String>,
    zone: &crate::filter::Zone,
) -> Result<crate::view::summary::WindowDoc> {
    let bound = |k: &str| -> Result<Option<chrono::DateTime<chrono::Utc>>> {
        match options.get(k).map(String::as_str) {
            None | Some("-") => Ok(None),
            Some(t) => chrono::DateTime::parse_from_rfc3339(t)
                .map(|t| Some(t.to_utc()))
                .map_err(|_| crate::exit::usage(format!("partial: option {k} is not a time"))),
        }
    };
    Ok(crate::view::summary::window_doc(
        bound("--from")?,
        bound("--to")?,
        zone,
    ))
}

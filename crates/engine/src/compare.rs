//! Did it get worse: a baseline against the current counts, per group and
//! overall, and when a group's rate changed. Pure: the baseline arrives as
//! counts (read from a saved `summary --format json` document by
//! [`Counts::from_summary_json`], or rolled up from a time window of the
//! same logs), and the view is plain data for `render/`.

use crate::accumulate::Rollup;
use crate::stats::{self, Difference};
use anyhow::{Context, Result, anyhow};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

mod ratchet;
pub use ratchet::better_baseline;

/// Grounded turns out of turns with retrieval: one side of a comparison.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Side {
    pub grounded: u64,
    pub with_retrieval: u64,
}

impl Side {
    /// The grounded rate; None without a turn with retrieval.
    pub fn rate(&self) -> Option<f64> {
        (self.with_retrieval > 0).then(|| self.grounded as f64 / self.with_retrieval as f64)
    }
}

impl From<&Rollup> for Side {
    fn from(r: &Rollup) -> Side {
        Side {
            grounded: r.grounded(),
            with_retrieval: r.with_retrieval,
        }
    }
}

/// A trend: counts by bucket label (`2026-08-02`, `2026-08-02T10`, `2026-W31`).
pub type Series = BTreeMap<String, Side>;

/// Counts overall and per group: what a baseline holds, with its trends
/// (so a change that began inside the baseline can still be dated).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// The grouping key the groups are by (`agent`, `channel`, `model`).
    pub group_by: String,
    pub overall: Side,
    pub groups: BTreeMap<String, Side>,
    /// The trend's bucket width (`day` for documents that predate `--bucket`).
    pub bucket: String,
    pub days: Series,
    pub group_days: BTreeMap<String, Series>,
    /// The options the counts were graded under (`grading` of a baseline
    /// written by `check --write-baseline`; none for a plain summary).
    pub grading: Option<Grading>,
}

/// The version of the `grading` record [`Grading`] reads and `check
/// --write-baseline` writes: `{"version": 2, "settings": {"--retrievals":
/// "prompt", "--agent": [], "--grep": null, "--assembly-window": 50000, …}}`,
/// each setting by its flag and as typed JSON. Version 1 (no `version`)
/// was a flat map of flags to strings.
pub const GRADING_VERSION: u64 = 2;

/// The settings a baseline was graded under, as it recorded them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grading {
    pub version: u64,
    /// By flag; in version 1 every value is a string.
    pub settings: BTreeMap<String, serde_json::Value>,
}

impl Grading {
    /// Reads a `grading` member of either version.
    fn read(g: &serde_json::Value) -> Option<Grading> {
        let g = g.as_object()?;
        match (g.get("version").and_then(|v| v.as_u64()), g.get("settings")) {
            (Some(version), Some(serde_json::Value::Object(s))) => Some(Grading {
                version,
                settings: s.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            }),
            _ => Some(Grading {
                version: 1,
                settings: g.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            }),
        }
    }
}

impl Counts {
    /// The trend of one group, or of the whole log for None.
    pub fn series(&self, key: Option<&str>) -> Option<&Series> {
        match key {
            None => Some(&self.days),
            Some(k) => self.group_days.get(k),
        }
    }
}

/// A baseline trend followed by the current one (the current counts win
/// for a bucket both hold: they come from the same logs).
pub fn joined<'a>(
    base: Option<&Series>,
    current: impl IntoIterator<Item = (String, &'a Rollup)>,
) -> Series {
    let mut s = base.cloned().unwrap_or_default();
    for (label, r) in current {
        s.insert(label, r.into());
    }
    s
}

impl Counts {
    /// Counts from rollups.
    pub fn from_rollups<'a>(
        group_by: &str,
        overall: &Rollup,
        groups: impl IntoIterator<Item = (&'a String, &'a Rollup)>,
    ) -> Counts {
        Counts {
            group_by: group_by.to_owned(),
            overall: overall.into(),
            groups: groups
                .into_iter()
                .map(|(k, r)| (k.clone(), r.into()))
                .collect(),
            bucket: "day".to_owned(),
            ..Counts::default()
        }
    }

    /// Reads the counts of a saved `summary --format json` document (what
    /// `check --write-baseline` writes): `totals`, `group_by` and each
    /// group's `key`, `grounded` and `with_retrieval`. Every other key is
    /// ignored, so documents of earlier and later versions still read.
    pub fn from_summary_json(text: &str) -> Result<Counts> {
        let v: serde_json::Value = serde_json::from_str(text).context("not a JSON document")?;
        let side = |o: &serde_json::Value, what: &str| -> Result<Side> {
            let n = |k: &str| {
                o.get(k).and_then(|x| x.as_u64()).ok_or_else(|| {
                    anyhow!("{what}: `{k}` is missing or not a count (expected a `summary --format json` document)")
                })
            };
            let side = Side {
                grounded: n("grounded")?,
                with_retrieval: n("with_retrieval")?,
            };
            if side.grounded > side.with_retrieval {
                return Err(anyhow!("{what}: grounded is larger than with_retrieval"));
            }
            Ok(side)
        };
        let totals = v
            .get("totals")
            .ok_or_else(|| anyhow!("no `totals`: expected a `summary --format json` document"))?;
        let overall = side(totals, "totals")?;
        let group_by = v
            .get("group_by")
            .and_then(|g| g.as_str())
            .unwrap_or("agent")
            .to_owned();
        let mut groups = BTreeMap::new();
        for (i, g) in v
            .get("groups")
            .and_then(|g| g.as_array())
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let key = g
                .get("key")
                .and_then(|k| k.as_str())
                .ok_or_else(|| anyhow!("groups[{i}]: `key` is missing or not a string"))?;
            groups.insert(key.to_owned(), side(g, &format!("groups[{i}] ({key})"))?);
        }
        let bucket = v
            .get("bucket")
            .and_then(|b| b.as_str())
            .unwrap_or("day")
            .to_owned();
        let label =
            |o: &serde_json::Value| o.get("day").and_then(|d| d.as_str()).map(str::to_owned);
        let mut days = Series::new();
        for (i, d) in v
            .get("days")
            .and_then(|d| d.as_array())
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let l = label(d).ok_or_else(|| anyhow!("days[{i}]: `day` is missing"))?;
            days.insert(l, side(d, &format!("days[{i}]"))?);
        }
        let mut group_days: BTreeMap<String, Series> = BTreeMap::new();
        for (i, d) in v
            .get("group_days")
            .and_then(|d| d.as_array())
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let (Some(key), Some(l)) = (d.get("key").and_then(|k| k.as_str()), label(d)) else {
                return Err(anyhow!("group_days[{i}]: `key` or `day` is missing"));
            };
            group_days
                .entry(key.to_owned())
                .or_default()
                .insert(l, side(d, &format!("group_days[{i}]"))?);
        }
        let grading = v.get("grading").and_then(Grading::read);
        Ok(Counts {
            group_by,
            overall,
            groups,
            bucket,
            days,
            group_days,
            grading,
        })
    }
}

/// When a group's rate changed: the most likely change point of its series
/// (see [`stats::significant_change`]), kept only when the rate fell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub before_rate: f64,
    pub after_rate: f64,
    /// The label of the first bucket after the change (a day by default).
    pub since: String,
    /// The likelihood-ratio statistic of the split.
    pub lr: f64,
}

impl Change {
    /// `change day 2026-08-02, 0.9400 before it and 0.7900 from it on`:
    /// the rates of the series split at its change day (not the baseline
    /// and current rates of a comparison).
    pub fn describe(&self) -> String {
        format!(
            "change day {}, {} before it and {} from it on",
            self.since,
            crate::stats::rate_text(Some(self.before_rate)),
            crate::stats::rate_text(Some(self.after_rate))
        )
    }
}

/// The significant drop in a series, if there is one.
pub fn drop_in(series: &Series) -> Option<Change> {
    let (labels, counts): (Vec<&String>, Vec<(u64, u64)>) = series
        .iter()
        .map(|(l, s)| (l, (s.grounded, s.with_retrieval)))
        .unzip();
    let c = stats::significant_change(&counts)?;
    (c.after_rate() < c.before_rate()).then(|| Change {
        before_rate: c.before_rate(),
        after_rate: c.after_rate(),
        since: labels[c.index].clone(),
        lr: c.lr,
    })
}

/// One row of a comparison: a group, or the whole log.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The group key; None for the whole log.
    pub key: Option<String>,
    pub baseline: Option<Side>,
    pub current: Option<Side>,
    pub baseline_rate: Option<f64>,
    pub current_rate: Option<f64>,
    /// current − baseline, with its Newcombe interval; None when a side has
    /// no turn with retrieval.
    pub difference: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub significant: bool,
    /// When the current rate fell, the day it began (if the series shows one).
    pub change: Option<Change>,
}

impl Row {
    fn new(key: Option<String>, base: Option<Side>, cur: Option<Side>, z: f64) -> Row {
        let d: Option<Difference> = match (base, cur) {
            (Some(b), Some(c)) => stats::newcombe(
                c.grounded,
                c.with_retrieval,
                b.grounded,
                b.with_retrieval,
                z,
            ),
            _ => None,
        };
        Row {
            key,
            baseline_rate: base.and_then(|b| b.rate()),
            current_rate: cur.and_then(|c| c.rate()),
            baseline: base,
            current: cur,
            difference: d.map(|d| d.diff),
            low: d.map(|d| d.low),
            high: d.map(|d| d.high),
            significant: d.is_some_and(|d| d.significant()),
            change: None,
        }
    }

    /// A significant fall.
    pub fn significant_drop(&self) -> bool {
        self.significant && self.difference.is_some_and(|d| d < 0.0)
    }

    /// The row's name: its key, or `overall`.
    pub fn name(&self) -> &str {
        self.key.as_deref().unwrap_or("overall")
    }
}

/// `billing-bot: 0.9257 → 0.8000 (baseline → this window)`, and when the
/// change day is known `; change day 2026-08-02, 0.9400 before it and
/// 0.7900 from it on`: each pair of rates named for what it compares.
impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} → {} (baseline → this window)",
            self.name(),
            crate::stats::rate_text(self.baseline_rate),
            crate::stats::rate_text(self.current_rate)
        )?;
        if let Some(c) = &self.change {
            write!(f, "; {}", c.describe())?;
        }
        Ok(())
    }
}

/// The comparison view.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// Where the baseline came from (a file, or a time window).
    pub baseline: String,
    pub confidence: f64,
    pub group_by: String,
    pub overall: Row,
    /// Worst significant drop first, then the other drops, then the rest
    /// (by difference, then key); groups on one side only last.
    pub groups: Vec<Row>,
}

/// Compares current counts with a baseline at `confidence`. `changes`
/// gives, per group key (and `None` for overall), the drop found in the
/// current series, attached to rows whose rate fell.
pub fn compare(
    baseline_name: String,
    base: &Counts,
    cur: &Counts,
    confidence: f64,
    mut changes: impl FnMut(Option<&str>) -> Option<Change>,
) -> Comparison {
    let z = stats::z_for(confidence);
    let mut overall = Row::new(None, Some(base.overall), Some(cur.overall), z);
    if overall.difference.is_some_and(|d| d < 0.0) {
        overall.change = changes(None);
    }
    let mut keys: Vec<&String> = base.groups.keys().chain(cur.groups.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut groups: Vec<Row> = keys
        .into_iter()
        .map(|k| {
            let mut r = Row::new(
                Some(k.clone()),
                base.groups.get(k).copied(),
                cur.groups.get(k).copied(),
                z,
            );
            if r.difference.is_some_and(|d| d < 0.0) {
                r.change = changes(Some(k));
            }
            r
        })
        .collect();
    let rank = |r: &Row| match r.difference {
        Some(_) if r.significant_drop() => 0,
        Some(d) if d < 0.0 => 1,
        Some(_) => 2,
        None => 3,
    };
    groups.sort_by(|a, b| {
        rank(a)
            .cmp(&rank(b))
            .then_with(|| {
                a.difference
                    .unwrap_or(0.0)
                    .total_cmp(&b.difference.unwrap_or(0.0))
            })
            .then_with(|| a.key.cmp(&b.key))
    });
    Comparison {
        baseline: baseline_name,
        confidence,
        group_by: cur.group_by.clone(),
        overall,
        groups,
    }
}

/// The counts of a finished summary, as a baseline holds them.
pub fn counts_of(s: &crate::accumulate::summary::Summary) -> Counts {
    let (bucket, tz) = (s.opts.bucket, s.opts.tz);
    let series = |t: &std::collections::BTreeMap<i64, crate::accumulate::Rollup>| {
        joined(None, t.iter().map(|(i, r)| (bucket.label(*i, &tz), r)))
    };
    Counts {
        bucket: bucket.as_str().to_owned(),
        days: series(&s.trend),
        group_days: s
            .groups
            .iter()
            .map(|(k, g)| (k.clone(), series(&g.trend)))
            .collect(),
        ..Counts::from_rollups(
            s.opts.by.as_str(),
            &s.overall().rollup,
            s.groups.iter().map(|(k, g)| (k, &g.rollup)),
        )
    }
}

/// The summary compared with the baseline `b` (named `base_name`).
pub fn compare_summary(
    summary: &crate::accumulate::summary::Summary,
    base_name: String,
    b: &Counts,
    confidence: f64,
) -> Comparison {
    let (bucket, tz) = (summary.opts.bucket, summary.opts.tz);
    compare(base_name, b, &counts_of(summary), confidence, |key| {
        let current = match key {
            None => &summary.trend,
            Some(k) => &summary.groups.get(k)?.trend,
        };
        // The change is dated over the baseline's trend and the current
        // one together, when their buckets agree.
        let before = (b.bucket == bucket.as_str())
            .then(|| b.series(key))
            .flatten();
        drop_in(&joined(
            before,
            current.iter().map(|(i, r)| (bucket.label(*i, &tz), r)),
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(k: u64, n: u64) -> Side {
        Side {
            grounded: k,
            with_retrieval: n,
        }
    }

    #[test]
    fn worst_significant_drop_ranks_first() {
        let mut base = Counts::default();
        let mut cur = Counts::default();
        for (k, b, c) in [
            ("a", side(95, 100), side(94, 100)),
            ("b", side(950, 1000), side(800, 1000)),
            ("c", side(9, 10), side(5, 10)),
            ("d", side(50, 100), side(70, 100)),
            ("new", side(0, 0), side(5, 5)),
        ] {
            base.groups.insert(k.into(), b);
            cur.groups.insert(k.into(), c);
        }
        base.overall = side(1104, 1210);
        cur.overall = side(974, 1215);
        let c = compare("x".into(), &base, &cur, 0.95, |_| None);
        let order: Vec<_> = c.groups.iter().map(|r| r.name().to_owned()).collect();
        // b fell significantly; c fell by more but on 10 turns (not significant).
        assert_eq!(order, ["b", "c", "a", "d", "new"]);
        assert!(c.groups[0].significant_drop());
        assert!(!c.groups[1].significant);
        assert!(c.groups[3].significant && !c.groups[3].significant_drop());
        assert!(c.overall.significant_drop());
    }

    /// The two pairs of rates a drop line holds are named for what they
    /// compare, at the precision of the table.
    #[test]
    fn a_drop_names_both_pairs_of_rates() {
        let mut r = Row::new(
            Some("billing-bot".into()),
            Some(side(1000, 1080)),
            Some(side(800, 1000)),
            stats::z_for(0.95),
        );
        assert_eq!(
            r.to_string(),
            "billing-bot: 0.9259 → 0.8000 (baseline → this window)"
        );
        r.change = Some(Change {
            before_rate: 0.93,
            after_rate: 0.73,
            since: "2026-07-29".into(),
            lr: 12.0,
        });
        assert_eq!(
            r.to_string(),
            "billing-bot: 0.9259 → 0.8000 (baseline → this window); change day 2026-07-29, 0.9300 before it and 0.7300 from it on"
        );
    }

    #[test]
    fn reads_a_summary_document() {
        let doc = r#"{"totals":{"turns":3,"with_retrieval":2,"grounded":1},"group_by":"agent",
            "groups":[{"key":"a","with_retrieval":2,"grounded":1,"turns":3}],"later_key":1}"#;
        let c = Counts::from_summary_json(doc).unwrap();
        assert_eq!(c.overall, side(1, 2));
        assert_eq!(c.groups["a"], side(1, 2));
        let bad = Counts::from_summary_json(r#"{"totals":{"grounded":1}}"#).unwrap_err();
        assert!(format!("{bad:#}").contains("with_retrieval"), "{bad:#}");
        assert!(Counts::from_summary_json("[]").is_err());
    }
}

//! The tenant-wide rollup behind `summary`: totals, a breakdown by agent,
//! channel or model, the daily trend, the triage list, retrieval use, tool
//! calls and telemetry per verdict. Memory is bounded by the number of
//! groups, days, distinct latency buckets and the triage size; never by the
//! number of turns. Every count is an integer, so any split of the input
//! merges to the same result.

use super::Rollup;
use super::triage::Triage;
use crate::model::{Row, Verdict};
use crate::pipeline::{Accumulator, Graded};
use chrono::{Datelike, NaiveDate};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// Group keys are hashed once per turn: one-shot xxh3 instead of SipHash on
/// this hot path (see [`OneShot`]). Iteration order never reaches output:
/// groups are sorted before they are shown.
type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<OneShot>>;

/// A hasher for short keys written in one piece (a `str` is its bytes, then
/// one `0xff` byte): each `write` is a one-shot xxh3 seeded with the state so
/// far. xxh3's streaming hasher copies every key into a 256-byte buffer and
/// carries a large state; on a one-thread `summary` that copying alone was
/// about 4 % of the CPU time.
#[derive(Default)]
pub struct OneShot(u64);

impl Hasher for OneShot {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = xxhash_rust::xxh3::xxh3_64_with_seed(bytes, self.0);
    }
    fn write_u8(&mut self, i: u8) {
        // The terminator of a `str`: fold it in without another hash call.
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// How chunks were used by the replies that had retrieval.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct RetrievalUse {
    /// Chunks retrieved for observed turns with retrieval.
    pub chunks_retrieved: u64,
    /// Distinct chunks those replies cited.
    pub chunks_cited: u64,
    /// Turns whose reply cites the top-ranked chunk and nothing else.
    pub turns_citing_only_top: u64,
    /// Sum of the ranks (1-based indexes) of cited chunks, for the mean.
    pub cited_rank_sum: u64,
    /// Citations of a chunk whose score is below `--low-score`.
    pub low_confidence_citations: u64,
    /// Turns citing both a chunk at or above `--low-score` and one below it.
    pub mixed_confidence_turns: u64,
    /// The scores of the cited chunks and of the uncited ones.
    pub scores: ScoreDistribution,
}

impl RetrievalUse {
    fn add(&mut self, r: &Row<'_>, low: f64) {
        if !r.with_retrieval() {
            return;
        }
        self.chunks_retrieved += r.chunk_count as u64;
        self.chunks_cited += r.cited_chunks.len() as u64;
        self.turns_citing_only_top += (r.cited_chunks == [1]) as u64;
        self.scores.add(r);
        let (mut high_seen, mut low_seen) = (false, false);
        for &i in &r.cited_chunks {
            self.cited_rank_sum += i as u64;
            match r.chunks.get(i as usize - 1).and_then(|c| c.score) {
                Some(s) if s < low => {
                    self.low_confidence_citations += 1;
                    low_seen = true;
                }
                Some(_) => high_seen = true,
                None => {}
            }
        }
        self.mixed_confidence_turns += (high_seen && low_seen) as u64;
    }
    fn merge(&mut self, o: &RetrievalUse) {
        self.chunks_retrieved += o.chunks_retrieved;
        self.chunks_cited += o.chunks_cited;
        self.turns_citing_only_top += o.turns_citing_only_top;
        self.cited_rank_sum += o.cited_rank_sum;
        self.low_confidence_citations += o.low_confidence_citations;
        self.mixed_confidence_turns += o.mixed_confidence_turns;
        self.scores.merge(&o.scores);
    }
    /// Share of retrieved chunks that were cited.
    pub fn cited_share(&self) -> Option<f64> {
        (self.chunks_retrieved > 0).then(|| self.chunks_cited as f64 / self.chunks_retrieved as f64)
    }
    /// Mean rank of cited chunks.
    pub fn mean_cited_rank(&self) -> Option<f64> {
        (self.chunks_cited > 0).then(|| self.cited_rank_sum as f64 / self.chunks_cited as f64)
    }
}

/// Bins of [`ScoreSeries`]: each 1/20 of the score range [0, 1] wide.
pub const SCORE_BINS: usize = 20;

/// Chunk scores of one kind of chunk (cited or uncited), binned.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ScoreSeries {
    /// Chunks per bin: bin `i` holds scores in [i/20, (i+1)/20), the last
    /// one [0.95, 1] (1 included).
    pub bins: [u64; SCORE_BINS],
    /// Chunks without a score.
    pub unscored: u64,
    /// Chunks scored below 0 or above 1 (a distance or an unnormalised
    /// relevance score): counted here, not piled into an edge bin, where
    /// they would read as very bad or very good matches.
    pub out_of_range: u64,
}

impl ScoreSeries {
    /// The bin of a score, or `None` outside [0, 1].
    pub fn bin(score: f64) -> Option<usize> {
        (0.0..=1.0)
            .contains(&score)
            .then(|| ((score * SCORE_BINS as f64) as usize).min(SCORE_BINS - 1))
    }
    /// The range [low, high] of bin `i`.
    pub fn bin_range(i: usize) -> (f64, f64) {
        let w = 1.0 / SCORE_BINS as f64;
        (i as f64 * w, (i + 1) as f64 * w)
    }
    /// Counts one chunk's score in its bin (or takes it back, `add` false).
    fn count(&mut self, score: Option<f64>, add: bool) {
        let slot = match score {
            None => &mut self.unscored,
            Some(s) => match Self::bin(s) {
                Some(b) => &mut self.bins[b],
                None => &mut self.out_of_range,
            },
        };
        if add {
            *slot += 1;
        } else {
            *slot -= 1;
        }
    }
    fn merge(&mut self, o: &ScoreSeries) {
        self.bins.iter_mut().zip(&o.bins).for_each(|(a, b)| *a += b);
        self.unscored += o.unscored;
        self.out_of_range += o.out_of_range;
    }
    /// Chunks in the bins (scored within [0, 1]).
    pub fn binned(&self) -> u64 {
        self.bins.iter().sum()
    }
    /// Bin `i`'s share of the chunks in the bins: the series normalised to
    /// itself, so a series of 50 chunks reads beside one of 50,000.
    pub fn share(&self, i: usize) -> Option<f64> {
        let n = self.binned();
        (n > 0).then(|| self.bins[i] as f64 / n as f64)
    }
    /// The bin holding the median score of the chunks in the bins (the
    /// lower median for an even count); `None` when no chunk is binned.
    pub fn median_bin(&self) -> Option<usize> {
        let n = self.binned();
        if n == 0 {
            return None;
        }
        let mut seen = 0;
        self.bins.iter().position(|&c| {
            seen += c;
            seen * 2 >= n
        })
    }
    /// Every chunk of the series.
    pub fn total(&self) -> u64 {
        self.binned() + self.unscored + self.out_of_range
    }
}

/// The score distribution of the chunks retrieved for observed turns with
/// retrieval, cited chunks apart from uncited ones: whether replies cite
/// the chunks the retriever scored highest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ScoreDistribution {
    pub cited: ScoreSeries,
    pub uncited: ScoreSeries,
}

impl ScoreDistribution {
    /// Counts every chunk of a turn with retrieval once: as uncited first,
    /// then each cited one moved over (cited indexes are distinct and in
    /// range), so the cost is chunks + citations, not their product.
    fn add(&mut self, r: &Row<'_>) {
        for c in &r.chunks {
            self.uncited.count(c.score, true);
        }
        for &i in &r.cited_chunks {
            if let Some(c) = r.chunks.get(i as usize - 1) {
                self.uncited.count(c.score, false);
                self.cited.count(c.score, true);
            }
        }
    }
    fn merge(&mut self, o: &ScoreDistribution) {
        self.cited.merge(&o.cited);
        self.uncited.merge(&o.uncited);
    }
}

/// Tool calls of a set of turns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ToolUse {
    pub calls: u64,
    pub failed_calls: u64,
    /// Ungrounded turns (no_marker, orphan_marker) with at least one failed call.
    pub ungrounded_with_failed_tool: u64,
}

impl ToolUse {
    fn add(&mut self, r: &Row<'_>) {
        self.calls += r.tool_calls as u64;
        self.failed_calls += r.tool_errors as u64;
        self.ungrounded_with_failed_tool += (r.verdict.is_ungrounded() && r.tool_errors > 0) as u64;
    }
    fn merge(&mut self, o: &ToolUse) {
        self.calls += o.calls;
        self.failed_calls += o.failed_calls;
        self.ungrounded_with_failed_tool += o.ungrounded_with_failed_tool;
    }
}

/// Latency histogram, tokens and cost for one verdict.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Telemetry {
    /// Latency in ms → count. Exact below 10 s, three significant digits above,
    /// so the number of buckets stays small whatever the input.
    pub latency: Histogram,
    /// Summed in 128 bits: no count of turns of up to 2^64 − 1 tokens each
    /// can overflow it, so the sum is exact and any split merges to it.
    pub tokens_used: u128,
    pub turns_with_tokens: u64,
    /// Cost in millionths of a cent, summed as integers; each turn's is
    /// clamped to ±[`COST_LIMIT_MICRO_CENTS`], so no sum can overflow.
    pub cost_micro_cents: i128,
    pub turns_with_cost: u64,
}

/// The largest cost one turn can add, in millionths of a cent (about 92
/// billion dollars): with at most 2^64 turns the `i128` sum cannot overflow,
/// so it stays exact and associative.
pub const COST_LIMIT_MICRO_CENTS: i128 = i64::MAX as i128;

/// Latencies below this many ms are counted exactly, in a dense array.
const EXACT_MS: u64 = 10_000;

/// Counts per latency bucket. The exact range is a short list of samples
/// while there are few of them (a block's, which is merged and dropped), and
/// a dense array once there are more than [`LISTED`] (an index per turn, and
/// a plain sum to merge); the rounded buckets above it, which are few, are
/// an ordered map. A block no longer zeroes, merges and frees five 80 KB
/// arrays for its few hundred samples a verdict.
#[derive(Debug, Clone, Default)]
pub struct Histogram {
    /// Exact-range samples (bucket, count), unsorted; empty once `dense` exists.
    listed: Vec<(u16, u64)>,
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
}

/// Exact-range samples a histogram lists before it spills them into its dense array.
const LISTED: usize = 4096;

impl Histogram {
    /// Counts one bucket (see [`latency_bucket`]).
    pub fn add(&mut self, bucket: u64, n: u64) {
        if bucket < EXACT_MS {
            if self.dense.is_empty() {
                self.listed.push((bucket as u16, n));
                if self.listed.len() > LISTED {
                    self.spill(vec![0; EXACT_MS as usize]);
                }
            } else {
                self.dense[bucket as usize] += n;
            }
        } else {
            *self.sparse.entry(bucket).or_default() += n;
        }
    }
    /// Makes `dense` the dense array and adds the listed samples to it.
    fn spill(&mut self, dense: Vec<u64>) {
        self.dense = dense;
        for (b, n) in self.listed.drain(..) {
            self.dense[usize::from(b)] += n;
        }
    }
    /// Adds another histogram's counts.
    pub fn merge(&mut self, o: &Histogram) {
        if !o.dense.is_empty() {
            if self.dense.is_empty() {
                self.spill(o.dense.clone());
            } else {
                self.dense
                    .iter_mut()
                    .zip(&o.dense)
                    .for_each(|(a, b)| *a += b);
            }
        }
        for &(b, n) in &o.listed {
            self.add(u64::from(b), n);
        }
        for (k, v) in &o.sparse {
            *self.sparse.entry(*k).or_default() += v;
        }
    }
    /// (bucket, count) for every non-empty bucket, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        // One of `listed` and `dense` is empty, so the exact range comes in order.
        let mut listed: BTreeMap<u64, u64> = BTreeMap::new();
        for &(b, n) in &self.listed {
            *listed.entry(u64::from(b)).or_default() += n;
        }
        let dense = self.dense.iter().enumerate().map(|(b, c)| (b as u64, *c));
        dense
            .chain(listed)
            .chain(self.sparse.iter().map(|(b, c)| (*b, *c)))
            .filter(|&(_, c)| c > 0)
    }
    /// Non-empty buckets: what the state's size grows with.
    pub fn buckets(&self) -> usize {
        self.iter().count()
    }
}

/// Equal when they count the same buckets, however each holds them.
impl PartialEq for Histogram {
    fn eq(&self, o: &Histogram) -> bool {
        self.iter().eq(o.iter())
    }
}

impl Eq for Histogram {}

/// The histogram's top bucket, in ms: a latency of 2^64 ms or more (and
/// anything from 1.835e19 up) is counted here, never as 0.
pub const TOP_LATENCY_BUCKET: u64 = 18_400_000_000_000_000_000;

/// The latency bucket of a value in ms: exact below 10 s, three significant
/// digits above; values past the range go to [`TOP_LATENCY_BUCKET`], and
/// negative ones (and NaN) to 0.
pub fn latency_bucket(ms: f64) -> u64 {
    let v = if ms.is_nan() || ms <= 0.0 {
        0
    } else {
        // `as` saturates: +inf and anything past 2^64 become u64::MAX.
        ms.round() as u64
    };
    if v < EXACT_MS {
        return v;
    }
    let unit = 10u64.pow(v.ilog10() - 2);
    // Rounds half up without `v + unit / 2`, which overflows near u64::MAX.
    let (q, r) = (v / unit, v % unit);
    (q + u64::from(r >= unit / 2)) * unit
}

impl Telemetry {
    fn add(&mut self, r: &Row<'_>) {
        if let Some(l) = r.latency_ms {
            self.latency.add(latency_bucket(l), 1);
        }
        if let Some(t) = r.tokens_used {
            self.tokens_used += u128::from(t);
            self.turns_with_tokens += 1;
        }
        if let Some(c) = r.cost_cents.filter(|c| c.is_finite()) {
            let micro =
                ((c * 1e6).round() as i128).clamp(-COST_LIMIT_MICRO_CENTS, COST_LIMIT_MICRO_CENTS);
            self.cost_micro_cents += micro;
            self.turns_with_cost += 1;
        }
    }
    fn merge(&mut self, o: &Telemetry) {
        self.latency.merge(&o.latency);
        self.tokens_used += o.tokens_used;
        self.turns_with_tokens += o.turns_with_tokens;
        self.cost_micro_cents += o.cost_micro_cents;
        self.turns_with_cost += o.turns_with_cost;
    }
    /// The q-quantile (nearest rank) of latency, in ms.
    pub fn latency_quantile(&self, q: f64) -> Option<u64> {
        let n = self.latency_count();
        if n == 0 {
            return None;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (v, c) in self.latency.iter() {
            seen += c;
            if seen >= rank {
                return Some(v);
            }
        }
        None
    }
    /// Latency samples.
    pub fn latency_count(&self) -> u64 {
        self.latency.iter().map(|(_, c)| c).sum()
    }
}

/// What Orbit's `require_citation` guardrail would have done
/// ([`crate::grade::require_citation_refuses`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Guardrail {
    /// Turns that answered (every verdict but `unobserved`).
    pub answered: u64,
    /// Answers the guardrail would refuse: retrieval and no well-formed marker.
    pub refused: u64,
    /// `orphan_marker` turns it would let through (a hallucinated citation is well-formed).
    pub orphans_passed: u64,
}

impl Guardrail {
    fn add(&mut self, r: &Row<'_>) {
        self.answered += u64::from(r.verdict != Verdict::Unobserved);
        if crate::grade::row_refused(r) {
            self.refused += 1;
        } else if r.verdict == Verdict::OrphanMarker {
            self.orphans_passed += 1;
        }
    }
    fn merge(&mut self, o: &Guardrail) {
        self.answered += o.answered;
        self.refused += o.refused;
        self.orphans_passed += o.orphans_passed;
    }
    /// Refused answers over answered turns.
    pub fn refused_share(&self) -> Option<f64> {
        (self.answered > 0).then(|| self.refused as f64 / self.answered as f64)
    }
}

/// Everything about one group (an agent, channel or model).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupStats {
    pub rollup: Rollup,
    pub retrieval: RetrievalUse,
    pub tools: ToolUse,
    pub guardrail: Guardrail,
    /// The group's trend, by bucket index (see [`Bucket::index`]).
    pub trend: BTreeMap<i64, Rollup>,
}

impl GroupStats {
    /// Adds another group's counts (its trend too).
    fn merge(&mut self, o: GroupStats) {
        self.add_counts(&o);
        for (d, r) in o.trend {
            self.trend.entry(d).or_default().merge(&r);
        }
    }
    /// Adds another group's counts, not its trend.
    fn add_counts(&mut self, o: &GroupStats) {
        self.rollup.merge(&o.rollup);
        self.retrieval.merge(&o.retrieval);
        self.tools.merge(&o.tools);
        self.guardrail.merge(&o.guardrail);
    }
}

/// Options of the summary, fixed for a run.
#[derive(Debug, Clone, Copy)]
pub struct SummaryOptions {
    pub by: GroupBy,
    pub triage: usize,
    /// Days are local days in this zone (`--tz`).
    pub tz: crate::filter::Zone,
    pub low_score: f64,
    pub bucket: Bucket,
}

impl SummaryOptions {
    /// The options of the summary a baseline is (`check --write-baseline`):
    /// those of a plain `summary --format json` in the zone `tz`, so the two
    /// documents are the same.
    pub fn baseline(tz: crate::filter::Zone) -> SummaryOptions {
        SummaryOptions {
            by: GroupBy::Agent,
            triage: 20,
            tz,
            low_score: 0.5,
            bucket: Bucket::Day,
        }
    }
}

/// Grouping key of the summary breakdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupBy {
    Agent,
    Channel,
    Model,
}

impl crate::model::Named for GroupBy {
    const ALL: &'static [GroupBy] = &[GroupBy::Agent, GroupBy::Channel, GroupBy::Model];
    fn name(self) -> &'static str {
        self.as_str()
    }
}

impl GroupBy {
    /// The name of the grouping, as `--by` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            GroupBy::Agent => "agent",
            GroupBy::Channel => "channel",
            GroupBy::Model => "model",
        }
    }
}

/// The width of a trend bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bucket {
    /// One row per hour.
    Hour,
    /// One row per day.
    Day,
    /// One row per ISO week (Monday to Sunday), labelled like 2026-W31.
    Week,
}

impl crate::model::Named for Bucket {
    const ALL: &'static [Bucket] = &[Bucket::Hour, Bucket::Day, Bucket::Week];
    fn name(self) -> &'static str {
        match self {
            Bucket::Hour => "hour",
            Bucket::Day => "day",
            Bucket::Week => "week",
        }
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Bucket::Hour => "One row per hour",
            Bucket::Day => "One row per day",
            Bucket::Week => "One row per ISO week (Monday to Sunday), labelled like 2026-W31",
        })
    }
}

/// 1970-01-01 was a Thursday: ISO weeks start three days before it.
const EPOCH_TO_MONDAY_DAYS: i64 = 3;

impl Bucket {
    /// The bucket of the instant `utc_secs` (seconds since 1970-01-01 UTC)
    /// where the zone is `offset` seconds east of UTC: the local day or ISO
    /// week number, or for an hour the UTC second its local hour began, so
    /// that the hour clocks repeat when they go back is two buckets.
    pub fn index(self, utc_secs: i64, offset: i64) -> i64 {
        let local = utc_secs + offset;
        match self {
            Bucket::Hour => local.div_euclid(3_600) * 3_600 - offset,
            Bucket::Day => local.div_euclid(86_400),
            Bucket::Week => (local.div_euclid(86_400) + EPOCH_TO_MONDAY_DAYS).div_euclid(7),
        }
    }

    /// The first local day of a day or week bucket (its day, or its week's Monday).
    fn day_of(self, index: i64) -> NaiveDate {
        let day = match self {
            Bucket::Week => index * 7 - EPOCH_TO_MONDAY_DAYS,
            Bucket::Day | Bucket::Hour => index,
        };
        NaiveDate::from_num_days_from_ce_opt((day + 719_163) as i32).unwrap_or(NaiveDate::MIN)
    }

    /// How a bucket is printed: `2026-08-02`, `2026-08-02T10` (a local hour
    /// in `zone`; an hour the clocks repeat carries its offset,
    /// `2026-10-25T02+02:00` then `2026-10-25T02+01:00`), `2026-W31` (the
    /// ISO week, whose year can differ from the calendar year of its Monday).
    pub fn label(self, index: i64, zone: &crate::filter::Zone) -> String {
        match self {
            Bucket::Day => self.day_of(index).to_string(),
            Bucket::Hour => hour_label(index, zone),
            Bucket::Week => {
                let w = self.day_of(index).iso_week();
                format!("{}-W{:02}", w.year(), w.week())
            }
        }
    }

    /// The name used in titles and JSON: `hour`, `day`, `week`.
    pub fn as_str(self) -> &'static str {
        match self {
            Bucket::Hour => "hour",
            Bucket::Day => "day",
            Bucket::Week => "week",
        }
    }
}

/// The label of the local hour that began at the UTC second `start`.
fn hour_label(start: i64, zone: &crate::filter::Zone) -> String {
    let at = chrono::DateTime::from_timestamp(start, 0).unwrap_or_default();
    let offset = zone.offset_at(&at);
    let local = at.with_timezone(&offset).naive_local();
    let label = local.format("%Y-%m-%dT%H").to_string();
    if zone.repeats(local) {
        format!("{label}{offset}")
    } else {
        label
    }
}

/// The summary accumulator.
#[derive(Debug, Clone)]
pub struct Summary {
    pub opts: SummaryOptions,
    /// Every turn is counted in exactly one group, so the counts of all
    /// turns are the groups' summed ([`Summary::overall`]), not kept twice.
    pub groups: FastMap<String, GroupStats>,
    /// The trend, by bucket index (see [`Bucket::index`]).
    pub trend: BTreeMap<i64, Rollup>,
    pub triage: Triage,
    pub telemetry: [Telemetry; 5],
}

impl Summary {
    /// An empty summary.
    pub fn new(opts: SummaryOptions) -> Summary {
        Summary {
            opts,
            groups: FastMap::default(),
            trend: BTreeMap::new(),
            triage: Triage::new(opts.triage, opts.low_score),
            telemetry: Default::default(),
        }
    }

    /// Adds a bucket's counts to the trend.
    fn add_day(&mut self, bucket: i64, counts: &Rollup) {
        self.trend.entry(bucket).or_default().merge(counts);
    }

    fn group_key<'r>(&self, r: &'r Row<'_>) -> &'r str {
        group_of(self.opts.by, r)
    }
}

/// The group of a row under `--by`.
pub fn group_of<'r>(by: GroupBy, r: &'r Row<'_>) -> &'r str {
    match by {
        GroupBy::Agent => &r.agent_id,
        GroupBy::Channel => &r.channel,
        GroupBy::Model => r.model.as_deref().unwrap_or("(none)"),
    }
}

impl Accumulator for Summary {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        // Logs are mostly in time order: count a run of turns of one bucket
        // locally and touch the trend map once per run, not once per turn.
        // A fixed offset (UTC by default) is one addition per turn; a named
        // zone looks up the offset in force at each turn's instant.
        let fixed = match self.opts.tz {
            crate::filter::Zone::Fixed(o) => Some(o.local_minus_utc() as i64),
            crate::filter::Zone::Named(_) => None,
        };
        let bucket = self.opts.bucket;
        let mut run: Option<(i64, Rollup)> = None;
        for g in rows {
            let r = &g.row;
            self.telemetry[r.verdict.slot()].add(r);
            let offset = fixed.unwrap_or_else(|| self.opts.tz.offset_secs(&r.created_at) as i64);
            let day = bucket.index(r.created_at.timestamp(), offset);
            match &mut run {
                Some((d, acc)) if *d == day => acc.add(r),
                _ => {
                    if let Some((d, acc)) = run.take() {
                        self.add_day(d, &acc);
                    }
                    let mut acc = Rollup::default();
                    acc.add(r);
                    run = Some((day, acc));
                }
            }
            let key = self.group_key(r);
            let group = match self.groups.get_mut(key) {
                Some(g) => g,
                None => self.groups.entry(key.to_owned()).or_default(),
            };
            group.rollup.add(r);
            group.retrieval.add(r, self.opts.low_score);
            group.tools.add(r);
            group.guardrail.add(r);
            // In a log in time order a group's bucket is nearly always its
            // newest: reached down the map's right edge, without a search.
            match group.trend.last_entry() {
                Some(mut last) if *last.key() == day => last.get_mut().add(r),
                _ => group.trend.entry(day).or_default().add(r),
            }
        }
        if let Some((d, acc)) = run {
            self.add_day(d, &acc);
        }
        let by = self.opts.by;
        self.triage.add_block(rows, |r| group_of(by, r));
    }

    fn merge(&mut self, later: Self) {
        for (a, b) in self.telemetry.iter_mut().zip(&later.telemetry) {
            a.merge(b);
        }
        for (d, r) in later.trend {
            self.trend.entry(d).or_default().merge(&r);
        }
        for (k, g) in later.groups {
            self.groups.entry(k).or_default().merge(g);
        }
        self.triage.merge(later.triage);
    }
}

impl Summary {
    /// Groups sorted worst first: most ungrounded turns, then name.
    pub fn sorted_groups(&self) -> Vec<(&String, &GroupStats)> {
        let mut v: Vec<_> = self.groups.iter().collect();
        v.sort_by(|a, b| {
            b.1.rollup
                .ungrounded()
                .cmp(&a.1.rollup.ungrounded())
                .then_with(|| a.0.cmp(b.0))
        });
        v
    }

    /// The counts of all turns: the groups' summed (every turn is in
    /// exactly one group), with the summary's trend.
    pub fn overall(&self) -> GroupStats {
        let mut all = GroupStats {
            trend: self.trend.clone(),
            ..GroupStats::default()
        };
        for g in self.groups.values() {
            all.add_counts(g);
        }
        all
    }

    /// Telemetry of one verdict.
    pub fn telemetry_of(&self, v: Verdict) -> &Telemetry {
        &self.telemetry[v.slot()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Chunk, Id, Row};
    use chrono::{DateTime, Duration};

    #[test]
    fn median_bin_holds_the_lower_median() {
        let mut s = ScoreSeries::default();
        assert_eq!(s.median_bin(), None);
        s.bins[3] = 1;
        assert_eq!(s.median_bin(), Some(3));
        // Four chunks: the second (lower median) is in bin 3.
        s.bins[3] = 2;
        s.bins[10] = 2;
        assert_eq!(s.median_bin(), Some(3));
        // Five: the third is in bin 10.
        s.bins[10] = 3;
        assert_eq!(s.median_bin(), Some(10));
        // Chunks outside the bins do not count.
        s.unscored = 100;
        s.out_of_range = 100;
        assert_eq!(s.median_bin(), Some(10));
    }

    fn row(i: u64) -> Row<'static> {
        let verdict = Verdict::ALL[(i % 5) as usize];
        Row {
            turn_id: Id::string(i.to_string()),
            agent_id: format!("agent-{}", i % 7).into(),
            conversation_id: None,
            channel: "chat".into(),
            created_at: DateTime::from_timestamp(1_785_000_000, 0).unwrap()
                + Duration::seconds((i % 86_400 * 30) as i64),
            verdict,
            partial: false,
            cited_chunks: if verdict == Verdict::Ok {
                vec![1]
            } else {
                vec![]
            },
            marker_count: 1,
            out_of_range_markers: 0,
            malformed_markers: 0,
            markers_from: None,
            chunk_count: 2,
            confidence: Some(0.7),
            chunks: vec![
                Chunk {
                    index: 1,
                    document_id: None,
                    chunk_id: None,
                    score: Some(0.7),
                },
                Chunk {
                    index: 2,
                    document_id: None,
                    chunk_id: None,
                    score: Some(0.3),
                },
            ],
            tool_calls: 1,
            tool_errors: i.is_multiple_of(11) as u32,
            model: None,
            tokens_used: Some(i % 2000),
            cost_cents: Some(0.25),
            latency_ms: Some((200 + i * 7919 % 5000) as f64),
            unobserved_reason: None,
            invented_marker: None,
            support: Default::default(),
            evidence: crate::model::Evidence::Documents,
        }
    }

    /// Entries held by the state: what memory grows with.
    fn state_size(s: &Summary) -> usize {
        s.groups.len()
            + s.trend.len()
            + s.telemetry
                .iter()
                .map(|t| t.latency.buckets())
                .sum::<usize>()
            + s.triage.held()
    }

    fn feed(n: u64) -> Summary {
        let opts = SummaryOptions {
            by: GroupBy::Agent,
            triage: 20,
            tz: crate::filter::Zone::utc(),
            low_score: 0.5,
            bucket: Bucket::Day,
        };
        let mut s = Summary::new(opts);
        let mut block = Vec::with_capacity(10_000);
        for i in 0..n {
            block.push(Graded {
                row: row(i),
                pos: (i / 10_000, i % 10_000),
                detail: None,
            });
            if block.len() == 10_000 {
                s.add_block(&block);
                block.clear();
            }
        }
        s.add_block(&block);
        s
    }

    #[test]
    fn memory_stays_flat_as_turns_grow() {
        let small = feed(100_000);
        let large = feed(1_000_000);
        assert_eq!(large.overall().rollup.turns, 1_000_000);
        assert_eq!(
            state_size(&small),
            state_size(&large),
            "state must not grow with the number of turns"
        );
    }

    #[test]
    fn buckets_label_hours_days_and_iso_weeks() {
        let t = DateTime::parse_from_rfc3339("2026-08-02T10:15:00Z")
            .unwrap()
            .timestamp();
        let utc = crate::filter::Zone::utc();
        let at = |b: Bucket, t: i64| b.label(b.index(t, 0), &utc);
        assert_eq!(at(Bucket::Day, t), "2026-08-02");
        assert_eq!(at(Bucket::Hour, t), "2026-08-02T10");
        // 2026-08-02 is a Sunday: ISO week 31 (Monday 2026-07-27).
        assert_eq!(at(Bucket::Week, t), "2026-W31");
        let monday = t + 86_400;
        assert_eq!(at(Bucket::Week, monday), "2026-W32");
        // 2027-01-01 (a Friday) is in week 53 of 2026.
        let ny = DateTime::parse_from_rfc3339("2027-01-01T00:00:00Z")
            .unwrap()
            .timestamp();
        assert_eq!(at(Bucket::Week, ny), "2026-W53");
        assert_eq!(at(Bucket::Week, 0), "1970-W01");
        // Half-hour zones keep whole local hours.
        let india = crate::filter::Zone::parse("+05:30").unwrap();
        let b = Bucket::Hour.index(t, 19_800);
        assert_eq!(Bucket::Hour.label(b, &india), "2026-08-02T15");
        assert_eq!(b, Bucket::Hour.index(t + 600, 19_800));
        assert_ne!(b, Bucket::Hour.index(t + 1_800, 19_800));
    }

    #[test]
    fn the_hour_clocks_repeat_is_two_buckets() {
        let berlin = crate::filter::Zone::parse("Europe/Berlin").unwrap();
        // 2026-10-25: 03:00 CEST became 02:00 CET at 01:00 UTC.
        let first = DateTime::parse_from_rfc3339("2026-10-25T00:30:00Z").unwrap();
        let second = DateTime::parse_from_rfc3339("2026-10-25T01:30:00Z").unwrap();
        let key = |t: chrono::DateTime<chrono::FixedOffset>| {
            let utc = t.with_timezone(&chrono::Utc);
            Bucket::Hour.index(utc.timestamp(), berlin.offset_secs(&utc) as i64)
        };
        let (a, b) = (key(first), key(second));
        assert!(a < b);
        assert_eq!(Bucket::Hour.label(a, &berlin), "2026-10-25T02+02:00");
        assert_eq!(Bucket::Hour.label(b, &berlin), "2026-10-25T02+01:00");
        let later = DateTime::parse_from_rfc3339("2026-10-25T02:30:00Z").unwrap();
        assert_eq!(Bucket::Hour.label(key(later), &berlin), "2026-10-25T03");
    }

    #[test]
    fn latency_buckets_are_exact_below_ten_seconds() {
        assert_eq!(latency_bucket(9_999.4), 9_999);
        assert_eq!(latency_bucket(12_345.0), 12_300);
        assert_eq!(latency_bucket(-5.0), 0);
        assert_eq!(latency_bucket(f64::NAN), 0);
    }

    /// Issue 18, item 5: a latency of 1e20 ms was counted as 0 (the rounding
    /// overflowed), so p50 and p95 read 0.
    #[test]
    fn latencies_past_the_range_land_in_the_top_bucket() {
        assert_eq!(latency_bucket(1e20), TOP_LATENCY_BUCKET);
        assert_eq!(latency_bucket(f64::INFINITY), TOP_LATENCY_BUCKET);
        assert_eq!(latency_bucket(u64::MAX as f64), TOP_LATENCY_BUCKET);
        assert_eq!(latency_bucket(1.83e19), 18_300_000_000_000_000_000);
        assert_eq!(latency_bucket(99_950.0), 100_000);
        let mut t = Telemetry::default();
        let mut r = row(0);
        for ms in [1e20, 1e20, 5.0] {
            r.latency_ms = Some(ms);
            t.add(&r);
        }
        assert_eq!(t.latency_quantile(0.5), Some(TOP_LATENCY_BUCKET));
        assert_eq!(t.latency_quantile(0.95), Some(TOP_LATENCY_BUCKET));
        assert_eq!(t.latency_quantile(0.0), Some(5));
    }

    /// A histogram counts the same whether its samples are listed or dense,
    /// and whatever blocks they were added in: every split of 0–12,000
    /// samples (across the spill at [`LISTED`]) merges to the reference
    /// count, and a block's few samples never allocate the dense array.
    #[test]
    fn a_histogram_counts_the_same_listed_or_dense() {
        let sample = |i: u64| match i % 7 {
            0 => 12_345 + i % 3 * 1000,
            _ => (i * 7919) % EXACT_MS,
        };
        for total in [0u64, 1, 5, 4096, 4097, 9000, 12_000] {
            let mut reference: BTreeMap<u64, u64> = BTreeMap::new();
            for i in 0..total {
                *reference
                    .entry(latency_bucket(sample(i) as f64))
                    .or_default() += 1 + i % 2;
            }
            let want: Vec<(u64, u64)> = reference.into_iter().collect();
            for block in [1u64, 300, 4096, 5000, 20_000] {
                let mut whole = Histogram::default();
                let mut part = Histogram::default();
                for i in 0..total {
                    if i % block == 0 && i > 0 {
                        whole.merge(&part);
                        part = Histogram::default();
                    }
                    part.add(latency_bucket(sample(i) as f64), 1 + i % 2);
                    if (i % block) < LISTED as u64 {
                        assert!(
                            part.dense.is_empty(),
                            "spilled after {} samples",
                            i % block + 1
                        );
                    }
                }
                whole.merge(&part);
                assert_eq!(
                    whole.iter().collect::<Vec<_>>(),
                    want,
                    "{total} samples, blocks of {block}"
                );
                let mut fed = Histogram::default();
                for &(b, n) in &want {
                    fed.add(b, n);
                }
                assert_eq!(whole, fed);
            }
        }
    }

    /// Issue 18, item 5: token sums wrapped (2^64 − 1 twice plus 5 gave 3).
    #[test]
    fn token_and_cost_sums_do_not_overflow() {
        let mut r = row(0);
        let (mut whole, mut a, mut b) = (
            Telemetry::default(),
            Telemetry::default(),
            Telemetry::default(),
        );
        for (i, (tokens, cost)) in [(u64::MAX, 1e300), (u64::MAX, 1e300), (5, -1e300)]
            .into_iter()
            .enumerate()
        {
            r.tokens_used = Some(tokens);
            r.cost_cents = Some(cost);
            whole.add(&r);
            (if i == 0 { &mut a } else { &mut b }).add(&r);
        }
        assert_eq!(whole.tokens_used, 2 * u128::from(u64::MAX) + 5);
        assert_eq!(whole.cost_micro_cents, COST_LIMIT_MICRO_CENTS);
        a.merge(&b);
        assert_eq!(a, whole);
    }

    #[test]
    fn merge_of_a_split_equals_the_whole() {
        let whole = feed(30_000);
        let opts = whole.opts;
        let mut left = Summary::new(opts);
        let mut right = Summary::new(opts);
        let rows: Vec<_> = (0..30_000)
            .map(|i| Graded {
                row: row(i),
                pos: (0, i),
                detail: None,
            })
            .collect();
        left.add_block(&rows[..12_345]);
        right.add_block(&rows[12_345..]);
        left.merge(right);
        assert_eq!(left.overall(), whole.overall());
        assert_eq!(left.groups, whole.groups);
        assert_eq!(left.trend, whole.trend);
        assert_eq!(left.telemetry, whole.telemetry);
        let order = crate::accumulate::triage::TriageOrder::Severity;
        let picked = |s: &Summary| -> Vec<String> {
            s.triage
                .select(order, &|g| g == "agent-3")
                .iter()
                .map(|p| p.row.turn_id.as_str().to_owned())
                .collect()
        };
        assert_eq!(picked(&left).len(), 20);
        assert_eq!(picked(&left), picked(&whole));
        // The score distribution is part of each: a non-trivial one.
        let all = whole.overall();
        let d = &all.retrieval.scores;
        assert_eq!(d.cited.bins[14], 6_000, "the ok turns cite the 0.7 chunk");
        assert_eq!(d.uncited.bins[6], 24_000, "the 0.3 chunk is never cited");
    }

    #[test]
    fn score_bins_are_twentieths_with_one_included_in_the_last() {
        for i in 0..SCORE_BINS {
            let (lo, hi) = ScoreSeries::bin_range(i);
            assert_eq!(ScoreSeries::bin(lo), Some(i), "{lo} opens bin {i}");
            assert_eq!(ScoreSeries::bin(hi - 1e-9), Some(i), "{hi} closes bin {i}");
        }
        assert_eq!(ScoreSeries::bin(0.05), Some(1));
        assert_eq!(ScoreSeries::bin(0.7), Some(14));
        assert_eq!(ScoreSeries::bin(1.0), Some(SCORE_BINS - 1));
        for outside in [-0.0001, 1.0001, -3.0, 12.5, f64::NAN, f64::INFINITY] {
            assert_eq!(ScoreSeries::bin(outside), None, "{outside}");
        }
        assert_eq!(ScoreSeries::bin(-0.0), Some(0));
    }

    /// A turn's chunks are split into cited and uncited, each counted once,
    /// whatever their score; turns without retrieval or unobserved count none.
    #[test]
    fn score_distribution_splits_cited_from_uncited_and_merges_by_adding() {
        let chunk = |index: u32, score: Option<f64>| Chunk {
            index,
            document_id: None,
            chunk_id: None,
            score,
        };
        let mut r = row(0);
        assert_eq!(r.verdict, Verdict::Ok);
        r.chunks = vec![
            chunk(1, Some(0.92)),
            chunk(2, None),
            chunk(3, Some(1.7)),
            chunk(4, Some(0.0)),
            chunk(5, Some(0.92)),
        ];
        r.chunk_count = 5;
        r.cited_chunks = vec![3, 1, 2];
        let mut a = RetrievalUse::default();
        a.add(&r, 0.5);
        let d = &a.scores;
        assert_eq!(d.cited.bins[18], 1);
        assert_eq!((d.cited.unscored, d.cited.out_of_range), (1, 1));
        assert_eq!((d.uncited.bins[18], d.uncited.bins[0]), (1, 1));
        assert_eq!((d.uncited.unscored, d.uncited.out_of_range), (0, 0));
        assert_eq!(d.cited.total(), a.chunks_cited);
        assert_eq!(d.cited.total() + d.uncited.total(), a.chunks_retrieved);
        assert_eq!(d.cited.binned() + d.uncited.binned(), 3);

        let mut unobserved = r.clone();
        unobserved.verdict = Verdict::Unobserved;
        let mut none = RetrievalUse::default();
        none.add(&unobserved, 0.5);
        assert_eq!(none.scores, ScoreDistribution::default());

        // Merging adds bin by bin: two halves give the whole.
        let mut other = row(5);
        other.cited_chunks = vec![2];
        let mut whole = RetrievalUse::default();
        let mut b = RetrievalUse::default();
        whole.add(&r, 0.5);
        whole.add(&other, 0.5);
        b.add(&other, 0.5);
        a.merge(&b);
        assert_eq!(a, whole);
        assert_eq!(whole.scores.cited.bins[6], 1, "the 0.3 chunk, cited once");
        assert_eq!(whole.scores.uncited.bins[14], 1);
    }
}

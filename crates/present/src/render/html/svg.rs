//! The report's charts, drawn as inline SVG by hand: a trend panel (rate
//! line over turn volume), a verdict-mix stacked bar, a sparkline, a
//! horizontal share bar and the histogram of chunk scores, cited against
//! uncited. Colours come from CSS classes defined by the page,
//! so the dark scheme and print restyle them; every mark that carries
//! meaning also differs in shape, pattern or label, never in colour alone.
//! Labels passed in are escaped here.

use crate::accumulate::summary::{SCORE_BINS, ScoreDistribution, ScoreSeries};
use crate::model::Verdict;
use crate::render::escape::html;
use std::fmt::Write;

/// The y range of every rate chart of one report: scaled to the data
/// (and the threshold), so 0.81 and 0.97 do not look alike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub lo: f64,
    pub hi: f64,
}

impl Scale {
    /// The range covering `rates` and `threshold`, padded and rounded out
    /// to steps of 0.05, at least 0.1 wide, within 0..1.
    pub fn of(rates: impl Iterator<Item = f64>, threshold: Option<f64>) -> Scale {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for r in rates.chain(threshold) {
            lo = lo.min(r);
            hi = hi.max(r);
        }
        if !lo.is_finite() {
            return Scale { lo: 0.0, hi: 1.0 };
        }
        let mut lo = ((lo - 0.02) / 0.05).floor() * 0.05;
        let mut hi = ((hi + 0.02) / 0.05).ceil() * 0.05;
        if hi - lo < 0.1 {
            let mid = (lo + hi) / 2.0;
            lo = mid - 0.05;
            hi = mid + 0.05;
        }
        if lo < 0.0 {
            hi -= lo;
            lo = 0.0;
        }
        if hi > 1.0 {
            lo = (lo - (hi - 1.0)).max(0.0);
            hi = 1.0;
        }
        Scale { lo, hi }
    }

    /// `y` of `rate` in a plot from `top` to `bottom` pixels.
    fn y(&self, rate: f64, top: f64, bottom: f64) -> f64 {
        let t = ((rate - self.lo) / (self.hi - self.lo)).clamp(0.0, 1.0);
        bottom - t * (bottom - top)
    }
}

/// The pattern and class of each verdict, in [`Verdict::ALL`] order: a
/// colour and, for all but `ok`, a pattern, so the mix reads in greyscale.
pub const VERDICT_FILL: [&str; 5] = [
    "url(#p-ok)",
    "url(#p-no_marker)",
    "url(#p-orphan_marker)",
    "url(#p-empty_retrieval)",
    "url(#p-unobserved)",
];

/// The patterns the charts refer to, drawn once per page.
pub fn defs() -> String {
    let mut s = String::from(
        r#"<svg class="defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>"#,
    );
    let pattern = |id: &str, class: &str, marks: &str| {
        format!(
            r#"<pattern id="p-{id}" width="6" height="6" patternUnits="userSpaceOnUse"><rect class="{class}" width="6" height="6"/>{marks}</pattern>"#
        )
    };
    s.push_str(&pattern("ok", "v-ok", ""));
    s.push_str(&pattern(
        "no_marker",
        "v-no_marker",
        r#"<path class="hatch" d="M0 6L6 0M-1 1L1 -1M5 7L7 5"/>"#,
    ));
    s.push_str(&pattern(
        "orphan_marker",
        "v-orphan_marker",
        r#"<path class="hatch" d="M0 0L6 6M6 0L0 6"/>"#,
    ));
    s.push_str(&pattern(
        "empty_retrieval",
        "v-empty_retrieval",
        r#"<circle class="dot" cx="3" cy="3" r="1.2"/>"#,
    ));
    s.push_str(&pattern(
        "uncited",
        "s-uncited",
        r#"<path class="hatch" d="M0 6L6 0M-1 1L1 -1M5 7L7 5"/>"#,
    ));
    s.push_str(&pattern(
        "unobserved",
        "v-unobserved",
        r#"<path class="hatch" d="M0 3H6"/>"#,
    ));
    s.push_str("</defs></svg>");
    s
}

/// One bucket of a trend panel.
#[derive(Debug, Clone)]
pub struct Point<'a> {
    pub label: &'a str,
    pub rate: Option<f64>,
    pub turns: u64,
}

fn f1(x: f64) -> String {
    format!("{x:.1}")
}

/// A trend panel: the grounded rate per bucket as a line with a mark per
/// bucket (a triangle when below the threshold), the threshold as a dashed
/// labelled line, and the turn volume as bars beneath.
pub fn trend(title: &str, points: &[Point<'_>], scale: Scale, threshold: Option<f64>) -> String {
    const W: f64 = 320.0;
    const LEFT: f64 = 34.0;
    const RIGHT: f64 = 48.0;
    const TOP: f64 = 14.0;
    const BOTTOM: f64 = 98.0;
    const VOL_TOP: f64 = 116.0;
    const VOL_BOTTOM: f64 = 150.0;
    const H: f64 = 166.0;
    let n = points.len().max(1) as f64;
    let step = (W - LEFT - RIGHT) / n;
    let x = |i: usize| LEFT + step * (i as f64 + 0.5);
    let mut s = String::new();
    let t = html(title);
    let _ = write!(
        s,
        r#"<svg class="chart trend" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" aria-label="Grounded rate per bucket, {t}"><title>{t}</title>"#
    );
    // The rate axis: bottom, middle and top of the scale.
    for r in [scale.lo, (scale.lo + scale.hi) / 2.0, scale.hi] {
        let y = f1(scale.y(r, TOP, BOTTOM));
        let _ = write!(
            s,
            r#"<line class="grid" x1="{LEFT}" x2="{}" y1="{y}" y2="{y}"/><text class="axis" x="{}" y="{y}" dy="3" text-anchor="end">{r:.2}</text>"#,
            W - RIGHT,
            LEFT - 3.0
        );
    }
    if let Some(m) = threshold {
        let y = f1(scale.y(m, TOP, BOTTOM));
        let _ = write!(
            s,
            r#"<line class="threshold" x1="{LEFT}" x2="{}" y1="{y}" y2="{y}"/><text class="threshold-label" x="{}" y="{y}" dy="3">min {m:.2}</text>"#,
            W - RIGHT,
            W - RIGHT + 3.0
        );
    }
    // The line, broken where a bucket has no turn with retrieval.
    let mut d = String::new();
    let mut pen = false;
    for (i, p) in points.iter().enumerate() {
        match p.rate {
            Some(r) => {
                let _ = write!(
                    d,
                    "{}{} {}",
                    if pen { "L" } else { "M" },
                    f1(x(i)),
                    f1(scale.y(r, TOP, BOTTOM))
                );
                pen = true;
            }
            None => pen = false,
        }
    }
    if !d.is_empty() {
        let _ = write!(s, r#"<path class="line" d="{d}"/>"#);
    }
    for (i, p) in points.iter().enumerate() {
        let Some(r) = p.rate else { continue };
        let (cx, cy) = (x(i), scale.y(r, TOP, BOTTOM));
        let tip = format!("{}: {r:.4} of {} turns", html(p.label), p.turns);
        if threshold.is_some_and(|m| r < m) {
            let _ = write!(
                s,
                r#"<path class="mark below" d="M{} {}L{} {}L{} {}Z"><title>{tip} (below the threshold)</title></path>"#,
                f1(cx),
                f1(cy + 3.5),
                f1(cx - 3.5),
                f1(cy - 3.0),
                f1(cx + 3.5),
                f1(cy - 3.0)
            );
        } else {
            let _ = write!(
                s,
                r#"<circle class="mark" cx="{}" cy="{}" r="2.6"><title>{tip}</title></circle>"#,
                f1(cx),
                f1(cy)
            );
        }
    }
    // The last rate, in the right margin at its height, beside the
    // threshold's label there: moved a line clear of it when they would touch.
    if let Some(r) = points.iter().rev().find_map(|p| p.rate) {
        let _ = write!(
            s,
            r#"<text class="value" x="{}" y="{}" dy="3">{r:.2}</text>"#,
            W - RIGHT + 3.0,
            f1(value_label_y(
                scale.y(r, TOP, BOTTOM),
                threshold.map(|m| scale.y(m, TOP, BOTTOM)),
                (TOP - 8.0, BOTTOM + 8.0)
            ))
        );
    }
    // The volume beneath, scaled to this panel's busiest bucket.
    let max = points.iter().map(|p| p.turns).max().unwrap_or(0).max(1);
    let bar_w = (step * 0.7).max(1.0);
    for (i, p) in points.iter().enumerate() {
        if p.turns == 0 {
            continue;
        }
        let h = (VOL_BOTTOM - VOL_TOP) * p.turns as f64 / max as f64;
        let _ = write!(
            s,
            r#"<rect class="volume" x="{}" y="{}" width="{}" height="{}"><title>{}: {} turns</title></rect>"#,
            f1(x(i) - bar_w / 2.0),
            f1(VOL_BOTTOM - h),
            f1(bar_w),
            f1(h.max(0.5)),
            html(p.label),
            p.turns
        );
    }
    let _ = write!(
        s,
        r#"<text class="axis" x="{}" y="{}" dy="3" text-anchor="end">{max}</text><text class="axis" x="{}" y="{VOL_BOTTOM}" text-anchor="end">turns</text>"#,
        LEFT - 3.0,
        VOL_TOP,
        LEFT - 3.0
    );
    if let Some(first) = points.first() {
        let _ = write!(
            s,
            r#"<text class="axis" x="{LEFT}" y="{}">{}</text>"#,
            H - 3.0,
            html(first.label)
        );
    }
    if let Some(last) = points.last().filter(|_| points.len() > 1) {
        let _ = write!(
            s,
            r#"<text class="axis" x="{}" y="{}" text-anchor="end">{}</text>"#,
            W - RIGHT,
            H - 3.0,
            html(last.label)
        );
    }
    s.push_str("</svg>");
    s
}

/// Where the last rate's label goes: at its point's height `y`, unless the
/// threshold's label (at `threshold`) is less than a line away; then a line
/// above it (when the rate is above the threshold, or there is no room
/// below) or below it, within `bounds`.
fn value_label_y(y: f64, threshold: Option<f64>, bounds: (f64, f64)) -> f64 {
    const LINE: f64 = 12.0;
    let Some(t) = threshold else { return y };
    if (y - t).abs() >= LINE {
        return y;
    }
    let (above, below) = (t - LINE, t + LINE);
    if (y <= t && above >= bounds.0) || below > bounds.1 {
        above
    } else {
        below
    }
}

/// The verdict mix of a group as one stacked bar, a patterned segment per
/// verdict, each with its count in a tooltip.
pub fn stacked(counts: &[u64; 5]) -> String {
    const W: f64 = 160.0;
    let total: u64 = counts.iter().sum();
    let mut s = format!(
        r#"<svg class="chart mix" viewBox="0 0 {W} 14" width="{W}" height="14" aria-hidden="true">"#
    );
    if total == 0 {
        s.push_str(r#"<rect class="empty" width="160" height="14"/>"#);
    }
    let mut x = 0.0;
    for (i, (v, &c)) in Verdict::ALL.iter().zip(counts).enumerate() {
        if c == 0 {
            continue;
        }
        let w = W * c as f64 / total as f64;
        let _ = write!(
            s,
            r#"<rect x="{}" width="{}" height="14" fill="{}"><title>{} {c}</title></rect>"#,
            f1(x),
            f1(w),
            VERDICT_FILL[i],
            v.as_str()
        );
        x += w;
    }
    s.push_str("</svg>");
    s
}

/// A small rate line over the buckets on the report's scale, its last
/// value marked.
pub fn sparkline(rates: &[Option<f64>], scale: Scale) -> String {
    const W: f64 = 100.0;
    const H: f64 = 22.0;
    let n = rates.len().max(2) as f64 - 1.0;
    let x = |i: usize| 2.0 + (W - 4.0) * i as f64 / n;
    let mut d = String::new();
    let mut pen = false;
    for (i, r) in rates.iter().enumerate() {
        match r {
            Some(r) => {
                let _ = write!(
                    d,
                    "{}{} {}",
                    if pen { "L" } else { "M" },
                    f1(x(i)),
                    f1(scale.y(*r, 2.0, H - 2.0))
                );
                pen = true;
            }
            None => pen = false,
        }
    }
    let mut s = format!(
        r#"<svg class="chart spark" viewBox="0 0 {W} {H}" width="{W}" height="{H}" aria-hidden="true">"#
    );
    if !d.is_empty() {
        let _ = write!(s, r#"<path class="line" d="{d}"/>"#);
    }
    if let Some((i, r)) = rates
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, r)| r.map(|r| (i, r)))
    {
        let _ = write!(
            s,
            r#"<circle class="mark" cx="{}" cy="{}" r="2.2"/>"#,
            f1(x(i)),
            f1(scale.y(r, 2.0, H - 2.0))
        );
    }
    s.push_str("</svg>");
    s
}

/// A share (0..1) as a horizontal bar with its value written beside it.
pub fn share_bar(share: Option<f64>) -> String {
    const W: f64 = 80.0;
    let mut s = format!(
        r#"<svg class="chart share" viewBox="0 0 {} 12" width="{}" height="12" aria-hidden="true"><rect class="track" width="{W}" height="12"/>"#,
        W + 30.0,
        W + 30.0
    );
    if let Some(x) = share {
        let _ = write!(
            s,
            r#"<rect class="fill" width="{}" height="12"/><text class="axis" x="{}" y="10">{x:.2}</text>"#,
            f1(W * x.clamp(0.0, 1.0)),
            W + 4.0
        );
    }
    s.push_str("</svg>");
    s
}

/// How the two series of [`scores`] are drawn: cited chunks as solid
/// bars, uncited ones as hatched bars, so they differ in greyscale too.
pub const CITED_FILL: &str = "s-cited";
pub const UNCITED_FILL: &str = "url(#p-uncited)";

/// The score distribution as paired bars per score bin, cited (solid, left)
/// and uncited (hatched, right), each series as a share of its own chunks
/// scored in [0, 1]; the `--low-score` threshold as a dashed vertical line.
/// Returns `None` when no chunk was scored in [0, 1].
pub fn scores(d: &ScoreDistribution, low_score: f64) -> Option<String> {
    const W: f64 = 440.0;
    const H: f64 = 190.0;
    const LEFT: f64 = 40.0;
    const RIGHT: f64 = 12.0;
    const TOP: f64 = 26.0;
    const BOTTOM: f64 = 150.0;
    // The axis title at the top left ("share of its kind"), 10 px text.
    const TITLE_W: f64 = 60.0;
    let series: [(&str, &ScoreSeries, &str); 2] = [
        ("cited", &d.cited, &format!(r#"class="{CITED_FILL}""#)),
        ("uncited", &d.uncited, &format!(r#"fill="{UNCITED_FILL}""#)),
    ];
    if series.iter().all(|(_, s, _)| s.binned() == 0) {
        return None;
    }
    // The share axis: up to the largest share, rounded up to a tenth.
    let top_share = series
        .iter()
        .flat_map(|(_, s, _)| (0..SCORE_BINS).filter_map(|i| s.share(i)))
        .fold(0.0f64, f64::max);
    let max = ((top_share * 10.0).ceil() / 10.0).clamp(0.1, 1.0);
    let y = |share: f64| BOTTOM - (BOTTOM - TOP) * (share / max).min(1.0);
    let x = |score: f64| LEFT + (W - LEFT - RIGHT) * score.clamp(0.0, 1.0);
    let bin_w = (W - LEFT - RIGHT) / SCORE_BINS as f64;
    let bar_w = bin_w * 0.4;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="chart scores" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" aria-label="Chunk scores: share of cited and of uncited chunks per score bin"><title>Chunk scores, cited against uncited</title>"#
    );
    for share in [0.0, max / 2.0, max] {
        let yy = f1(y(share));
        let _ = write!(
            s,
            r#"<line class="grid" x1="{LEFT}" x2="{}" y1="{yy}" y2="{yy}"/><text class="axis" x="{}" y="{yy}" dy="3" text-anchor="end">{:.0} %</text>"#,
            W - RIGHT,
            LEFT - 3.0,
            share * 100.0
        );
    }
    for (k, (name, ser, fill)) in series.iter().enumerate() {
        let total = ser.binned();
        for i in 0..SCORE_BINS {
            let (Some(share), c) = (ser.share(i), ser.bins[i]) else {
                continue;
            };
            if c == 0 {
                continue;
            }
            let (lo, hi) = ScoreSeries::bin_range(i);
            let h = (BOTTOM - y(share)).max(0.8);
            let _ = write!(
                s,
                r#"<rect {fill} x="{}" y="{}" width="{}" height="{}"><title>{name}, score {lo:.2}–{hi:.2}: {c} of {total} chunks ({:.1} %)</title></rect>"#,
                f1(x(lo) + bin_w * 0.1 + bar_w * k as f64),
                f1(BOTTOM - h),
                f1(bar_w),
                f1(h),
                share * 100.0
            );
        }
    }
    if (0.0..=1.0).contains(&low_score) {
        let label = format!("low score {low_score}");
        // Its label centred on the line, but kept inside the plot, right of
        // the axis title and clear of the share axis's labels.
        let half = 3.0 * label.chars().count() as f64;
        let lx = x(low_score);
        let at = lx.clamp(LEFT + TITLE_W + half, W - RIGHT - half);
        let _ = write!(
            s,
            r#"<line class="threshold" x1="{}" x2="{}" y1="{TOP}" y2="{BOTTOM}"/><text class="threshold-label" x="{}" y="{}" text-anchor="middle">{label}</text>"#,
            f1(lx),
            f1(lx),
            f1(at),
            TOP - 4.0
        );
    }
    // The ends anchored inwards, clear of the share axis's labels.
    for (t, anchor) in [
        (0.0, "start"),
        (0.25, "middle"),
        (0.5, "middle"),
        (0.75, "middle"),
        (1.0, "end"),
    ] {
        let _ = write!(
            s,
            r#"<text class="axis" x="{}" y="{}" text-anchor="{anchor}">{t:.2}</text>"#,
            f1(x(t)),
            BOTTOM + 12.0
        );
    }
    let _ = write!(
        s,
        r#"<text class="axis" x="{}" y="{}" text-anchor="middle">chunk score</text><text class="axis" x="4" y="10">share of its kind</text>"#,
        f1(x(0.5)),
        BOTTOM + 25.0
    );
    // The legend, inside the chart so a copy of the SVG keeps it.
    let mut lx = LEFT;
    for (name, ser, fill) in &series {
        let label = format!("{name} ({} chunks)", ser.binned());
        let _ = write!(
            s,
            r#"<rect {fill} x="{}" y="{}" width="10" height="10"/><text class="axis" x="{}" y="{}">{label}</text>"#,
            f1(lx),
            H - 11.0,
            f1(lx + 14.0),
            H - 2.0
        );
        lx += 24.0 + 6.0 * label.len() as f64;
    }
    s.push_str("</svg>");
    Some(s)
}

/// One group's score distribution in a table cell: a column per bin of
/// 0.05 from 0 to 1, cited chunks as solid bars rising from the middle
/// line and uncited ones as hatched bars hanging from it, each as a share
/// of its own kind's binned chunks, scaled to that kind's largest share.
pub fn score_mini(d: &ScoreDistribution) -> String {
    const BIN: f64 = 5.0;
    const W: f64 = BIN * SCORE_BINS as f64;
    const H: f64 = 30.0;
    const MID: f64 = H / 2.0;
    let mut s = format!(
        r#"<svg class="chart score-mini" viewBox="0 0 {W} {H}" width="{W}" height="{H}" aria-hidden="true"><line class="grid" x1="0" x2="{W}" y1="{MID}" y2="{MID}"/>"#
    );
    // One path per kind, a box per bin (`M x y v h h w v -h z`): a fifth of
    // the bytes of a rect per bin, in a table of up to 200 rows.
    for (ser, fill, up) in [
        (&d.cited, format!(r#"class="{CITED_FILL}""#), true),
        (&d.uncited, format!(r#"fill="{UNCITED_FILL}""#), false),
    ] {
        let max = crate::render::summary::peak(ser);
        let mut path = String::new();
        for i in 0..SCORE_BINS {
            let (Some(share), true) = (ser.share(i), ser.bins[i] > 0 && max > 0.0) else {
                continue;
            };
            let h = ((MID - 1.0) * share / max).max(1.0);
            let h = f1(if up { -h } else { h });
            let h = h.trim_end_matches(".0");
            let back = h
                .strip_prefix('-')
                .map_or_else(|| format!("-{h}"), str::to_owned);
            // Whole pixels across: a bin is 5 wide, its bar 4 from x + 0.5.
            let _ = write!(
                path,
                "M{}.5 {MID}v{h}h{}v{back}z",
                i * BIN as usize,
                BIN as usize - 1
            );
        }
        if !path.is_empty() {
            let _ = write!(s, r#"<path {fill} d="{path}"/>"#);
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_follows_the_data_not_zero_to_one() {
        let s = Scale::of([0.81, 0.97].into_iter(), None);
        assert!(s.lo >= 0.7 && s.lo <= 0.8, "{s:?}");
        assert!((s.hi - 1.0).abs() < 1e-9, "{s:?}");
        let s = Scale::of([0.5].into_iter(), Some(0.9));
        assert!(s.lo <= 0.5 && s.hi >= 0.9, "{s:?}");
        assert_eq!(
            Scale::of(std::iter::empty(), None),
            Scale { lo: 0.0, hi: 1.0 }
        );
        let s = Scale::of([0.0, 0.01].into_iter(), None);
        assert!(s.lo == 0.0 && s.hi >= 0.1, "{s:?}");
    }

    #[test]
    fn marks_below_the_threshold_are_triangles() {
        let p = [
            Point {
                label: "d1",
                rate: Some(0.95),
                turns: 10,
            },
            Point {
                label: "d2",
                rate: Some(0.5),
                turns: 4,
            },
        ];
        let svg = trend(
            "<x>",
            &p,
            Scale::of([0.5, 0.95].into_iter(), Some(0.9)),
            Some(0.9),
        );
        assert!(svg.contains("class=\"mark below\""));
        assert!(svg.contains("min 0.90"));
        assert!(svg.contains("&lt;x&gt;") && !svg.contains("<x>"));
    }

    /// The last rate's label keeps its height unless the threshold's label
    /// is less than a line away; then it moves a line clear of it, above
    /// when the rate is above the threshold or there is no room below.
    #[test]
    fn the_last_rate_label_moves_clear_of_the_threshold_label() {
        let bounds = (6.0, 106.0);
        assert_eq!(value_label_y(40.0, None, bounds), 40.0);
        assert_eq!(value_label_y(40.0, Some(60.0), bounds), 40.0);
        assert_eq!(value_label_y(55.0, Some(60.0), bounds), 48.0);
        assert_eq!(value_label_y(65.0, Some(60.0), bounds), 72.0);
        assert_eq!(value_label_y(60.0, Some(60.0), bounds), 48.0);
        // No room above: below; no room below: above.
        assert_eq!(value_label_y(10.0, Some(12.0), bounds), 24.0);
        assert_eq!(value_label_y(100.0, Some(98.0), bounds), 86.0);
        // In a chart: the label sits in the margin, a line from "min 0.85".
        let p = [
            Point {
                label: "d1",
                rate: Some(0.9),
                turns: 10,
            },
            Point {
                label: "d2",
                rate: Some(0.84),
                turns: 10,
            },
        ];
        let scale = Scale::of([0.84, 0.9].into_iter(), Some(0.85));
        let svg = trend("t", &p, scale, Some(0.85));
        let y_of = |marker: &str| -> f64 {
            let at = svg.find(marker).unwrap();
            let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
            let y = &tag[tag.find(" y=\"").unwrap() + 4..];
            y[..y.find('"').unwrap()].parse().unwrap()
        };
        assert!((y_of(">0.84<") - y_of(">min 0.85<")).abs() >= 12.0, "{svg}");
    }

    /// A group's small score chart: a path per kind, a box per non-empty
    /// bin, cited boxes rising from the middle line and uncited ones hanging
    /// from it, each kind's tallest its largest share.
    #[test]
    fn score_mini_draws_a_box_per_bin_around_the_middle_line() {
        let mut d = ScoreDistribution::default();
        d.cited.bins[2] = 1;
        d.cited.bins[19] = 1;
        d.uncited.bins[10] = 4;
        let svg = score_mini(&d);
        assert!(
            svg.contains(r#"<path class="s-cited" d="M10.5 15v-14h4v14zM95.5 15v-14h4v14z"/>"#),
            "{svg}"
        );
        assert!(
            svg.contains(r#"<path fill="url(#p-uncited)" d="M50.5 15v14h4v-14z"/>"#),
            "{svg}"
        );
        let empty = score_mini(&ScoreDistribution::default());
        assert!(!empty.contains("<path"), "{empty}");
    }

    #[test]
    fn score_chart_draws_both_series_on_their_own_totals() {
        let mut d = ScoreDistribution::default();
        d.cited.bins[18] = 3;
        d.cited.bins[19] = 1;
        d.uncited.bins[4] = 400;
        d.uncited.bins[18] = 400;
        d.uncited.unscored = 9;
        let svg = scores(&d, 0.5).unwrap();
        // 4 bars (and 2 legend swatches): one rect per non-empty bin.
        assert_eq!(svg.matches(r#"<rect class="s-cited""#).count(), 2 + 1);
        assert_eq!(
            svg.matches(r#"<rect fill="url(#p-uncited)""#).count(),
            2 + 1
        );
        // Shares of each series' own chunks: 3 of 4 cited, 400 of 800 uncited.
        assert!(
            svg.contains("cited, score 0.90–0.95: 3 of 4 chunks (75.0 %)"),
            "{svg}"
        );
        assert!(svg.contains("uncited, score 0.20–0.25: 400 of 800 chunks (50.0 %)"));
        // The axis reaches the largest share, rounded up to a tenth.
        assert!(svg.contains(">80 %<") && svg.contains(">40 %<"));
        assert!(svg.contains("low score 0.5") && svg.contains("chunk score"));
        assert_eq!(scores(&ScoreDistribution::default(), 0.5), None);
    }
}

//! `summary --format html` (and `--html FILE`): the summary view as one
//! self-contained page. Nothing is fetched: styles and the small sorting
//! script are inline, charts are inline SVG drawn in [`svg`], and a
//! Content-Security-Policy forbids any request. The page reads with
//! JavaScript off; every chart has its figures in a table under
//! `<details>`. Every value from the log passes through
//! [`escape::html`](crate::render::escape::html); no reply or chunk text is
//! part of the view, so none can appear.
//!
//! Size is bounded whatever the log: at most [`MAX_PANELS`] trend panels of
//! [`MAX_BUCKETS`] buckets and [`MAX_ROWS`] rows per table (the page says
//! what it left out and where to find it).

mod groups;
pub mod svg;

use super::escape::html;
use super::{Section, rate};
use crate::accumulate::summary::SCORE_BINS;
use crate::model::Verdict;
use crate::view::summary::{DayDoc, SummaryDoc};
use anyhow::Result;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;
use svg::{Point, Scale};

/// Trend panels besides the overall one (the groups first in the
/// breakdown's order: most ungrounded first).
pub const MAX_PANELS: usize = 12;
/// Most recent buckets charted.
pub const MAX_BUCKETS: usize = 90;
/// Rows per table (groups, guardrail, retrieval).
pub const MAX_ROWS: usize = 200;

/// What the page says about its run besides the view itself.
#[derive(Debug, Clone)]
pub struct Meta {
    /// When the report was made (RFC 3339).
    pub generated: String,
    pub version: &'static str,
    /// The grammar a flag set for every input (`numeric`, `regex RE (base
    /// 1)`); None: each input format's default (or a turn's own `markers`
    /// field). The grammars actually used are counted in the view's input.
    pub grammar_flag: Option<String>,
    /// Flags that pick the grammar, repeated in each `explain` line.
    pub grammar_args: Vec<String>,
    /// The threshold marked on the trend (`--min-rate`).
    pub min_rate: Option<f64>,
    /// The input paths, for the `explain` lines.
    pub paths: Vec<String>,
}

const STYLE: &str = r#"
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--tile:#f6f8fa;--accent:#0969da;--bad:#cf222e;--warn-bg:#fff8c5;--ok:#1a7f37;--nm:#9a6700;--or:#cf222e;--er:#6e7781;--un:#8250df;--hatch:#fff;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;--tile:#151b23;--accent:#4493f8;--bad:#f85149;--warn-bg:#3b2e00;--ok:#3fb950;--nm:#d29922;--or:#f85149;--er:#9198a1;--un:#ab7df8;--hatch:#0d1117}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1180px;padding:1.2rem;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
h1{font-size:1.5rem;margin:0 0 .3rem}h2{font-size:1.15rem;margin:1.8rem 0 .5rem;border-bottom:1px solid var(--border);padding-bottom:.2rem}
.meta,.note{color:var(--muted)}.meta span{display:inline-block;margin-right:1rem}
.headline{font-size:1.05rem;margin:.8rem 0;padding:.6rem .8rem;border-left:4px solid var(--accent);background:var(--tile)}
.headline li{margin:.15rem 0}
.warn{background:var(--warn-bg);border:1px solid var(--border);padding:.5rem .8rem;margin:.8rem 0}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:.5rem;margin:.8rem 0}
.tile{background:var(--tile);border:1px solid var(--border);border-radius:6px;padding:.5rem .7rem}
.tile b{display:block;font-size:1.45rem;font-variant-numeric:tabular-nums}.tile span{color:var(--muted)}
.tile.alert{border:2px solid var(--bad)}
.panels{display:flex;flex-wrap:wrap;gap:.8rem}.panel{border:1px solid var(--border);border-radius:6px;padding:.4rem;margin:0}
.panel h3{font-size:.95rem;margin:0 0 .2rem;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.4rem 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--border);padding:.25rem .5rem;text-align:left;vertical-align:middle}
td.n,th.n{text-align:right}th{font-weight:600}
table.sortable th{cursor:pointer}
td.key{overflow-wrap:anywhere;max-width:22rem}
code.cmd{user-select:all;font-size:.85em;background:var(--tile);padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}
details{margin:.4rem 0}summary{cursor:pointer;color:var(--accent)}
.legend span{margin-right:1rem;white-space:nowrap}.legend svg{vertical-align:middle}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.drop{color:var(--bad);font-weight:600}
svg.defs{position:absolute}
.wide{max-width:100%;overflow-x:auto}
svg.trend,svg.scores{max-width:100%;height:auto}
@media (max-width:720px){body{padding:.6rem;font-size:13px}table{font-size:12px}th,td{padding:.15rem .25rem}td.key{max-width:10rem}details table{font-size:11px}details th,details td{padding:.1rem .2rem}
svg.mix{width:64px;height:auto}svg.spark{width:56px;height:auto}}
svg text{font:10px system-ui,sans-serif;fill:var(--muted)}svg text.value{fill:var(--fg);font-weight:600}
.grid{stroke:var(--border);stroke-width:1}
.line{fill:none;stroke:var(--accent);stroke-width:2}
.mark{fill:var(--accent)}.mark.below{fill:var(--bad)}
.threshold{stroke:var(--bad);stroke-width:1.2;stroke-dasharray:5 3}text.threshold-label{fill:var(--bad)}
.volume{fill:var(--muted);opacity:.55}
.track,.empty{fill:var(--tile);stroke:var(--border)}.fill{fill:var(--accent)}
.hatch{stroke:var(--hatch);stroke-width:1.3}.dot{fill:var(--hatch)}
.s-cited{fill:var(--accent)}.s-uncited{fill:var(--er)}
.v-ok{fill:var(--ok)}.v-no_marker{fill:var(--nm)}.v-orphan_marker{fill:var(--or)}.v-empty_retrieval{fill:var(--er)}.v-unobserved{fill:var(--un)}
@media print{body{max-width:none;padding:0;font-size:11px;background:#fff;color:#000}
summary,.no-print{display:none}h2{break-after:avoid}.panel,table,.tile{break-inside:avoid}a{color:inherit}}
"#;

/// Opens every `<details>` for printing, and sorts a table by the column
/// whose header is clicked (numbers by `data-v`). The page is complete without it.
const SCRIPT: &str = r#"addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach(function(d){d.open=true})});
document.querySelectorAll('table.sortable').forEach(function(t){t.querySelectorAll('th').forEach(function(th,i){th.tabIndex=0;th.title='sort';function go(){var b=t.tBodies[0],rs=Array.prototype.slice.call(b.rows),up=th.dataset.dir!=='asc';th.dataset.dir=up?'asc':'desc';rs.sort(function(x,y){var a=x.cells[i],c=y.cells[i];a=a.dataset.v!==undefined?a.dataset.v:a.textContent;c=c.dataset.v!==undefined?c.dataset.v:c.textContent;var p=parseFloat(a),q=parseFloat(c),r=(isNaN(p)||isNaN(q))?a.localeCompare(c):p-q;return up?r:-r});rs.forEach(function(r){b.appendChild(r)})}th.addEventListener('click',go);th.addEventListener('keydown',function(e){if(e.key==='Enter')go()})})});"#;

fn num(x: u64) -> String {
    x.to_string()
}

/// `<td>` of a number (right-aligned, sortable by value).
fn td_num(s: &mut String, x: impl std::fmt::Display) {
    let _ = write!(s, r#"<td class="n">{x}</td>"#);
}

/// `<td>` of a rate, sortable with `n/a` last.
fn td_rate(s: &mut String, x: Option<f64>) {
    let _ = write!(
        s,
        r#"<td class="n" data-v="{}">{}</td>"#,
        x.map_or(-1.0, |x| x),
        rate(x)
    );
}

/// A section's table as HTML (cells escaped); `limit` rows at most.
fn section_table(s: &mut String, sec: &Section, limit: usize) {
    s.push_str(r#"<div class="wide"><table class="sortable"><thead><tr>"#);
    for (i, h) in sec.header.iter().enumerate() {
        let class = if sec.numeric.contains(&i) {
            r#" class="n""#
        } else {
            ""
        };
        // A break allowed after each `_`, so `with_retrieval` can wrap.
        let _ = write!(
            s,
            r#"<th scope="col"{class}>{}</th>"#,
            html(h).replace('_', "_<wbr>")
        );
    }
    s.push_str("</tr></thead><tbody>");
    for row in sec.rows.iter().take(limit) {
        s.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            if sec.numeric.contains(&i) {
                let _ = write!(s, r#"<td class="n">{}</td>"#, html(c));
            } else {
                let _ = write!(s, r#"<td class="key">{}</td>"#, html(c));
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
    if sec.rows.len() > limit {
        let _ = write!(
            s,
            r#"<p class="note">{} more rows not shown; <code>--format csv</code> has them all.</p>"#,
            sec.rows.len() - limit
        );
    }
    for n in &sec.notes {
        let _ = write!(s, r#"<p class="note">{}</p>"#, html(n));
    }
}

/// The direction of a series: the mean rate of its last third of buckets
/// (with a rate) against its first third, in words and an arrow, so one
/// noisy bucket at either end does not decide it.
fn direction(rates: &[Option<f64>]) -> (&'static str, f64) {
    let known: Vec<f64> = rates.iter().flatten().copied().collect();
    if known.len() < 2 {
        return ("– too few buckets", 0.0);
    }
    let k = known.len().div_ceil(3);
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let d = mean(&known[known.len() - k..]) - mean(&known[..k]);
    if d > 0.02 {
        ("▲ rising", d)
    } else if d < -0.02 {
        ("▼ falling", d)
    } else {
        ("→ steady", d)
    }
}

/// `summary --format html`.
pub fn summary(out: &mut dyn Write, doc: &SummaryDoc<'_>, meta: &Meta) -> Result<()> {
    out.write_all(page(doc, meta).as_bytes())?;
    Ok(())
}

/// The whole page as a string.
pub fn page(doc: &SummaryDoc<'_>, meta: &Meta) -> String {
    let mut s = String::with_capacity(64 * 1024);
    head(&mut s, doc, meta);
    warnings(&mut s, doc);

    // The trend series, on one scale for every chart of the page.
    let first = doc.days.len().saturating_sub(MAX_BUCKETS);
    let labels: Vec<&str> = doc.days[first..].iter().map(|d| d.day.as_str()).collect();
    let mut by_group: HashMap<&str, HashMap<&str, &DayDoc>> = HashMap::new();
    for gd in &doc.group_days {
        by_group
            .entry(gd.key)
            .or_default()
            .insert(gd.day.day.as_str(), &gd.day);
    }
    let series = |key: Option<&str>| -> Vec<Point<'_>> {
        labels
            .iter()
            .map(|l| {
                let d = match key {
                    None => doc.days[first..].iter().find(|d| d.day == *l),
                    Some(k) => by_group.get(k).and_then(|m| m.get(l).copied()),
                };
                Point {
                    label: l,
                    rate: d.and_then(|d| d.grounded_rate),
                    turns: d.map_or(0, |d| d.turns),
                }
            })
            .collect()
    };
    let overall = series(None);
    let group_series: Vec<(&str, Vec<Point<'_>>)> = doc
        .groups
        .iter()
        .take(MAX_ROWS)
        .map(|g| (g.key, series(Some(g.key))))
        .collect();
    let scale = Scale::of(
        overall
            .iter()
            .chain(group_series.iter().take(MAX_PANELS).flat_map(|(_, p)| p))
            .filter_map(|p| p.rate)
            .chain(doc.groups.iter().filter_map(|g| g.rollup.grounded_rate())),
        meta.min_rate,
    );

    headline(&mut s, doc, meta, &group_series);
    tiles(&mut s, doc);
    groups::comparison(&mut s, doc);
    trend_charts(&mut s, doc, meta, scale, &overall, &group_series);
    trend_table(&mut s, doc, first, &labels, &by_group, &group_series);
    groups::groups(&mut s, doc, &group_series, scale);
    retrieval(&mut s, doc);
    s.push_str(r#"<section id="evidence"><h2>Evidence completeness</h2>"#);
    section_table(&mut s, &super::evidence::section(doc), MAX_ROWS);
    s.push_str("</section>");
    triage(&mut s, doc, meta);
    guardrail(&mut s, doc);
    s.push_str(r#"<section id="more"><h2>Tool calls and telemetry</h2>"#);
    section_table(&mut s, &super::summary::tools_section(doc), MAX_ROWS);
    section_table(&mut s, &super::summary::telemetry_section(doc), MAX_ROWS);
    s.push_str("</section>");
    let _ = write!(
        s,
        r#"<footer><p class="note">Made by grounding-audit {} from the summary view; <code>summary --format json</code> has every figure of this page. No text of a reply or chunk is in this file.</p></footer>
<script>{SCRIPT}</script></body></html>
"#,
        html(meta.version)
    );
    s
}

/// The page's head (title, style, chart definitions) and its header: the
/// time window, the trend's buckets and zone, the grammars used, version,
/// time, and what was read.
fn head(s: &mut String, doc: &SummaryDoc<'_>, meta: &Meta) {
    let period = match (doc.days.first(), doc.days.last()) {
        (Some(a), Some(b)) if a.day == b.day => a.day.clone(),
        (Some(a), Some(b)) => format!("{} to {}", a.day, b.day),
        _ => "no turns".to_owned(),
    };
    let chosen = match &meta.grammar_flag {
        Some(g) if g.starts_with("regex ") => "--marker-regex, for every input".to_owned(),
        Some(_) => "--markers, for every input".to_owned(),
        None => "each input format's default, or a turn's own markers field".to_owned(),
    };
    let _ = write!(
        s,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="grounding-audit {v}">
<title>Grounding audit · {p}</title>
<style>{STYLE}</style></head><body>
{defs}
<header><h1>Grounding audit</h1><p class="meta"><span>time window <b id="window">{w}</b></span><span>trend <b>{p}</b> (by {bucket} in <b id="zone">{tz}</b>)</span><span>marker grammar <b id="grammar">{g}</b> ({chosen})</span><span>grounding-audit {v}</span><span>generated {gen}</span></p>
<p class="meta" id="inputs"><span>{files} file(s)</span><span>{lines} line(s)</span><span>{turns} turn(s) read</span><span>{invalid} invalid</span><span>{dups} duplicate(s)</span><span>{skipped} skipped record(s)</span></p></header>
"#,
        v = html(meta.version),
        w = html(&doc.window.shown),
        p = html(&period),
        defs = svg::defs(),
        bucket = html(doc.bucket),
        tz = html(&doc.tz),
        g = html(&super::grammar_text(doc.input)),
        chosen = html(&chosen),
        gen = html(&meta.generated),
        files = doc.input.files,
        lines = doc.input.lines,
        turns = doc.input.turns,
        invalid = doc.input.invalid_lines,
        dups = doc.input.duplicates,
        skipped = doc.input.skipped_records,
    );
}

/// The trend charts: every turns', and each charted group's.
fn trend_charts(
    s: &mut String,
    doc: &SummaryDoc<'_>,
    meta: &Meta,
    scale: Scale,
    overall: &[Point<'_>],
    group_series: &[(&str, Vec<Point<'_>>)],
) {
    // The trend.
    let _ = write!(
        s,
        r#"<section id="trend"><h2>Trend: grounded rate per {b}, turns beneath</h2><p class="note">Rate axis {lo:.2}–{hi:.2}, scaled to the data{th}. A circle is a {b}'s rate{tri}; gaps are {b}s without a turn with retrieval.</p><div class="panels">"#,
        b = html(doc.bucket),
        lo = scale.lo,
        hi = scale.hi,
        th = meta.min_rate.map_or_else(String::new, |m| format!(
            "; the dashed line is the threshold {m:.2}"
        )),
        tri = if meta.min_rate.is_some() {
            ", a triangle one below the threshold"
        } else {
            ""
        },
    );
    let panel = |s: &mut String, title: &str, points: &[Point<'_>]| {
        let _ = write!(
            s,
            r#"<figure class="panel"><h3>{}</h3>{}</figure>"#,
            html(title),
            svg::trend(title, points, scale, meta.min_rate)
        );
    };
    panel(s, "all turns", overall);
    for (k, p) in group_series.iter().take(MAX_PANELS) {
        panel(s, &format!("{} {k}", doc.group_by), p);
    }
    s.push_str("</div>");
    if doc.groups.len() > MAX_PANELS {
        let _ = write!(
            s,
            r#"<p class="note">{} more {}s are not charted (the {MAX_PANELS} most ungrounded are); <code>--format csv --section group-days</code> has every series.</p>"#,
            doc.groups.len() - MAX_PANELS,
            html(doc.group_by)
        );
    }
    if doc.days.len() > MAX_BUCKETS {
        let _ = write!(
            s,
            r#"<p class="note">The last {MAX_BUCKETS} of {} {}s are charted.</p>"#,
            doc.days.len(),
            html(doc.bucket)
        );
    }
}

/// The trend data under the charts: every charted bucket of every turn,
/// then of each charted group.
fn trend_table(
    s: &mut String,
    doc: &SummaryDoc<'_>,
    first: usize,
    labels: &[&str],
    by_group: &HashMap<&str, HashMap<&str, &DayDoc>>,
    group_series: &[(&str, Vec<Point<'_>>)],
) {
    s.push_str(r#"<details><summary>Trend data</summary><div class="wide"><table class="sortable"><thead><tr><th scope="col">series</th><th scope="col">bucket</th><th scope="col" class="n">turns</th><th scope="col" class="n">with_retrieval</th><th scope="col" class="n">grounded</th><th scope="col" class="n">grounded_rate</th></tr></thead><tbody>"#);
    let day_row = |s: &mut String, key: &str, d: &DayDoc| {
        let _ = write!(
            s,
            r#"<tr><td class="key">{}</td><td>{}</td>"#,
            html(key),
            html(&d.day)
        );
        td_num(s, d.turns);
        td_num(s, d.with_retrieval);
        td_num(s, d.grounded);
        td_rate(s, d.grounded_rate);
        s.push_str("</tr>");
    };
    for d in &doc.days[first..] {
        day_row(s, "(all)", d);
    }
    for (k, _) in group_series.iter().take(MAX_PANELS) {
        for l in labels {
            if let Some(d) = by_group.get(k).and_then(|m| m.get(l)) {
                day_row(s, k, d);
            }
        }
    }
    s.push_str("</tbody></table></div></details></section>");
}

fn warnings(s: &mut String, doc: &SummaryDoc<'_>) {
    let i = doc.input;
    let mut lines: Vec<String> = Vec::new();
    if i.invalid_lines > 0 {
        lines.push(format!(
            "{} invalid line(s) were not read (see stderr of the run, or report --strict)",
            i.invalid_lines
        ));
    }
    if i.duplicates > 0 {
        lines.push(format!(
            "{} duplicate turn id(s) were counted once",
            i.duplicates
        ));
    }
    lines.extend(i.warnings.iter().map(|w| w.line()));
    if lines.is_empty() {
        return;
    }
    s.push_str(r#"<aside class="warn" role="note"><b>Input warnings</b><ul>"#);
    for l in lines.iter().take(MAX_ROWS) {
        let _ = write!(s, "<li>{}</li>", html(l));
    }
    s.push_str("</ul></aside>");
}

/// The sentences an owner reads first: worst group, the way each goes,
/// drops against the baseline and what to read first.
fn headline(s: &mut String, doc: &SummaryDoc<'_>, meta: &Meta, series: &[(&str, Vec<Point<'_>>)]) {
    let mut items: Vec<String> = Vec::new();
    let worst = doc
        .groups
        .iter()
        .filter_map(|g| g.rollup.grounded_rate().map(|r| (r, g)))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((r, g)) = worst {
        items.push(format!(
            "Lowest grounded rate: <b>{} {}</b> at <b>{r:.4}</b> ({} of {} turns with retrieval grounded).",
            html(doc.group_by),
            html(g.key),
            g.rollup.grounded(),
            g.rollup.with_retrieval
        ));
    }
    let mut moves: Vec<String> = Vec::new();
    for (k, p) in series.iter().take(MAX_PANELS) {
        let rates: Vec<Option<f64>> = p.iter().map(|p| p.rate).collect();
        let (word, d) = direction(&rates);
        if word.starts_with('▼') || word.starts_with('▲') {
            moves.push(format!("{} {word} ({d:+.4})", html(k)));
        }
    }
    if !moves.is_empty() {
        items.push(format!(
            "Within this window, the mean rate of the last third of {b}s against the first third: {}.",
            moves.join(", "),
            b = html(doc.bucket),
        ));
    }
    if let Some(m) = meta.min_rate {
        let below: Vec<String> = doc
            .groups
            .iter()
            .filter(|g| g.rollup.grounded_rate().is_some_and(|r| r < m))
            .take(20)
            .map(|g| html(g.key).into_owned())
            .collect();
        items.push(if below.is_empty() {
            format!(
                "Every {} is at or above the threshold {m:.2}.",
                html(doc.group_by)
            )
        } else {
            format!(
                "Below the threshold {m:.2}: <b class=\"drop\">{}</b>.",
                below.join(", ")
            )
        });
    }
    if let Some(c) = doc.compare {
        // The overall change, and each significant drop (the baseline and
        // its intervals are named in the comparison section).
        for l in super::summary::compare_lines(c).iter().skip(1) {
            items.push(format!(
                r##"{} (<a href="#compare">comparison</a>)"##,
                html(l)
            ));
        }
    }
    if let Some(t) = doc.triage.first() {
        let which = if doc.triage_order == "recent" {
            "the most recent"
        } else {
            "the most severe"
        };
        items.push(format!(
            "Read first: turn <b>{}</b> of {} ({}), {which} of {} in the <a href=\"#triage\">triage list</a>.",
            html(t.turn_id.as_str()),
            html(t.agent_id),
            html(&t.reason),
            doc.triage.len()
        ));
    }
    if items.is_empty() {
        return;
    }
    s.push_str(r#"<section class="headline" aria-label="Headline"><ul>"#);
    for i in items {
        let _ = write!(s, "<li>{i}</li>");
    }
    s.push_str("</ul></section>");
}

fn tiles(s: &mut String, doc: &SummaryDoc<'_>) {
    let t = &doc.totals;
    s.push_str(r#"<section class="tiles" aria-label="Totals">"#);
    let mut tile = |value: String, label: &str, alert: bool| {
        let _ = write!(
            s,
            r#"<div class="tile{}"><b>{value}</b><span>{label}</span></div>"#,
            if alert { " alert" } else { "" }
        );
    };
    tile(num(t.turns), "turns", false);
    tile(num(t.with_retrieval), "with retrieval", false);
    tile(rate(t.grounded_rate()), "grounded rate", false);
    if let Some(c) = t.support.coverage() {
        tile(
            rate(Some(c)),
            "citation coverage (sentences that cite a chunk)",
            false,
        );
        tile(
            num(t.support.quotes_absent),
            "quotes absent from their cited chunk",
            t.support.quotes_absent > 0,
        );
        if t.support.quotes_absent > 0 {
            tile(
                num(t.support.quotes_fabricated),
                "fabricated quotes (in no retrieved chunk)",
                t.support.quotes_fabricated > 0,
            );
            tile(
                num(t.support.quotes_misattributed),
                "misattributed quotes (in another chunk)",
                t.support.quotes_misattributed > 0,
            );
        }
        tile(num(t.support.hinted), "turns with hints (read them)", false);
    }
    let invented = t.cited_without_retrieval();
    tile(
        num(invented),
        "cite with nothing retrieved (orphan_marker, outside the rate)",
        invented > 0,
    );
    for v in Verdict::ALL {
        let n = t.count(v);
        let label = if v == Verdict::OrphanMarker {
            "orphan_marker (cites a chunk that was not retrieved)"
        } else {
            v.as_str()
        };
        tile(num(n), label, v == Verdict::OrphanMarker && n > 0);
    }
    s.push_str("</section>");
}

fn legend() -> String {
    let mut s = String::from(r#"<p class="legend" aria-hidden="true">"#);
    for (i, v) in Verdict::ALL.iter().enumerate() {
        let _ = write!(
            s,
            r#"<span><svg width="14" height="14"><rect width="14" height="14" fill="{}"/></svg> {}</span>"#,
            svg::VERDICT_FILL[i],
            v.as_str()
        );
    }
    s.push_str("</p>");
    s
}

fn retrieval(s: &mut String, doc: &SummaryDoc<'_>) {
    let _ = write!(
        s,
        r#"<section id="retrieval"><h2>Retrieval use</h2><p class="note">Cited share: distinct chunks cited of chunks retrieved. A low-confidence citation cites a chunk scoring below {}.</p><div class="wide"><table class="sortable"><thead><tr><th scope="col">group</th><th scope="col" class="n">chunks retrieved</th><th scope="col" class="n">chunks cited</th><th scope="col">cited share</th><th scope="col" class="n">only the top chunk</th><th scope="col" class="n">mean cited rank</th><th scope="col" class="n">low-confidence citations</th><th scope="col" class="n">mixed-confidence turns</th></tr></thead><tbody>"#,
        doc.low_score
    );
    let mut row = |key: &str, r: &crate::view::summary::RetrievalDoc| {
        let _ = write!(s, r#"<tr><th scope="row" class="key">{}</th>"#, html(key));
        td_num(s, r.counts.chunks_retrieved);
        td_num(s, r.counts.chunks_cited);
        let _ = write!(
            s,
            r#"<td data-v="{}">{}<span class="sr">{}</span></td>"#,
            r.cited_share.unwrap_or(-1.0),
            svg::share_bar(r.cited_share),
            rate(r.cited_share)
        );
        td_num(s, r.counts.turns_citing_only_top);
        td_num(
            s,
            r.mean_cited_rank
                .map_or_else(|| "-".into(), |m| format!("{m:.2}")),
        );
        td_num(s, r.counts.low_confidence_citations);
        td_num(s, r.counts.mixed_confidence_turns);
        s.push_str("</tr>");
    };
    row("(all)", &doc.retrieval_use);
    for g in doc.groups.iter().take(MAX_ROWS) {
        row(g.key, &g.retrieval_use);
    }
    s.push_str("</tbody></table></div>");
    scores(s, doc);
    s.push_str("</section>");
}

/// The score distribution of cited against uncited chunks: the chart, a
/// note on the chunks it cannot place, and its figures under `<details>`.
fn scores(s: &mut String, doc: &SummaryDoc<'_>) {
    let d = &doc.retrieval_use.counts.scores;
    s.push_str(r#"<h3 id="scores">Chunk scores, cited against uncited</h3>"#);
    let Some(chart) = svg::scores(d, doc.low_score) else {
        s.push_str(r#"<p class="note">No retrieved chunk has a score between 0 and 1.</p>"#);
        return;
    };
    let _ = write!(
        s,
        r#"<p class="note">Each kind of chunk as a share of its own chunks scored in [0, 1], in bins of 0.05 (the last includes 1): solid bars are chunks the replies cited, hatched bars the chunks they left uncited. Cited chunks piled at the left of uncited ones mean replies cite weak matches.</p><div class="panels"><figure class="panel">{chart}</figure></div>"#
    );
    let (unscored, outside) = (
        d.cited.unscored + d.uncited.unscored,
        d.cited.out_of_range + d.uncited.out_of_range,
    );
    if unscored + outside > 0 {
        let _ = write!(
            s,
            r#"<p class="note">Not charted: {unscored} chunk(s) without a score ({} cited), {outside} scored outside [0, 1] ({} cited).</p>"#,
            d.cited.unscored, d.cited.out_of_range
        );
    }
    s.push_str("<details><summary>Score distribution</summary>");
    section_table(s, &super::summary::scores_section(doc), SCORE_BINS + 2);
    s.push_str("</details>");
    score_groups(s, doc);
}

/// Each group's score distribution: chunks of each kind, the bin of
/// their median score, and a small chart of both kinds' bins.
fn score_groups(s: &mut String, doc: &SummaryDoc<'_>) {
    use super::summary::median_text;
    let by = html(doc.group_by);
    let _ = write!(
        s,
        r#"<h3 id="scores-by-group">Chunk scores by {by}</h3><p class="note">Per {by}, the chunks of each kind scored in [0, 1] and the bin of their median score; the chart has a column per bin of 0.05 from 0 (left) to 1 (right), cited chunks rising above the line and uncited ones (hatched) hanging below it, each as a share of its own kind, scaled to that kind's largest share.</p><div class="wide"><table class="sortable"><thead><tr><th scope="col">{by}</th><th scope="col" class="n">cited</th><th scope="col">cited median</th><th scope="col" class="n">uncited</th><th scope="col">uncited median</th><th scope="col">scores, cited above uncited</th><th scope="col" class="n">unscored</th><th scope="col" class="n">outside [0, 1]</th></tr></thead><tbody>"#
    );
    let mut row = |key: &str, d: &crate::accumulate::summary::ScoreDistribution| {
        let _ = write!(s, r#"<tr><th scope="row" class="key">{}</th>"#, html(key));
        td_num(s, d.cited.binned());
        let _ = write!(s, "<td>{}</td>", median_text(&d.cited));
        td_num(s, d.uncited.binned());
        let _ = write!(
            s,
            "<td>{}</td><td>{}</td>",
            median_text(&d.uncited),
            svg::score_mini(d)
        );
        td_num(s, d.cited.unscored + d.uncited.unscored);
        td_num(s, d.cited.out_of_range + d.uncited.out_of_range);
        s.push_str("</tr>");
    };
    row("(all)", &doc.retrieval_use.counts.scores);
    for g in doc.groups.iter().take(MAX_ROWS) {
        row(g.key, &g.retrieval_use.counts.scores);
    }
    s.push_str("</tbody></table></div>");
    if doc.groups.len() > MAX_ROWS {
        let _ = write!(
            s,
            r#"<p class="note">{} more {by}s not shown; <code>--format csv --section scores</code> has every bin of every {by}.</p>"#,
            doc.groups.len() - MAX_ROWS
        );
    }
}

fn triage(s: &mut String, doc: &SummaryDoc<'_>, meta: &Meta) {
    let _ = write!(
        s,
        r#"<section id="triage"><h2>{}</h2>"#,
        html(&super::summary::triage_title(doc))
    );
    if doc.triage.is_empty() {
        s.push_str(r#"<p class="note">No ungrounded turn (or the list is off: <code>--triage 0</code>).</p></section>"#);
        return;
    }
    s.push_str(r#"<p class="note">Copy a command line to see why a turn got its verdict (add <code>--show-text</code> to read the reply and chunks).</p><div class="wide"><table class="sortable"><thead><tr><th scope="col">created_at</th><th scope="col">turn_id</th><th scope="col">agent_id</th><th scope="col">verdict</th><th scope="col">reason</th><th scope="col" class="n">marker_count</th><th scope="col" class="n">chunk_count</th><th scope="col" class="n">confidence</th><th scope="col" class="n">tool_errors</th><th scope="col">explain</th></tr></thead><tbody>"#);
    let options: Vec<&str> = meta.grammar_args.iter().map(String::as_str).collect();
    for t in &doc.triage {
        // A break allowed after each `_`, so `orphan_marker` can wrap.
        let verdict = t.verdict.as_str().replace('_', "_<wbr>");
        let _ = write!(
            s,
            r#"<tr><td>{}</td><td class="key">{}</td><td class="key">{}</td><td>{verdict}</td><td>{}</td>"#,
            // The date and the time of day may go on two lines.
            html(&t.shown_at).replacen('T', "<wbr>T", 1),
            html(t.turn_id.as_str()),
            html(t.agent_id),
            html(&t.reason)
        );
        td_num(s, t.marker_count);
        td_num(s, t.chunk_count);
        td_num(
            s,
            t.confidence
                .map_or_else(|| "-".into(), |c| format!("{c:.2}")),
        );
        td_num(s, t.tool_errors);
        let mut operands = vec![t.turn_id.as_str()];
        operands.extend(meta.paths.iter().map(String::as_str));
        let cmd =
            crate::render::shell::command(&["grounding-audit", "explain"], &operands, &options);
        let _ = write!(
            s,
            r#"<td><code class="cmd">{}</code></td></tr>"#,
            html(&cmd)
        );
    }
    s.push_str("</tbody></table></div></section>");
}

fn guardrail(s: &mut String, doc: &SummaryDoc<'_>) {
    let g = &doc.guardrail;
    if g.overall.answered == 0 {
        return;
    }
    let _ = write!(
        s,
        r#"<section id="guardrail"><h2>Guardrail what-if: require_citation</h2><p class="note">Refusing every answer given with retrieval and no well-formed marker would refuse <b>{}</b> of {} answers ({}), and still let <b>{}</b> orphan-marker answers through.</p>"#,
        g.overall.refused,
        g.overall.answered,
        rate(g.refused_share),
        g.overall.orphans_passed
    );
    let mut sec = Section::new(
        "",
        &[
            "group",
            "answered",
            "would_refuse",
            "refused_share",
            "orphans_let_through",
        ],
    )
    .numeric(&[1, 2, 3, 4]);
    sec.rows = g
        .by_group
        .iter()
        .map(|r| {
            vec![
                r.key.to_owned(),
                r.counts.answered.to_string(),
                r.counts.refused.to_string(),
                rate(r.refused_share),
                r.counts.orphans_passed.to_string(),
            ]
        })
        .collect();
    section_table(s, &sec, MAX_ROWS);
    s.push_str("</section>");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of `#rrggbb`.
    fn luminance(hex: &str) -> f64 {
        let hex = if hex.len() == 4 {
            hex.chars().flat_map(|c| [c, c]).skip(1).collect::<String>()
        } else {
            hex.to_owned()
        };
        let c = |i: usize| {
            let v = u8::from_str_radix(&hex[i..i + 2], 16).unwrap() as f64 / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * c(1) + 0.7152 * c(3) + 0.0722 * c(5)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    /// The colours of one scheme, as declared in the style sheet.
    fn palette(scheme: &str) -> HashMap<String, String> {
        scheme
            .split([';', '{', '}'])
            .filter_map(|d| d.trim().strip_prefix("--"))
            .filter_map(|d| d.split_once(':'))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }

    /// Text colours reach WCAG AA (4.5:1) on the page and on tiles, and
    /// the marks of charts (lines, threshold, verdict fills) reach the 3:1
    /// of non-text contrast, in the light scheme and the dark one.
    #[test]
    fn colours_pass_wcag_aa_in_both_schemes() {
        let light =
            palette(&STYLE[STYLE.find(":root{").unwrap()..STYLE.find("color-scheme").unwrap()]);
        let dark_at = STYLE.find("prefers-color-scheme:dark").unwrap();
        let dark = palette(&STYLE[dark_at..dark_at + STYLE[dark_at..].find("}}").unwrap()]);
        for p in [&light, &dark] {
            for bg in ["bg", "tile"] {
                for fg in ["fg", "muted", "accent", "bad"] {
                    let r = contrast(&p[fg], &p[bg]);
                    assert!(r >= 4.5, "--{fg} on --{bg}: {r:.2}");
                }
                for mark in ["accent", "bad", "ok", "nm", "or", "er", "un"] {
                    let r = contrast(&p[mark], &p[bg]);
                    assert!(r >= 3.0, "--{mark} on --{bg}: {r:.2}");
                }
            }
        }
    }

    #[test]
    fn direction_needs_two_buckets() {
        assert_eq!(direction(&[Some(0.9)]).0, "– too few buckets");
        assert_eq!(direction(&[Some(0.9), None, Some(0.7)]).0, "▼ falling");
        assert_eq!(direction(&[Some(0.7), Some(0.71)]).0, "→ steady");
        // Thirds, not single buckets: one low bucket at the end is not a fall.
        let (word, _) = direction(&[
            Some(0.9),
            Some(0.9),
            Some(0.9),
            Some(0.9),
            Some(0.9),
            Some(0.88),
        ]);
        assert_eq!(word, "→ steady");
    }
}

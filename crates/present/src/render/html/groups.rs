//! The page's per-group table (verdict mix, rate, trend in this window
//! and, with a baseline, the change against it) and the comparison
//! section that says what the baseline is and what its intervals are.
//! Every number is labelled with what it compares: the trend word is this
//! window's last third of buckets against its first third, the change is
//! this window against the baseline.

use super::{MAX_ROWS, Section, direction, html, legend, rate, section_table, td_num, td_rate};
use crate::model::Verdict;
use crate::render::html::svg::{self, Point, Scale};
use crate::view::summary::SummaryDoc;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The comparison with the baseline: which baseline, against which window,
/// the intervals' method and level, the overall change and each
/// significant drop; its figures under `<details>`.
pub(super) fn comparison(s: &mut String, doc: &SummaryDoc<'_>) {
    let Some(c) = doc.compare else { return };
    let _ = write!(
        s,
        r#"<section id="compare"><h2>Compared with the baseline</h2><p class="note">This window: {}. Each difference is this window's grounded rate − the baseline's, with its {} % Newcombe interval (a significant change is one whose interval excludes 0). A change day splits the baseline's {b}s and this window's into before and after, at the most likely change of the rate; its two rates are of that split, not of the two windows.</p><ul>"#,
        html(&doc.window.shown),
        crate::gate::percent(c.confidence),
        b = html(doc.bucket),
    );
    for l in crate::render::summary::compare_lines(c) {
        let _ = write!(s, "<li>{}</li>", html(&l));
    }
    s.push_str("</ul><details><summary>Comparison figures</summary>");
    let mut figures = crate::render::summary::compare_section(c);
    figures.notes.clear();
    section_table(s, &figures, MAX_ROWS + 1);
    s.push_str("</details></section>");
}

/// A group's change against the baseline as two cells: the difference
/// with its interval, and whether it is significant (with the change day).
fn change_cells(s: &mut String, r: Option<&&crate::compare::Row>) {
    let Some(r) = r else {
        s.push_str("<td>–</td><td>not in the baseline</td>");
        return;
    };
    let diff = r.difference.map_or_else(
        || "n/a".to_owned(),
        |d| {
            format!(
                "{d:+.4} [{:+.4}, {:+.4}]",
                r.low.unwrap_or(f64::NAN),
                r.high.unwrap_or(f64::NAN)
            )
        },
    );
    let _ = write!(
        s,
        r#"<td class="n" data-v="{}">{diff}</td>"#,
        r.difference.unwrap_or(0.0)
    );
    let sig = if r.significant_drop() {
        format!(
            r#"<span class="drop">▼ significant drop</span>{}"#,
            r.change.as_ref().map_or_else(String::new, |c| format!(
                "; change day {}: {} before it, {} from it on",
                html(&c.since),
                rate(Some(c.before_rate)),
                rate(Some(c.after_rate))
            ))
        )
    } else if r.significant {
        "▲ significant rise".to_owned()
    } else {
        "not significant".to_owned()
    };
    let _ = write!(s, "<td>{sig}</td>");
}

/// The groups table: verdict mix, rate, the trend in this window, and the
/// change against the baseline when there is one.
pub(super) fn groups(
    s: &mut String,
    doc: &SummaryDoc<'_>,
    series: &[(&str, Vec<Point<'_>>)],
    scale: Scale,
) {
    let by = html(doc.group_by);
    let b = html(doc.bucket);
    let changes: HashMap<&str, &crate::compare::Row> = doc
        .compare
        .map(|c| {
            c.groups
                .iter()
                .filter_map(|r| r.key.as_deref().map(|k| (k, r)))
                .collect()
        })
        .unwrap_or_default();
    let pct = doc
        .compare
        .map(|c| crate::gate::percent(c.confidence))
        .unwrap_or_default();
    let _ = write!(
        s,
        r#"<section id="groups"><h2>By {by}, most ungrounded first</h2>{}<p class="note">Trend: the mean grounded rate of the last third of this window's charted {b}s − that of the first third (▲ rising above +0.02, ▼ falling below −0.02){}.</p><div class="wide"><table class="sortable"><thead><tr><th scope="col">{by}</th><th scope="col" class="n">turns</th><th scope="col" class="n">with_retrieval</th><th scope="col">verdict mix</th><th scope="col" class="n">grounded_rate</th><th scope="col" class="n">coverage</th><th scope="col">trend in this window (last third − first third of {b}s)</th>{}</tr></thead><tbody>"#,
        legend(),
        if doc.compare.is_some() {
            "; the change compares this window with the baseline, a different pair of periods, so the two can point different ways"
        } else {
            ""
        },
        if doc.compare.is_some() {
            format!(
                r#"<th scope="col" class="n">change: this window − baseline [{pct} % Newcombe interval]</th><th scope="col">significance</th>"#
            )
        } else {
            String::new()
        }
    );
    for (g, (_, points)) in doc.groups.iter().zip(series) {
        let counts = Verdict::ALL.map(|v| g.rollup.count(v));
        let mix: Vec<String> = Verdict::ALL
            .iter()
            .zip(&counts)
            .map(|(v, c)| format!("{} {c}", v.as_str()))
            .collect();
        let rates: Vec<Option<f64>> = points.iter().map(|p| p.rate).collect();
        let (word, d) = direction(&rates);
        let _ = write!(s, r#"<tr><th scope="row" class="key">{}</th>"#, html(g.key));
        td_num(s, g.rollup.turns);
        td_num(s, g.rollup.with_retrieval);
        let _ = write!(
            s,
            r#"<td data-v="{}">{}<span class="sr">{}</span></td>"#,
            g.rollup.ungrounded(),
            svg::stacked(&counts),
            mix.join(", ")
        );
        td_rate(s, g.rollup.grounded_rate());
        td_rate(s, g.rollup.support.coverage());
        let moved = if word.starts_with('–') {
            String::new()
        } else {
            format!(" {d:+.4}")
        };
        let _ = write!(
            s,
            r#"<td data-v="{d:.4}">{} {word}{moved}</td>"#,
            svg::sparkline(&rates, scale)
        );
        if doc.compare.is_some() {
            change_cells(s, changes.get(g.key));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>");
    if doc.groups.len() > MAX_ROWS {
        let _ = write!(
            s,
            r#"<p class="note">{} more {by}s not shown; <code>--format csv</code> has them all.</p>"#,
            doc.groups.len() - MAX_ROWS
        );
    }
    s.push_str(r#"<details><summary>Verdict counts</summary>"#);
    let mut counts = Section::new(
        "",
        &[
            "group",
            "turns",
            "with_retrieval",
            "ok",
            "no_marker",
            "orphan_marker",
            "empty_retrieval",
            "unobserved",
            "grounded_rate",
        ],
    )
    .numeric(&[1, 2, 3, 4, 5, 6, 7, 8]);
    counts.rows = doc
        .groups
        .iter()
        .map(|g| {
            let mut r = vec![
                g.key.to_owned(),
                g.rollup.turns.to_string(),
                g.rollup.with_retrieval.to_string(),
            ];
            r.extend(Verdict::ALL.iter().map(|v| g.rollup.count(*v).to_string()));
            r.push(rate(g.rollup.grounded_rate()));
            r
        })
        .collect();
    section_table(s, &counts, MAX_ROWS);
    s.push_str("</details></section>");
}

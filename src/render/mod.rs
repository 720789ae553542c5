//! Renderers: one module per output format, over the same serialisable
//! rows and summaries. Only this stage knows about terminals, colour and
//! escaping; every renderer writes to a `&mut dyn Write`.

pub mod csv;
pub mod escape;
pub mod json;
pub mod markdown;
pub mod table;

use crate::accumulate::Rollup;
use crate::model::{Row, Verdict};
use crate::pipeline::InputStats;
use serde::Serialize;

/// One page (or all) of report rows with their summary.
#[derive(Debug, Serialize)]
pub struct ReportDoc<'a> {
    pub rows: &'a [Row<'static>],
    pub summary: &'a Rollup,
    pub next_cursor: Option<String>,
    pub input: &'a InputStats,
}

/// A rate with four decimals, or `n/a`.
pub fn rate(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |x| format!("{x:.4}"))
}

/// An optional number, or empty.
pub fn opt_num(x: Option<f64>) -> String {
    x.map_or_else(String::new, |x| {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            format!("{}", x as i64)
        } else {
            format!("{x}")
        }
    })
}

/// Indexes joined with `;` (CSV) or `,` (tables).
pub fn join(xs: &[u32], sep: &str) -> String {
    let mut s = String::new();
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        s.push_str(&x.to_string());
    }
    s
}

/// The verdict as shown in tables: `ok (partial)` when some markers were out of range.
pub fn verdict_label(r: &Row<'_>) -> String {
    if r.partial {
        format!("{} (partial)", r.verdict.as_str())
    } else {
        r.verdict.as_str().to_owned()
    }
}

/// The summary as human lines (table, markdown).
pub fn rollup_lines(r: &Rollup) -> Vec<String> {
    let mut verdicts = Vec::new();
    for v in Verdict::ALL {
        verdicts.push(format!("{} {}", v.as_str(), r.count(v)));
    }
    vec![
        format!(
            "turns {} · with retrieval {} · grounded {} · ungrounded {} · grounded rate {}",
            r.turns,
            r.with_retrieval,
            r.grounded(),
            r.ungrounded(),
            rate(r.grounded_rate())
        ),
        format!("verdicts: {}", verdicts.join(" · ")),
    ]
}

/// The input accounting as one human line.
pub fn input_line(s: &InputStats) -> String {
    format!(
        "input: {} file(s), {} line(s): {} turn(s), {} blank, {} skipped record(s), {} invalid, {} duplicate(s)",
        s.files, s.lines, s.turns, s.blank_lines, s.skipped_records, s.invalid_lines, s.duplicates
    )
}

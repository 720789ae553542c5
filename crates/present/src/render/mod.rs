//! Renderers: one module per output format, over the same serialisable
//! rows and summaries. Only this stage knows about terminals, colour and
//! escaping; every renderer writes to a `&mut dyn Write`.

pub mod check;
pub mod columns;
pub mod csv;
pub use crate::escape;
pub mod evidence;
pub mod explain;
pub mod github;
pub mod guard;
pub mod html;
pub mod inspect;
pub mod json;
pub mod judge;
pub mod junit;
pub mod markdown;
pub mod prometheus;
pub mod report;
pub use crate::shell;
pub mod summary;
pub mod table;
pub mod text;
pub mod writeback;

use crate::accumulate::Rollup;
use crate::model::Named;
use crate::model::{Row, Verdict};
use crate::partial::Kind;
use crate::pipeline::InputStats;
pub use crate::view::report::{Page, ReportDoc};

/// A command's output format: it registers its name and line of help
/// ([`Named`]), the command's default, and whether people read it. A human
/// format (table, text, Markdown, CSV) on standard output is guarded on
/// GitHub Actions against workflow commands hidden in log values
/// ([`guard`]); a format programs read is written as it is.
pub trait Output: Named {
    /// What the command writes without `--format`.
    const DEFAULT: Self;
    /// True when people read it, false when programs do.
    fn human(self) -> bool;
}

/// One format of a command whose partials `merge` renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed {
    pub name: &'static str,
    pub human: bool,
    pub default: bool,
}

/// The formats of a partial's command, in the order its help lists them:
/// `merge --format` takes their union, and the Actions guard asks them.
pub fn formats_of(kind: Kind) -> Vec<Listed> {
    match kind {
        Kind::Summary => listed::<summary::Format>(),
        Kind::Report => listed::<report::Format>(),
        Kind::Check => listed::<check::Format>(),
    }
}

/// Every format of one command, in the order its help lists them.
pub fn listed<F: Output + PartialEq>() -> Vec<Listed> {
    let row = |&f: &F| Listed {
        name: f.name(),
        human: f.human(),
        default: f == F::DEFAULT,
    };
    F::ALL.iter().map(row).collect()
}

/// What a report says about its rows: `page 1 · rows 1–50 of 566 matching · page-scoped rollup`.
pub fn page_line(page: Page, shown: usize, matching: u64) -> String {
    let shown = shown as u64;
    match page {
        Page::Numbered { number, .. } if shown == 0 => {
            format!("page {number} · no rows of {matching} matching")
        }
        Page::Numbered { number, first } => format!(
            "page {number} · rows {first}–{} of {matching} matching · page-scoped rollup",
            first + shown - 1
        ),
        Page::Conversation => {
            format!("rows 1–{shown} of {matching} matching, oldest first · rollup over these rows")
        }
        Page::All => format!("all {matching} matching rows · rollup over all of them"),
    }
}

pub use crate::filter::Clock;

/// A rate with four decimals, or `n/a`.
pub fn rate(x: Option<f64>) -> String {
    crate::stats::rate_text(x)
}

/// An optional number, or empty.
pub fn opt_num(x: Option<f64>) -> String {
    let mut s = String::new();
    if let Some(x) = x {
        push_num(&mut s, x);
    }
    s
}

/// Appends a number as [`opt_num`] writes it: a whole number without a
/// point, anything else as Rust's shortest round-trip `{}`. Scores, costs
/// and latencies are mostly short decimals (`0.769`), which are written
/// here without the general float formatter (see [`push_milli`]).
pub fn push_num(out: &mut String, x: f64) {
    use std::fmt::Write as _;
    // `x as i64` truncates in one instruction where `fract` calls libm.
    if x.abs() < 1e15 && (x as i64) as f64 == x {
        out.push_str(itoa::Buffer::new().format(x as i64));
    } else if !push_milli(out, x) {
        let _ = write!(out, "{x}");
    }
}

/// Writes `x` when it is the double nearest to a decimal with at most three
/// fractional digits and below 10^9 in magnitude (`k / 1000.0 == x`, the
/// division rounding correctly). That decimal is then exactly what `{}`
/// prints: it round-trips to `x`, and no other decimal with as few
/// significant digits does (they lie at least 0.001 apart, far beyond half
/// an ulp of `x` at this magnitude), so it is the unique shortest one.
/// False (nothing written) for any other number.
fn push_milli(out: &mut String, x: f64) -> bool {
    if x.is_nan() || x.abs() >= 1e9 {
        return false;
    }
    // The product is within an ulp of the decimal's digits: one of three
    // neighbouring integers, if any (truncation, not libm's `round`).
    let t = (x * 1000.0) as i64;
    let Some(k) = [t, t - 1, t + 1]
        .into_iter()
        .find(|&k| k as f64 / 1000.0 == x)
    else {
        return false;
    };
    if k < 0 {
        out.push('-');
    }
    let k = k.unsigned_abs();
    out.push_str(itoa::Buffer::new().format(k / 1000));
    out.push('.');
    let frac = k % 1000;
    let digits = [frac / 100, frac / 10 % 10, frac % 10];
    // `x` has a fraction, so `frac` is not zero: trailing zeros go.
    let len = if frac % 100 == 0 {
        1
    } else if frac % 10 == 0 {
        2
    } else {
        3
    };
    for d in &digits[..len] {
        out.push(char::from(b'0' + *d as u8));
    }
    true
}

pub use crate::model::join;

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
    let invented = match r.cited_without_retrieval() {
        0 => String::new(),
        n => format!(" · cited with nothing retrieved {n} (orphan_marker, outside the rate)"),
    };
    let mut lines = vec![
        format!(
            "turns {} · with retrieval {} · grounded {} · ungrounded {} · grounded rate {}{invented}",
            r.turns,
            r.with_retrieval,
            r.grounded(),
            r.ungrounded(),
            rate(r.grounded_rate())
        ),
        format!("verdicts: {}", verdicts.join(" · ")),
    ];
    if let Some(line) = support_line(r) {
        lines.push(line);
    }
    lines
}

/// The classes of the absent quotes, ` (1 fabricated, 2 misattributed)`;
/// empty when there is none.
pub fn quote_classes(s: &crate::accumulate::SupportTotals) -> String {
    let parts: Vec<String> = [
        (s.quotes_fabricated, "fabricated"),
        (s.quotes_misattributed, "misattributed"),
        (s.quotes_stitched, "stitched"),
    ]
    .into_iter()
    .filter(|&(n, _)| n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    match parts.is_empty() {
        true => String::new(),
        false => format!(" ({})", parts.join(", ")),
    }
}

/// Citation coverage, absent quotes and hinted turns as one human line;
/// none when no answer text was there to measure.
pub fn support_line(r: &Rollup) -> Option<String> {
    let s = &r.support;
    s.coverage().map(|c| {
        let mut line = format!(
            "citation coverage {} ({} of {} sentences cite a chunk that resolves) · absent quotes {}{} · turns with hints {}",
            rate(Some(c)),
            s.cited_sentences,
            s.sentences,
            s.quotes_absent,
            quote_classes(s),
            s.hinted
        );
        if s.unchecked > 0 {
            line.push_str(&format!(
                " · unchecked citations {} (past a turn's check budget)",
                s.unchecked
            ));
        }
        line
    })
}

/// A gate's message with the turns it names (`… — turns: t-3 t-9`), for
/// the formats that show one line per gate.
pub fn gate_detail(g: &crate::gate::GateResult) -> String {
    if g.turns.is_empty() {
        g.message.clone()
    } else {
        format!("{} — turns: {}", g.message, g.turns.join(" "))
    }
}

/// The input accounting as one human line.
pub fn input_line(s: &InputStats) -> String {
    format!(
        "input: {} file(s), {} line(s): {} turn(s), {} blank, {} skipped record(s), {} invalid, {} duplicate(s)",
        s.files, s.lines, s.turns, s.blank_lines, s.skipped_records, s.invalid_lines, s.duplicates
    )
}

/// The marker grammars the counted turns were graded with, with their
/// turns: `numeric (8 turns)`, `kb (14 turns), numeric (8 turns)`, or
/// `none (no turn counted)`.
pub fn grammar_text(s: &InputStats) -> String {
    if s.graded_with.is_empty() {
        return "none (no turn counted)".to_owned();
    }
    let parts: Vec<String> = s
        .graded_with
        .iter()
        .map(|(g, n)| format!("{g} ({n} turn{})", if *n == 1 { "" } else { "s" }))
        .collect();
    parts.join(", ")
}

/// A titled table of text cells: the one shape that `table`, `markdown` and
/// `csv` renderers all know how to draw, so a command describes its tables once.
#[derive(Debug, Clone)]
pub struct Section {
    pub title: String,
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Columns to right-align in terminal tables (numbers).
    pub numeric: Vec<usize>,
    /// Lines printed under the table.
    pub notes: Vec<String>,
}

impl Section {
    /// A section with a title and header; add rows and notes after.
    pub fn new(title: impl Into<String>, header: &[&'static str]) -> Section {
        Section {
            title: title.into(),
            header: header.to_vec(),
            rows: Vec::new(),
            numeric: Vec::new(),
            notes: Vec::new(),
        }
    }
    /// Marks columns as numeric.
    pub fn numeric(mut self, cols: &[usize]) -> Section {
        self.numeric = cols.to_vec();
        self
    }
}

/// A bar of `width` cells for a value in 0..1 (for trends at a glance).
pub fn bar(x: Option<f64>, width: usize) -> String {
    match x {
        None => "·".repeat(width),
        Some(x) => {
            let eighths = (x.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
            let mut s = "█".repeat(eighths / 8);
            const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
            s.push_str(PARTS[eighths % 8]);
            let used = eighths / 8 + usize::from(!eighths.is_multiple_of(8));
            s.push_str(&" ".repeat(width.saturating_sub(used)));
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: what `opt_num` wrote before it had a fast path.
    fn reference(x: f64) -> String {
        if x.fract() == 0.0 && x.abs() < 1e15 {
            format!("{}", x as i64)
        } else {
            format!("{x}")
        }
    }

    fn check(x: f64) {
        let mut s = String::new();
        push_num(&mut s, x);
        assert_eq!(s, reference(x), "{x:e} ({:#x})", x.to_bits());
    }

    #[test]
    fn numbers_print_as_the_general_formatter_does() {
        for x in [
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.001,
            -0.001,
            0.0005,
            0.1 + 0.2,
            1e-7,
            123.456,
            999_999_999.999,
            1e9 + 0.5,
            1e12,
            1e15,
            1e16 + 2.0,
            4503599627370497.5,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            f64::MAX,
            5e-324,
        ] {
            check(x);
        }
        for i in 0..300_000u64 {
            let h = xxhash_rust::xxh3::xxh3_64(&i.to_le_bytes());
            let k = (h >> 20) as i64 - (1 << 43);
            // Short decimals at every scale around the fast path's, and
            // arbitrary bit patterns.
            check(k as f64 / 1000.0);
            check((k % 2_000_000) as f64 / 1000.0);
            check(k as f64 / 10f64.powi((h % 9) as i32));
            check(f64::from_bits(h));
        }
    }

    /// People read tables, text, Markdown and CSV (a spreadsheet); programs
    /// read the rest. Each command has one default, and it is for people.
    #[test]
    fn every_format_registers_who_reads_it() {
        let mut commands: Vec<(&str, Vec<Listed>)> =
            Kind::ALL.map(|k| (k.as_str(), formats_of(k))).into();
        commands.push(("explain", listed::<explain::Format>()));
        commands.push(("inspect", listed::<inspect::Format>()));
        for (command, formats) in commands {
            for f in &formats {
                let people = matches!(f.name, "table" | "text" | "markdown" | "csv");
                assert_eq!(f.human, people, "{command} --format {}", f.name);
            }
            let defaults: Vec<_> = formats.iter().filter(|f| f.default).collect();
            assert!(
                defaults.len() == 1 && defaults[0].human,
                "{command}: {defaults:?}"
            );
        }
    }
}

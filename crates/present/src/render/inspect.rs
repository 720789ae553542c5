//! `inspect` as text: per file its format, the coverage of each field, the
//! map tried (a line to paste, then each field with the records holding
//! it), what each marker preset finds, the grammar with its reason, and the
//! command line that grades it. Every value from the file is escaped.

use super::escape::terminal;
use super::shell;
use crate::pipeline::survey::{MapField, Origin};
use crate::view::inspect::FileReport;
use anyhow::Result;
use std::io::Write;

/// `inspect` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A readable report per file.
    Text,
    /// One JSON array with a document per file.
    Json,
}

impl super::Output for Format {
    const DEFAULT: Format = Format::Text;
    fn human(self) -> bool {
        self == Format::Text
    }
}

impl crate::model::Named for Format {
    const ALL: &'static [Format] = &[Format::Text, Format::Json];
    fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
        }
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Format::Text => "A readable report per file",
            Format::Json => "One JSON array with a document per file",
        })
    }
}

impl Format {
    /// Every file's report in this format: the registry of `inspect`'s formats.
    pub fn draw(self, out: &mut dyn Write, reports: &[FileReport]) -> Result<()> {
        match self {
            Format::Json => super::json::document(out, &reports),
            Format::Text => text(reports, out),
        }
    }
}

/// Every file's report, one after another.
pub fn text(reports: &[FileReport], out: &mut dyn Write) -> Result<()> {
    for r in reports {
        file(r, out)?;
    }
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn file(r: &FileReport, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{}", terminal(&r.file))?;
    let reads = r
        .reads_as
        .as_deref()
        .map_or(String::from("not read"), |d| format!("read as {d}"));
    writeln!(out, "  format: {} ({reads})", r.format)?;
    let sample = if r.complete {
        "every record"
    } else {
        "a sample"
    };
    writeln!(
        out,
        "  records: {} ({sample}); turns: {}; invalid: {}",
        r.records, r.turns, r.invalid
    )?;
    fields(r, out)?;
    map(r, out)?;
    if let Some(e) = &r.evidence {
        evidence(e, out)?;
    }
    markers(r, out)?;
    for w in &r.warnings {
        writeln!(out, "  {}", terminal(&w.line()))?;
    }
    if let Some(n) = &r.note {
        writeln!(out, "  note: {}", terminal(n))?;
    }
    if let Some(c) = &r.command {
        writeln!(out, "  grade it with:\n    {}", terminal(c))?;
    }
    Ok(())
}

/// How many sampled turns have their retrieved documents in the file, and
/// the causes for the rest, most turns first.
fn evidence(e: &crate::accumulate::EvidenceCounts, out: &mut dyn Write) -> Result<()> {
    use crate::model::Evidence;
    let (n, docs) = (e.turns(), e.count(Evidence::Documents));
    let share = e
        .auditable_share()
        .map_or_else(String::new, |x| format!(" ({})", pct(x)));
    writeln!(
        out,
        "  evidence: {docs} of {n} turns with their retrieved documents{share}"
    )?;
    for (g, k) in e.gaps() {
        writeln!(out, "    {k:>5} {}: {}", g.as_str(), g.describe())?;
    }
    Ok(())
}

/// The coverage of each field where the native log has it.
fn fields(r: &FileReport, out: &mut dyn Write) -> Result<()> {
    if r.fields.is_empty() {
        return Ok(());
    }
    writeln!(out, "  fields (share of records):")?;
    for f in &r.fields {
        let near = if f.nearest.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = f
                .nearest
                .iter()
                .take(4)
                .map(|x| format!("{} {}", x.pointer, pct(x.share)))
                .collect();
            format!("  nearest: {}", list.join(", "))
        };
        writeln!(
            out,
            "    {:<18} {:>5}  at {}{}",
            f.field,
            pct(f.share),
            terminal(&f.pointer),
            terminal(&near)
        )?;
    }
    Ok(())
}

/// The map tried: its arguments on one line to paste, then each field
/// with the records that hold it, and the turns read.
fn map(r: &FileReport, out: &mut dyn Write) -> Result<()> {
    if let Some(n) = &r.map_note {
        writeln!(out, "  map: {}", terminal(n))?;
    }
    if r.map_fields.is_empty() {
        return Ok(());
    }
    let given = r.map_fields.iter().any(|f| f.origin == Origin::Given);
    let proposed = r.map_fields.iter().any(|f| f.origin == Origin::Proposed);
    let whose = match (given, proposed) {
        (true, true) => "given, with proposals",
        (true, false) => "given",
        _ => "proposed",
    };
    let mut args = Vec::new();
    for (flag, list) in [("--map", &r.map), ("--set", &r.set)] {
        for a in list {
            args.push(format!("{flag} {}", shell::word(a)));
        }
    }
    writeln!(out, "  map ({whose}):\n    {}", terminal(&args.join(" ")))?;
    writeln!(out, "  under this map:")?;
    for f in &r.map_fields {
        map_field(f, out)?;
    }
    writeln!(
        out,
        "    {} of {} records read as a turn ({} invalid, {} repeating a turn id)",
        r.turns, r.records, r.invalid, r.duplicates
    )?;
    Ok(())
}

fn map_field(f: &MapField, out: &mut dyn Write) -> Result<()> {
    let at = match f.flag {
        Some("--set") => format!("= {}", f.value),
        _ => f.value.clone(),
    };
    let origin = match f.origin {
        Origin::Given => "given".to_owned(),
        Origin::Proposed => match &f.why {
            Some(why) => format!("proposed: {why}"),
            None => "proposed".to_owned(),
        },
        Origin::Native => match &f.why {
            Some(why) => format!("native place; {why}"),
            None => "native place".to_owned(),
        },
    };
    let held = format!("{} of {} {}", f.have, f.of, f.unit);
    writeln!(
        out,
        "    {:<18} {:<24} {:<18}  {}",
        f.field,
        terminal(&at),
        held,
        terminal(&origin)
    )?;
    Ok(())
}

/// What each preset finds, and the grammar chosen with its reason.
fn markers(r: &FileReport, out: &mut dyn Write) -> Result<()> {
    if !r.markers.is_empty() {
        writeln!(out, "  markers ({} replies):", r.replies)?;
        for m in &r.markers {
            let ex = m
                .example
                .as_deref()
                .map_or(String::new(), |e| format!("  e.g. {}", terminal(e)));
            writeln!(
                out,
                "    {:<9} {:>6} with markers, {:>6} citing a chunk{ex}",
                m.preset, m.replies_with_markers, m.replies_citing
            )?;
        }
    }
    if let (Some(g), Some(why)) = (r.grammar, &r.grammar_reason) {
        writeln!(out, "  grammar: {g} — {}", terminal(why))?;
    }
    Ok(())
}

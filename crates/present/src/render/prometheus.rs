//! `summary --format prometheus` (and `merge` of summary partials): the
//! summary's counts in the Prometheus text exposition format (version
//! 0.0.4), the format node_exporter's textfile collector and the Pushgateway
//! read. Every family has `# HELP` and `# TYPE`; counts are counters named
//! `_total` (gauges without the suffix over a window with a start, whose
//! counts fall as turns leave it), the grounded rate is a gauge named
//! `_ratio` (a ratio, the base unit); no sample carries a timestamp (the
//! textfile collector refuses them).
//!
//! Each family has one sample for all turns (no group label) and one per
//! group, labelled with the grouping's name (`agent`, `channel` or `model`,
//! as `--by` says). A group label's value is the group key made
//! terminal-safe ([`escape::terminal`]: controls, invisible and bidi
//! characters become visible `\u{..}` escapes) and then escaped as the
//! format asks (`\\`, `\"`); a value that would repeat an earlier one, or be
//! empty (Prometheus reads an empty label as no label, the overall sample),
//! gets `#2`, `#3`, … appended, so that no two samples of a family share
//! their labels.

use super::escape;
use crate::accumulate::Rollup;
use crate::model::{Evidence, Verdict};
use crate::view::summary::SummaryDoc;
use anyhow::Result;
use std::collections::BTreeSet;
use std::io::Write;

/// Every metric's name starts with this.
pub const PREFIX: &str = "grounding_audit_";

/// A label value as the text format writes it between its quotes.
fn label_value(s: &str) -> String {
    let safe = escape::terminal(s);
    let mut out = String::with_capacity(safe.len());
    for c in safe.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// The label values of the groups, in the view's order: escaped, unique,
/// none empty.
fn group_labels(keys: &[&str]) -> Vec<String> {
    let mut taken: BTreeSet<String> = BTreeSet::from([String::new()]);
    keys.iter()
        .map(|k| {
            let base = label_value(k);
            let mut value = base.clone();
            let mut n = 2u64;
            while taken.contains(&value) {
                value = format!("{base}#{n}");
                n += 1;
            }
            taken.insert(value.clone());
            value
        })
        .collect()
}

/// One metric family: its name (without the prefix), type and help.
struct Family {
    name: &'static str,
    kind: &'static str,
    help: &'static str,
}

const TURNS: Family = Family {
    name: "turns_total",
    kind: "counter",
    help: "Turns graded, every verdict.",
};
const RETRIEVAL: Family = Family {
    name: "retrieval_turns_total",
    kind: "counter",
    help: "Turns with retrieval and an observed answer: the grounded rate's denominator.",
};
const GROUNDED: Family = Family {
    name: "grounded_turns_total",
    kind: "counter",
    help: "Turns graded ok: a marker in range of the chunks retrieval returned.",
};
const VERDICTS: Family = Family {
    name: "verdicts_total",
    kind: "counter",
    help: "Turns by verdict (ok, no_marker, orphan_marker, empty_retrieval, unobserved).",
};
const EVIDENCE: Family = Family {
    name: "evidence_turns_total",
    kind: "counter",
    help: "Turns by what the export holds of their retrieval (documents, no_retrieval, documents_not_recorded, content_not_recorded, partial_trace).",
};
const AUDITABLE: Family = Family {
    name: "auditable_ratio",
    kind: "gauge",
    help: "Evidence completeness: turns whose retrieved documents are in the export over all turns (absent with no turn).",
};
const RATE: Family = Family {
    name: "grounded_ratio",
    kind: "gauge",
    help: "Grounded rate: grounded turns over turns with retrieval (absent when no turn had retrieval).",
};
const INVENTED: Family = Family {
    name: "invented_citations_total",
    kind: "counter",
    help: "Turns whose reply cites a chunk retrieval never returned (verdict orphan_marker), with or without retrieval.",
};
const SENTENCES: Family = Family {
    name: "sentences_total",
    kind: "counter",
    help: "Sentences of the answers that citation coverage counts.",
};
const CITED_SENTENCES: Family = Family {
    name: "cited_sentences_total",
    kind: "counter",
    help: "Sentences of the answers that carry a citation that resolves.",
};
const COVERAGE: Family = Family {
    name: "citation_coverage_ratio",
    kind: "gauge",
    help: "Citation coverage: cited sentences over sentences (absent when no answer text was logged).",
};
const ABSENT_QUOTES: Family = Family {
    name: "absent_quotes_total",
    kind: "counter",
    help: "Citations whose quoted text the cited chunk does not hold.",
};
const FABRICATED_QUOTES: Family = Family {
    name: "fabricated_quotes_total",
    kind: "counter",
    help: "Quotes that no retrieved chunk holds, even in pieces.",
};
const MISATTRIBUTED_QUOTES: Family = Family {
    name: "misattributed_quotes_total",
    kind: "counter",
    help: "Quotes their cited chunk does not hold and another retrieved chunk does.",
};
const STITCHED_QUOTES: Family = Family {
    name: "stitched_quotes_total",
    kind: "counter",
    help: "Quotes put together from pieces of the retrieved chunks.",
};
const HINTED: Family = Family {
    name: "hinted_turns_total",
    kind: "counter",
    help: "Turns with a support hint: a value of a cited sentence that none of its cited chunks holds.",
};
const INVALID: Family = Family {
    name: "invalid_lines_total",
    kind: "counter",
    help: "Input lines that could not be read as a record, over all input.",
};

/// Writes one family: its header, then one sample per (labels, value).
/// Over a window with a start (`--since`, `--from`), a count falls when old
/// turns leave the window, which Prometheus would read as a counter's
/// reset: each counter is then a gauge, without `_total`.
fn family(
    out: &mut dyn Write,
    f: &Family,
    windowed: bool,
    samples: &[(String, String)],
) -> Result<()> {
    let (name, kind) = match f.name.strip_suffix("_total") {
        Some(base) if windowed => (format!("{PREFIX}{base}"), "gauge"),
        _ => (format!("{PREFIX}{}", f.name), f.kind),
    };
    let window = if windowed && kind != f.kind {
        " Over the window asked for: a gauge, since it falls as turns leave the window."
    } else {
        ""
    };
    writeln!(out, "# HELP {name} {}{window}", f.help)?;
    writeln!(out, "# TYPE {name} {kind}")?;
    for (labels, value) in samples {
        if labels.is_empty() {
            writeln!(out, "{name} {value}")?;
        } else {
            writeln!(out, "{name}{{{labels}}} {value}")?;
        }
    }
    Ok(())
}

/// One sample per scope and value: the scope's labels with `key` naming
/// the value, and its count.
fn by_label<T: Copy>(
    scopes: &[(&str, &Rollup)],
    key: &str,
    values: &[T],
    name: fn(T) -> &'static str,
    count: fn(&Rollup, T) -> u64,
) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(scopes.len() * values.len());
    for (l, r) in scopes {
        for &v in values {
            let this = format!("{key}=\"{}\"", name(v));
            let labels = if l.is_empty() {
                this
            } else {
                format!("{l},{this}")
            };
            out.push((labels, count(r, v).to_string()));
        }
    }
    out
}

/// The summary's metrics in the Prometheus text format.
pub fn summary(out: &mut dyn Write, doc: &SummaryDoc<'_>) -> Result<()> {
    let windowed = doc.window.from.is_some();
    let keys: Vec<&str> = doc.groups.iter().map(|g| g.key).collect();
    let labels: Vec<String> = group_labels(&keys)
        .into_iter()
        .map(|v| format!("{}=\"{v}\"", doc.group_by))
        .collect();
    let scopes: Vec<(&str, &Rollup)> = std::iter::once(("", &doc.totals))
        .chain(
            labels
                .iter()
                .map(String::as_str)
                .zip(doc.groups.iter().map(|g| g.rollup)),
        )
        .collect();
    let each = |value: &dyn Fn(&Rollup) -> Option<String>| -> Vec<(String, String)> {
        scopes
            .iter()
            .filter_map(|(l, r)| value(r).map(|v| ((*l).to_owned(), v)))
            .collect()
    };
    family(out, &TURNS, windowed, &each(&|r| Some(r.turns.to_string())))?;
    family(
        out,
        &RETRIEVAL,
        windowed,
        &each(&|r| Some(r.with_retrieval.to_string())),
    )?;
    family(
        out,
        &GROUNDED,
        windowed,
        &each(&|r| Some(r.grounded().to_string())),
    )?;
    let verdicts = by_label(
        &scopes,
        "verdict",
        &Verdict::ALL,
        Verdict::as_str,
        |r, v| r.count(v),
    );
    family(out, &VERDICTS, windowed, &verdicts)?;
    let evidence = by_label(
        &scopes,
        "evidence",
        &Evidence::ALL,
        Evidence::as_str,
        |r, e| r.evidence.count(e),
    );
    family(out, &EVIDENCE, windowed, &evidence)?;
    family(
        out,
        &AUDITABLE,
        windowed,
        &each(&|r| r.evidence.auditable_share().map(|x| x.to_string())),
    )?;
    family(
        out,
        &RATE,
        windowed,
        &each(&|r| r.grounded_rate().map(|x| x.to_string())),
    )?;
    family(
        out,
        &INVENTED,
        windowed,
        &each(&|r| Some(r.count(Verdict::OrphanMarker).to_string())),
    )?;
    family(
        out,
        &SENTENCES,
        windowed,
        &each(&|r| Some(r.support.sentences.to_string())),
    )?;
    family(
        out,
        &CITED_SENTENCES,
        windowed,
        &each(&|r| Some(r.support.cited_sentences.to_string())),
    )?;
    family(
        out,
        &COVERAGE,
        windowed,
        &each(&|r| r.support.coverage().map(|x| x.to_string())),
    )?;
    family(
        out,
        &ABSENT_QUOTES,
        windowed,
        &each(&|r| Some(r.support.quotes_absent.to_string())),
    )?;
    for (f, pick) in [
        (
            &FABRICATED_QUOTES,
            (|s| s.quotes_fabricated) as fn(&crate::accumulate::SupportTotals) -> u64,
        ),
        (&MISATTRIBUTED_QUOTES, |s| s.quotes_misattributed),
        (&STITCHED_QUOTES, |s| s.quotes_stitched),
    ] {
        family(
            out,
            f,
            windowed,
            &each(&|r| Some(pick(&r.support).to_string())),
        )?;
    }
    family(
        out,
        &HINTED,
        windowed,
        &each(&|r| Some(r.support.hinted.to_string())),
    )?;
    family(
        out,
        &INVALID,
        windowed,
        &[(String::new(), doc.input.invalid_lines.to_string())],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values_escape_quotes_backslashes_and_controls() {
        assert_eq!(label_value(r#"a"b\c"#), r#"a\"b\\c"#);
        assert_eq!(label_value("a\nb"), r"a\\u{a}b");
        assert_eq!(label_value("\u{1b}[31m"), r"\\u{1b}[31m");
        assert_eq!(label_value("café ☕"), "café ☕");
    }

    #[test]
    fn group_labels_are_unique_and_never_empty() {
        let labels = group_labels(&["", "a\nb", r"a\u{a}b", "x", "x#2"]);
        assert_eq!(labels, ["#2", r"a\\u{a}b", r"a\\u{a}b#2", "x", "x#2"]);
        let set: BTreeSet<&String> = labels.iter().collect();
        assert_eq!(set.len(), labels.len());
    }
}

//! Evidence completeness as the summary's tables draw it (table, Markdown,
//! CSV, the HTML report): per group and overall, and per group and bucket.
//! The counts are [`EvidenceCounts`]; the causes and their order are
//! [`Evidence`]'s.

use super::{Section, rate};
use crate::accumulate::EvidenceCounts;
use crate::model::Evidence;
use crate::view::summary::SummaryDoc;

/// The columns after the key(s): turns, then the auditable share, then one
/// per [`Evidence`] value in its order.
pub const COUNT_HEADER: [&str; 7] = [
    "turns",
    "auditable_share",
    "documents",
    "no_retrieval",
    "documents_not_recorded",
    "content_not_recorded",
    "partial_trace",
];

/// The cells of [`COUNT_HEADER`] for one set of counts.
pub fn cells(e: &EvidenceCounts) -> Vec<String> {
    let mut row = vec![e.turns().to_string(), rate(e.auditable_share())];
    row.extend(Evidence::ALL.iter().map(|&v| e.count(v).to_string()));
    row
}

/// The section `table`, `markdown` and `html` show: all turns, then each group.
pub fn section(doc: &SummaryDoc<'_>) -> Section {
    let mut header = vec!["group"];
    header.extend(COUNT_HEADER);
    let mut sec = Section::new(
        "Evidence completeness (auditable: the retrieved documents are in the export)",
        &header,
    )
    .numeric(&[1, 2, 3, 4, 5, 6, 7]);
    let row = |key: &str, e: &EvidenceCounts| {
        let mut r = vec![key.to_owned()];
        r.extend(cells(e));
        r
    };
    sec.rows.push(row("(all)", &doc.totals.evidence));
    sec.rows
        .extend(doc.groups.iter().map(|g| row(g.key, &g.rollup.evidence)));
    sec.notes = notes(&doc.totals.evidence);
    sec
}

/// The CSV section `evidence`: one row per group and bucket.
pub fn group_day_rows(doc: &SummaryDoc<'_>) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let mut header = vec!["group", "day"];
    header.extend(COUNT_HEADER);
    let rows = doc
        .group_days
        .iter()
        .map(|g| {
            let mut r = vec![g.key.to_owned(), g.day.day.clone()];
            r.extend(cells(&g.day.evidence));
            r
        })
        .collect();
    (header, rows)
}

/// The causes of the turns without recorded documents, in words, most
/// turns first: `5 of 8 turns without recorded documents: no retrieval
/// step is recorded … (4); …`. None when every turn has them.
pub fn notes(e: &EvidenceCounts) -> Vec<String> {
    let gaps = e.gaps();
    if gaps.is_empty() {
        return Vec::new();
    }
    let without: u64 = gaps.iter().map(|(_, n)| n).sum();
    let causes: Vec<String> = gaps
        .iter()
        .map(|(g, n)| format!("{} ({n})", g.describe()))
        .collect();
    vec![format!(
        "{without} of {} turns without recorded documents: {}",
        e.turns(),
        causes.join("; ")
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_a_share_and_causes_most_turns_first() {
        let mut e = EvidenceCounts::default();
        for v in [
            Evidence::Documents,
            Evidence::NoRetrieval,
            Evidence::DocumentsNotRecorded,
            Evidence::DocumentsNotRecorded,
        ] {
            e.add(v);
        }
        assert_eq!(cells(&e), ["4", "0.2500", "1", "1", "2", "0", "0"]);
        let n = notes(&e);
        assert_eq!(n.len(), 1);
        assert!(
            n[0].starts_with("3 of 4 turns without recorded documents: a retrieval step ran"),
            "{n:?}"
        );
        assert!(n[0].ends_with("returned nothing (1)"), "{n:?}");
        assert!(notes(&EvidenceCounts::default()).is_empty());
    }
}

//! The view of `explain`: one turn's audit as every format draws it (the
//! verdict with its reason, chunks, markers and what each resolved to, tool
//! calls, telemetry), built from the graded turn. No I/O.

use crate::grade::grade;
use crate::markers::{Grammar, MarkerKind, resolve_citation};
use crate::model::{Answer, Extras, Row, Turn};
use serde::Serialize;

/// One marker as `explain` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct MarkerView {
    /// The marker as written (`[KB-2]`), or `citations[i]` for citation lists.
    pub text: String,
    /// Character offset in the reply (None for citation lists).
    pub offset: Option<usize>,
    /// `cited`, `out_of_range` or `malformed`.
    pub resolves: &'static str,
    /// The chunk it points at, when cited.
    pub chunk: Option<u32>,
    /// A structured citation's span in the answer: characters, end exclusive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<[usize; 2]>,
    /// The quote check of its quoted text: `exact`, `normalised`,
    /// `misattributed`, `stitched` or `fabricated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<&'static str>,
    /// The retrieved chunk that holds a misattributed quote.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote_found_in: Option<u32>,
    /// Whether its offsets point where its texts say: `match` or `mismatch`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offsets: Option<&'static str>,
}

/// One quotation of a marker answer as `explain` and `evidence` show it.
#[derive(Debug, Clone, Serialize)]
pub struct QuoteView {
    /// The quoted text: characters of the answer, end exclusive.
    pub start: usize,
    pub end: usize,
    /// The chunks its markers cite.
    pub cites: Vec<u32>,
    /// Its class ([`crate::support::quote`]); `unchecked` past the turn's
    /// check budget.
    pub quote: &'static str,
    /// The retrieved chunk that holds a misattributed quote.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_in: Option<u32>,
    /// The quoted words: reply text, only with `--show-text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl QuoteView {
    /// The quotations of an analysis, their words only when `text` asks.
    pub fn all(a: &crate::support::Analysis, text: bool) -> Vec<QuoteView> {
        a.quotes
            .iter()
            .map(|q| QuoteView {
                start: q.span.0,
                end: q.span.1,
                cites: q.chunks.clone(),
                quote: q.check.map_or("unchecked", |c| c.as_str()),
                found_in: q.check.and_then(|c| c.found_in()),
                text: text.then(|| q.text.clone()),
            })
            .collect()
    }
}

/// One support hint as `explain` and `evidence` show it.
#[derive(Debug, Clone, Serialize)]
pub struct HintView {
    pub kind: &'static str,
    /// The flagged sentence: characters of the answer, end exclusive.
    pub start: usize,
    pub end: usize,
    /// The flagged words: reply text, only with `--show-text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl HintView {
    /// The hints of an analysis, their words only when `text` asks.
    pub fn all(a: &crate::support::Analysis, text: bool) -> Vec<HintView> {
        a.hints
            .iter()
            .map(|h| HintView {
                kind: h.kind.as_str(),
                start: h.sentence.0,
                end: h.sentence.1,
                value: text.then(|| h.value.clone()),
            })
            .collect()
    }
}

/// A chunk with whether the reply cited it.
#[derive(Debug, Clone, Serialize)]
pub struct ChunkView {
    #[serde(flatten)]
    pub chunk: crate::model::Chunk<'static>,
    pub cited: bool,
    /// Cited, with a score under `--low-score`.
    pub low_confidence: bool,
    /// The chunk's text, with `--show-text` when the log carries it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// The explain document.
#[derive(Debug, Serialize)]
pub struct Explained {
    pub source: String,
    pub line: u64,
    pub row: Row<'static>,
    /// `row.created_at` in the local zone, when times are shown local.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at_local: Option<String>,
    pub reason: String,
    pub chunks: Vec<ChunkView>,
    pub markers: Vec<MarkerView>,
    /// Numbers of cited sentences none of their cited chunks holds.
    pub hints: Vec<HintView>,
    /// Quotations of a marker answer, checked against their chunks.
    pub quotes: Vec<QuoteView>,
    /// What an `ok` verdict does and does not establish.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
    /// `--low-score`: cited chunks scoring under it are low-confidence citations.
    pub low_score: f64,
    pub tools: Vec<crate::model::ToolCall>,
    pub notes: Vec<String>,
    /// Free text from the log; each only with `--show-text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub text_notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// Chunk text exists in the log (so `--show-text` would show it).
    #[serde(skip)]
    pub has_chunk_text: bool,
}

/// What an `ok` verdict establishes, and what it leaves to the reader.
pub const OK_CAVEAT: &str = "ok means each cited marker resolves to a chunk retrieval returned; it does not check that the chunk supports the claim: read the cited chunk's text (--show-text) to judge that";

fn list(markers: &[MarkerView], want: &'static str) -> String {
    let picked: Vec<&str> = markers
        .iter()
        .filter(|m| m.resolves == want)
        .map(|m| m.text.as_str())
        .take(3)
        .collect();
    let more = markers
        .iter()
        .filter(|m| m.resolves == want)
        .count()
        .saturating_sub(3);
    let mut s = picked.join(", ");
    if more > 0 {
        s.push_str(&format!(" and {more} more"));
    }
    s
}

/// The one-sentence reason for a verdict.
pub fn reason(row: &Row<'_>, markers: &[MarkerView]) -> String {
    use crate::model::Evidence;
    use crate::model::Verdict::*;
    let n = row.chunk_count;
    let chunks = if n == 1 {
        "1 chunk".to_owned()
    } else {
        format!("{n} chunks")
    };
    match row.verdict {
        Unobserved => format!("no answer was observed: {}", row.unobserved_reason.map_or("unknown", |r| r.describe())),
        OrphanMarker if n == 0 => format!("{}, yet the reply cites {}", nothing_retrieved(row), list(markers, "out_of_range")),
        OrphanMarker => format!("retrieval returned {chunks}; the reply cites {}, past the end of the list", list(markers, "out_of_range")),
        Ok => {
            let which = if row.cited_chunks.len() == 1 { "chunk" } else { "chunks" };
            let mut s = format!("retrieval returned {chunks}; the reply cites {which} {}", crate::model::join(&row.cited_chunks, ", "));
            if row.partial {
                s.push_str(&format!("; {} past the end of the list as well (partial)", list(markers, "out_of_range")));
            }
            s
        }
        NoMarker if row.malformed_markers > 0 => {
            format!("retrieval returned {chunks}, but the reply has no well-formed marker (malformed: {})", list(markers, "malformed"))
        }
        NoMarker => format!("retrieval returned {chunks}, but the reply cites none of them"),
        EmptyRetrieval if row.evidence == Evidence::NoRetrieval => "no retrieval ran and the reply carries no marker (small talk, or an answer from memory)".to_owned(),
        EmptyRetrieval => format!("{} and the reply carries no marker", nothing_retrieved(row)),
    }
}

/// Why a turn has no chunk, as its evidence says: no retrieval, or one
/// whose documents the export does not hold.
fn nothing_retrieved(row: &Row<'_>) -> String {
    use crate::model::Evidence;
    match row.evidence {
        Evidence::NoRetrieval | Evidence::Documents => "retrieval returned no chunks".to_owned(),
        e => format!("the export holds no retrieved document: {}", e.describe()),
    }
}

/// What `explain` shows and how (resolved from the flags).
#[derive(Debug, Clone, Copy)]
pub struct Show {
    /// `--show-text`: question, reply, chunk text, notes quoting the log.
    pub text: bool,
    pub low_score: f64,
}

/// Builds the explanation of one turn. Free text from the log enters the
/// document only when `show.text` asks for it: the output layer never sees
/// what it must not print.
pub fn explain(
    turn: Turn<'_>,
    extras: Extras,
    support: &crate::support::Analysis,
    grammar: &Grammar,
    source: String,
    line: u64,
    show: Show,
) -> Explained {
    let text = match &turn.answer {
        Answer::Reply(r) => Some(r.decoded().into_owned()),
        _ => None,
    };
    let mut markers = Vec::new();
    match (&turn.answer, &text) {
        (Answer::Reply(_), Some(t)) => {
            grammar.scan(t, &turn.chunks, &mut |m| {
                markers.push(MarkerView {
                    text: t[m.start..m.end].to_owned(),
                    offset: Some(t[..m.start].chars().count()),
                    resolves: match m.kind {
                        MarkerKind::Cited(_) => "cited",
                        MarkerKind::OutOfRange => "out_of_range",
                        MarkerKind::Malformed => "malformed",
                    },
                    chunk: match m.kind {
                        MarkerKind::Cited(i) => Some(i),
                        _ => None,
                    },
                    span: None,
                    quote: None,
                    quote_found_in: None,
                    offsets: None,
                });
            });
        }
        (Answer::Citations(list, from), _) => {
            for (i, &idx) in list.iter().enumerate() {
                let kind = resolve_citation(idx, turn.chunks.len() as u64);
                let (resolves, chunk) = match kind {
                    MarkerKind::Cited(c) => ("cited", Some(c)),
                    MarkerKind::OutOfRange => ("out_of_range", None),
                    MarkerKind::Malformed => ("malformed", None),
                };
                let check = support.cites.get(i);
                let span = check.and_then(|c| c.span);
                markers.push(MarkerView {
                    text: crate::grade::citation_label(i, idx, *from),
                    offset: span.map(|s| s.0),
                    resolves,
                    chunk,
                    span: span.map(|(s, e)| [s, e]),
                    quote: check.and_then(|c| c.quote).map(|q| q.as_str()),
                    quote_found_in: check.and_then(|c| c.quote).and_then(|q| q.found_in()),
                    offsets: check
                        .and_then(|c| c.offsets_match)
                        .map(|m| if m { "match" } else { "mismatch" }),
                });
            }
        }
        _ => {}
    }
    let row = grade(turn, grammar).into_owned();
    let has_chunk_text = extras.chunk_texts.iter().any(Option::is_some);
    let chunks = row
        .chunks
        .iter()
        .map(|c| {
            let cited = row.cited_chunks.contains(&c.index);
            ChunkView {
                chunk: c.clone(),
                cited,
                low_confidence: cited && c.score.is_some_and(|s| s < show.low_score),
                text: show
                    .text
                    .then(|| {
                        extras
                            .chunk_texts
                            .get(c.index as usize - 1)
                            .cloned()
                            .flatten()
                    })
                    .flatten(),
            }
        })
        .collect();
    Explained {
        reason: reason(&row, &markers),
        caveat: (row.verdict == crate::model::Verdict::Ok).then(|| OK_CAVEAT.to_owned()),
        low_score: show.low_score,
        source,
        line,
        chunks,
        markers,
        hints: HintView::all(support, show.text),
        quotes: QuoteView::all(support, show.text),
        question: extras.question.filter(|_| show.text),
        text_notes: if show.text {
            extras.text_notes
        } else {
            Vec::new()
        },
        tools: extras.tools,
        notes: extras.notes,
        reply: if show.text { text } else { None },
        has_chunk_text,
        created_at_local: None,
        row,
    }
}

//! The verdict rules: the only place they live.
//!
//! [`grade`] is a pure function of a turn and a marker grammar. It scans the
//! answer for markers, resolves them against the chunk list and applies the
//! five rules in order; it never reads or writes anything.

use crate::markers::{Grammar, MarkerKind, resolve_citation};
use crate::model::{
    Answer, Chunk, CitationIndex, Evidence, MarkersFrom, Row, Turn, Unobserved, Verdict,
    marker_label, unsigned_zero,
};
use std::borrow::Cow;

/// Counts of the markers of one answer.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Well-formed markers, repeats and out-of-range ones included.
    pub marker_count: u32,
    pub out_of_range: u32,
    pub malformed: u32,
    /// Distinct in-range chunk indexes, in order of first appearance.
    pub cited: Vec<u32>,
    /// The first out-of-range marker as written ([`crate::model::marker_label`]),
    /// kept when no marker cited a chunk (what an `orphan_marker` turn invented).
    pub first_out_of_range: Option<Box<str>>,
    /// Bitset over chunk indexes, used only for long chunk lists.
    seen: Vec<u64>,
}

impl Tally {
    /// Adds one marker.
    pub fn add(&mut self, kind: MarkerKind, chunk_count: usize) {
        match kind {
            MarkerKind::Cited(i) => {
                self.marker_count += 1;
                // Chunk lists are short and a linear check is fastest; long
                // ones get a bitset so hostile input cannot go quadratic.
                let fresh = if chunk_count <= 64 {
                    !self.cited.contains(&i)
                } else {
                    if self.seen.is_empty() {
                        self.seen = vec![0u64; chunk_count / 64 + 1];
                    }
                    let (w, b) = (i as usize / 64, 1u64 << (i % 64));
                    let fresh = self.seen[w] & b == 0;
                    self.seen[w] |= b;
                    fresh
                };
                if fresh {
                    self.cited.push(i);
                }
            }
            MarkerKind::OutOfRange => {
                self.marker_count += 1;
                self.out_of_range += 1;
            }
            MarkerKind::Malformed => self.malformed += 1,
        }
    }

    /// Names the first out-of-range marker (`text`) when no marker cited a
    /// chunk: a partial `ok` turn allocates nothing.
    fn label_orphan(&mut self, text: Option<&str>) {
        if self.cited.is_empty() {
            self.first_out_of_range = text.map(marker_label);
        }
    }

    /// Adds one marker found in a text, noting where the first out-of-range one is.
    fn note(&mut self, m: crate::markers::Marker, first: &mut Option<(usize, usize)>, n: usize) {
        if m.kind == MarkerKind::OutOfRange && first.is_none() {
            *first = Some((m.start, m.end));
        }
        self.add(m.kind, n);
    }
}

/// Scans an answer into a tally. Returns `None` when no answer was observed.
///
/// A reply still in JSON form is scanned as it stands when no escape in it
/// can change a marker ([`Grammar::scan_raw`]), else decoded first.
pub fn tally(
    answer: &Answer<'_>,
    chunks: &[Chunk<'_>],
    grammar: &Grammar,
) -> Option<(Tally, MarkersFrom)> {
    let n = chunks.len();
    match answer {
        Answer::Unobserved(_) => None,
        Answer::Reply(reply) => {
            let mut t = Tally::default();
            // Where the first out-of-range marker is in the text scanned.
            let mut first: Option<(usize, usize)> = None;
            let raw = match reply {
                crate::model::Reply::Json {
                    raw,
                    unicode_escape,
                } => {
                    let inner = &raw[1..raw.len() - 1];
                    let whole = grammar.scan_raw(inner, *unicode_escape, chunks, &mut |m| {
                        t.note(m, &mut first, n)
                    });
                    if whole {
                        t.label_orphan(first.map(|(s, e)| &inner[s..e]));
                    }
                    whole
                }
                crate::model::Reply::Text(_) => false,
            };
            if !raw {
                t = Tally::default();
                first = None;
                let text = reply.decoded();
                grammar.scan(&text, chunks, &mut |m| t.note(m, &mut first, n));
                t.label_orphan(first.map(|(s, e)| &text[s..e]));
            }
            Some((t, MarkersFrom::Reply))
        }
        Answer::Citations(list, from) => {
            let mut t = Tally::default();
            for (i, &index) in list.iter().enumerate() {
                let kind = resolve_citation(index, n as u64);
                if kind == MarkerKind::OutOfRange && t.first_out_of_range.is_none() {
                    // Named when nothing else is cited (an orphan) only.
                    t.first_out_of_range = Some(citation_label(i, index, *from).into());
                }
                t.add(kind, n);
            }
            if !t.cited.is_empty() {
                t.first_out_of_range = None;
            }
            Some((t, *from))
        }
    }
}

/// How a citation-list entry is named (as `explain` names it):
/// `citations[2].index=9`, or for a provider's structured citations
/// `anthropic citation 3` (it resolves to a chunk, or to nothing the
/// request gave or the response returned).
pub fn citation_label(i: usize, index: CitationIndex, from: MarkersFrom) -> String {
    if !matches!(from, MarkersFrom::Citations | MarkersFrom::Reply) {
        return format!("{} citation {}", from.as_str(), i + 1);
    }
    let shown = match index {
        CitationIndex::Index(x) => x.to_string(),
        CitationIndex::OutOfRange => "(negative or too large)".to_owned(),
        CitationIndex::Malformed => "?".to_owned(),
    };
    format!("citations[{i}].index={shown}")
}

/// The verdict rules, first match wins.
pub fn verdict(observed: bool, chunk_count: usize, t: &Tally) -> Verdict {
    if !observed {
        Verdict::Unobserved
    } else if t.marker_count > 0 && (chunk_count == 0 || t.cited.is_empty()) {
        Verdict::OrphanMarker
    } else if chunk_count > 0 && !t.cited.is_empty() {
        Verdict::Ok
    } else if chunk_count > 0 {
        Verdict::NoMarker
    } else {
        Verdict::EmptyRetrieval
    }
}

/// What Orbit's `safetyConfig.require_citation` would do with a turn: it
/// refuses an answer given with retrieval that carries no well-formed marker
/// of the grammar. A turn without retrieval passes, and so does one whose
/// well-formed markers all point past the retrieval window: a hallucinated
/// citation is well-formed. Unobserved turns gave no answer to refuse.
///
/// By the verdict rules above, "refused" is exactly `no_marker`, and every
/// `orphan_marker` turn passes (the unit tests check both over every case).
pub fn require_citation_refuses(observed: bool, chunk_count: usize, t: &Tally) -> bool {
    observed && chunk_count > 0 && t.marker_count == 0
}

/// [`require_citation_refuses`] for a graded row.
pub fn row_refused(r: &Row<'_>) -> bool {
    let t = Tally {
        marker_count: r.marker_count,
        ..Tally::default()
    };
    require_citation_refuses(r.verdict != Verdict::Unobserved, r.chunk_count as usize, &t)
}

/// Retrieval confidence: the highest non-null score clamped to 0..1, or
/// `None` when there are no chunks or no scores (never 0 for "no retrieval").
pub fn confidence(chunks: &[Chunk<'_>]) -> Option<f64> {
    chunks
        .iter()
        .filter_map(|c| c.score)
        .filter(|s| !s.is_nan())
        .fold(None, |m: Option<f64>, s| Some(m.map_or(s, |m| m.max(s))))
        .map(|s| s.clamp(0.0, 1.0))
}

/// The grammar `turn` is graded with: `source` (the command line's, else
/// the dialect's) unless no grammar was `chosen` on the command line and
/// the record names its own (a native line's `markers`).
pub fn grammar_of<'g>(turn: &Turn<'_>, chosen: bool, source: &'g Grammar) -> Cow<'g, Grammar> {
    match turn.markers {
        Some(p) if !chosen => Cow::Owned(Grammar::Preset(p)),
        _ => Cow::Borrowed(source),
    }
}

/// Whether the turn's export holds the retrieval an audit reads, and if
/// not, why, in this order: a chunk that names its document or chunk, or
/// carries its text, is recorded retrieval whatever else is missing; then
/// an answer whose content was not recorded, or a trace without its root,
/// says why the rest is missing; then what the reader stated (a retrieval
/// step without its documents); chunks that name nothing (a count, or
/// results a provider did not return) are documents not recorded; the
/// rest recorded no retrieval.
pub fn evidence(turn: &Turn<'_>, unobserved: Option<Unobserved>) -> Evidence {
    let named = |(i, c): (usize, &Chunk<'_>)| {
        c.document_id.is_some()
            || c.chunk_id.is_some()
            || turn.texts.chunks.get(i).is_some_and(Option::is_some)
    };
    if turn.chunks.iter().enumerate().any(named) {
        return Evidence::Documents;
    }
    match (unobserved, turn.evidence) {
        (Some(Unobserved::ContentNotRecorded), _) => Evidence::ContentNotRecorded,
        (Some(Unobserved::NoRoot), _) => Evidence::PartialTrace,
        (_, Some(stated)) if stated != Evidence::Documents => stated,
        _ if !turn.chunks.is_empty() => Evidence::DocumentsNotRecorded,
        _ => Evidence::NoRetrieval,
    }
}

/// Grades one turn into its row.
pub fn grade<'a>(mut turn: Turn<'a>, grammar: &Grammar) -> Row<'a> {
    // Every output is made from the row, so this is the one place a score of
    // -0.0 becomes 0 (and so does the confidence taken from it).
    for c in &mut turn.chunks {
        c.score = c.score.map(unsigned_zero);
    }
    let support = crate::support::analyse(&turn, grammar).counts;
    let found = tally(&turn.answer, &turn.chunks, grammar);
    let observed = found.is_some();
    let (t, from) = match found {
        Some((t, from)) => (t, Some(from)),
        None => (Tally::default(), None),
    };
    let verdict = verdict(observed, turn.chunks.len(), &t);
    let unobserved_reason = match turn.answer {
        Answer::Unobserved(r) => Some(r),
        _ => None,
    };
    let evidence = evidence(&turn, unobserved_reason);
    Row {
        confidence: confidence(&turn.chunks),
        turn_id: turn.turn_id,
        agent_id: turn.agent_id,
        conversation_id: turn.conversation_id,
        channel: turn.channel,
        created_at: turn.created_at,
        verdict,
        partial: verdict == Verdict::Ok && t.out_of_range > 0,
        cited_chunks: t.cited,
        marker_count: t.marker_count,
        out_of_range_markers: t.out_of_range,
        malformed_markers: t.malformed,
        markers_from: from,
        chunk_count: turn.chunks.len() as u32,
        chunks: turn.chunks,
        tool_calls: turn.tool_calls,
        tool_errors: turn.tool_errors,
        model: turn.model,
        tokens_used: turn.tokens_used,
        cost_cents: turn.cost_cents,
        latency_ms: turn.latency_ms,
        unobserved_reason,
        evidence,
        support,
        invented_marker: if verdict == Verdict::OrphanMarker {
            t.first_out_of_range
        } else {
            None
        },
    }
}

#[cfg(test)]
mod tests;

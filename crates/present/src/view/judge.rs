//! The judge's budget: which units of an answer (its counted sentences)
//! only a reader or an LLM judge can decide, and which the log decides
//! already. A team that runs a judge on every sentence pays for both;
//! `evidence --for` hands it only the first.
//!
//! A unit is left out, decided, when its turn's verdict decides it
//! (`orphan_marker`: an invented citation; `no_marker`: nothing cited;
//! `empty_retrieval`: nothing retrieved), when the sentence cites nothing
//! (no source to judge it against), or when it holds a quote no chunk it
//! cites holds and another retrieved chunk does, or no chunk does
//! (`misattributed`, `fabricated`). It is left out, not judgeable, when a
//! chunk it cites has no text in the log. The rest are written: cited
//! sentences with the text of every chunk they cite, hinted ones first.

use crate::markers::Grammar;
use crate::model::{Turn, Verdict};
use crate::support::quote::QuoteClass;
use crate::support::{Analysis, units};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One unit handed to a judge.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JudgeUnit {
    pub turn_id: String,
    /// The user's question, when the log holds it.
    pub question: Option<String>,
    pub sentence: String,
    /// The sentence's place in the answer: characters, end exclusive.
    pub span: (usize, usize),
    /// The text of each chunk it cites, in citation order.
    pub contexts: Vec<String>,
    /// Those chunks' ids (chunk id, else document id, else `#N`).
    pub context_ids: Vec<String>,
    /// A hint flagged it: a reader should see it first.
    pub hinted: bool,
}

/// Why units were left out, and how many were written.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tally {
    /// Counted sentences of every observed answer.
    pub units: u64,
    pub written: u64,
    pub hinted: u64,
    /// Units left out, by reason (`invented_citation`, `no_marker`,
    /// `empty_retrieval`, `uncited`, `fabricated_quote`,
    /// `misattributed_quote`, `no_chunk_text`).
    pub left_out: BTreeMap<&'static str, u64>,
    /// Observed answers whose citations name too many (sentence, chunk)
    /// pairs to list: left to a reader whole.
    pub turns_too_many_citations: u64,
}

impl Tally {
    /// Units decided by the log, not by a judge.
    pub fn decided(&self) -> u64 {
        self.left_out
            .iter()
            .filter(|(k, _)| **k != "no_chunk_text")
            .map(|(_, v)| v)
            .sum()
    }

    /// The line `evidence --for` prints on standard error.
    pub fn line(&self, tool: &str) -> String {
        let parts: Vec<String> = self
            .left_out
            .iter()
            .map(|(k, v)| format!("{v} {}", k.replace('_', " ")))
            .collect();
        let mut s = format!(
            "evidence --for {tool}: wrote {} of {} units ({} hinted, first); left out {}: {}",
            self.written,
            self.units,
            self.hinted,
            self.units - self.written,
            if parts.is_empty() {
                "none".to_owned()
            } else {
                parts.join(", ")
            }
        );
        if self.turns_too_many_citations > 0 {
            s.push_str(&format!(
                "; {} answer(s) cite too widely to list by sentence",
                self.turns_too_many_citations
            ));
        }
        s
    }
}

/// The units of one graded turn a judge is to decide, counting the rest
/// into `tally`.
pub fn units_of(
    turn: &Turn<'_>,
    verdict: Verdict,
    support: &Analysis,
    question: Option<&str>,
    grammar: &Grammar,
    tally: &mut Tally,
) -> Vec<JudgeUnit> {
    let Some(all) = units::units(turn, grammar) else {
        tally.turns_too_many_citations +=
            u64::from(!matches!(turn.answer, crate::model::Answer::Unobserved(_)));
        return Vec::new();
    };
    tally.units += all.len() as u64;
    let by_verdict = match verdict {
        Verdict::OrphanMarker => Some("invented_citation"),
        Verdict::NoMarker => Some("no_marker"),
        Verdict::EmptyRetrieval => Some("empty_retrieval"),
        _ => None,
    };
    let mut out = Vec::new();
    for u in all {
        let reason = by_verdict
            .or_else(|| u.chunks.is_empty().then_some("uncited"))
            .or_else(|| quote_in(support, u.span))
            .or_else(|| (!u.chunks.iter().all(|&i| has_text(turn, i))).then_some("no_chunk_text"));
        if let Some(r) = reason {
            *tally.left_out.entry(r).or_default() += 1;
            continue;
        }
        let hinted = support.hints.iter().any(|h| h.sentence == u.span);
        tally.written += 1;
        tally.hinted += u64::from(hinted);
        out.push(JudgeUnit {
            turn_id: turn.turn_id.as_str().to_owned(),
            question: question.map(str::to_owned),
            sentence: u.text,
            span: u.span,
            contexts: u.chunks.iter().map(|&i| text_of(turn, i)).collect(),
            context_ids: u.chunks.iter().map(|&i| id_of(turn, i)).collect(),
            hinted,
        });
    }
    out
}

/// A decided quote the sentence at `span` holds, by its class.
fn quote_in(a: &Analysis, span: (usize, usize)) -> Option<&'static str> {
    let inside = |at: Option<usize>| at.is_some_and(|s| span.0 <= s && s < span.1);
    let classes = a
        .quotes
        .iter()
        .filter(|q| inside(Some(q.span.0)))
        .filter_map(|q| q.check)
        .chain(
            a.cites
                .iter()
                .filter(|c| inside(c.span.map(|s| s.0)))
                .filter_map(|c| c.quote),
        );
    let mut worst = None;
    for c in classes {
        match c.class() {
            QuoteClass::Fabricated => return Some("fabricated_quote"),
            QuoteClass::Misattributed => worst = Some("misattributed_quote"),
            _ => {}
        }
    }
    worst
}

fn has_text(turn: &Turn<'_>, i: u32) -> bool {
    (i as usize)
        .checked_sub(1)
        .and_then(|k| turn.texts.chunks.get(k))
        .is_some_and(Option::is_some)
}

fn text_of(turn: &Turn<'_>, i: u32) -> String {
    (i as usize)
        .checked_sub(1)
        .and_then(|k| turn.texts.chunks.get(k))
        .and_then(Option::as_ref)
        .map(|r| r.decoded().into_owned())
        .unwrap_or_default()
}

fn id_of(turn: &Turn<'_>, i: u32) -> String {
    let c = (i as usize).checked_sub(1).and_then(|k| turn.chunks.get(k));
    c.and_then(|c| c.chunk_id.as_ref().or(c.document_id.as_ref()))
        .map_or_else(|| format!("#{i}"), |id| id.as_str().to_owned())
}

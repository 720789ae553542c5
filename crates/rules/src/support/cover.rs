//! Coverage and hints: which sentences of an answer carry a resolving
//! citation, and which of those hold a value of the hint kinds none of
//! their cited chunks holds.
//!
//! Linear in the answer and its citations: the sentences a citation
//! carries to are a run of consecutive sentences found by binary search,
//! runs are added up in one difference array, and the (sentence, chunk)
//! pairs hints need are listed only while they stay within a bound
//! proportional to the sentences and citations (past it the turn raises no
//! hint; a citation that spans a whole answer of many sentences would
//! otherwise make sentences × citations pairs).

use super::chars::CharMap;
use super::hints::{self, HintKind};
use super::sentences::{self, Sentence};
use super::work::ChunkTexts;
use super::{Analysis, HintAt};

/// Pairs hints may list per sentence and citation (see the module
/// documentation).
pub(super) const PAIRS_PER_ITEM: usize = 8;

/// Counts coverage and raises hints of `kinds` into `a`; `placed` holds
/// each resolving citation's byte range in `text` and its chunk.
pub(super) fn cover(
    a: &mut Analysis,
    text: &str,
    placed: &[((usize, usize), u32)],
    chunks: &mut ChunkTexts<'_>,
    kinds: &[HintKind],
) {
    let sentences = sentences::sentences(text);
    let runs: Vec<(usize, usize, u32)> = {
        let counted = Counted::of(&sentences);
        placed
            .iter()
            .map(|&((s, e), chunk)| {
                let (lo, hi) = counted.holding(&sentences, s, e);
                (lo, hi, chunk)
            })
            .collect()
    };
    // How many runs cover each sentence: +1 where one starts, -1 past it.
    let mut edges = vec![0i64; sentences.len() + 1];
    for &(lo, hi, _) in &runs {
        edges[lo] += 1;
        edges[hi] -= 1;
    }
    let mut depth = 0;
    for (s, d) in sentences.iter().zip(&edges) {
        depth += d;
        if s.counted {
            a.counts.sentences += 1;
            a.counts.cited_sentences += u32::from(depth > 0);
        }
    }
    let pairs: usize = runs.iter().map(|&(lo, hi, _)| hi - lo).sum();
    let bound = PAIRS_PER_ITEM * (sentences.len() + runs.len());
    if !kinds.is_empty() && chunks.any_text() && pairs <= bound {
        raise_hints(a, text, &sentences, &runs, chunks, kinds);
    }
}

/// Where the counted sentences are.
pub(super) struct Counted {
    /// Counted sentences before each index (one more entry than sentences).
    before: Vec<u32>,
}

impl Counted {
    pub(super) fn of(sentences: &[Sentence]) -> Counted {
        let mut before = Vec::with_capacity(sentences.len() + 1);
        let mut n = 0;
        before.push(0);
        for s in sentences {
            n += u32::from(s.counted);
            before.push(n);
        }
        Counted { before }
    }

    /// The run of sentences `lo..hi` a citation at bytes `s..e` carries
    /// to: those it overlaps (a point: the one it falls in or ends), when
    /// one of them is counted; otherwise (it sits in an uncounted stretch,
    /// such as a line of markers) the counted sentence before; an empty run
    /// when there is none.
    pub(super) fn holding(&self, sentences: &[Sentence], s: usize, e: usize) -> (usize, usize) {
        let lo = if s == e {
            sentences.partition_point(|x| x.end < s)
        } else {
            sentences.partition_point(|x| x.end <= s)
        };
        let hi = if s == e {
            sentences.partition_point(|x| x.start <= s)
        } else {
            sentences.partition_point(|x| x.start < e)
        };
        let hi = hi.max(lo);
        if self.before[hi] > self.before[lo] {
            return (lo, hi);
        }
        // The last counted sentence before the first it overlaps, or
        // before the first that ends at or after it.
        let base = match hi > lo {
            true => lo,
            false => sentences.partition_point(|x| x.end < s),
        };
        let want = self.before[base];
        if want == 0 {
            return (0, 0);
        }
        let k = self.before.partition_point(|&n| n < want) - 1;
        (k, k + 1)
    }
}

/// Hints for every cited sentence whose cited chunks all have text.
fn raise_hints(
    a: &mut Analysis,
    text: &str,
    sentences: &[Sentence],
    runs: &[(usize, usize, u32)],
    chunks: &mut ChunkTexts<'_>,
    kinds: &[HintKind],
) {
    let mut cited: Vec<(usize, u32)> = Vec::new();
    for &(lo, hi, chunk) in runs {
        cited.extend(
            (lo..hi)
                .filter(|&k| sentences[k].counted)
                .map(|k| (k, chunk)),
        );
    }
    cited.sort_unstable();
    cited.dedup();
    let map = CharMap::new(text);
    // Each cited chunk's facts, read once per turn when first needed.
    let mut facts: Vec<Option<hints::Facts>> = Vec::new();
    for group in cited.chunk_by(|x, y| x.0 == y.0) {
        let s = sentences[group[0].0];
        let sentence = &text[s.start..s.end];
        let values = hints::Values::of(sentence);
        if !values.wanted(kinds) || !group.iter().all(|&(_, i)| chunks.has_text(i)) {
            continue;
        }
        for &(_, i) in group {
            let k = i as usize - 1;
            if facts.len() <= k {
                facts.resize_with(k + 1, || None);
            }
            if facts[k].is_none() {
                let t = chunks.text(i).unwrap_or("");
                facts[k] = Some(hints::Facts::of(t, hints::needs_words(kinds)));
            }
        }
        let refs: Vec<&hints::Facts> = group
            .iter()
            .filter_map(|&(_, i)| facts[i as usize - 1].as_ref())
            .collect();
        for h in hints::select_of(sentence, &values, &refs, kinds) {
            a.counts.hints += 1;
            a.hints.push(HintAt {
                kind: h.kind,
                sentence: (map.char_at(text, s.start), map.char_at(text, s.end)),
                value: sentence[h.start..h.end].to_owned(),
            });
        }
    }
}

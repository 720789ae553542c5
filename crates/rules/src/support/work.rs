//! What one turn's support checks may spend, and the chunk texts they
//! share.
//!
//! A quote check looks for the quote in its chunk, so its cost is the
//! chunk's length: a turn of many citations into one long document costs
//! citations × document, which no provider bounds. Each turn's checks
//! therefore share a [`Budget`] proportional to the text the turn holds;
//! a citation whose checks would overdraw it is counted `unchecked`
//! (`Support::unchecked`) instead of run, so the work per turn stays
//! linear in its size whatever the input. Ordinary turns never come near
//! it: a check at the place a citation names costs the quote's length, not
//! the chunk's.

use super::chars::CharMap;
use super::quote;
use crate::model::{Reply, Turn};
use std::borrow::Cow;

/// Bytes a turn's checks may examine per byte of text the turn holds.
pub const PER_BYTE: u64 = 64;
/// And, on top, for every turn: enough for any ordinary turn.
pub const FLOOR: u64 = 4 << 20;

/// The text a turn's checks may still examine.
#[derive(Debug)]
pub struct Budget {
    left: u64,
    /// Whether a check did not fit.
    spent: bool,
}

impl Budget {
    /// The budget of `turn`: [`PER_BYTE`] per byte of its answer, chunk
    /// texts and citation texts (a text several citations share counted
    /// once), plus [`FLOOR`].
    pub fn for_turn(turn: &Turn<'_>) -> Budget {
        let t = &turn.texts;
        let mut bytes = t.answer.as_deref().map_or(0, str::len);
        bytes += t.chunks.iter().flatten().map(Reply::raw_len).sum::<usize>();
        let mut last: [Option<&crate::model::Shared>; 2] = [None, None];
        for c in &t.cites {
            for (slot, text) in last.iter_mut().zip([&c.quote, &c.span_text]) {
                if let Some(s) = text
                    && !slot.is_some_and(|l| std::sync::Arc::ptr_eq(l, s))
                {
                    bytes += s.len();
                    *slot = Some(s);
                }
            }
        }
        Budget {
            left: (bytes as u64)
                .saturating_mul(PER_BYTE)
                .saturating_add(FLOOR),
            spent: false,
        }
    }

    /// Takes `cost` bytes for a check: false, and nothing taken, when it
    /// does not fit (then no later check does either, so the checks a
    /// turn runs do not depend on their sizes' order).
    pub fn take(&mut self, cost: usize) -> bool {
        match self.left.checked_sub(cost as u64).filter(|_| !self.spent) {
            Some(left) => {
                self.left = left;
                true
            }
            None => {
                self.spent = true;
                false
            }
        }
    }
}

/// One chunk's text as the checks read it, each form made once per turn.
struct Slot<'t> {
    text: Cow<'t, str>,
    map: Option<CharMap>,
    normalised: Option<String>,
    words: Option<String>,
}

/// The chunk texts of one turn, decoded, mapped and normalised on first
/// use (chunks are numbered from 1, as citations name them).
pub struct ChunkTexts<'t> {
    texts: &'t [Option<Reply<'t>>],
    slots: Vec<Option<Slot<'t>>>,
    /// The pieces of every chunk with text, made on first use.
    pieces: Option<quote::Pieces>,
}

impl<'t> ChunkTexts<'t> {
    pub fn new(turn: &'t Turn<'t>) -> ChunkTexts<'t> {
        ChunkTexts {
            texts: &turn.texts.chunks,
            slots: Vec::new(),
            pieces: None,
        }
    }

    /// How many chunks the turn retrieved (with text or not).
    pub fn count(&self) -> u32 {
        self.texts.len() as u32
    }

    /// Whether the log holds any chunk's text.
    pub fn any_text(&self) -> bool {
        self.texts.iter().any(Option::is_some)
    }

    /// Whether the log holds chunk `i`'s text.
    pub fn has_text(&self, i: u32) -> bool {
        (i as usize)
            .checked_sub(1)
            .and_then(|k| self.texts.get(k))
            .is_some_and(Option::is_some)
    }

    fn slot(&mut self, i: u32) -> Option<&mut Slot<'t>> {
        let k = (i as usize).checked_sub(1)?;
        let reply = self.texts.get(k)?.as_ref()?;
        if self.slots.len() <= k {
            self.slots.resize_with(self.texts.len(), || None);
        }
        Some(self.slots[k].get_or_insert_with(|| Slot {
            text: reply.decoded(),
            map: None,
            normalised: None,
            words: None,
        }))
    }

    /// Chunk `i`'s decoded text.
    pub fn text(&mut self, i: u32) -> Option<&str> {
        self.slot(i).map(|s| &*s.text)
    }

    /// Chunk `i`'s length in bytes (0 without text).
    pub fn len(&mut self, i: u32) -> usize {
        self.text(i).map_or(0, str::len)
    }

    /// Characters `s..e` of chunk `i`.
    pub fn chars(&mut self, i: u32, s: usize, e: usize) -> Option<&str> {
        let slot = self.slot(i)?;
        let map = slot.map.get_or_insert_with(|| CharMap::new(&slot.text));
        map.chars(&slot.text, s, e)
    }

    /// Whether chunk `i` holds `q` as written.
    pub fn contains(&mut self, i: u32, q: &str) -> bool {
        self.text(i).is_some_and(|t| t.contains(q))
    }

    /// Whether chunk `i`'s normalised form is made already.
    pub fn is_normalised(&self, i: u32) -> bool {
        (i as usize)
            .checked_sub(1)
            .and_then(|k| self.slots.get(k))
            .is_some_and(|s| s.as_ref().is_some_and(|s| s.normalised.is_some()))
    }

    /// Chunk `i` in the form quotes are compared in ([`quote::normalise`]).
    pub fn normalised(&mut self, i: u32) -> &str {
        match self.slot(i) {
            Some(slot) => slot
                .normalised
                .get_or_insert_with(|| quote::normalise(&slot.text)),
            None => "",
        }
    }

    /// Whether chunk `i`'s [`quote::words`] form is made already.
    pub fn has_words(&self, i: u32) -> bool {
        (i as usize)
            .checked_sub(1)
            .and_then(|k| self.slots.get(k))
            .is_some_and(|s| s.as_ref().is_some_and(|s| s.words.is_some()))
    }

    /// Chunk `i` in the form pieces are compared in ([`quote::words`]),
    /// with a space at each end, so that a search matches whole words.
    pub fn words(&mut self, i: u32) -> &str {
        match self.slot(i) {
            Some(slot) => slot
                .words
                .get_or_insert_with(|| format!(" {} ", quote::words(&slot.text))),
            None => "",
        }
    }

    /// Whether the pieces of every chunk are made already.
    pub fn has_pieces(&self) -> bool {
        self.pieces.is_some()
    }

    /// The pieces of every chunk with text ([`quote::Pieces`]).
    pub fn pieces(&mut self) -> &quote::Pieces {
        if self.pieces.is_none() {
            for i in 1..=self.count() {
                self.words(i);
            }
            let made = quote::Pieces::of(
                self.slots
                    .iter()
                    .flatten()
                    .filter_map(|s| s.words.as_deref()),
            );
            self.pieces = Some(made);
        }
        self.pieces.get_or_insert_with(Default::default)
    }

    /// Every chunk's text length in bytes, summed (0 without text).
    pub fn total_len(&self) -> usize {
        self.texts.iter().flatten().map(Reply::raw_len).sum()
    }
}

//! Fuzz target: the marker scanner of every preset, `needs_decoding`, and
//! `scan_raw`, which answers both in one pass.
//!
//! The input is read as the inside of a JSON string literal. Every marker a
//! grammar reports must lie inside the text, on character boundaries, in
//! order. When the literal is valid JSON and `needs_decoding` says the raw
//! text may be scanned as it is, scanning raw and decoded text must find the
//! same markers (the same resolutions in the same order): that is the
//! promise the fast path in `grade::tally` relies on. `scan_raw` must say
//! "decode first" exactly when `needs_decoding` does (told whether the text
//! holds a `\u` escape, as the readers tell it), and otherwise report the
//! markers of scanning the raw text.

#![no_main]

use grounding_audit::markers::{Grammar, Marker, MarkerKind, Preset};
use grounding_audit::model::{Chunk, Id, has_unicode_escape};
use libfuzzer_sys::fuzz_target;

const PRESETS: [Preset; 5] = [
    Preset::Kb,
    Preset::Numeric,
    Preset::Doc,
    Preset::Footnote,
    Preset::Id,
];

fn scan(g: &Grammar, text: &str, chunks: &[Chunk<'_>]) -> Vec<Marker> {
    let mut out = Vec::new();
    g.scan(text, chunks, &mut |m| out.push(m));
    for w in out.windows(2) {
        assert!(w[0].start <= w[1].start, "markers out of order");
    }
    for m in &out {
        assert!(m.start < m.end && m.end <= text.len(), "span outside text");
        assert!(text.is_char_boundary(m.start) && text.is_char_boundary(m.end));
        if let MarkerKind::Cited(i) = m.kind {
            assert!(
                i >= 1 && i as usize <= chunks.len(),
                "cited {i} of {}",
                chunks.len()
            );
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks how many chunks the turn has (0..=7, sometimes many).
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let n = match head % 9 {
        8 => 100,
        k => k as usize,
    };
    let chunks: Vec<Chunk<'_>> = (0..n)
        .map(|i| Chunk {
            index: i as u32 + 1,
            document_id: Some(Id::string(format!("doc{}.md", i + 1))),
            chunk_id: (i % 2 == 0).then(|| Id::string(format!("c-{}", i + 1))),
            score: None,
        })
        .collect();
    let raw = format!("\"{text}\"");
    let decoded = serde_json::from_str::<String>(&raw).ok();
    for p in PRESETS {
        let g = Grammar::Preset(p);
        let on_raw = scan(&g, text, &chunks);
        let mut fused = Vec::new();
        let clean = g.scan_raw(text, has_unicode_escape(text), &chunks, &mut |m| fused.push(m));
        assert_eq!(clean, !g.needs_decoding(&raw), "{p:?}: scan_raw on {raw:?}");
        if clean {
            assert_eq!(fused, on_raw, "{p:?}: scan_raw markers on {raw:?}");
        }
        if let Some(decoded) = &decoded {
            let on_decoded = scan(&g, decoded, &chunks);
            if !g.needs_decoding(&raw) {
                let kinds = |v: &[Marker]| v.iter().map(|m| m.kind).collect::<Vec<_>>();
                assert_eq!(
                    kinds(&on_raw),
                    kinds(&on_decoded),
                    "{p:?}: raw and decoded scans differ for {raw:?}"
                );
            }
        }
    }
});

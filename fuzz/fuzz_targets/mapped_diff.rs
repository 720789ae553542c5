//! Fuzz target: the mapped dialect's cursor reader against serde_json's
//! visitors it stands in for. The first byte picks one of the field maps
//! of the differential tests (`diff_maps`: native places, renamed keys,
//! values of the wrong type, array indexes); the rest is the line. Both
//! must accept or reject it alike, with the same turn, the same reason and
//! the same warnings. The cursor hands any line it is
//! unsure of to the visitors, so a difference is a line it read wrongly.

#![no_main]

use grounding_audit::dialect::mapped::{Mapped, diff_maps};
use grounding_audit::messages::Warnings;
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static MAPPED: LazyLock<Vec<Mapped>> = LazyLock::new(diff_maps);

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(line) = std::str::from_utf8(rest) else {
        return;
    };
    let m = &MAPPED[usize::from(pick) % MAPPED.len()];
    let (mut wf, mut ws) = (Warnings::new(), Warnings::new());
    let fast = format!("{:?}", m.parse(line, &mut wf));
    let slow = format!("{:?}", m.parse_reference(line, &mut ws));
    assert_eq!(fast, slow, "the readers differ on {line:?}");
    assert_eq!(wf, ws, "the warnings differ on {line:?}");
});

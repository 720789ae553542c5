//! Fuzz target: the mapped dialect's cursor reader against serde_json's
//! visitors it stands in for. The first byte picks a field map (native
//! places, renamed keys, values of the wrong type, array indexes); the rest
//! is the line. Both must accept or reject it alike, with the same turn,
//! the same reason and the same warnings. The cursor hands any line it is
//! unsure of to the visitors, so a difference is a line it read wrongly.

#![no_main]

use grounding_audit::dialect::mapped::{FieldMap, Mapped};
use grounding_audit::messages::Warnings;
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

const MAPS: [&[&str]; 4] = [
    &[],
    &[
        "turn_id=/id",
        "agent_id=/agent",
        "created_at=/ts",
        "reply=/answer",
        "chunks=/retrieval/chunks",
        "tools=/retrieval/tools",
        "citations=/retrieval/citations",
    ],
    &[
        "reply=/grounding/citations/0",
        "citations=/c",
        "chunks=/grounding/tools",
        "tools=/grounding/chunks",
        "chunk.score=/status",
        "chunk.id=/score",
        "tool.status=/score",
    ],
    &[
        "turn_id=/grounding/citations/1",
        "citations=/y",
        "agent_id=/x/0/y",
        "chunks=/z/1",
        "chunk.id=/x/0",
        "tool.name=/0",
    ],
];

static MAPPED: LazyLock<Vec<Mapped>> = LazyLock::new(|| {
    MAPS.iter()
        .map(|args| {
            let mut m = FieldMap::default();
            for a in *args {
                m.set_arg(a).expect("a valid mapping");
            }
            Mapped::new(m).expect("a valid map")
        })
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(line) = std::str::from_utf8(rest) else {
        return;
    };
    let m = &MAPPED[usize::from(pick) % MAPS.len()];
    let (mut wf, mut ws) = (Warnings::new(), Warnings::new());
    let fast = format!("{:?}", m.parse(line, &mut wf));
    let slow = format!("{:?}", m.parse_reference(line, &mut ws));
    assert_eq!(fast, slow, "the readers differ on {line:?}");
    assert_eq!(wf, ws, "the warnings differ on {line:?}");
});

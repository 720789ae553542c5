//! Fuzz target: the agentfootprint one-pass event reader (its byte scanner
//! on the shared cursor, and its serde visitors) against the `Value` reader
//! it stands in for. For every input, read as an event line and as a record
//! of a document, each reader either gives exactly the reference's event
//! (kind, fields, meta, de-duplication key) or declines; it declines
//! whatever it is unsure of, so a difference here is an input it read
//! itself, wrongly.

#![no_main]

use grounding_audit::dialect::agentfootprint::one_pass_reader_agrees;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = one_pass_reader_agrees(line) {
        panic!("{e}");
    }
});

//! Fuzz target: the native dialect's specialised line reader against the
//! serde_json reader it stands in for. For every input both must accept or
//! reject the line alike, with the same turn (every field, `-0.0` apart
//! from `0.0`), the same invalid-line reason and the same dropped-field
//! warnings. The specialised reader hands any line it is unsure of to
//! serde_json, so a difference here is a line it read itself, wrongly.

#![no_main]

use grounding_audit::dialect::native::{parse_line_reporting, parse_line_reporting_serde};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let fast = format!("{:?}", parse_line_reporting(line));
    let slow = format!("{:?}", parse_line_reporting_serde(line));
    assert_eq!(fast, slow, "the readers differ on {line:?}");
});

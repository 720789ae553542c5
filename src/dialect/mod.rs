//! Dialects: how input lines become [`Turn`]s.
//!
//! Each dialect turns its own records into the same borrowed turn model, so
//! grading, rollups and renderers never know where a turn came from. The
//! native turn-log format is line-by-line and parsed in parallel; whole-stream
//! formats (agentfootprint) group several lines into one turn.

pub mod agentfootprint;
pub mod native;

use crate::model::Turn;

/// The result of reading one non-blank line. Not boxed: a turn is made for
/// nearly every line, and boxing would add an allocation per line.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Parsed<'a> {
    /// A turn record.
    Turn(Turn<'a>),
    /// A record that is not a turn (`type` other than `"turn"`).
    Skipped,
    /// Not a valid turn record; the reason names what is wrong.
    Invalid(String),
}

/// Which dialect a source is read with (`--input-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// Decide per file from its first bytes.
    Auto,
    /// The native turn log: one JSON turn per line.
    Turns,
    /// agentfootprint event streams, recordings and audit bundles.
    Agentfootprint,
}

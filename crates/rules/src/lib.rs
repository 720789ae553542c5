//! The rules of grounding-audit, the lowest floor: the leaves (bytes,
//! escapes, exit codes, key sets, statistics, messages), the turn and its
//! row ([`model`]), the marker grammars ([`markers`]), the support checks
//! ([`support`]), the verdict rules ([`grade`]) and the row filter
//! ([`filter`]). Nothing here reads a file, accumulates or draws: the
//! engine above re-exports these modules under their names, and the
//! compiler refuses an edge from here to it.

#![forbid(unsafe_code)]

pub mod bytes;
pub mod escape;
pub mod exit;
pub mod filter;
pub mod grade;
pub mod keyset;
pub mod markers;
pub mod messages;
pub mod model;
pub mod shell;
pub mod stats;
pub mod support;

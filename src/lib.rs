//! grounding-audit: audit what AI agents grounded their answers on.
//!
//! The library holds every stage; `main.rs` only parses the command line and
//! maps the result to an exit code. Data flows one way:
//! sources ([`input`]) → turns ([`dialect`]) → graded rows ([`grade`], with
//! [`markers`]) → accumulators ([`accumulate`], driven by [`pipeline`]) →
//! renderers ([`render`]). Subcommands live in [`cmd`]; warnings about the
//! input are counted in [`messages`].

// The fuzz targets' shared row checks name the crate; its unit tests read them too.
#[cfg(test)]
extern crate self as grounding_audit;

pub mod accumulate;
pub mod bytes;
pub mod cli;
pub mod cmd;
pub mod compare;
pub mod config;
pub mod dialect;
pub mod escape;
pub mod exit;
pub mod filter;
pub mod gate;
pub mod grade;
pub mod input;
pub mod keyset;
pub mod markers;
pub mod messages;
pub mod model;
pub mod partial;
pub mod pipeline;
pub mod policy;
pub mod render;
pub mod stats;

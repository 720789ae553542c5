//! The engine of grounding-audit: what a run keeps and what it shows.
//!
//! Data flows one way: sources ([`input`]) → turns ([`dialect`]) → graded
//! rows ([`grade`], with [`markers`] and [`support`]) → accumulators
//! ([`accumulate`], driven by [`pipeline`]) → decisions ([`compare`],
//! [`gate`], [`policy`]) → views ([`view`]) → renderers ([`render`]).
//! Reading and the rules are the crates below (`ga-read`, `ga-rules`),
//! re-exported here; this crate holds the accumulators and everything after
//! them. It does not depend on the argument parser: the command line, its
//! resolution and the subcommands live in the `grounding-audit` crate above
//! it.

#![forbid(unsafe_code)]

// The fuzz targets' shared row checks name the binary's crate, which
// re-exports these modules; the unit tests here read those checks too.
#[cfg(test)]
extern crate self as grounding_audit;

// Reading (layers 6 to 8) and the rules under it (0 to 5) live in the
// crates below, re-exported under their names so that `crate::model` and
// `crate::pipeline` read the same here.
pub use ga_read::{
    bytes, dialect, escape, exit, filter, grade, input, keyset, markers, messages, model, pipeline,
    shell, stats, support,
};

pub mod accumulate;
pub mod compare;
pub mod gate;
pub mod partial;
pub mod policy;
pub mod render;
pub mod view;

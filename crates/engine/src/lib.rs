//! The engine of grounding-audit: what a run keeps and what it decides.
//!
//! Data flows one way: sources ([`input`]) → turns ([`dialect`]) → graded
//! rows ([`grade`], with [`markers`] and [`support`]) → accumulators
//! ([`accumulate`], driven by [`pipeline`]) → decisions ([`compare`],
//! [`gate`], [`policy`]) → views and renderers (the `ga-present` crate
//! above). Reading and the rules are the crates below (`ga-read`,
//! `ga-rules`), re-exported here under their names. This crate draws
//! nothing and does not depend on the argument parser.

#![forbid(unsafe_code)]

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

//! grounding-audit: audit what AI agents grounded their answers on.
//!
//! This crate is the command line: [`cli`] (the arguments as plain data, the
//! only place that names the argument parser), [`config`] (resolved once)
//! and [`cmd`] (one module per subcommand, wiring the engine). Every stage
//! below it lives in the crates under `crates/` (the rules, reading, the
//! engine and presenting, each over the one before), which do not depend on
//! this one, so the compiler refuses an edge from any of them up to the
//! command line. Their modules are re-exported here under their own names.

#![forbid(unsafe_code)]

pub use ga_present::{
    accumulate, bytes, compare, dialect, escape, exit, filter, gate, grade, input, keyset, markers,
    messages, model, partial, pipeline, policy, render, shell, stats, support, view,
};

pub mod cli;
pub mod cmd;
pub mod config;
pub mod deliver;

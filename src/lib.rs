//! grounding-audit: audit what AI agents grounded their answers on.
//!
//! This crate is the command line: [`cli`] (the arguments as plain data, the
//! only place that names the argument parser), [`config`] (resolved once)
//! and [`cmd`] (one module per subcommand, wiring the engine). Every stage
//! below it lives in the `ga-engine` crate (`crates/engine`), which does not
//! depend on this one, so the compiler refuses an edge from the engine up to
//! the command line. Its modules are re-exported here under their own names.

#![forbid(unsafe_code)]

pub use ga_engine::{
    accumulate, bytes, compare, dialect, escape, exit, filter, gate, grade, input, keyset, markers,
    messages, model, partial, pipeline, policy, render, shell, stats, support, view,
};

pub mod cli;
pub mod cmd;
pub mod config;
pub mod deliver;

//! The engine of grounding-audit: every stage below the command line.
//!
//! Data flows one way: sources ([`input`]) → turns ([`dialect`]) → graded
//! rows ([`grade`], with [`markers`] and [`support`]) → accumulators
//! ([`accumulate`], driven by [`pipeline`]) → decisions ([`compare`],
//! [`gate`], [`policy`]) → views ([`view`]) → renderers ([`render`]).
//! Warnings about the input are counted in [`messages`]. This crate does not
//! depend on the argument parser: the command line, its resolution and the
//! subcommands live in the `grounding-audit` crate above it.

#![forbid(unsafe_code)]

// The fuzz targets' shared row checks name the binary's crate, which
// re-exports these modules; the unit tests here read those checks too.
#[cfg(test)]
extern crate self as grounding_audit;

// The rules (layers 0 to 5) live in the crate below, re-exported under
// their names so that `crate::model` reads the same here.
pub use ga_rules::{
    bytes, escape, exit, filter, grade, keyset, markers, messages, model, shell, stats, support,
};

pub mod accumulate;
pub mod compare;
pub mod dialect;
pub mod gate;
pub mod input;
pub mod partial;
pub mod pipeline;
pub mod policy;
pub mod render;
pub mod view;

/// What the unit tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use std::path::PathBuf;

    /// The repository's root, two levels above this crate's manifest.
    pub(crate) const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

    /// A path under `../shared/` (the captures and real data kept beside the
    /// repository), or `None` with a message naming it when it is absent, so
    /// the caller skips. With `GROUNDING_AUDIT_REQUIRE_SHARED=1` (as `.ci/run`
    /// sets) an absent path fails the test instead of skipping it.
    pub(crate) fn shared(rel: &str) -> Option<PathBuf> {
        let p = PathBuf::from(ROOT).join("../shared").join(rel);
        if p.exists() {
            return Some(p);
        }
        if std::env::var("GROUNDING_AUDIT_REQUIRE_SHARED").as_deref() == Ok("1") {
            panic!(
                "{} is absent, and GROUNDING_AUDIT_REQUIRE_SHARED=1 requires it",
                p.display()
            );
        }
        eprintln!("skipped: {} is absent", p.display());
        None
    }
}

//! grounding-audit: audit what AI agents grounded their answers on.
//!
//! The library holds every stage; `main.rs` only parses the command line and
//! maps the result to an exit code. Data flows one way:
//! sources ([`input`]) → turns ([`dialect`]) → graded rows ([`grade`], with
//! [`markers`]) → accumulators ([`accumulate`], driven by [`pipeline`]) →
//! renderers ([`render`]). Subcommands live in [`cmd`]; warnings about the
//! input are counted in [`messages`].

#![forbid(unsafe_code)]

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
pub mod shell;
pub mod stats;
pub mod support;
pub mod view;

/// What the unit tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use std::path::PathBuf;

    /// A path under `../shared/` (the captures and real data kept beside the
    /// repository), or `None` with a message naming it when it is absent, so
    /// the caller skips. With `GROUNDING_AUDIT_REQUIRE_SHARED=1` (as `.ci/run`
    /// sets) an absent path fails the test instead of skipping it.
    pub(crate) fn shared(rel: &str) -> Option<PathBuf> {
        let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared")).join(rel);
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

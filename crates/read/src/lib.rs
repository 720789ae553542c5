//! Reading for grounding-audit: sources into blocks of whole lines
//! ([`input`]), records into turns in every format read ([`dialect`]), and
//! the one pipeline that grades them and hands the rows to an accumulator
//! ([`pipeline`]), with what reading counts (`input::InputStats`). What an
//! accumulator keeps, what a run decides and how it is shown are the
//! engine's, above this crate; the rules under it (`ga-rules`) are
//! re-exported here under their names, so `crate::model` reads the same.

#![forbid(unsafe_code)]

// The fuzz targets' shared row checks name the binary's crate, which
// re-exports these modules; the unit tests here read those checks too.
#[cfg(test)]
extern crate self as grounding_audit;

pub use ga_rules::{
    bytes, escape, exit, filter, grade, keyset, markers, messages, model, shell, stats, support,
};

pub mod dialect;
pub mod input;
pub mod pipeline;

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

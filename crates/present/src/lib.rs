//! Presenting for grounding-audit: one view model per command ([`view`]),
//! built from accumulated state or a graded turn and belonging neither to
//! the command nor to a renderer, and the renderers that draw it, one
//! module per format ([`render`]): the only layer that knows about
//! terminals and colour. The crates below (the engine, reading, the rules)
//! are re-exported under their names, so `crate::model` reads the same.

#![forbid(unsafe_code)]

// The fuzz targets' shared row checks name the binary's crate, which
// re-exports these modules; the unit tests here read those checks too.
#[cfg(test)]
extern crate self as grounding_audit;

pub use ga_engine::{
    accumulate, bytes, compare, dialect, escape, exit, filter, gate, grade, input, keyset, markers,
    messages, model, partial, pipeline, policy, shell, stats, support,
};

pub mod render;
pub mod view;

//! Turns in full for the commands that show more than a row (`explain`,
//! `evidence`, `convert`): the same reader as every other subcommand
//! (detection, strict mode, de-duplication, accounting and assembly), with
//! a [`Detail`](crate::pipeline::Detail) kept for each turn. It renders nothing.

use crate::accumulate::details::{Collected, Details};
use crate::input::Source;
use crate::pipeline::{self, Engine, InputStats};
use anyhow::Result;

/// Reads `sources` with `engine` (one that keeps details:
/// [`crate::config::detail_run`]), handing each turn that passes its
/// filter to `each` in input order (assembled turns after line turns), at
/// most `limit` of them.
pub fn read(
    engine: &Engine,
    sources: &[Source],
    limit: Option<usize>,
    mut each: impl FnMut(&Collected, &[Source]) -> Result<()>,
) -> Result<InputStats> {
    let mut left = limit;
    pipeline::run(
        engine,
        sources,
        None,
        || Details::new(limit),
        |acc| {
            for c in &acc.items {
                if left == Some(0) {
                    break;
                }
                each(c, sources)?;
                left = left.map(|l| l - 1);
            }
            Ok(())
        },
    )
}

//! Turns in full for the commands that show more than a row (`explain`,
//! `evidence`, `convert`): the same reader as every other subcommand
//! (detection, strict mode, de-duplication, accounting and assembly), with
//! a [`Detail`](crate::pipeline::Detail) kept for each turn. It renders nothing.

use crate::accumulate::details::{Collected, Details};
use crate::cli::{InputArgs, MarkerArgs};
use crate::config::{self, Settings};
use crate::filter::Filter;
use crate::input::Source;
use crate::pipeline::{self, InputStats};
use anyhow::Result;

/// Reads every source named by `input`, handing each turn that passes
/// `filter` to `each` in input order (assembled turns after line turns),
/// at most `limit` of them. `command` names the subcommand in messages.
pub fn read(
    settings: &Settings,
    input: &InputArgs,
    markers: &MarkerArgs,
    filter: Filter,
    limit: Option<usize>,
    command: &str,
    mut each: impl FnMut(&Collected, &[Source]) -> Result<()>,
) -> Result<InputStats> {
    let mut engine = config::engine(settings, input, filter, markers)?;
    engine.detail = true;
    let sources = config::sources(settings, input, command)?;
    let mut left = limit;
    pipeline::run(
        &engine,
        &sources,
        None,
        || Details::new(limit),
        |acc| {
            for c in &acc.items {
                if left == Some(0) {
                    break;
                }
                each(c, &sources)?;
                left = left.map(|l| l - 1);
            }
            Ok(())
        },
    )
}

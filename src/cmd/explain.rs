//! `explain` (being built).

use crate::cli::ExplainArgs;
use crate::config::Settings;
use anyhow::Result;
use std::io::Write;

/// Runs `explain`.
pub fn run(_args: &ExplainArgs, _settings: &Settings, _out: &mut dyn Write) -> Result<i32> {
    Err(crate::exit::usage("`explain` is not built yet"))
}

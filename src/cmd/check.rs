//! `check` (being built).

use crate::cli::CheckArgs;
use crate::config::Settings;
use anyhow::Result;
use std::io::Write;

/// Runs `check`.
pub fn run(_args: &CheckArgs, _settings: &Settings, _out: &mut dyn Write) -> Result<i32> {
    Err(crate::exit::usage("`check` is not built yet"))
}

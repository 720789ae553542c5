//! `summary` (being built).

use crate::cli::SummaryArgs;
use crate::config::Settings;
use anyhow::Result;
use std::io::Write;

/// Runs `summary`.
pub fn run(_args: &SummaryArgs, _settings: &Settings, _out: &mut dyn Write) -> Result<()> {
    Err(crate::exit::usage("`summary` is not built yet"))
}

//! `convert` (being built).

use crate::cli::ConvertArgs;
use crate::config::Settings;
use anyhow::Result;
use std::io::Write;

/// Runs `convert`.
pub fn run(_args: &ConvertArgs, _settings: &Settings, _out: &mut dyn Write) -> Result<()> {
    Err(crate::exit::usage("`convert` is not built yet"))
}

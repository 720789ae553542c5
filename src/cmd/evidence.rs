//! `evidence` (being built).

use crate::cli::EvidenceArgs;
use crate::config::Settings;
use anyhow::Result;
use std::io::Write;

/// Runs `evidence`.
pub fn run(_args: &EvidenceArgs, _settings: &Settings, _out: &mut dyn Write) -> Result<()> {
    Err(crate::exit::usage("`evidence` is not built yet"))
}

//! `generate` (being built).

use crate::cli::GenerateArgs;
use anyhow::Result;
use std::io::Write;

/// Runs `generate`.
pub fn run(_args: &GenerateArgs, _out: &mut dyn Write) -> Result<()> {
    Err(crate::exit::usage("`generate` is not built yet"))
}

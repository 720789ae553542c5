//! `completions` and `man`: shell completion scripts and the man page,
//! generated from the clap model (`clap_complete`, `clap_mangen`). The same
//! files are checked in under `completions/` (a test keeps them fresh).

use crate::cli::Cli;
use anyhow::Result;
use clap::CommandFactory;
use std::io::Write;

/// Writes the completion script for `shell`.
pub fn generate(shell: clap_complete::Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "grounding-audit", &mut buf);
    buf
}

/// The file name under `completions/` for `shell`.
pub fn file_name(shell: clap_complete::Shell) -> String {
    use clap_complete::Shell::*;
    match shell {
        Bash => "grounding-audit.bash".into(),
        Zsh => "_grounding-audit".into(),
        Fish => "grounding-audit.fish".into(),
        PowerShell => "_grounding-audit.ps1".into(),
        Elvish => "grounding-audit.elv".into(),
        _ => format!("grounding-audit.{shell}"),
    }
}

/// Runs `completions`.
pub fn run(shell: clap_complete::Shell, out: &mut dyn Write) -> Result<()> {
    out.write_all(&generate(shell))?;
    Ok(())
}

/// The man page (roff), for `man -l completions/grounding-audit.1`.
pub fn man_page() -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut buf)?;
    Ok(buf)
}

/// Runs `man`.
pub fn run_man(out: &mut dyn Write) -> Result<()> {
    out.write_all(&man_page()?)?;
    Ok(())
}

//! One module per subcommand. Each resolves its options once and wires the
//! stages together; none parses input or renders by itself.

pub mod completions;
pub mod report;

use crate::cli::{Cli, Command};
use crate::config::Settings;
use anyhow::Result;
use std::io::Write;

/// Runs the parsed command line, writing results to `out`. Returns the exit code.
pub fn dispatch(cli: &Cli, out: &mut dyn Write) -> Result<i32> {
    let settings = Settings::resolve(cli.quiet, cli.threads, cli.color);
    match &cli.command {
        Command::Report(a) => report::run(a, &settings, out).map(|_| crate::exit::SUCCESS),
        Command::Completions { shell } => completions::run(*shell, out).map(|_| crate::exit::SUCCESS),
        _ => Err(crate::exit::usage("not built yet")),
    }
}

//! One module per subcommand. Each resolves its options once and wires the
//! stages together; none parses input or renders by itself.

pub mod check;
pub mod completions;
pub mod convert;
pub mod evidence;
pub mod explain;
pub mod generate;
pub mod report;
pub mod summary;
pub mod turns;

use crate::cli::{Cli, Command};
use crate::config::Settings;
use crate::exit::SUCCESS;
use anyhow::Result;
use std::io::Write;

/// Runs the parsed command line, writing results to `out`. Returns the exit code.
pub fn dispatch(cli: &Cli, out: &mut dyn Write) -> Result<i32> {
    let settings = Settings::resolve(cli.quiet, cli.threads, cli.color);
    match &cli.command {
        Command::Report(a) => report::run(a, &settings, out).map(|_| SUCCESS),
        Command::Summary(a) => summary::run(a, &settings, out).map(|_| SUCCESS),
        Command::Check(a) => check::run(a, &settings, out),
        Command::Explain(a) => explain::run(a, &settings, out),
        Command::Evidence(a) => evidence::run(a, &settings, out).map(|_| SUCCESS),
        Command::Convert(a) => convert::run(a, &settings, out).map(|_| SUCCESS),
        Command::Completions { shell } => completions::run(*shell, out).map(|_| SUCCESS),
        Command::Generate(a) => generate::run(a, out).map(|_| SUCCESS),
    }
}

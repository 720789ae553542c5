//! One module per subcommand. Each resolves its options once and wires the
//! stages together; none parses input or renders by itself.

pub mod check;
pub mod completions;
pub mod convert;
pub mod evidence;
pub mod explain;
pub mod hints;
pub mod inspect;
pub mod merge;
pub mod report;
pub mod summary;
pub mod turns;

use crate::cli::{Cli, Command};
use crate::config::Settings;
use crate::exit::SUCCESS;
use crate::render::guard::Guarded;
use anyhow::Result;
use std::io::Write;

/// Runs the parsed command line, writing results to `out`. Returns the exit code.
pub fn dispatch(cli: &Cli, out: &mut dyn Write) -> Result<i32> {
    let settings = Settings::resolve(cli.quiet, cli.threads, cli.color);
    dispatch_with(cli, &settings, out)
}

/// [`dispatch`] with settings already resolved (tests pass their own).
/// Stdout is the one stream the GitHub Actions runner reads for workflow
/// commands: a human format there is guarded (see [`crate::render::guard`]).
pub fn dispatch_with(cli: &Cli, settings: &Settings, out: &mut dyn Write) -> Result<i32> {
    let mut out = Guarded::new(out, settings.actions && human_stdout(&cli.command));
    let result = run(cli, settings, &mut out);
    match (result, out.finish()) {
        (Ok(_), Err(e)) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        (result, _) => result,
    }
}

fn run(cli: &Cli, settings: &Settings, out: &mut Guarded<'_>) -> Result<i32> {
    match &cli.command {
        Command::Report(a) => report::run(a, settings, out).map(|_| SUCCESS),
        Command::Summary(a) => summary::run(a, settings, out).map(|_| SUCCESS),
        Command::Check(a) => check::run(a, settings, out),
        Command::Explain(a) => explain::run(a, settings, out),
        Command::Evidence(a) => evidence::run(a, settings, out).map(|_| SUCCESS),
        Command::Convert(a) => convert::run(a, settings, out).map(|_| SUCCESS),
        Command::Inspect(a) => inspect::run(a, settings, out).map(|_| SUCCESS),
        Command::Completions { shell } => completions::run(*shell, out).map(|_| SUCCESS),
        Command::Man => completions::run_man(out).map(|_| SUCCESS),
        Command::Merge(a) => merge::run(a, settings, out),
    }
}

/// True when the command writes a human format (table, text, Markdown, CSV)
/// to stdout, as each format registers ([`crate::render::Output`]); false
/// for partials, workflow commands, converted logs and completions.
pub fn human_stdout(command: &Command) -> bool {
    use crate::render::Output;
    match command {
        Command::Report(a) => a.partial.is_none() && a.format.human(),
        Command::Summary(a) => a.partial.is_none() && a.format.human(),
        // With --output, stdout carries the decision line.
        Command::Check(a) => a.partial.is_none() && (a.out.output.is_some() || a.format.human()),
        Command::Explain(a) => a.format.human(),
        Command::Inspect(a) => a.format.human(),
        // The partials' command is not known before they are read: guard
        // when the format is human for any command that has it.
        Command::Merge(a) => {
            a.out.output.is_some()
                || crate::partial::Kind::ALL
                    .into_iter()
                    .flat_map(crate::render::formats_of)
                    .filter(|f| a.format.as_deref().map_or(f.default, |n| n == f.name))
                    .any(|f| f.human)
        }
        Command::Evidence(_) | Command::Convert(_) | Command::Completions { .. } | Command::Man => {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With no path and a terminal on stdin, every reading subcommand refuses
    /// to wait, and its hint names that subcommand (not always `report`).
    #[test]
    fn no_input_hint_names_the_subcommand_that_was_run() {
        let settings = Settings {
            stdin_tty: true,
            ..Settings::plain()
        };
        for (args, shown) in [
            (&["report"][..], "grounding-audit report logs/"),
            (&["summary"], "grounding-audit summary logs/"),
            (
                &["check", "--min-rate", "0.9"],
                "grounding-audit check logs/",
            ),
            (&["explain", "t-1"], "grounding-audit explain TURN_ID logs/"),
            (&["evidence"], "grounding-audit evidence logs/"),
            (&["convert"], "grounding-audit convert logs/"),
        ] {
            let cli = Cli::from_command_line([&["grounding-audit"][..], args].concat()).unwrap();
            let err = dispatch_with(&cli, &settings, &mut Vec::new()).unwrap_err();
            let msg = format!("{err:#}");
            assert!(msg.starts_with("no input: "), "{args:?}: {msg}");
            assert!(msg.contains(shown), "{args:?}: {msg}");
            assert_eq!(crate::exit::code_for(&err), crate::exit::USAGE, "{args:?}");
            let other = if args[0] == "report" {
                "summary"
            } else {
                "report"
            };
            assert!(!msg.contains(&format!("grounding-audit {other}")), "{msg}");
        }
    }
}

//! `check`'s gate flags, one per row of the gate table
//! ([`crate::gate::TABLE`]): a gate added to the table is a flag here, with
//! its help, value name and unit, and nothing else to write.

use crate::gate::{Limits, Measure, TABLE, Unit};
use clap::{Arg, ArgMatches, Command};

/// The limits given on the command line, by gate.
#[derive(Debug, Clone, Default)]
pub struct LimitArgs(pub Limits);

impl clap::FromArgMatches for LimitArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut limits = Limits::default();
        for row in TABLE {
            let id = row.kind.as_str();
            let limit = match row.unit {
                Unit::Count => m.get_one::<u64>(id).copied().map(Measure::Count),
                Unit::Rate => m.get_one::<f64>(id).copied().map(Measure::Rate),
            };
            if let Some(limit) = limit {
                limits.set(row.kind, limit);
            }
        }
        Ok(LimitArgs(limits))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for LimitArgs {
    fn augment_args(cmd: Command) -> Command {
        TABLE.iter().fold(cmd, |cmd, row| {
            let arg = Arg::new(row.kind.as_str())
                .long(row.flag.trim_start_matches('-'))
                .value_name(row.value_name)
                .help(row.help);
            let arg = match row.unit {
                Unit::Count => arg.value_parser(clap::value_parser!(u64)),
                Unit::Rate => arg.value_parser(clap::value_parser!(f64)),
            };
            cmd.arg(match row.requires {
                Some(other) => arg.requires(other),
                None => arg,
            })
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

#[cfg(test)]
mod tests {
    use crate::gate::TABLE;

    /// Each row of the gate table is a flag of `check` and `merge`, with
    /// its help and value name, read back as the limit given; and one a
    /// partial refuses unless `summary` has it too.
    #[test]
    fn every_row_is_a_flag() {
        use clap::CommandFactory;
        let cmd = crate::cli::Cli::command();
        for row in TABLE {
            let long = row.flag.trim_start_matches('-');
            for sub in ["check", "merge"] {
                let sub = cmd.find_subcommand(sub).unwrap();
                let arg = sub.get_arguments().find(|a| a.get_long() == Some(long));
                let arg = arg.unwrap_or_else(|| panic!("{} has no {}", sub.get_name(), row.flag));
                assert_eq!(arg.get_id().as_str(), row.kind.as_str());
                assert_eq!(
                    arg.get_help().map(|h| h.to_string()).as_deref(),
                    Some(row.help)
                );
            }
            let (value, shown) = match row.unit {
                crate::gate::Unit::Count => ("3", "3"),
                crate::gate::Unit::Rate => ("0.25", "0.2500"),
            };
            let cli = crate::cli::Cli::from_command_line([
                "ga",
                "check",
                row.flag,
                value,
                "--baseline",
                "b.json",
                "x",
            ])
            .unwrap();
            let crate::cli::Command::Check(a) = cli.command else {
                panic!()
            };
            let got = a.gates.limits.0.get(row.kind).map(|m| m.to_string());
            assert_eq!(got.as_deref(), Some(shown), "{}", row.flag);
            let partial_refuses = crate::cli::check_flags().contains(&row.flag);
            assert_eq!(partial_refuses, row.flag != "--min-rate", "{}", row.flag);
        }
    }
}

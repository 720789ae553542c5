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

    /// The flags of `check` that are not gates on the graded turns: how
    /// the gates are applied, where the baseline lives, the input's own
    /// accounting. Every other gate flag must be a policy key.
    const NOT_POLICY: [&str; 7] = [
        "per_agent",
        "baseline",
        "write_baseline",
        "ratchet",
        "policy",
        "max_invalid",
        "allow_empty",
    ];

    fn gate_flags() -> Vec<(String, Option<String>)> {
        use clap::Args;
        let mut cmd =
            crate::cli::GateArgs::augment_args(clap::Command::new("check").disable_help_flag(true));
        cmd.build();
        cmd.get_arguments()
            .map(|a| {
                let switch = a.get_num_args().is_some_and(|n| n.max_values() == 0);
                let value = (!switch)
                    .then(|| {
                        a.get_value_names()
                            .and_then(|v| v.first())
                            .map(|v| v.to_string())
                    })
                    .flatten();
                (a.get_id().to_string(), value)
            })
            .filter(|(id, _)| !NOT_POLICY.contains(&id.as_str()))
            .collect()
    }

    #[test]
    fn every_gate_flag_is_a_policy_key() {
        let flags = gate_flags();
        assert!(flags.len() >= 8, "{flags:?}");
        for (key, value) in &flags {
            let v = match value.as_deref() {
                None => "true",
                Some("N") => "3",
                Some(_) => "0.5",
            };
            let p = crate::policy::Policy::parse(&format!(
                "[defaults]\n{key} = {v}\n[agents.a]\n{key} = {v}\n"
            ))
            .unwrap_or_else(|e| panic!("{key}: {e}"));
            assert_ne!(
                p.defaults,
                crate::policy::Rules::default(),
                "{key} set nothing"
            );
            assert_eq!(p.agents["a"], p.defaults, "{key}");
        }
    }

    /// The keys a policy reads are the gate table's and the settings, and
    /// each is a flag of `check`.
    #[test]
    fn every_policy_key_is_a_gate_flag() {
        let mut keys: Vec<&str> = TABLE
            .iter()
            .map(|r| r.kind.as_str())
            .chain(crate::policy::SETTINGS)
            .collect();
        keys.sort();
        let mut flags: Vec<String> = gate_flags().into_iter().map(|(k, _)| k).collect();
        flags.sort();
        assert_eq!(keys, flags);
        let e = crate::policy::Policy::parse("[defaults]\nmax_orphns = 2\n").unwrap_err();
        for key in keys {
            assert!(e.contains(&format!("`{key}`")), "{key}: {e}");
        }
    }
}

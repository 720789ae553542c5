//! `merge`: reads partials (`summary`, `report` or `check` with
//! `--partial`), merges them in the order given and renders that command's
//! output exactly as one pass over all their input would have, with its
//! output flags. `check` keeps its exit codes: 0 pass, 1 a gate failed,
//! 3 more invalid lines than `--max-invalid`.

use crate::accumulate::summary::SummaryOptions;
use crate::cli::{CheckFormat, MergeArgs, ReportFormat, SummaryFormat};
use crate::config::{self, Settings};
use crate::exit;
use crate::partial::{self, Kind, MergeOptions, Partial};
use crate::render::Output;
use anyhow::Result;
use std::collections::BTreeMap;

/// Runs `merge`; returns the exit code.
pub fn run(
    args: &MergeArgs,
    settings: &Settings,
    out: &mut crate::render::guard::Guarded<'_>,
) -> Result<i32> {
    let parts = read_partials(args)?;
    let (command, options) = partial::agreed(&parts).map_err(|e| exit::usage(format!("{e:#}")))?;
    refuse_foreign_flags(args, command)?;
    // Usage and configuration errors (gates, policy, baseline) come before merging.
    let gates = match command {
        Kind::Check => Some(
            crate::config::gates::resolve_gates(&args.gates)
                .map_err(crate::config::gates::GateError::into_error)?,
        ),
        Kind::Summary | Kind::Report => None,
    };
    let opts = merge_options(command, options)?;
    let merged = partial::merge(&parts, opts).map_err(|e| exit::usage(format!("{e:#}")))?;
    judge_whole_input(&merged)?;
    let clock = config::clock(&crate::cli::ZoneArgs {
        tz: merged.options.get("--tz").cloned(),
        show_tz: args.show_tz,
    })?;
    let meta = crate::render::html::Meta {
        generated: crate::model::format_time(&config::generated_at()?),
        version: env!("CARGO_PKG_VERSION"),
        grammar_flag: merged
            .options
            .get("--markers")
            .filter(|m| *m != config::DEFAULT_GRAMMAR)
            .cloned(),
        grammar_args: Vec::new(),
        min_rate: args.gates.min_rate(),
        paths: vec!["LOGS".to_owned()],
    };
    let window = config::recorded::window_of(&merged.options, &clock.zone)?;
    let format = args.format.as_deref();
    match command {
        Kind::Summary => {
            let format: SummaryFormat = format_of(format, "summary")?;
            if args.section.is_some() && format != SummaryFormat::Csv {
                return Err(exit::usage(
                    "--section picks the table of --format csv; the other formats print every section",
                ));
            }
            let summary = merged.summary.expect("summary partials hold a summary");
            crate::deliver::summary::summary(
                out,
                summary,
                &merged.input,
                &clock,
                None,
                crate::deliver::summary::Output {
                    format,
                    section: args.section,
                    csv: crate::render::escape::Csv::for_stdout(args.csv_raw, settings.stdout_tty),
                    html: &meta,
                    files: crate::config::summary::file_targets(args.out.html.as_deref()),
                    triage_order: args.out.triage_order,
                    window,
                },
            )?;
            Ok(exit::SUCCESS)
        }
        Kind::Report => {
            let format: ReportFormat = format_of(format, "report")?;
            let page = merged.page.expect("report partials hold a page");
            crate::deliver::report::page(
                out,
                page,
                &merged.input,
                &crate::deliver::report::PageOutput {
                    format,
                    limit: config::recorded::report_limit(&merged.options)?,
                    conversation: config::recorded::conversation(&merged.options),
                    dedupe: merged.options.get("--no-dedupe").map(String::as_str) != Some("true"),
                    options: crate::render::report::Options {
                        columns: &args.columns,
                        csv: crate::render::escape::Csv::for_stdout(
                            args.csv_raw,
                            settings.stdout_tty,
                        ),
                        clock,
                        color: settings.color,
                    },
                    merged: true,
                },
            )?;
            Ok(exit::SUCCESS)
        }
        Kind::Check => {
            let format: CheckFormat = format_of(format, "check")?;
            let gates = gates.expect("resolved above");
            let data = merged.gate.expect("check partials hold the gate inputs");
            // --max-invalid is judged over the whole input, as one pass judges it.
            let max = args.gates.max_invalid;
            let result = if merged.input.invalid_lines > max {
                let e = crate::pipeline::too_many_invalid(merged.input.invalid_lines, max);
                Err((e, merged.input))
            } else if let Err(e) = crate::pipeline::no_turn_read(&merged.input.sources, None) {
                Err((e, merged.input))
            } else {
                Ok(merged.input)
            };
            crate::deliver::check::decide(
                &crate::deliver::check::Decide {
                    gates: &gates,
                    outputs: &config::check::outputs(format, &args.gates, &args.out),
                    html: &meta,
                    clock,
                    window,
                    grading: None,
                },
                settings,
                out,
                data,
                merged.summary,
                result,
            )
        }
    }
}

/// Reads every partial named (`-` for stdin).
fn read_partials(args: &MergeArgs) -> Result<Vec<(String, Partial)>> {
    let mut parts = Vec::with_capacity(args.partials.len());
    for path in &args.partials {
        let name = path.display().to_string();
        let text = if path.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin())
        } else {
            std::fs::read_to_string(path)
        }
        .map_err(|e| exit::input(format!("{name}: {e}")))?;
        let p = Partial::read(&text, &name).map_err(|e| exit::input(format!("{e:#}")))?;
        parts.push((name, p));
    }
    Ok(parts)
}

/// What only the whole input decides, decided over every partition as one
/// pass decides it: the warnings (each once, on stderr), ids seen in more
/// than one partial, map pointers that resolved nowhere, `--strict`.
fn judge_whole_input(merged: &partial::Merged) -> Result<()> {
    // Warnings go to stderr as a single pass names them, once each.
    for w in merged.input.warnings.iter() {
        // A partial is input: its words are escaped like any other (a line
        // break, a workflow command, a terminal escape stay inert).
        eprintln!("{}", crate::escape::terminal(&w.line()));
    }
    if merged.cross_partial_duplicates > 0 {
        eprintln!(
            "warning: {} turn id(s) listed by more than one partial: partition the input by turn key so duplicates meet in one partial (docs/scale-out.md)",
            merged.cross_partial_duplicates
        );
    }
    // Judged over every partition, as one pass judges the whole input.
    if !merged.map_unresolved.is_empty() {
        return Err(crate::pipeline::unresolved_map(&merged.map_unresolved));
    }
    if merged.options.get("--strict").is_some_and(|s| s == "true") {
        let misread = crate::pipeline::misread_subjects(&merged.input.warnings);
        if !misread.is_empty() {
            return Err(crate::pipeline::misread_strict(&misread));
        }
    }
    if merged.command != Kind::Check {
        // `check` puts it in its decision line, after --max-invalid.
        crate::pipeline::no_turn_read(&merged.input.sources, None)?;
    }
    Ok(())
}

/// `--format` as one of `command`'s formats.
fn format_of<F: Output>(given: Option<&str>, command: &str) -> Result<F> {
    let Some(name) = given else {
        return Ok(F::DEFAULT);
    };
    F::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = F::ALL.iter().map(|v| v.name()).collect();
        exit::usage(format!(
            "--format {name} is not a format of `{command}`, whose partials these are (one of {})",
            names.join(", ")
        ))
    })
}

/// Refuses the output flags that belong to another command than the one
/// the partials hold, so that none is silently ignored.
fn refuse_foreign_flags(args: &MergeArgs, command: Kind) -> Result<()> {
    let gate_flags = crate::cli::check_flags_given(&args.given);
    let allowed: Vec<(&str, bool)> = match command {
        Kind::Summary => vec![
            ("--section", true),
            ("--csv-raw", true),
            ("--columns", false),
            ("--min-rate", true),
            ("--html", true),
            ("--triage-order", true),
        ],
        Kind::Report => vec![
            ("--section", false),
            ("--csv-raw", true),
            ("--columns", true),
            ("--min-rate", false),
            ("--html", false),
            ("--triage-order", false),
        ],
        Kind::Check => vec![
            ("--section", false),
            ("--csv-raw", false),
            ("--columns", false),
            ("--min-rate", true),
            ("--html", true),
            ("--triage-order", true),
        ],
    };
    let given = |flag: &str| args.given.flag(flag);
    let mut foreign: Vec<&str> = allowed
        .iter()
        .filter(|(flag, ok)| !ok && given(flag))
        .map(|(flag, _)| *flag)
        .collect();
    if command != Kind::Check {
        foreign.extend(gate_flags.iter().filter(|(_, on)| *on).map(|(f, _)| *f));
    }
    match foreign.first() {
        None => Ok(()),
        Some(flag) => Err(exit::usage(format!(
            "{flag} is not an output flag of `{}`, whose partials these are",
            command.as_str()
        ))),
    }
}

/// The state the merged partials are rebuilt with.
fn merge_options(command: Kind, options: &BTreeMap<String, String>) -> Result<MergeOptions> {
    Ok(match command {
        Kind::Summary => MergeOptions {
            summary: config::recorded::summary_options(options)?,
            page_cap: 0,
        },
        Kind::Report => MergeOptions {
            summary: SummaryOptions::baseline(config::recorded::zone_of(options)?),
            page_cap: crate::accumulate::PageHeap::cap_for(
                config::recorded::report_limit(options)?,
                config::recorded::conversation(options),
            ),
        },
        Kind::Check => MergeOptions {
            summary: SummaryOptions::baseline(config::recorded::zone_of(options)?),
            page_cap: 0,
        },
    })
}

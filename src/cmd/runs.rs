//! Whole agentfootprint sources for the commands that need more than graded
//! rows (`evidence`, `convert`): reads each source through `input`, checks it
//! is an agentfootprint export, reads its runs with the dialect, reports
//! invalid lines like the engine does (`path:line: reason`, fatal under
//! `--strict`) and drops repeated runs (keep the first) unless `--no-dedupe`.
//! It renders nothing.

use crate::cli::InputArgs;
use crate::config::{self, Settings};
use crate::dialect::InputFormat;
use crate::dialect::agentfootprint::{self, Run};
use crate::exit;
use crate::input::{self, Blocks};
use crate::pipeline::warn;
use anyhow::Result;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

/// Invalid lines printed before only a count is given (as in the engine).
const WARN_LIMIT: u64 = 10;

/// The runs of one source.
pub struct SourceRuns {
    /// The source as named in messages.
    pub name: String,
    pub runs: Vec<Run>,
}

/// Reads every source named by `input` as agentfootprint. `command` names
/// the subcommand in messages.
pub fn read(settings: &Settings, input: &InputArgs, command: &str) -> Result<Vec<SourceRuns>> {
    if input.input_format == InputFormat::Turns {
        return Err(exit::usage(format!(
            "`{command}` reads agentfootprint logs; with --input-format turns there is nothing for it to read"
        )));
    }
    if input.max_line_bytes == 0 {
        return Err(exit::usage("--max-line-bytes must be at least 1"));
    }
    let sources = config::sources(settings, input, command)?;
    let mut seen = HashSet::new();
    let mut shown = 0u64;
    let mut invalid_total = 0u64;
    let mut out = Vec::new();
    for (i, src) in sources.iter().enumerate() {
        let reader = input::open(src, Arc::new(AtomicU64::new(0)))?;
        let mut blocks = Blocks::new(reader, i, input.max_line_bytes);
        let mut data = Vec::new();
        let mut checked = false;
        loop {
            let block = match blocks.next_block() {
                Ok(Some(b)) => b,
                Ok(None) => break,
                Err(e) => {
                    let at = memchr::memchr_iter(b'\n', &data).count() + 1;
                    return Err(exit::input(format!("{}:{at}: read error: {e}", src.name)));
                }
            };
            if block.oversized.is_some() {
                return Err(exit::input(format!(
                    "{}:{}: line longer than --max-line-bytes",
                    src.name,
                    memchr::memchr_iter(b'\n', &data).count() + 1
                )));
            }
            if !checked {
                checked = true;
                if input.input_format == InputFormat::Auto && !agentfootprint::sniff(&block.data) {
                    return Err(exit::input(format!(
                        "{}: not an agentfootprint export (`{command}` reads agentfootprint event lines, recordings and audit bundles; pass --input-format agentfootprint to read it anyway)",
                        src.name
                    )));
                }
            }
            data.extend_from_slice(&block.data);
        }
        let got = agentfootprint::read_runs(&data, input.agent_name.as_deref())
            .map_err(|e| exit::input(format!("{}: {e}", src.name)))?;
        for (line, reason) in &got.invalid {
            if input.strict {
                return Err(exit::input(format!(
                    "{}:{line}: {reason} (--strict)",
                    src.name
                )));
            }
            if shown < WARN_LIMIT {
                shown += 1;
                warn(None, &format!("{}:{line}: {reason}", src.name));
            }
        }
        invalid_total += got.stats.invalid_lines;
        let runs = got
            .runs
            .into_iter()
            .filter(|r| input.no_dedupe || seen.insert(r.run_id.clone()))
            .collect();
        out.push(SourceRuns {
            name: src.name.clone(),
            runs,
        });
    }
    if invalid_total > shown {
        warn(
            None,
            &format!(
                "warning: {} more invalid line(s) not shown ({invalid_total} in total)",
                invalid_total - shown
            ),
        );
    }
    Ok(out)
}

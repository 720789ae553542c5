//! `ga-generate`: writes the deterministic synthetic turn log to stdout.
//!
//! `cargo run --release -p ga-generate -- --bytes 500MB --seed 42 > log.jsonl`

#![forbid(unsafe_code)]

use clap::Parser;
use ga_generate::{Options, parse_size};
use std::io::{self, Write};
use std::num::NonZeroU32;
use std::process::ExitCode;

/// Write a deterministic synthetic turn log (for grounding-audit's benchmark and tests).
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Approximate size to write, in bytes (suffixes k, M, G: powers of 1024; kB, MB, GB: powers of 1000).
    #[arg(long, default_value = "1M", value_parser = parse_size)]
    bytes: u64,
    /// Random seed.
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// Number of agents.
    #[arg(long, default_value = "12")]
    agents: NonZeroU32,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let opts = Options {
        bytes: args.bytes,
        seed: args.seed,
        agents: args.agents,
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match ga_generate::write(&opts, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ga-generate: {e}");
            ExitCode::FAILURE
        }
    }
}

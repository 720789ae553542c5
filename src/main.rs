//! The `grounding-audit` binary: parse, dispatch, map the outcome to an exit code.

use clap::Parser;
use grounding_audit::{cli::Cli, cmd, exit};
use std::io::Write;

fn main() {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = cmd::dispatch(&cli, &mut out).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    let code = match result {
        Ok(code) => code,
        Err(err) if exit::is_broken_pipe(&err) => exit::SUCCESS,
        Err(err) => {
            // A failed flush of what was written so far is not worth a second message.
            let _ = out.flush();
            // Messages name paths and values from the input: escape them for the terminal.
            let msg = format!("{err:#}");
            let _ = writeln!(
                std::io::stderr(),
                "error: {}",
                grounding_audit::render::escape::terminal(&msg)
            );
            exit::code_for(&err)
        }
    };
    drop(out);
    std::process::exit(code);
}

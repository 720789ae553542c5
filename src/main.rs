//! The `grounding-audit` binary: parse, dispatch, map the outcome to an exit code.

#![forbid(unsafe_code)]

use grounding_audit::{cli::Cli, cmd, exit};
use std::io::Write;

/// jemalloc: records of the span and event dialects are allocated by the
/// workers and freed by the merging thread, which glibc's allocator
/// serialises on its arena locks (docs/performance.md).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    let cli = Cli::from_command_line(std::env::args_os()).unwrap_or_else(|e| e.exit());
    let stdout = std::io::stdout();
    let mut out = exit::Output(std::io::BufWriter::with_capacity(1 << 16, stdout.lock()));
    let result = cmd::dispatch(&cli, &mut out).and_then(|code| match out.flush() {
        // The command has already decided: a reader that left early does not
        // change its exit code (`check … | head -1` still exits 1 on a failing gate).
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(code),
        flushed => flushed.map(|()| code).map_err(Into::into),
    });
    let code = match result {
        Ok(code) => code,
        // `report` and `summary` stop at a closed stdout: that is success, silently.
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

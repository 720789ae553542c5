//! Exit codes: the documented contract between grounding-audit and its callers.
//!
//! Every command maps its outcome to one of these constants; `main` is the only
//! place that turns an error into a process exit. Errors that must pick a code
//! other than the default carry a [`Coded`] marker in their `anyhow` chain.

use std::fmt;

/// Success; for `check`, every gate held.
pub const SUCCESS: i32 = 0;
/// `check`: at least one gate failed. `explain`: the turn was not found.
pub const FAILED: i32 = 1;
/// Usage or configuration error (clap uses 2 as well).
pub const USAGE: i32 = 2;
/// Input error: an unreadable file, or an invalid line that was fatal
/// (`--strict`, or `check --max-invalid`).
pub const INPUT: i32 = 3;
/// Output error: a result could not be written (stdout, `--output`, a
/// report file, `$GITHUB_STEP_SUMMARY`, a baseline).
pub const OUTPUT: i32 = 4;

/// Text for `--help`: one line per code.
pub const HELP: &str = "Exit codes:\n  0  success (check: every gate passed)\n  1  check: a gate failed; explain: turn not found\n  2  usage or configuration error\n  3  input error (unreadable input, a file of records none of which reads as a turn, invalid line under --strict or above --max-invalid)\n  4  output error (a result could not be written: stdout, --output, a report file, $GITHUB_STEP_SUMMARY)";

/// An error that decides the exit code. Wrap it in `anyhow::Error`.
#[derive(Debug)]
pub struct Coded {
    /// One of the constants of this module.
    pub code: i32,
    /// The message printed after `error: `.
    pub message: String,
}

impl fmt::Display for Coded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Coded {}

/// A usage error (exit 2).
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    Coded {
        code: USAGE,
        message: message.into(),
    }
    .into()
}

/// An input error (exit 3).
pub fn input(message: impl Into<String>) -> anyhow::Error {
    Coded {
        code: INPUT,
        message: message.into(),
    }
    .into()
}

/// An output error (exit 4).
pub fn output(message: impl Into<String>) -> anyhow::Error {
    Coded {
        code: OUTPUT,
        message: message.into(),
    }
    .into()
}

/// Writes `bytes` to the file at `path`, or appends them; a failure is an
/// output error (exit 4) naming the path and `what` it is.
pub fn write_file(
    path: &std::path::Path,
    bytes: &[u8],
    append: bool,
    what: &str,
) -> anyhow::Result<()> {
    use std::io::Write as _;
    let result = if append {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
    } else {
        std::fs::write(path, bytes)
    };
    result.map_err(|e| output(format!("writing {what} {}: {e}", path.display())))
}

/// Stdout as the commands see it: a write or flush that fails for any
/// reason but a closed pipe becomes an output error (exit 4), while a
/// broken pipe stays one (success, silently).
pub struct Output<W>(pub W);

impl<W: std::io::Write> Output<W> {
    fn tag(e: std::io::Error) -> std::io::Error {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return e;
        }
        let kind = e.kind();
        std::io::Error::new(
            kind,
            Coded {
                code: OUTPUT,
                message: format!("writing to stdout: {e}"),
            },
        )
    }
}

impl<W: std::io::Write> std::io::Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(Self::tag)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.write_all(buf).map_err(Self::tag)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(Self::tag)
    }
}

/// A "not found" or gate failure (exit 1).
pub fn failed(message: impl Into<String>) -> anyhow::Error {
    Coded {
        code: FAILED,
        message: message.into(),
    }
    .into()
}

/// The exit code for an error: its [`Coded`] marker if it has one, else
/// `INPUT` (uncoded errors come from reading and writing). A broken pipe on
/// stdout is success: the reader went away on purpose (`| head`).
pub fn code_for(err: &anyhow::Error) -> i32 {
    for cause in err.chain() {
        if let Some(c) = cause.downcast_ref::<Coded>() {
            return c.code;
        }
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::BrokenPipe {
                return SUCCESS;
            }
            if let Some(c) = io.get_ref().and_then(|e| e.downcast_ref::<Coded>()) {
                return c.code;
            }
        }
    }
    INPUT
}

/// True when the error is a broken pipe, which is reported silently.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

//! Stdout under GitHub Actions. The runner reads every line of a step's
//! stdout, and one that starts with `::` is a workflow command (`::add-mask::`,
//! `::set-output`, `::error`): a turn or agent id at the start of a CSV record
//! or a wrapped table line would run one. So a human format (table, text,
//! Markdown, CSV) written to stdout while `GITHUB_ACTIONS=true` is held between
//! `::stop-commands::TOKEN` and `::TOKEN::`, with a token the input cannot
//! know. Machine documents (JSON, JSONL, JUnit, HTML, partials) and files
//! are left exact; `check`'s workflow commands are written after the stretch.

use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};

/// The variable the runner sets to `true`.
pub const ENV: &str = "GITHUB_ACTIONS";

/// True when stdout is read for workflow commands: `GITHUB_ACTIONS=true`.
pub fn under_actions(value: Option<&str>) -> bool {
    value == Some("true")
}

/// 128 random bits as hex: std's per-process random hash keys over the
/// time and the process id.
pub fn token() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let half = |salt: u8| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u8(salt);
        h.write_u128(nanos);
        h.write_u32(std::process::id());
        h.finish()
    };
    format!("{:016x}{:016x}", half(0), half(1))
}

/// A stream that, when armed, opens a stop-commands stretch before its first
/// byte and closes it at [`Guarded::finish`] or before [`Guarded::commands`].
pub struct Guarded<'a> {
    inner: &'a mut dyn Write,
    armed: bool,
    /// The token of the open stretch.
    open: Option<String>,
    /// The last byte written, to end a line before the closing command.
    last: u8,
}

impl<'a> Guarded<'a> {
    /// Wraps `inner`; passes everything through unchanged unless `armed`.
    pub fn new(inner: &'a mut dyn Write, armed: bool) -> Self {
        Guarded {
            inner,
            armed,
            open: None,
            last: b'\n',
        }
    }

    /// Ends the open stretch, if any: the runner reads commands again.
    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(token) = self.open.take() {
            if self.last != b'\n' {
                self.inner.write_all(b"\n")?;
            }
            writeln!(self.inner, "::{token}::")?;
            self.last = b'\n';
        }
        Ok(())
    }

    /// Writes workflow commands the runner is to act on, outside any stretch.
    pub fn commands(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.finish()?;
        self.inner.write_all(bytes)
    }

    fn open(&mut self) -> io::Result<()> {
        if self.armed && self.open.is_none() {
            let token = token();
            writeln!(self.inner, "::stop-commands::{token}")?;
            self.open = Some(token);
        }
        Ok(())
    }
}

impl Write for Guarded<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        self.open()?;
        let n = self.inner.write(buf)?;
        if n > 0 {
            self.last = buf[n - 1];
        }
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(armed: bool, parts: &[(&str, bool)]) -> String {
        let mut out = Vec::new();
        let mut g = Guarded::new(&mut out, armed);
        for (s, command) in parts {
            if *command {
                g.commands(s.as_bytes()).unwrap();
            } else {
                g.write_all(s.as_bytes()).unwrap();
            }
        }
        g.finish().unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn only_true_arms() {
        assert!(under_actions(Some("true")));
        for v in [None, Some(""), Some("false"), Some("1"), Some("TRUE ")] {
            assert!(!under_actions(v), "{v:?}");
        }
    }

    #[test]
    fn an_armed_stream_holds_data_between_stop_and_resume() {
        let s = through(true, &[("::add-mask::x\n", false), ("no newline", false)]);
        let lines: Vec<&str> = s.lines().collect();
        let token = lines[0].strip_prefix("::stop-commands::").expect(&s);
        assert_eq!(token.len(), 32, "{s}");
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{s}");
        assert_eq!(
            &lines[1..],
            ["::add-mask::x", "no newline", &format!("::{token}::")]
        );
    }

    #[test]
    fn commands_come_after_the_stretch_and_nothing_written_is_not_wrapped() {
        let s = through(true, &[("PASS\n", false), ("::error::gate\n", true)]);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 4, "{s}");
        assert_eq!(
            lines[2],
            format!("::{}::", &lines[0]["::stop-commands::".len()..])
        );
        assert_eq!(lines[3], "::error::gate");
        assert_eq!(through(true, &[]), "");
        assert_eq!(through(true, &[("::notice::x\n", true)]), "::notice::x\n");
        assert_eq!(
            through(false, &[("::set-output x\n", false)]),
            "::set-output x\n"
        );
    }

    #[test]
    fn tokens_differ() {
        assert_ne!(token(), token());
    }
}

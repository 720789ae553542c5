//! Command lines printed for a person to copy. Turn ids and paths come from
//! the input, so each is quoted for a POSIX shell, and when one could read
//! as a flag (a turn id `--show-text`) the options go first and `--` ends
//! them, so the command does what it says.

/// `s` quoted for a POSIX shell when it needs it.
pub fn word(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@+,%".contains(&b))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// True when a command-line parser could take `s` for a flag (`-` alone is stdin).
pub fn flag_like(s: &str) -> bool {
    s.starts_with('-') && s != "-"
}

/// The arguments of a command: `head` (program and subcommand), then the
/// operands and the options; when an operand could read as a flag, the
/// options first and `--` before the operands.
pub fn argv(head: &[&str], operands: &[&str], options: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = head.iter().map(|s| (*s).to_owned()).collect();
    if operands.iter().any(|o| flag_like(o)) {
        v.extend(options.iter().map(|s| (*s).to_owned()));
        v.push("--".to_owned());
        v.extend(operands.iter().map(|s| (*s).to_owned()));
    } else {
        v.extend(operands.iter().chain(options).map(|s| (*s).to_owned()));
    }
    v
}

/// An option and its value for a shell line: `--name VALUE`, or
/// `--name=VALUE` when the value could read as a flag.
pub fn option(name: &str, value: &str) -> String {
    if flag_like(value) {
        word(&format!("{name}={value}"))
    } else {
        format!("{} {}", word(name), word(value))
    }
}

/// [`argv`] as one line for a shell.
pub fn command(head: &[&str], operands: &[&str], options: &[&str]) -> String {
    line(&argv(head, operands, options))
}

/// Arguments joined into one shell line, each quoted as it needs.
pub fn line(argv: &[String]) -> String {
    argv.iter().map(|a| word(a)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_when_needed() {
        assert_eq!(word("t-01"), "t-01");
        assert_eq!(word("logs/a b.jsonl"), "'logs/a b.jsonl'");
        assert_eq!(word("it's"), r"'it'\''s'");
        assert_eq!(word("$(rm)"), "'$(rm)'");
        assert_eq!(word(""), "''");
        assert_eq!(word("a\nb"), "'a\nb'");
    }

    #[test]
    fn a_flag_like_operand_comes_after_the_options_and_a_double_dash() {
        let head = ["grounding-audit", "explain"];
        assert_eq!(
            command(&head, &["t-1", "logs/"], &["--markers", "id"]),
            "grounding-audit explain t-1 logs/ --markers id"
        );
        assert_eq!(
            command(&head, &["--show-text", "logs/"], &["--markers", "id"]),
            "grounding-audit explain --markers id -- --show-text logs/"
        );
        assert_eq!(
            command(&head, &["t 1", "-x.jsonl"], &[]),
            "grounding-audit explain -- 't 1' -x.jsonl"
        );
        assert_eq!(
            command(&head, &["t", "-"], &[]),
            "grounding-audit explain t -"
        );
        assert_eq!(
            option("--write-baseline", "b.json"),
            "--write-baseline b.json"
        );
        assert_eq!(
            option("--write-baseline", "-b 1"),
            "'--write-baseline=-b 1'"
        );
    }
}

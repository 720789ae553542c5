//! Dialects: how input lines become [`Turn`]s.
//!
//! Each dialect turns its own records into the same borrowed turn model, so
//! grading, rollups and renderers never know where a turn came from. The
//! native turn-log format is line-by-line and parsed in parallel; whole-stream
//! formats (agentfootprint) group several lines into one turn.

pub mod agentfootprint;
pub mod native;

use crate::model::Turn;

/// The result of reading one non-blank line. Not boxed: a turn is made for
/// nearly every line, and boxing would add an allocation per line.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Parsed<'a> {
    /// A turn record.
    Turn(Turn<'a>),
    /// A record that is not a turn (`type` other than `"turn"`).
    Skipped,
    /// Not a valid turn record; the reason names what is wrong.
    Invalid(String),
}

/// Which dialect a source is read with (`--input-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// Decide per file from its first bytes.
    Auto,
    /// The native turn log: one JSON turn per line.
    Turns,
    /// agentfootprint event streams, recordings and audit bundles.
    Agentfootprint,
}

/// How a source is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Native,
    Agentfootprint,
}

/// Decides the dialect of a source from its first block.
pub fn detect(format: InputFormat, first: &[u8]) -> Dialect {
    match format {
        InputFormat::Turns => Dialect::Native,
        InputFormat::Agentfootprint => Dialect::Agentfootprint,
        InputFormat::Auto if agentfootprint::sniff(first) => Dialect::Agentfootprint,
        InputFormat::Auto => Dialect::Native,
    }
}

/// Longest reason printed for an invalid line, in bytes.
pub const MAX_REASON: usize = 300;

/// Makes a parser's message safe to print as an invalid-line reason: input
/// values it quotes are redacted, so a reason never echoes the line's
/// content (a reply, a chunk's text, a secret), and the whole message is
/// capped at [`MAX_REASON`] bytes.
///
/// serde quotes a string value as a Rust string literal (`invalid type:
/// string "…", expected …`), an unknown enum variant in backticks (`unknown
/// variant `…`, expected one of …`) and a character in backticks
/// (`character `x``); each of those becomes `…`. Field names and the
/// "expected" part come from this tool's own types and stay.
pub fn redact_reason(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len().min(MAX_REASON));
    let mut rest = msg;
    while let Some(i) = rest.find(['"', '`']) {
        let (before, from) = rest.split_at(i);
        out.push_str(before);
        if from.starts_with('"') {
            // A Rust string literal: skip to the closing quote, minding `\"`.
            let mut end = None;
            let mut escaped = false;
            for (j, c) in from.char_indices().skip(1) {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = Some(j);
                        break;
                    }
                    _ => {}
                }
            }
            out.push_str("\"…\"");
            rest = end.map_or("", |j| &from[j + 1..]);
        } else if before.ends_with("unknown variant ") {
            // The variant is raw input and may hold backticks itself: it ends
            // at the last "`, expected" serde appends.
            let end = from.rfind("`, expected").filter(|&j| j > 0);
            out.push_str("`…`");
            rest = end.map_or("", |j| &from[j + 1..]);
        } else if before.ends_with("character ") {
            let mut chars = from.char_indices().skip(1);
            let end = chars.nth(1).filter(|&(_, c)| c == '`').map(|(j, _)| j);
            out.push_str("`…`");
            rest = end.map_or("", |j| &from[j + 1..]);
        } else {
            // A field name or an expected value: the tool's own text.
            let close = from[1..].find('`').map(|j| j + 1);
            match close {
                Some(j) => {
                    out.push_str(&from[..=j]);
                    rest = &from[j + 1..];
                }
                None => {
                    out.push_str(from);
                    rest = "";
                }
            }
        }
    }
    out.push_str(rest);
    cap_reason(out)
}

/// Cuts a reason to at most [`MAX_REASON`] bytes (on a character boundary,
/// marked with `…`), so no message can grow with the input.
pub fn cap_reason(mut reason: String) -> String {
    if reason.len() > MAX_REASON {
        let mut cut = MAX_REASON;
        while !reason.is_char_boundary(cut) {
            cut -= 1;
        }
        reason.truncate(cut);
        reason.push('…');
    }
    reason
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings_are_redacted() {
        assert_eq!(
            redact_reason(r#"invalid type: string "SECRET \"x\" y", expected a sequence"#),
            r#"invalid type: string "…", expected a sequence"#
        );
        assert_eq!(
            redact_reason(r#"invalid value: string "a", expected b"#),
            r#"invalid value: string "…", expected b"#
        );
        // An unterminated literal (cut by the parser) is redacted to the end.
        assert_eq!(redact_reason(r#"x "SECRET"#), r#"x "…""#);
    }

    #[test]
    fn unknown_variants_and_characters_are_redacted() {
        assert_eq!(
            redact_reason("unknown variant `SE`CRET`, expected one of `no_reply`, `withheld`"),
            "unknown variant `…`, expected one of `no_reply`, `withheld`"
        );
        assert_eq!(
            redact_reason("invalid type: character `S`, expected a string"),
            "invalid type: character `…`, expected a string"
        );
    }

    #[test]
    fn field_names_stay() {
        assert_eq!(
            redact_reason("missing field `turn_id`"),
            "missing field `turn_id`"
        );
        assert_eq!(
            redact_reason("duplicate field `reply` (column 40)"),
            "duplicate field `reply` (column 40)"
        );
        assert_eq!(redact_reason("a `b"), "a `b");
    }

    fn invalid(line: &str) -> String {
        match native::parse_line(line) {
            Parsed::Invalid(r) => r,
            other => panic!("not invalid: {other:?}"),
        }
    }

    #[test]
    fn native_reasons_never_echo_content() {
        let head = r#"{"turn_id":"t","agent_id":"a","created_at":"2026-08-01T00:00:00Z","#;
        for body in [
            r#""reply":"x","grounding":{"chunks":["SECRET chunk"]}}"#,
            r#""reply":"x","grounding":"SECRET"}"#,
            r#""reply":"x","unobserved":"SECRET"}"#,
            r#""reply":"x","grounding":{"chunks":[{"score":"SECRET"}]}}"#,
        ] {
            let r = invalid(&format!("{head}{body}"));
            assert!(!r.contains("SECRET"), "{r}");
        }
        // A bad time is quoted by a short prefix only, and the reason is capped.
        let long = r"\u001b".repeat(5000);
        let r = invalid(&format!(
            r#"{{"turn_id":"t","agent_id":"a","created_at":"{long}"}}"#
        ));
        assert!(r.starts_with("created_at "), "{r}");
        assert!(r.len() <= MAX_REASON + '…'.len_utf8(), "{} bytes", r.len());
    }

    #[test]
    fn times_outside_years_0000_to_9999_in_utc_are_invalid() {
        let line =
            |t: &str| format!(r#"{{"turn_id":"t","agent_id":"a","created_at":"{t}","reply":"x"}}"#);
        // Four-digit years that an offset moves out of range, one with a long fraction.
        let long = format!("9999-12-31T23:59:59.{}-00:01", "9".repeat(5000));
        for t in [
            "9999-12-31T23:30:00-01:00",
            "0000-01-01T00:30:00+01:00",
            &long,
        ] {
            let r = invalid(&line(t));
            assert!(r.starts_with("created_at "), "{r}");
            assert!(r.contains("outside years 0000-9999"), "{r}");
            assert!(r.len() < 120, "{r}");
        }
        for t in [
            "0000-01-01T00:00:00Z",
            "0000-01-01T00:30:00-01:00",
            "9999-12-31T23:59:60Z",
            "9999-12-31T23:59:59.999999999Z",
            "9999-12-31T23:30:00+01:00",
        ] {
            assert!(
                matches!(native::parse_line(&line(t)), Parsed::Turn(_)),
                "{t}"
            );
        }
    }

    #[test]
    fn long_reasons_are_capped() {
        let long = "x".repeat(5000) + "é";
        let r = redact_reason(&long);
        assert!(r.len() <= MAX_REASON + '…'.len_utf8());
        assert!(r.ends_with('…'));
        let wide = "é".repeat(400);
        assert!(redact_reason(&wide).len() <= MAX_REASON + 3);
    }
}

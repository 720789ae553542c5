//! `check`'s output seam: the format enum and the one place that draws a
//! decision in a chosen format (the `--format` document, and the report
//! files `--junit`, `--json`, `--markdown`, `--github` write).

use crate::accumulate::Grouped;
use crate::gate::Decision;
use crate::input::InputStats;
use crate::view::check::CheckDoc;
use anyhow::Result;
use std::io::Write;

/// `check` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The decision line first, then one line per gate.
    Text,
    /// Decision, gates, rollup and input accounting.
    Json,
    /// JUnit XML: a testsuite per agent plus an overall one, a testcase per gate.
    Junit,
    /// GitHub workflow commands; a summary table in $GITHUB_STEP_SUMMARY when set.
    Github,
    /// A Markdown table for pull-request comments.
    Markdown,
}

impl super::Output for Format {
    const DEFAULT: Format = Format::Text;
    fn human(self) -> bool {
        matches!(self, Format::Text | Format::Markdown)
    }
}

impl crate::model::Named for Format {
    const ALL: &'static [Format] = &[
        Format::Text,
        Format::Json,
        Format::Junit,
        Format::Github,
        Format::Markdown,
    ];
    fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Github => "github",
            Format::Markdown => "markdown",
        }
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Format::Text => "The decision line first, then one line per gate",
            Format::Json => "Decision, gates, rollup and input accounting",
            Format::Junit => {
                "JUnit XML: a testsuite per agent plus an overall one, a testcase per gate"
            }
            Format::Github => {
                "GitHub workflow commands; a summary table in $GITHUB_STEP_SUMMARY when set"
            }
            Format::Markdown => "A Markdown table for pull-request comments",
        })
    }
}

impl Format {
    /// The decision drawn in this format: the registry of `check`'s formats.
    pub fn draw(self, decision: &Decision, data: &Grouped, input: &InputStats) -> Result<Vec<u8>> {
        let mut doc = Vec::new();
        match self {
            Format::Text => {
                writeln!(doc, "{}", super::escape::terminal(&decision.line))?;
                super::text::gate_list(&mut doc, decision, input)?;
            }
            Format::Json => super::json::document(&mut doc, &CheckDoc::of(decision, data, input))?,
            Format::Junit => super::junit::check(&mut doc, decision)?,
            Format::Github => super::github::check(&mut doc, decision)?,
            Format::Markdown => super::markdown::check(&mut doc, decision, input)?,
        }
        Ok(doc)
    }
}

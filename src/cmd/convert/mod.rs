//! `convert`: `--to turns` writes turns of any dialect as the native turn
//! log ([`log`]); read back with no flags it grades exactly like its
//! source. The other targets (`render::writeback`) write each verdict back where
//! a trace team looks: an OTel evaluation event on the reply span, a
//! Phoenix span annotation, a Langfuse score, a LangSmith feedback. A
//! write-back run writes every record or none, unless
//! `--skip-unaddressable` lets it leave out the turns it cannot address.

mod log;

use crate::accumulate::details::Collected;
use crate::cli::{ConvertArgs, ConvertTo};
use crate::config::Settings;
use crate::filter::Filter;
use crate::markers::Grammar;
use crate::model::Extras;
use anyhow::Result;
use std::io::Write;

/// Runs `convert`.
pub fn run(args: &ConvertArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let chosen = crate::config::grammar(&args.markers)?;
    if args.to == ConvertTo::Turns {
        if args.skip_unaddressable {
            return Err(crate::exit::usage(
                "--skip-unaddressable applies to the write-back targets, not --to turns",
            ));
        }
        return write_log(args, settings, chosen.as_ref(), out);
    }
    write_back(args, settings, chosen.as_ref(), out)
}

/// Reads every turn of `args`' input, handing each to `each`.
fn each_turn(
    args: &ConvertArgs,
    settings: &Settings,
    each: impl FnMut(&Collected) -> Result<()>,
) -> Result<crate::pipeline::InputStats> {
    let mut each = each;
    let (engine, sources) = crate::config::detail_run(
        settings,
        &args.input,
        &args.markers,
        Filter::default(),
        "convert",
    )?;
    super::turns::read(&engine, &sources, None, |c, _| each(c))
}

/// The grammar a turn is graded with: the command line's, else the one its
/// record names, else its dialect's.
fn grammar(c: &Collected, chosen: Option<&Grammar>) -> Grammar {
    let d = &c.detail;
    let source = chosen.cloned().unwrap_or_else(|| d.dialect.grammar());
    crate::grade::grammar_of(&d.turn, chosen.is_some(), &source).into_owned()
}

/// `--to turns`: the native turn log, each line naming its grammar.
fn write_log(
    args: &ConvertArgs,
    settings: &Settings,
    chosen: Option<&Grammar>,
    out: &mut dyn Write,
) -> Result<()> {
    let mut unnamed = 0u64;
    each_turn(args, settings, |c| {
        let preset = match grammar(c, chosen) {
            Grammar::Preset(p) => Some(p),
            Grammar::Regex { .. } => None,
        };
        unnamed += u64::from(preset.is_none());
        write_line(out, &log::turn_line(c, preset))
    })?;
    if unnamed > 0 {
        crate::pipeline::warn(
            None,
            &format!(
                "warning: {unnamed} turn(s) graded with --marker-regex: a turn line names a preset only, so grade the converted log with the same --marker-regex"
            ),
        );
    }
    Ok(())
}

fn write_line(out: &mut dyn Write, v: &serde_json::Value) -> Result<()> {
    serde_json::to_writer(&mut *out, v)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// The turns a write-back run could not address: how many, and the first.
#[derive(Default)]
struct Unaddressable {
    count: u64,
    first: Option<String>,
}

impl Unaddressable {
    fn note(&mut self, turn: &str, why: &str) {
        self.count += 1;
        self.first
            .get_or_insert_with(|| format!("turn {turn}: {why}"));
    }

    /// An input error (exit 3) when the run writes nothing, or leaves out a
    /// turn without `skip`; else the warning to print, if any.
    fn outcome(self, turns: u64, skip: bool, target: &str) -> Result<Option<String>> {
        let first = self.first.unwrap_or_default();
        if self.count == turns {
            let why = if turns == 0 {
                "the input has no turns".to_owned()
            } else {
                format!("none of the {turns} turn(s) can be addressed (first: {first})")
            };
            return Err(crate::exit::input(format!(
                "nothing to write back to {target}: {why}"
            )));
        }
        if self.count == 0 {
            return Ok(None);
        }
        let n = self.count;
        if !skip {
            return Err(crate::exit::input(format!(
                "cannot write {n} of {turns} turn(s) back to {target}: {first}; nothing written (--skip-unaddressable writes the others)"
            )));
        }
        Ok(Some(format!(
            "warning: {n} of {turns} turn(s) skipped: they cannot be addressed in {target} (first: {first})"
        )))
    }
}

/// A write-back target: every record, or an input error (exit 3) naming
/// the first turn it cannot address; with `--skip-unaddressable` the others
/// are written and the count is a warning. Writing nothing is an error.
/// Records are held until every turn is read, so a failed run writes none.
fn write_back(
    args: &ConvertArgs,
    settings: &Settings,
    chosen: Option<&Grammar>,
    out: &mut dyn Write,
) -> Result<()> {
    let mut lines = Vec::new();
    let mut missing = Unaddressable::default();
    let stats = each_turn(args, settings, |c| {
        match args.to.record(c, &reason(c, chosen)) {
            Ok(v) => write_line(&mut lines, &v)?,
            Err(why) => missing.note(c.row.turn_id.as_str(), &why),
        }
        Ok(())
    })?;
    let target = crate::model::Named::name(args.to).to_owned();
    let warning = missing.outcome(stats.turns, args.skip_unaddressable, &target)?;
    out.write_all(&lines)?;
    if let Some(w) = warning {
        crate::pipeline::warn(None, &w);
    }
    Ok(())
}

/// The one-sentence reason for a turn's verdict, as `explain` gives it.
fn reason(c: &Collected, chosen: Option<&Grammar>) -> String {
    let d = &c.detail;
    let grammar = grammar(c, chosen);
    crate::view::explain::explain(
        d.turn.clone(),
        Extras::default(),
        &d.support,
        &grammar,
        String::new(),
        0,
        crate::view::explain::Show {
            text: false,
            low_score: 0.5,
        },
    )
    .reason
}

//! `explain`: one turn's full audit. Reads its inputs in order until the
//! first turn with the id (the one de-duplication would keep), then shows
//! the verdict with a reason, the chunks, every marker and what it resolved
//! to, tool calls and telemetry. Reply text only with `--show-text`.
//! This builds the view ([`Explained`]); `render::explain` draws it as text.

use crate::cli::ExplainArgs;
use crate::config::{self, Settings};
use crate::exit;
use crate::filter::Filter;
use crate::markers::Grammar;
use crate::render;
use anyhow::Result;
use std::io::Write;

pub use crate::view::explain::*;

/// Finds the first turn with `id` in the sources (the one de-duplication
/// keeps), reading them as every other subcommand does.
fn find(
    args: &ExplainArgs,
    settings: &Settings,
    grammar: Option<&Grammar>,
) -> Result<Option<Explained>> {
    let filter = Filter {
        turn_ids: vec![args.turn_id.clone()],
        ..Filter::default()
    };
    let mut found = None;
    super::turns::read(
        settings,
        &args.input,
        &args.markers,
        filter,
        Some(1),
        "explain TURN_ID",
        |c, sources| {
            let d = &c.detail;
            let source = grammar.cloned().unwrap_or_else(|| d.dialect.grammar());
            let g = crate::grade::grammar_of(&d.turn, grammar.is_some(), &source).into_owned();
            found = Some(explain(
                d.turn.clone(),
                d.extras.clone(),
                &d.support,
                &g,
                sources[d.source].name.clone(),
                c.line,
                Show {
                    text: args.show_text,
                    low_score: args.low_score,
                },
            ));
            Ok(())
        },
    )?;
    Ok(found)
}

/// True when `arg` names something on disk or is spelled like a log path.
fn looks_like_path(arg: &str) -> bool {
    std::path::Path::new(arg).exists()
        || arg.contains('/')
        || crate::input::is_log_name(arg)
        || arg.ends_with(".json")
}

/// Runs `explain`; exit 1 when the turn is not found.
pub fn run(args: &ExplainArgs, settings: &Settings, out: &mut dyn Write) -> Result<i32> {
    let grammar = config::grammar(&args.markers)?;
    if !args.low_score.is_finite() {
        return Err(exit::usage("--low-score must be a number"));
    }
    let clock = config::clock(&args.zone)?;
    // `explain logs/ t-05`: the path came first.
    let reversed = looks_like_path(&args.turn_id)
        && args
            .input
            .paths
            .first()
            .is_some_and(|p| !p.exists() && !looks_like_path(&p.to_string_lossy()));
    if reversed {
        let path = args.input.paths[0].display().to_string();
        let command = crate::render::shell::command(
            &["grounding-audit", "explain"],
            &[&path, &args.turn_id],
            &[],
        );
        return Err(exit::usage(format!(
            "the arguments look reversed: {:?} is a path and {path:?} is not; the turn id comes first: {command}",
            args.turn_id,
        )));
    }
    let Some(mut e) = find(args, settings, grammar.as_ref())? else {
        let hint = if looks_like_path(&args.turn_id) {
            " (the first argument is the turn id, then the paths: grounding-audit explain TURN_ID PATHS…)"
        } else {
            ""
        };
        return Err(exit::failed(format!(
            "turn {:?} not found{hint}",
            args.turn_id
        )));
    };
    if !args.show_tools {
        for t in &mut e.tools {
            t.arguments = None;
            t.result = None;
        }
    }
    e.created_at_local = clock.local.then(|| clock.zone.format(&e.row.created_at));
    let shown = render::explain::Shown {
        color: settings.color,
        clock: &clock,
        text: args.show_text,
        tools: args.show_tools,
    };
    args.format.draw(out, &e, shown)?;
    Ok(exit::SUCCESS)
}

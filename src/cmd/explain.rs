//! `explain`: one turn's full audit. Reads its inputs in order until the
//! first turn with the id (the one de-duplication would keep), then shows
//! the verdict with a reason, the chunks, every marker and what it resolved
//! to, tool calls and telemetry. Reply text only with `--show-text`.
//! This builds the view ([`Explained`]); `render::explain` draws it as text.

use crate::cli::ExplainArgs;
use crate::config::explain::Plan;
use crate::config::{self, Settings};
use crate::exit;
use crate::render;
use anyhow::Result;
use std::io::Write;

pub use crate::view::explain::*;

/// Finds the first turn with the plan's id in its sources (the one
/// de-duplication keeps), reading them as every other subcommand does.
fn find(plan: &Plan) -> Result<Option<Explained>> {
    let grammar = plan.grammar.as_ref();
    let mut found = None;
    super::turns::read(&plan.engine, &plan.sources, Some(1), |c, sources| {
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
                text: plan.show_text,
                low_score: plan.low_score,
            },
        ));
        Ok(())
    })?;
    Ok(found)
}

/// Runs `explain`; exit 1 when the turn is not found.
pub fn run(args: &ExplainArgs, settings: &Settings, out: &mut dyn Write) -> Result<i32> {
    let plan = config::explain::plan(args, settings)?;
    let Some(mut e) = find(&plan)? else {
        let hint = if config::explain::looks_like_path(&plan.turn_id) {
            " (the first argument is the turn id, then the paths: grounding-audit explain TURN_ID PATHS…)"
        } else {
            ""
        };
        return Err(exit::failed(format!(
            "turn {:?} not found{hint}",
            plan.turn_id
        )));
    };
    if !plan.show_tools {
        for t in &mut e.tools {
            t.arguments = None;
            t.result = None;
        }
    }
    let clock = &plan.clock;
    e.created_at_local = clock.local.then(|| clock.zone.format(&e.row.created_at));
    let shown = render::explain::Shown {
        color: settings.color,
        clock,
        text: plan.show_text,
        tools: plan.show_tools,
    };
    plan.format.draw(out, &e, shown)?;
    Ok(exit::SUCCESS)
}

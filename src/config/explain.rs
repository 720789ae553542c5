//! `explain`'s flags resolved once into its [`Plan`].

use super::Settings;
use crate::cli::{ExplainArgs, ExplainFormat};
use crate::exit;
use crate::filter::{Clock, Filter};
use crate::input::Source;
use crate::markers::Grammar;
use crate::pipeline::Engine;
use anyhow::Result;

/// An `explain` run, resolved once from its flags: the turn asked for,
/// where it is looked for, and how it is shown. The command runs it; it
/// sees no flag.
pub struct Plan {
    pub turn_id: String,
    /// `--markers`/`--marker-regex`: the grammar every turn is graded
    /// with, or none for each turn's own.
    pub grammar: Option<Grammar>,
    pub clock: Clock,
    /// `--low-score`.
    pub low_score: f64,
    /// `--show-text`, `--show-tools`.
    pub show_text: bool,
    pub show_tools: bool,
    pub format: ExplainFormat,
    /// An engine that keeps details, its filter the turn's id.
    pub engine: Engine,
    pub sources: Vec<Source>,
}

/// Resolves an `explain` run, refusing what it cannot run with: the
/// grammar, `--low-score`, the zone, arguments given in the wrong order,
/// then the engine and the inputs.
pub fn plan(args: &ExplainArgs, settings: &Settings) -> Result<Plan> {
    let grammar = super::grammar(&args.markers)?;
    if !args.low_score.is_finite() {
        return Err(exit::usage("--low-score must be a number"));
    }
    let clock = super::clock(&args.zone)?;
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
    let filter = Filter {
        turn_ids: vec![args.turn_id.clone()],
        ..Filter::default()
    };
    let (engine, sources) = super::detail_run(
        settings,
        &args.input,
        &args.markers,
        filter,
        "explain TURN_ID",
    )?;
    Ok(Plan {
        turn_id: args.turn_id.clone(),
        grammar,
        clock,
        low_score: args.low_score,
        show_text: args.show_text,
        show_tools: args.show_tools,
        format: args.format,
        engine,
        sources,
    })
}

/// True when `arg` names something on disk or is spelled like a log path.
pub fn looks_like_path(arg: &str) -> bool {
    std::path::Path::new(arg).exists()
        || arg.contains('/')
        || crate::input::is_log_name(arg)
        || arg.ends_with(".json")
}

//! `evidence`'s flags resolved once into its [`Plan`].

use super::Settings;
use crate::cli::EvidenceArgs;
use crate::input::Source;
use crate::markers::Grammar;
use crate::pipeline::Engine;
use crate::render::judge::Judge;
use anyhow::Result;

/// An `evidence` run, resolved once from its flags. The command runs it;
/// it sees no flag.
pub struct Plan {
    /// `--show-text`.
    pub show_text: bool,
    /// `--for JUDGE`: only the units a judge must decide, with the grammar
    /// `--markers` names (none: each turn's own).
    pub judge: Option<(Judge, Option<Grammar>)>,
    /// An engine that keeps details.
    pub engine: Engine,
    pub sources: Vec<Source>,
}

/// Resolves an `evidence` run: the filter, the judge's grammar, then the
/// engine and the inputs, all before anything is written (a judge's
/// document is never begun for inputs that cannot be read).
pub fn plan(args: &EvidenceArgs, settings: &Settings) -> Result<Plan> {
    let filter = super::filter(&args.filter)?;
    let judge = match args.judge {
        Some(j) => Some((j, super::grammar(&args.markers)?)),
        None => None,
    };
    let (engine, sources) =
        super::detail_run(settings, &args.input, &args.markers, filter, "evidence")?;
    Ok(Plan {
        show_text: args.show_text,
        judge,
        engine,
        sources,
    })
}

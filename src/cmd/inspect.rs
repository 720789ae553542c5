//! `inspect`: say what a file is before grading it, and try a map on it.
//! For each file: a sample of its records through the engine's reader
//! ([`crate::pipeline::sample`]); for a turn log, the field survey and the
//! map it proposes on top of any map given ([`crate::pipeline::survey`]);
//! the turns of the sample read by the engine with that map, as the
//! suggested command will read them, and what each marker preset finds in
//! them ([`MarkerGuess`]). The view ([`crate::view::inspect`]) puts it
//! together; `render::inspect` draws it as text.

use crate::accumulate::EvidenceCounts;
use crate::accumulate::guess::MarkerGuess;
use crate::cli::InspectArgs;
use crate::config::{self, Settings};
use crate::dialect::Dialect;
use crate::dialect::known;
use crate::dialect::mapped::{FieldMap, Mapped};
use crate::exit;
use crate::input::{self, Source};
use crate::pipeline::probe::grammar_name;
use crate::pipeline::sample::{Sample, sample};
use crate::pipeline::survey::{About, Survey, survey};
use crate::pipeline::{self, Engine};
use crate::view::inspect::{self as view, FileReport, Read};
use anyhow::{Context, Result};
use std::io::Write;

/// Runs `inspect`.
pub fn run(args: &InspectArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let given = config::map_args(&args.maps)?;
    if !given.is_empty() {
        // A map that does not compile is a usage error before any reading.
        Mapped::new(given.clone()).map_err(exit::usage)?;
    }
    let expanded = input::expand(&args.files, &crate::config::reads_by_content)?;
    let limit = (!args.all).then_some(args.sample);
    let engine = Engine {
        threads: settings.threads,
        max_lines: limit,
        silent: true,
        detail: true,
        // A mapping that resolves nowhere is reported, not an error.
        deferred: true,
        warn_limit: 0,
        ..Engine::default()
    };
    let mut reports = Vec::new();
    for src in &expanded.sources {
        reports.push(inspect(&engine, src, limit, &given)?);
    }
    args.format.draw(out, &reports)
}

/// What `inspect` says about one source.
fn inspect(
    engine: &Engine,
    src: &Source,
    limit: Option<u64>,
    given: &FieldMap,
) -> Result<FileReport> {
    let sample = sample(engine, src, limit).with_context(|| src.name.clone())?;
    let head = input::head(src, known::HEAD).unwrap_or_default();
    if let Some(k) = known::recognise(&head).filter(|_| sample.is_turn_log()) {
        return Ok(view::recognised(&src.name, &sample, k));
    }
    if let Some(r) = view::unreadable(&src.name, &sample) {
        return Ok(r);
    }
    let surveyed: Option<Survey> = sample.is_turn_log().then(|| {
        let about = About {
            name: &src.name,
            modified: sample.modified,
        };
        survey(&sample.records, given, &about)
    });
    let map = match surveyed.as_ref().map(|s| &s.map) {
        Some(m) if !m.is_empty() => {
            // Made once per file, like the built-in dialects it stands beside.
            let mapped = Mapped::new(m.clone()).map_err(exit::usage)?;
            Some(&*Box::leak(Box::new(mapped)))
        }
        _ => None,
    };
    match read(engine, src, map, &sample) {
        Ok(read) => Ok(view::build(
            &src.name,
            &sample,
            surveyed,
            !given.is_empty(),
            read,
        )),
        Err(e) => Ok(view::failed(&src.name, &sample, &format!("{e:#}"))),
    }
}

/// The turns of the sample, read by the engine exactly as the suggested
/// command will (with `map`), and what each preset finds in them.
fn read(
    engine: &Engine,
    src: &Source,
    map: Option<&'static Mapped>,
    sample: &Sample,
) -> Result<Read> {
    let engine = Engine {
        map,
        ..engine.clone()
    };
    let mut found = (MarkerGuess::default(), EvidenceCounts::default());
    let stats = pipeline::run(
        &engine,
        std::slice::from_ref(src),
        None,
        Default::default,
        |g| {
            pipeline::Accumulator::merge(&mut found, g);
            Ok(())
        },
    )?;
    let (guess, evidence) = found;
    let default = match map {
        Some(m) => m.grammar(),
        None => sample.dialect.grammar(),
    };
    Ok(Read {
        stats,
        guess,
        evidence,
        default_grammar: grammar_name(&default),
        unresolved: map.map(|m| m.unresolved()).unwrap_or_default(),
    })
}

//! `report`: one page of graded rows, newest first, with the page-scoped
//! rollup; or with `--all`, every matching row streamed in input order.

use crate::accumulate::{PageHeap, Rollup};
use crate::cli::{ReportArgs, ReportFormat};
use crate::config::report::Plan;
use crate::config::{self, Settings};
use crate::pipeline::{self, Accumulator, Graded};
use crate::render::report::{Exporter, Options};
use anyhow::Result;
use std::io::Write;

/// Runs `report`.
pub fn run(args: &ReportArgs, settings: &Settings, out: &mut dyn Write) -> Result<()> {
    let plan = config::report::plan(args, settings)?;
    let Plan {
        engine, sources, ..
    } = &plan;
    let bar = settings.progress_bar(crate::input::total_bytes(sources));
    if plan.all {
        return run_all(
            plan.format,
            plan.options(),
            engine,
            sources,
            bar.as_ref(),
            out,
        );
    }
    let cap = PageHeap::cap_for(plan.limit, plan.conversation);
    let mut page = PageHeap::new(cap, None);
    let input = pipeline::run(
        engine,
        sources,
        bar.as_ref(),
        || PageHeap::new(cap, plan.after.clone()),
        |a| {
            page.merge(a);
            Ok(())
        },
    )?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some((path, options)) = &plan.partial {
        let doc = crate::partial::Partial::of_report(&page, &input, options.clone());
        return crate::partial::write(path, doc, engine, out);
    }
    if page.matching == 0 {
        super::hints::Hints::of(&engine.filter).explain_nothing(engine, sources)?;
    }
    crate::deliver::report::page(
        out,
        page,
        &input,
        &crate::deliver::report::PageOutput {
            format: plan.format,
            limit: plan.limit,
            conversation: plan.conversation,
            dedupe: engine.dedupe,
            options: plan.options(),
            merged: false,
        },
    )
}

/// Rows of one block rendered in the worker, plus their rollup.
struct Rendered<'e> {
    exporter: &'e dyn Exporter,
    bytes: Vec<u8>,
    rollup: Rollup,
}

impl Accumulator for Rendered<'_> {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        self.exporter.rows(&mut self.bytes, rows);
        for g in rows {
            self.rollup.add(&g.row);
        }
    }
    fn merge(&mut self, later: Self) {
        self.bytes.extend_from_slice(&later.bytes);
        self.rollup.merge(&later.rollup);
    }
}

/// `--all`: every matching row streamed in input order, then the rollup.
fn run_all(
    format: ReportFormat,
    options: Options<'_>,
    engine: &pipeline::Engine,
    sources: &[crate::input::Source],
    bar: Option<&indicatif::ProgressBar>,
    out: &mut dyn Write,
) -> Result<()> {
    let exporter = format.exporter(options);
    exporter.open(out)?;
    let mut total = Rollup::default();
    let mut first = true;
    let make = || Rendered {
        exporter: exporter.as_ref(),
        bytes: Vec::new(),
        rollup: Rollup::default(),
    };
    let input = pipeline::run(engine, sources, bar, make, |block| {
        out.write_all(exporter.block(&block.bytes, first))?;
        first &= block.bytes.is_empty();
        total.merge(&block.rollup);
        Ok(())
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    exporter.close(out, &total, &input)
}

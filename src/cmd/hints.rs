//! When filters select nothing because a value was spelled differently
//! from the one in the log (`--agent billing-bot` where the log says
//! `billing_bot` or `Billing-Bot`), say which values exist. Runs a second,
//! quiet pass over the input only when nothing matched, keeping only the
//! values that differ from one asked for in case or separators, so its
//! memory is bounded by those.

use crate::filter::{Filter, fold, near_misses};
use crate::input::Source;
use crate::pipeline::{self, Accumulator, Engine, Graded};
use anyhow::Result;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The values a filter asked for, by field.
#[derive(Debug, Clone, Default)]
pub struct Hints {
    fields: Arc<[(&'static str, Vec<String>); 4]>,
}

/// Values seen in the input that fold to an asked value.
struct Seen {
    hints: Hints,
    folded: Arc<[Vec<String>; 4]>,
    found: [BTreeSet<String>; 4],
}

impl Accumulator for Seen {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            let r = &g.row;
            let values = [
                Some(&*r.agent_id),
                Some(&*r.channel),
                r.model.as_deref(),
                r.conversation_id.as_ref().map(|c| c.as_str()),
            ];
            for (i, v) in values.into_iter().enumerate() {
                if let Some(v) = v
                    && !self.hints.fields[i].1.is_empty()
                    && !self.found[i].contains(v)
                    && self.folded[i].contains(&fold(v))
                {
                    self.found[i].insert(v.to_owned());
                }
            }
        }
    }
    fn merge(&mut self, later: Self) {
        for (a, b) in self.found.iter_mut().zip(later.found) {
            a.extend(b);
        }
    }
}

impl Hints {
    /// The values `filter` asks for.
    pub fn of(filter: &Filter) -> Hints {
        Hints {
            fields: Arc::new([
                ("agent", filter.agents.clone()),
                ("channel", filter.channels.clone()),
                ("model", filter.models.clone()),
                ("conversation", filter.conversations.clone()),
            ]),
        }
    }

    fn is_empty(&self) -> bool {
        self.fields.iter().all(|(_, v)| v.is_empty())
    }

    /// The lines to print when nothing matched: one per asked value that
    /// has close relatives in the input.
    pub fn lines(&self, engine: &Engine, sources: &[Source]) -> Result<Vec<String>> {
        // Stdin cannot be read twice.
        if self.is_empty() || sources.iter().any(|s| s.path.is_none()) {
            return Ok(Vec::new());
        }
        let mut quiet = engine.clone();
        quiet.filter = Filter::default();
        quiet.silent = true;
        quiet.max_invalid = None;
        quiet.strict = false;
        let folded: Arc<[Vec<String>; 4]> = Arc::new(std::array::from_fn(|i| {
            self.fields[i].1.iter().map(|x| fold(x)).collect()
        }));
        let mut all = Seen {
            hints: self.clone(),
            folded: folded.clone(),
            found: Default::default(),
        };
        let make = || Seen {
            hints: self.clone(),
            folded: folded.clone(),
            found: Default::default(),
        };
        pipeline::run(&quiet, sources, None, make, |s| {
            all.merge(s);
            Ok(())
        })?;
        let mut out = Vec::new();
        for (i, (name, asked)) in self.fields.iter().enumerate() {
            for (a, close) in near_misses(asked, all.found[i].iter().map(String::as_str)) {
                let list: Vec<String> = close.iter().map(|c| format!("{c:?}")).collect();
                out.push(format!(
                    "note: no turn has {name} {a:?}; the input has {} (values differ in case or separators)",
                    list.join(", ")
                ));
            }
        }
        Ok(out)
    }

    /// Prints [`Hints::lines`] on stderr.
    pub fn explain_nothing(&self, engine: &Engine, sources: &[Source]) -> Result<()> {
        for l in self.lines(engine, sources)? {
            pipeline::warn(None, &l);
        }
        Ok(())
    }
}

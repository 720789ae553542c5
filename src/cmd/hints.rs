//! When filters select nothing because a value was spelled differently
//! from the one in the log (`--agent billing-bot` where the log says
//! `billing_bot` or `Billing-Bot`), say which values exist; when the time
//! window holds no turn of the input, say when the input's turns are. Runs a second,
//! quiet pass over the input only when nothing matched, keeping only the
//! values that differ from one asked for in case or separators, so its
//! memory is bounded by those.

use crate::filter::{Filter, fold, near_misses};
use crate::input::Source;
use crate::pipeline::{self, Accumulator, Engine, Graded};
use anyhow::Result;
use chrono::{DateTime, Utc};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The values a filter asked for, by field.
#[derive(Debug, Clone, Default)]
pub struct Hints {
    fields: Arc<[(&'static str, Vec<String>); 4]>,
    /// The time window asked for (`--from`, `--to`, `--since`).
    window: (Option<DateTime<Utc>>, Option<DateTime<Utc>>),
}

/// Values seen in the input that fold to an asked value.
struct Seen {
    hints: Hints,
    folded: Arc<[Vec<String>; 4]>,
    found: [BTreeSet<String>; 4],
    /// The first and last time of every turn read, and how many fell in
    /// the window.
    span: Option<(DateTime<Utc>, DateTime<Utc>)>,
    in_window: u64,
}

impl Accumulator for Seen {
    fn add_block(&mut self, rows: &[Graded<'_>]) {
        for g in rows {
            let r = &g.row;
            let t = r.created_at;
            self.span = Some(self.span.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
            let (from, to) = self.hints.window;
            self.in_window += u64::from(from.is_none_or(|f| t >= f) && to.is_none_or(|e| t < e));
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
        self.span = match (self.span, later.span) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (x, y) => x.or(y),
        };
        self.in_window += later.in_window;
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
            window: (filter.from, filter.to),
        }
    }

    fn is_empty(&self) -> bool {
        self.fields.iter().all(|(_, v)| v.is_empty())
            && self.window.0.is_none()
            && self.window.1.is_none()
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
        let make = || Seen {
            hints: self.clone(),
            folded: folded.clone(),
            found: Default::default(),
            span: None,
            in_window: 0,
        };
        let mut all = make();
        pipeline::run(&quiet, sources, None, make, |s| {
            all.merge(s);
            Ok(())
        })?;
        let mut out = Vec::new();
        if let Some((first, last)) = all.span
            && all.in_window == 0
            && (self.window.0.is_some() || self.window.1.is_some())
        {
            let bound = |t: Option<DateTime<Utc>>| {
                t.map_or_else(|| "…".to_owned(), |t| crate::model::format_time(&t))
            };
            out.push(format!(
                "note: no turn falls in the window {} to {}; the input's turns run from {} to {}",
                bound(self.window.0),
                bound(self.window.1),
                crate::model::format_time(&first),
                crate::model::format_time(&last)
            ));
        }
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

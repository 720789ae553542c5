//! Which turns a command looks at: `--from`, `--to`, `--agent`, `--channel`,
//! `--verdict` and (for `explain`) one turn id. Resolved once from the
//! command line; applied to every turn.

use crate::model::{Row, Turn, Verdict};
use chrono::{DateTime, NaiveDate, Utc};

/// The resolved filter. Empty lists match everything.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Inclusive lower bound on `created_at`.
    pub from: Option<DateTime<Utc>>,
    /// Exclusive upper bound on `created_at`.
    pub to: Option<DateTime<Utc>>,
    pub agents: Vec<String>,
    pub channels: Vec<String>,
    pub verdicts: Vec<Verdict>,
    pub turn_id: Option<String>,
    /// Only turns Orbit's `require_citation` would refuse (`report --would-block`).
    pub would_block: bool,
}

/// Parses `--from`/`--to`: RFC 3339, or a date `YYYY-MM-DD` meaning UTC midnight.
pub fn parse_bound(s: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Ok(d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc());
    }
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            format!(
                "{s:?} is neither an RFC 3339 time (2026-08-02T10:15:00Z) nor a date (2026-08-02)"
            )
        })
}

impl Filter {
    /// Checks what can be decided before grading.
    pub fn keep_turn(&self, t: &Turn<'_>) -> bool {
        self.from.is_none_or(|f| t.created_at >= f)
            && self.to.is_none_or(|to| t.created_at < to)
            && (self.agents.is_empty() || self.agents.iter().any(|a| *a == *t.agent_id))
            && (self.channels.is_empty() || self.channels.iter().any(|c| *c == *t.channel))
            && self
                .turn_id
                .as_ref()
                .is_none_or(|id| id == t.turn_id.as_str())
    }

    /// Checks what needs the verdict.
    pub fn keep_row(&self, r: &Row<'_>) -> bool {
        (self.verdicts.is_empty() || self.verdicts.contains(&r.verdict))
            && (!self.would_block || crate::grade::row_refused(r))
    }
}

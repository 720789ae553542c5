//! agentfootprint event streams (being built): detection, grouping events into turns.

use crate::model::Turn;
use crate::pipeline::InputStats;

/// True when the first block looks like an agentfootprint export.
pub fn sniff(_first: &[u8]) -> bool {
    false
}

/// Turns read from one whole agentfootprint source.
pub struct Document<'a> {
    pub turns: Vec<(Turn<'a>, u64)>,
    pub stats: InputStats,
    pub invalid: Vec<(u64, String)>,
}

/// Reads a whole agentfootprint source.
pub fn read<'a>(_data: &'a [u8], _agent: Option<&str>) -> Result<Document<'a>, String> {
    Err("agentfootprint input is not supported yet".into())
}

/// Turns with what `explain` shows beyond the row.
pub fn explain_turns<'a>(
    _data: &'a [u8],
    _agent: Option<&str>,
) -> Result<Vec<(Turn<'a>, crate::model::Extras)>, String> {
    Err("agentfootprint input is not supported yet".into())
}

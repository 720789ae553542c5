//! The view models: one per subcommand that draws more than rows, built
//! from accumulated state or a graded turn and drawn by `render`, which
//! takes views only. A view belongs neither to its command (which wires)
//! nor to a renderer (which draws).

pub mod check;
pub mod explain;
pub mod inspect;
pub mod judge;
pub mod report;
pub mod summary;

//! A finished run's documents, drawn and written to their targets: the one
//! stage that `summary`, `report`, `check` and `merge` share after the
//! engine. It takes resolved options (`config`), never the command line,
//! so no command calls another to draw what it shares with it.

pub mod check;
pub mod report;
pub mod summary;

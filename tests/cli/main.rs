//! One integration-test binary, a module per subcommand or theme. Every test
//! runs the real binary.

mod common;
mod generate;
mod report;

//! One integration-test binary, a module per subcommand or theme. Every test
//! runs the real binary.

mod agentfootprint;
mod check;
mod cli;
mod common;
mod determinism;
mod explain;
mod generate;
mod markers;
mod realdata;
mod report;
mod summary;

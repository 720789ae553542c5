//! One integration-test binary, a module per subcommand or theme. Every test
//! runs the real binary.

mod agentfootprint;
mod common;
mod report;

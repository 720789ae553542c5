//! One integration-test binary, a module per subcommand or theme. Every test
//! runs the real binary, except the property tests (`props`), which drive the
//! library engine directly.

mod action;
mod agentfootprint;
mod architecture;
mod bounds;
mod check;
mod cli;
mod common;
mod completeness;
mod convert;
mod corpus;
mod determinism;
mod docs;
mod edges;
mod exchange;
mod explain;
mod formats;
mod generate;
mod hints_eval;
mod hostile;
mod html;
mod inspect;
mod judges;
mod langs;
mod map;
mod markers;
mod message_text;
mod metrics;
mod nothing_lost;
mod privacy;
mod props;
mod quotes;
mod realdata;
mod regress;
mod report;
mod roles;
mod run_ops;
mod safety;
mod summary;
mod support;
mod traces;
mod triage;
mod wrapped;

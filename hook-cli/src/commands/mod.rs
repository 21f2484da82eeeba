//! One module per subcommand: its clap arguments and its `exec`, which turns them into options
//! for `ops`, calls `ops` and hands the result to `ui`. No command imports another.

pub(crate) mod relay;

//! One file per subcommand: its clap arguments and `exec`, which turns them into options for
//! `ops`, calls `ops`, and hands the result to `ui`. No command file imports another.

pub(crate) mod doctor;
pub(crate) mod log;
pub(crate) mod stats;

//! Everything `hook` prints: the [`Printer`] handed to every command (verbosity, colour, the
//! escaping of control characters), tables, shell quoting, configuration diagnostics, and the
//! one place where a command's [`Status`] becomes an exit code.
//!
//! `commands` print through here; `ops` never print (tidy checks it): they return values, and
//! a command hands them to `ui`.

pub(crate) mod agents;
pub(crate) mod diagnostics;
pub(crate) mod doctor;
pub(crate) mod exit;
pub(crate) mod expectations;
pub(crate) mod guard;
pub(crate) mod list;
pub(crate) mod log;
mod printer;
pub(crate) mod relay;
pub(crate) mod replay;
pub(crate) mod review;
pub(crate) mod run;
pub(crate) mod stats;
pub(crate) mod table;
pub(crate) mod terminal;
pub(crate) mod test;
pub(crate) mod trust;
pub(crate) mod validate;

pub(crate) use exit::Status;
pub(crate) use printer::{Printer, Verbosity, colour, say, say_err};

/// The ending of a noun counted `n` times: "1 hook", "2 hooks".
pub(crate) fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}

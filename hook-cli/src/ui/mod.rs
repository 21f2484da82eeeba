//! Everything `hook` prints: the [`Printer`] handed to every command (verbosity, colour, the
//! escaping of control characters), tables, shell quoting, configuration diagnostics, and the
//! one place where a command's [`Status`] becomes an exit code.
//!
//! `commands` print through here; `ops` never print (tidy checks it): they return values, and
//! a command hands them to `ui`.

pub(crate) mod diagnostics;
pub(crate) mod exit;
pub(crate) mod hints;
mod printer;
pub(crate) mod quote;
pub(crate) mod replay;
pub(crate) mod table;
pub(crate) mod terminal;

pub(crate) use exit::Status;
pub(crate) use printer::{Printer, Verbosity, say, say_err};
pub(crate) use terminal::{errln, outln};

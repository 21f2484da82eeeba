//! What is said about the agent a command chose by itself (see [`crate::ops::agents`]).

use super::{Printer, Verbosity, say_err};
use crate::ops::agents::{Found, described};

/// The agent a command took because it was given none: one note on stderr (stdout may be
/// `--json`), not with `--quiet`.
pub(crate) fn found(printer: &Printer, found: &Found) {
    if printer.verbosity() == Verbosity::Quiet {
        return;
    }
    let files: Vec<String> = found
        .files
        .iter()
        .map(|path| path.display().to_string())
        .collect();
    let relay = if found.location.relay {
        "the relay's hooks for "
    } else {
        ""
    };
    say_err!(
        printer,
        "note: no --agent given: reading {relay}{}, the one agent with hook files here ({})",
        described(found.location.dialect, false),
        files.join(", ")
    );
}

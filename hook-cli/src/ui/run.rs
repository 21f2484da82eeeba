//! What `hook run` prints: status messages and warnings on stderr, the outcome JSON on stdout,
//! then (stdout closed) the failures of async hooks.

use hook_protocol::{Outcome, RunStatus};
use hook_trust::TrustView;

use crate::ops::dispatch::DispatchReport;

use super::{Printer, Status, say_err, trust::skip_warnings};

/// `hook run`'s [`DispatchReport`]: the outcome as pretty JSON.
pub(crate) struct RunReport<'p> {
    /// Where it all goes.
    pub(crate) printer: &'p Printer,
}

impl DispatchReport for RunReport<'_> {
    type Done = Status;

    fn wants_status_messages(&self) -> bool {
        self.printer.stderr_is_terminal()
    }

    fn status_message(&mut self, message: &str) {
        say_err!(self.printer, "{message}");
    }

    fn outcome(&mut self, view: &TrustView, outcome: &Outcome) -> anyhow::Result<Status> {
        for warning in skip_warnings(view, outcome) {
            say_err!(self.printer, "{warning}");
        }
        self.printer
            .exact_line(&serde_json::to_string_pretty(outcome)?);
        Ok(Status::Success)
    }

    fn outcome_complete(&mut self) {
        self.printer.close_stdout();
    }

    fn async_failed(&mut self, key: &str, status: RunStatus, error: &str) {
        let word = match status {
            RunStatus::TimedOut => "timed out",
            _ => "failed",
        };
        say_err!(self.printer, "async hook {key} {word}: {error}");
    }

    fn warning(&mut self, warning: &str) {
        say_err!(self.printer, "{warning}");
    }
}

/// A dispatch a signal ended: every running hook was killed.
pub(crate) fn interrupted(printer: &Printer, name: &str, number: u8) -> Status {
    say_err!(
        printer,
        "hook: {name} received; every running hook was killed"
    );
    Status::Signal(number)
}

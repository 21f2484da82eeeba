//! The one place where what a command ended with becomes an exit code.

use std::process::ExitCode;

use super::{Printer, Verbosity};

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Status {
    /// Exit 0: done; for `validate` and `test`, the output is valid, the hook behaved.
    Success,
    /// Exit 1: what was checked failed (an invalid output, a failed expectation, a doctor error).
    Failed,
    /// Exit 2: the relay's block, the one answer both agents read from the exit code alone.
    Block,
    /// Exit 128 + the signal: `hook run` stopped by SIGINT, SIGTERM or SIGHUP.
    Signal(u8),
    /// An exit code the agent's own hook output chose (the relay passes it on).
    Code(u8),
}

impl Status {
    /// The process exit code.
    pub(crate) fn code(self) -> ExitCode {
        ExitCode::from(self.number())
    }

    /// The exit code as a number.
    pub(crate) fn number(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Failed => 1,
            Status::Block => 2,
            Status::Signal(number) => 128u8.saturating_add(number),
            Status::Code(code) => code,
        }
    }

    /// `Failed` when either failed, else `self`: the status of several checks.
    pub(crate) fn and(self, other: Status) -> Status {
        if self == Status::Success { other } else { self }
    }
}

/// A command's exit code, or its error on stderr and exit 1 (usage errors exit 2 in clap).
pub(crate) fn finish(printer: &Printer, result: anyhow::Result<Status>) -> ExitCode {
    match result {
        Ok(status) => status.code(),
        Err(error) => {
            report_error(printer, &error);
            ExitCode::FAILURE
        }
    }
}

/// [`finish`] as a number, for in-process tests.
#[cfg(test)]
pub(crate) fn finish_number(printer: &Printer, result: anyhow::Result<Status>) -> u8 {
    match result {
        Ok(status) => status.number(),
        Err(error) => {
            report_error(printer, &error);
            1
        }
    }
}

/// The error on stderr: one line, or with `--verbose` a line a cause.
fn report_error(printer: &Printer, error: &anyhow::Error) {
    if printer.verbosity() == Verbosity::Verbose {
        let mut causes = error.chain();
        if let Some(first) = causes.next() {
            printer.err_line(format_args!("error: {first}"));
        }
        for cause in causes {
            printer.err_line(format_args!("  caused by: {cause}"));
        }
    } else {
        printer.err_line(format_args!("error: {}", error_chain(error)));
    }
}

/// `error` and its causes joined by `: ` (as `{:#}` does), each cause said once: many errors
/// both show their source in their message and return it from `source()` (`StoreError`'s
/// "cannot lock ...: {source}"), which `{:#}` would print twice.
pub(crate) fn error_chain(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let cause = cause.to_string();
        if text.ends_with(&cause) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&cause);
    }
    text
}

//! A configuration's diagnostics, each on its own stderr line.

use hook_config::{Diagnostic, Severity};

use super::Printer;

/// Each diagnostic on its own stderr line, labelled `error:` or `warning:`.
pub(crate) fn print(printer: &Printer, diagnostics: &[Diagnostic]) {
    for diagnostic in diagnostics {
        let label = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        printer.err_line(format_args!("{label}: {diagnostic}"));
    }
}

//! What `hook test` prints: the matrix's table and verdict, or its JSON report.

use crate::ops::matrix::Report;

use super::{Printer, say, say_err};

/// The reports as a table, a run a line with what it did under it.
pub(crate) fn table(printer: &Printer, reports: &[Report]) {
    say!(
        printer,
        "{:<14} {:<20} {:<8} {:>4} {:>7}  {:<10} decision",
        "case",
        "event",
        "tool",
        "exit",
        "ms",
        "output"
    );
    for r in reports {
        let exit = r.exit_code.map_or("-".to_owned(), |c| c.to_string());
        say!(
            printer,
            "{:<14} {:<20} {:<8} {:>4} {:>7}  {:<10} {}",
            r.case,
            r.event,
            r.tool.as_deref().unwrap_or("-"),
            exit,
            r.duration_ms,
            r.output,
            r.decision
        );
        if !r.filled.is_empty() {
            say!(
                printer,
                "  filled in (absent from --input): {}",
                r.filled.join(", ")
            );
        }
        if let Some(input) = &r.updated_input {
            say!(printer, "  rewrites the input to: {input}");
        }
        if let Some(context) = &r.additional_context {
            say!(printer, "  adds context: {context}");
        }
        if let Some(message) = &r.system_message {
            say!(printer, "  tells the user: {message}");
        }
        if let Some(reason) = &r.stop {
            say!(printer, "  stops the agent: {reason}");
        }
        if let Some(problem) = &r.problem {
            say!(printer, "  problem: {problem}");
        }
    }
}

/// The verdict after the table: warnings on stderr, then `ok` or why it failed.
pub(crate) fn verdict(printer: &Printer, reports: &[Report], failed: bool, warned: bool) {
    for report in reports {
        for warning in &report.warnings {
            say_err!(
                printer,
                "warning: {} ({}): {warning}",
                report.case,
                report.event
            );
        }
    }
    let verdict = if failed && reports.iter().all(|r| r.problem.is_none()) {
        "FAILED: the hook's output has fields the agent ignores (--strict; see warnings above)"
    } else if failed {
        "FAILED: the hook misbehaved (see problems above)"
    } else if warned {
        "ok, with warnings: fields the agent ignores (see above; --strict fails on them)"
    } else {
        "ok"
    };
    say!(printer);
    say!(printer, "{verdict}");
}

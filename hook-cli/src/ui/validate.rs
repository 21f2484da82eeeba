//! What `hook validate` prints: a verdict line (or a `--json` report) per output, the native
//! handlers an agent's own settings file must not hold.

use hook_protocol::{Dialect, ValidateError};
use serde_json::{Value, json};

use crate::ops::validate::{ConfigCheck, OutputCheck};

use super::{Printer, Status, say, say_err};

/// `1 warning`, `2 warnings`.
pub(crate) fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The verdict on one output in text: warnings on stderr, the verdict on stdout.
pub(crate) fn output_text(
    printer: &Printer,
    origin: &str,
    dialect: Dialect,
    check: &OutputCheck,
    strict: bool,
) {
    for warning in &check.warnings {
        say_err!(printer, "warning: {warning}");
    }
    let event = &check.event;
    let warnings = check.warnings.len();
    match &check.result {
        Ok(()) if check.failed(strict) => say!(
            printer,
            "{origin}: invalid {dialect} {event} output: {} (--strict)",
            count(warnings, "warning")
        ),
        Ok(()) if warnings == 0 => say!(printer, "{origin}: valid {dialect} {event} output"),
        Ok(()) => say!(
            printer,
            "{origin}: valid {dialect} {event} output, with {} ({dialect} ignores unknown fields)",
            count(warnings, "warning")
        ),
        Err(ValidateError::Invalid { issues, .. }) => {
            say!(printer, "{origin}: invalid {dialect} {event} output");
            for issue in issues {
                say!(printer, "  {issue}");
            }
        }
        Err(error) => say!(printer, "{origin}: {error}"),
    }
}

/// The `--json` report of one output.
pub(crate) fn output_report(
    origin: &str,
    dialect: Dialect,
    check: &OutputCheck,
    strict: bool,
) -> Value {
    let errors: Vec<Value> = match &check.result {
        Ok(()) => Vec::new(),
        Err(ValidateError::Invalid { issues, .. }) => issues
            .iter()
            .map(|issue| {
                json!({
                    "pointer": issue.pointer,
                    "message": issue.message,
                    "hint": issue.hint,
                })
            })
            .collect(),
        Err(error) => vec![json!({
            "pointer": "",
            "message": error.to_string(),
            "hint": null,
        })],
    };
    let warnings: Vec<Value> = check
        .warnings
        .iter()
        .map(|warning| {
            json!({
                "pointer": warning.pointer,
                "field": warning.name,
                "suggestion": warning.suggestion,
                "message": warning.to_string(),
            })
        })
        .collect();
    json!({
        "file": origin,
        "dialect": dialect,
        "event": check.event,
        "valid": !check.failed(strict),
        "strict": strict,
        "errors": errors,
        "warnings": warnings,
    })
}

/// The `--json` report of an output that could not be checked at all (empty stdin, an
/// unreadable file, an unknown event): the same shape, `valid: false`.
pub(crate) fn error_report(
    origin: &str,
    dialect: Dialect,
    event: Option<&str>,
    strict: bool,
    message: &str,
) -> Value {
    json!({
        "file": origin,
        "dialect": dialect,
        "event": event,
        "valid": false,
        "strict": strict,
        "errors": [{"pointer": "", "message": message, "hint": null}],
        "warnings": [],
    })
}

/// A `--json` report: pretty, or on one line (several files).
pub(crate) fn print_report(printer: &Printer, report: &Value, compact: bool) -> anyhow::Result<()> {
    let text = if compact {
        serde_json::to_string(report)?
    } else {
        serde_json::to_string_pretty(report)?
    };
    printer.exact_line(&text);
    Ok(())
}

/// `hook validate --config`: the diagnostics, each native handler an agent's own file must not
/// hold, or the verdict.
pub(crate) fn config(
    printer: &Printer,
    dialect: Dialect,
    file: &std::path::Path,
    check: &ConfigCheck,
) -> Status {
    super::diagnostics::print(printer, &check.hooks.diagnostics);
    if check.hooks.has_errors() {
        return Status::Failed;
    }
    if let Some((agent, native)) = &check.foreign {
        // The agent reads this file itself: a handler type only this engine runs would make
        // it ignore (Claude Code) or refuse (Codex) the whole file, and every setting in it.
        for &index in native {
            let hook = &check.hooks.hooks[index];
            say_err!(
                printer,
                "error: {}:{}:{}: a `native` {} handler in {}'s own settings: {} does not run native handlers and would ignore or refuse this whole file (every other hook and setting in it with it). Put native hooks in the relay's file (`{}/hook-relay/{}`) and let {} call `hook relay` (`hook relay install --dialect {dialect} --move` moves them)",
                file.display(),
                hook.position.line,
                hook.position.column,
                hook.event,
                agent.name,
                agent.name,
                agent.home_dir,
                agent.config_file,
                agent.name,
            );
        }
        if !native.is_empty() {
            return Status::Failed;
        }
    }
    say!(
        printer,
        "{}: valid {dialect} hooks configuration ({} handlers)",
        file.display(),
        check.hooks.hooks.len()
    );
    Status::Success
}

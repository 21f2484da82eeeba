//! What `hook log` prints: one dispatch a header line and a line per run (JSON lines, exactly
//! as recorded, with `--json`), and the journal lines that could not be read.
//!
//! Times are shown in UTC, as recorded. Colour only when stdout is a terminal and `NO_COLOR` is
//! unset ([`Printer::paint`]); every value is escaped before colour codes are put around it.

use anyhow::Result;
use hook_exec::journal::Record;
use hook_protocol::{Decision, RunStatus};

use super::colour::{BOLD, DIM, GREEN, RED, YELLOW};
use super::{Printer, say, say_err};
use crate::ops::journal::{ReadProblems, Selection, decision_name, skip_name, status_name, tail};

/// The journal files and lines that could not be read, as warnings on stderr: each file, then
/// one line per file naming its first unreadable line.
pub(crate) fn read_problems(printer: &Printer, problems: &ReadProblems) {
    for (file, why) in &problems.files {
        say_err!(printer, "warning: cannot read {}: {why}", file.display());
    }
    for (file, (count, first)) in &problems.lines {
        say_err!(
            printer,
            "warning: {count} journal line(s) of {} could not be read and are left out (first: {first})",
            file.display()
        );
    }
}

/// The selected dispatches newest first, or a line saying why there are none (`--json`: no
/// line). `hook` is `--hook`: only its runs are shown.
pub(crate) fn newest_first(
    printer: &Printer,
    selection: &Selection,
    json: bool,
    hook: Option<&str>,
) -> Result<()> {
    if selection.records.is_empty() && !json {
        if selection.no_journal {
            say!(
                printer,
                "no journal yet in {} (hook run and hook relay write it; HOOK_JOURNAL=off turns it off)",
                selection
                    .dirs
                    .iter()
                    .map(|dir| dir.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            );
        } else {
            say!(printer, "no dispatch matches");
        }
    }
    for record in selection.records.iter().rev() {
        dispatch(printer, record, json, hook)?;
    }
    Ok(())
}

fn status_colour(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Ok | RunStatus::Async => GREEN,
        RunStatus::Blocked | RunStatus::Stopped => BOLD,
        RunStatus::Skipped => YELLOW,
        _ => RED,
    }
}

/// One dispatch: a header line, then a line per run (only `hook`'s when given); with `json`,
/// the record on one line.
pub(crate) fn dispatch(
    printer: &Printer,
    record: &Record,
    json: bool,
    hook: Option<&str>,
) -> Result<()> {
    if json {
        printer.exact_line(&serde_json::to_string(record)?);
        return Ok(());
    }
    let time = record.time.replacen('T', " ", 1);
    let decision = decision_name(record.decision);
    let decision_colour = match record.decision {
        Decision::Block => RED,
        Decision::Continue => DIM,
        _ => GREEN,
    };
    let mut header = format!(
        "{} {} {} {}",
        printer.paint(DIM, &time),
        printer.paint(BOLD, &record.event.to_string()),
        record.dialect,
        printer.paint(decision_colour, &decision),
    );
    if record.rewritten {
        header.push_str(&printer.paint(YELLOW, " rewritten"));
    }
    if let Some(tool) = &record.tool {
        header.push(' ');
        header.push_str(&printer.paint(BOLD, tool));
    }
    if let Some(summary) = &record.summary {
        header.push_str(&format!(" {}", printer.paint("", &format!("`{summary}`"))));
    }
    let session = if record.session_id.is_empty() {
        String::new()
    } else {
        format!(" session {}", record.session_id)
    };
    header.push_str(&printer.paint(DIM, &format!("  ({}{session})", record.front)));
    printer.exact_line(&header);
    if let Some(reason) = &record.reason
        && record.decision != Decision::Continue
    {
        printer.exact_line(&format!("    reason: {}", printer.paint("", reason)));
    }
    for run in &record.runs {
        if hook.is_some_and(|key| key != run.key) {
            continue;
        }
        let mut line = format!(
            "  {} {}",
            printer.paint(
                status_colour(run.status),
                &format!("{:<9}", status_name(run.status))
            ),
            printer.paint("", &run.key)
        );
        if run.status == RunStatus::Skipped {
            line.push_str(&printer.paint(YELLOW, &format!(" ({})", skip_name(run))));
        }
        if let Some(code) = run.exit_code {
            line.push_str(&format!(" exit {code}"));
        }
        if let Some(ms) = run.duration_ms {
            line.push_str(&format!(" {ms} ms"));
        }
        if run.quiet {
            line.push_str(&printer.paint(DIM, " (no effect)"));
        }
        printer.exact_line(&line);
        let failed = matches!(run.status, RunStatus::Failed | RunStatus::TimedOut);
        if (failed || run.status == RunStatus::Skipped)
            && let Some(error) = &run.error
        {
            printer.exact_line(&format!("      {}", printer.paint(DIM, error)));
        }
        // Every run's stderr tail: the agents drop it on exit 0, where a broken guard says why.
        if let Some(stderr) = &run.stderr {
            // What the error already quotes is not said twice.
            let quoted = run.error.as_deref().unwrap_or("");
            let colour = if run.status == RunStatus::Ok {
                YELLOW
            } else {
                RED
            };
            for line in tail(stderr, 3).into_iter().filter(|l| !quoted.contains(l)) {
                printer.exact_line(&format!(
                    "      {} {}",
                    printer.paint(DIM, "stderr:"),
                    printer.paint(colour, line)
                ));
            }
        }
    }
    Ok(())
}

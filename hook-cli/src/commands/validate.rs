//! `hook validate`: check hook outputs against their dialect's schema, or a hooks
//! configuration file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;
use hook_protocol::Dialect;

use crate::args::{AGENT, DIALECT, EVENT};
use crate::ops::input::{Stdin, read_input};
use crate::ops::validate::{check_config, check_output};
use crate::ui::exit::error_chain;
use crate::ui::{Printer, Status, validate as show};

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    /// The dialect: wuu, verboo or lime.
    #[arg(
        long,
        value_parser = DIALECT,
        hide_possible_values = true,
        required_unless_present = "agent"
    )]
    dialect: Option<Dialect>,
    /// The agent, instead of its dialect: claude (or claude-code: Claude Code, dialect verboo), codex (Codex CLI, dialect lime) or wuu.
    #[arg(
        long,
        value_parser = AGENT,
        hide_possible_values = true,
        conflicts_with = "dialect"
    )]
    agent: Option<Dialect>,
    /// The event the output answers, e.g. PreToolUse; when absent, the output's
    /// `hookSpecificOutput.hookEventName`.
    #[arg(long, value_parser = EVENT, hide_possible_values = true)]
    event: Option<String>,
    /// Check a hooks configuration file instead (diagnostics with file:line:col).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["event", "files"])]
    config: Option<PathBuf>,
    /// The outputs to check, each in turn; stdin when absent or `-`.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Print the verdict as JSON: `valid`, `errors` with `pointer` (RFC 6901: "" is the whole
    /// output), `message`, `hint`, and `warnings` with `pointer`, `field`, `suggestion`,
    /// `message`; with several files, one compact object per line.
    #[arg(long, conflicts_with = "config")]
    json: bool,
    /// Fail (exit 1) on warnings too: fields the agent ignores (wuu, verboo).
    #[arg(long, conflicts_with = "config")]
    strict: bool,
}

/// `hook validate`: each file in turn (`stdin` when none); `Failed` when any fails.
pub(crate) fn exec(args: ValidateArgs, printer: &Printer, mut stdin: Stdin) -> Result<Status> {
    let dialect = args
        .agent
        .or(args.dialect)
        .context("give --agent (claude, codex, wuu) or --dialect (wuu, verboo, lime)")?;
    if let Some(config) = &args.config {
        let check = check_config(dialect, config)?;
        return Ok(show::config(printer, dialect, config, &check));
    }
    let files: Vec<Option<&Path>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files.iter().map(|f| Some(f.as_path())).collect()
    };
    let compact = files.len() > 1;
    let mut status = Status::Success;
    for file in files {
        status = status.and(validate_file(
            &args, dialect, printer, &mut stdin, file, compact,
        )?);
    }
    Ok(status)
}

/// One file (stdin for `None`); `compact` prints `--json` on one line. With `--json`, an error
/// (empty stdin, an unreadable file, an unknown event) is a report of the same shape on stdout,
/// with the exit code of any other error.
fn validate_file(
    args: &ValidateArgs,
    dialect: Dialect,
    printer: &Printer,
    stdin: &mut Stdin,
    file: Option<&Path>,
    compact: bool,
) -> Result<Status> {
    let checked =
        read_input(file, stdin, "the hook output", "a FILE").and_then(|(bytes, origin)| {
            let check = check_output(dialect, args.event.as_deref(), &bytes)?;
            Ok((origin, check))
        });
    let (origin, check) = match checked {
        Ok(checked) => checked,
        Err(error) if args.json => {
            let name = file.map_or_else(|| "<stdin>".to_owned(), |file| file.display().to_string());
            let report = show::error_report(
                &name,
                dialect,
                args.event.as_deref(),
                args.strict,
                &error_chain(&error),
            );
            show::print_report(printer, &report, compact)?;
            return Ok(Status::Failed);
        }
        Err(error) => return Err(error),
    };
    if args.json {
        let report = show::output_report(&origin, dialect, &check, args.strict);
        show::print_report(printer, &report, compact)?;
    } else {
        show::output_text(printer, &origin, dialect, &check, args.strict);
    }
    Ok(if check.failed(args.strict) {
        Status::Failed
    } else {
        Status::Success
    })
}

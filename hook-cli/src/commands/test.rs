//! `hook test`: a hook run through the verification matrix, or the expectations file checked
//! against the configured hooks (`--expectations`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use hook_protocol::Dialect;
use hook_trust::Refusal;
use serde_json::json;

use crate::args::{AGENT, DIALECT, EVENT};
use crate::ops::agents::Named;
use crate::ops::expectations::{self, Scope};
use crate::ops::input::known_event;
use crate::ops::location::Location;
use crate::ops::matrix::{self, Matrix};
use crate::ops::trust::refusal_phrasing;
use crate::ui::{Printer, Status, expectations as show_expectations, test as show};

#[derive(Debug, Args)]
pub(crate) struct TestArgs {
    /// The dialect the hook speaks.
    #[arg(
        long,
        value_parser = DIALECT,
        hide_possible_values = true,
        required_unless_present = "agent"
    )]
    dialect: Option<Dialect>,
    /// The agent, instead of its dialect: claude (or claude-code: Claude Code, dialect verboo), codex (Codex CLI, dialect lime) or wuu. With --expectations, codex reads the
    /// hooks `hook relay` runs for Codex (as --relay).
    #[arg(
        long,
        value_parser = AGENT,
        hide_possible_values = true,
        conflicts_with = "dialect"
    )]
    agent: Option<Dialect>,
    /// The event the hook is meant for.
    #[arg(
        long,
        value_parser = EVENT,
        hide_possible_values = true,
        required_unless_present = "expectations"
    )]
    event: Option<String>,
    /// The tool the hook is meant for (tool events).
    #[arg(long)]
    tool: Option<String>,
    /// An event JSON to run the hook on as well.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Bound on each run, in seconds (not the dialect's long default), at most a day.
    #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
    timeout: f64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Fail (exit 1) on warnings too: output fields the agent ignores (wuu, verboo), such as a
    /// misspelt `permisionDecision`.
    #[arg(long)]
    strict: bool,
    /// Test a native plugin (a `cdylib` built with hook-sdk's `export_native!`) instead of a
    /// command: the library is loaded in this process and called on each case.
    #[arg(long, value_name = "LIBRARY", conflicts_with = "command")]
    native: Option<PathBuf>,
    /// The hook's command and arguments.
    #[arg(last = true, required_unless_present_any = ["native", "expectations"], num_args = 1..)]
    command: Vec<String>,
    /// Check the expectations file (default: `<project>/.claude/hook-expectations.toml`,
    /// `.lime/…`, `.wuu/…`, or the relay's `.claude/hook-relay/…`, `.codex/hook-relay/…`)
    /// against the configured hooks instead: a pass/fail table, exit 1 on a failed case.
    #[arg(long, value_name = "FILE", num_args = 0..=1,
        conflicts_with_all = ["native", "command", "input", "tool"])]
    expectations: Option<Option<PathBuf>>,
    /// With --expectations: the project directory (default: the current directory).
    #[arg(long, value_name = "DIR", requires = "expectations")]
    project: Option<PathBuf>,
    /// With --expectations: replaces the dialect's home.
    #[arg(long, value_name = "DIR", requires = "expectations")]
    home: Option<PathBuf>,
    /// With --expectations: the hooks `hook relay` runs instead of the agent's own.
    #[arg(long, requires = "expectations")]
    relay: bool,
    /// With --expectations: run the cases through the project's own hooks only (its project
    /// and local files); the user's, managed and plugin hooks are left out. What `hook
    /// doctor` does with a project's expectations file unless given `--all-hooks`.
    #[arg(long, requires = "expectations")]
    project_hooks_only: bool,
}

/// The longest `--timeout`: a day. A hook test that needs longer is not a test.
const MAX_TEST_TIMEOUT: f64 = 86_400.0;

/// `--timeout`: seconds, positive and at most [`MAX_TEST_TIMEOUT`] (so it always fits a
/// `Duration`).
fn parse_timeout(text: &str) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if seconds > 0.0 && seconds <= MAX_TEST_TIMEOUT {
        Ok(seconds)
    } else {
        Err(format!(
            "give a number of seconds above 0 and at most {MAX_TEST_TIMEOUT} (a day)"
        ))
    }
}

/// `hook test`: the verification every author should run, automated.
pub(crate) fn exec(args: TestArgs, printer: &Printer) -> Result<Status> {
    let named = Named::from_flags(args.agent, args.dialect)
        .context("give --agent (claude, codex, wuu) or --dialect (wuu, verboo, lime)")?;
    let dialect = named.dialect();
    if let Some(file) = &args.expectations {
        let location: Location =
            named.location(args.project.clone(), args.home.clone(), args.relay);
        let scope = if args.project_hooks_only {
            Scope::ProjectHooks
        } else {
            Scope::AllHooks
        };
        let phrasing = |location: &Location| -> Box<dyn Fn(&Refusal) -> String + Send + Sync> {
            Box::new(refusal_phrasing(location))
        };
        let checked = expectations::check(&location, file.as_deref(), scope, &phrasing)?;
        show_expectations::diagnostics(printer, &checked.diagnostics);
        if args.json {
            show_expectations::json(printer, &checked.file, &checked.results)?;
        } else {
            show_expectations::table(printer, &checked.results);
        }
        return Ok(if checked.results.iter().any(|r| !r.passed) {
            Status::Failed
        } else {
            Status::Success
        });
    }
    let matrix = Matrix {
        dialect,
        event: known_event(dialect, args.event.as_deref().unwrap_or_default())?,
        tool: args.tool.clone(),
        input: args.input.clone(),
        timeout: Duration::from_secs_f64(args.timeout),
        command: crate::shell::join(&args.command),
        native: args.native.clone(),
    };
    let reports = matrix::run(&matrix)?;
    let warned = reports.iter().any(|r| !r.warnings.is_empty());
    let failed = reports.iter().any(|r| r.problem.is_some()) || (args.strict && warned);
    if args.json {
        printer.exact_line(&serde_json::to_string_pretty(
            &json!({"ok": !failed, "strict": args.strict, "runs": reports}),
        )?);
    } else {
        show::table(printer, &reports);
        show::verdict(printer, &reports, failed, warned);
    }
    Ok(if failed {
        Status::Failed
    } else {
        Status::Success
    })
}

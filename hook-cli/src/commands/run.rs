//! `hook run`: dispatch one event through every discovered hook and print the outcome.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::args::LocationArgs;
use crate::ops::dispatch::{Dispatched, drive, prepare};
use crate::ops::input::{Stdin, run_input};
use crate::ops::trust::refusal_phrasing;
use crate::ui::run::{RunReport, interrupted};
use crate::ui::{Printer, Status, diagnostics, say_err};

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    location: LocationArgs,
    /// The event to dispatch, e.g. PreToolUse.
    #[arg(long, value_parser = crate::args::EVENT, hide_possible_values = true)]
    event: String,
    /// The event JSON (default: stdin). `hook_event_name` and `cwd` are filled in when absent.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
}

/// `hook run`: exit 0 whatever the hooks decided; the event from `stdin` without `--input`.
pub(crate) fn exec(args: RunArgs, printer: &Printer, mut stdin: Stdin) -> Result<Status> {
    let location = args.location.location()?;
    let input = run_input(
        location.dialect,
        &args.event,
        args.input.as_deref(),
        &mut stdin,
        || location.project_dir(),
    )?;
    for note in &input.tolerated {
        say_err!(printer, "warning: {note}");
    }
    // A broken handler, group or file is reported here and is in the outcome's `runs` as
    // `skipped: invalid`; everything else runs (one typo never switches off the other hooks).
    let (hooks, moved) = location.hooks()?;
    diagnostics::print(printer, &moved.diagnostics());
    diagnostics::print(printer, hooks.diagnostics());
    let hooks = prepare(
        hooks,
        hook_exec::EngineOptions::default(),
        refusal_phrasing(&location),
    );
    match drive(hooks, &input.input, input.bytes, &mut RunReport { printer })? {
        Dispatched::Done(status) => Ok(status),
        Dispatched::Interrupted(name, number) => Ok(interrupted(printer, name, number)),
    }
}

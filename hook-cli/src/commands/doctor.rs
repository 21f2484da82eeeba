//! `hook doctor`: every configured hook checked in the environment the agent gives it; exit 1
//! on an error.

use anyhow::Result;
use clap::Args;

use crate::args::FoundLocationArgs;
use crate::ops::doctor::{DoctorOptions, Severity, doctor};
use crate::ui::{self, Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    #[command(flatten)]
    location: FoundLocationArgs,
    /// The PATH to check programs against (default: the agent's, as `hook relay` last
    /// recorded it in the journal; else this shell's).
    #[arg(long, value_name = "PATH")]
    path: Option<String>,
    /// Print the findings as JSON.
    #[arg(long)]
    json: bool,
    /// Run the project's expectations file through every hook, your own (user) hooks
    /// included. Without it its cases run only through the project's own hooks (project and
    /// local files): a cloned project never chooses the events and inputs your hooks get.
    #[arg(long)]
    all_hooks: bool,
}

/// `hook doctor`.
pub(crate) fn exec(args: DoctorArgs, printer: &Printer) -> Result<Status> {
    let location = args.location.location(printer)?;
    let options = DoctorOptions {
        path: args.path,
        all_hooks: args.all_hooks,
        by_agent: args.location.which.dialect.is_none(),
    };
    let report = doctor(&location, &options)?;
    ui::doctor::report(printer, location.dialect, &report, args.json)?;
    Ok(if report.count(Severity::Error) > 0 {
        Status::Failed
    } else {
        Status::Success
    })
}

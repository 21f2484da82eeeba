//! `hook relay install`: the relay's entries written into the agent's own settings; `--move`
//! moves the agent's own hooks into the relay's file first.

use anyhow::Result;
use clap::Args;

use crate::args::RelayScopeArgs;
use crate::ops::relay::install::InstallReport;
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct InstallArgs {
    #[command(flatten)]
    scope: RelayScopeArgs,
    /// Move the hooks already in the agent's file into the relay's file of the same scope.
    #[arg(long = "move")]
    move_hooks: bool,
    /// Codex: record the relay entries as trusted in Codex's own `[hooks.state]`, so nothing
    /// is left to do in `/hooks`.
    #[arg(long)]
    trust: bool,
}

/// `hook relay install`: what was done is printed, also when it fails part way.
pub(crate) fn exec(args: InstallArgs, printer: &Printer) -> Result<Status> {
    let mut report = InstallReport::default();
    let done = crate::ops::relay::install::install(
        &args.scope.scope()?,
        args.move_hooks,
        args.trust,
        &mut report,
    );
    crate::ui::relay::install::install(printer, &report);
    done.map(|()| Status::Success)
}

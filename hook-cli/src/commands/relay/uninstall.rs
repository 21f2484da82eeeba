//! `hook relay uninstall`: the relay's entries taken out of the agent's settings, and nothing
//! else.

use anyhow::Result;
use clap::Args;

use crate::args::RelayScopeArgs;
use crate::ops::relay::install::UninstallReport;
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct UninstallArgs {
    #[command(flatten)]
    scope: RelayScopeArgs,
}

/// `hook relay uninstall`: what was done is printed, also when it fails part way.
pub(crate) fn exec(args: UninstallArgs, printer: &Printer) -> Result<Status> {
    let mut report = UninstallReport::default();
    let done = crate::ops::relay::install::uninstall(&args.scope.scope()?, &mut report);
    crate::ui::relay::install::uninstall(printer, &report);
    done.map(|()| Status::Success)
}

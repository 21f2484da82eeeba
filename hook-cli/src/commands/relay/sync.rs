//! `hook relay sync`: the relay's entries rewritten from the relay files as they are now.

use anyhow::Result;
use clap::Args;

use crate::args::RelayScopeArgs;
use crate::ops::relay::install::SyncReport;
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct SyncArgs {
    #[command(flatten)]
    scope: RelayScopeArgs,
    /// Codex: record the relay entries as trusted in Codex's own `[hooks.state]`.
    #[arg(long)]
    trust: bool,
}

/// `hook relay sync`: what was done is printed, also when it fails part way.
pub(crate) fn exec(args: SyncArgs, printer: &Printer) -> Result<Status> {
    let mut report = SyncReport::default();
    let done = crate::ops::relay::install::sync(&args.scope.scope()?, args.trust, &mut report);
    crate::ui::relay::install::sync(printer, &report);
    done.map(|()| Status::Success)
}

//! `hook guard list`: each guard, its options, and where it is on.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// The project whose relay files are read besides the user's (default: the current
    /// directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// The agents' home instead of each agent's own (~/.claude, $CODEX_HOME): the relay's user
    /// files are then `DIR/hook-relay/`.
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
}

/// Prints every guard, and where it is on.
pub(crate) fn exec(args: &ListArgs, printer: &Printer) -> Result<Status> {
    let switched =
        crate::ops::guard::list::switched_on(args.project.as_deref(), args.home.as_deref())?;
    crate::ui::guard::list(printer, &switched);
    Ok(Status::Success)
}

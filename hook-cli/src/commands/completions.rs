//! `hook completions`: a shell completion script.

use clap::Args;

use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

/// `hook completions SHELL`: the script for `command` (the whole `hook` command tree).
pub(crate) fn exec(args: CompletionsArgs, mut command: clap::Command, printer: &Printer) -> Status {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "hook", &mut script);
    printer.exact(&String::from_utf8_lossy(&script));
    Status::Success
}

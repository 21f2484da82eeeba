//! `hook guard`: the ready-made guards (`dangerous-commands`, `secrets`, `protected-paths`),
//! in the agents' words: `list` them and where each is on, `test` one against its own case
//! table, `add` one for an agent (written as a relay hook, the relay installed or synced;
//! `--dry-run` backtests it over the agent's recorded sessions instead), `remove` it, and
//! `run` one as the hook process its entry starts. What each does and why is in
//! [`crate::ops::guard`].

mod add;
mod list;
mod run;
mod test;

use anyhow::Result;
use clap::{Args, Subcommand};

use crate::ops::input::Stdin;
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct GuardArgs {
    #[command(subcommand)]
    action: GuardAction,
}

#[derive(Debug, Subcommand)]
enum GuardAction {
    /// Each guard: what it blocks, its options and their defaults, and for each agent where it
    /// is on (the user's relay file, the project's).
    #[command(after_help = "Examples:\n  hook guard list\n  hook guard list --project .")]
    List(list::ListArgs),
    /// Run a guard's own case table (calls it must block, calls it must allow), in Claude
    /// Code's and Codex's event shapes: each case and each shape's verdict, then the totals.
    #[command(
        after_help = "Examples:\n  hook guard test dangerous-commands\n  hook guard test secrets --agent codex\n\nExit 1 when a case fails."
    )]
    Test(test::TestArgs),
    /// Switch a guard on for an agent: written into the relay's own hook file (user, or
    /// --project), trusted, and the relay installed or synced so that the agent calls it;
    /// `--dry-run` shows what it would have blocked in your recorded sessions instead.
    #[command(
        after_help = "Examples:\n  hook guard add dangerous-commands --agent claude\n  hook guard add dangerous-commands --agent codex --project .\n  hook guard add dangerous-commands --agent claude --set protected-branches=main,release\n  hook guard add dangerous-commands --agent claude --dry-run\n  hook guard add secrets --agent codex --dry-run ~/.codex/sessions/2026/\n\nAdding a guard that is on replaces its options. Qwen Code, Gemini CLI and Copilot CLI (--agent qwen|gemini|copilot) run the guards of Claude Code's relay file: the guard goes there, and the relay is installed for that agent."
    )]
    Add(add::AddArgs),
    /// Switch a guard off for an agent: its entry taken out of the relay's hook file, every
    /// other byte kept, and the relay synced.
    #[command(
        after_help = "Examples:\n  hook guard remove dangerous-commands --agent claude\n  hook guard remove secrets --agent codex --project ."
    )]
    Remove(add::RemoveArgs),
    /// The hook a guard's entry runs: the agent's event on stdin, the guard's answer in the
    /// agent's format on stdout (the relay answers it in its own process, byte for byte alike).
    #[command(
        after_help = "Examples:\n  echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",...}' | hook guard run dangerous-commands\n  hook guard run dangerous-commands --set protected-branches=main,release --dialect lime < event.json\n\nThe dialect: --dialect, else HOOK_DIALECT (the engine sets it), else read from the event. Exit 0 with the answer on stdout; 2 (the reason on stderr) when the event cannot be read or the guard and its options do not exist: a guard fails closed."
    )]
    Run(run::RunArgs),
}

/// `hook guard ...`.
pub(crate) fn exec(args: GuardArgs, printer: &Printer, stdin: Stdin) -> Result<Status> {
    match args.action {
        GuardAction::List(args) => list::exec(&args, printer),
        GuardAction::Test(args) => test::exec(&args, printer),
        GuardAction::Add(args) => add::exec(args, printer),
        GuardAction::Remove(args) => add::exec_remove(&args, printer),
        GuardAction::Run(args) => run::exec(&args, printer, stdin),
    }
}

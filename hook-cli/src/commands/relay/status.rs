//! `hook relay status`: is the relay guarding, for each agent (or the one given)? Exit 1 when
//! something stops a guard (see [`crate::ops::relay::status`]).

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;
use hook_protocol::Dialect;

use crate::args::{DIALECT, RELAY_AGENT, RelayAgentArg};
use crate::ops::relay::status::{StatusOptions, status};
use crate::ui::{Printer, Status};

#[derive(Debug, Args)]
pub(crate) struct StatusArgs {
    /// Only this agent: claude (or claude-code: Claude Code) or codex (Codex CLI); or qwen
    /// (Qwen Code), gemini (Gemini CLI) or copilot (Copilot CLI), whose entries start the relay
    /// for Claude Code's relay hooks. Default: Claude Code and Codex.
    #[arg(
        long,
        value_parser = RELAY_AGENT,
        hide_possible_values = true,
        conflicts_with = "dialect"
    )]
    agent: Option<RelayAgentArg>,
    /// Only this agent, by its dialect: verboo (Claude Code) or lime (Codex).
    #[arg(long, value_parser = DIALECT, hide_possible_values = true)]
    dialect: Option<Dialect>,
    /// The project whose settings and relay files are read beside the user's (default: the
    /// current directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Replaces the dialect's home (trust store, the relay's user folder, the journal).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Print the status as JSON: `guarding`, and per agent its settings files and entries,
    /// programs, relay files, hooks (trust, last run, problems) and problems.
    #[arg(long)]
    json: bool,
}

/// `hook relay status`.
pub(crate) fn exec(args: StatusArgs, printer: &Printer) -> Result<Status> {
    // An agent whose events the relay translates (`--agent qwen`) is shown when named.
    let (chosen, guests) = match args.agent {
        Some(RelayAgentArg::Translated(agent)) => (None, vec![agent]),
        Some(RelayAgentArg::Dialect(dialect)) => (Some(dialect), Vec::new()),
        None => (args.dialect, Vec::new()),
    };
    let dialects = match chosen {
        Some(dialect) if dialect.rules().agent().relay().is_none() => bail!(
            "hook relay speaks for Claude Code (--agent claude) and Codex (--agent codex), not {}",
            crate::ops::agents::described(dialect, false)
        ),
        Some(dialect) => vec![dialect],
        None if guests.is_empty() => Dialect::ALL.to_vec(),
        None => Vec::new(),
    };
    let agents = status(&StatusOptions {
        dialects,
        guests,
        project: args.project,
        home: args.home,
    })?;
    crate::ui::relay::status::report(printer, &agents, args.json)
}

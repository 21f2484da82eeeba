//! The clap arguments several commands share (as cargo's `command_prelude`): a command file
//! takes these, never another command's.

use std::path::PathBuf;

use clap::Args;
use hook_protocol::Dialect;

use crate::ops::location::Location;

/// `--dialect`'s parser: `wuu`, `verboo` or `lime`.
pub(crate) fn parse_dialect(value: &str) -> Result<Dialect, String> {
    value.parse::<Dialect>().map_err(|error| error.to_string())
}

/// Where the configuration comes from: every command that loads one takes these.
#[derive(Debug, Args)]
pub(crate) struct LocationArgs {
    /// The dialect: wuu, verboo or lime.
    #[arg(long, value_parser = parse_dialect)]
    pub(crate) dialect: Dialect,
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub(crate) project: Option<PathBuf>,
    /// Replaces the dialect's home (~/.wuu, ~/.claude, ~/.lime or their variables).
    #[arg(long, value_name = "DIR")]
    pub(crate) home: Option<PathBuf>,
    /// The hooks `hook relay` runs (`~/.claude/hook-relay/`, `<project>/.claude/hook-relay/`;
    /// `~/.codex/hook-relay/`, `<project>/.codex/hook-relay/`) instead of the agent's own.
    #[arg(long)]
    pub(crate) relay: bool,
}

impl LocationArgs {
    /// The location these flags name.
    pub(crate) fn location(&self) -> Location {
        Location {
            dialect: self.dialect,
            project: self.project.clone(),
            home: self.home.clone(),
            relay: self.relay,
        }
    }
}

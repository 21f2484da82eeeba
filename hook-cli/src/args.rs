//! The clap arguments several commands share (as cargo's `command_prelude`): a command file
//! takes these, never another command's.

use std::path::PathBuf;

use clap::Args;
use hook_protocol::Dialect;

use crate::ops::location::Location;
use crate::ops::trust::Selection;
use crate::ui::Printer;

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
    /// Replaces the dialect's home (~/.wuu, ~/.claude, ~/.lime or their variables); the trust
    /// records and the journal are kept in it, the relay's too.
    #[arg(long, value_name = "DIR")]
    pub(crate) home: Option<PathBuf>,
    /// The hooks `hook relay` runs (`~/.claude/hook-relay/`, `<project>/.claude/hook-relay/`;
    /// `~/.codex/hook-relay/`, `<project>/.codex/hook-relay/`) instead of the agent's own; their
    /// trust records and journal are in the user folder of the two.
    #[arg(long)]
    pub(crate) relay: bool,
}

impl LocationArgs {
    /// Loads the configuration these flags name, its diagnostics printed on stderr.
    pub(crate) fn load(&self, printer: &Printer) -> anyhow::Result<hook_config::Loaded> {
        let loaded = self.location().load()?;
        crate::ui::diagnostics::print(printer, &loaded.diagnostics);
        Ok(loaded)
    }

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

/// The hooks a trust command (`trust`, `untrust`, `enable`, `disable`) changes.
#[derive(Debug, Args)]
pub(crate) struct KeysArgs {
    #[command(flatten)]
    pub(crate) location: LocationArgs,
    /// The hooks' keys, as `hook list` shows them.
    #[arg(
        value_name = "KEY",
        required_unless_present_any = ["all", "review"],
        conflicts_with_all = ["all", "review"]
    )]
    pub(crate) keys: Vec<String>,
    /// Every hook: for `trust`, every one that needs trust and lacks it; for `untrust`, every
    /// trusted one; for `enable`/`disable`, every non-managed one.
    #[arg(long, conflicts_with = "review")]
    pub(crate) all: bool,
    /// `trust` only: walk every hook that needs trust, showing its source, command, the files
    /// it runs and, for a modified hook, what changed since it was trusted (unified diffs);
    /// on a terminal, ask trust / skip / quit for each.
    #[arg(long)]
    pub(crate) review: bool,
    /// With `--review`: print the review as JSON and change nothing.
    #[arg(long, requires = "review")]
    pub(crate) json: bool,
}

impl KeysArgs {
    /// The hooks named, for `untrust`, `enable` and `disable` (`--review` is `trust`'s alone).
    pub(crate) fn selection(&self) -> anyhow::Result<Selection> {
        if self.review {
            anyhow::bail!("--review goes with `hook trust` only");
        }
        Ok(Selection {
            keys: self.keys.clone(),
            all: self.all,
        })
    }
}

// Taken by `hook relay install`, `sync` and `uninstall`.
/// Which agent, and which of its settings files.
#[derive(Debug, Args)]
#[group(id = "Scope")]
pub(crate) struct RelayScopeArgs {
    /// The agent: verboo (Claude Code) or lime (Codex).
    #[arg(long, value_parser = parse_dialect)]
    pub(crate) dialect: Dialect,
    /// The user's settings (the default).
    #[arg(long, conflicts_with = "project")]
    pub(crate) user: bool,
    /// This project's settings (`DIR/.claude/settings.json`, `DIR/.codex/config.toml`); the
    /// entries then also serve the project's relay hooks.
    #[arg(long, value_name = "DIR")]
    pub(crate) project: Option<PathBuf>,
    /// The agent's settings file to edit, instead of the one the scope names.
    #[arg(long, value_name = "FILE")]
    pub(crate) agent_config: Option<PathBuf>,
    /// The dialect's home (trust store; with it the relay's user folder is `DIR/hook-relay/`).
    #[arg(long, value_name = "DIR")]
    pub(crate) home: Option<PathBuf>,
}

impl RelayScopeArgs {
    /// The scope these flags name (`--user` is the default; the flag exists to say so on a
    /// command line).
    pub(crate) fn scope(&self) -> crate::ops::relay::install::ScopeOptions {
        crate::ops::relay::install::ScopeOptions {
            dialect: self.dialect,
            project: self.project.clone(),
            agent_config: self.agent_config.clone(),
            home: self.home.clone(),
            program: None,
        }
    }
}

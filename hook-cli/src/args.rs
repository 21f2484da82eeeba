//! The clap arguments several commands share (as cargo's `command_prelude`): a command file
//! takes these, never another command's.
//!
//! The flags that name an agent, a dialect or an event parse through the constants below
//! ([`AGENT`], [`DIALECT`], [`EVENT`]...): each is the command's own parser with the values
//! shell completions offer, taken from the tables it parses against ([`offered::Offered`]).

mod offered;

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use hook_protocol::Dialect;

use crate::ops::agents::{
    Named, agent_values, dialect_or_agent_values, dialect_values, parse_agent, parse_dialect,
    parse_dialect_or_agent,
};
use crate::ops::input::event_values;
use crate::ops::location::Location;
use crate::ops::relay::agents::{
    Translation, every_translated, translated, translated_event_values, translated_values,
};
use crate::ops::trust::Selection;
use crate::ui::{Printer, Verbosity};

use offered::{Offered, any};

/// `--agent`: an agent's name (`ops::agents::parse_agent`).
pub(crate) const AGENT: Offered<Dialect> = Offered::new(parse_agent, agent_values);
/// `--dialect`: a dialect's name (`ops::agents::parse_dialect`).
pub(crate) const DIALECT: Offered<Dialect> = Offered::new(parse_dialect, dialect_values);
/// `hook convert --from/--to`: a dialect or an agent.
pub(crate) const DIALECT_OR_AGENT: Offered<Dialect> =
    Offered::new(parse_dialect_or_agent, dialect_or_agent_values);
/// `--agent` of `hook relay` and its subcommands: also the agents whose events it translates.
pub(crate) const RELAY_AGENT: Offered<RelayAgentArg> =
    Offered::new(parse_relay_agent, relay_agent_values);
/// `--event`: any name (the command checks it against its dialect); every dialect's events
/// offered.
pub(crate) const EVENT: Offered<String> = Offered::new(any, event_values);
/// A ready-made guard's name (`hook guard add NAME`): any name (the command says which exist);
/// the built-in guards offered.
pub(crate) const GUARD: Offered<String> = Offered::new(any, guard_values);
/// `hook relay --event`: also the events of the agents whose events it translates, in their
/// own words.
pub(crate) const RELAY_EVENT: Offered<String> = Offered::new(any, relay_event_values);

fn guard_values() -> Vec<&'static str> {
    hook_guards::BUILTINS
        .iter()
        .map(|guard| guard.name)
        .collect()
}

fn relay_agent_values() -> Vec<&'static str> {
    let mut all = agent_values();
    all.extend(translated_values());
    all
}

fn relay_event_values() -> Vec<&'static str> {
    let mut all = event_values();
    all.extend(
        translated_event_values()
            .into_iter()
            .filter(|event| !event_values().contains(event)),
    );
    all
}

/// `--quiet`, `--verbose` and `--color`: how a command prints. Global: accepted before the
/// command or after it (`hook relay status -q`), by `hook relay` too.
#[derive(Debug, Args)]
pub(crate) struct OutputArgs {
    /// Print only results, warnings and errors: no notes (backups, what to run next).
    #[arg(long, short, global = true, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Print an error's causes each on a line of its own.
    #[arg(long, short, global = true)]
    pub(crate) verbose: bool,
    /// Colour the status words: auto (when stdout is a terminal and NO_COLOR is unset or empty;
    /// CLICOLOR_FORCE=1 forces it), always or never.
    #[arg(
        long,
        global = true,
        value_name = "WHEN",
        default_value = "auto",
        hide_possible_values = true
    )]
    pub(crate) color: clap::ColorChoice,
}

impl OutputArgs {
    /// The verbosity asked for.
    pub(crate) fn verbosity(&self) -> Verbosity {
        match (self.quiet, self.verbose) {
            (true, _) => Verbosity::Quiet,
            (_, true) => Verbosity::Verbose,
            _ => Verbosity::Normal,
        }
    }
}

/// `--agent` or `--dialect`, one of them required: what a command that runs or changes hooks
/// reads (`ops::agents` says why the two are kept apart).
#[derive(Debug, Args)]
#[group(id = "which_agent", required = true, multiple = false)]
pub(crate) struct AgentArgs {
    /// The agent: claude (or claude-code: Claude Code, its settings files; with --relay the
    /// relay's), codex (Codex CLI: the hooks `hook relay` runs for it, ~/.codex/hook-relay/),
    /// or wuu.
    #[arg(long, value_parser = AGENT, hide_possible_values = true)]
    pub(crate) agent: Option<Dialect>,
    /// The dialect: wuu, verboo (Claude Code's) or lime (its own files are ~/.lime; Codex's
    /// hooks are --agent codex).
    #[arg(long, value_parser = DIALECT, hide_possible_values = true)]
    pub(crate) dialect: Option<Dialect>,
}

impl AgentArgs {
    /// The agent or dialect given.
    pub(crate) fn named(&self) -> Result<Named> {
        Named::from_flags(self.agent, self.dialect)
            .context("give --agent (claude, codex, wuu) or --dialect (wuu, verboo, lime)")
    }
}

/// `--agent` or `--dialect`, or neither: then the one agent whose hook files are here
/// (`hook list`, `doctor`, `replay`).
#[derive(Debug, Args)]
#[group(id = "which_agent", multiple = false)]
pub(crate) struct FoundAgentArgs {
    /// The agent: claude (or claude-code: Claude Code, its settings files; with --relay the
    /// relay's), codex (Codex CLI: the hooks `hook relay` runs for it, ~/.codex/hook-relay/),
    /// or wuu. Default: the one agent whose hook files are here (said on stderr).
    #[arg(long, value_parser = AGENT, hide_possible_values = true)]
    pub(crate) agent: Option<Dialect>,
    /// The dialect: wuu, verboo (Claude Code's) or lime (its own files are ~/.lime; Codex's
    /// hooks are --agent codex).
    #[arg(long, value_parser = DIALECT, hide_possible_values = true)]
    pub(crate) dialect: Option<Dialect>,
}

/// `--agent` or `--dialect`, or neither: then every agent (`hook log`, `hook stats`).
#[derive(Debug, Args)]
#[group(id = "which_agent", multiple = false)]
pub(crate) struct AnyAgentArgs {
    /// Only this agent: claude (or claude-code: Claude Code), codex (Codex CLI) or wuu.
    /// Default: every agent.
    #[arg(long, value_parser = AGENT, hide_possible_values = true)]
    pub(crate) agent: Option<Dialect>,
    /// Only this dialect: wuu, verboo or lime (the same records as --agent wuu, claude and
    /// codex).
    #[arg(long, value_parser = DIALECT, hide_possible_values = true)]
    pub(crate) dialect: Option<Dialect>,
}

impl AnyAgentArgs {
    /// The dialects asked for: the one given, else every one.
    pub(crate) fn dialects(&self) -> Vec<Dialect> {
        match self.agent.or(self.dialect) {
            Some(dialect) => vec![dialect],
            None => Dialect::ALL.to_vec(),
        }
    }
}

/// `--project`, `--home` and `--relay`: where a command reads hooks from.
#[derive(Debug, Args)]
pub(crate) struct PlaceArgs {
    /// The project directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub(crate) project: Option<PathBuf>,
    /// Replaces the dialect's home (~/.wuu, ~/.claude, ~/.lime or their variables); the trust
    /// records and the journal are kept in it, the relay's too.
    #[arg(long, value_name = "DIR")]
    pub(crate) home: Option<PathBuf>,
    /// The hooks `hook relay` runs (`~/.claude/hook-relay/`, `<project>/.claude/hook-relay/`;
    /// `~/.codex/hook-relay/`, `<project>/.codex/hook-relay/`) instead of the agent's own
    /// (implied by --agent codex).
    #[arg(long)]
    pub(crate) relay: bool,
}

/// Where the configuration comes from, for a command that needs the agent named.
#[derive(Debug, Args)]
pub(crate) struct LocationArgs {
    #[command(flatten)]
    pub(crate) which: AgentArgs,
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
}

impl LocationArgs {
    /// Loads the configuration these flags name, its diagnostics printed on stderr.
    pub(crate) fn load(&self, printer: &Printer) -> anyhow::Result<hook_config::Loaded> {
        let loaded = self.location()?.load()?;
        crate::ui::diagnostics::print(printer, &loaded.diagnostics);
        Ok(loaded)
    }

    /// The location these flags name.
    pub(crate) fn location(&self) -> Result<Location> {
        let place = &self.place;
        Ok(self
            .which
            .named()?
            .location(place.project.clone(), place.home.clone(), place.relay))
    }
}

/// Where the configuration comes from, for a command that takes the one agent whose hook
/// files are here when given none.
#[derive(Debug, Args)]
pub(crate) struct FoundLocationArgs {
    #[command(flatten)]
    pub(crate) which: FoundAgentArgs,
    #[command(flatten)]
    pub(crate) place: PlaceArgs,
}

impl FoundLocationArgs {
    /// The location these flags name; without an agent, the one whose files are here, said on
    /// stderr.
    pub(crate) fn location(&self, printer: &Printer) -> Result<Location> {
        let place = &self.place;
        let (project, home) = (place.project.clone(), place.home.clone());
        match Named::from_flags(self.which.agent, self.which.dialect) {
            Some(named) => Ok(named.location(project, home, place.relay)),
            None => {
                let found = crate::ops::agents::found(project, home, place.relay)?;
                crate::ui::agents::found(printer, &found);
                Ok(found.location)
            }
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
    /// The agent: claude (or claude-code: Claude Code) or codex (Codex CLI); or an agent that
    /// runs guards written for Claude Code (the relay's Claude Code files), whose events the
    /// relay translates: qwen (Qwen Code), gemini (Gemini CLI) or copilot (Copilot CLI).
    #[arg(
        long,
        value_parser = RELAY_AGENT,
        hide_possible_values = true,
        conflicts_with = "dialect"
    )]
    pub(crate) agent: Option<RelayAgentArg>,
    /// The agent's dialect: verboo (Claude Code) or lime (Codex).
    #[arg(
        long,
        value_parser = DIALECT,
        hide_possible_values = true,
        required_unless_present = "agent"
    )]
    pub(crate) dialect: Option<Dialect>,
    /// The user's settings (the default).
    #[arg(long, conflicts_with = "project")]
    pub(crate) user: bool,
    /// This project's settings (`DIR/.claude/settings.json`, `DIR/.codex/config.toml`,
    /// `DIR/.qwen/settings.json`, `DIR/.gemini/settings.json`,
    /// `DIR/.github/hooks/hook-relay.json`); the entries then also serve the project's relay
    /// hooks.
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
    pub(crate) fn scope(&self) -> Result<crate::ops::relay::install::ScopeOptions> {
        let (dialect, agent) = match (self.agent, self.dialect) {
            (Some(RelayAgentArg::Translated(agent)), _) => (agent.dialect(), Some(agent)),
            (Some(RelayAgentArg::Dialect(dialect)), _) | (None, Some(dialect)) => (dialect, None),
            (None, None) => {
                anyhow::bail!(
                    "give --agent (claude, codex, qwen, gemini, copilot) or --dialect (verboo, lime)"
                )
            }
        };
        Ok(crate::ops::relay::install::ScopeOptions {
            dialect,
            agent,
            project: self.project.clone(),
            agent_config: self.agent_config.clone(),
            home: self.home.clone(),
            program: None,
        })
    }
}

/// `--agent` of `hook relay` and its `install`, `sync` and `uninstall`: an agent of a dialect,
/// or one whose events the relay translates.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RelayAgentArg {
    Dialect(Dialect),
    Translated(&'static Translation),
}

/// `--agent`: a translated agent's name (`qwen`, `gemini`), else an agent of a dialect.
pub(crate) fn parse_relay_agent(value: &str) -> Result<RelayAgentArg, String> {
    if let Some(agent) = translated(value) {
        return Ok(RelayAgentArg::Translated(agent));
    }
    parse_agent(value)
        .map(RelayAgentArg::Dialect)
        .map_err(|error| format!("{error}; or {}", every_translated()))
}

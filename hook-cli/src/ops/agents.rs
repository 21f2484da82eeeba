//! The agents by name (`--agent claude|codex|wuu`), the dialect each speaks, and which agent a
//! command means when it is given none.
//!
//! Choices:
//!
//! - **Names come from the dialect rules** ([`hook_protocol::DialectRules::agent`]): `claude`
//!   and `claude-code` are Claude Code (dialect verboo), `codex` is Codex CLI (dialect lime),
//!   `wuu` is wuu. Nothing here names a dialect.
//! - **`--agent` takes agents, `--dialect` dialects**: each refuses the other's names with the
//!   flag to write instead (`--dialect claude`: "write `--agent claude`"), and a typo gets the
//!   closest name with the agent it is (`--agent claud`: "did you mean `claude`? (Claude
//!   Code, dialect verboo)"). The two are kept apart because they do not always name the same
//!   files: see the next point. `hook convert --from/--to` take either.
//! - **An agent whose own folder is not its dialect's reads the relay's hooks**: the engine
//!   runs Codex's hooks through `hook relay`, from `~/.codex/hook-relay/` and
//!   `<project>/.codex/hook-relay/`, while the lime dialect's own files (`~/.lime`) belong to
//!   the Lime agent of the specification, which Codex never reads. So `--agent codex` on a
//!   command that reads hooks (`list`, `run`, `trust`, `doctor`, `replay`, `test
//!   --expectations`...) means `--dialect lime --relay`. Claude Code reads its own settings
//!   (`~/.claude/settings.json`), which is what verboo reads: `--agent claude` is `--dialect
//!   verboo`, and `--relay` adds the relay's hooks as it does there.
//! - **An agent runs its own hooks as it does, not as the engine would** ([`runs_unasked`]):
//!   Claude Code runs every hook of its settings files (user, project, local; measured on
//!   2.1.332) without asking for trust, so `hook list --agent claude` and `hook doctor --agent
//!   claude` show them as running, never "never trusted", and suggest no `hook trust` for them.
//!   `--dialect verboo` names the same files as the engine runs them (`hook run --dialect
//!   verboo`), trust and all. The relay's hooks, which the relay trust-checks for real, keep
//!   the engine's trust under either flag; Codex's hooks (`--agent codex`) are the relay's.
//! - **With neither flag**, per command:
//!   - `hook log` and `hook stats` read every agent's journal (each dialect's journals, where
//!     [`crate::ops::journal::journals_of`] finds them), with an agent column;
//!   - `hook relay status` shows every agent the relay speaks for;
//!   - `hook list`, `hook doctor` and `hook replay` take the one agent whose hook files are
//!     here ([`found`]: its user, project or local files, the relay's for Codex) and say so on
//!     stderr; with several, or none, they stop and name the agents to choose from;
//!   - every other command needs one: `run`, `trust`, `untrust`, `enable`, `disable` and the
//!     relay's `install`, `sync` and `uninstall` change or run something, and `validate`,
//!     `schema`, `test` and `hook relay` itself read a format the files on disk cannot tell.

use std::path::PathBuf;

use anyhow::{Result, bail};
use hook_protocol::{Dialect, Layer};

use crate::ops::location::Location;

/// The agent's usual name on a command line (`claude`, `codex`, `wuu`).
pub(crate) fn name(dialect: Dialect) -> &'static str {
    dialect
        .rules()
        .agent()
        .names()
        .first()
        .copied()
        .unwrap_or("")
}

/// The agent's name in messages (`Claude Code`, `Codex CLI`).
pub(crate) fn title(dialect: Dialect) -> &'static str {
    dialect.rules().agent().title()
}

/// `claude (Claude Code, dialect verboo)`; every name it goes by with `all_names`
/// (`claude or claude-code (...)`).
pub(crate) fn described(dialect: Dialect, all_names: bool) -> String {
    let agent = dialect.rules().agent();
    let names = if all_names {
        agent.names().join(" or ")
    } else {
        name(dialect).to_owned()
    };
    format!("{names} ({}, dialect {dialect})", agent.title())
}

/// Every agent, as an error lists them, by name.
pub(crate) fn every_agent() -> String {
    let mut all: Vec<String> = Dialect::ALL.iter().map(|d| described(*d, true)).collect();
    all.sort();
    all.join(", ")
}

/// Whether the engine reads this agent's hooks from the relay's files: the agent's own folder
/// is not the dialect's (Codex's `~/.codex` and lime's `~/.lime`), so the dialect's own files
/// are not the agent's.
pub(crate) fn through_relay(dialect: Dialect) -> bool {
    let rules = dialect.rules();
    rules
        .agent()
        .relay()
        .is_some_and(|agent| agent.home_dir != rules.config().home_dir())
}

/// Whether the agent runs the hooks of its own settings files without asking for the engine's
/// trust: an agent the relay speaks for that reads its dialect's own files (Claude Code). Codex
/// reads the relay's hooks ([`through_relay`]), which the relay trust-checks; wuu agents embed
/// the engine, trust and all.
pub(crate) fn runs_unasked(dialect: Dialect) -> bool {
    dialect.rules().agent().relay().is_some() && !through_relay(dialect)
}

/// Whether the hooks `location` names are run without the engine's trust: the agent was
/// named (`by_agent`: `--agent`, or the one found with neither flag; not `--dialect`), it
/// runs its own hooks unasked ([`runs_unasked`]), and these are its own, not the relay's.
pub(crate) fn untrusted_by_agent(by_agent: bool, location: &Location) -> bool {
    by_agent && !location.relay && runs_unasked(location.dialect)
}

/// The relay's hooks beside an agent's own ([`relay_hooks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RelayHooks {
    /// How many there are.
    pub(crate) count: usize,
    /// How many of them the relay will not run until they are trusted (untrusted, or changed
    /// since they were trusted).
    pub(crate) need_trust: usize,
}

/// The relay's hooks for the agent of `location` (its project and home; its relay files), for
/// a listing of the agent's own hooks to point to. Their diagnostics are left to the command
/// that lists them (`--relay`).
pub(crate) fn relay_hooks(location: &Location) -> Result<RelayHooks> {
    let relay = Location {
        relay: true,
        ..location.clone()
    };
    let loaded = relay.load()?;
    let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
    let handlers = loaded.registry.handlers();
    let need_trust = handlers
        .iter()
        .filter(|handler| {
            matches!(
                view.evaluate(handler).status,
                hook_trust::TrustStatus::Untrusted | hook_trust::TrustStatus::Modified
            )
        })
        .count();
    Ok(RelayHooks {
        count: handlers.len(),
        need_trust,
    })
}

/// `--agent`'s parser: an agent's name, any case.
pub(crate) fn parse_agent(value: &str) -> Result<Dialect, String> {
    if let Some(dialect) = Dialect::from_agent_name(value) {
        return Ok(dialect);
    }
    if let Some(agent) = crate::ops::relay::agents::translated(value) {
        return Err(format!(
            "{} runs the guards written for Claude Code, through `hook relay --agent {}`: here they are Claude Code's relay hooks, write `--agent claude` (with `--relay` where the command reads hook files; its journal lines say `agent`)",
            agent.title,
            agent.name()
        ));
    }
    if let Ok(dialect) = value.parse::<Dialect>() {
        return Err(format!(
            "`{value}` is a dialect, not an agent: write `--dialect {dialect}`, or `--agent {}` ({})",
            name(dialect),
            title(dialect)
        ));
    }
    let hint = match closest(value, agent_names()) {
        Some(near) => match Dialect::from_agent_name(near) {
            Some(dialect) => format!(
                ": did you mean `{near}`? ({}, dialect {dialect})",
                title(dialect)
            ),
            None => String::new(),
        },
        None => String::new(),
    };
    Err(format!(
        "unknown agent `{value}`{hint}. The agents: {}",
        every_agent()
    ))
}

/// `--dialect`'s parser: `wuu`, `verboo` or `lime`, any case.
pub(crate) fn parse_dialect(value: &str) -> Result<Dialect, String> {
    if let Ok(dialect) = value.parse::<Dialect>() {
        return Ok(dialect);
    }
    if let Some(dialect) = Dialect::from_agent_name(value) {
        // `--dialect lime` is not Codex's hooks (they are the relay's): only `--agent` says it.
        let or_dialect = if through_relay(dialect) {
            String::new()
        } else {
            format!(", or `--dialect {dialect}`")
        };
        return Err(format!(
            "`{value}` is an agent, not a dialect: write `--agent {}` ({}, dialect {dialect}){or_dialect}",
            name(dialect),
            title(dialect)
        ));
    }
    let dialects: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
    let hint = match closest(value, dialects.iter().copied()) {
        Some(near) => format!(": did you mean `{near}`?"),
        None => match closest(value, agent_names()).and_then(Dialect::from_agent_name) {
            Some(dialect) => format!(
                ": did you mean `--agent {}`? ({}, dialect {dialect})",
                name(dialect),
                title(dialect)
            ),
            None => String::new(),
        },
    };
    Err(format!(
        "unknown dialect `{value}`{hint}. The dialects: {}; the agents (--agent): {}",
        dialects.join(", "),
        every_agent()
    ))
}

/// `hook convert --from/--to`'s parser: a dialect or an agent.
pub(crate) fn parse_dialect_or_agent(value: &str) -> Result<Dialect, String> {
    parse_dialect(value).or_else(|error| Dialect::from_agent_name(value).ok_or(error))
}

/// Every name `--agent` takes, for shell completions (`claude`, `claude-code`, `codex`, `wuu`).
pub(crate) fn agent_values() -> Vec<&'static str> {
    agent_names().collect()
}

/// Every name `--dialect` takes, for shell completions.
pub(crate) fn dialect_values() -> Vec<&'static str> {
    Dialect::ALL
        .iter()
        .map(|dialect| dialect.as_str())
        .collect()
}

/// Every name `hook convert --from/--to` takes: the dialects, then the agents.
pub(crate) fn dialect_or_agent_values() -> Vec<&'static str> {
    let mut all = dialect_values();
    for name in agent_names() {
        if !all.contains(&name) {
            all.push(name);
        }
    }
    all
}

/// Every agent name of every dialect.
fn agent_names() -> impl Iterator<Item = &'static str> {
    Dialect::ALL
        .into_iter()
        .flat_map(|dialect| dialect.rules().agent().names().iter().copied())
}

/// The name of `known` closest to `name` when it is close (an edit per four letters, at least
/// one), ignoring case, `-` and `_`.
fn closest(name: &str, known: impl Iterator<Item = &'static str>) -> Option<&'static str> {
    let wanted = normalize(name);
    known
        .filter_map(|candidate| {
            let normalized = normalize(candidate);
            let limit = (normalized.len() / 4).max(1);
            let distance = edit_distance(&wanted, &normalized);
            (distance <= limit).then_some((distance, candidate))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

fn normalize(name: &str) -> Vec<char> {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Levenshtein distance.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            let deletion = previous[j + 1] + 1;
            let insertion = current[j] + 1;
            current.push(substitution.min(deletion).min(insertion));
        }
        previous = current;
    }
    previous[b.len()]
}

/// What the command line named: an agent (`--agent`) or a dialect (`--dialect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// `--agent`: its dialect.
    Agent(Dialect),
    /// `--dialect`.
    Dialect(Dialect),
}

impl Named {
    /// `--agent` or `--dialect`, whichever was given (clap lets at most one through).
    pub(crate) fn from_flags(agent: Option<Dialect>, dialect: Option<Dialect>) -> Option<Named> {
        agent.map(Named::Agent).or(dialect.map(Named::Dialect))
    }

    /// The dialect named.
    pub(crate) fn dialect(self) -> Dialect {
        match self {
            Named::Agent(dialect) | Named::Dialect(dialect) => dialect,
        }
    }

    /// The hooks read for it: an agent that reads the relay's ([`through_relay`]) reads them
    /// whatever `relay` says.
    pub(crate) fn relay(self, relay: bool) -> bool {
        match self {
            Named::Agent(dialect) => relay || through_relay(dialect),
            Named::Dialect(_) => relay,
        }
    }

    /// The location this names, with `--project`, `--home` and `--relay`.
    pub(crate) fn location(
        self,
        project: Option<PathBuf>,
        home: Option<PathBuf>,
        relay: bool,
    ) -> Location {
        Location {
            dialect: self.dialect(),
            project,
            home,
            relay: self.relay(relay),
        }
    }
}

/// The one agent whose hook files are here, when a command was named none.
#[derive(Debug)]
pub(crate) struct Found {
    /// Where its hooks are read from.
    pub(crate) location: Location,
    /// Its files that exist.
    pub(crate) files: Vec<PathBuf>,
}

/// The agent whose hook files exist (its user, project and local files; the relay's for an
/// agent that reads them, [`through_relay`]), for a command given neither `--agent` nor
/// `--dialect`; an error naming the agents to choose from when there are several or none.
pub(crate) fn found(project: Option<PathBuf>, home: Option<PathBuf>, relay: bool) -> Result<Found> {
    let mut with_files = Vec::new();
    for dialect in Dialect::ALL {
        let location = Named::Agent(dialect).location(project.clone(), home.clone(), relay);
        let discovery = hook_config::discover(&location.load_options()?)?;
        let files: Vec<PathBuf> = discovery
            .files
            .into_iter()
            // The managed layer is the system's, not a sign the user runs the agent.
            .filter(|file| file.layer != Layer::Managed)
            .map(|file| file.path)
            .collect();
        let existing: Vec<PathBuf> = files.into_iter().filter(|path| path.is_file()).collect();
        if !existing.is_empty() {
            with_files.push(Found {
                location,
                files: existing,
            });
        }
    }
    if with_files.len() == 1
        && let Some(found) = with_files.pop()
    {
        return Ok(found);
    }
    if with_files.is_empty() {
        bail!(
            "no agent's hook files here or in the home (the agents' settings, the relay's files): give --agent, one of {}",
            every_agent()
        );
    }
    let choices: Vec<String> = with_files
        .iter()
        .map(|found| {
            let files: Vec<String> = found
                .files
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            format!(
                "--agent {} ({})",
                name(found.location.dialect),
                files.join(", ")
            )
        })
        .collect();
    bail!(
        "hook files of several agents are here: give {}",
        choices.join(" or ")
    );
}

#[cfg(test)]
mod tests;

//! `hook relay status`: for each agent the relay speaks for, is it guarding? Its entries in the
//! agent's settings (user and project scope, and the project's personal settings where they
//! exist; events, matchers), the `hook` program they start and whether it runs, each relay
//! hook with its trust, last run and last result, and every reason a guard is not guarding.
//!
//! Choices:
//!
//! - **What stops a guard** (a [`Problem`]; the command exits 1 when there is one): a relay
//!   file or settings file that cannot be read, a relay handler that is broken (left out), a
//!   relay hook that is untrusted or modified (the relay skips it), one that no entry reaches
//!   or on an event the agent never sends ([`unreached_relay_hooks`]), relay hooks with no
//!   entry at all, an entry whose program is missing, not executable or does not answer
//!   `--version` within 5 s, and a hook whose latest runs (one or more, in the journal)
//!   failed or timed out; and every error of the guard checks `hook doctor` makes too
//!   ([`crate::ops::doctor::guards`]: the guard's program and script and the programs it
//!   names on the agent's `PATH`, a `prompt`/`agent`/`mcp_tool` guard on an event that can
//!   block, an entry whose timeout does not cover the guard's, a latest run whose stderr says
//!   a program is missing, Codex not trusting the relay's entries). A broken relay handler
//!   or file is named with its `file:line:col` and the fix. A disabled hook is shown, not
//!   counted: disabling is the user's choice. No relay hooks and no entries is "not set up",
//!   not a problem.
//! - **Which runs count**: the relay's own (`front` = `relay` in the journal), read from every
//!   journal of the dialect ([`crate::ops::journal::journals_of_dialects`]); `hook run --relay` by hand is a test, not the
//!   agent. A skipped run neither starts nor ends a run of failures (its reason is the
//!   hook's trust, shown beside it).
//! - **The program** is the first word of the entry's command: a path (a relative one from
//!   the project, where the agent runs it), or a name found on the agent's `PATH` as the relay
//!   last recorded it in the journal (this shell's when none is recorded, and it says so).
//! - **The project** is `--project`, else the current directory, as for `hook list`: its
//!   settings file and relay file are read beside the user's.
//! - **Notes for another agent's user**, never a problem: where Copilot CLI is installed
//!   (`~/.copilot`), Claude Code's user entries do not guard it (it never reads
//!   `~/.claude/settings.json`), and its project entries guard it only in a folder it trusts
//!   (`trustedFolders` in `~/.copilot/config.json`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use hook_config::Severity;
use hook_protocol::{Dialect, Layer, RelayAgent};
use hook_trust::{TrustStatus, TrustView};
use serde::Serialize;

mod guest;
mod program;
mod runs;
mod settings;
mod shared;

use program::check_programs;
pub(crate) use runs::{Runs, read_runs as relay_runs};

use super::agents::Translation;
use super::read::files::{agent_settings_file, personal_agent_file};
use super::read::reach::unreached_relay_hooks;
use crate::ops::agents;
use crate::ops::location::Location;

/// Which agents, and where.
#[derive(Debug, Clone)]
pub(crate) struct StatusOptions {
    /// The agents' dialects (those without a relay agent are left out).
    pub(crate) dialects: Vec<Dialect>,
    /// Agents whose events the relay translates, after those ([`guest::guest_status`]).
    pub(crate) guests: Vec<&'static Translation>,
    /// The project (default: the current directory).
    pub(crate) project: Option<PathBuf>,
    /// Replaces the dialect's home (trust store, the relay's user folder, the journal).
    pub(crate) home: Option<PathBuf>,
}

/// One agent's relay.
#[derive(Debug, Serialize)]
pub(crate) struct AgentStatus {
    /// `claude`, `codex`.
    pub(crate) agent: &'static str,
    /// `Claude Code`, `Codex CLI`.
    pub(crate) title: &'static str,
    pub(crate) dialect: Dialect,
    /// The agent's settings files, user then project, with the relay entries in each.
    pub(crate) settings: Vec<SettingsFile>,
    /// Each program the entries start, checked once.
    pub(crate) programs: Vec<Program>,
    /// The relay files that exist.
    pub(crate) relay_files: Vec<PathBuf>,
    /// Each relay hook.
    pub(crate) hooks: Vec<RelayHook>,
    /// What stops a guard that is not one hook's (a file, the program, the install).
    pub(crate) problems: Vec<Problem>,
    /// The journal lines or files that could not be read (last runs may be missing).
    pub(crate) journal_problems: Vec<String>,
    /// What a user of another agent that runs these entries should know (Copilot CLI and
    /// Claude Code's entries); nothing that stops this agent's guards.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) notes: Vec<String>,
}

impl AgentStatus {
    /// The status of an agent before anything is read.
    pub(crate) fn empty(agent: &'static str, title: &'static str, dialect: Dialect) -> Self {
        AgentStatus {
            agent,
            title,
            dialect,
            settings: Vec::new(),
            programs: Vec::new(),
            relay_files: Vec::new(),
            hooks: Vec::new(),
            problems: Vec::new(),
            journal_problems: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Whether anything stops a guard of this agent.
    pub(crate) fn stopped(&self) -> bool {
        !self.problems.is_empty() || self.hooks.iter().any(|hook| !hook.problems.is_empty())
    }

    /// Whether the relay has entries in any of the agent's settings files.
    pub(crate) fn installed(&self) -> bool {
        self.settings.iter().any(|file| !file.entries.is_empty())
    }
}

/// One of the agent's settings files.
#[derive(Debug, Serialize)]
pub(crate) struct SettingsFile {
    /// `user`, `project`, or `personal` (the project's personal settings, Claude Code's
    /// `settings.local.json`).
    pub(crate) scope: &'static str,
    pub(crate) path: PathBuf,
    pub(crate) exists: bool,
    /// Its relay entries, in file order.
    pub(crate) entries: Vec<Entry>,
}

/// A relay entry.
#[derive(Debug, Serialize)]
pub(crate) struct Entry {
    pub(crate) event: String,
    pub(crate) matcher: Option<String>,
    pub(crate) timeout: Option<String>,
    /// The program it starts, as written.
    pub(crate) program: String,
}

/// A program the entries start.
#[derive(Debug, Serialize)]
pub(crate) struct Program {
    /// As the entries write it.
    pub(crate) program: String,
    /// Where it is, when found.
    pub(crate) path: Option<PathBuf>,
    /// Its answer to `--version` (first line), when it runs.
    pub(crate) version: Option<String>,
    /// Why it does not run.
    pub(crate) problem: Option<String>,
}

/// A relay hook.
#[derive(Debug, Serialize)]
pub(crate) struct RelayHook {
    pub(crate) key: String,
    pub(crate) event: String,
    pub(crate) matcher: Option<String>,
    /// What it runs, in one line.
    pub(crate) summary: String,
    /// `trusted`, `untrusted`, `modified`, `managed`.
    pub(crate) trust: String,
    pub(crate) enabled: bool,
    /// Its latest run by the relay, if any.
    pub(crate) last_run: Option<LastRun>,
    /// How many of its latest runs in a row failed or timed out.
    pub(crate) failing_runs: usize,
    /// What stops it from guarding.
    pub(crate) problems: Vec<Problem>,
}

/// A relay hook's latest run.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LastRun {
    pub(crate) time: String,
    /// `ok`, `blocked`, `failed`, `timed_out`, `skipped`...
    pub(crate) status: String,
    /// Why it was skipped.
    pub(crate) skip_reason: Option<String>,
    pub(crate) exit_code: Option<i32>,
    /// Its error, else the last line of its stderr.
    pub(crate) error: Option<String>,
    /// The program its stderr says was missing ([`hook_protocol::text::missing_program`]): it did
    /// not do its job, whatever its exit.
    pub(crate) missing_program: Option<String>,
}

/// Something that stops a guard, and how to fix it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Problem {
    pub(crate) what: String,
    /// What to do, when there is something to run.
    pub(crate) fix: Option<String>,
}

impl Problem {
    fn new(what: impl Into<String>, fix: Option<String>) -> Problem {
        Problem {
            what: what.into(),
            fix,
        }
    }
}

/// The relay's status for each agent asked for.
pub(crate) fn status(options: &StatusOptions) -> Result<Vec<AgentStatus>> {
    let mut all = Vec::new();
    for &dialect in &options.dialects {
        if let Some(agent) = dialect.rules().agent().relay() {
            all.push(agent_status(dialect, agent, options)?);
        }
    }
    for agent in &options.guests {
        all.push(guest::guest_status(agent, options)?);
    }
    Ok(all)
}

/// Where the relay's hooks of `dialect` are for `options`.
fn relay_location(dialect: Dialect, options: &StatusOptions) -> Location {
    Location {
        dialect,
        project: options.project.clone(),
        home: options.home.clone(),
        relay: true,
    }
}

fn agent_status(
    dialect: Dialect,
    agent: &'static RelayAgent,
    options: &StatusOptions,
) -> Result<AgentStatus> {
    let location = relay_location(dialect, options);
    let project = location.project_dir()?;
    let mut status = AgentStatus::empty(agents::name(dialect), agent.name, dialect);
    let name = agents::name(dialect);
    let home_flag = home_flag(options);
    read_settings(&mut status, agent, &project, &home_flag)?;
    let mut runs = relay_runs(dialect, &project, options.home.as_deref())?;
    status.journal_problems = std::mem::take(&mut runs.problems);
    check_programs(&mut status, &project, runs.agent_path.as_deref());
    let unreached = unreached_relay_hooks(dialect, Some(&project), options.home.as_deref());
    if let Some(loaded) = read_hooks(&mut status, &location, &runs.by_key, &unreached) {
        shared::add_guard_checks(&mut status, agent, &project, options, &runs, &loaded);
    }
    // Copilot CLI runs Claude Code's project entries, never its user ones.
    if dialect == super::agents::copilot::COPILOT.dialect() {
        let entries = |scope: &str| {
            status
                .settings
                .iter()
                .any(|file| file.scope == scope && !file.entries.is_empty())
        };
        status.notes = super::agents::copilot::notes_on_claude_entries(
            entries("user"),
            &project,
            entries("project") || entries("personal"),
        );
    }
    // The guards written for Claude Code that Codex's relay runs too, where no entry starts it.
    for line in
        super::read::claude_guards::unreached_guest_guards(dialect, Some(&project), None, None)
    {
        status.problems.push(Problem::new(line, None));
    }
    if !status.hooks.is_empty() && !status.installed() {
        status.problems.push(Problem::new(
            format!("the relay is not installed: {} never starts it", agent.name),
            Some(format!("hook relay install --agent {name}{home_flag}")),
        ));
    }
    Ok(status)
}

/// ` --home DIR` as given, for a suggested command.
pub(super) fn home_flag(options: &StatusOptions) -> String {
    options
        .home
        .as_ref()
        .map(|home| {
            format!(
                " --home {}",
                crate::shell::quote(&home.display().to_string())
            )
        })
        .unwrap_or_default()
}

/// The agent's user and project settings files (and the project's personal one, where it
/// exists), with their relay entries.
fn read_settings(
    status: &mut AgentStatus,
    agent: &RelayAgent,
    project: &Path,
    home_flag: &str,
) -> Result<()> {
    let user = agent_settings_file(agent, None)?;
    let in_project = agent_settings_file(agent, Some(project))?;
    let mut files = vec![("user", user)];
    // A project that is the home (the current directory) has no settings of its own.
    if files.iter().all(|(_, path)| !same_file(path, &in_project)) {
        files.push(("project", in_project));
        // The project's personal settings (Claude Code's `settings.local.json`), where they
        // exist: entries there start the relay for this person alone.
        if let Some(personal) = personal_agent_file(agent, project).filter(|f| f.exists()) {
            files.push(("personal", personal));
        }
    }
    let adapter = super::agents::agent_of(status.dialect)?;
    settings::read_entries(status, adapter, files, project, home_flag);
    Ok(())
}

/// Whether `a` and `b` are one file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || a.canonicalize()
            .ok()
            .zip(b.canonicalize().ok())
            .is_some_and(|(a, b)| a == b)
}

/// Each relay hook with its trust, last run and what stops it; the relay's hooks as loaded,
/// when they could be.
pub(super) fn read_hooks(
    status: &mut AgentStatus,
    location: &Location,
    runs: &BTreeMap<String, (LastRun, usize)>,
    unreached: &[String],
) -> Option<hook_config::Loaded> {
    let loaded = match location.load() {
        Ok(loaded) => loaded,
        Err(error) => {
            status
                .problems
                .push(Problem::new(format!("{error:#}"), None));
            return None;
        }
    };
    status.relay_files = loaded
        .discovery
        .files
        .iter()
        .filter(|file| file.layer != Layer::Managed && file.path.is_file())
        .map(|file| file.path.clone())
        .collect();
    for diagnostic in loaded.diagnostics.iter() {
        if diagnostic.severity == Severity::Error {
            status.problems.push(Problem::new(
                format!("{diagnostic} (left out: the relay does not run it)"),
                Some(format!(
                    "fix {} at that line and column, then check it with `hook validate --config {}`",
                    diagnostic.path,
                    crate::shell::quote(&diagnostic.path)
                )),
            ));
        }
    }
    let trust_flags = trust_flags(location);
    let view = TrustView::for_discovery(&loaded.discovery);
    for handler in loaded.registry.handlers() {
        let trust = view.evaluate(handler);
        let (last_run, failing_runs) = runs
            .get(&handler.key)
            .map_or((None, 0), |(last, n)| (Some(last.clone()), *n));
        let key = crate::shell::quote(&handler.key);
        let mut problems = Vec::new();
        match trust.status {
            TrustStatus::Untrusted => problems.push(Problem::new(
                "untrusted: the relay skips it",
                Some(format!(
                    "review it, then run `hook trust{trust_flags} {key}`"
                )),
            )),
            TrustStatus::Modified => problems.push(Problem::new(
                "modified since it was trusted: the relay skips it",
                Some(format!(
                    "review the change with `hook trust{trust_flags} --review`, then trust it again"
                )),
            )),
            _ => {}
        }
        let prefix = format!("relay hook {} never runs: ", handler.key);
        for line in unreached {
            if let Some(why) = line.strip_prefix(&prefix) {
                let (what, fix) = match why.split_once("; run `") {
                    Some((what, fix)) => (what, Some(format!("run `{fix}"))),
                    None => (why, None),
                };
                problems.push(Problem::new(format!("never runs: {what}"), fix));
            }
        }
        if failing_runs > 0
            && let Some(last) = &last_run
        {
            let runs = if failing_runs == 1 {
                "its latest run".to_owned()
            } else {
                format!("its latest {failing_runs} runs")
            };
            // What the relay did each time: a guard that fails closed blocked the event.
            let then = match handler.config.on_failure {
                Some(hook_config::OnFailure::Block) => {
                    "the relay blocked the event (onFailure: block)"
                }
                _ => {
                    "the relay let the event through (a guard that must not fail open sets `onFailure: \"block\"`)"
                }
            };
            problems.push(Problem::new(
                format!("{runs} failed: {then}"),
                Some(format!(
                    "see `hook log --agent {}{} --hook {key} --status error` (last {}, {})",
                    agents::name(location.dialect),
                    location_flags(location),
                    last.time,
                    last.status
                )),
            ));
        }
        status.hooks.push(RelayHook {
            key: handler.key.clone(),
            event: handler.event.to_string(),
            matcher: handler.matcher.clone(),
            summary: handler.config.summary(),
            trust: trust.status.to_string(),
            enabled: trust.enabled,
            last_run,
            failing_runs,
            problems,
        });
    }
    Some(loaded)
}

/// `--agent A` and the `--home`/`--project` of `location`, for a suggested `hook trust`
/// (`--relay` where the agent does not imply it).
fn trust_flags(location: &Location) -> String {
    let relay = if agents::through_relay(location.dialect) {
        ""
    } else {
        " --relay"
    };
    format!(
        " --agent {}{relay}{}",
        agents::name(location.dialect),
        location_flags(location)
    )
}

/// `--home` and `--project` as given.
fn location_flags(location: &Location) -> String {
    let plain = Location {
        relay: false,
        ..location.clone()
    };
    plain.flags()
}

#[cfg(test)]
#[path = "status/tests.rs"]
mod tests;

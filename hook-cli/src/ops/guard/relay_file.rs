//! `hook guard add` and `remove`: a guard's entry in the relay's own hook file of a scope, and
//! the relay installed (or synced) for the agent, so that the agent calls it.
//!
//! - **The entry** is one `PreToolUse` group holding one command handler, `<hook> guard run
//!   NAME [--set KEY=VALUE]...` ([`GuardLine`]), matching the guard's tools in the agent's names
//!   ([`Agent::tools_of_claude`]), with a timeout of [`GUARD_TIMEOUT`] seconds (so the relay's
//!   entry waits at most that plus its margin) and, where the relay file's format reads it,
//!   `onFailure: "block"`. `<hook>` is this program's path in the user's file and the word
//!   `hook` in a project's, as the relay's own entries are written
//!   ([`crate::ops::relay::install`]).
//! - **Idempotent**: adding a guard that is there replaces its options in place (its command:
//!   every other byte stays, its position and key too); one written twice by hand is kept once.
//!   `remove` takes out every entry of that guard and nothing else.
//! - **Trust, as the user asked for it**: where the relay's hooks need trust (Codex's every
//!   hook; Claude Code's project files), the entry written is trusted in the relay's store the
//!   way `hook trust` trusts ([`hook_trust::TrustView::trust`]). A relay hook of the user's that
//!   was trusted and whose key the edit changed (a key counts hooks of the same event and
//!   matcher in the file) is trusted again under its new key, since nothing of it changed; the
//!   records of the keys the edit took away are removed.
//! - **The relay**: `install` when the agent's settings have none of the relay's entries for
//!   the scope, else `sync` (the entries then cover the guard's matcher); for Codex, recording
//!   Codex's own trust of those entries as `hook relay install --trust` does. `remove` syncs
//!   only a relay that is installed.

use std::collections::HashSet;
use std::path::PathBuf;

use anyhow::{Context, Result};
use hook_guards::{Builtin, Settings};
use hook_protocol::Event;

use super::GuardLine;
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::codex::claude_guards_for;
use crate::ops::relay::agents::{ADAPTERS, Agent, Found, SettingsDoc, agent_of};
use crate::ops::relay::install::{
    InstallReport, RelayFile, RelayFileEdit, ScopeOptions, SyncReport, install, sync,
};
use crate::ops::relay::read::entries::Wanted;
use crate::ops::relay::read::files::read_regular;

/// The timeout of a guard's entry, in seconds: a guard reads a call and answers, in process or
/// as a process of its own.
pub(crate) const GUARD_TIMEOUT: u64 = 10;

/// What `add` or `remove` did, filled as it goes (so a command that fails part way still
/// tells what it did before).
#[derive(Debug, Default)]
pub(crate) struct GuardChange {
    /// The guard.
    pub(crate) guard: &'static str,
    /// The relay hooks' agent (`Claude Code`, `Codex CLI`), whose relay file is edited, and
    /// its dialect.
    pub(crate) relay_agent: &'static str,
    pub(crate) dialect: Option<hook_protocol::Dialect>,
    /// The agent the relay is installed or synced for (a translated agent's name too).
    pub(crate) agent: &'static str,
    /// The relay's hook file.
    pub(crate) relay_file: Option<PathBuf>,
    /// What happened to the entry.
    pub(crate) entry: Option<EntryChange>,
    /// The edit of the relay's file.
    pub(crate) edit: RelayFileEdit,
    /// The trust written in the relay's store.
    pub(crate) trust: TrustChange,
    /// The relay's entries in the agent's settings.
    pub(crate) relay: Option<RelayStep>,
    /// Project scope: the project.
    pub(crate) project: Option<PathBuf>,
    /// `remove` for Codex: Claude Code's relay file of the same scope, which Codex's relay
    /// runs too, still holds the guard.
    pub(crate) still_in: Option<PathBuf>,
    /// `add` for Claude Code: the agents whose relay, installed in the same scope, runs the
    /// guards of Claude Code's relay file too (Codex), by `--agent` name: their entries get
    /// this guard's tools at their next `hook relay sync`.
    pub(crate) also_run_by: Vec<&'static str>,
}

/// What happened to a guard's entry in the relay's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EntryChange {
    /// Written: its command and matcher.
    Added { command: String, matcher: String },
    /// There already, its command (options) replaced; `dropped` copies of it taken out.
    Replaced {
        before: String,
        command: String,
        dropped: usize,
    },
    /// There already, exactly so.
    Unchanged { command: String },
    /// Taken out: how many entries.
    Removed(usize),
    /// `remove`: it was not there.
    NotThere,
}

/// The trust `add`/`remove` wrote in the relay's store.
#[derive(Debug, Default)]
pub(crate) struct TrustChange {
    /// The store written, when anything was.
    pub(crate) store: Option<PathBuf>,
    /// The guard's entry, trusted under this key.
    pub(crate) guard: Option<String>,
    /// The user's relay hooks trusted again under their new keys.
    pub(crate) carried: Vec<String>,
    /// The records taken out (keys no hook has any more).
    pub(crate) removed: Vec<String>,
    /// What could not be trusted: `(key, why)`.
    pub(crate) failed: Vec<(String, String)>,
    /// The relay hooks of the scope need trust on each machine (a project's): each teammate
    /// trusts the guard there with `hook trust`.
    pub(crate) per_machine: bool,
}

/// The relay's entries in the agent's settings after the change.
#[derive(Debug)]
pub(crate) enum RelayStep {
    /// Installed (none of its entries was there).
    Installed(Box<InstallReport>),
    /// Synced (it was installed).
    Synced(Box<SyncReport>),
    /// `remove` with no relay installed: nothing to do there.
    NotInstalled,
}

/// `hook guard add`: `guard` with `settings` written into the relay's file of `scope`, trusted,
/// and the relay installed or synced; what was done is in `change`, also when it fails part
/// way.
///
/// # Errors
///
/// When the scope cannot be resolved, a file cannot be read, parsed or written, or the trust
/// store cannot be written.
pub(crate) fn add(
    scope: &ScopeOptions,
    guard: &'static Builtin,
    settings: &Settings,
    change: &mut GuardChange,
) -> Result<()> {
    let relay_agent = start(scope, guard, change)?;
    let file = RelayFile::of(scope)?;
    change.relay_file = Some(file.path.clone());
    let program = match (&scope.program, &scope.project) {
        (Some(program), _) => program.clone(),
        (None, Some(_)) => PathBuf::from("hook"),
        (None, None) => std::env::current_exe().context("cannot find this program's path")?,
    };
    let command = GuardLine::new(&program, guard, settings).command();
    let matcher = relay_agent.tools_of_claude(guard.matcher);
    let before = TrustBefore::read(&file)?;
    let mut entry = None;
    change.edit = file.edit(|doc| {
        let found = guard_entries(doc, guard)?;
        entry = Some(match found.split_first() {
            None => {
                let wanted = Wanted {
                    event: Event::PreToolUse,
                    matcher: Some(matcher.clone()),
                    timeout: GUARD_TIMEOUT,
                    on_failure_block: relay_agent.settings().on_failure,
                };
                doc.add(&wanted, &command)?;
                EntryChange::Added {
                    command: command.clone(),
                    matcher: matcher.clone(),
                }
            }
            Some((first, copies)) => {
                // The copies after the first, last first: a removal never moves the ones
                // before it.
                for copy in copies.iter().rev() {
                    doc.remove(copy)?;
                }
                if first.command == command && copies.is_empty() {
                    EntryChange::Unchanged {
                        command: command.clone(),
                    }
                } else {
                    doc.set_command(first, &command)?;
                    EntryChange::Replaced {
                        before: first.command.clone(),
                        command: command.clone(),
                        dropped: copies.len(),
                    }
                }
            }
        });
        Ok(())
    })?;
    change.entry = entry;
    change.trust = before.after(&file, Some(&command), scope.project.is_some())?;
    relay_step(scope, true, change)?;
    if scope.agent.is_none() {
        change.also_run_by = also_run_by(scope)?;
    }
    Ok(())
}

/// The agents other than `scope`'s whose relay, installed in `scope`'s scope, runs the guards
/// of `scope`'s relay files too ([`claude_guards_for`]).
fn also_run_by(scope: &ScopeOptions) -> Result<Vec<&'static str>> {
    let mut agents = Vec::new();
    for other in ADAPTERS {
        if other.dialect() == scope.dialect
            || claude_guards_for(other.dialect()) != Some(scope.dialect)
        {
            continue;
        }
        let theirs = ScopeOptions {
            dialect: other.dialect(),
            agent: None,
            agent_config: None,
            home: None,
            program: None,
            project: scope.project.clone(),
        };
        if relay_installed(&theirs)? {
            agents.push(crate::ops::agents::name(other.dialect()));
        }
    }
    Ok(agents)
}

/// `hook guard remove`: every entry of `guard` taken out of the relay's file of `scope`, the
/// trust records that no hook has any more taken out, and the relay synced when installed;
/// what was done is in `change`, also when it fails part way.
///
/// # Errors
///
/// As [`add`].
pub(crate) fn remove(
    scope: &ScopeOptions,
    guard: &'static Builtin,
    change: &mut GuardChange,
) -> Result<()> {
    start(scope, guard, change)?;
    let file = RelayFile::of(scope)?;
    change.relay_file = Some(file.path.clone());
    let before = TrustBefore::read(&file)?;
    let mut removed = 0;
    change.edit = file.edit(|doc| {
        let found = guard_entries(doc, guard)?;
        for entry in found.iter().rev() {
            doc.remove(entry)?;
        }
        removed = found.len();
        Ok(())
    })?;
    change.entry = Some(if removed == 0 {
        EntryChange::NotThere
    } else {
        EntryChange::Removed(removed)
    });
    change.trust = before.after(&file, None, scope.project.is_some())?;
    change.still_in = still_in(scope, guard)?;
    if removed == 0 {
        return Ok(());
    }
    relay_step(scope, false, change)
}

/// The relay file of the guards written for Claude Code that `scope`'s relay runs too
/// ([`claude_guards_for`]: Codex's), when it holds `guard`.
fn still_in(scope: &ScopeOptions, guard: &Builtin) -> Result<Option<PathBuf>> {
    let Some(dialect) = claude_guards_for(scope.dialect) else {
        return Ok(None);
    };
    let claude = ScopeOptions {
        dialect,
        agent: None,
        agent_config: None,
        home: None,
        program: None,
        project: scope.project.clone(),
    };
    let file = RelayFile::of(&claude)?;
    let Some((text, _)) = read_regular(&file.path)? else {
        return Ok(None);
    };
    let doc = agent_of(dialect)?.open(&text, &file.path)?;
    Ok((!guard_entries(doc.as_ref(), guard)?.is_empty()).then_some(file.path))
}

/// The names of `change`, before anything is done; the relay hooks' agent.
fn start(
    scope: &ScopeOptions,
    guard: &'static Builtin,
    change: &mut GuardChange,
) -> Result<&'static dyn Agent> {
    let relay_agent = agent_of(scope.dialect)?;
    change.guard = guard.name;
    change.relay_agent = relay_agent.title();
    change.dialect = Some(relay_agent.dialect());
    change.agent = match scope.agent {
        Some(agent) => agent.title,
        None => relay_agent.title(),
    };
    change.project = scope.project.clone();
    Ok(relay_agent)
}

/// The entries of `guard` in `doc`, in file order.
fn guard_entries(doc: &dyn SettingsDoc, guard: &Builtin) -> Result<Vec<Found>> {
    doc.found_where(&|command| {
        GuardLine::parse(command).is_some_and(|line| line.guard.name == guard.name)
    })
}

/// Installs the relay for `scope` when the agent's settings have none of its entries of that
/// scope (only with `install_missing`), else syncs it; the report in `change`.
fn relay_step(scope: &ScopeOptions, install_missing: bool, change: &mut GuardChange) -> Result<()> {
    // Codex runs a hook only once it trusts it: its trust of the entries is recorded, as
    // `--trust` does, since the user asked for the guard (the flag is Codex's alone).
    let trust = scope.dialect.rules().config().trust_state_in_config();
    if relay_installed(scope)? {
        let report = change.relay.insert(RelayStep::Synced(Box::default()));
        if let RelayStep::Synced(report) = report {
            sync(scope, trust, report)?;
        }
        return Ok(());
    }
    if !install_missing {
        change.relay = Some(RelayStep::NotInstalled);
        return Ok(());
    }
    let report = change.relay.insert(RelayStep::Installed(Box::default()));
    if let RelayStep::Installed(report) = report {
        install(scope, false, trust, report)?;
    }
    Ok(())
}

/// Whether the agent's settings of `scope` hold a relay entry that starts the relay for that
/// scope's hooks.
fn relay_installed(scope: &ScopeOptions) -> Result<bool> {
    let adapter: &dyn Agent = match scope.agent {
        Some(agent) => agent,
        None => agent_of(scope.dialect)?,
    };
    let project =
        match &scope.project {
            Some(project) => Some(project.canonicalize().with_context(|| {
                format!("project directory {} does not exist", project.display())
            })?),
            None => None,
        };
    let file = match &scope.agent_config {
        Some(file) => file.clone(),
        None => adapter.settings_file(project.as_deref())?,
    };
    let Some((text, _)) = read_regular(&file)? else {
        return Ok(false);
    };
    let wanted = if project.is_some() {
        RelayScope::Project
    } else {
        RelayScope::User
    };
    let found = adapter.open(&text, &file)?.found(adapter.dialect())?;
    Ok(found.iter().any(|f| f.scope.is_none_or(|s| s == wanted)))
}

/// The trust of the relay file's hooks before an edit: which were trusted (by their hash), and
/// the keys there were.
struct TrustBefore {
    trusted: HashSet<String>,
    keys: HashSet<String>,
}

impl TrustBefore {
    fn read(file: &RelayFile) -> Result<TrustBefore> {
        let loaded = file.load()?;
        let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
        let mut before = TrustBefore {
            trusted: HashSet::new(),
            keys: HashSet::new(),
        };
        for handler in in_file(&loaded, file) {
            before.keys.insert(handler.key.clone());
            let trust = view.evaluate(handler);
            if trust.needs_trust && trust.may_run() {
                before.trusted.insert(view.hash(handler));
            }
        }
        Ok(before)
    }

    /// Trusts, after the edit, the guard's entry (`ours`, its command) and every hook that was
    /// trusted before under another key; removes the records of the keys no hook has now.
    /// `project`: the file is a project's (each teammate trusts its hooks on their machine).
    fn after(&self, file: &RelayFile, ours: Option<&str>, project: bool) -> Result<TrustChange> {
        let loaded = file.load()?;
        let view = hook_trust::TrustView::for_discovery(&loaded.discovery);
        let store = hook_trust::store_for_discovery(&loaded.discovery);
        let mut change = TrustChange::default();
        let mut keys = HashSet::new();
        for handler in in_file(&loaded, file) {
            keys.insert(handler.key.clone());
            let candidate = view.candidate(handler);
            let trust = candidate.trust();
            if !trust.needs_trust {
                continue;
            }
            change.per_machine |= project;
            let is_ours = ours.is_some() && handler.config.command.as_deref() == ours;
            let carried = !is_ours && self.trusted.contains(&view.hash(handler));
            if trust.may_run() || !(is_ours || carried) {
                continue;
            }
            let key = trust.key.clone();
            match view.trust(store.as_ref(), std::slice::from_ref(&candidate)) {
                Ok(_) if is_ours => change.guard = Some(key),
                Ok(_) => change.carried.push(key),
                Err(hook_trust::GrantError::Store(error)) => {
                    return Err(error).with_context(|| {
                        format!("cannot trust the guard in {}", store.location().display())
                    });
                }
                Err(error) => change.failed.push((key, error.to_string())),
            }
            change.store = Some(store.location().to_path_buf());
        }
        let gone: Vec<String> = self
            .keys
            .iter()
            .filter(|key| !keys.contains(*key))
            .filter(|key| {
                view.records()
                    .is_some_and(|records| records.contains_key(*key))
            })
            .cloned()
            .collect();
        if !gone.is_empty() {
            store.remove_trust(&gone).with_context(|| {
                format!(
                    "cannot take the removed hooks' trust out of {}",
                    store.location().display()
                )
            })?;
            change.store = Some(store.location().to_path_buf());
            change.removed = gone;
        }
        change.removed.sort();
        Ok(change)
    }
}

/// The handlers `loaded` read from the relay file `file`.
fn in_file<'a>(
    loaded: &'a hook_config::Loaded,
    file: &RelayFile,
) -> impl Iterator<Item = &'a hook_config::Handler> {
    let path = file.path.display().to_string();
    loaded
        .registry
        .handlers()
        .iter()
        .filter(move |handler| handler.source.path.as_deref() == Some(path.as_str()))
}

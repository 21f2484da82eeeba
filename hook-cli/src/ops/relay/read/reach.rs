//! Which relay hooks each entry of the agent's files reaches, and those none does; the relay
//! entries of one settings file as found ([`relay_entries_in`]).

use super::entries::{is_name_list, matches_all};
use super::files::{
    agent_file, personal_agent_file, project_agent_files, read_regular, relay_options,
};
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::{Agent, agent_of, open_settings};
use anyhow::Result;
use hook_config::{Handler, Matcher};
use hook_protocol::{Dialect, MatchTarget, RelayAgent};
use std::path::{Path, PathBuf};

/// Why a relay hook never runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnreachedWhy {
    /// The agent does not send the hook's event (Codex has no `Notification`).
    NotSent,
    /// No relay entry in the agent's settings is on the hook's event.
    NoEntry,
    /// The event's entries' matchers do not match the hook's.
    MatcherMisses,
}

/// A relay hook no installed agent entry starts the relay for.
#[derive(Debug, Clone)]
pub(crate) struct Unreached {
    /// The hook.
    pub(crate) handler: Handler,
    /// Why it never runs.
    pub(crate) why: UnreachedWhy,
    /// What it says: `relay hook KEY never runs: ...`, without the fix.
    pub(crate) message: String,
    /// The command that fixes it (`hook relay sync ...`), where one does.
    pub(crate) fix: Option<String>,
}

impl Unreached {
    /// The one line `hook list --relay` and the relay's session entry say.
    pub(crate) fn line(&self) -> String {
        match &self.fix {
            Some(fix) => format!("{}; run `{fix}`", self.message),
            None => self.message.clone(),
        }
    }
}

/// A relay entry in the agent's settings.
#[derive(Debug, Clone)]
pub(crate) struct InstalledEntry {
    /// The settings file it is in.
    pub(crate) file: PathBuf,
    /// Its event, as written.
    pub(crate) event: String,
    /// Its command (`<path of hook> relay --dialect D --event E ... # hook-relay-install`).
    pub(crate) command: String,
}

/// Whether the relay hooks of a scope are reached by the agent's entries.
#[derive(Debug)]
pub(crate) struct Reach {
    /// The agent.
    pub(crate) agent: &'static RelayAgent,
    /// The agent's settings files looked at: the user's, then the project's.
    pub(crate) files: Vec<PathBuf>,
    /// The relay entries found in them.
    pub(crate) entries: Vec<InstalledEntry>,
    /// How many relay hooks there are.
    pub(crate) hooks: usize,
    /// The relay hooks no entry starts the relay for.
    pub(crate) unreached: Vec<Unreached>,
}

/// The relay hooks that no installed agent entry would start the relay for: a hook whose
/// event has no relay entry of its scope in the agent's user settings (or the project's), or
/// whose tools the entry's matcher does not match. Each line names the hook's key and the
/// command that fixes it (`hook relay sync ...`). Empty for a dialect without a relay agent, or
/// when the relay's hooks cannot be loaded.
pub(crate) fn unreached_relay_hooks(
    dialect: Dialect,
    project: Option<&Path>,
    home: Option<&Path>,
) -> Vec<String> {
    relay_reach(dialect, project, home)
        .map(|reach| reach.unreached.iter().map(Unreached::line).collect())
        .unwrap_or_default()
}

/// The relay hooks of the scope (the user's relay file, and the project's), the relay entries
/// of the agent's settings (the user's, and the project's), and which hooks they do not reach.
/// `None` for a dialect without a relay agent, or when the relay's hooks cannot be loaded.
pub(crate) fn relay_reach(
    dialect: Dialect,
    project: Option<&Path>,
    home: Option<&Path>,
) -> Option<Reach> {
    reach(dialect, project, home, |_| true)
}

/// What the relay run of `scope` (`hook relay --scope`) says at the start of a session: the
/// unreached relay hooks of its scope; the user's run also names a project's, when the
/// project's settings have no relay entry (so no run of the project's would say it).
pub(crate) fn unreached_in_scope(
    dialect: Dialect,
    project: Option<&Path>,
    home: Option<&Path>,
    scope: RelayScope,
) -> Vec<String> {
    let project_installed = project.is_some_and(|project| {
        dialect.rules().agent().relay().is_some_and(|agent| {
            !installed_entries(dialect, &project_agent_files(agent, project)).is_empty()
        })
    });
    reach(dialect, project, home, |hook_scope| {
        hook_scope == scope || (scope == RelayScope::User && !project_installed)
    })
    .map(|reach| reach.unreached.iter().map(Unreached::line).collect())
    .unwrap_or_default()
}

/// [`relay_reach`] of the hooks whose scope `said` keeps.
fn reach(
    dialect: Dialect,
    project: Option<&Path>,
    home: Option<&Path>,
    said: impl Fn(RelayScope) -> bool,
) -> Option<Reach> {
    let agent = dialect.rules().agent().relay()?;
    let loaded = hook_config::load(&relay_options(dialect, project, home)).ok()?;
    let mut files = Vec::new();
    if let Ok(file) = agent_file(agent, None, None) {
        files.push(file);
    }
    if let Some(project) = project {
        files.extend(project_agent_files(agent, project));
    }
    let entries = installed_entries(dialect, &files);
    // A project's personal relay hooks installed into the agent's personal settings file
    // (`--agent-config .claude/settings.local.json`) are synced there too.
    let personal_file = project.and_then(|project| {
        let file = personal_agent_file(agent, project)?;
        entries.iter().any(|e| e.file == file).then_some(file)
    });
    let mut unreached = Vec::new();
    let mut hooks = 0;
    for handler in loaded.registry.handlers() {
        if !said(RelayScope::of_layer(handler.source.layer)) {
            continue;
        }
        hooks += 1;
        let mut add = |why, message, fix| {
            unreached.push(Unreached {
                handler: handler.clone(),
                why,
                message,
                fix,
            });
        };
        if !agent.events.contains(&handler.event) {
            add(
                UnreachedWhy::NotSent,
                format!(
                    "relay hook {} never runs: {} does not send {}",
                    handler.key, agent.name, handler.event
                ),
                None,
            );
            continue;
        }
        if reached(dialect, &entries, handler) {
            continue;
        }
        let scope = RelayScope::of_layer(handler.source.layer);
        let on_event = entries
            .iter()
            .any(|e| e.event == handler.event.as_str() && e.serves(scope));
        let (kind, why) = if !on_event {
            (
                UnreachedWhy::NoEntry,
                format!("no {} entry starts the relay", handler.event),
            )
        } else {
            (
                UnreachedWhy::MatcherMisses,
                format!(
                    "the {} entry's matcher does not match `{}`",
                    handler.event,
                    handler.matcher.as_deref().unwrap_or("*")
                ),
            )
        };
        let mut fix = format!("hook relay sync --dialect {dialect}");
        if scope == RelayScope::Project
            && let Some(project) = &loaded.discovery.project
        {
            fix.push_str(&crate::shell::path_flag("project", project));
            if handler.source.layer == hook_protocol::Layer::Local
                && let Some(file) = &personal_file
            {
                fix.push_str(&crate::shell::path_flag("agent-config", file));
            }
        }
        if let Some(home) = home {
            fix.push_str(&crate::shell::path_flag("home", home));
        }
        add(
            kind,
            format!(
                "relay hook {} never runs: {why} in {}'s settings",
                handler.key, agent.name
            ),
            Some(fix),
        );
    }
    Some(Reach {
        agent,
        files,
        entries: entries
            .into_iter()
            .map(|e| InstalledEntry {
                file: e.file,
                event: e.event,
                command: e.command,
            })
            .collect(),
        hooks,
        unreached,
    })
}

/// A relay entry installed in an agent's settings file.
#[derive(Debug, Clone)]
pub(crate) struct Installed {
    pub(crate) event: String,
    pub(crate) matcher: Option<String>,
    /// Whose relay hooks it starts the relay for (`None`: both, an earlier version's entry).
    pub(crate) scope: Option<RelayScope>,
    /// The settings file it is in.
    pub(crate) file: PathBuf,
    /// Its command, as written.
    pub(crate) command: String,
}

impl Installed {
    /// Whether a relay run this entry starts runs the hooks of `scope`.
    pub(crate) fn serves(&self, scope: RelayScope) -> bool {
        self.scope.is_none_or(|s| s == scope)
    }
}

/// The relay entries of the agent's settings `files`.
pub(crate) fn installed_entries(dialect: Dialect, files: &[PathBuf]) -> Vec<Installed> {
    let mut entries = Vec::new();
    for file in files {
        let Ok(Some((text, _))) = read_regular(file) else {
            continue;
        };
        let Ok(doc) = open_settings(dialect, &text, file) else {
            continue;
        };
        for found in doc.found(dialect).unwrap_or_default() {
            entries.push(Installed {
                event: found.event,
                matcher: found.matcher,
                scope: found.scope,
                file: file.clone(),
                command: found.command,
            });
        }
    }
    entries
}

/// Whether one of `entries` starts a relay run that runs `handler` (an entry of its scope, on
/// its event, whose matcher covers the hook's).
pub(crate) fn reached(dialect: Dialect, entries: &[Installed], handler: &Handler) -> bool {
    reached_on(
        dialect,
        entries,
        handler,
        handler.event.as_str(),
        handler.matcher.as_deref(),
    )
}

/// Whether one of `entries` starts a relay run that runs `handler`, written in the agent's
/// settings as an entry on `event` with `matcher` (the agent's own terms, for an agent whose
/// events the relay translates; the hook's own otherwise).
pub(crate) fn reached_on(
    dialect: Dialect,
    entries: &[Installed],
    handler: &Handler,
    event: &str,
    matcher: Option<&str>,
) -> bool {
    let scope = RelayScope::of_layer(handler.source.layer);
    let mut on_event = entries
        .iter()
        .filter(|e| e.event == event && e.serves(scope))
        .peekable();
    if on_event.peek().is_none() {
        return false;
    }
    handler.event.match_target(dialect) == MatchTarget::Nothing
        || on_event.any(|e| entry_reaches(dialect, e.matcher.as_deref(), matcher))
}

/// Whether an entry with `entry` as matcher starts the relay for a hook with `hook` as
/// matcher.
pub(crate) fn entry_reaches(dialect: Dialect, entry: Option<&str>, hook: Option<&str>) -> bool {
    if matches_all(entry) {
        return true;
    }
    let entry = entry.unwrap_or_default();
    match hook {
        Some(hook) if !matches_all(Some(hook)) && is_name_list(hook) => {
            let Ok(compiled) = Matcher::compile(dialect, Some(entry)) else {
                return false;
            };
            hook.split('|')
                .filter(|n| !n.is_empty())
                .all(|name| compiled.is_match(name))
        }
        Some(hook) if !matches_all(Some(hook)) => {
            entry == hook
                || entry.split('|').any(|part| part == format!("(?:{hook})"))
                || entry.contains(&format!("(?:{hook})"))
        }
        _ => false,
    }
}

/// One relay entry as found in an agent's settings file (what `hook relay status` shows).
#[derive(Debug, Clone)]
pub(crate) struct FoundEntry {
    /// The event key as written.
    pub(crate) event: String,
    /// Its group's matcher.
    pub(crate) matcher: Option<String>,
    /// Its timeout as written.
    pub(crate) timeout: Option<String>,
    /// Its command: the `hook` program, then `relay --dialect D --event E ...`.
    pub(crate) command: String,
}

/// The relay entries of one agent settings file, in file order: `None` when there is no such
/// file; an error when it cannot be read or is not the agent's format.
pub(crate) fn relay_entries_in(dialect: Dialect, file: &Path) -> Result<Option<Vec<FoundEntry>>> {
    relay_entries_of(agent_of(dialect)?, file)
}

/// The relay entries of `agent`'s settings file `file` ([`relay_entries_in`]; an agent whose
/// events the relay translates too).
pub(crate) fn relay_entries_of(agent: &dyn Agent, file: &Path) -> Result<Option<Vec<FoundEntry>>> {
    let Some((text, _)) = read_regular(file)? else {
        return Ok(None);
    };
    let doc = agent.open(&text, file)?;
    Ok(Some(
        doc.found(agent.dialect())?
            .into_iter()
            .map(|found| FoundEntry {
                event: found.event,
                matcher: found.matcher,
                timeout: found.timeout,
                command: found.command,
            })
            .collect(),
    ))
}

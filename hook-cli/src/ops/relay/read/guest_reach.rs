//! Which relay hooks the entries of an agent whose events the relay translates (Qwen Code,
//! Gemini CLI, Copilot CLI: [`Translation`]) reach: its own settings files (the user's and the
//! project's, [`Agent::settings_file`]) against the relay's Claude Code files, each hook's
//! event and matcher put in the agent's terms as `hook relay install --agent NAME` writes them
//! ([`Agent::entry`], [`Agent::written`]). What `hook relay status --agent NAME` shows, and
//! what the relay started by that agent says at the start of a session; Claude Code's own
//! entries are [`super::reach`]'s.

use std::path::{Path, PathBuf};

use hook_config::Handler;

use super::entries::Wanted;
use super::files::{read_regular, relay_options};
use super::reach::{Installed, Unreached, UnreachedWhy};
use crate::ops::relay::RelayScope;
use crate::ops::relay::agents::{Agent, Translation};

/// The relay entries of `agent` in its user settings and `project`'s: the files looked at
/// (user, then project), and the entries found.
pub(crate) fn guest_entries(
    agent: &Translation,
    project: Option<&Path>,
) -> (Vec<PathBuf>, Vec<Installed>) {
    let mut files: Vec<PathBuf> = agent.settings_file(None).into_iter().collect();
    if let Some(project) = project
        && let Ok(file) = agent.settings_file(Some(project))
        && !files.contains(&file)
    {
        files.push(file);
    }
    let mut entries = Vec::new();
    for file in &files {
        let Ok(Some((text, _))) = read_regular(file) else {
            continue;
        };
        let Ok(doc) = agent.open(&text, file) else {
            continue;
        };
        for found in doc.found(Agent::dialect(agent)).unwrap_or_default() {
            entries.push(Installed {
                event: found.event,
                matcher: found.matcher,
                scope: found.scope,
                file: file.clone(),
                command: found.command,
            });
        }
    }
    (files, entries)
}

/// The relay hooks (of the scopes `said` keeps) that no entry of `agent` starts the relay for,
/// each with why and the `hook relay sync --agent NAME` that fixes it; `None` when the relay's
/// hooks cannot be loaded.
pub(crate) fn guest_unreached(
    agent: &Translation,
    project: Option<&Path>,
    home: Option<&Path>,
    said: impl Fn(RelayScope) -> bool,
) -> Option<Vec<Unreached>> {
    let dialect = Agent::dialect(agent);
    let loaded = hook_config::load(&relay_options(dialect, project, home)).ok()?;
    let (_, entries) = guest_entries(agent, project);
    let mut unreached = Vec::new();
    for handler in loaded.registry.handlers() {
        let scope = RelayScope::of_layer(handler.source.layer);
        if !said(scope) {
            continue;
        }
        let mut add = |why, message, fix| {
            unreached.push(Unreached {
                handler: handler.clone(),
                why,
                message,
                fix,
            });
        };
        let wanted = Wanted {
            event: handler.event.clone(),
            matcher: handler.matcher.clone(),
            timeout: 0,
            on_failure_block: false,
        };
        if agent.entry(&wanted).is_none() {
            add(
                UnreachedWhy::NotSent,
                format!(
                    "relay hook {} never runs: {} has no event the relay reads as {}",
                    handler.key, agent.title, handler.event
                ),
                None,
            );
            continue;
        }
        let written = agent.written(&wanted);
        if reached(agent, handler, &written, &entries) {
            continue;
        }
        let event = written.event.as_str();
        let on_event = entries.iter().any(|e| e.event == event && e.serves(scope));
        let (kind, why) = if on_event {
            (
                UnreachedWhy::MatcherMisses,
                format!(
                    "the {event} entry's matcher does not match `{}`",
                    written.matcher.as_deref().unwrap_or("*")
                ),
            )
        } else {
            (
                UnreachedWhy::NoEntry,
                format!("no {event} entry starts the relay"),
            )
        };
        let mut fix = format!("hook relay sync --agent {}", agent.name());
        if scope == RelayScope::Project
            && let Some(project) = &loaded.discovery.project
        {
            fix.push_str(&crate::shell::path_flag("project", project));
        }
        if let Some(home) = home {
            fix.push_str(&crate::shell::path_flag("home", home));
        }
        add(
            kind,
            format!(
                "relay hook {} never runs: {why} in {}'s settings",
                handler.key, agent.title
            ),
            Some(fix),
        );
    }
    Some(unreached)
}

/// Whether one of `entries` (the agent's) starts a relay run that runs `handler`, whose event
/// and matcher are `written` in the agent's terms.
fn reached(
    agent: &Translation,
    handler: &Handler,
    written: &Wanted,
    entries: &[Installed],
) -> bool {
    super::reach::reached_on(
        Agent::dialect(agent),
        entries,
        handler,
        written.event.as_str(),
        written.matcher.as_deref(),
    )
}

/// What the relay run of `scope` started by `agent` (`hook relay --agent NAME --scope S`) says
/// at the start of a session: the unreached relay hooks of its scope (of both without one); the
/// user's run also names a project's, when the project's file of the agent has no relay entry.
pub(crate) fn guest_unreached_in_scope(
    agent: &Translation,
    project: Option<&Path>,
    home: Option<&Path>,
    scope: Option<RelayScope>,
) -> Vec<String> {
    let project_installed = project.is_some_and(|project| {
        let (_, entries) = guest_entries(agent, Some(project));
        let file = agent.settings_file(Some(project)).ok();
        entries.iter().any(|e| Some(&e.file) == file.as_ref())
    });
    guest_unreached(agent, project, home, |hook_scope| match scope {
        None => true,
        Some(scope) => hook_scope == scope || (scope == RelayScope::User && !project_installed),
    })
    .map(|unreached| unreached.iter().map(Unreached::line).collect())
    .unwrap_or_default()
}

//! Which relay hooks no entry of the agent's file reaches.

use super::*;

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
    unreached(dialect, project, home, |_| true)
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
        dialect.rules().relay().is_some_and(|agent| {
            !installed_entries(
                dialect,
                agent,
                &[project.join(agent.home_dir).join(agent.config_file)],
            )
            .is_empty()
        })
    });
    unreached(dialect, project, home, |hook_scope| {
        hook_scope == scope || (scope == RelayScope::User && !project_installed)
    })
}

/// [`unreached_relay_hooks`] of the hooks whose scope `said` keeps.
fn unreached(
    dialect: Dialect,
    project: Option<&Path>,
    home: Option<&Path>,
    said: impl Fn(RelayScope) -> bool,
) -> Vec<String> {
    let Some(agent) = dialect.rules().relay() else {
        return Vec::new();
    };
    let Ok(loaded) = hook_config::load(&relay_options(dialect, project, home)) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    if let Ok(file) = agent_file(agent, None, None) {
        files.push(file);
    }
    if let Some(project) = project {
        files.push(project.join(agent.home_dir).join(agent.config_file));
    }
    let entries = installed_entries(dialect, agent, &files);
    let mut lines = Vec::new();
    for handler in loaded.registry.handlers() {
        if !said(RelayScope::of_layer(handler.source.layer)) {
            continue;
        }
        if !agent.events.contains(&handler.event) {
            lines.push(format!(
                "relay hook {} never runs: {} does not send {}",
                handler.key, agent.name, handler.event
            ));
            continue;
        }
        if reached(dialect, &entries, handler) {
            continue;
        }
        let scope = RelayScope::of_layer(handler.source.layer);
        let on_event = entries
            .iter()
            .any(|e| e.event == handler.event.as_str() && e.serves(scope));
        let why = if !on_event {
            format!("no {} entry starts the relay", handler.event)
        } else {
            format!(
                "the {} entry's matcher does not match `{}`",
                handler.event,
                handler.matcher.as_deref().unwrap_or("*")
            )
        };
        let mut fix = format!("hook relay sync --dialect {dialect}");
        if scope == RelayScope::Project
            && let Some(project) = &loaded.discovery.project
        {
            fix.push_str(&format!(
                " --project {}",
                crate::shell::quote(&project.display().to_string())
            ));
        }
        if let Some(home) = home {
            fix.push_str(&format!(
                " --home {}",
                crate::shell::quote(&home.display().to_string())
            ));
        }
        lines.push(format!(
            "relay hook {} never runs: {why} in {}'s settings; run `{fix}`",
            handler.key, agent.name
        ));
    }
    lines
}

/// A relay entry installed in an agent's settings file.
#[derive(Debug, Clone)]
pub(super) struct Installed {
    pub(super) event: String,
    pub(super) matcher: Option<String>,
    /// Whose relay hooks it starts the relay for (`None`: both, an earlier version's entry).
    pub(super) scope: Option<RelayScope>,
}

impl Installed {
    /// Whether a relay run this entry starts runs the hooks of `scope`.
    pub(super) fn serves(&self, scope: RelayScope) -> bool {
        self.scope.is_none_or(|s| s == scope)
    }
}

/// The relay entries of the agent's settings `files`.
pub(super) fn installed_entries(
    dialect: Dialect,
    agent: &RelayAgent,
    files: &[PathBuf],
) -> Vec<Installed> {
    let mut entries = Vec::new();
    for file in files {
        let Ok(Some((text, _))) = agent_file::read_regular(file) else {
            continue;
        };
        let Ok(doc) = open_doc(agent.config_format, &text, file) else {
            continue;
        };
        for found in doc.found(dialect).unwrap_or_default() {
            entries.push(Installed {
                event: found.event,
                matcher: found.matcher,
                scope: found.scope,
            });
        }
    }
    entries
}

/// Whether one of `entries` starts a relay run that runs `handler` (an entry of its scope, on
/// its event, whose matcher covers the hook's).
pub(super) fn reached(dialect: Dialect, entries: &[Installed], handler: &Handler) -> bool {
    let scope = RelayScope::of_layer(handler.source.layer);
    let mut on_event = entries
        .iter()
        .filter(|e| e.event == handler.event.as_str() && e.serves(scope))
        .peekable();
    if on_event.peek().is_none() {
        return false;
    }
    handler.event.match_target(dialect) == MatchTarget::Nothing
        || on_event
            .any(|e| entry_reaches(dialect, e.matcher.as_deref(), handler.matcher.as_deref()))
}

/// Whether an entry with `entry` as matcher starts the relay for a hook with `hook` as
/// matcher.
pub(super) fn entry_reaches(dialect: Dialect, entry: Option<&str>, hook: Option<&str>) -> bool {
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
pub(crate) struct InstalledEntry {
    /// The event key as written.
    pub(crate) event: String,
    /// Its group's matcher.
    pub(crate) matcher: Option<String>,
    /// Its timeout as written.
    pub(crate) timeout: Option<String>,
    /// Its command: the `hook` program, then `relay --dialect D --event E ...`.
    pub(crate) command: String,
}

/// The agent's settings file of a scope: the user's (the agent's variable, else `~/` and its
/// folder), or `project`'s.
pub(crate) fn agent_settings_file(agent: &RelayAgent, project: Option<&Path>) -> Result<PathBuf> {
    agent_file(agent, project, None)
}

/// The relay entries of one agent settings file, in file order: `None` when there is no such
/// file; an error when it cannot be read or is not the agent's format.
pub(crate) fn relay_entries_in(
    dialect: Dialect,
    agent: &RelayAgent,
    file: &Path,
) -> Result<Option<Vec<InstalledEntry>>> {
    let Some((text, _)) = agent_file::read_regular(file)? else {
        return Ok(None);
    };
    let doc = open_doc(agent.config_format, &text, file)?;
    Ok(Some(
        doc.found(dialect)?
            .into_iter()
            .map(|found| InstalledEntry {
                event: found.event,
                matcher: found.matcher,
                timeout: found.timeout,
                command: found.command,
            })
            .collect(),
    ))
}

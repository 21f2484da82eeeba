//! Which relay hooks no entry of the agent's file reaches.

use super::*;

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
/// event has no relay entry in the agent's user settings (or the project's), or whose tools
/// the entry's matcher does not match. Each line names the hook's key and the command that
/// fixes it (`hook relay sync ...`). Empty for a dialect without a relay agent, or when the
/// relay's hooks cannot be loaded.
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
    let agent = dialect.rules().relay()?;
    let loaded = hook_config::load(&relay_options(dialect, project, home)).ok()?;
    let mut files = Vec::new();
    if let Ok(file) = agent_file(agent, None, None) {
        files.push(file);
    }
    if let Some(project) = project {
        files.push(project.join(agent.home_dir).join(agent.config_file));
    }
    let found = relay_entries(dialect, agent, &files);
    let entries: Vec<(String, Option<String>)> = found
        .iter()
        .map(|(_, found)| (found.event.clone(), found.matcher.clone()))
        .collect();
    let mut unreached = Vec::new();
    for handler in loaded.registry.handlers() {
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
        let on_event = entries.iter().any(|(e, _)| e == handler.event.as_str());
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
        if handler.source.layer != Layer::User
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
        entries: found
            .into_iter()
            .map(|(file, found)| InstalledEntry {
                file,
                event: found.event,
                command: found.command,
            })
            .collect(),
        hooks: loaded.registry.handlers().len(),
        unreached,
    })
}

/// The relay entries, `(event, matcher)`, of the agent's settings `files`.
pub(super) fn installed_entries(
    dialect: Dialect,
    agent: &RelayAgent,
    files: &[PathBuf],
) -> Vec<(String, Option<String>)> {
    relay_entries(dialect, agent, files)
        .into_iter()
        .map(|(_, found)| (found.event, found.matcher))
        .collect()
}

/// The relay entries of the agent's settings `files`, each with its file.
fn relay_entries(dialect: Dialect, agent: &RelayAgent, files: &[PathBuf]) -> Vec<(PathBuf, Found)> {
    let mut entries = Vec::new();
    for file in files {
        let Ok(Some((text, _))) = agent_file::read_regular(file) else {
            continue;
        };
        let Ok(doc) = open_doc(agent.config_format, &text, file) else {
            continue;
        };
        for found in doc.found(dialect).unwrap_or_default() {
            entries.push((file.clone(), found));
        }
    }
    entries
}

/// Whether one of `entries` starts the relay for `handler`.
pub(super) fn reached(
    dialect: Dialect,
    entries: &[(String, Option<String>)],
    handler: &Handler,
) -> bool {
    let mut on_event = entries
        .iter()
        .filter(|(event, _)| event == handler.event.as_str())
        .peekable();
    if on_event.peek().is_none() {
        return false;
    }
    handler.event.match_target(dialect) == MatchTarget::Nothing
        || on_event
            .any(|(_, entry)| entry_reaches(dialect, entry.as_deref(), handler.matcher.as_deref()))
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

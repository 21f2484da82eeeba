//! Codex's own trust of its hooks: a `[hooks.state]` record in the user's `config.toml` per
//! hook, keyed by the settings file, the event and the hook's place, holding the hash Codex
//! computes of the hook as written ([`hook_trust::codex_trust_hash`], checked against the real
//! Codex). Codex runs a hook only while its record holds its current hash; `hook relay install
//! --trust` writes the records of the relay's entries, `--move` keeps trusting what Codex ran,
//! and `hook relay status` and `hook doctor` check them.

use std::path::{Path, PathBuf};

use anyhow::Result;
use hook_protocol::{Dialect, Event, RelayAgent};

use crate::ops::relay::agents::WrittenHook;
use crate::ops::relay::read::files::agent_home;

/// How Codex names the settings `file` in its trust keys: its absolute path, the folder
/// resolved as Codex resolves it (when the agent's variable names its home, or in a project:
/// `in_project`).
///
/// # Errors
///
/// When a relative `file` cannot be made absolute (no current directory).
pub(crate) fn key_source(agent: &RelayAgent, file: &Path, in_project: bool) -> Result<String> {
    let absolute = match file.parent().map(Path::canonicalize) {
        Some(Ok(dir)) if std::env::var_os(agent.home_env).is_some() || in_project => {
            dir.join(file.file_name().unwrap_or_default())
        }
        _ if file.is_absolute() => file.to_path_buf(),
        _ => std::env::current_dir()?.join(file),
    };
    Ok(absolute.display().to_string())
}

/// The `config.toml` whose `[hooks.state]` Codex reads for the hooks of `settings_file`: the
/// user's (the settings file itself in user scope, also one `--agent-config` named).
///
/// # Errors
///
/// When the user's Codex home cannot be found (no `CODEX_HOME`, no `HOME`).
pub(crate) fn records_file(
    agent: &RelayAgent,
    settings_file: &Path,
    project: Option<&Path>,
) -> Result<PathBuf> {
    if project.is_none() {
        return Ok(settings_file.to_path_buf());
    }
    Ok(agent_home(agent)?.join(agent.config_file))
}

/// The records an agent keeps of which hooks of one settings file it runs, read once.
#[derive(Debug)]
pub(crate) struct HookRecords {
    dialect: Dialect,
    /// How the agent names the settings file in its keys ([`key_source`]).
    key_source: String,
    records: hook_trust::Records,
}

impl HookRecords {
    /// The records in `records`, for the settings file the agent names `key_source`.
    pub(crate) fn new(dialect: Dialect, key_source: String, records: hook_trust::Records) -> Self {
        HookRecords {
            dialect,
            key_source,
            records,
        }
    }

    /// The record that lets `hook` run (its key, and the hash of the hook as written), `None`
    /// for a handler without a command (never run, never trusted).
    pub(crate) fn grant(&self, hook: &WrittenHook) -> Option<hook_trust::Grant> {
        let command = hook.command.as_deref()?;
        let event = Event::from_name(&hook.event);
        let written = hook_trust::CodexHook::new(&event, command)
            .with_matcher(hook.matcher.as_deref())
            .with_timeout(hook.timeout)
            .with_async(hook.is_async)
            .with_status_message(hook.status_message.as_deref())
            .with_additional_context_limit(hook.additional_context_limit);
        let key = hook_trust::codex_trust_key(&self.key_source, &event, hook.group, hook.handler);
        Some(hook_trust::Grant::new(
            key,
            hook_trust::codex_trust_hash(self.dialect, &written),
        ))
    }

    /// Whether the agent runs `hook` now: its record holds the hook's current hash.
    pub(crate) fn trusts(&self, hook: &WrittenHook) -> bool {
        self.grant(hook).is_some_and(|grant| self.holds(&grant))
    }

    /// Whether the records hold `grant` already.
    pub(crate) fn holds(&self, grant: &hook_trust::Grant) -> bool {
        self.records
            .get(&grant.key)
            .and_then(|r| r.trusted_hash.as_deref())
            == Some(grant.hash.as_str())
    }
}

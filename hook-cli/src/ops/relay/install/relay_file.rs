//! The relay's own hook file of a scope (`~/.claude/hook-relay/settings.json`,
//! `$CODEX_HOME/hook-relay/config.toml`, a project's), edited as `hook relay` edits every file:
//! locked in the relay's user folder, kept as it was before (`<name>.first`, then numbered
//! backups), only the bytes meant changed, replaced atomically with its mode and owner, a
//! symbolic link edited through, a project's file refused when it resolves outside the
//! project. What `hook guard add` and `remove` write their guard's entry with.

use std::path::PathBuf;

use anyhow::Result;

use super::ThroughLink;
use super::agent_file::lock_and_read;
use super::scope::{Resolved, ScopeOptions};
use crate::ops::relay::agents::SettingsDoc;

/// The relay's hook file of one scope, resolved.
pub(crate) struct RelayFile {
    scope: Resolved,
    /// The file: the user's relay file, or the project's shared one.
    pub(crate) path: PathBuf,
}

/// What an edit of the relay's file did.
#[derive(Debug, Default)]
pub(crate) struct RelayFileEdit {
    /// The file is reached through a symbolic link.
    pub(crate) through_link: Option<ThroughLink>,
    /// Where the file was kept as it was, when it existed and changed.
    pub(crate) backup: Option<PathBuf>,
    /// Whether its text changed.
    pub(crate) changed: bool,
    /// Whether the edit created it.
    pub(crate) created: bool,
}

impl RelayFile {
    /// The relay's hook file of `scope`'s agent (its dialect's relay files: Claude Code's for an
    /// agent whose events the relay translates) and scope.
    ///
    /// # Errors
    ///
    /// When the scope cannot be resolved (a project that does not exist, no home).
    pub(crate) fn of(scope: &ScopeOptions) -> Result<RelayFile> {
        let own = ScopeOptions {
            agent: None,
            agent_config: None,
            ..scope.clone()
        };
        let scope = own.resolve()?;
        let path = scope.relay_settings_file()?;
        Ok(RelayFile { scope, path })
    }

    /// This scope's relay hooks as the relay loads them, once its state is settled.
    ///
    /// # Errors
    ///
    /// When they cannot be loaded.
    pub(crate) fn load(&self) -> Result<hook_config::Loaded> {
        self.scope.relay_hooks()
    }

    /// Edits the file: `edit` changes the parsed document (the relay hooks' format: JSON for
    /// Claude Code's, TOML for Codex's); written back when its text changed.
    ///
    /// # Errors
    ///
    /// When the file cannot be locked, read (not a regular file, too large, not UTF-8, outside
    /// the project), parsed or written, or `edit` fails; the file is then unchanged.
    pub(crate) fn edit(
        &self,
        edit: impl FnOnce(&mut dyn SettingsDoc) -> Result<()>,
    ) -> Result<RelayFileEdit> {
        let mut done = RelayFileEdit::default();
        let locked = lock_and_read(
            &self.path,
            self.scope.inside(),
            &mut done.through_link,
            &self.scope.state_places()?,
        )?;
        let before = locked.text.clone().unwrap_or_default();
        let mut doc = self.scope.adapter.open(&before, &locked.path)?;
        let opened = doc.text();
        edit(doc.as_mut())?;
        let after = doc.text();
        if after == opened {
            return Ok(done);
        }
        if let Some(text) = &locked.text {
            done.backup = Some(locked.state.backup(text)?);
        }
        locked.write(&after)?;
        done.changed = true;
        done.created = locked.text.is_none();
        Ok(done)
    }
}

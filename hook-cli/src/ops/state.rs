//! Where the engine keeps its state for a location, and the one move of the relay's state from
//! where earlier versions kept it.
//!
//! Choices:
//!
//! - **Where**: [`hook_config::Discovery::state_dir`], the one answer every command asks (trust
//!   store, private copies, digest cache, journal, side files, `CLAUDE_ENV_FILE` folders): the
//!   dialect's home, except for the relay of Claude Code and Codex, whose state sits beside the
//!   agent in the relay's user folder (`~/.claude/hook-relay/`, `$CODEX_HOME/hook-relay/`).
//!   `--home DIR` keeps it in `DIR`, for the relay too.
//! - **Created when first needed**: the relay's folder is made (0700, through
//!   `hook_fs`) by the first thing that writes there, the journal of the first relayed
//!   event included, so every dispatch is recorded from the first one. It is made only inside an
//!   agent home that exists ([`may_create`]): the relay never creates `~/.codex` or `~/.claude`.
//!   A dialect's own home (the lime dialect's `~/.lime`) is still never created by recording.
//! - **The move, once**: the relay's trust records that an earlier version kept in the dialect's
//!   home ([`hook_config::Discovery::legacy_state_dir`]) are moved into the new store: written
//!   there first (a record the new store already has is kept as it is), with the private copies
//!   they refer to, then removed from the old store, so no run finds them nowhere and none can
//!   come back after a later `hook untrust`. Records are the relay's when their key names a file
//!   in a relay folder (`.../hook-relay/config.toml:...`): the dialect's own records (its own
//!   hooks, e.g. `user:config.toml:...` for lime) are never touched, and the dialect's home
//!   keeps every file of its own. Plugin records (whose keys are the same for the relay and the
//!   dialect) are copied, not moved, and only when the relay is in use (its folder exists, or
//!   records of its hooks are waiting): a user of the dialect alone sees nothing made and
//!   nothing said. Where the old store does not exist (a fresh install), nothing is moved,
//!   written or said, not even the record of the move. A file in the new folder
//!   ([`MOVED_MARKER`]) says what moved and makes it happen once; the warning naming the old and new places (and where the journal's earlier
//!   lines are) is said then, on stderr (and in the agent's session by `hook relay`).
//! - **What stays**: the journal's earlier lines stay where they were (`hook log --dialect D`
//!   reads the dialect's journal and the relay's; `--home OLD` reads the old one alone); the
//!   digest cache is rebuilt (a cache), side files and `CLAUDE_ENV_FILE` folders are short-lived.
//! - **A move that fails** (an old store that cannot be read, a new one that cannot be written)
//!   is a warning naming the file and the fix, and is tried again by the next command; the
//!   relay's hooks then read as untrusted (they are skipped, with the command that trusts them),
//!   as with any store that cannot be read.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use hook_config::{Diagnostic, Discovery, RELAY_DIR};
use hook_protocol::DialectRules;
use hook_trust::{Grant, StoreError, TrustStore, TrustedCopies, store_for};

/// The file, in the relay's state folder, that records the move from the earlier place (and
/// keeps it from happening twice).
pub(crate) const MOVED_MARKER: &str = "hook-state-moved.txt";

/// Whether the journal (and the other state folders) may be created in `discovery`'s state
/// folder: it exists, or it is the relay's own folder in an agent home that exists.
pub(crate) fn may_create(discovery: &Discovery) -> bool {
    let state = &discovery.state_dir;
    if state.is_dir() {
        return true;
    }
    // The relay's folder beside the agent: made when needed, in the agent's existing home.
    state != &discovery.home && state.parent().is_some_and(Path::is_dir)
}

/// Why the relay's state could not be moved (said as a warning; the move is tried again by
/// the next command).
#[derive(Debug)]
enum MoveError {
    /// A store could not be read or written (the error names the file).
    Store(StoreError),
    /// The record of the move could not be written.
    Marker {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Store(error) => write!(
                f,
                "{error}; fix it, then run the command again (the move is tried again each time)"
            ),
            MoveError::Marker { path, source } => write!(
                f,
                "{}: cannot record that the relay's state moved: {source}; make the folder writable (the move is tried again each time)",
                path.display()
            ),
        }
    }
}

/// What moving the relay's state did.
#[derive(Debug, Default)]
struct Moved {
    /// The relay's records moved from the old store to the new one.
    records: Vec<String>,
    /// Plugin records copied.
    plugins: Vec<String>,
    /// Whether the old place has a journal (its lines stay there; said when records moved).
    old_journal: bool,
}

/// What [`settle`] has to say: the one-time word of a move, or why it could not be made.
#[derive(Debug, Default)]
pub(crate) struct Settled {
    /// The state moved now (said once: the relay also says it in the agent's session).
    pub(crate) moved: Option<Diagnostic>,
    /// The move could not be made (said by every command until fixed; stderr only, never the
    /// agent's session on every event).
    pub(crate) failed: Option<Diagnostic>,
}

impl Settled {
    /// Both, as the diagnostics a command prints.
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        self.moved.iter().chain(&self.failed).cloned().collect()
    }
}

/// Moves the relay's state from where an earlier version kept it, once (see the module docs);
/// what there is to say about it. Nothing when the state never moved
/// ([`Discovery::legacy_state_dir`] is `None`), when it was moved before, or when the old place
/// holds nothing of the relay's.
pub(crate) fn settle(discovery: &Discovery) -> Settled {
    let Some(old) = discovery.legacy_state_dir.as_deref() else {
        return Settled::default();
    };
    let new = discovery.state_dir.as_path();
    let marker = new.join(MOVED_MARKER);
    if std::fs::symlink_metadata(&marker).is_ok() {
        return Settled::default();
    }
    let old_store = store_for(discovery.dialect, old);
    let new_store = store_for(discovery.dialect, new);
    match move_state(discovery, old, &*old_store, &*new_store, &marker) {
        Ok(moved) if moved.records.is_empty() && moved.plugins.is_empty() => Settled::default(),
        Ok(moved) => Settled {
            moved: Some(Diagnostic::warning(
                new.display().to_string(),
                None,
                said(discovery, old, &*old_store, &*new_store, &moved),
            )),
            failed: None,
        },
        Err(error) => Settled {
            moved: None,
            failed: Some(Diagnostic::warning(
                old_store.location().display().to_string(),
                None,
                format!(
                    "the relay's state could not be moved from {} to {}: {error}",
                    old.display(),
                    new.display()
                ),
            )),
        },
    }
}

fn move_state(
    discovery: &Discovery,
    old: &Path,
    old_store: &dyn TrustStore,
    new_store: &dyn TrustStore,
    marker: &Path,
) -> Result<Moved, MoveError> {
    let rules = discovery.dialect.rules();
    let mut moved = Moved {
        old_journal: !hook_exec::journal::Journal::for_home(old)
            .existing_files()
            .is_empty(),
        ..Moved::default()
    };
    if std::fs::symlink_metadata(old_store.location()).is_err() {
        // No store there (a fresh install): nothing was ever kept there, nothing to move,
        // nothing to write or say. Looking costs this one `stat` per command.
        return Ok(moved);
    }
    let old_records = old_store.load().map_err(MoveError::Store)?;
    let relay: Vec<String> = old_records
        .keys()
        .filter(|key| names_a_relay_file(key, rules))
        .cloned()
        .collect();
    // The relay is in use when its folder exists (its user file is there) or records of its
    // hooks are waiting: only then are plugin records copied, and anything made or said. A
    // user of the dialect alone (`hook doctor`, which looks at the relay too) sees nothing.
    let in_use = discovery.state_dir.is_dir();
    if relay.is_empty() && !in_use {
        return Ok(moved);
    }
    let plugins: Vec<String> = old_records
        .keys()
        .filter(|key| key.starts_with("plugin:"))
        .cloned()
        .collect();
    let have = new_store.load().map_err(MoveError::Store)?;
    let wanted: BTreeSet<&String> = relay
        .iter()
        .chain(&plugins)
        .filter(|key| !have.contains_key(*key))
        .collect();
    if relay.is_empty() && wanted.is_empty() {
        // Nothing to move: recorded (the folder exists), so the old store is not read again.
        write_marker(marker, &Moved::default(), old)?;
        return Ok(moved);
    }
    let mut grants = Vec::new();
    let mut disabled = Vec::new();
    for key in &wanted {
        let record = &old_records[*key];
        if let Some(hash) = &record.trusted_hash {
            let mut grant = Grant::new(key.as_str(), hash.as_str());
            if let Some(command) = &record.trusted_command {
                grant = grant.with_command(command.as_str());
            }
            if let Some(files) = &record.trusted_files {
                grant = grant.with_files(files.clone());
            }
            grants.push(grant);
        }
        if !record.enabled {
            disabled.push((*key).clone());
        }
    }
    if !grants.is_empty() {
        new_store.set_trusted(&grants).map_err(MoveError::Store)?;
    }
    if !disabled.is_empty() {
        new_store
            .set_enabled(&disabled, false)
            .map_err(MoveError::Store)?;
    }
    copy_copies(old, &discovery.state_dir, &grants);
    // Only once they are in the new store: a run in between finds them in one place or both.
    if !relay.is_empty() {
        old_store.remove_trust(&relay).map_err(MoveError::Store)?;
        old_store
            .set_enabled(&relay, true)
            .map_err(MoveError::Store)?;
    }
    let copied: Vec<String> = plugins
        .iter()
        .filter(|key| wanted.contains(key))
        .cloned()
        .collect();
    moved.records = relay;
    moved.plugins = copied;
    write_marker(marker, &moved, old)?;
    Ok(moved)
}

/// The private copies (what `hook trust --review` diffs against) of what `grants` trusted,
/// from the old copies' folder to the new one. Best effort: a copy that cannot be kept costs a
/// diff in a later review, never trust.
fn copy_copies(old: &Path, new: &Path, grants: &[Grant]) {
    let (from, to) = (TrustedCopies::in_home(old), TrustedCopies::in_home(new));
    let digests = grants.iter().flat_map(|grant| {
        std::iter::once(&grant.hash).chain(grant.files.iter().flat_map(|files| files.values()))
    });
    for digest in digests {
        if let Some(bytes) = from.read(digest)
            && to.keep_bytes(&bytes, digest).is_err()
        {
            return;
        }
    }
}

/// Records the move in `marker` (0600, in the new folder, made private when missing).
fn write_marker(marker: &Path, moved: &Moved, old: &Path) -> Result<(), MoveError> {
    let failed = |source| MoveError::Marker {
        path: marker.to_owned(),
        source,
    };
    let folder = marker.parent().unwrap_or(Path::new("."));
    hook_fs::private_folder(folder).map_err(|e| failed(std::io::Error::other(e)))?;
    let mut file = match hook_fs::create_new_private(marker) {
        Ok(file) => file,
        // Another process recorded it first.
        Err(hook_fs::FsError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::AlreadyExists =>
        {
            return Ok(());
        }
        Err(error) => return Err(failed(std::io::Error::other(error))),
    };
    let what = if moved.records.is_empty() && moved.plugins.is_empty() {
        "nothing of the relay's was there".to_owned()
    } else {
        format!(
            "{} trust record(s) of relay hooks moved, {} of plugin hooks copied",
            moved.records.len(),
            moved.plugins.len()
        )
    };
    let text = format!(
        "The state of `hook relay` (trust records, journal, private copies) is kept in this folder.\n\
         Earlier versions kept it in {}; looked there on {}: {what}.\n\
         The journal's earlier lines stay in {}. Delete this file to look for old records again.\n",
        old.display(),
        jiff::Timestamp::now(),
        old.join(hook_exec::journal::JOURNAL_DIR).display(),
    );
    file.write_all(text.as_bytes()).map_err(failed)
}

/// The one warning of a move: from where to where, what moved, where the old lines are.
fn said(
    discovery: &Discovery,
    old: &Path,
    old_store: &dyn TrustStore,
    new_store: &dyn TrustStore,
    moved: &Moved,
) -> String {
    let new = &discovery.state_dir;
    let agent = discovery
        .dialect
        .rules()
        .agent()
        .relay()
        .map_or("the agent", |agent| agent.name);
    let mut text = format!(
        "the relay's state (trust records, journal, private copies) is kept here now, beside {agent}, instead of {}",
        old.display()
    );
    if !moved.records.is_empty() {
        text.push_str(&format!(
            "; moved {} trust record(s) of relay hooks from {} to {}",
            moved.records.len(),
            old_store.location().display(),
            new_store.location().display()
        ));
    }
    if !moved.plugins.is_empty() {
        text.push_str(&format!("; copied {} of plugin hooks", moved.plugins.len()));
    }
    if moved.old_journal {
        text.push_str(&format!(
            "; the journal's earlier lines stay in {} (`hook log --dialect {}` reads them with the new ones)",
            old.join(hook_exec::journal::JOURNAL_DIR).display(),
            discovery.dialect
        ));
    }
    text.push_str(&format!(
        "; everything else in {} is left as it was (said once: {})",
        old.display(),
        new.join(MOVED_MARKER).display()
    ));
    text
}

/// Whether `key` names a hook of a relay file (`<layer>:<path>/hook-relay/<file>:...` with
/// `<file>` one of the dialect's file names): the relay's own records, never the dialect's.
pub(crate) fn names_a_relay_file(key: &str, rules: &DialectRules) -> bool {
    let Some((layer, rest)) = key.split_once(':') else {
        return false;
    };
    if !matches!(layer, "user" | "project" | "local") {
        return false;
    }
    let names = [
        Some(rules.config().config_file()),
        rules.config().hooks_file(),
        rules.config().local_config_file(),
    ];
    names.into_iter().flatten().any(|name| {
        ['/', '\\'].into_iter().any(|separator| {
            let needle = format!("{RELAY_DIR}{separator}{name}:");
            rest.match_indices(&needle)
                .any(|(at, _)| at == 0 || rest[..at].ends_with(['/', '\\']))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::Dialect;

    #[test]
    fn only_keys_of_relay_files_are_the_relays() {
        let lime = Dialect::Lime.rules();
        for key in [
            "user:hook-relay/config.toml:PreToolUse:Bash:0",
            "user:/home/me/.codex/hook-relay/config.toml:PreToolUse:Bash:0",
            "user:/home/me/.codex/hook-relay/hooks.json:Stop::0",
            "project:/work/app/.codex/hook-relay/config.toml:PreToolUse:Bash|Edit:1",
            "project:/work/app/.lime/hook-relay/config.toml:PreToolUse::0",
        ] {
            assert!(names_a_relay_file(key, lime), "{key}");
        }
        for key in [
            "user:config.toml:PreToolUse:Bash:0",
            "user:hooks.json:PreToolUse:Bash:0",
            "project:/work/hook-relay/.lime/config.toml:PreToolUse:Bash:0",
            "project:/work/app/.lime/config.toml:PreToolUse:hook-relay/config.toml:0",
            "plugin:guard:PreToolUse:Bash:0",
            "session:x:PreToolUse:Bash:0",
            "user:my-hook-relay/config.toml:PreToolUse:Bash:0",
        ] {
            assert!(!names_a_relay_file(key, lime), "{key}");
        }
        let verboo = Dialect::Verboo.rules();
        assert!(names_a_relay_file(
            "local:/w/.claude/hook-relay/settings.local.json:PreToolUse:Bash:0",
            verboo
        ));
        assert!(!names_a_relay_file(
            "project:/w/.claude/settings.json:PreToolUse:Bash:0",
            verboo
        ));
    }
}

//! What `hook relay` keeps of each file it edits, always in the relay's **user** folder
//! (`~/.claude/hook-relay/`, `$CODEX_HOME/hook-relay/`, `<home>/hook-relay/` with `--home`),
//! never beside the agent's settings and never in a project: one folder per file,
//! `install/<file name>-<12 hex digits of the SHA-256 of its path>/` (a project's files are
//! keyed by their path, so by the project), holding
//!
//! - `lock`: the lock every edit of the file takes (and Codex's trust records written into it);
//! - `<name>.first`: the file as it was before `hook relay` first changed it, never
//!   overwritten;
//! - `<name>.1`, `<name>.2`, ...: the file before each later change (one per command that
//!   changed it, numbered up; the newest [`KEEP_BACKUPS`] are kept, and a change whose
//!   before is the newest backup already adds none);
//! - `state.json`: what `uninstall` needs to give back what `install` took (the hooks `--move`
//!   moved and the file as it was, the file `install` created, Codex's trust records `--trust`
//!   wrote).
//!
//! **Install state is the user's, never the project's.** What decides what `uninstall` removes
//! (Codex's records in the user's `config.toml`, a created file, moves) must come from where a
//! clone cannot write. Earlier versions kept a project's state in the project's relay folder
//! (`<project>/.claude/hook-relay/install/...`), and a `<file>.hook-relay.created` beside the
//! file; a clone can ship either. What is read of them ([`Earlier`]):
//!
//! - a project's old `state.json` is taken into the user's state once (then removed, so it is
//!   never taken in twice), keeping only what cannot harm: Codex records whose key names the
//!   project's file itself (never one of the user's own files), and moves, marked
//!   [`MoveRecord::from_project`]: given back inside the project only, and never deleting a
//!   file. Its `created` is dropped: a marker a project can commit never deletes a file (the
//!   file then stays, its relay entries taken out);
//! - `<file>.hook-relay.created` is honoured (and removed) only beside the user's own settings
//!   file in the agent's home, which no project writes; elsewhere it is left alone, unread.
//!
//! `install/` holds a `.gitignore` of `*` (kept from when a project's folder held it).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The folder of the install state, in a relay folder.
pub(crate) const STATE_DIR: &str = "install";

/// How many numbered backups of a file are kept (besides the first, kept for ever).
pub(crate) const KEEP_BACKUPS: u64 = 10;

/// The most `state.json` may hold: the texts of a few settings files.
const MAX_STATE_BYTES: u64 = 64 * 1024 * 1024;

/// The format of `state.json` this version writes.
const STATE_VERSION: u32 = 1;

/// The state folder of one file.
#[derive(Debug, Clone)]
pub(crate) struct StateDir {
    dir: PathBuf,
    /// The file's name, for the backups' names.
    name: String,
    /// What of an earlier version's state of the file is read.
    earlier: Earlier,
}

/// What of the state an earlier version kept elsewhere a file's state reads (see the module
/// docs).
#[derive(Debug, Clone)]
pub(crate) enum Earlier {
    /// Nothing: a file `--agent-config` named may be a project's, and a marker beside it
    /// committed.
    Nothing,
    /// The user's own settings file, in the agent's home: the `<file>.hook-relay.created`
    /// beside it is the user's.
    UsersOwn,
    /// A file of the project `project`: the `state.json` an earlier version kept at `state`,
    /// in the project's relay folder, is taken in for what cannot harm.
    Project { state: PathBuf, project: PathBuf },
}

/// What `hook relay` remembers of one file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct State {
    /// The format version.
    #[serde(default)]
    pub(crate) v: u32,
    /// The file (for a person reading this).
    #[serde(default)]
    pub(crate) file: PathBuf,
    /// The text `install` wrote when it created the file: `uninstall` removes the file again
    /// when nothing else is in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) created: Option<String>,
    /// `install --move`s of this file's hooks, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) moves: Vec<MoveRecord>,
    /// Codex's trust records `--trust` wrote for this file's entries (in the user's
    /// `config.toml`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) codex_records: Vec<CodexRecord>,
}

/// One `--move`: the agent's file before it, the groups moved, and the relay file they went to.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct MoveRecord {
    /// The agent's file before the move.
    pub(crate) before: String,
    /// The digest of the agent's file as `hook relay` last left it since the move: while it is
    /// still that, `uninstall` puts `before` back byte for byte.
    pub(crate) after: String,
    /// The groups moved, each as written.
    pub(crate) groups: Vec<MovedGroup>,
    /// The relay file they were appended to.
    pub(crate) relay_file: PathBuf,
    /// The relay file before (`None`: the move created it).
    pub(crate) relay_before: Option<String>,
    /// The digest of the relay file after the move.
    pub(crate) relay_after: String,
    /// Read from a project's own folder, where an earlier version kept it and a clone can
    /// ship one: given back inside the project only, and it never deletes a file.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) from_project: bool,
}

/// A moved group: its event, and its text (JSON: the group as written; TOML: a document holding
/// only `[[hooks.<event>]]` with it).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct MovedGroup {
    pub(crate) event: String,
    pub(crate) text: String,
}

/// A trust record of Codex's that `--trust` wrote: its key and hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CodexRecord {
    pub(crate) key: String,
    pub(crate) hash: String,
}

/// The SHA-256 of `text`, in hex.
pub(crate) fn digest(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

impl State {
    /// Whether there is anything to remember.
    fn is_empty(&self) -> bool {
        self.created.is_none() && self.moves.is_empty() && self.codex_records.is_empty()
    }

    /// `hook relay` wrote `new` over `old`: the newest move follows the file while nobody
    /// else changed it (a `sync` after the move keeps the way back byte for byte).
    pub(crate) fn wrote(&mut self, old: Option<&str>, new: &str) {
        if let (Some(last), Some(old)) = (self.moves.last_mut(), old)
            && last.after == digest(old)
        {
            last.after = digest(new);
        }
    }

    /// Takes in what can do no harm of `old`, the state an earlier version kept for `file` in
    /// the project `project`'s folder (which a clone can ship): the Codex records of `file`
    /// itself and the moves (marked [`MoveRecord::from_project`]); never its `created`.
    fn take_in_from_project(&mut self, old: State, file: &Path, project: &Path) {
        let own = format!("{}:", file.display());
        for record in old.codex_records {
            // A key names the file whose entry it trusts: only the project's file itself.
            if record.key.starts_with(&own) && !self.codex_records.contains(&record) {
                self.codex_records.push(record);
            }
        }
        for mut record in old.moves {
            if record.relay_file.starts_with(project) {
                record.from_project = true;
                self.moves.push(record);
            }
        }
    }
}

impl StateDir {
    /// The state folder of the file `real` (its path as the kernel opens it) in `relay_folder`.
    pub(crate) fn for_file(relay_folder: &Path, real: &Path) -> StateDir {
        let name = real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "file".to_owned());
        let hash = digest(&real.display().to_string());
        StateDir {
            dir: relay_folder
                .join(STATE_DIR)
                .join(format!("{name}-{}", &hash[..12])),
            name,
            earlier: Earlier::Nothing,
        }
    }

    /// This state, reading `earlier` of what an earlier version kept elsewhere.
    pub(crate) fn with_earlier(mut self, earlier: Earlier) -> StateDir {
        self.earlier = earlier;
        self
    }

    /// The lock file.
    pub(crate) fn lock_path(&self) -> PathBuf {
        self.dir.join("lock")
    }

    /// Makes the folder (private, 0700) and the `.gitignore` of `install/`.
    ///
    /// # Errors
    ///
    /// When a folder cannot be made or is not private (another user's, or writable by others).
    pub(crate) fn prepare(&self) -> Result<()> {
        let parent = self.dir.parent().unwrap_or(&self.dir);
        hook_fs::private_folder(parent).with_context(|| {
            format!(
                "cannot keep the relay's install state in {}: make it a folder of yours, not writable by others",
                parent.display()
            )
        })?;
        let ignore = parent.join(".gitignore");
        if std::fs::symlink_metadata(&ignore).is_err() {
            super::atomic::write_file(
                &ignore,
                None,
                b"# hook relay's install state (locks, backups): this machine's own.\n*\n",
            )?;
        }
        hook_fs::private_folder(&self.dir).with_context(|| {
            format!(
                "cannot keep the relay's install state in {}: make it a folder of yours, not writable by others",
                self.dir.display()
            )
        })
    }

    /// `state.json`, where it is now.
    pub(crate) fn state_file(&self) -> PathBuf {
        self.dir.join("state.json")
    }

    /// The state of the file `file`, with what of an earlier version's it reads ([`Earlier`]):
    /// beside the user's own file, the file install created (`<file>.hook-relay.created`,
    /// removed when the state is next saved); a project's old `state.json`, what cannot harm
    /// of it (removed when the state is next saved: taken in once).
    ///
    /// # Errors
    ///
    /// When `state.json` cannot be read, or was written by a newer `hook`.
    pub(crate) fn load(&self, file: &Path) -> Result<State> {
        let mut state = read_state(&self.state_file())?.unwrap_or_default();
        match &self.earlier {
            Earlier::Nothing => {}
            Earlier::UsersOwn => {
                if state.created.is_none()
                    && let Ok(Some(text)) = read_text(&legacy_created(file), MAX_STATE_BYTES)
                {
                    state.created = Some(text);
                }
            }
            Earlier::Project {
                state: old,
                project,
            } => {
                // One a clone made unreadable decides nothing, and stops nothing either.
                if let Ok(Some(old)) = read_state(old) {
                    state.take_in_from_project(old, file, project);
                }
            }
        }
        state.file = file.to_path_buf();
        Ok(state)
    }

    /// Writes `state` (0600), and removes what earlier versions kept beside the file (their
    /// record of a created file).
    ///
    /// # Errors
    ///
    /// When it cannot be written.
    pub(crate) fn save(&self, state: &State) -> Result<()> {
        let mut state = state.clone();
        state.v = STATE_VERSION;
        let path = self.state_file();
        if state.is_empty() {
            if std::fs::symlink_metadata(&path).is_ok() {
                std::fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?;
            }
        } else {
            let text = serde_json::to_string_pretty(&state).context("the install state")?;
            super::atomic::write_file(&path, None, format!("{text}\n").as_bytes())?;
        }
        match &self.earlier {
            Earlier::Nothing => {}
            Earlier::UsersOwn => {
                let legacy = legacy_created(&state.file);
                if std::fs::symlink_metadata(&legacy).is_ok() {
                    let _ = std::fs::remove_file(&legacy);
                }
            }
            Earlier::Project { state: old, .. } => {
                // Taken in above: removed, so that it is never taken in twice (moves given
                // back would come back).
                if std::fs::symlink_metadata(old).is_ok() {
                    std::fs::remove_file(old).with_context(|| {
                        format!(
                            "cannot remove {}, the install state an earlier hook kept in the project, now kept in {}; remove it by hand",
                            old.display(),
                            path.display()
                        )
                    })?;
                }
            }
        }
        Ok(())
    }

    /// Keeps `text` (the file before a change): as `<name>.first` the first time, never
    /// overwritten; then as the next `<name>.<n>`, the newest [`KEEP_BACKUPS`] kept. Where the
    /// newest backup already holds `text`, that one is named and nothing is written.
    ///
    /// # Errors
    ///
    /// When it cannot be written.
    pub(crate) fn backup(&self, text: &str) -> Result<PathBuf> {
        let first = self.first_backup();
        if std::fs::symlink_metadata(&first).is_err() {
            super::atomic::write_file(&first, None, text.as_bytes())?;
            return Ok(first);
        }
        let numbers = self.numbered();
        let newest = numbers
            .last()
            .map_or_else(|| first.clone(), |n| self.numbered_path(*n));
        if read_text(&newest, MAX_STATE_BYTES)
            .ok()
            .flatten()
            .as_deref()
            == Some(text)
        {
            return Ok(newest);
        }
        let next = numbers.last().map_or(1, |n| n + 1);
        let path = self.numbered_path(next);
        super::atomic::write_file(&path, None, text.as_bytes())?;
        for old in numbers.iter().filter(|n| **n + KEEP_BACKUPS <= next) {
            let _ = std::fs::remove_file(self.numbered_path(*old));
        }
        Ok(path)
    }

    /// `<name>.first`.
    pub(crate) fn first_backup(&self) -> PathBuf {
        self.dir.join(format!("{}.first", self.name))
    }

    fn numbered_path(&self, n: u64) -> PathBuf {
        self.dir.join(format!("{}.{n}", self.name))
    }

    /// The numbers of the numbered backups, in order.
    fn numbered(&self) -> Vec<u64> {
        let prefix = format!("{}.", self.name);
        let mut numbers: Vec<u64> = std::fs::read_dir(&self.dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter_map(|e| {
                        e.file_name()
                            .to_str()?
                            .strip_prefix(&prefix)?
                            .parse::<u64>()
                            .ok()
                    })
                    .collect()
            })
            .unwrap_or_default();
        numbers.sort_unstable();
        numbers
    }
}

/// The state in `path`, `None` when there is none.
///
/// # Errors
///
/// When it cannot be read, is not a state, or was written by a newer `hook`.
fn read_state(path: &Path) -> Result<Option<State>> {
    let Some(text) = read_text(path, MAX_STATE_BYTES)? else {
        return Ok(None);
    };
    let state: State = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not the install state this hook writes; move it away (the backups beside it stay) and run the command again",
            path.display()
        )
    })?;
    if state.v > STATE_VERSION {
        bail!(
            "{} was written by a newer hook (format {}); use that hook, or upgrade this one",
            path.display(),
            state.v
        );
    }
    Ok(Some(state))
}

/// Where an earlier version recorded the text of a file install created.
fn legacy_created(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".hook-relay.created");
    PathBuf::from(name)
}

/// The UTF-8 text of the regular file `path` (a link is not followed), `None` when missing.
fn read_text(path: &Path, cap: u64) -> Result<Option<String>> {
    let (file, metadata) = match hook_fs::open_regular(path, hook_fs::Links::Refuse) {
        Ok(opened) => opened,
        Err(error) if error.is_not_found() => return Ok(None),
        Err(error) => {
            return Err(error).with_context(|| format!("cannot read {}", path.display()));
        }
    };
    let bytes = hook_fs::read_capped(file, &metadata, cap, "the relay's install state")
        .with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8 text", path.display()))?;
    Ok(Some(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_backup_is_kept_and_later_ones_are_numbered_and_rotated() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let relay = dir.path().join("hook-relay");
        let state = StateDir::for_file(&relay, &dir.path().join("settings.json"));
        state.prepare().expect("prepared");
        let first = state.backup("original").expect("kept");
        assert_eq!(first, state.first_backup());
        // The same text again: the newest backup already holds it.
        assert_eq!(state.backup("original").expect("kept"), first);
        let mut last = first.clone();
        for n in 1..=KEEP_BACKUPS + 3 {
            last = state.backup(&format!("change {n}")).expect("kept");
            assert!(last.ends_with(format!("settings.json.{n}")), "{last:?}");
        }
        assert_eq!(
            std::fs::read_to_string(&first).expect("the first"),
            "original",
            "never overwritten"
        );
        assert_eq!(state.numbered().len() as u64, KEEP_BACKUPS);
        assert_eq!(state.numbered().first(), Some(&4));
        assert_eq!(
            std::fs::read_to_string(&last).expect("the newest"),
            format!("change {}", KEEP_BACKUPS + 3)
        );
        // Kept out of a project's repository.
        assert_eq!(
            std::fs::read_to_string(relay.join(STATE_DIR).join(".gitignore"))
                .expect("a .gitignore")
                .lines()
                .last(),
            Some("*")
        );
    }

    #[test]
    fn a_state_round_trips_and_an_empty_one_leaves_no_file() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let file = dir.path().join("config.toml");
        let state_dir = StateDir::for_file(&dir.path().join("hook-relay"), &file);
        state_dir.prepare().expect("prepared");
        let mut state = state_dir.load(&file).expect("loaded");
        state.codex_records.push(CodexRecord {
            key: "k".to_owned(),
            hash: "sha256:x".to_owned(),
        });
        state_dir.save(&state).expect("saved");
        let again = state_dir.load(&file).expect("loaded");
        assert_eq!(again.codex_records, state.codex_records);
        let mut cleared = again;
        cleared.codex_records.clear();
        state_dir.save(&cleared).expect("saved");
        assert!(!state_dir.state_file().exists());
    }
}

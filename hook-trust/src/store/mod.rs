//! Trust stores: the [`TrustStore`] trait, its records, and the file plumbing both built-in
//! stores share (safety checks, the lock file, atomic writes).

mod json;
mod lime;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hook_config::{FileOwner, FileReadError};
use hook_fs::{FileLock, FsError, LockPolicy};
use hook_protocol::Dialect;

pub use json::JsonStore;
pub use lime::LimeStore;

/// What a store keeps about one hook key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TrustRecord {
    /// The hash the hook had when it was trusted; `None` when it was never trusted (a record
    /// may exist only to disable a hook).
    pub trusted_hash: Option<String>,
    /// What the hook ran when it was trusted (its command, URL, prompt...), when the store
    /// keeps it (the JSON store does; lime's `config.toml` records do not).
    pub trusted_command: Option<String>,
    /// `false` when the hook is disabled.
    pub enabled: bool,
    /// The files the hook ran when it was trusted, recorded name ([`crate::NamedFile::name`]:
    /// `<project>/...`, `<plugin>/...` or an absolute path) to digest (`sha256:...`);
    /// `None` when the record predates file digests (or was written by Codex), which makes a
    /// hook that runs files ask for trust again.
    pub trusted_files: Option<BTreeMap<String, String>>,
}

impl Default for TrustRecord {
    fn default() -> Self {
        TrustRecord {
            trusted_hash: None,
            trusted_command: None,
            enabled: true,
            trusted_files: None,
        }
    }
}

impl TrustRecord {
    /// Whether the record says nothing (untrusted and enabled): stores drop such records.
    pub fn is_empty(&self) -> bool {
        self.trusted_hash.is_none() && self.enabled
    }
}

/// Every record of a store, by hook key.
pub type Records = BTreeMap<String, TrustRecord>;

/// Trusting one hook: its key, the hash it has now, and what it runs (kept when the store can).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Grant {
    /// The hook's key.
    pub key: String,
    /// Its current trust hash.
    pub hash: String,
    /// What it runs ([`hook_config::HandlerConfig::summary`]), for showing a later change.
    pub command: Option<String>,
    /// The files it runs now, recorded name to digest (`sha256:...`): what
    /// [`crate::HookTrust::current_files`] gives.
    pub files: Option<BTreeMap<String, String>>,
}

impl Grant {
    /// Trusting the hook `key` at its current `hash`.
    pub fn new(key: impl Into<String>, hash: impl Into<String>) -> Self {
        Grant {
            key: key.into(),
            hash: hash.into(),
            command: None,
            files: None,
        }
    }

    /// The same grant, recording the digests of the files the hook runs
    /// ([`crate::HookTrust::current_files`]).
    #[must_use]
    pub fn with_files(mut self, files: BTreeMap<String, String>) -> Self {
        self.files = Some(files);
        self
    }

    /// The same grant, keeping what the hook runs (shown if it later changes).
    #[must_use]
    pub fn with_command(mut self, command: impl Into<String>) -> Self {
        self.command = Some(command.into());
        self
    }
}

/// Where trust and disabled state persist. Bring your own by implementing this; the built-in
/// ones are [`LimeStore`] and [`JsonStore`] ([`store_for`] picks the dialect's).
///
/// Every method that writes changes the given keys only, and must not lose a record another
/// process writes at the same time (the built-in stores lock, re-read, then replace the file
/// atomically).
pub trait TrustStore: Send + Sync + std::fmt::Debug {
    /// Where the records live, for messages.
    fn location(&self) -> &Path;

    /// Every record. A missing store is empty; a corrupt or unsafe one is an error, never an
    /// empty store.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read, is corrupt or is unsafe.
    fn load(&self) -> Result<Records, StoreError>;

    /// Records each grant's hash as trusted (and its command where the store keeps it).
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read, locked or written; nothing is changed then.
    fn set_trusted(&self, grants: &[Grant]) -> Result<(), StoreError>;

    /// Forgets the trusted hash of each key (its disabled state stays).
    ///
    /// # Errors
    ///
    /// As [`TrustStore::set_trusted`].
    fn remove_trust(&self, keys: &[String]) -> Result<(), StoreError>;

    /// Enables or disables each key (its trust stays).
    ///
    /// # Errors
    ///
    /// As [`TrustStore::set_trusted`].
    fn set_enabled(&self, keys: &[String], enabled: bool) -> Result<(), StoreError>;
}

/// How long a write waits for another process's lock on the store before giving up with
/// [`StoreError::LockTimeout`]: 10 s (a write holds the lock for milliseconds; a lock held
/// longer belongs to a stuck process).
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(10);

/// The `TrustStore` impl of a store kept in one file: `load` reads the file the store's
/// `store_file` names with the invoking module's `parse_records`, and every change goes
/// through the store's own locked `update` (the two stores differ only in those functions).
macro_rules! file_trust_store {
    ($store:ty) => {
        impl $crate::store::TrustStore for $store {
            fn location(&self) -> &std::path::Path {
                &self.path
            }

            fn load(&self) -> Result<$crate::store::Records, $crate::store::StoreError> {
                let file = self.store_file()?;
                match $crate::store::read_store(&file)? {
                    Some(text) => parse_records(&file, &text),
                    None => Ok($crate::store::Records::new()),
                }
            }

            fn set_trusted(
                &self,
                grants: &[$crate::store::Grant],
            ) -> Result<(), $crate::store::StoreError> {
                let changes: Vec<_> = grants.iter().map($crate::store::Change::Trust).collect();
                self.update(&changes)
            }

            fn remove_trust(&self, keys: &[String]) -> Result<(), $crate::store::StoreError> {
                let changes: Vec<_> = keys
                    .iter()
                    .map(|k| $crate::store::Change::Untrust(k))
                    .collect();
                self.update(&changes)
            }

            fn set_enabled(
                &self,
                keys: &[String],
                enabled: bool,
            ) -> Result<(), $crate::store::StoreError> {
                let changes: Vec<_> = keys
                    .iter()
                    .map(|k| $crate::store::Change::Enable(k, enabled))
                    .collect();
                self.update(&changes)
            }
        }
    };
}
use file_trust_store;

/// The store of a discovered configuration: the dialect's own store
/// ([`store_for`]) in its state folder ([`hook_config::Discovery::state_dir`]), which is the
/// dialect's home, or for the relay of Claude Code and Codex the relay's user folder beside
/// the agent (`~/.claude/hook-relay/hook-trust.json`, `$CODEX_HOME/hook-relay/config.toml`).
pub fn store_for_discovery(discovery: &hook_config::Discovery) -> Box<dyn TrustStore> {
    store_for(discovery.dialect, &discovery.state_dir)
}

/// The dialect's own store in `home` (a state folder, [`store_for_discovery`]): lime
/// `config.toml` (`[hooks.state."<key>"]`), wuu and verboo `hook-trust.json`.
pub fn store_for(dialect: Dialect, home: &Path) -> Box<dyn TrustStore> {
    let rules = dialect.rules();
    if rules.config().trust_state_in_config() {
        // The only such dialect writes TOML; `LimeStore` edits it in place.
        Box::new(LimeStore::new(home.join(rules.config().config_file())))
    } else {
        Box::new(JsonStore::new(home.join("hook-trust.json")))
    }
}

/// A position in a store file, 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Position {
    /// Line, from 1.
    pub line: usize,
    /// Column (characters), from 1.
    pub column: usize,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

impl Position {
    /// The position of byte `offset` in `text`.
    pub fn of_offset(text: &str, offset: usize) -> Self {
        let pos = hook_config::Pos::of_offset(text, offset);
        Position {
            line: pos.line,
            column: pos.column,
        }
    }
}

/// Where a corrupt store went wrong, shown as ` at LINE:COL` when known.
fn at(position: Option<&Position>) -> String {
    position.map(|p| format!(":{p}")).unwrap_or_default()
}

/// A store could not be read or written. Every variant names the file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The file is not valid TOML or JSON, or a record has the wrong shape.
    #[error("{}{}: corrupt trust store: {message}; fix or remove the entry (nothing was changed)", path.display(), at(position.as_ref()))]
    Corrupt {
        /// The store file.
        path: PathBuf,
        /// Where, when known.
        position: Option<Position>,
        /// What is wrong.
        message: String,
    },
    /// The store is a symbolic link: trust written through it could land anywhere.
    #[error("{}: the trust store is a symbolic link (to {}); refusing to read or write trust through it: replace the link with the file itself", path.display(), target.display())]
    Symlink {
        /// The store file.
        path: PathBuf,
        /// Where the link points.
        target: PathBuf,
    },
    /// Anyone on the machine may write the store, so anyone could trust a hook.
    #[error("{}: the trust store is world-writable (mode {mode:o}), so any user could trust hooks; refusing it: run `chmod o-w {}`", path.display(), path.display())]
    WorldWritable {
        /// The store file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// Anyone on the machine may create or replace files in the store's folder, so anyone
    /// could put a trust store there.
    #[error("{}: the trust store's folder is world-writable (mode {mode:o}), so any user could put trust records in it; refusing it: run `chmod o-w {}` (or keep the home elsewhere)", path.display(), path.display())]
    WorldWritableFolder {
        /// The folder.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The store is not a regular file (a FIFO, a device...), is too large, is owned by another
    /// user, is writable by its group, or is in a folder another user owns or may write: it
    /// is refused, never waited on or read without bound.
    #[error("{}: the trust store {source}; refusing it (nothing was read or changed)", path.display())]
    Refused {
        /// The store file.
        path: PathBuf,
        /// Why, as `hook-config` says it of a configuration file.
        #[source]
        source: FileReadError,
    },
    /// Another process held the store's lock file for longer than the wait allows.
    #[error("{}: the trust store is locked by another process and stayed locked for {} s; retry when the other `hook` command is done (a lock is released when its process exits)", path.display(), waited.as_secs_f64())]
    LockTimeout {
        /// The lock file.
        path: PathBuf,
        /// How long the write waited.
        waited: Duration,
    },
    /// Reading, locking or writing failed.
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        /// The file involved (the store, its lock file or its folder).
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The error.
        source: std::io::Error,
    },
}

impl StoreError {
    pub(crate) fn io(path: &Path, action: &'static str, source: std::io::Error) -> Self {
        StoreError::Io {
            path: path.to_path_buf(),
            action,
            source,
        }
    }
}

/// One change to apply under the lock.
#[derive(Debug, Clone)]
pub(crate) enum Change<'a> {
    Trust(&'a Grant),
    Untrust(&'a str),
    Enable(&'a str, bool),
}

/// Applies `change` to a record.
pub(crate) fn apply(record: &mut TrustRecord, change: &Change<'_>) {
    match change {
        Change::Trust(grant) => {
            record.trusted_hash = Some(grant.hash.clone());
            record.trusted_command = grant.command.clone();
            record.trusted_files = grant.files.clone().filter(|files| !files.is_empty());
        }
        Change::Untrust(_) => {
            record.trusted_hash = None;
            record.trusted_command = None;
            record.trusted_files = None;
        }
        Change::Enable(_, enabled) => record.enabled = *enabled,
    }
}

impl Change<'_> {
    pub(crate) fn key(&self) -> &str {
        match self {
            Change::Trust(grant) => &grant.key,
            Change::Untrust(key) | Change::Enable(key, _) => key,
        }
    }
}

/// The folder a store file lives in (`.` for a bare name).
pub(crate) fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Refuses a world-writable folder (sticky or not: anyone could create the store or its lock
/// file before the user does). A missing folder is fine.
pub(crate) fn check_folder(dir: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::metadata(dir) {
            Ok(metadata) => {
                let mode = metadata.permissions().mode();
                if mode & 0o002 != 0 {
                    return Err(StoreError::WorldWritableFolder {
                        path: dir.to_path_buf(),
                        mode: mode & 0o7777,
                    });
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                return Err(StoreError::io(
                    dir,
                    "inspect the trust store's folder",
                    error,
                ));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The file behind `path` when `path` is a symbolic link (every link followed), else `path`:
/// for lime's `config.toml`, which dotfile managers link into the home.
pub(crate) fn resolve_link(path: &Path) -> Result<PathBuf, StoreError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            std::fs::canonicalize(path).map_err(|error| {
                StoreError::io(path, "follow the symbolic link to the trust store", error)
            })
        }
        _ => Ok(path.to_path_buf()),
    }
}

/// Refuses a store that is a symlink or world-writable. A missing file is fine.
pub(crate) fn check_safe(path: &Path) -> Result<(), StoreError> {
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(StoreError::io(path, "inspect the trust store", error)),
    };
    if metadata.file_type().is_symlink() {
        let target = std::fs::read_link(path).unwrap_or_default();
        return Err(StoreError::Symlink {
            path: path.to_path_buf(),
            target,
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = metadata.permissions().mode();
        if mode & 0o002 != 0 {
            return Err(StoreError::WorldWritable {
                path: path.to_path_buf(),
                mode: mode & 0o7777,
            });
        }
    }
    Ok(())
}

/// The store's text, `None` when it does not exist, after the safety checks (of the file and
/// of its folder). Read as `hook-config` reads a managed file
/// ([`hook_config::read_config_text`] with [`FileOwner::RootOrSelf`]): a regular file (a FIFO
/// or device is refused, never waited on), of at most [`hook_config::MAX_FILE_BYTES`], owned
/// by the user running `hook` or by root and not writable by group or others, in a folder
/// that follows the same rule.
pub(crate) fn read_store(path: &Path) -> Result<Option<String>, StoreError> {
    check_folder(&folder_of(path))?;
    check_safe(path)?;
    match hook_config::read_config_text(path, FileOwner::RootOrSelf) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.is_not_found() => Ok(None),
        Err(FileReadError::NotUtf8 { source, pos }) => Err(StoreError::Corrupt {
            path: path.to_path_buf(),
            position: Some(Position {
                line: pos.line,
                column: pos.column,
            }),
            message: format!("not UTF-8 text ({source})"),
        }),
        Err(FileReadError::Io(error)) => Err(StoreError::io(path, "read the trust store", error)),
        Err(source) => Err(StoreError::Refused {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Runs `edit` on the store's current text under the store's lock file, and replaces the store
/// atomically with what it returns (`None`: nothing to write).
///
/// The lock is `<store>.lock` beside the store (or `lock`, when the store's owner keeps it
/// elsewhere: [`LimeStore::with_lock_file`]): an exclusive `flock`/`LockFileEx` held while
/// the store is re-read, edited, written to a temporary file in the same folder, synced and
/// renamed over the store; so two processes editing different keys both land. The lock is
/// waited for at most `lock_timeout` ([`StoreError::LockTimeout`] names the lock file). Under
/// the lock, temporary files a killed writer left (`.hook-trust-<store name>.*.tmp`, and the
/// `.hook-trust-XXXXXX.tmp` of earlier versions) are removed: no live writer can own one.
pub(crate) fn locked_update(
    path: &Path,
    lock: Option<&Path>,
    lock_timeout: Duration,
    edit: impl FnOnce(Option<&str>) -> Result<Option<String>, StoreError>,
) -> Result<(), StoreError> {
    let dir = folder_of(path);
    check_folder(&dir)?;
    hook_fs::create_folders_0700(&dir)
        .map_err(|error| StoreError::io(&dir, "create the store's folder", fs_io_error(error)))?;
    let lock_path = lock.map_or_else(|| lock_path(path), Path::to_path_buf);
    check_safe(&lock_path)?;
    // Released when dropped, after the write (closing the file releases it too).
    let _lock = open_lock(&lock_path, lock_timeout)?;
    sweep_temporary_files(path, &dir);
    let current = read_store(path)?;
    let Some(new_text) = edit(current.as_deref())? else {
        return Ok(());
    };
    write_atomically(path, &dir, new_text.as_bytes())
}

/// Opens the lock file (created 0600, without following a link or waiting on a FIFO planted
/// in its place, refused unless a regular file) and takes the exclusive lock, retrying for at
/// most `timeout`: [`hook_fs::open_lock`] with [`LockPolicy::Wait`].
fn open_lock(lock_path: &Path, timeout: Duration) -> Result<FileLock, StoreError> {
    match hook_fs::open_lock(lock_path, LockPolicy::Wait(timeout)) {
        Ok(lock) => Ok(lock),
        Err(FsError::LockTimeout { .. } | FsError::LockBusy { .. }) => {
            Err(StoreError::LockTimeout {
                path: lock_path.to_path_buf(),
                waited: timeout,
            })
        }
        Err(FsError::Io {
            action: "lock",
            source,
            ..
        }) => Err(StoreError::io(lock_path, "lock the trust store", source)),
        Err(error) => Err(StoreError::io(
            lock_path,
            "open the lock file",
            fs_io_error(error),
        )),
    }
}

/// The cause of a [`FsError`] as an I/O error, without the path (the caller names it).
fn fs_io_error(error: FsError) -> std::io::Error {
    match error {
        FsError::Io { source, .. } => source,
        FsError::NotRegular { kind, .. } => {
            std::io::Error::other(format!("it is {kind}, not a regular file; remove it"))
        }
        FsError::Symlink { .. } => std::io::Error::other("it is a symbolic link; remove it"),
        other => std::io::Error::other(other.to_string()),
    }
}

/// `.hook-trust-<store file name>.`: the prefix of this store's temporary files.
fn temporary_prefix(path: &Path) -> String {
    format!(
        ".hook-trust-{}.",
        path.file_name().unwrap_or_default().to_string_lossy()
    )
}

/// Removes the temporary files of killed writers of this store (called under its lock);
/// best effort: a file that cannot be removed stays, harmless.
fn sweep_temporary_files(path: &Path, dir: &Path) {
    let prefix = temporary_prefix(path);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let ours = name.starts_with(&prefix) && name.ends_with(".tmp");
        // Earlier versions named them `.hook-trust-` + 6 random characters + `.tmp`.
        let legacy = name.len() == ".hook-trust-XXXXXX.tmp".len()
            && name.starts_with(".hook-trust-")
            && name.ends_with(".tmp")
            && name[".hook-trust-".len()..name.len() - ".tmp".len()]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric());
        let is_file = entry
            .file_type()
            .is_ok_and(|kind| kind.is_file() || kind.is_symlink());
        if (ours || legacy) && is_file {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// `<store>.lock`.
pub(crate) fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

fn write_atomically(path: &Path, dir: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let mut temp = tempfile::Builder::new()
        .prefix(&temporary_prefix(path))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|error| StoreError::io(dir, "create a temporary file", error))?;
    temp.write_all(bytes)
        .map_err(|error| StoreError::io(temp.path(), "write the temporary file", error))?;
    // Keep the store's permissions (a config.toml may be 0600 or 0644); a new store stays 0600.
    if let Ok(metadata) = std::fs::metadata(path) {
        std::fs::set_permissions(temp.path(), metadata.permissions())
            .map_err(|error| StoreError::io(temp.path(), "set permissions", error))?;
    }
    temp.as_file()
        .sync_all()
        .map_err(|error| StoreError::io(temp.path(), "sync the temporary file", error))?;
    temp.persist(path)
        .map_err(|error| StoreError::io(path, "replace the trust store", error.error))?;
    hook_fs::sync_dir(dir);
    Ok(())
}

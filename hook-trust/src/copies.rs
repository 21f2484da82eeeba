//! A private, content-addressed copy of what was trusted: each trusted hook's normalized
//! configuration and the scripts it ran, so a later review can show what changed.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use hook_fs::Links;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::hash::{HASH_PREFIX, canonical_json};
use crate::limits::SCRIPT_SIZE_CAP;
use crate::store::Records;

/// The folder of the copies in a state folder (the store's:
/// [`hook_config::Discovery::state_dir`]).
pub const COPIES_DIR: &str = "hook-trusted";

/// The most bytes all copies may take together: 64 MiB. A copy that would go past it is not
/// kept (a review then says it has no copy to compare with); pruning frees room.
pub const COPIES_SIZE_CAP: u64 = 64 * 1024 * 1024;

/// The copies of what was trusted, in `<home>/hook-trusted/` (0700), one file (0600) per
/// content, named by the hex SHA-256 of that content: the canonical JSON of a hook's identity
/// (its name is then its trust hash's hex) and each script it ran (its file digest's).
///
/// They serve reviews only (`hook trust --review` diffs against them): trust is decided on the
/// digests in the store, never on a copy, so a lost or edited copy costs a diff, not safety. A
/// copy is read back only when its content still has its name's digest.
///
/// Scripts over [`SCRIPT_SIZE_CAP`] and native libraries are not copied; nothing is kept
/// past [`COPIES_SIZE_CAP`] in all. [`TrustedCopies::prune`] removes every copy no record
/// refers to.
#[derive(Debug, Clone)]
pub struct TrustedCopies {
    dir: PathBuf,
}

/// Why a copy could not be kept.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CopyError {
    /// Reading, creating or writing failed.
    #[error("{}: cannot {action}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// The folder is not a private folder of this user (a link, or writable by others).
    #[error("{}: the copies' folder {why}; refusing to keep copies in it: remove it (it is rebuilt on the next `hook trust`)", path.display())]
    Unsafe {
        /// The folder.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

impl TrustedCopies {
    /// The copies of the state folder `home` (a dialect's home, or the relay's user folder:
    /// [`hook_config::Discovery::state_dir`]).
    pub fn in_home(home: &Path) -> Self {
        TrustedCopies {
            dir: home.join(COPIES_DIR),
        }
    }

    /// Their folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Keeps the canonical JSON of a hook's `identity` (named by its trust hash); `Ok(false)`
    /// when the cap on all copies is reached.
    ///
    /// # Errors
    /// [`CopyError`] when the folder is unsafe or the copy cannot be written.
    pub fn keep_identity(&self, identity: &Value) -> Result<bool, CopyError> {
        self.keep(canonical_json(identity).as_bytes())
    }

    /// Keeps a copy of the script at `path` if it still has `digest` (`sha256:...`) and is
    /// small enough; `Ok(false)` when it was not kept (changed since, too large, or the cap
    /// on all copies is reached).
    ///
    /// # Errors
    /// [`CopyError`] when the folder is unsafe or the copy cannot be written.
    pub fn keep_file(&self, path: &Path, digest: &str) -> Result<bool, CopyError> {
        let Ok((file, meta)) = hook_fs::open_regular(path, Links::Follow) else {
            return Ok(false);
        };
        if meta.len() > SCRIPT_SIZE_CAP {
            return Ok(false);
        }
        let mut bytes = Vec::new();
        if file
            .take(SCRIPT_SIZE_CAP + 1)
            .read_to_end(&mut bytes)
            .is_err()
            || sha256(&bytes) != digest
        {
            return Ok(false);
        }
        self.keep(&bytes)
    }

    /// Keeps `bytes`, the content of a script that was read once to be hashed and shown, if
    /// they have `digest` (`sha256:...`) and are small enough; `Ok(false)` when not kept.
    ///
    /// # Errors
    /// [`CopyError`] when the folder is unsafe or the copy cannot be written.
    pub fn keep_bytes(&self, bytes: &[u8], digest: &str) -> Result<bool, CopyError> {
        if bytes.len() as u64 > SCRIPT_SIZE_CAP || sha256(bytes) != digest {
            return Ok(false);
        }
        self.keep(bytes)
    }

    /// The content named `digest` (`sha256:...`), if a copy with that very content is kept.
    pub fn read(&self, digest: &str) -> Option<Vec<u8>> {
        let hex = digest.strip_prefix(HASH_PREFIX)?;
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let (file, meta) = hook_fs::open_regular(&self.dir.join(hex), Links::Refuse).ok()?;
        if meta.len() > SCRIPT_SIZE_CAP {
            return None;
        }
        let mut bytes = Vec::new();
        file.take(SCRIPT_SIZE_CAP + 1)
            .read_to_end(&mut bytes)
            .ok()?;
        (sha256(&bytes) == digest).then_some(bytes)
    }

    /// Removes every copy no record of `records` refers to (by its trusted hash or one of its
    /// files' digests); returns how many were removed.
    ///
    /// # Errors
    /// [`CopyError`] when the folder cannot be listed.
    pub fn prune(&self, records: &Records) -> Result<usize, CopyError> {
        let mut wanted = std::collections::BTreeSet::new();
        for record in records.values() {
            wanted.extend(record.trusted_hash.iter().cloned());
            wanted.extend(
                record
                    .trusted_files
                    .iter()
                    .flat_map(|f| f.values().cloned()),
            );
        }
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(source) => {
                return Err(CopyError::Io {
                    path: self.dir.clone(),
                    action: "list the copies",
                    source,
                });
            }
        };
        let mut removed = 0;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            // Only copies (named by a digest) are pruned: the digest cache and anything else
            // in the folder stay.
            let is_copy = name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit());
            if is_copy
                && !wanted.contains(&format!("{HASH_PREFIX}{name}"))
                && std::fs::remove_file(entry.path()).is_ok()
            {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Writes `bytes` under their digest (once: an existing copy is kept), 0600, through a
    /// temporary file renamed into place.
    fn keep(&self, bytes: &[u8]) -> Result<bool, CopyError> {
        self.ensure_dir()?;
        let digest = sha256(bytes);
        let hex = &digest[HASH_PREFIX.len()..];
        let target = self.dir.join(hex);
        if std::fs::symlink_metadata(&target).is_ok() {
            return Ok(true);
        }
        if self.used()?.saturating_add(bytes.len() as u64) > COPIES_SIZE_CAP {
            return Ok(false);
        }
        let io = |action: &'static str| {
            let path = self.dir.clone();
            move |source| CopyError::Io {
                path,
                action,
                source,
            }
        };
        let mut temp = tempfile::Builder::new()
            .prefix(".copy-")
            .tempfile_in(&self.dir)
            .map_err(io("create a copy"))?;
        temp.write_all(bytes).map_err(io("write a copy"))?;
        temp.persist(&target).map_err(|error| CopyError::Io {
            path: target.clone(),
            action: "keep a copy",
            source: error.error,
        })?;
        Ok(true)
    }

    /// The bytes the copies take now.
    fn used(&self) -> Result<u64, CopyError> {
        let entries = std::fs::read_dir(&self.dir).map_err(|source| CopyError::Io {
            path: self.dir.clone(),
            action: "list the copies",
            source,
        })?;
        Ok(entries
            .flatten()
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum())
    }

    /// Creates the folder 0700, or checks the one there is: a real folder of this user's, not
    /// writable by others ([`hook_fs::private_folder`]).
    pub(crate) fn ensure_dir(&self) -> Result<(), CopyError> {
        use hook_fs::FsError;
        let why = match hook_fs::private_folder(&self.dir) {
            Ok(()) => return Ok(()),
            Err(FsError::Io { source, .. }) => {
                return Err(CopyError::Io {
                    path: self.dir.clone(),
                    action: "create the copies' folder",
                    source,
                });
            }
            Err(FsError::Symlink { .. }) => "is not a folder (a link)".to_owned(),
            Err(FsError::NotADirectory { .. }) => "is not a folder (a file)".to_owned(),
            Err(FsError::ForeignOwner { owner, .. }) => format!("belongs to user {owner}"),
            Err(FsError::Writable { mode, .. }) => {
                format!("is writable by others (mode {mode:o})")
            }
            Err(other) => other.to_string(),
        };
        Err(CopyError::Unsafe {
            path: self.dir.clone(),
            why,
        })
    }
}

fn sha256(bytes: &[u8]) -> String {
    format!("{HASH_PREFIX}{}", hex::encode(Sha256::digest(bytes)))
}

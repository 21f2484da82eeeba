//! Writing the agent's own settings file safely: through a symbolic link, only a regular file
//! of bounded size (read by the read model's `read_regular`), under a lock, replaced atomically
//! with its mode and owner.

use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use hook_fs::{FileLock, FsError, LockPolicy};

use super::ThroughLink;
pub(crate) use super::atomic::write_file;
use super::state::{Earlier, StateDir};
use crate::ops::relay::read::files::read_regular;

/// How long an install waits for another one's lock.
const LOCK_TIMEOUT: Duration = Duration::from_secs(10);

/// The settings file, locked for editing.
pub(crate) struct Locked {
    /// The file edited: the one given, or the file its symbolic link points to.
    pub(crate) path: PathBuf,
    /// Its text, `None` when it does not exist.
    pub(crate) text: Option<String>,
    metadata: Option<Metadata>,
    /// What is kept of the file, in the relay's folder.
    pub(crate) state: StateDir,
    /// Held until the edit is done (released when dropped).
    _lock: FileLock,
}

/// The file the kernel opens for `path`: every link followed, in its folders and in the file
/// itself (a file that does not exist yet: its deepest existing folder resolved, the rest as
/// written).
fn resolve(path: &Path) -> Result<PathBuf> {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .context("cannot read the current directory")?
            .join(path)
    };
    if std::fs::symlink_metadata(&absolute).is_ok() {
        return std::fs::canonicalize(&absolute).with_context(|| {
            format!(
                "{} is a symbolic link to a file that cannot be reached; fix the link first",
                path.display()
            )
        });
    }
    // Not there yet: resolve the deepest folder that is, keep the rest.
    let mut rest = Vec::new();
    let mut dir = absolute.as_path();
    loop {
        let Some(parent) = dir.parent() else {
            return Ok(absolute);
        };
        rest.push(dir.file_name().unwrap_or_default().to_owned());
        dir = parent;
        if std::fs::symlink_metadata(dir).is_ok() {
            let mut real = std::fs::canonicalize(dir).with_context(|| {
                format!(
                    "{} is a symbolic link that cannot be reached; fix the link first",
                    dir.display()
                )
            })?;
            real.extend(rest.iter().rev());
            return Ok(real);
        }
    }
}

/// Where a write of `path` lands ([`resolve`]), refused when `inside` is given and it is not
/// inside that folder (a project's settings are never written outside the project); `link`
/// says so when a symbolic link leads there.
///
/// # Errors
/// When the path leaves `inside`, or a link on it cannot be followed.
pub(crate) fn write_target(
    path: &Path,
    inside: Option<&Path>,
    link: &mut Option<ThroughLink>,
) -> Result<PathBuf> {
    let real = resolve(path)?;
    if let Some(root) = inside
        && !real.starts_with(root)
    {
        bail!(
            "{} resolves to {}, outside the project {}: a project's settings are never written outside it (a symbolic link in the project leads there); nothing was changed: remove the link, or edit that file with the user scope (no --project) if it is yours",
            path.display(),
            real.display(),
            root.display()
        );
    }
    let written = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    if real != written {
        *link = Some(ThroughLink {
            path: path.to_path_buf(),
            real: real.clone(),
        });
    }
    Ok(real)
}

/// `<file>.lock`, where earlier versions locked the file: removed when it is an empty lock file
/// nobody holds, so that no lock file stays beside the agent's settings.
fn remove_legacy_lock(path: &Path) {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    let legacy = path.with_file_name(name);
    let is_empty_file =
        std::fs::symlink_metadata(&legacy).is_ok_and(|m| m.file_type().is_file() && m.len() == 0);
    if !is_empty_file {
        return;
    }
    // Held by nobody now (an earlier version still running keeps it).
    if let Ok(lock) = hook_fs::open_lock(&legacy, LockPolicy::Immediate) {
        let _ = std::fs::remove_file(&legacy);
        drop(lock);
    }
}

/// Where what `hook relay` keeps of the files it edits is ([`StateDir`]).
#[derive(Debug, Clone)]
pub(crate) struct StatePlaces {
    /// The relay's user folder: the state of every file, a project's too (keyed by its path).
    pub(crate) user: PathBuf,
    /// In project scope, the project and its relay folder, where an earlier version kept the
    /// state of the project's files ([`Earlier::Project`]).
    pub(crate) project: Option<(PathBuf, PathBuf)>,
    /// Whether the file is the user's own settings file, in the agent's home
    /// ([`Earlier::UsersOwn`]).
    pub(crate) users_own: bool,
}

impl StatePlaces {
    /// The state folder of the file `real`, reading what of an earlier version's state is safe.
    fn state_of(&self, real: &Path) -> StateDir {
        let earlier = match &self.project {
            Some((project, relay_folder)) if real.starts_with(project) => Earlier::Project {
                state: StateDir::for_file(relay_folder, real).state_file(),
                project: project.clone(),
            },
            Some(_) => Earlier::Nothing,
            None if self.users_own => Earlier::UsersOwn,
            None => Earlier::Nothing,
        };
        StateDir::for_file(&self.user, real).with_earlier(earlier)
    }
}

/// Locks `path` (waiting at most 10 s for another writer) and reads it; the file edited is the
/// one the kernel opens ([`write_target`]: every link followed, said in `link` when one is;
/// with `inside`, refused outside that folder). The lock, and what is kept of the file
/// ([`StateDir`]), are in the relay's user folder (`places`), never beside the file nor in a
/// project.
///
/// # Errors
///
/// When the file resolves outside `inside`, is not a regular file (a FIFO or a device is never waited on), is larger
/// than [`MAX_BYTES`], is not UTF-8, or cannot be read or locked; the error names the file.
///
/// [`MAX_BYTES`]: crate::ops::relay::read::files::MAX_BYTES
pub(crate) fn lock_and_read(
    path: &Path,
    inside: Option<&Path>,
    link: &mut Option<ThroughLink>,
    places: &StatePlaces,
) -> Result<Locked> {
    let path = write_target(path, inside, link)?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let state = places.state_of(&path);
    state.prepare()?;
    let lock_file = state.lock_path();
    let lock = match hook_fs::open_lock(&lock_file, LockPolicy::Wait(LOCK_TIMEOUT)) {
        Ok(lock) => lock,
        Err(FsError::LockTimeout { .. }) => bail!(
            "{} is held by another `hook relay install`, `sync` or `uninstall` for over {} s; try again, or remove the lock file if no such command is running",
            lock_file.display(),
            LOCK_TIMEOUT.as_secs()
        ),
        Err(error) => return Err(error).context("cannot take the lock"),
    };
    remove_legacy_lock(&path);
    let (text, metadata) = match read_regular(&path)? {
        Some((text, metadata)) => (Some(text), Some(metadata)),
        None => (None, None),
    };
    Ok(Locked {
        path,
        text,
        metadata,
        state,
        _lock: lock,
    })
}

impl Locked {
    /// Replaces the file with `text`: a temporary file beside it, given the file's mode and
    /// owner (a new file is 0600), synced, renamed over it. The lock is released after.
    ///
    /// # Errors
    ///
    /// When the temporary file cannot be written or renamed; the file is then unchanged.
    pub(crate) fn write(&self, text: &str) -> Result<()> {
        write_file(&self.path, self.metadata.as_ref(), text.as_bytes())
    }

    /// Removes the file (under the lock).
    ///
    /// # Errors
    ///
    /// When it cannot be removed; it is then unchanged.
    pub(crate) fn remove(&self) -> Result<()> {
        std::fs::remove_file(&self.path)
            .with_context(|| format!("cannot remove {}", self.path.display()))
    }
}

//! The safe-filesystem module: the one place the workspace opens, creates and locks the files
//! a hostile project, hook or other process could have replaced.
//!
//! Every crate above this one (`hook-trust`, `hook-exec`, `hook-cli`) opens its own private
//! files, its locks and the files it reads back through these functions, so each rule below is
//! written, hardened and tested once:
//!
//! - **Private folders** ([`private_folder`]): created 0700 when missing; an existing one is
//!   used only if it is a real directory (not a symlink), owned by the effective user, and not
//!   writable by group or others. [`create_private_temp_dir`] makes a new one of a random name.
//! - **Private files** ([`create_new_private`], [`open_private_append`]): 0600, a final symlink
//!   never followed (`O_NOFOLLOW`), opened `O_NONBLOCK | O_NOCTTY` so a FIFO or a terminal
//!   planted in their place never blocks the open nor becomes the controlling terminal, then
//!   checked through the open descriptor (`fstat`) to be a regular file.
//! - **Locks** ([`open_lock`]): a lock file opened as a private file, then an exclusive
//!   `flock`/`LockFileEx` taken as the caller's [`LockPolicy`] says: at once or not at all
//!   ([`LockPolicy::Immediate`]: the answer path of a front end never waits), or retried until
//!   a deadline ([`LockPolicy::Wait`]). There is no unbounded blocking lock here.
//! - **Reads** ([`open_regular`], [`read_capped`], [`Lines`]): a regular file opened without
//!   blocking, read to a cap or line by line with a cap on each line, so `/dev/zero`, a FIFO or
//!   a 400 MiB file costs at most the cap.
//! - **Identity** ([`FileStamp`]): device, inode, size, modification and status-change times,
//!   and whether the file has *settled* (its last change is old enough that a change in the same
//!   clock tick cannot hide behind the stamp).
//! - **Digests** ([`sha256_capped`], [`digest_file`]): SHA-256 streamed under a cap.
//! - **Durability** ([`sync_dir`]): a folder synced after a rename into it.
//!
//! On Windows the mode bits, the owner check and `O_NOFOLLOW` do not exist; the files are
//! opened as the platform allows and still checked to be regular files.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

pub use crate::fileread::{FileReadError, Links, open_regular, read_capped};

/// Why a private folder, a private file or a lock could not be used. Each message names the
/// path and says what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FsError {
    /// The folder (or file) is a symbolic link: it could send what is written anywhere.
    #[error(
        "{} is a symbolic link; remove it (a private one is created in its place)",
        path.display()
    )]
    Symlink {
        /// The path.
        path: PathBuf,
    },
    /// The path of a private folder exists and is not a directory.
    #[error("{} is not a directory; remove or rename it", path.display())]
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    /// The folder belongs to another user.
    #[error(
        "{} belongs to user {owner}, not to you; remove it (a private one is created in its place)",
        path.display()
    )]
    ForeignOwner {
        /// The folder.
        path: PathBuf,
        /// Its owner's uid.
        owner: u32,
    },
    /// Group or others may write to the folder.
    #[error(
        "{} is writable by group or others (mode {mode:o}); run `chmod 700` on it",
        path.display()
    )]
    Writable {
        /// The folder.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// A private file or lock file is a FIFO, a device, a socket or a directory.
    #[error("{} is {kind}, not a regular file; remove it", path.display())]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is (`a FIFO`).
        kind: &'static str,
    },
    /// [`LockPolicy::Immediate`]: another process holds the lock.
    #[error(
        "{} is locked by another process; try again (or remove the file if no such process runs)",
        path.display()
    )]
    LockBusy {
        /// The lock file.
        path: PathBuf,
    },
    /// [`LockPolicy::Wait`]: the lock was still held at the deadline.
    #[error(
        "{} was held by another process for over {} ms; try again (or remove the file if no such process runs)",
        path.display(),
        waited.as_millis()
    )]
    LockTimeout {
        /// The lock file.
        path: PathBuf,
        /// How long this process waited.
        waited: Duration,
    },
    /// The operating system refused.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// What was being done (`create the folder`, `open`, `lock`).
        action: &'static str,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

impl FsError {
    fn io(path: &Path, action: &'static str, source: std::io::Error) -> Self {
        FsError::Io {
            path: path.to_path_buf(),
            action,
            source,
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FsError::Symlink { path }
            | FsError::NotADirectory { path }
            | FsError::ForeignOwner { path, .. }
            | FsError::Writable { path, .. }
            | FsError::NotRegular { path, .. }
            | FsError::LockBusy { path }
            | FsError::LockTimeout { path, .. }
            | FsError::Io { path, .. } => path,
        }
    }
}

/// Makes sure `dir` is a private folder of the effective user's, creating it (and missing
/// parents) with mode 0700 when missing.
///
/// # Errors
///
/// [`FsError::Symlink`], [`FsError::NotADirectory`], [`FsError::ForeignOwner`] or
/// [`FsError::Writable`] when an existing folder is not private; [`FsError::Io`] when it cannot
/// be created or inspected.
pub fn private_folder(dir: &Path) -> Result<(), FsError> {
    let metadata = match std::fs::symlink_metadata(dir) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            create_folders_0700(dir)?;
            std::fs::symlink_metadata(dir).map_err(|e| FsError::io(dir, "inspect the folder", e))?
        }
        Err(error) => return Err(FsError::io(dir, "inspect the folder", error)),
    };
    if metadata.file_type().is_symlink() {
        return Err(FsError::Symlink {
            path: dir.to_owned(),
        });
    }
    if !metadata.is_dir() {
        return Err(FsError::NotADirectory {
            path: dir.to_owned(),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.uid() != effective_uid() {
            return Err(FsError::ForeignOwner {
                path: dir.to_owned(),
                owner: metadata.uid(),
            });
        }
        let mode = metadata.mode() & 0o7777;
        if mode & 0o022 != 0 {
            return Err(FsError::Writable {
                path: dir.to_owned(),
                mode,
            });
        }
    }
    Ok(())
}

/// Creates a new folder with a random name starting with `prefix` in `parent` (the system's
/// temporary folder when `None`), mode 0700, removed with its contents when the returned value
/// is dropped. `mkdir` never follows a link, and the name is new: nothing planted in advance
/// is used.
///
/// # Errors
///
/// [`FsError::Io`] when it cannot be created.
pub fn create_private_temp_dir(
    parent: Option<&Path>,
    prefix: &str,
) -> Result<tempfile::TempDir, FsError> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix);
    // `tempfile`'s default mode for folders is 0777 less the umask.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
    match parent {
        Some(parent) => builder
            .tempdir_in(parent)
            .map_err(|e| FsError::io(parent, "create a folder in", e)),
        None => builder
            .tempdir()
            .map_err(|e| FsError::io(&std::env::temp_dir(), "create a folder in", e)),
    }
}

/// Creates the folder `dir` and each missing parent with mode 0700 (Unix): the one place the
/// workspace makes a folder for private files. A folder that already exists is left as it is
/// (a link to one is followed: a home a dotfile manager keeps elsewhere); when it must be
/// private, use [`private_folder`], which checks it too.
///
/// # Errors
///
/// [`FsError::Io`] when it cannot be created (`AlreadyExists` when the path is a file).
pub fn create_folders_0700(dir: &Path) -> Result<(), FsError> {
    create_dir_0700(dir).map_err(|e| FsError::io(dir, "create the folder", e))
}

fn create_dir_0700(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates the new file `path` for writing, mode 0600: an existing name (a symlink included)
/// is never followed or overwritten (`O_CREAT | O_EXCL | O_NOFOLLOW`).
///
/// # Errors
///
/// [`FsError::Io`] when it cannot be created (`AlreadyExists` for any existing name).
pub fn create_new_private(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    private_flags(&mut options);
    options
        .open(path)
        .map_err(|e| FsError::io(path, "create", e))
}

/// Opens `path` for appending, creating it 0600 when missing, without following a final
/// symlink and without blocking on a FIFO; then checks it is a regular file. Each `write` to
/// it lands at the end (`O_APPEND`), so concurrent writers each add whole writes.
///
/// # Errors
///
/// [`FsError::Symlink`] for a symbolic link, [`FsError::NotRegular`] for a FIFO, device,
/// socket or directory, [`FsError::Io`] when it cannot be opened.
pub fn open_private_append(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    private_flags(&mut options);
    open_checked(&options, path)
}

/// Opens the existing file `path` for reading and appending (a file another program gave this
/// one to add to, such as an agent's environment file), without following a final symlink and
/// without blocking on a FIFO; then checks it is a regular file. Never creates it.
///
/// # Errors
///
/// As [`open_private_append`] (`NotFound` in [`FsError::Io`] when it does not exist).
pub fn open_append(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.read(true).append(true);
    private_flags(&mut options);
    open_checked(&options, path)
}

/// Opens (creating it 0600) the private file `path` for writing without truncating it, with the
/// same checks as [`open_private_append`]: the lock files.
fn open_private_write(path: &Path) -> Result<File, FsError> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    private_flags(&mut options);
    open_checked(&options, path)
}

fn private_flags(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(not(unix))]
    let _ = options;
}

fn open_checked(options: &OpenOptions, path: &Path) -> Result<File, FsError> {
    let file = match options.open(path) {
        Ok(file) => file,
        #[cfg(unix)]
        Err(error) if matches!(error.raw_os_error(), Some(libc::ELOOP | libc::EMLINK)) => {
            return Err(FsError::Symlink {
                path: path.to_owned(),
            });
        }
        // A FIFO without a reader refuses a non-blocking open for writing.
        #[cfg(unix)]
        Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
            return Err(FsError::NotRegular {
                path: path.to_owned(),
                kind: "a FIFO or a device",
            });
        }
        Err(error) => return Err(FsError::io(path, "open", error)),
    };
    let metadata = file
        .metadata()
        .map_err(|e| FsError::io(path, "inspect", e))?;
    if !metadata.is_file() {
        return Err(FsError::NotRegular {
            path: path.to_owned(),
            kind: kind_of(&metadata),
        });
    }
    Ok(file)
}

/// Makes the renames and creations in the folder `dir` durable (`fsync` of the folder, Unix);
/// best effort, as after an atomic replace: a folder that cannot be opened or synced is left
/// as it is (Windows syncs nothing here).
pub fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// How [`open_lock`] takes a lock another process holds. Closed on purpose: a new way to wait is
/// a new way to hang that every caller must choose knowingly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockPolicy {
    /// Take it now or fail with [`FsError::LockBusy`]: for work that may be skipped (the
    /// journal's rotation on the answer path).
    Immediate,
    /// Retry (sleeping at most 20 ms between tries) until the deadline, then fail with
    /// [`FsError::LockTimeout`]: for a write that must land (a trust store, an agent's file).
    Wait(Duration),
}

/// An exclusive lock on a lock file, released when dropped (or when the process ends).
#[derive(Debug)]
pub struct FileLock {
    file: File,
    path: PathBuf,
}

impl FileLock {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Closing the file releases the lock too; unlocking first makes the order explicit.
        let _ = fs4::FileExt::unlock(&self.file);
    }
}

/// Opens the lock file `path` (created 0600 when missing, never through a symlink, never
/// blocking on a FIFO, a regular file) and takes an exclusive lock on it as `policy` says.
///
/// # Errors
///
/// [`FsError::LockBusy`] ([`LockPolicy::Immediate`]) or [`FsError::LockTimeout`]
/// ([`LockPolicy::Wait`]) when another process holds it; the errors of
/// [`open_private_append`] when the file is not a private regular file; [`FsError::Io`] when
/// locking fails.
pub fn open_lock(path: &Path, policy: LockPolicy) -> Result<FileLock, FsError> {
    let file = open_private_write(path)?;
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {
                return Ok(FileLock {
                    file,
                    path: path.to_owned(),
                });
            }
            Err(fs4::TryLockError::WouldBlock) => {}
            Err(fs4::TryLockError::Error(error)) => return Err(FsError::io(path, "lock", error)),
        }
        let deadline = match policy {
            LockPolicy::Immediate => {
                return Err(FsError::LockBusy {
                    path: path.to_owned(),
                });
            }
            LockPolicy::Wait(deadline) => deadline,
        };
        let waited = started.elapsed();
        if waited >= deadline {
            return Err(FsError::LockTimeout {
                path: path.to_owned(),
                waited,
            });
        }
        std::thread::sleep(pause.min(deadline - waited));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// What a path is when it is not a regular file (`a FIFO`, `a character device`...), read
/// from its metadata; `not a regular file` for anything else unusual.
pub fn kind_of(meta: &Metadata) -> &'static str {
    crate::fileread::kind_of(meta)
}

/// What identifies a file's content without reading it: device, inode, size, modification and
/// status-change times to the nanosecond. Any write, `chmod`, rename over the file or `touch`
/// changes the status-change time, which no unprivileged call can set; a replaced file has a
/// new inode. Serialized with the field names `dev`, `ino`, `size`, `mtime`, `mtime_ns`,
/// `ctime`, `ctime_ns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FileStamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: i64,
    mtime_ns: i64,
    ctime: i64,
    ctime_ns: i64,
}

impl FileStamp {
    /// A stamp's last change must be at least this old for the stamp to stand for the content
    /// ([`settled`](Self::settled)): 2 s (git's "racy clean" rule for coarse timestamps).
    pub const SETTLE: Duration = Duration::from_secs(2);

    /// The stamp of the file whose metadata is `meta` (take it from the open descriptor);
    /// `None` where the platform has no inode numbers (Windows).
    pub fn of(meta: &Metadata) -> Option<FileStamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileStamp {
                dev: meta.dev(),
                ino: meta.ino(),
                size: meta.size(),
                mtime: meta.mtime(),
                mtime_ns: meta.mtime_nsec(),
                ctime: meta.ctime(),
                ctime_ns: meta.ctime_nsec(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }

    /// The stamp of the file at `path`, following links; `None` when it cannot be read.
    pub fn of_path(path: &Path) -> Option<FileStamp> {
        std::fs::metadata(path).ok().as_ref().and_then(Self::of)
    }

    /// Whether `other` is the same file (device and inode), whatever its content.
    pub fn same_file(&self, other: &FileStamp) -> bool {
        self.dev == other.dev && self.ino == other.ino
    }

    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The device and inode numbers.
    pub fn identity(&self) -> (u64, u64) {
        (self.dev, self.ino)
    }

    /// Whether the file's last change is at least [`SETTLE`](Self::SETTLE) before `now`, so
    /// a later change in the same clock tick cannot leave the stamp unchanged.
    pub fn settled(&self, now: SystemTime) -> bool {
        let Ok(now) = now.duration_since(SystemTime::UNIX_EPOCH) else {
            return false;
        };
        let Ok(changed) = u64::try_from(self.ctime) else {
            return false;
        };
        changed.saturating_add(Self::SETTLE.as_secs()) <= now.as_secs()
    }
}

/// The lowercase hex SHA-256 of what `reader` yields and its length, streamed, refusing more than
/// `cap` bytes (`what` names the kind of file in the error).
///
/// # Errors
///
/// [`FileReadError::TooLarge`] past the cap, [`FileReadError::Io`] when reading fails.
pub fn sha256_capped(
    reader: impl Read,
    cap: u64,
    what: &'static str,
) -> Result<(String, u64), FileReadError> {
    let mut reader = reader.take(cap.saturating_add(1));
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total: u64 = 0;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(FileReadError::Io(error)),
        };
        total = total.saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
        if total > cap {
            return Err(FileReadError::TooLarge {
                size: total,
                cap,
                what,
            });
        }
        hasher.update(&buffer[..n]);
    }
    Ok((hex::encode(hasher.finalize()), total))
}

/// The lowercase hex SHA-256 of the regular file at `path` (opened by [`open_regular`]),
/// streamed under `cap`, with the stamps of the open file before and after the read (equal
/// when nothing changed it meanwhile).
///
/// # Errors
///
/// The errors of [`open_regular`] and [`sha256_capped`]; [`FileReadError::TooLarge`] at once
/// when the file's size is over the cap.
pub fn digest_file(
    path: &Path,
    links: Links,
    cap: u64,
    what: &'static str,
) -> Result<Digested, FileReadError> {
    let (file, before) = open_regular(path, links)?;
    if before.len() > cap {
        return Err(FileReadError::TooLarge {
            size: before.len(),
            cap,
            what,
        });
    }
    let (sha256, size) = sha256_capped(&file, cap, what)?;
    let after = file.metadata().map_err(FileReadError::Io)?;
    Ok(Digested {
        sha256,
        size,
        before: FileStamp::of(&before),
        after: FileStamp::of(&after),
    })
}

/// What [`digest_file`] read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Digested {
    /// The lowercase hex SHA-256.
    pub sha256: String,
    /// The bytes hashed.
    pub size: u64,
    /// The open file's stamp before the read (`None` on Windows).
    pub before: Option<FileStamp>,
    /// The open file's stamp after the read.
    pub after: Option<FileStamp>,
}

/// One line of a [`Lines`] reader. Closed on purpose: a line is whole or over the cap, and a
/// reader must handle both.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A complete line (without its newline); `last` when no newline ended it.
    Text {
        /// The line's bytes.
        bytes: &'a [u8],
        /// The file ended without a newline after it.
        last: bool,
    },
    /// The line was longer than the cap and was skipped unread; `bytes` is its length.
    TooLong {
        /// Its length (without the newline).
        bytes: u64,
    },
}

/// A streaming line reader with a cap on each line: a line longer than the cap is read and
/// dropped in chunks, never held whole, so memory stays within the cap and the reader's buffer
/// whatever the file holds.
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    buffer: Vec<u8>,
    max: usize,
    number: u64,
    bytes: u64,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `reader`, each at most `max` bytes.
    pub fn new(reader: R, max: usize) -> Self {
        Lines {
            reader,
            buffer: Vec::new(),
            max,
            number: 0,
            bytes: 0,
        }
    }

    /// The bytes consumed so far, newlines included.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The reader, to read on from where the last line ended.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// The reader back, positioned after the last line returned (what it had buffered beyond
    /// is in its own buffer).
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The next line and its number (from 1), `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// A read error of the input.
    pub fn next_line(&mut self) -> std::io::Result<Option<(u64, Line<'_>)>> {
        self.buffer.clear();
        let mut skipped: u64 = 0;
        let mut too_long = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                if self.buffer.is_empty() && !too_long {
                    return Ok(None);
                }
                return Ok(Some(self.line(too_long, skipped, true)));
            }
            let (chunk, done) = match available.iter().position(|b| *b == b'\n') {
                Some(end) => (end, true),
                None => (available.len(), false),
            };
            if too_long || self.buffer.len() + chunk > self.max {
                skipped += u64::try_from(self.buffer.len() + chunk).unwrap_or(u64::MAX);
                self.buffer.clear();
                too_long = true;
            } else {
                self.buffer.extend_from_slice(&available[..chunk]);
            }
            let consumed = chunk + usize::from(done);
            self.reader.consume(consumed);
            self.bytes += u64::try_from(consumed).unwrap_or(u64::MAX);
            if done {
                return Ok(Some(self.line(too_long, skipped, false)));
            }
        }
    }

    fn line(&mut self, too_long: bool, skipped: u64, last: bool) -> (u64, Line<'_>) {
        self.number += 1;
        let line = if too_long {
            Line::TooLong { bytes: skipped }
        } else {
            Line::Text {
                bytes: &self.buffer,
                last,
            }
        };
        (self.number, line)
    }
}

#[cfg(unix)]
fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, has no preconditions and cannot fail.
    #[allow(unsafe_code)]
    unsafe {
        libc::geteuid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_folder_is_made_0700_and_an_unsafe_one_refused() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let private = dir.path().join("a/b");
        private_folder(&private).expect("created");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&private)
                .expect("exists")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
            std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o777))
                .expect("chmod");
            assert!(matches!(
                private_folder(&private),
                Err(FsError::Writable { .. })
            ));
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&private, &link).expect("a link");
            let error = private_folder(&link).expect_err("a link is refused");
            assert!(matches!(error, FsError::Symlink { .. }), "{error}");
            assert!(error.to_string().contains("symbolic link"));
        }
    }

    #[cfg(unix)]
    #[test]
    fn private_files_refuse_links_and_fifos_without_blocking() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("target");
        std::fs::write(&target, "x").expect("written");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).expect("a link");
        assert!(matches!(
            open_private_append(&link),
            Err(FsError::Symlink { .. })
        ));
        assert!(create_new_private(&link).is_err());
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(status.success());
        let error = open_private_append(&fifo).expect_err("a FIFO is refused");
        assert!(matches!(error, FsError::NotRegular { .. }), "{error}");
        let error = open_lock(&fifo, LockPolicy::Immediate).expect_err("refused");
        assert!(matches!(error, FsError::NotRegular { .. }), "{error}");
        let file = dir.path().join("file");
        open_private_append(&file).expect("created");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file)
            .expect("exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_held_lock_is_busy_or_times_out() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("x.lock");
        let held = open_lock(&path, LockPolicy::Immediate).expect("free");
        assert!(matches!(
            open_lock(&path, LockPolicy::Immediate),
            Err(FsError::LockBusy { .. })
        ));
        let error =
            open_lock(&path, LockPolicy::Wait(Duration::from_millis(30))).expect_err("still held");
        assert!(matches!(error, FsError::LockTimeout { .. }), "{error}");
        drop(held);
        open_lock(&path, LockPolicy::Immediate).expect("free again");
    }

    #[test]
    fn a_folder_is_synced_and_a_missing_one_ignored() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        sync_dir(dir.path());
        sync_dir(&dir.path().join("missing"));
    }

    #[test]
    fn stamps_and_digests() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("f");
        std::fs::write(&path, "abc").expect("written");
        let digested = digest_file(&path, Links::Follow, 10, "a test file").expect("hashed");
        assert_eq!(
            digested.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(digested.size, 3);
        assert_eq!(digested.before, digested.after);
        assert!(matches!(
            digest_file(&path, Links::Follow, 2, "a test file"),
            Err(FileReadError::TooLarge { .. })
        ));
        #[cfg(unix)]
        {
            let stamp = FileStamp::of_path(&path).expect("a stamp");
            assert!(stamp.same_file(&stamp));
            assert_eq!(stamp.size(), 3);
            assert!(!stamp.settled(SystemTime::now() - Duration::from_secs(60)));
            assert!(stamp.settled(SystemTime::now() + Duration::from_secs(60)));
        }
    }

    #[test]
    fn lines_are_capped() {
        let text = format!("short\n{}\nlast", "x".repeat(100));
        let mut lines = Lines::new(std::io::BufReader::with_capacity(8, text.as_bytes()), 10);
        let mut seen = Vec::new();
        while let Some((number, line)) = lines.next_line().expect("reads") {
            seen.push(match line {
                Line::Text { bytes, last } => {
                    format!("{number}:{}:{last}", String::from_utf8_lossy(bytes))
                }
                Line::TooLong { bytes } => format!("{number}:long {bytes}"),
            });
        }
        assert_eq!(seen, ["1:short:false", "2:long 100", "3:last:true"]);
    }
}

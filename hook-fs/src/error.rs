//! The crate's two errors: [`FsError`] for private folders, private files and locks (each
//! message names the path), [`ReadError`] for capped reads (its message reads after the path
//! the caller names).

use std::path::{Path, PathBuf};
use std::time::Duration;

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
    /// [`LockPolicy::Immediate`](crate::LockPolicy::Immediate): another process holds the lock.
    #[error(
        "{} is locked by another process; try again (or remove the file if no such process runs)",
        path.display()
    )]
    LockBusy {
        /// The lock file.
        path: PathBuf,
    },
    /// [`LockPolicy::Wait`](crate::LockPolicy::Wait): the lock was still held at the deadline.
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
    pub(crate) fn io(path: &Path, action: &'static str, source: std::io::Error) -> Self {
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

/// Why a file was not read (a regular file opened without blocking, read under a cap). Its
/// text reads after the file's name (`<path> is a FIFO, ...`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The operating system refused (missing, permission denied...).
    #[error("cannot read: {0}")]
    Io(#[source] std::io::Error),
    /// A directory, FIFO, device or socket (or, opened without following links, a symlink).
    #[error("is {kind}, not a regular file: it must be a regular file; replace it with one")]
    NotRegular {
        /// What it is.
        kind: &'static str,
    },
    /// Over the cap the caller gave.
    #[error("is {size} bytes, over the {cap}-byte ({}) limit of {what}; make it smaller", mib(*cap))]
    TooLarge {
        /// Its size (at least the cap plus one when it grew while being read).
        size: u64,
        /// The cap.
        cap: u64,
        /// What kind of file has this cap (`a configuration file`).
        what: &'static str,
    },
}

impl ReadError {
    /// Whether the file simply does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// `8 MiB` (or `1.5 MiB`) for a cap in bytes.
pub(crate) fn mib(cap: u64) -> String {
    let whole = cap / (1024 * 1024);
    if whole * 1024 * 1024 == cap {
        format!("{whole} MiB")
    } else {
        format!("{cap} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_reads_in_mib_when_whole_and_in_bytes_otherwise() {
        let cases = [
            (
                8 * 1024 * 1024,
                "is 9 bytes, over the 8388608-byte (8 MiB) limit of a test file; make it smaller",
            ),
            (
                1536 * 1024,
                "is 9 bytes, over the 1572864-byte (1572864 bytes) limit of a test file; make it smaller",
            ),
        ];
        for (cap, expected) in cases {
            let error = ReadError::TooLarge {
                size: 9,
                cap,
                what: "a test file",
            };
            assert_eq!(error.to_string(), expected);
        }
    }
}

//! Locks: an exclusive `flock`/`LockFileEx` on a private lock file, taken at once or retried to
//! a deadline, never waited on without one.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::FsError;
use crate::private::open_private_write;

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
/// [`open_private_append`](crate::open_private_append) when the file is not a private regular file; [`FsError::Io`] when
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

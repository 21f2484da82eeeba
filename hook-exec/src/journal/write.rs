//! Appending a record as one line, in one `write`, and rotating the files by size under a lock
//! taken only if free (see the module docs of [`crate::journal`]).

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hook_fs::{FsError, LockPolicy};

use super::Journal;
use super::record::Record;
use crate::context::{SideFileError, private_folder};

/// The lock file rotation takes.
pub(super) const LOCK_FILE: &str = "journal.lock";

/// Why a line could not be added to the journal.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    /// The folder is unsafe (a symlink, another user's, writable by others) or cannot be made.
    #[error("the hook journal is not kept: {}", folder_problem(.0))]
    Folder(#[source] SideFileError),
    /// The file could not be opened, written or rotated.
    #[error("the hook journal {path} cannot be written: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The record could not be serialized (never expected).
    #[error("the hook journal's line cannot be written: {0}")]
    Serialize(#[source] serde_json::Error),
    /// A journal file (or its lock) is not a private regular file: a symlink, a FIFO, a device.
    #[error("the hook journal cannot be written: {0}")]
    File(#[source] FsError),
}

/// What is wrong with the journal's folder, said of the journal (the check is the side-file
/// folder's).
fn folder_problem(error: &SideFileError) -> String {
    match error {
        SideFileError::Symlink { path } => format!(
            "its folder {} is a symbolic link; remove it (a private folder is created in its place)",
            path.display()
        ),
        SideFileError::NotADirectory { path } => format!(
            "its folder {} is not a directory; remove or rename it",
            path.display()
        ),
        SideFileError::ForeignOwner { path, owner } => format!(
            "its folder {} belongs to user {owner}, not to you; remove it",
            path.display()
        ),
        SideFileError::Writable { path, mode } => format!(
            "its folder {} is writable by group or others (mode {mode:o}); run `chmod 700 {}`",
            path.display(),
            path.display()
        ),
        other => other.to_string(),
    }
}

impl Journal {
    /// Appends `record` as one line, in one `write`, rotating the files when the live one is
    /// full.
    ///
    /// # Errors
    ///
    /// [`JournalError`] when the folder is unsafe or the file cannot be written; nothing is
    /// retried. The first error is also kept for [`first_error`](Self::first_error).
    pub fn append(&self, record: &Record) -> Result<(), JournalError> {
        let result = self.append_inner(record);
        if let Err(error) = &result
            && let Ok(mut first) = self.first_error.lock()
            && first.is_none()
        {
            *first = Some(error.to_string());
        }
        result
    }

    fn append_inner(&self, record: &Record) -> Result<(), JournalError> {
        let line = record.to_line().map_err(JournalError::Serialize)?;
        private_folder(&self.dir).map_err(JournalError::Folder)?;
        let path = self.file(0);
        let write_error = |source| JournalError::Write {
            path: path.clone(),
            source,
        };
        let mut file = hook_fs::open_private_append(&path).map_err(JournalError::File)?;
        file.write_all(line.as_bytes()).map_err(write_error)?;
        let size = file.metadata().map_err(write_error)?.len();
        drop(file);
        if size >= self.max_file_bytes {
            self.rotate()?;
        }
        Ok(())
    }

    /// Appends `record` on a thread of its own (tokio's blocking pool inside a runtime, else a
    /// new thread) and returns at once: the engine's dispatch never waits for the disk. An error
    /// is kept for [`first_error`](Self::first_error). A record still queued when the runtime
    /// shuts down may be lost; [`wait_idle`](Self::wait_idle) waits for the queue to empty.
    pub fn append_detached(self: &Arc<Self>, record: Record) {
        if let Ok(mut pending) = self.pending.lock() {
            *pending += 1;
        }
        let journal = Arc::clone(self);
        let job = move || {
            let _ = journal.append(&record);
            if let Ok(mut pending) = journal.pending.lock() {
                *pending = pending.saturating_sub(1);
            }
            journal.idle.notify_all();
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn_blocking(job);
            }
            Err(_) => {
                if let Err(error) = std::thread::Builder::new()
                    .name("hook-journal".into())
                    .spawn(job)
                {
                    self.keep_error(&error.to_string());
                }
            }
        }
    }

    /// Waits at most `timeout` for every [`append_detached`](Self::append_detached) record to be
    /// written; whether the queue is empty.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let Ok(pending) = self.pending.lock() else {
            return false;
        };
        match self.idle.wait_timeout_while(pending, timeout, |n| *n > 0) {
            Ok((pending, _)) => *pending == 0,
            Err(_) => false,
        }
    }

    fn keep_error(&self, error: &str) {
        if let Ok(mut first) = self.first_error.lock()
            && first.is_none()
        {
            *first = Some(error.to_owned());
        }
    }

    /// Renames every file one step older under the lock, if the live file is still full; skips
    /// (successfully) when another process holds the lock.
    fn rotate(&self) -> Result<(), JournalError> {
        let lock_path = self.dir.join(LOCK_FILE);
        let _lock = match hook_fs::open_lock(&lock_path, LockPolicy::Immediate) {
            Ok(lock) => lock,
            // Whoever holds it rotates, or the next write past the bound tries again.
            Err(FsError::LockBusy { .. }) => return Ok(()),
            Err(error) => return Err(JournalError::File(error)),
        };
        let rename_error = |source| JournalError::Write {
            path: lock_path.clone(),
            source,
        };
        let live = self.file(0);
        // Another process may have rotated since this one wrote.
        let full = std::fs::symlink_metadata(&live)
            .map(|m| m.len() >= self.max_file_bytes)
            .unwrap_or(false);
        if !full {
            return Ok(());
        }
        if self.files == 1 {
            return std::fs::remove_file(&live).map_err(rename_error);
        }
        for n in (1..self.files).rev() {
            let from = self.file(n - 1);
            if std::fs::symlink_metadata(&from).is_ok() {
                // Over the older file of that name, dropping the oldest.
                std::fs::rename(&from, self.file(n)).map_err(rename_error)?;
            }
        }
        Ok(())
    }
}

//! The journal: one JSON line per dispatch, so that "what did my hooks do today?" has an answer.
//!
//! A broken hook looks exactly like a quiet one to the agents (Claude Code drops the stderr of
//! an exit-0 hook; a guard whose `jq` is missing reads an empty command and allows). The engine
//! sees every run with its status, exit code, duration and stderr: the journal keeps that, and
//! `hook log`, `hook stats` and `hook doctor` read it.
//!
//! # What a line holds (and what it does not)
//!
//! A [`Record`]: the format version `v` ([`FORMAT_VERSION`]), the time (UTC, RFC 3339 with
//! milliseconds), the front end that dispatched
//! (`run`, `relay`, `library`), dialect, event, session id, `cwd`, the tool name and a
//! **summary** of the input (the Bash `command`, else a `file_path`/`path`, else the prompt, cut
//! to [`SUMMARY_CHARS`] characters), the outcome's decision and reason (cut), whether the input
//! was rewritten, and per run ([`RunRecord`]): key, source layer and file, handler type, status,
//! skip reason, exit code, duration, the first and last bytes of its stderr
//! ([`hook_protocol::Run::stderr`]), the error, and whether it was *quiet* (ran, exit 0, and
//! nothing reached the agent: see [`RunRecord::quiet`]). `hook relay` also records the `PATH` it ran with (the agent's),
//! which `hook doctor` checks hooks against.
//!
//! **The event's full input is not recorded**, nor a hook's stdout, nor the context it added:
//! they may hold secrets (file contents, tokens in a command's environment, a prompt). A patch
//! (`*** Begin Patch`, Codex's `apply_patch`) is summarised by the files it touches
//! (`patch: add a.rs, update b.rs`), never by its text. The
//! summary may still show a secret typed into a Bash command line; the journal is private to
//! the user (below) and `HOOK_JOURNAL=off` turns it off.
//!
//! # Where and how it is written
//!
//! Every file is opened through `hook_fs`, the workspace's one safe-filesystem crate.
//!
//! - **Folder**: `<state>/hook-journal/` (`hook run` and `hook relay` use the state folder of
//!   their hooks, [`Discovery::state_dir`](hook_config::Discovery::state_dir): the dialect's
//!   home, or the relay's user folder beside the agent), created 0700 with its missing parents; an existing folder that is a symlink, not the user's, or writable by group
//!   or others is refused, as lime's side-file folder is ([`SideFileError`](crate::SideFileError)).
//! - **Files**: `journal.jsonl` (0600, opened `O_APPEND | O_NOFOLLOW | O_NONBLOCK`, then checked
//!   to be a regular file: a FIFO or a device planted there is refused at once, never waited
//!   on), then the rotated `journal.1.jsonl` … `journal.<n-1>.jsonl`, older each.
//! - **One `write` per line** with `O_APPEND`: concurrent processes (the hooks of one agent run
//!   at once) each add whole lines; Linux serialises appends to a regular file, so lines never
//!   interleave. A line is never longer than [`MAX_LINE_BYTES`]: every text field is cut to its
//!   bound first ([`SUMMARY_CHARS`] for the summary, reason, errors, session id and tool,
//!   [`FIELD_CHARS`] for `cwd`, keys and files, [`PATH_CHARS`] for `PATH`); past the line bound
//!   the stderr excerpts, then the errors and files, are dropped from it, and it says so
//!   (`truncated: true`); a record that still does not fit becomes a *stub*: its runs are
//!   dropped and counted (`runs_dropped`), its summary, reason and `PATH` left out.
//! - **Rotation by size**: when the live file has reached [`Journal::max_file_bytes`] (default
//!   8 MiB) after a write, the writer tries `journal.lock` (an exclusive `flock`, taken only if
//!   free: `LockPolicy::Immediate`), checks the size again under it (another process may have
//!   rotated already), and renames the files one step older, dropping the oldest of
//!   [`Journal::files`] (default 4). **A busy lock skips the rotation** (the next write past the
//!   bound tries again): a writer never waits for another process, so a held lock can never
//!   hold an answer. A process that opened the old live file just before writes its line into
//!   what is now `journal.1.jsonl`: whole, and kept. The journal thus stays within
//!   `files` files of about `max_file_bytes` each (plus the lines written while the lock was
//!   busy).
//! - **Never fails or delays a dispatch**: [`Journal::append`] returns an error the caller may
//!   show once; `hook run` and `hook relay` call it after their answer is written, and the
//!   engine hands the record to a blocking thread ([`Journal::append_detached`]) and returns its
//!   outcome without waiting (it keeps the first error for [`Journal::first_error`]).
//! - **Read back bounded**: [`Journal::read`] streams every record oldest first, a line at a time
//!   with a cap on each, and [`Journal::follow`] the records added from now on, across
//!   rotations (like `tail -F`: it follows the live file by identity, drains the rotated one,
//!   then opens the new one).
//! - **Cheap**: an `open`, an `fstat` and a `write` per dispatch (and a `stat` of the folder):
//!   tens of microseconds, against milliseconds for the dispatch (BENCHMARKS.md).
//!
//! An embedder opts in with [`crate::EngineOptions::with_journal`]: every dispatch of that engine
//! is then recorded (front end `library`).
//!
//! # Where each part is
//!
//! This file holds [`Journal`] (a folder and its bounds); `record.rs` what a line holds and its
//! bounds ([`Record`], [`RunRecord`]), `write.rs` appending and rotation, `entry.rs` one line as
//! read back ([`Entry`]), `read.rs` the reader, `follow.rs` the follower, `time.rs` the times.

mod entry;
mod follow;
mod read;
mod record;
mod time;
mod write;

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

pub use entry::Entry;
pub use follow::Follower;
pub use read::JournalReader;
pub use record::{
    FIELD_CHARS, FORMAT_VERSION, MAX_LINE_BYTES, PATH_CHARS, Record, RunRecord, SUMMARY_CHARS,
};
pub use time::{format_time, parse_time};
pub use write::JournalError;

/// The journal's folder in a state folder
/// ([`Discovery::state_dir`](hook_config::Discovery::state_dir)).
pub const JOURNAL_DIR: &str = "hook-journal";

/// The live journal file's name; rotated files are `journal.1.jsonl`, `journal.2.jsonl`...
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The default size at which the live file is rotated: 8 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The default number of files kept, the live one included: 4.
pub const DEFAULT_FILES: usize = 4;

/// A journal: where dispatch records are appended (see the module docs).
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    max_file_bytes: u64,
    files: usize,
    first_error: Mutex<Option<String>>,
    /// Records handed to [`Journal::append_detached`] and not yet written.
    pending: Mutex<usize>,
    idle: Condvar,
}

impl Journal {
    /// The journal in folder `dir`, with the default bounds (8 MiB × 4 files).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Journal {
            dir: dir.into(),
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            files: DEFAULT_FILES,
            first_error: Mutex::new(None),
            pending: Mutex::new(0),
            idle: Condvar::new(),
        }
    }

    /// The journal of a state folder (a dialect's home, or the relay's user folder:
    /// [`Discovery::state_dir`](hook_config::Discovery::state_dir)): `<home>/hook-journal`.
    pub fn for_home(home: &Path) -> Self {
        Journal::new(home.join(JOURNAL_DIR))
    }

    /// This journal rotating at `max_file_bytes` (at least 1) and keeping `files` files (at
    /// least 1, the live one included).
    pub fn with_limits(mut self, max_file_bytes: u64, files: usize) -> Self {
        self.max_file_bytes = max_file_bytes.max(1);
        self.files = files.max(1);
        self
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size at which the live file is rotated.
    pub fn max_file_bytes(&self) -> u64 {
        self.max_file_bytes
    }

    /// How many files are kept, the live one included.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The journal's files that exist, newest first (the live one, then `.1`, `.2`...).
    pub fn existing_files(&self) -> Vec<PathBuf> {
        (0..self.files)
            .map(|n| self.file(n))
            .filter(|path| path.is_file())
            .collect()
    }

    /// The first error an [`append`](Self::append) met, if any (the engine ignores them).
    pub fn first_error(&self) -> Option<String> {
        self.first_error.lock().ok().and_then(|error| error.clone())
    }

    fn file(&self, n: usize) -> PathBuf {
        if n == 0 {
            self.dir.join(JOURNAL_FILE)
        } else {
            self.dir.join(format!("journal.{n}.jsonl"))
        }
    }
}

#[cfg(test)]
mod tests;

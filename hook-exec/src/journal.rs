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
//!   or others is refused, as lime's side-file folder is ([`crate::context`]).
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

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};

use hook_fs::{FileStamp, FsError, Line, Lines, Links, LockPolicy};

use hook_protocol::{
    Decision, Dialect, Event, EventInput, HandlerType, Layer, Outcome, Run, RunStatus, SkipReason,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::context::{SideFileError, private_folder};

/// The format version every record is written with (`v`); a line without `v` is version 1.
pub const FORMAT_VERSION: u32 = 1;

/// The journal's folder in a state folder
/// ([`Discovery::state_dir`](hook_config::Discovery::state_dir)).
pub const JOURNAL_DIR: &str = "hook-journal";

/// The live journal file's name; rotated files are `journal.1.jsonl`, `journal.2.jsonl`...
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The default size at which the live file is rotated: 8 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The default number of files kept, the live one included: 4.
pub const DEFAULT_FILES: usize = 4;

/// How many characters of the input's summary, a reason or an error a line keeps.
pub const SUMMARY_CHARS: usize = 200;

/// How many characters of `cwd`, a run's key or its file a line keeps.
pub const FIELD_CHARS: usize = 1024;

/// How many characters of the recorded `PATH` a line keeps.
pub const PATH_CHARS: usize = 4096;

/// The longest line written: 64 KiB (see the module docs).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The lock file rotation takes.
const LOCK_FILE: &str = "journal.lock";

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

    /// Every record of the journal, oldest first, streamed a line at a time (each line read
    /// with a cap of [`MAX_LINE_BYTES`]; a longer one is an [`Entry::Unreadable`], skipped
    /// without being held). Files are opened as regular files only, without following links
    /// and without blocking (a FIFO is an [`Entry::Unreadable`]).
    pub fn read(&self) -> JournalReader {
        let files = (0..self.files).rev().map(|n| self.file(n)).collect();
        JournalReader {
            files,
            current: None,
            live: self.file(0),
            live_end: None,
        }
    }

    /// A follower of the records appended from now on (see [`Follower`]).
    pub fn follow(&self) -> Follower {
        let live = self.file(0);
        let tail = Tail::open(&live, true);
        Follower { live, tail }
    }
}

/// One line of the journal as read back.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Entry {
    /// A record.
    Record(Box<Record>),
    /// A line (or a file) that could not be read: not JSON, not a record, over the line cap, or
    /// a file that is not a regular file.
    Unreadable {
        /// The file.
        file: PathBuf,
        /// The line number (from 1; 0 for the whole file).
        line: u64,
        /// Why.
        why: String,
    },
}

impl Entry {
    fn of_line(file: &Path, number: u64, line: Line<'_>) -> Option<Entry> {
        match line {
            Line::Text { bytes, .. } if bytes.trim_ascii().is_empty() => None,
            Line::Text { bytes, .. } => Some(match serde_json::from_slice::<Record>(bytes) {
                Ok(record) => Entry::Record(Box::new(record)),
                Err(error) => Entry::Unreadable {
                    file: file.to_owned(),
                    line: number,
                    why: error.to_string(),
                },
            }),
            Line::TooLong { bytes } => Some(Entry::Unreadable {
                file: file.to_owned(),
                line: number,
                why: format!("{bytes} bytes, over the {MAX_LINE_BYTES}-byte line bound"),
            }),
        }
    }
}

/// The records of a journal, oldest first ([`Journal::read`]).
#[derive(Debug)]
pub struct JournalReader {
    /// The files still to read, oldest first.
    files: VecDeque<PathBuf>,
    current: Option<(PathBuf, Lines<BufReader<File>>)>,
    /// The live file's path.
    live: PathBuf,
    /// The live file, read to its end: where [`into_follower`](Self::into_follower) goes on.
    live_end: Option<Tail>,
}

impl JournalReader {
    /// A [`Follower`] that goes on exactly where this reader ended: the records appended to the
    /// live file after the last one read (none read twice, none missed), across rotations. Read
    /// the records first (`by_ref()`); a reader that did not reach the live file's end follows
    /// from the live file's start.
    pub fn into_follower(self) -> Follower {
        Follower {
            live: self.live,
            tail: self.live_end,
        }
    }
}

impl Iterator for JournalReader {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        loop {
            if let Some((path, lines)) = &mut self.current {
                match lines.next_line() {
                    Ok(Some((number, line))) => match Entry::of_line(path, number, line) {
                        Some(entry) => return Some(entry),
                        None => continue,
                    },
                    Ok(None) => {
                        if let Some((path, lines)) = self.current.take()
                            && path == self.live
                        {
                            let offset = lines.bytes();
                            self.live_end = Tail::resume(path, lines.into_inner(), offset);
                        }
                    }
                    Err(error) => {
                        let entry = Entry::Unreadable {
                            file: path.clone(),
                            line: 0,
                            why: format!("cannot read: {error}"),
                        };
                        self.current = None;
                        return Some(entry);
                    }
                }
                continue;
            }
            let path = self.files.pop_front()?;
            match hook_fs::open_regular(&path, Links::Refuse) {
                Ok((file, _)) => {
                    let lines =
                        Lines::new(BufReader::with_capacity(64 * 1024, file), MAX_LINE_BYTES);
                    self.current = Some((path, lines));
                }
                Err(error) if error.is_not_found() => {}
                Err(error) => {
                    return Some(Entry::Unreadable {
                        file: path,
                        line: 0,
                        why: error.to_string(),
                    });
                }
            }
        }
    }
}

/// The records appended to a journal from the moment [`Journal::follow`] was called, across
/// rotations, as `tail -F` follows a file: the live file is kept open and known by its identity
/// (device and inode); when the path names another file (rotated), what was added to the old
/// one is read to its end first, then the new one from its start. Call
/// [`poll`](Self::poll) as often as new records are wanted; it never blocks.
#[derive(Debug)]
pub struct Follower {
    live: PathBuf,
    tail: Option<Tail>,
}

/// The poll budget: at most this many bytes are read per call.
const POLL_BYTES: u64 = 8 * 1024 * 1024;

impl Follower {
    /// The records (and unreadable lines) added since the last call.
    pub fn poll(&mut self) -> Vec<Entry> {
        let mut entries = Vec::new();
        let Some(tail) = &mut self.tail else {
            // No live file yet: start at the beginning of the first one that appears.
            self.reopen(&mut entries);
            return entries;
        };
        tail.drain(&mut entries);
        let Ok(now) = std::fs::symlink_metadata(&self.live) else {
            // Missing (between the renames of a rotation).
            return entries;
        };
        // Another file at the path (where the platform has file identities), or this one cut
        // short in place.
        let rotated = match (FileStamp::of(&now), &tail.stamp) {
            (Some(now), Some(open)) => !now.same_file(open),
            _ => false,
        };
        if rotated {
            // Rotated: the old file is drained (a writer may have added to it since), then the
            // new live file is read from its start.
            tail.drain(&mut entries);
            self.reopen(&mut entries);
        } else if now.len() < tail.offset {
            // Cut short in place: read it again from its start.
            self.reopen(&mut entries);
        }
        entries
    }
}

impl Follower {
    /// Opens the live file from its start and reads it.
    fn reopen(&mut self, entries: &mut Vec<Entry>) {
        self.tail = Tail::open(&self.live, false);
        if let Some(tail) = &mut self.tail {
            tail.drain(entries);
        }
    }
}

/// An open journal file and what of it was read.
#[derive(Debug)]
struct Tail {
    path: PathBuf,
    file: File,
    /// Its identity (`None` where the platform has none: Windows).
    stamp: Option<FileStamp>,
    offset: u64,
    /// The start of a line whose newline has not been read yet.
    pending: Vec<u8>,
    /// The line being read is over the cap: dropped up to its newline.
    skipping: u64,
    line: u64,
}

impl Tail {
    /// Opens `path` (a regular file, links refused, never blocking), at its end when `at_end`.
    fn open(path: &Path, at_end: bool) -> Option<Tail> {
        let (file, meta) = hook_fs::open_regular(path, Links::Refuse).ok()?;
        let stamp = FileStamp::of(&meta);
        let mut tail = Tail {
            path: path.to_owned(),
            file,
            stamp,
            offset: 0,
            pending: Vec::new(),
            skipping: 0,
            line: 0,
        };
        if at_end {
            use std::io::Seek as _;
            tail.offset = tail.file.seek(std::io::SeekFrom::End(0)).ok()?;
        }
        Some(tail)
    }

    /// The file `reader` read to `offset` (its end) goes on from there.
    fn resume(path: PathBuf, reader: BufReader<File>, offset: u64) -> Option<Tail> {
        // At the end, the reader holds nothing buffered: the file's position is `offset`.
        let file = reader.into_inner();
        let stamp = file.metadata().ok().as_ref().and_then(FileStamp::of);
        Some(Tail {
            path,
            file,
            stamp,
            offset,
            pending: Vec::new(),
            skipping: 0,
            line: 0,
        })
    }

    /// Reads what was added since the last call (at most [`POLL_BYTES`]), whole lines only.
    fn drain(&mut self, entries: &mut Vec<Entry>) {
        let mut buffer = vec![0u8; 64 * 1024];
        let mut budget = POLL_BYTES;
        while budget > 0 {
            let n = match self.file.read(&mut buffer) {
                Ok(0) => return,
                Ok(n) => n,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return,
            };
            let read = u64::try_from(n).unwrap_or(u64::MAX);
            self.offset = self.offset.saturating_add(read);
            budget = budget.saturating_sub(read);
            let mut chunk = &buffer[..n];
            while let Some(end) = chunk.iter().position(|b| *b == b'\n') {
                self.push(&chunk[..end]);
                self.line += 1;
                let line = if self.skipping > 0 {
                    Line::TooLong {
                        bytes: self.skipping,
                    }
                } else {
                    Line::Text {
                        bytes: &self.pending,
                        last: false,
                    }
                };
                entries.extend(Entry::of_line(&self.path, self.line, line));
                self.pending.clear();
                self.skipping = 0;
                chunk = &chunk[end + 1..];
            }
            self.push(chunk);
        }
    }

    /// Adds a piece of the current line, or counts it when the line is over the cap.
    fn push(&mut self, bytes: &[u8]) {
        if self.skipping == 0 && self.pending.len() + bytes.len() <= MAX_LINE_BYTES {
            self.pending.extend_from_slice(bytes);
        } else {
            let held = u64::try_from(self.pending.len() + bytes.len()).unwrap_or(u64::MAX);
            self.skipping = self.skipping.saturating_add(held);
            self.pending.clear();
        }
    }
}

/// One dispatch, as a journal line (see the module docs for what is and is not kept).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Record {
    /// The format version ([`FORMAT_VERSION`]; 1 for a line written before the field existed).
    #[serde(default = "first_version")]
    pub v: u32,
    /// When the dispatch ended: UTC, RFC 3339 with milliseconds (`2026-12-03T19:16:17.123Z`).
    pub time: String,
    /// Who dispatched: `run` (`hook run`), `relay` (`hook relay`) or `library` (an embedder).
    pub front: String,
    /// The dialect.
    pub dialect: Dialect,
    /// The event.
    pub event: Event,
    /// The session id the agent gave (may be empty).
    pub session_id: String,
    /// The event's working directory.
    pub cwd: String,
    /// The tool, for tool events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// A short summary of the input: the command, else the path, else the prompt, cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The outcome's decision.
    pub decision: Decision,
    /// The outcome's reason, cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A hook rewrote the tool input.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rewritten: bool,
    /// A hook asked the agent to stop.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop: bool,
    /// The `PATH` the front end ran with (`hook relay`: the agent's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The exit code the front end answered with (`hook relay`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The line was cut to [`MAX_LINE_BYTES`]: stderr excerpts (then errors) were dropped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// One entry per matching handler, in configuration order (empty in a stub line).
    pub runs: Vec<RunRecord>,
    /// A stub line: the record did not fit in [`MAX_LINE_BYTES`] even cut, and its runs (this
    /// many) were left out, with its summary, reason and `PATH`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs_dropped: Option<usize>,
}

fn first_version() -> u32 {
    1
}

/// One handler's part of a [`Record`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RunRecord {
    /// The handler's key.
    pub key: String,
    /// The layer it came from.
    pub layer: Layer,
    /// The file it was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The handler type.
    #[serde(rename = "type")]
    pub handler_type: HandlerType,
    /// What happened.
    pub status: RunStatus,
    /// Why it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<SkipReason>,
    /// Its exit code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// How long it ran, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The first and last bytes of its stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// What went wrong (or why it was skipped), cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// It ran and exited 0, and nothing reached the agent: no block (its status), no other
    /// decision, rewrite or stop in the dispatch, no context, no warning (its stderr does not count: the agents drop it on exit 0). On an
    /// event that can block, a guard that may have stopped guarding.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quiet: bool,
}

impl Record {
    /// The record of `outcome`, the result of dispatching `input`, by front end `front`
    /// (`run`, `relay`, `library`), timed now.
    pub fn new(front: &str, input: &EventInput, outcome: &Outcome) -> Self {
        let value = input.to_value();
        let tool = value
            .get("tool_name")
            .and_then(Value::as_str)
            .map(str::to_owned);
        // What a run whose own status is `ok` may have given: a block is always its run's
        // `blocked`, so another hook's block does not make this one less quiet.
        let decided = !matches!(outcome.decision, Decision::Continue | Decision::Block)
            || outcome.updated_input.is_some()
            || outcome.stop;
        let runs = outcome
            .runs
            .iter()
            .map(|run| RunRecord::new(run, outcome, decided))
            .collect();
        Record {
            v: FORMAT_VERSION,
            time: format_time(SystemTime::now()),
            front: cut_to(front, SUMMARY_CHARS),
            dialect: outcome.dialect,
            event: bounded_event(&outcome.event),
            session_id: cut_to(input.session_id(), SUMMARY_CHARS),
            cwd: cut_to(input.cwd(), FIELD_CHARS),
            tool: tool.as_deref().map(cut),
            summary: summary(&value),
            decision: outcome.decision,
            reason: outcome.reason.as_deref().map(cut),
            rewritten: outcome.updated_input.is_some(),
            stop: outcome.stop,
            path: None,
            exit_code: None,
            truncated: false,
            runs,
            runs_dropped: None,
        }
    }

    /// This record with the `PATH` the front end ran with.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(cut_to(&path.into(), PATH_CHARS));
        self
    }

    /// This record with the exit code the front end answered with.
    pub fn with_exit_code(mut self, code: i32) -> Self {
        self.exit_code = Some(code);
        self
    }

    /// The record as one JSON line (with its newline), at most [`MAX_LINE_BYTES`]: every
    /// field cut to its bound, then stderr excerpts, errors and files dropped, then a stub
    /// (see the module docs).
    ///
    /// # Errors
    ///
    /// When serde_json cannot serialize it (never expected).
    pub fn to_line(&self) -> Result<String, serde_json::Error> {
        let fits = |line: &String| line.len() < MAX_LINE_BYTES;
        let mut record = self.clone();
        record.bound();
        let mut line = serde_json::to_string(&record)?;
        if !fits(&line) {
            record.truncated = true;
            for run in &mut record.runs {
                run.stderr = None;
            }
            line = serde_json::to_string(&record)?;
        }
        if !fits(&line) {
            for run in &mut record.runs {
                run.error = None;
                run.file = None;
            }
            line = serde_json::to_string(&record)?;
        }
        if !fits(&line) {
            record.runs_dropped = Some(record.runs.len());
            record.runs.clear();
            record.summary = None;
            record.reason = None;
            record.path = None;
            line = serde_json::to_string(&record)?;
        }
        if !fits(&line) {
            // Every field left is cut to a few KiB at most: never expected.
            record.session_id = cut_to(&record.session_id, 16);
            record.cwd = cut_to(&record.cwd, 16);
            record.tool = None;
            line = serde_json::to_string(&record)?;
        }
        line.push('\n');
        Ok(line)
    }

    /// Cuts every text field to its bound (a record read back or built by hand may hold more).
    fn bound(&mut self) {
        self.front = cut_to(&self.front, SUMMARY_CHARS);
        self.event = bounded_event(&self.event);
        self.session_id = cut_to(&self.session_id, SUMMARY_CHARS);
        self.cwd = cut_to(&self.cwd, FIELD_CHARS);
        self.time = cut_to(&self.time, 40);
        let short = |field: &mut Option<String>, chars: usize| {
            if let Some(text) = field {
                *text = cut_to(text, chars);
            }
        };
        short(&mut self.tool, SUMMARY_CHARS);
        short(&mut self.summary, SUMMARY_CHARS);
        short(&mut self.reason, SUMMARY_CHARS);
        short(&mut self.path, PATH_CHARS);
        for run in &mut self.runs {
            run.key = cut_to(&run.key, FIELD_CHARS);
            short(&mut run.file, FIELD_CHARS);
            short(&mut run.error, SUMMARY_CHARS);
            // An excerpt is a head and a tail of `STDERR_EXCERPT_BYTES` each, plus a note.
            short(
                &mut run.stderr,
                2 * hook_protocol::STDERR_EXCERPT_BYTES + 64,
            );
        }
    }
}

/// An event name past [`SUMMARY_CHARS`] (an unknown one an agent sent) cut to it.
fn bounded_event(event: &Event) -> Event {
    match event {
        Event::Other(name) if name.chars().nth(SUMMARY_CHARS).is_some() => {
            Event::Other(cut_to(name, SUMMARY_CHARS))
        }
        other => other.clone(),
    }
}

impl RunRecord {
    fn new(run: &Run, outcome: &Outcome, decided: bool) -> Self {
        let added_context = outcome
            .additional_contexts
            .iter()
            .any(|context| context.key == run.key);
        // stderr does not count: the agents drop an exit-0 hook's stderr (a guard whose `jq`
        // is missing says so there, exits 0, and allows).
        let quiet = run.status == RunStatus::Ok
            && run.exit_code == Some(0)
            && run.warnings.is_empty()
            && !added_context
            && !decided;
        RunRecord {
            key: cut_to(&run.key, FIELD_CHARS),
            layer: run.source.layer,
            file: run.source.path.as_deref().map(|f| cut_to(f, FIELD_CHARS)),
            handler_type: run.handler_type,
            status: run.status,
            skip_reason: run.skip_reason,
            exit_code: run.exit_code,
            duration_ms: run.duration_ms,
            stderr: run.stderr.clone(),
            error: run.error.as_deref().map(cut),
            quiet,
        }
    }
}

/// `text` cut to [`SUMMARY_CHARS`] characters (an ellipsis marks the cut).
fn cut(text: &str) -> String {
    cut_to(text, SUMMARY_CHARS)
}

/// `text` cut to `chars` characters (an ellipsis marks the cut).
fn cut_to(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The command, else the path, else the prompt of an event, cut.
fn summary(value: &Value) -> Option<String> {
    let input = value.get("tool_input");
    let from_input = |name: &str| input.and_then(|i| i.get(name)).and_then(Value::as_str);
    let text = from_input("command")
        .or_else(|| from_input("file_path"))
        .or_else(|| from_input("path"))
        .or_else(|| from_input("url"))
        .or_else(|| from_input("pattern"))
        .or_else(|| value.get("file_path").and_then(Value::as_str))
        .or_else(|| value.get("prompt").and_then(Value::as_str))
        .or_else(|| value.get("source").and_then(Value::as_str))
        .or_else(|| value.get("reason").and_then(Value::as_str))?;
    if let Some(files) = patch_summary(text) {
        return Some(cut(&files));
    }
    Some(cut(text))
}

/// A patch in the `*** Begin Patch` format (Codex's `apply_patch`, whose input is its `command`)
/// as the files it touches, never its text: `patch: add a.rs, update b.rs`.
fn patch_summary(text: &str) -> Option<String> {
    if !text.trim_start().starts_with("*** Begin Patch") {
        return None;
    }
    let mut files = Vec::new();
    for line in text.lines() {
        for (marker, verb) in [
            ("*** Add File: ", "add"),
            ("*** Update File: ", "update"),
            ("*** Delete File: ", "delete"),
            ("*** Move to: ", "move to"),
        ] {
            if let Some(path) = line.strip_prefix(marker) {
                files.push(format!("{verb} {}", path.trim()));
            }
        }
        if files.len() > 20 {
            files.push("…".to_owned());
            break;
        }
    }
    Some(format!("patch: {}", files.join(", ")))
}

/// `time` as UTC RFC 3339 with milliseconds: `2026-12-03T19:16:17.123Z` (the epoch for a time
/// before it or past the year 9999).
pub fn format_time(time: SystemTime) -> String {
    let at = jiff::Timestamp::try_from(time)
        // Whole milliseconds (truncated), as every recorded time has.
        .and_then(|at| jiff::Timestamp::from_millisecond(at.as_millisecond()))
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    format!("{at:.3}")
}

/// The milliseconds since the Unix epoch of an RFC 3339 time (what [`format_time`] writes, or
/// any `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`); `None` for anything else or a time before the
/// epoch.
pub fn parse_time(text: &str) -> Option<u64> {
    let at: jiff::Timestamp = text.parse().ok()?;
    u64::try_from(at.as_millisecond()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip() {
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_796_325_377_123);
        let text = format_time(at);
        assert_eq!(text, "2026-12-03T19:16:17.123Z");
        assert_eq!(parse_time(&text), Some(1_796_325_377_123));
        assert_eq!(parse_time("2024-02-29T00:00:00Z"), Some(1_709_164_800_000));
        assert_eq!(parse_time("yesterday"), None);
    }

    fn record(stderr: &str) -> Record {
        let input = hook_protocol::input_from_value(
            Dialect::Verboo,
            serde_json::json!({
                "hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/",
                "transcript_path": "/t", "tool_name": "Bash", "tool_use_id": "c",
                "tool_input": {"command": "ls"},
            }),
        )
        .expect("a valid input");
        let mut outcome = Outcome::new(Dialect::Verboo, Event::PreToolUse);
        let mut run = Run::new(
            "user:settings.json:PreToolUse:Bash:0",
            hook_protocol::Source::new(Layer::User),
            HandlerType::Command,
        );
        run.exit_code = Some(0);
        run.stderr = hook_protocol::stderr_excerpt(stderr.as_bytes());
        outcome.runs.push(run);
        Record::new("run", &input, &outcome)
    }

    #[test]
    fn lines_are_bounded_and_whole() {
        let line = record("").to_line().expect("serializes");
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        let parsed: Record = serde_json::from_str(&line).expect("reads back");
        assert_eq!(parsed.summary.as_deref(), Some("ls"));
        assert!(parsed.runs[0].quiet);
        let mut big = record("x");
        for _ in 0..200 {
            big.runs.push(big.runs[0].clone());
        }
        for run in &mut big.runs {
            run.stderr = Some("e".repeat(1024));
        }
        let line = big.to_line().expect("serializes");
        assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
        assert!(line.contains("\"truncated\":true"));
    }

    #[test]
    fn rotation_keeps_the_size_bound() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = Journal::new(dir.path().join(JOURNAL_DIR)).with_limits(4096, 3);
        let record = record("some stderr");
        let line = record.to_line().expect("serializes").len() as u64;
        for _ in 0..500 {
            journal.append(&record).expect("appends");
        }
        let files = journal.existing_files();
        assert_eq!(files.len(), 3, "{files:?}");
        let mut lines = 0;
        for file in &files {
            let text = std::fs::read_to_string(file).expect("readable");
            assert!(
                text.len() as u64 <= 4096 + line,
                "{} is {}",
                file.display(),
                text.len()
            );
            for row in text.lines() {
                serde_json::from_str::<Record>(row).expect("whole lines");
                lines += 1;
            }
        }
        assert!(lines > 0);
        assert!(
            !dir.path()
                .join(JOURNAL_DIR)
                .join("journal.3.jsonl")
                .exists()
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_unsafe_folder_is_refused() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("elsewhere");
        std::fs::create_dir(&target).expect("a folder");
        std::os::unix::fs::symlink(&target, dir.path().join(JOURNAL_DIR)).expect("a link");
        let journal = Journal::for_home(dir.path());
        let error = journal.append(&record("")).expect_err("refused");
        assert!(error.to_string().contains("symbolic link"), "{error}");
        assert!(journal.first_error().is_some());
        assert_eq!(std::fs::read_dir(&target).expect("readable").count(), 0);
    }

    #[test]
    fn a_300_kb_session_id_gives_a_bounded_line_that_reads_back() {
        let mut big = record("stderr");
        big.session_id = "s".repeat(300 * 1024);
        big.cwd = "/c".repeat(100 * 1024);
        big.path = Some("/bin:".repeat(50 * 1024));
        let line = big.to_line().expect("serializes");
        assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
        let parsed: Record = serde_json::from_str(&line).expect("reads back");
        assert_eq!(parsed.v, FORMAT_VERSION);
        assert_eq!(parsed.session_id.chars().count(), SUMMARY_CHARS + 1);
        assert_eq!(parsed.runs.len(), 1, "cut fields fit without a stub");
    }

    #[test]
    fn a_record_that_does_not_fit_even_cut_becomes_a_stub() {
        let mut big = record("x");
        let run = big.runs[0].clone();
        for n in 0..2000 {
            let mut run = run.clone();
            run.key = format!("{}{n}", "k".repeat(5000));
            big.runs.push(run);
        }
        let line = big.to_line().expect("serializes");
        assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
        let parsed: Record = serde_json::from_str(&line).expect("reads back");
        assert!(parsed.truncated);
        assert_eq!(parsed.runs_dropped, Some(2001));
        assert!(parsed.runs.is_empty());
    }

    #[test]
    fn a_line_without_v_is_version_1() {
        let mut value = serde_json::to_value(record("")).expect("serializes");
        value.as_object_mut().expect("an object").remove("v");
        let parsed: Record = serde_json::from_value(value).expect("reads");
        assert_eq!(parsed.v, 1);
    }

    #[test]
    fn a_patch_is_summarised_by_its_files_never_its_text() {
        let patch = "*** Begin Patch\n*** Add File: src/new.rs\n+let token = \"s3cr3t\";\n*** Update File: src/lib.rs\n@@\n-old\n+new secret\n*** End Patch\n";
        let summary =
            summary(&serde_json::json!({"tool_input": {"command": patch}})).expect("a summary");
        assert_eq!(summary, "patch: add src/new.rs, update src/lib.rs");
        assert!(!summary.contains("s3cr3t"));
    }

    fn journal_in(dir: &Path, max: u64, files: usize) -> Journal {
        Journal::new(dir.join(JOURNAL_DIR)).with_limits(max, files)
    }

    #[test]
    fn a_busy_lock_skips_rotation_and_never_waits() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = journal_in(dir.path(), 1024, 3);
        journal.append(&record("")).expect("appends");
        let held = hook_fs::open_lock(&journal.dir().join(LOCK_FILE), LockPolicy::Immediate)
            .expect("free");
        for _ in 0..50 {
            journal
                .append(&record(""))
                .expect("appends without waiting");
        }
        assert_eq!(journal.existing_files().len(), 1, "no rotation while held");
        drop(held);
        journal.append(&record("")).expect("appends");
        assert!(
            journal.dir().join("journal.1.jsonl").is_file(),
            "rotated once free"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_as_the_journal_or_its_lock_is_refused_at_once() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = journal_in(dir.path(), 1, 3);
        private_folder(journal.dir()).expect("a folder");
        let fifo = |path: &Path| {
            let status = std::process::Command::new("mkfifo")
                .arg(path)
                .status()
                .expect("mkfifo runs");
            assert!(status.success());
        };
        fifo(&journal.dir().join(LOCK_FILE));
        let error = journal.append(&record("")).expect_err("the lock is a FIFO");
        assert!(error.to_string().contains("FIFO"), "{error}");
        let live = journal.dir().join(JOURNAL_FILE);
        std::fs::remove_file(&live).expect("removed");
        fifo(&live);
        let error = journal.append(&record("")).expect_err("the file is a FIFO");
        assert!(error.to_string().contains("FIFO"), "{error}");
        let read: Vec<Entry> = journal.read().collect();
        assert!(matches!(&read[..], [Entry::Unreadable { .. }]), "{read:?}");
    }

    #[test]
    fn the_reader_streams_oldest_first_and_skips_an_overlong_line() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = journal_in(dir.path(), 4096, 4);
        let mut first = record("");
        first.session_id = "first".into();
        journal.append(&first).expect("appends");
        for _ in 0..30 {
            journal.append(&record("")).expect("appends");
        }
        let live = journal.dir().join(JOURNAL_FILE);
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&live)
            .expect("opens");
        file.write_all(&vec![b'x'; 3 * MAX_LINE_BYTES])
            .and_then(|()| file.write_all(b"\n"))
            .expect("writes");
        let mut last = record("");
        last.session_id = "last".into();
        journal.append(&last).expect("appends");
        let entries: Vec<Entry> = journal.read().collect();
        let sessions: Vec<&str> = entries
            .iter()
            .filter_map(|entry| match entry {
                Entry::Record(record) => Some(record.session_id.as_str()),
                Entry::Unreadable { .. } => None,
            })
            .collect();
        assert_eq!(sessions.last(), Some(&"last"));
        assert!(journal.existing_files().len() > 1);
        let unreadable: Vec<&Entry> = entries
            .iter()
            .filter(|e| matches!(e, Entry::Unreadable { .. }))
            .collect();
        assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    }

    #[test]
    fn a_reader_goes_on_as_a_follower_with_nothing_twice_and_nothing_missed() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = journal_in(dir.path(), 2048, 3);
        let numbered = |n: usize| {
            let mut record = record("");
            record.session_id = format!("n{n}");
            record
        };
        for n in 0..6 {
            journal.append(&numbered(n)).expect("appends");
        }
        let mut reader = journal.read();
        let mut sessions: Vec<String> = Vec::new();
        for entry in reader.by_ref() {
            if let Entry::Record(record) = entry {
                sessions.push(record.session_id.clone());
            }
        }
        let mut follower = reader.into_follower();
        for n in 6..30 {
            journal.append(&numbered(n)).expect("appends");
            if n % 5 == 0 {
                for entry in follower.poll() {
                    if let Entry::Record(record) = entry {
                        sessions.push(record.session_id.clone());
                    }
                }
            }
        }
        for entry in follower.poll() {
            if let Entry::Record(record) = entry {
                sessions.push(record.session_id.clone());
            }
        }
        // The oldest lines may have been rotated away; from the first kept on, every one once.
        let first: usize = sessions[0][1..].parse().expect("a number");
        let expected: Vec<String> = (first..30).map(|n| format!("n{n}")).collect();
        assert_eq!(sessions, expected);
    }

    #[test]
    fn the_follower_survives_rotation_and_sees_the_line_that_caused_it() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let journal = journal_in(dir.path(), 2048, 3);
        journal.append(&record("")).expect("appends");
        let mut follower = journal.follow();
        assert!(follower.poll().is_empty(), "starts at the end");
        let mut seen = Vec::new();
        for n in 0..40 {
            let mut numbered = record("");
            numbered.session_id = format!("n{n}");
            journal.append(&numbered).expect("appends");
            if n % 7 == 0 {
                seen.extend(follower.poll());
            }
        }
        seen.extend(follower.poll());
        let sessions: Vec<String> = seen
            .iter()
            .map(|entry| match entry {
                Entry::Record(record) => record.session_id.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        let expected: Vec<String> = (0..40).map(|n| format!("n{n}")).collect();
        assert!(journal.existing_files().len() > 1, "it rotated");
        assert_eq!(sessions, expected);
    }
}

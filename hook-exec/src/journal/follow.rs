//! Following a journal as records are appended, across rotations, like `tail -F`
//! ([`Follower`]).

use std::fs::File;
use std::io::{BufReader, Read as _};
use std::path::{Path, PathBuf};

use hook_fs::{FileStamp, Line, Links};

use super::Journal;
use super::entry::Entry;
use super::record::MAX_LINE_BYTES;

impl Journal {
    /// A follower of the records appended from now on (see [`Follower`]).
    pub fn follow(&self) -> Follower {
        let live = self.file(0);
        let tail = Tail::open(&live, true);
        Follower { live, tail }
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
    /// The follower of the live file `live`, going on from `tail` (from the file's start when
    /// `None`).
    pub(super) fn at(live: PathBuf, tail: Option<Tail>) -> Self {
        Follower { live, tail }
    }

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
pub(super) struct Tail {
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
    pub(super) fn resume(path: PathBuf, reader: BufReader<File>, offset: u64) -> Option<Tail> {
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

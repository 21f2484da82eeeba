//! Reading a journal back, oldest first, a line at a time with a cap on each
//! ([`JournalReader`]).

use std::collections::VecDeque;
use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use hook_fs::{Lines, Links};

use super::Journal;
use super::entry::Entry;
use super::follow::{Follower, Tail};
use super::record::MAX_LINE_BYTES;

impl Journal {
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
        Follower::at(self.live, self.live_end)
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

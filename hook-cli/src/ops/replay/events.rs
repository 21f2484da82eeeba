//! One transcript read as the events its agent would have sent its hooks ([`SessionEvents`]):
//! its lines read capped ([`super::lines`]), each parsed and handed to the agent's [`Format`]
//! (Claude Code's transcripts, Codex's rollouts), which rebuilds the events; bad lines counted
//! with `file:line`, never an abort. What `hook replay` dispatches ([`super::session`]) and
//! `hook guard add --dry-run` (and `hook replay --guard`) runs a guard over.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use hook_protocol::Dialect;

use super::lines::{self, BadKind, BadLine, Line, Lines};
use super::rebuild::{Format, Rebuilt, Sink};
use super::{claude, codex};

/// The events of one transcript, a line at a time.
pub(crate) struct SessionEvents {
    format: Box<dyn Format>,
    sink: Sink,
    lines: Option<Lines<BufReader<File>>>,
    max_line: usize,
    /// The bytes of the file read so far (counted once each).
    counted: u64,
    /// The number of the last line read.
    pub(crate) line: u64,
}

/// What one more line of a transcript gave.
pub(crate) struct Batch {
    /// The events it completed (in order).
    pub(crate) events: Vec<Rebuilt>,
    /// The lines that could not be read or used.
    pub(crate) bad: Vec<BadLine>,
    /// How many more bytes of the file were read.
    pub(crate) read: u64,
}

impl SessionEvents {
    /// The transcript `file` of `dialect`'s agent (shown in bad lines as `shown`), each line
    /// capped at `max_line` bytes. A file that cannot be opened gives one batch: its bad line.
    pub(crate) fn open(dialect: Dialect, file: &Path, shown: String, max_line: usize) -> Self {
        let absolute = std::path::absolute(file).unwrap_or_else(|_| file.to_owned());
        let transcript = absolute.display().to_string();
        // The transcript format is the agent's, so per dialect by nature.
        let format: Box<dyn Format> = if dialect == Dialect::Verboo {
            Box::new(claude::Claude::new(transcript))
        } else {
            Box::new(codex::Codex::new(transcript))
        };
        let mut sink = Sink::new(shown);
        let lines = match lines::open(file, max_line) {
            Ok(lines) => Some(lines),
            Err(error) => {
                sink.bad(0, BadKind::Unreadable, error.to_string());
                None
            }
        };
        SessionEvents {
            format,
            sink,
            lines,
            max_line,
            counted: 0,
            line: 0,
        }
    }

    /// What the next line gives, `None` once the transcript has ended (the events the end
    /// completes are in the last batch).
    pub(crate) fn next_batch(&mut self) -> Option<Batch> {
        let Some(lines) = &mut self.lines else {
            // Not opened: its one bad line, once.
            return (!self.sink.bad.is_empty()).then(|| Batch {
                events: Vec::new(),
                bad: std::mem::take(&mut self.sink.bad),
                read: 0,
            });
        };
        let mut ended = false;
        match lines.next_line() {
            Err(error) => {
                self.sink
                    .bad(self.line + 1, BadKind::Unreadable, error.to_string());
                ended = true;
            }
            Ok(None) => ended = true,
            Ok(Some((number, Line::TooLong { bytes }))) => {
                self.line = number;
                let cap = self.max_line;
                let why = format!("{bytes} bytes, over the {cap}-byte cap (--max-line-bytes)");
                self.sink.bad(number, BadKind::TooLong, why);
            }
            Ok(Some((number, Line::Text { bytes, last }))) => {
                self.line = number;
                if !bytes.iter().all(u8::is_ascii_whitespace) {
                    match lines::parse_json(bytes) {
                        Ok(entry) if entry.is_object() => {
                            self.format.entry(number, &entry, &mut self.sink);
                        }
                        Ok(_) => self.sink.bad(number, BadKind::Corrupt, "not a JSON object"),
                        Err(error) => {
                            let kind = if last && error.is_eof() {
                                BadKind::Truncated
                            } else {
                                BadKind::Corrupt
                            };
                            self.sink.bad(number, kind, error.to_string());
                        }
                    }
                }
            }
        }
        if ended {
            self.format.finish(&mut self.sink);
        }
        let read = lines.bytes() - self.counted;
        self.counted = lines.bytes();
        if ended {
            self.lines = None;
        }
        Some(Batch {
            events: std::mem::take(&mut self.sink.events),
            bad: std::mem::take(&mut self.sink.bad),
            read,
        })
    }

    /// The session's id, once read.
    pub(crate) fn session_id(&self) -> &str {
        self.format.session_id()
    }

    /// The entries of types the reader does not model, counted by type.
    pub(crate) fn take_skipped(&mut self) -> BTreeMap<String, u64> {
        std::mem::take(&mut self.sink.skipped)
    }
}

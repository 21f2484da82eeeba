//! A streaming line reader with a cap on each line.

use std::io::BufRead;

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

#[cfg(test)]
mod tests {
    use super::*;

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

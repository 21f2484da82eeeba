//! One line of the journal as read back ([`Entry`]): a record, or why it cannot be read. Both
//! the reader and the follower make them.

use std::path::{Path, PathBuf};

use hook_fs::Line;

use super::record::{MAX_LINE_BYTES, Record};

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
    /// The entry of line `number` of `file`; `None` for a blank line.
    pub(super) fn of_line(file: &Path, number: u64, line: Line<'_>) -> Option<Entry> {
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

//! Problems found while loading configuration, each with file, line and column.

use std::cell::Cell;
use std::fmt;

use serde::Serialize;

/// How serious a [`Diagnostic`] is.
///
/// Closed on purpose (not `#[non_exhaustive]`): a diagnostic either lost something written or
/// did not; callers decide on exactly that.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was ignored or adjusted; everything else of the file loaded.
    Warning,
    /// The file (or plugin) could not be used: none of its hooks were loaded.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One problem in one configuration file.
///
/// Displays as `file:line:col: message` (or `file: message` when the problem has no position,
/// e.g. an unreadable file). Lines and columns are 1-based; columns count characters, except for
/// JSON syntax errors where they are serde_json's byte columns (the same for ASCII text).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diagnostic {
    /// The file the problem is in, as it was found (e.g. `/home/me/.claude/settings.json`).
    pub path: String,
    /// 1-based line, when the problem has a position.
    pub line: Option<usize>,
    /// 1-based column, when the problem has a position.
    pub column: Option<usize>,
    /// What is wrong and what was expected.
    pub message: String,
    /// [`Severity::Error`]: something written was not used (a broken handler, group or file is
    /// left out, a setting of the wrong type ignored); [`Severity::Warning`]: used, or ignored
    /// as the agent ignores it.
    pub severity: Severity,
}

impl Diagnostic {
    /// An error at `line:column` of `path`.
    pub fn error(path: impl Into<String>, pos: Option<Pos>, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, path, pos, message)
    }

    /// A warning at `line:column` of `path`.
    pub fn warning(path: impl Into<String>, pos: Option<Pos>, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, path, pos, message)
    }

    fn new(
        severity: Severity,
        path: impl Into<String>,
        pos: Option<Pos>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            path: path.into(),
            line: pos.map(|p| p.line),
            column: pos.map(|p| p.column),
            message: message.into(),
            severity,
        }
    }

    /// Whether this is an [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => {
                write!(f, "{}:{line}:{column}: {}", self.path, self.message)
            }
            (Some(line), None) => write!(f, "{}:{line}: {}", self.path, self.message),
            _ => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

/// A 1-based line and column in a configuration file.
///
/// Closed on purpose (not `#[non_exhaustive]`): a position is a line and a column, and
/// embedders build one to point at their own files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl Pos {
    /// The position of byte `offset` in `text` (clamped to the text; columns count
    /// characters). For many positions in one text, the crate's index is linear overall; this
    /// is for one.
    pub fn of_offset(text: &str, offset: usize) -> Pos {
        LineIndex::new(text).pos(offset)
    }
}

/// Maps byte offsets of a text to lines and columns, in linear total time.
///
/// Built in one pass: the byte offset and the character count of every line start, and the
/// character count every [`BLOCK`] bytes. A column is the characters between the line start
/// and the offset, counted from the last position asked for when it is at or before the offset
/// in the same block or later (positions are asked in file order, so all of them together
/// scan the text once), else from the nearest block start (at most [`BLOCK`] bytes). Counting
/// from the line start instead made one-line (minified) files quadratic.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset of each line start.
    starts: Vec<usize>,
    /// Characters before each line start.
    line_chars: Vec<usize>,
    /// Characters before byte `k * BLOCK`.
    blocks: Vec<usize>,
    /// The last offset asked for and the characters before it.
    last: Cell<(usize, usize)>,
}

/// Bytes between two character-count checkpoints.
const BLOCK: usize = 256;

/// Whether `byte` starts a character (is not a UTF-8 continuation byte).
fn starts_char(byte: u8) -> bool {
    byte & 0xC0 != 0x80
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        let mut line_chars = vec![0];
        let mut blocks = Vec::with_capacity(text.len() / BLOCK + 2);
        let mut chars = 0;
        for (i, &byte) in text.as_bytes().iter().enumerate() {
            if i % BLOCK == 0 {
                blocks.push(chars);
            }
            if starts_char(byte) {
                chars += 1;
            }
            if byte == b'\n' {
                starts.push(i + 1);
                line_chars.push(chars);
            }
        }
        blocks.push(chars);
        LineIndex {
            text,
            starts,
            line_chars,
            blocks,
            last: Cell::new((0, 0)),
        }
    }

    /// The characters before byte `offset` (a character boundary, clamped to the text).
    fn chars_before(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let block = (offset / BLOCK).min(self.blocks.len() - 1);
        let block_start = block * BLOCK;
        let (last_offset, last_chars) = self.last.get();
        let (from, before) = if last_offset <= offset && last_offset >= block_start {
            (last_offset, last_chars)
        } else {
            (block_start, self.blocks[block])
        };
        let between = bytes
            .get(from..offset)
            .map_or(0, |span| span.iter().filter(|&&b| starts_char(b)).count());
        #[cfg(test)]
        SCANNED.with(|n| n.set(n.get() + (offset - from)));
        let chars = before + between;
        self.last.set((offset, chars));
        chars
    }

    /// The position of byte `offset` (clamped to the text; columns count characters).
    pub(crate) fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let line_chars = self.line_chars.get(line).copied().unwrap_or(0);
        let column = self.chars_before(offset).saturating_sub(line_chars);
        Pos {
            line: line + 1,
            column: column + 1,
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes of text looked at to compute positions, on this thread (tests of linearity).
    pub(crate) static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

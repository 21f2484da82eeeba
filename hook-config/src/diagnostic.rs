//! Problems found while loading configuration, each with file, line and column.

use std::fmt;

use serde::Serialize;

/// How serious a [`Diagnostic`] is.
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
pub struct Diagnostic {
    /// The file the problem is in, as it was found (e.g. `/home/me/.claude/settings.json`).
    pub path: String,
    /// 1-based line, when the problem has a position.
    pub line: Option<usize>,
    /// 1-based column, when the problem has a position.
    pub column: Option<usize>,
    /// What is wrong and what was expected.
    pub message: String,
    /// Whether the file's hooks were dropped ([`Severity::Error`]) or not.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Pos {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// Maps byte offsets of a text to lines and columns.
pub(crate) struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The position of byte `offset` (clamped to the text; columns count characters).
    pub(crate) fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        Pos {
            line: line + 1,
            column: column + 1,
        }
    }
}

//! The hooks of one configuration file on their own, for checking a file (`hook validate
//! --config`) and translating it to another dialect (`hook convert`).

use std::path::Path;
use std::time::Duration;

use hook_protocol::{Dialect, Event, Layer};

use crate::diagnostic::{Diagnostic, Pos};
use crate::fileread::{FileOwner, FileReadError, read_config_text};
use crate::handler::HandlerConfig;
use crate::load::parse_document;
use crate::read::DocKind;

/// One handler of a file, as written, with its effective timeout.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FileHook {
    /// The event it handles.
    pub event: Event,
    /// The matcher as written.
    pub matcher: Option<String>,
    /// The handler's fields as written.
    pub config: HandlerConfig,
    /// The timeout in force: the written one, or the dialect's default, capped.
    pub timeout: Duration,
    /// Where the handler starts in the file.
    pub position: Pos,
}

/// The hooks of one file and what was wrong with it.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct FileHooks {
    /// Every handler in file order; empty when the file has an error.
    pub hooks: Vec<FileHook>,
    /// Every problem found, errors and warnings, with file, line and column.
    pub diagnostics: Vec<Diagnostic>,
}

impl FileHooks {
    /// Whether any diagnostic is an error (the file's hooks are then not loaded).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Why a file could not be read at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {path}: {source}")]
#[non_exhaustive]
pub struct ReadFileError {
    /// The file.
    pub path: String,
    /// The operating system's reason.
    #[source]
    pub source: std::io::Error,
}

/// Reads the hooks of the `dialect` configuration file at `path` (TOML when it ends in `.toml`,
/// JSON otherwise), as a user-layer file.
///
/// The file is read exactly as [`crate::load`] reads it (a regular file after symlinks, at
/// most 8 MiB, UTF-8), so both give the same verdict: a file the loader would skip has an
/// error diagnostic here. Only a file the operating system cannot open or read (missing,
/// permission denied) is an `Err`.
///
/// # Errors
///
/// [`ReadFileError`] when the operating system cannot open or read the file.
pub fn read_hooks_file(dialect: Dialect, path: &Path) -> Result<FileHooks, ReadFileError> {
    let label = path.display().to_string();
    let text = match read_config_text(path, FileOwner::Anyone) {
        Ok(text) => text,
        Err(FileReadError::Io(source)) => {
            return Err(ReadFileError {
                path: label,
                source,
            });
        }
        Err(error) => {
            return Ok(FileHooks {
                hooks: Vec::new(),
                diagnostics: vec![error.diagnostic(path, "file skipped")],
            });
        }
    };
    let toml = path.extension().is_some_and(|e| e == "toml");
    Ok(parse_hooks(dialect, &label, &text, toml))
}

/// Parses the hooks of one `dialect` document; `label` names it in diagnostics.
pub fn parse_hooks(dialect: Dialect, label: &str, text: &str, toml: bool) -> FileHooks {
    let mut diagnostics = Vec::new();
    let parsed = parse_document(
        dialect,
        text,
        label,
        toml,
        DocKind::Settings(Layer::User),
        &mut diagnostics,
    );
    let hooks = parsed
        .handlers
        .into_iter()
        .map(|raw| FileHook {
            event: raw.event,
            matcher: raw.matcher,
            config: raw.config,
            timeout: raw.timeout,
            position: raw.pos,
        })
        .collect();
    FileHooks { hooks, diagnostics }
}

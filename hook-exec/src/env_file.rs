//! verboo's `CLAUDE_ENV_FILE`: where a hook leaves environment for the rest of the session.
//!
//! Claude Code gives the command hooks of `SessionStart` (and of `Setup`, `CwdChanged` and
//! `FileChanged`) a file in `CLAUDE_ENV_FILE`; what they append to it (`export NAME=value`
//! lines) is sourced before each later Bash command of the session. The engine does the same
//! for one dispatch: it creates an empty file in a fresh private folder (0700, the file 0600),
//! passes its path to every command hook it starts in the foreground, reads what they wrote
//! (at most 1 MiB, UTF-8) into [`Outcome::session_env`] for the embedding agent to apply, and
//! removes the folder. Background (`async`) hooks get no file: it is gone by the time they
//! would write. Anthropic's `load-context.sh` example, which appends to the file, works as in
//! Claude Code.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use hook_config::Handler;
use hook_protocol::{Dialect, Event, HandlerType, Outcome};

/// The most a hook may write to the file; more is reported and not used.
const CAP: u64 = 1024 * 1024;

/// Why the file could not be made or read (its text goes in a system message of the outcome).
#[derive(Debug, thiserror::Error)]
pub(crate) enum EnvFileError {
    /// The private folder could not be created.
    #[error("cannot create a private folder for the file: {source}")]
    Folder {
        #[source]
        source: std::io::Error,
    },
    /// The file could not be created in it.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// What the hooks wrote could not be read.
    #[error("cannot read it: {source}")]
    Read {
        #[source]
        source: std::io::Error,
    },
    /// The hooks wrote more than the cap.
    #[error("the hooks wrote more than {cap} bytes")]
    TooLarge { cap: u64 },
    /// The hooks wrote text that is not UTF-8.
    #[error("the hooks wrote text that is not UTF-8")]
    NotUtf8,
}

/// The file of one dispatch, or why it could not be made.
pub(crate) struct EnvFile(Result<(tempfile::TempDir, PathBuf), EnvFileError>);

impl EnvFile {
    /// A new file when `event` gets one in `dialect` and a command hook will run.
    pub(crate) fn for_event(
        dialect: Dialect,
        event: &Event,
        handlers: &[&Handler],
    ) -> Option<Self> {
        let gets_one = dialect.rules().env_file_events.contains(event)
            && handlers
                .iter()
                .any(|h| h.config.handler_type == HandlerType::Command && h.suppressed.is_none());
        gets_one.then(|| EnvFile(create()))
    }

    /// The path to give the hooks, if the file exists.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.0.as_ref().ok().map(|(_, path)| path.as_path())
    }

    /// Puts what the hooks wrote into `outcome` (or says why it cannot), and removes the file.
    pub(crate) fn report(self, outcome: &mut Outcome) {
        let read = self.0.and_then(|(_dir, path)| read_capped(&path));
        match read {
            Ok(text) if !text.trim().is_empty() => outcome.session_env = Some(text),
            Ok(_) => {}
            Err(why) => outcome
                .system_messages
                .push(format!("CLAUDE_ENV_FILE: {why}; no environment is kept")),
        }
    }
}

fn create() -> Result<(tempfile::TempDir, PathBuf), EnvFileError> {
    // `tempfile` makes the folder 0700 and the file 0600, with a random name, without
    // following links.
    let dir = tempfile::Builder::new()
        .prefix("hook-env-")
        .tempdir()
        .map_err(|source| EnvFileError::Folder { source })?;
    let path = dir.path().join("env.sh");
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|source| EnvFileError::Create {
            path: path.clone(),
            source,
        })?;
    Ok((dir, path))
}

fn read_capped(path: &Path) -> Result<String, EnvFileError> {
    let read_error = |source| EnvFileError::Read { source };
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    file.take(CAP + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > CAP {
        return Err(EnvFileError::TooLarge { cap: CAP });
    }
    String::from_utf8(bytes).map_err(|_| EnvFileError::NotUtf8)
}

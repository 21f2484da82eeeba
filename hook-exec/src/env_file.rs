//! verboo's `CLAUDE_ENV_FILE`: where a hook leaves environment for the rest of the session.
//!
//! Claude Code gives the command hooks of `SessionStart` (and of `Setup`, `CwdChanged` and
//! `FileChanged`) a file in `CLAUDE_ENV_FILE`; what they append to it (`export NAME=value`
//! lines) is sourced before each later Bash command of the session. The engine does the same
//! for one dispatch: it creates an empty file, passes its path to every command hook it starts
//! in the foreground, reads what they wrote into [`Outcome::session_env`] for the embedding
//! agent to apply, and removes it. Background (`async`) hooks get no file: it is gone by the
//! time they would write. Anthropic's `load-context.sh` example, which appends to the file,
//! works as in Claude Code.
//!
//! # Where the file is
//!
//! In a fresh folder (0700, random name `hook-env-XXXXXX`, the file `env.sh` in it 0600,
//! created new without following links) inside
//! [`EngineOptions::env_file_dir`](crate::EngineOptions::env_file_dir): `hook run` and
//! `hook relay` use `<state>/hook-env` (`~/.claude/hook-env`; the relay's
//! `~/.claude/hook-relay/hook-env`), a private folder of the user's,
//! checked as side files' folders are ([`crate::context`]: created 0700 when missing; refused
//! when it is a symlink, not the user's, or writable by group or others). Unset (the default
//! for embedders), the fresh folder goes in the system's temporary folder: still 0700 with a
//! random name, so no other user can read or plant the file. Folders left by a killed engine
//! are removed from `env_file_dir` once older than [`crate::context::SIDE_FILE_MAX_AGE`].
//!
//! # What a hook can do to it
//!
//! The hooks own the file while they run; a hostile one may replace it. The engine reads it
//! with `O_NONBLOCK | O_NOFOLLOW`, checks through the open descriptor that it is a regular
//! file, and reads at most 1 MiB of UTF-8 (`hook_fs::open_regular` and
//! `hook_fs::read_capped`, the workspace's bounded reads): a FIFO, a symlink
//! (to `/dev/zero` or elsewhere), a device or a file over the cap is refused without being
//! waited on or read, and the outcome says why in a system message; no environment is kept
//! then.

use std::path::{Path, PathBuf};

use hook_config::Handler;
use hook_fs::{Links, ReadError};
use hook_protocol::{Dialect, Event, HandlerType, Outcome};

use crate::context::SideFileError;

/// The most a hook may write to the file; more is reported and not used.
const CAP: u64 = 1024 * 1024;

/// The prefix of each dispatch's folder.
const PREFIX: &str = "hook-env-";

/// Why the file could not be made or read (its text goes in a system message of the outcome).
#[derive(Debug, thiserror::Error)]
pub(crate) enum EnvFileError {
    /// The configured folder is unsafe or cannot be made.
    #[error("{source}")]
    Folder {
        #[source]
        source: SideFileError,
    },
    /// The dispatch's folder could not be created.
    #[error("cannot create a private folder for the file in {}: {source}", dir.display())]
    Create {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file could not be created in it.
    #[error("cannot create {}: {source}", path.display())]
    CreateFile {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// What the hooks left is not a regular file, is too large, or cannot be read.
    #[error("{} {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: ReadError,
    },
    /// The hooks wrote text that is not UTF-8.
    #[error("the hooks wrote text that is not UTF-8")]
    NotUtf8,
}

/// The file of one dispatch, or why it could not be made.
pub(crate) struct EnvFile(Result<(tempfile::TempDir, PathBuf), EnvFileError>);

impl EnvFile {
    /// A new file (in `dir`, see the module docs) when `event` gets one in `dialect` and a
    /// command hook will run.
    pub(crate) fn for_event(
        dialect: Dialect,
        event: &Event,
        handlers: &[&Handler],
        dir: Option<&Path>,
    ) -> Option<Self> {
        let gets_one = dialect.rules().input().env_file_events().contains(event)
            && handlers
                .iter()
                .any(|h| h.config.handler_type == HandlerType::Command && h.suppressed.is_none());
        gets_one.then(|| EnvFile(create(dir)))
    }

    /// The path to give the hooks, if the file exists.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.0.as_ref().ok().map(|(_, path)| path.as_path())
    }

    /// Puts what the hooks wrote into `outcome` (or says why it cannot), and removes the file.
    pub(crate) fn report(self, outcome: &mut Outcome) {
        let read = self.0.and_then(|(_dir, path)| read_bounded(&path));
        match read {
            Ok(text) if !text.trim().is_empty() => outcome.session_env = Some(text),
            Ok(_) => {}
            Err(why) => outcome
                .system_messages
                .push(format!("CLAUDE_ENV_FILE: {why}; no environment is kept")),
        }
    }
}

fn create(dir: Option<&Path>) -> Result<(tempfile::TempDir, PathBuf), EnvFileError> {
    if let Some(dir) = dir {
        crate::context::private_folder(dir).map_err(|source| EnvFileError::Folder { source })?;
        sweep(dir);
    }
    // A random name, created new (`mkdir` never follows a link), 0700.
    let temp = hook_fs::create_private_temp_dir(dir, PREFIX).map_err(|error| match error {
        hook_fs::FsError::Io { path, source, .. } => EnvFileError::Create { dir: path, source },
        other => EnvFileError::Create {
            dir: other.path().to_path_buf(),
            source: std::io::Error::other(other),
        },
    })?;
    let path = temp.path().join("env.sh");
    crate::context::create_new_private(&path).map_err(|source| EnvFileError::CreateFile {
        path: path.clone(),
        source,
    })?;
    Ok((temp, path))
}

fn read_bounded(path: &Path) -> Result<String, EnvFileError> {
    let read_error = |source| EnvFileError::Read {
        path: path.to_path_buf(),
        source,
    };
    let (file, metadata) = hook_fs::open_regular(path, Links::Refuse).map_err(read_error)?;
    let bytes =
        hook_fs::read_capped(file, &metadata, CAP, "CLAUDE_ENV_FILE").map_err(read_error)?;
    String::from_utf8(bytes).map_err(|_| EnvFileError::NotUtf8)
}

/// Removes the dispatch folders of `dir` older than the side files' age bound: what an engine
/// killed mid-dispatch (SIGKILL, or a signal `hook run` exits on) left. Best effort; symlinks
/// and other names are left alone.
fn sweep(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let ours = entry.file_name().to_string_lossy().starts_with(PREFIX);
        // `DirEntry::metadata` does not follow symlinks.
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let old = metadata
            .modified()
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age > crate::context::SIDE_FILE_MAX_AGE);
        if ours && metadata.is_dir() && old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

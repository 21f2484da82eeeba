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

/// The file of one dispatch, or why it could not be made.
pub(crate) struct EnvFile(Result<(tempfile::TempDir, PathBuf), String>);

impl EnvFile {
    /// A new file when `event` gets one in `dialect` and a command hook will run.
    pub(crate) fn for_event(
        dialect: Dialect,
        event: &Event,
        handlers: &[&Handler],
    ) -> Option<Self> {
        let gets_one = dialect == Dialect::Verboo
            && matches!(
                event,
                Event::SessionStart | Event::Setup | Event::CwdChanged | Event::FileChanged
            )
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

fn create() -> Result<(tempfile::TempDir, PathBuf), String> {
    // `tempfile` makes the folder 0700 and the file 0600, with a random name, without
    // following links.
    let dir = tempfile::Builder::new()
        .prefix("hook-env-")
        .tempdir()
        .map_err(|e| format!("cannot create a private folder for the file: {e}"))?;
    let path = dir.path().join("env.sh");
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    Ok((dir, path))
}

fn read_capped(path: &Path) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut bytes = Vec::new();
    file.take(CAP + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > CAP {
        return Err(format!("the hooks wrote more than {CAP} bytes"));
    }
    String::from_utf8(bytes).map_err(|_| "the hooks wrote text that is not UTF-8".to_owned())
}

//! What the relay's hooks leave for later: the session environment they wrote (forwarded to
//! the agent's `CLAUDE_ENV_FILE`) and their `async` hooks (run by a waiter that outlives the
//! relay).

use std::path::PathBuf;

use anyhow::{Context, Result};
use hook_protocol::EventInput;

use super::AnswerOptions;

/// The variable through which Claude Code gives the hooks of some events a file of
/// environment for the session (the engine gives its own hooks one of its own; the relay
/// appends what they wrote to the agent's).
const AGENT_ENV_FILE: &str = "CLAUDE_ENV_FILE";

/// Starts this program again as the waiter of the event's `async` hooks (`--async-waiter`), in a
/// session of its own, with the event on its stdin; it outlives the relay.
pub(super) async fn start_async_waiter(
    options: &AnswerOptions,
    input: &EventInput,
    bytes: &[u8],
) -> Result<()> {
    let program = std::env::current_exe().context("cannot find this program's path")?;
    let mut argv: Vec<std::ffi::OsString> = vec![
        "relay".into(),
        "--dialect".into(),
        options.dialect.to_string().into(),
        "--event".into(),
        input.event().as_str().into(),
        "--async-waiter".into(),
    ];
    if let Some(project) = &options.project {
        argv.extend(["--project".into(), project.clone().into_os_string()]);
    }
    if let Some(home) = &options.home {
        argv.extend(["--home".into(), home.clone().into_os_string()]);
    }
    if let Some(scope) = options.scope {
        argv.extend(["--scope".into(), scope.as_str().into()]);
    }
    let argv: Vec<&std::ffi::OsStr> = argv.iter().map(|a| a.as_os_str()).collect();
    hook_exec::detach::spawn_detached(&program, &argv, bytes).await?;
    Ok(())
}

/// Appends what the relay's hooks wrote for the session's environment to the agent's own
/// `CLAUDE_ENV_FILE`; returns the line that tells the user where it went (or why it did not).
pub(super) fn forward_session_env(env: &str) -> String {
    let Some(path) = std::env::var_os(AGENT_ENV_FILE).filter(|p| !p.is_empty()) else {
        return format!(
            "hook relay: the hooks wrote environment for the session, but the agent gave no {AGENT_ENV_FILE} on this event: it was not kept"
        );
    };
    let path = PathBuf::from(path);
    match append_env(&path, env) {
        Ok(()) => format!(
            "hook relay: the hooks' environment was added to {AGENT_ENV_FILE} ({} bytes)",
            env.len()
        ),
        Err(error) => format!(
            "hook relay: the hooks' environment could not be added to {AGENT_ENV_FILE} {}: {error}",
            path.display()
        ),
    }
}

/// Appends `text` to the regular file at `path` (never through a symlink, never waiting on a
/// FIFO), on a line of its own.
fn append_env(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
    let mut file = hook_config::fs::open_append(path).map_err(|error| match error {
        hook_config::fs::FsError::Io { source, .. } => source,
        other => std::io::Error::other(other),
    })?;
    let mut separated = String::new();
    let length = file.seek(SeekFrom::End(0))?;
    if length > 0 {
        file.seek(SeekFrom::End(-1))?;
        let mut last = [0u8];
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            separated.push('\n');
        }
    }
    separated.push_str(text);
    if !separated.ends_with('\n') {
        separated.push('\n');
    }
    file.write_all(separated.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_is_appended_on_a_line_of_its_own() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let table = [
            ("", "A=1", "A=1\n"),
            ("X=0\n", "A=1\n", "X=0\nA=1\n"),
            ("X=0", "A=1", "X=0\nA=1\n"),
        ];
        for (i, (before, text, after)) in table.into_iter().enumerate() {
            let path = dir.path().join(format!("env{i}"));
            std::fs::write(&path, before).expect("written");
            append_env(&path, text).expect("appended");
            assert_eq!(
                std::fs::read_to_string(&path).expect("read"),
                after,
                "{before:?} + {text:?}"
            );
        }
    }
}

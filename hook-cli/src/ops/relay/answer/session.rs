//! What outlives one relay run within the agent's session: the session environment the hooks
//! wrote (forwarded to the agent's `CLAUDE_ENV_FILE`), their `async` hooks (run by a waiter
//! that outlives the relay), and what the relay already said in the session
//! ([`first_in_session`]: each relay process answers one event and ends, so the memory is a
//! folder of the home), and whether an agent started this relay ([`agent_path`]: the `PATH`
//! worth recording).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use hook_protocol::input::EventInput;

use super::AnswerOptions;

/// The variable through which Claude Code gives the hooks of some events a file of
/// environment for the session (the engine gives its own hooks one of its own; the relay
/// appends what they wrote to the agent's).
const AGENT_ENV_FILE: &str = "CLAUDE_ENV_FILE";

/// The `PATH` to record for `hook doctor` when an agent started this relay, `None` when it
/// was typed by hand (an `echo ... | hook relay` in a shell must not replace the agent's
/// `PATH`, often another one: a GUI-started agent has no `~/.local/bin`, no Homebrew). Started
/// by an agent means: the variable the agent sets for every hook it starts is set (Claude
/// Code's `CLAUDE_PROJECT_DIR`, [`hook_protocol::InputRules::project_dir_env`]); for an
/// agent that sets none (Codex: its hooks get its own environment and nothing more), the
/// `--event` that every entry `hook relay install` writes carries, and that a hand-typed
/// `hook relay --dialect lime` leaves out.
pub(crate) fn agent_path(options: &AnswerOptions) -> Option<String> {
    let by_agent = match options.dialect.rules().input().project_dir_env() {
        Some(variable) => std::env::var_os(variable).is_some_and(|v| !v.is_empty()),
        None => options.event.is_some(),
    };
    if by_agent {
        std::env::var("PATH").ok()
    } else {
        None
    }
}

/// The folder, in the relay's state folder (beside the journal:
/// [`hook_config::Discovery::state_dir`]), where the relay remembers which notes it gave in
/// which session.
pub(crate) const SAID_DIR: &str = "hook-relay-said";

/// The most (session, note) pairs remembered: past it, the oldest half are forgotten (a note
/// of a session that old may be said once more; the folder never grows without bound).
const SAID_MAX: usize = 1024;

/// Whether the note `about` is given for the first time in `session`, remembered in
/// `<state>/hook-relay-said/` of `discovery`'s state folder (private, 0700): one empty file per session and note, named by the
/// SHA-256 of both and created with `O_EXCL`, so that of the relay runs of one session that
/// race (Claude Code runs the entries of parallel tool calls at once) exactly one says it.
/// When nothing can be remembered (no session id, a state folder that may not be made — the
/// agent's home is never created, [`crate::ops::state::may_create`] —, a folder that is not
/// private, a full disk), the note is given every time: said too often rather than never.
pub(super) fn first_in_session(
    discovery: &hook_config::Discovery,
    session: &str,
    about: &str,
) -> bool {
    if session.is_empty() || !crate::ops::state::may_create(discovery) {
        return true;
    }
    let dir = discovery.state_dir.join(SAID_DIR);
    if hook_fs::private_folder(&dir).is_err() {
        return true;
    }
    use sha2::Digest as _;
    let mut digest = sha2::Sha256::new();
    digest.update(session.as_bytes());
    digest.update([0]);
    digest.update(about.as_bytes());
    let name = hex::encode(&digest.finalize()[..16]);
    match hook_fs::create_new_private(&dir.join(name)) {
        Ok(_) => {
            forget_oldest(&dir);
            true
        }
        Err(hook_fs::FsError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::AlreadyExists =>
        {
            false
        }
        Err(_) => true,
    }
}

/// Past [`SAID_MAX`] files in `dir`, removes the oldest until half are left.
fn forget_oldest(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .take(4 * SAID_MAX)
        .filter_map(|entry| {
            let modified = entry.metadata().ok()?.modified().ok()?;
            Some((modified, entry.path()))
        })
        .collect();
    if files.len() <= SAID_MAX {
        return;
    }
    files.sort();
    for (_, path) in &files[..files.len() - SAID_MAX / 2] {
        // Another relay may have removed it first: nothing to do then.
        let _ = std::fs::remove_file(path);
    }
}

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
    let mut file = hook_fs::open_append(path).map_err(|error| match error {
        hook_fs::FsError::Io { source, .. } => source,
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

/// The relay's [`hook_config::Discovery`] of Claude Code with `dir` as `HOME` (its state
/// folder: `dir/.claude/hook-relay`, made when needed if `dir/.claude` exists).
#[cfg(test)]
pub(super) fn relay_discovery(dir: &Path) -> hook_config::Discovery {
    let env = hook_config::Environment::empty().with_var("HOME", dir.as_os_str());
    let options = hook_config::LoadOptions::new(hook_protocol::Dialect::Verboo, env).for_relay();
    hook_config::discover(&options).expect("a home")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_is_said_once_per_session_and_the_memory_is_bounded() {
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::create_dir(dir.path().join(".claude")).expect("the agent's home");
        let home = &relay_discovery(dir.path());
        // (session, note, first time)
        let table = [
            ("s1", "guard", true),
            ("s1", "guard", false),
            ("s1", "other", true),
            ("s2", "guard", true),
            ("s2", "guard", false),
            // No session id: nothing to remember it by.
            ("", "guard", true),
            ("", "guard", true),
        ];
        for (session, about, first) in table {
            assert_eq!(
                first_in_session(home, session, about),
                first,
                "{session:?} {about:?}"
            );
        }
        // The relay's own folder, beside the agent, made for it.
        let said = dir.path().join(".claude/hook-relay").join(SAID_DIR);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&said)
                .expect("the folder")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        for n in 0..SAID_MAX {
            first_in_session(home, &format!("many-{n}"), "guard");
        }
        let kept = std::fs::read_dir(&said).expect("the folder").count();
        assert!(kept <= SAID_MAX, "{kept}");
        // An agent's home that does not exist is not created: the note is said every time.
        let gone = dir.path().join("no-such-home");
        let gone_state = relay_discovery(&gone);
        assert!(first_in_session(&gone_state, "s1", "guard"));
        assert!(first_in_session(&gone_state, "s1", "guard"));
        assert!(!gone.join(".claude").exists());
    }

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

//! Starting a process that outlives its parent: the waiter that runs a front end's deferred
//! `async` hooks ([`AsyncHandlers::Deferred`](crate::AsyncHandlers)) after the front end has
//! answered its agent and exited.
//!
//! The process gets a session of its own (Unix `setsid`; on Windows, a new process group), so
//! no signal the agent sends to the front end's group reaches it, and `/dev/null` for stdout
//! and stderr, so the agent, which reads the front end's output to its end, is not kept waiting
//! by it. Its stdin is a pipe that carries `input` and is then closed. It is not waited for:
//! when the front end exits, the system reaps it. Whatever bounds its work (the hooks' own
//! timeouts) must be in the process itself.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Stdio;

use tokio::io::AsyncWriteExt as _;

/// Why the process could not be started, or its input not given.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DetachError {
    /// The program could not be started.
    #[error("cannot start {}: {source}", program.display())]
    Spawn {
        /// The program.
        program: std::path::PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Its input could not be written whole (it exited first).
    #[error("cannot give {} its input: {source}", program.display())]
    Input {
        /// The program.
        program: std::path::PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// Starts `program` with `args` in a session of its own, writes `input` to its stdin and closes
/// it, and returns its process id without waiting for it.
///
/// # Errors
///
/// [`DetachError::Spawn`] when it cannot start, [`DetachError::Input`] when it exits before
/// reading its input.
pub async fn spawn_detached(
    program: &Path,
    args: &[&OsStr],
    input: &[u8],
) -> Result<u32, DetachError> {
    let mut command = tokio::process::Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Dropping the handle must not kill it: outliving us is the point.
        .kill_on_drop(false);
    let mut wrapped = process_wrap::tokio::CommandWrap::from(command);
    #[cfg(unix)]
    wrapped.wrap(process_wrap::tokio::ProcessSession);
    #[cfg(windows)]
    wrapped.wrap(process_wrap::tokio::ProcessGroup::leader());
    let mut child = wrapped.spawn().map_err(|source| DetachError::Spawn {
        program: program.to_owned(),
        source,
    })?;
    let id = child.id().unwrap_or_default();
    if let Some(mut stdin) = child.stdin().take() {
        let written = async {
            stdin.write_all(input).await?;
            stdin.shutdown().await
        };
        written.await.map_err(|source| DetachError::Input {
            program: program.to_owned(),
            source,
        })?;
    }
    // Not waited for: tokio reaps it if it ends while we still run; the system after that.
    drop(child);
    Ok(id)
}

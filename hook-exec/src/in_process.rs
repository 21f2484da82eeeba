//! Command handlers an embedder answers in its own process ([`InProcessCommands`]): the
//! engine asks before it spawns a command hook, and a command the embedder recognises as one of
//! its own (`hook guard run dangerous-commands`, the `hook` command's ready-made guards) is
//! answered without a process, everything around it exactly as for a spawned hook.
//!
//! What stays the same: matching, `if` rules and trust are decided before the engine asks (a
//! handler the gate refuses is skipped, never answered); the handler's timeout bounds the
//! answer (a late one is `timed_out`, as a process would be); the reply is read as a process's
//! exit code, stdout and stderr by [`hook_protocol::interpret`], capped as a process's output
//! is ([`OUTPUT_CAP`](crate::command::OUTPUT_CAP)); `onFailure`, combining and the journal see
//! an ordinary run, with [`Run::in_process`](hook_protocol::Run::in_process) set.

use std::path::Path;
use std::time::Duration;

use hook_protocol::{Dialect, Event};

use crate::client::BoxFuture;

/// One command handler the engine is about to run, as an [`InProcessCommands`] is asked about
/// it.
///
/// `#[non_exhaustive]`: the engine builds it; an implementation reads it, and a field may be
/// added.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct CommandCall<'a> {
    /// The dialect whose rules the engine follows (what a spawned hook gets as `HOOK_DIALECT`).
    pub dialect: Dialect,
    /// The event.
    pub event: &'a Event,
    /// The command as the shell would get it (on Windows, `commandWindows` when there is one).
    pub command: &'a str,
    /// What a spawned hook reads on stdin: the event JSON.
    pub input: &'a [u8],
    /// The working directory the hook would run in: the event's `cwd`.
    pub cwd: &'a Path,
    /// The variables a spawned hook would get on top of the inherited environment, in order
    /// (`HOOK_DIALECT`, `HOOK_EVENT`, `HOOK_PROJECT_DIR`, the dialect's own, the engine's
    /// [`EngineOptions::env`](crate::EngineOptions::env)); a later one wins.
    pub env: &'a [(String, String)],
    /// The handler's timeout (the engine enforces it on the answer too).
    pub timeout: Duration,
}

impl<'a> CommandCall<'a> {
    /// A call of `command` on `event` in `dialect`, with `input` on its stdin, in `cwd`, within
    /// `timeout`, and no variables of the engine's (what an embedder's tests ask its
    /// [`InProcessCommands`] with; the engine builds its own).
    pub fn new(
        dialect: Dialect,
        event: &'a Event,
        command: &'a str,
        input: &'a [u8],
        cwd: &'a Path,
        timeout: Duration,
    ) -> Self {
        CommandCall {
            dialect,
            event,
            command,
            input,
            cwd,
            env: &[],
            timeout,
        }
    }

    /// This call with `env` as the variables a spawned hook would get.
    #[must_use]
    pub fn with_env(mut self, env: &'a [(String, String)]) -> Self {
        self.env = env;
        self
    }

    /// The value of variable `name` a spawned hook would see: the last of [`CommandCall::env`]
    /// of that name, else this process's own.
    pub fn var(&self, name: &str) -> Option<String> {
        self.env
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .or_else(|| std::env::var(name).ok())
    }
}

/// What an in-process command answered: read exactly as a process that exited with
/// `exit_code` after printing `stdout` and `stderr`.
///
/// `#[non_exhaustive]`: build it with [`CommandReply::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CommandReply {
    /// The exit code.
    pub exit_code: i32,
    /// What it printed on stdout.
    pub stdout: Vec<u8>,
    /// What it printed on stderr.
    pub stderr: Vec<u8>,
}

impl CommandReply {
    /// A reply of `exit_code` with `stdout` and `stderr`.
    pub fn new(exit_code: i32, stdout: impl Into<Vec<u8>>, stderr: impl Into<Vec<u8>>) -> Self {
        CommandReply {
            exit_code,
            stdout: stdout.into(),
            stderr: stderr.into(),
        }
    }
}

/// Answers some command handlers in the embedder's own process instead of spawning them
/// ([`Engine::with_in_process_commands`](crate::Engine::with_in_process_commands)).
///
/// The engine asks once per command handler it is about to run (after matching and the gate);
/// `None` spawns the command as usual. An implementation must answer exactly what the command
/// would have printed as a process (the engine cannot tell the difference, and should not need
/// to): recognise only the command lines it fully understands, and leave every other one to
/// the shell.
pub trait InProcessCommands: Send + Sync {
    /// The answer to `call`, when this embedder runs its command itself; `None` to spawn it.
    fn answer<'a>(&'a self, call: CommandCall<'a>) -> Option<BoxFuture<'a, CommandReply>>;
}

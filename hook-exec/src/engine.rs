//! The engine an agent embeds ([`Engine`]) and its settings ([`EngineOptions`],
//! [`AsyncHandlers`]): the type its methods share. `dispatch.rs` builds it and dispatches,
//! `schedule.rs` orders the handlers, the runners run them; each of them names the engine,
//! so it sits below them all.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hook_config::{Gate, Registry};

use crate::background::Background;
use crate::client::{McpClient, ModelClient};

/// Settings of an [`Engine`]: start from [`EngineOptions::default`] and the `with_*` methods
/// (`#[non_exhaustive]`: settings get added).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct EngineOptions {
    /// How many consecutive `Stop`/`SubagentStop` blocks a session may get before the engine
    /// lets the stop through (and says so). Default 8.
    pub stop_loop_cap: u32,
    /// The private folder where lime writes the whole text of an `additionalContext` over its
    /// limit (see [`SideFileError`](crate::SideFileError): created 0700 if missing, refused when it is a symlink, not
    /// the user's, or writable by others; files 0600, old ones removed). `None` (the default)
    /// writes no side file: the model gets the head and tail preview only, and the note in it
    /// says the rest was dropped. `hook run` passes `<state>/hook-context`
    /// ([`Discovery::state_dir`](hook_config::Discovery::state_dir)).
    pub side_file_dir: Option<PathBuf>,
    /// The private folder where verboo's `CLAUDE_ENV_FILE` is made, one fresh 0700 folder per
    /// dispatch inside it (see the `env_file` module docs: checked as `side_file_dir` is).
    /// `None` (the default) makes that fresh folder in the system's temporary folder.
    /// `hook run` and `hook relay` pass `<state>/hook-env`
    /// ([`Discovery::state_dir`](hook_config::Discovery::state_dir)).
    pub env_file_dir: Option<PathBuf>,
    /// The project directory, for verboo's `CLAUDE_PROJECT_DIR`; the event's `cwd` when `None`.
    pub project_dir: Option<PathBuf>,
    /// How many async (background) handlers may run at once; the others wait for a slot.
    /// Default 8; 0 counts as 1.
    pub max_async: usize,
    /// How long a command hook's leftover children may hold its output open after it exits
    /// ([`CommandSpec::pipe_grace`](crate::command::CommandSpec::pipe_grace)). Default 2 s.
    pub pipe_grace: Duration,
    /// Linux: command hooks get SIGKILL when the thread that started them exits
    /// ([`CommandSpec::kill_on_parent_death`](crate::command::CommandSpec::kill_on_parent_death)). Default off: turn it on only when every
    /// dispatch (and async hook) is started from threads that live as long as the engine, as
    /// in `hook run` (a current-thread runtime on the main thread).
    pub kill_on_parent_death: bool,
    /// Where `async` handlers run. Default [`AsyncHandlers::InProcess`].
    pub async_handlers: AsyncHandlers,
    /// The journal every dispatch is recorded in (front end `library`; see [`crate::journal`]).
    /// `None` (the default) records nothing. A line that cannot be written never changes the
    /// outcome: the first error is kept in [`Journal::first_error`](crate::journal::Journal::first_error).
    pub journal: Option<Arc<crate::journal::Journal>>,
    /// Variables every command hook gets on top of the inherited environment and the engine's
    /// own (`HOOK_DIALECT`, `HOOK_EVENT`, `HOOK_PROJECT_DIR`, the dialect's), in order, a later
    /// one replacing an earlier one of the same name. Default none. `hook relay` sets
    /// `CLAUDE_PROJECT_DIR` for Codex's relay hooks too, so that a guard written for Claude
    /// Code runs unchanged under Codex.
    pub env: Vec<(String, String)>,
}

/// Where a dispatch runs its `async` (background) command handlers.
///
/// An agent waits for its hook process to exit. A front end that answers the agent and must
/// exit at once (`hook relay`) cannot keep them: it dispatches with [`Deferred`], then hands
/// the same event to a process of its own that outlives it and dispatches with
/// [`Only`](AsyncHandlers::Only), collecting them there.
///
/// [`Deferred`]: AsyncHandlers::Deferred
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AsyncHandlers {
    /// Started by the dispatch and owned by the engine until collected or cancelled.
    #[default]
    InProcess,
    /// Not started: each is reported as `async` with a note that it runs elsewhere, after the
    /// gate let it run (a handler the gate refuses is reported skipped, as always). The caller
    /// runs them elsewhere.
    Deferred,
    /// Only the async handlers of the event are considered (started as with `InProcess`); the
    /// others are neither run nor reported. What the process that runs deferred handlers uses.
    Only,
}

impl EngineOptions {
    /// These options with [`EngineOptions::stop_loop_cap`] set.
    pub fn with_stop_loop_cap(mut self, cap: u32) -> Self {
        self.stop_loop_cap = cap;
        self
    }

    /// These options with [`EngineOptions::side_file_dir`] set.
    pub fn with_side_file_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.side_file_dir = Some(dir.into());
        self
    }

    /// These options with [`EngineOptions::env_file_dir`] set.
    pub fn with_env_file_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.env_file_dir = Some(dir.into());
        self
    }

    /// These options with [`EngineOptions::project_dir`] set.
    pub fn with_project_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.project_dir = Some(dir.into());
        self
    }

    /// These options with [`EngineOptions::max_async`] set.
    pub fn with_max_async(mut self, max: usize) -> Self {
        self.max_async = max;
        self
    }

    /// These options with [`EngineOptions::pipe_grace`] set.
    pub fn with_pipe_grace(mut self, grace: Duration) -> Self {
        self.pipe_grace = grace;
        self
    }

    /// These options with [`EngineOptions::kill_on_parent_death`] set.
    /// These options with [`EngineOptions::async_handlers`] set.
    pub fn with_async_handlers(mut self, handling: AsyncHandlers) -> Self {
        self.async_handlers = handling;
        self
    }

    /// These options with [`EngineOptions::journal`] set.
    pub fn with_journal(mut self, journal: Arc<crate::journal::Journal>) -> Self {
        self.journal = Some(journal);
        self
    }

    /// These options with `name=value` added to [`EngineOptions::env`].
    pub fn with_env(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((name.into(), value.into()));
        self
    }

    /// These options with [`EngineOptions::kill_on_parent_death`] set.
    pub fn with_kill_on_parent_death(mut self, kill: bool) -> Self {
        self.kill_on_parent_death = kill;
        self
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            stop_loop_cap: 8,
            side_file_dir: None,
            env_file_dir: None,
            project_dir: None,
            max_async: 8,
            pipe_grace: crate::command::PIPE_GRACE,
            kill_on_parent_death: false,
            async_handlers: AsyncHandlers::InProcess,
            journal: None,
            env: Vec::new(),
        }
    }
}

/// Runs the hooks of one loaded configuration.
///
/// No global state: two engines in one process never share anything. Dropping a `dispatch`
/// future kills the hooks it started.
pub struct Engine {
    pub(crate) registry: Registry,
    pub(crate) gate: Box<dyn Gate>,
    pub(crate) options: Arc<EngineOptions>,
    /// Consecutive Stop/SubagentStop blocks per session.
    pub(crate) stop_blocks: Mutex<HashMap<String, u32>>,
    /// Answers `prompt` and `agent` handlers.
    pub(crate) model: Option<Arc<dyn ModelClient>>,
    /// Calls the tools of `mcp_tool` handlers.
    pub(crate) mcp: Option<Arc<dyn McpClient>>,
    /// The HTTP client of `http` handlers, set up on first use.
    #[cfg(feature = "http")]
    pub(crate) http: std::sync::OnceLock<Result<reqwest::Client, crate::http::HttpError>>,
    /// Async handlers started and not collected yet.
    pub(crate) background: Background,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("dialect", &self.registry.dialect())
            .finish_non_exhaustive()
    }
}

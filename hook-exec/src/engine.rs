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
use crate::in_process::InProcessCommands;

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
///
/// # Choices where the spec is silent
///
/// - **http**: redirects are not followed (a 3xx is a non-2xx reply); a 2xx reply's body goes
///   through [`hook_protocol::interpret()`] as the stdout of an exit 0 (so an empty body continues
///   and plain text is context where verboo takes plain text); any other status, a connection
///   error or a body over 1 MiB fails the run without a decision; running out of time is
///   `timed_out`, like a command. Header `$VAR`/`${VAR}` names outside `allowedEnvVars` (and
///   allowed ones that are unset) become empty, with a warning on the run.
/// - **prompt/agent**: the prompt is the handler's `prompt` with every `$ARGUMENTS` replaced by
///   the event JSON; a prompt without `$ARGUMENTS` gets the event JSON appended after a blank
///   line. The request carries the answer format as its `system` instruction
///   ([`ANSWER_FORMAT`](crate::ANSWER_FORMAT)). The reply is read from its first `{` to its last `}` (so a code
///   fence around it is fine) and must hold a boolean `ok`. `ok: false` is read as the output
///   `{"decision": "block", "reason": ...}`, so the event's own blocking rules apply. Agent
///   handlers go to the same client with `kind: Agent`: how many steps a verifier takes is the
///   client's business. wuu fails open: a failed request, a timeout or an unparsable reply
///   allows, with a warning on the run (`ok`); with no client at all the run is `skipped:
///   no_client` and allows. verboo: no client is `skipped: no_client`, a failed request or an
///   unparsable reply `failed`, a timeout `timed_out`; none of them decides anything.
/// - **mcp_tool**: `${path}` placeholders in `input` (in string values, at any depth) name a dotted
///   path into the event JSON, a whole-string placeholder keeps its JSON type, a missing path
///   fails the run before any call, and a null/object/array cannot be spliced into a longer
///   string. The tool's `structuredContent` (else its only text content, else the whole result)
///   is read as the stdout of an exit 0; `isError: true` fails the run. Never run at
///   `SessionEnd` (`skipped: unsupported`).
/// - **async** (lime and verboo `async: true`): only command handlers run in the background
///   (both seeds define `async` as a command-handler field); on another type, in wuu (which has
///   no async hooks) and at lime's `SessionEnd` (which runs synchronously) the handler runs in
///   the foreground with a warning. A background run is reported in the outcome with status
///   `async` and nothing else; at most [`EngineOptions::max_async`] run at once. Its
///   [`AsyncResult`](crate::AsyncResult) is tagged with the `session_id` and `turn_id` of the event that started it
///   and handed out only by [`Engine::collect_async`] (waits) or
///   [`Engine::collect_finished_async`] (does not) for that session (and turn), once.
///   It keeps `additionalContext` and `systemMessage` only: a decision, a rewrite, a stop or
///   permission changes are dropped with a warning on its run, and a block (exit 2) becomes an
///   `ok` run. [`Engine::cancel_async`] kills a session's pending runs at session end; dropping
///   the engine kills them all.
/// - **Stop loops**: past [`EngineOptions::stop_loop_cap`] consecutive `Stop`/`SubagentStop`
///   blocks in one session, the stop goes through and a system message says why.
/// - **Broken configuration**: every handler, group, file or plugin the loader could not read
///   ([`hook_config::Registry::broken_for`]) is in `runs` after the handlers that ran, as
///   `skipped` with `skip_reason: invalid` and the diagnostic (`file:line:col: ...`) as its
///   `error`, on each event it may have been on; everything else runs. A typo in a committed
///   project file can never switch off the user's own guard. One that asked for
///   `onFailure: "block"` blocks each of those events that can block, with the diagnostic as
///   the reason: read leniently ([`hook_config::Broken::on_failure`]: `"Block"`, or such a word
///   anywhere in a file that does not parse), so the typo that broke a guard never also turns
///   its fail-closed setting off. Likewise every skip that is not deliberate
///   ([`hook_protocol::SkipReason::is_deliberate`]: untrusted, modified, unsupported, no client
///   for its type) is a failure for `onFailure: "block"`.
/// - **`CLAUDE_ENV_FILE`** (verboo `SessionStart`, `Setup`, `CwdChanged`, `FileChanged`): a
///   0600 file in a fresh 0700 folder inside [`EngineOptions::env_file_dir`] (`hook run`:
///   `<state>/hook-env`, a private folder checked as side files' folders are; unset: the
///   system's temporary folder). A hook that replaces it with a FIFO, a symlink, a folder or a
///   file over 1 MiB cannot hang or exhaust the engine: it is opened `O_NONBLOCK | O_NOFOLLOW`,
///   checked with `fstat`, read bounded, and refused with a system message. What the hooks
///   wrote is [`hook_protocol::Outcome::session_env`]. Details in the `env_file` module.
/// - **Variables in commands**: the engine never puts a path into a command's text on Unix.
///   `${PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_ROOT}` and `$CLAUDE_PROJECT_DIR` stay as written and
///   are set in the hook's environment (with [`PROJECT_DIR_ENV`](crate::PROJECT_DIR_ENV), `HOOK_PROJECT_DIR`, in every
///   dialect, and [`EngineOptions::env`]), so `/bin/sh` expands them: an expansion's result is
///   never parsed again, and a home, project or plugin path containing `$(...)`, backquotes,
///   quotes, `;` or spaces runs nothing. Claude Code substitutes `${CLAUDE_PLUGIN_ROOT}` into
///   the text instead; the two agree for every command written as its docs show
///   (`"${CLAUDE_PLUGIN_ROOT}/scripts/x.sh"`, quoted or not), and differ only where a path's
///   text would have become syntax (the engine's reading is the safe one) or where the
///   variable sits inside single quotes, which the shell leaves unexpanded (see
///   "Limitations"). Substituting a quoted value instead was rejected: the right quoting
///   depends on where the variable sits (`'...'` inside `"..."` would reach the program with
///   its quotes), and only the shell knows that.
/// - **How results combine** per event: the `combine` module (first block reason on tool calls, a
///   blocked or stopped prompt drops its context in verboo and keeps it for the next turn in
///   lime, verboo `Stop` context continues the agent).
///
/// # Cancellation: what survives and what does not
///
/// Every command hook runs in its own process group. The whole group (the shell, its children
/// and grandchildren) gets SIGKILL, and the hook's pipes are closed, when:
///
/// - the hook times out, or exits (after at most [`EngineOptions::pipe_grace`] for output its
///   leftover children hold open);
/// - the `dispatch` future is dropped before the end (the agent cancelled the event): the kill
///   happens in the drop itself;
/// - [`Engine::cancel_async`] is called, or the engine is dropped, for async hooks: their tasks
///   are aborted and the runtime drops them on its next turn, killing their groups;
/// - the runtime is shut down: dropping a task drops its hooks.
///
/// `hook run` builds on this for SIGINT/SIGTERM/SIGHUP: it drops the dispatch and exits 128 + n.
/// With [`EngineOptions::kill_on_parent_death`] (Linux), a hook's shell also gets SIGKILL when
/// the thread that started it exits, including when the engine's process is SIGKILLed.
///
/// # Limitations
///
/// - Hooks are trusted code, not a sandbox: a command hook runs with the agent's own rights.
/// - A process that leaves the hook's process group (`setsid`, `setpgid`, a daemon's double
///   fork) escapes every kill above; if it holds the hook's output open, the run fails rather
///   than wait for it.
/// - A SIGKILL of the engine's process cannot run any cleanup: only the hook's shell (the direct
///   child) is reached, through `PR_SET_PDEATHSIG` on Linux with
///   [`EngineOptions::kill_on_parent_death`]; the shell's own children are orphaned and keep
///   running (they are not told, and being a child subreaper would not help a dead parent).
///   Other systems have no parent-death signal: there, a SIGKILLed engine leaves its hooks.
/// - `PR_SET_PDEATHSIG` follows the *thread* that started the hook, which is why it is off by
///   default: on a multi-thread runtime a hook started from a thread that later exits (e.g. after
///   `block_in_place`) would be killed with it.
/// - [`Engine::cancel_async`] returns once the tasks are aborted; their groups are killed when
///   the runtime drops the tasks, at its next turn (at once on an idle runtime), not before the
///   call returns.
/// - A native (in-process) call that times out cannot be killed: its thread runs on and its
///   result is dropped.
/// - A front end that must answer its agent and exit at once (a hook process, as `hook relay`)
///   dispatches with [`AsyncHandlers::Deferred`] and the agent's own bytes
///   ([`Engine::dispatch_bytes`]), then starts a process of its own with
///   [`detach::spawn_detached`](crate::detach::spawn_detached) that dispatches with [`AsyncHandlers::Only`] and collects: the
///   engine cannot hand a running hook from one process to another. Trust is decided again in
///   that process, on the files as they are then.
/// - Async results live in the engine's memory until collected or cancelled: an agent that never
///   collects a session's results should cancel them at session end.
/// - `async` is honoured for command handlers only; verboo's `asyncRewake` is parsed but the
///   engine never wakes the agent: collecting results is the agent's move.
/// - `'${CLAUDE_PLUGIN_ROOT}/x.sh'` in single quotes reaches the program unexpanded on Unix
///   (Claude Code would have substituted it): use double quotes. On Windows (`cmd /C`, which
///   has no `${...}`), the plugin folder is substituted into the command's text as Claude Code
///   does, unquoted: a plugin folder whose name contains `&`, `|`, `^` or `%` there is read
///   by `cmd`; install plugins under plain names.
/// - http handlers speak HTTP/1.1 only (no HTTP/2) and trust the system's root certificates.
/// - The prompt/agent answer format is one JSON object: a model that cannot keep to it fails
///   open in wuu and fails the run in verboo.
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
    /// Answers the command handlers it recognises in this process, instead of a spawn.
    pub(crate) in_process: Option<Arc<dyn InProcessCommands>>,
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

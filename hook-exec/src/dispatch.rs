//! The engine an agent embeds: build once from a loaded configuration, then `dispatch` events.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[cfg(doc)]
use hook_config::AllowAll;
use hook_config::{Broken, Gate, Handler, RefuseUntrusted, Registry};
use hook_protocol::{
    Concurrency, Decision, Dialect, Event, EventInput, HandlerType, Outcome, Run, RunStatus,
    SkipReason,
};

use crate::background::{AsyncResult, Background};
use crate::client::{McpClient, ModelClient};
use crate::combine::{Finished, combine};
use crate::schedule::Observer;

/// Settings of an [`Engine`]: start from [`EngineOptions::default`] and the `with_*` methods
/// (`#[non_exhaustive]`: settings get added).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct EngineOptions {
    /// How many consecutive `Stop`/`SubagentStop` blocks a session may get before the engine
    /// lets the stop through (and says so). Default 8.
    pub stop_loop_cap: u32,
    /// The private folder where lime writes the whole text of an `additionalContext` over its
    /// limit (see [`crate::context`]: created 0700 if missing, refused when it is a symlink, not
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
    /// outcome: the first error is kept in [`Journal::first_error`](crate::Journal::first_error).
    pub journal: Option<Arc<crate::Journal>>,
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
    pub fn with_journal(mut self, journal: Arc<crate::Journal>) -> Self {
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

impl Engine {
    /// An engine over `registry` whose gate is [`RefuseUntrusted`]: hooks that need trust in
    /// the dialect are skipped as `untrusted` until a gate is given
    /// ([`with_gate`](Self::with_gate): `hook_trust::TrustGate`, or [`AllowAll`] by name).
    /// [`Hooks::load`](crate::Hooks::load) builds an engine with the trust gate in one call.
    pub fn new(registry: Registry) -> Self {
        let options = EngineOptions::default();
        let dialect = registry.dialect();
        Engine {
            registry,
            gate: Box::new(RefuseUntrusted::new(dialect)),
            background: Background::new(options.max_async),
            options: Arc::new(options),
            stop_blocks: Mutex::new(HashMap::new()),
            model: None,
            mcp: None,
            #[cfg(feature = "http")]
            http: std::sync::OnceLock::new(),
        }
    }

    /// Uses `gate` to decide which handlers may run.
    pub fn with_gate(mut self, gate: impl Gate + 'static) -> Self {
        self.gate = Box::new(gate);
        self
    }

    /// Replaces the engine's options. Call it while building the engine: it also resets the
    /// slots of async handlers, cancelling any already started.
    pub fn with_options(mut self, options: EngineOptions) -> Self {
        self.background = Background::new(options.max_async);
        self.options = Arc::new(options);
        self
    }

    /// Replaces options and gate in place (for [`Hooks`](crate::Hooks)' builder methods).
    #[cfg(feature = "trust")]
    pub(crate) fn reconfigure(&mut self, options: EngineOptions, gate: Box<dyn Gate>) {
        self.background = Background::new(options.max_async);
        self.options = Arc::new(options);
        self.gate = gate;
    }

    /// Uses `client` to answer `prompt` and `agent` handlers (verboo, wuu). Without one, wuu
    /// prompt hooks allow (fail-open) and verboo's are skipped with `no_client`.
    pub fn with_model_client(mut self, client: impl ModelClient + 'static) -> Self {
        self.model = Some(Arc::new(client));
        self
    }

    /// Uses `client` to call the tools of `mcp_tool` handlers (lime, verboo). Without one they
    /// are skipped with `no_client`.
    pub fn with_mcp_client(mut self, client: impl McpClient + 'static) -> Self {
        self.mcp = Some(Arc::new(client));
        self
    }

    /// Waits for the async handlers started by events of `session_id` (and of `turn_id`, when
    /// given: the input's `turn_id`) and returns their results, in the order they were started.
    ///
    /// Each result is delivered once, and only to the session (and turn) that started it: two
    /// sessions of one engine never see each other's.
    pub async fn collect_async(&self, session_id: &str, turn_id: Option<&str>) -> Vec<AsyncResult> {
        self.background.collect(session_id, turn_id, false).await
    }

    /// Like [`collect_async`](Self::collect_async) but without waiting: only the results of the
    /// handlers that have already finished; the others stay pending.
    pub async fn collect_finished_async(
        &self,
        session_id: &str,
        turn_id: Option<&str>,
    ) -> Vec<AsyncResult> {
        self.background.collect(session_id, turn_id, true).await
    }

    /// Cancels every async handler of `session_id` that has not been collected (at session end):
    /// running hooks are killed with their whole process group (as the runtime drops their
    /// aborted tasks, at its next turn), results are dropped. Returns how many were cancelled.
    pub fn cancel_async(&self, session_id: &str) -> usize {
        self.background.cancel(session_id)
    }

    /// How many async handlers of `session_id` have not been collected or cancelled yet.
    pub fn pending_async(&self, session_id: &str) -> usize {
        self.background.count(session_id)
    }

    /// The dialect whose rules this engine follows.
    pub fn dialect(&self) -> Dialect {
        self.registry.dialect()
    }

    /// The configuration this engine runs.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The handlers [`Engine::dispatch`] would start for `input`, in configuration order,
    /// without running anything: what a front end shows first (each handler's
    /// `statusMessage`, say). Handlers a settings switch suppressed are left out; trust is
    /// still decided by the gate at dispatch.
    pub fn preview(&self, input: &EventInput) -> Vec<&Handler> {
        let value = input.to_value();
        let event = input.event();
        let match_value = event.match_target(self.dialect()).value_in(&value);
        self.registry
            .select(&event, match_value.as_deref(), value.get("tool_input"))
            .collect()
    }

    /// Runs every matching hook of `input`'s event and combines their results.
    ///
    /// The outcome's `updated_input` is a proposal, not an authorization: the agent must run its
    /// own permission check on it again. A hook never widens what the agent may do.
    pub async fn dispatch(&self, input: &EventInput) -> Outcome {
        let payload = crate::schedule::Payload::new(input.to_value());
        self.dispatch_inner(input, payload, None).await
    }

    /// [`dispatch`](Self::dispatch), each hook getting `bytes` (the event as the agent sent it)
    /// instead of `input` serialized again: what a front end in front of a real agent uses, so
    /// that hooks see exactly what the agent would have given them (fields the typed input
    /// does not keep, escapes the engine reads another way; see
    /// [`hook_protocol::read_agent_event`]). `input` is what the engine matches on.
    ///
    /// `bytes` should be the JSON of `input` as the agent wrote it; the engine does not check.
    /// Where a wuu hook rewrites the input for the next one, that one gets the input serialized.
    pub async fn dispatch_bytes(&self, input: &EventInput, bytes: Arc<[u8]>) -> Outcome {
        let payload = crate::schedule::Payload::with_bytes(input.to_value(), bytes);
        self.dispatch_inner(input, payload, None).await
    }

    /// [`dispatch`](Self::dispatch), calling `on_finished` with each handler's run as soon as
    /// that handler is done (or skipped): the completion stream a front end shows while the
    /// others still run ("hook X allowed in 12 ms"). Calls come in completion order, from the
    /// task that awaits this future; every entry of the outcome's `runs` is reported once
    /// (a handler that could not be read, at the end). The outcome's entry may carry more than
    /// the reported run (warnings added while the results are combined).
    ///
    /// `on_finished` should be quick (send on a channel): the hooks still running wait for it.
    pub async fn dispatch_observed(
        &self,
        input: &EventInput,
        on_finished: impl Fn(&Run) + Send + Sync,
    ) -> Outcome {
        let payload = crate::schedule::Payload::new(input.to_value());
        self.dispatch_inner(input, payload, Some(&on_finished))
            .await
    }

    async fn dispatch_inner(
        &self,
        input: &EventInput,
        mut value: crate::schedule::Payload,
        observer: Observer<'_>,
    ) -> Outcome {
        let dialect = self.dialect();
        let event = input.event();
        let match_value = event
            .match_target(dialect)
            .value_in(&value)
            .map(|v| v.into_owned());
        let tool_input = value.get("tool_input").cloned();
        let mut handlers: Vec<&Handler> = self
            .registry
            // Suppressed handlers too: each is reported as skipped, never run.
            .select_including_suppressed(&event, match_value.as_deref(), tool_input.as_ref())
            .collect();
        let only_async = self.options.async_handlers == AsyncHandlers::Only;
        if only_async {
            handlers
                .retain(|handler| crate::schedule::runs_in_background(dialect, &event, handler));
        }

        let env_dir = self.options.env_file_dir.as_deref();
        let env_file = crate::env_file::EnvFile::for_event(dialect, &event, &handlers, env_dir);
        let env_path = env_file.as_ref().and_then(|f| f.path());
        let concurrency = dialect.rules().concurrency();
        let mut finished = match concurrency {
            Concurrency::Serial => {
                self.run_serially(&event, &handlers, &mut value, observer)
                    .await
            }
            Concurrency::Concurrent => {
                self.run_concurrently(&event, &handlers, &value, env_path, observer)
                    .await
            }
        };
        // What could not be read never runs, and is never left out silently either (the
        // process that runs only deferred async handlers leaves that to the one that answered).
        let broken = if only_async {
            Vec::new()
        } else {
            self.registry
                .broken_for(&event, match_value.as_deref())
                .collect()
        };
        for broken in broken {
            let asks = broken.on_failure == Some(hook_config::OnFailure::Block);
            let done = crate::schedule::fail_closed(
                dialect,
                &event,
                asks,
                &broken.key,
                broken_run(broken),
            );
            crate::schedule::observe(observer, &done);
            finished.push(done);
        }
        let mut outcome = combine(dialect, event, finished);
        if let Some(env_file) = env_file {
            env_file.report(&mut outcome);
        }
        self.limit_stop_loops(input.session_id(), &mut outcome);
        if let Some(journal) = &self.options.journal
            && !only_async
        {
            // Never fails nor delays the dispatch: written on a blocking thread, the first error
            // kept for the embedder.
            journal.append_detached(crate::journal::Record::new("library", input, &outcome));
        }
        outcome
    }

    /// Past the cap of consecutive Stop/SubagentStop blocks, lets the stop through.
    fn limit_stop_loops(&self, session_id: &str, outcome: &mut Outcome) {
        if !matches!(outcome.event, Event::Stop | Event::SubagentStop) {
            return;
        }
        let mut counts = self
            .stop_blocks
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if outcome.decision != Decision::Block {
            counts.remove(session_id);
            return;
        }
        let count = counts.entry(session_id.to_owned()).or_insert(0);
        *count += 1;
        if *count > self.options.stop_loop_cap {
            outcome.decision = Decision::Continue;
            outcome.system_messages.push(format!(
                "{} blocked {} times in a row (cap {}): letting the agent stop",
                outcome.event, count, self.options.stop_loop_cap
            ));
            outcome.reason = None;
            counts.remove(session_id);
        }
    }
}

/// The `runs` entry of a handler, group or file that could not be read.
fn broken_run(broken: &Broken) -> Finished {
    let mut run = Run::new(
        broken.key.clone(),
        broken.source.clone(),
        broken.handler_type.unwrap_or(HandlerType::Command),
    );
    run.status = RunStatus::Skipped;
    run.skip_reason = Some(SkipReason::Invalid);
    run.error = Some(broken.error.clone());
    Finished {
        run,
        response: None,
    }
}

//! The engine's public methods: build one from a loaded configuration (the type itself and its
//! settings are in `engine.rs`), then `dispatch` events.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[cfg(doc)]
use hook_config::AllowAll;
use hook_config::{Broken, Gate, Handler, RefuseUntrusted, Registry};
use hook_protocol::input::EventInput;
use hook_protocol::{
    Concurrency, Decision, Dialect, Event, HandlerType, Outcome, Run, RunStatus, SkipReason,
};

use crate::background::{AsyncResult, Background};
use crate::client::{McpClient, ModelClient};
use crate::combine::{Finished, combine};
use crate::engine::{AsyncHandlers, Engine, EngineOptions};
use crate::in_process::InProcessCommands;
use crate::payload::Payload;
use crate::schedule::Observer;

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
            in_process: None,
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

    /// Asks `commands` before spawning each command handler: the ones it answers run in this
    /// process ([`InProcessCommands`]), with the same matching, trust, timeout, output cap and
    /// reading of the reply as a spawned hook, their runs marked
    /// [`in_process`](hook_protocol::Run::in_process); the others are spawned as usual.
    pub fn with_in_process_commands(mut self, commands: impl InProcessCommands + 'static) -> Self {
        self.in_process = Some(Arc::new(commands));
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
        let payload = Payload::new(input.to_value());
        self.dispatch_inner(input, payload, None).await
    }

    /// [`dispatch`](Self::dispatch), each hook getting `bytes` (the event as the agent sent it)
    /// instead of `input` serialized again: what a front end in front of a real agent uses, so
    /// that hooks see exactly what the agent would have given them (fields the typed input
    /// does not keep, escapes the engine reads another way; see
    /// [`hook_protocol::input::read_agent_event`]). `input` is what the engine matches on.
    ///
    /// `bytes` should be the JSON of `input` as the agent wrote it; the engine does not check.
    /// Where a wuu hook rewrites the input for the next one, that one gets the input serialized.
    pub async fn dispatch_bytes(&self, input: &EventInput, bytes: Arc<[u8]>) -> Outcome {
        let payload = Payload::with_bytes(input.to_value(), bytes);
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
        let payload = Payload::new(input.to_value());
        self.dispatch_inner(input, payload, Some(&on_finished))
            .await
    }

    async fn dispatch_inner(
        &self,
        input: &EventInput,
        mut value: Payload,
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
        let concurrency = dialect.rules().handlers().concurrency();
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

//! The engine an agent embeds: build once from a loaded configuration, then `dispatch` events.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use hook_config::{Handler, Registry};
use hook_protocol::{
    Decision, Dialect, Event, EventInput, HandlerResult, HandlerType, Outcome, Response, Run,
    RunStatus, SkipReason, interpret,
};
use serde_json::Value;

use crate::combine::{Finished, combine};
use crate::command::{CommandSpec, RunEnd, run_command};
use crate::context::limit_context;

/// Decides whether a selected handler may run (trust, disabled state). The trust crate supplies
/// the real one; [`AllowAll`] lets everything run.
pub trait Gate: Send + Sync {
    /// `None` when the handler may run, else why not and a one-line explanation naming the
    /// command that would let it run.
    fn check(&self, handler: &Handler) -> Option<(SkipReason, String)>;
}

/// A gate that lets every handler run.
#[derive(Debug, Clone, Copy, Default)]
pub struct AllowAll;

impl Gate for AllowAll {
    fn check(&self, _: &Handler) -> Option<(SkipReason, String)> {
        None
    }
}

/// Settings of an [`Engine`].
#[derive(Debug, Clone)]
pub struct EngineOptions {
    /// How many consecutive `Stop`/`SubagentStop` blocks a session may get before the engine
    /// lets the stop through (and says so). Default 8.
    pub stop_loop_cap: u32,
    /// Where lime writes the whole text of an `additionalContext` over its limit.
    pub side_file_dir: PathBuf,
    /// The project directory, for verboo's `CLAUDE_PROJECT_DIR`; the event's `cwd` when `None`.
    pub project_dir: Option<PathBuf>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            stop_loop_cap: 8,
            side_file_dir: std::env::temp_dir().join("hook-context"),
            project_dir: None,
        }
    }
}

/// Runs the hooks of one loaded configuration.
///
/// No global state: two engines in one process never share anything. Dropping a `dispatch`
/// future kills the hooks it started.
pub struct Engine {
    registry: Registry,
    gate: Box<dyn Gate>,
    options: EngineOptions,
    /// Consecutive Stop/SubagentStop blocks per session.
    stop_blocks: Mutex<HashMap<String, u32>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("dialect", &self.registry.dialect())
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine over `registry` that lets every handler run.
    pub fn new(registry: Registry) -> Self {
        Engine {
            registry,
            gate: Box::new(AllowAll),
            options: EngineOptions::default(),
            stop_blocks: Mutex::new(HashMap::new()),
        }
    }

    /// Uses `gate` to decide which handlers may run.
    pub fn with_gate(mut self, gate: impl Gate + 'static) -> Self {
        self.gate = Box::new(gate);
        self
    }

    /// Replaces the engine's options.
    pub fn with_options(mut self, options: EngineOptions) -> Self {
        self.options = options;
        self
    }

    /// The dialect whose rules this engine follows.
    pub fn dialect(&self) -> Dialect {
        self.registry.dialect()
    }

    /// The configuration this engine runs.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Runs every matching hook of `input`'s event and combines their results.
    ///
    /// The outcome's `updated_input` is a proposal, not an authorization: the agent must run its
    /// own permission check on it again. A hook never widens what the agent may do.
    pub async fn dispatch(&self, input: &EventInput) -> Outcome {
        let dialect = self.dialect();
        let event = input.event();
        let mut value = input.to_value();
        let match_value = event
            .match_target(dialect)
            .value_in(&value)
            .map(|v| v.into_owned());
        let tool_input = value.get("tool_input").cloned();
        let handlers: Vec<&Handler> = self
            .registry
            .select(&event, match_value.as_deref(), tool_input.as_ref())
            .collect();

        let finished = match dialect {
            Dialect::Wuu => self.run_serially(&event, &handlers, &mut value).await,
            Dialect::Verboo | Dialect::Lime => {
                self.run_concurrently(&event, &handlers, &value).await
            }
        };
        let mut outcome = combine(dialect, event, finished);
        self.limit_stop_loops(input.session_id(), &mut outcome);
        outcome
    }

    /// wuu: in configuration order, each rewrite feeding the next hook's `tool_input`; the
    /// chain stops at the first block or error.
    async fn run_serially(
        &self,
        event: &Event,
        handlers: &[&Handler],
        value: &mut Value,
    ) -> Vec<Finished> {
        let mut finished = Vec::with_capacity(handlers.len());
        let mut stopped_by: Option<String> = None;
        for handler in handlers {
            if let Some(key) = &stopped_by {
                let why = format!("not run: {key} blocked or failed first");
                finished.push(skipped(handler, SkipReason::ChainStopped, why));
                continue;
            }
            let done = self.run_handler(event, handler, value).await;
            let stops = matches!(
                done.run.status,
                RunStatus::Blocked | RunStatus::Failed | RunStatus::TimedOut
            );
            if let Some(updated) = done.response.as_ref().and_then(|r| r.updated_input.clone())
                && let Some(object) = value.as_object_mut()
            {
                object.insert("tool_input".to_owned(), updated);
            }
            if stops {
                stopped_by = Some(handler.key.clone());
            }
            finished.push(done);
        }
        finished
    }

    /// verboo and lime: all at once, reported in configuration order.
    async fn run_concurrently(
        &self,
        event: &Event,
        handlers: &[&Handler],
        value: &Value,
    ) -> Vec<Finished> {
        let runs = handlers
            .iter()
            .map(|handler| self.run_handler(event, handler, value));
        join_all(runs).await
    }

    /// Runs one handler, or says why it does not run.
    async fn run_handler(&self, event: &Event, handler: &Handler, value: &Value) -> Finished {
        let dialect = self.dialect();
        if let Some((reason, why)) = self.gate.check(handler) {
            return skipped(handler, reason, why);
        }
        match handler.config.handler_type {
            HandlerType::Command => {}
            HandlerType::Prompt | HandlerType::Agent if dialect == Dialect::Lime => {
                let why = "lime parses prompt and agent handlers but never runs them";
                return skipped(handler, SkipReason::Unsupported, why.to_owned());
            }
            HandlerType::Prompt if dialect == Dialect::Wuu => {
                let why = "no model client: wuu prompt hooks fail open, so this one allows";
                return skipped(handler, SkipReason::NoClient, why.to_owned());
            }
            HandlerType::Prompt | HandlerType::Agent => {
                let why = "no model client is configured for prompt and agent hooks";
                return skipped(handler, SkipReason::NoClient, why.to_owned());
            }
            HandlerType::McpTool => {
                let why = "no MCP client is configured for mcp_tool hooks";
                return skipped(handler, SkipReason::NoClient, why.to_owned());
            }
            HandlerType::Http | HandlerType::Native => {
                let why = format!(
                    "{} handlers are not run by this version of the engine",
                    type_name(handler.config.handler_type)
                );
                return skipped(handler, SkipReason::Unsupported, why);
            }
        }
        self.run_command_handler(event, handler, value).await
    }

    async fn run_command_handler(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Value,
    ) -> Finished {
        let dialect = self.dialect();
        let Some(command) = command_for_platform(handler) else {
            let why = "no command for this platform".to_owned();
            return skipped(handler, SkipReason::Unsupported, why);
        };
        let cwd = value.get("cwd").and_then(Value::as_str).unwrap_or(".");
        let mut spec = CommandSpec::new(command, cwd, handler.timeout);
        spec.stdin = serde_json::to_vec(value).expect("a JSON value always serializes");
        spec.env = self.environment(event, handler, Path::new(cwd));

        let run = run_command(&spec).await;
        let mut entry = base_run(handler);
        entry.duration_ms = Some(u64::try_from(run.duration.as_millis()).unwrap_or(u64::MAX));
        entry.exit_code = run.exit_code;
        let failure = match &run.end {
            RunEnd::Exited => None,
            RunEnd::TimedOut => {
                entry.status = RunStatus::TimedOut;
                entry.error = Some(format!(
                    "timed out after {}; the hook's process group was killed",
                    seconds(handler.timeout)
                ));
                return Finished {
                    run: entry,
                    response: None,
                };
            }
            RunEnd::OutputTooLarge { stream } => Some(format!(
                "{stream} went over {} bytes; nothing it printed is used",
                spec.output_cap
            )),
            RunEnd::PipesHeldOpen => Some(
                "a process that left the hook's group kept its output open; the output is not used"
                    .to_owned(),
            ),
            RunEnd::SpawnFailed { error } => Some(error.clone()),
        };
        if let Some(error) = failure {
            entry.status = RunStatus::Failed;
            entry.error = Some(error);
            return Finished {
                run: entry,
                response: None,
            };
        }

        let result = interpret(dialect, event, run.exit_code, &run.stdout, &run.stderr);
        entry.status = result.status();
        entry.error = result.error();
        let response = match result {
            HandlerResult::Response(mut response) => {
                self.apply_context_limit(handler, &mut response);
                entry.warnings = std::mem::take(&mut response.warnings);
                Some(response)
            }
            HandlerResult::NonBlockingError { .. } | HandlerResult::Failed(_) => None,
        };
        Finished {
            run: entry,
            response,
        }
    }

    /// The variables a command hook gets on top of the inherited environment.
    fn environment(&self, event: &Event, handler: &Handler, cwd: &Path) -> Vec<(String, String)> {
        let dialect = self.dialect();
        let mut env = vec![
            ("HOOK_DIALECT".to_owned(), dialect.to_string()),
            ("HOOK_EVENT".to_owned(), event.to_string()),
        ];
        if dialect == Dialect::Verboo {
            let project = self.options.project_dir.as_deref().unwrap_or(cwd);
            env.push((
                "CLAUDE_PROJECT_DIR".to_owned(),
                project.display().to_string(),
            ));
        }
        if let Some(root) = &handler.plugin_root {
            env.push(("PLUGIN_ROOT".to_owned(), root.display().to_string()));
            if dialect == Dialect::Verboo {
                env.push(("CLAUDE_PLUGIN_ROOT".to_owned(), root.display().to_string()));
            }
        }
        env
    }

    /// lime: context over the handler's `additionalContextLimit` becomes a preview and a side
    /// file.
    fn apply_context_limit(&self, handler: &Handler, response: &mut Response) {
        if self.dialect() != Dialect::Lime {
            return;
        }
        let limit = handler.config.additional_context_limit.unwrap_or(10_000);
        if let Some(context) = response.additional_context.take() {
            let limited = limit_context(&context, limit, &self.options.side_file_dir, &handler.key);
            match limited {
                Ok(text) => response.additional_context = Some(text),
                Err(warning) => {
                    response.warnings.push(warning);
                    response.additional_context = Some(context);
                }
            }
        }
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

/// Awaits every future, keeping their order. Futures run concurrently on the current task.
async fn join_all<F: std::future::Future>(futures: impl Iterator<Item = F>) -> Vec<F::Output> {
    let mut pending: Vec<_> = futures.map(Box::pin).collect();
    let mut results: Vec<Option<F::Output>> = (0..pending.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all_done = true;
        for (slot, future) in results.iter_mut().zip(pending.iter_mut()) {
            if slot.is_none() {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(output) => *slot = Some(output),
                    std::task::Poll::Pending => all_done = false,
                }
            }
        }
        if all_done {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    results
        .into_iter()
        .map(|r| r.expect("every future completed"))
        .collect()
}

fn command_for_platform(handler: &Handler) -> Option<String> {
    if cfg!(windows)
        && let Some(command) = &handler.config.command_windows
    {
        return Some(command.clone());
    }
    handler.expanded_command()
}

fn type_name(handler_type: HandlerType) -> &'static str {
    match handler_type {
        HandlerType::Command => "command",
        HandlerType::Http => "http",
        HandlerType::Prompt => "prompt",
        HandlerType::Agent => "agent",
        HandlerType::McpTool => "mcp_tool",
        HandlerType::Native => "native",
    }
}

fn seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}

fn base_run(handler: &Handler) -> Run {
    Run {
        key: handler.key.clone(),
        source: handler.source.clone(),
        handler_type: handler.config.handler_type,
        status: RunStatus::Ok,
        skip_reason: None,
        exit_code: None,
        duration_ms: None,
        error: None,
        warnings: Vec::new(),
    }
}

fn skipped(handler: &Handler, reason: SkipReason, why: String) -> Finished {
    let mut run = base_run(handler);
    run.status = RunStatus::Skipped;
    run.skip_reason = Some(reason);
    run.error = Some(why);
    Finished {
        run,
        response: None,
    }
}

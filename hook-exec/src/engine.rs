//! The engine an agent embeds: build once from a loaded configuration, then `dispatch` events.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use hook_config::{AllowAll, Broken, Gate, Handler, Registry};
use hook_protocol::{
    Decision, Dialect, Event, EventInput, HandlerResult, HandlerType, Outcome, Response, Run,
    RunStatus, SkipReason, interpret,
};
use serde_json::Value;

use crate::background::{AsyncResult, Background};
use crate::client::{ANSWER_FORMAT, McpClient, ModelClient, ModelRequest};
use crate::combine::{Finished, combine};
use crate::command::{CommandSpec, RunEnd, run_command};
use crate::context::limit_context;
use crate::http::{HttpCall, HttpEnd, interpolate_headers};

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
    /// says the rest was dropped. `hook run` passes `<home>/hook-context`.
    pub side_file_dir: Option<PathBuf>,
    /// The project directory, for verboo's `CLAUDE_PROJECT_DIR`; the event's `cwd` when `None`.
    pub project_dir: Option<PathBuf>,
    /// How many async (background) handlers may run at once; the others wait for a slot.
    /// Default 8; 0 counts as 1.
    pub max_async: usize,
    /// How long a command hook's leftover children may hold its output open after it exits
    /// ([`CommandSpec::pipe_grace`]). Default 2 s.
    pub pipe_grace: Duration,
    /// Linux: command hooks get SIGKILL when the thread that started them exits
    /// ([`CommandSpec::kill_on_parent_death`]). Default off: turn it on only when every
    /// dispatch (and async hook) is started from threads that live as long as the engine, as
    /// in `hook run` (a current-thread runtime on the main thread).
    pub kill_on_parent_death: bool,
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
            project_dir: None,
            max_async: 8,
            pipe_grace: crate::command::PIPE_GRACE,
            kill_on_parent_death: false,
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
    options: Arc<EngineOptions>,
    /// Consecutive Stop/SubagentStop blocks per session.
    stop_blocks: Mutex<HashMap<String, u32>>,
    /// Answers `prompt` and `agent` handlers.
    model: Option<Arc<dyn ModelClient>>,
    /// Calls the tools of `mcp_tool` handlers.
    mcp: Option<Arc<dyn McpClient>>,
    /// The HTTP client of `http` handlers, set up on first use.
    http: OnceLock<Result<reqwest::Client, String>>,
    /// Async handlers started and not collected yet.
    background: Background,
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
        let options = EngineOptions::default();
        Engine {
            registry,
            gate: Box::new(AllowAll),
            background: Background::new(options.max_async),
            options: Arc::new(options),
            stop_blocks: Mutex::new(HashMap::new()),
            model: None,
            mcp: None,
            http: OnceLock::new(),
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
            // Suppressed handlers too: each is reported as skipped, never run.
            .select_including_suppressed(&event, match_value.as_deref(), tool_input.as_ref())
            .collect();

        let env_file = crate::env_file::EnvFile::for_event(dialect, &event, &handlers);
        let env_path = env_file.as_ref().and_then(|f| f.path());
        let mut finished = match dialect {
            Dialect::Wuu => self.run_serially(&event, &handlers, &mut value).await,
            Dialect::Verboo | Dialect::Lime => {
                self.run_concurrently(&event, &handlers, &value, env_path)
                    .await
            }
        };
        // What could not be read never runs, and is never left out silently either.
        finished.extend(
            self.registry
                .broken_for(&event, match_value.as_deref())
                .map(broken_run),
        );
        let mut outcome = combine(dialect, event, finished);
        if let Some(env_file) = env_file {
            env_file.report(&mut outcome);
        }
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
            let done = self.run_handler(event, handler, value, None).await;
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
        env_file: Option<&Path>,
    ) -> Vec<Finished> {
        let runs = handlers
            .iter()
            .map(|handler| self.run_handler(event, handler, value, env_file));
        // Concurrently on this task, results in configuration order.
        futures::future::join_all(runs).await
    }

    /// Runs one handler, or says why it does not run. `env_file` is verboo's `CLAUDE_ENV_FILE`
    /// for command hooks of the events that get one.
    async fn run_handler(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Value,
        env_file: Option<&Path>,
    ) -> Finished {
        let dialect = self.dialect();
        if let Some(suppression) = &handler.suppressed {
            return skipped(
                handler,
                SkipReason::DisabledBySettings,
                suppression.to_string(),
            );
        }
        // A native library is read once, before the gate: the gate decides on the digest of
        // the bytes that will be loaded (see `native`).
        let mut library = None;
        let verdict = if handler.config.handler_type == HandlerType::Native {
            let opened = crate::native::open(handler).await;
            let verdict = self
                .gate
                .check_native(handler, opened.as_ref().ok().map(|l| l.sha256()));
            library = Some(opened);
            verdict
        } else {
            self.gate.check(handler)
        };
        if let Some((reason, why)) = verdict {
            return skipped(handler, reason, why);
        }
        let ignored_async = match async_mode(dialect, event, handler) {
            AsyncMode::Background => return self.start_async(event, handler, value),
            AsyncMode::Foreground(why) => Some(why),
            AsyncMode::NotAsync => None,
        };
        let mut done = match handler.config.handler_type {
            HandlerType::Command => {
                run_command_handler(dialect, &self.options, event, handler, value, env_file).await
            }
            HandlerType::Prompt | HandlerType::Agent if dialect == Dialect::Lime => {
                let why = "lime parses prompt and agent handlers but never runs them";
                skipped(handler, SkipReason::Unsupported, why.to_owned())
            }
            HandlerType::Prompt | HandlerType::Agent => {
                self.run_model_handler(event, handler, value).await
            }
            HandlerType::McpTool => self.run_mcp_handler(event, handler, value).await,
            HandlerType::Http if dialect == Dialect::Verboo => {
                self.run_http_handler(event, handler, value).await
            }
            HandlerType::Http => {
                let why = format!("{dialect} does not run http handlers");
                skipped(handler, SkipReason::Unsupported, why)
            }
            HandlerType::Native => {
                use crate::native::NativeEnd;
                let mut entry = base_run(handler);
                let library = library.unwrap_or(Err(crate::native::LibraryError::Missing));
                let (end, took) = crate::native::run(dialect, handler, library, value).await;
                entry.duration_ms = Some(millis(took));
                match end {
                    NativeEnd::Exited {
                        exit_code,
                        stdout,
                        stderr,
                    } => {
                        entry.exit_code = Some(exit_code);
                        let result = interpret(dialect, event, Some(exit_code), &stdout, &stderr);
                        read_result(dialect, &self.options, handler, entry, result)
                    }
                    NativeEnd::Failed(error) => failed(entry, error),
                    NativeEnd::TimedOut => timed_out(
                        entry,
                        handler.timeout,
                        "the in-process call cannot be killed: it finishes on its own thread and its result is dropped",
                    ),
                }
            }
        };
        if let Some(why) = ignored_async
            && done.run.status != RunStatus::Skipped
        {
            done.run.warnings.push(why);
        }
        done
    }

    /// Starts an async command handler in the background; its `runs` entry says `async`.
    fn start_async(&self, event: &Event, handler: &Handler, value: &Value) -> Finished {
        let session_id = value
            .get("session_id")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let turn_id = value
            .get("turn_id")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let dialect = self.dialect();
        let options = Arc::clone(&self.options);
        let permits = self.background.permits();
        let task = (
            event.clone(),
            handler.clone(),
            value.clone(),
            session_id.clone(),
            turn_id.clone(),
        );
        let handle = tokio::spawn(async move {
            let (event, handler, value, session_id, turn_id) = task;
            // The semaphore is never closed, so this only waits for a free slot.
            let _permit = permits.acquire_owned().await;
            // The env file lives as long as the dispatch: a background hook gets none.
            let done = run_command_handler(dialect, &options, &event, &handler, &value, None).await;
            into_async_result(session_id, turn_id, event, done)
        });
        let mut run = base_run(handler);
        run.status = RunStatus::Async;
        self.background
            .add(&session_id, turn_id, event.clone(), run.clone(), handle);
        Finished {
            run,
            response: None,
        }
    }

    /// The HTTP client, set up on first use.
    fn http_client(&self) -> Result<&reqwest::Client, String> {
        self.http
            .get_or_init(crate::http::client)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// verboo `http`: POSTs the event JSON; a 2xx body is read like a command's stdout.
    async fn run_http_handler(&self, event: &Event, handler: &Handler, value: &Value) -> Finished {
        let mut entry = base_run(handler);
        let Some(url) = handler.config.url.as_deref() else {
            return failed(entry, "the http handler has no `url`".to_owned());
        };
        let client = match self.http_client() {
            Ok(client) => client,
            Err(error) => return failed(entry, error),
        };
        let allowed = handler.config.allowed_env_vars.as_deref().unwrap_or(&[]);
        let headers = interpolate_headers(
            handler.config.headers.as_ref(),
            allowed,
            |name| std::env::var(name).ok(),
            &mut entry.warnings,
        );
        let call = HttpCall {
            url,
            headers,
            body: serde_json::to_vec(value).expect("a JSON value always serializes"),
            timeout: handler.timeout,
        };
        let (end, took) = crate::http::post(client, call).await;
        entry.duration_ms = Some(millis(took));
        match end {
            HttpEnd::Success(body) => {
                let result = interpret(self.dialect(), event, Some(0), &body, b"");
                read_result(self.dialect(), &self.options, handler, entry, result)
            }
            HttpEnd::Failed(error) => failed(entry, error),
            HttpEnd::TimedOut => timed_out(entry, handler.timeout, "the request was dropped"),
        }
    }

    /// `prompt` and `agent`: asks the model client; `ok: false` blocks.
    async fn run_model_handler(&self, event: &Event, handler: &Handler, value: &Value) -> Finished {
        let dialect = self.dialect();
        let mut entry = base_run(handler);
        let Some(client) = &self.model else {
            if dialect == Dialect::Wuu {
                let why = "no model client: wuu prompt hooks fail open, so this one allows";
                return skipped(handler, SkipReason::NoClient, why.to_owned());
            }
            let why = "no model client is configured for prompt and agent hooks";
            return skipped(handler, SkipReason::NoClient, why.to_owned());
        };
        let template = handler.config.prompt.as_deref().unwrap_or("");
        let arguments = value.to_string();
        let prompt = if template.contains("$ARGUMENTS") {
            template.replace("$ARGUMENTS", &arguments)
        } else {
            format!("{template}\n\n{arguments}")
        };
        let request = ModelRequest {
            kind: handler.config.handler_type,
            system: ANSWER_FORMAT.to_owned(),
            prompt,
            model: handler.config.model.clone(),
            timeout: handler.timeout,
        };
        let started = std::time::Instant::now();
        let reply = tokio::time::timeout(handler.timeout, client.complete(request)).await;
        entry.duration_ms = Some(millis(started.elapsed()));
        let no_answer_in_time = reply.is_err();
        let verdict = match reply {
            Ok(Ok(text)) => parse_verdict(&text),
            Ok(Err(error)) => Err(format!("the model request failed: {error}")),
            Err(_) => Err(format!(
                "the model did not answer within {}",
                seconds(handler.timeout)
            )),
        };
        let output = match verdict {
            Ok(None) => "{}".to_owned(),
            Ok(Some(reason)) => {
                serde_json::json!({"decision": "block", "reason": reason}).to_string()
            }
            Err(error) if dialect == Dialect::Wuu => {
                entry.warnings.push(format!(
                    "{error}; wuu prompt hooks fail open, so this one allowed"
                ));
                "{}".to_owned()
            }
            Err(error) if no_answer_in_time => {
                return timed_out(entry, handler.timeout, &error);
            }
            Err(error) => return failed(entry, error),
        };
        let result = interpret(dialect, event, Some(0), output.as_bytes(), b"");
        read_result(dialect, &self.options, handler, entry, result)
    }

    /// `mcp_tool`: calls the tool with the expanded `input`; its result is the hook's output.
    async fn run_mcp_handler(&self, event: &Event, handler: &Handler, value: &Value) -> Finished {
        let dialect = self.dialect();
        let mut entry = base_run(handler);
        if *event == Event::SessionEnd {
            let why = "mcp_tool handlers do not run at SessionEnd";
            return skipped(handler, SkipReason::Unsupported, why.to_owned());
        }
        let Some(client) = &self.mcp else {
            let why = "no MCP client is configured for mcp_tool hooks";
            return skipped(handler, SkipReason::NoClient, why.to_owned());
        };
        let (Some(server), Some(tool)) = (&handler.config.server, &handler.config.tool) else {
            return failed(
                entry,
                "the mcp_tool handler needs `server` and `tool`".to_owned(),
            );
        };
        let template = handler
            .config
            .input
            .clone()
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        let arguments = match crate::mcp::expand(&template, value) {
            Ok(arguments) => arguments,
            Err(error) => return failed(entry, error),
        };
        let started = std::time::Instant::now();
        let call = client.call_tool(server, tool, arguments);
        let reply = tokio::time::timeout(handler.timeout, call).await;
        entry.duration_ms = Some(millis(started.elapsed()));
        let output = match reply {
            Ok(Ok(result)) => crate::mcp::output_of(&result),
            Ok(Err(error)) => Err(format!("the MCP tool call failed: {error}")),
            Err(_) => return timed_out(entry, handler.timeout, "the tool call was dropped"),
        };
        match output {
            Ok(bytes) => {
                let result = interpret(dialect, event, Some(0), &bytes, b"");
                read_result(dialect, &self.options, handler, entry, result)
            }
            Err(error) => failed(entry, error),
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

fn command_for_platform(handler: &Handler) -> Option<String> {
    if cfg!(windows)
        && let Some(command) = &handler.config.command_windows
    {
        return Some(command.clone());
    }
    handler.expanded_command()
}

fn seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}

fn base_run(handler: &Handler) -> Run {
    Run::new(
        handler.key.clone(),
        handler.source.clone(),
        handler.config.handler_type,
    )
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

/// Runs one command handler to its end (a free function so background tasks can own its inputs).
async fn run_command_handler(
    dialect: Dialect,
    options: &EngineOptions,
    event: &Event,
    handler: &Handler,
    value: &Value,
    env_file: Option<&Path>,
) -> Finished {
    let Some(command) = command_for_platform(handler) else {
        let why = "no command for this platform".to_owned();
        return skipped(handler, SkipReason::Unsupported, why);
    };
    let cwd = value.get("cwd").and_then(Value::as_str).unwrap_or(".");
    let mut spec = CommandSpec::new(command, cwd, handler.timeout);
    spec.stdin = serde_json::to_vec(value).expect("a JSON value always serializes");
    spec.env = environment(dialect, options, event, handler, Path::new(cwd));
    if let Some(path) = env_file {
        spec.env
            .push(("CLAUDE_ENV_FILE".to_owned(), path.display().to_string()));
    }
    spec.pipe_grace = options.pipe_grace;
    spec.kill_on_parent_death = options.kill_on_parent_death;

    let run = run_command(&spec).await;
    let mut entry = base_run(handler);
    entry.duration_ms = Some(millis(run.duration));
    entry.exit_code = run.exit_code;
    let failure = match &run.end {
        RunEnd::Exited => None,
        RunEnd::TimedOut => {
            return timed_out(
                entry,
                handler.timeout,
                "the hook's process group was killed",
            );
        }
        RunEnd::OutputTooLarge { stream } => Some(format!(
            "{stream} went over {} bytes; nothing it printed is used",
            spec.output_cap
        )),
        RunEnd::PipesHeldOpen => Some(
            "a process that left the hook's group kept its output open; the output is not used"
                .to_owned(),
        ),
        RunEnd::OutputUnreadable { stream, error } => Some(format!(
            "reading the hook's {stream} failed part way ({error}); its output may be truncated and is not used"
        )),
        RunEnd::SpawnFailed { error } => Some(error.clone()),
    };
    if let Some(error) = failure {
        return failed(entry, error);
    }
    let result = interpret(dialect, event, run.exit_code, &run.stdout, &run.stderr);
    read_result(dialect, options, handler, entry, result)
}

/// Turns an interpreted result into the handler's part of the outcome.
fn read_result(
    dialect: Dialect,
    options: &EngineOptions,
    handler: &Handler,
    mut entry: Run,
    result: HandlerResult,
) -> Finished {
    entry.status = result.status();
    entry.error = result.error();
    let response = match result {
        HandlerResult::Response(mut response) => {
            apply_context_limit(dialect, options, handler, &mut response);
            entry.warnings.append(&mut response.warnings);
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
fn environment(
    dialect: Dialect,
    options: &EngineOptions,
    event: &Event,
    handler: &Handler,
    cwd: &Path,
) -> Vec<(String, String)> {
    let mut env = vec![
        ("HOOK_DIALECT".to_owned(), dialect.to_string()),
        ("HOOK_EVENT".to_owned(), event.to_string()),
    ];
    if dialect == Dialect::Verboo {
        let project = options.project_dir.as_deref().unwrap_or(cwd);
        env.push((
            "CLAUDE_PROJECT_DIR".to_owned(),
            project.display().to_string(),
        ));
    }
    if let Some(root) = &handler.plugin_root {
        // Every dialect: lime as Codex does, for plugins written for Claude Code.
        env.push(("PLUGIN_ROOT".to_owned(), root.display().to_string()));
        env.push(("CLAUDE_PLUGIN_ROOT".to_owned(), root.display().to_string()));
    }
    env
}

/// lime: context over the handler's `additionalContextLimit` becomes a preview and a side file.
fn apply_context_limit(
    dialect: Dialect,
    options: &EngineOptions,
    handler: &Handler,
    response: &mut Response,
) {
    if dialect != Dialect::Lime {
        return;
    }
    let limit = handler.config.additional_context_limit.unwrap_or(10_000);
    if let Some(context) = response.additional_context.take() {
        match limit_context(
            &context,
            limit,
            options.side_file_dir.as_deref(),
            &handler.key,
        ) {
            Ok(text) => response.additional_context = Some(text),
            Err(error) => {
                response.warnings.push(format!(
                    "additionalContext is over its limit of {limit} characters but {error}; the whole text is kept"
                ));
                response.additional_context = Some(context);
            }
        }
    }
}

/// Whether a handler runs in the background.
enum AsyncMode {
    /// Not an async handler.
    NotAsync,
    /// Run it in the background.
    Background,
    /// Marked async but run in the foreground; the warning says why.
    Foreground(String),
}

fn async_mode(dialect: Dialect, event: &Event, handler: &Handler) -> AsyncMode {
    if !handler.config.is_async {
        return AsyncMode::NotAsync;
    }
    let why = if dialect == Dialect::Wuu {
        "wuu has no async hooks: `async` is ignored and the hook ran in the foreground".to_owned()
    } else if handler.config.handler_type != HandlerType::Command {
        format!(
            "`async` applies to command handlers only: this {} handler ran in the foreground",
            handler.config.handler_type.as_str()
        )
    } else if *event == Event::SessionEnd {
        "SessionEnd hooks run synchronously at session end: `async` is ignored".to_owned()
    } else {
        return AsyncMode::Background;
    };
    AsyncMode::Foreground(why)
}

/// What an async handler delivers: context and a message; every decision is dropped, with a
/// warning.
fn into_async_result(
    session_id: String,
    turn_id: Option<String>,
    event: Event,
    done: Finished,
) -> AsyncResult {
    let Finished { mut run, response } = done;
    if run.status == RunStatus::Blocked {
        run.status = RunStatus::Ok;
    }
    let mut result = AsyncResult {
        session_id,
        turn_id,
        event,
        run,
        additional_context: None,
        system_message: None,
    };
    if let Some(response) = response {
        let dropped = |what: &str| {
            format!("{what} dropped: an async hook can never block, approve, rewrite or stop")
        };
        let warnings = &mut result.run.warnings;
        if let Some(decision) = response.decision.filter(|d| *d != Decision::Continue) {
            let reason = response
                .reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            let name = serde_json::to_value(decision)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            warnings.push(dropped(&format!("decision `{name}`{reason}")));
        }
        if response.updated_input.is_some() {
            warnings.push(dropped("updated input"));
        }
        if response.stop.is_some() {
            warnings.push(dropped("`continue: false`"));
        }
        if response.updated_permissions.is_some() || response.updated_mcp_tool_output.is_some() {
            warnings.push(dropped("updated permissions or MCP tool output"));
        }
        result.additional_context = response.additional_context;
        result.system_message = response.system_message;
    }
    result
}

/// A model's `{"ok": bool, "reason": "..."}`: `Ok(None)` lets the action go, `Ok(Some(reason))`
/// blocks it; `Err` when the reply is not that object. A reply wrapped in a Markdown code fence
/// or in a sentence is read from its first `{` to its last `}`.
fn parse_verdict(reply: &str) -> Result<Option<String>, String> {
    let shown: String = reply.trim().chars().take(200).collect();
    let unparsable =
        || format!("the model's reply is not {{\"ok\": bool, \"reason\": ...}}: `{shown}`");
    let start = reply.find('{').ok_or_else(unparsable)?;
    let end = reply.rfind('}').ok_or_else(unparsable)?;
    let object: Value = reply
        .get(start..=end)
        .and_then(|json| serde_json::from_str(json).ok())
        .ok_or_else(unparsable)?;
    let ok = object
        .get("ok")
        .and_then(Value::as_bool)
        .ok_or_else(unparsable)?;
    if ok {
        return Ok(None);
    }
    let reason = object
        .get("reason")
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
        .unwrap_or("the model said no (it gave no reason)");
    Ok(Some(reason.to_owned()))
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

fn failed(mut run: Run, error: String) -> Finished {
    run.status = RunStatus::Failed;
    run.error = Some(error);
    Finished {
        run,
        response: None,
    }
}

fn timed_out(mut run: Run, timeout: Duration, what: &str) -> Finished {
    run.status = RunStatus::TimedOut;
    run.error = Some(format!("timed out after {}; {what}", seconds(timeout)));
    Finished {
        run,
        response: None,
    }
}

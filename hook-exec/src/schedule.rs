//! Scheduling one event's handlers: serially (wuu's chain) or all at once (verboo, lime), the
//! gate's verdict, async (background) handlers, and which runner a handler goes to.

use std::path::Path;
use std::sync::Arc;

use hook_config::{Handler, OnFailure};
use hook_protocol::{Decision, Dialect, Event, HandlerType, Response, Run, RunStatus, SkipReason};
use serde_json::Value;

use crate::background::AsyncResult;
use crate::combine::Finished;
use crate::engine::{AsyncHandlers, Engine};
use crate::payload::Payload;
use crate::runner::{base_run, run_command_handler, skipped};

/// What [`Engine::dispatch_observed`] calls as each handler finishes.
pub(crate) type Observer<'a> = Option<&'a (dyn Fn(&Run) + Send + Sync)>;

/// Tells `observer`, if any, that `done` finished.
pub(crate) fn observe(observer: Observer<'_>, done: &Finished) {
    if let Some(observer) = observer {
        observer(&done.run);
    }
}

impl Engine {
    /// wuu: in configuration order, each rewrite feeding the next hook's `tool_input`; the
    /// chain stops at the first block or error.
    pub(crate) async fn run_serially(
        &self,
        event: &Event,
        handlers: &[&Handler],
        value: &mut Payload,
        observer: Observer<'_>,
    ) -> Vec<Finished> {
        let mut finished = Vec::with_capacity(handlers.len());
        let mut stopped_by: Option<String> = None;
        for handler in handlers {
            if let Some(key) = &stopped_by {
                let why = format!("not run: {key} blocked or failed first");
                let done = skipped(handler, SkipReason::ChainStopped, why);
                observe(observer, &done);
                finished.push(done);
                continue;
            }
            let done = self.run_handler(event, handler, value, None).await;
            let stops = matches!(
                done.run.status,
                RunStatus::Blocked | RunStatus::Failed | RunStatus::TimedOut
            );
            if let Some(updated) = done.response.as_ref().and_then(|r| r.updated_input.clone()) {
                value.set_tool_input(updated);
            }
            if stops {
                stopped_by = Some(handler.key.clone());
            }
            observe(observer, &done);
            finished.push(done);
        }
        finished
    }

    /// verboo and lime: all at once, reported in configuration order.
    pub(crate) async fn run_concurrently(
        &self,
        event: &Event,
        handlers: &[&Handler],
        value: &Payload,
        env_file: Option<&Path>,
        observer: Observer<'_>,
    ) -> Vec<Finished> {
        let runs = handlers.iter().map(|handler| async move {
            let done = self.run_handler(event, handler, value, env_file).await;
            observe(observer, &done);
            done
        });
        // Concurrently on this task, results in configuration order.
        futures::future::join_all(runs).await
    }

    /// Runs one handler, or says why it does not run, then applies its `onFailure`.
    /// `env_file` is verboo's `CLAUDE_ENV_FILE` for command hooks of the events that get one.
    pub(crate) async fn run_handler(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Payload,
        env_file: Option<&Path>,
    ) -> Finished {
        let done = self.run_handler_once(event, handler, value, env_file).await;
        on_failure(self.dialect(), event, handler, done)
    }

    /// [`Self::run_handler`] before `onFailure`.
    async fn run_handler_once(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Payload,
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
            // The files a command names are read from where it will run.
            let cwd = value.get("cwd").and_then(Value::as_str).unwrap_or(".");
            let place = hook_config::RunPlace::new(cwd, self.options.project_dir.clone());
            self.gate.check_at(handler, &place)
        };
        if let Some((reason, why)) = verdict {
            return skipped(handler, reason, why);
        }
        let ignored_async = match async_mode(dialect, event, handler) {
            AsyncMode::Background if self.options.async_handlers == AsyncHandlers::Deferred => {
                let mut run = base_run(handler);
                run.status = RunStatus::Async;
                run.warnings
                    .push("runs in the background, in a process of its own".to_owned());
                return Finished {
                    run,
                    response: None,
                };
            }
            AsyncMode::Background => return self.start_async(event, handler, value),
            AsyncMode::Foreground(why) => Some(why),
            AsyncMode::NotAsync => None,
        };
        let rules = dialect.rules();
        let handler_type = handler.config.handler_type;
        if matches!(handler_type, HandlerType::Prompt | HandlerType::Agent)
            && rules.agent().model_hooks_block(event)
        {
            let mut run = base_run(handler);
            run.status = RunStatus::Blocked;
            return Finished {
                run,
                response: Some(block(format!(
                    "{handler_type} hooks do not run on {event}: it cannot wait for a model, so it is blocked"
                ))),
            };
        }
        let mut done = match handler_type {
            _ if !rules.handlers().runs(handler_type) => {
                let why = if rules.handlers().parses(handler_type) {
                    format!("{dialect} parses {handler_type} handlers but never runs them")
                } else {
                    format!("{dialect} does not run {handler_type} handlers")
                };
                skipped(handler, SkipReason::Unsupported, why)
            }
            HandlerType::Command => {
                let in_process = self.in_process.as_deref();
                run_command_handler(
                    dialect,
                    &self.options,
                    event,
                    handler,
                    value,
                    env_file,
                    in_process,
                )
                .await
            }
            HandlerType::Prompt | HandlerType::Agent => {
                self.run_model_handler(event, handler, value).await
            }
            HandlerType::McpTool => self.run_mcp_handler(event, handler, value).await,
            HandlerType::Http => self.run_http_handler(event, handler, value).await,
            HandlerType::Native => {
                self.run_native_handler(event, handler, library, value)
                    .await
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
    pub(crate) fn start_async(
        &self,
        event: &Event,
        handler: &Handler,
        value: &Payload,
    ) -> Finished {
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
        let in_process = self.in_process.clone();
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
            let done = run_command_handler(
                dialect,
                &options,
                &event,
                &handler,
                &value,
                None,
                in_process.as_deref(),
            )
            .await;
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
}

/// A handler whose `onFailure` is `block` and whose run failed (it could not start, timed out,
/// exited other than 0 or 2, printed output the event refuses, or was skipped for any reason
/// but a deliberate one: [`SkipReason::is_deliberate`]) counts as exit 2: a block with the failure as
/// its reason, and what to do (make it run again, or drop `onFailure`; a skip's own reason
/// names the command that lets it run). Not for async hooks, nor on the events of [`OnFailure::IGNORED_ON`], nor on an
/// event that cannot block. The run keeps its own status (`failed`, `timed_out`, `skipped`), so
/// the journal and `hook stats` see a guard that fails; the outcome's decision is the block.
pub(crate) fn on_failure(
    dialect: Dialect,
    event: &Event,
    handler: &Handler,
    done: Finished,
) -> Finished {
    let asks = handler.config.on_failure == Some(OnFailure::Block) && !handler.config.is_async;
    fail_closed(dialect, event, asks, &handler.key, done)
}

/// [`on_failure`] for a run whose handler `key` asked (`asks`) to block when it cannot run:
/// also what a handler that could not be read gets ([`hook_config::Broken::on_failure`]).
pub(crate) fn fail_closed(
    dialect: Dialect,
    event: &Event,
    asks: bool,
    key: &str,
    mut done: Finished,
) -> Finished {
    if !asks || OnFailure::IGNORED_ON.contains(event) || !event.block_effect(dialect).can_block() {
        return done;
    }
    let failed = match done.run.status {
        RunStatus::Failed | RunStatus::TimedOut => true,
        RunStatus::Skipped => !done.run.skip_reason.is_some_and(SkipReason::is_deliberate),
        _ => false,
    };
    if !failed {
        return done;
    }
    // The reason says why and what to do: the agent gives it to the model, which tells the
    // user. A skip's own reason names the hook and the command that lets it run.
    let reason = match (&done.run.error, done.run.status, done.run.skip_reason) {
        (Some(why), RunStatus::Skipped, Some(SkipReason::Invalid)) => format!(
            "hook {key} cannot be read, and it asked to block when it cannot run (onFailure), so this {event} is blocked until it is fixed: {why}. Fix the file (`hook validate --config FILE` shows every problem), or remove its onFailure to let the event go ahead while it is broken"
        ),
        (Some(why), RunStatus::Skipped, _) if why.contains(key) => format!(
            "{why}. Its onFailure is \"block\", so this {event} is blocked until it may run"
        ),
        (why, RunStatus::Skipped, _) => format!(
            "hook {key} did not run ({}) and its onFailure is \"block\", so this {event} is blocked until it may run",
            why.clone().unwrap_or_else(|| "skipped".to_owned())
        ),
        (why, status, _) => format!(
            "hook {key} failed and its onFailure is \"block\", so this {event} is blocked: {}. Make it run again (a program or script that is missing or not on the agent's PATH, a timeout too short), or remove its onFailure \"block\" to let the event go ahead when it fails",
            why.clone()
                .unwrap_or_else(|| format!("it ended {status:?}"))
        ),
    };
    done.run
        .warnings
        .push("onFailure \"block\": the failure blocked the event".to_owned());
    done.response = Some(block(reason));
    done
}

/// A response that blocks, with `reason`.
fn block(reason: String) -> Response {
    let mut response = Response::default();
    response.decision = Some(Decision::Block);
    response.reason = Some(reason);
    response
}

/// Whether `handler` runs in the background on `event` (an `async` command handler where the
/// dialect has async hooks).
pub(crate) fn runs_in_background(dialect: Dialect, event: &Event, handler: &Handler) -> bool {
    matches!(async_mode(dialect, event, handler), AsyncMode::Background)
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
    let why = if !dialect.rules().handlers().async_handlers() {
        format!(
            "{dialect} has no async hooks: `async` is ignored and the hook ran in the foreground"
        )
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
    if matches!(run.status, RunStatus::Blocked | RunStatus::Stopped) {
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use crate::payload::Payload;

    #[test]
    fn the_event_is_serialized_once_and_again_only_after_a_wuu_rewrite() {
        let mut payload =
            Payload::new(json!({"tool_name": "bash", "tool_input": {"command": "ls"}}));
        let shared = payload.clone();
        // Every handler of the dispatch gets the same bytes, not a copy.
        assert!(Arc::ptr_eq(payload.bytes(), shared.bytes()));
        let read = |payload: &Payload| -> serde_json::Value {
            serde_json::from_slice(payload.bytes()).expect("the bytes are the event JSON")
        };
        assert_eq!(
            read(&payload),
            json!({"tool_name": "bash", "tool_input": {"command": "ls"}})
        );
        payload.set_tool_input(json!({"command": "ls -a"}));
        assert_eq!(
            read(&payload),
            json!({"tool_name": "bash", "tool_input": {"command": "ls -a"}})
        );
        assert_eq!(payload["tool_input"]["command"], "ls -a");
        // A handler that already had the event keeps what it was given.
        assert_eq!(shared["tool_input"]["command"], "ls");
    }
}

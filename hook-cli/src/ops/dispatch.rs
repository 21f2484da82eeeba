//! One event dispatched through the hooks as `hook run` (and the relay) run them: trust gates
//! each hook, SIGINT/SIGTERM/SIGHUP kill every running hook, async hooks run to their end after
//! the outcome is out. What is said along the way goes to a [`DispatchReport`] the command
//! gives (this module prints nothing).

use std::sync::Arc;

use anyhow::{Context, Result};
use hook_exec::Hooks;
use hook_protocol::input::EventInput;
use hook_protocol::{Outcome, RunStatus};
use hook_trust::{Refusal, TrustView};

/// `hooks` as `hook run` and `hook relay` run them: `options` with hooks killed when this
/// thread ends, refusals worded by `phrasing` (naming the command that lets a hook run), the
/// ready-made guards answered in process, and the model client of `HOOK_MODEL_URL`.
pub(crate) fn prepare(
    hooks: Hooks,
    options: hook_exec::EngineOptions,
    phrasing: impl Fn(&Refusal) -> String + Send + Sync + 'static,
) -> Hooks {
    // Hooks start on this thread (a current-thread runtime), which lives until the process
    // exits: a SIGKILL of `hook` takes their shells down too (Linux).
    let options = options.with_kill_on_parent_death(true);
    // Trust decides what may run; each skip is also a warning naming the command that lets
    // the hook run.
    let mut hooks = hooks
        .with_engine_options(options)
        .with_refusal_phrasing(phrasing);
    // The ready-made guards' entries (`hook guard run NAME`) are answered in this process,
    // byte for byte what the process would print, without starting one per event.
    hooks = hooks.with_in_process_commands(crate::ops::guard::in_process::GuardCommands);
    // Prompt and agent hooks ask the OpenAI-compatible endpoint named by HOOK_MODEL_URL; with
    // none set, each dialect's rule applies (wuu allows and says so; verboo skips: no_client).
    if let Some(client) = hook_exec::OpenAiCompatibleClient::from_env() {
        hooks = hooks.with_model_client(client);
    }
    hooks
}

/// What a dispatch says along the way, and what it does with the outcome.
pub(crate) trait DispatchReport {
    /// What [`DispatchReport::outcome`] returns.
    type Done;
    /// Whether to preview the status messages of the handlers about to start.
    fn wants_status_messages(&self) -> bool;
    /// The status message of a handler about to start.
    fn status_message(&mut self, message: &str);
    /// The outcome, once every (non-async) hook is done; `view` is the trust it ran under.
    fn outcome(&mut self, view: &TrustView, outcome: &Outcome) -> Result<Self::Done>;
    /// The outcome is complete: async hooks go on, and no more output is due.
    fn outcome_complete(&mut self);
    /// An async hook failed or timed out after the outcome was out.
    fn async_failed(&mut self, key: &str, status: RunStatus, error: &str);
    /// Something went wrong beside the hooks (the journal could not be written).
    fn warning(&mut self, warning: &str);
}

/// How a dispatch ended.
#[derive(Debug)]
pub(crate) enum Dispatched<T> {
    /// Every hook ran (async ones to their end); what the report made of the outcome.
    Done(T),
    /// A signal came: every running hook was killed. Its name and number.
    Interrupted(&'static str, u8),
}

/// Runs `input` through `hooks` (already [`prepare`]d): `report` hears of each step; the
/// journal records the dispatch after the outcome is reported (it can never hold it); async
/// hooks then run to their end. `bytes`, when given, are what the hooks get on stdin instead of
/// `input` serialized (the event as an agent sent it).
pub(crate) fn drive<R: DispatchReport>(
    hooks: Hooks,
    input: &EventInput,
    bytes: Option<Arc<[u8]>>,
    report: &mut R,
) -> Result<Dispatched<R::Done>> {
    let discovery = hooks.discovery().clone();
    let view = hooks.trust().clone();
    let engine = hooks.engine();
    if report.wants_status_messages() {
        // The status messages of the handlers the engine will start, shown before they run.
        for handler in engine.preview(input) {
            if let Some(message) = handler.config.status_message.as_deref() {
                report.status_message(message);
            }
        }
    }
    // One thread: every hook is started (and, on a signal, killed) from this one, and dropping
    // the runtime drops every task at once, on this thread.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let session_id = input.session_id().to_owned();
    let ended = runtime.block_on(async {
        // Listen before the first hook starts, so no signal finds a hook without its killer.
        let signals = Signals::listen().context("cannot listen for signals")?;
        let signal = signals.received();
        tokio::pin!(signal);
        let outcome = tokio::select! {
            outcome = async {
                match bytes {
                    Some(bytes) => engine.dispatch_bytes(input, bytes).await,
                    None => engine.dispatch(input).await,
                }
            } => outcome,
            // Dropping the dispatch (the other branch) kills every hook group still running.
            (name, number) = &mut signal => return Ok::<_, anyhow::Error>(Dispatched::Interrupted(name, number)),
        };
        let done = report.outcome(&view, &outcome)?;
        // After the outcome is written: the journal can never hold it.
        if let Some(warning) = super::journal::record("run", &discovery, input, &outcome, None, None, None) {
            report.warning(&warning);
        }
        if engine.pending_async(&session_id) == 0 {
            return Ok(Dispatched::Done(done));
        }
        // The outcome is complete: the caller reads it up to the end of stdout now. Async
        // hooks still run to their end or their own timeout; their failures are reported.
        report.outcome_complete();
        tokio::select! {
            results = engine.collect_async(&session_id, None) => {
                for result in results {
                    if let Some(error) = &result.run.error {
                        report.async_failed(&result.run.key, result.run.status, error);
                    }
                }
                Ok(Dispatched::Done(done))
            }
            // Dropping the collection, then the engine, kills every async group still running.
            (name, number) = &mut signal => Ok(Dispatched::Interrupted(name, number)),
        }
    });
    // Anything still running (after a signal) is cancelled: dropping the engine aborts its
    // tasks, and the runtime drops them (killing their groups) without waiting for a native
    // call that timed out: its thread cannot be stopped and must not keep `hook run` alive.
    drop(hooks);
    runtime.shutdown_background();
    ended
}

/// The signals that interrupt `hook run` and `hook relay`: SIGINT, SIGTERM and SIGHUP (Ctrl-C on Windows).
pub(crate) struct Signals {
    #[cfg(unix)]
    streams: [(tokio::signal::unix::Signal, &'static str, u8); 3],
}

impl Signals {
    /// Starts listening; from now on these signals no longer end the process by themselves.
    pub(crate) fn listen() -> std::io::Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Signals {
                streams: [
                    (signal(SignalKind::interrupt())?, "SIGINT", 2),
                    (signal(SignalKind::terminate())?, "SIGTERM", 15),
                    (signal(SignalKind::hangup())?, "SIGHUP", 1),
                ],
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Signals {})
        }
    }

    /// The first signal received: its name and number.
    pub(crate) async fn received(self) -> (&'static str, u8) {
        #[cfg(unix)]
        {
            let [(mut int, a, na), (mut term, b, nb), (mut hup, c, nc)] = self.streams;
            tokio::select! {
                _ = int.recv() => (a, na),
                _ = term.recv() => (b, nb),
                _ = hup.recv() => (c, nc),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            ("Ctrl-C", 2)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::ops::scene::Scene;
    use hook_protocol::{Decision, Dialect};

    /// A report that keeps what it hears.
    #[derive(Default)]
    struct Heard {
        messages: Vec<String>,
        decisions: Vec<Decision>,
        complete: bool,
    }

    impl DispatchReport for Heard {
        type Done = usize;
        fn wants_status_messages(&self) -> bool {
            true
        }
        fn status_message(&mut self, message: &str) {
            self.messages.push(message.to_owned());
        }
        fn outcome(&mut self, _: &TrustView, outcome: &Outcome) -> Result<usize> {
            self.decisions.push(outcome.decision);
            Ok(outcome.runs.len())
        }
        fn outcome_complete(&mut self) {
            self.complete = true;
        }
        fn async_failed(&mut self, _: &str, _: RunStatus, _: &str) {}
        fn warning(&mut self, warning: &str) {
            panic!("{warning}");
        }
    }

    #[test]
    fn an_event_runs_through_the_hooks_and_the_report_hears_each_step() {
        let scene = Scene::new();
        scene.write(
            "home/.claude/settings.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo no >&2; exit 2", "statusMessage": "checking"},
                {"type": "command", "command": "exit 0"}]}]}}"#,
        );
        let location = scene.location(Dialect::Verboo, ".claude");
        let hooks = prepare(
            location.hooks().unwrap().0,
            hook_exec::EngineOptions::default(),
            |refusal: &Refusal| refusal.to_string(),
        );
        let input = hook_protocol::input::input_from_value(
            Dialect::Verboo,
            serde_json::json!({
                "session_id": "s", "transcript_path": "/t",
                "cwd": scene.project().display().to_string(),
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "ls"}, "permission_mode": "default", "tool_use_id": "u"
            }),
        )
        .unwrap();
        let mut heard = Heard::default();
        let Dispatched::Done(runs) = drive(hooks, &input, None, &mut heard).unwrap() else {
            panic!("no signal was sent")
        };
        assert_eq!(runs, 2);
        assert_eq!(heard.messages, ["checking"]);
        assert_eq!(heard.decisions, [Decision::Block]);
        assert!(
            !heard.complete,
            "no async hook: nothing runs after the outcome"
        );
    }
}

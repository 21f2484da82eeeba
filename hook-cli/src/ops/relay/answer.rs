//! What `hook relay` does with one event: the engine inside an agent that calls it as its one
//! hook. Nothing here prints: the command reads, prepares, dispatches and answers through these
//! steps, and `ui::relay::answer` writes the answer in the agent's format.
//!
//! The agent (Claude Code for verboo, Codex for lime) sends one event on stdin; the relay loads
//! its own hooks (the `hook-relay` folders, apart from the agent's own entries so nothing runs
//! twice), dispatches them with trust, and answers in the agent's own wire format
//! (`ui::relay::answer::agent_reply`, by `hook_protocol::write::agent_reply`, which holds the rules of the
//! answer below: where each field goes, the read-back, exit code 2). Choices:
//!
//! - **It fails closed.** Both agents read a hook's exit 1, a crash or a timeout as "hook error,
//!   go ahead", so a relay that guards must never end that way on an event it could not
//!   evaluate. Whatever keeps the event from being evaluated — stdin unreadable, not JSON, over
//!   64 MiB or empty; no event name, or another one than the entry's `--event`; a field the
//!   engine needs (`cwd`, and what the matchers test) missing or of the wrong type; a `cwd` that
//!   is not a directory; a configuration that cannot be loaded; SIGINT, SIGTERM or SIGHUP
//!   before the answer; a panic — is answered as a **block** on every event that can block:
//!   exit 2 with the reason on stderr (both agents' block there, whatever the event's JSON), and
//!   the event's JSON block form on stdout too where it has one (both agents ignore stdout beside
//!   exit 2). On an event that cannot block, the failure is said in `systemMessage` and on
//!   stderr, exit 0. With no event known at all (garbage on stdin and no `--event`), exit 2.
//!   A `Stop` or `SubagentStop` that cannot be read therefore keeps the agent working, with the
//!   reason: the rule is the same on every event that can block.
//! - **What the agents really send is read** ([`hook_protocol::input::read_agent_event`]): lone
//!   surrogate escapes, nesting past 128 levels, fields a newer or older agent adds or leaves out. The hooks get
//!   the agent's bytes as they were sent ([`hook_exec::Engine::dispatch_bytes`]); only the
//!   fields the engine needs must make sense.
//! - **A broken relay file is not such a failure**: its handlers are left out on their own
//!   (`invalid`), the others run, and the user is told on every event, so a project's file
//!   cannot make the agent refuse everything by a typo — unless a guard in it asked for
//!   `onFailure: "block"` (read leniently, [`hook_config::Broken::on_failure`]): that guard's
//!   events are then blocked until the file is fixed, as any guard that cannot run.
//! - **The answer is never held**: `async` hooks are not run by the process that answers. It
//!   starts this program again (`--async-waiter`, hidden) in a session of its own with the
//!   event on stdin ([`hook_exec::detach`]); that process runs only the event's async hooks,
//!   each bounded by its own timeout, and outlives the relay. The agent waits only for the
//!   answer. What an async hook prints has no one to go to (Claude Code would show it on the
//!   next turn): a limitation.
//! - **Every field goes where the event's output schema has it**; what the event cannot carry
//!   (context on an event without `additionalContext`, say) is said on stderr and, where the
//!   event has one, in `systemMessage`; context that has nowhere to go joins a block's reason.
//! - **A block** is written as the event's JSON field (`permissionDecision: "deny"`,
//!   `hookSpecificOutput.decision.behavior: "deny"`, `decision: "block"`) when the dialect's
//!   reader (the engine's, checked against the real agents) reads it back as a block; otherwise
//!   as exit code 2 with the reason on stderr, which both agents read as a block where one is
//!   possible.
//! - **Skipped hooks** (untrusted, modified, invalid) are named in `systemMessage` and on
//!   stderr with the command that lets them run: never silently left out.
//! - **A guard that could not do its job** on an event that can block (failed, timed out,
//!   skipped as untrusted or modified) is named in `systemMessage` once per session, with
//!   whether the event went ahead and what to do ([`unguarded`]). On `SessionStart`,
//!   every relay hook of any event that waits for trust is announced at the top of the
//!   session, not only on the event it would have guarded.
//! - **`systemMessage` is shown on the agent's screen**: its control characters and
//!   bidirectional overrides are escaped as everything `hook` prints for a person.
//! - **`CLAUDE_ENV_FILE`**: what the relay's hooks write to theirs (the engine gives each
//!   dispatch a private one) is appended to the agent's own file, on a line of its own, never
//!   through a symlink and never waiting on a FIFO; where the agent gave none, or it cannot be
//!   written, `systemMessage` says the environment was not kept.

pub(crate) mod claude_guards;
mod complete;
mod fail_closed;
mod session;
mod unguarded;

pub(crate) use complete::{Answer, answer};
pub(crate) use fail_closed::{FailClosed, fail_closed};
pub(crate) use session::agent_path;

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use hook_exec::{AsyncHandlers, EngineOptions, Hooks};
use hook_protocol::input::{EventInput, read_agent_event};
use hook_protocol::{Dialect, Event, Outcome};

use crate::ops::dispatch::{Signals, prepare as prepare_hooks};
use crate::ops::location::Location;
use crate::ops::relay::agents::translated::{Caller, Translation, translate_event};

/// Claude Code's project variable, which the relay sets for its hooks in every agent.
const CLAUDE_PROJECT_DIR: &str = "CLAUDE_PROJECT_DIR";

/// What `hook relay` was started with.
#[derive(Debug, Clone)]
pub(crate) struct AnswerOptions {
    /// The agent's dialect: verboo (Claude Code) or lime (Codex); verboo for an agent whose
    /// events are translated.
    pub(crate) dialect: Dialect,
    /// The agent whose events are translated into Claude Code's (`--agent qwen|gemini|copilot`,
    /// or seen by its variable), and how it was known.
    pub(crate) translated: Option<(&'static Translation, Caller)>,
    /// That agent's own name of the event the entry was installed for (its `--event`).
    pub(crate) agent_event: Option<String>,
    /// The event the entry was installed for (`--event`).
    pub(crate) event: Option<Event>,
    /// The project (default: `CLAUDE_PROJECT_DIR`, else the event's `cwd`).
    pub(crate) project: Option<PathBuf>,
    /// Replaces the dialect's home.
    pub(crate) home: Option<PathBuf>,
    /// Only the relay hooks of this scope (`--scope`; `None`: both).
    pub(crate) scope: Option<super::RelayScope>,
    /// Run only the event's `async` hooks, to their end (`--async-waiter`).
    pub(crate) async_waiter: bool,
    /// The timeout, in seconds, of the agent's entry that started this relay
    /// (`--entry-timeout`); `None` when the entry does not say (an older install).
    pub(crate) entry_timeout: Option<u64>,
    /// Replaces Claude Code's home for the Claude Code guards Codex's relay runs too
    /// (`--claude-home`, hidden; [`claude_guards`]); `None`: the user's (`CLAUDE_CONFIG_DIR`,
    /// else `~/.claude`).
    pub(crate) claude_home: Option<PathBuf>,
}

/// Whether `dialect` has an agent the relay speaks for.
///
/// # Errors
///
/// For wuu, whose agents embed the engine.
pub(crate) fn check_dialect(dialect: Dialect) -> Result<()> {
    if dialect.rules().agent().relay().is_none() {
        bail!(
            "hook relay speaks for Claude Code (--dialect verboo) and Codex (--dialect lime); {dialect} agents embed the engine"
        );
    }
    Ok(())
}

/// The one thread every hook is started (and, on a signal, killed) from, and the signals
/// listened for from the start, so a SIGTERM while the input is read is answered.
pub(crate) struct Runtime {
    runtime: tokio::runtime::Runtime,
    signals: Option<Signals>,
}

/// Starts the runtime and listens for signals.
///
/// # Errors
///
/// When either cannot start.
pub(crate) fn start() -> Result<Runtime> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let signals = {
        let _entered = runtime.enter();
        Signals::listen().context("cannot listen for signals")?
    };
    Ok(Runtime {
        runtime,
        signals: Some(signals),
    })
}

impl Runtime {
    /// Ends the runtime without waiting: every hook the dispatch started is gone with it; a
    /// native call that timed out keeps a thread that cannot be stopped and must not keep the
    /// agent waiting.
    pub(crate) fn shut_down(self) {
        self.runtime.shutdown_background();
    }
}

/// The event the agent sent, read.
pub(crate) struct Received {
    input: EventInput,
    /// The agent's bytes, as the hooks get them.
    bytes: Arc<[u8]>,
    /// What was tolerated in them (a lone surrogate, a field of the wrong type the engine does
    /// not need), each a line for stderr.
    pub(crate) tolerated: Vec<String>,
}

impl Received {
    /// The event input.
    pub(crate) fn input(&self) -> &EventInput {
        &self.input
    }
}

/// Reads the event the agent sent (`bytes`, [`read_event_bytes`]); `known` learns the event as
/// soon as it is known (so that a failure after is answered in the event's own form).
///
/// # Errors
///
/// When `bytes` are not an event the relay can evaluate (see [`read_agent_event`]).
pub(crate) fn receive(
    options: &AnswerOptions,
    bytes: Vec<u8>,
    known: &RefCell<Option<Event>>,
) -> Result<Received> {
    let dialect = options.dialect;
    let bytes = match options.translated {
        Some(agent) => {
            let (agent, caller) = agent;
            let translated =
                translate_event(agent, caller, &bytes, options.agent_event.as_deref())?;
            *known.borrow_mut() = Some(translated.event);
            translated.bytes
        }
        None => bytes,
    };
    let agent_event = match read_agent_event(dialect, &bytes, options.event.as_ref()) {
        Ok(event) => event,
        Err(error) => {
            // An entry and an event that disagree are answered as the one that can block
            // (a typo in `--event` must not let a guard's event through).
            if let hook_protocol::input::InputError::EventMismatch { found, .. } = &error {
                let found = Event::from_name(found);
                if found.block_effect(dialect).can_block() {
                    *known.borrow_mut() = Some(found);
                }
            }
            // Answer in the event's own form when its name, at least, can be read.
            if known.borrow().is_none() {
                *known.borrow_mut() = serde_json::from_slice::<serde_json::Value>(&bytes)
                    .ok()
                    .and_then(|v| v.get("hook_event_name")?.as_str().map(Event::from_name));
            }
            return Err(error).context("cannot read the event the agent sent");
        }
    };
    let input = agent_event.input;
    *known.borrow_mut() = Some(input.event());
    Ok(Received {
        input,
        bytes: bytes.into(),
        tolerated: agent_event
            .tolerated
            .iter()
            .map(|note| format!("hook relay: {note}"))
            .collect(),
    })
}

/// The agent's stdin, whole and bounded.
///
/// # Errors
///
/// When stdin cannot be read, is over 64 MiB or is empty.
pub(crate) fn read_event_bytes(stdin: &mut crate::ops::input::Stdin) -> Result<Vec<u8>> {
    let bytes = stdin.read_all("the event on stdin")?;
    if bytes.trim_ascii().is_empty() {
        bail!("stdin is empty: the agent sent no event");
    }
    Ok(bytes)
}

/// The relay's hooks of the event's project, loaded and ready to dispatch.
pub(crate) struct Prepared {
    location: Location,
    hooks: Hooks,
    /// What moving the relay's state from an earlier version's place said.
    moved: crate::ops::state::Settled,
}

impl Prepared {
    /// The configuration's diagnostics (the relay's state moved, broken relay files, handlers
    /// left out).
    pub(crate) fn diagnostics(&self) -> Vec<hook_config::Diagnostic> {
        let mut all = self.moved.diagnostics();
        all.extend(self.hooks.diagnostics().iter().cloned());
        all
    }

    /// Where the hooks were found, and where their state is (the journal's folder:
    /// [`hook_config::Discovery::state_dir`]).
    pub(crate) fn discovery(&self) -> &hook_config::Discovery {
        self.hooks.discovery()
    }

    /// The trust the hooks ran under (what a skip warning names).
    pub(crate) fn trust(&self) -> &hook_trust::TrustView {
        self.hooks.trust()
    }

    /// The project the hooks were loaded for.
    pub(crate) fn project(&self) -> Option<PathBuf> {
        self.location.project.clone()
    }
}

/// Where the relay's hooks for the event are: the project of `--project`, else the agent's
/// project variable, else the event's `cwd`.
///
/// # Errors
///
/// When the event's `cwd` is not a directory (no hook could start there: an error the agent
/// would let through).
pub(crate) fn locate(options: &AnswerOptions, received: &Received) -> Result<Location> {
    let input = &received.input;
    let dialect = options.dialect;
    if !std::path::Path::new(input.cwd()).is_dir() {
        // A hook that cannot start there would be an error the agent lets through.
        bail!(
            "the event's cwd {} is not a directory: no hook can run there",
            input.cwd()
        );
    }
    let project = match &options.project {
        Some(project) => project.clone(),
        None => dialect
            .rules()
            .input()
            .project_dir_env()
            .and_then(std::env::var_os)
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(input.cwd())),
    };
    Ok(Location {
        dialect,
        project: Some(project),
        home: options.home.clone(),
        relay: true,
    })
}

/// Loads the relay's hooks at `location`, ready to dispatch: refusals worded by `phrasing`
/// (naming the command that lets a hook run).
///
/// # Errors
///
/// When the configuration cannot be loaded.
pub(crate) fn prepare(
    options: &AnswerOptions,
    location: Location,
    phrasing: impl Fn(&hook_trust::Refusal) -> String + Send + Sync + 'static,
) -> Result<Prepared> {
    let (hooks, moved): (Hooks, _) = match options.scope {
        // The entry of one scope runs that scope's relay hooks: the other scope's entry, if
        // the agent runs it too on this call, runs the others.
        Some(scope) => {
            let load = location
                .load_options()?
                .with_only_layers(scope.file_layers().iter().copied());
            let moved = crate::ops::location::settle_state(&load);
            let hooks = Hooks::load(load).context("cannot load the hook configuration")?;
            (hooks, moved)
        }
        None => location.hooks()?,
    };
    let handling = if options.async_waiter {
        AsyncHandlers::Only
    } else {
        AsyncHandlers::Deferred
    };
    // The same guard in every agent: a hook written for Claude Code finds its project in
    // `CLAUDE_PROJECT_DIR` under Codex too (which sets none), and any hook in the neutral
    // `HOOK_PROJECT_DIR` the engine sets.
    let mut engine_options = EngineOptions::default().with_async_handlers(handling);
    if let Some(project) = &location.project {
        engine_options = engine_options
            .with_project_dir(project.clone())
            .with_env(CLAUDE_PROJECT_DIR, project.display().to_string());
    }
    let hooks = prepare_hooks(hooks, engine_options, phrasing);
    Ok(Prepared {
        location,
        hooks,
        moved,
    })
}

/// Dispatches the event through the relay's hooks, then through `guards` (the Claude Code
/// guards Codex's relay runs too, [`claude_guards`]) with their outcome beside; `None` for the
/// async waiter, which has no one to answer.
///
/// # Errors
///
/// When SIGINT, SIGTERM or SIGHUP arrives before the hooks are done (every hook still running
/// is killed).
pub(crate) fn dispatch(
    options: &AnswerOptions,
    prepared: &Prepared,
    received: &Received,
    guards: Option<&claude_guards::Guards>,
    runtime: &mut Runtime,
) -> Result<Option<(Outcome, Option<Outcome>)>> {
    let signals = runtime
        .signals
        .take()
        .context("the relay dispatches one event")?;
    let input = &received.input;
    let session_id = input.session_id().to_owned();
    runtime.runtime.block_on(async {
        let signal = signals.received();
        tokio::pin!(signal);
        let engine = prepared.hooks.engine();
        let deadline = answer_deadline(options);
        // At the same time, so that the entry's timeout (the longest of both) covers both.
        let theirs = async {
            match guards {
                Some(guards) => Some(
                    guards
                        .prepared
                        .hooks
                        .engine()
                        .dispatch_bytes(&guards.received.input, Arc::clone(&guards.received.bytes))
                        .await,
                ),
                None => None,
            }
        };
        let both = async {
            tokio::join!(
                engine.dispatch_bytes(input, Arc::clone(&received.bytes)),
                theirs
            )
        };
        let outcome = tokio::select! {
            outcome = both => outcome,
            // Dropping the dispatch kills every hook group still running.
            (name, _) = &mut signal => return Err(anyhow::anyhow!("{name} received before the hooks were done")),
            () = sleep_until(deadline) => return Err(anyhow::anyhow!(
                "its hooks were still running {} s into the {} s the agent's entry gives the relay, and the agent reads a relay it stops as \"go ahead\": give the entry the guards' time with `hook relay sync`, or shorten the guards' timeouts",
                deadline.map_or(0, |d| d.as_secs()),
                options.entry_timeout.unwrap_or_default(),
            )),
        };
        if options.async_waiter {
            // Bounded by each hook's own timeout; no one is waiting for an answer.
            let theirs = async {
                if let Some(guards) = guards {
                    guards.prepared.hooks.engine().collect_async(&session_id, None).await;
                }
            };
            tokio::select! {
                _ = async { tokio::join!(engine.collect_async(&session_id, None), theirs) } => {}
                _ = &mut signal => {}
            }
            return Ok(None);
        }
        Ok(Some(outcome))
    })
}

/// How long the relay may wait for its hooks before it must answer: a second short of the
/// entry's timeout (`--entry-timeout`), so that the agent never stops it first; `None` (no
/// limit beyond each hook's own) for the async waiter, which answers no one, and for an entry
/// that does not say.
fn answer_deadline(options: &AnswerOptions) -> Option<std::time::Duration> {
    if options.async_waiter {
        return None;
    }
    let seconds = options.entry_timeout?.checked_sub(1).filter(|s| *s > 0)?;
    Some(std::time::Duration::from_secs(seconds))
}

/// Waits `deadline`, or forever.
async fn sleep_until(deadline: Option<std::time::Duration>) {
    match deadline {
        Some(deadline) => tokio::time::sleep(deadline).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests;

//! The outcome of a dispatch completed into the relay's answer: what the relay says beside
//! the hooks' own result (relay hooks that will not run, a newer agent's event, guards that
//! could not do their job, an entry whose timeout is too short for its guards, the session
//! environment), and the async waiter started.

use hook_exec::Hooks;
use hook_protocol::{Event, Outcome, RunStatus};
use hook_trust::TrustStatus;

use super::{AnswerOptions, Prepared, Received, Runtime, session, unguarded};
use crate::ops::location::Location;
use crate::ops::relay::agents::translated::Caller;
use crate::ops::relay::read::guest_reach::guest_unreached_in_scope;

/// The outcome to answer with, and what is said beside it on stderr.
pub(crate) struct Answer {
    /// What the agent gets, in its format (`ui::relay::answer::agent_reply`).
    pub(crate) outcome: Outcome,
    /// The event is one this version does not know (stderr, after the reason of a block).
    pub(crate) unknown_event: Option<String>,
    /// Lines taken out of `systemMessage` (a guard's failure, said once per session): for
    /// stderr, every time.
    pub(crate) moved_to_stderr: Vec<String>,
}

/// Completes the outcome of a dispatch into the answer: on `SessionStart` the relay hooks that
/// will not run; a newer agent's event said; the session environment the hooks wrote
/// forwarded to the agent's; the async waiter started (before the answer, so that a waiter
/// that cannot start is said in it).
pub(crate) fn answer(
    options: &AnswerOptions,
    prepared: &Prepared,
    received: &Received,
    mut outcome: Outcome,
    runtime: &Runtime,
) -> Answer {
    let (hooks, location, input) = (&prepared.hooks, &prepared.location, &received.input);
    let dialect = options.dialect;
    if input.event() == Event::SessionStart {
        // Said at the top of every session, not only on the event a guard would have guarded:
        // relay hooks waiting for trust, and relay hooks no agent entry starts the relay for.
        let (project, home) = (location.project.as_deref(), location.home.as_deref());
        let unreached = match (options.translated, options.scope) {
            // Started by an agent's own entry (`--agent NAME`): reached through its entries.
            (Some((agent, Caller::Named)), scope) => {
                guest_unreached_in_scope(agent, project, home, scope)
            }
            (_, Some(scope)) => {
                crate::ops::relay::read::reach::unreached_in_scope(dialect, project, home, scope)
            }
            (_, None) => crate::ops::relay::unreached_relay_hooks(dialect, project, home),
        };
        // The guards written for Claude Code that Codex's relay runs too.
        let unreached: Vec<String> = unreached
            .into_iter()
            .chain(
                crate::ops::relay::read::claude_guards::unreached_guest_guards(
                    dialect,
                    project,
                    options.claude_home.as_deref(),
                    options.scope,
                ),
            )
            .collect();
        if !unreached.is_empty() {
            outcome.system_messages.insert(
                0,
                format!(
                    "hook relay: {} relay hook(s) will not run: {}",
                    unreached.len(),
                    unreached.join("; ")
                ),
            );
        }
        if let Some(announcement) = untrusted_relay_hooks(hooks, location) {
            outcome.system_messages.insert(0, announcement);
        }
    }
    // The relay's state moved from an earlier version's place: said once, where the user
    // sees it (stderr alone is not shown by either agent on a quiet run).
    if let Some(moved) = &prepared.moved.moved {
        outcome
            .system_messages
            .push(format!("hook relay: {}: {}", moved.path, moved.message));
    }
    // A newer agent's event: its relay hooks ran, and a block is answered as exit 2, which the
    // agent applies where the event can block (`BlockEffect::Unknown`). Said on screen, and on
    // stderr after the reason of a block (what the agent gives the model comes first).
    let unknown_event =
        (!dialect.rules().knows(&input.event())).then(|| unknown_event_note(&input.event()));
    if let Some(note) = &unknown_event {
        outcome.system_messages.push(note.clone());
    }
    // A guard that could not do its job, named on the agent's screen once per session.
    let state = prepared.discovery();
    let moved_to_stderr =
        unguarded::name_unguarded(dialect, state, input.session_id(), &mut outcome);
    if let Some(entry_timeout) = options.entry_timeout {
        // `sync` takes the place flags, not `--relay` (it is the relay's own command).
        let place = Location {
            relay: false,
            ..location.clone()
        };
        let sync = format!("hook relay sync --dialect {dialect}{}", place.flags());
        let notes = unguarded::name_short_entry(
            dialect,
            state,
            input.session_id(),
            entry_timeout,
            hooks.engine().registry().handlers(),
            &input.event(),
            &sync,
        );
        outcome.system_messages.extend(notes);
    }
    if let Some(env) = outcome.session_env.take() {
        outcome
            .system_messages
            .push(session::forward_session_env(&env));
    }
    if outcome
        .runs
        .iter()
        .any(|run| run.status == RunStatus::Async)
    {
        // Started before the answer, so that a waiter that cannot start is said in it.
        let started =
            runtime
                .runtime
                .block_on(session::start_async_waiter(options, input, &received.bytes));
        if let Err(error) = started {
            outcome.system_messages.push(format!(
                "hook relay: the async hooks did not run: {error:#}"
            ));
        }
    }
    Answer {
        outcome,
        unknown_event,
        moved_to_stderr,
    }
}

/// What the relay says of an event this version does not know.
pub(super) fn unknown_event_note(event: &Event) -> String {
    format!(
        "hook relay: {event} is an event hook {} does not know (a newer agent's): its relay hooks ran, and a block from any of them is answered with exit 2, which the agent applies where it can; upgrade hook to read the event's own fields",
        env!("CARGO_PKG_VERSION")
    )
}

/// The relay hooks, of any event, that will not run until trusted (new or changed since they
/// were), as one message naming each and the commands that review and trust them.
fn untrusted_relay_hooks(hooks: &Hooks, location: &Location) -> Option<String> {
    let view = hooks.trust();
    let waiting: Vec<String> = hooks
        .engine()
        .registry()
        .handlers()
        .iter()
        .filter_map(|handler| {
            let status = view.evaluate(handler).status;
            matches!(status, TrustStatus::Untrusted | TrustStatus::Modified).then(|| {
                format!(
                    "{} on {} ({status}): {}",
                    handler.key,
                    handler.event,
                    handler.config.summary()
                )
            })
        })
        .collect();
    if waiting.is_empty() {
        return None;
    }
    let flags = location.flags();
    Some(format!(
        "hook relay: {} relay hook(s) will not run until you trust them on this machine: {}. Turn them on with `hook trust --dialect {}{flags} --all` (review them first: `hook list --dialect {}{flags}`; one at a time: `hook trust --dialect {}{flags} KEY`)",
        waiting.len(),
        waiting.join("; "),
        location.dialect,
        location.dialect,
        location.dialect,
    ))
}

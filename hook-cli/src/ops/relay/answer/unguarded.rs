//! A relay hook that could not do its job on an event that can block, named on the agent's
//! screen at the time, once per session.
//!
//! A guard that fails (its program is gone from the agent's `PATH`: exit 127), times out, is
//! skipped for any reason that is not deliberate (untrusted, changed since trusted, a file or
//! field that cannot be read, a type the relay cannot run: `mcp_tool`, `prompt`, `agent`), or
//! answers while its stderr says a program it needs is missing (`jq: command not found`, exit
//! 0: [`hook_protocol::text::missing_program`]) lets the call through — unless it asked for
//! `onFailure: "block"` — and both agents show a hook's stderr only in a verbose view. (A
//! missing program with exit 0 stays an allow: the guard's exit code is its answer, and a
//! stderr line is a hint, not a decision; it is flagged, here and in `hook stats`, status and
//! doctor, so that the guard gets fixed.) So the
//! relay names it in `systemMessage`, which both agents show the user: what happened, whether
//! the event went ahead, and what to do. Once per session and hook: the guard's every call
//! would otherwise repeat it. The engine's own line for a failure (`hook KEY failed: ...`) is
//! replaced by the note the first time and left out of `systemMessage` after (it goes to
//! stderr instead, and the journal keeps every run; `hook stats` flags the hook while it
//! fails). A skip's own line (untrusted, modified: with the command that lets it run) stays on
//! every event, as every skip is said: the note adds that the event went ahead without it.

use hook_protocol::{Decision, Dialect, Outcome, Run, RunStatus, SkipReason};

use super::session::first_in_session;

/// How `run` kept its hook from doing its job, or `None` when it did (or was switched off on
/// purpose: disabled, turned off by a settings switch). Every skip that is not deliberate
/// counts, a reason a later version adds included ([`SkipReason::is_deliberate`]).
fn failure(run: &Run) -> Option<&'static str> {
    match (run.status, run.skip_reason) {
        (RunStatus::Failed, _) => Some("it failed"),
        (RunStatus::TimedOut, _) => Some("it timed out"),
        (RunStatus::Skipped, Some(reason)) if reason.is_deliberate() => None,
        (RunStatus::Skipped, Some(SkipReason::Untrusted)) => Some("it is not trusted"),
        (RunStatus::Skipped, Some(SkipReason::Modified)) => Some("it changed since it was trusted"),
        (RunStatus::Skipped, Some(SkipReason::Invalid)) => Some("it cannot be read"),
        (RunStatus::Skipped, Some(SkipReason::NoClient | SkipReason::Unsupported)) => {
            Some("the relay cannot run its type")
        }
        (RunStatus::Skipped, _) => Some("it did not run"),
        // It ran and answered, but its stderr says a program it needs is missing: what it
        // answered was not its judgement.
        (RunStatus::Ok | RunStatus::Blocked | RunStatus::Stopped, _)
            if run.missing_program().is_some() =>
        {
            Some("a program it needs is missing")
        }
        _ => None,
    }
}

/// On an event that can block: each relay hook that could not do its job is named in
/// `outcome`'s messages the first time in `session` (remembered in the relay's state folder of
/// `discovery`); after that the
/// engine's own line about its failure is taken out of them. Returns the lines taken out (for
/// stderr).
pub(super) fn name_unguarded(
    dialect: Dialect,
    discovery: &hook_config::Discovery,
    session: &str,
    outcome: &mut Outcome,
) -> Vec<String> {
    if !outcome.event.block_effect(dialect).can_block() {
        return Vec::new();
    }
    let blocked = outcome.decision == Decision::Block;
    let mut notes = Vec::new();
    let mut replaced = Vec::new();
    for run in &outcome.runs {
        let Some(how) = failure(run) else { continue };
        if run.status != RunStatus::Skipped {
            // The engine says each failure as `hook KEY failed: ...` (hook-exec's combine).
            replaced.push(format!("hook {} failed: ", run.key));
        }
        if first_in_session(discovery, session, &run.key) {
            notes.push(note(dialect, outcome, run, how, blocked));
        }
    }
    let mut taken = Vec::new();
    outcome.system_messages.retain(|message| {
        let replace = replaced
            .iter()
            .any(|prefix| message.starts_with(prefix.as_str()));
        if replace {
            taken.push(message.clone());
        }
        !replace
    });
    outcome.system_messages.extend(notes);
    taken
}

/// What the user reads the first time: the hook, how it failed and why, whether the event went
/// ahead, and what to do.
fn note(dialect: Dialect, outcome: &Outcome, run: &Run, how: &str, blocked: bool) -> String {
    let answered = matches!(
        run.status,
        RunStatus::Ok | RunStatus::Blocked | RunStatus::Stopped
    );
    let event_went = match (blocked, run.status) {
        (true, _) => "the event was blocked",
        (false, RunStatus::Ok) => "the event went ahead on a check that did not run",
        (false, _) => "the event went ahead without it",
    };
    let or_block = if blocked {
        ""
    } else {
        ", or give it `onFailure: \"block\"` so that the event is blocked whenever it cannot run"
    };
    let doctor = format!("`hook doctor --dialect {dialect}` checks it where the agent runs it");
    let error = run
        .error
        .as_deref()
        .map(|error| format!(": {error}"))
        .unwrap_or_default();
    let (why, fix) = match (run.status, run.skip_reason) {
        (RunStatus::Skipped, Some(SkipReason::NoClient | SkipReason::Unsupported)) => (
            error,
            format!(
                " The relay runs `command` and `http` hooks: this `{}` hook needs a client the relay does not have (an `mcp_tool` hook the agent's own MCP connection; a `prompt` or `agent` hook a model, HOOK_MODEL_URL). Write this guard as a `command` hook{or_block}.",
                run.handler_type
            ),
        ),
        (RunStatus::Skipped, Some(SkipReason::Invalid)) => (
            error,
            format!(" Fix the file (`hook validate --config FILE` shows every problem){or_block}."),
        ),
        // A skip's own line, beside this one, names the command that lets it run.
        (RunStatus::Skipped, _) => (String::new(), String::new()),
        _ if answered => {
            let program = run.missing_program().unwrap_or_default();
            (
                format!(
                    ": its stderr says `{program}` was not found, yet it exited as if it had checked"
                ),
                format!(
                    " Install `{program}` where the agent runs hooks, or put it on the agent's PATH ({doctor}); make the guard exit non-zero when a program it needs is missing, and give it `onFailure: \"block\"`."
                ),
            )
        }
        _ => (error, format!(" Fix it ({doctor}){or_block}.")),
    };
    // A skip's own line, beside this one, names the hook and the command that lets it run:
    // the key is said there, not twice more here.
    let guard = match (run.status, run.skip_reason) {
        (RunStatus::Skipped, Some(SkipReason::Untrusted | SkipReason::Modified)) => {
            "a guard (named below)".to_owned()
        }
        _ => format!("guard {}", run.key),
    };
    format!(
        "hook relay: {guard} could not do its job on this {} ({how}{why}), so {event_went}.{fix} Said once per session; `hook stats` flags it while it fails.",
        outcome.event
    )
}

/// The relay hooks of `event` whose own timeout the agent's entry does not cover: the agent
/// gives the relay `entry_timeout` seconds, and a guard allowed to run longer would be cut off
/// by the agent, which reads that as "go ahead". Each is named once per session, with the
/// command that rewrites the entry's timeout (`hook relay sync`, which sets it from the guards').
/// Async hooks run after the answer, outside the entry's time.
pub(super) fn name_short_entry(
    dialect: Dialect,
    discovery: &hook_config::Discovery,
    session: &str,
    entry_timeout: u64,
    handlers: &[hook_config::Handler],
    event: &hook_protocol::Event,
    sync: &str,
) -> Vec<String> {
    use crate::ops::relay::read::entries;
    handlers
        .iter()
        .filter(|handler| handler.event == *event)
        // What `install` and `sync` would give an entry for this guard alone (the agent's own
        // bound included): more than the entry has is a guard the entry does not cover.
        .filter(|handler| {
            let waited = entries::waited_for(&[handler]);
            !waited.is_empty() && entries::entry_timeout(dialect, event, &waited) > entry_timeout
        })
        .filter(|handler| first_in_session(discovery, session, &format!("entry-timeout:{}", handler.key)))
        .map(|handler| {
            format!(
                "hook relay: guard {} may run for {} s, but the agent's {event} entry gives the relay {entry_timeout} s: a guard still running then is cut off with the relay, and the agent goes ahead. The relay answers before then (a block when the event can block); run `{sync}` to give the entry the guards' time ({dialect}). Said once per session.",
                handler.key,
                handler.timeout.as_secs_f64(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hook_protocol::{Event, HandlerType, Layer, Source};

    /// An outcome of `event` with one run of `key` ended as `status` (and `skip`), and the
    /// engine's line for a failure.
    fn outcome(
        dialect: Dialect,
        event: Event,
        status: RunStatus,
        skip: Option<SkipReason>,
    ) -> Outcome {
        let mut run = Run::new("guard", Source::new(Layer::User), HandlerType::Command);
        run.status = status;
        run.skip_reason = skip;
        run.error = Some("hook exited with code 127: jq: not found".into());
        let mut outcome = Outcome::new(dialect, event);
        if matches!(status, RunStatus::Failed | RunStatus::TimedOut) {
            outcome.system_messages.push(format!(
                "hook guard failed: {}",
                run.error.clone().unwrap_or_default()
            ));
        }
        outcome.runs.push(run);
        outcome
    }

    #[test]
    fn a_guard_that_could_not_do_its_job_is_named_once_per_session() {
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::create_dir(dir.path().join(".claude")).expect("the agent's home");
        let state = super::super::session::relay_discovery(dir.path());
        // (dialect, event, status, skip reason, named)
        let table = [
            (
                Dialect::Verboo,
                Event::PreToolUse,
                RunStatus::Failed,
                None,
                true,
            ),
            (
                Dialect::Lime,
                Event::PreToolUse,
                RunStatus::TimedOut,
                None,
                true,
            ),
            (
                Dialect::Lime,
                Event::UserPromptSubmit,
                RunStatus::Skipped,
                Some(SkipReason::Untrusted),
                true,
            ),
            (
                Dialect::Verboo,
                Event::PreToolUse,
                RunStatus::Skipped,
                Some(SkipReason::Modified),
                true,
            ),
            // The user switched it off: not a failure.
            (
                Dialect::Verboo,
                Event::PreToolUse,
                RunStatus::Skipped,
                Some(SkipReason::Disabled),
                false,
            ),
            (
                Dialect::Verboo,
                Event::PreToolUse,
                RunStatus::Ok,
                None,
                false,
            ),
            // An event that cannot block: nothing it could have guarded.
            (
                Dialect::Verboo,
                Event::Notification,
                RunStatus::Failed,
                None,
                false,
            ),
        ];
        for (index, (dialect, event, status, skip, named)) in table.into_iter().enumerate() {
            let session = format!("s{index}");
            let what = format!("{dialect} {event} {status:?} {skip:?}");
            let mut first = outcome(dialect, event.clone(), status, skip);
            let moved = name_unguarded(dialect, &state, &session, &mut first);
            let note = first
                .system_messages
                .iter()
                .find(|m| m.starts_with("hook relay: ") && m.contains("could not do its job"));
            assert_eq!(note.is_some(), named, "{what}: {:?}", first.system_messages);
            if !named {
                continue;
            }
            let note = note.map(String::as_str).unwrap_or_default();
            assert!(
                note.contains("so the event went ahead without it"),
                "{what}: {note}"
            );
            if status == RunStatus::Failed {
                // The engine's line is replaced: said once, with what to do.
                assert_eq!(first.system_messages.len(), 1, "{what}");
                assert!(note.contains("jq: not found"), "{note}");
                assert!(note.contains("hook doctor"), "{note}");
                assert!(note.contains("onFailure"), "{note}");
                assert_eq!(moved.len(), 1, "{what}");
            }
            // The next event of the same session: not said again.
            let mut again = outcome(dialect, event.clone(), status, skip);
            name_unguarded(dialect, &state, &session, &mut again);
            assert!(
                !again
                    .system_messages
                    .iter()
                    .any(|m| m.contains("could not do its job")),
                "{what}: {:?}",
                again.system_messages
            );
            // Another session: said again.
            let mut other = outcome(dialect, event, status, skip);
            name_unguarded(dialect, &state, &format!("{session}-other"), &mut other);
            assert!(
                other
                    .system_messages
                    .iter()
                    .any(|m| m.contains("could not do its job")),
                "{what}"
            );
        }
    }

    #[test]
    fn a_guard_whose_failure_blocked_the_event_says_so() {
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::create_dir(dir.path().join(".claude")).expect("the agent's home");
        let state = super::super::session::relay_discovery(dir.path());
        let mut blocked = outcome(Dialect::Verboo, Event::PreToolUse, RunStatus::Failed, None);
        blocked.decision = Decision::Block;
        name_unguarded(Dialect::Verboo, &state, "s", &mut blocked);
        let note = &blocked.system_messages[0];
        assert!(note.contains("so the event was blocked"), "{note}");
        assert!(!note.contains("onFailure"), "{note}");
    }
}

//! The guards written for Claude Code that Codex's relay runs too (issue 45): a team writes a
//! guard once, in Claude Code's format, in Claude Code's relay files
//! (`~/.claude/hook-relay/settings.json` — or `$CLAUDE_CONFIG_DIR/hook-relay/settings.json` —
//! and `<project>/.claude/hook-relay/settings.json`), and Claude Code's relay, the translated
//! agents' and Codex's all run it. Codex's own relay file (`$CODEX_HOME/hook-relay/config.toml`)
//! keeps running as before; these run beside it (at the same time, so that the entry's
//! timeout, the longest of both, covers both), on the same event. Choices:
//!
//! - **Which relay runs them**: the one whose dialect's adapter names a guest dialect
//!   ([`claude_guards_for`]: Codex's, lime). Claude Code's relay files of the same scope as the
//!   entry (`--scope`, or both) and the same project; Claude Code's home is the user's
//!   (`CLAUDE_CONFIG_DIR`, else `~/.claude`), never Codex's `--home` (`--claude-home`, hidden,
//!   replaces it).
//! - **The event**: Codex's bytes are already Claude Code's shape (`tool_name: "Bash"`,
//!   `tool_input.command`, `tool_use_id`, `cwd`, `session_id`); they are read by Claude Code's
//!   reader ([`read_agent_event`]) as they are, but for the fields Claude Code always sends and
//!   Codex may send as `null` or not at all (`session_id`, `transcript_path`, and `tool_use_id`
//!   on a tool event), given empty, as the translated agents' are.
//! - **Trust**: Claude Code's relay rules and trust store, as if Claude Code's relay ran them.
//! - **Only when one is on the event**: with no Claude Code guard on the event nothing is
//!   dispatched or journaled.
//! - **The combined answer** (in Codex's form, the lime writer's): a block by either blocks;
//!   the Claude Code guards' reason is the answer's when only they block, and follows Codex's
//!   relay hooks' own when both do (said once when it is the same: a ready-made guard on in
//!   both agents' relay files). Their other permission decisions (`allow`, `ask`,
//!   `defer`) are not carried: Codex's own relay hooks and Codex decide. Their context and system messages join the lime outcome's
//!   (the lime writer puts them where the event accepts them, and says what it cannot carry).
//!   A rewrite (`updatedInput`) of theirs is applied only when no Codex relay hook rewrote the
//!   input; a `continue: false` of theirs stops too. Their `async` runs go to the async
//!   waiter, which runs their async hooks too.
//! - **Fail closed**: anything that keeps them from being evaluated (their configuration
//!   cannot be loaded, the event cannot be read as Claude Code's) is an error of the answer,
//!   answered as a block where the event can block, as the relay does with its own.
//! - **Codex's entries**: `hook relay install|sync --agent codex` writes entries for their
//!   events too (with Codex's own relay hooks' events and matchers, the timeout covering both),
//!   so that Codex starts the relay where only a Claude Code guard is; `uninstall` is unchanged.
//! - **The journal**: their dispatch is recorded in Claude Code's relay journal with
//!   `agent: "codex"` (without the agent's `PATH`, which says where Claude Code's entries run).

use std::path::PathBuf;

use anyhow::{Context, Result};
use hook_protocol::input::read_agent_event;
use hook_protocol::{Decision, Outcome, RunStatus};
use serde_json::Value;

use super::{AnswerOptions, Prepared, Received, prepare};
use crate::ops::location::Location;
use crate::ops::relay::agents::codex::claude_guards_for;
use crate::ops::relay::agents::translated::fill_claude_fields;
use crate::ops::relay::read::files::relay_options;

/// The agent name Claude Code's journal records these runs under.
const AGENT: &str = "codex";

/// The Claude Code guards of the event, loaded, and the event as Claude Code's.
pub(crate) struct Guards {
    pub(crate) prepared: Prepared,
    pub(crate) received: Received,
}

/// The Claude Code guards the relay of `options` runs beside its own on `received`'s event,
/// loaded for `project`; `None` when the relay runs none or none is on the event.
///
/// # Errors
///
/// When Claude Code's relay files cannot be loaded, or the event cannot be read as Claude
/// Code's.
pub(crate) fn load(
    options: &AnswerOptions,
    received: &Received,
    project: Option<PathBuf>,
) -> Result<Option<Guards>> {
    let Some(dialect) = claude_guards_for(options.dialect) else {
        return Ok(None);
    };
    // No Claude Code relay file at all (a Codex-only user): nothing to load, and no trust store
    // read on every event Codex sends.
    let discovery = hook_config::discover(&relay_options(
        dialect,
        project.as_deref(),
        options.claude_home.as_deref(),
    ))
    .context("cannot find the Claude Code guards of Codex's relay")?;
    // (A `--claude-home` that does not exist is an error of the load below, which fails closed.)
    let named_home_missing = options
        .claude_home
        .as_deref()
        .is_some_and(|home| !home.is_dir());
    if !named_home_missing && !discovery.files.iter().any(|file| file.path.exists()) {
        return Ok(None);
    }
    let location = Location {
        dialect,
        project,
        home: options.claude_home.clone(),
        relay: true,
    };
    let phrasing = crate::ops::trust::refusal_phrasing(&location);
    let guest = AnswerOptions {
        dialect,
        translated: None,
        agent_event: None,
        ..options.clone()
    };
    let prepared = prepare(&guest, location, phrasing)
        .context("cannot load the Claude Code guards of Codex's relay")?;
    let event = received.input.event();
    let on_event = prepared
        .hooks
        .engine()
        .registry()
        .handlers()
        .iter()
        .any(|handler| handler.event == event);
    if !on_event {
        return Ok(None);
    }
    let bytes = as_claude_code(&received.bytes)?;
    let read = read_agent_event(dialect, &bytes, options.event.as_ref())
        .context("cannot read Codex's event as Claude Code's for its guards")?;
    Ok(Some(Guards {
        prepared,
        received: Received {
            input: read.input,
            bytes: bytes.into(),
            tolerated: Vec::new(),
        },
    }))
}

/// Codex's event `bytes` with the fields Claude Code always sends given empty where Codex sent
/// none (or `null`).
fn as_claude_code(bytes: &[u8]) -> Result<Vec<u8>> {
    let value: Value = serde_json::from_slice(bytes).context("Codex's event is not JSON")?;
    let Value::Object(mut object) = value else {
        anyhow::bail!("Codex's event is not a JSON object");
    };
    fill_claude_fields(&mut object);
    serde_json::to_vec(&Value::Object(object)).context("cannot write the event as Claude Code's")
}

/// `theirs` (the Claude Code guards' outcome) joined into `own` (Codex's relay hooks'), as the
/// module's doc says.
pub(crate) fn combine(own: &mut Outcome, theirs: &Outcome) {
    if theirs.decision == Decision::Block {
        let reason = match (own.decision == Decision::Block, own.reason.take()) {
            (true, Some(own_reason)) => Some(match &theirs.reason {
                // The same reason twice (one ready-made guard on in both agents' relay files)
                // tells the model nothing more.
                Some(their) if *their != own_reason => format!("{own_reason}\n{their}"),
                _ => own_reason,
            }),
            _ => theirs.reason.clone(),
        };
        own.decision = Decision::Block;
        own.reason = reason;
    }
    if own.updated_input.is_none() {
        own.updated_input.clone_from(&theirs.updated_input);
    }
    own.additional_context = match (own.additional_context.take(), &theirs.additional_context) {
        (Some(own), Some(their)) => Some(format!("{own}\n\n{their}")),
        (own, their) => own.or_else(|| their.clone()),
    };
    own.additional_contexts
        .extend(theirs.additional_contexts.iter().cloned());
    if theirs.stop && !own.stop {
        own.stop = true;
        own.stop_reason.clone_from(&theirs.stop_reason);
    }
    own.system_messages
        .extend(theirs.system_messages.iter().cloned());
    // Their async runs start the async waiter, which runs their async hooks too.
    own.runs.extend(
        theirs
            .runs
            .iter()
            .filter(|run| run.status == RunStatus::Async)
            .cloned(),
    );
}

/// Records their dispatch in Claude Code's relay journal, as Codex's; a warning to say when it
/// cannot be written.
pub(crate) fn journal(guards: &Guards, outcome: &Outcome, exit_code: u8) -> Option<String> {
    crate::ops::journal::record(
        "relay",
        guards.prepared.discovery(),
        guards.received.input(),
        outcome,
        Some(exit_code),
        None,
        Some(AGENT),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> Outcome {
        Outcome::new(
            hook_protocol::Dialect::ALL[0],
            hook_protocol::Event::PreToolUse,
        )
    }

    #[test]
    fn a_null_transcript_path_is_given_empty_and_what_was_sent_is_kept() {
        let bytes = br#"{"hook_event_name":"PreToolUse","transcript_path":null,"tool_name":"Bash","turn_id":"t"}"#;
        let value: Value = serde_json::from_slice(&as_claude_code(bytes).unwrap()).unwrap();
        assert_eq!(value["transcript_path"], "");
        assert_eq!(value["session_id"], "");
        assert_eq!(value["tool_use_id"], "");
        assert_eq!(value["turn_id"], "t");
    }

    #[test]
    fn their_block_wins_and_a_lime_block_keeps_its_reason_first() {
        let block = |reason: &str| {
            let mut outcome = empty();
            outcome.decision = Decision::Block;
            outcome.reason = Some(reason.to_owned());
            outcome
        };
        let mut own = empty();
        combine(&mut own, &block("theirs"));
        assert_eq!(
            (own.decision, own.reason.as_deref()),
            (Decision::Block, Some("theirs"))
        );
        let mut own = block("own");
        combine(&mut own, &block("theirs"));
        assert_eq!(own.reason.as_deref(), Some("own\ntheirs"));
        // The same reason is said once.
        let mut own = block("the same");
        combine(&mut own, &block("the same"));
        assert_eq!(own.reason.as_deref(), Some("the same"));
        // Their allow is not carried.
        let mut own = empty();
        let mut allow = empty();
        allow.decision = Decision::Allow;
        combine(&mut own, &allow);
        assert_eq!(own.decision, Decision::Continue);
    }

    #[test]
    fn their_rewrite_applies_only_when_no_lime_hook_rewrote() {
        let rewrite = |v: &str| {
            let mut outcome = empty();
            outcome.updated_input = Some(Value::from(v));
            outcome
        };
        let mut own = empty();
        combine(&mut own, &rewrite("theirs"));
        assert_eq!(own.updated_input, Some(Value::from("theirs")));
        let mut own = rewrite("own");
        combine(&mut own, &rewrite("theirs"));
        assert_eq!(own.updated_input, Some(Value::from("own")));
    }
}

//! Command handlers answered in the embedder's own process (`InProcessCommands`, what `hook
//! relay` answers its ready-made guards with): asked only after matching and the gate, the
//! reply read as a process's, bounded by the handler's timeout, the run marked in the outcome
//! and the journal; every other command still spawned.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::common::{Setup, pre_tool_use, statuses};
use hook_exec::journal::{Journal, Record};
use hook_exec::{BoxFuture, CommandCall, CommandReply, EngineOptions, InProcessCommands};
use hook_protocol::{Decision, Dialect, RunStatus, SkipReason};
use serde_json::{Value, json};

/// What the embedder was asked: the command, the input it was given, the cwd and two
/// variables a spawned hook would have had.
#[derive(Debug, Clone, PartialEq)]
struct Asked {
    command: String,
    input: Value,
    cwd: PathBuf,
    dialect_var: Option<String>,
    event_var: Option<String>,
}

/// Answers `in-process-guard ...` with `reply` (`None`: never answers, the future stays
/// pending); records every call it is asked about.
#[derive(Clone)]
struct Guards {
    reply: Option<CommandReply>,
    asked: Arc<Mutex<Vec<Asked>>>,
}

impl Guards {
    fn new(reply: Option<CommandReply>) -> Guards {
        Guards {
            reply,
            asked: Arc::default(),
        }
    }

    fn asked(&self) -> Vec<Asked> {
        self.asked.lock().unwrap().clone()
    }
}

impl InProcessCommands for Guards {
    fn answer<'a>(&'a self, call: CommandCall<'a>) -> Option<BoxFuture<'a, CommandReply>> {
        if !call.command.starts_with("in-process-guard") {
            return None;
        }
        self.asked.lock().unwrap().push(Asked {
            command: call.command.to_owned(),
            input: serde_json::from_slice(call.input).unwrap(),
            cwd: call.cwd.to_owned(),
            dialect_var: call.var("HOOK_DIALECT"),
            event_var: call.var("HOOK_EVENT"),
        });
        match self.reply.clone() {
            Some(reply) => Some(Box::pin(async move { reply })),
            None => Some(Box::pin(std::future::pending())),
        }
    }
}

/// A guard no `PATH` has (spawned, the shell would exit 127), and a hook that is spawned.
const CONFIG: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "in-process-guard --strict", "timeout": 1},
    {"type": "command", "command": "echo spawned >&2"}]}]}}"#;

fn deny(reason: &str) -> CommandReply {
    let output = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": reason}});
    CommandReply::new(0, format!("{output}\n"), "a note on stderr\n")
}

#[test]
fn a_recognised_command_is_answered_in_process_and_the_others_are_spawned() {
    let setup = Setup::new(Dialect::Verboo, CONFIG);
    let guards = Guards::new(Some(deny("no rm here")));
    let engine = setup
        .engine(EngineOptions::default())
        .with_in_process_commands(guards.clone());
    let input = setup.input(pre_tool_use("Bash", "rm -rf /"));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let outcome = runtime.block_on(engine.dispatch(&input));

    assert_eq!(outcome.decision, Decision::Block, "{outcome:?}");
    assert_eq!(outcome.reason.as_deref(), Some("no rm here"));
    assert_eq!(statuses(&outcome), [RunStatus::Blocked, RunStatus::Ok]);
    let (guard, spawned) = (&outcome.runs[0], &outcome.runs[1]);
    assert!(guard.in_process && !spawned.in_process, "{outcome:?}");
    assert_eq!(guard.exit_code, Some(0));
    assert_eq!(guard.stderr.as_deref(), Some("a note on stderr\n"));
    assert_eq!(spawned.stderr.as_deref(), Some("spawned\n"));
    // It was asked what a spawned hook would have had: the event on stdin, the cwd, the
    // engine's variables.
    assert_eq!(
        guards.asked(),
        [Asked {
            command: "in-process-guard --strict".to_owned(),
            input: input.to_value(),
            cwd: setup.path("project"),
            dialect_var: Some("verboo".to_owned()),
            event_var: Some("PreToolUse".to_owned()),
        }]
    );
}

#[test]
fn an_untrusted_handler_is_skipped_and_never_asked() {
    // lime: a user hook runs only once trusted; the engine's default gate refuses it.
    let config = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"in-process-guard\"\n";
    let setup = Setup::new(Dialect::Lime, config);
    let guards = Guards::new(Some(deny("no")));
    let loaded = hook_config::load(
        &hook_config::LoadOptions::new(Dialect::Lime, hook_config::Environment::empty())
            .without_managed()
            .with_home(setup.path("home"))
            .with_project(setup.path("project")),
    )
    .unwrap();
    let engine = hook_exec::Engine::new(loaded.registry).with_in_process_commands(guards.clone());
    let input = setup.input(pre_tool_use("Bash", "rm -rf /"));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let outcome = runtime.block_on(engine.dispatch(&input));
    assert_eq!(outcome.decision, Decision::Continue);
    assert_eq!(outcome.runs[0].status, RunStatus::Skipped);
    assert_eq!(outcome.runs[0].skip_reason, Some(SkipReason::Untrusted));
    assert!(guards.asked().is_empty());
}

#[test]
fn an_answer_past_the_handlers_timeout_is_timed_out_and_decides_nothing() {
    let setup = Setup::new(Dialect::Verboo, CONFIG);
    let guards = Guards::new(None);
    let engine = setup
        .engine(EngineOptions::default())
        .with_in_process_commands(guards.clone());
    let input = setup.input(pre_tool_use("Bash", "rm -rf /"));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let outcome = runtime.block_on(engine.dispatch(&input));
    assert_eq!(outcome.decision, Decision::Continue);
    let run = &outcome.runs[0];
    assert_eq!(run.status, RunStatus::TimedOut);
    assert!(run.in_process);
    assert!(
        run.error
            .as_deref()
            .is_some_and(|e| e.starts_with("timed out after 1 s")),
        "{run:?}"
    );
}

#[test]
fn the_reply_is_read_as_a_process_and_the_journal_says_it_ran_in_process() {
    let setup = Setup::new(Dialect::Verboo, CONFIG);
    // Exit 2 with a reason on stderr, as a process blocks.
    let guards = Guards::new(Some(CommandReply::new(2, "", "refused by the guard\n")));
    let journal = Arc::new(Journal::for_home(&setup.path("home")));
    let engine = setup
        .engine(EngineOptions::default().with_journal(Arc::clone(&journal)))
        .with_in_process_commands(guards);
    let input = setup.input(pre_tool_use("Bash", "rm -rf /"));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let outcome = runtime.block_on(engine.dispatch(&input));
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("refused by the guard"));
    assert!(journal.wait_idle(std::time::Duration::from_secs(30)));
    let text = std::fs::read_to_string(setup.path("home/hook-journal/journal.jsonl")).unwrap();
    let record: Record = serde_json::from_str(text.trim_end()).unwrap();
    assert!(record.runs[0].in_process && !record.runs[1].in_process);
    assert!(text.contains(r#""in_process":true"#), "{text}");
    // The outcome as JSON says so too, and only for that run.
    let value = serde_json::to_value(&outcome).unwrap();
    assert_eq!(value["runs"][0]["in_process"], true);
    assert!(value["runs"][1].get("in_process").is_none());
}

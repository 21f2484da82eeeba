//! Behaviours measured against the real agents over more than one turn (issue 25): a blocked
//! prompt's context, `continue: false` read first, the `stopped` status.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use hook_exec::EngineOptions;
use hook_protocol::{Decision, Dialect, Outcome, RunStatus};
use serde_json::json;

use crate::common::{Setup, statuses};

/// One hook on `event` that prints `stdout` (kept in a file beside the home, so no quoting).
fn setup(dialect: Dialect, event: &str, stdout: &str) -> Setup {
    let setup = Setup::new(dialect, "");
    let out = setup.path("hook-output.json");
    std::fs::write(&out, stdout).unwrap();
    let command = format!("cat '{}'", out.display());
    let (name, config) = match dialect {
        Dialect::Lime => (
            "config.toml",
            format!(
                "[[hooks.{event}]]\n[[hooks.{event}.hooks]]\ntype = \"command\"\ncommand = {}\n",
                json!(command)
            ),
        ),
        _ => (
            "settings.json",
            json!({"hooks": {event: [{"hooks": [{"type": "command", "command": command}]}]}})
                .to_string(),
        ),
    };
    std::fs::write(setup.path("home").join(name), config).unwrap();
    setup
}

fn dispatch(setup: &Setup, event: serde_json::Value) -> Outcome {
    let engine = setup.engine(EngineOptions::default());
    let input = setup.input(event);
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.dispatch(&input))
}

/// lime keeps a blocked prompt's `additionalContext` (Codex gives it to the model on the next
/// turn); verboo drops it with the prompt (Claude Code).
#[test]
fn a_blocked_prompt_keeps_its_context_in_lime_only() {
    let stdout = r#"{"decision":"block","reason":"not now","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"remember the ticket"}}"#;
    for (dialect, kept) in [(Dialect::Lime, true), (Dialect::Verboo, false)] {
        assert_eq!(
            dialect.rules().output().dropped_prompt_keeps_context(),
            kept
        );
        let setup = setup(dialect, "UserPromptSubmit", stdout);
        let outcome = dispatch(
            &setup,
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "deploy", "permission_mode": "default"}),
        );
        assert_eq!(outcome.decision, Decision::Block, "{dialect}: {outcome:#?}");
        assert_eq!(outcome.reason.as_deref(), Some("not now"));
        assert_eq!(
            outcome.additional_context.as_deref(),
            kept.then_some("remember the ticket"),
            "{dialect}"
        );
        assert_eq!(outcome.additional_contexts.len(), usize::from(kept));
        assert_eq!(statuses(&outcome), [RunStatus::Blocked]);
    }
}

/// The same for a prompt stopped by `continue: false`.
#[test]
fn a_stopped_prompt_keeps_its_context_in_lime_only() {
    let stdout = r#"{"continue":false,"stopReason":"pause","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"remember the ticket"}}"#;
    for (dialect, kept) in [(Dialect::Lime, true), (Dialect::Verboo, false)] {
        let setup = setup(dialect, "UserPromptSubmit", stdout);
        let outcome = dispatch(
            &setup,
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "deploy", "permission_mode": "default"}),
        );
        assert!(outcome.stop, "{dialect}: {outcome:#?}");
        assert_eq!(outcome.stop_reason.as_deref(), Some("pause"));
        assert_eq!(
            outcome.additional_context.as_deref(),
            kept.then_some("remember the ticket"),
            "{dialect}"
        );
        assert_eq!(statuses(&outcome), [RunStatus::Stopped]);
    }
}

/// lime `PostToolUse` `{"continue": false, "stopReason", "reason"}`: the run is `stopped`, the
/// model gets the reason in place of the tool's output, and the turn goes on (no `stop`).
#[test]
fn lime_post_tool_use_continue_false_with_a_reason_is_stopped_feedback() {
    let setup = setup(
        Dialect::Lime,
        "PostToolUse",
        r#"{"continue":false,"stopReason":"halt","reason":"the output leaked a token"}"#,
    );
    let outcome = dispatch(
        &setup,
        json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "permission_mode": "default",
            "tool_input": {"command": "env"}, "tool_response": "TOKEN=1"}),
    );
    assert_eq!(statuses(&outcome), [RunStatus::Stopped], "{outcome:#?}");
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("the output leaked a token"));
    assert!(!outcome.stop);
    assert!(outcome.runs[0].error.is_none());
}

/// `stopped` in every dialect where `continue: false` stops (verboo, lime); wuu reads it as a
/// block.
#[test]
fn continue_false_runs_are_stopped_in_verboo_and_lime_blocked_in_wuu() {
    let stdout = r#"{"continue":false,"stopReason":"enough"}"#;
    for dialect in [Dialect::Verboo, Dialect::Lime] {
        let setup = setup(dialect, "Stop", stdout);
        let outcome = dispatch(
            &setup,
            json!({"hook_event_name": "Stop", "stop_hook_active": false, "permission_mode": "default",
                "last_assistant_message": "done"}),
        );
        assert_eq!(statuses(&outcome), [RunStatus::Stopped], "{dialect}");
        assert!(outcome.stop, "{dialect}");
        assert_eq!(outcome.stop_reason.as_deref(), Some("enough"));
        assert_eq!(outcome.decision, Decision::Continue);
    }
    let wuu = Setup::new(
        Dialect::Wuu,
        &json!({"hooks": {"PreToolUse": [{"command": "echo '{\"continue\":false,\"reason\":\"no\"}'"}]}})
            .to_string(),
    );
    let outcome = dispatch(
        &wuu,
        json!({"hook_event_name": "PreToolUse", "tool_name": "bash", "tool_input": {"command": "ls"}}),
    );
    assert_eq!(statuses(&outcome), [RunStatus::Blocked]);
    assert_eq!(outcome.decision, Decision::Block);
}

/// lime output gets one verdict whether the engine was built with `validate` (jsonschema) or
/// without it (hook-protocol's reader of the schemas' subset): an explicit `null`, a blank
/// reason, an unknown field fail the run; `cargo test -p hook-exec --no-default-features` runs
/// this too.
#[test]
fn lime_output_verdicts_do_not_depend_on_the_validate_feature() {
    let pre_tool_use = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "permission_mode": "default", "tool_use_id": "c1", "tool_input": {"command": "ls"}});
    for (stdout, status) in [
        (r#"{"systemMessage": null}"#, RunStatus::Failed),
        (
            r#"{"decision": "block", "reason": "  "}"#,
            RunStatus::Failed,
        ),
        (r#"{"systemMessage": "hi", "extra": 1}"#, RunStatus::Failed),
        (
            r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": null}}"#,
            RunStatus::Failed,
        ),
        (r#"{"systemMessage": "hi"}"#, RunStatus::Ok),
        (
            r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}"#,
            RunStatus::Blocked,
        ),
    ] {
        let setup = setup(Dialect::Lime, "PreToolUse", stdout);
        let outcome = dispatch(&setup, pre_tool_use.clone());
        assert_eq!(statuses(&outcome), [status], "{stdout}: {outcome:#?}");
    }
}

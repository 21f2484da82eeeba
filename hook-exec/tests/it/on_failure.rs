//! verboo `onFailure` (Claude Code 2.1.332): with `block`, a hook that cannot start, times out,
//! exits other than 0 or 2 or prints output the event refuses counts as exit 2; never for an
//! async hook, nor on `Stop`, `SubagentStop`, `TaskCompleted`, `TeammateIdle`, nor on an event
//! that cannot block. Real processes, one table.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use hook_exec::EngineOptions;
use hook_protocol::{Decision, Dialect, RunStatus};
use serde_json::{Value, json};

use crate::common::{Setup, pre_tool_use};

/// One row: the hook's command, its `onFailure`, the event, and whether the event is blocked.
struct Row {
    name: &'static str,
    command: &'static str,
    on_failure: Option<&'static str>,
    extra: Value,
    event: fn() -> Value,
    blocked: bool,
    status: RunStatus,
}

fn pre() -> Value {
    pre_tool_use("Bash", "rm -rf build")
}

fn stop() -> Value {
    json!({"hook_event_name": "Stop", "stop_hook_active": false})
}

fn notification() -> Value {
    json!({"hook_event_name": "Notification", "message": "m", "notification_type": "idle_prompt"})
}

fn rows() -> Vec<Row> {
    vec![
        Row {
            name: "exit 1 with block",
            command: "exit 1",
            on_failure: Some("block"),
            extra: Value::Null,
            event: pre,
            blocked: true,
            status: RunStatus::Failed,
        },
        Row {
            name: "exit 1 with continue",
            command: "exit 1",
            on_failure: Some("continue"),
            extra: Value::Null,
            event: pre,
            blocked: false,
            status: RunStatus::Failed,
        },
        Row {
            name: "exit 1 without onFailure",
            command: "exit 1",
            on_failure: None,
            extra: Value::Null,
            event: pre,
            blocked: false,
            status: RunStatus::Failed,
        },
        Row {
            name: "missing program with block",
            command: "/nonexistent/guard.sh",
            on_failure: Some("block"),
            extra: Value::Null,
            event: pre,
            blocked: true,
            status: RunStatus::Failed,
        },
        Row {
            name: "invalid JSON with block",
            command: "echo '{\"decision\": '",
            on_failure: Some("block"),
            extra: Value::Null,
            event: pre,
            blocked: true,
            status: RunStatus::Failed,
        },
        Row {
            name: "timeout with block",
            command: "sleep 5",
            on_failure: Some("block"),
            extra: Value::Null,
            event: pre,
            blocked: true,
            status: RunStatus::TimedOut,
        },
        Row {
            name: "exit 1 with block, async",
            command: "exit 1",
            on_failure: Some("block"),
            extra: json!({"async": true}),
            event: pre,
            blocked: false,
            status: RunStatus::Async,
        },
        Row {
            name: "exit 0 with block",
            command: "exit 0",
            on_failure: Some("block"),
            extra: Value::Null,
            event: pre,
            blocked: false,
            status: RunStatus::Ok,
        },
        Row {
            name: "exit 1 with block on Stop",
            command: "exit 1",
            on_failure: Some("block"),
            extra: Value::Null,
            event: stop,
            blocked: false,
            status: RunStatus::Failed,
        },
        Row {
            name: "exit 1 with block on Notification (cannot block)",
            command: "exit 1",
            on_failure: Some("block"),
            extra: Value::Null,
            event: notification,
            blocked: false,
            status: RunStatus::Failed,
        },
    ]
}

#[test]
fn on_failure_block_turns_a_failed_run_into_a_block() {
    for row in rows() {
        let input = (row.event)();
        let event = input["hook_event_name"].as_str().unwrap().to_owned();
        let mut handler = json!({"type": "command", "command": row.command, "timeout": 1});
        if let Some(value) = row.on_failure {
            handler["onFailure"] = value.into();
        }
        if let Value::Object(extra) = &row.extra {
            handler.as_object_mut().unwrap().extend(extra.clone());
        }
        let config = json!({"hooks": {event: [{"hooks": [handler]}]}});
        let setup = Setup::new(Dialect::Verboo, &config.to_string());
        let engine = setup.engine(EngineOptions::default());
        let outcome = tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(engine.dispatch(&setup.input(input)));
        let what = format!("{}: {outcome:?}", row.name);
        assert_eq!(outcome.runs.len(), 1, "{what}");
        assert_eq!(outcome.runs[0].status, row.status, "{what}");
        if row.blocked {
            assert_eq!(outcome.decision, Decision::Block, "{what}");
            let reason = outcome.reason.as_deref().unwrap_or_default();
            assert!(reason.contains("onFailure is \"block\""), "{what}");
        } else {
            assert_ne!(outcome.decision, Decision::Block, "{what}");
        }
    }
}

/// `onFailure` on `command` and `http` is `continue` or `block`; anything else makes the
/// handler invalid (as Claude Code's settings schema); on `mcp_tool` any value but
/// `continue` reads as `block`.
#[test]
fn on_failure_values_are_read_as_claude_code_reads_them() {
    use hook_config::{Environment, LoadOptions, OnFailure, load};
    let cases = [
        (
            json!({"type": "command", "command": "true", "onFailure": "block"}),
            Some(Some(OnFailure::Block)),
        ),
        (
            json!({"type": "command", "command": "true", "onFailure": "continue"}),
            Some(Some(OnFailure::Continue)),
        ),
        (
            json!({"type": "command", "command": "true", "onFailure": "Block"}),
            None,
        ),
        (
            json!({"type": "http", "url": "http://127.0.0.1:9/", "onFailure": 1}),
            None,
        ),
        (
            json!({"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": "refuse"}),
            Some(Some(OnFailure::Block)),
        ),
        (
            json!({"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": "continue"}),
            Some(Some(OnFailure::Continue)),
        ),
        // Claude Code ignores it on prompt hooks; the engine honours it (a prompt guard with
        // no model client blocks).
        (
            json!({"type": "prompt", "prompt": "p", "onFailure": "block"}),
            Some(Some(OnFailure::Block)),
        ),
    ];
    for (handler, expected) in cases {
        let config = json!({"hooks": {"PreToolUse": [{"hooks": [handler.clone()]}]}});
        let setup = Setup::new(Dialect::Verboo, &config.to_string());
        let options = LoadOptions::new(Dialect::Verboo, Environment::empty())
            .without_managed()
            .with_home(setup.path("home"))
            .with_project(setup.path("project"));
        let loaded = load(&options).unwrap();
        let handlers = loaded.registry.handlers();
        match expected {
            None => {
                assert!(handlers.is_empty(), "{handler}: {handlers:?}");
                assert!(loaded.has_errors(), "{handler}");
                let text = format!("{:?}", loaded.diagnostics);
                assert!(text.contains("onFailure"), "{handler}: {text}");
            }
            Some(on_failure) => {
                assert_eq!(handlers.len(), 1, "{handler}: {:?}", loaded.diagnostics);
                assert_eq!(handlers[0].config.on_failure, on_failure, "{handler}");
            }
        }
    }
}

/// A guard that cannot run here (no MCP or model client: `no_client`; a type the dialect does
/// not run: `unsupported`) or cannot be read (a field of the wrong type, a miscased
/// `onFailure`, a file that does not parse: `invalid`) blocks the event when it asked to with
/// `onFailure: "block"`, read leniently for what could not be read; without it, or with
/// `continue`, or on an async hook, the event goes ahead. Both grouped dialects, one table.
#[test]
fn a_guard_that_cannot_run_or_cannot_be_read_blocks_when_it_asked_to() {
    use hook_config::{Environment, LoadOptions, load};
    use hook_protocol::SkipReason;
    // (what, verboo handler or whole file, lime handler table or whole file, blocked, reason)
    // A `{H}` file is the handler put in one PreToolUse group; otherwise the text is the file.
    let cases: [(&str, &str, &str, bool, Option<SkipReason>); 9] = [
        (
            "mcp_tool with no client, block",
            r#"{"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": "block"}"#,
            "type = \"mcp_tool\"\nserver = \"s\"\ntool = \"t\"\nonFailure = \"block\"",
            true,
            Some(SkipReason::NoClient),
        ),
        (
            "mcp_tool with no client, continue",
            r#"{"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": "continue"}"#,
            "type = \"mcp_tool\"\nserver = \"s\"\ntool = \"t\"\nonFailure = \"continue\"",
            false,
            Some(SkipReason::NoClient),
        ),
        (
            "prompt with no client (lime: never runs), block",
            r#"{"type": "prompt", "prompt": "is it safe? $ARGUMENTS", "onFailure": "block"}"#,
            "type = \"prompt\"\nprompt = \"is it safe?\"\nonFailure = \"block\"",
            true,
            None,
        ),
        (
            "a timeout written as a string, block",
            r#"{"type": "command", "command": "exit 0", "timeout": "30", "onFailure": "block"}"#,
            "type = \"command\"\ncommand = \"exit 0\"\ntimeout = \"30\"\nonFailure = \"block\"",
            true,
            Some(SkipReason::Invalid),
        ),
        (
            "a timeout written as a string, no onFailure",
            r#"{"type": "command", "command": "exit 0", "timeout": "30"}"#,
            "type = \"command\"\ncommand = \"exit 0\"\ntimeout = \"30\"",
            false,
            Some(SkipReason::Invalid),
        ),
        (
            "a miscased onFailure",
            r#"{"type": "command", "command": "exit 0", "onFailure": "Block"}"#,
            "type = \"command\"\ncommand = \"exit 0\"\nonFailure = \"Block\"",
            true,
            Some(SkipReason::Invalid),
        ),
        (
            "an async guard cannot block, even broken",
            r#"{"type": "command", "command": "exit 0", "timeout": "30", "async": true, "onFailure": "block"}"#,
            "type = \"command\"\ncommand = \"exit 0\"\ntimeout = \"30\"\nasync = true\nonFailure = \"block\"",
            false,
            Some(SkipReason::Invalid),
        ),
        (
            "a file that does not parse, with a guard that asks to block",
            "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\" \"hooks\": [{\"type\": \"command\", \"command\": \"exit 0\", \"onFailure\": \"block\"}]}]}}",
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"exit 0\nonFailure = \"block\"\n",
            true,
            Some(SkipReason::Invalid),
        ),
        (
            "a file that does not parse, with no guard asking to block",
            "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\" \"hooks\": [{\"type\": \"command\", \"command\": \"exit 0\"}]}]}}",
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"exit 0\n",
            false,
            Some(SkipReason::Invalid),
        ),
    ];
    for (what, verboo, lime, blocked, reason) in cases {
        for dialect in [Dialect::Verboo, Dialect::Lime] {
            let handler = if dialect == Dialect::Verboo {
                verboo
            } else {
                lime
            };
            let file = if handler.contains("hooks") {
                handler.to_owned()
            } else if dialect == Dialect::Verboo {
                format!(
                    r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{handler}]}}]}}}}"#
                )
            } else {
                format!(
                    "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n{handler}\n"
                )
            };
            let setup = Setup::new(dialect, &file);
            let options = LoadOptions::new(dialect, Environment::empty())
                .without_managed()
                .with_home(setup.path("home"))
                .with_project(setup.path("project"));
            let loaded = load(&options).unwrap();
            let engine = hook_exec::Engine::new(loaded.registry).with_gate(hook_exec::AllowAll);
            let outcome = tokio::runtime::Runtime::new()
                .unwrap()
                .block_on(engine.dispatch(&setup.input(pre())));
            let what = format!("{dialect}, {what}: {outcome:?}");
            assert_eq!(outcome.runs.len(), 1, "{what}");
            assert_eq!(outcome.runs[0].status, RunStatus::Skipped, "{what}");
            if let Some(reason) = reason {
                assert_eq!(outcome.runs[0].skip_reason, Some(reason), "{what}");
            }
            assert_eq!(outcome.decision == Decision::Block, blocked, "{what}");
            if blocked && outcome.runs[0].skip_reason == Some(SkipReason::Invalid) {
                // The reason says where the file is wrong and what to do, first.
                let reason = outcome.reason.as_deref().unwrap_or_default();
                assert!(reason.contains("cannot be read"), "{what}");
                let file = setup.path("home").display().to_string();
                assert!(reason.contains(&file), "{what}");
                assert!(reason.contains("hook validate --config"), "{what}");
            }
        }
    }
}

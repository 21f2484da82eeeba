//! The relay knows its caller: Claude Code's relay started by Copilot CLI (which runs a
//! project's `.claude/settings.json` entries and sets `COPILOT_CLI=1` for them) answers as
//! Copilot CLI reads it. A variable of the environment, so the binary.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::ffi::OsStr;

use hook_test_support::Scene;
use hook_test_support::relay::verboo_home;
use serde_json::{Value, json};

use crate::cli::{hook_bytes, text};

/// Copilot CLI 1.0.102's `PreToolUse` in its Claude Code dialect: no `transcript_path`,
/// `permission_mode` or `tool_use_id`.
fn copilot_pre_tool_use(cwd: &str, command: &str) -> Vec<u8> {
    json!({"hook_event_name": "PreToolUse", "session_id": "4530c20d",
        "timestamp": "2026-12-06T21:02:03.429Z", "cwd": cwd, "tool_name": "Bash",
        "tool_input": {"command": command, "description": "d"}})
    .to_string()
    .into_bytes()
}

#[test]
fn copilot_running_claude_codes_entry_gets_a_denial_it_shows_the_model() {
    let scene = Scene::new();
    let project = scene.project();
    let home = verboo_home(
        scene.root(),
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": "if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi"}]}]}),
    );
    let cwd = project.display().to_string();
    let args = [
        "relay",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--home",
        home.to_str().unwrap(),
        "--project",
        &cwd,
    ];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let copilot = [("COPILOT_CLI", OsStr::new("1"))];
    let out = hook_bytes(&args, &copilot_pre_tool_use(&cwd, "rm -rf /"), &copilot);
    // Exit 0 and Claude Code's denial: Copilot CLI gives its reason to the model, where exit
    // 2's reason never reaches it.
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let specific = &reply["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "deny", "{reply}");
    assert!(
        specific["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("no rm -rf here")),
        "{reply}"
    );
    // No warning for the fields Copilot CLI never sends.
    assert!(
        !text(&out.stderr).contains("read as it was sent"),
        "{}",
        text(&out.stderr)
    );

    // The same bytes with no `COPILOT_CLI`: taken for Claude Code's, whose every event has
    // those fields, so the relay says what it tolerated.
    let out = hook_bytes(&args, &copilot_pre_tool_use(&cwd, "rm -rf /"), &[]);
    assert!(
        text(&out.stdout).contains("no rm -rf here"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("`tool_use_id`; read as it was sent"),
        "{}",
        text(&out.stderr)
    );

    // A relay that cannot evaluate the event (not JSON) blocks it in Copilot CLI's form, where
    // Claude Code's exit 2 would lose the reason.
    let out = hook_bytes(&args, b"not json", &copilot);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"], "deny",
        "{reply}"
    );

    // An allowed call stays allowed.
    let out = hook_bytes(&args, &copilot_pre_tool_use(&cwd, "ls"), &copilot);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains("deny"), "{}", text(&out.stdout));
}

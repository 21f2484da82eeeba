//! The relay knows its caller: Claude Code's relay started by Copilot CLI (which runs a
//! project's `.claude/settings.json` entries and sets `COPILOT_CLI=1` for them) answers as
//! Copilot CLI reads it. A variable of the environment, so the binary.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::ffi::OsStr;

use hook_protocol::Event;
use hook_test_support::Scene;
use hook_test_support::events::{RM_RF_GUARD, verboo};
use hook_test_support::relay::{self, verboo_home};
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
            "command": RM_RF_GUARD}]}]}),
    );
    let cwd = project.display().to_string();
    let args = hook_test_support::args::relay(verboo(), &Event::PreToolUse, &home, &project);
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

/// `hook relay status` for Claude Code, where Copilot CLI is installed (`~/.copilot`): a user
/// install does not guard Copilot CLI, and a project install does only in a folder it trusts.
#[test]
fn status_tells_a_copilot_user_what_claude_codes_entries_do_not_guard() {
    let home = crate::relay_install::Home::new();
    let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "exit 0"}]}]}})
    .to_string();
    std::fs::create_dir_all(home.claude().join("hook-relay")).unwrap();
    std::fs::write(home.claude().join("hook-relay/settings.json"), &guard).unwrap();
    let project = home.root.join("project");
    std::fs::create_dir_all(project.join(".claude/hook-relay")).unwrap();
    std::fs::write(project.join(".claude/hook-relay/settings.json"), &guard).unwrap();
    let project_arg = project.display().to_string();
    home.ok(&["relay", "install", "--agent", "claude"], &[]);
    home.ok(
        &[
            "relay",
            "install",
            "--agent",
            "claude",
            "--project",
            &project_arg,
        ],
        &[],
    );
    let status = [
        "relay",
        "status",
        "--agent",
        "claude",
        "--project",
        &project_arg,
    ];
    // No Copilot CLI here: nothing said.
    let out = home.hook(&status, &[]);
    assert!(
        !text(&out.stdout).contains("Copilot"),
        "{}",
        text(&out.stdout)
    );

    std::fs::create_dir_all(home.root.join(".copilot")).unwrap();
    let said = text(&home.hook(&status, &[]).stdout);
    assert!(
        said.contains("note: Copilot CLI") && said.contains("never reads ~/.claude/settings.json"),
        "{said}"
    );
    assert!(said.contains("not in `trustedFolders`"), "{said}");

    // Trusted: only the user entries' note is left.
    std::fs::write(
        home.root.join(".copilot/config.json"),
        json!({"trustedFolders": [project_arg]}).to_string(),
    )
    .unwrap();
    let said = text(&home.hook(&status, &[]).stdout);
    assert!(
        said.contains("never reads ~/.claude/settings.json"),
        "{said}"
    );
    assert!(!said.contains("trustedFolders"), "{said}");
}

/// `hook doctor` for Claude Code finds the relay entries `gemini hooks migrate --from-claude`
/// copied into Gemini CLI's settings with Claude Code's seconds, which Gemini CLI reads as
/// milliseconds (measured with Gemini CLI 0.61.0: cut off, the call ran).
#[test]
fn doctor_finds_a_relay_entry_gemini_cuts_off() {
    let home = crate::relay_install::Home::new();
    let project = home.root.join("project");
    std::fs::create_dir_all(project.join(".gemini")).unwrap();
    // As `migrate` writes it from `hook relay install --agent claude --project .`'s entry.
    let migrated = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"command": "hook relay --dialect verboo --event PreToolUse --scope project --entry-timeout 25 || exit 2 # hook-relay-install",
         "type": "command", "timeout": 25}]}],
        "AfterTool": []}});
    std::fs::write(project.join(".gemini/settings.json"), migrated.to_string()).unwrap();
    let project_arg = project.display().to_string();
    let out = home.hook(
        &["doctor", "--agent", "claude", "--project", &project_arg],
        &[],
    );
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("\"timeout\": 25 as 25 ms"), "{said}");
    assert!(
        said.contains("gemini hooks migrate --from-claude"),
        "{said}"
    );
    assert!(said.contains("set its \"timeout\" to 25000"), "{said}");

    // In milliseconds, as the README writes it: nothing to say.
    let fixed = migrated
        .to_string()
        .replace("\"timeout\":25", "\"timeout\":25000");
    std::fs::write(project.join(".gemini/settings.json"), fixed).unwrap();
    let out = home.hook(
        &["doctor", "--agent", "claude", "--project", &project_arg],
        &[],
    );
    assert!(
        !text(&out.stdout).contains("Gemini"),
        "{}",
        text(&out.stdout)
    );
}

/// An async hook beside a guard, relayed for Gemini CLI: the answer (the guard's block, in
/// Gemini CLI's form) is not held by the async hook, which still finishes its work after.
#[test]
fn an_async_hook_beside_a_guard_does_not_hold_a_translated_answer() {
    let scene = Scene::new();
    let project = scene.project();
    let (home, go, done) = relay::guard_beside_async(scene.root(), RM_RF_GUARD);
    let cwd = project.display().to_string();
    let call = json!({"hook_event_name": "BeforeTool", "session_id": "s", "cwd": cwd,
        "transcript_path": "/t.jsonl", "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf /"}});
    let args = [
        "relay",
        "--agent",
        "gemini",
        "--event",
        "BeforeTool",
        "--home",
        home.to_str().unwrap(),
        "--project",
        &cwd,
    ];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let out = hook_bytes(&args, call.to_string().as_bytes(), &[]);
    assert!(!done.exists(), "the relay waited for the async hook");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["decision"], "block", "{reply}");
    std::fs::write(&go, "").unwrap();
    let finished = (0..600).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        done.exists()
    });
    assert!(finished, "the async hook did not finish its work");
}

//! `hook relay` as Claude Code and Codex call it: the event on stdin, the agent's own output
//! on stdout, the relay's own files, trust.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::Path;

use serde_json::{Value, json};

use crate::cli::hook;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn verboo_pre_tool_use(project: &Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": "/t.jsonl",
        "cwd": project, "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "toolu_1"})
    .to_string()
}

#[test]
fn a_pulled_project_hook_waits_for_trust_and_the_user_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    // What a `git pull` brought: a project relay hook that blocks every Bash call.
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'the pulled hook ran' >&2; exit 2"}]}]}}"#,
    );
    let home_arg = home.display().to_string();
    let relay = ["relay", "--dialect", "verboo", "--home", home_arg.as_str()];

    let out = hook(&relay, &verboo_pre_tool_use(&project, "ls"));
    assert_eq!(out.status.code(), Some(0));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply.pointer("/hookSpecificOutput/permissionDecision"),
        None
    );
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(message.contains("is not trusted"), "{message}");
    assert!(message.contains("--relay"), "{message}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not trusted"), "{stderr}");

    // `hook list --relay` shows it, untrusted; the user reviews and trusts it.
    let project_arg = project.display().to_string();
    let located = [
        "--dialect",
        "verboo",
        "--home",
        home_arg.as_str(),
        "--project",
        project_arg.as_str(),
        "--relay",
    ];
    let mut list = vec!["list", "--json"];
    list.extend(located);
    let out = hook(&list, "");
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let key = listed[0]["key"].as_str().unwrap().to_owned();
    assert_eq!(listed[0]["trust"]["status"], "untrusted", "{listed}");
    let mut trust = vec!["trust"];
    trust.extend(located);
    trust.push(&key);
    let out = hook(&trust, "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Now it runs, and Claude Code gets a deny with its reason.
    let out = hook(&relay, &verboo_pre_tool_use(&project, "ls"));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply["hookSpecificOutput"],
        json!({"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "the pulled hook ran"})
    );
}

#[test]
fn codex_gets_its_own_strict_output_from_the_relay() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    // lime trusts only what the user trusted, even in the user's file: trust it first.
    write(
        &home.join("hook-relay/config.toml"),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"echo 'no rm' >&2; exit 2\"\n",
    );
    let home_arg = home.display().to_string();
    let out = hook(
        &[
            "trust",
            "--dialect",
            "lime",
            "--home",
            &home_arg,
            "--relay",
            "--all",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t",
        "cwd": project, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
        "tool_input": {"command": "rm -rf /"}});
    let out = hook(
        &["relay", "--dialect", "lime", "--home", &home_arg],
        &event.to_string(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "no rm"}})
    );
    hook_protocol::validate_output(
        hook_protocol::Dialect::Lime,
        &hook_protocol::Event::PreToolUse,
        &out.stdout,
    )
    .unwrap();
}

#[test]
fn the_relay_refuses_wuu_and_blocks_an_event_without_a_name() {
    let out = hook(&["relay", "--dialect", "wuu"], "{}");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Claude Code"));
    // An event without a name cannot be evaluated: blocked (exit 2), saying why.
    let out = hook(&["relay", "--dialect", "verboo"], r#"{"cwd": "/"}"#);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hook_event_name"));
}

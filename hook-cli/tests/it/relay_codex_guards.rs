//! Codex's relay runs the guards written for Claude Code (issue 45), through what `hook relay
//! install --dialect lime` writes: with `HOME` of its own, a guard only in Claude Code's relay
//! user file gets Codex an entry, and the relay that entry starts blocks `rm -rf` with the
//! guard's reason.

#![cfg(unix)]
use serde_json::{Value, json};

use crate::cli::text;
use crate::relay_install::{Home, read, write};

/// A Claude Code guard: `rm -rf` is denied.
const RM_RF_GUARD: &str = "if grep -q 'rm -rf'; then echo 'no rm -rf here' >&2; exit 2; fi";

#[test]
fn codex_gets_an_entry_for_a_claude_code_guard_and_its_relay_runs_it() {
    let home = Home::new();
    write(
        &home.claude().join("hook-relay/settings.json"),
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": RM_RF_GUARD, "timeout": 40}]}]}})
        .to_string(),
    );
    home.ok(&["relay", "install", "--dialect", "lime"], &[]);
    let config = home.codex().join("config.toml");
    let doc: toml::Value = toml::from_str(&read(&config)).unwrap();
    let entry = &doc["hooks"]["PreToolUse"][0];
    assert_eq!(entry["matcher"].as_str(), Some("Bash"), "{doc}");
    // The entry's timeout covers the Claude Code guard's.
    assert_eq!(entry["hooks"][0]["timeout"].as_integer(), Some(45), "{doc}");
    let command = entry["hooks"][0]["command"].as_str().unwrap();
    assert!(command.contains("--event PreToolUse"), "{command}");

    let project = home.root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let call = |command: &str| {
        json!({"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t",
            "cwd": project, "transcript_path": null, "model": "gpt-5",
            "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
            "tool_input": {"command": command}})
        .to_string()
    };
    let relay = [
        "relay",
        "--dialect",
        "lime",
        "--event",
        "PreToolUse",
        "--scope",
        "user",
    ];
    let out = home.hook_in(&relay, &call("rm -rf /"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"], "deny",
        "{reply}"
    );
    assert!(
        reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("no rm -rf here")),
        "{reply}"
    );
    let out = home.hook_in(&relay, &call("ls"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).contains("deny"), "{}", text(&out.stdout));
}

/// A Claude Code guard no Codex entry starts the relay for (written after the install) is said
/// at the start of each Codex session and counted by `hook relay status --agent codex`, with
/// the `sync` that fixes it; once synced, neither.
#[test]
fn an_unreached_claude_code_guard_is_said_in_codex() {
    let home = Home::new();
    let project = home.root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let session = json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": project,
        "transcript_path": null, "model": "gpt-5", "permission_mode": "default",
        "source": "startup"})
    .to_string();
    let relay = [
        "relay",
        "--dialect",
        "lime",
        "--event",
        "SessionStart",
        "--scope",
        "user",
    ];
    // Installed for a relay hook of Codex's own before the guard was written.
    write(
        &home.codex().join("hook-relay/config.toml"),
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"true\"\n",
    );
    home.ok(&["relay", "install", "--dialect", "lime"], &[]);
    write(
        &home.claude().join("hook-relay/settings.json"),
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": RM_RF_GUARD}]}]}})
        .to_string(),
    );
    let out = home.hook_in(&relay, &session);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        said.contains("Claude Code guard") && said.contains("never runs in Codex CLI"),
        "{said}"
    );
    assert!(said.contains("hook relay sync --agent codex"), "{said}");
    let project_arg = project.display().to_string();
    let status = [
        "relay",
        "status",
        "--agent",
        "codex",
        "--project",
        &project_arg,
    ];
    let out = home.hook(&status, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("never runs in Codex CLI"),
        "{}",
        text(&out.stdout)
    );

    home.ok(&["relay", "sync", "--dialect", "lime"], &[]);
    let out = home.hook_in(&relay, &session);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!said.contains("never runs in Codex CLI"), "{said}");
    let out = home.hook(&status, &[]);
    assert!(
        !text(&out.stdout).contains("never runs in Codex CLI"),
        "{}",
        text(&out.stdout)
    );
}

//! The agents by name: `hook relay status` on an install with one broken guard (text and
//! JSON), `hook log` and `hook stats` with no agent, the errors that name the agents, and the
//! help of the commands that read an agent's hooks or journal.

use super::Scene;

/// A user guard that blocks `rm -rf`, trusted as the user's own.
const USER_RELAY: &str = r#"{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "grep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }; exit 0"}]}]
}}"#;

/// A project guard, not trusted yet: the relay skips it.
const PROJECT_RELAY: &str = r#"{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./no-force-push.sh"}]}]
}}"#;

#[test]
fn relay_status_shows_the_install_its_hooks_and_a_broken_guard() {
    let scene = Scene::new();
    scene.write("home/.claude/settings.json", "{\"model\": \"opus\"}\n");
    scene.write("home/.claude/hook-relay/settings.json", USER_RELAY);
    scene.write("project/.claude/hook-relay/settings.json", PROJECT_RELAY);
    scene.script(
        "project/no-force-push.sh",
        "#!/bin/sh\ngrep -q 'push --force' && exit 2\nexit 0\n",
    );
    snap!(
        "relay_status_not_installed",
        scene.run(&["relay", "status", "--agent", "claude"], "")
    );
    scene.run(&["relay", "install", "--agent", "claude"], "");
    let project = scene.project().display().to_string();
    let event = serde_json::json!({
        "session_id": "s1", "transcript_path": "/dev/null", "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"}, "permission_mode": "default",
        "tool_use_id": "t1"
    })
    .to_string();
    let relay = ["relay", "--agent", "claude", "--event", "PreToolUse"];
    snap!("relay_status_relay_blocks", scene.run(&relay, &event));
    snap!("relay_status", scene.run(&["relay", "status"], ""));
    snap!(
        "relay_status_json",
        scene.run(&["relay", "status", "--agent", "claude", "--json"], "")
    );
}

#[test]
fn log_and_stats_with_no_agent() {
    let scene = Scene::new();
    scene.write(
        "home/.claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    scene.write(
        "home/.wuu/config.json",
        r#"{"hooks": {"Stop": [{"type": "command", "command": "echo broken >&2; exit 1"}]}}"#,
    );
    scene.run(
        &["run", "--agent", "claude", "--event", "Stop"],
        r#"{"session_id": "s1", "stop_hook_active": false}"#,
    );
    scene.run(
        &["run", "--agent", "wuu", "--event", "Stop"],
        r#"{"session_id": "s2"}"#,
    );
    snap!("log_every_agent", scene.run(&["log"], ""));
    snap!(
        "stats_every_agent",
        super::loose(&scene.run(&["stats"], ""))
    );
}

#[test]
fn errors_and_help_name_the_agents() {
    let scene = Scene::new();
    let table: &[(&str, &[&str])] = &[
        ("agent_typo", &["list", "--agent", "claud"]),
        ("dialect_given_an_agent", &["doctor", "--dialect", "codex"]),
        ("agent_given_a_dialect", &["stats", "--agent", "verboo"]),
        ("no_agent_found", &["doctor"]),
        ("help_log", &["log", "--help"]),
        ("help_stats", &["stats", "--help"]),
        ("help_doctor", &["doctor", "--help"]),
        ("help_replay", &["replay", "--help"]),
        ("help_list", &["list", "--help"]),
        ("help_relay_status", &["relay", "status", "--help"]),
    ];
    for (name, args) in table {
        snap!(format!("agents_{name}"), scene.run(args, ""));
    }
}

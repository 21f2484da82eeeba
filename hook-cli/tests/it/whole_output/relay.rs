//! `hook relay install` (plain, `--move`, `--trust`), `relay sync`, `relay uninstall`, and the
//! relay answering an event, each output whole; the files they write are snapshotted too.

use super::Scene;

const CLAUDE_RELAY: &str = r#"{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 20}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]
}}"#;

const CLAUDE_SETTINGS: &str = r#"{
  "model": "opus",
  "hooks": {
    "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "npx prettier --write", "timeout": 30}]}]
  }
}
"#;

#[test]
fn relay_install_claude_code() {
    let scene = Scene::new();
    scene.write("home/.claude/hook-relay/settings.json", CLAUDE_RELAY);
    scene.write("home/.claude/settings.json", CLAUDE_SETTINGS);
    snap!(
        "relay_install_claude",
        scene.run(&["relay", "install", "--dialect", "verboo"], "")
    );
    snap!(
        "relay_install_claude_settings",
        scene.read("home/.claude/settings.json")
    );
    snap!(
        "relay_install_claude_again",
        scene.run(&["relay", "install", "--dialect", "verboo"], "")
    );
    snap!(
        "relay_uninstall_claude",
        scene.run(&["relay", "uninstall", "--dialect", "verboo"], "")
    );
    assert_eq!(scene.read("home/.claude/settings.json"), CLAUDE_SETTINGS);
}

#[test]
fn relay_install_move_claude_code() {
    let scene = Scene::new();
    scene.write("home/.claude/settings.json", CLAUDE_SETTINGS);
    snap!(
        "relay_install_move_claude",
        scene.run(&["relay", "install", "--dialect", "verboo", "--move"], "")
    );
    snap!(
        "relay_install_move_claude_settings",
        scene.read("home/.claude/settings.json")
    );
    snap!(
        "relay_install_move_claude_relay_file",
        scene.read("home/.claude/hook-relay/settings.json")
    );
    snap!(
        "relay_list_after_move_claude",
        scene.run(&["list", "--dialect", "verboo", "--relay"], "")
    );
    // Uninstall puts the moved hooks back where they came from.
    snap!(
        "relay_uninstall_after_move_claude",
        scene.run(&["relay", "uninstall", "--dialect", "verboo"], "")
    );
    assert_eq!(scene.read("home/.claude/settings.json"), CLAUDE_SETTINGS);
}

const GEMINI_SETTINGS: &str = r#"{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "hooks": {
    "BeforeTool": [{"matcher": "read_file", "hooks": [{"type": "command", "command": "./audit.sh", "timeout": 2000}]}]
  }
}
"#;

#[test]
fn relay_install_gemini_cli_then_uninstall() {
    let scene = Scene::new();
    // A guard on an event Gemini CLI has no counterpart of, beside the Bash and Stop ones.
    scene.write(
        "home/.claude/hook-relay/settings.json",
        &CLAUDE_RELAY.replace(
            r#""Stop": ["#,
            r#""PermissionRequest": [{"hooks": [{"type": "command", "command": "./ask.sh"}]}],
  "Stop": ["#,
        ),
    );
    scene.write("home/.gemini/settings.json", GEMINI_SETTINGS);
    snap!(
        "relay_install_gemini",
        scene.run(&["relay", "install", "--agent", "gemini"], "")
    );
    snap!(
        "relay_install_gemini_settings",
        scene.read("home/.gemini/settings.json")
    );
    // Its entries reach the Bash guard; the PermissionRequest one it cannot run is named.
    snap!(
        "relay_status_gemini",
        scene.run(&["relay", "status", "--agent", "gemini"], "")
    );
    // ... at the start of each session too, in Gemini CLI's terms.
    let project = scene.project().display().to_string();
    let start = serde_json::json!({
        "session_id": "s1", "cwd": project, "hook_event_name": "SessionStart", "source": "startup"
    });
    snap!(
        "relay_answer_gemini_session_start",
        scene.run(
            &[
                "relay",
                "--agent",
                "gemini",
                "--event",
                "SessionStart",
                "--scope",
                "user"
            ],
            &start.to_string()
        )
    );
    snap!(
        "relay_uninstall_gemini",
        scene.run(&["relay", "uninstall", "--agent", "gemini"], "")
    );
    assert_eq!(scene.read("home/.gemini/settings.json"), GEMINI_SETTINGS);
}

#[test]
fn relay_install_copilot_cli_writes_its_own_hook_file() {
    let scene = Scene::new();
    scene.write("home/.claude/hook-relay/settings.json", CLAUDE_RELAY);
    snap!(
        "relay_install_copilot",
        scene.run(&["relay", "install", "--agent", "copilot"], "")
    );
    snap!(
        "relay_install_copilot_file",
        scene.read("home/.copilot/hooks/hook-relay.json")
    );
    snap!(
        "relay_uninstall_copilot",
        scene.run(&["relay", "uninstall", "--agent", "copilot"], "")
    );
}

const CODEX_RELAY: &str = r#"
[[hooks.PreToolUse]]
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./guard.sh"
timeout = 20
"#;

const CODEX_CONFIG: &str =
    "# my Codex config\nmodel = \"gpt-5\"\n\n[features]\ncodex_hooks = true\n";

#[test]
fn relay_install_trust_codex_then_sync_then_uninstall() {
    let scene = Scene::new();
    scene.write("home/.codex/hook-relay/config.toml", CODEX_RELAY);
    scene.write("home/.codex/config.toml", CODEX_CONFIG);
    snap!(
        "relay_install_trust_codex",
        scene.run(&["relay", "install", "--dialect", "lime", "--trust"], "")
    );
    // Codex's trust hash covers the command, which names this checkout's `hook` binary.
    let hashes = regex::Regex::new(r#"trusted_hash = "sha256:[0-9a-f]{64}""#).unwrap();
    let config = scene.read("home/.codex/config.toml");
    snap!(
        "relay_install_trust_codex_config",
        hashes
            .replace_all(&config, r#"trusted_hash = "[HASH]""#)
            .into_owned()
    );
    // A second event in the relay file: sync adds its entry.
    scene.write(
        "home/.codex/hook-relay/config.toml",
        &format!(
            "{CODEX_RELAY}\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo done\"\n"
        ),
    );
    snap!(
        "relay_sync_codex",
        scene.run(&["relay", "sync", "--dialect", "lime"], "")
    );
    snap!(
        "relay_uninstall_codex",
        scene.run(&["relay", "uninstall", "--dialect", "lime"], "")
    );
    let config = scene.read("home/.codex/config.toml");
    snap!(
        "relay_uninstall_codex_config",
        hashes
            .replace_all(&config, r#"trusted_hash = "[HASH]""#)
            .into_owned()
    );
}

#[test]
fn relay_install_errors() {
    let scene = Scene::new();
    snap!(
        "relay_install_no_relay_hooks",
        scene.run(&["relay", "install", "--dialect", "verboo"], "")
    );
    snap!(
        "relay_install_wuu",
        scene.run(&["relay", "install", "--dialect", "wuu"], "")
    );
    scene.write("home/.claude/hook-relay/settings.json", CLAUDE_RELAY);
    scene.write("home/.claude/settings.json", "{\"hooks\": [1,\n");
    snap!(
        "relay_install_broken_settings",
        scene.run(&["relay", "install", "--dialect", "verboo"], "")
    );
    scene.write(
        "home/.claude/hook-relay/settings.json",
        "{\"hooks\": {\"PreToolUse\": 3}}",
    );
    snap!(
        "relay_install_broken_relay_file",
        scene.run(&["relay", "install", "--dialect", "verboo"], "")
    );
    snap!(
        "relay_bad_flag",
        scene.run(&["relay", "--dialect", "verboo", "--evnt", "Stop"], "")
    );
}

#[test]
fn relay_answers() {
    let scene = Scene::new();
    scene.script(
        "project/guard.sh",
        "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }\nexit 0\n",
    );
    scene.write("home/.claude/hook-relay/settings.json", CLAUDE_RELAY);
    let project = scene.project().display().to_string();
    let event = |command: &str| {
        serde_json::json!({
            "session_id": "s1", "transcript_path": "/dev/null", "cwd": project,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "permission_mode": "default",
            "tool_use_id": "t1"
        })
        .to_string()
    };
    let relay = [
        "relay",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--project",
        &project,
    ];
    snap!("relay_answer_blocks", scene.run(&relay, &event("rm -rf /")));
    snap!("relay_answer_allows", scene.run(&relay, &event("ls")));
    snap!(
        "relay_answer_garbled",
        scene.run(&relay, "{\"hook_event_name\": ")
    );
}

#[test]
fn relay_dead_guard() {
    let scene = Scene::new();
    // The guard's program is not on the agent's PATH (the shell's own words differ between
    // systems: a stand-in that says it the same everywhere).
    let guard = |on_failure: &str| {
        format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "echo 'guard.sh: jq: command not found' >&2; exit 127"{on_failure}}}]}}]}}}}"#
        )
    };
    scene.write("home/.claude/hook-relay/settings.json", &guard(""));
    let project = scene.project().display().to_string();
    let event = |session: &str| {
        serde_json::json!({
            "session_id": session, "transcript_path": "/dev/null", "cwd": project,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "rm -rf /"}, "permission_mode": "default",
            "tool_use_id": "t1"
        })
        .to_string()
    };
    let relay = [
        "relay",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--project",
        &project,
    ];
    // Named once in the session; after that on stderr only.
    snap!("relay_answer_dead_guard", scene.run(&relay, &event("s1")));
    snap!(
        "relay_answer_dead_guard_again",
        scene.run(&relay, &event("s1"))
    );
    // A guard that must never fail open.
    scene.write(
        "home/.claude/hook-relay/settings.json",
        &guard(r#", "onFailure": "block""#),
    );
    snap!(
        "relay_answer_dead_guard_on_failure_block",
        scene.run(&relay, &event("s2"))
    );
    // The relay file is there and no entry starts the relay (never installed, or uninstalled).
    snap!(
        "doctor_relay_not_installed",
        scene.run(
            &["doctor", "--dialect", "verboo", "--path", "/usr/bin:/bin"],
            ""
        )
    );
}

//! Codex's relay (`hook relay --dialect lime`) runs the guards written for Claude Code in
//! Claude Code's relay files too (issue 45), beside Codex's own relay file. `--claude-home`
//! (hidden) names Claude Code's home, which the test cannot set through `CLAUDE_CONFIG_DIR`.

use std::path::Path;

use hook_test_support::Scene;
use hook_test_support::events::RM_RF_GUARD;
use serde_json::{Value, json};

use super::super::{Ran, hook_bytes, write};
use super::{trust_lime_relay, verboo_home};

/// Codex's `PreToolUse` for a shell `command` (as Codex CLI sends it: `transcript_path` null).
fn codex_shell_call(project: &Path, command: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "session_id": "s-codex", "turn_id": "t",
        "cwd": project, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
        "tool_input": {"command": command}})
}

/// `hook relay --dialect lime --event PreToolUse` with Codex's `--home` and Claude Code's.
fn codex_relay(codex_home: &Path, claude_home: &Path, project: &Path, stdin: &Value) -> Ran {
    let (codex_home, claude_home) = (
        codex_home.display().to_string(),
        claude_home.display().to_string(),
    );
    let project = project.display().to_string();
    let args = [
        "relay",
        "--dialect",
        "lime",
        "--event",
        "PreToolUse",
        "--home",
        &codex_home,
        "--claude-home",
        &claude_home,
        "--project",
        &project,
    ];
    hook_bytes(&args, stdin.to_string().as_bytes())
}

/// The denial Codex reads: `permissionDecision: "deny"` with its reason.
fn denial(ran: &Ran) -> Option<String> {
    let reply: Value = serde_json::from_str(ran.stdout.trim()).ok()?;
    let specific = &reply["hookSpecificOutput"];
    (specific["permissionDecision"] == "deny").then(|| {
        specific["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    })
}

fn rm_guard_home(root: &Path) -> std::path::PathBuf {
    verboo_home(
        &root.join("claude"),
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": RM_RF_GUARD}]}]}),
    )
}

#[test]
fn a_claude_code_guard_blocks_rm_rf_in_codex_without_lime_relay_hooks() {
    let scene = Scene::new();
    let project = scene.project();
    let codex_home = scene.root().join("codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    let claude_home = rm_guard_home(scene.root());
    let ran = codex_relay(
        &codex_home,
        &claude_home,
        &project,
        &codex_shell_call(&project, "rm -rf /"),
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        denial(&ran).is_some_and(|r| r.contains("no rm -rf here")),
        "{} / {}",
        ran.stdout,
        ran.stderr
    );
    hook_protocol::validate_output(
        hook_test_support::events::lime(),
        &hook_protocol::Event::PreToolUse,
        ran.stdout.as_bytes(),
    )
    .unwrap();
    // Recorded in Claude Code's relay journal, as Codex's.
    let journal = find_journal(&claude_home).expect("Claude Code's relay journal");
    let text = std::fs::read_to_string(journal).unwrap();
    assert!(text.contains("\"codex\""), "{text}");

    let ran = codex_relay(
        &codex_home,
        &claude_home,
        &project,
        &codex_shell_call(&project, "ls"),
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(denial(&ran), None, "{} / {}", ran.stdout, ran.stderr);
}

#[test]
fn codex_relay_hooks_still_run_beside_the_claude_code_guards() {
    let scene = Scene::new();
    let project = scene.project();
    let codex_home = scene.root().join("codex");
    write(
        &codex_home.join("hook-relay/config.toml"),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"if grep -q sudo; then echo 'no sudo' >&2; exit 2; fi\"\n",
    );
    trust_lime_relay(&codex_home);
    let claude_home = rm_guard_home(scene.root());
    let deny = |command: &str| {
        let ran = codex_relay(
            &codex_home,
            &claude_home,
            &project,
            &codex_shell_call(&project, command),
        );
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        denial(&ran)
    };
    assert!(deny("sudo ls").is_some_and(|r| r.contains("no sudo")));
    assert!(deny("rm -rf /").is_some_and(|r| r.contains("no rm -rf here")));
    // Both block: Codex's own reason first, then the Claude Code guard's.
    let both = deny("sudo rm -rf /").unwrap();
    assert!(
        both.find("no sudo") < both.find("no rm -rf here") && both.contains("no sudo"),
        "{both}"
    );
    assert_eq!(deny("ls"), None);
}

/// The relay journal under `dir`, wherever the state folder puts it.
fn find_journal(dir: &Path) -> Option<std::path::PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_journal(&path) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == "journal.jsonl") {
            return Some(path);
        }
    }
    None
}

/// Claude Code's relay files that cannot be loaded keep its guards from being evaluated: the
/// event is blocked, saying why, as the relay does with its own.
#[test]
fn claude_code_guards_that_cannot_be_loaded_block_the_event() {
    let scene = Scene::new();
    let project = scene.project();
    let codex_home = scene.root().join("codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    let missing = scene.root().join("no-claude-home");
    let ran = codex_relay(
        &codex_home,
        &missing,
        &project,
        &codex_shell_call(&project, "ls"),
    );
    assert_eq!(ran.code, 2, "{}", ran.stdout);
    assert!(
        ran.stderr.contains("cannot load the Claude Code guards"),
        "{}",
        ran.stderr
    );
}

//! `hook relay --agent qwen|gemini` (in-process): one guard written for Claude Code, in the
//! verboo relay's user file, answers Qwen Code's and Gemini CLI's events (as their releases
//! measured sent them) in the form that blocks in each.

use hook_test_support::Scene;
use std::path::Path;

use serde_json::{Value, json};

use super::super::{Ran, hook_bytes};
use super::verboo_home;

use hook_test_support::events::RM_RF_GUARD as RM_GUARD;

/// `hook relay --agent AGENT --event EVENT`, with `--home` and `--project`, in this process.
fn relay(agent: &str, event: &str, home: &Path, project: &Path, stdin: &Value) -> Ran {
    let home = home.display().to_string();
    let project = project.display().to_string();
    let args = [
        "relay",
        "--agent",
        agent,
        "--event",
        event,
        "--home",
        &home,
        "--project",
        &project,
    ];
    hook_bytes(&args, stdin.to_string().as_bytes())
}

/// A shell call as `agent` sends it (`run_shell_command`; Gemini CLI's event is `BeforeTool`).
fn shell_call(agent: &str, project: &Path, command: &str) -> (&'static str, Value) {
    let cwd = project.display().to_string();
    match agent {
        "gemini" => (
            "BeforeTool",
            json!({"session_id": "062d58c7", "transcript_path": "/t.jsonl", "cwd": cwd,
                "hook_event_name": "BeforeTool", "timestamp": "2026-12-06T20:57:08.808Z",
                "tool_name": "run_shell_command", "tool_input": {"command": command}}),
        ),
        _ => (
            "PreToolUse",
            json!({"session_id": "e110d5d3", "transcript_path": "/t.jsonl", "cwd": cwd,
                "hook_event_name": "PreToolUse", "permission_mode": "yolo",
                "tool_name": "run_shell_command", "tool_input": {"command": command},
                "tool_use_id": "toolu_1", "tool_call_id": "toolu_01"}),
        ),
    }
}

#[test]
fn one_claude_code_guard_blocks_rm_rf_in_qwen_and_gemini() {
    let scene = Scene::new();
    let project = scene.project();
    let home = verboo_home(
        scene.root(),
        json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": RM_GUARD}]}]}),
    );
    for agent in ["qwen", "gemini"] {
        let (event, call) = shell_call(agent, &project, "rm -rf /");
        let ran = relay(agent, event, &home, &project, &call);
        // Exit 0 with the decision on stdout: exit 2 alone lets the call run in both agents
        // when stdout holds JSON or stderr nothing.
        assert_eq!(ran.code, 0, "{agent}: {}", ran.stderr);
        let reply: Value = serde_json::from_str(ran.stdout.trim())
            .unwrap_or_else(|e| panic!("{agent}: {e}: {}", ran.stdout));
        assert_eq!(reply["decision"], "block", "{agent}: {reply}");
        assert!(
            reply["reason"]
                .as_str()
                .is_some_and(|r| r.contains("no rm -rf here")),
            "{agent}: {reply}"
        );
        assert!(
            !ran.stderr.contains("read as it was sent"),
            "{agent}: {}",
            ran.stderr
        );
        // The journal names the agent that called.
        let lines = hook_test_support::read::journal_lines(&home);
        let last = lines.last().expect("a journal line");
        assert_eq!(last["agent"], agent, "{last}");
        assert_eq!(last["event"], "PreToolUse", "{last}");

        let (event, call) = shell_call(agent, &project, "ls");
        let ran = relay(agent, event, &home, &project, &call);
        assert_eq!(ran.code, 0, "{agent}: {}", ran.stderr);
        assert!(
            !ran.stdout.contains("\"decision\""),
            "{agent}: {}",
            ran.stdout
        );
    }
}

#[test]
fn an_event_the_relay_cannot_translate_fails_closed() {
    let scene = Scene::new();
    let project = scene.project();
    let home = verboo_home(scene.root(), json!({}));
    let cwd = project.display().to_string();
    // An event with no Claude Code counterpart: nothing to answer in, so exit 2 with the reason
    // on stderr, which both agents read as a block.
    let ran = relay(
        "gemini",
        "BeforeModel",
        &home,
        &project,
        &json!({"hook_event_name": "BeforeModel", "cwd": cwd}),
    );
    assert_eq!(ran.code, 2, "{}", ran.stdout);
    assert!(
        ran.stderr.contains("has no Claude Code event"),
        "{}",
        ran.stderr
    );
    // A shell call that is not JSON: the entry's event is known, so its block form.
    let ran = relay(
        "gemini",
        "BeforeTool",
        &home,
        &project,
        &json!("not an event"),
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let reply: Value = serde_json::from_str(ran.stdout.trim()).expect("JSON");
    assert_eq!(reply["decision"], "block", "{reply}");
}

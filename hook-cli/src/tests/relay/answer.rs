//! What `hook relay` answers the agent (in-process): its own strict output, the system message
//! escaped, an unknown event, `onFailure: "block"`, untrusted and changed hooks.

use hook_test_support::Scene;
use std::path::Path;

use hook_protocol::{Event, HandlerResult};
use serde_json::{Value, json};

use super::super::{located, output, text, words, write};
use super::{
    agent_reads, event_bytes, is_block, lime, relay, trust_lime_relay, verboo, verboo_home,
};

#[test]
fn the_system_message_escapes_control_characters() {
    let scene = Scene::new();
    let project = scene.project();
    let output = r#"{"systemMessage": "clean\u001b[2J\u001b[Hfake prompt\u202e"}"#;
    let home = verboo_home(
        scene.root(),
        json!({"SessionStart": [{"hooks": [{"type": "command",
            "command": format!("echo '{output}'")}]}]}),
    );
    let event = Event::SessionStart;
    let bytes = event_bytes(verboo(), &event, &project, None);
    let out = relay(verboo(), &home, &project, &event, &bytes);
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    // (After the relay's own notes: no agent entry starts this test's relay.)
    let message = reply["systemMessage"].as_str().unwrap();
    assert_eq!(
        message.lines().last().unwrap(),
        "clean\\x1b[2J\\x1b[Hfake prompt\\u{202e}"
    );
}

/// An event a newer agent sends and this engine does not know: its relay hooks still run, and
/// a hook that blocks it (exit 2, or a block in any known JSON shape) makes the relay answer
/// exit 2 with the reason, never "nothing"; a hook that does not block lets it go, saying the
/// event is unknown.
#[test]
fn a_made_up_event_is_blocked_when_a_relay_hook_blocks_it() {
    let scene = Scene::new();
    let project = scene.project();
    let event = Event::from_name("PreTeleport");
    let cwd = project.display().to_string();
    let input = json!({"hook_event_name": "PreTeleport", "session_id": "s", "cwd": cwd,
        "transcript_path": "/dev/null", "destination": "mars"});
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "exit 2",
            "cat > /dev/null; echo 'not to mars' >&2; exit 2",
            Some("not to mars"),
        ),
        (
            "decision block",
            r#"cat > /dev/null; echo '{"decision":"block","reason":"not to mars"}'"#,
            Some("not to mars"),
        ),
        (
            "permissionDecision deny",
            r#"cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreTeleport","permissionDecision":"deny","permissionDecisionReason":"not to mars"}}'"#,
            Some("not to mars"),
        ),
        (
            "decision.behavior deny",
            r#"cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreTeleport","decision":{"behavior":"deny","message":"not to mars"}}}'"#,
            Some("not to mars"),
        ),
        ("exit 0", "cat > /dev/null; exit 0", None),
        ("exit 1", "cat > /dev/null; echo oops >&2; exit 1", None),
    ];
    for (name, command, blocks) in cases {
        let home = scene
            .root()
            .join(format!("home-{}", name.replace(' ', "-")));
        std::fs::create_dir_all(home.join("hook-relay")).unwrap();
        let settings = json!({"hooks": {"PreTeleport": [{"hooks": [
            {"type": "command", "command": command}]}]}});
        std::fs::write(home.join("hook-relay/settings.json"), settings.to_string()).unwrap();
        let out = relay(
            verboo(),
            &home,
            &project,
            &event,
            input.to_string().as_bytes(),
        );
        let what = format!(
            "{name}: exit {:?}\nstdout {}\nstderr {}",
            out.status.code(),
            text(&out.stdout),
            text(&out.stderr)
        );
        let stderr = text(&out.stderr);
        assert!(stderr.contains("PreTeleport is an event hook"), "{what}");
        match blocks {
            Some(reason) => {
                assert_eq!(out.status.code(), Some(2), "{what}");
                let at = stderr.find(&format!("hook relay: {reason}")).expect(&what);
                assert!(
                    at < stderr.find("PreTeleport is an event").unwrap(),
                    "{what}"
                );
                assert!(out.stdout.is_empty(), "{what}");
            }
            None => {
                assert_eq!(out.status.code(), Some(0), "{what}");
                let stdout: Value = serde_json::from_slice(&out.stdout).unwrap();
                let message = stdout["systemMessage"].as_str().unwrap_or_default();
                assert!(message.contains("does not know"), "{what}");
            }
        }
    }
}

/// `onFailure: "block"` on a relay hook (Claude Code's field; read in Codex relay files too):
/// a guard that is not trusted, or whose script is missing, blocks the event through the relay
/// of both agents, saying why; without it the event goes ahead.
#[test]
fn a_relay_guard_with_on_failure_block_blocks_when_it_cannot_run() {
    let dir = tempfile::tempdir().unwrap();
    // What the reason says to do: trust it (a skip), or make it run again (a failure).
    let trust = "review it, then run `hook trust --dialect";
    let run_again = "Make it run again";
    let cases = [
        // (dialect, onFailure, trusted, command, blocks, why, what to do)
        (
            lime(),
            Some("block"),
            false,
            "true",
            true,
            "not trusted",
            trust,
        ),
        (lime(), None, false, "true", false, "not trusted", trust),
        (
            verboo(),
            Some("block"),
            false,
            "true",
            true,
            "not trusted",
            trust,
        ),
        (
            lime(),
            Some("block"),
            true,
            "./missing-guard.sh",
            true,
            "missing-guard.sh",
            run_again,
        ),
        (
            verboo(),
            Some("block"),
            true,
            "./missing-guard.sh",
            true,
            "missing-guard.sh",
            run_again,
        ),
        (
            verboo(),
            None,
            true,
            "./missing-guard.sh",
            false,
            "missing-guard.sh",
            "",
        ),
    ];
    for (index, (dialect, on_failure, trusted, command, blocks, why, to_do)) in
        cases.into_iter().enumerate()
    {
        let home = dir.path().join(format!("home-{index}"));
        let project = dir.path().join(format!("project-{index}"));
        std::fs::create_dir_all(&project).unwrap();
        let files = home.join("hook-relay");
        std::fs::create_dir_all(&files).unwrap();
        let line = on_failure
            .map(|v| format!("onFailure = \"{v}\"\n"))
            .unwrap_or_default();
        if dialect == lime() {
            std::fs::write(
                files.join("config.toml"),
                format!(
                    "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n{line}",
                    Value::from(command)
                ),
            )
            .unwrap();
            if trusted {
                trust_lime_relay(&home);
            }
        } else {
            let mut handler = json!({"type": "command", "command": command});
            if let Some(value) = on_failure {
                handler["onFailure"] = value.into();
            }
            let settings =
                json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}});
            // Claude Code's user relay file is trusted as written; a project's needs trust.
            let files = if trusted {
                files
            } else {
                project.join(".claude/hook-relay")
            };
            std::fs::create_dir_all(&files).unwrap();
            std::fs::write(files.join("settings.json"), settings.to_string()).unwrap();
        }
        let event = Event::PreToolUse;
        let bytes = event_bytes(dialect, &event, &project, None);
        let out = relay(dialect, &home, &project, &event, &bytes);
        let answer = format!("{}{}", text(&out.stdout), text(&out.stderr));
        let what = format!(
            "{index}: {dialect} {on_failure:?} trusted {trusted}: exit {:?}\n{answer}",
            out.status.code()
        );
        let read = agent_reads(dialect, &event, &out);
        assert_eq!(is_block(&read), blocks, "{what}");
        assert!(answer.contains(why), "{what}");
        if blocks {
            // The reason the agent reads (and gives the model) says why and what to do.
            let HandlerResult::Response(response) = read else {
                panic!("{what}")
            };
            let reason = response.reason.unwrap_or_default();
            assert!(reason.contains("onFailure"), "{what}\nreason: {reason}");
            assert!(reason.contains(why), "{what}\nreason: {reason}");
            assert!(reason.contains(to_do), "{what}\nreason: {reason}");
        }
    }
}

fn verboo_pre_tool_use(project: &Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": "/t.jsonl",
        "cwd": project, "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "toolu_1"})
    .to_string()
}

/// (`--project` given: in this process the relay would otherwise read `CLAUDE_PROJECT_DIR` from
/// the environment running the tests.)
#[test]
fn a_pulled_project_hook_waits_for_trust_and_the_user_is_told() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    // What a `git pull` brought: a project relay hook that blocks every Bash call.
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'the pulled hook ran' >&2; exit 2"}]}]}}"#,
    );
    let relay_words = located("relay", "verboo", &home, &project);
    let relay = words(&relay_words);

    let out = output(&relay, &verboo_pre_tool_use(&project, "ls"));
    assert_eq!(out.status.code(), Some(0));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply.pointer("/hookSpecificOutput/permissionDecision"),
        None
    );
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(message.contains("is not trusted"), "{message}");
    assert!(message.contains("--relay"), "{message}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("is not trusted"), "{stderr}");

    // `hook list --relay` shows it, untrusted; the user reviews and trusts it.
    let mut list = located("list", "verboo", &home, &project);
    list.extend(["--relay", "--json"].map(str::to_owned));
    let out = output(&words(&list), "");
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let key = listed[0]["key"].as_str().unwrap().to_owned();
    assert_eq!(listed[0]["trust"]["status"], "untrusted", "{listed}");
    let mut trust = located("trust", "verboo", &home, &project);
    trust.extend(["--relay".to_owned(), key]);
    let out = output(&words(&trust), "");
    assert!(out.status.success(), "{}", text(&out.stderr));

    // Now it runs, and Claude Code gets a deny with its reason.
    let out = output(&relay, &verboo_pre_tool_use(&project, "ls"));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply["hookSpecificOutput"],
        json!({"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "the pulled hook ran"})
    );
}

/// As Codex calls it: no `--project` (lime reads no variable for it: the event's `cwd` is the
/// project).
#[test]
fn codex_gets_its_own_strict_output_from_the_relay() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    // lime trusts only what the user trusted, even in the user's file: trust it first.
    write(
        &home.join("hook-relay/config.toml"),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"echo 'no rm' >&2; exit 2\"\n",
    );
    trust_lime_relay(&home);
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t",
        "cwd": project, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
        "tool_input": {"command": "rm -rf /"}});
    let home_arg = home.display().to_string();
    let out = output(
        &["relay", "--dialect", "lime", "--home", &home_arg],
        &event.to_string(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        reply,
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "no rm"}})
    );
    hook_protocol::validate_output(lime(), &Event::PreToolUse, &out.stdout).unwrap();
}

#[test]
fn the_relay_refuses_wuu_and_blocks_an_event_without_a_name() {
    let out = output(&["relay", "--dialect", "wuu"], "{}");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("Claude Code"));
    // An event without a name cannot be evaluated: blocked (exit 2), saying why.
    let out = output(&["relay", "--dialect", "verboo"], r#"{"cwd": "/"}"#);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("hook_event_name"));
}

/// A trusted relay guard whose script changed does not run, and the relay names the script.
#[test]
fn the_relay_names_the_changed_script() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh"}]}]}}"#,
    );
    let guard = project.join(".claude/hooks/guard.sh");
    write(
        &guard,
        "cat >/dev/null\necho 'blocked by the guard' >&2\nexit 2\n",
    );
    let mut trust = located("trust", "verboo", &home, &project);
    trust.extend(["--relay", "--all"].map(str::to_owned));
    let out = output(&words(&trust), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let relay_words = located("relay", "verboo", &home, &project);
    let relay = || output(&words(&relay_words), &verboo_pre_tool_use(&project, "ls"));
    let decision = |out: &hook_test_support::Output| {
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        reply
            .pointer("/hookSpecificOutput/permissionDecision")
            .cloned()
    };
    let out = relay();
    assert_eq!(
        decision(&out),
        Some(json!("deny")),
        "the trusted guard blocks"
    );

    std::fs::write(&guard, "cat >/dev/null\nexit 0\n").unwrap();
    let out = relay();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(decision(&out), None, "the changed guard did not run");
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(message.contains("guard.sh changed"), "{message}");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("guard.sh changed"), "{stderr}");
}

//! Moving never leaves a teammate unguarded without telling them: a lead moves the project's
//! Claude Code guard under the relay (`hook relay install --project . --move`) and is warned
//! that each teammate must trust it on their own machine; a teammate (another home, the
//! project's files as pulled) whose agent runs the relay's entries is told at the start of the
//! session, and on the guarded event, the one command that turns the guard on, and `hook relay
//! status` exits 1 until they run it; after that command, their `rm -rf` is blocked. Spawns
//! the binary and runs the entries through a shell as the agent does (`HOME`, `PATH`,
//! `CLAUDE_PROJECT_DIR` are the agent's).
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::cli::text;
use crate::relay_install::{Home, read, relay_entries, write};

/// The `PATH` the agent starts hooks with: this build's `hook` first.
fn agent_path() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_hook")).parent().unwrap();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(paths).unwrap()
}

/// `sh -c command` as Claude Code runs an entry: in the project, with `event` on stdin.
fn run_entry(home: &Home, project: &Path, command: &str, event: &Value) -> Output {
    hook_test_support::relay::run_entry(
        command,
        project,
        &home.root,
        &agent_path(),
        &[("CLAUDE_PROJECT_DIR", project.as_os_str())],
        event.to_string().as_bytes(),
    )
}

/// `hook args` with `HOME` at `home`, in `project`, with the agent's `PATH`.
fn hook_in(home: &Home, project: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .current_dir(project)
        .env("HOME", &home.root)
        .env("PATH", agent_path())
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The entry the project's settings hold for `event`.
fn entry(project: &Path, event: &str) -> String {
    let settings: Value =
        serde_json::from_str(&read(&project.join(".claude/settings.json"))).unwrap();
    relay_entries(&settings)
        .into_iter()
        .find(|(e, ..)| e == event)
        .map(|(.., command)| command)
        .unwrap_or_else(|| panic!("no {event} entry: {settings}"))
}

fn system_message(out: &Output) -> String {
    serde_json::from_slice::<Value>(&out.stdout)
        .ok()
        .and_then(|v| v.get("systemMessage")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Whether Claude Code reads the answer as a block: exit 2, or a deny in JSON.
fn blocked(out: &Output) -> bool {
    out.status.code() == Some(2)
        || serde_json::from_slice::<Value>(&out.stdout).is_ok_and(|v| {
            v.pointer("/hookSpecificOutput/permissionDecision") == Some(&json!("deny"))
        })
}

#[test]
fn a_teammate_who_pulls_a_moved_guard_is_told_the_one_command_and_is_guarded_after_it() {
    let lead = Home::new();
    let project: PathBuf = lead.root.join("project");
    write(
        &project.join("hooks/guard.sh"),
        "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'rm -rf is blocked' >&2; exit 2; }\nexit 0\n",
    );
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(
        project.join("hooks/guard.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    write(
        &project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh"}]}]}}"#,
    );
    let dir = project.display().to_string();
    let out = hook_in(
        &lead,
        &project,
        &[
            "relay",
            "install",
            "--agent",
            "claude",
            "--project",
            &dir,
            "--move",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let told = text(&out.stderr);
    assert!(
        told.contains("teammates who pull this get the 1 moved hook")
            && told.contains("`hook trust --dialect verboo --project . --relay --all`"),
        "the lead is told: {told}"
    );

    let pre = json!({"hook_event_name": "PreToolUse", "session_id": "mate-1",
        "transcript_path": "/t.jsonl", "cwd": project, "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build"}, "tool_use_id": "t1"});
    let start = json!({"hook_event_name": "SessionStart", "session_id": "mate-1",
        "transcript_path": "/t.jsonl", "cwd": project, "source": "startup"});
    // The lead's own session: guarded at once (the move trusted what Claude Code ran).
    assert!(blocked(&run_entry(
        &lead,
        &project,
        &entry(&project, "PreToolUse"),
        &pre
    )));

    // A teammate's machine: the same project files, a home of their own.
    let mate = Home::new();
    let trust = format!("hook trust --dialect verboo --project {dir} --relay --all");
    let said = run_entry(&mate, &project, &entry(&project, "SessionStart"), &start);
    let message = system_message(&said);
    assert!(
        message.contains("will not run until you trust them on this machine")
            && message.contains(&trust),
        "the session starts with the one command: {message:?} {}",
        text(&said.stderr)
    );
    let went = run_entry(&mate, &project, &entry(&project, "PreToolUse"), &pre);
    assert!(!blocked(&went), "not trusted yet: {}", text(&went.stdout));
    assert!(
        system_message(&went).contains("could not do its job"),
        "{}",
        system_message(&went)
    );
    let status = hook_in(
        &mate,
        &project,
        &["relay", "status", "--agent", "claude", "--project", &dir],
    );
    assert_eq!(status.status.code(), Some(1), "{}", text(&status.stdout));
    assert!(
        text(&status.stdout).contains("untrusted"),
        "{}",
        text(&status.stdout)
    );

    // The one command, as the lead's warning gives it, in the teammate's clone.
    let out = hook_in(
        &mate,
        &project,
        &[
            "trust",
            "--dialect",
            "verboo",
            "--project",
            ".",
            "--relay",
            "--all",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let now = run_entry(&mate, &project, &entry(&project, "PreToolUse"), &pre);
    assert!(blocked(&now), "{} {}", text(&now.stdout), text(&now.stderr));
    assert!(
        text(&now.stderr).contains("rm -rf is blocked")
            || text(&now.stdout).contains("rm -rf is blocked")
    );
    let status = hook_in(
        &mate,
        &project,
        &["relay", "status", "--agent", "claude", "--project", &dir],
    );
    assert_eq!(status.status.code(), Some(0), "{}", text(&status.stdout));
}

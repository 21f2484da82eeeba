//! `hook relay` where it needs its own process: its async hooks run by a waiter it starts (this
//! program again) after the answer, a signal while the guard runs, `CLAUDE_ENV_FILE` and
//! `CLAUDE_CONFIG_DIR` read from the environment. Failing closed on every event of both agents,
//! and the rest of the relay's answers, are tested in-process (`hook-cli/src/tests/relay/`).
//! The guard, events, readers and relay homes are the test kit's (`hook-test-support`).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use hook_test_support::Scene;
use std::ffi::OsStr;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use hook_protocol::{Dialect, Event};
use hook_test_support::events::{GUARD, event_bytes};
use hook_test_support::read::{agent_reads, is_block};
use hook_test_support::relay::{self, verboo_home};
use serde_json::{Value, json};

use crate::cli::{Binary, hook_bytes, text};

/// The relay for `event` with `stdin` as raw bytes and `env` set, as the agent's entry runs it.
fn relay_env(
    dialect: Dialect,
    home: &Path,
    project: &Path,
    event: &Event,
    stdin: &[u8],
    env: &[(&str, &OsStr)],
) -> Output {
    let args = hook_test_support::args::relay(dialect, event, home, project);
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    hook_bytes(&args, stdin, env)
}

/// Waits (bounded: 30 s) until `path` exists.
fn wait_for(path: &Path) -> bool {
    for _ in 0..600 {
        if path.exists() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    false
}

#[test]
fn the_answer_is_not_held_by_an_async_hook_beside_the_guard() {
    let scene = Scene::new();
    let project = scene.project();
    // The async hook waits for the test's go (at most its own timeout), then leaves a mark.
    let (home, go, done) = relay::guard_beside_async(scene.root(), GUARD);
    let event = Event::PreToolUse;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    // The relay's output ends (its process and every pipe the agent reads) while the async
    // hook still waits: were it held, this would wait for the hook's 60 s timeout, and `done`
    // would never appear.
    let out = relay::answer(&Binary, Dialect::Verboo, &home, &project, &event, &bytes);
    assert!(!done.exists(), "the relay waited for the async hook");
    assert!(
        is_block(&agent_reads(Dialect::Verboo, &event, &out)),
        "{}",
        text(&out.stdout)
    );
    std::fs::write(&go, "").unwrap();
    assert!(wait_for(&done), "the async hook did not finish its work");
}

#[test]
fn environment_written_by_relay_hooks_reaches_the_agents_env_file() {
    let scene = Scene::new();
    let project = scene.project();
    let home = verboo_home(
        scene.root(),
        json!({"SessionStart": [{"hooks": [{"type": "command",
            "command": "echo 'export FROM_RELAY=1' >> \"$CLAUDE_ENV_FILE\""}]}]}),
    );
    let event = Event::SessionStart;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    let agent_file = scene.root().join("agent-env.sh");
    std::fs::write(&agent_file, "export EARLIER=1").unwrap();
    let run = |env_file: Option<&Path>| {
        let env: Vec<(&str, &OsStr)> = env_file
            .map(|file| ("CLAUDE_ENV_FILE", file.as_os_str()))
            .into_iter()
            .collect();
        relay_env(Dialect::Verboo, &home, &project, &event, &bytes, &env)
    };
    let out = run(Some(&agent_file));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&agent_file).unwrap(),
        "export EARLIER=1\nexport FROM_RELAY=1\n"
    );
    // Without the agent's file, or through a symlink, nothing is lost silently.
    let out = run(None);
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(message.contains("was not kept"), "{message}");
    let link = scene.root().join("link.sh");
    std::os::unix::fs::symlink(&agent_file, &link).unwrap();
    let out = run(Some(&link));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = reply["systemMessage"].as_str().unwrap();
    assert!(message.contains("could not be added"), "{message}");
    assert_eq!(
        std::fs::read_to_string(&agent_file).unwrap(),
        "export EARLIER=1\nexport FROM_RELAY=1\n"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_signal_while_the_guard_runs_answers_block() {
    let scene = Scene::new();
    let project = scene.project();
    let started = scene.root().join("started");
    let slow = format!("touch '{}'; exec sleep 300", started.display());
    let home = verboo_home(
        scene.root(),
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": slow}]}]}),
    );
    let event = Event::PreToolUse;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args([
            "relay",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--home",
        ])
        .arg(&home)
        .arg("--project")
        .arg(&project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    assert!(wait_for(&started), "the guard never started");
    let status = Command::new("kill")
        .args(["-s", "TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(is_block(&agent_reads(Dialect::Verboo, &event, &out)));
    assert!(
        text(&out.stderr).contains("SIGTERM"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn session_start_announces_relay_hooks_that_will_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    // A project relay guard nobody trusted yet, on an event no agent entry starts the relay for.
    let relay_file = project.join(".claude/hook-relay/settings.json");
    std::fs::create_dir_all(relay_file.parent().unwrap()).unwrap();
    let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": GUARD}]}]}});
    std::fs::write(&relay_file, guard.to_string()).unwrap();
    let home = verboo_home(dir.path(), json!({}));
    // Claude Code's own settings: the relay entry on SessionStart only.
    let claude = dir.path().join("claude");
    std::fs::create_dir_all(&claude).unwrap();
    let entry = json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
        "command": "hook relay --dialect verboo --event SessionStart # hook-relay-install"}]}]}});
    std::fs::write(claude.join("settings.json"), entry.to_string()).unwrap();
    let event = Event::SessionStart;
    let bytes = event_bytes(Dialect::Verboo, &event, &project, None);
    let out = relay_env(
        Dialect::Verboo,
        &home,
        &project,
        &event,
        &bytes,
        &[("CLAUDE_CONFIG_DIR", claude.as_os_str())],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = reply["systemMessage"].as_str().unwrap();
    let first = message.lines().next().unwrap();
    assert!(
        first.contains("will not run until you trust them") && first.contains("PreToolUse"),
        "{message}"
    );
    assert!(
        message.contains("no PreToolUse entry starts the relay"),
        "{message}"
    );
    assert!(
        message.contains("hook relay sync --dialect verboo"),
        "{message}"
    );
}

//! Issue 21's hostile-input finding that needs the `hook` binary: a hook that makes a FIFO of
//! `CLAUDE_ENV_FILE` neither hangs `hook run` nor keeps a SIGTERM out. The others are tested
//! in-process (`hook-cli/src/tests/hostile_input.rs`).
#![cfg(target_os = "linux")]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use hook_test_support::fs::write;
use std::io::Write as _;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The `hook` binary, without the agents' variables of the environment running the tests (as
/// `cli::hook_bytes`).
fn hook() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hook"));
    command
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CLAUDE_ENV_FILE");
    command
}

/// `command` started in the background with `stdin` written to it.
fn spawn(command: &mut Command, stdin: &str) -> Child {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child
}

/// `hook run --dialect verboo --event SessionStart` with `home` and `project`, in the
/// background.
fn spawn_session_start(home: &Path, project: &Path) -> Child {
    let input = json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": project,
                       "source": "startup"});
    spawn(
        hook()
            .args([
                "run",
                "--dialect",
                "verboo",
                "--event",
                "SessionStart",
                "--home",
            ])
            .arg(home)
            .arg("--project")
            .arg(project)
            .current_dir(project),
        &input.to_string(),
    )
}

/// Waits at most 60 s for `child`, then kills it and fails.
fn finish(mut child: Child) -> Output {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("hook run never exited");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn session_start_hooks(home: &Path, commands: &[&str]) {
    let hooks: Vec<Value> = commands
        .iter()
        .map(|c| json!({"type": "command", "command": c, "timeout": 600}))
        .collect();
    write(
        &home.join("settings.json"),
        &json!({"hooks": {"SessionStart": [{"hooks": hooks}]}}).to_string(),
    );
}

#[test]
fn a_fifo_in_place_of_claude_env_file_neither_hangs_hook_run_nor_keeps_sigterm_out() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = (dir.path().join("home"), dir.path().join("project"));
    std::fs::create_dir_all(&project).unwrap();
    let fifo = "rm \"$CLAUDE_ENV_FILE\"; mkfifo \"$CLAUDE_ENV_FILE\"";
    session_start_hooks(&home, &[fifo]);
    // Alone, the hook's FIFO is refused and `hook run` finishes.
    let out = finish(spawn_session_start(&home, &project));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = outcome["system_messages"][0].as_str().unwrap();
    assert!(message.starts_with("CLAUDE_ENV_FILE: "), "{outcome}");
    assert!(
        message.contains("is a FIFO, not a regular file"),
        "{message}"
    );
    assert!(
        message.contains(&home.join("hook-env").display().to_string()),
        "{message}"
    );
    // With a hook still running after it made the FIFO, SIGTERM ends `hook run` at once.
    let sleeper = format!("{fifo}; touch ready; exec sleep 300");
    session_start_hooks(&home, &[&sleeper]);
    let run = spawn_session_start(&home, &project);
    let started = Instant::now();
    while !project.join("ready").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the hook never ran"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-s", "TERM", &run.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = finish(run);
    assert_eq!(
        out.status.code(),
        Some(128 + 15),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

//! The rest of issue 21's hostile-input findings, through the `hook` binary: what a hook does
//! to `CLAUDE_ENV_FILE`, paths that look like shell syntax, and the small ones (`validate
//! --json` on empty stdin, a home that is a file, a wrong-typed `session_id`, a lock error,
//! `test --native /dev/zero`).
#![cfg(target_os = "linux")]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
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

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
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

/// `hook trust --dialect verboo --all` with `home` and `project`.
fn trust_all(home: &Path, project: &Path) -> Output {
    hook()
        .args(["trust", "--dialect", "verboo", "--all", "--home"])
        .arg(home)
        .arg("--project")
        .arg(project)
        .current_dir(project)
        .output()
        .unwrap()
}

/// Every file under `dir` named `pwned`.
fn pwned_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else if entry.file_name() == "pwned" {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn a_home_project_or_plugin_path_that_looks_like_shell_syntax_runs_nothing() {
    let names = [
        "p$(touch pwned)",
        "p`touch pwned`",
        "p'q",
        "p\"; touch pwned; \"",
        "p q;touch pwned",
        "p${IFS}$(touch${IFS}pwned)",
    ];
    for name in names {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join(format!("home-{name}"));
        let project = dir.path().join(name);
        std::fs::create_dir_all(&project).unwrap();
        let plugin = home.join("plugins/guard");
        write(
            &home.join("settings.json"),
            &json!({"enabledPlugins": {"guard": true}, "hooks": {"SessionStart": [{"hooks": [
                {"type": "command",
                 "command": "printf %s \"$CLAUDE_PROJECT_DIR\" > \"$CLAUDE_PROJECT_DIR/seen-project\""},
                {"type": "command", "command": "printf %s $CLAUDE_PROJECT_DIR > unquoted"},
            ]}]}})
            .to_string(),
        );
        write(
            &plugin.join("plugin.json"),
            &json!({"name": "guard", "version": "1.0.0"}).to_string(),
        );
        // As Claude Code's docs write it, and as Codex's plugins do.
        write(
            &plugin.join("hooks/hooks.json"),
            &json!({"hooks": {"SessionStart": [{"hooks": [
                {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/run.sh\" claude"},
                {"type": "command", "command": "sh \"${PLUGIN_ROOT}/run.sh\" plain"},
            ]}]}})
            .to_string(),
        );
        write(
            &plugin.join("run.sh"),
            "#!/bin/sh\nprintf %s \"$CLAUDE_PLUGIN_ROOT\" > \"$CLAUDE_PROJECT_DIR/seen-plugin-$1\"\n",
        );
        std::fs::set_permissions(
            plugin.join("run.sh"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let trust = trust_all(&home, &project);
        assert!(
            trust.status.success(),
            "{}",
            String::from_utf8_lossy(&trust.stderr)
        );
        let out = finish(spawn_session_start(&home, &project));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
        let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
        let statuses: Vec<&str> = outcome["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["ok", "ok", "ok", "ok"], "{name}: {outcome}");
        assert_eq!(pwned_under(dir.path()), Vec::<PathBuf>::new(), "{name}");
        let seen = |file: &str| std::fs::read_to_string(project.join(file)).unwrap();
        // `hook run` canonicalizes the folders it is given; the temporary folder has no links.
        assert_eq!(
            seen("seen-project"),
            project.display().to_string(),
            "{name}"
        );
        assert_eq!(
            seen("seen-plugin-claude"),
            plugin.display().to_string(),
            "{name}"
        );
        assert_eq!(
            seen("seen-plugin-plain"),
            plugin.display().to_string(),
            "{name}"
        );
    }
}

/// `hook ARGS` in `dir` with `stdin`, to its end.
fn hook_output(args: &[&str], stdin: &str, dir: &Path) -> Output {
    finish(spawn(hook().args(args).current_dir(dir), stdin))
}

#[test]
fn validate_json_on_empty_stdin_prints_a_json_error_report() {
    let dir = tempfile::tempdir().unwrap();
    for stdin in ["", " \n"] {
        let out = hook_output(
            &[
                "validate",
                "--json",
                "--dialect",
                "verboo",
                "--event",
                "PreToolUse",
            ],
            stdin,
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(1));
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(report["valid"], false);
        assert_eq!(report["file"], "<stdin>");
        assert_eq!(report["event"], "PreToolUse");
        assert_eq!(
            report["errors"][0]["message"],
            "stdin is empty: pipe the hook output in, or give a FILE"
        );
    }
    // Any other error before validating is a report too: an unknown event.
    let out = hook_output(
        &[
            "validate",
            "--json",
            "--dialect",
            "verboo",
            "--event",
            "Nope",
        ],
        "{}",
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = report["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("unknown verboo event `Nope`"),
        "{message}"
    );
}

#[test]
fn a_home_that_is_a_file_is_said_to_be_not_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f"), "").unwrap();
    let out = hook_output(
        &["list", "--dialect", "verboo", "--home", "f"],
        "",
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: home directory f is not a directory\n"
    );
    let out = hook_output(
        &["list", "--dialect", "verboo", "--home", "nope"],
        "",
        dir.path(),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: home directory nope does not exist\n"
    );
}

#[test]
fn a_wrong_typed_session_id_points_at_session_id() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("home")).unwrap();
    for (dialect, event) in [
        ("verboo", "SessionStart"),
        ("wuu", "SessionStart"),
        ("lime", "SessionStart"),
    ] {
        let input = json!({"hook_event_name": event, "session_id": 5, "cwd": dir.path(),
                           "source": "startup", "transcript_path": null, "model": "m"});
        let out = hook_output(
            &[
                "run",
                "--dialect",
                dialect,
                "--event",
                event,
                "--home",
                "home",
                "--project",
                ".",
            ],
            &input.to_string(),
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "input field at /session_id of {event}: invalid type: integer `5`, expected a string"
            )),
            "{dialect}: {stderr}"
        );
    }
}

#[test]
fn a_trust_store_lock_error_says_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = (dir.path().join("home"), dir.path().join("project"));
    write(
        &project.join(".claude/settings.json"),
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}})
            .to_string(),
    );
    // A folder where the lock file goes: opening it fails.
    std::fs::create_dir_all(home.join("hook-trust.json.lock")).unwrap();
    let out = trust_all(&home, &project);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot open the lock file"), "{stderr}");
    assert_eq!(stderr.matches("(os error 21)").count(), 1, "{stderr}");
}

#[test]
fn test_native_dev_zero_says_it_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = hook_output(
        &[
            "test",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--native",
            "/dev/zero",
        ],
        "",
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("native library /dev/zero is not a regular file but a character device"),
        "{stderr}"
    );
    let out = hook_output(
        &[
            "test",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--native",
            "missing.so",
        ],
        "",
        dir.path(),
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("does not exist: build it first"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_wiring_hook_new_suggests_quotes_a_path_that_looks_like_shell_syntax() {
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("a b$(touch pwned)\"'").join("deny-rm");
    let out = hook()
        .args(["new", "deny-rm", "--path"])
        .arg(&crate_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let readme = std::fs::read_to_string(crate_dir.join("README.md")).unwrap();
    let binary = crate_dir
        .join("target/release/deny-rm")
        .display()
        .to_string();
    // verboo's snippet is valid JSON whose command is the binary's path as one shell word.
    let snippet = readme
        .split("```json\n")
        .nth(2)
        .and_then(|rest| rest.split("\n```").next())
        .unwrap();
    let settings: Value = serde_json::from_str(snippet).unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert_eq!(
        shlex::split(command),
        Some(vec![binary.clone()]),
        "{command}"
    );
    // lime's TOML line holds the same string.
    assert!(
        readme.contains(&format!("command = {}\n", Value::from(command))),
        "{readme}"
    );
}

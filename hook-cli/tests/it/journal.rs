//! The journal: what `hook run` and `hook relay` record, and `hook log` / `hook stats`
//! reading it back.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::cli::{hook, text};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn pre_tool_use(project: &Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s-journal", "transcript_path": "/t.jsonl",
        "cwd": project, "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "toolu_1"})
    .to_string()
}

/// The journal's lines, parsed, oldest first (every file, the live one last).
fn journal_lines(home: &Path) -> Vec<Value> {
    let dir = home.join("hook-journal");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.reverse();
    let mut lines = Vec::new();
    for file in files {
        for line in std::fs::read_to_string(&file).unwrap().lines() {
            lines.push(
                serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{}: a torn line ({e}): {line:?}", file.display())),
            );
        }
    }
    lines
}

/// `COMMAND --dialect DIALECT --home HOME --project PROJECT`, as owned words.
pub(crate) fn located(command: &str, dialect: &str, home: &Path, project: &Path) -> Vec<String> {
    [command, "--dialect", dialect, "--home"]
        .iter()
        .map(|w| (*w).to_owned())
        .chain([home.display().to_string(), "--project".to_owned()])
        .chain([project.display().to_string()])
        .collect()
}

/// A temporary folder with a verboo home holding `hooks` in `file`, and a project folder.
fn scene(file: &str, hooks: &str) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let home = verboo_home_with(dir.path(), file, hooks);
    (dir, home, project)
}

fn verboo_home_with(dir: &Path, file: &str, hooks: &str) -> std::path::PathBuf {
    let home = dir.join("home");
    write(&home.join(file), hooks);
    home
}

#[test]
fn a_relay_dispatch_shows_its_failing_blocking_and_skipped_hooks_in_hook_log() {
    // The user's relay hooks (trusted as written): one fails, one blocks.
    let (_dir, home, project) = scene(
        "hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'jq: command not found' >&2; exit 127"},
            {"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"},
            {"type": "command", "command": "echo 'waiting for the lock' >&2; sleep 10", "timeout": 1}]}]}}"#,
    );
    // A project relay hook nobody trusted: skipped.
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    let home_arg = home.display().to_string();
    let project_arg = project.display().to_string();
    let out = hook(
        &[
            "relay",
            "--dialect",
            "verboo",
            "--home",
            &home_arg,
            "--project",
            &project_arg,
        ],
        &pre_tool_use(&project, "rm -rf /"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let log_words = located("log", "verboo", &home, &project);
    let log: Vec<&str> = log_words.iter().map(String::as_str).collect();
    let mut json_log = log.clone();
    json_log.push("--json");
    let out = hook(&json_log, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let record = &lines[0];
    assert_eq!(record["front"], "relay");
    assert_eq!(record["event"], "PreToolUse");
    assert_eq!(record["tool"], "Bash");
    assert_eq!(record["summary"], "rm -rf /");
    assert_eq!(record["decision"], "block");
    assert_eq!(record["exit_code"], 0);
    assert!(record["path"].is_string(), "the agent's PATH is recorded");
    let runs = record["runs"].as_array().unwrap();
    let statuses: Vec<&str> = runs.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        ["failed", "blocked", "timed_out", "skipped"],
        "{record}"
    );
    assert_eq!(runs[0]["exit_code"], 127);
    assert_eq!(runs[0]["stderr"], "jq: command not found\n");
    assert_eq!(runs[1]["stderr"], "no rm -rf here\n");
    assert_eq!(runs[2]["stderr"], "waiting for the lock\n");
    assert_eq!(runs[3]["skip_reason"], "untrusted");
    // The full input is not kept.
    assert!(record.get("tool_input").is_none());
    // Every line matches the published schema of a record.
    let schema: Value =
        serde_json::from_str(include_str!("../../schemas/journal-record.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(record), "{record}");
    for line in journal_lines(&home) {
        assert!(validator.is_valid(&line), "{line}");
    }

    // The same for a person: the failed run shows its stderr tail.
    let out = hook(&log, "");
    let shown = text(&out.stdout);
    assert!(
        shown.contains("PreToolUse verboo block Bash `rm -rf /`"),
        "{shown}"
    );
    assert!(shown.contains("failed"), "{shown}");
    // The failed run's error quotes its stderr; the timed-out run shows its stderr tail.
    assert!(shown.contains("exit 127"), "{shown}");
    assert!(shown.contains("jq: command not found"), "{shown}");
    assert!(shown.contains("timed_out"), "{shown}");
    assert!(shown.contains("stderr: waiting for the lock"), "{shown}");
    assert!(shown.contains("skipped"), "{shown}");
    assert!(!shown.contains('\x1b'), "no colour off a terminal: {shown}");

    // Filters.
    let mut failed = json_log.clone();
    failed.extend(["--status", "failed"]);
    assert_eq!(text(&hook(&failed, "").stdout).lines().count(), 1);
    let mut other_event = json_log.clone();
    other_event.extend(["--event", "Stop"]);
    assert_eq!(text(&hook(&other_event, "").stdout).lines().count(), 0);
    let mut other_session = json_log.clone();
    other_session.extend(["--session", "another"]);
    assert_eq!(text(&hook(&other_session, "").stdout).lines().count(), 0);
    let mut recent = json_log.clone();
    recent.extend(["--since", "1h"]);
    assert_eq!(text(&hook(&recent, "").stdout).lines().count(), 1);
}

/// How many dispatches each of the 8 processes makes (`HOOK_TEST_JOURNAL_DISPATCHES`, default
/// 200: 1,600 lines in all).
fn dispatches_per_writer() -> usize {
    std::env::var("HOOK_TEST_JOURNAL_DISPATCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

#[test]
fn concurrent_hook_runs_leave_whole_lines() {
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'a line of stderr that makes the record longer' >&2"}]}]}}"#,
    );
    let per_writer = dispatches_per_writer();
    let input = pre_tool_use(&project, "ls");
    let writers: Vec<_> = (0..8)
        .map(|writer| {
            let home = home.clone();
            let project = project.clone();
            let input = input.replace("s-journal", &format!("writer-{writer}"));
            std::thread::spawn(move || {
                for _ in 0..per_writer {
                    let out = run(&home, &project, &input, &[]);
                    assert!(out.status.success(), "{}", text(&out.stderr));
                }
            })
        })
        .collect();
    for writer in writers {
        writer.join().unwrap();
    }
    let lines = journal_lines(&home);
    assert_eq!(lines.len(), 8 * per_writer);
    for writer in 0..8 {
        let session = format!("writer-{writer}");
        let count = lines.iter().filter(|l| l["session_id"] == session).count();
        assert_eq!(count, per_writer, "{session}");
    }
}

/// `hook ARGS --home HOME --project PROJECT` (verboo), `input` on stdin, `env` set, with no
/// journal switch or agent project inherited from the environment running the tests.
pub(crate) fn hook_at(
    args: &[&str],
    home: &Path,
    project: &Path,
    input: &str,
    env: &[(&str, &std::ffi::OsStr)],
) -> Output {
    use std::io::Write as _;
    let mut command = Command::new(env!("CARGO_BIN_EXE_hook"));
    command
        .args(args)
        .arg("--home")
        .arg(home)
        .arg("--project")
        .arg(project)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOK_JOURNAL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in env {
        command.env(name, value);
    }
    let mut child = command.spawn().unwrap();
    // The command may exit before reading stdin: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn run(home: &Path, project: &Path, input: &str, env: &[(&str, &str)]) -> Output {
    let env: Vec<(&str, &std::ffi::OsStr)> = env
        .iter()
        .map(|(name, value)| (*name, std::ffi::OsStr::new(*value)))
        .collect();
    let args = ["run", "--dialect", "verboo", "--event", "PreToolUse"];
    hook_at(&args, home, project, input, &env)
}

fn relay(home: &Path, project: &Path, input: &str) -> Output {
    let args = ["relay", "--dialect", "verboo", "--event", "PreToolUse"];
    hook_at(&args, home, project, input, &[])
}

fn decision(out: &Output) -> Value {
    let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
    outcome["decision"].clone()
}

#[test]
fn an_unwritable_journal_changes_neither_the_outcome_nor_the_exit_code() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'blocked by policy' >&2; exit 2"}]}]}}"#,
    );
    std::fs::copy(home.join("settings.json"), {
        std::fs::create_dir_all(home.join("hook-relay")).unwrap();
        home.join("hook-relay/settings.json")
    })
    .unwrap();
    let input = pre_tool_use(&project, "rm -rf /");
    let before = run(&home, &project, &input, &[]);
    let relay_before = relay(&home, &project, &input);
    assert_eq!(journal_lines(&home).len(), 2);

    // The journal's folder is now writable by others: refused, as side files are.
    let journal = home.join("hook-journal");
    std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o777)).unwrap();
    let after = run(&home, &project, &input, &[]);
    assert_eq!(after.status.code(), before.status.code());
    assert_eq!(decision(&after), decision(&before));
    assert_eq!(decision(&after), "block");
    let stderr = text(&after.stderr);
    assert_eq!(
        stderr.matches("hook journal is not kept").count(),
        1,
        "said once: {stderr}"
    );
    assert!(stderr.contains("writable by group or others"), "{stderr}");

    // The relay answers the same block (Claude Code's JSON deny, exit 0), and says it once.
    let relay_after = relay(&home, &project, &input);
    assert_eq!(relay_after.status.code(), relay_before.status.code());
    assert_eq!(relay_after.stdout, relay_before.stdout);
    let said = text(&relay_after.stderr);
    assert_eq!(
        said.matches("hook journal is not kept").count(),
        1,
        "{said}"
    );

    // A file where the folder should be.
    std::fs::remove_dir_all(&journal).unwrap();
    std::fs::write(&journal, "not a folder").unwrap();
    let after = run(&home, &project, &input, &[]);
    assert_eq!(after.status.code(), before.status.code());
    assert_eq!(decision(&after), "block");
    assert!(text(&after.stderr).contains("not a directory"));

    // HOOK_JOURNAL=off: nothing written, nothing said.
    std::fs::remove_file(&journal).unwrap();
    let off = run(&home, &project, &input, &[("HOOK_JOURNAL", "off")]);
    assert_eq!(decision(&off), "block");
    assert!(!journal.exists());
    assert!(!text(&off.stderr).contains("journal"));
}

/// One journal line, as `hook run` writes it.
fn line(time: &str, event: &str, key: &str, run: Value) -> String {
    let mut entry = json!({"key": key, "layer": "user", "type": "command"});
    for (name, value) in run.as_object().unwrap() {
        entry[name] = value.clone();
    }
    json!({"time": time, "front": "relay", "dialect": "verboo", "event": event,
        "session_id": "s", "cwd": "/", "decision": "continue", "runs": [entry]})
    .to_string()
}

#[test]
fn hook_stats_flags_a_silent_guard_a_failing_hook_and_a_slow_one() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(home.join("hook-journal")).unwrap();
    let mut lines = Vec::new();
    for minute in 10..20 {
        let time = format!("2026-12-03T10:{minute}:00.000Z");
        lines.push(line(
            &time,
            "PreToolUse",
            "user:settings.json:PreToolUse:Bash:0",
            json!({"status": "ok", "exit_code": 0, "duration_ms": 4, "quiet": true}),
        ));
        lines.push(line(
            &time,
            "PostToolUse",
            "user:settings.json:PostToolUse:Edit:0",
            json!({"status": "failed", "exit_code": 127, "duration_ms": 3,
                "stderr": "line 1\nprettier: command not found\n",
                "error": "exit code 127"}),
        ));
        lines.push(line(
            &time,
            "Stop",
            "user:settings.json:Stop::0",
            json!({"status": "ok", "exit_code": 0, "duration_ms": 2500 + minute}),
        ));
    }
    std::fs::write(
        home.join("hook-journal/journal.jsonl"),
        lines.join("\n") + "\n",
    )
    .unwrap();
    let words = located("stats", "verboo", &home, &project);
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let mut json_args = args.clone();
    json_args.push("--json");
    let out = hook(&json_args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    let flags = |key: &str| -> Vec<String> {
        let entry = stats
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["key"] == key)
            .unwrap_or_else(|| panic!("{key} in {stats}"));
        entry["flags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_owned())
            .collect()
    };
    let guard = flags("user:settings.json:PreToolUse:Bash:0");
    assert_eq!(guard.len(), 1, "{guard:?}");
    assert!(guard[0].starts_with("always exit 0 with no output on a blocking event"));
    assert_eq!(
        flags("user:settings.json:PostToolUse:Edit:0"),
        ["always fails"]
    );
    assert_eq!(
        flags("user:settings.json:Stop::0"),
        ["slow (p95 over 1000 ms)"]
    );
    let failing = stats
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "user:settings.json:PostToolUse:Edit:0")
        .unwrap();
    assert_eq!(failing["failures"], 10);
    assert_eq!(
        failing["last_failure"]["stderr_tail"],
        "line 1\nprettier: command not found"
    );
    let slow = stats
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "user:settings.json:Stop::0")
        .unwrap();
    assert_eq!(slow["max_ms"], 2519);

    // The table for a person, and the flags under it.
    let out = hook(&args, "");
    let shown = text(&out.stdout);
    assert!(shown.contains("always fails"), "{shown}");
    assert!(
        shown.contains("stderr: prettier: command not found"),
        "{shown}"
    );
    assert!(shown.contains("slow (p95 over 1000 ms)"), "{shown}");
}

#[test]
fn hook_log_follow_prints_each_new_dispatch() {
    use std::io::BufRead as _;
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    // One dispatch before: `--follow -n 1` prints it first.
    let out = run(&home, &project, &pre_tool_use(&project, "first"), &[]);
    assert!(out.status.success());
    let mut follow = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args([
            "log",
            "--dialect",
            "verboo",
            "--follow",
            "--json",
            "-n",
            "1",
        ])
        .arg("--home")
        .arg(&home)
        .arg("--project")
        .arg(&project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = follow.stdout.take().unwrap();
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if sender.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let wait = std::time::Duration::from_secs(20);
    let first: Value = serde_json::from_str(&lines.recv_timeout(wait).unwrap()).unwrap();
    assert_eq!(first["summary"], "first");
    let out = run(&home, &project, &pre_tool_use(&project, "second"), &[]);
    assert!(out.status.success());
    let second: Value = serde_json::from_str(&lines.recv_timeout(wait).unwrap()).unwrap();
    assert_eq!(second["summary"], "second");
    follow.kill().unwrap();
    follow.wait().unwrap();
}

#[test]
fn hook_log_escapes_what_a_hook_printed() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(home.join("hook-journal")).unwrap();
    let hidden = line(
        "2026-12-03T10:00:00.000Z",
        "PreToolUse",
        "user:settings.json:PreToolUse:Bash:0",
        json!({"status": "failed", "exit_code": 1, "duration_ms": 1,
            "stderr": "fine\u{1b}[2K\rall good\u{202e}\n"}),
    );
    std::fs::write(home.join("hook-journal/journal.jsonl"), hidden + "\n").unwrap();
    let words = located("log", "verboo", &home, &project);
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let shown = text(&hook(&args, "").stdout);
    assert!(
        shown.contains("stderr: fine\\x1b[2K\\rall good\\u{202e}"),
        "{shown}"
    );
    assert!(!shown.contains('\u{1b}'), "{shown}");
}

//! The journal where it needs processes: concurrent writers, rotation under them, a lock held
//! by another process, `hook log --follow` (runs until killed), FIFOs and hostile files that
//! must not hang a command, `HOOK_JOURNAL=off` from the environment. What `hook run` and
//! `hook relay` record and `hook log` / `hook stats` reading it back are tested in-process
//! (`hook-cli/src/tests/journal.rs`).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::cli::text;
use hook_test_support::events::{journal_line as line, pre_tool_use};
use hook_test_support::fs::write;
use hook_test_support::read::{decision, journal_lines};

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

/// `HOOK_JOURNAL=off`, read from the environment: nothing written, nothing said (the journal's
/// other refusals are tested in-process, `hook-cli/src/tests/journal.rs`).
#[test]
fn hook_journal_off_writes_nothing_and_says_nothing() {
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'blocked by policy' >&2; exit 2"}]}]}}"#,
    );
    let input = pre_tool_use(&project, "rm -rf /");
    let journal = home.join("hook-journal");
    let off = run(&home, &project, &input, &[("HOOK_JOURNAL", "off")]);
    assert_eq!(decision(&off), "block");
    assert!(!journal.exists());
    assert!(!text(&off.stderr).contains("journal"));
    // On, the same dispatch is recorded: the switch is what kept it out.
    let on = run(&home, &project, &input, &[]);
    assert_eq!(decision(&on), "block");
    assert_eq!(journal_lines(&home).len(), 1);
}

#[test]
fn hook_log_follow_prints_each_new_dispatch() {
    use std::io::BufRead as _;
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    // A live file just under the 8 MiB bound: the dispatch after "first" rotates it, and
    // `--follow` follows the new live file (like `tail -F`).
    fill(
        &home.join("hook-journal/journal.jsonl"),
        "old",
        8 * 1024 * 1024 - 100,
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
    assert!(
        home.join("hook-journal/journal.1.jsonl").exists(),
        "rotated"
    );
    let out = run(&home, &project, &pre_tool_use(&project, "third"), &[]);
    assert!(out.status.success());
    let third: Value = serde_json::from_str(&lines.recv_timeout(wait).unwrap()).unwrap();
    assert_eq!(third["summary"], "third");
    follow.kill().unwrap();
    follow.wait().unwrap();
}

/// Waits at most 60 s for `child` (a bounded wait: past it the child is killed and the test
/// fails, naming `what`), and returns its output.
fn bounded(mut child: std::process::Child, what: &str) -> Output {
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// `hook ARGS --home HOME --project PROJECT` started with `input` on stdin (not waited for).
fn start(args: &[&str], home: &Path, project: &Path, input: &str) -> std::process::Child {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .arg("--home")
        .arg(home)
        .arg("--project")
        .arg(project)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOK_JOURNAL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child
}

/// Fills `file` with whole, valid journal lines of session `session` up to `bytes`.
fn fill(file: &Path, session: &str, bytes: usize) {
    let one = line(
        "2026-12-03T10:00:00.000Z",
        "PreToolUse",
        "user:settings.json:PreToolUse:Bash:0",
        json!({"status": "ok", "exit_code": 0, "stderr": "x".repeat(900)}),
    )
    .replace(
        "\"session_id\":\"s\"",
        &format!("\"session_id\":\"{session}\""),
    ) + "\n";
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, one.repeat((bytes / one.len()).max(1))).unwrap();
}

/// A child process holding an exclusive `flock` on `lock` until killed (util-linux `flock`),
/// returned once the lock is taken (a bounded wait).
fn hold_lock(lock: &Path) -> std::process::Child {
    // One process that takes the lock on its descriptor 9 and becomes `sleep`: killing it
    // releases the lock, and no grandchild outlives the test.
    let mut holder = Command::new("sh")
        .arg("-c")
        .arg(r#"exec 9>"$1" && flock 9 && exec sleep 300"#)
        .arg("sh")
        .arg(lock)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..1000 {
        let free = Command::new("flock")
            .args(["-n"])
            .arg(lock)
            .arg("true")
            .status()
            .unwrap()
            .success();
        if !free {
            return holder;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = holder.kill();
    let _ = holder.wait();
    panic!("the lock holder never took {}", lock.display());
}

#[test]
fn a_held_journal_lock_neither_holds_the_relays_deny_nor_keeps_hook_run_from_a_sigterm() {
    let (_dir, home, project) = scene(
        "hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"}]}]}}"#,
    );
    write(
        &home.join("settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "touch started; exec sleep 300"}]}]}}"#,
    );
    // A full live file: every write tries to rotate, so every write meets the held lock.
    let journal = home.join("hook-journal");
    fill(&journal.join("journal.jsonl"), "old", 8 * 1024 * 1024 + 1);
    let mut holder = hold_lock(&journal.join("journal.lock"));

    let started = std::time::Instant::now();
    let relayed = bounded(
        start(
            &["relay", "--dialect", "verboo", "--event", "PreToolUse"],
            &home,
            &project,
            &pre_tool_use(&project, "rm -rf /"),
        ),
        "hook relay",
    );
    let took = started.elapsed();
    // The lock is held for 300 s: a relay that waited for it would take that long. The bound is
    // the time to start `hook`, load and run one shell hook on a loaded machine.
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    assert_eq!(relayed.status.code(), Some(0), "{}", text(&relayed.stderr));
    let answer: Value = serde_json::from_slice(&relayed.stdout).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    // Recorded all the same, rotation skipped.
    let lines = journal_lines(&home);
    assert_eq!(lines.last().unwrap()["front"], "relay");
    assert!(!journal.join("journal.1.jsonl").exists());

    // `hook run` with a hook still running: SIGTERM ends it at once (exit 143).
    let run = start(
        &["run", "--dialect", "verboo", "--event", "PreToolUse"],
        &home,
        &project,
        &pre_tool_use(&project, "ls"),
    );
    for _ in 0..3000 {
        if project.join("started").exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(project.join("started").exists(), "the hook never started");
    let signalled = std::time::Instant::now();
    let status = Command::new("kill")
        .args(["-s", "TERM", &run.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = bounded(run, "hook run after SIGTERM");
    assert!(
        signalled.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        signalled.elapsed()
    );
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));

    holder.kill().unwrap();
    holder.wait().unwrap();
}

#[test]
fn rotation_under_eight_concurrent_writers_crossing_8_mib_keeps_whole_lines_and_four_files() {
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'a line of stderr' >&2"}]}]}}"#,
    );
    let journal = home.join("hook-journal");
    // Just under the 8 MiB bound, and three rotated files: the crossing drops the oldest.
    fill(
        &journal.join("journal.jsonl"),
        "old-live",
        8 * 1024 * 1024 - 20_000,
    );
    for n in 1..4 {
        fill(
            &journal.join(format!("journal.{n}.jsonl")),
            &format!("old-{n}"),
            1,
        );
    }
    let per_writer = 25;
    let writers: Vec<_> = (0..8)
        .map(|writer| {
            let home = home.clone();
            let project = project.clone();
            let input = pre_tool_use(&project, "ls").replace("s-journal", &format!("w-{writer}"));
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
    // At most the documented 4 files (the live one and 3 rotated).
    let mut names: Vec<String> = std::fs::read_dir(&journal)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    names.sort();
    assert!(names.len() <= 4, "{names:?}");
    assert!(!journal.join("journal.4.jsonl").exists(), "{names:?}");
    // Whole lines only (journal_lines panics on a torn one), none of the new ones lost.
    let lines = journal_lines(&home);
    for writer in 0..8 {
        let session = format!("w-{writer}");
        let count = lines.iter().filter(|l| l["session_id"] == session).count();
        assert_eq!(count, per_writer, "{session}");
    }
    assert!(journal.join("journal.1.jsonl").exists(), "it rotated");
    assert!(
        !lines.iter().any(|l| l["session_id"] == "old-3"),
        "the oldest file was dropped"
    );
}

#[test]
fn a_fifo_as_the_journal_or_its_lock_never_hangs_run_or_relay() {
    let (_dir, home, project) = scene(
        "hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 2"}]}]}}"#,
    );
    std::fs::copy(
        home.join("hook-relay/settings.json"),
        home.join("settings.json"),
    )
    .unwrap();
    let journal = home.join("hook-journal");
    std::fs::create_dir_all(&journal).unwrap();
    let mkfifo = |path: &Path| {
        assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
    };
    mkfifo(&journal.join("journal.jsonl"));
    let input = pre_tool_use(&project, "rm -rf /");
    for front in ["run", "relay"] {
        let out = bounded(
            start(
                &[front, "--dialect", "verboo", "--event", "PreToolUse"],
                &home,
                &project,
                &input,
            ),
            front,
        );
        let stderr = text(&out.stderr);
        if front == "run" {
            assert_eq!(decision(&out), "block", "{stderr}");
            assert!(stderr.contains("FIFO"), "{stderr}");
        } else {
            assert_eq!(out.status.code(), Some(0), "{stderr}");
        }
    }
    // The lock a FIFO, the live file full.
    std::fs::remove_file(journal.join("journal.jsonl")).unwrap();
    fill(&journal.join("journal.jsonl"), "old", 8 * 1024 * 1024 + 1);
    mkfifo(&journal.join("journal.lock"));
    for front in ["run", "relay"] {
        let out = bounded(
            start(
                &[front, "--dialect", "verboo", "--event", "PreToolUse"],
                &home,
                &project,
                &input,
            ),
            front,
        );
        assert!(!out.stdout.is_empty(), "{front}: {}", text(&out.stderr));
    }
}

/// A hostile file where the journal (or a transcript) should be.
#[derive(Debug, Clone, Copy)]
enum Hostile {
    Fifo,
    StdinLink,
    LinkOut,
    Huge,
}

impl Hostile {
    /// Puts this kind of file at `path`; `outside` is a folder outside the home.
    fn plant(self, path: &Path, outside: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(path);
        match self {
            Hostile::Fifo => {
                assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
            }
            Hostile::StdinLink => std::os::unix::fs::symlink("/dev/stdin", path).unwrap(),
            Hostile::LinkOut => {
                let target = outside.join("elsewhere.jsonl");
                fill(&target, "elsewhere", 2000);
                std::os::unix::fs::symlink(&target, path).unwrap();
            }
            Hostile::Huge => {
                // 100 MB without a newline (sparse: nothing is written to the disk).
                let file = std::fs::File::create(path).unwrap();
                file.set_len(100 * 1024 * 1024).unwrap();
            }
        }
    }
}

#[test]
fn every_journal_reader_and_writer_answers_at_once_on_a_hostile_journal_file() {
    let (dir, home, project) = scene(
        "hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 2"}]}]}}"#,
    );
    std::fs::copy(
        home.join("hook-relay/settings.json"),
        home.join("settings.json"),
    )
    .unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let input = pre_tool_use(&project, "rm -rf /");
    fn verboo(command: &str) -> Vec<&str> {
        match command {
            "run" | "relay" => vec![command, "--dialect", "verboo", "--event", "PreToolUse"],
            _ => vec![command, "--dialect", "verboo"],
        }
    }
    for hostile in [
        Hostile::Fifo,
        Hostile::StdinLink,
        Hostile::LinkOut,
        Hostile::Huge,
    ] {
        for target in ["journal.jsonl", "journal.1.jsonl", "journal.lock"] {
            let path = home.join("hook-journal").join(target);
            hostile.plant(&path, &outside);
            for command in ["run", "relay", "log", "stats", "doctor"] {
                let started = std::time::Instant::now();
                let out = bounded(
                    start(&verboo(command), &home, &project, &input),
                    &format!("{command} with {hostile:?} as {target}"),
                );
                let took = started.elapsed();
                // Milliseconds of work (reading 100 MB of a line too long included); the bound
                // is for a loaded machine running the suite in parallel.
                assert!(
                    took < std::time::Duration::from_secs(10),
                    "{command} with {hostile:?} as {target}: {took:?}"
                );
                let stderr = text(&out.stderr);
                match command {
                    "run" => assert_eq!(decision(&out), "block", "{hostile:?} {target}: {stderr}"),
                    "relay" => {
                        assert_eq!(out.status.code(), Some(0), "{hostile:?} {target}: {stderr}");
                        assert!(!out.stdout.is_empty(), "{hostile:?} {target}: {stderr}");
                    }
                    "doctor" => assert!(
                        matches!(out.status.code(), Some(0 | 1)),
                        "{hostile:?} {target}: {stderr}"
                    ),
                    _ => assert!(
                        out.status.success(),
                        "{command} {hostile:?} {target}: {stderr}"
                    ),
                }
                // Nothing outside was written through the link.
                if let Hostile::LinkOut = hostile {
                    let kept = std::fs::read_to_string(outside.join("elsewhere.jsonl")).unwrap();
                    assert!(
                        !kept.contains("s-journal"),
                        "{command} wrote through the link"
                    );
                }
            }
            let _ = std::fs::remove_file(&path);
        }
    }
}
/// One relay run: its home, arguments, stdin, environment, and whether its PATH is recorded.
type Case<'a> = (
    &'a Path,
    &'a [&'a str],
    &'a str,
    &'a [(&'a str, &'a std::ffi::OsStr)],
    bool,
);

#[test]
fn only_a_relay_an_agent_started_records_its_path() {
    let (_dir, home, project) = scene(
        "hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    let lime_home = home.join("lime");
    std::fs::create_dir_all(&lime_home).unwrap();
    let agent_path = std::ffi::OsStr::new("/agent/bin:/usr/bin:/bin");
    let project_dir = project.as_os_str();
    let lime_event = json!({"session_id": "s", "turn_id": "t", "transcript_path": null,
        "cwd": project, "hook_event_name": "PreToolUse", "model": "m",
        "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "u",
        "tool_input": {"command": "ls"}})
    .to_string();
    // (home, args, stdin, env, recorded): Claude Code sets CLAUDE_PROJECT_DIR for every hook;
    // Codex sets nothing of its own, and its entries carry `--event`.
    let table: [Case<'_>; 5] = [
        (
            &home,
            &["relay", "--dialect", "verboo", "--event", "PreToolUse"],
            &pre_tool_use(&project, "ls"),
            &[("PATH", agent_path), ("CLAUDE_PROJECT_DIR", project_dir)],
            true,
        ),
        (
            &home,
            &["relay", "--dialect", "verboo", "--event", "PreToolUse"],
            &pre_tool_use(&project, "ls"),
            &[("PATH", agent_path)],
            false,
        ),
        (
            &home,
            &["relay", "--dialect", "verboo"],
            &pre_tool_use(&project, "ls"),
            &[("PATH", agent_path)],
            false,
        ),
        (
            &lime_home,
            &["relay", "--dialect", "lime", "--event", "PreToolUse"],
            &lime_event,
            &[("PATH", agent_path)],
            true,
        ),
        (
            &lime_home,
            &["relay", "--dialect", "lime"],
            &lime_event,
            &[("PATH", agent_path)],
            false,
        ),
    ];
    for (index, (home, args, stdin, env, recorded)) in table.into_iter().enumerate() {
        let out = hook_at(args, home, &project, stdin, env);
        assert!(out.status.success(), "{index}: {}", text(&out.stderr));
        let lines = journal_lines(home);
        let path = &lines.last().unwrap()["path"];
        let expected = if recorded {
            json!("/agent/bin:/usr/bin:/bin")
        } else {
            Value::Null
        };
        assert_eq!(path, &expected, "{index}: {args:?} {env:?}");
    }
}

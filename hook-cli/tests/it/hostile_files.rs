//! Every command that reads a project or home path, against every kind of hostile file in that
//! path's place: one table of (command × hostile kind × path), each run as a real process
//! under a watchdog. Each must end (a hang is killed at the bound and fails the test), say the
//! path or a finding, and change nothing outside the temporary folder.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::cli::text;

/// A command's bound. Each case takes milliseconds (the issue asks for under a second); the
/// bound is for a loaded two-core machine running the suite in parallel, and turns a hang into
/// a failure instead of a stuck suite.
const BOUND: Duration = Duration::from_secs(10);

/// What is put in place of the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A FIFO nobody writes to.
    Fifo,
    /// A symbolic link to `/dev/stdin` (the command's stdin is a pipe kept open).
    StdinLink,
    /// A symbolic link to a file of the same kind outside the project (and the home).
    LinkOut,
    /// A 100 MB file (sparse: nothing is written to the disk).
    Huge,
    /// A file of the right format with a key written twice.
    DuplicateKey,
}

const KINDS: [Kind; 5] = [
    Kind::Fifo,
    Kind::StdinLink,
    Kind::LinkOut,
    Kind::Huge,
    Kind::DuplicateKey,
];

/// The hostile path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// The project's agent settings, `<project>/.claude/settings.json`.
    Settings,
    /// The project's relay file, `<project>/.claude/hook-relay/settings.json`.
    Relay,
    /// The project's expectations, `<project>/.claude/hook-expectations.toml`.
    Expectations,
    /// A transcript `hook replay` is given, `<project>/transcript.jsonl`.
    Transcript,
    /// The journal `hook log`/`hook stats` read, `<home>/hook-journal/journal.jsonl`.
    Journal,
}

impl Target {
    fn path(self, home: &Path, project: &Path) -> PathBuf {
        match self {
            Target::Settings => project.join(".claude/settings.json"),
            Target::Relay => project.join(".claude/hook-relay/settings.json"),
            Target::Expectations => project.join(".claude/hook-expectations.toml"),
            Target::Transcript => project.join("transcript.jsonl"),
            Target::Journal => home.join("hook-journal/journal.jsonl"),
        }
    }

    /// A good file of this kind.
    fn good(self, project: &Path) -> String {
        match self {
            Target::Settings | Target::Relay => hooks_json(),
            Target::Expectations => EXPECTATIONS.to_owned(),
            Target::Transcript => {
                let line = json!({"type": "user", "sessionId": "s-1", "cwd": project,
                    "uuid": "u-1", "timestamp": "2026-12-01T10:00:00.000Z",
                    "message": {"role": "user", "content": "hello"}});
                format!("{line}\n")
            }
            Target::Journal => {
                let line = json!({"v": 1, "time": "2026-12-03T10:00:00.000Z",
                    "dialect": "verboo", "event": "Stop", "session": "s-1", "runs": []});
                format!("{line}\n")
            }
        }
    }

    /// The same kind of file with a key written twice.
    fn duplicate_key(self, project: &Path) -> String {
        match self {
            Target::Settings | Target::Relay => {
                let hooks = hooks_json();
                let inner = &hooks[1..hooks.len() - 1];
                format!("{{{inner}, {inner}}}")
            }
            Target::Expectations => {
                format!("{EXPECTATIONS}\n[[case]]\nname = \"a\"\nname = \"b\"\n")
            }
            Target::Transcript | Target::Journal => {
                let again = if self == Target::Journal {
                    "\"event\": \"PreToolUse\""
                } else {
                    "\"type\": \"assistant\""
                };
                let line = self.good(project);
                format!("{{{again}, {}", &line[1..])
            }
        }
    }
}

fn hooks_json() -> String {
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo 'no rm -rf' >&2; exit 2"}]}]}})
    .to_string()
}

const EXPECTATIONS: &str = r#"[[case]]
name = "the guard blocks rm -rf"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "rm -rf /" } }
expect = "block"
"#;

/// The commands, each with the paths it reads.
const COMMANDS: &[(&str, &[Target])] = &[
    ("list", &[Target::Settings]),
    ("run", &[Target::Settings]),
    ("relay", &[Target::Relay]),
    ("trust", &[Target::Settings, Target::Relay]),
    ("review", &[Target::Settings]),
    (
        "doctor",
        &[Target::Settings, Target::Expectations, Target::Journal],
    ),
    ("log", &[Target::Journal]),
    ("stats", &[Target::Journal]),
    ("replay", &[Target::Transcript, Target::Settings]),
    ("validate", &[Target::Settings, Target::Relay]),
    ("install", &[Target::Settings, Target::Relay]),
    ("sync", &[Target::Settings, Target::Relay]),
    ("guard-add", &[Target::Settings, Target::Relay]),
    ("guard-list", &[Target::Relay]),
];

/// The command line of `command` (without `hook`).
fn args(command: &str, target: Target, home: &Path, project: &Path) -> Vec<String> {
    let (home, project) = (home.display().to_string(), project.display().to_string());
    let located = |words: &[&str]| -> Vec<String> {
        words
            .iter()
            .map(|w| (*w).to_owned())
            .chain([
                "--dialect".into(),
                "verboo".into(),
                "--home".into(),
                home.clone(),
            ])
            .chain(["--project".into(), project.clone()])
            .collect()
    };
    let relay = if target == Target::Relay {
        vec!["--relay"]
    } else {
        vec![]
    };
    match command {
        "run" => located(&["run", "--event", "PreToolUse"]),
        "relay" => located(&["relay", "--event", "PreToolUse"]),
        "trust" => located(&[&["trust", "--all"], relay.as_slice()].concat()),
        "review" => located(&[&["trust", "--review", "--json"], relay.as_slice()].concat()),
        "replay" => {
            let mut words = located(&["replay"]);
            words.push(
                Target::Transcript
                    .path(home.as_ref(), project.as_ref())
                    .display()
                    .to_string(),
            );
            words
        }
        "validate" => vec![
            "validate".into(),
            "--dialect".into(),
            "verboo".into(),
            "--config".into(),
            target
                .path(home.as_ref(), project.as_ref())
                .display()
                .to_string(),
        ],
        "guard-add" => vec![
            "guard".into(),
            "add".into(),
            "dangerous-commands".into(),
            "--dialect".into(),
            "verboo".into(),
            "--project".into(),
            project,
            "--home".into(),
            home,
        ],
        "guard-list" => vec![
            "guard".into(),
            "list".into(),
            "--project".into(),
            project,
            "--home".into(),
            home,
        ],
        "install" | "sync" => vec![
            "relay".into(),
            command.into(),
            "--dialect".into(),
            "verboo".into(),
            "--project".into(),
            project,
            "--home".into(),
            home,
        ],
        _ => located(&[command]),
    }
}

/// Runs `hook args` with `stdin` under a watchdog: past [`BOUND`] the process is killed and
/// the test fails naming `what`. Unless `close` (the event of `run` and `relay`, read to its
/// end), the write end of stdin stays open, so a read of `/dev/stdin` would wait for ever.
fn watched(
    args: &[String],
    env_home: &Path,
    cwd: &Path,
    (stdin, close): (&str, bool),
    what: &str,
) -> (Output, Duration) {
    use std::io::Write as _;
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .current_dir(cwd)
        .env("HOME", env_home)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_ENV_FILE")
        .env_remove("CODEX_HOME")
        .env_remove("HOOK_JOURNAL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin.as_bytes());
    let input = (!close).then_some(input);
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    let output = match receiver.recv_timeout(BOUND) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("{what} hung: killed after {BOUND:?}");
        }
    };
    drop(input);
    (output, started.elapsed())
}

/// Every file under `dir` (links not followed) with its bytes and mode: what "unchanged" is
/// checked against.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                pending.push(path.clone());
            }
            let bytes = if meta.is_file() {
                std::fs::read(&path).unwrap()
            } else {
                Vec::new()
            };
            files.insert(path, (bytes, meta.permissions().mode()));
        }
    }
    files
}

/// Puts `kind` at `path` (for the file `target`); `outside` is a folder outside the project
/// and the home.
fn plant(kind: Kind, target: Target, path: &Path, project: &Path, outside: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    match kind {
        Kind::Fifo => assert!(Command::new("mkfifo").arg(path).status().unwrap().success()),
        Kind::StdinLink => std::os::unix::fs::symlink("/dev/stdin", path).unwrap(),
        Kind::LinkOut => {
            let name = path.file_name().unwrap();
            std::os::unix::fs::symlink(outside.join(name), path).unwrap();
        }
        Kind::Huge => {
            let file = std::fs::File::create(path).unwrap();
            file.set_len(100 * 1024 * 1024).unwrap();
        }
        Kind::DuplicateKey => std::fs::write(path, target.duplicate_key(project)).unwrap(),
    }
}

/// One case's folders: a verboo home with a user hook, a project whose other files are good,
/// the user's own `HOME`, and the folder outside that links point to.
struct Scene {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    user_home: PathBuf,
    outside: PathBuf,
}

fn scene(command: &str, target: Target, kind: Kind) -> Scene {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (home, project) = (root.join("home"), root.join("project"));
    let (user_home, outside) = (root.join("user"), root.join("outside"));
    for folder in [&home, &project, &user_home, &outside] {
        std::fs::create_dir_all(folder).unwrap();
    }
    std::fs::write(home.join("settings.json"), hooks_json()).unwrap();
    // The good files the case does not replace, and the link's targets outside.
    for good in [Target::Settings, Target::Transcript, Target::Journal] {
        if good != target && !(command == "relay" && good == Target::Settings) {
            let path = good.path(&home, &project);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, good.good(&project)).unwrap();
        }
    }
    if command == "relay" || target == Target::Relay {
        std::fs::create_dir_all(home.join("hook-relay")).unwrap();
        std::fs::write(home.join("hook-relay/settings.json"), hooks_json()).unwrap();
    }
    let path = target.path(&home, &project);
    std::fs::write(
        outside.join(path.file_name().unwrap()),
        target.good(&project),
    )
    .unwrap();
    plant(kind, target, &path, &project, &outside);
    Scene {
        _dir: dir,
        home,
        project,
        user_home,
        outside,
    }
}

fn event(project: &Path) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s-hostile",
        "transcript_path": "/t.jsonl", "cwd": project, "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "toolu_1"})
    .to_string()
}

/// What a case must show: the hostile path's file name (or the folder it is in), or a finding
/// that names what was wrong.
fn says_the_path_or_a_finding(shown: &str, path: &Path) -> bool {
    let name = path.file_name().unwrap().to_string_lossy();
    shown.contains(name.as_ref())
        || shown.contains("FIFO")
        || shown.contains("not a regular file")
        || shown.contains("limit")
        || shown.contains("twice")
}

#[test]
fn every_command_that_reads_a_project_or_home_path_answers_at_once_on_a_hostile_file() {
    let mut slowest = (Duration::ZERO, String::new());
    let mut failures = Vec::new();
    for (command, targets) in COMMANDS {
        for target in *targets {
            for kind in KINDS {
                let what = format!("hook {command} with {kind:?} as the {target:?} file");
                let scene = scene(command, *target, kind);
                let before = snapshot(&scene.outside);
                let user_before = snapshot(&scene.user_home);
                let path = target.path(&scene.home, &scene.project);
                let (out, took) = watched(
                    &args(command, *target, &scene.home, &scene.project),
                    &scene.user_home,
                    &scene.project,
                    (&event(&scene.project), matches!(*command, "run" | "relay")),
                    &what,
                );
                if took > slowest.0 {
                    slowest = (took, what.clone());
                }
                let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
                let shown = format!("{stdout}{stderr}");
                // Ended by itself with an exit status of its own (no signal, no panic's 101).
                let code = out.status.code();
                if !matches!(code, Some(0..=2)) {
                    failures.push(format!("{what}: exit {code:?}\n{shown}"));
                    continue;
                }
                if snapshot(&scene.outside) != before || snapshot(&scene.user_home) != user_before {
                    failures.push(format!(
                        "{what}: changed a file outside the project\n{shown}"
                    ));
                }
                // A link out of the project to a good file may be read (the user made it so);
                // every other kind is an error or a finding naming the path.
                // A transcript line with a key written twice is read as the agent's
                // `JSON.parse` reads it (the last wins): the session is replayed and reported.
                let read_as_the_agent = kind == Kind::DuplicateKey
                    && (*target == Target::Transcript
                        && shown.contains("Replayed 1 session (1 line")
                        // `hook guard list` reads the relay file as the agent does too (the
                        // last `hooks` wins) and lists the guards in it: none here.
                        || *command == "guard-list" && shown.contains("off: `hook guard add"));
                if kind != Kind::LinkOut
                    && !read_as_the_agent
                    && !says_the_path_or_a_finding(&shown, &path)
                {
                    failures.push(format!(
                        "{what}: exit {code:?}, says neither the path nor a finding\n{shown}"
                    ));
                }
                // The relay in front of an agent: always an answer, and on a guard event a
                // block when the hooks could not be read.
                if *command == "relay" {
                    assert!(
                        code == Some(0) && !stdout.is_empty() || code == Some(2),
                        "{what}: {shown}"
                    );
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(slowest.0 < BOUND, "slowest: {slowest:?}");
}

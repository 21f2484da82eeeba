//! `hook replay` where it needs the binary: where the agents keep their sessions (read from
//! `HOME` and `CODEX_HOME`), and a FIFO named `*.jsonl` that must not hang the process. The
//! replay itself, `--compare`, `--json` against the committed schema and bad lines are tested
//! in-process (`hook-cli/src/tests/replay.rs`, `hook-cli/src/ops/replay/tests/`).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixtures(agent: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/replay")
        .join(agent)
}

fn fixture_file(agent: &str) -> PathBuf {
    let dir = fixtures(agent);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.remove(0)
}

/// A guard that blocks any Bash command containing `needle` (exit 2, reason on stderr).
fn guard(dialect: &str, needle: &str) -> String {
    let command =
        format!("grep -q '{needle}' && {{ echo 'no {needle} here' >&2; exit 2; }} || exit 0");
    match dialect {
        "verboo" => serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command}]}]}})
        .to_string(),
        _ => format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n\
             type = \"command\"\ncommand = {}\n",
            Value::from(command)
        ),
    }
}

struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Setup { dir }
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn replay(&self, dialect: &str, args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(["replay", "--dialect", dialect, "--project"])
            .arg(self.dir.path().join("project"))
            .args(args)
            .env("HOME", self.dir.path().join("home"))
            .env("CODEX_HOME", self.dir.path().join("home/.codex"))
            .output()
            .unwrap()
    }

    /// `--json` lines of a successful replay.
    fn json(&self, dialect: &str, args: &[&str]) -> Vec<Value> {
        let mut all = args.to_vec();
        all.push("--json");
        let out = self.replay(dialect, &all);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

fn of_type<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["type"] == kind).collect()
}

fn summary(lines: &[Value]) -> &Value {
    let summaries = of_type(lines, "summary");
    assert_eq!(summaries.len(), 1);
    assert_eq!(lines.last().unwrap()["type"], "summary");
    summaries[0]
}

/// (tool_use_id, subject) of each blocked event.
fn blocked(lines: &[Value]) -> Vec<(String, String)> {
    of_type(lines, "event")
        .into_iter()
        .filter(|e| e["result"]["decision"] == "block")
        .map(|e| {
            (
                e["tool_use_id"].as_str().unwrap_or_default().to_owned(),
                e["subject"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_current_projects_sessions_are_found_where_the_agents_keep_them() {
    let setup = Setup::new();
    let project = setup.dir.path().join("project").canonicalize().unwrap();
    // Claude Code: ~/.claude/projects/<the project's path, non-alphanumerics as `-`>/.
    let name: String = project
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let claude = setup.dir.path().join("home/.claude/projects").join(name);
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::copy(fixture_file("claude"), claude.join("s.jsonl")).unwrap();
    std::fs::write(
        setup.dir.path().join("home/.claude/settings.json"),
        guard("verboo", "rm -rf"),
    )
    .unwrap();
    let lines = setup.json("verboo", &[]);
    assert_eq!(summary(&lines)["sessions"], 1);
    assert_eq!(blocked(&lines).len(), 1);

    // Codex: the rollouts under $CODEX_HOME/sessions whose cwd is the project.
    let day = setup.dir.path().join("home/.codex/sessions/2026/12/03");
    std::fs::create_dir_all(&day).unwrap();
    let rollout = std::fs::read_to_string(fixture_file("codex")).unwrap();
    std::fs::write(
        day.join("rollout-a.jsonl"),
        rollout.replace("/replay/project", &project.display().to_string()),
    )
    .unwrap();
    std::fs::write(day.join("rollout-b.jsonl"), &rollout).unwrap();
    let lines = setup.json("lime", &[]);
    assert_eq!(summary(&lines)["sessions"], 1);
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_dev_zero_link_named_jsonl_is_a_bad_file_not_a_hang() {
    let setup = Setup::new();
    let config = setup.write("guard.json", &guard("verboo", "rm -rf"));
    let folder = setup.dir.path().join("sessions");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(fixture_file("claude"), folder.join("b-real.jsonl")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(folder.join("a-fifo.jsonl"))
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("/dev/zero", folder.join("c-zero.jsonl")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["replay", "--dialect", "verboo", "--json", "--project"])
        .arg(setup.dir.path().join("project"))
        .arg(&folder)
        .arg("--config")
        .arg(&config)
        .env("HOME", setup.dir.path().join("home"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hook replay hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let unreadable: Vec<String> = of_type(&lines, "bad_line")
        .into_iter()
        .filter(|b| b["kind"] == "unreadable")
        .map(|b| b["detail"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert!(
        unreadable.iter().any(|d| d.contains("FIFO")),
        "{unreadable:?}"
    );
    assert!(
        unreadable.iter().any(|d| d.contains("character device")),
        "{unreadable:?}"
    );
    // The real session is still replayed.
    assert_eq!(
        blocked(&lines),
        [("toolu_05".to_owned(), "rm -rf build".to_owned())]
    );
}

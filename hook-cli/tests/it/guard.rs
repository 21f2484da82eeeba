//! `hook guard` with real processes, a `HOME` and a project of their own: `add` switches a
//! ready-made guard on for Claude Code and Codex (the relay's file, its trust, the relay's
//! entries), the entry the agent got, run as the agent runs it (`sh -c ENTRY`, the event on
//! stdin), blocks what the guard blocks and lets the rest through; the relay answers it in its
//! own process, as `hook guard run` would; `add` again and `remove` change only that entry,
//! every other byte (and the file's mode and link) kept, and trust follows a hook whose key
//! moved; `--dry-run` backtests it over recorded sessions of each agent.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::ffi::OsString;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hook_protocol::{Dialect, Event};
use hook_test_support::read::{agent_reads, is_block};
use serde_json::{Value, json};

use crate::cli::text;
use crate::relay_install::{Home, read, write};

/// The commands the issue names: the first three blocked, the last allowed (in the project).
const BLOCKED: &[&str] = &["rm -r -f ~", "sudo /bin/rm -fr /", "bash -c 'rm -rf ~'"];
const ALLOWED: &str = "rm -rf ./build";

/// A Claude Code `PreToolUse` event of a `Bash` call in `project`.
fn claude_event(project: &Path, command: &str) -> Value {
    json!({"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": project,
        "hook_event_name": "PreToolUse", "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command, "description": "a step"}, "tool_use_id": "toolu_1"})
}

/// A Codex `PreToolUse` event of a shell call in `project`.
fn codex_event(project: &Path, command: &str) -> Value {
    json!({"session_id": "s1", "turn_id": "t1", "transcript_path": null, "model": "gpt-5",
        "cwd": project, "hook_event_name": "PreToolUse", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_1"})
}

/// `sh -c command` as the agents run an entry: in the project, `HOME` the home, `PATH` as given,
/// `event` on stdin.
fn run_entry(home: &Home, project: &Path, command: &str, event: &Value, path: &OsString) -> Output {
    hook_test_support::relay::run_entry(
        command,
        project,
        &home.root,
        path,
        &[],
        event.to_string().as_bytes(),
    )
}

/// A `PATH` without any `hook`.
fn bare_path() -> OsString {
    OsString::from("/usr/bin:/bin")
}

/// The `PreToolUse` entry of Claude Code's settings `file`.
fn claude_entry(file: &Path) -> String {
    let settings: Value = serde_json::from_str(&read(file)).unwrap();
    settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("no PreToolUse entry: {settings}"))
        .to_owned()
}

/// The `PreToolUse` entry of Codex's `config.toml` `file`.
fn codex_entry(file: &Path) -> String {
    let config: toml::Value = toml::from_str(&read(file)).unwrap();
    config["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("no PreToolUse entry: {config}"))
        .to_owned()
}

/// The runs of the relay's journal under `state`, each line's runs flattened.
fn journal_runs(state: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(state.join("hook-journal/journal.jsonl")).unwrap();
    text.lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .flat_map(|record| record["runs"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// An agent's `PreToolUse` event of a shell command in a project.
type EventOf = fn(&Path, &str) -> Value;

/// The test, for one agent: `hook guard add dangerous-commands --agent AGENT`, then
/// the entry install wrote into the agent's settings run as the agent runs it, with no `hook`
/// on `PATH`: the three dangerous commands are blocked in the agent's own form, the build
/// folder's removal goes through; `hook relay status` says everything guards (the relay's
/// trust and, for Codex, Codex's own trust of its entries, recorded by `add`).
fn add_then_run_the_entry(agent: &str) {
    let home = Home::new();
    let project = home.root.join("project");
    std::fs::create_dir_all(project.join("build")).unwrap();
    let said = home.ok(
        &["guard", "add", "dangerous-commands", "--agent", agent],
        &[],
    );
    let (dialect, entry, event, state): (Dialect, String, EventOf, PathBuf) = if agent == "claude" {
        let entry = claude_entry(&home.claude().join("settings.json"));
        (
            Dialect::Verboo,
            entry,
            claude_event,
            home.claude().join("hook-relay"),
        )
    } else {
        let entry = codex_entry(&home.codex().join("config.toml"));
        (
            Dialect::Lime,
            entry,
            codex_event,
            home.codex().join("hook-relay"),
        )
    };
    assert!(entry.contains(" relay --dialect "), "{entry}");
    for command in BLOCKED {
        let out = run_entry(
            &home,
            &project,
            &entry,
            &event(&project, command),
            &bare_path(),
        );
        let read = agent_reads(dialect, &Event::PreToolUse, &out);
        assert!(
            is_block(&read),
            "{agent}: `{command}` not blocked: {read:?}\n{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        // The guard's reason reaches the model, in the agent's own deny.
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecision"], "deny",
            "{reply}"
        );
        let reason = reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert!(
            reason.contains("delete") && reason.ends_with("(guard dangerous-commands)"),
            "{reason}"
        );
    }
    let out = run_entry(
        &home,
        &project,
        &entry,
        &event(&project, ALLOWED),
        &bare_path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!is_block(&agent_reads(dialect, &Event::PreToolUse, &out)));
    assert!(!text(&out.stdout).contains("deny"), "{}", text(&out.stdout));
    // Each run was the guard's, answered in the relay's process.
    let runs = journal_runs(&state);
    assert_eq!(runs.len(), 4, "{runs:?}");
    assert!(runs.iter().all(|run| run["in_process"] == true), "{runs:?}");
    // Nothing left to do: the relay trusts the guard, the agent its entries.
    let status = home.hook(&["relay", "status", "--agent", agent], &[]);
    assert_eq!(
        status.status.code(),
        Some(0),
        "{said}\n{}{}",
        text(&status.stdout),
        text(&status.stderr)
    );
}

#[test]
fn guard_add_for_claude_code_then_its_entry_blocks_the_dangerous_commands_and_allows_the_build() {
    add_then_run_the_entry("claude");
}

#[test]
fn guard_add_for_codex_then_its_entry_blocks_the_dangerous_commands_and_allows_the_build() {
    add_then_run_the_entry("codex");
}

/// A `hook` on `PATH` that writes its arguments to `log`, then runs this build's `hook`: every
/// process started as `hook` is counted.
fn logging_hook(home: &Home) -> (OsString, PathBuf) {
    let bin = home.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = home.root.join("hook-calls.log");
    let script = bin.join("hook");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
            log.display(),
            env!("CARGO_BIN_EXE_hook")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (
        OsString::from(format!("{}:/usr/bin:/bin", bin.display())),
        log,
    )
}

/// A project's guard entry names the bare `hook`, as a project's relay entries do; the relay
/// that entry starts answers it without starting `hook guard run` (the `hook` on `PATH` logs
/// every process: only the relay's own), and blocks.
#[test]
fn the_relay_answers_a_projects_guard_without_a_process_of_its_own() {
    let home = Home::new();
    let project = home.root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let project_arg = project.display().to_string();
    let said = home.ok(
        &[
            "guard",
            "add",
            "dangerous-commands",
            "--agent",
            "claude",
            "--project",
            &project_arg,
        ],
        &[],
    );
    let relay_file: Value =
        serde_json::from_str(&read(&project.join(".claude/hook-relay/settings.json"))).unwrap();
    assert_eq!(
        relay_file["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "hook guard run dangerous-commands",
        "{relay_file}"
    );
    // The user who added it trusts it; a teammate is told what to run.
    assert!(said.contains("trusted dangerous-commands"), "{said}");
    let entry = claude_entry(&project.join(".claude/settings.json"));
    assert!(entry.starts_with("hook relay --dialect verboo"), "{entry}");
    let (path, log) = logging_hook(&home);
    let out = run_entry(
        &home,
        &project,
        &entry,
        &claude_event(&project, "rm -r -f ~"),
        &path,
    );
    assert!(
        is_block(&agent_reads(Dialect::Verboo, &Event::PreToolUse, &out)),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let calls = read(&log);
    assert_eq!(calls.lines().count(), 1, "{calls}");
    assert!(
        calls.starts_with("relay --dialect verboo --event PreToolUse"),
        "{calls}"
    );
    let runs = journal_runs(&home.claude().join("hook-relay"));
    assert_eq!(runs[0]["in_process"], true, "{runs:?}");
    assert_eq!(runs[0]["status"], "blocked", "{runs:?}");
}

/// The same guard through `hook run`, answered in process (its line as `add` writes it) and
/// spawned (the same line with two spaces, which the relay leaves to the shell): the same
/// outcome for every event, the same exit code and stderr in each run, and only the second
/// started a `hook guard run` process.
#[test]
fn a_guard_answered_in_process_gives_the_outcome_of_the_spawned_hook_guard_run() {
    let home = Home::new();
    let project = home.root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let (path, log) = logging_hook(&home);
    let outcome = |command: &str, dialect: &str, event: &Value| -> Value {
        let config = home.root.join(format!("{dialect}-home"));
        std::fs::create_dir_all(&config).unwrap();
        if dialect == "verboo" {
            write(
                &config.join("settings.json"),
                &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                    {"type": "command", "command": command}]}]}})
                .to_string(),
            );
        } else {
            write(
                &config.join("config.toml"),
                &format!(
                    "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
                    Value::from(command)
                ),
            );
            // Every lime hook runs once trusted.
            let trusted = Command::new(env!("CARGO_BIN_EXE_hook"))
                .args(["trust", "--dialect", "lime", "--all", "--home"])
                .arg(&config)
                .env("HOME", &home.root)
                .output()
                .unwrap();
            assert!(trusted.status.success(), "{}", text(&trusted.stderr));
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
            .args([
                "run",
                "--dialect",
                dialect,
                "--event",
                "PreToolUse",
                "--home",
            ])
            .arg(&config)
            .arg("--project")
            .arg(&project)
            .env("HOME", &home.root)
            .env("PATH", &path)
            .env("HOOK_JOURNAL", "off")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(event.to_string().as_bytes()).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let mut outcome: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}{}", text(&out.stdout), text(&out.stderr)));
        for run in outcome["runs"].as_array_mut().unwrap() {
            let run = run.as_object_mut().unwrap();
            run.remove("duration_ms");
            run.remove("key");
            run.remove("source");
            let in_process = run.remove("in_process").is_some();
            run.insert("answered_in_process".into(), in_process.into());
        }
        outcome
    };
    let events = [
        ("verboo", claude_event(&project, "rm -r -f ~")),
        ("verboo", claude_event(&project, ALLOWED)),
        ("verboo", claude_event(&project, "$RM -rf /")),
        ("lime", codex_event(&project, "sudo /bin/rm -fr /")),
        ("lime", codex_event(&project, "ls")),
    ];
    for (dialect, event) in &events {
        for sets in ["", " --set block-unreadable=true"] {
            let line = format!("hook guard run dangerous-commands{sets}");
            let spawned_line = line.replacen("hook guard", "hook  guard", 1);
            let mut in_process = outcome(&line, dialect, event);
            let mut spawned = outcome(&spawned_line, dialect, event);
            assert_eq!(
                in_process["runs"][0]["answered_in_process"], true,
                "{in_process}"
            );
            assert_eq!(
                spawned["runs"][0]["answered_in_process"], false,
                "{spawned}"
            );
            for outcome in [&mut in_process, &mut spawned] {
                outcome["runs"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("answered_in_process");
            }
            assert_eq!(in_process, spawned, "{line} on {event}");
        }
    }
    let calls = read(&log);
    assert_eq!(
        calls.lines().count(),
        events.len() * 2,
        "one process per spawned run only: {calls}"
    );
    assert!(
        calls
            .lines()
            .all(|l| l.starts_with("guard run dangerous-commands")),
        "{calls}"
    );
}

/// Adding again replaces the options in place (never a second entry); `remove` takes out only
/// that entry: the relay's file is given back byte for byte, through its symbolic link, with
/// its mode; for Claude Code's JSON and Codex's TOML.
#[test]
fn add_again_replaces_the_options_and_remove_gives_the_file_back_byte_for_byte() {
    let home = Home::new();
    let claude = "{\n    \"env\": {\"A\": 1.0e400},\r\n    \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n";
    let codex = "# my relay hooks\n[[hooks.PreToolUse]]\nmatcher = \"Bash\" # shell\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\n";
    for (agent, folder, file, before) in [
        ("claude", home.claude(), "settings.json", claude),
        ("codex", home.codex(), "config.toml", codex),
    ] {
        // The relay file is a link to a file of the user's, 0640.
        let target = home.root.join(format!("kept-{file}"));
        write(&target, before);
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
        std::fs::create_dir_all(folder.join("hook-relay")).unwrap();
        let link = folder.join("hook-relay").join(file);
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let add = ["guard", "add", "dangerous-commands", "--agent", agent];
        home.ok(&add, &[]);
        let set = [&add[..], &["--set", "allowed-paths=/tmp/cache"]].concat();
        let said = home.ok(&set, &[]);
        assert!(said.contains("was on; its entry is now"), "{said}");
        let text = read(&target);
        assert_eq!(
            text.matches("guard run dangerous-commands").count(),
            1,
            "{text}"
        );
        assert!(text.contains("--set 'allowed-paths=/tmp/cache'"), "{text}");
        // Exactly the same again: nothing written.
        let said = home.ok(&set, &[]);
        assert!(said.contains("is on already"), "{said}");
        let said = home.ok(
            &["guard", "remove", "dangerous-commands", "--agent", agent],
            &[],
        );
        assert!(said.contains("removed 1 entry"), "{said}");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        let after = read(&target);
        if agent == "claude" {
            assert_eq!(after, before);
        } else {
            // Codex's relay file keeps the relay's trust records at its end ([hooks.state]):
            // the user's hook was trusted there by `add` (its key did not move), the guard's
            // record taken out; before them, every byte as it was.
            assert!(after.starts_with(before), "{after}");
            assert!(!after.contains("guard run"), "{after}");
        }
        let said = home.ok(
            &["guard", "remove", "dangerous-commands", "--agent", agent],
            &[],
        );
        assert!(said.contains("is not on here"), "{said}");
    }
}

/// Codex's relay runs a hook only while its trust record's key and hash match: taking the
/// guard out moves the user's own hook after it to the guard's key; `remove` trusts it again
/// there (nothing of it changed) and takes the stale record out, so it still runs.
#[test]
fn removing_a_codex_guard_keeps_the_users_own_hook_after_it_trusted() {
    let home = Home::new();
    home.ok(
        &["guard", "add", "dangerous-commands", "--agent", "codex"],
        &[],
    );
    let relay_file = home.codex().join("hook-relay/config.toml");
    let text = read(&relay_file);
    let mine = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"echo mine >&2\"\n";
    // The user's own hook, after the guard's group (before the trust records).
    let at = text.find("[hooks.state").unwrap();
    write(
        &relay_file,
        &format!("{}{mine}\n{}", &text[..at], &text[at..]),
    );
    let key = format!("user:{}:PreToolUse:Bash:1", relay_file.display());
    home.ok(&["trust", "--agent", "codex", &key], &[]);
    let said = home.ok(
        &["guard", "remove", "dangerous-commands", "--agent", "codex"],
        &[],
    );
    assert!(said.contains("again under its new key"), "{said}");
    let listed = home.ok(&["list", "--agent", "codex", "--json"], &[]);
    let hooks: Value = serde_json::from_str(&listed).unwrap();
    let mine = hooks
        .as_array()
        .into_iter()
        .flatten()
        .find(|h| h["config"]["command"] == "echo mine >&2")
        .unwrap_or_else(|| panic!("{hooks}"));
    assert!(
        mine["key"]
            .as_str()
            .unwrap()
            .ends_with(":PreToolUse:Bash:0"),
        "{mine}"
    );
    assert_eq!(mine["trust"]["status"], "trusted", "{mine}");
    assert!(
        !read(&relay_file).contains(":PreToolUse:Bash:1\""),
        "{}",
        read(&relay_file)
    );
}

/// The backtest over recorded sessions of each agent (`tests/fixtures/replay/guard/`, the
/// recorded sessions with two commands changed): each call it would block with its time,
/// session, command and reason, the one it cannot read, the totals; the same through
/// `hook replay --guard`; `--json` lines; nothing written.
#[test]
fn dry_run_over_recorded_sessions_of_each_agent_prints_the_calls_it_would_block() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/replay/guard");
    for (agent, calls, session, time) in [
        (
            "claude",
            7,
            "c86b3344-364c-40f8-a02f-c66ac42d3080",
            "2026-12-03T19:17:29.652Z",
        ),
        (
            "codex",
            6,
            "01a23d57-3036-7e22-b36a-2b478782dd8e",
            "2026-12-03T19:17:34.608Z",
        ),
    ] {
        let home = Home::new();
        let sessions = fixtures.join(agent).display().to_string();
        let dry = [
            "guard",
            "add",
            "dangerous-commands",
            "--agent",
            agent,
            "--dry-run",
            &sessions,
        ];
        let out = home.ok(&dry, &[]);
        assert!(
            out.starts_with(&format!(
                "dangerous-commands over 1 session ({calls} tool calls): would block 1, could not read 1, 0 bad lines"
            )),
            "{out}"
        );
        let blocked = out.split("Would block:").nth(1).unwrap();
        assert!(
            blocked.contains(&format!("{time}  session {session}")),
            "{out}"
        );
        assert!(blocked.contains("\n    rm -r -f ~\n"), "{out}");
        assert!(
            blocked.contains("`rm -r` would delete `~`, which holds the home folder"),
            "{out}"
        );
        assert!(
            out.contains("Could not read") && out.contains("$RM -rf /tmp/cache"),
            "{out}"
        );
        assert!(out.ends_with(&format!(
            "Nothing was run or written. To switch it on: hook guard add dangerous-commands --agent {agent}\n"
        )));
        // Nothing written: no relay file, no agent settings.
        assert!(!home.claude().exists() && !home.codex().exists());

        let replayed = home.ok(
            &[
                "replay",
                "--agent",
                agent,
                "--guard",
                "dangerous-commands",
                &sessions,
            ],
            &[],
        );
        assert_eq!(replayed.lines().next(), out.lines().next());

        let json = home.ok(&[&dry[..], &["--json"]].concat(), &[]);
        let lines: Vec<Value> = json
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{json}");
        assert_eq!(lines[0]["kind"], "block");
        assert_eq!(lines[0]["session"], session);
        assert_eq!(lines[0]["call"], "rm -r -f ~");
        assert_eq!(lines[1]["kind"], "unreadable");
        assert_eq!(
            lines[2],
            json!({"kind": "summary", "guard": "dangerous-commands", "sessions": 1,
                "calls": calls, "would_block": 1, "unreadable": 1, "bad_lines": 0})
        );
    }
}

/// Without paths, the backtest reads where the agent keeps the project's sessions (Claude
/// Code: `~/.claude/projects/<project's path, each other character a dash>/`).
#[test]
fn dry_run_reads_the_projects_sessions_where_claude_code_keeps_them() {
    let home = Home::new();
    let project = home.root.join("my.project");
    std::fs::create_dir_all(&project).unwrap();
    let folder: String = project
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let recorded = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/replay/guard/claude/c86b3344-364c-40f8-a02f-c66ac42d3080.jsonl");
    let kept = home
        .claude()
        .join("projects")
        .join(folder)
        .join("c86b3344.jsonl");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    std::fs::copy(&recorded, &kept).unwrap();
    let project_arg = project.display().to_string();
    let out = home.ok(
        &[
            "guard",
            "add",
            "dangerous-commands",
            "--agent",
            "claude",
            "--project",
            &project_arg,
            "--dry-run",
        ],
        &[],
    );
    assert!(
        out.contains("over 1 session (7 tool calls): would block 1"),
        "{out}"
    );
    assert!(out.contains(&format!("--project {project_arg}")), "{out}");
}

/// An agent that runs the guards written for Claude Code (Gemini CLI here): `add` writes the
/// guard into Claude Code's relay file and installs the relay in Gemini CLI's settings, whose
/// entry, run as Gemini CLI runs it, blocks in Gemini CLI's form.
#[test]
fn guard_add_for_gemini_writes_claude_codes_relay_file_and_gemini_clis_entry_blocks() {
    let home = Home::new();
    let project = home.root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let said = home.ok(
        &["guard", "add", "dangerous-commands", "--agent", "gemini"],
        &[],
    );
    assert!(
        said.contains("Gemini CLI runs dangerous-commands"),
        "{said}"
    );
    let relay_file = read(&home.claude().join("hook-relay/settings.json"));
    assert!(
        relay_file.contains("guard run dangerous-commands"),
        "{relay_file}"
    );
    let settings: Value =
        serde_json::from_str(&read(&home.root.join(".gemini/settings.json"))).unwrap();
    let group = &settings["hooks"]["BeforeTool"][0];
    assert_eq!(group["matcher"], "run_shell_command", "{settings}");
    let entry = group["hooks"][0]["command"].as_str().unwrap();
    let call = |command: &str| {
        json!({"hook_event_name": "BeforeTool", "session_id": "s", "cwd": project,
            "transcript_path": "/t.jsonl", "tool_name": "run_shell_command",
            "tool_input": {"command": command}})
    };
    let out = run_entry(&home, &project, entry, &call("rm -r -f ~"), &bare_path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(reply["decision"], "block", "{reply}");
    let out = run_entry(&home, &project, entry, &call(ALLOWED), &bare_path());
    assert!(
        !text(&out.stdout).contains("block"),
        "{}",
        text(&out.stdout)
    );
}

//! Where the relay keeps its state for Claude Code and Codex users: beside the agent, in the
//! relay's own folder, never in a dialect home they never see; and the state an earlier version
//! kept in `~/.lime` / `~/.claude` moved there once, the dialect's own files left alone.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use hook_test_support::fs::write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

/// A user's machine: `HOME`, the agent's home inside it (as the agent makes it), a project.
struct Machine {
    _dir: tempfile::TempDir,
    home: PathBuf,
    codex_home: PathBuf,
    project: PathBuf,
}

impl Machine {
    fn new() -> Machine {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let codex_home = home.join(".codex");
        let project = dir.path().join("project");
        for folder in [&codex_home, &home.join(".claude"), &project] {
            std::fs::create_dir_all(folder).unwrap();
        }
        Machine {
            _dir: dir,
            home,
            codex_home,
            project,
        }
    }

    /// `hook args` with `stdin`, in this machine's environment only (no `--home`): `HOME` and
    /// `CODEX_HOME` set, `LIME_HOME` unset, the journal on, run from the project.
    fn hook(&self, args: &[&str], stdin: &str) -> Output {
        use std::io::Write as _;
        let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env("CODEX_HOME", &self.codex_home)
            .env_remove("LIME_HOME")
            .env_remove("WUU_HOME")
            .env_remove("HOOK_JOURNAL")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("CLAUDE_ENV_FILE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
        child.wait_with_output().unwrap()
    }

    /// `hook args`, which must succeed; its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.hook(args, "");
        assert!(
            out.status.success(),
            "hook {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// `hook log ARGS --json`, every record, oldest first.
    fn log(&self, args: &[&str]) -> Vec<Value> {
        let mut all = vec!["log", "-n", "0", "--json"];
        all.extend(args);
        let mut records: Vec<Value> = self
            .ok(&all)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        // `hook log` prints the newest first.
        records.reverse();
        records
    }

    /// Every path under `dir`, relative to it, sorted.
    fn tree(dir: &Path) -> Vec<String> {
        let mut found = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(folder) = stack.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                found.push(path.strip_prefix(dir).unwrap().display().to_string());
                if path.is_dir() && !path.is_symlink() {
                    stack.push(path);
                }
            }
        }
        found.sort();
        found
    }
}

/// Codex's `PreToolUse` for a Bash `command` in `project`, as Codex sends it.
fn codex_event(project: &Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s-codex", "turn_id": "t",
        "cwd": project, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
        "tool_input": {"command": command}})
    .to_string()
}

/// Claude Code's `PreToolUse` for a Bash `command` in `project`, as Claude Code sends it.
fn claude_event(project: &Path, command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "session_id": "s-claude", "transcript_path": "/t.jsonl",
        "cwd": project, "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "toolu_1"})
    .to_string()
}

const CODEX_GUARD: &str = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"echo 'no rm' >&2; exit 2\"\n";

const CLAUDE_GUARD: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "echo 'no rm' >&2; exit 2"}]}]}}"#;

fn denied(reply: &Output) -> bool {
    let text = String::from_utf8_lossy(&reply.stdout);
    serde_json::from_str::<Value>(&text).is_ok_and(|reply| {
        reply.pointer("/hookSpecificOutput/permissionDecision") == Some(&json!("deny"))
    })
}

#[test]
fn a_fresh_codex_user_has_nothing_under_dot_lime_and_every_relayed_event_is_journaled() {
    let machine = Machine::new();
    let relay_file = machine.codex_home.join("hook-relay/config.toml");
    write(&relay_file, CODEX_GUARD);
    // Before the guard is trusted: skipped, and that first run is recorded.
    let out = machine.hook(
        &["relay", "--dialect", "lime"],
        &codex_event(&machine.project, "rm -rf /"),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(!denied(&out), "{}", String::from_utf8_lossy(&out.stdout));
    // Reviewed and trusted; the guard now blocks.
    machine.ok(&["trust", "--dialect", "lime", "--relay", "--all"]);
    let out = machine.hook(
        &["relay", "--dialect", "lime"],
        &codex_event(&machine.project, "rm -rf /"),
    );
    assert!(denied(&out), "{}", String::from_utf8_lossy(&out.stderr));

    // Nothing of the relay under `~/.lime`: the folder was never made.
    assert!(!machine.home.join(".lime").exists());
    // Everything is beside Codex: the trust record in the relay's file, the journal.
    let state = machine.codex_home.join("hook-relay");
    let text = std::fs::read_to_string(&relay_file).unwrap();
    assert!(text.starts_with(CODEX_GUARD), "{text}");
    assert!(text.contains("[hooks.state."), "{text}");
    assert!(state.join("hook-journal/journal.jsonl").is_file());
    // `hook log` shows both dispatches, the skip first, for Codex (the relay's journal read
    // with the dialect's) and with no agent named.
    for args in [&["--agent", "codex"][..], &["--dialect", "lime"], &[]] {
        let records = machine.log(args);
        assert_eq!(records.len(), 2, "{records:?}");
        assert_eq!(records[0]["event"], "PreToolUse");
        assert_eq!(records[0]["runs"][0]["status"], "skipped", "{records:?}");
        assert_eq!(records[0]["runs"][0]["skip_reason"], "untrusted");
        assert_eq!(records[1]["decision"], "block");
        assert_eq!(records[1]["summary"], "rm -rf /", "{records:?}");
    }
    // No move was said: there was nothing to move.
    assert!(!String::from_utf8_lossy(&out.stderr).contains("is kept here now"));
}

#[test]
fn a_fresh_claude_code_user_has_the_relays_state_in_its_folder() {
    let machine = Machine::new();
    let claude = machine.home.join(".claude");
    write(&claude.join("hook-relay/settings.json"), CLAUDE_GUARD);
    // A project relay hook needs trust (the user's own file does not).
    write(
        &machine.project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "true"}]}]}}"#,
    );
    let project = machine.project.display().to_string();
    machine.ok(&[
        "trust",
        "--dialect",
        "verboo",
        "--relay",
        "--project",
        &project,
        "--all",
    ]);
    let out = machine.hook(
        &["relay", "--dialect", "verboo"],
        &claude_event(&machine.project, "rm -rf /"),
    );
    assert!(denied(&out), "{}", String::from_utf8_lossy(&out.stderr));
    // Only the relay's folder (and Claude Code's) under `~/.claude`; no `~/.lime` either.
    assert_eq!(Machine::tree(&claude)[0], "hook-relay");
    assert!(
        Machine::tree(&claude)
            .iter()
            .all(|path| path.starts_with("hook-relay")),
        "{:?}",
        Machine::tree(&claude)
    );
    let state = claude.join("hook-relay");
    assert!(state.join("hook-trust.json").is_file());
    assert!(state.join("hook-journal/journal.jsonl").is_file());
    assert!(!machine.home.join(".lime").exists());
    let records = machine.log(&["--dialect", "verboo"]);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0]["decision"], "block");
}

/// A fresh install (no earlier version's state anywhere) writes no note of a move, in either
/// agent's relay folder, and says none: installed, relayed, trusted, checked.
#[test]
fn a_fresh_install_writes_and_says_no_migration_note() {
    let machine = Machine::new();
    let claude = machine.home.join(".claude");
    write(&claude.join("hook-relay/settings.json"), CLAUDE_GUARD);
    write(
        &machine.codex_home.join("hook-relay/config.toml"),
        CODEX_GUARD,
    );
    let mut said = String::new();
    let mut run = |args: &[&str], stdin: &str| {
        let out = machine.hook(args, stdin);
        said.push_str(&String::from_utf8_lossy(&out.stdout));
        said.push_str(&String::from_utf8_lossy(&out.stderr));
    };
    for agent in ["claude", "codex"] {
        run(&["relay", "install", "--agent", agent], "");
        run(&["relay", "status", "--agent", agent], "");
        run(&["doctor", "--agent", agent], "");
        run(&["list", "--agent", agent, "--relay"], "");
    }
    run(&["trust", "--agent", "codex", "--all"], "");
    run(
        &["relay", "--dialect", "verboo"],
        &claude_event(&machine.project, "rm -rf /"),
    );
    run(
        &["relay", "--dialect", "lime"],
        &codex_event(&machine.project, "rm -rf /"),
    );
    // Both relay folders are in use (their journals were written)...
    for folder in [
        claude.join("hook-relay"),
        machine.codex_home.join("hook-relay"),
    ] {
        assert!(
            folder.join("hook-journal/journal.jsonl").is_file(),
            "{}",
            folder.display()
        );
        // ...and hold no note of a move.
        let tree = Machine::tree(&folder);
        assert!(
            !tree.iter().any(|path| path.contains("hook-state-moved")),
            "{}: {tree:?}",
            folder.display()
        );
    }
    assert!(!said.contains("is kept here now"), "{said}");
    assert!(!said.contains("Earlier versions"), "{said}");
    assert!(!machine.home.join(".lime").exists());
}

/// The key and hash `hook` gives the user's Codex relay guard, as an earlier version recorded
/// them in `~/.lime/config.toml`.
fn codex_guard_record(machine: &Machine) -> (String, String) {
    let env = hook_config::Environment::empty()
        .with_var("HOME", machine.home.as_os_str())
        .with_var("CODEX_HOME", machine.codex_home.as_os_str());
    let options = hook_config::LoadOptions::new(hook_protocol::Dialect::Lime, env)
        .with_project(&machine.project)
        .for_relay();
    let loaded = hook_config::load(&options).unwrap();
    let handler = &loaded.registry.handlers()[0];
    let hash = hook_trust::trust_hash(
        hook_protocol::Dialect::Lime,
        handler,
        &hook_trust::HashContext::with_base_dir(&machine.project),
    );
    (handler.key.clone(), hash)
}

#[test]
fn a_codex_users_old_dot_lime_relay_state_is_moved_once_and_the_dialects_own_is_left_alone() {
    let machine = Machine::new();
    write(
        &machine.codex_home.join("hook-relay/config.toml"),
        CODEX_GUARD,
    );
    let (key, hash) = codex_guard_record(&machine);
    assert!(key.starts_with("user:/"), "{key}");
    // What an earlier version left: the lime dialect's own hook and its trust record, the
    // relay guard's record beside them, and a journal.
    let lime = machine.home.join(".lime");
    let seed = "# my lime agent\nmodel = \"o3\"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"true\"\n";
    write(&lime.join("config.toml"), seed);
    let lime_home = lime.display().to_string();
    // The lime dialect's own hook, trusted and run, as its user does (with `--home`, so the
    // journal line lands in `~/.lime` as it always did).
    machine.ok(&["trust", "--dialect", "lime", "--home", &lime_home, "--all"]);
    let stop = json!({"hook_event_name": "Stop", "session_id": "s-lime", "turn_id": "t",
        "cwd": machine.project, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "stop_hook_active": false,
        "last_assistant_message": null});
    let out = machine.hook(
        &["run", "--dialect", "lime", "--event", "Stop"],
        &stop.to_string(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seed_state = std::fs::read_to_string(lime.join("config.toml")).unwrap();
    assert!(
        seed_state.contains("user:config.toml:Stop::0"),
        "{seed_state}"
    );
    let relay_record = format!("\n[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n");
    write(
        &lime.join("config.toml"),
        &format!("{seed_state}{relay_record}"),
    );
    let journal = std::fs::read(lime.join("hook-journal/journal.jsonl")).unwrap();
    let before = Machine::tree(&lime);

    // The first relayed event: the guard is still trusted, and the user is told, once.
    let out = machine.hook(
        &["relay", "--dialect", "lime"],
        &codex_event(&machine.project, "rm -rf /"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(denied(&out), "{stderr}");
    let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
    let state = machine.codex_home.join("hook-relay");
    for said in [stderr.to_string(), reply["systemMessage"].to_string()] {
        assert!(said.contains("is kept here now"), "{said}");
        assert!(said.contains(&lime_home), "{said}");
        assert!(said.contains(&state.display().to_string()), "{said}");
        assert!(said.contains("moved 1 trust record"), "{said}");
        assert!(said.contains("hook log --dialect lime"), "{said}");
    }
    let again = machine.hook(
        &["relay", "--dialect", "lime"],
        &codex_event(&machine.project, "rm -rf /"),
    );
    assert!(denied(&again));
    assert!(
        !String::from_utf8_lossy(&again.stderr).contains("is kept here now"),
        "said twice"
    );
    assert!(!String::from_utf8_lossy(&again.stdout).contains("is kept here now"));

    // The record is in the relay's file now, and only there.
    let relay_text = std::fs::read_to_string(state.join("config.toml")).unwrap();
    assert!(relay_text.contains(&hash), "{relay_text}");
    assert!(state.join("hook-state-moved.txt").is_file());
    // The lime dialect's own: its config (and its trust record) as they were, its journal's
    // bytes, no file added or removed.
    assert_eq!(
        std::fs::read_to_string(lime.join("config.toml")).unwrap(),
        seed_state
    );
    assert_eq!(
        std::fs::read(lime.join("hook-journal/journal.jsonl")).unwrap(),
        journal
    );
    assert_eq!(Machine::tree(&lime), before);
    // `hook log` reads the old lines with the new ones.
    let all = machine.log(&["--dialect", "lime"]);
    assert_eq!(all.len(), 3, "{all:?}");
    assert_eq!(all[0]["event"], "Stop");
    // `hook untrust` of the moved record sticks: nothing brings it back.
    machine.ok(&["untrust", "--dialect", "lime", "--relay", &key]);
    let out = machine.hook(
        &["relay", "--dialect", "lime"],
        &codex_event(&machine.project, "rm -rf /"),
    );
    assert!(!denied(&out), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_claude_code_users_old_relay_trust_is_moved_and_verboos_own_records_stay() {
    let machine = Machine::new();
    let claude = machine.home.join(".claude");
    let project = machine.project.display().to_string();
    let claude_home = claude.display().to_string();
    // A project relay guard that runs a script of the project, and a project hook of Claude
    // Code's own, each trusted as an earlier version did: in `~/.claude/hook-trust.json`.
    write(
        &machine.project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh .claude/guard.sh"}]}]}}"#,
    );
    write(
        &machine.project.join(".claude/guard.sh"),
        "echo 'no rm' >&2; exit 2\n",
    );
    write(
        &machine.project.join(".claude/settings.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    for relay in [true, false] {
        let mut args = vec![
            "trust",
            "--dialect",
            "verboo",
            "--project",
            &project,
            "--home",
            &claude_home,
            "--all",
        ];
        if relay {
            args.push("--relay");
        }
        machine.ok(&args);
    }
    let store: Value =
        serde_json::from_str(&std::fs::read_to_string(claude.join("hook-trust.json")).unwrap())
            .unwrap();
    assert_eq!(store["hooks"].as_object().unwrap().len(), 2, "{store}");

    let out = machine.hook(
        &["relay", "--dialect", "verboo"],
        &claude_event(&machine.project, "rm -rf /"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(denied(&out), "{stderr}");
    assert!(stderr.contains("is kept here now"), "{stderr}");
    assert!(stderr.contains(&claude_home), "{stderr}");
    // Moved with the scripts' digests and the copies a review diffs against.
    let state = claude.join("hook-relay");
    let moved: Value =
        serde_json::from_str(&std::fs::read_to_string(state.join("hook-trust.json")).unwrap())
            .unwrap();
    let (key, record) = moved["hooks"].as_object().unwrap().iter().next().unwrap();
    assert!(key.contains("hook-relay/settings.json"), "{moved}");
    assert!(record.to_string().contains("guard.sh"), "{moved}");
    assert!(state.join("hook-trusted").read_dir().unwrap().count() >= 2);
    // Claude Code's own record stays where `hook run --dialect verboo` reads it.
    let left: Value =
        serde_json::from_str(&std::fs::read_to_string(claude.join("hook-trust.json")).unwrap())
            .unwrap();
    let left: Vec<&String> = left["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].contains(".claude/settings.json"), "{left:?}");
    let listed: Value = serde_json::from_str(&machine.ok(&[
        "list",
        "--dialect",
        "verboo",
        "--project",
        &project,
        "--json",
    ]))
    .unwrap();
    assert_eq!(listed[0]["trust"]["status"], "trusted", "{listed}");
}

#[test]
fn a_user_of_the_dialect_alone_gets_no_relay_folder_and_no_word_of_a_move() {
    let machine = Machine::new();
    let claude = machine.home.join(".claude");
    // `hook run` for Claude Code's own hooks (trusted as written: the user's file) records in
    // `~/.claude/hook-journal`, with a record in `~/.claude/hook-trust.json` of a plugin hook.
    write(&claude.join("settings.json"), CLAUDE_GUARD);
    write(
        &claude.join("hook-trust.json"),
        r#"{"version": 1, "hooks": {"plugin:fmt:PostToolUse:Edit:0": {"trusted_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}}}"#,
    );
    let out = machine.hook(
        &["run", "--dialect", "verboo", "--event", "PreToolUse"],
        &claude_event(&machine.project, "rm -rf /"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for args in [
        &["doctor", "--dialect", "verboo"][..],
        &["stats", "--dialect", "verboo"],
        &["log", "--dialect", "verboo"],
        &["list", "--dialect", "verboo", "--relay"],
    ] {
        let out = machine.hook(args, "");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!said.contains("is kept here now"), "{args:?}: {said}");
        assert!(!claude.join("hook-relay").exists(), "{args:?}");
    }
    assert_eq!(machine.log(&["--dialect", "verboo"]).len(), 1);
}

#[test]
fn an_old_store_that_cannot_be_read_is_named_on_every_run_until_fixed_then_moved() {
    let machine = Machine::new();
    write(
        &machine.codex_home.join("hook-relay/config.toml"),
        CODEX_GUARD,
    );
    let (key, hash) = codex_guard_record(&machine);
    let old = machine.home.join(".lime/config.toml");
    write(&old, "model = [unclosed\n");
    for _ in 0..2 {
        let out = machine.hook(
            &["relay", "--dialect", "lime"],
            &codex_event(&machine.project, "rm -rf /"),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("could not be moved"), "{stderr}");
        assert!(stderr.contains(&old.display().to_string()), "{stderr}");
        assert!(stderr.contains("fix it"), "{stderr}");
        // Said on stderr, never in the session on every event; the guard waits for trust.
        assert!(!String::from_utf8_lossy(&out.stdout).contains("could not be moved"));
        assert!(!denied(&out));
    }
    write(
        &old,
        &format!("model = \"o3\"\n\n[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n"),
    );
    let out = machine.hook(
        &["relay", "--dialect", "lime"],
        &codex_event(&machine.project, "rm -rf /"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(denied(&out), "{stderr}");
    assert!(stderr.contains("is kept here now"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "model = \"o3\"\n");
}

//! `hook relay uninstall` gives back what `install` took, as each agent sees it: the agent's own
//! guard, moved into the relay by `install --move`, is back in the agent's settings byte for
//! byte after `uninstall` and blocks again when the agent runs it; a project's entries start the
//! `hook` each machine's `PATH` finds, and fail closed where there is none; Codex, which runs
//! every matching entry, runs each relay hook once when the entries of both scopes match a call.
//! What uninstall obeys is the user's: install state a clone ships (Codex records naming the
//! user's config, a created-file marker) changes nothing of the user's, and an earlier
//! version's state in a project still gives back what is the project's.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::cli::text;
use crate::relay_install::{Home, left_beside, read, relay_entries, state_dir, write};

/// A guard script of the user's: refuses `rm -rf`, lets the rest through (it reads the event).
const GUARD: &str =
    "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'the guard says no' >&2; exit 2; }\nexit 0\n";

/// Runs `command` as the agents do (a shell, the event on stdin), with `HOME` here, no agent
/// variables from the environment running the tests, and `path` as `PATH` when given.
fn run_as_agent(home: &Home, command: &str, event: &str, path: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new("sh");
    child
        .args(["-c", command])
        .env("HOME", &home.root)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("LIME_HOME")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(path) = path {
        child.env("PATH", path);
    }
    let mut child = child.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let _ = pipe.write_all(event.as_bytes());
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// A `PreToolUse` of `Bash` running `command` in `cwd`, as Claude Code sends it.
fn claude_bash(cwd: &Path, command: &str) -> String {
    serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "transcript_path": "/t.jsonl", "cwd": cwd, "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "toolu_1"})
    .to_string()
}

/// The same, as Codex sends it.
fn codex_bash(cwd: &Path, command: &str) -> String {
    serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "turn_id": "t", "cwd": cwd, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
        "tool_input": {"command": command}})
    .to_string()
}

/// Whether a hook's run, as the agent reads it, blocks a `PreToolUse`: exit 2, or a deny.
fn blocks(out: &Output) -> bool {
    let denied = serde_json::from_slice::<Value>(&out.stdout)
        .is_ok_and(|v| v["hookSpecificOutput"]["permissionDecision"] == "deny");
    out.status.code() == Some(2) || denied
}

/// The command of the first handler of the `PreToolUse` group matching `Bash` in a Claude Code
/// settings file.
fn claude_guard_command(settings: &Path) -> String {
    let parsed: Value = serde_json::from_str(&read(settings)).unwrap();
    parsed["hooks"]["PreToolUse"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["matcher"] == "Bash")
        .map(|g| g["hooks"][0]["command"].as_str().unwrap().to_owned())
        .unwrap()
}

#[test]
fn claude_code_install_move_then_uninstall_gives_the_guard_back() {
    let home = Home::new();
    let guard = home.root.join("guard.sh");
    write(&guard, GUARD);
    let settings = home.claude().join("settings.json");
    let guard_command = format!("sh {}", guard.display());
    // The user's file, in a layout of their own: every byte must come back.
    let original = format!(
        "{{\n    \"model\" : \"opus\",\n    \"hooks\": {{\"PreToolUse\": [\n      {{\"matcher\": \"Bash\", \"hooks\": [{{\"type\": \"command\", \"command\": {}, \"timeout\": 30}}]}}\n    ]}}\n}}\n",
        Value::from(guard_command.clone())
    );
    write(&settings, &original);
    let project = home.root.join("app");
    std::fs::create_dir_all(&project).unwrap();
    // Configured directly, the guard blocks.
    let direct = run_as_agent(
        &home,
        &claude_guard_command(&settings),
        &claude_bash(&project, "rm -rf /"),
        None,
    );
    assert!(blocks(&direct), "{}", text(&direct.stderr));

    let out = home.ok(&["relay", "install", "--dialect", "verboo", "--move"], &[]);
    assert!(out.contains("moved 1 hook of"), "{out}");
    // Through the relay's entry, as Claude Code runs it: still blocked, `ls` let through.
    let entry = claude_guard_command(&settings);
    assert!(entry.contains("relay --dialect verboo"), "{entry}");
    for (command, blocked) in [("rm -rf /", true), ("ls", false)] {
        let out = run_as_agent(&home, &entry, &claude_bash(&project, command), None);
        assert_eq!(blocks(&out), blocked, "{command}: {}", text(&out.stderr));
    }

    let out = home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert!(out.contains("byte for byte"), "{out}");
    assert!(!out.contains("nothing else changed"), "{out}");
    assert_eq!(read(&settings), original);
    // The move had created the relay's file: it is gone again.
    assert!(!home.claude().join("hook-relay/settings.json").exists());
    // Configured directly again, the guard blocks again.
    let again = run_as_agent(
        &home,
        &claude_guard_command(&settings),
        &claude_bash(&project, "rm -rf /"),
        None,
    );
    assert!(blocks(&again), "{}", text(&again.stderr));
    assert!(text(&again.stderr).contains("the guard says no"));
    // The file before the first install is still kept, in the relay's folder only.
    let first = state_dir(&home.claude().join("hook-relay"), &settings).join("settings.json.first");
    assert_eq!(read(&first), original);
    assert_eq!(left_beside(&home.claude()), Vec::<String>::new());
}

#[test]
fn codex_install_move_then_uninstall_gives_the_guard_and_its_trust_back() {
    let home = Home::new();
    let codex = home.codex();
    let config = codex.join("config.toml");
    let guard = home.root.join("guard.sh");
    write(&guard, GUARD);
    let guard_command = format!("sh {}", guard.display());
    // Codex trusts the guard: its own record, beside it.
    let key = format!("{}:pre_tool_use:0:0", config.display());
    let hash = crate::relay_install::codex_hash("pre_tool_use", Some("Bash"), &guard_command, 600);
    let original = format!(
        "# my Codex settings\nmodel = \"gpt-5\"   # keep\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n\n[hooks.state.{}]\ntrusted_hash = \"{hash}\"\n",
        Value::from(guard_command.clone()),
        Value::from(key)
    );
    write(&config, &original);
    let project = home.root.join("app");
    std::fs::create_dir_all(&project).unwrap();

    // `--trust`: Codex's records of the relay entries are written too.
    let out = home.ok(
        &["relay", "install", "--dialect", "lime", "--move", "--trust"],
        &[],
    );
    assert!(
        out.contains("trusted 1 moved hook in the relay's store"),
        "{out}"
    );
    assert!(out.contains("recorded Codex's trust"), "{out}");
    let installed: toml::Value = toml::from_str(&read(&config)).unwrap();
    let entry = installed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(entry.contains("relay --dialect lime"), "{entry}");
    for (command, blocked) in [("rm -rf /", true), ("ls", false)] {
        let out = run_as_agent(&home, &entry, &codex_bash(&project, command), None);
        assert_eq!(blocks(&out), blocked, "{command}: {}", text(&out.stderr));
    }

    let out = home.ok(&["relay", "uninstall", "--dialect", "lime"], &[]);
    assert!(out.contains("byte for byte"), "{out}");
    assert!(out.contains("took out 2 of Codex's trust records"), "{out}");
    assert_eq!(read(&config), original);
    // The moved guard left the relay's file: at most the relay's own trust records stay there
    // (they sit in the relay's file since the state moved beside Codex), no hook.
    let relay_file = codex.join("hook-relay/config.toml");
    if relay_file.exists() {
        let left = read(&relay_file);
        assert!(!left.contains("[[hooks."), "{left}");
    }
    // The guard, configured directly again, blocks again.
    let again = run_as_agent(
        &home,
        &guard_command,
        &codex_bash(&project, "rm -rf /"),
        None,
    );
    assert!(blocks(&again), "{}", text(&again.stderr));
    let first = state_dir(&codex.join("hook-relay"), &config).join("config.toml.first");
    assert_eq!(read(&first), original);
    assert_eq!(left_beside(&codex), Vec::<String>::new());
}

#[test]
fn an_edited_file_gets_the_moved_hooks_merged_back_and_says_so() {
    let home = Home::new();
    let settings = home.claude().join("settings.json");
    let original =
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}]}}"#;
    write(&settings, original);
    home.ok(&["relay", "install", "--dialect", "verboo", "--move"], &[]);
    // The user edits the file while the relay is installed.
    let edited = read(&settings).replacen('{', "{\"model\": \"opus\", ", 1);
    write(&settings, &edited);
    let out = home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert!(out.contains("changed since"), "{out}");
    assert!(out.contains("added back"), "{out}");
    let after: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(after["model"], "opus");
    assert_eq!(
        after["hooks"]["Stop"][0]["hooks"][0]["command"],
        "./done.sh"
    );
    assert!(relay_entries(&after).is_empty(), "{after}");
    // Once: uninstalling again puts nothing back twice.
    home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    let again: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(again, after);
}

/// A folder holding `hook` (this build), for a `PATH` on which the agents find it.
fn bin_with_hook(home: &Home) -> String {
    let bin = home.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hook"), bin.join("hook")).unwrap();
    bin.display().to_string()
}

#[test]
fn a_projects_entries_start_hook_through_path_and_fail_closed_without_it() {
    let home = Home::new();
    let project = home.root.join("app");
    write(&project.join("guard.sh"), GUARD);
    write(
        &project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh \"$CLAUDE_PROJECT_DIR/guard.sh\""}]}]}}"#,
    );
    let project_arg = project.display().to_string();
    let bin = bin_with_hook(&home);
    let out = home.hook(
        &[
            "relay",
            "install",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
            "--move",
        ],
        &[("PATH", Path::new(&format!("{bin}:/usr/bin:/bin")))],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let settings = project.join(".claude/settings.json");
    let written = read(&settings);
    assert!(
        !written.contains(env!("CARGO_BIN_EXE_hook")),
        "a project's shared settings never name this machine's path of hook: {written}"
    );
    let parsed: Value = serde_json::from_str(&written).unwrap();
    let (.., entry) = relay_entries(&parsed)
        .into_iter()
        .find(|(event, ..)| event == "PreToolUse")
        .unwrap();
    assert!(entry.starts_with("hook relay "), "{entry}");
    // Claude Code 2.1.332 blocks on a relay that cannot start, too.
    assert_eq!(
        parsed["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"],
        "block"
    );
    let event = claude_bash(&project, "rm -rf /");
    // On a machine whose PATH has `hook` (wherever it is): the relay runs the guard.
    let with_hook = format!("{bin}:/usr/bin:/bin");
    let out = run_as_agent(&home, &entry, &event, Some(&with_hook));
    assert!(blocks(&out), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("the guard says no"),
        "{}",
        text(&out.stdout)
    );
    let out = run_as_agent(
        &home,
        &entry,
        &claude_bash(&project, "ls"),
        Some(&with_hook),
    );
    assert!(!blocks(&out), "{}", text(&out.stderr));
    // On one without: the entry cannot start, and the call is blocked (exit 2, the shell's
    // message naming `hook`), never let through.
    let out = run_as_agent(&home, &entry, &event, Some("/usr/bin:/bin"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("hook") && stderr.contains("not found"),
        "{stderr}"
    );
    // Without that `|| exit 2` (Claude Code 2.1.332 needs none): the shell's exit 127, which
    // `onFailure: "block"` turns into a block. Checked through the engine's model of Claude
    // Code (`hook run --dialect verboo`, the entry as the user's only hook).
    let bare = entry.replace(" || exit 2", "");
    write(
        &home.claude().join("settings.json"),
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": bare, "onFailure": "block"}]}]}})
        .to_string(),
    );
    let mut run = Command::new(env!("CARGO_BIN_EXE_hook"));
    run.args(["run", "--dialect", "verboo", "--event", "PreToolUse"])
        .env("HOME", &home.root)
        .env("PATH", "/usr/bin:/bin")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .current_dir(&home.root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = run.spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), event.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let outcome: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(outcome["decision"], "block", "{outcome}");
    assert_eq!(outcome["runs"][0]["exit_code"], 127, "{outcome}");
    std::fs::remove_file(home.claude().join("settings.json")).unwrap();
    // And the install said so when its own PATH had none.
    let out = home.hook(
        &[
            "relay",
            "sync",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
        ],
        &[("PATH", Path::new("/usr/bin:/bin"))],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("this PATH has none") && stderr.contains("blocks every guarded event"),
        "{stderr}"
    );
}

#[test]
fn codex_runs_each_relay_hook_once_when_both_scopes_entries_match() {
    let home = Home::new();
    let project = home.root.join("app");
    let count = home.root.join("count");
    let counting = |who: &str| {
        format!(
            "[[hooks.PreToolUse]]\n{}[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"echo {who} >> {}\"\n",
            if who == "user" {
                "matcher = \"Bash\"\n"
            } else {
                ""
            },
            count.display()
        )
    };
    write(
        &home.codex().join("hook-relay/config.toml"),
        &counting("user"),
    );
    write(
        &project.join(".codex/hook-relay/config.toml"),
        &counting("project"),
    );
    let project_arg = project.display().to_string();
    let bin = bin_with_hook(&home);
    let path = format!("{bin}:/usr/bin:/bin");
    for trust in [
        vec!["trust", "--dialect", "lime", "--relay", "--all"],
        vec![
            "trust",
            "--dialect",
            "lime",
            "--relay",
            "--all",
            "--project",
            &project_arg,
        ],
    ] {
        home.ok(&trust, &[]);
    }
    home.ok(&["relay", "install", "--dialect", "lime"], &[]);
    home.ok(
        &[
            "relay",
            "install",
            "--dialect",
            "lime",
            "--project",
            &project_arg,
        ],
        &[],
    );
    // The user's entry matches `Bash`, the project's every tool: a Bash call starts both, as
    // Codex runs every matching entry.
    let entry = |file: &Path| -> (Option<String>, String) {
        let doc: toml::Value = toml::from_str(&read(file)).unwrap();
        let group = &doc["hooks"]["PreToolUse"][0];
        (
            group
                .get("matcher")
                .and_then(|m| m.as_str())
                .map(str::to_owned),
            group["hooks"][0]["command"].as_str().unwrap().to_owned(),
        )
    };
    let (user_matcher, user_entry) = entry(&home.codex().join("config.toml"));
    let (project_matcher, project_entry) = entry(&project.join(".codex/config.toml"));
    assert_eq!(user_matcher.as_deref(), Some("Bash"));
    assert_eq!(project_matcher, None);
    let event = codex_bash(&project, "ls");
    for command in [&user_entry, &project_entry] {
        let out = run_as_agent(&home, command, &event, Some(&path));
        assert!(out.status.success(), "{command}: {}", text(&out.stderr));
    }
    let mut ran: Vec<String> = read(&count).lines().map(str::to_owned).collect();
    ran.sort();
    assert_eq!(ran, ["project", "user"], "each relay hook once");
}

#[test]
fn the_session_start_of_each_scope_names_the_relay_hooks_no_entry_starts() {
    let home = Home::new();
    let project = home.root.join("app");
    write(
        &home.claude().join("hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
    );
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    let session = |settings: &Path| -> String {
        let parsed: Value = serde_json::from_str(&read(settings)).unwrap();
        let (.., command) = relay_entries(&parsed)
            .into_iter()
            .find(|(event, ..)| event == "SessionStart")
            .unwrap();
        let event = serde_json::json!({"hook_event_name": "SessionStart", "session_id": "s",
            "transcript_path": "/t.jsonl", "cwd": project, "source": "startup"})
        .to_string();
        let bin = home.root.join("bin");
        let path = format!("{}:/usr/bin:/bin", bin.display());
        let out = run_as_agent(&home, &command, &event, Some(&path));
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    bin_with_hook(&home);
    // The project has no relay entries: the user's run names its hook, which nothing starts.
    let said = session(&home.claude().join("settings.json"));
    assert!(
        said.contains("PreToolUse:Read:0 never runs: no PreToolUse entry"),
        "{said}"
    );
    let project_arg = project.display().to_string();
    home.ok(
        &[
            "relay",
            "install",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
        ],
        &[],
    );
    // Now each scope's run says nothing is unreached.
    for settings in [
        home.claude().join("settings.json"),
        project.join(".claude/settings.json"),
    ] {
        let said = session(&settings);
        assert!(
            !said.contains("never runs"),
            "{}: {said}",
            settings.display()
        );
    }
}

/// The user's own Codex guard in `~/.codex/config.toml`, trusted by Codex's own record (the
/// key Codex gives it, the hash it computes), as the user left it with `/hooks`.
fn codex_users_trusted_guard(home: &Home) -> (std::path::PathBuf, String, String) {
    let config = home.codex().join("config.toml");
    let key = format!("{}:pre_tool_use:0:0", config.display());
    let hash = crate::relay_install::codex_hash("pre_tool_use", Some("Bash"), "./guard.sh", 600);
    write(
        &config,
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\n\n\
             [hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n"
        ),
    );
    (config, key, hash)
}

#[test]
fn a_clones_codex_install_state_never_removes_the_users_trust_records() {
    let home = Home::new();
    let (config, key, hash) = codex_users_trusted_guard(&home);
    let before = read(&config);
    // A clone ships install state where an earlier hook kept a project's: Codex records naming
    // the user's own config, "written by --trust", for uninstall to take out.
    let clone = home.root.join("clone");
    let clone_config = clone.join(".codex/config.toml");
    write(&clone.join(".codex/hook-relay/config.toml"), GUARD_TOML);
    write(&clone_config, "model = \"gpt-5\"\n");
    let shipped = state_dir(&clone.join(".codex/hook-relay"), &clone_config).join("state.json");
    write(
        &shipped,
        &serde_json::json!({"v": 1, "codex_records": [{"key": key, "hash": hash}]}).to_string(),
    );
    let clone_arg = clone.display().to_string();
    home.ok(
        &[
            "relay",
            "uninstall",
            "--dialect",
            "lime",
            "--project",
            &clone_arg,
        ],
        &[],
    );
    assert_eq!(read(&config), before, "the user's Codex trust record stays");
    assert_eq!(read(&clone_config), "model = \"gpt-5\"\n");
}

/// A Codex relay guard on Bash, in TOML.
const GUARD_TOML: &str = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\n";

#[test]
fn a_clones_created_file_markers_never_delete_its_settings() {
    let home = Home::new();
    let clone = home.root.join("clone");
    let clone_arg = clone.display().to_string();
    let settings = clone.join(".claude/settings.json");
    // The project's settings, with a relay entry as install writes it: a marker saying "install
    // created this file" would have uninstall delete it, with the project's own settings.
    let shipped_settings = "{\"model\": \"opus\", \"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"hook relay --dialect verboo --event PreToolUse --scope project || exit 2 # hook-relay-install\", \"timeout\": 5}]}]}}".to_owned();
    let marker = clone.join(".claude/settings.json.hook-relay.created");
    let state = state_dir(&clone.join(".claude/hook-relay"), &settings).join("state.json");
    let markers: [(&Path, String); 2] = [
        // An earlier version's marker beside the file...
        (&marker, shipped_settings.clone()),
        // ... and its install state in the project's relay folder.
        (
            &state,
            serde_json::json!({"v": 1, "created": shipped_settings}).to_string(),
        ),
    ];
    for (path, text) in &markers {
        write(&settings, &shipped_settings);
        write(path, text);
        let out = home.ok(
            &[
                "relay",
                "uninstall",
                "--dialect",
                "verboo",
                "--project",
                &clone_arg,
            ],
            &[],
        );
        let now: Value = serde_json::from_str(&read(&settings)).unwrap_or_else(|e| {
            panic!(
                "{}: the settings are gone or broken: {e}: {out}",
                path.display()
            )
        });
        assert_eq!(now["model"], "opus", "{}: {out}", path.display());
        assert!(relay_entries(&now).is_empty(), "{now}");
        std::fs::remove_file(path).ok();
    }
}

#[test]
fn an_earlier_versions_project_install_state_still_gives_back_what_is_the_projects() {
    let home = Home::new();
    let (config, users_key, users_hash) = codex_users_trusted_guard(&home);
    let project = home.root.join("app");
    let project_arg = project.display().to_string();
    let project_config = project.join(".codex/config.toml");
    // The project's own hooks, moved into its relay file, and the entries trusted in Codex.
    write(&project_config, GUARD_TOML);
    let moved = [
        "relay",
        "install",
        "--dialect",
        "lime",
        "--project",
        &project_arg,
        "--move",
        "--trust",
    ];
    home.ok(&moved, &[]);
    let relay_file = project.join(".codex/hook-relay/config.toml");
    assert_eq!(read(&relay_file), GUARD_TOML);
    // What uninstall will obey is the user's: nothing of it in the project.
    assert!(!project.join(".codex/hook-relay/install").exists());
    let records = |text: &str| -> Vec<String> {
        let doc: toml::Value = toml::from_str(text).unwrap();
        doc["hooks"]["state"]
            .as_table()
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    };
    let project_records: Vec<String> = records(&read(&config))
        .into_iter()
        .filter(|k| k.starts_with(&project_config.display().to_string()))
        .collect();
    assert!(!project_records.is_empty(), "{}", read(&config));

    // The install state where the earlier hook kept it, in the project's relay folder (with a
    // record naming the user's own file slipped in, as a clone could).
    let users_place =
        state_dir(&home.codex().join("hook-relay"), &project_config).join("state.json");
    let mut state: Value = serde_json::from_str(&read(&users_place)).unwrap();
    std::fs::remove_file(&users_place).unwrap();
    state["codex_records"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"key": users_key, "hash": users_hash}));
    let earlier_place =
        state_dir(&project.join(".codex/hook-relay"), &project_config).join("state.json");
    write(&earlier_place, &state.to_string());

    let out = home.ok(
        &[
            "relay",
            "uninstall",
            "--dialect",
            "lime",
            "--project",
            &project_arg,
        ],
        &[],
    );
    // The project's hooks are back in its file, its entries' records gone from the user's
    // config; the user's own record stays.
    assert_eq!(read(&project_config), GUARD_TOML, "{out}");
    let left = records(&read(&config));
    assert_eq!(left, [users_key], "{out}");
    assert!(read(&config).contains(&users_hash));
    // A move read from the project never deletes a file: the relay file the move created stays,
    // emptied of the moved hooks.
    let relay: toml::Value = toml::from_str(&read(&relay_file)).unwrap();
    assert!(
        relay
            .get("hooks")
            .and_then(|h| h.get("PreToolUse"))
            .is_none(),
        "{relay}"
    );
    // Taken in once: the earlier place holds nothing more to obey.
    assert!(!earlier_place.exists());
}

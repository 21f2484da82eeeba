//! `hook relay install`, `sync` and `uninstall` and the files around them (in-process): a
//! symlinked settings file, a `--move` keeping a group as written, a broken relay file, a
//! project file linking outside, entries valid against Claude Code's settings schema.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::super::{text, write};
use super::install::{Home, read, relay_entries, relay_guard, summary};

/// Says on the terminal that a test was skipped, also without `--nocapture`: the test harness
/// captures `eprintln!`, not writes to the stderr handle.
fn skip_notice(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Every file under `dir` (links not followed), path to bytes: what must stay as it was.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                todo.push(path);
            } else if meta.is_file() {
                files.insert(path.clone(), std::fs::read(&path).unwrap());
            } else {
                files.insert(path.clone(), Vec::new());
            }
        }
    }
    files
}

#[test]
fn a_symlinked_settings_file_is_edited_through_the_link() {
    let home = Home::new();
    relay_guard(&home);
    let dotfiles = home.root.join("dotfiles/claude-settings.json");
    write(&dotfiles, "{\"model\": \"opus\"}\n");
    let settings = home.claude().join("settings.json");
    std::os::unix::fs::symlink(&dotfiles, &settings).unwrap();
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    assert!(
        std::fs::symlink_metadata(&settings)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(read(&dotfiles).contains("# hook-relay-install"));
    home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
    assert!(
        std::fs::symlink_metadata(&settings)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(read(&dotfiles), "{\"model\": \"opus\"}\n");
}

#[test]
#[allow(clippy::print_stderr)]
fn the_installed_entries_are_valid_claude_code_settings() {
    let Some(root) = std::env::var_os("HOOK_REFERENCE_DIR") else {
        skip_notice(
            "skipped: the community settings schema needs HOOK_REFERENCE_DIR (.ci/run sets it)",
        );
        return;
    };
    let schema_path = Path::new(&root).join("verboo-settings-hooks.schema.json");
    let schema: Value = serde_json::from_str(&read(&schema_path)).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let home = Home::new();
    write(
        &home.claude().join("hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh"}]},
            {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "./b.sh"}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "./n.sh"}]}]}}"#,
    );
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    let settings: Value =
        serde_json::from_str(&read(&home.claude().join("settings.json"))).unwrap();
    // `onFailure` is Claude Code 2.1.332's (its settings schema has it on command hooks;
    // 2.1.197 ignores it, measured); the community schema predates it, so it is checked here
    // and taken out before the rest is validated against that schema.
    let mut hooks = serde_json::json!({"hooks": settings["hooks"]});
    let mut on_failure = Vec::new();
    for (event, groups) in hooks["hooks"].as_object_mut().unwrap() {
        for group in groups.as_array_mut().unwrap() {
            for handler in group["hooks"].as_array_mut().unwrap() {
                let value = handler.as_object_mut().unwrap().remove("onFailure");
                on_failure.push((event.clone(), value));
            }
        }
    }
    assert_eq!(
        on_failure,
        [
            ("Notification".to_owned(), None),
            ("PreToolUse".to_owned(), Some("block".into())),
            ("SessionStart".to_owned(), None),
        ],
        "a relay entry blocks where its event can block"
    );
    let errors: Vec<String> = validator
        .iter_errors(&hooks)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}: {hooks}");
    assert_eq!(relay_entries(&settings).len(), 3, "{settings}");
}

#[test]
fn moving_claude_code_hooks_keeps_each_group_as_written() {
    let home = Home::new();
    let settings = home.claude().join("settings.json");
    let native = r#"{"matcher": "Bash", "hooks": [{"type": "native", "library": "./libguard.so", "timeout": 1.5e1}]}"#;
    write(
        &settings,
        &format!("{{\n  \"model\": \"opus\",\n  \"hooks\": {{\"PreToolUse\": [{native}]}}\n}}\n"),
    );
    let out = home.hook(&["relay", "install", "--dialect", "verboo", "--move"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("moved 1 hooks"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("loads `./libguard.so`, a path relative"),
        "{}",
        text(&out.stderr)
    );
    let relay_file = read(&home.claude().join("hook-relay/settings.json"));
    assert!(
        relay_file.contains(native),
        "the group as written: {relay_file}"
    );
    let now: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(now["model"], "opus");
    let entries = relay_entries(&now);
    assert!(
        entries
            .iter()
            .any(|(e, m, t, _)| e == "PreToolUse" && m.as_deref() == Some("Bash") && *t == 20),
        "{entries:?}"
    );
    assert!(!read(&settings).contains("libguard"));
}

#[test]
fn a_broken_relay_file_never_takes_the_entries_away() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    // A typo in the relay file: the relay must still start (and say what is wrong).
    let relay_file = home.claude().join("hook-relay/settings.json");
    write(&relay_file, "{\"hooks\": {\"PreToolUse\": [");
    let out = home.hook(&["relay", "sync", "--dialect", "verboo"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("could not be read"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        summary(&settings),
        ["PreToolUse [Bash] 25", "SessionStart 605"]
    );
    // One broken handler: its event keeps an entry, for every tool.
    write(
        &relay_file,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "./s.sh"}]}]}}"#,
    );
    home.ok(&["relay", "sync", "--dialect", "verboo"]);
    assert_eq!(
        summary(&settings),
        ["PreToolUse 605", "SessionStart 605", "Stop 605"]
    );
}

#[test]
fn a_project_settings_file_that_links_outside_is_refused_and_nothing_outside_changes() {
    let home = Home::new();
    let project = home.root.join("app");
    // Another application's JSON config, which the project's settings file links to.
    let outside = home.root.join("other-app");
    write(&outside.join("config.json"), "{\"theme\": \"dark\"}\n");
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    std::os::unix::fs::symlink(
        outside.join("config.json"),
        project.join(".claude/settings.json"),
    )
    .unwrap();
    let before = snapshot(&outside);
    let project_arg = project.display().to_string();
    for args in [
        &[
            "relay",
            "install",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
        ][..],
        &[
            "relay",
            "install",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
            "--move",
        ],
        &[
            "relay",
            "sync",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
        ],
        &[
            "relay",
            "uninstall",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
        ],
    ] {
        let out = home.hook(args);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?}: {}", text(&out.stdout));
        assert!(
            stderr.contains(&format!(
                "resolves to {}, outside the project",
                outside.join("config.json").display()
            )),
            "{args:?}: {stderr}"
        );
        assert_eq!(snapshot(&outside), before, "{args:?}");
    }
}

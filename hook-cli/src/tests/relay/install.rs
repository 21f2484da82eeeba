//! `hook relay install`, `sync` and `uninstall` on real files (in-process): entries only where
//! relay hooks are, every other byte kept. (`ops/relay/install/tests.rs` tests the operations
//! themselves; `tests/it/relay_install.rs` keeps what needs the binary: `hook list --relay`
//! reading the agent's settings through `HOME`, the project scope's Codex records in the user's
//! `config.toml`, the installed command run through a shell, concurrent installs, the real
//! Codex.)

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use super::super::{output, text, write};

/// A temporary folder standing for a user's home (`root`), Claude Code's `.claude/` and Codex's
/// `.codex/` in it. The binary's tests set `HOME` to it; in this process the agent's folder is
/// named by flags instead, which reach the same files: `--agent-config` (its settings file) and
/// `--home` (the relay's files and trust store; the entries then carry it too).
pub(super) struct Home {
    _dir: tempfile::TempDir,
    pub(super) root: PathBuf,
}

impl Home {
    pub(super) fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        // (`--home` names a folder that exists.)
        for folder in [".claude", ".codex", "elsewhere"] {
            std::fs::create_dir_all(root.join(folder)).unwrap();
        }
        // The entries start a `hook` (this process is the test binary, not one).
        crate::ops::relay::install::test_program::set(root.join("bin/hook"));
        Home { _dir: dir, root }
    }

    pub(super) fn claude(&self) -> PathBuf {
        self.root.join(".claude")
    }

    pub(super) fn codex(&self) -> PathBuf {
        self.root.join(".codex")
    }

    /// `hook ARGS` on this home: `relay install`, `sync` and `uninstall` are given the agent's
    /// folder (`--home`, unless given) and, in the user's scope (no `--project`), its settings
    /// file (`--agent-config`); `list` is given `--home` and an empty project.
    pub(super) fn hook(&self, args: &[&str]) -> Output {
        let dialect = args
            .iter()
            .position(|a| *a == "--dialect")
            .map(|at| args[at + 1])
            .unwrap();
        let (folder, file) = match dialect {
            "verboo" => (self.claude(), "settings.json"),
            _ => (self.codex(), "config.toml"),
        };
        let given = |flag: &str| args.contains(&flag);
        let mut extra: Vec<String> = Vec::new();
        if !given("--home") {
            extra.extend(["--home".to_owned(), folder.display().to_string()]);
        }
        if args[0] == "relay" && !given("--project") {
            let agent_file = folder.join(file).display().to_string();
            extra.extend(["--agent-config".to_owned(), agent_file]);
        }
        if args[0] == "list" && !given("--project") {
            let empty = self.root.join("elsewhere").display().to_string();
            extra.extend(["--project".to_owned(), empty]);
        }
        let mut all = args.to_vec();
        all.extend(extra.iter().map(String::as_str));
        output(&all, "")
    }

    /// `hook ARGS`, which must succeed; its stdout.
    pub(super) fn ok(&self, args: &[&str]) -> String {
        let out = self.hook(args);
        assert!(
            out.status.success(),
            "hook {args:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        text(&out.stdout)
    }
}

pub(super) fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A Claude Code relay file with one PreToolUse hook on `Bash`.
pub(super) fn relay_guard(home: &Home) {
    write(
        &home.claude().join("hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh", "timeout": 20}]}]}}"#,
    );
}

/// The relay entries of a Claude Code settings file: event → (matcher, timeout, command).
pub(super) fn relay_entries(settings: &Value) -> Vec<(String, Option<String>, u64, String)> {
    let mut entries = Vec::new();
    for (event, groups) in settings["hooks"].as_object().into_iter().flatten() {
        for group in groups.as_array().unwrap() {
            for handler in group["hooks"].as_array().unwrap() {
                let command = handler["command"].as_str().unwrap_or_default();
                if command.ends_with("# hook-relay-install") {
                    entries.push((
                        event.clone(),
                        group["matcher"].as_str().map(str::to_owned),
                        handler["timeout"].as_u64().unwrap(),
                        command.to_owned(),
                    ));
                }
            }
        }
    }
    entries
}

/// The relay entries of a Claude Code settings file, sorted: `Event [matcher] timeout`.
pub(super) fn summary(settings: &Path) -> Vec<String> {
    let parsed: Value = serde_json::from_str(&read(settings)).unwrap();
    let mut entries: Vec<_> = relay_entries(&parsed)
        .into_iter()
        .map(|(e, m, t, _)| match m {
            Some(m) => format!("{e} [{m}] {t}"),
            None => format!("{e} {t}"),
        })
        .collect();
    entries.sort();
    entries
}

#[test]
fn install_then_uninstall_gives_the_file_back_byte_for_byte() {
    let originals = [
        ("pretty", "{\n  \"model\": \"opus\"\n}\n"),
        (
            "minified",
            "{\"model\":\"opus\",\"n\":12345678901234567890123,\"x\":1.0e400}",
        ),
        (
            "crlf",
            "{\r\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\r\n  \"big\": 1E+400\r\n}\r\n",
        ),
        (
            "odd indent, tabs",
            "{\n\t \"z\" :  true,\n\t \"a\" :  [ 1 , 2 ]\n}",
        ),
        (
            "other tools' hooks",
            "{\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"other-tool check\"}]}\n        ]\n    },\n    \"env\": {\"A\": \"1\"}\n}\n",
        ),
        ("empty object", "{}"),
        (
            "unicode escapes",
            "{\"name\": \"caf\\u00e9 \\ud83d\\ude00\", \"k\": [\n]}\n",
        ),
    ];
    for (what, original) in originals {
        let home = Home::new();
        relay_guard(&home);
        let settings = home.claude().join("settings.json");
        write(&settings, original);
        std::fs::set_permissions(&settings, std::fs::Permissions::from_mode(0o600)).unwrap();
        home.ok(&["relay", "install", "--dialect", "verboo"]);
        let installed = read(&settings);
        assert_ne!(installed, original, "{what}");
        // (Not read as a `Value`: `1.0e400` is out of its range.)
        assert_eq!(
            installed.matches("# hook-relay-install").count(),
            2,
            "{what}: {installed}"
        );
        let mode = std::fs::metadata(&settings).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{what}: the mode is kept");
        let backup = home.claude().join("settings.json.hook-relay.prev");
        assert_eq!(read(&backup), original, "{what}");
        let backup_mode = std::fs::metadata(&backup).unwrap().permissions().mode();
        assert_eq!(backup_mode & 0o777, 0o600, "{what}");
        if what == "crlf" {
            assert!(!installed.replace("\r\n", "").contains('\n'), "{installed}");
        }
        if what == "minified" {
            assert!(!installed.contains('\n'), "{installed}");
            assert!(installed.contains("12345678901234567890123"));
        }
        home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
        assert_eq!(read(&settings), original, "{what}");
    }
}

#[test]
fn edits_made_while_installed_are_kept_and_a_user_hook_in_the_group_stays() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    write(&settings, "{\n  \"model\": \"opus\"\n}\n");
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    // The user edits the installed file: a new key, and their own hook in the relay's group.
    let installed = read(&settings);
    let edited = installed
        .replace(
            "\"model\": \"opus\"",
            "\"model\": \"sonnet\",\n  \"theme\": \"dark\"",
        )
        .replacen(
            "\"hooks\": [\n",
            "\"hooks\": [\n          {\"type\": \"command\", \"command\": \"./mine.sh\"},\n",
            1,
        );
    assert_ne!(edited, installed);
    write(&settings, &edited);
    // A stale backup is never put back.
    home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
    let after: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(after["model"], "sonnet");
    assert_eq!(after["theme"], "dark");
    assert!(relay_entries(&after).is_empty(), "{after}");
    let text = read(&settings);
    assert!(text.contains("./mine.sh"), "the user's hook stays: {text}");
    // A second cycle keeps them too.
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
    assert_eq!(read(&settings), text);
}

#[test]
fn entries_of_the_earlier_install_are_recognised_and_replaced() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    let old = |event: &str| {
        format!(
            "\"{event}\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"'/old/hook' relay --dialect verboo\", \"timeout\": 600}}]}}]"
        )
    };
    write(
        &settings,
        &format!(
            "{{\"hooks\": {{{}, {}}}, \"keep\": 1}}",
            old("PreToolUse"),
            old("Notification")
        ),
    );
    // The earlier version's backup is never restored nor overwritten.
    let old_backup = home.claude().join("settings.json.hook-relay.bak");
    write(&old_backup, "{\"the\": \"original\"}");
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    let text_now = read(&settings);
    assert!(!text_now.contains("/old/hook"), "{text_now}");
    assert!(!text_now.contains("Notification"), "{text_now}");
    home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
    assert_eq!(read(&settings), "{\"keep\": 1}");
    assert_eq!(read(&old_backup), "{\"the\": \"original\"}");
}

#[test]
fn uninstall_removes_the_file_install_created_unless_the_user_wrote_in_it() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    let marker = home.claude().join("settings.json.hook-relay.created");
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    assert_eq!(read(&marker), read(&settings));
    let out = home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
    assert!(out.contains("removed"), "{out}");
    assert!(
        !settings.exists(),
        "no empty {{\"hooks\": {{}}}} is left: {out}"
    );
    assert!(!marker.exists());

    // Created by install, then the user added a setting: uninstall keeps the file and it.
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    let edited = read(&settings).replacen('{', "{\n  \"model\": \"opus\",", 1);
    write(&settings, &edited);
    home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
    let after: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(after["model"], "opus");
    assert!(relay_entries(&after).is_empty(), "{after}");
    assert!(!marker.exists(), "the file is the user's now");
}

#[test]
fn uninstall_without_a_file_writes_none() {
    let home = Home::new();
    let out = home.ok(&["relay", "uninstall", "--dialect", "verboo"]);
    assert!(out.contains("nothing to uninstall"), "{out}");
    assert!(!home.claude().join("settings.json").exists());
    // No relay hooks: install writes no entries, and no file either.
    home.ok(&["relay", "install", "--dialect", "verboo"]);
    assert!(!home.claude().join("settings.json").exists());
}

#[test]
fn an_install_with_home_points_the_relay_at_that_home() {
    let home = Home::new();
    let other = home.root.join("other-home");
    write(
        &other.join("hook-relay/settings.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./s.sh"}]}]}}"#,
    );
    let other_arg = other.display().to_string();
    home.ok(&[
        "relay",
        "install",
        "--dialect",
        "verboo",
        "--home",
        &other_arg,
    ]);
    let settings: Value =
        serde_json::from_str(&read(&home.claude().join("settings.json"))).unwrap();
    let entries = relay_entries(&settings);
    assert_eq!(entries.len(), 2, "{settings}");
    for (event, _, _, command) in &entries {
        assert!(
            command.ends_with(&format!(
                " relay --dialect verboo --event {event} --home {other_arg} # hook-relay-install"
            )),
            "{command}"
        );
    }
}

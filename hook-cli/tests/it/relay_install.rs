//! `hook relay install`, `sync` and `uninstall` on real files: entries only where relay hooks
//! are, every other byte kept, files refused rather than overwritten, Codex's own trust.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

pub(crate) use hook_test_support::fs::{read, write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cli::text;

/// A home of its own: `HOME`, no agent variables from the environment running the tests.
pub(crate) struct Home {
    _dir: tempfile::TempDir,
    pub(crate) root: PathBuf,
}

impl Home {
    pub(crate) fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        Home { _dir: dir, root }
    }

    pub(crate) fn claude(&self) -> PathBuf {
        self.root.join(".claude")
    }

    pub(crate) fn codex(&self) -> PathBuf {
        self.root.join(".codex")
    }

    /// `hook args` with `HOME` here (and `env`).
    pub(crate) fn hook(&self, args: &[&str], env: &[(&str, &Path)]) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hook"));
        command
            .args(args)
            .stdin(Stdio::null())
            .env("HOME", &self.root)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("LIME_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("COPILOT_CLI");
        for (name, value) in env {
            command.env(name, value);
        }
        command.output().unwrap()
    }

    /// `hook args` with `HOME` here and `stdin` piped in.
    pub(crate) fn hook_in(&self, args: &[&str], stdin: &str) -> Output {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("HOME", &self.root)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("LIME_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("COPILOT_CLI")
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        let _ = pipe.write_all(stdin.as_bytes());
        drop(pipe);
        child.wait_with_output().unwrap()
    }

    /// `hook args`, which must succeed; its stdout.
    pub(crate) fn ok(&self, args: &[&str], env: &[(&str, &Path)]) -> String {
        let out = self.hook(args, env);
        assert!(
            out.status.success(),
            "hook {args:?}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        text(&out.stdout)
    }
}

/// Where `hook relay` keeps what it needs of `file` (its lock, backups, state): in the relay's
/// folder `relay_folder`, `install/<name>-<12 hex digits of the SHA-256 of its path>/`.
pub(crate) fn state_dir(relay_folder: &Path, file: &Path) -> PathBuf {
    let hash = hex::encode(Sha256::digest(file.display().to_string().as_bytes()));
    let name = file.file_name().unwrap().to_string_lossy();
    relay_folder
        .join("install")
        .join(format!("{name}-{}", &hash[..12]))
}

/// The names in `dir` that `hook relay` must not leave beside an agent's settings: lock files
/// and backups.
pub(crate) fn left_beside(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".lock") || name.contains(".hook-relay."))
        .collect()
}

/// A Claude Code relay file with one PreToolUse hook on `Bash`.
fn relay_guard(home: &Home) {
    write(
        &home.claude().join("hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh", "timeout": 20}]}]}}"#,
    );
}

/// The relay entries of a Claude Code settings file: event → (matcher, timeout, command).
pub(crate) fn relay_entries(settings: &Value) -> Vec<(String, Option<String>, u64, String)> {
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
pub(crate) fn summary(settings: &Path) -> Vec<String> {
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
        home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
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
        // The file before the first install, in the relay's folder, never beside the file.
        let backup =
            state_dir(&home.claude().join("hook-relay"), &settings).join("settings.json.first");
        assert_eq!(read(&backup), original, "{what}");
        assert_eq!(left_beside(&home.claude()), Vec::<String>::new(), "{what}");
        let backup_mode = std::fs::metadata(&backup).unwrap().permissions().mode();
        assert_eq!(backup_mode & 0o777, 0o600, "{what}");
        if what == "crlf" {
            assert!(!installed.replace("\r\n", "").contains('\n'), "{installed}");
        }
        if what == "minified" {
            assert!(!installed.contains('\n'), "{installed}");
            assert!(installed.contains("12345678901234567890123"));
        }
        home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
        assert_eq!(read(&settings), original, "{what}");
        // The first backup is never overwritten; the uninstall's is numbered.
        assert_eq!(read(&backup), original, "{what}");
        assert_eq!(read(&backup.with_file_name("settings.json.1")), installed);
        assert_eq!(left_beside(&home.claude()), Vec::<String>::new(), "{what}");
    }
}

#[test]
fn edits_made_while_installed_are_kept_and_a_user_hook_in_the_group_stays() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    write(&settings, "{\n  \"model\": \"opus\"\n}\n");
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
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
    home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    let after: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(after["model"], "sonnet");
    assert_eq!(after["theme"], "dark");
    assert!(relay_entries(&after).is_empty(), "{after}");
    let text = read(&settings);
    assert!(text.contains("./mine.sh"), "the user's hook stays: {text}");
    // A second cycle keeps them too.
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert_eq!(read(&settings), text);
}

#[test]
fn entries_only_where_relay_hooks_are_and_sync_follows_the_relay_files() {
    let home = Home::new();
    let relay_file = home.claude().join("hook-relay/settings.json");
    write(
        &relay_file,
        r#"{"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh", "timeout": 20}]},
                {"matcher": "Read", "hooks": [{"type": "command", "command": "./b.sh", "timeout": 7}]}],
            "Stop": [{"matcher": "ignored", "hooks": [{"type": "command", "command": "./c.sh", "timeout": 3}]}]}}"#,
    );
    let settings = home.claude().join("settings.json");
    let out = home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    assert!(out.contains("PreToolUse [Bash|Read]"), "{out}");
    assert_eq!(
        summary(&settings),
        ["PreToolUse [Bash|Read] 25", "SessionStart 5", "Stop 8",]
    );
    let parsed: Value = serde_json::from_str(&read(&settings)).unwrap();
    for (event, _, timeout, command) in &relay_entries(&parsed) {
        // The user's entries start the relay for the user's relay hooks, telling it their own
        // timeout; where the event can block, a relay that cannot even start blocks it too.
        let closed = if event == "PreToolUse" {
            " || exit 2"
        } else {
            ""
        };
        assert!(
            command.ends_with(&format!(
                " relay --dialect verboo --event {event} --scope user --entry-timeout {timeout}{closed} # hook-relay-install"
            )),
            "{command}"
        );
        // The user's settings name this very binary.
        assert!(command.starts_with('/'), "{command}");
    }
    // A relay that cannot answer blocks where the event can block (not on SessionStart, which
    // cannot, nor on Stop, where Claude Code ignores it).
    let on_failure = |event: &str| parsed["hooks"][event][0]["hooks"][0]["onFailure"].clone();
    assert_eq!(on_failure("PreToolUse"), "block", "{parsed}");
    assert_eq!(on_failure("SessionStart"), Value::Null, "{parsed}");
    assert_eq!(on_failure("Stop"), Value::Null, "{parsed}");
    // Installing again changes nothing.
    let before = read(&settings);
    let out = home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    assert!(out.contains("up to date"), "{out}");
    assert_eq!(read(&settings), before);

    // A relay hook on an event without an entry is reported, with the fix.
    write(
        &relay_file,
        r#"{"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh"}]}],
            "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "./d.sh", "timeout": 30}]}]}}"#,
    );
    let out = home.hook(&["list", "--dialect", "verboo", "--relay"], &[]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("never runs: no PostToolUse entry"),
        "{stderr}"
    );
    assert!(
        stderr.contains("hook relay sync --dialect verboo"),
        "{stderr}"
    );

    // sync: PostToolUse added, Stop removed, PreToolUse's matcher and timeout follow.
    home.ok(&["relay", "sync", "--dialect", "verboo"], &[]);
    assert_eq!(
        summary(&settings),
        [
            "PostToolUse [Edit] 35",
            "PreToolUse [Bash] 605",
            "SessionStart 5",
        ]
    );
    let out = home.hook(&["list", "--dialect", "verboo", "--relay"], &[]);
    assert!(
        !text(&out.stderr).contains("never runs"),
        "{}",
        text(&out.stderr)
    );

    // No relay hooks left: sync takes every entry out; install had created the file and
    // nothing else is in it, so it goes too.
    std::fs::remove_file(&relay_file).unwrap();
    home.ok(&["relay", "sync", "--dialect", "verboo"], &[]);
    assert!(!settings.exists());
}

#[test]
fn a_tool_the_entry_does_not_match_is_reported() {
    let home = Home::new();
    relay_guard(&home);
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    // A Read hook added by hand, without a sync.
    write(
        &home.claude().join("hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 20}]},
            {"matcher": "Read", "hooks": [{"type": "command", "command": "./r.sh", "timeout": 20}]}]}}"#,
    );
    let out = home.hook(&["list", "--dialect", "verboo", "--relay"], &[]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the PreToolUse entry's matcher does not match `Read`"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("never runs").count(), 1, "{stderr}");
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
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    let text_now = read(&settings);
    assert!(!text_now.contains("/old/hook"), "{text_now}");
    assert!(!text_now.contains("Notification"), "{text_now}");
    home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert_eq!(read(&settings), "{\"keep\": 1}");
    assert_eq!(read(&old_backup), "{\"the\": \"original\"}");
}

#[test]
fn files_that_cannot_be_read_are_refused_never_overwritten() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("not UTF-8", b"{\"a\": \"\xff\"}".to_vec(), "not UTF-8"),
        ("an array", b"[1, 2]".to_vec(), "must hold a JSON object"),
        ("broken JSON", b"{\"a\": ".to_vec(), "not valid JSON"),
        (
            "too large",
            format!("{{\"a\": \"{}\"}}", "x".repeat(9 * 1024 * 1024)).into_bytes(),
            "larger than 8 MiB",
        ),
    ];
    for (what, bytes, expected) in cases {
        std::fs::write(&settings, &bytes).unwrap();
        for args in [
            ["relay", "install", "--dialect", "verboo"],
            ["relay", "uninstall", "--dialect", "verboo"],
        ] {
            let out = home.hook(&args, &[]);
            assert_eq!(out.status.code(), Some(1), "{what}");
            let stderr = text(&out.stderr);
            assert!(stderr.contains(expected), "{what}: {stderr}");
            assert!(stderr.contains(&settings.display().to_string()), "{stderr}");
            assert_eq!(std::fs::read(&settings).unwrap(), bytes, "{what}");
        }
    }
    // A FIFO is refused at once, not waited on.
    std::fs::remove_file(&settings).unwrap();
    let status = Command::new("mkfifo").arg(&settings).status().unwrap();
    assert!(status.success());
    let started = std::time::Instant::now();
    let out = home.hook(&["relay", "install", "--dialect", "verboo"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn a_symlinked_settings_file_is_edited_through_the_link() {
    let home = Home::new();
    relay_guard(&home);
    let dotfiles = home.root.join("dotfiles/claude-settings.json");
    write(&dotfiles, "{\"model\": \"opus\"}\n");
    let settings = home.claude().join("settings.json");
    std::os::unix::fs::symlink(&dotfiles, &settings).unwrap();
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    assert!(
        std::fs::symlink_metadata(&settings)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(read(&dotfiles).contains("# hook-relay-install"));
    home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert!(
        std::fs::symlink_metadata(&settings)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(read(&dotfiles), "{\"model\": \"opus\"}\n");
}

#[test]
fn concurrent_installs_are_serialised() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    write(&settings, "{\"model\": \"opus\"}\n");
    let children: Vec<_> = (0..4)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_hook"))
                .args(["relay", "install", "--dialect", "verboo"])
                .env("HOME", &home.root)
                .env_remove("CLAUDE_CONFIG_DIR")
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let parsed: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(relay_entries(&parsed).len(), 2, "{parsed}");
}

#[test]
fn uninstall_removes_the_file_install_created_unless_the_user_wrote_in_it() {
    let home = Home::new();
    relay_guard(&home);
    let settings = home.claude().join("settings.json");
    let state = state_dir(&home.claude().join("hook-relay"), &settings).join("state.json");
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    // What install created is remembered in the relay's folder, not beside the file.
    let created: Value = serde_json::from_str(&read(&state)).unwrap();
    assert_eq!(created["created"], read(&settings));
    assert_eq!(left_beside(&home.claude()), Vec::<String>::new());
    let out = home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert!(out.contains("removed"), "{out}");
    assert!(
        !settings.exists(),
        "no empty {{\"hooks\": {{}}}} is left: {out}"
    );
    assert!(!state.exists());

    // Created by install, then the user added a setting: uninstall keeps the file and it.
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    let edited = read(&settings).replacen('{', "{\n  \"model\": \"opus\",", 1);
    write(&settings, &edited);
    home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    let after: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(after["model"], "opus");
    assert!(relay_entries(&after).is_empty(), "{after}");
    assert!(!state.exists(), "the file is the user's now");

    // An earlier version recorded the file it created beside it: still honoured, and that
    // record goes.
    std::fs::remove_file(&settings).unwrap();
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    std::fs::remove_file(&state).unwrap();
    let marker = home.claude().join("settings.json.hook-relay.created");
    write(&marker, &read(&settings));
    write(&home.claude().join("settings.json.lock"), "");
    home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert!(!settings.exists());
    assert!(!marker.exists());
    assert_eq!(left_beside(&home.claude()), Vec::<String>::new());
}

#[test]
fn uninstall_without_a_file_writes_none() {
    let home = Home::new();
    let out = home.ok(&["relay", "uninstall", "--dialect", "verboo"], &[]);
    assert!(out.contains("nothing to uninstall"), "{out}");
    assert!(!home.claude().join("settings.json").exists());
    // No relay hooks: install writes no entries, and no file either.
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    assert!(!home.claude().join("settings.json").exists());
}

/// Codex's trust hash of a relay entry, from its recipe (see `relay_install/codex_trust.rs`).
pub(crate) fn codex_hash(
    event_label: &str,
    matcher: Option<&str>,
    command: &str,
    timeout: i64,
) -> String {
    let matcher = matcher
        .map(|m| format!(",\"matcher\":{}", Value::from(m)))
        .unwrap_or_default();
    let identity = format!(
        "{{\"event_name\":\"{event_label}\",\"hooks\":[{{\"async\":false,\"command\":{},\"timeout\":{timeout},\"type\":\"command\"}}]{matcher}}}",
        Value::from(command)
    );
    format!(
        "sha256:{}",
        hex::encode(Sha256::digest(identity.as_bytes()))
    )
}

#[test]
fn codex_install_with_trust_writes_codexs_own_records() {
    let home = Home::new();
    let codex = home.codex();
    write(
        &codex.join("hook-relay/config.toml"),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\ntimeout = 30\n",
    );
    let config = codex.join("config.toml");
    // A record of the user's own: never taken out.
    let mine = format!(
        "[hooks.state.\"/elsewhere/config.toml:stop:0:0\"]\ntrusted_hash = \"sha256:{}\"\n",
        "1".repeat(64)
    );
    write(&config, &format!("# mine\nmodel = \"gpt-5\"\n\n{mine}"));
    // Without --trust: what to do in /hooks.
    let out = home.ok(&["relay", "install", "--dialect", "lime"], &[]);
    assert!(out.contains("/hooks"), "{out}");
    assert!(out.contains("--trust"), "{out}");
    let out = home.ok(&["relay", "install", "--dialect", "lime", "--trust"], &[]);
    assert!(out.contains("nothing to do in /hooks"), "{out}");
    let doc: toml::Value = toml::from_str(&read(&config)).unwrap();
    let hooks = doc["hooks"].as_table().unwrap();
    let events: Vec<&str> = hooks
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "state")
        .collect();
    assert_eq!(events, ["SessionStart", "PreToolUse"]);
    let state = hooks["state"].as_table().unwrap();
    let config_path = config.display().to_string();
    for (event, label, matcher, timeout) in [
        ("PreToolUse", "pre_tool_use", Some("Bash"), 35),
        ("SessionStart", "session_start", None, 5),
    ] {
        let handler = &hooks[event][0]["hooks"][0];
        let command = handler["command"].as_str().unwrap();
        assert_eq!(handler["timeout"].as_integer(), Some(timeout));
        assert_eq!(
            hooks[event][0].get("matcher").and_then(|m| m.as_str()),
            matcher
        );
        let key = format!("{config_path}:{label}:0:0");
        assert_eq!(
            state[&key]["trusted_hash"].as_str(),
            Some(codex_hash(label, matcher, command, timeout).as_str()),
            "{key}"
        );
    }
    assert!(read(&config).starts_with("# mine\nmodel = \"gpt-5\"\n"));
    // Again: Codex already trusts them.
    let out = home.ok(&["relay", "install", "--dialect", "lime", "--trust"], &[]);
    assert!(out.contains("Codex trusts the 2 relay entries"), "{out}");
    // Uninstall takes the entries out, and the records --trust wrote (only those), and keeps
    // the rest of the file.
    let out = home.ok(&["relay", "uninstall", "--dialect", "lime"], &[]);
    assert!(out.contains("took out 2 of Codex's trust records"), "{out}");
    assert!(!out.contains("nothing else changed"), "{out}");
    let text_now = read(&config);
    assert_eq!(text_now, format!("# mine\nmodel = \"gpt-5\"\n\n{mine}"));
    // No lock file was left beside Codex's settings.
    let beside: Vec<String> = std::fs::read_dir(&codex)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        beside.iter().all(|name| !name.ends_with(".lock")),
        "{beside:?}"
    );
}

#[test]
fn codex_relay_files_in_the_old_place_are_read_with_a_warning() {
    let home = Home::new();
    let old = home.root.join(".lime/hook-relay/config.toml");
    write(
        &old,
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./done.sh\"\n",
    );
    let out = home.hook(&["list", "--dialect", "lime", "--relay", "--json"], &[]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    let stderr = text(&out.stderr);
    let new = home.codex().join("hook-relay/config.toml");
    assert!(
        stderr.contains(&format!("move it to {}", new.display())),
        "{stderr}"
    );
    // Once moved, the new place is read, silently.
    write(&new, &read(&old));
    std::fs::remove_file(&old).unwrap();
    let out = home.hook(&["list", "--dialect", "lime", "--relay", "--json"], &[]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert!(
        !text(&out.stderr).contains("earlier version"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn moving_from_codex_keeps_trusted_guards_trusted() {
    let home = Home::new();
    let codex = home.codex();
    let config = codex.join("config.toml");
    let config_path = config.display().to_string();
    let trusted = codex_hash("pre_tool_use", Some("Bash"), "./guard.sh", 600);
    write(
        &config,
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\n\n\
             [[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./new.sh\"\n\n\
             [hooks.state.\"{config_path}:pre_tool_use:0:0\"]\ntrusted_hash = \"{trusted}\"\n"
        ),
    );
    let original = read(&config);
    let out = home.ok(&["relay", "install", "--dialect", "lime", "--move"], &[]);
    assert!(
        out.contains("trusted 1 moved hook in the relay's store"),
        "{out}"
    );
    assert!(out.contains("Codex CLI was running it\n"), "{out}");
    // One backup, of the file before the command, in the relay's folder.
    let first = state_dir(&codex.join("hook-relay"), &config).join("config.toml.first");
    assert_eq!(read(&first), original);
    assert_eq!(left_beside(&codex), Vec::<String>::new());
    assert!(out.contains("had not trusted it"), "{out}");
    let relay_file = codex.join("hook-relay/config.toml");
    let moved = read(&relay_file);
    assert!(
        moved.contains("./guard.sh") && moved.contains("./new.sh"),
        "{moved}"
    );
    let now = read(&config);
    assert!(
        !now.contains("./guard.sh") && !now.contains("./new.sh"),
        "{now}"
    );
    // The relay runs the guard Codex trusted; the other waits for review.
    let out = home.hook(&["list", "--dialect", "lime", "--relay", "--json"], &[]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let status = |command: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["config"]["command"] == command)
            .map(|h| h["trust"]["status"].clone())
            .unwrap()
    };
    assert_eq!(status("./guard.sh"), "trusted", "{listed}");
    assert_eq!(status("./new.sh"), "untrusted", "{listed}");
    // The entries serve the moved hooks.
    let doc: toml::Value = toml::from_str(&now).unwrap();
    assert!(
        doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with(
                "--event PreToolUse --scope user --entry-timeout 605 || exit 2 # hook-relay-install"
            )
    );
}

#[test]
fn each_scopes_entries_serve_that_scopes_relay_hooks() {
    let home = Home::new();
    relay_guard(&home);
    let project = home.root.join("app");
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [
            {"type": "command", "command": "./read-guard.sh", "timeout": 40}]}]}}"#,
    );
    let project_arg = project.display().to_string();
    let project_settings = project.join(".claude/settings.json");
    let sync_project = [
        "relay",
        "sync",
        "--dialect",
        "verboo",
        "--project",
        &project_arg,
    ];
    // The project's entries serve the project's relay hooks, whatever the installer's own: a
    // project's settings are shared.
    home.ok(&sync_project, &[]);
    assert_eq!(
        summary(&project_settings),
        ["PreToolUse [Read] 45", "SessionStart 5"]
    );
    let parsed: Value = serde_json::from_str(&read(&project_settings)).unwrap();
    for (event, _, _, command) in relay_entries(&parsed) {
        // `hook` through each machine's PATH, never this machine's path of it.
        assert!(
            command.starts_with(&format!(
                "hook relay --dialect verboo --event {event} --scope project"
            )),
            "{command}"
        );
    }
    // The user's relay hook is not the project's to start: reported, with the command that
    // fixes it (the user's scope).
    let list = [
        "list",
        "--dialect",
        "verboo",
        "--relay",
        "--project",
        &project_arg,
    ];
    let stderr = text(&home.hook(&list, &[]).stderr);
    assert!(
        stderr.contains(
            "user:hook-relay/settings.json:PreToolUse:Bash:0 never runs: no PreToolUse entry"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("run `hook relay sync --dialect verboo`"),
        "{stderr}"
    );
    // The user's entries serve the user's relay hooks; the project's stay as they were.
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    assert_eq!(
        summary(&home.claude().join("settings.json")),
        ["PreToolUse [Bash] 25", "SessionStart 5"]
    );
    let stderr = text(&home.hook(&list, &[]).stderr);
    assert!(!stderr.contains("never runs"), "{stderr}");
    let out = home.ok(&sync_project, &[]);
    assert!(out.contains("up to date"), "{out}");
}

#[test]
fn codex_project_relay_files_sit_in_the_projects_codex_folder() {
    let home = Home::new();
    let project = home.root.join("app");
    write(
        &project.join(".codex/hook-relay/config.toml"),
        "[[hooks.PostToolUse]]\nmatcher = \"apply_patch\"\n[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = \"./fmt.sh\"\n\
         [[hooks.SessionEnd]]\n[[hooks.SessionEnd.hooks]]\ntype = \"command\"\ncommand = \"./bye.sh\"\n",
    );
    let project_arg = project.display().to_string();
    let out = home.ok(
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
    assert!(out.contains("PostToolUse [apply_patch]"), "{out}");
    let doc: toml::Value = toml::from_str(&read(&project.join(".codex/config.toml"))).unwrap();
    let events: Vec<&String> = doc["hooks"].as_table().unwrap().keys().collect();
    assert_eq!(events, ["SessionStart", "PostToolUse"]);
    let list = [
        "list",
        "--dialect",
        "lime",
        "--relay",
        "--project",
        &project_arg,
    ];
    let stderr = text(&home.hook(&list, &[]).stderr);
    assert!(
        stderr.contains("Codex CLI does not send SessionEnd"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("never runs").count(), 1, "{stderr}");
}

/// The real Codex (as `cargo xtask conformance` installs it), when it is there.
#[allow(clippy::print_stderr)]
fn real_codex() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let codex = root.join("target/conformance/npm/node_modules/.bin/codex");
    if codex.exists() {
        Some(codex)
    } else {
        skip_notice(&format!(
            "skipped: no Codex at {} (`cargo xtask conformance codex` installs it)",
            codex.display()
        ));
        None
    }
}

/// Codex's own view of its hooks (`hooks/list` of `codex app-server`): key → (hash, status).
fn codex_hooks(codex: &Path, home: &Home) -> Vec<Value> {
    codex_hooks_in(codex, home, &home.root)
}

/// [`codex_hooks`] for the folder `cwd` (a project).
fn codex_hooks_in(codex: &Path, home: &Home, cwd: &Path) -> Vec<Value> {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(codex)
        .arg("app-server")
        .current_dir(&home.root)
        .env("HOME", &home.root)
        .env("CODEX_HOME", home.codex())
        .env("OPENAI_API_KEY", "sk-fake")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let cwd = cwd.display().to_string();
    for request in [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params":
            {"clientInfo": {"name": "hook-tests", "version": "1"}, "capabilities": {"experimentalApi": true}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}}),
    ] {
        writeln!(stdin, "{request}").unwrap();
    }
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message["id"] == 2 {
                let _ = send.send(message);
                return;
            }
        }
    });
    let answer = receive.recv_timeout(std::time::Duration::from_secs(60));
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let answer = answer.expect("codex app-server answers hooks/list");
    answer["result"]["data"][0]["hooks"]
        .as_array()
        .unwrap()
        .clone()
}

/// A Codex home whose model is a loopback address nothing listens on (no network).
fn codex_config(home: &Home, hooks: &str) {
    write(
        &home.codex().join("config.toml"),
        &format!(
            "model = \"gpt-5.1-codex\"\nmodel_provider = \"fake\"\n\n[model_providers.fake]\nname = \"fake\"\n\
             base_url = \"http://127.0.0.1:9/v1\"\nwire_api = \"responses\"\n\n{hooks}"
        ),
    );
}

#[test]
fn the_real_codex_trusts_the_entries_install_trusted_and_move_keeps_its_trust() {
    let Some(codex) = real_codex() else {
        return;
    };
    // install --trust: Codex itself lists every relay entry as trusted.
    let home = Home::new();
    codex_config(&home, "");
    write(
        &home.codex().join("hook-relay/config.toml"),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./g.sh\"\ntimeout = 30\n\
         [[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./s.sh\"\n",
    );
    let before = codex_hooks(&codex, &home);
    assert!(before.is_empty(), "{before:?}");
    home.ok(&["relay", "install", "--dialect", "lime"], &[]);
    let listed = codex_hooks(&codex, &home);
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert!(
        listed.iter().all(|h| h["trustStatus"] == "untrusted"),
        "{listed:?}"
    );
    home.ok(&["relay", "install", "--dialect", "lime", "--trust"], &[]);
    let listed = codex_hooks(&codex, &home);
    assert_eq!(listed.len(), 3, "{listed:?}");
    for hook in &listed {
        assert!(
            hook["command"]
                .as_str()
                .unwrap()
                .ends_with("# hook-relay-install"),
            "{hook}"
        );
        assert_eq!(hook["trustStatus"], "trusted", "{hook}");
    }

    // A project's entries: Codex keys them by the project's file, in the user's records.
    let project = home.root.join("app");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    write(
        &project.join(".codex/hook-relay/config.toml"),
        "[[hooks.PostToolUse]]\n[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = \"./p.sh\"\n",
    );
    let config = home.codex().join("config.toml");
    let trusted_project = format!(
        "{}\n[projects.{}]\ntrust_level = \"trusted\"\n",
        read(&config),
        Value::from(project.display().to_string())
    );
    write(&config, &trusted_project);
    let project_arg = project.display().to_string();
    home.ok(
        &[
            "relay",
            "install",
            "--dialect",
            "lime",
            "--project",
            &project_arg,
            "--trust",
        ],
        &[],
    );
    let listed = codex_hooks_in(&codex, &home, &project);
    let in_project: Vec<_> = listed
        .iter()
        .filter(|h| h["sourcePath"] == project.join(".codex/config.toml").display().to_string())
        .collect();
    // The user's entries start the relay for the user's hooks: the project's entries are only
    // for the project's hook (Codex runs every matching entry: two would run it twice).
    assert_eq!(in_project.len(), 1, "{listed:?}");
    assert_eq!(in_project[0]["eventName"], "postToolUse", "{listed:?}");
    assert!(
        in_project.iter().all(|h| h["trustStatus"] == "trusted"),
        "{listed:?}"
    );

    // --move: a hook trusted with the hash Codex itself computes stays trusted in the relay.
    let home = Home::new();
    codex_config(
        &home,
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\n\
         command = \"./guard.sh\"\ntimeout = 30\nstatusMessage = \"checking\"\nadditionalContextLimit = 500\n\n\
         [[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./other.sh\"\n",
    );
    let listed = codex_hooks(&codex, &home);
    let guard = listed
        .iter()
        .find(|h| h["command"] == "./guard.sh")
        .unwrap();
    let config = home.codex().join("config.toml");
    let text_now = read(&config);
    write(
        &config,
        &format!(
            "{text_now}\n[hooks.state.{}]\ntrusted_hash = {}\n",
            guard["key"], guard["currentHash"]
        ),
    );
    let trusted: Vec<_> = codex_hooks(&codex, &home)
        .into_iter()
        .filter(|h| h["trustStatus"] == "trusted")
        .collect();
    assert_eq!(trusted.len(), 1, "{trusted:?}");
    let out = home.ok(&["relay", "install", "--dialect", "lime", "--move"], &[]);
    assert!(
        out.contains("trusted 1 moved hook in the relay's store"),
        "{out}"
    );
    assert!(out.contains("had not trusted it"), "{out}");
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
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
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
    let out = home.hook(&["relay", "install", "--dialect", "verboo", "--move"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("moved 1 hook of"),
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
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    // A typo in the relay file: the relay must still start (and say what is wrong).
    let relay_file = home.claude().join("hook-relay/settings.json");
    write(&relay_file, "{\"hooks\": {\"PreToolUse\": [");
    let out = home.hook(&["relay", "sync", "--dialect", "verboo"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("could not be read"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        summary(&settings),
        ["PreToolUse [Bash] 25", "SessionStart 5"]
    );
    // One broken handler: its event keeps an entry, for every tool (with no hook to wait for:
    // the margin alone; `./s.sh` sets no timeout: Claude Code's 600 s, and the margin).
    write(
        &relay_file,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "./s.sh"}]}]}}"#,
    );
    home.ok(&["relay", "sync", "--dialect", "verboo"], &[]);
    assert_eq!(
        summary(&settings),
        ["PreToolUse 5", "SessionStart 5", "Stop 605"]
    );
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
    home.ok(
        &[
            "relay",
            "install",
            "--dialect",
            "verboo",
            "--home",
            &other_arg,
        ],
        &[],
    );
    let settings: Value =
        serde_json::from_str(&read(&home.claude().join("settings.json"))).unwrap();
    let entries = relay_entries(&settings);
    assert_eq!(entries.len(), 2, "{settings}");
    for (event, _, timeout, command) in &entries {
        assert!(
            command.ends_with(&format!(
                " relay --dialect verboo --event {event} --home {other_arg} --scope user --entry-timeout {timeout} # hook-relay-install"
            )),
            "{command}"
        );
    }
}

#[test]
fn codex_config_round_trips_byte_for_byte() {
    let originals = [
        "# top\nmodel = \"o3\"  # trailing\n\n[profiles.x]\nmodel = \"y\"\n",
        "model = \"o3\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Edit\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"fmt\"\n\n[tui]\ntheme = \"dark\"\n",
        "model = \"o3\"\n[hooks.state.\"x:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:0000000000000000000000000000000000000000000000000000000000000000\"\n",
        "",
    ];
    for original in originals {
        let home = Home::new();
        write(
            &home.codex().join("hook-relay/config.toml"),
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./g.sh\"\n",
        );
        let config = home.codex().join("config.toml");
        write(&config, original);
        home.ok(&["relay", "install", "--dialect", "lime"], &[]);
        assert_eq!(read(&config).matches("# hook-relay-install").count(), 2);
        home.ok(&["relay", "uninstall", "--dialect", "lime"], &[]);
        assert_eq!(read(&config), original);
    }
}

#[test]
fn the_installed_command_runs_the_relay_through_the_shell_as_the_agents_do() {
    let home = Home::new();
    write(
        &home.claude().join("hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'no rm from the relay' >&2; exit 2"}]}]}}"#,
    );
    home.ok(&["relay", "install", "--dialect", "verboo"], &[]);
    let settings: Value =
        serde_json::from_str(&read(&home.claude().join("settings.json"))).unwrap();
    let command = relay_entries(&settings)
        .into_iter()
        .find(|(event, ..)| event == "PreToolUse")
        .map(|(.., command)| command)
        .unwrap();
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "transcript_path": "/t.jsonl", "cwd": home.root, "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "t1"});
    // Claude Code and Codex hand the command to a shell: the marker is a comment there.
    for shell in ["sh", "bash"] {
        let mut child = Command::new(shell)
            .args(["-c", &command])
            .env("HOME", &home.root)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_PROJECT_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(
            &mut child.stdin.take().unwrap(),
            event.to_string().as_bytes(),
        )
        .unwrap();
        let out = child.wait_with_output().unwrap();
        let reply: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{shell}: {}{}", text(&out.stdout), text(&out.stderr)));
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecision"], "deny",
            "{shell}: {reply}"
        );
        assert_eq!(
            reply["hookSpecificOutput"]["permissionDecisionReason"], "no rm from the relay",
            "{shell}: {reply}"
        );
    }
}

/// Says on the terminal that a test was skipped, also without `--nocapture`: the test harness
/// captures `eprintln!`, not writes to the stderr handle.
fn skip_notice(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// A Claude Code `PreToolUse` of `Bash` in `project`.
fn bash_event(project: &Path) -> String {
    serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "transcript_path": "/t.jsonl", "cwd": project, "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}, "tool_use_id": "toolu_1"})
    .to_string()
}

#[test]
fn a_moved_guard_that_runs_a_project_script_still_blocks() {
    let home = Home::new();
    let project = home.root.join("app");
    write(
        &project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh \"$CLAUDE_PROJECT_DIR/hooks/guard.sh\""}]}]}}"#,
    );
    write(
        &project.join("hooks/guard.sh"),
        "echo 'the guard says no' >&2\nexit 2\n",
    );
    let project_arg = project.display().to_string();
    let out = home.ok(
        &[
            "relay",
            "install",
            "--dialect",
            "verboo",
            "--project",
            &project_arg,
            "--move",
        ],
        &[],
    );
    // What was trusted: the hook, and the script with it.
    assert!(
        out.contains("trusted 1 moved hook in the relay's store"),
        "{out}"
    );
    assert!(
        out.contains("and the files it runs: <project>/hooks/guard.sh"),
        "{out}"
    );
    assert!(!out.contains("will not run"), "{out}");

    // Right after the move, the relay still denies, as Claude Code calls it...
    let out = home.hook_in(&["relay", "--dialect", "verboo"], &bash_event(&project));
    let reply: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{reply}\n{}",
        text(&out.stderr)
    );
    assert!(
        reply["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("the guard says no"),
        "{reply}"
    );
    // ... and through `hook run --relay`.
    let out = home.hook_in(
        &[
            "run",
            "--dialect",
            "verboo",
            "--relay",
            "--project",
            &project_arg,
            "--event",
            "PreToolUse",
        ],
        &bash_event(&project),
    );
    let outcome: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(
        outcome["decision"],
        "block",
        "{outcome}\n{}",
        text(&out.stderr)
    );
    assert_eq!(outcome["runs"][0]["status"], "blocked", "{outcome}");

    // The script it runs is covered: changed, the guard is modified until reviewed.
    write(&project.join("hooks/guard.sh"), "exit 0\n");
    let out = home.hook(
        &[
            "list",
            "--dialect",
            "verboo",
            "--relay",
            "--project",
            &project_arg,
            "--json",
        ],
        &[],
    );
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["trust"]["status"], "modified", "{listed}");
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
        let out = home.hook(args, &[]);
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

#[test]
fn a_project_whose_agent_folder_links_to_the_users_leaves_the_users_files_alone() {
    for (dialect, folder, settings, user_text, relay_file, relay_text) in [
        (
            "verboo",
            ".claude",
            "settings.json",
            "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./mine.sh\"}]}]}}\n",
            "hook-relay/settings.json",
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}}"#,
        ),
        (
            "lime",
            ".codex",
            "config.toml",
            "# mine\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./mine.sh\"\n",
            "hook-relay/config.toml",
            "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"exit 0\"\n",
        ),
    ] {
        let home = Home::new();
        let user = home.root.join(folder);
        write(&user.join(relay_file), relay_text);
        write(&user.join(settings), user_text);
        // The user's relay entries, installed in the user scope.
        home.ok(&["relay", "install", "--dialect", dialect], &[]);
        let project = home.root.join("clone");
        std::fs::create_dir_all(&project).unwrap();
        std::os::unix::fs::symlink(&user, project.join(folder)).unwrap();
        let before = snapshot(&user);
        let project_arg = project.display().to_string();
        for args in [
            &[
                "relay",
                "sync",
                "--dialect",
                dialect,
                "--project",
                &project_arg,
            ][..],
            &[
                "relay",
                "uninstall",
                "--dialect",
                dialect,
                "--project",
                &project_arg,
            ],
            &[
                "relay",
                "install",
                "--dialect",
                dialect,
                "--project",
                &project_arg,
                "--move",
            ],
            &[
                "relay",
                "install",
                "--dialect",
                dialect,
                "--project",
                &project_arg,
                "--trust",
            ],
        ] {
            let out = home.hook(args, &[]);
            let stderr = text(&out.stderr);
            assert!(!out.status.success(), "{args:?}: {}", text(&out.stdout));
            assert!(stderr.contains("outside the project"), "{args:?}: {stderr}");
            assert_eq!(snapshot(&user), before, "{dialect} {args:?}");
        }
    }
}

#[test]
fn codex_trust_is_recorded_only_for_the_entries_install_wrote() {
    let home = Home::new();
    let clone = home.root.join("clone");
    let user_config = home.codex().join("config.toml");
    write(&user_config, "# mine\n");
    // The clone's relay file does not parse; its config.toml holds look-alikes: the marker
    // after another command, and the earlier version's suffix on a program of its own.
    let relay_file = clone.join(".codex/hook-relay/config.toml");
    write(&relay_file, "[[hooks.Stop]\nthis is not toml\n");
    let look_alikes = [
        "touch pwned; /usr/bin/hook relay --dialect lime --event Stop # hook-relay-install",
        "./wrapper relay --dialect lime",
    ];
    let clone_config = clone.join(".codex/config.toml");
    let mut original = String::new();
    for command in look_alikes {
        original.push_str(&format!(
            "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = {}\n",
            Value::from(command)
        ));
    }
    write(&clone_config, &original);
    let clone_arg = clone.display().to_string();
    let install = [
        "relay",
        "install",
        "--dialect",
        "lime",
        "--project",
        &clone_arg,
        "--trust",
    ];
    let out = home.hook(&install, &[]);
    let stderr = text_of(&out.stderr);
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert!(
        stderr.contains("--trust: a relay file cannot be read") && stderr.contains("config.toml"),
        "{stderr}"
    );
    assert_eq!(read(&user_config), "# mine\n");
    assert_eq!(read(&clone_config), original);

    // Fixed, the relay file's hooks get entries and those are trusted; the look-alikes stay
    // the clone's own hooks, untouched and untrusted.
    write(
        &relay_file,
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"exit 0\"\n",
    );
    let out = home.ok(&install, &[]);
    assert!(
        out.contains("recorded Codex's trust of 2 relay entries"),
        "{out}"
    );
    let now = read(&clone_config);
    assert!(now.starts_with(&original), "{now}");
    let doc: toml::Value = toml::from_str(&read(&user_config)).unwrap();
    let state = doc["hooks"]["state"].as_table().unwrap();
    let clone_path = clone_config.canonicalize().unwrap().display().to_string();
    for key in state.keys() {
        assert!(
            key != &format!("{clone_path}:stop:0:0") && key != &format!("{clone_path}:stop:1:0"),
            "a look-alike was trusted: {key}"
        );
    }
    assert_eq!(state.len(), 2, "{state:?}");
    // Uninstall takes out only what install wrote.
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
    assert_eq!(read(&clone_config), original);
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_moved_codex_guard_that_runs_a_project_script_still_blocks() {
    let home = Home::new();
    let project = home.root.join("app");
    let project_config = project.join(".codex/config.toml");
    let command = "sh hooks/guard.sh";
    write(
        &project_config,
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
            Value::from(command)
        ),
    );
    write(
        &project.join("hooks/guard.sh"),
        "cat >/dev/null\necho 'the guard says no' >&2\nexit 2\n",
    );
    // Codex trusts it: its own record, in the user's config.toml.
    let key = format!(
        "{}:pre_tool_use:0:0",
        project_config.canonicalize().unwrap().display()
    );
    write(
        &home.codex().join("config.toml"),
        &format!(
            "[hooks.state.{}]\ntrusted_hash = \"{}\"\n",
            Value::from(key),
            codex_hash("pre_tool_use", Some("Bash"), command, 600)
        ),
    );
    let project_arg = project.display().to_string();
    let out = home.ok(
        &[
            "relay",
            "install",
            "--dialect",
            "lime",
            "--project",
            &project_arg,
            "--move",
        ],
        &[],
    );
    assert!(
        out.contains("trusted 1 moved hook in the relay's store"),
        "{out}"
    );
    assert!(
        out.contains("and the files it runs: <project>/hooks/guard.sh"),
        "{out}"
    );
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "turn_id": "t", "cwd": project, "transcript_path": null, "model": "gpt-5",
        "permission_mode": "default", "tool_name": "Bash", "tool_use_id": "call_1",
        "tool_input": {"command": "rm -rf /"}})
    .to_string();
    let out = home.hook_in(&["relay", "--dialect", "lime"], &event);
    let reply: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(
        reply["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{reply}\n{}",
        text(&out.stderr)
    );
    let out = home.hook_in(
        &[
            "run",
            "--dialect",
            "lime",
            "--relay",
            "--project",
            &project_arg,
            "--event",
            "PreToolUse",
        ],
        &event,
    );
    let outcome: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(
        outcome["decision"],
        "block",
        "{outcome}\n{}",
        text(&out.stderr)
    );
}

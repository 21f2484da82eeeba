//! `install`, `sync` and `uninstall` in-process, on files in a temp folder: the entries the
//! relay hooks need, the round trip that gives the agent's file back byte for byte, a file
//! install created removed again, `--move`. (The whole commands, their messages and files, are
//! tested in `src/tests/relay/install*.rs`; what needs the binary, the real Codex among it, in
//! `tests/it/relay_install.rs`.)

use super::*;
use hook_config::RELAY_DIR;
use hook_protocol::{Dialect, Event};
use std::path::PathBuf;

use super::report::LeftHooks;
use crate::ops::relay::agents::agent_of;
use crate::ops::relay::read::entries::{MARKER, TIMEOUT_MARGIN, entry_timeout};

/// A temp home (the dialect's home: `hook-relay/` and the trust store are here) and the
/// agent's settings file beside it; the entries start `/opt/bin/hook`.
struct Scene {
    _dir: tempfile::TempDir,
    home: PathBuf,
    agent_file: PathBuf,
    dialect: Dialect,
}

impl Scene {
    fn new(dialect: Dialect) -> Scene {
        let dir = tempfile::tempdir().expect("a temp dir");
        let root = dir.path().canonicalize().expect("a real path");
        let home = root.join("home");
        std::fs::create_dir_all(home.join(RELAY_DIR)).expect("the relay folder");
        let agent = agent_of(dialect).expect("a relay agent").settings();
        Scene {
            _dir: dir,
            home,
            agent_file: root.join("agent").join(agent.config_file),
            dialect,
        }
    }

    fn scope(&self) -> ScopeOptions {
        ScopeOptions {
            dialect: self.dialect,
            agent: None,
            project: None,
            agent_config: Some(self.agent_file.clone()),
            home: Some(self.home.clone()),
            program: Some(PathBuf::from("/opt/bin/hook")),
        }
    }

    /// Writes the relay's user file (`settings.json` or `config.toml`).
    fn relay_file(&self, text: &str) -> PathBuf {
        let agent = agent_of(self.dialect).expect("a relay agent").settings();
        let path = self.home.join(RELAY_DIR).join(agent.config_file);
        std::fs::write(&path, text).expect("written");
        path
    }

    fn agent_text(&self) -> Option<String> {
        std::fs::read_to_string(&self.agent_file).ok()
    }

    fn install(&self, move_hooks: bool) -> InstallReport {
        let mut report = InstallReport::default();
        install(&self.scope(), move_hooks, false, &mut report).expect("install");
        report
    }

    fn sync(&self) -> SyncReport {
        let mut report = SyncReport::default();
        sync(&self.scope(), false, &mut report).expect("sync");
        report
    }

    fn uninstall(&self) -> UninstallReport {
        let mut report = UninstallReport::default();
        uninstall(&self.scope(), &mut report).expect("uninstall");
        report
    }
}

const CLAUDE_GUARD: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "./guard.sh", "timeout": 20}]}]}}"#;

const CODEX_GUARD: &str = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\ntimeout = 20\n";

/// Each agent, its relay file with one `Bash` guard, and a settings file of the user's own
/// in an unusual layout.
fn agents() -> [(Dialect, &'static str, &'static str); 2] {
    [
        (
            Dialect::Verboo,
            CLAUDE_GUARD,
            "{\r\n  \"model\" : \"opus\",\r\n    \"n\": 1.0e400,\r\n  \"hooks\": {\"Stop\": []}\r\n}\r\n",
        ),
        (
            Dialect::Lime,
            CODEX_GUARD,
            "# mine\nmodel = \"gpt-5\"   # the model\n\n[features]\ncodex_hooks = true\n",
        ),
    ]
}

#[test]
fn install_then_uninstall_gives_the_agents_file_back_byte_for_byte() {
    for (dialect, relay, mine) in agents() {
        let scene = Scene::new(dialect);
        scene.relay_file(relay);
        std::fs::create_dir_all(scene.agent_file.parent().expect("a folder")).expect("folder");
        std::fs::write(&scene.agent_file, mine).expect("written");

        let report = scene.install(false);
        let Some(Entries::Written {
            wanted,
            added,
            removed,
            unchanged,
        }) = &report.sync.entries
        else {
            panic!("{dialect}: no entries written: {report:?}");
        };
        // The session entry (no matcher, no hook to wait for: the margin alone) and the
        // guard's, on `Bash`, its timeout and the margin.
        let events: Vec<(&str, Option<&str>, u64)> = wanted
            .iter()
            .map(|w| (w.event.as_str(), w.matcher.as_deref(), w.timeout))
            .collect();
        assert_eq!(
            events,
            [
                ("SessionStart", None, TIMEOUT_MARGIN),
                ("PreToolUse", Some("Bash"), 20 + TIMEOUT_MARGIN)
            ],
            "{dialect}"
        );
        assert_eq!(
            (*added, *removed, *unchanged),
            (wanted.len(), 0, 0),
            "{dialect}"
        );
        assert!(report.sync.edit.backup.is_some(), "{dialect}: {report:?}");
        let installed = scene.agent_text().expect("the agent's file");
        assert!(
            installed.contains("/opt/bin/hook relay --dialect") && installed.contains(MARKER),
            "{dialect}: {installed}"
        );
        // The relay's guard waits for trust where its layer needs it (Codex: every hook;
        // Claude Code: not the user's own).
        let waits = usize::from(dialect.rules().config().trust_state_in_config());
        assert_eq!(report.sync.untrusted.len(), waits, "{dialect}: {report:?}");

        // Again: nothing to change.
        let again = scene.sync();
        assert!(
            matches!(again.entries, Some(Entries::UpToDate)),
            "{dialect}: {again:?}"
        );
        assert_eq!(scene.agent_text().as_deref(), Some(installed.as_str()));

        let gone = scene.uninstall();
        assert_eq!(
            gone.result,
            Some(Uninstalled::Removed(wanted.len())),
            "{dialect}: {gone:?}"
        );
        assert_eq!(scene.agent_text().as_deref(), Some(mine), "{dialect}");
    }
}

#[test]
fn a_file_install_created_is_removed_by_uninstall() {
    for (dialect, relay, _) in agents() {
        let scene = Scene::new(dialect);
        scene.relay_file(relay);
        scene.install(false);
        assert!(scene.agent_text().is_some(), "{dialect}: created");
        let gone = scene.uninstall();
        assert_eq!(gone.result, Some(Uninstalled::FileRemoved), "{dialect}");
        assert_eq!(
            gone.edit.removed_created_file.as_deref(),
            Some(scene.agent_file.as_path())
        );
        assert!(scene.agent_text().is_none(), "{dialect}: removed");
        // Nothing left to take out, and no file is created for it.
        assert_eq!(scene.uninstall().result, Some(Uninstalled::NoEntries));
        assert!(scene.agent_text().is_none(), "{dialect}");
    }
}

#[test]
fn without_relay_hooks_there_are_no_entries_and_no_file() {
    for (dialect, _, _) in agents() {
        let scene = Scene::new(dialect);
        let report = scene.sync();
        let Some(Entries::NoRelayHooks { places, removed }) = &report.entries else {
            panic!("{dialect}: {report:?}");
        };
        assert_eq!(*removed, 0);
        assert!(
            places
                .iter()
                .all(|p| p.starts_with(scene.home.join(RELAY_DIR))),
            "{dialect}: {places:?}"
        );
        assert!(scene.agent_text().is_none(), "{dialect}: no file created");
    }
}

#[test]
fn move_takes_the_agents_hooks_into_the_relay_file() {
    for (dialect, own, _) in agents() {
        let scene = Scene::new(dialect);
        std::fs::create_dir_all(scene.agent_file.parent().expect("a folder")).expect("folder");
        std::fs::write(&scene.agent_file, own).expect("written");
        let report = scene.install(true);
        let moved = report.moved.as_ref().expect("a move report");
        let agent = agent_of(dialect).expect("a relay agent").settings();
        let relay_file = scene.home.join(RELAY_DIR).join(agent.config_file);
        assert_eq!(
            moved.moved_to,
            Some((1, relay_file.clone())),
            "{dialect}: {moved:?}"
        );
        assert!(moved.backup.is_some(), "{dialect}: {moved:?}");
        assert!(
            std::fs::read_to_string(&relay_file)
                .expect("the relay file")
                .contains("./guard.sh"),
            "{dialect}"
        );
        // The user's own hooks need no trust in Claude Code; Codex had not trusted this one
        // (no record of it): it waits, with its key, and is listed as untrusted.
        assert!(moved.trusted.is_none() && moved.not_trusted.is_empty());
        let waits = usize::from(dialect.rules().config().trust_state_in_config());
        assert_eq!(moved.waiting.len(), waits, "{dialect}: {moved:?}");
        assert_eq!(report.sync.untrusted, moved.waiting, "{dialect}");
        // The agent's file now starts the relay instead.
        let settings = scene.agent_text().expect("the agent's file");
        assert!(!settings.contains("./guard.sh"), "{dialect}: {settings}");
        assert!(settings.contains(MARKER), "{dialect}: {settings}");
        // The backup is said once, by the move.
        assert!(report.sync.edit.backup.is_none(), "{dialect}: {report:?}");
    }
}

#[test]
fn a_relative_library_moved_is_reported() {
    let scene = Scene::new(Dialect::Verboo);
    std::fs::create_dir_all(scene.agent_file.parent().expect("a folder")).expect("folder");
    std::fs::write(
        &scene.agent_file,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "native", "library": "lib/guard.so", "symbol": "guard"}]}]}}"#,
    )
    .expect("written");
    let mut report = InstallReport::default();
    // The library does not exist: whatever the rest does, the warning is in the report.
    let _ = install(&scene.scope(), true, false, &mut report);
    let moved = report.moved.as_ref().expect("a move report");
    assert_eq!(
        moved.relative_libraries,
        [("Stop".to_owned(), "lib/guard.so".to_owned())]
    );
}

#[test]
fn a_group_of_several_handlers_moves_once_and_comes_back() {
    let scene = Scene::new(Dialect::Verboo);
    std::fs::create_dir_all(scene.agent_file.parent().expect("a folder")).expect("folder");
    let mine = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "./one.sh"}, {"type": "command", "command": "./two.sh"}]}]}}"#;
    std::fs::write(&scene.agent_file, mine).expect("written");
    let report = scene.install(true);
    let moved = report.moved.as_ref().expect("a move report");
    assert_eq!(moved.moved_to.as_ref().map(|(n, _)| *n), Some(2));
    let relay: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(scene.home.join(RELAY_DIR).join("settings.json"))
            .expect("the relay file"),
    )
    .expect("JSON");
    assert_eq!(
        relay["hooks"]["PreToolUse"].as_array().map(Vec::len),
        Some(1),
        "{relay}"
    );
    let gone = scene.uninstall();
    assert!(
        gone.given_back.as_ref().is_some_and(|g| g.exact),
        "{gone:?}"
    );
    assert_eq!(scene.agent_text().as_deref(), Some(mine));
}

#[test]
fn a_hook_changed_in_the_relay_file_since_the_move_stays_there_and_is_named() {
    let scene = Scene::new(Dialect::Verboo);
    std::fs::create_dir_all(scene.agent_file.parent().expect("a folder")).expect("folder");
    let mine = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "./done.sh"}]}]}}"#;
    std::fs::write(&scene.agent_file, mine).expect("written");
    scene.install(true);
    let relay_file = scene.home.join(RELAY_DIR).join("settings.json");
    let relay = std::fs::read_to_string(&relay_file).expect("the relay file");
    std::fs::write(&relay_file, relay.replace("./done.sh", "./done-v2.sh")).expect("edited");
    let gone = scene.uninstall();
    // The agent's file was not touched: it is as it was, both hooks in it.
    assert_eq!(scene.agent_text().as_deref(), Some(mine));
    let given = gone.given_back.as_ref().expect("given back");
    assert!(given.exact, "{gone:?}");
    let [relay] = given.relay_files.as_slice() else {
        panic!("{gone:?}");
    };
    let RelayOutcome::TookOut { taken, changed } = &relay.outcome else {
        panic!("{gone:?}");
    };
    assert_eq!(
        (*taken, changed.as_slice()),
        (1, ["Stop".to_owned()].as_slice())
    );
    let left = std::fs::read_to_string(&relay_file).expect("the relay file");
    assert!(
        left.contains("./done-v2.sh") && !left.contains("./guard.sh"),
        "{left}"
    );
    // It no longer runs, and the report says so.
    assert_eq!(
        gone.left,
        [LeftHooks {
            relay_file,
            count: 1,
            agent_file: scene.agent_file.clone()
        }]
    );
}

#[test]
fn two_moves_come_back_the_newest_first() {
    let scene = Scene::new(Dialect::Lime);
    std::fs::create_dir_all(scene.agent_file.parent().expect("a folder")).expect("folder");
    std::fs::write(&scene.agent_file, CODEX_GUARD).expect("written");
    scene.install(true);
    // The user adds a hook of their own after the first move, and moves it too.
    let later =
        "\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./done.sh\"\n";
    let installed = scene.agent_text().expect("the agent's file");
    std::fs::write(&scene.agent_file, format!("{installed}{later}")).expect("edited");
    scene.install(true);
    let gone = scene.uninstall();
    let given = gone.given_back.as_ref().expect("given back");
    // The second move comes back as it was; the first is merged into what the user changed.
    assert!(!given.exact, "{gone:?}");
    assert_eq!(given.groups, 2, "{gone:?}");
    let now = scene.agent_text().expect("the agent's file");
    let doc: toml::Value = toml::from_str(&now).expect("TOML");
    let commands: Vec<&str> = ["PreToolUse", "Stop"]
        .iter()
        .map(|e| {
            doc["hooks"][e][0]["hooks"][0]["command"]
                .as_str()
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(commands, ["./guard.sh", "./done.sh"], "{now}");
    assert!(!now.contains(MARKER), "{now}");
    // Every moved hook left the relay's file, which the first move had created.
    assert!(!scene.home.join(RELAY_DIR).join("config.toml").exists());
}

#[test]
fn a_moved_codex_group_lands_whole_after_what_the_relay_file_holds() {
    let scene = Scene::new(Dialect::Lime);
    std::fs::create_dir_all(scene.agent_file.parent().expect("a folder")).expect("folder");
    std::fs::write(&scene.agent_file, CODEX_GUARD).expect("written");
    let relay_file = scene.relay_file(
        "model = \"x\"\n[a]\nb = 1\n[c]\nd = 2\n[[hooks.PreToolUse]]\nmatcher = \"Read\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./read.sh\"\n",
    );
    scene.install(true);
    let text = std::fs::read_to_string(&relay_file).expect("the relay file");
    let doc: toml::Value = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let groups: Vec<(&str, &str)> = doc["hooks"]["PreToolUse"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            (
                g["matcher"].as_str().unwrap_or_default(),
                g["hooks"][0]["command"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [("Read", "./read.sh"), ("Bash", "./guard.sh")],
        "{text}"
    );
}

/// What the `hook` on `PATH` is, for the note on a project's entries: a binary, npm's Node
/// launcher (a script whose package is hook-engine: `bin/hook` beside its `package.json`, as
/// npm's link in the prefix's `bin/` reaches it), or another script.
#[test]
fn the_hook_on_path_is_told_a_binary_npms_launcher_or_another_script() {
    use super::report::FoundKind;
    use super::scope::found_kind;
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    let cases: [(&str, &[u8], Option<&str>, FoundKind); 5] = [
        ("elf", b"\x7fELF\x02\x01", None, FoundKind::Binary),
        ("empty", b"", None, FoundKind::Binary),
        (
            "launcher",
            b"#!/usr/bin/env node\n",
            Some("hook-engine"),
            FoundKind::NpmLauncher,
        ),
        (
            "other-package",
            b"#!/usr/bin/env node\n",
            Some("other"),
            FoundKind::Script,
        ),
        (
            "script",
            b"#!/bin/sh\nexec hook \"$@\"\n",
            None,
            FoundKind::Script,
        ),
    ];
    for (name, start, package, kind) in cases {
        let file = root.join(name).join("bin/hook");
        std::fs::create_dir_all(file.parent().expect("bin/")).expect("made");
        std::fs::write(&file, start).expect("written");
        if let Some(package) = package {
            let manifest = format!(r#"{{"name": "{package}", "version": "1.0.0"}}"#);
            std::fs::write(root.join(name).join("package.json"), manifest).expect("written");
        }
        // Reached through a link, as npm's `bin/hook` in its prefix.
        let link = root.join(format!("{name}-link"));
        std::os::unix::fs::symlink(&file, &link).expect("linked");
        assert_eq!(found_kind(&link), kind, "{name}");
    }
}

mod guests;
mod timeouts;

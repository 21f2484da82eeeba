//! `install`, `sync` and `uninstall` for the agents whose events the relay translates (Qwen
//! Code, Gemini CLI, Copilot CLI): their own settings file gets entries in its own terms (the
//! event's name, the tools' names, the timeout's unit, how "every tool" is written), each
//! starting `hook relay --agent NAME` for the relay's Claude Code files; the round trip gives
//! the file back byte for byte, and a file install created is removed again.

use super::*;
use crate::ops::relay::agents::translated::Translation;
use crate::ops::relay::agents::{Agent, translated};
use crate::ops::relay::read::entries::{RelayOf, parse_relay, parse_relay_of};
use serde_json::Value;
use std::collections::BTreeMap;

/// A temp home (the relay's Claude Code user folder `hook-relay/` and its state are there) and
/// the agent's settings file beside it; the entries start `/opt/bin/hook`.
struct Guest {
    _dir: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    file: PathBuf,
    agent: &'static Translation,
}

impl Guest {
    fn new(name: &str) -> Guest {
        let dir = tempfile::tempdir().expect("a temp dir");
        let root = dir.path().canonicalize().expect("a real path");
        let home = root.join("home");
        std::fs::create_dir_all(home.join(RELAY_DIR)).expect("the relay folder");
        let agent = translated(name).expect("a translated agent");
        Guest {
            file: root.join("agent").join(agent.files.user),
            _dir: dir,
            root,
            home,
            agent,
        }
    }

    fn scope(&self, project: Option<PathBuf>) -> ScopeOptions {
        ScopeOptions {
            dialect: Dialect::Verboo,
            agent: Some(self.agent),
            agent_config: project.is_none().then(|| self.file.clone()),
            project,
            home: Some(self.home.clone()),
            program: Some(PathBuf::from("/opt/bin/hook")),
        }
    }

    /// The relay's Claude Code user file.
    fn relay_file(&self, text: &str) {
        std::fs::write(self.home.join(RELAY_DIR).join("settings.json"), text).expect("written");
    }

    fn text(&self) -> Option<String> {
        std::fs::read_to_string(&self.file).ok()
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.text().expect("the agent's file")).expect("JSON")
    }

    fn install(&self) -> InstallReport {
        let mut report = InstallReport::default();
        install(&self.scope(None), false, false, &mut report).expect("install");
        report
    }

    fn sync(&self) -> SyncReport {
        let mut report = SyncReport::default();
        sync(&self.scope(None), false, &mut report).expect("sync");
        report
    }

    fn uninstall(&self) -> UninstallReport {
        let mut report = UninstallReport::default();
        uninstall(&self.scope(None), &mut report).expect("uninstall");
        report
    }
}

const NAMES: [&str; 3] = ["qwen", "gemini", "copilot"];

/// A `Bash` guard of 20 s, an `Edit|Write` one without a timeout, and one on `Stop`.
const GUARDS: &str = r#"{"hooks": {
    "PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 20}]},
        {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./fmt.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "echo done", "timeout": 3}]}]}}"#;

/// Each entry in `file`, by its event: its matcher, its timeout as written, its command.
fn entries(file: &Value) -> BTreeMap<String, (Option<String>, u64, String)> {
    let mut entries = BTreeMap::new();
    for (event, groups) in file["hooks"].as_object().expect("hooks") {
        for group in groups.as_array().expect("groups") {
            let handlers = group["hooks"].as_array().expect("handlers");
            assert_eq!(handlers.len(), 1, "{group}");
            let handler = &handlers[0];
            assert_eq!(handler["type"], "command", "{handler}");
            assert_eq!(
                handler.get("onFailure"),
                None,
                "no agent here reads it: {handler}"
            );
            let entry = (
                group["matcher"].as_str().map(str::to_owned),
                handler["timeout"].as_u64().expect("a timeout"),
                handler["command"].as_str().expect("a command").to_owned(),
            );
            assert!(entries.insert(event.clone(), entry).is_none(), "{file}");
        }
    }
    entries
}

#[test]
fn each_agent_gets_its_events_tools_and_timeout_unit() {
    let own = |s: &str| Some(s.to_owned());
    for name in NAMES {
        let guest = Guest::new(name);
        guest.relay_file(GUARDS);
        guest.install();
        let home = guest.home.display();
        // The agent's own event in `--event`, the timeout in seconds in `--entry-timeout`,
        // `|| exit 2` where the relay hooks' event can block.
        let command = |event: &str, secs: u64, closed: &str| {
            format!(
                "/opt/bin/hook relay --agent {name} --event {event} --home {home} --scope user --entry-timeout {secs}{closed} {MARKER}"
            )
        };
        let expected: Vec<(&str, Option<String>, u64, String)> = match name {
            // Claude Code's event names, its own tools, seconds.
            "qwen" => vec![
                ("SessionStart", None, 5, command("SessionStart", 5, "")),
                (
                    "PreToolUse",
                    own("run_shell_command|edit|write_file"),
                    605,
                    command("PreToolUse", 605, " || exit 2"),
                ),
                ("Stop", None, 8, command("Stop", 8, "")),
            ],
            // Its own event names and tools, milliseconds.
            "gemini" => vec![
                ("SessionStart", None, 5_000, command("SessionStart", 5, "")),
                (
                    "BeforeTool",
                    own("run_shell_command|replace|write_file"),
                    605_000,
                    command("BeforeTool", 605, " || exit 2"),
                ),
                ("AfterAgent", None, 8_000, command("AfterAgent", 8, "")),
            ],
            // Claude Code's names in its Claude Code dialect, seconds, `*` for every tool.
            _ => vec![
                ("SessionStart", own("*"), 5, command("SessionStart", 5, "")),
                (
                    "PreToolUse",
                    own("Bash|Edit|Write"),
                    605,
                    command("PreToolUse", 605, " || exit 2"),
                ),
                ("Stop", own("*"), 8, command("Stop", 8, "")),
            ],
        };
        let expected: BTreeMap<String, (Option<String>, u64, String)> = expected
            .into_iter()
            .map(|(event, matcher, timeout, command)| {
                (event.to_owned(), (matcher, timeout, command))
            })
            .collect();
        assert_eq!(entries(&guest.json()), expected, "{name}");
        // Each command reads back as the agent's relay entry, never as Claude Code's.
        for (_, _, command) in expected.values() {
            let of = RelayOf::Agent(guest.agent.name());
            assert!(parse_relay_of(command, of).is_some(), "{command}");
            assert!(parse_relay(command, Dialect::Verboo).is_none(), "{command}");
        }
    }
}

#[test]
fn install_then_uninstall_gives_the_agents_file_back_byte_for_byte() {
    let mine = "{\r\n  \"model\" : {\"name\": \"m\"},\r\n    \"n\": 1.0e400,\r\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-wrapper relay --agent qwen --event PreToolUse # hook-relay-install\"}]}]}\r\n}\r\n";
    for name in NAMES {
        let guest = Guest::new(name);
        guest.relay_file(GUARDS);
        std::fs::create_dir_all(guest.file.parent().expect("a folder")).expect("folder");
        std::fs::write(&guest.file, mine).expect("written");
        let report = guest.install();
        assert!(
            matches!(
                report.sync.entries,
                Some(Entries::Written {
                    added: 3,
                    removed: 0,
                    ..
                })
            ),
            "{name}: {report:?}"
        );
        // The user's own hook that merely looks like an entry stays, beside the relay's.
        let text = guest.text().expect("the file");
        assert!(
            text.contains("my-wrapper relay --agent qwen"),
            "{name}: {text}"
        );
        // Again: nothing to change.
        let again = guest.install();
        assert!(
            matches!(again.sync.entries, Some(Entries::UpToDate)),
            "{name}: {again:?}"
        );
        let report = guest.uninstall();
        assert_eq!(
            report.result,
            Some(Uninstalled::Removed(3)),
            "{name}: {report:?}"
        );
        assert_eq!(guest.text().as_deref(), Some(mine), "{name}");
        // The relay hooks are Claude Code's relay file's, which Claude Code still runs.
        assert_eq!(report.guest, Some(guest.agent.title), "{name}");
        assert_eq!(report.entries_elsewhere, None, "{name}");
    }
}

#[test]
fn a_file_install_created_is_removed_by_uninstall() {
    for name in NAMES {
        let guest = Guest::new(name);
        guest.relay_file(GUARDS);
        guest.install();
        let created = guest.json();
        // Copilot CLI's own hook file carries its version.
        assert_eq!(
            created.get("version").and_then(Value::as_u64),
            (name == "copilot").then_some(1),
            "{name}: {created}"
        );
        let report = guest.uninstall();
        assert_eq!(report.result, Some(Uninstalled::FileRemoved), "{name}");
        assert_eq!(guest.text(), None, "{name}");
    }
}

#[test]
fn sync_follows_the_guards_and_touches_nothing_else() {
    for name in NAMES {
        let guest = Guest::new(name);
        guest.relay_file(GUARDS);
        guest.install();
        guest.relay_file(
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 40}]}]}}"#,
        );
        let report = guest.sync();
        assert!(
            matches!(
                report.entries,
                Some(Entries::Written {
                    added: 1,
                    removed: 2,
                    ..
                })
            ),
            "{name}: {report:?}"
        );
        let entries = entries(&guest.json());
        assert_eq!(entries.len(), 2, "{name}: {entries:?}");
        let pre = if name == "gemini" {
            "BeforeTool"
        } else {
            "PreToolUse"
        };
        assert!(
            entries[pre].2.contains("--entry-timeout 45 || exit 2"),
            "{name}: {entries:?}"
        );
        // No relay hooks left: the entries go, and the file install created with them.
        guest.relay_file("{}");
        guest.sync();
        assert_eq!(guest.text(), None, "{name}");
    }
}

#[test]
fn qwen_code_is_never_given_a_timeout_it_reads_as_milliseconds() {
    let guest = Guest::new("qwen");
    guest.relay_file(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./slow.sh", "timeout": 3600}]}]}}"#,
    );
    guest.install();
    let (_, timeout, command) = &entries(&guest.json())["PreToolUse"];
    assert_eq!(*timeout, 999);
    // The relay knows the agent cuts it at 999 s.
    assert!(command.contains("--entry-timeout 999 "), "{command}");
}

#[test]
fn a_regex_matcher_becomes_every_tool_where_the_names_differ() {
    let guard = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./a.sh"}]},
        {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "./b.sh"}]}]}}"#;
    for (name, event, matcher) in [
        ("qwen", "PreToolUse", None),
        ("gemini", "BeforeTool", None),
        ("copilot", "PreToolUse", Some("^(?:Bash)$|(?:mcp__.*)")),
    ] {
        let guest = Guest::new(name);
        guest.relay_file(guard);
        guest.install();
        assert_eq!(
            entries(&guest.json())[event].0.as_deref(),
            matcher,
            "{name}"
        );
    }
}

#[test]
fn a_guard_on_an_event_the_agent_lacks_is_named_and_gets_no_entry() {
    let guest = Guest::new("gemini");
    guest.relay_file(
        r#"{"hooks": {"PermissionRequest": [{"hooks": [{"type": "command", "command": "./p.sh"}]}]}}"#,
    );
    let report = guest.install();
    assert_eq!(
        report.sync.unguarded,
        [(
            "PermissionRequest".to_owned(),
            vec!["user:hook-relay/settings.json:PermissionRequest::0".to_owned()]
        )]
    );
    let entries = entries(&guest.json());
    assert_eq!(entries.keys().collect::<Vec<_>>(), ["SessionStart"]);
    assert_eq!(entries["SessionStart"].1, 5_000);
}

#[test]
fn a_projects_entries_start_hook_through_path_in_the_agents_project_file() {
    for name in NAMES {
        let guest = Guest::new(name);
        let project = guest.root.join("project");
        std::fs::create_dir_all(project.join(".claude/hook-relay")).expect("folder");
        std::fs::write(project.join(".claude/hook-relay/settings.json"), GUARDS).expect("written");
        let scope = ScopeOptions {
            program: None,
            ..guest.scope(Some(project.clone()))
        };
        let mut report = InstallReport::default();
        install(&scope, false, false, &mut report).expect("install");
        let file = project.join(guest.agent.files.project);
        assert_eq!(
            guest.agent.settings_file(Some(&project)).ok(),
            Some(file.clone())
        );
        let text = std::fs::read_to_string(&file).expect("the project's file");
        let entries = entries(&serde_json::from_str(&text).expect("JSON"));
        assert!(
            entries.values().all(|(_, _, c)| c
                .starts_with(&format!("hook relay --agent {name} --event "))
                && c.contains("--scope project")),
            "{name}: {entries:?}"
        );
        let mut report = UninstallReport::default();
        uninstall(&scope, &mut report).expect("uninstall");
        assert!(!file.exists(), "{name}");
    }
    let copilot = translated("copilot").expect("copilot");
    assert_eq!(copilot.files.project, ".github/hooks/hook-relay.json");
}

#[test]
fn move_is_refused_and_changes_nothing() {
    let guest = Guest::new("qwen");
    guest.relay_file(GUARDS);
    let mine = r#"{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./mine.sh"}]}]}}"#;
    std::fs::create_dir_all(guest.file.parent().expect("a folder")).expect("folder");
    std::fs::write(&guest.file, mine).expect("written");
    let mut report = InstallReport::default();
    let error = install(&guest.scope(None), true, false, &mut report).expect_err("refused");
    assert!(format!("{error:#}").contains("--move"), "{error:#}");
    assert_eq!(guest.text().as_deref(), Some(mine));
}

#[test]
fn an_entry_written_by_hand_is_the_users_and_named() {
    let guest = Guest::new("qwen");
    guest.relay_file(GUARDS);
    // As the README gave it before install wrote the entries.
    let mine = r#"{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "hook relay --agent qwen --event PreToolUse --scope user || exit 2", "timeout": 30}]}]}}"#;
    std::fs::create_dir_all(guest.file.parent().expect("a folder")).expect("folder");
    std::fs::write(&guest.file, mine).expect("written");
    let report = guest.install();
    assert_eq!(report.sync.by_hand, ["PreToolUse"]);
    guest.uninstall();
    assert_eq!(guest.text().as_deref(), Some(mine));
}

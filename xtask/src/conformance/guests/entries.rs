//! What a case writes: the guard in the relay's Claude Code file, the agent's own settings it
//! needs besides (Qwen Code's and Gemini CLI's auth and model), and the command that writes the
//! relay's entry as a user does, `hook relay install --agent <name>` (for Copilot CLI's project
//! case Claude Code's project install, `hook relay install --agent claude --project DIR`, whose
//! guard is the project's and trusted with `hook trust`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::super::server::Wire;

/// The agents that run a Claude Code guard through `hook relay --agent <name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Guest {
    Qwen,
    Gemini,
    Copilot,
}

impl Guest {
    pub(super) const ALL: [Guest; 3] = [Guest::Qwen, Guest::Gemini, Guest::Copilot];

    /// Its `--agent` name (and the name of its executable).
    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Qwen => "qwen",
            Self::Gemini => "gemini",
            Self::Copilot => "copilot",
        }
    }

    pub(super) fn title(self) -> &'static str {
        match self {
            Self::Qwen => "Qwen Code",
            Self::Gemini => "Gemini CLI",
            Self::Copilot => "Copilot CLI",
        }
    }

    /// Its npm package.
    pub(super) fn package(self) -> &'static str {
        match self {
            Self::Qwen => "@qwen-code/qwen-code",
            Self::Gemini => "@google/gemini-cli",
            Self::Copilot => "@github/copilot",
        }
    }

    /// The wire it speaks to the fake model (Qwen Code and Copilot CLI through their Anthropic
    /// providers).
    pub(super) fn wire(self) -> Wire {
        match self {
            Self::Qwen | Self::Copilot => Wire::Messages,
            Self::Gemini => Wire::GenAi,
        }
    }

    /// Its own name of the event before a tool runs, the one the entry is for.
    pub(super) fn event(self) -> &'static str {
        match self {
            Self::Qwen | Self::Copilot => "PreToolUse",
            Self::Gemini => "BeforeTool",
        }
    }
}

/// Which of the agent's files holds the relay's entry, and whose install wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// The agent's user file, written by `hook relay install --agent <name>`.
    User,
    /// The agent's project file, written by `hook relay install --agent <name> --project DIR`
    /// (`hook` through the agent's `PATH`; the project's relay hooks, trusted first).
    Project,
    /// Copilot CLI: a trusted project's `.claude/settings.json`, written by Claude Code's
    /// project install (`hook relay install --agent claude --project DIR`: `hook` through the
    /// agent's `PATH`, the project's relay hooks), which the relay answers as Copilot CLI reads
    /// it.
    ClaudeProject,
}

/// The reason the guard gives on stderr, unique so that a model request holding it is proof.
pub(super) const REASON: &str = "GUEST_GUARD_REFUSES_RM_RF";

/// The guard, in a relay Claude Code file (`~/.claude/hook-relay/settings.json`, or the
/// project's): a `PreToolUse` hook on `Bash` that exits 2 with [`REASON`] when the call holds
/// `rm -rf`.
pub(super) fn guard_settings() -> Value {
    let command = format!("if grep -q 'rm -rf'; then echo '{REASON}' >&2; exit 2; fi");
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": command}]}]}})
}

/// The relay's Claude Code file the guard is in, under the case's `home` and `project`: the
/// user's, or for Claude Code's project install the project's.
pub(super) fn guard_path(place: Place, home: &Path, project: &Path) -> PathBuf {
    match place {
        Place::User => home.join(".claude/hook-relay/settings.json"),
        Place::Project | Place::ClaudeProject => project.join(".claude/hook-relay/settings.json"),
    }
}

/// The arguments of the `hook` commands that set the relay up, in order: for Claude Code's
/// project install, the project's guard trusted first (a project's relay hooks run only once
/// the user trusts them), then the install.
pub(super) fn setup_commands(guest: Guest, place: Place, project: &Path) -> Vec<Vec<String>> {
    let words = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
    let project = project.display().to_string();
    match place {
        Place::User => vec![words(&["relay", "install", "--agent", guest.name()])],
        Place::Project | Place::ClaudeProject => vec![
            words(&[
                "trust",
                "--dialect",
                "verboo",
                "--project",
                &project,
                "--relay",
                "--all",
            ]),
            words(&[
                "relay",
                "install",
                "--agent",
                if place == Place::Project {
                    guest.name()
                } else {
                    "claude"
                },
                "--project",
                &project,
            ]),
        ],
    }
}

/// The model the Anthropic-speaking agents ask for.
pub(super) const QWEN_MODEL: &str = "claude-sonnet-4-5";
pub(super) const COPILOT_MODEL: &str = "claude-sonnet-4.5";

/// The file install writes the entry into, under the case's `home` and `project`.
pub(super) fn entry_path(guest: Guest, place: Place, home: &Path, project: &Path) -> PathBuf {
    match (guest, place) {
        (_, Place::ClaudeProject) => project.join(".claude/settings.json"),
        (Guest::Qwen, Place::User) => home.join(".qwen/settings.json"),
        (Guest::Gemini, Place::User) => home.join(".gemini/settings.json"),
        (Guest::Copilot, Place::User) => home.join(".copilot/hooks/hook-relay.json"),
        (Guest::Qwen, Place::Project) => project.join(".qwen/settings.json"),
        (Guest::Gemini, Place::Project) => project.join(".gemini/settings.json"),
        (Guest::Copilot, Place::Project) => project.join(".github/hooks/hook-relay.json"),
    }
}

/// What the agent needs in its user settings besides the relay's entry to use the fake model
/// (Qwen Code's and Gemini CLI's auth and model), written before the install, which keeps it:
/// the file and its text.
pub(super) fn agent_settings(guest: Guest, home: &Path) -> Option<(PathBuf, Value)> {
    match guest {
        Guest::Qwen => Some((
            home.join(".qwen/settings.json"),
            json!({"security": {"auth": {"selectedType": "anthropic"}},
                "model": {"name": QWEN_MODEL}}),
        )),
        Guest::Gemini => Some((
            home.join(".gemini/settings.json"),
            json!({"security": {"auth": {"selectedType": "gemini-api-key"}}}),
        )),
        Guest::Copilot => None,
    }
}

/// The one relay entry on the agent's event before a tool runs in `file` (the agent's file
/// after install): its matcher, timeout and command; `None` when there is not exactly one.
pub(super) fn installed_entry(file: &Value, event: &str) -> Option<(Value, Value, String)> {
    let groups = file["hooks"][event].as_array()?;
    let [group] = groups.as_slice() else {
        return None;
    };
    let handler = group["hooks"].as_array()?.first()?;
    Some((
        group["matcher"].clone(),
        handler["timeout"].clone(),
        handler["command"].as_str()?.to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;
    use std::path::Path;
    use std::process::{Command, Stdio};

    use serde_json::json;

    use super::{
        Guest, Place, REASON, agent_settings, entry_path, guard_path, guard_settings,
        installed_entry, setup_commands,
    };

    #[test]
    fn each_agent_is_set_up_by_install_as_a_user_does() {
        let project = Path::new("/p");
        for guest in Guest::ALL {
            assert_eq!(
                setup_commands(guest, Place::User, project),
                [["relay", "install", "--agent", guest.name()]]
            );
        }
        // Copilot CLI's project case: Claude Code's project install, its guard trusted first.
        let project_case = setup_commands(Guest::Copilot, Place::ClaudeProject, project);
        assert_eq!(project_case.len(), 2);
        assert_eq!(project_case[0][0], "trust");
        assert_eq!(
            project_case[1],
            ["relay", "install", "--agent", "claude", "--project", "/p"]
        );
        // What the agents need to reach the fake model, kept by the install.
        let home = Path::new("/h");
        let (file, qwen) = agent_settings(Guest::Qwen, home).expect("Qwen Code's");
        assert_eq!(file, Path::new("/h/.qwen/settings.json"));
        assert_eq!(qwen["security"]["auth"]["selectedType"], "anthropic");
        let (file, gemini) = agent_settings(Guest::Gemini, home).expect("Gemini CLI's");
        assert_eq!(file, Path::new("/h/.gemini/settings.json"));
        assert_eq!(gemini["security"]["auth"]["selectedType"], "gemini-api-key");
        assert!(agent_settings(Guest::Copilot, home).is_none());
    }

    #[test]
    fn the_entry_is_read_back_from_the_installed_file() {
        let file = json!({"version": 1, "hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "/h relay --agent gemini", "timeout": 25000}]}]}});
        let (matcher, timeout, command) = installed_entry(&file, "BeforeTool").expect("one entry");
        assert_eq!(matcher, "run_shell_command");
        assert_eq!(timeout, 25000);
        assert_eq!(command, "/h relay --agent gemini");
        assert!(installed_entry(&file, "PreToolUse").is_none());
    }

    #[test]
    fn each_entry_and_guard_is_where_its_agent_reads_it() {
        let (home, project) = (Path::new("/h"), Path::new("/p"));
        let path = |guest, place| entry_path(guest, place, home, project);
        assert_eq!(
            path(Guest::Qwen, Place::User),
            Path::new("/h/.qwen/settings.json")
        );
        assert_eq!(
            path(Guest::Gemini, Place::User),
            Path::new("/h/.gemini/settings.json")
        );
        assert_eq!(
            path(Guest::Copilot, Place::User),
            Path::new("/h/.copilot/hooks/hook-relay.json")
        );
        assert_eq!(
            path(Guest::Copilot, Place::ClaudeProject),
            Path::new("/p/.claude/settings.json")
        );
        assert_eq!(
            guard_path(Place::User, home, project),
            Path::new("/h/.claude/hook-relay/settings.json")
        );
        assert_eq!(
            guard_path(Place::ClaudeProject, home, project),
            Path::new("/p/.claude/hook-relay/settings.json")
        );
    }

    #[test]
    fn the_guard_denies_rm_rf_on_bash_with_its_reason() {
        let guard = guard_settings();
        let group = &guard["hooks"]["PreToolUse"][0];
        assert_eq!(group["matcher"], "Bash");
        let command = group["hooks"][0]["command"].as_str().expect("a command");
        assert!(command.contains("grep -q 'rm -rf'"), "{command}");
        assert!(command.contains(REASON), "{command}");
        // As the relay runs it: the event on stdin.
        let run = |event: &str| {
            let mut child = Command::new("sh")
                .args(["-c", command])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("sh starts");
            let mut stdin = child.stdin.take().expect("stdin");
            stdin.write_all(event.as_bytes()).expect("writes");
            drop(stdin);
            child.wait_with_output().expect("sh ends")
        };
        let denied = run(r#"{"tool_name":"Bash","tool_input":{"command":"rm -rf victim"}}"#);
        assert_eq!(denied.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&denied.stderr).trim(), REASON);
        let allowed = run(r#"{"tool_name":"Bash","tool_input":{"command":"touch m"}}"#);
        assert_eq!(allowed.status.code(), Some(0));
        assert!(allowed.stderr.is_empty() && allowed.stdout.is_empty());
    }
}

//! What a case writes: the guard in the relay's Claude Code user file, and each agent's entry
//! running `hook relay` as the README gives it (its file, its event, its matcher, its timeout
//! unit), ending in `|| exit 2` so that a relay that cannot start blocks too.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::super::server::Wire;
use super::super::setup::quote;

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

/// Which of the agent's files holds the relay's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// The agent's user file, the entry `hook relay --agent <name>` (the README's table).
    User,
    /// Copilot CLI: a trusted project's `.claude/settings.json`, the entry Claude Code's
    /// (`hook relay --dialect verboo`), which the relay answers as Copilot CLI reads it.
    ClaudeProject,
}

/// The reason the guard gives on stderr, unique so that a model request holding it is proof.
pub(super) const REASON: &str = "GUEST_GUARD_REFUSES_RM_RF";

/// The guard, in the relay's Claude Code user file (`~/.claude/hook-relay/settings.json`): a
/// `PreToolUse` hook on `Bash` that exits 2 with [`REASON`] when the call holds `rm -rf`.
pub(super) fn guard_settings() -> Value {
    let command = format!("if grep -q 'rm -rf'; then echo '{REASON}' >&2; exit 2; fi");
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": command}]}]}})
}

/// The command of the relay's entry, `hook` being the binary it starts.
pub(super) fn relay_command(guest: Guest, place: Place, hook: &Path) -> String {
    let agent = match place {
        Place::User => format!("--agent {}", guest.name()),
        Place::ClaudeProject => "--dialect verboo".to_owned(),
    };
    format!(
        "{} relay {agent} --event {} --scope user || exit 2",
        quote(hook),
        guest.event()
    )
}

/// The model the Anthropic-speaking agents ask for.
pub(super) const QWEN_MODEL: &str = "claude-sonnet-4-5";
pub(super) const COPILOT_MODEL: &str = "claude-sonnet-4.5";

/// The file holding the entry, under the case's `home` and `project`.
pub(super) fn entry_path(guest: Guest, place: Place, home: &Path, project: &Path) -> PathBuf {
    match (guest, place) {
        (_, Place::ClaudeProject) => project.join(".claude/settings.json"),
        (Guest::Qwen, Place::User) => home.join(".qwen/settings.json"),
        (Guest::Gemini, Place::User) => home.join(".gemini/settings.json"),
        (Guest::Copilot, Place::User) => home.join(".copilot/hooks/hook-relay.json"),
    }
}

/// The whole file holding the entry running `command`, with what the agent needs besides to
/// use the fake model (Qwen Code's and Gemini CLI's auth and model).
pub(super) fn entry_file(guest: Guest, place: Place, command: &str) -> Value {
    // Gemini CLI reads a hook's timeout in milliseconds, the others in seconds.
    let timeout = match guest {
        Guest::Gemini => 30_000,
        Guest::Qwen | Guest::Copilot => 30,
    };
    let matcher = match guest {
        Guest::Qwen | Guest::Gemini => "run_shell_command",
        Guest::Copilot => "Bash",
    };
    let hooks = json!({guest.event(): [{"matcher": matcher,
        "hooks": [{"type": "command", "command": command, "timeout": timeout}]}]});
    match (guest, place) {
        (Guest::Qwen, _) => json!({"security": {"auth": {"selectedType": "anthropic"}},
            "model": {"name": QWEN_MODEL}, "hooks": hooks}),
        (Guest::Gemini, _) => {
            json!({"security": {"auth": {"selectedType": "gemini-api-key"}}, "hooks": hooks})
        }
        (Guest::Copilot, Place::User) => json!({"version": 1, "hooks": hooks}),
        (Guest::Copilot, Place::ClaudeProject) => json!({"hooks": hooks}),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;
    use std::path::Path;
    use std::process::{Command, Stdio};

    use serde_json::Value;

    use super::{Guest, Place, REASON, entry_file, entry_path, guard_settings, relay_command};

    /// The file as the agent reads it (written, parsed back) and its one handler.
    fn written(guest: Guest, place: Place) -> (Value, Value) {
        let command = relay_command(guest, place, Path::new("/opt/it's/hook"));
        let text =
            serde_json::to_string_pretty(&entry_file(guest, place, &command)).expect("serialises");
        let file: Value = serde_json::from_str(&text).expect("parses");
        let groups = file["hooks"][guest.event()]
            .as_array()
            .expect("the event's groups");
        assert_eq!(groups.len(), 1, "{file}");
        let handler = groups[0]["hooks"][0].clone();
        (file, handler)
    }

    #[test]
    fn each_agents_entry_is_the_readmes_and_blocks_when_the_relay_cannot_start() {
        for guest in Guest::ALL {
            let (file, handler) = written(guest, Place::User);
            let command = handler["command"].as_str().expect("a command");
            assert!(command.ends_with(" || exit 2"), "{command}");
            assert!(
                command.starts_with(&format!(
                    r"'/opt/it'\''s/hook' relay --agent {} --event {} --scope user",
                    guest.name(),
                    guest.event()
                )),
                "{command}"
            );
            assert_eq!(handler["type"], "command");
            let (timeout, matcher) = match guest {
                // Gemini CLI's timeout is in milliseconds.
                Guest::Gemini => (30_000, "run_shell_command"),
                Guest::Qwen => (30, "run_shell_command"),
                Guest::Copilot => (30, "Bash"),
            };
            assert_eq!(handler["timeout"], timeout, "{guest:?}");
            assert_eq!(
                file["hooks"][guest.event()][0]["matcher"],
                matcher,
                "{guest:?}"
            );
        }
        assert_eq!(Guest::Gemini.event(), "BeforeTool");
        let (gemini, _) = written(Guest::Gemini, Place::User);
        assert_eq!(gemini["security"]["auth"]["selectedType"], "gemini-api-key");
        let (qwen, _) = written(Guest::Qwen, Place::User);
        assert_eq!(qwen["security"]["auth"]["selectedType"], "anthropic");
        // Copilot CLI's own hook files carry a version; a Claude Code settings file does not.
        let (copilot, _) = written(Guest::Copilot, Place::User);
        assert_eq!(copilot["version"], 1);
        let (project, handler) = written(Guest::Copilot, Place::ClaudeProject);
        assert_eq!(project.get("version"), None);
        assert_eq!(
            handler["command"],
            r"'/opt/it'\''s/hook' relay --dialect verboo --event PreToolUse --scope user || exit 2"
        );
    }

    #[test]
    fn each_entry_is_where_its_agent_reads_it() {
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

//! Gemini CLI, measured at 0.61.0: events of its own (`BeforeTool`, `AfterTool`,
//! `BeforeAgent`, `AfterAgent`), tools of its own (`run_shell_command`, `replace`,
//! `write_file`), timeouts in milliseconds, read from `~/.gemini/settings.json` and
//! `<project>/.gemini/settings.json` in a trusted folder (never Claude Code's files). It sets
//! `GEMINI_SESSION_ID` for its hooks (and `CLAUDE_PROJECT_DIR`). It reads only a top-level
//! `decision`, never `hookSpecificOutput.permissionDecision`; JSON on stdout before exit 2's
//! stderr; exit 2 with `{}` or nothing lets the call run.

use super::translated::{AnswerForm, EntryForm, SettingsFiles, TimeoutUnit, Translation};

/// Gemini CLI's wire against Claude Code's.
pub(crate) const GEMINI: Translation = Translation {
    names: &["gemini", "gemini-cli"],
    title: "Gemini CLI",
    marker_env: "GEMINI_SESSION_ID",
    // As `gemini hooks migrate --from-claude` maps them (`EVENT_MAPPING`), one Claude Code
    // event each; `BeforeModel`, `AfterModel` and `BeforeToolSelection` have none.
    events: &[
        ("BeforeTool", "PreToolUse"),
        ("AfterTool", "PostToolUse"),
        ("BeforeAgent", "UserPromptSubmit"),
        ("AfterAgent", "Stop"),
        ("SessionStart", "SessionStart"),
        ("SessionEnd", "SessionEnd"),
        ("PreCompress", "PreCompact"),
        ("Notification", "Notification"),
    ],
    // Its tools' names (`*_TOOL_NAME` in its package); `migrate`'s own table has stale ones
    // (`grep`, `ls`).
    tools: &[
        ("run_shell_command", "Bash"),
        ("replace", "Edit"),
        ("write_file", "Write"),
        ("read_file", "Read"),
        ("glob", "Glob"),
        ("grep_search", "Grep"),
        ("list_directory", "LS"),
        ("web_fetch", "WebFetch"),
        ("google_web_search", "WebSearch"),
        ("write_todos", "TodoWrite"),
        ("invoke_agent", "Task"),
        ("ask_user", "AskUserQuestion"),
        ("exit_plan_mode", "ExitPlanMode"),
    ],
    answer: AnswerForm::Decision,
    // Read in a trusted folder only (the user's too).
    files: SettingsFiles {
        user: ".gemini/settings.json",
        project: ".gemini/settings.json",
        new: "{}\n",
    },
    entry: EntryForm {
        timeout_unit: TimeoutUnit::Milliseconds,
        max_timeout: None,
        match_all: None,
    },
};

/// A relay entry in Gemini CLI's settings whose `timeout`, which Gemini CLI reads in
/// milliseconds, is under a second: Gemini CLI cuts the relay off before it answers and lets
/// the call run. `gemini hooks migrate --from-claude` writes them: it copies Claude Code's
/// seconds (`5`) as they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShortTimeout {
    /// The settings file.
    pub(crate) file: std::path::PathBuf,
    /// Gemini CLI's event.
    pub(crate) event: String,
    /// The timeout as written (milliseconds for Gemini CLI).
    pub(crate) timeout: u64,
    /// Whether the entry is Claude Code's relay's (`--dialect verboo`: copied by `migrate`).
    pub(crate) migrated: bool,
}

/// The relay entries with a timeout under a second in Gemini CLI's user settings
/// (`~/.gemini/settings.json`) and `project`'s (`.gemini/settings.json`).
pub(crate) fn short_timeouts(project: Option<&std::path::Path>) -> Vec<ShortTimeout> {
    let mut files = Vec::new();
    if let Some(home) = std::env::var_os("HOME") {
        files.push(std::path::PathBuf::from(home).join(".gemini/settings.json"));
    }
    if let Some(project) = project {
        files.push(project.join(".gemini/settings.json"));
    }
    files.dedup();
    let mut short = Vec::new();
    for file in files {
        let Ok(Some((text, _))) = crate::ops::relay::read::files::read_regular(&file) else {
            continue;
        };
        let Ok(settings) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let Some(events) = settings["hooks"].as_object() else {
            continue;
        };
        for (event, groups) in events {
            let handlers = groups
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|group| group["hooks"].as_array().into_iter().flatten());
            for handler in handlers {
                let Some(command) = handler["command"].as_str() else {
                    continue;
                };
                let Some(relay) = relay_kind(command) else {
                    continue;
                };
                if let Some(timeout) = handler["timeout"].as_u64()
                    && timeout < 1000
                {
                    short.push(ShortTimeout {
                        file: file.clone(),
                        event: event.clone(),
                        timeout,
                        migrated: relay == RelayKind::Claude,
                    });
                }
            }
        }
    }
    short
}

/// Which relay an entry's command starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RelayKind {
    /// Claude Code's (`hook relay --dialect verboo` or `--agent claude`).
    Claude,
    /// Another's (`--agent gemini`, ...).
    Other,
}

/// The relay `command` starts (`<.../hook> relay ...`), if it is one.
fn relay_kind(command: &str) -> Option<RelayKind> {
    let words = hook_protocol::shell::words(command);
    let mut plain = words.iter().map(|word| word.plain.as_str());
    let program = plain.next()?;
    let is_hook = std::path::Path::new(program)
        .file_name()
        .is_some_and(|name| name == "hook");
    if !is_hook || plain.next() != Some("relay") {
        return None;
    }
    let rest: Vec<&str> = plain.collect();
    let claude = rest.windows(2).any(|pair| {
        matches!(
            pair,
            ["--dialect", "verboo"] | ["--agent", "claude" | "claude-code"]
        )
    });
    Some(if claude {
        RelayKind::Claude
    } else {
        RelayKind::Other
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relay_entries_are_told_from_others() {
        let table = [
            (
                "hook relay --dialect verboo --event PreToolUse --entry-timeout 25 || exit 2 # hook-relay-install",
                Some(RelayKind::Claude),
            ),
            (
                "/usr/local/bin/hook relay --agent gemini --event BeforeTool || exit 2",
                Some(RelayKind::Other),
            ),
            ("hook list", None),
            ("echo hook relay", None),
            ("./guard.sh", None),
        ];
        for (command, kind) in table {
            assert_eq!(relay_kind(command), kind, "{command}");
        }
    }
}

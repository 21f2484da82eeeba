//! GitHub Copilot CLI, measured at 1.0.102, in its Claude Code dialect: an event key written
//! in Claude Code's case (`PreToolUse`, in `~/.copilot/hooks/*.json`, `.github/hooks/*.json`
//! or a trusted project's `.claude/settings.json`) gets Claude Code's payload, with
//! `tool_name: "Bash"` but no `transcript_path`, `permission_mode` or `tool_use_id`. It never
//! reads `~/.claude/settings.json`. It sets `COPILOT_CLI=1` for its hooks. Any exit but 0 blocks
//! a tool call, and exit 2's reason never reaches the model: only a JSON `permissionDecision`
//! (top-level, or Claude Code's `hookSpecificOutput`) carries it. A timeout lets the call run.

use super::translated::{AnswerForm, EntryForm, SettingsFiles, TimeoutUnit, Translation};

/// Copilot CLI's Claude Code dialect against Claude Code's: the same names, fewer fields.
pub(crate) const COPILOT: Translation = Translation {
    names: &["copilot", "copilot-cli"],
    title: "Copilot CLI",
    marker_env: "COPILOT_CLI",
    // The Claude Code events it delivers in that dialect: the first six measured headless, the
    // rest those of its own events (`HookType` in its schema) that Claude Code has too.
    events: &[
        ("SessionStart", "SessionStart"),
        ("UserPromptSubmit", "UserPromptSubmit"),
        ("PreToolUse", "PreToolUse"),
        ("PostToolUse", "PostToolUse"),
        ("Stop", "Stop"),
        ("SessionEnd", "SessionEnd"),
        ("PostToolUseFailure", "PostToolUseFailure"),
        ("SubagentStart", "SubagentStart"),
        ("SubagentStop", "SubagentStop"),
        ("PreCompact", "PreCompact"),
        ("PermissionRequest", "PermissionRequest"),
        ("Notification", "Notification"),
    ],
    // It names its shell tool `Bash` in this dialect already.
    tools: &[],
    answer: AnswerForm::ClaudeDenial,
    // Its own hook files (`~/.copilot/hooks/*.json`, a trusted project's `.github/hooks/*.json`),
    // one the relay owns; an event key in Claude Code's case makes the entry Claude Code's
    // dialect.
    files: SettingsFiles {
        user: ".copilot/hooks/hook-relay.json",
        project: ".github/hooks/hook-relay.json",
        new: "{\n  \"version\": 1\n}\n",
    },
    // `""` matches nothing in its Claude Code dialect (measured), `*` everything.
    entry: EntryForm {
        timeout_unit: TimeoutUnit::Seconds,
        max_timeout: None,
        match_all: Some("*"),
    },
};

/// Copilot CLI's home (`~/.copilot`), if it is installed for this user (the folder exists).
fn copilot_home() -> Option<std::path::PathBuf> {
    let home = std::path::PathBuf::from(std::env::var_os("HOME")?).join(".copilot");
    home.is_dir().then_some(home)
}

/// What a Copilot CLI user should know of Claude Code's relay entries (`user_entries` in the
/// user's settings, `project_entries` in `project`'s), when Copilot CLI is installed here:
/// it never reads `~/.claude/settings.json`, and reads a project's `.claude/settings.json`
/// only in a folder it trusts (`trustedFolders` in `~/.copilot/config.json`, or
/// `COPILOT_ALLOW_ALL=true`, or `--trust-folder` for one session).
pub(crate) fn notes_on_claude_entries(
    user_entries: bool,
    project: &std::path::Path,
    project_entries: bool,
) -> Vec<String> {
    let Some(home) = copilot_home() else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    if user_entries {
        notes.push(format!(
            "Copilot CLI ({} is here) never reads ~/.claude/settings.json: these user entries do not guard it; `hook relay install --agent copilot` writes its own, in {}",
            home.display(),
            home.join("hooks").join("hook-relay.json").display()
        ));
    }
    if project_entries && !trusts(&home, project) {
        notes.push(format!(
            "Copilot CLI runs this project's .claude/settings.json only in a folder it trusts, and {} is not in `trustedFolders` of {}: trust it in Copilot CLI (or start it with --trust-folder)",
            project.display(),
            home.join("config.json").display()
        ));
    }
    notes
}

/// Whether Copilot CLI's `config.json` under `home` trusts `project` (or a folder above it).
fn trusts(home: &std::path::Path, project: &std::path::Path) -> bool {
    let Ok(text) = std::fs::read_to_string(home.join("config.json")) else {
        return false;
    };
    let Ok(config) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    config["trustedFolders"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(serde_json::Value::as_str)
        .any(|folder| project.starts_with(folder))
}

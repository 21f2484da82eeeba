//! GitHub Copilot CLI, measured at 1.0.102, in its Claude Code dialect: an event key written
//! in Claude Code's case (`PreToolUse`, in `~/.copilot/hooks/*.json`, `.github/hooks/*.json`
//! or a trusted project's `.claude/settings.json`) gets Claude Code's payload, with
//! `tool_name: "Bash"` but no `transcript_path`, `permission_mode` or `tool_use_id`. It never
//! reads `~/.claude/settings.json`. It sets `COPILOT_CLI=1` for its hooks. Any exit but 0 blocks
//! a tool call, and exit 2's reason never reaches the model: only a JSON `permissionDecision`
//! (top-level, or Claude Code's `hookSpecificOutput`) carries it. A timeout lets the call run.

use super::translated::{AnswerForm, Translation};

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
    runs_claude_entries: true,
};

//! Qwen Code, measured at 0.24.4: Claude Code's hook protocol (`PreToolUse`, `tool_name`,
//! `hookSpecificOutput`) with its own tool names (`run_shell_command`, `write_file`, `edit`),
//! read from `~/.qwen/settings.json` and `<project>/.qwen/settings.json` (never Claude Code's
//! files). It sets `QWEN_CODE_CLI` for its hooks, and `CLAUDE_PROJECT_DIR` too. Exit 2 blocks
//! only with a reason on stderr; a hook that fails, times out or is missing lets the call run.

use super::translated::{AnswerForm, EntryForm, SettingsFiles, TimeoutUnit, Translation};

/// Qwen Code's wire against Claude Code's.
pub(crate) const QWEN: Translation = Translation {
    names: &["qwen", "qwen-code"],
    title: "Qwen Code",
    marker_env: "QWEN_CODE_CLI",
    // Its event names are Claude Code's (`HookEventName` in its package); the ones both have.
    events: &[
        ("PreToolUse", "PreToolUse"),
        ("PostToolUse", "PostToolUse"),
        ("PostToolUseFailure", "PostToolUseFailure"),
        ("PostToolBatch", "PostToolBatch"),
        ("Notification", "Notification"),
        ("UserPromptSubmit", "UserPromptSubmit"),
        ("UserPromptExpansion", "UserPromptExpansion"),
        ("SessionStart", "SessionStart"),
        ("SessionEnd", "SessionEnd"),
        ("Stop", "Stop"),
        ("StopFailure", "StopFailure"),
        ("SubagentStart", "SubagentStart"),
        ("SubagentStop", "SubagentStop"),
        ("PreCompact", "PreCompact"),
        ("PostCompact", "PostCompact"),
        ("PermissionRequest", "PermissionRequest"),
        ("PermissionDenied", "PermissionDenied"),
        ("InstructionsLoaded", "InstructionsLoaded"),
        ("MessageDisplay", "MessageDisplay"),
    ],
    // `ToolNames` in its package (`packages/core/src/tools/tool-names.ts`).
    tools: &[
        ("run_shell_command", "Bash"),
        ("write_file", "Write"),
        ("edit", "Edit"),
        ("read_file", "Read"),
        ("glob", "Glob"),
        ("grep_search", "Grep"),
        ("list_directory", "LS"),
        ("web_fetch", "WebFetch"),
        ("web_search", "WebSearch"),
        ("todo_write", "TodoWrite"),
        ("agent", "Task"),
        ("notebook_edit", "NotebookEdit"),
        ("ask_user_question", "AskUserQuestion"),
        ("exit_plan_mode", "ExitPlanMode"),
        ("skill", "Skill"),
    ],
    answer: AnswerForm::Decision,
    files: SettingsFiles {
        user: ".qwen/settings.json",
        project: ".qwen/settings.json",
        new: "{}\n",
    },
    // Seconds, but a value of 1000 and over is read as milliseconds: never written.
    entry: EntryForm {
        timeout_unit: TimeoutUnit::Seconds,
        max_timeout: Some(999),
        match_all: None,
    },
};

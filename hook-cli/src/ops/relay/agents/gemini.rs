//! Gemini CLI, measured at 0.61.0: events of its own (`BeforeTool`, `AfterTool`,
//! `BeforeAgent`, `AfterAgent`), tools of its own (`run_shell_command`, `replace`,
//! `write_file`), timeouts in milliseconds, read from `~/.gemini/settings.json` and
//! `<project>/.gemini/settings.json` in a trusted folder (never Claude Code's files). It sets
//! `GEMINI_SESSION_ID` for its hooks (and `CLAUDE_PROJECT_DIR`). It reads only a top-level
//! `decision`, never `hookSpecificOutput.permissionDecision`; JSON on stdout before exit 2's
//! stderr; exit 2 with `{}` or nothing lets the call run.

use super::translated::{AnswerForm, Translation};

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
    runs_claude_entries: false,
};

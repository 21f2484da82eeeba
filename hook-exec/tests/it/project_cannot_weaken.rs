//! SPEC "What a project may not do": a project or local settings file switches off only the
//! hooks of the project's own layers, and every suppressed handler is in `runs` with its reason.
#![cfg(unix)]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use crate::common::{Setup, pre_tool_use, statuses};
use hook_exec::EngineOptions;
use hook_protocol::{Decision, Dialect, Outcome, RunStatus};
use serde_json::json;

const USER_GUARD: &str = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash",
    "hooks": [{"type": "command", "command": "echo no pushes >&2; exit 2"}]}]}}"#;

fn dispatch(setup: &Setup) -> Outcome {
    let engine = setup.engine(EngineOptions::default());
    let input = setup.input(pre_tool_use("Bash", "git push"));
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.dispatch(&input))
}

/// The skip reason as it appears in the outcome's JSON.
fn skip_reasons(outcome: &Outcome) -> Vec<String> {
    outcome
        .runs
        .iter()
        .map(|run| json!(run.skip_reason).as_str().unwrap_or("-").to_owned())
        .collect()
}

fn write(setup: &Setup, rel: &str, text: &str) {
    let path = setup.path(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_project_disable_all_hooks_leaves_the_users_guard_blocking() {
    let project_hook = r#""hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "touch ../project-hook-ran"}]}]}"#;
    // Either project file, or both: the user's guard still blocks.
    let table: &[(&str, &[(&str, String)])] = &[
        (
            "project file",
            &[(
                "project/.claude/settings.json",
                format!(r#"{{"disableAllHooks": true, {project_hook}}}"#),
            )],
        ),
        (
            "local file",
            &[(
                "project/.claude/settings.local.json",
                format!(r#"{{"disableAllHooks": true, {project_hook}}}"#),
            )],
        ),
        (
            "project hook, local switch",
            &[
                (
                    "project/.claude/settings.json",
                    format!("{{{project_hook}}}"),
                ),
                (
                    "project/.claude/settings.local.json",
                    r#"{"disableAllHooks": true}"#.to_owned(),
                ),
            ],
        ),
    ];
    for (name, files) in table {
        let setup = Setup::new(Dialect::Verboo, USER_GUARD);
        for (rel, text) in *files {
            write(&setup, rel, text);
        }
        let outcome = dispatch(&setup);
        assert_eq!(outcome.decision, Decision::Block, "{name}: {outcome:#?}");
        assert_eq!(outcome.reason.as_deref(), Some("no pushes"), "{name}");
        assert_eq!(
            statuses(&outcome),
            [RunStatus::Blocked, RunStatus::Skipped],
            "{name}: {outcome:#?}"
        );
        assert_eq!(
            skip_reasons(&outcome),
            ["-", "disabled_by_settings"],
            "{name}"
        );
        let why = outcome.runs[1].error.as_deref().unwrap_or_default();
        assert!(why.contains("disableAllHooks"), "{name}: {why}");
        assert!(!setup.path("project-hook-ran").exists(), "{name}");
    }
}

#[test]
fn the_users_own_switch_is_reported_in_runs() {
    // Claude Code: `disableAllHooks` in the user's settings turns off every non-managed hook;
    // each suppressed handler is still in `runs`, with the reason and the file to edit.
    let setup = Setup::new(
        Dialect::Verboo,
        &USER_GUARD.replacen('{', r#"{"disableAllHooks": true, "#, 1),
    );
    write(
        &setup,
        "project/.claude/settings.json",
        r#"{"disableAllHooks": false, "hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "touch ../project-hook-ran"}]}]}}"#,
    );
    let outcome = dispatch(&setup);
    assert_eq!(outcome.decision, Decision::Continue, "{outcome:#?}");
    assert_eq!(statuses(&outcome), [RunStatus::Skipped, RunStatus::Skipped]);
    assert_eq!(
        skip_reasons(&outcome),
        ["disabled_by_settings", "disabled_by_settings"],
        "a project's `false` never turns the user's switch back on"
    );
    let why = outcome.runs[0].error.as_deref().unwrap_or_default();
    assert!(why.contains("settings.json"), "{why}");
    assert!(!setup.path("project-hook-ran").exists());
}

//! Claude Code 2.1.332's model switches and skill commands as the engine selects and runs their
//! hooks: a model-switch matcher is tested against the canonical model (no `[1m]`, no date,
//! lowercase), with its own `[1m]` dropped; a prompt hook on a skill's command blocks it.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use hook_exec::EngineOptions;
use hook_protocol::{Decision, Dialect};
use serde_json::json;

use crate::common::Setup;

#[test]
fn a_model_switch_matcher_tests_the_canonical_model() {
    let rows = [
        ("claude-opus-4-6", "claude-opus-4-6[1m]", true),
        ("claude-opus-4-6[1m]", "claude-opus-4-6", true),
        ("claude-sonnet-4-5", "Claude-Sonnet-4-5-20250929", true),
        ("claude-sonnet-4-5", "claude-opus-4-6", false),
    ];
    for (matcher, to_model, runs) in rows {
        let config = json!({"hooks": {"PreModelSwitch": [{"matcher": matcher, "hooks": [
            {"type": "command", "command": "cat > /dev/null; echo keep >&2; exit 2"}]}]}});
        let setup = Setup::new(Dialect::Verboo, &config.to_string());
        let engine = setup.engine(EngineOptions::default());
        let input = setup.input(json!({"hook_event_name": "PreModelSwitch",
            "from_model": "claude-haiku-4-5", "to_model": to_model, "source": "command"}));
        let outcome = tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(engine.dispatch(&input));
        let what = format!("{matcher} vs {to_model}: {outcome:?}");
        assert_eq!(outcome.runs.len(), usize::from(runs), "{what}");
        assert_eq!(outcome.decision == Decision::Block, runs, "{what}");
    }
}

#[test]
fn a_prompt_hook_on_a_skill_command_blocks_it() {
    let config = json!({"hooks": {"PreSkillShellCommand": [{"hooks": [
        {"type": "prompt", "prompt": "is this safe? $ARGUMENTS"}]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let engine = setup.engine(EngineOptions::default());
    let input = setup.input(
        json!({"hook_event_name": "PreSkillShellCommand", "tool_name": "Bash",
        "tool_input": {"command": "curl x | sh"}, "tool_use_id": "t", "command_name": "deploy",
        "invoked_by": "user"}),
    );
    let outcome = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.dispatch(&input));
    assert_eq!(outcome.decision, Decision::Block, "{outcome:?}");
    assert!(
        outcome
            .reason
            .as_deref()
            .unwrap_or_default()
            .contains("do not run on PreSkillShellCommand"),
        "{outcome:?}"
    );
}

//! The engine end to end: real configuration files, real shell hooks, each dialect's rules.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::path::{Path, PathBuf};

use hook_config::{Environment, LoadOptions, load};
use hook_exec::{Engine, EngineOptions};
use hook_protocol::input::parse_input;
use hook_protocol::{Decision, Dialect, Outcome, RunStatus, SkipReason};
use hook_test_support::Scene;
use hook_test_support::events::user_file;
use serde_json::{Value, json};

/// A home folder holding one user config file, and a project folder as the event's cwd.
struct Setup {
    scene: Scene,
}

impl Setup {
    fn new(dialect: Dialect, config: &str) -> Setup {
        let scene = Scene::new();
        scene.write(&format!("home/{}", user_file(dialect)), config);
        Setup { scene }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.scene.path(name)
    }

    fn engine(&self, dialect: Dialect, options: EngineOptions) -> Engine {
        let env = Environment::empty();
        let options_load = LoadOptions::new(dialect, env)
            .without_managed()
            .with_home(self.path("home"))
            .with_project(self.path("project"));
        let loaded = load(&options_load).unwrap();
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        Engine::new(loaded.registry)
            .with_gate(hook_exec::AllowAll)
            .with_options(options)
    }

    /// Dispatches `event` (the common fields are added) and returns the outcome.
    fn dispatch(&self, dialect: Dialect, mut event: Value) -> Outcome {
        self.dispatch_with(dialect, EngineOptions::default(), &mut event)
    }

    fn dispatch_with(
        &self,
        dialect: Dialect,
        options: EngineOptions,
        event: &mut Value,
    ) -> Outcome {
        let engine = self.engine(dialect, options);
        complete(dialect, event, &self.path("project"));
        let input = parse_input(dialect, event.to_string().as_bytes()).unwrap();
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(engine.dispatch(&input))
    }
}

/// Adds the common fields each dialect's input requires.
fn complete(dialect: Dialect, event: &mut Value, cwd: &Path) {
    let object = event.as_object_mut().unwrap();
    object.insert("cwd".into(), json!(cwd));
    object.entry("session_id").or_insert(json!("s1"));
    if dialect == Dialect::Lime {
        object.entry("transcript_path").or_insert(Value::Null);
        object.entry("model").or_insert(json!("m"));
        object.entry("turn_id").or_insert(json!("t1"));
    }
    if object.contains_key("tool_name") && dialect != Dialect::Wuu {
        object.entry("tool_use_id").or_insert(json!("call-1"));
    }
}

fn statuses(outcome: &Outcome) -> Vec<RunStatus> {
    outcome.runs.iter().map(|r| r.status).collect()
}

fn pre_tool_use(tool: &str, command: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": {"command": command}})
}

// ---------------------------------------------------------------- wuu

#[test]
fn wuu_each_rewrite_is_the_next_hooks_tool_input() {
    let config = json!({"hooks": {"PreToolUse": [
        {"matcher": "bash", "command": "cat >/dev/null; echo '{\"updated_input\":{\"command\":\"ls -la\"}}'"},
        {"matcher": "bash", "command": "grep -q '\"command\":\"ls -la\"' && echo '{\"updated_input\":{\"command\":\"ls -la /tmp\"}}'"},
    ]}});
    let setup = Setup::new(Dialect::Wuu, &config.to_string());
    let outcome = setup.dispatch(Dialect::Wuu, pre_tool_use("Bash", "ls"));
    assert_eq!(
        statuses(&outcome),
        [RunStatus::Ok, RunStatus::Ok],
        "{outcome:#?}"
    );
    assert_eq!(
        outcome.updated_input,
        Some(json!({"command": "ls -la /tmp"}))
    );
    assert_eq!(outcome.decision, Decision::Continue);
}

#[test]
fn wuu_the_chain_stops_at_the_first_block_and_the_rest_never_run() {
    let config = json!({"hooks": {"PreToolUse": [
        {"command": "echo no pushes >&2; exit 2"},
        {"command": "touch ../ran-after-block"},
    ]}});
    let setup = Setup::new(Dialect::Wuu, &config.to_string());
    let outcome = setup.dispatch(Dialect::Wuu, pre_tool_use("bash", "git push"));
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("no pushes"));
    assert_eq!(statuses(&outcome), [RunStatus::Blocked, RunStatus::Skipped]);
    assert_eq!(outcome.runs[1].skip_reason, Some(SkipReason::ChainStopped));
    assert!(
        !setup.path("ran-after-block").exists(),
        "a hook after the block ran"
    );
}

#[test]
fn wuu_context_accumulates_and_survives_a_later_failure() {
    let config = json!({"hooks": {"PostToolUse": [
        {"command": "echo '{\"additional_context\":\"first\"}'"},
        {"command": "echo '{\"additional_context\":\"second\"}'"},
        {"command": "echo broken >&2; exit 1"},
        {"command": "echo '{\"additional_context\":\"never\"}'"},
    ]}});
    let setup = Setup::new(Dialect::Wuu, &config.to_string());
    let event = json!({"hook_event_name": "PostToolUse", "tool_name": "bash",
        "tool_input": {}, "tool_response": "ok"});
    let outcome = setup.dispatch(Dialect::Wuu, event);
    assert_eq!(
        outcome.additional_context.as_deref(),
        Some("first\n\nsecond")
    );
    assert_eq!(
        statuses(&outcome),
        [
            RunStatus::Ok,
            RunStatus::Ok,
            RunStatus::Failed,
            RunStatus::Skipped
        ]
    );
    assert_eq!(
        outcome.runs[2].error.as_deref(),
        Some("hook exited with code 1: broken")
    );
    assert_eq!(outcome.system_messages.len(), 1);
}

#[test]
fn wuu_a_non_empty_matcher_never_matches_an_event_without_a_tool() {
    let config = json!({"hooks": {"Stop": [
        {"matcher": "bash", "command": "exit 2"},
        {"matcher": "*", "command": "echo fine"},
    ]}});
    let setup = Setup::new(Dialect::Wuu, &config.to_string());
    let outcome = setup.dispatch(Dialect::Wuu, json!({"hook_event_name": "Stop"}));
    assert_eq!(outcome.runs.len(), 1);
    assert_eq!(outcome.decision, Decision::Continue);
}

// ---------------------------------------------------------------- verboo

#[test]
fn verboo_deny_beats_ask_beats_allow_and_reports_in_config_order() {
    let decide = |d: &str| {
        format!(
            "echo '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"{d}\",\"permissionDecisionReason\":\"{d} it\"}}}}'"
        )
    };
    let config = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": decide("allow")},
        {"type": "command", "command": decide("ask")},
        {"type": "command", "command": decide("deny")},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let outcome = setup.dispatch(Dialect::Verboo, pre_tool_use("Bash", "rm -rf /"));
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("deny it"));
    assert_eq!(
        statuses(&outcome),
        [RunStatus::Ok, RunStatus::Ok, RunStatus::Blocked]
    );
}

#[test]
fn verboo_exit_codes_on_post_tool_use() {
    let config = json!({"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": "echo 'lint: 3 errors' >&2; exit 2"},
        {"type": "command", "command": "echo 'formatter crashed' >&2; exit 1"},
        {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"formatted\"}}'"},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let event = json!({"hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": "a.rs"}, "tool_response": {}});
    let outcome = setup.dispatch(Dialect::Verboo, event);
    // Exit 2 after the tool ran: stderr goes to the model as a block's reason.
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("lint: 3 errors"));
    // Other non-zero: shown to the user only, the rest carries on.
    assert_eq!(
        statuses(&outcome),
        [RunStatus::Blocked, RunStatus::Failed, RunStatus::Ok]
    );
    assert!(outcome.system_messages[0].contains("formatter crashed"));
    assert_eq!(outcome.additional_context.as_deref(), Some("formatted"));

    let outcome = setup.dispatch(
        Dialect::Verboo,
        json!({"hook_event_name": "PostToolUse",
        "tool_name": "Read", "tool_input": {}, "tool_response": {}}),
    );
    assert!(outcome.runs.is_empty(), "Read does not match Write|Edit");
}

#[test]
fn verboo_continue_false_stops_the_agent() {
    let config = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"tests\"}'"},
        {"type": "command", "command": "echo '{\"continue\":false,\"stopReason\":\"budget spent\"}'"},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let outcome = setup.dispatch(
        Dialect::Verboo,
        json!({"hook_event_name": "Stop", "stop_hook_active": false}),
    );
    assert!(outcome.stop);
    assert_eq!(outcome.stop_reason.as_deref(), Some("budget spent"));
    assert_eq!(outcome.decision, Decision::Continue);
}

#[test]
fn verboo_hooks_see_the_environment_and_cwd() {
    let config = json!({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": "printf '%s %s %s' \"$HOOK_DIALECT\" \"$HOOK_EVENT\" \"$(basename \"$CLAUDE_PROJECT_DIR\")\"; printf ' %s' \"$(basename \"$PWD\")\""},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let outcome = setup.dispatch(
        Dialect::Verboo,
        json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}),
    );
    assert_eq!(
        outcome.additional_context.as_deref(),
        Some("verboo UserPromptSubmit project project")
    );
}

// ---------------------------------------------------------------- lime

#[test]
fn lime_any_block_wins_and_prompt_handlers_are_skipped() {
    let config = r#"
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"ls\"}}}'"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "echo 'rm -rf is not allowed' >&2; exit 2"
[[hooks.PreToolUse.hooks]]
type = "prompt"
prompt = "is this fine? $ARGUMENTS"
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let outcome = setup.dispatch(Dialect::Lime, pre_tool_use("Bash", "rm -rf /"));
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("rm -rf is not allowed"));
    assert_eq!(
        statuses(&outcome),
        [RunStatus::Ok, RunStatus::Blocked, RunStatus::Skipped]
    );
    assert_eq!(outcome.runs[2].skip_reason, Some(SkipReason::Unsupported));
}

#[test]
fn lime_permission_request_deny_wins_and_updated_input_fails_the_hook() {
    let config = r#"
[[hooks.PermissionRequest]]
[[hooks.PermissionRequest.hooks]]
type = "command"
command = "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\",\"updatedInput\":{\"command\":\"ls\"}}}}'"
[[hooks.PermissionRequest.hooks]]
type = "command"
command = "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}'"
[[hooks.PermissionRequest.hooks]]
type = "command"
command = "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"not on main\"}}}'"
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let event = json!({"hook_event_name": "PermissionRequest", "tool_name": "Bash",
        "tool_input": {"command": "git push"}});
    let outcome = setup.dispatch(Dialect::Lime, event);
    assert_eq!(
        statuses(&outcome),
        [RunStatus::Failed, RunStatus::Ok, RunStatus::Blocked]
    );
    assert!(
        outcome.runs[0]
            .error
            .as_deref()
            .unwrap()
            .contains("may not return `updatedInput`")
    );
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("not on main"));
    assert_eq!(outcome.updated_input, None);
}

#[test]
fn lime_invalid_output_and_exit_2_without_reason_are_failures_not_decisions() {
    let config = r#"
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "echo '{\"decision\":\"block\",\"reason\":\"x\",\"extra\":1}'"
[[hooks.Stop.hooks]]
type = "command"
command = "exit 2"
[[hooks.Stop.hooks]]
type = "command"
command = "echo 'not json'"
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let outcome = setup.dispatch(Dialect::Lime,
        json!({"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": null}));
    assert_eq!(
        statuses(&outcome),
        [RunStatus::Failed, RunStatus::Failed, RunStatus::Failed]
    );
    assert_eq!(outcome.decision, Decision::Continue);
    assert_eq!(outcome.system_messages.len(), 3);
}

#[test]
fn lime_over_long_context_becomes_a_preview_and_a_side_file() {
    let config = r#"
[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "command"
command = "head -c 300 /dev/zero | tr '\\0' 'x'"
additionalContextLimit = 100
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let options = EngineOptions::default().with_side_file_dir(setup.path("side"));
    let mut event = json!({"hook_event_name": "SessionStart", "source": "startup"});
    let outcome = setup.dispatch_with(Dialect::Lime, options, &mut event);
    let context = outcome.additional_context.unwrap();
    assert!(context.starts_with(&"x".repeat(50)), "{context}");
    assert!(context.contains("[... 200 of 300 characters omitted; the whole text is in "));
    let side = std::fs::read_dir(setup.path("side"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert_eq!(std::fs::read_to_string(side).unwrap(), "x".repeat(300));
}

#[test]
fn a_hook_that_never_exits_is_timed_out_and_decides_nothing() {
    let config = r#"
[[hooks.UserPromptSubmit]]
[[hooks.UserPromptSubmit.hooks]]
type = "command"
command = "sleep 60; echo 'blocked' >&2; exit 2"
timeout = 1
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let outcome = setup.dispatch(
        Dialect::Lime,
        json!({"hook_event_name": "UserPromptSubmit", "prompt": "p"}),
    );
    assert_eq!(statuses(&outcome), [RunStatus::TimedOut]);
    assert_eq!(outcome.decision, Decision::Continue);
    assert!(
        outcome.runs[0]
            .error
            .as_deref()
            .unwrap()
            .starts_with("timed out after 1 s")
    );
}

#[test]
fn stop_loops_are_broken_after_the_cap() {
    let config = r#"
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "echo '{\"decision\":\"block\",\"reason\":\"not done\"}'"
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let options = EngineOptions::default().with_stop_loop_cap(2);
    let engine = setup.engine(Dialect::Lime, options);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut event = json!({"hook_event_name": "Stop", "stop_hook_active": true,
        "last_assistant_message": "done"});
    complete(Dialect::Lime, &mut event, &setup.path("project"));
    let input = parse_input(Dialect::Lime, event.to_string().as_bytes()).unwrap();
    let decisions: Vec<Decision> = (0..3)
        .map(|_| runtime.block_on(engine.dispatch(&input)).decision)
        .collect();
    assert_eq!(
        decisions,
        [Decision::Block, Decision::Block, Decision::Continue]
    );
    let third = runtime.block_on(engine.dispatch(&input));
    assert_eq!(
        third.decision,
        Decision::Block,
        "the count starts again after the stop"
    );
}

// ---------------------------------------------------------------- preview

/// `Engine::preview` names the handlers a dispatch would start, in order, and runs none of them.
#[test]
fn preview_lists_what_dispatch_would_start_and_runs_nothing() {
    let setup = Setup::new(Dialect::Verboo, "{}");
    let flag = setup.path("ran");
    let touch = format!("touch {}", flag.display());
    let config = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": touch, "statusMessage": "checking"}]},
        {"matcher": "Read", "hooks": [{"type": "command", "command": "exit 0", "statusMessage": "reading"}]},
    ]}});
    std::fs::write(setup.path("home/settings.json"), config.to_string()).unwrap();
    let engine = setup.engine(Dialect::Verboo, EngineOptions::default());
    let mut event = pre_tool_use("Bash", "ls");
    complete(Dialect::Verboo, &mut event, &setup.path("project"));
    let input = parse_input(Dialect::Verboo, event.to_string().as_bytes()).unwrap();

    let previewed: Vec<Option<&str>> = engine
        .preview(&input)
        .iter()
        .map(|handler| handler.config.status_message.as_deref())
        .collect();
    assert_eq!(previewed, [Some("checking")]);
    assert!(!flag.exists(), "a preview runs nothing");

    let outcome = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.dispatch(&input));
    assert_eq!(statuses(&outcome), [RunStatus::Ok]);
    assert!(flag.exists(), "the dispatch ran what the preview named");
}

//! What an embedder relies on: the secure default gate, the completion stream, per-hook
//! context, and `Hooks::reload`.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

#[cfg(feature = "trust")]
use std::sync::Mutex;

use hook_config::{Environment, LoadOptions, load};
use hook_exec::Engine;
#[cfg(feature = "trust")]
use hook_exec::Hooks;
use hook_protocol::{Dialect, RunStatus, SkipReason};
use serde_json::json;

use crate::common::Setup;

/// A verboo project file with two PostToolUse hooks that each add context.
const TWO_CONTEXTS: &str = r#"{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"first\"}}'"},
    {"type": "command", "command": "printf '%s' '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"second\"}}'"}
]}]}}"#;

fn post_tool_use() -> serde_json::Value {
    json!({"hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "tool_response": {"stdout": ""}})
}

/// A verboo setup whose hooks are in the project's `.claude/settings.json` (a layer that
/// needs trust), with `settings` as that file.
fn project_setup(settings: &str) -> Setup {
    let setup = Setup::new(Dialect::Verboo, "{}");
    let dir = setup.path("project").join(".claude");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("settings.json"), settings).unwrap();
    setup
}

fn load_options(setup: &Setup) -> LoadOptions {
    LoadOptions::new(Dialect::Verboo, Environment::empty())
        .without_managed()
        .with_home(setup.path("home"))
        .with_project(setup.path("project"))
}

#[tokio::test]
async fn an_engine_without_a_gate_refuses_hooks_that_need_trust() {
    let setup = project_setup(TWO_CONTEXTS);
    let loaded = load(&load_options(&setup)).unwrap();
    let engine = Engine::new(loaded.registry);
    let outcome = engine.dispatch(&setup.input(post_tool_use())).await;
    assert_eq!(outcome.runs.len(), 2);
    for run in &outcome.runs {
        assert_eq!(run.status, RunStatus::Skipped, "{run:?}");
        assert_eq!(run.skip_reason, Some(SkipReason::Untrusted));
        let error = run.error.as_deref().unwrap();
        assert!(error.contains("no trust gate"), "{error}");
        assert!(error.contains("AllowAll"), "{error}");
    }
    assert_eq!(outcome.additional_context, None);

    // Asked for by name, every hook runs.
    let loaded = load(&load_options(&setup)).unwrap();
    let engine = Engine::new(loaded.registry).with_gate(hook_exec::AllowAll);
    let outcome = engine.dispatch(&setup.input(post_tool_use())).await;
    assert!(outcome.runs.iter().all(|run| run.status == RunStatus::Ok));
}

#[tokio::test]
async fn user_hooks_run_without_a_gate_in_verboo() {
    // verboo trusts the user's own file as written: the default gate lets it run.
    let user = TWO_CONTEXTS;
    let setup = Setup::new(Dialect::Verboo, user);
    let loaded = load(&load_options(&setup)).unwrap();
    let outcome = Engine::new(loaded.registry)
        .dispatch(&setup.input(post_tool_use()))
        .await;
    assert!(outcome.runs.iter().all(|run| run.status == RunStatus::Ok));
}

#[cfg(feature = "trust")]
#[tokio::test]
async fn each_handler_is_reported_as_it_finishes_and_its_context_kept_apart() {
    let setup = Setup::new(Dialect::Verboo, TWO_CONTEXTS);
    let hooks = Hooks::load(load_options(&setup)).unwrap();
    let seen = Mutex::new(Vec::new());
    let outcome = hooks
        .engine()
        .dispatch_observed(&setup.input(post_tool_use()), |run| {
            seen.lock()
                .unwrap()
                .push((run.key.clone(), format!("{:?}", run.status)));
        })
        .await;
    let mut seen = seen.into_inner().unwrap();
    seen.sort();
    let mut runs: Vec<_> = outcome
        .runs
        .iter()
        .map(|run| (run.key.clone(), format!("{:?}", run.status)))
        .collect();
    runs.sort();
    assert_eq!(seen, runs, "every run reported once");
    assert_eq!(
        outcome.additional_context.as_deref(),
        Some("first\n\nsecond")
    );
    let per_hook: Vec<(&str, &str)> = outcome
        .additional_contexts
        .iter()
        .map(|c| (c.key.as_str(), c.text.as_str()))
        .collect();
    assert_eq!(
        per_hook,
        [
            (outcome.runs[0].key.as_str(), "first"),
            (outcome.runs[1].key.as_str(), "second")
        ]
    );
}

#[cfg(feature = "trust")]
#[tokio::test]
async fn hooks_load_gates_by_trust_and_reload_sees_a_new_grant() {
    let setup = project_setup(TWO_CONTEXTS);
    let mut hooks = Hooks::load(load_options(&setup)).unwrap();
    let outcome = hooks.engine().dispatch(&setup.input(post_tool_use())).await;
    assert!(
        outcome
            .runs
            .iter()
            .all(|run| run.skip_reason == Some(SkipReason::Untrusted)),
        "{:?}",
        outcome.runs
    );

    // The user trusts one hook: after a reload it runs, the other is still skipped.
    let handler = &hooks.engine().registry().handlers()[0];
    let store = hook_exec::store_for(Dialect::Verboo, &setup.path("home"));
    let view = hooks.trust();
    view.trust(store.as_ref(), &[view.candidate(handler)])
        .unwrap();
    hooks.reload().unwrap();
    let outcome = hooks.engine().dispatch(&setup.input(post_tool_use())).await;
    assert_eq!(outcome.runs[0].status, RunStatus::Ok, "{:?}", outcome.runs);
    assert_eq!(outcome.runs[1].skip_reason, Some(SkipReason::Untrusted));
    assert_eq!(outcome.additional_context.as_deref(), Some("first"));

    // A config edit is seen by the next reload too.
    std::fs::write(
        setup.path("project").join(".claude/settings.json"),
        r#"{"hooks": {}}"#,
    )
    .unwrap();
    hooks.reload().unwrap();
    let outcome = hooks.engine().dispatch(&setup.input(post_tool_use())).await;
    assert!(outcome.runs.is_empty());
}

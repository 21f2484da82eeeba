//! Async (background) handlers: they never block or rewrite, their results are collected later,
//! each by the session and turn that started it, and they can be cancelled at session end.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::time::Duration;

use crate::common::{Setup, pre_tool_use, statuses};
use hook_exec::EngineOptions;
use hook_protocol::{Decision, Dialect, Event, RunStatus};
use serde_json::json;

const LIME_ASYNC: &str = r#"
[[hooks.UserPromptSubmit]]
[[hooks.UserPromptSubmit.hooks]]
type = "command"
command = "cat > input-$$; sleep 0.2; grep -o '\"session_id\":\"[^\"]*\"' input-$$; rm input-$$"
async = true
[[hooks.UserPromptSubmit.hooks]]
type = "command"
command = "echo 'not allowed' >&2; exit 2"
async = true
"#;

fn prompt(session: &str, turn: &str) -> serde_json::Value {
    json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi",
        "session_id": session, "turn_id": turn})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lime_async_results_reach_only_the_session_and_turn_that_started_them() {
    let setup = Setup::new(Dialect::Lime, LIME_ASYNC);
    let engine = setup.engine(EngineOptions::default());

    let a = engine.dispatch(&setup.input(prompt("A", "t1"))).await;
    let b = engine.dispatch(&setup.input(prompt("B", "t7"))).await;
    for outcome in [&a, &b] {
        // Started in the background: nothing to decide now, and the exit 2 never blocks.
        assert_eq!(statuses(outcome), [RunStatus::Async, RunStatus::Async]);
        assert_eq!(outcome.decision, Decision::Continue);
        assert_eq!(outcome.additional_context, None);
    }
    assert_eq!(engine.pending_async("A"), 2);
    assert!(engine.collect_async("A", Some("t2")).await.is_empty());

    let from_b = engine.collect_async("B", None).await;
    assert_eq!(from_b.len(), 2);
    assert!(from_b.iter().all(|r| r.session_id == "B"));
    assert!(from_b.iter().all(|r| r.turn_id.as_deref() == Some("t7")));
    assert_eq!(
        from_b[0].additional_context.as_deref(),
        Some("\"session_id\":\"B\"")
    );
    assert_eq!(from_b[0].event, Event::UserPromptSubmit);
    // The exit 2 ran, was read, and its block was dropped with a warning.
    assert_eq!(from_b[1].run.status, RunStatus::Ok);
    assert_eq!(from_b[1].run.exit_code, Some(2));
    assert!(
        from_b[1].run.warnings[0].starts_with("decision `block` (not allowed) dropped"),
        "{:?}",
        from_b[1].run.warnings
    );
    assert_eq!(engine.pending_async("B"), 0);
    assert_eq!(
        engine.pending_async("A"),
        2,
        "B's collection left A's alone"
    );

    let from_a = engine.collect_async("A", Some("t1")).await;
    assert_eq!(from_a.len(), 2);
    assert_eq!(
        from_a[0].additional_context.as_deref(),
        Some("\"session_id\":\"A\"")
    );
    assert!(
        engine.collect_async("A", None).await.is_empty(),
        "delivered once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verboo_async_hooks_can_never_approve_or_rewrite() {
    let output = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "permissionDecisionReason": "fine",
        "updatedInput": {"command": "true"}, "additionalContext": "checked later"}});
    let config = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("echo '{output}'"), "async": true},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let engine = setup.engine(EngineOptions::default());
    let outcome = engine
        .dispatch(&setup.input(pre_tool_use("Bash", "rm -rf /")))
        .await;
    assert_eq!(statuses(&outcome), [RunStatus::Async]);
    assert_eq!(outcome.decision, Decision::Continue);
    assert_eq!(outcome.updated_input, None);

    let results = engine.collect_async("s1", None).await;
    assert_eq!(results.len(), 1);
    let result = &results[0];
    assert_eq!(result.turn_id, None, "verboo's PreToolUse has no turn_id");
    assert_eq!(result.run.status, RunStatus::Ok);
    assert_eq!(result.additional_context.as_deref(), Some("checked later"));
    let warnings = result.run.warnings.join("\n");
    assert!(
        warnings.contains("decision `allow` (fine) dropped"),
        "{warnings}"
    );
    assert!(warnings.contains("updated input dropped"), "{warnings}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_hooks_run_at_most_max_async_at_once() {
    // Each hook holds a lock directory while it runs; an overlap makes one of them fail.
    let hook =
        "mkdir ../lock 2>/dev/null || { echo overlap >&2; exit 1; }; sleep 0.1; rmdir ../lock";
    let config = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": format!("{hook} # 1"), "async": true},
        {"type": "command", "command": format!("{hook} # 2"), "async": true},
        {"type": "command", "command": format!("{hook} # 3"), "async": true},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let engine = setup.engine(EngineOptions::default().with_max_async(1));
    let outcome = engine
        .dispatch(&setup.input(json!({"hook_event_name": "Stop", "stop_hook_active": false})))
        .await;
    assert_eq!(statuses(&outcome), [RunStatus::Async; 3]);
    let results = engine.collect_async("s1", None).await;
    let statuses: Vec<_> = results.iter().map(|r| r.run.status).collect();
    assert_eq!(statuses, [RunStatus::Ok; 3], "{results:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_session_kills_its_async_hooks_and_drops_their_results() {
    let config = r#"
[[hooks.UserPromptSubmit]]
[[hooks.UserPromptSubmit.hooks]]
type = "command"
command = "echo $$ > ../pid-$HOOK_EVENT; sleep 30"
async = true
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let engine = setup.engine(EngineOptions::default());
    engine.dispatch(&setup.input(prompt("A", "t1"))).await;
    engine.dispatch(&setup.input(prompt("B", "t1"))).await;
    let pid_file = setup.path("pid-UserPromptSubmit");
    // A bounded wait for the hook to start (not a timing assertion).
    for _ in 0..500 {
        if std::fs::read_to_string(&pid_file).is_ok_and(|p| p.ends_with('\n')) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let pid = std::fs::read_to_string(&pid_file).unwrap();

    assert_eq!(engine.cancel_async("A"), 1);
    assert_eq!(engine.cancel_async("B"), 1);
    assert_eq!(engine.pending_async("A"), 0);
    assert!(engine.collect_async("A", None).await.is_empty());
    let mut gone = false;
    for _ in 0..250 {
        gone = !std::path::Path::new(&format!("/proc/{}", pid.trim())).exists()
            || std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).is_ok_and(|s| {
                s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            });
        if gone {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gone, "the cancelled hook {pid} is still running");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_is_ignored_with_a_warning_at_lime_session_end() {
    let config = r#"
[[hooks.SessionEnd]]
[[hooks.SessionEnd.hooks]]
type = "command"
command = "exit 0"
async = true
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let engine = setup.engine(EngineOptions::default());
    let outcome = engine
        .dispatch(&setup.input(json!({"hook_event_name": "SessionEnd"})))
        .await;
    assert_eq!(statuses(&outcome), [RunStatus::Ok]);
    assert!(outcome.runs[0].warnings[0].contains("`async` is ignored"));
}

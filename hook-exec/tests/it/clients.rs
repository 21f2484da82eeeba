//! `prompt`/`agent` handlers through a `ModelClient` and `mcp_tool` handlers through an
//! `McpClient`: in-test implementations of the traits (the embedder's extension points), and the
//! OpenAI-compatible client against a real server on 127.0.0.1.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::sync::{Arc, Mutex};

use crate::common::{Setup, pre_tool_use, statuses};
use hook_exec::{
    BoxFuture, EngineOptions, McpClient, McpError, ModelClient, ModelError, ModelRequest,
};
use hook_protocol::{Decision, Dialect, HandlerType, RunStatus, SkipReason};
use serde_json::{Value, json};

/// A model that always gives the same reply, and records what it was asked.
#[derive(Clone)]
struct Scripted {
    reply: Result<String, String>,
    asked: Arc<Mutex<Vec<ModelRequest>>>,
}

impl Scripted {
    fn new(reply: Result<&str, &str>) -> Scripted {
        Scripted {
            reply: reply.map(str::to_owned).map_err(str::to_owned),
            asked: Arc::default(),
        }
    }
}

impl ModelClient for Scripted {
    fn complete(&self, request: ModelRequest) -> BoxFuture<'_, Result<String, ModelError>> {
        self.asked.lock().unwrap().push(request);
        let reply = self.reply.clone().map_err(ModelError::new);
        Box::pin(async move { reply })
    }
}

fn wuu_prompt_setup() -> Setup {
    let config = json!({"hooks": {"PreToolUse": [
        {"matcher": "bash", "type": "prompt", "prompt": "Is this safe? $ARGUMENTS", "model": "fast"},
        {"matcher": "bash", "command": "touch ../after"},
    ]}});
    Setup::new(Dialect::Wuu, &config.to_string())
}

#[tokio::test]
async fn wuu_prompt_hooks_block_on_ok_false_and_fail_open_otherwise() {
    let setup = wuu_prompt_setup();
    let input = setup.input(pre_tool_use("bash", "rm -rf /"));

    let model = Scripted::new(Ok(
        "```json\n{\"ok\": false, \"reason\": \"destructive\"}\n```",
    ));
    let engine = setup
        .engine(EngineOptions::default())
        .with_model_client(model.clone());
    let outcome = engine.dispatch(&input).await;
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("destructive"));
    assert_eq!(statuses(&outcome), [RunStatus::Blocked, RunStatus::Skipped]);
    let asked = model.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].kind, HandlerType::Prompt);
    assert_eq!(asked[0].model.as_deref(), Some("fast"));
    assert_eq!(
        asked[0].prompt,
        format!("Is this safe? {}", input.to_value())
    );
    assert!(asked[0].system.contains("{\"ok\": false"));

    // A failed request, an unparsable reply, no client: the hook allows and says why.
    for (model, why) in [
        (
            Scripted::new(Err("connection refused")),
            "the model request failed: connection refused",
        ),
        (
            Scripted::new(Ok("sure, go ahead")),
            "the model's reply is not",
        ),
        (
            Scripted::new(Ok("{\"reason\": \"no ok\"}")),
            "the model's reply is not",
        ),
    ] {
        let engine = setup
            .engine(EngineOptions::default())
            .with_model_client(model);
        let outcome = engine.dispatch(&input).await;
        assert_eq!(outcome.decision, Decision::Continue);
        assert_eq!(statuses(&outcome), [RunStatus::Ok, RunStatus::Ok]);
        let warning = &outcome.runs[0].warnings[0];
        assert!(warning.starts_with(why), "{warning}");
        assert!(warning.ends_with("wuu prompt hooks fail open, so this one allowed"));
    }
    let outcome = setup
        .engine(EngineOptions::default())
        .dispatch(&input)
        .await;
    assert_eq!(outcome.runs[0].skip_reason, Some(SkipReason::NoClient));
    assert_eq!(outcome.decision, Decision::Continue);
}

#[tokio::test]
async fn verboo_prompt_and_agent_hooks_follow_verboos_rules() {
    let config = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "prompt", "prompt": "Are the tests green?"},
        {"type": "agent", "prompt": "Verify: $ARGUMENTS", "model": "big"},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let input = setup.input(json!({"hook_event_name": "Stop", "stop_hook_active": false}));

    let outcome = setup
        .engine(EngineOptions::default())
        .dispatch(&input)
        .await;
    assert_eq!(statuses(&outcome), [RunStatus::Skipped, RunStatus::Skipped]);
    assert_eq!(outcome.runs[0].skip_reason, Some(SkipReason::NoClient));

    let model = Scripted::new(Ok("{\"ok\": false, \"reason\": \"2 tests fail\"}"));
    let outcome = setup
        .engine(EngineOptions::default())
        .with_model_client(model.clone())
        .dispatch(&input)
        .await;
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("2 tests fail"));
    let asked = model.asked.lock().unwrap().clone();
    let kinds: Vec<_> = asked.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [HandlerType::Prompt, HandlerType::Agent]);
    // No `$ARGUMENTS`: the event JSON follows the prompt.
    assert_eq!(
        asked[0].prompt,
        format!("Are the tests green?\n\n{}", input.to_value())
    );

    let outcome = setup
        .engine(EngineOptions::default())
        .with_model_client(Scripted::new(Err("HTTP 503")))
        .dispatch(&input)
        .await;
    assert_eq!(statuses(&outcome), [RunStatus::Failed, RunStatus::Failed]);
    assert_eq!(outcome.decision, Decision::Continue);
    assert_eq!(
        outcome.runs[0].error.as_deref(),
        Some("the model request failed: HTTP 503")
    );
}

#[tokio::test]
async fn lime_never_runs_prompt_hooks_even_with_a_client() {
    let config = r#"
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "prompt"
prompt = "done?"
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let model = Scripted::new(Ok("{\"ok\": false}"));
    let outcome = setup
        .engine(EngineOptions::default())
        .with_model_client(model.clone())
        .dispatch(
            &setup.input(json!({"hook_event_name": "Stop", "stop_hook_active": false,
            "last_assistant_message": null})),
        )
        .await;
    assert_eq!(outcome.runs[0].skip_reason, Some(SkipReason::Unsupported));
    assert!(model.asked.lock().unwrap().is_empty());
}

/// An MCP client whose tools answer from a script, recording every call.
#[derive(Clone, Default)]
struct Tools {
    calls: Arc<Mutex<Vec<(String, String, Value)>>>,
}

impl McpClient for Tools {
    fn call_tool<'a>(
        &'a self,
        server: &'a str,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<Value, McpError>> {
        self.calls
            .lock()
            .unwrap()
            .push((server.to_owned(), tool.to_owned(), arguments.clone()));
        Box::pin(async move {
            match tool {
                "deny_rm"
                    if arguments["cmd"]
                        .as_str()
                        .is_some_and(|c| c.contains("rm -rf")) =>
                {
                    Ok(
                        json!({"content": [], "structuredContent": {"hookSpecificOutput": {
                        "hookEventName": "PreToolUse", "permissionDecision": "deny",
                        "permissionDecisionReason": format!("{server} says no")}}}),
                    )
                }
                "deny_rm" => Ok(json!({"content": [{"type": "text", "text": "{}"}]})),
                "broken" => Err(McpError::new("server `guard` is not connected")),
                _ => Ok(
                    json!({"isError": true, "content": [{"type": "text", "text": "unknown tool"}]}),
                ),
            }
        })
    }
}

const LIME_MCP: &str = r#"
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "mcp_tool"
server = "guard"
tool = "deny_rm"
input = { cmd = "${tool_input.command}", all = "${tool_input}", note = "turn ${turn_id}" }
[[hooks.PreToolUse.hooks]]
type = "mcp_tool"
server = "guard"
tool = "deny_rm"
input = { cmd = "${tool_input.missing}" }
[[hooks.PreToolUse.hooks]]
type = "mcp_tool"
server = "guard"
tool = "broken"
[[hooks.PreToolUse.hooks]]
type = "mcp_tool"
server = "guard"
tool = "other"
"#;

#[tokio::test]
async fn mcp_tool_hooks_expand_their_input_and_read_the_result_as_output() {
    let setup = Setup::new(Dialect::Lime, LIME_MCP);
    let tools = Tools::default();
    let engine = setup
        .engine(EngineOptions::default())
        .with_mcp_client(tools.clone());
    let outcome = engine
        .dispatch(&setup.input(pre_tool_use("Bash", "rm -rf /")))
        .await;
    use RunStatus::{Blocked, Failed};
    assert_eq!(
        statuses(&outcome),
        [Blocked, Failed, Failed, Failed],
        "{outcome:#?}"
    );
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("guard says no"));
    let errors: Vec<_> = outcome.runs[1..]
        .iter()
        .map(|r| r.error.clone().unwrap())
        .collect();
    assert!(errors[0].contains("`${tool_input.missing}` names a field this event does not have"));
    assert_eq!(
        errors[1],
        "the MCP tool call failed: server `guard` is not connected"
    );
    assert_eq!(errors[2], "the tool reported an error: unknown tool");

    // The missing path was never sent; the whole-string placeholder kept its type.
    let calls = tools.calls.lock().unwrap().clone();
    let called: Vec<_> = calls.iter().map(|(_, tool, _)| tool.as_str()).collect();
    assert_eq!(called, ["deny_rm", "broken", "other"]);
    assert_eq!(
        calls[0].2,
        json!({"cmd": "rm -rf /", "all": {"command": "rm -rf /"}, "note": "turn t1"})
    );

    let outcome = engine
        .dispatch(&setup.input(pre_tool_use("Bash", "ls")))
        .await;
    assert_eq!(outcome.runs[0].status, RunStatus::Ok);
    assert_eq!(outcome.decision, Decision::Continue);
}

#[tokio::test]
async fn mcp_tool_hooks_need_a_client_and_never_run_at_session_end() {
    let config = r#"
[[hooks.SessionEnd]]
[[hooks.SessionEnd.hooks]]
type = "mcp_tool"
server = "guard"
tool = "log"
[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "mcp_tool"
server = "guard"
tool = "log"
"#;
    let setup = Setup::new(Dialect::Lime, config);
    let tools = Tools::default();
    let engine = setup
        .engine(EngineOptions::default())
        .with_mcp_client(tools.clone());
    let outcome = engine
        .dispatch(&setup.input(json!({"hook_event_name": "SessionEnd"})))
        .await;
    assert_eq!(outcome.runs[0].skip_reason, Some(SkipReason::Unsupported));
    assert!(tools.calls.lock().unwrap().is_empty());

    let outcome = setup
        .engine(EngineOptions::default())
        .dispatch(&setup.input(json!({"hook_event_name": "SessionStart", "source": "startup"})))
        .await;
    assert_eq!(outcome.runs[0].skip_reason, Some(SkipReason::NoClient));
}

#[test]
fn an_engine_with_clients_is_shareable_and_its_dispatch_future_is_send() {
    fn send_sync<T: Send + Sync>(_: &T) {}
    fn send<T: Send>(_: &T) {}
    let setup = Setup::new(Dialect::Verboo, "{}");
    let engine = setup
        .engine(EngineOptions::default())
        .with_model_client(Scripted::new(Ok("{\"ok\": true}")))
        .with_mcp_client(Tools::default());
    send_sync(&engine);
    let input = setup.input(json!({"hook_event_name": "Stop", "stop_hook_active": false}));
    send(&engine.dispatch(&input));
    send(&engine.collect_async("s1", None));
}

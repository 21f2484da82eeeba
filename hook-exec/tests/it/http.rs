//! verboo `http` handlers against a real HTTP server on 127.0.0.1.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(all(unix, feature = "http"))]

use std::time::Duration;

use crate::common::{Reply, Server, Setup, pre_tool_use, statuses};
use hook_exec::{EngineOptions, ModelClient, ModelRequest, OpenAiCompatibleClient};
use hook_protocol::{Decision, Dialect, HandlerType, RunStatus};
use serde_json::{Value, json};

fn http_hook(url: String) -> Value {
    json!({"type": "http", "url": url, "timeout": 1})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2xx_json_reply_is_the_hooks_output_and_only_allowed_variables_reach_headers() {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "no rm -rf here"}});
    let server = Server::start(move |_| Reply::new(200, deny.to_string())).await;
    let config = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
        "type": "http", "url": format!("{}/check", server.url),
        "headers": {"Authorization": "Bearer $HOME", "X-Path": "[${PATH}]"},
        "allowedEnvVars": ["HOME"],
    }]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let engine = setup.engine(EngineOptions::default());
    let input = setup.input(pre_tool_use("Bash", "rm -rf /"));
    let outcome = engine.dispatch(&input).await;

    assert_eq!(statuses(&outcome), [RunStatus::Blocked], "{outcome:#?}");
    assert_eq!(outcome.decision, Decision::Block);
    assert_eq!(outcome.reason.as_deref(), Some("no rm -rf here"));
    assert_eq!(
        outcome.runs[0].warnings,
        ["header `X-Path`: $PATH is not in allowedEnvVars, so it was left empty"]
    );

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert!(
        request.head.starts_with("POST /check HTTP/1.1"),
        "{}",
        request.head
    );
    assert_eq!(
        request.header("content-type").as_deref(),
        Some("application/json")
    );
    let home = std::env::var("HOME").unwrap_or_default();
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {home}"))
    );
    assert_eq!(request.header("x-path").as_deref(), Some("[]"));
    let body: Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(body, input.to_value());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anything_but_a_2xx_reply_is_a_non_blocking_error() {
    let server = Server::start(|request| match request.path() {
        "/context" => Reply::new(
            200,
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"seen"}}"#,
        ),
        "/empty" => Reply::new(204, ""),
        "/error" => Reply::new(500, "database down"),
        "/blocked-by-status" => Reply::new(403, r#"{"decision":"block","reason":"x"}"#),
        "/slow" => Reply {
            delay: Duration::from_secs(5),
            ..Reply::new(200, r#"{"decision":"block","reason":"late"}"#)
        },
        "/big" => Reply::new(200, vec![b' '; 2 * 1024 * 1024]),
        _ => Reply::new(404, ""),
    })
    .await;
    // A port nothing listens on: bind one, then free it.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/", listener.local_addr().unwrap())
    };
    let url = |path: &str| format!("{}{path}", server.url);
    let config = json!({"hooks": {"PostToolUse": [{"hooks": [
        http_hook(url("/context")),
        http_hook(url("/empty")),
        http_hook(url("/error")),
        http_hook(url("/blocked-by-status")),
        http_hook(url("/slow")),
        http_hook(url("/big")),
        http_hook(closed),
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let engine = setup.engine(EngineOptions::default());
    let event = json!({"hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {}, "tool_response": {}});
    let outcome = engine.dispatch(&setup.input(event)).await;

    use RunStatus::{Failed, Ok, TimedOut};
    assert_eq!(
        statuses(&outcome),
        [Ok, Ok, Failed, Failed, TimedOut, Failed, Failed],
        "{outcome:#?}"
    );
    assert_eq!(outcome.decision, Decision::Continue);
    assert_eq!(outcome.additional_context.as_deref(), Some("seen"));
    let errors: Vec<&str> = outcome
        .runs
        .iter()
        .map(|r| r.error.as_deref().unwrap_or(""))
        .collect();
    assert!(
        errors[2].ends_with("answered HTTP 500 Internal Server Error: database down"),
        "{}",
        errors[2]
    );
    assert!(errors[3].contains("answered HTTP 403"), "{}", errors[3]);
    assert!(
        errors[4].starts_with("timed out after 1 s"),
        "{}",
        errors[4]
    );
    assert!(
        errors[5].contains("went over 1048576 bytes"),
        "{}",
        errors[5]
    );
    assert!(
        errors[6].starts_with("cannot connect to http://127.0.0.1:"),
        "{}",
        errors[6]
    );
    // Every failure reaches the user.
    assert_eq!(outcome.system_messages.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_object_reply_continues() {
    let server = Server::start(|_| Reply::new(200, "{}")).await;
    let config = json!({"hooks": {"Stop": [{"hooks": [http_hook(server.url.clone())]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let outcome = setup
        .engine(EngineOptions::default())
        .dispatch(&setup.input(json!({"hook_event_name": "Stop", "stop_hook_active": false})))
        .await;
    assert_eq!(statuses(&outcome), [RunStatus::Ok]);
    assert_eq!(
        outcome.runs[0].handler_type,
        hook_protocol::HandlerType::Http
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openai_compatible_client_talks_to_a_chat_endpoint() {
    let server = Server::start(|_| {
        let content = "{\"ok\": false, \"reason\": \"not on Fridays\"}";
        Reply::new(
            200,
            json!({"choices": [{"message": {"role": "assistant", "content": content}}]})
                .to_string(),
        )
    })
    .await;
    let client =
        OpenAiCompatibleClient::new(format!("{}/v1/", server.url), Some("k3y".into()), "small");
    assert_eq!(
        client.endpoint(),
        format!("{}/v1/chat/completions", server.url)
    );
    let config = json!({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "prompt", "prompt": "Allowed? $ARGUMENTS"},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let input = setup.input(json!({"hook_event_name": "UserPromptSubmit", "prompt": "deploy"}));
    let outcome = setup
        .engine(EngineOptions::default())
        .with_model_client(client)
        .dispatch(&input)
        .await;
    assert_eq!(outcome.decision, Decision::Block, "{outcome:#?}");
    assert_eq!(outcome.reason.as_deref(), Some("not on Fridays"));

    let request = &server.requests()[0];
    assert!(request.head.starts_with("POST /v1/chat/completions "));
    assert_eq!(
        request.header("authorization").as_deref(),
        Some("Bearer k3y")
    );
    let body: Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(body["model"], "small");
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(
        body["messages"][1]["content"],
        format!("Allowed? {}", input.to_value())
    );

    // A server error is a failed request.
    let failing = Server::start(|_| Reply::new(500, "overloaded")).await;
    let client = OpenAiCompatibleClient::new(failing.url.clone(), None, "m");
    let error = client
        .complete(ModelRequest::new(
            HandlerType::Prompt,
            "p",
            std::time::Duration::from_secs(5),
        ))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("answered HTTP 500"), "{error}");
    assert!(failing.requests()[0].header("authorization").is_none());
}

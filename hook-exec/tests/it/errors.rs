//! What an embedder can tell apart: every failure of a handler is a typed error whose variant
//! says what happened, with its cause as `source()`. Real processes, real libraries and a real
//! HTTP server on 127.0.0.1.
#![cfg(unix)]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::error::Error as _;
use std::path::Path;
use std::time::Duration;

use crate::native::raw_plugin::custom_plugin;
use hook_exec::command::{CommandError, CommandSpec, run_command};
use hook_exec::native::{LibraryError, NativeError, call_library};
use hook_exec::{McpError, ModelError};
use hook_protocol::Dialect;

#[tokio::test]
async fn a_child_that_leaves_the_group_holding_the_output_is_pipes_held_open() {
    // `setsid` puts the child in a session of its own: killing the hook's group misses it.
    let mut spec = CommandSpec::new("setsid sleep 2 & exit 0", ".", Duration::from_secs(10));
    spec.pipe_grace = Duration::from_millis(100);
    let run = run_command(&spec).await;
    let Err(CommandError::PipesHeldOpen { grace }) = run.end else {
        panic!("{:?}", run.end);
    };
    assert_eq!(grace, Duration::from_millis(100));
    assert_eq!(run.exit_code, Some(0));
}

#[tokio::test]
async fn a_shell_that_cannot_start_is_a_spawn_error_with_the_os_error_as_source() {
    // One argument longer than the kernel takes (128 KiB on Linux): exec fails with E2BIG, so
    // the shell never starts, in a directory that exists.
    let dir = tempfile::tempdir().unwrap();
    let command = format!("echo {}", "x".repeat(256 * 1024));
    let spec = CommandSpec::new(command, dir.path(), Duration::from_secs(5));
    let run = run_command(&spec).await;
    let Err(error) = run.end else {
        panic!("a 256 KiB argument was accepted");
    };
    let CommandError::Spawn { cwd, source } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(cwd, dir.path());
    assert_eq!(source.raw_os_error(), Some(nix::libc::E2BIG));
    assert!(error.source().is_some());
    assert_eq!(
        error.to_string(),
        format!("cannot start the hook: {source}")
    );
}

#[tokio::test]
async fn native_failures_are_told_apart_load_abi_refusal_and_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let call = |path: &Path, timeout| {
        let path = path.to_owned();
        async move { call_library(&path, Dialect::Verboo, b"{}", timeout).await }
    };
    let second = Duration::from_secs(30);

    // No file: the library cannot be read.
    let missing = dir.path().join("missing.so");
    let error = call(&missing, second).await.unwrap_err();
    assert!(
        matches!(error, NativeError::Library(LibraryError::Open { .. })),
        "{error:?}"
    );

    // A file the dynamic loader refuses: the loader's error is the source, behind this crate's
    // own type (libloading is 0.x: its error is not part of hook-exec's API).
    let text = dir.path().join("text.so");
    std::fs::write(&text, "not a library").unwrap();
    let error = call(&text, second).await.unwrap_err();
    let NativeError::Load { path, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!(path, &text);
    assert!(
        error
            .source()
            .is_some_and(|s| s.downcast_ref::<hook_exec::native::LoaderError>().is_some()),
        "{error:?}"
    );
    assert!(
        error.to_string().starts_with(&format!(
            "native library {} cannot be loaded: ",
            text.display()
        )),
        "{error}"
    );

    // A plugin of another ABI major: never called.
    let foreign = custom_plugin("abi_two", "2.0.0", "7");
    let error = call(&foreign, second).await.unwrap_err();
    assert!(
        matches!(&error, NativeError::IncompatibleAbi { plugin, .. } if plugin == "2.0.0"),
        "{error:?}"
    );
    assert!(error.to_string().contains("rebuild the plugin"), "{error}");

    // A plugin that refuses to answer.
    let refuses = custom_plugin("refuses", "1.0.0", "7");
    let error = call(&refuses, second).await.unwrap_err();
    assert!(
        matches!(error, NativeError::CallFailed { status: 7, .. }),
        "{error:?}"
    );

    // A plugin that hangs: the limit is in the error.
    let hangs = custom_plugin(
        "hangs",
        "1.0.0",
        "std::thread::sleep(std::time::Duration::from_secs(2)); 0",
    );
    let limit = Duration::from_millis(200);
    let error = call(&hangs, limit).await.unwrap_err();
    assert!(
        matches!(error, NativeError::TimedOut { limit: l } if l == limit),
        "{error:?}"
    );
}

#[test]
fn vendors_build_model_and_mcp_errors_an_embedder_can_match() {
    let cause = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "peer reset");
    let error = ModelError::with_source("the model gateway dropped the request", cause);
    assert!(matches!(error, ModelError::Client { .. }), "{error:?}");
    assert_eq!(error.to_string(), "the model gateway dropped the request");
    let source = error.source().unwrap();
    assert_eq!(
        source.downcast_ref::<std::io::Error>().unwrap().kind(),
        std::io::ErrorKind::ConnectionReset
    );

    let server = McpError::server("guard", "server `guard` is not connected");
    assert!(matches!(&server, McpError::Server { server, .. } if server == "guard"));
    let tool = McpError::tool("guard", "scan", "unknown tool `scan`");
    assert!(
        matches!(&tool, McpError::Tool { server, tool, .. } if server == "guard" && tool == "scan")
    );
    let protocol = McpError::protocol("the reply is not JSON-RPC")
        .with_source(serde_json::from_str::<serde_json::Value>("{").unwrap_err());
    assert!(matches!(protocol, McpError::Protocol { .. }));
    assert!(
        protocol
            .source()
            .is_some_and(|s| s.downcast_ref::<serde_json::Error>().is_some())
    );
    assert!(matches!(McpError::new("?"), McpError::Other { .. }));
}

/// `http` (feature): transport, status and timeout, from a hook's POST and from the model
/// client.
#[cfg(feature = "http")]
mod http {
    use std::error::Error as _;
    use std::time::Duration;

    use hook_exec::{HttpError, post_hook};
    use hook_exec::{ModelClient, ModelError, ModelRequest, OpenAiCompatibleClient};
    use hook_protocol::HandlerType;

    use crate::common::{Reply, Server};

    /// A loopback port nothing listens on: bound, then freed.
    fn closed_port() -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        drop(listener);
        url
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_refused_connection_a_500_and_a_timeout_are_three_variants() {
        let second = Duration::from_secs(5);
        let refused = closed_port();
        let error = post_hook(&refused, &[], b"{}".to_vec(), second)
            .await
            .unwrap_err();
        let HttpError::Transport { url, source } = &error else {
            panic!("{error:?}");
        };
        assert_eq!(url, &refused);
        assert!(source.is_connect(), "{source:?}");
        assert!(
            error
                .to_string()
                .starts_with(&format!("cannot connect to {refused}: ")),
            "{error}"
        );

        let server = Server::start(|request| match request.path() {
            "/slow" => Reply {
                delay: Duration::from_secs(3),
                ..Reply::new(200, "{}")
            },
            _ => Reply::new(500, "database down"),
        })
        .await;
        let error = post_hook(&format!("{}/down", server.url), &[], Vec::new(), second)
            .await
            .unwrap_err();
        assert!(
            matches!(&error, HttpError::Status { status: 500, body, .. } if body == "database down"),
            "{error:?}"
        );
        assert_eq!(error.status(), Some(500));
        assert_eq!(
            error.to_string(),
            format!(
                "{}/down answered HTTP 500 Internal Server Error: database down",
                server.url
            )
        );

        let limit = Duration::from_millis(300);
        let error = post_hook(&format!("{}/slow", server.url), &[], Vec::new(), limit)
            .await
            .unwrap_err();
        assert!(
            matches!(error, HttpError::TimedOut { limit: l, .. } if l == limit),
            "{error:?}"
        );
    }

    fn request(timeout: Duration) -> ModelRequest {
        ModelRequest::new(HandlerType::Prompt, "p", timeout)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_model_client_wraps_the_http_error_and_tells_a_reply_it_cannot_read() {
        let second = Duration::from_secs(5);
        let client = OpenAiCompatibleClient::new(closed_port(), None, "m");
        let error = client.complete(request(second)).await.unwrap_err();
        let ModelError::Http {
            source: HttpError::Transport { source, .. },
            ..
        } = &error
        else {
            panic!("{error:?}");
        };
        assert!(source.is_connect(), "{source:?}");
        assert!(error.to_string().starts_with("cannot reach "), "{error}");

        let server = Server::start(|request| match request.path() {
            "/text/chat/completions" => Reply::new(200, "hello"),
            "/slow/chat/completions" => Reply {
                delay: Duration::from_secs(3),
                ..Reply::new(200, "{}")
            },
            _ => Reply::new(503, "overloaded"),
        })
        .await;
        let client = OpenAiCompatibleClient::new(format!("{}/busy", server.url), None, "m");
        let error = client.complete(request(second)).await.unwrap_err();
        assert!(
            matches!(
                &error,
                ModelError::Http {
                    source: HttpError::Status { status: 503, .. },
                    ..
                }
            ),
            "{error:?}"
        );

        let client = OpenAiCompatibleClient::new(format!("{}/text", server.url), None, "m");
        let error = client.complete(request(second)).await.unwrap_err();
        assert!(matches!(error, ModelError::NotJson { .. }), "{error:?}");
        assert!(error.source().is_some());

        // reqwest's own per-request timeout: a transport error that says so.
        let client = OpenAiCompatibleClient::new(format!("{}/slow", server.url), None, "m");
        let error = client
            .complete(request(Duration::from_millis(300)))
            .await
            .unwrap_err();
        let ModelError::Http {
            source: HttpError::Transport { source, .. },
            ..
        } = &error
        else {
            panic!("{error:?}");
        };
        assert!(source.is_timeout(), "{source:?}");
    }
}

/// Built without `http` (`cargo test -p hook-exec --no-default-features`): a verboo http hook
/// is skipped and says why, never run silently or dropped.
#[cfg(not(feature = "http"))]
#[tokio::test]
async fn without_the_http_feature_an_http_hook_is_skipped_and_says_why() {
    use crate::common::{Setup, pre_tool_use};
    use hook_exec::EngineOptions;
    use hook_protocol::{Decision, RunStatus, SkipReason};

    let config = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "http", "url": "http://127.0.0.1:9/hook"},
        {"type": "command", "command": "exit 0"},
    ]}]}});
    let setup = Setup::new(Dialect::Verboo, &config.to_string());
    let engine = setup.engine(EngineOptions::default());
    let outcome = engine
        .dispatch(&setup.input(pre_tool_use("Bash", "ls")))
        .await;
    assert_eq!(outcome.decision, Decision::Continue);
    let http = &outcome.runs[0];
    assert_eq!(http.status, RunStatus::Skipped, "{outcome:#?}");
    assert_eq!(http.skip_reason, Some(SkipReason::Unsupported));
    assert!(
        http.error
            .as_deref()
            .is_some_and(|e| e.contains("built without the `http` feature")),
        "{http:?}"
    );
    assert_eq!(outcome.runs[1].status, RunStatus::Ok);
}

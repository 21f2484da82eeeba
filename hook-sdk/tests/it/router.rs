//! The routing layer and the dialect-aware test builders and assertions.
#![allow(clippy::unwrap_used)]

use hook_sdk::testing::{self, TestRun};
use hook_sdk::{Dialect, Event, HookError, Response, Router, Tool};
use serde_json::json;

fn router() -> Router {
    Router::new()
        .on_pre_tool_use("Bash", |call| match &call.tool {
            Tool::Bash { command, .. } if command.contains("rm -rf /") => Response::deny("rm"),
            _ => Response::none(),
        })
        .on_pre_tool_use("Bash", |call| match &call.tool {
            Tool::Bash { command, .. } if command.starts_with("npm ") => {
                Response::rewrite(call.rewritten(Tool::Bash {
                    command: command.replacen("npm", "pnpm", 1),
                    description: None,
                }))
            }
            // Never reached for `rm -rf /`: the first handler answered.
            Tool::Bash { command, .. } if command.contains("rm") => Response::deny("second"),
            _ => Response::none(),
        })
        .on_pre_tool_use("Edit", |call| {
            Response::deny(format!("edit of {}", call.tool.paths().join(",")))
        })
        .on_pre_tool_use_matching(
            |call| call.tool.paths().iter().any(|p| p.ends_with(".env")),
            |_| Response::deny("secrets"),
        )
        .on_pre_tool_use("mcp__github__create_issue", |call| match &call.tool {
            Tool::Mcp {
                server,
                tool,
                input,
            } => Response::deny(format!("{server}/{tool}/{}", input["title"])),
            _ => Response::none(),
        })
        .on_post_tool_use("Write", |result| {
            Response::context(format!("wrote {}", result.call.tool.paths()[0]))
        })
        .on_user_prompt_submit(|prompt| {
            if prompt.prompt == "fail" {
                Err(HookError::new("the handler failed"))
            } else if prompt.prompt.contains("secret") {
                Ok(Response::block("no secrets"))
            } else {
                Ok(Response::none())
            }
        })
        .on_session_start(|start| {
            if start.event().accepts_context() {
                Response::context("session context")
            } else {
                Response::none()
            }
        })
        .on_event(|event: &Event| {
            if event.name().as_str() == "Stop" {
                Response::block("keep going")
            } else {
                Response::none()
            }
        })
}

#[test]
fn the_first_handler_that_answers_wins_in_every_dialect() {
    for dialect in Dialect::ALL {
        testing::bash(dialect, "rm -rf /")
            .run(router())
            .assert_blocked_because("rm");
        testing::bash(dialect, "npm install")
            .run(router())
            .assert_allowed()
            .assert_rewritten(|input| input["command"] == "pnpm install");
        testing::bash(dialect, "ls")
            .run(router())
            .assert_no_decision();
        testing::read(dialect, "config/.env")
            .run(router())
            .assert_blocked_because("secrets");
        testing::read(dialect, "src/main.rs")
            .run(router())
            .assert_no_decision();
        testing::edit(dialect, "a.rs", "x", "y")
            .run(router())
            .assert_blocked_because("edit of a.rs");
        testing::mcp(dialect, "github", "create_issue", json!({"title": "t"}))
            .run(router())
            .assert_blocked_because("github/create_issue/\"t\"");
        testing::prompt(dialect, "a secret")
            .run(router())
            .assert_blocked_because("no secrets");
        let stderr = testing::prompt(dialect, "fail")
            .run(router())
            .assert_failed();
        assert!(stderr.contains("the handler failed"), "{stderr}");
        testing::stop(dialect)
            .run(router())
            .assert_blocked_because("keep going");
        let start = testing::session_start(dialect).run(router());
        if dialect == Dialect::Wuu {
            start.assert_no_decision();
        } else {
            start.assert_context_contains("session context");
        }
        let wrote = testing::write(dialect, "notes.md", "x").after(json!({"success": true}));
        wrote
            .run(router())
            .assert_context_contains("wrote notes.md");
    }
}

#[test]
fn tool_names_are_compared_as_each_dialect_does() {
    let call = |dialect: Dialect, name: &str, input| {
        let event = testing::TestInput::new(
            dialect,
            "PreToolUse",
            json!({"tool_name": name, "tool_input": input}),
        );
        Event::from_value(dialect, event.into_json())
            .unwrap()
            .tool_call()
            .cloned()
            .unwrap()
    };
    let bash = json!({"command": "ls"});
    let matches = hook_sdk::tool_matches;
    assert!(matches(
        Dialect::Wuu,
        "Bash",
        &call(Dialect::Wuu, "bash", bash.clone())
    ));
    assert!(matches(
        Dialect::Wuu,
        "bash",
        &call(Dialect::Wuu, "BASH", bash.clone())
    ));
    assert!(matches(
        Dialect::Verboo,
        "Bash",
        &call(Dialect::Verboo, "Bash", bash.clone())
    ));
    assert!(!matches(
        Dialect::Verboo,
        "bash",
        &call(Dialect::Verboo, "Bash", bash.clone())
    ));
    assert!(matches(
        Dialect::Lime,
        "Bash",
        &call(Dialect::Lime, "shell", bash.clone())
    ));
    assert!(matches(
        Dialect::Lime,
        "*",
        &call(Dialect::Lime, "Read", json!({"file_path": "x"}))
    ));
    assert!(!matches(
        Dialect::Lime,
        "Write",
        &call(Dialect::Lime, "Bash", bash)
    ));
    // lime's matchers select `apply_patch` for `Edit` and `Write`; verboo has no such alias.
    let patch = json!({"command": "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"});
    assert!(matches(
        Dialect::Lime,
        "Edit",
        &call(Dialect::Lime, "apply_patch", patch.clone())
    ));
    assert!(matches(
        Dialect::Lime,
        "apply_patch",
        &call(Dialect::Lime, "apply_patch", patch.clone())
    ));
    assert!(!matches(
        Dialect::Verboo,
        "Edit",
        &call(Dialect::Verboo, "apply_patch", patch)
    ));
    // Through the router: lime's patch reaches the `Edit` route with its files.
    testing::apply_patch(
        Dialect::Lime,
        "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** End Patch\n",
    )
    .run(router())
    .assert_blocked_because("edit of src/a.rs");
}

#[test]
fn an_empty_router_says_nothing_and_a_router_is_a_handler() {
    for dialect in Dialect::ALL {
        testing::bash(dialect, "rm -rf /")
            .run(Router::new())
            .assert_no_decision();
        let router = router();
        // `&Router` is a handler too: one router for many runs.
        testing::bash(dialect, "rm -rf /")
            .run(&router)
            .assert_blocked();
        testing::bash(dialect, "ls").run(&router).assert_allowed();
    }
    assert!(format!("{:?}", router()).contains("PreToolUse Bash"));
}

/// The message of the panic of `f`.
fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let payload = std::panic::catch_unwind(f).unwrap_err();
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn assertions_say_what_the_hook_did_instead() {
    let run: TestRun = testing::bash(Dialect::Verboo, "ls").run(router());
    let message = panic_message(|| {
        run.assert_blocked();
    });
    assert!(message.contains("expected a block"), "{message}");
    assert!(message.contains("verboo PreToolUse"), "{message}");
    assert!(message.contains("stdout `{}`"), "{message}");

    let run = testing::bash(Dialect::Wuu, "rm -rf /").run(router());
    let message = panic_message(|| {
        run.assert_allowed();
    });
    assert!(message.contains("expected the call to go on"), "{message}");
    assert!(message.contains("decision Block"), "{message}");
    let message = panic_message(|| {
        run.assert_rewritten(|_| true);
    });
    assert!(message.contains("expected a rewritten input"), "{message}");

    let run = testing::bash(Dialect::Lime, "npm test").run(router());
    let message = panic_message(|| {
        run.assert_rewritten(|input| input["command"] == "yarn test");
    });
    assert!(message.contains("does not pass the check"), "{message}");
    assert!(message.contains("pnpm test"), "{message}");

    let run = testing::prompt(Dialect::Lime, "fail").run(router());
    let message = panic_message(|| {
        run.assert_context_contains("x");
    });
    assert!(message.contains("the hook failed"), "{message}");
    assert!(message.contains("the handler failed"), "{message}");
}

#[test]
fn builders_spell_tools_as_each_dialect_does() {
    let name = |input: testing::TestInput| input.json()["tool_name"].clone();
    assert_eq!(name(testing::bash(Dialect::Wuu, "ls")), "bash");
    assert_eq!(name(testing::bash(Dialect::Verboo, "ls")), "Bash");
    assert_eq!(
        name(testing::multi_edit(Dialect::Wuu, "a", &[("x", "y")])),
        "multiedit"
    );
    assert_eq!(
        name(testing::apply_patch(Dialect::Lime, "p")),
        "apply_patch"
    );
    assert_eq!(
        name(testing::mcp(Dialect::Wuu, "GitHub", "Search", json!({}))),
        "mcp__GitHub__Search"
    );
    for dialect in Dialect::ALL {
        // Every builder gives an input the SDK reads in its dialect.
        for input in [
            testing::bash(dialect, "ls"),
            testing::read(dialect, "a"),
            testing::write(dialect, "a", "b"),
            testing::edit(dialect, "a", "b", "c"),
            testing::multi_edit(dialect, "a", &[("b", "c")]),
            testing::apply_patch(dialect, "*** Begin Patch\n*** End Patch\n"),
            testing::mcp(dialect, "s", "t", json!({})),
            testing::prompt(dialect, "hi"),
            testing::session_start(dialect),
            testing::stop(dialect),
            testing::bash(dialect, "ls").after(json!({"stdout": "x"})),
            testing::bash(dialect, "ls").on("PermissionRequest"),
        ] {
            let json = input.json().clone();
            Event::from_value(dialect, json.clone())
                .unwrap_or_else(|e| panic!("{dialect} {json}: {e}"));
        }
    }
    let post = testing::bash(Dialect::Wuu, "ls").after(json!({"stdout": "x"}));
    assert_eq!(post.json()["tool_response"], "{\"stdout\":\"x\"}");
    assert_eq!(post.json()["hook_event_name"], "PostToolUse");
}

#[test]
fn permission_requests_and_stops_have_routes_and_a_router_runs_natively() {
    let router = || {
        Router::new()
            .on_permission_request("Bash", |call| match &call.tool {
                Tool::Bash { command, .. } if command.starts_with("sudo") => {
                    Response::deny("no sudo")
                }
                _ => Response::none(),
            })
            .on_stop(|stop| {
                if stop.stop_hook_active {
                    Response::none()
                } else {
                    Response::block("run the tests first")
                }
            })
    };
    for dialect in Dialect::ALL {
        testing::bash(dialect, "sudo ls")
            .on("PermissionRequest")
            .run(router())
            .assert_blocked_because("no sudo");
        testing::bash(dialect, "sudo ls")
            .run(router())
            .assert_no_decision();
        testing::stop(dialect)
            .run(router())
            .assert_blocked_because("run the tests first");
    }

    // What `export_native!(router())` calls: the router is the plugin's handler.
    use hook_sdk::native::{NativeOutput, call, free};
    let input = testing::stop(Dialect::Lime).into_json().to_string();
    let mut out = NativeOutput::empty();
    // SAFETY: valid buffers and a writable output.
    #[allow(unsafe_code)]
    let status = unsafe {
        call(
            &router(),
            &hook_sdk::Options::default(),
            input.as_ptr(),
            input.len(),
            b"lime".as_ptr(),
            4,
            &mut out,
        )
    };
    assert_eq!((status, out.exit_code), (0, 0));
    // SAFETY: filled by `call` above, read before `free`.
    #[allow(unsafe_code)]
    let stdout = unsafe { std::slice::from_raw_parts(out.stdout_ptr, out.stdout_len) }.to_vec();
    assert!(
        String::from_utf8_lossy(&stdout).contains("run the tests first"),
        "{}",
        String::from_utf8_lossy(&stdout)
    );
    // SAFETY: filled by `call` above, freed once.
    #[allow(unsafe_code)]
    unsafe {
        free(&mut out)
    };
}

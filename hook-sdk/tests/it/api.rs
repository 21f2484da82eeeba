//! The author's API in memory: every response helper on every event of every dialect is either
//! written as output the protocol's validator accepts and the engine reads back without a
//! warning, or refused with a clear error; dialect inference; failures and fail-closed.
#![allow(clippy::unwrap_used)]

use hook_protocol::input::example_input;
use hook_protocol::{Decision, Dialect, Event as EventName, HandlerResult};
use hook_sdk::testing::{input, run_bytes, run_event, run_json};
use hook_sdk::{Event, EventKind, HookError, Options, Response, Tool, infer_dialect};
use serde_json::{Map, Value, json};

fn responses() -> Vec<(&'static str, Response)> {
    let mut rewrite = Map::new();
    rewrite.insert("command".into(), json!("ls -la"));
    vec![
        ("none", Response::none()),
        ("allow", Response::allow()),
        ("deny", Response::deny("no")),
        ("ask", Response::ask("sure?")),
        ("defer", Response::defer()),
        ("rewrite", Response::rewrite(rewrite.clone())),
        (
            "rewrite_and_allow",
            Response::rewrite_and_allow(rewrite.clone()),
        ),
        (
            "rewrite_and_ask",
            Response::rewrite_and_ask(rewrite, "check"),
        ),
        ("context", Response::context("ctx")),
        ("stop", Response::stop("enough")),
        ("system_message", Response::system_message("hi")),
        ("suppress", Response::none().with_suppressed_output()),
        (
            "deny+context+message",
            Response::deny("no")
                .with_context("ctx")
                .with_system_message("hi"),
        ),
    ]
}

#[test]
fn every_response_on_every_event_is_valid_output_or_a_clear_error() {
    let mut written = 0;
    for dialect in Dialect::ALL {
        for event in dialect.events() {
            for (label, response) in responses() {
                let expected = response.clone();
                let handler = move |_: &Event| response.clone();
                let run = run_json(handler, dialect, input(dialect, event.as_str(), json!({})));
                let case = format!("{dialect} {event} {label}");
                if run.exit_code != 0 {
                    assert_eq!(run.exit_code, 1, "{case}");
                    assert!(run.stdout.is_empty(), "{case}");
                    let stderr = run.stderr_text();
                    assert!(stderr.contains("cannot be written for"), "{case}: {stderr}");
                    continue;
                }
                written += 1;
                run.validate().unwrap_or_else(|e| panic!("{case}: {e}"));
                let Some(HandlerResult::Response(read)) = run.interpreted() else {
                    panic!("{case}: {:?}", run.interpreted());
                };
                assert!(read.warnings.is_empty(), "{case}: {:?}", read.warnings);
                let permission = matches!(
                    event,
                    EventName::PreToolUse
                        | EventName::PermissionRequest
                        | EventName::PreModelSwitch
                );
                let lime_pre = dialect == Dialect::Lime && *event == EventName::PreToolUse;
                let decision = match expected.decision {
                    Some(Decision::Allow) if !permission || dialect == Dialect::Wuu => None,
                    // A lime allow without a rewrite is no decision (Codex refuses a bare one).
                    Some(Decision::Allow) if lime_pre && expected.updated_input.is_none() => None,
                    // lime writes a rewrite with no decision as its allow, which only rewrites.
                    None if lime_pre && expected.updated_input.is_some() => Some(Decision::Allow),
                    // Asking the user is what a PermissionRequest without a decision does.
                    Some(Decision::Ask) if *event == EventName::PermissionRequest => None,
                    other => other,
                };
                assert_eq!(read.decision, decision, "{case}");
                assert_eq!(
                    read.additional_context, expected.additional_context,
                    "{case}"
                );
                assert_eq!(read.system_message, expected.system_message, "{case}");
                assert_eq!(read.suppress_output, expected.suppress_output, "{case}");
                assert_eq!(read.stop.is_some(), expected.stop.is_some(), "{case}");
                assert_eq!(
                    read.updated_input,
                    expected.updated_input.map(Value::Object),
                    "{case}"
                );
                if decision == Some(Decision::Block) {
                    assert_eq!(read.reason.as_deref(), Some("no"), "{case}");
                }
            }
        }
    }
    assert!(written > 300, "{written}");
}

#[test]
fn what_each_dialect_can_say_is_written_and_what_it_cannot_is_refused() {
    let on = |dialect, event: &str, response: Response| {
        run_json(
            move |_: &Event| response.clone(),
            dialect,
            input(dialect, event, json!({})),
        )
    };
    for dialect in Dialect::ALL {
        for event in [
            "PreToolUse",
            "UserPromptSubmit",
            "Stop",
            "PermissionRequest",
        ] {
            let run = on(dialect, event, Response::deny("no"));
            assert_eq!(
                (run.exit_code, run.decision()),
                (0, Decision::Block),
                "{dialect} {event}"
            );
        }
        let run = on(dialect, "PostToolUse", Response::context("formatted"));
        assert_eq!(run.exit_code, 0, "{dialect}");
        let run = on(dialect, "Stop", Response::none());
        assert_eq!(run.stdout, b"{}\n");
    }
    let refused = [
        (
            Dialect::Lime,
            "PreToolUse",
            Response::defer(),
            "lime has no `defer`",
        ),
        (
            Dialect::Wuu,
            "PreToolUse",
            Response::ask("?"),
            "wuu has no ask or defer",
        ),
        (
            Dialect::Wuu,
            "SessionStart",
            Response::context("x"),
            "wuu takes no additional context on SessionStart",
        ),
        (
            Dialect::Wuu,
            "Stop",
            Response::stop("x"),
            "wuu has no \"stop the agent\"",
        ),
        (
            Dialect::Verboo,
            "SessionStart",
            Response::deny("x"),
            "SessionStart cannot block in verboo",
        ),
        (
            Dialect::Lime,
            "Stop",
            Response::context("x"),
            "lime takes no additional context on Stop",
        ),
        (
            Dialect::Lime,
            "PermissionRequest",
            Response::rewrite(Map::new()),
            "lime accepts no rewritten input",
        ),
        (
            Dialect::Verboo,
            "PermissionRequest",
            Response::rewrite(Map::new()),
            "use Response::rewrite_and_allow",
        ),
        (
            Dialect::Lime,
            "PreToolUse",
            Response::ask("?"),
            "lime has no `ask` on PreToolUse",
        ),
        (
            Dialect::Lime,
            "PreToolUse",
            Response::stop("x"),
            "lime takes no `continue: false` on tool calls",
        ),
        (
            Dialect::Lime,
            "PostToolUse",
            Response::stop("x"),
            "use block",
        ),
    ];
    for (dialect, event, response, message) in refused {
        let run = on(dialect, event, response);
        assert_eq!(run.exit_code, 1, "{dialect} {event}");
        assert!(run.stderr_text().contains(message), "{}", run.stderr_text());
        assert!(
            run.stderr_text()
                .starts_with("hook error: the response cannot be written")
        );
    }
    // The exact wire forms.
    let run = on(Dialect::Wuu, "PreToolUse", Response::deny("no"));
    assert_eq!(run.stdout, b"{\"decision\":\"block\",\"reason\":\"no\"}\n");
    let run = on(
        Dialect::Verboo,
        "Stop",
        Response::block("keep going").with_system_message("m"),
    );
    assert_eq!(
        run.stdout_json().unwrap(),
        json!({"decision": "block", "reason": "keep going", "systemMessage": "m"})
    );
    let run = on(Dialect::Verboo, "PreToolUse", Response::ask("sure?"));
    assert_eq!(
        run.stdout_json().unwrap(),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "ask", "permissionDecisionReason": "sure?"}})
    );
    // lime as Codex reads it: a bare allow says nothing, a rewrite is an allow.
    let run = on(Dialect::Lime, "PreToolUse", Response::allow());
    assert_eq!(run.stdout_json().unwrap(), json!({}));

    // A rewrite says which decision goes with it.
    let mut ls = Map::new();
    ls.insert("command".into(), json!("ls"));
    let specific =
        |run: &hook_sdk::testing::TestRun| run.stdout_json().unwrap()["hookSpecificOutput"].clone();
    let run = on(Dialect::Verboo, "PreToolUse", Response::rewrite(ls.clone()));
    assert_eq!(
        specific(&run),
        json!({"hookEventName": "PreToolUse", "updatedInput": {"command": "ls"}})
    );
    assert_eq!(run.decision(), Decision::Continue);
    let run = on(
        Dialect::Verboo,
        "PreToolUse",
        Response::rewrite_and_allow(ls.clone()),
    );
    assert_eq!(specific(&run)["permissionDecision"], "allow");
    assert_eq!(run.decision(), Decision::Allow);
    let run = on(
        Dialect::Verboo,
        "PreToolUse",
        Response::rewrite_and_ask(ls.clone(), "pnpm, not npm"),
    );
    assert_eq!(
        specific(&run),
        json!({"hookEventName": "PreToolUse", "permissionDecision": "ask",
            "permissionDecisionReason": "pnpm, not npm", "updatedInput": {"command": "ls"}})
    );
    assert_eq!(run.decision(), Decision::Ask);
    for rewrite in [
        Response::rewrite(ls.clone()),
        Response::rewrite_and_allow(ls.clone()),
    ] {
        let run = on(Dialect::Lime, "PreToolUse", rewrite.clone());
        assert_eq!(
            specific(&run),
            json!({"hookEventName": "PreToolUse", "permissionDecision": "allow",
                "updatedInput": {"command": "ls"}})
        );
        let run = on(Dialect::Wuu, "PreToolUse", rewrite);
        assert_eq!(
            run.stdout_json().unwrap(),
            json!({"updated_input": {"command": "ls"}})
        );
    }
    let run = on(
        Dialect::Lime,
        "PreToolUse",
        Response::rewrite_and_ask(ls.clone(), "?"),
    );
    assert_eq!(run.exit_code, 1);
    assert!(
        run.stderr_text().contains("rewrite with no decision"),
        "{}",
        run.stderr_text()
    );
    let run = on(
        Dialect::Wuu,
        "PreToolUse",
        Response::rewrite_and_ask(ls, "?"),
    );
    assert!(
        run.stderr_text().contains("wuu has no ask"),
        "{}",
        run.stderr_text()
    );
}

#[test]
fn typed_tools_and_rewrites_keep_untyped_fields() {
    let handler = |event: &Event| match event.kind() {
        EventKind::PreToolUse(call) => match &call.tool {
            Tool::Bash { command, .. } => Response::rewrite(call.rewritten(Tool::Bash {
                command: format!("timeout 60 {command}"),
                description: None,
            })),
            _ => Response::none(),
        },
        _ => Response::none(),
    };
    for dialect in Dialect::ALL {
        let bash = if dialect == Dialect::Wuu {
            "bash"
        } else {
            "Bash"
        };
        let event = input(
            dialect,
            "PreToolUse",
            json!({"tool_name": bash, "tool_input": {"command": "make", "timeout": 5000}}),
        );
        let run = run_json(handler, dialect, event);
        let read = run.interpreted().unwrap();
        assert_eq!(
            read.response().unwrap().updated_input,
            Some(json!({"command": "timeout 60 make", "timeout": 5000})),
            "{dialect}"
        );
    }
    let edit = Tool::parse(
        "Edit",
        &json!({"file_path": "a", "old_string": "x", "new_string": "y"}),
    );
    assert_eq!(
        edit.unwrap(),
        Tool::Edit {
            file_path: "a".into(),
            old_string: "x".into(),
            new_string: "y".into(),
            replace_all: false
        }
    );
    let missing = Tool::parse("Write", &json!({"file_path": "a"})).unwrap_err();
    assert_eq!(
        missing.to_string(),
        "`tool_input` of the Write call: missing field `content`"
    );
    assert_eq!(
        Tool::parse("mcp__git_hub__create__issue", &json!({"q": 1})).unwrap(),
        Tool::Mcp {
            server: "git_hub".into(),
            tool: "create__issue".into(),
            input: json!({"q": 1})
        }
    );
    assert!(matches!(
        Tool::parse("mcp__x", &json!({})).unwrap(),
        Tool::Other(_)
    ));
}

#[test]
fn every_tool_the_dialects_name_is_typed() {
    let multi = json!({"file_path": "a.rs", "edits": [
        {"old_string": "x", "new_string": "y"},
        {"old_string": "p", "new_string": "q", "replace_all": true}]});
    // wuu spells tool names in lowercase, the others in CamelCase.
    for name in ["MultiEdit", "multiedit", "multi_edit"] {
        let tool = Tool::parse(name, &multi).unwrap();
        assert_eq!(
            tool,
            Tool::MultiEdit {
                file_path: "a.rs".into(),
                edits: vec![
                    hook_sdk::TextEdit::new("x", "y"),
                    hook_sdk::TextEdit::new("p", "q").replacing_all()
                ]
            }
        );
        assert_eq!(tool.paths(), ["a.rs"]);
        assert!(tool.writes_files());
        assert_eq!(Value::Object(Map::from(tool)), multi);
    }
    let cases = [
        ("Glob", json!({"pattern": "**/*.rs", "path": "src"}), "Glob"),
        (
            "grep",
            json!({"pattern": "fn main", "glob": "*.rs"}),
            "Grep",
        ),
        (
            "WebFetch",
            json!({"url": "https://x.io", "prompt": "?"}),
            "WebFetch",
        ),
        ("websearch", json!({"query": "rust"}), "WebSearch"),
        (
            "Task",
            json!({"prompt": "do", "description": "d", "subagent_type": "t"}),
            "Task",
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "n.ipynb", "new_source": "x"}),
            "NotebookEdit",
        ),
        ("Read", json!({"file_path": "r"}), "Read"),
    ];
    for (name, input, canonical) in cases {
        let tool = Tool::parse(name, &input).unwrap();
        assert_eq!(tool.canonical_name(), Some(canonical), "{name}");
        assert!(!matches!(tool, Tool::Other(_)), "{name}");
        // Written back, the typed fields are the input.
        assert_eq!(Value::Object(Map::from(tool)), input, "{name}");
    }
    assert_eq!(
        Tool::parse("NotebookEdit", &json!({"notebook_path": "n.ipynb"}))
            .unwrap()
            .paths(),
        ["n.ipynb"]
    );
    let missing = Tool::parse("WebFetch", &json!({"prompt": "?"})).unwrap_err();
    assert!(
        missing.to_string().contains("missing field `url`"),
        "{missing}"
    );

    // lime's apply_patch: the files come from the patch's headers.
    let patch = "*** Begin Patch\n*** Add File: new.txt\n+hi\n*** Update File: src/a.rs\n\
                 *** Move to: src/b.rs\n@@\n-x\n+y\n*** Delete File: .env\n\
                 *** Update File: new.txt\n*** End Patch\n";
    let tool = Tool::parse("apply_patch", &json!({"command": patch})).unwrap();
    assert_eq!(tool.paths(), ["new.txt", "src/a.rs", "src/b.rs", ".env"]);
    assert_eq!(tool.file_path(), None);
    assert_eq!(tool.canonical_name(), Some("apply_patch"));
    assert_eq!(Value::Object(Map::from(tool)), json!({"command": patch}));
    let bare = Tool::parse("apply_patch", &json!(patch)).unwrap();
    assert_eq!(bare.paths().len(), 4);
    let missing = Tool::parse("apply_patch", &json!({})).unwrap_err();
    assert!(missing.to_string().contains("missing field `command`"));
    assert!(hook_sdk::patch_files("no headers\n+*** Add File: x\n").is_empty());
}

#[test]
fn the_dialect_is_inferred_from_the_input() {
    for dialect in Dialect::ALL {
        for event in dialect.events() {
            let mut example = example_input(dialect, event, "/tmp", None).unwrap();
            if dialect == Dialect::Verboo {
                // Every real verboo input carries its transcript.
                example["transcript_path"] = json!("/tmp/t.jsonl");
            }
            assert_eq!(
                infer_dialect(&example),
                Some(dialect),
                "{dialect} {event}: {example}"
            );
        }
    }
    assert_eq!(infer_dialect(&json!([1])), None);
    assert_eq!(infer_dialect(&json!({"cwd": "/"})), None);
    // Without HOOK_DIALECT or --dialect, the SDK infers it.
    let example = example_input(Dialect::Lime, &EventName::Stop, "/tmp", None).unwrap();
    let run = run_bytes(
        |_: &Event| Response::block("more"),
        example.to_string().as_bytes(),
        &Options::default(),
    );
    assert_eq!(run.dialect, Some(Dialect::Lime));
    assert_eq!(run.decision(), Decision::Block);
}

#[test]
fn failures_are_reported_or_fail_closed() {
    let stop = input(Dialect::Verboo, "Stop", json!({}));
    let bytes = stop.to_string().into_bytes();
    let verboo = Options::default().with_dialect(Dialect::Verboo);

    let panics = |_: &Event| -> Response { panic!("boom") };
    let run = run_bytes(panics, &bytes, &verboo);
    assert_eq!(
        (run.exit_code, run.stderr_text().as_str()),
        (1, "hook panicked: boom\n")
    );
    assert!(run.stdout.is_empty());
    assert!(matches!(
        run.interpreted(),
        Some(HandlerResult::NonBlockingError { .. })
    ));

    let errs = |_: &Event| -> Result<Response, HookError> { Err(HookError::new("no database")) };
    let run = run_bytes(errs, &bytes, &verboo);
    assert_eq!(run.stderr_text(), "hook error: no database\n");
    assert_eq!(run.error.as_deref(), Some("hook error: no database"));

    // Fail closed: exit 2 blocks where the event can.
    let run = run_bytes(errs, &bytes, &verboo.clone().fail_closed());
    assert_eq!(run.exit_code, 2);
    assert_eq!(run.decision(), Decision::Block);

    let run = run_bytes(|_: &Event| Response::none(), b"{nope", &verboo);
    assert_eq!(run.exit_code, 1);
    assert!(
        run.stderr_text()
            .contains("not valid JSON at line 1, column 2"),
        "{}",
        run.stderr_text()
    );

    let small = verboo.clone().with_max_input_bytes(10);
    let run = run_bytes(|_: &Event| Response::none(), &bytes, &small);
    assert!(run.stderr_text().contains("over the limit of 10 bytes"));

    let run = run_bytes(
        |_: &Event| Response::none(),
        br#"{"hook_event_name":"Stop"}"#,
        &verboo,
    );
    assert!(
        run.stderr_text()
            .contains("missing field `stop_hook_active`"),
        "{}",
        run.stderr_text()
    );

    // A typed event runs too, and the raw JSON is there.
    let event = Event::from_value(Dialect::Verboo, stop.clone()).unwrap();
    assert_eq!(event.raw(), &stop);
    assert!(matches!(event.kind(), EventKind::Stop(_)));
    let run = run_event(
        |e: &Event| Response::block(e.session_id().to_owned()),
        &event,
    );
    assert_eq!(run.decision(), Decision::Block);
}

#[test]
fn native_calls_catch_panics_and_free_their_buffers() {
    use hook_sdk::native::{NativeOutput, call, free};
    let panics = |_: &Event| -> Response { panic!("native boom") };
    let input = input(Dialect::Lime, "Stop", json!({})).to_string();
    let mut out = NativeOutput::empty();
    // SAFETY: valid buffers and a writable output.
    #[allow(unsafe_code)]
    let status = unsafe {
        call(
            &panics,
            &Options::default(),
            input.as_ptr(),
            input.len(),
            b"lime".as_ptr(),
            4,
            &mut out,
        )
    };
    assert_eq!((status, out.exit_code), (0, 1));
    // SAFETY: filled by `call` above, read before `free`.
    #[allow(unsafe_code)]
    let stderr = unsafe { std::slice::from_raw_parts(out.stderr_ptr, out.stderr_len) }.to_vec();
    assert_eq!(stderr, b"hook panicked: native boom\n");
    // SAFETY: filled by `call` above, freed once.
    #[allow(unsafe_code)]
    unsafe {
        free(&mut out)
    };
    assert!(out.stderr_ptr.is_null());
}

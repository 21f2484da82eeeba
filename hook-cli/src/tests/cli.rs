//! `hook schema`, `hook validate`, bad input and `onFailure` in `hook list` (in-process).

use std::path::Path;

use super::{located, output, text, words};

/// `hook args` with `stdin`, in this process.
fn hook(args: &[&str], stdin: &str) -> hook_test_support::Output {
    output(args, stdin)
}

#[test]
fn schema_prints_the_committed_schema() {
    let out = hook(
        &[
            "schema",
            "--dialect",
            "lime",
            "--event",
            "Stop",
            "--kind",
            "output",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let committed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../hook-protocol/schemas/lime/Stop.output.schema.json"),
    )
    .unwrap();
    assert_eq!(text(&out.stdout), committed);

    let out = hook(&["schema", "--outcome"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("\"title\": \"hook outcome\""));
}

#[test]
fn schema_all_writes_the_committed_tree() {
    let dir = tempfile::tempdir().unwrap();
    let out = hook(
        &["schema", "--all", "--out", dir.path().to_str().unwrap()],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("wrote 119 schemas under {}\n", dir.path().display())
    );
    let schemas = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../hook-protocol/schemas");
    for name in [
        "outcome.schema.json",
        "wuu/Stop.input.schema.json",
        "verboo/Setup.output.schema.json",
    ] {
        let written = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(
            written,
            std::fs::read_to_string(schemas.join(name)).unwrap(),
            "{name}"
        );
    }
    let lime: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("lime/PreToolUse.output.schema.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(lime["$id"], "urn:hook-schemas:lime:PreToolUse:output");
    assert_eq!(lime["title"], "lime PreToolUse output");
}

#[test]
fn validate_accepts_and_rejects_with_pointers() {
    let ok = hook(
        &["validate", "--dialect", "lime", "--event", "Stop"],
        r#"{"decision":"block","reason":"x"}"#,
    );
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(text(&ok.stdout), "<stdin>: valid lime Stop output\n");

    let bad = hook(
        &["validate", "--dialect", "lime", "--event", "Stop", "-"],
        r#"{"stop_reason":"x"}"#,
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        text(&bad.stdout),
        "<stdin>: invalid lime Stop output\n  /: unknown field `stop_reason` is not allowed here (hint: lime fields are camelCase: did you mean `stopReason`?)\n"
    );
}

#[test]
fn validate_json_gives_machine_readable_errors() {
    let out = hook(
        &[
            "validate",
            "--dialect",
            "lime",
            "--event",
            "PreToolUse",
            "--json",
        ],
        r#"{"decision":"deny","hookSpecificOutput":{"permissionDecision":"allow"}}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["valid"], false);
    assert_eq!(report["event"], "PreToolUse");
    let errors = report["errors"].as_array().unwrap();
    let pointers: Vec<&str> = errors
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(
        pointers,
        ["/decision", "/hookSpecificOutput", "/hookSpecificOutput"]
    );
    assert_eq!(
        errors[1]["message"],
        "missing required field `hookEventName`"
    );
    // The rule the engine enforces beyond the types: a lime allow needs an `updatedInput`.
    assert_eq!(
        errors[2]["message"],
        "missing required field `updatedInput`"
    );
    assert!(
        errors[0]["hint"]
            .as_str()
            .unwrap()
            .contains("takes \"block\"")
    );

    let ok = hook(
        &["validate", "--dialect", "wuu", "--event", "Stop", "--json"],
        "{}",
    );
    assert_eq!(ok.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(report["valid"], true);
    assert_eq!(report["errors"], serde_json::json!([]));
}

#[test]
fn bad_input_is_one_clear_line_and_exit_1_or_2() {
    let cases: &[(&[&str], &str, i32, &str)] = &[
        (
            &["validate", "--dialect", "lime", "--event", "Stop"],
            "",
            1,
            "error: stdin is empty: pipe the hook output in, or give a FILE\n",
        ),
        (
            &["validate", "--dialect", "lime", "--event", "stop"],
            "{}",
            1,
            "error: unknown lime event `stop`: did you mean `Stop`?\n",
        ),
        (
            &[
                "validate",
                "--dialect",
                "lime",
                "--event",
                "Stop",
                "/no/such/file",
            ],
            "",
            1,
            "error: cannot read /no/such/file: No such file or directory (os error 2)\n",
        ),
        (
            &["validate", "--dialect", "lime", "--event", "Stop", "/"],
            "",
            1,
            "error: / is a directory: give the file that holds the hook output\n",
        ),
        (
            &["schema", "--dialect", "wuu", "--event", "Interrupt"],
            "",
            1,
            "error: unknown wuu event `Interrupt`; wuu events are: PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, UserPromptSubmit, PreCompact, PostCompact, SubagentStart, SubagentStop, SessionStart, SessionEnd, Stop, FileChanged\n",
        ),
    ];
    for (args, stdin, code, stderr) in cases {
        let out = hook(args, stdin);
        assert_eq!(out.status.code(), Some(*code), "{args:?}");
        assert_eq!(text(&out.stderr), *stderr, "{args:?}");
    }
    let usage = hook(&["schema", "--dialect", "emacs", "--event", "Stop"], "");
    assert_eq!(usage.status.code(), Some(2));
    assert!(
        text(&usage.stderr).contains(
            "unknown dialect `emacs`. The dialects: wuu, verboo, lime; the agents (--agent): claude"
        ),
        "{}",
        text(&usage.stderr)
    );

    let not_json = hook(
        &["validate", "--dialect", "wuu", "--event", "Stop"],
        "{} and more",
    );
    assert_eq!(not_json.status.code(), Some(1));
    assert!(text(&not_json.stdout).contains("output is not valid JSON at line 1, column 4"));
}

/// A hook with `onFailure: "block"` fails closed: `hook list` says so, and `hook run` blocks
/// when it cannot run (a missing script), with the failure as the reason.
#[test]
fn on_failure_block_is_listed_and_blocks_a_hook_that_cannot_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).expect("home");
    std::fs::create_dir_all(&project).expect("project");
    std::fs::write(
        home.join("settings.json"),
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./missing-guard.sh","onFailure":"block"}]}]}}"#,
    )
    .expect("settings");
    let (home, project) = (home.display().to_string(), project.display().to_string());
    let out = hook(
        &[
            "list",
            "--dialect",
            "verboo",
            "--home",
            &home,
            "--project",
            &project,
        ],
        "",
    );
    assert!(
        text(&out.stdout).contains("; onFailure block)"),
        "{}",
        text(&out.stdout)
    );
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "cwd": project, "tool_name": "Bash", "tool_input": {"command": "rm -rf build"},
        "tool_use_id": "t"});
    let mut run = located("run", "verboo", Path::new(&home), Path::new(&project));
    run.extend(["--event".to_owned(), "PreToolUse".to_owned()]);
    let out = hook(&words(&run), &event.to_string());
    let outcome: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON outcome");
    assert_eq!(outcome["decision"], "block", "{outcome}");
    assert_eq!(outcome["runs"][0]["status"], "failed", "{outcome}");
    let reason = outcome["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("onFailure is \"block\""), "{reason}");
}

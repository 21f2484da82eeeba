//! The README's main job: `hook run` on `examples/demo` blocks the dangerous Bash call in every
//! dialect, from a fresh clone, with no set-up step.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::process::{Command, Output};

use hook_test_support::fs::repo_root as repo;

fn hook(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("the hook binary runs")
}

#[test]
fn the_demo_blocks_rm_rf_in_every_dialect() {
    for dialect in ["wuu", "verboo", "lime"] {
        let home = format!("examples/demo/{dialect}-home");
        let input = format!("examples/demo/events/{dialect}-pre-tool-use.json");
        let out = hook(&[
            "run",
            "--dialect",
            dialect,
            "--event",
            "PreToolUse",
            "--home",
            &home,
            "--project",
            "examples/demo",
            "--input",
            &input,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{dialect}: {stderr}");
        let outcome: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(outcome["decision"], "block", "{dialect}: {outcome:#}");
        assert_eq!(
            outcome["reason"], "blocked by the demo guard: rm -rf / would delete everything",
            "{dialect}"
        );
        assert_eq!(outcome["runs"][0]["status"], "blocked", "{dialect}");

        let validator =
            jsonschema::validator_for(&hook_protocol::schema::outcome_schema()).unwrap();
        assert!(
            validator.is_valid(&outcome),
            "{dialect}: the outcome matches its schema"
        );
    }
}

#[test]
fn a_safe_command_goes_through() {
    let dir = tempfile::tempdir().unwrap();
    let event = dir.path().join("event.json");
    std::fs::write(
        &event,
        r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash",
            "tool_input":{"command":"ls -la"},"tool_use_id":"t"}"#,
    )
    .unwrap();
    let out = hook(&[
        "run",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--home",
        "examples/demo/verboo-home",
        "--project",
        "examples/demo",
        "--input",
        event.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let outcome: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(outcome["decision"], "continue");
    assert_eq!(outcome["runs"].as_array().unwrap().len(), 2);
}

#[test]
fn run_refuses_bad_input_with_exit_1() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "run",
                "--dialect",
                "lime",
                "--event",
                "Stop",
                "--input",
                "/no/such.json",
            ],
            "error: cannot read /no/such.json",
        ),
        (
            &[
                "run",
                "--dialect",
                "lime",
                "--event",
                "Stop",
                "--input",
                "examples/demo/events/lime-pre-tool-use.json",
            ],
            "error: the input's hook_event_name is `PreToolUse` but --event is `Stop`",
        ),
        (
            &[
                "run",
                "--dialect",
                "lime",
                "--event",
                "PreToolUse",
                "--project",
                "/no/such/dir",
                "--input",
                "examples/demo/events/lime-pre-tool-use.json",
            ],
            "error: project directory /no/such/dir does not exist",
        ),
    ];
    for (args, want) in cases {
        let out = hook(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with(want), "{args:?}: {stderr}");
    }
}

#[test]
fn list_shows_every_handler_by_event_with_source_and_key() {
    let out = hook(&[
        "list",
        "--dialect",
        "verboo",
        "--home",
        "examples/demo/verboo-home",
        "--project",
        "examples/demo",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "PreToolUse");
    assert!(
        lines[1].starts_with("  [Bash] command sh hooks/guard.sh  (user; key user:"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("  [Bash] command sh hooks/log.sh  (user; key user:"),
        "{text}"
    );
    assert_eq!(lines[3], "SessionStart");

    let out = hook(&[
        "list",
        "--dialect",
        "lime",
        "--home",
        "examples/demo/lime-home",
        "--project",
        "examples/demo",
        "--json",
    ]);
    let handlers: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(handlers.as_array().unwrap().len(), 3);
    assert_eq!(handlers[0]["event"], "PreToolUse");
    assert_eq!(handlers[0]["source"]["layer"], "user");
}

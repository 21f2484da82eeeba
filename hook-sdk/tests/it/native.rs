//! Native plugins through `hook_exec::Engine`: the same hook as an executable and as a plugin
//! gives the same outcome in every dialect; broken plugins are failed runs with the reason, and
//! the engine keeps running.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use crate::common::{
    Runs, Setup, example, matcher, native_example, raw_library, sdk_library, tool,
};
use hook_protocol::{Decision, Dialect, HandlerType, RunStatus};
use serde_json::json;

#[test]
fn the_abi_versions_of_the_sdk_and_the_engine_agree() {
    assert_eq!(
        hook_sdk::native::ABI_VERSION,
        hook_exec::native::ABI_VERSION
    );
    assert_eq!(
        hook_sdk::native::ABI_VERSION_C.to_str().unwrap(),
        hook_sdk::native::ABI_VERSION
    );
}

#[test]
fn native_and_executable_give_the_same_outcome_in_every_dialect() {
    let commands = [
        "rm -rf /",
        "git push origin main",
        "curl x | sh",
        "ls",
        "cargo build",
    ];
    for dialect in Dialect::ALL {
        let m = matcher(dialect, &["Bash"]);
        let native = Setup::new(dialect, "PreToolUse", &m, &Runs::Native(native_example()));
        let executable = Setup::new(
            dialect,
            "PreToolUse",
            &m,
            &Runs::Command(example("block_dangerous_bash")),
        );
        for command in commands {
            let fields =
                json!({"tool_name": tool(dialect, "Bash"), "tool_input": {"command": command}});
            let by_native = native.dispatch(&native.input("PreToolUse", fields.clone()));
            let by_exec = executable.dispatch(&executable.input("PreToolUse", fields));
            assert_eq!(by_native.runs[0].handler_type, HandlerType::Native);
            assert_eq!(by_native.runs[0].error, None, "{by_native:#?}");
            assert_eq!(by_native.decision, by_exec.decision, "{dialect} {command}");
            assert_eq!(by_native.reason, by_exec.reason, "{dialect} {command}");
            assert_eq!(by_native.runs[0].status, by_exec.runs[0].status);
            assert_eq!(by_native.runs[0].exit_code, Some(0));
        }
        let fields =
            json!({"tool_name": tool(dialect, "Bash"), "tool_input": {"command": "rm -rf /"}});
        assert_eq!(
            native
                .dispatch(&native.input("PreToolUse", fields))
                .decision,
            Decision::Block
        );
    }
}

#[test]
fn broken_plugins_are_failed_runs_and_the_engine_keeps_running() {
    let dir = tempfile::tempdir().unwrap();
    let wrong_version = raw_library(
        dir.path(),
        "wrong_version",
        r#"#[unsafe(no_mangle)] pub extern "C" fn hook_sdk_abi_version() -> *const u8 { b"2.0.0\0".as_ptr() }"#,
    );
    let no_call = raw_library(
        dir.path(),
        "no_call",
        r#"#[unsafe(no_mangle)] pub extern "C" fn hook_sdk_abi_version() -> *const u8 { b"1.0.0\0".as_ptr() }"#,
    );
    let no_version = raw_library(dir.path(), "no_version", "pub fn nothing() {}");
    let panics = sdk_library(
        dir.path(),
        "panics",
        r#"
        fn handle(event: &hook_sdk::Event) -> hook_sdk::Response {
            if event.cwd().is_empty() { return hook_sdk::Response::none(); }
            panic!("the plugin fell over")
        }
        hook_sdk::export_native!(handle);
        "#,
    );
    let cases = [
        (dir.path().join("missing.so"), "cannot be opened"),
        (wrong_version, "ABI version 2.0.0 is not compatible"),
        (no_call, "lacks the symbol `hook_sdk_call`"),
        (no_version, "lacks the symbol `hook_sdk_abi_version`"),
        (panics, "hook panicked: the plugin fell over"),
    ];
    for dialect in Dialect::ALL {
        for (library, reason) in &cases {
            let runs = [
                Runs::Native(library.clone()),
                Runs::Native(native_example()),
            ];
            // wuu stops its chain at the first failure: the good plugin goes first there.
            let runs = if dialect == Dialect::Wuu {
                [runs[1].clone(), runs[0].clone()]
            } else {
                runs
            };
            let setup =
                Setup::with_handlers(dialect, "PreToolUse", &matcher(dialect, &["Bash"]), &runs);
            for _ in 0..2 {
                let input = setup.input(
                    "PreToolUse",
                    json!({"tool_name": tool(dialect, "Bash"), "tool_input": {"command": "ls"}}),
                );
                let outcome = setup.dispatch(&input);
                let (bad, good) = if dialect == Dialect::Wuu {
                    (1, 0)
                } else {
                    (0, 1)
                };
                assert_eq!(
                    outcome.runs[bad].status,
                    RunStatus::Failed,
                    "{dialect} {outcome:#?}"
                );
                let error = outcome.runs[bad].error.clone().unwrap();
                assert!(error.contains(reason), "{dialect}: {error}");
                assert_eq!(
                    outcome.runs[good].status,
                    RunStatus::Ok,
                    "{dialect} {outcome:#?}"
                );
                assert_eq!(outcome.decision, Decision::Continue);
            }
        }
    }
}

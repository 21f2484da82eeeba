//! The native ABI is defined once (in `hook-protocol`), and no panic of a plugin — not even
//! one while `export_native!` evaluates its options — unwinds across it.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use crate::common::{Runs, Setup, matcher, sdk_library, tool};
use hook_protocol::native_abi;
use hook_protocol::{Decision, Dialect, RunStatus};
use serde_json::json;

#[test]
fn the_sdk_and_the_engine_share_one_abi_definition() {
    // Compiles only while the SDK's output struct is the protocol's own type.
    fn same(output: native_abi::NativeOutput) -> hook_sdk::native::NativeOutput {
        output
    }
    let output = same(native_abi::NativeOutput::empty());
    assert!(output.stdout_ptr.is_null());
    assert_eq!(hook_sdk::native::ABI_VERSION, native_abi::ABI_VERSION);
    assert_eq!(hook_exec::native::ABI_VERSION, native_abi::ABI_VERSION);
    assert_eq!(hook_sdk::native::SYMBOL_CALL, native_abi::SYMBOL_CALL);
}

#[test]
fn a_panicking_options_expression_is_a_failed_run_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let library = sdk_library(
        dir.path(),
        "panicking_options",
        r#"
        fn handle(_: &hook_sdk::Event) -> hook_sdk::Response { hook_sdk::Response::none() }
        fn options() -> hook_sdk::Options { panic!("the options fell over") }
        hook_sdk::export_native!(handle, options());
        "#,
    );
    for dialect in Dialect::ALL {
        let setup = Setup::new(
            dialect,
            "PreToolUse",
            &matcher(dialect, &["Bash"]),
            &Runs::Native(library.clone()),
        );
        let fields = json!({"tool_name": tool(dialect, "Bash"), "tool_input": {"command": "ls"}});
        // Twice: the plugin (and this process) survive the first.
        for _ in 0..2 {
            let outcome = setup.dispatch(&setup.input("PreToolUse", fields.clone()));
            let run = &outcome.runs[0];
            assert_eq!(run.status, RunStatus::Failed, "{dialect}: {outcome:#?}");
            assert_eq!(run.exit_code, Some(1), "{dialect}");
            let error = run.error.as_deref().unwrap();
            assert!(
                error.contains("native hook panicked: the options fell over"),
                "{dialect}: {error}"
            );
            assert_eq!(outcome.decision, Decision::Continue);
        }
    }
}

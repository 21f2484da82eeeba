//! lime side files (over-limit `additionalContext`): a private folder (0700, files 0600),
//! created without following links, refused when it is not private, with a retention bound.
//! Through the engine; the folder and file rules alone are unit tests of `context`.
#![cfg(unix)]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use crate::common::Setup;
use hook_exec::EngineOptions;
use hook_protocol::{Dialect, Outcome, RunStatus};
use hook_test_support::fs::{file_names, mode};
use serde_json::json;

const LONG_CONTEXT: &str = r#"
[[hooks.SessionStart]]
[[hooks.SessionStart.hooks]]
type = "command"
command = "head -c 300 /dev/zero | tr '\\0' 'x'"
additionalContextLimit = 100
"#;

/// Dispatches a lime SessionStart.
fn session_start(setup: &Setup, options: EngineOptions) -> Outcome {
    let engine = setup.engine(options);
    let input = setup.input(json!({"hook_event_name": "SessionStart", "source": "startup"}));
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(engine.dispatch(&input))
}

#[test]
fn the_folder_is_created_0700_and_the_file_0600() {
    let setup = Setup::new(Dialect::Lime, LONG_CONTEXT);
    let side = setup.path("home/hook-context");
    let options = EngineOptions::default().with_side_file_dir(side.clone());
    let outcome = session_start(&setup, options);
    assert_eq!(outcome.runs[0].warnings, Vec::<String>::new());
    assert_eq!(mode(&side), 0o700);
    let files = file_names(&side);
    assert_eq!(files.len(), 1);
    let file = side.join(&files[0]);
    assert_eq!(mode(&file), 0o600);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x".repeat(300));
    assert!(
        outcome
            .additional_context
            .unwrap()
            .contains(&file.display().to_string())
    );
}

#[test]
fn with_no_folder_no_side_file_is_written_and_the_preview_says_so() {
    let setup = Setup::new(Dialect::Lime, LONG_CONTEXT);
    let outcome = session_start(&setup, EngineOptions::default());
    assert_eq!(outcome.runs[0].status, RunStatus::Ok);
    assert_eq!(
        outcome.additional_context.unwrap(),
        format!(
            "{}\n[... 200 of 300 characters omitted and not kept ...]\n{}",
            "x".repeat(50),
            "x".repeat(50)
        )
    );
}

#[test]
fn a_refused_folder_keeps_the_whole_text_with_a_warning() {
    let setup = Setup::new(Dialect::Lime, LONG_CONTEXT);
    let side = setup.path("home/hook-context");
    std::os::unix::fs::symlink("/tmp", &side).unwrap();
    let options = EngineOptions::default().with_side_file_dir(side);
    let outcome = session_start(&setup, options);
    assert_eq!(outcome.additional_context.unwrap(), "x".repeat(300));
    let warning = &outcome.runs[0].warnings[0];
    assert!(
        warning.starts_with(
            "additionalContext is over its limit of 100 characters but the private folder"
        ),
        "{warning}"
    );
    assert!(warning.contains("is a symbolic link"), "{warning}");
}

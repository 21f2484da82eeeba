//! `hook test --native`: a native library loaded by the binary (the rest of `hook test`,
//! `convert`, `validate --config` and `completions` is tested in-process, in `src/tests/`).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::{Command, Output};

use hook_test_support::fs::text;

#[path = "../../../hook-exec/tests/it/support/raw_plugin.rs"]
mod raw_plugin;

fn hook(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

#[test]
fn test_runs_a_native_library_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let library = raw_plugin::raw_plugin(raw_plugin::Answer::block("no rm here"));
    let library = library.display().to_string();
    let args = [
        "test",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
        "--native",
        library.as_str(),
    ];
    let out = hook(&args, dir.path());
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("block: no rm here"), "{stdout}");

    let missing = dir.path().join("missing.so").display().to_string();
    let out = hook(
        &[
            "test",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--native",
            missing.as_str(),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("does not exist: build it first"),
        "{}",
        text(&out.stderr)
    );
}

//! `hook test` passes every `hook-sdk` example, in every dialect.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The examples' folder, after building them (a no-op when they are current).
fn examples() -> PathBuf {
    let status = crate::cargo()
        // The very build `cargo test --workspace` makes (it builds the examples too), so this is
        // a no-op under it: `cargo build --examples` resolves features without the other crates'
        // dev-dependencies, and rebuilt tokio, hyper and reqwest with other features.
        .args(["test", "--quiet", "--workspace", "--no-run"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success(), "building the hook-sdk examples failed");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    );
    target.join("debug").join("examples")
}

#[test]
fn hook_test_passes_every_sdk_example_in_every_dialect() {
    let dir = examples();
    let project = tempfile::tempdir().unwrap();
    // (example, event, tool)
    let cases = [
        ("block_dangerous_bash", "PreToolUse", Some("Bash")),
        ("protect_secrets", "PreToolUse", Some("Read")),
        ("format_on_edit", "PostToolUse", Some("Edit")),
        ("git_context", "SessionStart", None),
        ("guard_router", "PreToolUse", Some("Bash")),
    ];
    let mut failures = Vec::new();
    for (example, event, tool) in cases {
        for dialect in ["wuu", "verboo", "lime"] {
            let binary = dir.join(example);
            let mut args = vec!["test", "--dialect", dialect, "--event", event, "--json"];
            if let Some(tool) = tool {
                args.extend(["--tool", tool]);
            }
            args.extend(["--", binary.to_str().unwrap()]);
            let out = Command::new(env!("CARGO_BIN_EXE_hook"))
                .args(&args)
                .current_dir(project.path())
                .output()
                .unwrap();
            if out.status.code() != Some(0) {
                failures.push(format!(
                    "{example} in {dialect}: {}",
                    String::from_utf8_lossy(&out.stdout)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

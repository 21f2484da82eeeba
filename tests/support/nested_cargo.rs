//! Shared by the integration tests of hook-cli and hook-sdk (included with `#[path]`): a nested
//! `cargo` that reuses the suite's build.

/// `cargo` as a shell would start it: without the variables cargo sets for a test process.
/// Build scripts watch some of them (`ring` reruns when `CARGO_MANIFEST_DIR` or a `CARGO_PKG_*`
/// changes), so a nested build that inherits them rebuilds half the tree, twice.
pub fn cargo() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO"));
    let set_for_tests = [
        "CARGO_PKG_",
        "CARGO_MANIFEST_",
        "CARGO_CRATE_",
        "CARGO_BIN_",
        "OUT_DIR",
    ];
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if set_for_tests.iter().any(|p| name.starts_with(p)) || name == "CARGO_PRIMARY_PACKAGE" {
            command.env_remove(&*name);
        }
    }
    command
}

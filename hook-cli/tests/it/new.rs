//! `hook new`: the scaffold of an executable hook pins the published `hook-sdk` at this
//! binary's version (built against a local registry from the npm install, with no checkout, in
//! `dist::scaffold`); the native scaffold, on this workspace's `hook-sdk` by path (`--sdk`),
//! builds and its tests pass, offline; bad names, paths and `--sdk` folders are refused.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

#[test]
fn the_scaffold_pins_the_published_sdk_and_the_native_one_builds_and_passes_offline() {
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("deny-rm");
    let output = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["new", "deny-rm", "--path"])
        .arg(&crate_dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("created the hook crate `deny-rm`"),
        "{stdout}"
    );
    let readme = std::fs::read_to_string(crate_dir.join("README.md")).unwrap();
    for dialect in ["### wuu", "### verboo", "### lime", "[[hooks.PreToolUse]]"] {
        assert!(readme.contains(dialect), "{readme}");
    }
    // The published SDK at exactly this binary's version, never this checkout: `dist::scaffold`
    // builds such a crate from the npm install against a registry of the packaged crates.
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        manifest.contains(&format!("\nhook-sdk = \"={version}\"\n")),
        "{manifest}"
    );
    assert!(
        manifest.contains(&format!(
            "\nhook-sdk = {{ version = \"={version}\", features = [\"testing\"] }}\n"
        )),
        "{manifest}"
    );
    assert!(!manifest.contains("path ="), "{manifest}");
    assert!(readme.contains("hook --version"), "{readme}");

    // `--native`: a cdylib on the SDK's native ABI, whose tests also call the exported
    // symbols; on this workspace's hook-sdk by path (`--sdk`), so it reuses the suite's build.
    let native_dir = dir.path().join("deny-rm-native");
    let output = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["new", "deny-rm-native", "--native", "--path"])
        .arg(&native_dir)
        .arg("--sdk")
        .arg(workspace().join("hook-sdk"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("created the native hook crate `deny-rm-native`"),
        "{stdout}"
    );
    let manifest = std::fs::read_to_string(native_dir.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("crate-type = [\"cdylib\"]"), "{manifest}");
    let sdk = workspace().join("hook-sdk").display().to_string();
    assert!(
        manifest.contains(&format!("hook-sdk = {{ path = \"{sdk}\" }}")),
        "{manifest}"
    );
    let readme = std::fs::read_to_string(native_dir.join("README.md")).unwrap();
    for snippet in [
        "\"type\": \"native\"",
        "type = \"native\"",
        "deny_rm_native",
    ] {
        assert!(readme.contains(snippet), "{readme}");
    }
    let lib = std::fs::read_to_string(native_dir.join("src/lib.rs")).unwrap();
    assert!(lib.contains("hook_sdk::export_native!(handle);"), "{lib}");
    let log = cargo_test(&native_dir);
    assert!(log.contains("3 passed"), "{log}");

    // Refuses to write over a crate, and checks the name.
    let output = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["new", "deny-rm", "--path"])
        .arg(&crate_dir)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("already exists"));
    let output = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["new", "9 lives", "--path"])
        .arg(dir.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a valid crate name"));
    // `--sdk` must name hook-sdk's folder: a folder without its manifest is refused, and
    // nothing is written.
    for sdk in [dir.path().join("nowhere"), workspace().join("hook-cli")] {
        let target = dir.path().join("y");
        let output = Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(["new", "y", "--path"])
            .arg(&target)
            .arg("--sdk")
            .arg(&sdk)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{sdk:?}: {stderr}");
        assert!(stderr.contains("name the hook-sdk folder"), "{stderr}");
        assert!(!target.exists());
    }
}

/// Runs the scaffold's own `cargo test`, offline, on the suite's target directory; returns its
/// output.
fn cargo_test(crate_dir: &Path) -> String {
    // The workspace's lock file pins the versions its target directory already built.
    std::fs::copy(workspace().join("Cargo.lock"), crate_dir.join("Cargo.lock")).unwrap();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    // The workspace's dev profile, so the scaffold reuses the dependencies the suite already
    // built instead of compiling them all again with other settings.
    let output = crate::cargo()
        .args(["test", "--offline", "--quiet"])
        .args(["--config", "profile.dev.debug=\"line-tables-only\""])
        .args(["--config", "profile.dev.package.\"*\".opt-level=0"])
        .args(["--config", "profile.dev.package.\"*\".debug=false"])
        .current_dir(crate_dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .unwrap();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{log}");
    log
}

//! A plugin never borrows another plugin's trust: copying a trusted plugin's `plugin.json` and
//! hooks into another folder gets neither its key nor its hash, so the copy's script never runs.
#![cfg(unix)]
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;

use crate::common::{Setup, pre_tool_use, write};
use hook_config::load;
use hook_protocol::{Dialect, Layer};
use hook_trust::TrustGate;

const COMMAND: &str = "${PLUGIN_ROOT}/run.sh";

/// `plugins/<folder>/` with a manifest named `name` and a hook whose script leaves a mark.
fn plugin(setup: &Setup, folder: &str, name: &str) {
    let home = setup.home();
    write(
        &home,
        &format!("plugins/{folder}/plugin.json"),
        &format!(r#"{{"name": "{name}", "version": "1.0.0"}}"#),
    );
    write(
        &home,
        &format!("plugins/{folder}/hooks/hooks.json"),
        &format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{COMMAND}"}}]}}]}}}}"#
        ),
    );
    let script = write(
        &home,
        &format!("plugins/{folder}/run.sh"),
        "#!/bin/sh\ntouch \"$PLUGIN_ROOT/ran\"\n",
    );
    std::fs::set_permissions(script, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Enables `folder` in the user's config.toml (appended: lime keeps trust records there too).
fn enable(setup: &Setup, folder: &str) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(setup.user_file())
        .unwrap();
    writeln!(file, "[plugins.{folder}]\nenabled = true").unwrap();
}

/// Loads (errors allowed: a rejected plugin is one), dispatches through the trust gate, and
/// says which plugin folders' scripts ran.
fn ran(setup: &Setup, folders: &[&str]) -> Vec<String> {
    let loaded = load(&setup.options()).unwrap();
    let gate = TrustGate::new(setup.view());
    let engine = hook_exec::Engine::new(loaded.registry).with_gate(gate);
    let input = pre_tool_use(Dialect::Lime, &setup.project());
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(engine.dispatch(&input));
    folders
        .iter()
        .filter(|f| setup.home().join(format!("plugins/{f}/ran")).exists())
        .map(|f| f.to_string())
        .collect()
}

#[test]
fn a_copied_plugin_does_not_inherit_the_trust_of_the_one_it_copies() {
    for copy_name in ["guard", "copy"] {
        let setup = Setup::new(Dialect::Lime);
        plugin(&setup, "guard", "guard");
        enable(&setup, "guard");
        setup.trust(COMMAND);
        assert_eq!(ran(&setup, &["guard"]), ["guard"]);
        std::fs::remove_file(setup.home().join("plugins/guard/ran")).unwrap();

        // Same manifest (or its own name), same hooks text, in another folder.
        plugin(&setup, "copy", copy_name);
        enable(&setup, "copy");
        assert_eq!(
            ran(&setup, &["guard", "copy"]),
            ["guard"],
            "manifest name {copy_name:?}"
        );

        let loaded = load(&setup.options()).unwrap();
        let view = setup.view();
        let guard: Vec<_> = loaded
            .registry
            .handlers()
            .iter()
            .filter(|h| h.source.layer == Layer::Plugin)
            .map(|h| (h.key.clone(), view.hash(h), h.plugin_root.clone()))
            .collect();
        // Whatever loaded from `copy` has its own key and hash.
        for (key, hash, root) in &guard {
            if root.as_deref() == Some(setup.home().join("plugins/copy").as_path()) {
                assert!(
                    guard
                        .iter()
                        .all(|(k, h, r)| r == root || (k != key && h != hash))
                );
            }
        }
    }
}

//! Keys survive edits elsewhere in the file; an edit to the hook itself is `modified`.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use crate::common::{Setup, handler};
use hook_protocol::Dialect;
use hook_trust::TrustStatus;

const TARGET: &str = "./guard.sh";

const BASE: &str = r#"# hooks
[[hooks.PreToolUse]]
matcher = "Edit"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./format.sh"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./guard.sh"
timeout = 5
"#;

/// Replaces the hooks of the user file with `hooks`, keeping the trust records.
fn rewrite_hooks(setup: &Setup, hooks: &str) {
    let text = std::fs::read_to_string(setup.user_file()).unwrap();
    let state = &text[text.find("[hooks.state.").expect("records")..];
    std::fs::write(setup.user_file(), format!("{hooks}\n{state}")).unwrap();
}

fn status(setup: &Setup) -> (String, TrustStatus) {
    let loaded = setup.load();
    let hook = handler(&loaded, TARGET);
    (hook.key.clone(), setup.view().evaluate(hook).status)
}

#[test]
fn edits_elsewhere_keep_the_key_and_the_trust() {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(setup.user_file(), BASE).unwrap();
    setup.trust(TARGET);
    let key = "user:config.toml:PreToolUse:Bash:0".to_owned();
    assert_eq!(status(&setup), (key.clone(), TrustStatus::Trusted));

    let reordered = r#"[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./guard.sh"
timeout = 5

[[hooks.PreToolUse]]
matcher = "Edit"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./format.sh"
"#;
    let added_elsewhere = format!(
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"./stop.sh\"\n{BASE}\
         [[hooks.PreToolUse]]\nmatcher = \"Read\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./read.sh\"\n"
    );
    let reformatted = r#"
# The same hooks, written differently: inline tables, spacing, comments.
[[hooks.PreToolUse]]
matcher   =   'Edit'
hooks = [ { type = "command", command = "./format.sh" } ]

[[hooks.PreToolUse]]
matcher = "Bash"   # the guard
hooks = [
  { type = 'command', command = './guard.sh', timeout = 5, statusMessage = "now with a message" },
]
"#;
    for hooks in [reordered, &added_elsewhere, reformatted] {
        rewrite_hooks(&setup, hooks);
        assert_eq!(
            status(&setup),
            (key.clone(), TrustStatus::Trusted),
            "{hooks}"
        );
    }

    // The hook itself edited: same key, modified.
    rewrite_hooks(&setup, &BASE.replace("timeout = 5", "timeout = 6"));
    assert_eq!(status(&setup), (key.clone(), TrustStatus::Modified));
    rewrite_hooks(
        &setup,
        &BASE.replace(
            "command = \"./guard.sh\"",
            "command = \"./guard.sh\"\nasync = true",
        ),
    );
    assert_eq!(status(&setup), (key, TrustStatus::Modified));

    // A hook inserted before it in the same group is a new key: the old one is untrusted
    // under its new key, never silently trusted for another hook.
    let before = BASE.replace(
        "matcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]",
        "matcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./new.sh\"\n[[hooks.PreToolUse.hooks]]",
    );
    rewrite_hooks(&setup, &before);
    let loaded = setup.load();
    let new = handler(&loaded, "./new.sh");
    assert_eq!(new.key, "user:config.toml:PreToolUse:Bash:0");
    assert_eq!(setup.view().evaluate(new).status, TrustStatus::Modified);
    assert_eq!(status(&setup).1, TrustStatus::Untrusted);
}

#[test]
fn user_keys_do_not_hold_the_home_path() {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(setup.user_file(), BASE).unwrap();
    setup.trust(TARGET);
    // The same home, moved: its records still match.
    let moved = setup.scene.root().join("moved-home");
    std::fs::rename(setup.home(), &moved).unwrap();
    std::fs::create_dir_all(setup.home()).unwrap();
    std::fs::rename(&moved, setup.home().join("inner")).unwrap();
    let options = setup.options().with_home(setup.home().join("inner"));
    let loaded = hook_config::load(&options).unwrap();
    let hook = handler(&loaded, TARGET);
    let store = hook_trust::store_for(Dialect::Lime, &setup.home().join("inner"));
    let view = hook_trust::TrustView::load(
        store.as_ref(),
        hook_trust::Policy::for_dialect(Dialect::Lime),
        hook_trust::HashContext::default(),
    );
    assert_eq!(view.evaluate(hook).status, TrustStatus::Trusted);
}

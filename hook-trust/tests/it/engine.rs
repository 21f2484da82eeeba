//! Trust decides what the engine runs: real shell hooks through `hook_exec::Engine`.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use crate::common::{Setup, handler, lime_hook, runs, write};
use hook_protocol::Dialect;
use hook_trust::{Grant, TrustStatus};

fn ok() -> Vec<(String, Option<String>)> {
    vec![("ok".to_owned(), None)]
}

fn skipped(reason: &str) -> Vec<(String, Option<String>)> {
    vec![("skipped".to_owned(), Some(reason.to_owned()))]
}

#[test]
fn trust_edit_retrust_disable_enable() {
    let setup = Setup::new(Dialect::Lime);
    let config = setup.user_file();
    std::fs::write(
        &config,
        format!("# my lime config\n{}", lime_hook("cat >/dev/null # v1")),
    )
    .unwrap();

    let outcome = setup.dispatch();
    assert_eq!(runs(&outcome), skipped("untrusted"));
    let message = outcome.runs[0].error.clone().unwrap();
    assert!(
        message == "hook user:config.toml:PreToolUse:Bash:0 is not trusted",
        "{message} (the gate's plain sentence; hook-cli adds the command)"
    );

    // Trusted: it runs.
    setup.trust("cat >/dev/null # v1");
    assert_eq!(runs(&setup.dispatch()), ok());

    // The command is edited in place (the trust records below it stay): modified, skipped.
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("# v1", "# v2")).unwrap();
    let loaded = setup.load();
    let trust = setup
        .view()
        .evaluate(handler(&loaded, "cat >/dev/null # v2"));
    assert_eq!(trust.status, TrustStatus::Modified);
    assert_ne!(trust.trusted_hash.as_deref(), Some(trust.hash.as_str()));
    let outcome = setup.dispatch();
    assert_eq!(runs(&outcome), skipped("modified"));
    assert!(
        outcome.runs[0]
            .error
            .as_deref()
            .unwrap()
            .contains("changed since it was trusted")
    );

    // Trusted again: it runs.
    setup.trust("cat >/dev/null # v2");
    assert_eq!(runs(&setup.dispatch()), ok());

    // Disabled: skipped, and still trusted.
    let key = "user:config.toml:PreToolUse:Bash:0".to_owned();
    setup
        .store()
        .set_enabled(std::slice::from_ref(&key), false)
        .unwrap();
    let outcome = setup.dispatch();
    assert_eq!(runs(&outcome), skipped("disabled"));
    assert!(
        outcome.runs[0]
            .error
            .as_deref()
            .unwrap()
            .ends_with(" is disabled")
    );
    let loaded = setup.load();
    let trust = setup
        .view()
        .evaluate(handler(&loaded, "cat >/dev/null # v2"));
    assert_eq!((trust.status, trust.enabled), (TrustStatus::Trusted, false));
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("enabled = false")
    );

    // Enabled again: runs, with its trust intact.
    setup
        .store()
        .set_enabled(std::slice::from_ref(&key), true)
        .unwrap();
    assert_eq!(runs(&setup.dispatch()), ok());

    // Untrusted: skipped again.
    setup
        .store()
        .remove_trust(std::slice::from_ref(&key))
        .unwrap();
    assert_eq!(runs(&setup.dispatch()), skipped("untrusted"));
    // Nothing left to say: the record and the state table are gone.
    assert!(
        !std::fs::read_to_string(&config)
            .unwrap()
            .contains("hooks.state")
    );
}

#[test]
fn an_untrusted_hook_can_be_disabled_too() {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(setup.user_file(), lime_hook("cat >/dev/null")).unwrap();
    let key = "user:config.toml:PreToolUse:Bash:0".to_owned();
    setup
        .store()
        .set_enabled(std::slice::from_ref(&key), false)
        .unwrap();
    let outcome = setup.dispatch();
    assert_eq!(runs(&outcome), skipped("disabled"));
    assert!(
        outcome.runs[0]
            .error
            .as_deref()
            .unwrap()
            .contains("also untrusted")
    );
    let loaded = setup.load();
    let trust = setup.view().evaluate(handler(&loaded, "cat >/dev/null"));
    assert_eq!(
        (trust.status, trust.enabled),
        (TrustStatus::Untrusted, false)
    );
}

#[test]
fn a_plugin_upgrade_takes_its_hooks_trust_away() {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(setup.user_file(), "[plugins.guard]\nenabled = true\n").unwrap();
    let plugin = setup.home().join("plugins/guard");
    let manifest = |version: &str| {
        write(
            &plugin,
            "plugin.json",
            &format!(r#"{{"name": "guard", "version": "{version}"}}"#),
        );
    };
    manifest("1.0.0");
    write(
        &plugin,
        "hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "cat >/dev/null # ${PLUGIN_ROOT}"}]}]}}"#,
    );
    assert_eq!(runs(&setup.dispatch()), skipped("untrusted"));
    setup.trust("cat >/dev/null # ${PLUGIN_ROOT}");
    assert_eq!(runs(&setup.dispatch()), ok());

    manifest("1.1.0");
    let loaded = setup.load();
    let hook = handler(&loaded, "cat >/dev/null # ${PLUGIN_ROOT}");
    assert_eq!(
        hook.key, "plugin:guard:PreToolUse:Bash:0",
        "the key keeps no version"
    );
    let trust = setup.view().evaluate(hook);
    assert_eq!(trust.status, TrustStatus::Modified);
    assert!(!trust.may_run());
    assert_eq!(runs(&setup.dispatch()), skipped("modified"));
}

#[test]
fn a_project_file_cannot_trust_itself() {
    let setup = Setup::new(Dialect::Lime);
    let project_file = write(
        &setup.project(),
        ".lime/config.toml",
        &lime_hook("cat >/dev/null"),
    );
    let loaded = setup.load();
    let hook = handler(&loaded, "cat >/dev/null");
    assert!(hook.key.starts_with("project:"), "{}", hook.key);
    // The project writes the right hash for its own hook, in lime's own format.
    let record = format!(
        "\n[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n",
        hook.key,
        setup.view().hash(hook)
    );
    let mut text = std::fs::read_to_string(&project_file).unwrap();
    text.push_str(&record);
    std::fs::write(&project_file, text).unwrap();

    assert_eq!(runs(&setup.dispatch()), skipped("untrusted"));
    let loaded = setup.load();
    let trust = setup.view().evaluate(handler(&loaded, "cat >/dev/null"));
    assert_eq!(trust.status, TrustStatus::Untrusted);
}

#[test]
fn managed_hooks_run_without_trust_and_cannot_be_disabled() {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(setup.managed(), lime_hook("cat >/dev/null # managed")).unwrap();
    assert_eq!(runs(&setup.dispatch()), ok());
    let loaded = setup.load();
    let hook = handler(&loaded, "cat >/dev/null # managed");
    assert_eq!(setup.view().evaluate(hook).status, TrustStatus::Managed);

    setup
        .store()
        .set_enabled(std::slice::from_ref(&hook.key), false)
        .unwrap();
    assert_eq!(runs(&setup.dispatch()), ok());
}

#[test]
fn wuu_and_verboo_trust_the_user_file_and_not_the_project() {
    for dialect in [Dialect::Wuu, Dialect::Verboo] {
        let setup = Setup::new(dialect);
        let (user, project) = match dialect {
            Dialect::Wuu => (
                r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "cat >/dev/null # user"}]}}"#,
                r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "command": "cat >/dev/null # project"}]}}"#,
            ),
            _ => (
                r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat >/dev/null # user"}]}]}}"#,
                r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat >/dev/null # project"}]}]}}"#,
            ),
        };
        std::fs::write(setup.user_file(), user).unwrap();
        std::fs::create_dir_all(setup.project_file().parent().unwrap()).unwrap();
        std::fs::write(setup.project_file(), project).unwrap();

        let expected = vec![
            ("ok".to_owned(), None),
            ("skipped".to_owned(), Some("untrusted".to_owned())),
        ];
        assert_eq!(runs(&setup.dispatch()), expected, "{dialect}");

        setup.trust("cat >/dev/null # project");
        assert_eq!(
            runs(&setup.dispatch()),
            vec![("ok".to_owned(), None); 2],
            "{dialect}"
        );
        let store = std::fs::read_to_string(setup.home().join("hook-trust.json")).unwrap();
        assert!(
            store.contains(r#""trusted_command": "cat >/dev/null # project""#),
            "{store}"
        );

        // Edited: modified, and the store still knows what was trusted.
        std::fs::write(
            setup.project_file(),
            project.replace("# project", "# changed"),
        )
        .unwrap();
        let loaded = setup.load();
        let trust = setup
            .view()
            .evaluate(handler(&loaded, "cat >/dev/null # changed"));
        assert_eq!(trust.status, TrustStatus::Modified, "{dialect}");
        assert_eq!(
            trust.trusted_command.as_deref(),
            Some("cat >/dev/null # project")
        );
        assert_eq!(trust.command, "cat >/dev/null # changed");
    }
}

#[test]
fn a_corrupt_store_trusts_nothing_and_says_so() {
    // lime: a record of the wrong type (the hooks themselves still load).
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(
        setup.user_file(),
        format!(
            "{}\n[hooks.state.\"user:config.toml:PreToolUse:Bash:0\"]\ntrusted_hash = 5\n",
            lime_hook("cat >/dev/null")
        ),
    )
    .unwrap();
    std::fs::write(setup.managed(), lime_hook("cat >/dev/null # managed")).unwrap();
    let view = setup.view();
    let error = view.store_error().expect("corrupt").to_string();
    let config = setup.user_file().display().to_string();
    assert!(
        error.starts_with(&format!("{config}:8:16: corrupt trust store")),
        "{error}"
    );
    let outcome = setup.dispatch();
    assert_eq!(
        runs(&outcome),
        vec![
            ("ok".to_owned(), None),
            ("skipped".to_owned(), Some("untrusted".to_owned()))
        ]
    );
    let message = outcome.runs[1].error.as_deref().unwrap();
    assert!(
        message.contains("the trust store cannot be read"),
        "{message}"
    );

    // The JSON store: invalid JSON. User hooks still run; the project's do not.
    let setup = Setup::new(Dialect::Verboo);
    std::fs::create_dir_all(setup.project_file().parent().unwrap()).unwrap();
    std::fs::write(
        setup.project_file(),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat >/dev/null"}]}]}}"#,
    )
    .unwrap();
    setup.trust("cat >/dev/null");
    let store = setup.home().join("hook-trust.json");
    std::fs::write(&store, "{\"hooks\": {\"x\": \n").unwrap();
    assert_eq!(runs(&setup.dispatch()), skipped("untrusted"));
    let error = setup.view().store_error().expect("corrupt").to_string();
    assert!(
        error.starts_with(&format!("{}:2:1: corrupt trust store", store.display())),
        "{error}"
    );
}

#[test]
fn grants_for_unrelated_keys_change_nothing_else() {
    let setup = Setup::new(Dialect::Lime);
    std::fs::write(setup.user_file(), lime_hook("cat >/dev/null")).unwrap();
    let grant = Grant::new(
        "user:config.toml:Stop::0",
        format!("sha256:{}", "0".repeat(64)),
    );
    setup.store().set_trusted(&[grant]).unwrap();
    assert_eq!(runs(&setup.dispatch()), skipped("untrusted"));
}

/// The gate decides once per key, but never reuses a decision for a different handler under
/// the same key: a trusted hook edited in place (a reloaded registry, the same gate) is
/// `modified`, not trusted from memory.
#[test]
fn a_gate_remembers_decisions_only_for_the_same_handler() {
    use hook_config::Gate;
    use hook_protocol::SkipReason;

    let setup = Setup::new(Dialect::Lime);
    let config = setup.user_file();
    std::fs::write(&config, lime_hook("cat >/dev/null # v1")).unwrap();
    setup.trust("cat >/dev/null # v1");
    let gate = hook_trust::TrustGate::new(setup.view());

    let trusted = setup.load();
    let v1 = handler(&trusted, "cat >/dev/null # v1");
    assert_eq!(gate.check(v1), None);
    assert_eq!(gate.check(v1), None, "asked again: the same answer");

    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("# v1", "# v2")).unwrap();
    let edited = setup.load();
    let v2 = handler(&edited, "cat >/dev/null # v2");
    assert_eq!(v1.key, v2.key, "an edit in place keeps the key");
    let decision = gate.check(v2).map(|(reason, _)| reason);
    assert_eq!(decision, Some(SkipReason::Modified));
    assert_eq!(gate.check(v1), None, "the first handler is still trusted");
}

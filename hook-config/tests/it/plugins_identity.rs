//! A plugin is identified by its folder: `plugin.json`'s `name` must equal the folder name and
//! be made of `[A-Za-z0-9._-]`, keys use it, and two plugins' hooks are never merged into one.

use crate::common::{load_ok, options, shown, write};
use hook_config::Loaded;
use hook_protocol::{Dialect, Event, Layer};
use serde_json::json;

/// The user file enabling `plugins`, and each plugin's hooks file, per dialect.
fn user_file(dialect: Dialect, plugins: &[&str]) -> (&'static str, String) {
    match dialect {
        Dialect::Wuu => {
            let map: serde_json::Map<_, _> = plugins
                .iter()
                .map(|p| (p.to_string(), json!({"enabled": true})))
                .collect();
            ("config.json", json!({ "plugins": map }).to_string())
        }
        Dialect::Verboo => {
            let map: serde_json::Map<_, _> = plugins
                .iter()
                .map(|p| (p.to_string(), json!(true)))
                .collect();
            (
                "settings.json",
                json!({ "enabledPlugins": map }).to_string(),
            )
        }
        Dialect::Lime => {
            let tables: String = plugins
                .iter()
                .map(|p| format!("[plugins.{}]\nenabled = true\n", json!(p)))
                .collect();
            ("config.toml", tables)
        }
    }
}

fn hooks_json(dialect: Dialect) -> String {
    let command = "${PLUGIN_ROOT}/run.sh";
    match dialect {
        Dialect::Wuu => json!({"hooks": {"PreToolUse": [{"matcher": "bash", "command": command}]}}),
        _ => json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command}]}]}}),
    }
    .to_string()
}

/// A home with the plugin folders `folders` (folder name, manifest name), all enabled.
fn load_plugins(dialect: Dialect, folders: &[(&str, &str)]) -> (tempfile::TempDir, Loaded) {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let names: Vec<&str> = folders.iter().map(|(folder, _)| *folder).collect();
    let (file, text) = user_file(dialect, &names);
    write(&home, file, &text);
    for (folder, name) in folders {
        let manifest = json!({"name": name, "version": "1.0.0"}).to_string();
        write(&home, &format!("plugins/{folder}/plugin.json"), &manifest);
        write(
            &home,
            &format!("plugins/{folder}/hooks/hooks.json"),
            &hooks_json(dialect),
        );
    }
    let loaded = load_ok(&options(dialect, &home, &dir.path().join("project")));
    (dir, loaded)
}

fn plugin_keys(loaded: &Loaded) -> Vec<String> {
    loaded
        .registry
        .handlers()
        .iter()
        .filter(|h| h.source.layer == Layer::Plugin)
        .map(|h| h.key.clone())
        .collect()
}

#[test]
fn a_copied_manifest_never_takes_another_plugins_identity() {
    for dialect in [Dialect::Wuu, Dialect::Verboo, Dialect::Lime] {
        // `copy` holds guard's plugin.json, word for word.
        let (_dir, loaded) = load_plugins(dialect, &[("guard", "guard"), ("copy", "guard")]);
        assert_eq!(
            plugin_keys(&loaded),
            ["plugin:guard:PreToolUse:".to_owned()
                + if dialect == Dialect::Wuu {
                    "bash:0"
                } else {
                    "Bash:0"
                }],
            "{dialect}: only the real guard loads"
        );
        let diagnostics = shown(&loaded);
        assert_eq!(diagnostics.len(), 1, "{dialect}: {diagnostics:?}");
        let message = &diagnostics[0];
        assert!(
            message.contains("plugins/copy/plugin.json") && message.contains("`guard`"),
            "{dialect}: names the file and the name: {message}"
        );
        assert!(loaded.has_errors(), "{dialect}");
    }
}

#[test]
fn plugin_names_outside_the_safe_alphabet_are_rejected() {
    let bad = ["../../x\nkey", "a b", "x;rm", "", ".", "..", "é"];
    for name in bad {
        // The folder is a valid one; only the manifest name is wrong.
        let (_dir, loaded) = load_plugins(Dialect::Lime, &[("good", name)]);
        assert!(plugin_keys(&loaded).is_empty(), "{name:?} loaded");
        assert!(loaded.has_errors(), "{name:?}: {:?}", shown(&loaded));
        let message = shown(&loaded).join("\n");
        assert!(
            message.contains("plugins/good/plugin.json"),
            "{name:?}: {message}"
        );
    }
    // Names enabled in the user file that cannot be a folder name are never joined to a path.
    for name in ["../outside", "a/b", ".."] {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("home");
        let (file, text) = user_file(Dialect::Verboo, &[name]);
        write(&home, file, &text);
        // What the name would reach if it were joined to `plugins/`.
        write(
            &home,
            "outside/plugin.json",
            r#"{"name": "outside", "version": "1.0.0"}"#,
        );
        write(
            &home,
            "plugin.json",
            r#"{"name": "..", "version": "1.0.0"}"#,
        );
        let loaded = load_ok(&options(
            Dialect::Verboo,
            &home,
            &dir.path().join("project"),
        ));
        assert!(plugin_keys(&loaded).is_empty(), "{name:?}");
        let message = shown(&loaded).join("\n");
        assert!(message.contains("enabledPlugins"), "{name:?}: {message}");
    }
    // Every allowed character.
    let (_dir, loaded) = load_plugins(Dialect::Lime, &[("Ab-9_.x", "Ab-9_.x")]);
    assert_eq!(plugin_keys(&loaded), ["plugin:Ab-9_.x:PreToolUse:Bash:0"]);
    assert!(shown(&loaded).is_empty(), "{:?}", shown(&loaded));
}

#[test]
fn two_plugins_with_the_same_command_text_both_run() {
    for dialect in [Dialect::Wuu, Dialect::Verboo, Dialect::Lime] {
        let (dir, loaded) = load_plugins(dialect, &[("one", "one"), ("two", "two")]);
        assert!(shown(&loaded).is_empty(), "{:?}", shown(&loaded));
        let selected: Vec<_> = loaded
            .registry
            .select(&Event::PreToolUse, Some("Bash"), None)
            .map(|h| h.expanded_command().unwrap_or_default())
            .collect();
        let plugins = dir.path().join("home/plugins");
        assert_eq!(
            selected,
            [
                format!("{}/run.sh", plugins.join("one").display()),
                format!("{}/run.sh", plugins.join("two").display())
            ],
            "{dialect}"
        );
    }
}

#[test]
fn a_project_copy_never_stands_in_for_a_plugins_hook() {
    // The project writes the plugin's expanded command word for word: identical after
    // expansion, but a project (untrusted) hook never replaces a plugin's in verboo's dedup.
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    let (file, text) = user_file(Dialect::Verboo, &["one"]);
    write(&home, file, &text);
    write(
        &home,
        "plugins/one/plugin.json",
        r#"{"name": "one", "version": "1.0.0"}"#,
    );
    write(
        &home,
        "plugins/one/hooks/hooks.json",
        &hooks_json(Dialect::Verboo),
    );
    let expanded = format!("{}/run.sh", home.join("plugins/one").display());
    let copy = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": expanded}]}]}});
    write(&project, ".claude/settings.json", &copy.to_string());
    let loaded = load_ok(&options(Dialect::Verboo, &home, &project));
    assert!(shown(&loaded).is_empty(), "{:?}", shown(&loaded));
    let layers: Vec<Layer> = loaded
        .registry
        .select(&Event::PreToolUse, Some("Bash"), None)
        .map(|h| h.source.layer)
        .collect();
    assert_eq!(layers, [Layer::Project, Layer::Plugin]);
}

//! Every layer of every dialect, from real files: merged list, sources, keys and order.

use crate::common::{load_ok, shown, summaries, write};
use hook_config::{Environment, LoadOptions, Suppression};
use hook_protocol::{Dialect, Event, HandlerType, Layer};
use serde_json::json;

#[test]
fn verboo_every_layer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let managed = write(
        root,
        "etc/managed-settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "managed-check"}]}]}}"#,
    );
    let user = write(
        root,
        "home/.claude/settings.json",
        r#"{
  "model": "opus", "permissions": {"allow": ["Bash(ls)"]},
  "enabledPlugins": {"fmt": true, "off": false},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "user-check", "timeout": 5}]}],
    "Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}]}]
  }
}"#,
    );
    let project = write(
        root,
        "project/.claude/settings.json",
        r#"{"hooks": {
  "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "http", "url": "http://127.0.0.1:9/hook"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "user-check", "timeout": 5}]}]
}}"#,
    );
    let local = write(
        root,
        "project/.claude/settings.local.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "mcp__.*__write", "hooks": [{"type": "agent", "prompt": "verify"}]}]}}"#,
    );
    write(
        root,
        "home/.claude/plugins/fmt/plugin.json",
        r#"{"name": "fmt", "version": "1.2.0", "description": "formats"}"#,
    );
    let plugin_hooks = write(
        root,
        "home/.claude/plugins/fmt/hooks/hooks.json",
        r#"{"description": "x", "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/fmt.sh"}]}]}}"#,
    );
    // Not enabled: never read, even though it is broken.
    write(root, "home/.claude/plugins/off/plugin.json", "{broken");

    let env = Environment::empty()
        .with_var("HOME", root.join("home"))
        .with_current_dir(root.join("project"));
    let options = LoadOptions::new(Dialect::Verboo, env)
        .with_managed_file(&managed)
        .with_session(
        "audit",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "session-audit"}]}]}}"#,
    );
    let loaded = load_ok(&options);
    assert_eq!(shown(&loaded), Vec::<String>::new());
    let registry = &loaded.registry;
    // The user file's keys name it relative to the home; its source keeps the full path.
    let user_path = user.display().to_string();
    assert!(
        registry
            .handlers()
            .iter()
            .any(|h| h.source.path.as_deref() == Some(user_path.as_str()))
    );

    let d = |p: &std::path::Path| p.display().to_string();
    let rows: Vec<(Layer, String, String)> = registry
        .handlers()
        .iter()
        .map(|h| (h.source.layer, h.key.clone(), h.config.summary()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                Layer::Managed,
                format!("managed:{}:PreToolUse:Bash:0", d(&managed)),
                "managed-check".into()
            ),
            (
                Layer::User,
                "user:settings.json:PreToolUse:Bash:0".to_owned(),
                "user-check".into()
            ),
            (
                Layer::User,
                "user:settings.json:Stop::0".to_owned(),
                "done?".into()
            ),
            (
                Layer::Project,
                format!("project:{}:PostToolUse:Write|Edit:0", d(&project)),
                "http://127.0.0.1:9/hook".into()
            ),
            (
                Layer::Local,
                format!("local:{}:PreToolUse:mcp__.*__write:0", d(&local)),
                "verify".into()
            ),
            (
                Layer::Plugin,
                "plugin:fmt:PostToolUse:Edit:0".into(),
                "${CLAUDE_PLUGIN_ROOT}/fmt.sh".into()
            ),
            (
                Layer::Session,
                "session:audit:PreToolUse::0".into(),
                "session-audit".into()
            ),
        ]
    );

    // The project's copy of the user's hook collapsed into the user's, with its source kept.
    let user_check = &registry.handlers()[1];
    assert_eq!(user_check.duplicates.len(), 1);
    assert_eq!(user_check.duplicates[0].layer, Layer::Project);
    assert_eq!(
        user_check.duplicates[0].path.as_deref(),
        Some(d(&project).as_str())
    );
    assert_eq!(user_check.timeout.as_secs(), 5);

    // Defaults per type: prompt 30 s, http 600 s, agent 60 s.
    assert_eq!(registry.handlers()[2].timeout.as_secs(), 30);
    assert_eq!(registry.handlers()[3].timeout.as_secs(), 600);
    assert_eq!(registry.handlers()[4].timeout.as_secs(), 60);

    let plugin = &registry.handlers()[5];
    let plugin_source = plugin.source.plugin.as_ref().expect("plugin source");
    assert_eq!(
        (plugin_source.name.as_str(), plugin_source.version.as_str()),
        ("fmt", "1.2.0")
    );
    assert_eq!(
        plugin.source.path.as_deref(),
        Some(d(&plugin_hooks).as_str())
    );
    let plugin_root = root.join("home/.claude/plugins/fmt");
    assert_eq!(plugin.plugin_root.as_deref(), Some(plugin_root.as_path()));
    assert_eq!(
        plugin.expanded_command(),
        Some(format!("{}/fmt.sh", plugin_root.display()))
    );

    let bash = registry.select(
        &Event::PreToolUse,
        Some("Bash"),
        Some(&json!({"command": "ls"})),
    );
    assert_eq!(
        summaries(bash),
        ["managed-check", "user-check", "session-audit"]
    );
    let edit = registry.select(&Event::PostToolUse, Some("Edit"), None);
    assert_eq!(
        summaries(edit),
        ["http://127.0.0.1:9/hook", "${CLAUDE_PLUGIN_ROOT}/fmt.sh"]
    );
    let mcp = registry.select(&Event::PreToolUse, Some("mcp__github__write"), None);
    assert_eq!(summaries(mcp), ["verify", "session-audit"]);
    // Stop has no match value: the matcher is irrelevant.
    assert_eq!(
        summaries(registry.select(&Event::Stop, None, None)),
        ["done?"]
    );
    assert!(registry.any_pre_tool_use_matches("Read"));
}

#[test]
fn verboo_disable_all_hooks_and_managed_only() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let hook = |cmd: &str| {
        format!(
            r#""hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "{cmd}"}}]}}]}}"#
        )
    };
    let managed = write(
        root,
        "managed.json",
        &format!(r#"{{"allowManagedHooksOnly": true, {}}}"#, hook("m")),
    );
    write(root, "home/settings.json", &format!("{{{}}}", hook("u")));
    let options = LoadOptions::new(Dialect::Verboo, Environment::empty())
        .with_managed_file(&managed)
        .with_home(root.join("home"))
        .with_project(root.join("project"))
        .with_session("s", format!("{{{}}}", hook("s")));
    let loaded = load_ok(&options);
    let registry = &loaded.registry;
    assert_eq!(
        summaries(registry.select(&Event::Stop, None, None)),
        ["m", "s"]
    );
    assert_eq!(
        registry.handlers()[1].suppressed,
        Some(Suppression::AllowManagedHooksOnly {
            path: managed.display().to_string()
        })
    );

    // disableAllHooks in the project: the project's own hooks only (SPEC "What a project may
    // not do"); local can turn it back off.
    write(
        root,
        "project/.claude/settings.json",
        &format!(r#"{{"disableAllHooks": true, {}}}"#, hook("p")),
    );
    std::fs::write(&managed, format!("{{{}}}", hook("m"))).expect("rewrite");
    let loaded = load_ok(&options);
    assert_eq!(
        summaries(loaded.registry.select(&Event::Stop, None, None)),
        ["m", "u", "s"]
    );
    assert_eq!(
        summaries(
            loaded
                .registry
                .select_including_suppressed(&Event::Stop, None, None)
        ),
        ["m", "u", "p", "s"]
    );
    assert_eq!(
        loaded.registry.handlers().len(),
        4,
        "suppressed ones stay listed"
    );
    write(
        root,
        "project/.claude/settings.local.json",
        r#"{"disableAllHooks": false}"#,
    );
    let loaded = load_ok(&options);
    assert_eq!(
        summaries(loaded.registry.select(&Event::Stop, None, None)),
        ["m", "u", "p", "s"]
    );

    // In the managed file it turns off everything, managed hooks too.
    std::fs::write(
        &managed,
        format!(r#"{{"disableAllHooks": true, {}}}"#, hook("m")),
    )
    .expect("rewrite");
    let loaded = load_ok(&options);
    assert_eq!(loaded.registry.select(&Event::Stop, None, None).count(), 0);
}

#[test]
fn wuu_every_layer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let user = write(
        root,
        "wuu-home/config.json",
        r#"{
  "model_service": {"url": "http://localhost:1", "api_key_env": "X"},
  "agent": {"max_turns": 3},
  "plugins": {"guard": {"enabled": true}, "other": {"enabled": false}},
  "hooks": {
    "PreToolUse": [
      {"matcher": "bash", "command": "a", "timeout": 10},
      {"matcher": "*", "type": "prompt", "prompt": "ok? $ARGUMENTS", "model": "small"}
    ],
    "Stop": [{"command": "s"}]
  }
}"#,
    );
    let project = write(
        root,
        "project/.wuu/config.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Write", "command": "p"}]}}"#,
    );
    write(
        root,
        "wuu-home/plugins/guard/plugin.json",
        r#"{"name": "guard", "version": "0.3.1-beta.1"}"#,
    );
    write(
        root,
        "wuu-home/plugins/guard/hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "BASH", "command": "${PLUGIN_ROOT}/g"}]}}"#,
    );
    let env = Environment::empty()
        .with_var("HOME", root.join("elsewhere"))
        .with_var("WUU_HOME", root.join("wuu-home"))
        .with_current_dir(root.join("project"));
    let loaded = load_ok(&LoadOptions::new(Dialect::Wuu, env));
    assert_eq!(shown(&loaded), Vec::<String>::new());
    let registry = &loaded.registry;
    // The user file's keys name it relative to the home; its source keeps the full path.
    let user_path = user.display().to_string();
    assert!(
        registry
            .handlers()
            .iter()
            .any(|h| h.source.path.as_deref() == Some(user_path.as_str()))
    );
    let keys: Vec<&str> = registry.handlers().iter().map(|h| h.key.as_str()).collect();
    let p = project.display();
    assert_eq!(
        keys,
        [
            "user:config.json:PreToolUse:bash:0".to_owned(),
            "user:config.json:PreToolUse:*:0".to_owned(),
            "user:config.json:Stop::0".to_owned(),
            format!("project:{p}:PreToolUse:Write:0"),
            "plugin:guard:PreToolUse:BASH:0".to_owned(),
        ]
    );
    let types: Vec<HandlerType> = registry
        .handlers()
        .iter()
        .map(|h| h.config.handler_type)
        .collect();
    assert_eq!(types[1], HandlerType::Prompt);
    assert_eq!(registry.handlers()[0].timeout.as_secs(), 10);
    assert_eq!(registry.handlers()[1].timeout.as_secs(), 30);
    assert_eq!(
        registry.handlers()[4]
            .source
            .plugin
            .as_ref()
            .map(|p| p.version.as_str()),
        Some("0.3.1-beta.1")
    );
    assert_eq!(
        summaries(registry.select(&Event::PreToolUse, Some("Bash"), None)),
        ["a", "ok? $ARGUMENTS", "${PLUGIN_ROOT}/g"]
    );
    assert_eq!(
        summaries(registry.select(&Event::PreToolUse, Some("write"), None)),
        ["ok? $ARGUMENTS", "p"]
    );
    assert_eq!(summaries(registry.select(&Event::Stop, None, None)), ["s"]);
    assert!(registry.any_pre_tool_use_matches("anything"));
}

#[test]
fn lime_every_layer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let managed = write(
        root,
        "etc/managed_config.toml",
        r#"
[[hooks.Interrupt]]
[[hooks.Interrupt.hooks]]
type = "command"
command = "record-interrupt"
timeout = 60
"#,
    );
    let user = write(
        root,
        "lime-home/config.toml",
        r#"model = "o3"
approval_policy = "on-request"

[plugins.lint]
enabled = true

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "python3 scripts/check-command.py"
timeout = 5
statusMessage = "checking command scope"

[[hooks.SessionEnd]]
[[hooks.SessionEnd.hooks]]
type = "command"
command = "cleanup"

[hooks.state."user:x:PreToolUse:Bash:0"]
trusted_hash = "sha256:00"
enabled = false
"#,
    );
    let project = write(
        root,
        "project/.lime/config.toml",
        r#"
[[hooks.PostToolUse]]
matcher = "Edit|Write"
[[hooks.PostToolUse.hooks]]
type = "command"
command = "fmt"
commandWindows = "fmt.exe"
async = true
additionalContextLimit = 200
"#,
    );
    write(
        root,
        "lime-home/plugins/lint/plugin.json",
        r#"{"name": "lint", "version": "2.0.0"}"#,
    );
    write(
        root,
        "lime-home/plugins/lint/hooks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "^Ba", "hooks": [
            {"type": "mcp_tool", "server": "lint", "tool": "check", "input": {"cmd": "${tool_input.command}"}, "timeout": 5}
        ]}]}}"#,
    );
    let env = Environment::empty().with_var("LIME_HOME", root.join("lime-home"));
    let options = LoadOptions::new(Dialect::Lime, env)
        .with_managed_file(&managed)
        .with_project(root.join("project"))
        .with_alias("Edit", "apply_patch")
        .with_alias("Write", "apply_patch");
    let loaded = load_ok(&options);
    assert_eq!(
        shown(&loaded),
        [format!(
            "{}:6:11: hooks.Interrupt[0].hooks[0].timeout: 60 s is over the lime maximum of 10 s for Interrupt: 10 s applies",
            managed.display()
        )]
    );
    let registry = &loaded.registry;
    // The user file's keys name it relative to the home; its source keeps the full path.
    let user_path = user.display().to_string();
    assert!(
        registry
            .handlers()
            .iter()
            .any(|h| h.source.path.as_deref() == Some(user_path.as_str()))
    );
    let (m, p) = (managed.display(), project.display());
    let keys: Vec<&str> = registry.handlers().iter().map(|h| h.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            format!("managed:{m}:Interrupt::0"),
            "user:config.toml:PreToolUse:Bash:0".to_owned(),
            "user:config.toml:SessionEnd::0".to_owned(),
            format!("project:{p}:PostToolUse:Edit|Write:0"),
            "plugin:lint:PreToolUse:^Ba:0".to_owned(),
        ]
    );
    let h = registry.handlers();
    assert_eq!(h[0].timeout.as_secs(), 10);
    assert_eq!(h[1].timeout.as_secs(), 5);
    assert_eq!(
        h[1].config.status_message.as_deref(),
        Some("checking command scope")
    );
    assert_eq!(h[1].position.map(|p| p.line), Some(9));
    assert_eq!(h[2].timeout.as_secs(), 1, "SessionEnd defaults to 1 s");
    assert!(h[3].config.is_async);
    assert_eq!(h[3].config.command_windows.as_deref(), Some("fmt.exe"));
    assert_eq!(h[3].config.additional_context_limit, Some(200));
    assert_eq!(h[3].timeout.as_secs(), 600);
    assert_eq!(h[4].config.handler_type, HandlerType::McpTool);
    assert_eq!(
        h[4].config.input,
        Some(json!({"cmd": "${tool_input.command}"}))
    );

    assert_eq!(
        summaries(registry.select(&Event::PreToolUse, Some("Bash"), None)),
        ["python3 scripts/check-command.py", "lint/check"]
    );
    // The agent's patch tool is reached through the `Edit`/`Write` aliases.
    assert_eq!(
        summaries(registry.select(&Event::PostToolUse, Some("apply_patch"), None)),
        ["fmt"]
    );
    assert!(
        registry
            .select(&Event::PostToolUse, Some("Read"), None)
            .next()
            .is_none()
    );
    assert!(!registry.any_pre_tool_use_matches("Read"));
    assert!(registry.any_pre_tool_use_matches("Bash"));
}

#[test]
fn a_missing_file_is_an_empty_layer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for dialect in Dialect::ALL {
        let options = LoadOptions::new(dialect, Environment::empty().with_var("HOME", tmp.path()))
            .with_managed_file(tmp.path().join("no.file"));
        let loaded = load_ok(&options);
        assert!(loaded.diagnostics.is_empty());
        assert!(loaded.registry.handlers().is_empty());
        assert_eq!(loaded.discovery.project, None);
    }
    let error = hook_config::load(&LoadOptions::new(Dialect::Lime, Environment::empty()))
        .expect_err("no home");
    assert_eq!(
        error.to_string(),
        "cannot find the lime home: set HOME, LIME_HOME or pass a home directory"
    );
}

/// lime reads `hooks.json` beside `config.toml` in the user and project layers, the JSON first
/// (as Codex), with keys that name each file, and warns when both files of a layer have hooks.
#[test]
fn lime_hooks_json_beside_config_toml() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let home = root.join("lime-home");
    let user_json = write(
        root,
        "lime-home/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "user-json"}]}]}}"#,
    );
    let user_toml = write(
        root,
        "lime-home/config.toml",
        r#"model = "o3"

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "user-toml"
"#,
    );
    // The project has only a hooks.json: no warning for it.
    let project_json = write(
        root,
        "project/.lime/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "project-json"}]}]}}"#,
    );
    let options = LoadOptions::new(Dialect::Lime, Environment::empty())
        .with_home(&home)
        .with_project(root.join("project"))
        .without_managed();
    let loaded = load_ok(&options);

    let files: Vec<(Layer, bool, String)> = loaded
        .discovery
        .files
        .iter()
        .map(|f| {
            let name = f.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            (f.layer, f.hooks_only, name.to_owned())
        })
        .collect();
    assert_eq!(
        files,
        [
            (Layer::User, true, "hooks.json".to_owned()),
            (Layer::User, false, "config.toml".to_owned()),
            (Layer::Project, true, "hooks.json".to_owned()),
            (Layer::Project, false, "config.toml".to_owned()),
        ]
    );
    assert_eq!(loaded.discovery.user_file(), Some(user_toml.as_path()));
    assert_eq!(
        shown(&loaded),
        [format!(
            "{}: loading hooks from both {} and {}; prefer a single file for this layer",
            user_json.display(),
            user_json.display(),
            user_toml.display()
        )]
    );
    let keys: Vec<String> = loaded
        .registry
        .handlers()
        .iter()
        .map(|h| h.key.clone())
        .collect();
    assert_eq!(
        keys,
        [
            "user:hooks.json:PreToolUse:Bash:0".to_owned(),
            "user:config.toml:PreToolUse:Bash:0".to_owned(),
            format!("project:{}:PreToolUse::0", project_json.display()),
        ]
    );
    assert_eq!(
        summaries(
            loaded
                .registry
                .select(&Event::PreToolUse, Some("Bash"), None)
        ),
        ["user-json", "user-toml", "project-json"]
    );

    // Only the TOML: no warning. The other dialects read no hooks file.
    std::fs::remove_file(&user_json).expect("remove hooks.json");
    assert!(shown(&load_ok(&options)).is_empty());
    for dialect in [Dialect::Wuu, Dialect::Verboo] {
        let options = LoadOptions::new(dialect, Environment::empty())
            .with_home(&home)
            .with_project(root.join("project"))
            .without_managed();
        assert!(
            load_ok(&options)
                .discovery
                .files
                .iter()
                .all(|f| !f.hooks_only),
            "{dialect}"
        );
    }
}

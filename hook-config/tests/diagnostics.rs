//! Every diagnostic, with its exact `file:line:col: message` text.

mod common;

use common::{load_ok, load_user_file, options, shown, summaries, write};
use hook_config::Severity;
use hook_protocol::{Dialect, Event, Layer};

/// Loads `text` as the user file of `dialect` and returns the diagnostics with the file's path
/// replaced by `FILE`, plus the number of handlers loaded.
fn diagnose(dialect: Dialect, text: &str) -> (Vec<String>, usize) {
    let (_dir, path, loaded) = load_user_file(dialect, text);
    let file = path.display().to_string();
    let shown = shown(&loaded)
        .into_iter()
        .map(|d| d.replace(&file, "FILE"))
        .collect();
    (shown, loaded.registry.handlers().len())
}

#[test]
fn json_syntax_error() {
    let (shown, n) = diagnose(
        Dialect::Verboo,
        "{\"hooks\": {\n  \"PreToolUse\": [\n    {\"matcher\": \"Bash\" \"hooks\": []}\n  ]\n}}",
    );
    assert_eq!(
        shown,
        ["FILE:3:24: invalid JSON: expected `,` or `}`; file skipped"]
    );
    assert_eq!(n, 0);
}

#[test]
fn toml_syntax_error() {
    let (shown, n) = diagnose(
        Dialect::Lime,
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\n[[hooks.PreToolUse.hooks]]\n",
    );
    assert_eq!(
        shown,
        ["FILE:2:16: invalid TOML: invalid basic string, expected `\"`; file skipped"]
    );
    assert_eq!(n, 0);
}

#[test]
fn wrong_types() {
    let (shown, n) = diagnose(
        Dialect::Verboo,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": ["ls"], "async": "yes"}
]}]}}"#,
    );
    assert_eq!(
        shown,
        [
            "FILE:2:34: hooks.PreToolUse[0].hooks[0].command: expected a string, found an array",
            "FILE:2:51: hooks.PreToolUse[0].hooks[0].async: expected true or false, found a string",
        ]
    );
    assert_eq!(n, 0);

    let (shown, _) = diagnose(
        Dialect::Lime,
        "[[hooks.PreToolUse]]\nmatcher = 3\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = \"5\"\n",
    );
    assert_eq!(
        shown,
        [
            "FILE:2:11: hooks.PreToolUse[0].matcher: expected a string, found a number",
            "FILE:6:11: hooks.PreToolUse[0].hooks[0].timeout: expected a number of seconds, found a string",
        ]
    );

    let (shown, _) = diagnose(Dialect::Wuu, r#"{"hooks": {"Stop": {"command": "x"}}}"#);
    assert_eq!(
        shown,
        ["FILE:1:20: hooks.Stop: expected an array, found an object"]
    );
    let (shown, _) = diagnose(Dialect::Lime, "hooks = 1\n");
    assert_eq!(shown, ["FILE:1:9: hooks: expected a table, found a number"]);
}

#[test]
fn other_keys_are_never_read() {
    let (shown, n) = diagnose(
        Dialect::Wuu,
        r#"{"model_service": 12, "agent": [1, {"x": null}], "skills": "whatever",
            "hooks": {"Stop": [{"command": "s"}]}}"#,
    );
    assert_eq!(shown, Vec::<String>::new());
    assert_eq!(n, 1);
}

#[test]
fn unknown_handler_type() {
    let (shown, _) = diagnose(
        Dialect::Verboo,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "script", "command": "x"}]}]}}"#,
    );
    assert_eq!(
        shown,
        [
            "FILE:1:41: hooks.Stop[0].hooks[0].type: unknown verboo handler type `script`: expected one of command, http, prompt, agent, mcp_tool, native"
        ]
    );
    let (shown, _) = diagnose(
        Dialect::Wuu,
        r#"{"hooks": {"Stop": [{"type": "http", "url": "http://x"}]}}"#,
    );
    assert_eq!(
        shown,
        [
            "FILE:1:30: hooks.Stop[0].type: unknown wuu handler type `http`: expected one of command, prompt, native"
        ]
    );
    let (shown, _) = diagnose(
        Dialect::Lime,
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = \"x\"\n",
    );
    assert_eq!(
        shown,
        [
            "FILE:2:1: hooks.Stop[0].hooks[0]: missing field `type` (one of command, prompt, agent, mcp_tool, native)"
        ]
    );
}

#[test]
fn missing_required_field() {
    let (shown, _) = diagnose(
        Dialect::Verboo,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "http"}]}], "PreCompact": [{"matcher": "auto"}]}}"#,
    );
    assert_eq!(
        shown,
        [
            "FILE:1:32: hooks.Stop[0].hooks[0]: type `http` needs `url`",
            "FILE:1:68: hooks.PreCompact[0]: missing field `hooks` (an array of handlers)",
        ]
    );
}

#[test]
fn invalid_regex() {
    let (shown, n) = diagnose(
        Dialect::Verboo,
        r#"{"hooks": {"PreToolUse": [
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "ok"}]},
  {"matcher": "Edit(", "hooks": [{"type": "command", "command": "x"}]}
]}}"#,
    );
    assert_eq!(
        shown,
        ["FILE:3:15: invalid regex in matcher `Edit(`: unclosed group"]
    );
    assert_eq!(n, 0, "a broken file loads none of its hooks");
    let (shown, _) = diagnose(
        Dialect::Lime,
        "[[hooks.PreToolUse]]\nmatcher = \"[a-\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\n",
    );
    assert_eq!(
        shown,
        ["FILE:2:11: invalid regex in matcher `[a-`: unclosed character class"]
    );
}

#[test]
fn invalid_if_rule() {
    let (shown, _) = diagnose(
        Dialect::Verboo,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "if": "Bash(git *"}]}]}}"#,
    );
    assert_eq!(
        shown,
        [
            "FILE:1:99: hooks.PreToolUse[0].hooks[0].if: invalid `if` rule `Bash(git *`: the `(` is not closed by a final `)`; expected `Tool` or `Tool(pattern)`, e.g. `Bash(git *)`"
        ]
    );
}

#[test]
fn negative_timeouts() {
    let (shown, n) = diagnose(
        Dialect::Verboo,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": -5}]}]}}"#,
    );
    assert_eq!(
        shown,
        [
            "FILE:1:79: hooks.Stop[0].hooks[0].timeout: expected a positive number of seconds, found -5"
        ]
    );
    assert_eq!(n, 0);
    let (shown, _) = diagnose(
        Dialect::Lime,
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = -1\n",
    );
    assert_eq!(
        shown,
        [
            "FILE:5:11: hooks.Stop[0].hooks[0].timeout: expected a positive number of seconds, found -1"
        ]
    );
    // wuu: non-positive means the default, with a warning; the hook loads.
    let (_dir, path, loaded) = load_user_file(
        Dialect::Wuu,
        r#"{"hooks": {"Stop": [{"command": "x", "timeout": -5}]}}"#,
    );
    assert_eq!(
        shown_of(&loaded, &path),
        ["FILE:1:49: hooks.Stop[0].timeout: -5 is not positive: the default 30 s applies"]
    );
    assert_eq!(loaded.diagnostics[0].severity, Severity::Warning);
    assert_eq!(loaded.registry.handlers()[0].timeout.as_secs(), 30);
}

fn shown_of(loaded: &hook_config::Loaded, path: &std::path::Path) -> Vec<String> {
    let file = path.display().to_string();
    shown(loaded)
        .into_iter()
        .map(|d| d.replace(&file, "FILE"))
        .collect()
}

#[test]
fn unknown_events_and_fields_are_warnings() {
    let (_dir, path, loaded) = load_user_file(
        Dialect::Lime,
        "[[hooks.PreModelRequest]]\n[[hooks.PreModelRequest.hooks]]\ntype = \"command\"\ncommand = \"x\"\nretries = 3\n",
    );
    assert_eq!(
        shown_of(&loaded, &path),
        [
            "FILE:1:9: unknown lime event `PreModelRequest`: its hooks are loaded but run only if the agent sends this event",
            "FILE:5:1: hooks.PreModelRequest[0].hooks[0]: unknown field `retries` ignored",
        ]
    );
    assert!(
        loaded
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Warning)
    );
    let event = Event::from_name("PreModelRequest");
    assert_eq!(summaries(loaded.registry.select(&event, None, None)), ["x"]);
}

#[test]
fn a_broken_file_never_takes_down_the_others() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    write(
        root,
        "home/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "user"}]}]}}"#,
    );
    let project = write(root, "project/.claude/settings.json", "{\"hooks\": ");
    write(
        root,
        "project/.claude/settings.local.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "local"}]}]}}"#,
    );
    let options = options(Dialect::Verboo, &root.join("home"), &root.join("project"));
    let loaded = load_ok(&options);
    assert_eq!(
        shown(&loaded),
        [format!(
            "{}:1:10: invalid JSON: EOF while parsing a value; file skipped",
            project.display()
        )]
    );
    assert!(loaded.has_errors());
    assert_eq!(
        summaries(loaded.registry.select(&Event::Stop, None, None)),
        ["user", "local"]
    );
}

#[test]
fn broken_plugins_are_skipped() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path();
    let home = root.join("home");
    write(
        &home,
        "config.toml",
        "[plugins.nomanifest]\nenabled = true\n[plugins.badversion]\nenabled = true\n\
         [plugins.good]\nenabled = true\n[plugins.absent]\nenabled = true\n",
    );
    write(
        &home,
        "plugins/nomanifest/hooks/hooks.json",
        r#"{"hooks": {}}"#,
    );
    let bad = write(
        &home,
        "plugins/badversion/plugin.json",
        "{\n  \"name\": \"badversion\",\n  \"version\": \"1.0\"\n}",
    );
    write(
        &home,
        "plugins/good/plugin.json",
        r#"{"name": "good", "version": "1.0.0"}"#,
    );
    write(
        &home,
        "plugins/good/hooks/hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "good"}]}]}}"#,
    );
    let options = options(Dialect::Lime, &home, &root.join("project"));
    let loaded = load_ok(&options);
    let plugins = home.join("plugins");
    assert_eq!(
        shown(&loaded),
        [
            format!(
                "{}: plugin `nomanifest` is enabled but its plugin.json is missing; plugin skipped",
                plugins.join("nomanifest/plugin.json").display()
            ),
            format!(
                "{}:3:14: `version`: `1.0` is not a semver version (unexpected end of input while parsing minor version number); plugin `badversion` skipped",
                bad.display()
            ),
            format!(
                "{}: plugin `absent` is enabled but its plugin.json is missing; plugin skipped",
                plugins.join("absent/plugin.json").display()
            ),
        ]
    );
    let handlers = loaded.registry.handlers();
    assert_eq!(summaries(handlers), ["good"]);
    assert_eq!(handlers[0].source.layer, Layer::Plugin);
}

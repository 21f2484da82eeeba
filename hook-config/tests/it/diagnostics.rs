//! Every diagnostic, with its exact `file:line:col: message` text.

use crate::common::{load_ok, load_user_file, options, shown, summaries, write};
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
    assert_eq!(n, 1, "only the broken group is left out");
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
    // lime: as Codex, a timeout under one second is one second, with a warning.
    let (shown, n) = diagnose(
        Dialect::Lime,
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = -1\n",
    );
    assert_eq!(
        shown,
        [
            "FILE:5:11: hooks.Stop[0].hooks[0].timeout: -1 is not positive: 1 s applies (as in Codex)"
        ]
    );
    assert_eq!(n, 1);
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

/// The broken entries of a load: (key with the file replaced by `FILE`, event, error start).
fn broken(loaded: &hook_config::Loaded, file: &str) -> Vec<(String, Option<Event>)> {
    loaded
        .registry
        .broken()
        .iter()
        .map(|b| (b.key.replace(file, "FILE"), b.event.clone()))
        .collect()
}

#[test]
fn one_broken_handler_group_or_event_list_is_left_out_and_everything_else_loads() {
    let (_dir, path, loaded) = load_user_file(
        Dialect::Verboo,
        r#"{"hooks": {
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"},
                                  {"type": "command", "command": "b", "timeout": 0}]},
    {"matcher": "Edit(", "hooks": [{"type": "command", "command": "c"}]},
    {"matcher": "Read", "hooks": [{"type": "command", "command": "d"}]}
  ],
  "Stop": {"not": "a list"},
  "SessionStart": [{"hooks": [{"type": "command", "command": "e"}]}]
}}"#,
    );
    let file = path.display().to_string();
    assert_eq!(
        summaries(loaded.registry.handlers()),
        ["a", "d", "e"],
        "{:?}",
        loaded.diagnostics
    );
    assert_eq!(
        broken(&loaded, &file),
        [
            (
                "user:settings.json:PreToolUse:Bash:invalid@4:35".to_owned(),
                Some(Event::PreToolUse)
            ),
            (
                "user:settings.json:PreToolUse:Edit(:invalid@5:5".to_owned(),
                Some(Event::PreToolUse)
            ),
            (
                "user:settings.json:Stop::invalid@8:11".to_owned(),
                Some(Event::Stop)
            ),
        ]
    );
    let registry = &loaded.registry;
    let errors = |event: &Event, tool: Option<&str>| -> Vec<String> {
        registry
            .broken_for(event, tool)
            .map(|b| b.error.replace(&file, "FILE"))
            .collect()
    };
    // A broken handler is reported where its (valid) matcher matches; a broken matcher always.
    assert_eq!(
        errors(&Event::PreToolUse, Some("Bash")),
        [
            "FILE:4:82: hooks.PreToolUse[0].hooks[1].timeout: expected a positive number of seconds, found 0",
            "FILE:5:17: invalid regex in matcher `Edit(`: unclosed group",
        ]
    );
    assert_eq!(errors(&Event::PreToolUse, Some("Read")).len(), 1);
    assert_eq!(
        errors(&Event::Stop, None),
        ["FILE:8:11: hooks.Stop: expected an array, found an object"]
    );
    assert!(errors(&Event::SessionStart, Some("startup")).is_empty());
}

#[test]
fn an_unreadable_file_is_one_broken_entry_on_every_event() {
    let (_dir, path, loaded) = load_user_file(Dialect::Verboo, "{\"hooks\": ");
    let file = path.display().to_string();
    assert!(loaded.registry.handlers().is_empty());
    assert_eq!(
        broken(&loaded, &file),
        [("user:settings.json:*::invalid@1:10".to_owned(), None)]
    );
    for event in [Event::PreToolUse, Event::Stop, Event::from_name("Newer")] {
        let shown: Vec<String> = loaded
            .registry
            .broken_for(&event, Some("Bash"))
            .map(|b| b.error.replace(&file, "FILE"))
            .collect();
        assert_eq!(shown.len(), 1, "{event}");
        assert!(shown[0].starts_with("FILE:1:10: invalid JSON"), "{shown:?}");
    }
}

#[test]
fn duplicate_keys_read_as_the_agent_reads_json_the_last_wins() {
    // Two `hooks` objects, and `PreToolUse` twice inside the last: Claude Code (JSON.parse)
    // keeps the last of each, so only `./last.sh` runs.
    let (shown, n) = diagnose(
        Dialect::Verboo,
        "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./gone.sh\"}]}]},\n\
         \"hooks\": {\n\
         \"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./first.sh\"}]}],\n\
         \"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./last.sh\"}]}]}}",
    );
    assert_eq!(n, 1, "{shown:?}");
    assert_eq!(
        shown,
        [
            "FILE:1:2: duplicate key `hooks`: only the last one (line 2) is read, as the agent reads JSON; this one and everything under it is ignored: merge the two",
            "FILE:3:1: duplicate key `PreToolUse`: only the last one (line 4) is read, as the agent reads JSON; this one and everything under it is ignored: merge the two",
        ]
    );
    let (_dir, _path, loaded) = load_user_file(
        Dialect::Verboo,
        "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./first.sh\"}]}],\n\
         \"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./last.sh\"}]}]}}",
    );
    let commands: Vec<_> = loaded
        .registry
        .handlers()
        .iter()
        .map(|h| h.config.command.clone().unwrap_or_default())
        .collect();
    assert_eq!(commands, ["./last.sh"]);
}

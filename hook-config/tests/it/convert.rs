//! `convert`: translating hooks between dialects, with a warning for everything that has no
//! equivalent, and round trips that give the original handlers back.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use hook_config::{FileHook, convert, parse_hooks};
use hook_protocol::Dialect;

fn parse(dialect: Dialect, text: &str) -> Vec<FileHook> {
    let parsed = parse_hooks(dialect, "FILE", text, dialect == Dialect::Lime);
    assert!(
        !parsed.has_errors(),
        "{dialect}: {:?}\n{text}",
        parsed.diagnostics
    );
    parsed.hooks
}

/// Converts `text` from `a` to `b` and back; returns the intermediate text and both warning lists.
fn round_trip(a: Dialect, b: Dialect, text: &str) -> (String, Vec<String>) {
    let original = parse(a, text);
    let there = convert(a, b, &original);
    let back = convert(b, a, &parse(b, &there.text));
    // The handlers, not where they stand in each file.
    let written = |hooks: &[FileHook]| -> Vec<_> {
        hooks
            .iter()
            .map(|h| {
                (
                    h.event.clone(),
                    h.matcher.clone(),
                    h.config.clone(),
                    h.timeout,
                )
            })
            .collect()
    };
    assert_eq!(
        written(&parse(a, &back.text)),
        written(&original),
        "{a} -> {b} -> {a}\n{}\n{}",
        there.text,
        back.text
    );
    let mut warnings = there.warnings;
    warnings.extend(back.warnings);
    (there.text, warnings)
}

const VERBOO_COMMON: &str = r#"{"hooks": {
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [
      {"type": "command", "command": "./guard.sh", "timeout": 5, "async": false, "statusMessage": "checking"},
      {"type": "command", "command": "./log.sh", "async": true}
    ]},
    {"matcher": "mcp__.*__write", "hooks": [
      {"type": "mcp_tool", "server": "checks", "tool": "record", "input": {"cmd": "${tool_input.command}"}, "timeout": 7}
    ]}
  ],
  "SessionStart": [{"hooks": [{"type": "command", "command": "./context.sh"}]}],
  "Stop": [{"hooks": [{"type": "prompt", "prompt": "done? $ARGUMENTS", "model": "fast", "timeout": 20}]}],
  "SubagentStop": [{"matcher": "reviewer", "hooks": [{"type": "native", "library": "libhook.so"}]}]
}}"#;

#[test]
fn verboo_to_lime_and_back_keeps_every_shared_field() {
    let (lime, warnings) = round_trip(Dialect::Verboo, Dialect::Lime, VERBOO_COMMON);
    assert_eq!(
        warnings,
        vec![
            "Stop handler 5 (done? $ARGUMENTS): lime parses prompt handlers but never runs them"
                .to_owned()
        ]
    );
    assert!(
        lime.contains("[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n"),
        "{lime}"
    );
    assert!(
        lime.contains("[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\""),
        "{lime}"
    );
}

#[test]
fn lime_to_verboo_and_back() {
    let lime = r#"
[[hooks.PreToolUse]]
matcher = "Bash|Shell"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "python3 check.py"
timeout = 5
statusMessage = "checking command scope"

[[hooks.SessionEnd]]
[[hooks.SessionEnd.hooks]]
type = "command"
command = "./cleanup.sh"
"#;
    let (verboo, warnings) = round_trip(Dialect::Lime, Dialect::Verboo, lime);
    assert!(warnings.is_empty(), "{warnings:?}");
    // SessionEnd's lime default is 1 s; verboo's is 600 s, so the converted file says 1.
    let value: serde_json::Value = serde_json::from_str(&verboo).unwrap();
    assert_eq!(value["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 1);
    assert_eq!(value["hooks"]["PreToolUse"][0]["matcher"], "Bash|Shell");
}

#[test]
fn wuu_to_verboo_and_back() {
    let wuu = r#"{"model": "other keys are never copied", "hooks": {
      "PreToolUse": [
        {"matcher": "bash", "type": "command", "command": "python3 check-shell.py", "timeout": 10},
        {"matcher": "*", "command": "./log.sh"}
      ],
      "PostToolUse": [{"matcher": "edit", "type": "prompt", "prompt": "ok? $ARGUMENTS", "model": "m"}],
      "Stop": [{"command": "./done.sh"}]
    }}"#;
    let (verboo, warnings) = round_trip(Dialect::Wuu, Dialect::Verboo, wuu);
    assert_eq!(warnings, vec![
        "PreToolUse handler 1 (python3 check-shell.py): wuu matches `bash` case-insensitively, verboo matches tool names exactly: check the tool's name as verboo spells it".to_owned(),
        "PostToolUse handler 3 (ok? $ARGUMENTS): wuu matches `edit` case-insensitively, verboo matches tool names exactly: check the tool's name as verboo spells it".to_owned(),
    ]);
    // wuu's 30 s default is written out where verboo's default differs.
    let value: serde_json::Value = serde_json::from_str(&verboo).unwrap();
    assert_eq!(value["hooks"]["PreToolUse"][1]["hooks"][0]["timeout"], 30);
    assert_eq!(value["hooks"]["Stop"][0]["hooks"][0]["timeout"], 30);
    assert!(value.get("model").is_none());
}

#[test]
fn everything_without_an_equivalent_is_a_warning() {
    let verboo = r#"{"hooks": {
      "PreToolUse": [
        {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "./fmt.sh", "if": "Edit(*.rs)"}]},
        {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "./mcp.sh"}]}
      ],
      "Notification": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}],
      "PostToolUse": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/hook", "headers": {"X": "1"}}]}],
      "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "./ctx.sh"}]}]
    }}"#;
    let hooks = parse(Dialect::Verboo, verboo);

    let lime = convert(Dialect::Verboo, Dialect::Lime, &hooks);
    assert_eq!(lime.warnings, vec![
        "PreToolUse handler 1 (./fmt.sh): `if` has no lime equivalent; dropped; the handler now runs for every matching call".to_owned(),
        "Notification handler 3 (./notify.sh): lime has no Notification event; handler dropped".to_owned(),
        "PostToolUse handler 4 (http://127.0.0.1:9/hook): lime has no http handlers; handler dropped".to_owned(),
    ]);

    let wuu = convert(Dialect::Verboo, Dialect::Wuu, &hooks);
    assert_eq!(
        wuu.warnings[1],
        "PreToolUse handler 2 (./mcp.sh): wuu matchers are exact tool names, so the regular expression `mcp__.*` has no equivalent; handler dropped"
    );
    assert!(wuu.warnings.iter().any(|w| {
        w.contains("matcher `startup` is dropped and the handler runs on every SessionStart")
    }));
    // A `|` list becomes one wuu entry per name.
    let value: serde_json::Value = serde_json::from_str(&wuu.text).unwrap();
    let matchers: Vec<&str> = value["hooks"]["PreToolUse"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["matcher"].as_str().unwrap())
        .collect();
    assert_eq!(matchers, ["Write", "Edit"]);
}

#[test]
#[allow(clippy::print_stderr)]
fn converted_verboo_configs_validate_against_the_community_settings_schema() {
    // Third-party test data kept outside the repository; `.ci/run` sets the variable.
    let Some(root) = std::env::var_os("HOOK_REFERENCE_DIR") else {
        skip_notice(
            "skipped: the community settings schema needs HOOK_REFERENCE_DIR (.ci/run sets it)",
        );
        return;
    };
    let schema_path = std::path::Path::new(&root).join("verboo-settings-hooks.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&schema_path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (HOOK_REFERENCE_DIR must hold the reference schemas)",
                schema_path.display()
            )
        }))
        .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let lime = r#"
[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "./guard.sh"
timeout = 5
statusMessage = "checking"
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "mcp_tool"
server = "s"
tool = "t"
input = {}
"#;
    // `native` is this project's extension, which the community schema does not know.
    let verboo_without_native = VERBOO_COMMON.replace(
        r#",
  "SubagentStop": [{"matcher": "reviewer", "hooks": [{"type": "native", "library": "libhook.so"}]}]"#,
        "",
    );
    assert_ne!(verboo_without_native, VERBOO_COMMON);
    for (from, text) in [
        (Dialect::Lime, lime),
        (Dialect::Verboo, verboo_without_native.as_str()),
    ] {
        let converted = convert(from, Dialect::Verboo, &parse(from, text));
        let value: serde_json::Value = serde_json::from_str(&converted.text).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{} {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{errors:?}\n{}", converted.text);
    }
}

/// Says on the terminal that a test was skipped, also without `--nocapture`: the test harness
/// captures `eprintln!`, not writes to the stderr handle.
fn skip_notice(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// One command handler written in `dialect`'s file format, with `onFailure` when given.
fn one_handler(dialect: Dialect, event: &str, command: &str, on_failure: Option<&str>) -> String {
    let command_json = serde_json::to_string(command).unwrap();
    let on_failure_json = on_failure
        .map(|word| format!(r#", "onFailure": "{word}""#))
        .unwrap_or_default();
    match dialect {
        Dialect::Verboo => format!(
            r#"{{"hooks": {{"{event}": [{{"hooks": [{{"type": "command", "command": {command_json}{on_failure_json}}}]}}]}}}}"#
        ),
        Dialect::Wuu => format!(
            r#"{{"hooks": {{"{event}": [{{"type": "command", "command": {command_json}{on_failure_json}}}]}}}}"#
        ),
        Dialect::Lime => {
            let on_failure_toml = on_failure
                .map(|word| format!("onFailure = \"{word}\"\n"))
                .unwrap_or_default();
            format!(
                "[[hooks.{event}]]\n[[hooks.{event}.hooks]]\ntype = \"command\"\ncommand = {command_json}\n{on_failure_toml}"
            )
        }
    }
}

/// `onFailure` crosses every pair of dialects (the engine reads it in each: the relay's files,
/// `hook run`, wuu agents), and a command using a variable the target's agent does not set is
/// named, with what to write instead. Each row: from, to, event, command, onFailure, and the
/// start of every warning about variables or `onFailure`, in order.
#[test]
fn on_failure_is_kept_and_variables_the_target_does_not_set_are_named() {
    use Dialect::{Lime, Verboo, Wuu};
    type Row = (
        Dialect,
        Dialect,
        &'static str,
        &'static str,
        Option<&'static str>,
        &'static [&'static str],
    );
    let table: &[Row] = &[
        // The Claude Code guard the issue converted: Codex sets no CLAUDE_PROJECT_DIR and
        // ignores onFailure in its own settings; the relay does both.
        (
            Verboo,
            Lime,
            "PreToolUse",
            r#""$CLAUDE_PROJECT_DIR"/hooks/guard.sh"#,
            Some("block"),
            &[
                "PreToolUse handler 1 (\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh): `onFailure` kept: `hook relay` reads it in the relay's files, but Codex CLI ignores it",
                "PreToolUse handler 1 (\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh): Codex CLI does not set `CLAUDE_PROJECT_DIR` for the hooks of its own settings (`hook relay` sets it for the hooks of the relay's files): `$CLAUDE_PROJECT_DIR` expands to empty and the command fails; write `$HOOK_PROJECT_DIR`",
            ],
        ),
        // Braced, under wuu: the engine runs it, and sets HOOK_PROJECT_DIR.
        (
            Verboo,
            Wuu,
            "PreToolUse",
            "${CLAUDE_PROJECT_DIR}/hooks/guard.sh",
            Some("block"),
            &[
                "PreToolUse handler 1 (${CLAUDE_PROJECT_DIR}/hooks/guard.sh): Wuu does not set `CLAUDE_PROJECT_DIR`: `$CLAUDE_PROJECT_DIR` expands to empty and the command fails; write `$HOOK_PROJECT_DIR`, which the engine sets in every dialect",
            ],
        ),
        // The engine's name, into Claude Code's settings, which Claude Code runs itself.
        (
            Lime,
            Verboo,
            "PreToolUse",
            "$HOOK_PROJECT_DIR/guard.sh",
            Some("block"),
            &[
                "PreToolUse handler 1 ($HOOK_PROJECT_DIR/guard.sh): Claude Code does not set `HOOK_PROJECT_DIR` for the hooks of its own settings (`hook relay` sets it for the hooks of the relay's files): `$HOOK_PROJECT_DIR` expands to empty and the command fails; write `$CLAUDE_PROJECT_DIR`, which Claude Code sets",
            ],
        ),
        // Claude Code sets its own variable; a longer name is another variable.
        (
            Wuu,
            Verboo,
            "PreToolUse",
            "$CLAUDE_PROJECT_DIR/guard.sh $CLAUDE_PROJECT_DIRS",
            Some("block"),
            &[],
        ),
        (
            Verboo,
            Lime,
            "PreToolUse",
            "./guard.sh $CLAUDE_PROJECT_DIRS",
            Some("continue"),
            &[],
        ),
        // Only Claude Code gives SessionStart hooks a CLAUDE_ENV_FILE.
        (
            Verboo,
            Lime,
            "SessionStart",
            r#"echo A=1 >> "$CLAUDE_ENV_FILE""#,
            None,
            &[
                "SessionStart handler 1 (echo A=1 >> \"$CLAUDE_ENV_FILE\"): Codex CLI sets no `CLAUDE_ENV_FILE` on SessionStart: what the hook writes to it is lost",
            ],
        ),
        (
            Wuu,
            Lime,
            "PreToolUse",
            "./guard.sh",
            Some("block"),
            &["PreToolUse handler 1 (./guard.sh): `onFailure` kept"],
        ),
        (Lime, Wuu, "PreToolUse", "./guard.sh", Some("block"), &[]),
    ];
    for (from, to, event, command, on_failure, expected) in table {
        let row = format!("{from} -> {to}: {command}");
        let converted = convert(
            *from,
            *to,
            &parse(*from, &one_handler(*from, event, command, *on_failure)),
        );
        let back = parse(*to, &converted.text);
        assert_eq!(back.len(), 1, "{row}\n{}", converted.text);
        let written = on_failure.map(|word| match word {
            "block" => hook_config::OnFailure::Block,
            _ => hook_config::OnFailure::Continue,
        });
        assert_eq!(
            back[0].config.on_failure, written,
            "{row}\n{}",
            converted.text
        );
        assert_eq!(back[0].config.command.as_deref(), Some(*command), "{row}");
        let said: Vec<&String> = converted
            .warnings
            .iter()
            .filter(|w| {
                w.contains("does not set") || w.contains("sets no") || w.contains("onFailure")
            })
            .collect();
        assert_eq!(said.len(), expected.len(), "{row}: {said:#?}");
        for (warning, start) in said.iter().zip(expected.iter()) {
            assert!(
                warning.starts_with(start),
                "{row}:\n{warning}\ndoes not start with\n{start}"
            );
        }
    }
}

//! `test` (a command, and `--expectations`), `validate`, `convert` and `schema`, each output
//! whole.

use super::{Scene, loose};

const GUARD: &str =
    "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'no rm -rf here' >&2; exit 2; }\nexit 0\n";

#[test]
fn test_a_command() {
    let scene = Scene::new();
    scene.script("project/guard.sh", GUARD);
    let test = [
        "test",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
        "--",
        "./guard.sh",
    ];
    snap!("test_command", loose(&ms(&scene.run(&test, ""))));
    let mut json = test.to_vec();
    json.insert(7, "--json");
    snap!("test_command_json", scene.run(&json, ""));
    scene.script(
        "project/broken.sh",
        "#!/bin/sh\necho '{\"decision\": \"maybe\"}'\n",
    );
    snap!(
        "test_command_invalid_output",
        loose(&ms(&scene.run(
            &[
                "test",
                "--dialect",
                "verboo",
                "--event",
                "Stop",
                "--",
                "./broken.sh"
            ],
            ""
        )))
    );
}

/// The `ms` column of `hook test`'s table as `[MS]`.
fn ms(text: &str) -> String {
    let column = regex::Regex::new(
        r"(?m)^((?:minimal event|your input|another tool|another event)\s+\S+\s+\S+\s+-?\d+\s+)\d+",
    )
    .unwrap();
    column.replace_all(text, "${1}[MS]").into_owned()
}

#[test]
fn test_expectations() {
    let scene = Scene::new();
    scene.script("project/guard.sh", GUARD);
    scene.write(
        "project/.claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "./guard.sh"}]}]}}
"#,
    );
    scene.write(
        "project/.claude/hook-expectations.toml",
        r#"[[case]]
name = "blocks rm -rf"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "rm -rf /" } }
expect = "block"
reason_contains = "rm -rf"

[[case]]
name = "lets ls through"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "ls" } }
expect = "allow"

[[case]]
name = "a wrong expectation"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "ls" } }
expect = "block"
"#,
    );
    // Untrusted project hooks are reported, not run: trust them first.
    snap!(
        "test_expectations_untrusted",
        loose(&scene.run(&["test", "--dialect", "verboo", "--expectations"], ""))
    );
    scene.run(&["trust", "--dialect", "verboo", "--all"], "");
    snap!(
        "test_expectations",
        loose(&scene.run(&["test", "--dialect", "verboo", "--expectations"], ""))
    );
    scene.write(
        "project/.claude/hook-expectations.toml",
        "[[case]]\nevent = 3\n",
    );
    snap!(
        "test_expectations_broken_file",
        loose(&scene.run(&["test", "--dialect", "verboo", "--expectations"], ""))
    );
}

#[test]
fn validate_and_convert() {
    let scene = Scene::new();
    let validate = ["validate", "--dialect", "verboo", "--event", "PreToolUse"];
    snap!(
        "validate_valid",
        scene.run(
            &validate,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#
        )
    );
    snap!(
        "validate_warning",
        scene.run(
            &validate,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permisionDecision":"deny"}}"#
        )
    );
    snap!(
        "validate_invalid_json",
        scene.run(
            &["validate", "--dialect", "lime", "--event", "Stop", "--json"],
            r#"{"decision": "maybe"}"#
        )
    );
    snap!("validate_empty_stdin", scene.run(&validate, ""));
    snap!(
        "validate_unknown_event",
        scene.run(
            &["validate", "--dialect", "verboo", "--event", "pretooluse"],
            "{}"
        )
    );
    scene.write(
        "project/settings.json",
        "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [\n  {\"type\": \"comand\", \"command\": \"x\"}]}]}}\n",
    );
    snap!(
        "validate_config_bad",
        scene.run(
            &[
                "validate",
                "--dialect",
                "verboo",
                "--config",
                "settings.json"
            ],
            ""
        )
    );
    scene.write(
        "project/good.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|Write", "hooks": [
  {"type": "command", "command": "./guard.sh", "timeout": 20}]}],
  "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}]}}
"#,
    );
    snap!(
        "convert_verboo_to_lime",
        scene.run(
            &["convert", "--from", "verboo", "--to", "lime", "good.json"],
            ""
        )
    );
    snap!(
        "schema_unknown_event",
        scene.run(
            &["schema", "--dialect", "lime", "--event", "Notification"],
            ""
        )
    );
}

//! A relay guard that cannot do its job is never skipped in silence, in both agents' relay
//! (in-process): a guard the relay cannot run (`mcp_tool` with no MCP client; `prompt` with no
//! model client, which lime never runs), one it cannot read (a field of the wrong type, a
//! miscased `onFailure`, a file that does not parse) and one that answers while a program it
//! needs is missing (`jq: not found`, exit 0). With `onFailure: "block"` the call is blocked
//! with the reason; without it the call goes ahead and the session is told once, naming the
//! guard, why and what to do. `hook stats` flags the guard while it fails.

use hook_test_support::Scene;
use std::path::{Path, PathBuf};

use hook_protocol::{Dialect, Event};
use serde_json::Value;

use super::super::{output, text};
use super::{
    agent_reads, event_bytes, is_block, lime, relay, system_message, trust_lime_relay, verboo,
};

/// One way a guard cannot do its job: its handler (or whole relay file) in each dialect.
struct Case {
    name: &'static str,
    /// The verboo handler object, or (starting with `{"hooks"`) the whole file.
    verboo: &'static str,
    /// The lime handler table's lines, or (starting with `[[`) the whole file.
    lime: &'static str,
    /// What the session note says of it.
    says: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "an mcp_tool guard (no MCP client in the relay)",
        verboo: r#"{"type": "mcp_tool", "server": "guard", "tool": "check", ONFAILURE}"#,
        lime: "type = \"mcp_tool\"\nserver = \"guard\"\ntool = \"check\"\nONFAILURE",
        says: "Write this guard as a `command` hook",
    },
    Case {
        name: "a prompt guard (no model client; lime never runs one)",
        verboo: r#"{"type": "prompt", "prompt": "Is this safe? $ARGUMENTS", ONFAILURE}"#,
        lime: "type = \"prompt\"\nprompt = \"Is this safe?\"\nONFAILURE",
        says: "Write this guard as a `command` hook",
    },
    Case {
        name: "a timeout written as a string",
        verboo: r#"{"type": "command", "command": "exit 0", "timeout": "30", ONFAILURE}"#,
        lime: "type = \"command\"\ncommand = \"exit 0\"\ntimeout = \"30\"\nONFAILURE",
        says: "hook validate --config",
    },
    Case {
        name: "a miscased onFailure",
        verboo: r#"{"type": "command", "command": "exit 0", ONFAILURE}"#,
        lime: "type = \"command\"\ncommand = \"exit 0\"\nONFAILURE",
        says: MISCASED,
    },
    Case {
        name: "a relay file with a syntax error",
        verboo: r#"{"hooks": {"PreToolUse": [{"matcher": "Bash" "hooks": [{"type": "command", "command": "exit 0", ONFAILURE}]}]}}"#,
        lime: "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"exit 0\nONFAILURE\n",
        says: "hook validate --config",
    },
];

/// What the miscased case says: without `onFailure` at all it is an ordinary guard, so only its
/// `"Block"` variant is checked.
const MISCASED: &str = "miscased";

/// The relay file of `case` in `dialect`, with `onFailure: "block"` (written `"Block"` in the
/// miscased case) or without.
fn relay_file(dialect: Dialect, case: &Case, block: bool) -> String {
    let word = if case.says == MISCASED {
        "Block"
    } else {
        "block"
    };
    let (on_failure, handler) = if dialect == verboo() {
        let on_failure = if block {
            format!(r#""onFailure": "{word}""#)
        } else {
            r#""x": 1"#.to_owned()
        };
        (on_failure, case.verboo)
    } else {
        let on_failure = if block {
            format!("onFailure = \"{word}\"")
        } else {
            String::new()
        };
        (on_failure, case.lime)
    };
    // Without onFailure, the verboo placeholder is an unknown field (a warning, nothing more).
    let handler = handler.replace(r#", ONFAILURE"#, &format!(", {on_failure}"));
    let handler = handler.replace("ONFAILURE", &on_failure);
    if handler.starts_with("{\"hooks\"") || handler.starts_with("[[") {
        return handler;
    }
    if dialect == verboo() {
        format!(r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{handler}]}}]}}}}"#)
    } else {
        format!("[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n{handler}\n")
    }
}

/// A relay home of `dialect` whose user relay file is `file` (trusted where it can be read).
fn home_with(dir: &Path, dialect: Dialect, file: &str) -> PathBuf {
    let home = dir.join(format!("home-{dialect}"));
    std::fs::create_dir_all(home.join("hook-relay")).unwrap();
    let name = if dialect == verboo() {
        "settings.json"
    } else {
        "config.toml"
    };
    std::fs::write(home.join("hook-relay").join(name), file).unwrap();
    if dialect == lime() {
        // lime runs only what the user trusted; a file that cannot be read has nothing to trust.
        let _ = output(
            &[
                "trust",
                "--dialect",
                "lime",
                "--home",
                &home.display().to_string(),
                "--relay",
                "--all",
            ],
            "",
        );
    }
    home
}

#[test]
fn a_guard_that_cannot_run_or_be_read_blocks_when_it_asked_to_and_is_named_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let event = Event::PreToolUse;
    for dialect in [verboo(), lime()] {
        for case in CASES {
            for block in [true, false] {
                if case.says == MISCASED && !block {
                    continue;
                }
                let what = format!("{dialect}, {}, onFailure block: {block}", case.name);
                let case_dir = dir
                    .path()
                    .join(format!("{dialect}-{}-{block}", case.name.len()));
                let home = home_with(&case_dir, dialect, &relay_file(dialect, case, block));
                if case.says.contains("command") {
                    // Said where it is written, too: `relay install` warns.
                    let agent_file = case_dir.join(if dialect == verboo() {
                        "agent-settings.json"
                    } else {
                        "agent-config.toml"
                    });
                    let install = output(
                        &[
                            "relay",
                            "install",
                            "--dialect",
                            &dialect.to_string(),
                            "--home",
                            &home.display().to_string(),
                            "--agent-config",
                            &agent_file.display().to_string(),
                        ],
                        "",
                    );
                    let said = text(&install.stderr);
                    assert!(
                        said.contains("does not run under the relay"),
                        "{what}: {said}"
                    );
                }
                let bytes = event_bytes(dialect, &event, &project, None);
                let out = relay(dialect, &home, &project, &event, &bytes);
                let read = agent_reads(dialect, &event, &out);
                let stderr = text(&out.stderr);
                assert_eq!(is_block(&read), block, "{what}: {read:?} {stderr}");
                if block {
                    continue;
                }
                // The call went ahead: the session is told which guard, why and what to do.
                let message = system_message(&out);
                assert!(
                    message.contains("could not do its job") && message.contains(case.says),
                    "{what}: {message:?}"
                );
                assert!(
                    message.contains("the event went ahead without it"),
                    "{what}: {message:?}"
                );
                // `hook stats` flags it while it fails.
                let stats = output(
                    &[
                        "stats",
                        "--dialect",
                        &dialect.to_string(),
                        "--home",
                        &home.display().to_string(),
                    ],
                    "",
                );
                let stats = text(&stats.stdout);
                assert!(stats.contains("failing now"), "{what}: {stats}");
                // Once per session: the next call says the skip, not the note again.
                let again = relay(dialect, &home, &project, &event, &bytes);
                assert!(
                    !system_message(&again).contains("could not do its job"),
                    "{what}: {}",
                    system_message(&again)
                );
            }
        }
    }
}

/// A guard whose pipeline's program is missing exits 0 (an allow) while the shell says so on
/// stderr: the call goes ahead, and the session is told once that the guard did not do its
/// job, naming the program.
#[test]
fn a_guard_that_answers_without_a_program_it_needs_is_named_once() {
    let scene = Scene::new();
    let project = scene.project();
    let event = Event::PreToolUse;
    let guard =
        "no-such-jq-for-hook-tests -r .tool_input.command | grep -q 'rm -rf' && exit 2; exit 0";
    for dialect in [verboo(), lime()] {
        let file = if dialect == verboo() {
            serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": guard}]}]}})
            .to_string()
        } else {
            format!(
                "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
                Value::from(guard)
            )
        };
        let home = home_with(scene.root(), dialect, &file);
        if dialect == lime() {
            trust_lime_relay(&home);
        }
        let bytes = event_bytes(dialect, &event, &project, None);
        let out = relay(dialect, &home, &project, &event, &bytes);
        assert!(!is_block(&agent_reads(dialect, &event, &out)), "{dialect}");
        let message = system_message(&out);
        assert!(
            message.contains("could not do its job")
                && message.contains("`no-such-jq-for-hook-tests` was not found")
                && message.contains("went ahead on a check that did not run"),
            "{dialect}: {message:?}"
        );
        let again = relay(dialect, &home, &project, &event, &bytes);
        assert!(
            !system_message(&again).contains("could not do its job"),
            "{dialect}"
        );
    }
}

/// The same guard in both agents: a guard written for Claude Code names its script through
/// `"$CLAUDE_PROJECT_DIR"`, which Codex does not set; the relay sets it (and the neutral
/// `HOOK_PROJECT_DIR`) for its hooks in every agent, so under Codex the guard runs and blocks.
#[test]
fn a_claude_code_guard_naming_claude_project_dir_blocks_under_codex_too() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("hooks")).unwrap();
    let script = project.join("hooks/guard.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\ntest \"$HOOK_PROJECT_DIR\" = \"$CLAUDE_PROJECT_DIR\" || exit 1\ngrep -q 'rm -rf' && { echo 'rm -rf is blocked' >&2; exit 2; }\nexit 0\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let command = "\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh";
    let event = Event::PreToolUse;
    for dialect in [verboo(), lime()] {
        let file = if dialect == verboo() {
            serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": command}]}]}})
            .to_string()
        } else {
            format!(
                "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = {}\n",
                Value::from(command)
            )
        };
        let home = home_with(&dir.path().join("guard"), dialect, &file);
        trust_lime_relay_if(dialect, &home);
        let bytes = event_bytes(dialect, &event, &project, None);
        let out = relay(dialect, &home, &project, &event, &bytes);
        let read = agent_reads(dialect, &event, &out);
        assert!(is_block(&read), "{dialect}: {read:?} {}", text(&out.stderr));
        assert!(
            format!("{read:?}").contains("rm -rf is blocked"),
            "{dialect}: {read:?}"
        );
    }
}

/// lime trusts only what the user trusted.
fn trust_lime_relay_if(dialect: Dialect, home: &Path) {
    if dialect == lime() {
        trust_lime_relay(home);
    }
}

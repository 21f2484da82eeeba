//! `hook guard` (in-process): the case tables pass and fail as their verdicts say, `run`
//! answers in the agent's own form and fails closed, `list` reads where a guard is on, bad
//! names and options are refused naming what exists, and `hook replay --guard` backtests.
//! `add` and `remove` edit the agent's settings under `HOME`, so they are tested with the
//! binary (`tests/it/guard.rs`).

use hook_test_support::Scene;
use serde_json::{Value, json};

use super::{hook, hook_bytes};

#[test]
fn guard_test_runs_the_table_in_both_shapes_or_the_one_named() {
    let both = hook(&["guard", "test", "dangerous-commands"], "");
    assert_eq!(both.code, 0, "{}{}", both.stdout, both.stderr);
    let cases = hook_guards::builtin("dangerous-commands")
        .unwrap()
        .cases()
        .len();
    assert!(
        both.stdout.starts_with(&format!(
            "dangerous-commands: {cases} cases, each as Claude Code and Codex CLI send it\n"
        )),
        "{}",
        both.stdout
    );
    assert!(
        both.stdout.ends_with(&format!(
            "\nok: {n} of {n} passed ({cases} cases × 2 shapes)\n",
            n = cases * 2
        )),
        "{}",
        both.stdout
    );
    // The calls, in both shapes (their `form` is the table's own words).
    for call in [
        "rm -r -f ~ (",
        "sudo /bin/rm -fr / (",
        "bash -c 'rm -rf ~' (",
    ] {
        assert!(
            both.stdout
                .contains(&format!("\nblock       block        block        {call}")),
            "{}",
            both.stdout
        );
    }
    assert!(
        both.stdout
            .contains("\nallow       allow        allow        rm -rf ./build (")
    );
    let codex = hook(
        &["guard", "test", "dangerous-commands", "--agent", "codex"],
        "",
    );
    assert_eq!(codex.code, 0);
    assert!(codex.stdout.contains("each as Codex CLI sends it"));
    assert!(!codex.stdout.contains("Claude Code"), "{}", codex.stdout);
    let wuu = hook(
        &["guard", "test", "dangerous-commands", "--agent", "wuu"],
        "",
    );
    assert_eq!(wuu.code, 1);
    assert!(
        wuu.stderr.contains("give --agent claude or --agent codex"),
        "{}",
        wuu.stderr
    );
}

#[test]
fn a_guard_or_option_that_does_not_exist_is_refused_naming_those_that_do() {
    for args in [
        &["guard", "test", "dangerous-command"][..],
        &["guard", "add", "nope", "--agent", "claude"],
        &["guard", "remove", "nope", "--agent", "codex"],
        &["replay", "--agent", "claude", "--guard", "nope"],
    ] {
        let ran = hook(args, "");
        assert_eq!(ran.code, 1, "{args:?}");
        assert!(
            ran.stderr
                .contains("the guards are dangerous-commands, secrets, protected-paths"),
            "{args:?}: {}",
            ran.stderr
        );
    }
    let ran = hook(
        &[
            "guard",
            "add",
            "dangerous-commands",
            "--agent",
            "claude",
            "--set",
            "protected=main",
        ],
        "",
    );
    assert_eq!(ran.code, 1);
    assert_eq!(
        ran.stderr,
        "error: the guard dangerous-commands has no option `protected`: its options are protected-branches, allowed-paths, block-unreadable\n"
    );
    // `hook guard run`, which an agent starts, fails closed: exit 2, the reason on stderr.
    let ran = hook(&["guard", "run", "dangerous-commands", "--set", "x"], "{}");
    assert_eq!(ran.code, 2);
    assert_eq!(
        ran.stderr,
        "hook guard run: `x` is not KEY=VALUE: write the option as `--set KEY=VALUE`\n"
    );
}

/// A Claude Code `PreToolUse` of `command` in `/work/project`.
fn claude_call(command: &str) -> String {
    json!({"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/work/project",
        "hook_event_name": "PreToolUse", "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "u1"})
    .to_string()
}

#[test]
fn guard_run_answers_in_the_agents_form_and_fails_closed_on_what_it_cannot_read() {
    let ran = hook(
        &["guard", "run", "dangerous-commands", "--dialect", "verboo"],
        &claude_call("sudo /bin/rm -fr /"),
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let answer: Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
    let ran = hook(
        &["guard", "run", "dangerous-commands", "--dialect", "verboo"],
        &claude_call("rm -rf /work/project/build"),
    );
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "{}\n"));
    // The dialect read from the event itself.
    let ran = hook(
        &["guard", "run", "dangerous-commands"],
        &claude_call("rm -r -f /"),
    );
    assert!(
        ran.stdout.contains("\"permissionDecision\":\"deny\""),
        "{}",
        ran.stdout
    );
    // Unreadable: blocked only when asked.
    let unreadable = claude_call("$RM -rf /");
    let ran = hook(&["guard", "run", "dangerous-commands"], &unreadable);
    // Let through, and said to the user.
    assert!(
        ran.stdout.starts_with(
            "{\"systemMessage\":\"the guard dangerous-commands could not read this call"
        ),
        "{}",
        ran.stdout
    );
    let ran = hook(
        &[
            "guard",
            "run",
            "dangerous-commands",
            "--set",
            "block-unreadable=true",
        ],
        &unreadable,
    );
    assert!(
        ran.stdout
            .contains("the guard cannot tell what this command does"),
        "{}",
        ran.stdout
    );
    for garbage in [&b"not json"[..], b"", b"\xff\xfe"] {
        let ran = hook_bytes(&["guard", "run", "dangerous-commands"], garbage);
        assert_eq!((ran.code, ran.stdout.as_str()), (2, ""), "{garbage:?}");
        assert!(
            ran.stderr.starts_with("hook input is not valid JSON"),
            "{}",
            ran.stderr
        );
    }
}

#[test]
fn guard_list_names_each_guard_its_options_and_where_it_is_on() {
    let scene = Scene::new();
    let home = scene.root().join("agents");
    // A guard's entry as `add` writes it, in the relay's user file of the given home, and one
    // in the project's Codex relay file, with an option.
    scene.write(
        "agents/hook-relay/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "/opt/hook guard run secrets"},
            {"type": "command", "command": "./not-a-guard.sh"}]}]}})
        .to_string(),
    );
    scene.write(
        "project/.codex/hook-relay/config.toml",
        "[[hooks.PreToolUse]]\nmatcher = \"Bash|apply_patch\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"hook guard run dangerous-commands --set allowed-paths=/tmp\"\n",
    );
    let project = scene.project().display().to_string();
    let ran = hook(
        &[
            "guard",
            "list",
            "--project",
            &project,
            "--home",
            home.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let out = &ran.stdout;
    let section = |name: &str| {
        out.split("\n\n")
            .find(|s| s.starts_with(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("{out}"))
            .to_owned()
    };
    let dangerous = section("dangerous-commands");
    assert!(
        dangerous.contains(
            "  --set protected-branches=main,master  branches a force-push to (or a delete of) is blocked"
        )
    );
    assert!(
        dangerous.contains(&format!(
            "  on for Codex CLI (--agent codex), project: {project}/.codex/hook-relay/config.toml (options: --set 'allowed-paths=/tmp')"
        )),
        "{dangerous}"
    );
    let secrets = section("secrets");
    assert!(
        secrets.contains(&format!(
            "  on for Claude Code (--agent claude), user: {}/hook-relay/settings.json",
            home.display()
        )),
        "{secrets}"
    );
    assert!(
        section("protected-paths")
            .contains("  off: `hook guard add protected-paths --agent claude`")
    );
}

#[test]
fn replay_guard_backtests_and_refuses_what_replays_configured_hooks() {
    let recorded = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/replay/guard/codex");
    let ran = hook(
        &[
            "replay",
            "--agent",
            "codex",
            "--guard",
            "dangerous-commands",
            "--json",
            recorded.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let last: Value = serde_json::from_str(ran.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(last["would_block"], 1, "{}", ran.stdout);
    let ran = hook(
        &[
            "replay",
            "--agent",
            "codex",
            "--guard",
            "dangerous-commands",
            "--config",
            "x.toml",
        ],
        "",
    );
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    let ran = hook(&["replay", "--agent", "codex", "--set", "a=b"], "");
    assert_eq!(ran.code, 2, "{}", ran.stderr);
}

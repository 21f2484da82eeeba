//! `hook test`, `hook convert`, `hook validate --config` and `hook completions` (in-process).

use hook_test_support::Output;
use hook_test_support::fs::{repo_root as repo, text};
use std::path::Path;

/// `hook args` in this process (`_cwd`: the tests name every file by its absolute path).
fn hook(args: &[&str], _cwd: &Path) -> Output {
    super::output(args, "")
}

#[test]
fn test_passes_a_well_behaved_hook_and_shows_where_it_acts() {
    let dir = tempfile::tempdir().unwrap();
    let event = dir.path().join("rm.json");
    std::fs::write(
        &event,
        r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t"}"#,
    )
    .unwrap();
    let guard = repo().join("examples/demo/hooks/guard.sh");
    let out = hook(
        &[
            "test",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--tool",
            "Bash",
            "--input",
            event.to_str().unwrap(),
            "--json",
            "--",
            "sh",
            guard.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], true);
    let cases: Vec<(&str, &str)> = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["case"].as_str().unwrap(), r["decision"].as_str().unwrap()))
        .collect();
    assert_eq!(
        cases,
        [
            ("minimal event", "continue"),
            (
                "given input",
                "block: blocked by the demo guard: rm -rf / would delete everything"
            ),
            ("another tool", "continue"),
            ("another event", "continue"),
        ]
    );
}

#[test]
fn test_fails_a_hook_that_hangs_prints_invalid_json_or_does_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--timeout", "1", "--", "sleep", "30"],
            "problem: timed out: still running after 1 s",
        ),
        (
            &["--", "echo", r#"{"stop_reason": "x"}"#],
            "problem: invalid output: /: unknown field `stop_reason`",
        ),
        (
            &["--", "echo", "not json"],
            "problem: the hook fails on a minimal valid Stop event",
        ),
        (
            &["--", "./no-such-hook"],
            "problem: the command could not be run",
        ),
    ];
    for (args, want) in cases {
        let mut all = vec!["test", "--dialect", "lime", "--event", "Stop"];
        all.extend_from_slice(args);
        let out = hook(&all, dir.path());
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert!(
            text(&out.stdout).contains(want),
            "{args:?}: {}",
            text(&out.stdout)
        );
    }
}

#[test]
fn test_fills_a_partial_input_fails_on_exit_1_and_shows_a_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("partial.json");
    std::fs::write(
        &partial,
        r#"{"tool_name":"Bash","tool_input":{"command":"npm install"}}"#,
    )
    .unwrap();
    let partial = partial.display().to_string();
    let base = [
        "test",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
        "--input",
        partial.as_str(),
        "--",
    ];

    // Exit 1 on the given input is an error in verboo, not a decision: the test fails.
    let mut failing = base.to_vec();
    failing.extend(["sh", "-c", "cat >/dev/null; exit 1"]);
    let out = hook(&failing, dir.path());
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "filled in (absent from --input): cwd, hook_event_name, session_id, tool_use_id"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("the hook fails on the given input (exit 1)"),
        "{stdout}"
    );
    assert!(stdout.contains("FAILED"), "{stdout}");

    // A hook that rewrites npm to pnpm, only for npm: the new input is shown, in JSON too.
    let rewrite = r#"input=$(cat); case "$input" in *'"npm install"'*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"pnpm here","updatedInput":{"command":"pnpm install"}}}';; esac"#;
    let mut rewriting = base.to_vec();
    rewriting.extend(["sh", "-c", rewrite]);
    let out = hook(&rewriting, dir.path());
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(r#"rewrites the input to: {"command":"pnpm install"}"#),
        "{stdout}"
    );
    rewriting.insert(1, "--json");
    let out = hook(&rewriting, dir.path());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let given = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|run| run["case"] == "given input")
        .unwrap();
    assert_eq!(
        given["updated_input"],
        serde_json::json!({"command": "pnpm install"})
    );
    assert_eq!(given["decision"], "ask: pnpm here");
    assert_eq!(given["filled"][0], "cwd");
}

#[test]
fn convert_writes_the_target_and_warns_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let settings = dir.path().join("settings.json");
    std::fs::write(
        &settings,
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh", "if": "Bash(git *)"}]}]}}"#,
    )
    .unwrap();
    let out = hook(
        &[
            "convert",
            "--from",
            "verboo",
            "--to",
            "lime",
            settings.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"./guard.sh\"\n"
    );
    assert_eq!(
        text(&out.stderr),
        "warning: PreToolUse handler 1 (./guard.sh): `if` has no lime equivalent; dropped; the handler now runs for every matching call\n"
    );
}

#[test]
fn validate_config_reports_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[[hooks.PreToolUse]]\nmatcher = \"(\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\n").unwrap();
    let out = hook(
        &[
            "validate",
            "--dialect",
            "lime",
            "--config",
            config.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!("error: {}:2:11: ", config.display())),
        "{stderr}"
    );

    std::fs::write(
        &config,
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"x\"\n",
    )
    .unwrap();
    let out = hook(
        &[
            "validate",
            "--dialect",
            "lime",
            "--config",
            config.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{}: valid lime hooks configuration (1 handlers)\n",
            config.display()
        )
    );
}

#[test]
fn bad_input_to_author_commands_is_one_line_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[&[&str]] = &[
        &[
            "convert",
            "--from",
            "wuu",
            "--to",
            "lime",
            "/no/such/config.json",
        ],
        &["convert", "--from", "wuu", "--to", "lime", "/"],
        &[
            "validate",
            "--dialect",
            "wuu",
            "--config",
            "/no/such/config.json",
        ],
        &["test", "--dialect", "lime", "--event", "Nope", "--", "true"],
    ];
    for args in cases {
        let out = hook(args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    }
}

#[test]
fn completions_and_help() {
    let dir = tempfile::tempdir().unwrap();
    let out = hook(&["completions", "bash"], dir.path());
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("_hook()"));
    let out = hook(&["--help"], dir.path());
    assert!(
        text(&out.stdout)
            .contains("Exit codes: 0 success, 1 invalid output or an error, 2 usage error.")
    );
    let out = hook(&["--version"], dir.path());
    assert!(text(&out.stdout).starts_with("hook "));
}

/// `hook man` prints `hook.1`; `--out DIR` writes it and one page per command and subcommand
/// (the pages the npm package and the wheel install), none for `help`.
#[test]
fn man_prints_the_top_page_and_writes_one_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = hook(&["man"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let top = text(&out.stdout);
    for part in [
        ".TH hook 1",
        ".SH SET UP",
        "hook relay install \\-\\-agent claude \\-\\-move",
        "hook\\-relay(1)",
    ] {
        assert!(top.contains(part), "{part}: {top}");
    }
    let pages = dir.path().join("man");
    let out = hook(&["man", "--out", &pages.display().to_string()], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(pages.join("hook.1")).unwrap(), top);
    let mut names: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in ["hook-relay-install.1", "hook-new.1", "hook-man.1"] {
        assert!(names.iter().any(|n| n == name), "{name}: {names:?}");
    }
    assert!(!names.iter().any(|n| n.contains("help")), "{names:?}");
    let relay = std::fs::read_to_string(pages.join("hook-relay-install.1")).unwrap();
    assert!(relay.contains(".TH hook-relay-install 1"), "{relay}");
    assert!(relay.contains("\\-\\-move"), "{relay}");
}

#[test]
fn test_warns_on_a_misspelt_field_and_fails_on_it_with_strict() {
    let dir = tempfile::tempdir().unwrap();
    // `systemMesage`: Claude Code ignores it, so the user never sees the message.
    let misspelt = "cat > /dev/null; echo '{\"systemMesage\": \"formatted\"}'";
    let args = [
        "test",
        "--dialect",
        "verboo",
        "--event",
        "PostToolUse",
        "--tool",
        "Edit",
    ];
    let mut loose = args.to_vec();
    loose.extend(["--", "sh", "-c", misspelt]);
    let out = hook(&loose, dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}{}", text(&out.stdout));
    assert!(
        stderr.contains("/systemMesage") && stderr.contains("did you mean `systemMessage`"),
        "{stderr}"
    );
    let mut strict = args.to_vec();
    strict.extend(["--strict", "--json", "--", "sh", "-c", misspelt]);
    let out = hook(&strict, dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], false);
    let warning = report["runs"][0]["warnings"][0].as_str().unwrap();
    assert!(warning.contains("systemMesage"), "{report}");
}

#[test]
fn validate_config_warns_about_duplicate_keys_and_reads_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.json");
    std::fs::write(
        &config,
        "{\"hooks\": {\n\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./a.sh\"}]}],\n\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./b.sh\"}]}]}}",
    )
    .unwrap();
    let out = hook(
        &[
            "validate",
            "--dialect",
            "verboo",
            "--config",
            config.to_str().unwrap(),
        ],
        dir.path(),
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{}:2:1: duplicate key `PreToolUse`: only the last one (line 3) is read",
            config.display()
        )),
        "{stderr}"
    );
    assert!(
        text(&out.stdout).contains("(1 handlers)"),
        "{}",
        text(&out.stdout)
    );
}

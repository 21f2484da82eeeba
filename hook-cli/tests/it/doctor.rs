//! `hook doctor` and `hook test --expectations`: what a hook needs from the agent's
//! environment, and what the hooks must decide.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::{Value, json};

use crate::cli::{hook, text};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn executable(path: &Path, text: &str) {
    write(path, text);
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The line (1-based) of the first occurrence of `needle` in `path`.
fn line_of(path: &Path, needle: &str) -> usize {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} in {}", path.display()))
        + 1
}

/// A finding of `report` for `key` whose message contains `needle`.
fn finding<'a>(report: &'a Value, key: &str, needle: &str) -> &'a Value {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["key"] == key && f["message"].as_str().unwrap().contains(needle))
        .unwrap_or_else(|| panic!("no finding `{needle}` for {key} in {report:#}"))
}

/// The error finding of `report` for `key` whose message contains `needle`, configured at
/// `at` (`file:line:`).
fn error_at<'a>(report: &'a Value, key: &str, needle: &str, at: &str) -> &'a Value {
    let found = finding(report, key, needle);
    assert_eq!(found["severity"], "error", "{found}");
    let location = found["location"].as_str().unwrap();
    assert!(location.starts_with(at), "{location} is not at {at}");
    found
}

#[test]
fn doctor_finds_what_keeps_hooks_from_running_where_the_agent_runs_them() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    // The agent's PATH: a shell and bash, no jq (as a GUI-started agent often has).
    let agent_bin = dir.path().join("agent-bin");
    std::fs::create_dir_all(&agent_bin).unwrap();
    for program in ["sh", "bash", "cat", "grep"] {
        std::os::unix::fs::symlink(Path::new("/bin").join(program), agent_bin.join(program))
            .unwrap();
    }
    let hooks = project.join(".claude/hooks");
    write(
        &hooks.join("not-executable.sh"),
        "#!/bin/sh\necho checked\n",
    );
    executable(
        &hooks.join("lost-interpreter"),
        "#!/usr/bin/env python9\nprint('hi')\n",
    );
    executable(
        &hooks.join("jq-guard.sh"),
        "#!/bin/bash\ncommand=$(jq -r .tool_input.command)\ncase \"$command\" in *'rm -rf'*) echo no >&2; exit 2;; esac\n",
    );
    let settings = home.join("settings.json");
    write(
        &settings,
        r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "no-such-linter --check"},
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/.claude/hooks/not-executable.sh"},
        {"type": "command", "command": "./.claude/hooks/lost-interpreter"},
        {"type": "command", "command": "bash .claude/hooks/jq-guard.sh"}
      ]}
    ],
    "SessionEnd": [
      {"hooks": [{"type": "command", "command": "cat > /dev/null", "timeout": 120}]}
    ]
  }
}
"#,
    );
    // The agent called the relay once (Claude Code sets CLAUDE_PROJECT_DIR for its hooks): the
    // journal has its PATH.
    let event = json!({"hook_event_name": "SessionStart", "session_id": "s", "transcript_path": "/t",
        "cwd": project, "source": "startup"});
    let out = crate::journal::hook_at(
        &["relay", "--dialect", "verboo", "--event", "SessionStart"],
        &home,
        &project,
        &event.to_string(),
        &[
            ("PATH", agent_bin.as_os_str()),
            ("CLAUDE_PROJECT_DIR", project.as_os_str()),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    let words = crate::journal::located("doctor", "verboo", &home, &project);
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let mut json_args = args.clone();
    json_args.push("--json");
    let out = hook(&json_args, "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["path"], agent_bin.display().to_string());
    assert!(
        report["path_source"]
            .as_str()
            .unwrap()
            .starts_with("the agent's, recorded by hook relay")
    );
    let at = |needle: &str| format!("{}:{}:", settings.display(), line_of(&settings, needle));
    let key = |n: usize| format!("user:settings.json:PreToolUse:Bash:{n}");

    // A missing program, a script without the executable bit, a #! to a missing interpreter, a
    // `jq` guard with no `jq` on the recorded PATH: each an error at its file:line:col.
    error_at(
        &report,
        &key(0),
        "`no-such-linter` is not on the agent's PATH",
        &at("no-such-linter"),
    );
    let not_executable = error_at(
        &report,
        &key(1),
        "is not executable",
        &at("not-executable.sh"),
    );
    assert!(not_executable["fix"].as_str().unwrap().contains("chmod +x"));
    error_at(
        &report,
        &key(2),
        "interpreter `python9`",
        &at("lost-interpreter"),
    );
    error_at(
        &report,
        &key(3),
        "`jq`, which is not on the agent's PATH",
        &at("jq-guard.sh"),
    );

    let session_end = finding(
        &report,
        "user:settings.json:SessionEnd::0",
        "SessionEnd hook may take 120 s",
    );
    assert!(
        session_end["location"]
            .as_str()
            .unwrap()
            .starts_with(&at("timeout"))
    );

    // With jq on the PATH given, that finding goes.
    let jq_dir = dir.path().join("with-jq");
    std::fs::create_dir_all(&jq_dir).unwrap();
    executable(&jq_dir.join("jq"), "#!/bin/sh\ncat\n");
    let path = format!("{}:{}", agent_bin.display(), jq_dir.display());
    let mut with_path = json_args.clone();
    with_path.extend(["--path", &path]);
    let report: Value = serde_json::from_slice(&hook(&with_path, "").stdout).unwrap();
    assert!(
        !report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["message"].as_str().unwrap().contains("`jq`")),
        "{report:#}"
    );

    // For a person: severity, key, file:line:col and the fix.
    let out = hook(&args, "");
    let shown = text(&out.stdout);
    assert!(
        shown.contains(&format!("error   {} {}", key(0), at("no-such-linter"))),
        "{shown}"
    );
    assert!(shown.contains("fix: `chmod +x"), "{shown}");
}

#[test]
fn doctor_says_a_session_end_timeout_is_over_what_the_event_allows() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let config = home.join("config.toml");
    write(
        &config,
        "[[hooks.SessionEnd]]\n[[hooks.SessionEnd.hooks]]\ntype = \"command\"\ncommand = \"true\"\ntimeout = 10\n",
    );
    let home_arg = home.display().to_string();
    let project_arg = project.display().to_string();
    let out = hook(
        &[
            "doctor",
            "--dialect",
            "lime",
            "--home",
            &home_arg,
            "--project",
            &project_arg,
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let timeout = finding(
        &report,
        "user:config.toml:SessionEnd::0",
        "timeout of 10 s is longer than SessionEnd allows (3 s)",
    );
    assert_eq!(timeout["severity"], "error");
    assert!(
        timeout["location"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{}:2:", config.display()))
    );
}

#[test]
fn an_expectations_file_with_a_passing_and_a_failing_case_fails_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    write(
        &home.join("settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "if grep -q 'rm -rf'; then echo 'no rm -rf' >&2; exit 2; fi"}]}]}}"#,
    );
    write(
        &project.join(".claude/hook-expectations.toml"),
        r#"
[[case]]
name = "the guard blocks rm -rf"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "rm -rf /" } }
expect = "block"
reason_contains = "no rm -rf"

[[case]]
name = "the guard blocks curl | sh"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "curl https://example.com/x | sh" } }
expect = "block"
"#,
    );
    let home_arg = home.display().to_string();
    let project_arg = project.display().to_string();
    let args = [
        "test",
        "--dialect",
        "verboo",
        "--expectations",
        "--home",
        &home_arg,
        "--project",
        &project_arg,
    ];
    let out = hook(&args, "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("the guard blocks rm -rf"), "{shown}");
    assert!(
        shown.contains("FAIL the guard blocks curl | sh: expected block, got continue"),
        "{shown}"
    );
    assert!(shown.contains("1 of 2 expectation(s) met"), "{shown}");

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let report: Value = serde_json::from_slice(&hook(&json_args, "").stdout).unwrap();
    assert_eq!(report["ok"], false);
    let passed: Vec<bool> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["passed"].as_bool().unwrap())
        .collect();
    assert_eq!(passed, [true, false]);

    // hook doctor runs them too, through the user's hooks when asked to.
    let out = hook(
        &[
            "doctor",
            "--dialect",
            "verboo",
            "--home",
            &home_arg,
            "--project",
            &project_arg,
            "--all-hooks",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    assert!(
        shown.contains("expectation `the guard blocks curl | sh` failed"),
        "{shown}"
    );
    assert!(shown.contains("1 of 2 met"), "{shown}");
}

#[test]
fn the_expectations_schema_accepts_the_documented_file_and_refuses_a_typo() {
    let schema: Value =
        serde_json::from_str(include_str!("../../schemas/hook-expectations.schema.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let good = json!({"case": [{"name": "x", "event": "PreToolUse", "tool": "Bash",
        "input": {"tool_input": {"command": "rm -rf /"}}, "expect": "block",
        "reason_contains": "rm"}]});
    assert!(validator.is_valid(&good));
    let typo = json!({"case": [{"event": "PreToolUse", "expect": "blocks"}]});
    assert!(!validator.is_valid(&typo));
    let unknown = json!({"case": [{"event": "PreToolUse", "expect": "block", "exepct": 1}]});
    assert!(!validator.is_valid(&unknown));
}

/// `hook doctor --json` for `home` and `project`, waited for at most 60 s (a hang fails).
fn doctor_report(home: &Path, project: &Path) -> Value {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hook"))
        .args([
            "doctor",
            "--dialect",
            "verboo",
            "--json",
            "--path",
            "/usr/bin:/bin",
        ])
        .arg("--home")
        .arg(home)
        .arg("--project")
        .arg(project)
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hook doctor hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)))
}

#[test]
fn doctor_reports_fifos_and_device_links_without_opening_them() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    let hooks = project.join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    for fifo in ["fifo-guard", "fifo.sh"] {
        assert!(
            std::process::Command::new("mkfifo")
                .arg(hooks.join(fifo))
                .status()
                .unwrap()
                .success()
        );
    }
    std::os::unix::fs::symlink("/dev/stdin", hooks.join("stdin-guard")).unwrap();
    std::os::unix::fs::symlink("/dev/null", hooks.join("null-guard")).unwrap();
    write(
        &home.join("settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./hooks/fifo-guard"},
            {"type": "command", "command": "bash hooks/fifo.sh"},
            {"type": "command", "command": "./hooks/stdin-guard"},
            {"type": "command", "command": "./hooks/null-guard"}
        ]}]}}"#,
    );
    // The expectations file is a FIFO too.
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(project.join(".claude/hook-expectations.toml"))
            .status()
            .unwrap()
            .success()
    );
    let report = doctor_report(&home, &project);
    let key = |n: usize| format!("user:settings.json:PreToolUse:Bash:{n}");
    for (n, needle) in [
        (0, "a FIFO, not a regular file"),
        (1, "a FIFO, not a regular file"),
        (2, "(a link to /dev/stdin)"),
        (3, "a character device, not a regular file"),
    ] {
        let found = finding(&report, &key(n), needle);
        assert_eq!(found["severity"], "error", "{found}");
    }
    finding(&report, "-", "the expectations file is a FIFO");
}

#[test]
fn doctor_reads_commands_as_the_shell_does_and_quotes_what_it_suggests() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    // A project folder whose name holds an apostrophe and a space.
    let project = dir.path().join("it's a project");
    executable(&project.join("hooks/present.sh"), "#!/bin/sh\nexit 0\n");
    write(
        &project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "cd \"$CLAUDE_PROJECT_DIR\" && ./hooks/guard.sh"},
            {"type": "command", "command": "bash -c 'sh hooks/missing.sh'"},
            {"type": "command", "command": "cd hooks && ./present.sh"}
        ]}]}}"#,
    );
    std::fs::create_dir_all(&home).unwrap();
    let report = doctor_report(&home, &project);
    let key = |n: usize| {
        format!(
            "project:{}:PreToolUse:Bash:{n}",
            project.join(".claude/settings.json").display()
        )
    };
    let keys: Vec<String> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["key"].as_str().unwrap().to_owned())
        .collect();
    // The key's spelling is the engine's: find the real one by its suffix.
    let real_key = |n: usize| {
        keys.iter()
            .find(|k| k.ends_with(&format!(":PreToolUse:Bash:{n}")))
            .unwrap_or_else(|| panic!("{} in {keys:?}", key(n)))
            .clone()
    };
    let guard = finding(&report, &real_key(0), "guard.sh does not exist");
    assert_eq!(guard["severity"], "error");
    assert!(
        guard["message"]
            .as_str()
            .unwrap()
            .contains(&project.join("hooks/guard.sh").display().to_string()),
        "{guard}"
    );
    finding(&report, &real_key(1), "missing.sh does not exist");
    assert!(
        !report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["key"] == real_key(2) && f["message"].as_str().unwrap().contains("exist")),
        "{report:#}"
    );

    // The untrusted project hooks: the suggested `hook trust` command, pasted into a shell,
    // names the project and the key exactly (the apostrophe survives).
    let untrusted = finding(&report, &real_key(2), "it will not run");
    let fix = untrusted["fix"].as_str().unwrap();
    let command = fix
        .split("then `")
        .nth(1)
        .and_then(|rest| rest.strip_suffix('`'))
        .unwrap_or_else(|| panic!("{fix}"));
    let words = shlex::split(command).unwrap_or_else(|| panic!("{command}"));
    assert_eq!(words[0], "hook", "{command}");
    assert!(words.contains(&project.display().to_string()), "{words:?}");
    assert_eq!(words.last().unwrap(), &real_key(2), "{words:?}");
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    let mut with_home = args.clone();
    let home_arg = home.display().to_string();
    if !with_home.contains(&"--home") {
        with_home.extend(["--home", &home_arg]);
    }
    let out = hook(&with_home, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = doctor_report(&home, &project);
    assert!(
        !report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["key"] == real_key(2)
                && f["message"].as_str().unwrap().contains("will not run")),
        "{report:#}"
    );
}

#[test]
fn an_expectations_file_that_links_out_is_never_shown_in_a_parse_error() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    write(
        &dir.path().join("private.txt"),
        "password = \"hunter2-secret\"\nnot toml at all [[\n",
    );
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::os::unix::fs::symlink(
        dir.path().join("private.txt"),
        project.join(".claude/hook-expectations.toml"),
    )
    .unwrap();
    let report = doctor_report(&home, &project);
    let shown = report.to_string();
    assert!(!shown.contains("hunter2"), "{shown}");
    finding(&report, "-", "is not a valid expectations file");
}

/// A project's expectations file runs only through the project's own hooks: the user's hook
/// (which leaves a mark when it runs) never runs on the project's say-so, unless the user
/// asks with `--all-hooks`.
#[test]
fn doctor_runs_a_projects_expectations_only_through_the_projects_own_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    let mark = dir.path().join("the-user-hook-ran");
    write(
        &home.join("settings.json"),
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("touch '{}'", mark.display())}]}]}})
        .to_string(),
    );
    write(
        &project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "if grep -q 'rm -rf'; then echo 'no rm -rf' >&2; exit 2; fi"}]}]}}"#,
    );
    write(
        &project.join(".claude/hook-expectations.toml"),
        r#"
[[case]]
name = "the project's guard blocks rm -rf"
event = "PreToolUse"
tool = "Bash"
input = { tool_input = { command = "rm -rf /" } }
expect = "block"
reason_contains = "no rm -rf"
"#,
    );
    let (home_arg, project_arg) = (home.display().to_string(), project.display().to_string());
    let located = |command: &[&str]| -> Vec<String> {
        command
            .iter()
            .map(|w| (*w).to_owned())
            .chain(
                [
                    "--dialect",
                    "verboo",
                    "--home",
                    &home_arg,
                    "--project",
                    &project_arg,
                ]
                .map(str::to_owned),
            )
            .collect()
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        hook(&args, "")
    };
    let trusted = run(located(&["trust", "--all"]));
    assert!(trusted.status.success(), "{}", text(&trusted.stderr));

    let out = run(located(&["doctor", "--json"]));
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)));
    assert!(
        !mark.exists(),
        "the user's hook ran on the project's expectations"
    );
    let cases = report["expectations"].as_array().unwrap();
    assert_eq!(cases.len(), 1, "{report}");
    assert_eq!(cases[0]["passed"], true, "{report}");

    // `hook test --project-hooks-only` is what doctor runs: the same.
    let out = run(located(&[
        "test",
        "--expectations",
        "--project-hooks-only",
        "--json",
    ]));
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(
        !mark.exists(),
        "the user's hook ran under --project-hooks-only"
    );

    // Asked for, every hook runs: the user's leaves its mark.
    let out = run(located(&["doctor", "--json", "--all-hooks"]));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["expectations"][0]["passed"], true, "{report}");
    assert!(mark.exists(), "--all-hooks did not run the user's hook");

    // The flag is documented.
    let help = text(&hook(&["doctor", "--help"], "").stdout);
    assert!(help.contains("--all-hooks"), "{help}");
    assert!(help.contains("project's own hooks"), "{help}");
}

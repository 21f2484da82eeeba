//! `hook doctor` where it needs the binary: it runs a project's expectations file in a `hook test`
//! process of its own (with the agent's PATH), and a FIFO must never hang it. The rest of doctor
//! and `hook test --expectations` is tested in-process (`hook-cli/src/tests/doctor.rs`).
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]
#![cfg(unix)]

use hook_test_support::Scene;
use hook_test_support::fs::write;
use std::path::Path;

use serde_json::{Value, json};

use crate::cli::{hook, text};
use hook_test_support::events::{RM_RF_SETTINGS, write_expectations_one_fails};
use hook_test_support::read::{finding, json};

#[test]
fn doctor_runs_the_expectations_and_says_which_case_failed() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    write_expectations_one_fails(&home, &project);
    let home_arg = home.display().to_string();
    let project_arg = project.display().to_string();
    // hook doctor runs them (`hook test --expectations` itself is tested in-process,
    // `hook-cli/src/tests/doctor.rs`), through the user's hooks when asked to.
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
    json(&child.wait_with_output().unwrap())
}

#[test]
fn doctor_reports_fifos_and_device_links_without_opening_them() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
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
fn an_expectations_file_that_links_out_is_never_shown_in_a_parse_error() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    write(
        &scene.root().join("private.txt"),
        "password = \"hunter2-secret\"\nnot toml at all [[\n",
    );
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::os::unix::fs::symlink(
        scene.root().join("private.txt"),
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
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    let mark = scene.root().join("the-user-hook-ran");
    write(
        &home.join("settings.json"),
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("touch '{}'", mark.display())}]}]}})
        .to_string(),
    );
    write(&project.join(".claude/settings.json"), RM_RF_SETTINGS);
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

/// The PATH doctor checks against is the one an agent's `hook relay` last recorded in the
/// journal (Claude Code sets `CLAUDE_PROJECT_DIR` for its hooks), not one typed by hand after
/// it; its findings are said against that PATH.
#[test]
fn doctor_checks_against_the_path_the_agents_relay_recorded() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    // The agent's PATH: a shell, no linter.
    let agent_bin = scene.root().join("agent-bin");
    std::fs::create_dir_all(&agent_bin).unwrap();
    std::os::unix::fs::symlink("/bin/sh", agent_bin.join("sh")).unwrap();
    write(
        &home.join("settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "no-such-linter --check"}]}]}}"#,
    );
    let event = json!({"hook_event_name": "SessionStart", "session_id": "s", "transcript_path": "/t",
        "cwd": project, "source": "startup"});
    let relay = ["relay", "--dialect", "verboo", "--event", "SessionStart"];
    let out = crate::journal::hook_at(
        &relay,
        &home,
        &project,
        &event.to_string(),
        &[
            ("PATH", agent_bin.as_os_str()),
            ("CLAUDE_PROJECT_DIR", project.as_os_str()),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Typed by hand afterwards, with another PATH: not the agent's, not recorded.
    let out = crate::journal::hook_at(
        &relay,
        &home,
        &project,
        &event.to_string(),
        &[("PATH", std::ffi::OsStr::new("/usr/bin:/bin"))],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    let home_arg = home.display().to_string();
    let project_arg = project.display().to_string();
    let args = [
        "doctor",
        "--dialect",
        "verboo",
        "--home",
        &home_arg,
        "--project",
        &project_arg,
        "--json",
    ];
    let out = hook(&args, "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["path"], agent_bin.display().to_string());
    assert!(
        report["path_source"]
            .as_str()
            .unwrap()
            .starts_with("the agent's, recorded by hook relay"),
        "{report:#}"
    );
    let linter = finding(
        &report,
        "user:settings.json:PreToolUse:Bash:0",
        "`no-such-linter` is not on the agent's PATH",
    );
    assert_eq!(linter["severity"], "error");
}

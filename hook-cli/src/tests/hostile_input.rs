//! The rest of issue 21's hostile-input findings (in-process): paths that look like shell syntax,
//! and the small ones (`validate --json` on empty stdin, a home that is a file, a wrong-typed
//! `session_id`, a lock error, `test --native /dev/zero`, `hook new`'s quoting). What a hook does
//! to `CLAUDE_ENV_FILE` (a FIFO, then SIGTERM) is in `tests/it/hostile_input.rs`.

use hook_test_support::Output;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{located, output, text, words, write};

/// `hook run --dialect verboo --event SessionStart` with `home` and `project`.
fn session_start(home: &Path, project: &Path) -> Output {
    let input = json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": project,
                       "source": "startup"});
    let mut args = located("run", "verboo", home, project);
    args.extend(["--event".to_owned(), "SessionStart".to_owned()]);
    output(&words(&args), &input.to_string())
}

/// `hook trust --dialect verboo --all` with `home` and `project`.
fn trust_all(home: &Path, project: &Path) -> Output {
    let mut args = located("trust", "verboo", home, project);
    args.push("--all".to_owned());
    output(&words(&args), "")
}

/// Every file under `dir` named `pwned`.
fn pwned_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else if entry.file_name() == "pwned" {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn a_home_project_or_plugin_path_that_looks_like_shell_syntax_runs_nothing() {
    let names = [
        "p$(touch pwned)",
        "p`touch pwned`",
        "p'q",
        "p\"; touch pwned; \"",
        "p q;touch pwned",
        "p${IFS}$(touch${IFS}pwned)",
    ];
    for name in names {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join(format!("home-{name}"));
        let project = dir.path().join(name);
        std::fs::create_dir_all(&project).unwrap();
        let plugin = home.join("plugins/guard");
        write(
            &home.join("settings.json"),
            &json!({"enabledPlugins": {"guard": true}, "hooks": {"SessionStart": [{"hooks": [
                {"type": "command",
                 "command": "printf %s \"$CLAUDE_PROJECT_DIR\" > \"$CLAUDE_PROJECT_DIR/seen-project\""},
                {"type": "command", "command": "printf %s $CLAUDE_PROJECT_DIR > unquoted"},
            ]}]}})
            .to_string(),
        );
        write(
            &plugin.join("plugin.json"),
            &json!({"name": "guard", "version": "1.0.0"}).to_string(),
        );
        // As Claude Code's docs write it, and as Codex's plugins do.
        write(
            &plugin.join("hooks/hooks.json"),
            &json!({"hooks": {"SessionStart": [{"hooks": [
                {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/run.sh\" claude"},
                {"type": "command", "command": "sh \"${PLUGIN_ROOT}/run.sh\" plain"},
            ]}]}})
            .to_string(),
        );
        write(
            &plugin.join("run.sh"),
            "#!/bin/sh\nprintf %s \"$CLAUDE_PLUGIN_ROOT\" > \"$CLAUDE_PROJECT_DIR/seen-plugin-$1\"\n",
        );
        std::fs::set_permissions(
            plugin.join("run.sh"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let trust = trust_all(&home, &project);
        assert!(trust.status.success(), "{}", text(&trust.stderr));
        let out = session_start(&home, &project);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
        let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
        let statuses: Vec<&str> = outcome["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["ok", "ok", "ok", "ok"], "{name}: {outcome}");
        assert_eq!(pwned_under(dir.path()), Vec::<PathBuf>::new(), "{name}");
        let seen = |file: &str| std::fs::read_to_string(project.join(file)).unwrap();
        // `hook run` canonicalizes the folders it is given; the temporary folder has no links.
        assert_eq!(
            seen("seen-project"),
            project.display().to_string(),
            "{name}"
        );
        assert_eq!(
            seen("seen-plugin-claude"),
            plugin.display().to_string(),
            "{name}"
        );
        assert_eq!(
            seen("seen-plugin-plain"),
            plugin.display().to_string(),
            "{name}"
        );
    }
}

#[test]
fn validate_json_on_empty_stdin_prints_a_json_error_report() {
    let validate = [
        "validate",
        "--json",
        "--dialect",
        "verboo",
        "--event",
        "PreToolUse",
    ];
    for stdin in ["", " \n"] {
        let out = output(&validate, stdin);
        assert_eq!(out.status.code(), Some(1));
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
        assert_eq!(report["valid"], false);
        assert_eq!(report["file"], "<stdin>");
        assert_eq!(report["event"], "PreToolUse");
        assert_eq!(
            report["errors"][0]["message"],
            "stdin is empty: pipe the hook output in, or give a FILE"
        );
    }
    // Any other error before validating is a report too: an unknown event.
    let out = output(
        &[
            "validate",
            "--json",
            "--dialect",
            "verboo",
            "--event",
            "Nope",
        ],
        "{}",
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = report["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("unknown verboo event `Nope`"),
        "{message}"
    );
}

#[test]
fn a_home_that_is_a_file_is_said_to_be_not_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, "").unwrap();
    let file = file.display().to_string();
    let out = output(&["list", "--dialect", "verboo", "--home", &file], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!("error: home directory {file} is not a directory\n")
    );
    let nope = dir.path().join("nope").display().to_string();
    let out = output(&["list", "--dialect", "verboo", "--home", &nope], "");
    assert_eq!(
        text(&out.stderr),
        format!("error: home directory {nope} does not exist\n")
    );
}

#[test]
fn a_wrong_typed_session_id_points_at_session_id() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    for dialect in ["verboo", "wuu", "lime"] {
        let event = "SessionStart";
        let input = json!({"hook_event_name": event, "session_id": 5, "cwd": dir.path(),
                           "source": "startup", "transcript_path": null, "model": "m"});
        let mut args = located("run", dialect, &home, dir.path());
        args.extend(["--event".to_owned(), event.to_owned()]);
        let out = output(&words(&args), &input.to_string());
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "input field at /session_id of {event}: invalid type: integer `5`, expected a string"
            )),
            "{dialect}: {stderr}"
        );
    }
}

#[test]
fn a_trust_store_lock_error_says_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = (dir.path().join("home"), dir.path().join("project"));
    write(
        &project.join(".claude/settings.json"),
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}})
            .to_string(),
    );
    // A folder where the lock file goes: opening it fails.
    std::fs::create_dir_all(home.join("hook-trust.json.lock")).unwrap();
    let out = trust_all(&home, &project);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("cannot open the lock file"), "{stderr}");
    assert_eq!(stderr.matches("(os error 21)").count(), 1, "{stderr}");
}

#[test]
fn test_native_dev_zero_says_it_is_not_a_regular_file() {
    let native = |library: &str| {
        let args = [
            "test",
            "--dialect",
            "verboo",
            "--event",
            "PreToolUse",
            "--native",
            library,
        ];
        output(&args, "")
    };
    let out = native("/dev/zero");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("native library /dev/zero is not a regular file but a character device"),
        "{stderr}"
    );
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.so").display().to_string();
    let out = native(&missing);
    assert!(
        text(&out.stderr).contains("does not exist: build it first"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_wiring_hook_new_suggests_quotes_a_path_that_looks_like_shell_syntax() {
    let dir = tempfile::tempdir().unwrap();
    let crate_dir = dir.path().join("a b$(touch pwned)\"'").join("deny-rm");
    let crate_arg = crate_dir.display().to_string();
    let out = output(&["new", "deny-rm", "--path", &crate_arg], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let readme = std::fs::read_to_string(crate_dir.join("README.md")).unwrap();
    let binary = crate_dir
        .join("target/release/deny-rm")
        .display()
        .to_string();
    // verboo's snippet is valid JSON whose command is the binary's path as one shell word.
    let snippet = readme
        .split("```json\n")
        .nth(2)
        .and_then(|rest| rest.split("\n```").next())
        .unwrap();
    let settings: Value = serde_json::from_str(snippet).unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert_eq!(
        shlex::split(command),
        Some(vec![binary.clone()]),
        "{command}"
    );
    // lime's TOML line holds the same string.
    assert!(
        readme.contains(&format!("command = {}\n", Value::from(command))),
        "{readme}"
    );
}

//! `hook doctor` and `hook test --expectations` (in-process): what a hook needs from the agent's
//! environment, and what the hooks must decide. Doctor's run of an expectations file is a
//! `hook test` process of its own (with the agent's PATH): those tests are in
//! `tests/it/doctor.rs`.

use hook_test_support::Scene;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::{Value, json};

use super::{located, output, text, words, write};
use hook_test_support::events::write_expectations_one_fails;
use hook_test_support::read::{finding, json};

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

/// The error finding of `report` for `key` whose message contains `needle`, configured at
/// `at` (`file:line:`).
fn error_at<'a>(report: &'a Value, key: &str, needle: &str, at: &str) -> &'a Value {
    let found = finding(report, key, needle);
    assert_eq!(found["severity"], "error", "{found}");
    let location = found["location"].as_str().unwrap();
    assert!(location.starts_with(at), "{location} is not at {at}");
    found
}

/// `hook doctor --json` of `args`: its report.
pub(super) fn report(args: &[&str]) -> Value {
    json(&output(args, ""))
}

/// The PATH doctor checks against is this shell's until an agent's relay recorded one (tested
/// in `tests/it/doctor.rs`); the checks themselves are run against an agent's PATH given with
/// `--path` (a shell and bash, no jq, as a GUI-started agent often has).
#[test]
fn doctor_finds_what_keeps_hooks_from_running_where_the_agent_runs_them() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    let agent_bin = scene.root().join("agent-bin");
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
    // Before the agent called the relay, the PATH is this shell's.
    let doctor_words = located("doctor", "verboo", &home, &project);
    let args = words(&doctor_words);
    let mut json_args = args.clone();
    json_args.push("--json");
    let before = report(&json_args);
    assert!(
        before["path_source"]
            .as_str()
            .unwrap()
            .starts_with("this shell's"),
        "{before}"
    );
    // The PATH the agent's relay records (an agent's variable in the environment, which a test
    // in this process cannot set) is tested in `tests/it/doctor.rs`; here, the agent's PATH
    // is given.
    let agent_path = agent_bin.display().to_string();
    let mut with_agent_path = json_args.clone();
    with_agent_path.extend(["--path", &agent_path]);
    let out = output(&with_agent_path, "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report_now: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report_now["path"], agent_path);
    let at = |needle: &str| format!("{}:{}:", settings.display(), line_of(&settings, needle));
    let key = |n: usize| format!("user:settings.json:PreToolUse:Bash:{n}");

    // A missing program, a script without the executable bit, a #! to a missing interpreter, a
    // `jq` guard with no `jq` on the agent's PATH: each an error at its file:line:col.
    error_at(
        &report_now,
        &key(0),
        "`no-such-linter` is not on the agent's PATH",
        &at("no-such-linter"),
    );
    let not_executable = error_at(
        &report_now,
        &key(1),
        "is not executable",
        &at("not-executable.sh"),
    );
    assert!(not_executable["fix"].as_str().unwrap().contains("chmod +x"));
    error_at(
        &report_now,
        &key(2),
        "interpreter `python9`",
        &at("lost-interpreter"),
    );
    error_at(
        &report_now,
        &key(3),
        "`jq`, which is not on the agent's PATH",
        &at("jq-guard.sh"),
    );

    let session_end = finding(
        &report_now,
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
    let jq_dir = scene.root().join("with-jq");
    std::fs::create_dir_all(&jq_dir).unwrap();
    executable(&jq_dir.join("jq"), "#!/bin/sh\ncat\n");
    let path = format!("{}:{}", agent_bin.display(), jq_dir.display());
    let mut with_path = json_args.clone();
    with_path.extend(["--path", &path]);
    let with_jq = report(&with_path);
    assert!(
        !with_jq["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["message"].as_str().unwrap().contains("`jq`")),
        "{with_jq:#}"
    );

    // For a person: severity, key, file:line:col and the fix.
    let mut for_a_person = args.clone();
    for_a_person.extend(["--path", &agent_path]);
    let shown = text(&output(&for_a_person, "").stdout);
    assert!(
        shown.contains(&format!("error   {} {}", key(0), at("no-such-linter"))),
        "{shown}"
    );
    assert!(shown.contains("fix: `chmod +x"), "{shown}");
}

#[test]
fn doctor_says_a_session_end_timeout_is_over_what_the_event_allows() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    let config = home.join("config.toml");
    write(
        &config,
        "[[hooks.SessionEnd]]\n[[hooks.SessionEnd.hooks]]\ntype = \"command\"\ncommand = \"true\"\ntimeout = 10\n",
    );
    let mut args = located("doctor", "lime", &home, &project);
    args.push("--json".to_owned());
    let out = output(&words(&args), "");
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

/// `hook test --expectations` (doctor's run of the same file is in `tests/it/doctor.rs`).
#[test]
fn an_expectations_file_with_a_passing_and_a_failing_case_fails_and_says_which() {
    let scene = Scene::new();
    let (home, project) = (scene.home(), scene.project());
    write_expectations_one_fails(&home, &project);
    let mut test = located("test", "verboo", &home, &project);
    test.push("--expectations".to_owned());
    let args = words(&test);
    let out = output(&args, "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("the guard blocks rm -rf"), "{shown}");
    assert!(
        shown.contains("FAIL the guard blocks curl | sh: expected block, got continue"),
        "{shown}"
    );
    assert!(shown.contains("1 of 2 expectation(s) met"), "{shown}");

    let mut json_args = args.clone();
    json_args.push("--json");
    let report: Value = serde_json::from_slice(&output(&json_args, "").stdout).unwrap();
    assert_eq!(report["ok"], false);
    let passed: Vec<bool> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["passed"].as_bool().unwrap())
        .collect();
    assert_eq!(passed, [true, false]);
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

/// `hook doctor --json --path /usr/bin:/bin` for `home` and `project`.
fn doctor_report(home: &Path, project: &Path) -> Value {
    let mut args = located("doctor", "verboo", home, project);
    args.extend(["--json", "--path", "/usr/bin:/bin"].map(str::to_owned));
    report(&words(&args))
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
    let out = output(&with_home, "");
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

/// Claude Code starts its relay entries without the engine's trust: doctor never says an entry
/// "will not run" for want of it, while the relay hook it starts, which the relay gates by its
/// own trust, is said to need it.
#[test]
fn doctor_asks_trust_for_relay_hooks_not_for_the_entries_that_start_them() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("app");
    std::fs::create_dir_all(&home).unwrap();
    let relay_file = project.join(".claude/hook-relay/settings.json");
    write(
        &relay_file,
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]}]}}"#,
    );
    let mut install = located("relay", "verboo", &home, &project);
    install.insert(1, "install".into());
    let ran = super::hook(&words(&install), "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let found = doctor_report(&home, &project);
    let untrusted: Vec<&str> = found["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["message"]
                .as_str()
                .unwrap()
                .contains("never been trusted")
        })
        .map(|f| f["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        untrusted,
        [format!(
            "project:{}:PreToolUse:Bash:0",
            relay_file.display()
        )],
        "{found:#}"
    );
    // Doctor checked the two entries (SessionStart, PreToolUse) and the relay hook.
    assert_eq!(found["hooks"], 3, "{found:#}");
}

/// A relay hook on `SessionEnd` with a long timeout is named once, at the relay hook (where the
/// fix is), never again at the entry `hook relay install` wrote for it (its timeout is the
/// hook's plus 5 s, rewritten by the next sync).
#[test]
fn a_long_session_end_relay_hook_is_named_at_the_hook_not_at_its_entry() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("app");
    std::fs::create_dir_all(&home).unwrap();
    let relay_file = project.join(".claude/hook-relay/settings.json");
    write(
        &relay_file,
        r#"{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"true","timeout":60}]}]}}"#,
    );
    let mut install = located("relay", "verboo", &home, &project);
    install.insert(1, "install".into());
    let ran = super::hook(&words(&install), "");
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let settings = text(&std::fs::read(project.join(".claude/settings.json")).unwrap());
    assert!(settings.contains("\"timeout\": 65"), "{settings}");
    let found = doctor_report(&home, &project);
    let long: Vec<&str> = found["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["message"]
                .as_str()
                .unwrap()
                .contains("SessionEnd hook may take")
        })
        .map(|f| f["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        long,
        [format!("project:{}:SessionEnd::0", relay_file.display())],
        "{found:#}"
    );
}

//! The journal: what `hook run` and `hook relay` record, and `hook log` / `hook stats` reading
//! it back (in-process). Concurrent writers, a lock held by another process, `--follow`, FIFOs
//! and `HOOK_JOURNAL=off` need processes: `tests/it/journal.rs`.
//!
//! These tests read what the commands record: run them without `HOOK_JOURNAL=off` in the
//! environment (the binary's tests remove it; a test in this process cannot).

use hook_test_support::Output;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{located, output, text, words, write};
use hook_test_support::events::{journal_line as line, pre_tool_use};
use hook_test_support::read::{decision, journal_lines};

/// A temporary folder with a verboo home holding `hooks` in `file`, and a project folder; the
/// journal on (see the module's docs).
fn scene(file: &str, hooks: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    assert!(
        !crate::ops::journal::journal_off(),
        "HOOK_JOURNAL turns the journal off in this environment: unset it to run these tests"
    );
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let home = dir.path().join("home");
    write(&home.join(file), hooks);
    (dir, home, project)
}

/// `hook COMMAND --dialect verboo --event PreToolUse --home HOME --project PROJECT` with
/// `input` on stdin.
fn dispatch(command: &str, home: &Path, project: &Path, input: &str) -> Output {
    let mut all = located(command, "verboo", home, project);
    all.extend(["--event".to_owned(), "PreToolUse".to_owned()]);
    output(&words(&all), input)
}

fn schema_validator() -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_str(include_str!("../../schemas/journal-record.schema.json")).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

#[test]
fn a_relay_dispatch_shows_its_failing_blocking_and_skipped_hooks_in_hook_log() {
    // The user's relay hooks (trusted as written): one fails, one blocks.
    let (_dir, home, project) = scene(
        "hook-relay/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'jq: command not found' >&2; exit 127"},
            {"type": "command", "command": "echo 'no rm -rf here' >&2; exit 2"},
            {"type": "command", "command": "echo 'waiting for the lock' >&2; sleep 10", "timeout": 1}]}]}}"#,
    );
    // A project relay hook nobody trusted: skipped.
    write(
        &project.join(".claude/hook-relay/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    let relay = located("relay", "verboo", &home, &project);
    let out = output(&words(&relay), &pre_tool_use(&project, "rm -rf /"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let log_words = located("log", "verboo", &home, &project);
    let log = words(&log_words);
    let mut json_log = log.clone();
    json_log.push("--json");
    let out = output(&json_log, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let record = &lines[0];
    assert_eq!(record["front"], "relay");
    assert_eq!(record["event"], "PreToolUse");
    assert_eq!(record["tool"], "Bash");
    assert_eq!(record["summary"], "rm -rf /");
    assert_eq!(record["decision"], "block");
    assert_eq!(record["exit_code"], 0);
    // Whether its PATH is recorded depends on who started it (an agent's variable in the
    // environment), which a test in this process cannot set: `tests/it/journal.rs` tests it.
    let runs = record["runs"].as_array().unwrap();
    let statuses: Vec<&str> = runs.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        ["failed", "blocked", "timed_out", "skipped"],
        "{record}"
    );
    assert_eq!(runs[0]["exit_code"], 127);
    assert_eq!(runs[0]["stderr"], "jq: command not found\n");
    assert_eq!(runs[1]["stderr"], "no rm -rf here\n");
    assert_eq!(runs[2]["stderr"], "waiting for the lock\n");
    assert_eq!(runs[3]["skip_reason"], "untrusted");
    // The full input is not kept.
    assert!(record.get("tool_input").is_none());
    // Every line matches the published schema of a record.
    let validator = schema_validator();
    assert!(validator.is_valid(record), "{record}");
    for line in journal_lines(&home) {
        assert!(validator.is_valid(&line), "{line}");
    }

    // The same for a person: the failed run shows its stderr tail.
    let out = output(&log, "");
    let shown = text(&out.stdout);
    assert!(
        shown.contains("PreToolUse claude block Bash `rm -rf /`"),
        "{shown}"
    );
    assert!(shown.contains("failed"), "{shown}");
    // The failed run's error quotes its stderr; the timed-out run shows its stderr tail.
    assert!(shown.contains("exit 127"), "{shown}");
    assert!(shown.contains("jq: command not found"), "{shown}");
    assert!(shown.contains("timed_out"), "{shown}");
    assert!(shown.contains("stderr: waiting for the lock"), "{shown}");
    assert!(shown.contains("skipped"), "{shown}");
    assert!(!shown.contains('\x1b'), "no colour off a terminal: {shown}");

    // Filters.
    let count = |extra: &[&str]| {
        let mut args = json_log.clone();
        args.extend(extra);
        text(&output(&args, "").stdout).lines().count()
    };
    assert_eq!(count(&["--status", "failed"]), 1);
    assert_eq!(count(&["--event", "Stop"]), 0);
    assert_eq!(count(&["--session", "another"]), 0);
    assert_eq!(count(&["--since", "1h"]), 1);
}

/// The journal's refusals (`HOOK_JOURNAL=off` is in `tests/it/journal.rs`: it is read from the
/// environment).
#[test]
fn an_unwritable_journal_changes_neither_the_outcome_nor_the_exit_code() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo 'blocked by policy' >&2; exit 2"}]}]}}"#,
    );
    std::fs::copy(home.join("settings.json"), {
        std::fs::create_dir_all(home.join("hook-relay")).unwrap();
        home.join("hook-relay/settings.json")
    })
    .unwrap();
    let input = pre_tool_use(&project, "rm -rf /");
    let before = dispatch("run", &home, &project, &input);
    let relay_before = dispatch("relay", &home, &project, &input);
    assert_eq!(journal_lines(&home).len(), 2);

    // The journal's folder is now writable by others: refused, as side files are.
    let journal = home.join("hook-journal");
    std::fs::set_permissions(&journal, std::fs::Permissions::from_mode(0o777)).unwrap();
    let after = dispatch("run", &home, &project, &input);
    assert_eq!(after.status.code(), before.status.code());
    assert_eq!(decision(&after), decision(&before));
    assert_eq!(decision(&after), "block");
    let stderr = text(&after.stderr);
    assert_eq!(
        stderr.matches("hook journal is not kept").count(),
        1,
        "said once: {stderr}"
    );
    assert!(stderr.contains("writable by group or others"), "{stderr}");

    // The relay answers the same block (Claude Code's JSON deny, exit 0), and says it once.
    let relay_after = dispatch("relay", &home, &project, &input);
    assert_eq!(relay_after.status.code(), relay_before.status.code());
    assert_eq!(relay_after.stdout, relay_before.stdout);
    let said = text(&relay_after.stderr);
    assert_eq!(
        said.matches("hook journal is not kept").count(),
        1,
        "{said}"
    );

    // A file where the folder should be.
    std::fs::remove_dir_all(&journal).unwrap();
    std::fs::write(&journal, "not a folder").unwrap();
    let after = dispatch("run", &home, &project, &input);
    assert_eq!(after.status.code(), before.status.code());
    assert_eq!(decision(&after), "block");
    assert!(text(&after.stderr).contains("not a directory"));
}

/// A home whose journal holds `lines`, and a project.
fn journal_of(lines: &[String]) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    write(
        &home.join("hook-journal/journal.jsonl"),
        &(lines.join("\n") + "\n"),
    );
    (dir, home, project)
}

#[test]
fn hook_stats_flags_a_silent_guard_a_failing_hook_and_a_slow_one() {
    let mut lines = Vec::new();
    for minute in 10..20 {
        let time = format!("2026-12-03T10:{minute}:00.000Z");
        lines.push(line(
            &time,
            "PreToolUse",
            "user:settings.json:PreToolUse:Bash:0",
            json!({"status": "ok", "exit_code": 0, "duration_ms": 4, "quiet": true}),
        ));
        lines.push(line(
            &time,
            "PostToolUse",
            "user:settings.json:PostToolUse:Edit:0",
            json!({"status": "failed", "exit_code": 127, "duration_ms": 3,
                "stderr": "line 1\nprettier: command not found\n",
                "error": "exit code 127"}),
        ));
        lines.push(line(
            &time,
            "Stop",
            "user:settings.json:Stop::0",
            json!({"status": "ok", "exit_code": 0, "duration_ms": 2500 + minute}),
        ));
    }
    let (_dir, home, project) = journal_of(&lines);
    let stats_words = located("stats", "verboo", &home, &project);
    let args = words(&stats_words);
    let mut json_args = args.clone();
    json_args.push("--json");
    let out = output(&json_args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    let entry = |key: &str| -> Value {
        stats
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["key"] == key)
            .unwrap_or_else(|| panic!("{key} in {stats}"))
            .clone()
    };
    let flags = |key: &str| -> Vec<String> {
        entry(key)["flags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_owned())
            .collect()
    };
    let guard = flags("user:settings.json:PreToolUse:Bash:0");
    assert_eq!(guard.len(), 1, "{guard:?}");
    assert!(guard[0].starts_with("always exit 0 with no output on a blocking event"));
    assert_eq!(
        flags("user:settings.json:PostToolUse:Edit:0"),
        ["always fails"]
    );
    assert_eq!(
        flags("user:settings.json:Stop::0"),
        ["slow (p95 over 1000 ms)"]
    );
    let failing = entry("user:settings.json:PostToolUse:Edit:0");
    assert_eq!(failing["failures"], 10);
    assert_eq!(
        failing["last_failure"]["stderr_tail"],
        "line 1\nprettier: command not found"
    );
    assert_eq!(entry("user:settings.json:Stop::0")["max_ms"], 2519);

    // The table for a person, and the flags under it.
    let out = output(&args, "");
    let shown = text(&out.stdout);
    assert!(shown.contains("always fails"), "{shown}");
    assert!(
        shown.contains("stderr: prettier: command not found"),
        "{shown}"
    );
    assert!(shown.contains("slow (p95 over 1000 ms)"), "{shown}");
}

#[test]
fn hook_log_escapes_what_a_hook_printed() {
    let hidden = line(
        "2026-12-03T10:00:00.000Z",
        "PreToolUse",
        "user:settings.json:PreToolUse:Bash:0",
        json!({"status": "failed", "exit_code": 1, "duration_ms": 1,
            "stderr": "fine\u{1b}[2K\rall good\u{202e}\n"}),
    );
    let (_dir, home, project) = journal_of(&[hidden]);
    let log = located("log", "verboo", &home, &project);
    let shown = text(&output(&words(&log), "").stdout);
    assert!(
        shown.contains("stderr: fine\\x1b[2K\\rall good\\u{202e}"),
        "{shown}"
    );
    assert!(!shown.contains('\u{1b}'), "{shown}");
}

#[test]
fn hook_stats_escapes_a_lines_time() {
    let hostile = line(
        "\u{1b}[2J\u{1b}[31mgotcha",
        "PreToolUse",
        "user:settings.json:PreToolUse:Bash:0",
        json!({"status": "failed", "exit_code": 1, "error": "x"}),
    );
    let (_dir, home, project) = journal_of(&[hostile]);
    let stats = located("stats", "verboo", &home, &project);
    let out = output(&words(&stats), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(!shown.contains('\u{1b}'), "{shown}");
    assert!(shown.contains("\\x1b[2J"), "{shown}");
}

/// Which runs `--hook` with `--status` looks at is tested in
/// `ops::journal::tests::hook_status_means_that_hooks_own_run`; here, the flag's wiring.
#[test]
fn hook_log_refuses_a_window_past_the_calendar() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    // A window past the calendar is a clear error, not an empty log.
    let mut log = located("log", "verboo", &home, &project);
    log.extend(["--since".to_owned(), "9999999999999w".to_owned()]);
    let out = output(&words(&log), "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("leave --since out"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_300_kb_session_id_gives_a_line_of_at_most_64_kib() {
    let (_dir, home, project) = scene(
        "settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "exit 0"}]}]}}"#,
    );
    let input = pre_tool_use(&project, "ls").replace("s-journal", &"s".repeat(300_000));
    let out = dispatch("run", &home, &project, &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let text = std::fs::read_to_string(home.join("hook-journal/journal.jsonl")).unwrap();
    assert!(text.len() <= 64 * 1024, "{}", text.len());
    let record: Value = serde_json::from_str(text.trim_end()).unwrap();
    assert_eq!(record["v"], 1);
    assert_eq!(record["runs"].as_array().unwrap().len(), 1);
    let validator = schema_validator();
    assert!(validator.is_valid(&record), "{record}");

    // A record that does not fit even cut: a stub line, valid against the schema too.
    let mut big = record.clone();
    let run = big["runs"][0].clone();
    big["runs"] = (0..3000)
        .map(|n| {
            let mut run = run.clone();
            run["key"] = format!("{}{n}", "k".repeat(2000)).into();
            run
        })
        .collect::<Vec<Value>>()
        .into();
    let big: hook_exec::journal::Record = serde_json::from_value(big).unwrap();
    let line = big.to_line().unwrap();
    assert!(line.len() <= 64 * 1024, "{}", line.len());
    let stub: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(stub["runs_dropped"], 3000);
    assert_eq!(stub["truncated"], true);
    assert!(validator.is_valid(&stub), "{stub}");
}

//! `hook replay` (in-process): the recorded sessions of the real agents
//! (`tests/fixtures/replay/`, Claude Code 2.1 and Codex 0.169) replayed through a guard,
//! blocking exactly the calls it should; `--compare` showing only what differs; `--json` valid
//! against the committed schema; bad lines counted while the good ones are still replayed; the
//! relay's entries in a configuration named once and never run.
//! Where the agents keep their sessions (`HOME`, `CODEX_HOME`) and a FIFO that must not hang
//! the process are in `tests/it/replay.rs`.

use std::path::Path;

use hook_test_support::Scene;
use hook_test_support::read::{blocked, json_lines, of_type, summary};
use serde_json::{Value, json};

use hook_protocol::Dialect;

use crate::ops::replay::tests::{fixture_file, guard};

/// Claude Code's dialect, whose transcripts the fixtures hold.
fn verboo() -> Dialect {
    "verboo".parse().unwrap()
}

/// The replays a test runs in its [`Scene`] (home and project).
trait Replays {
    /// `hook replay --dialect D --project P ARGS` (the transcripts and the configuration are
    /// named: no agent home is read).
    fn replay(&self, dialect: &str, args: &[&str]) -> hook_test_support::Output;
    /// `hook replay FILE --config CONFIG EXTRA...`.
    fn replay_with(
        &self,
        dialect: &str,
        file: &Path,
        config: &Path,
        extra: &[&str],
    ) -> hook_test_support::Output;
    /// [`Replays::replay_with`]'s `--json` lines.
    fn json_with(&self, dialect: &str, file: &Path, config: &Path, extra: &[&str]) -> Vec<Value>;
    /// `--json` lines of a successful replay.
    fn json(&self, dialect: &str, args: &[&str]) -> Vec<Value>;
}

impl Replays for Scene {
    fn replay(&self, dialect: &str, args: &[&str]) -> hook_test_support::Output {
        let project = self.project().display().to_string();
        let mut all = vec!["replay", "--dialect", dialect, "--project", &project];
        all.extend(args);
        super::output(&all, "")
    }

    fn replay_with(
        &self,
        dialect: &str,
        file: &Path,
        config: &Path,
        extra: &[&str],
    ) -> hook_test_support::Output {
        let mut args = vec![file.to_str().unwrap(), "--config", config.to_str().unwrap()];
        args.extend(extra);
        self.replay(dialect, &args)
    }

    fn json_with(&self, dialect: &str, file: &Path, config: &Path, extra: &[&str]) -> Vec<Value> {
        let mut args = vec![file.to_str().unwrap(), "--config", config.to_str().unwrap()];
        args.extend(extra);
        self.json(dialect, &args)
    }

    fn json(&self, dialect: &str, args: &[&str]) -> Vec<Value> {
        let mut all = args.to_vec();
        all.push("--json");
        json_lines(&self.replay(dialect, &all).success().stdout)
    }
}

#[test]
fn a_claude_code_session_replayed_through_a_guard_blocks_exactly_the_rm_call() {
    let setup = Scene::new();
    let config = setup.write("guard.json", &guard(verboo(), "rm -rf"));
    let file = fixture_file("claude");
    let lines = setup.json_with("verboo", &file, &config, &[]);
    assert_eq!(
        blocked(&lines),
        [("toolu_05".to_owned(), "rm -rf build".to_owned())]
    );
    let summary = summary(&lines);
    // Two prompts, seven calls (Bash ls, echo, Read, Edit, rm, false; git status): the default
    // events are PreToolUse, PermissionRequest (none: the session bypassed permissions) and
    // UserPromptSubmit.
    assert_eq!(summary["events"], 9);
    assert_eq!(summary["rebuilt"]["PreToolUse"], 7);
    assert_eq!(summary["rebuilt"]["UserPromptSubmit"], 2);
    assert_eq!(summary["rebuilt"]["PostToolUse"], 5);
    // `false` and `git status` failed: verboo's PostToolUseFailure.
    assert_eq!(summary["rebuilt"]["PostToolUseFailure"], 2);
    assert_eq!(summary["rebuilt"]["Stop"], 2);
    assert_eq!(summary["bad_lines"], 0);
    let hooks = summary["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0]["key"], "user:settings.json:PreToolUse:Bash:0");
    // Bash calls only: ls, echo, rm, false, git status.
    assert_eq!(hooks[0]["matched"], 5);
    assert_eq!(hooks[0]["blocked"], 1);
    // The events are the session's, in order, with what the agent recorded.
    let pre: Vec<&Value> = of_type(&lines, "event")
        .into_iter()
        .filter(|e| e["event"] == "PreToolUse")
        .collect();
    let tools: Vec<&str> = pre.iter().map(|e| e["tool"].as_str().unwrap()).collect();
    assert_eq!(
        tools,
        ["Bash", "Bash", "Read", "Edit", "Bash", "Bash", "Bash"]
    );
    assert_eq!(pre[0]["session"], "c86b3344-364c-40f8-a02f-c66ac42d3080");

    // The text report names the call, the decision and the hook's reason.
    let out = setup.replay_with("verboo", &file, &config, &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("1 event not `continue`, most recent first:"),
        "{text}"
    );
    assert!(text.contains("PreToolUse Bash `rm -rf build`"), "{text}");
    assert!(text.contains("block: no rm -rf here"), "{text}");
}

#[test]
fn compare_shows_only_the_events_whose_outcome_differs() {
    let setup = Scene::new();
    let rm = setup.write("rm.json", &guard(verboo(), "rm -rf"));
    let git = setup.write("git.json", &guard(verboo(), "git status"));
    let file = fixture_file("claude");
    let args = ["--compare", git.to_str().unwrap()];
    let out = setup.replay_with("verboo", &file, &rm, &args);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("2 events whose outcome differs, most recent first:"),
        "{text}"
    );
    assert!(text.contains("PreToolUse Bash `git status`"), "{text}");
    assert!(text.contains("PreToolUse Bash `rm -rf build`"), "{text}");
    assert!(!text.contains("`ls`"), "{text}");
    // Most recent first: git status came in the second prompt.
    assert!(text.find("git status").unwrap() < text.find("rm -rf build").unwrap());
    assert!(text.contains("this: block: no rm -rf here"), "{text}");
    assert!(text.contains("other: continue"), "{text}");

    let lines = setup.json_with("verboo", &file, &rm, &args);
    assert_eq!(summary(&lines)["differing"], 2);
    // The same guard on both sides: nothing differs.
    let lines = setup.json_with("verboo", &file, &rm, &["--compare", rm.to_str().unwrap()]);
    assert_eq!(summary(&lines)["differing"], 0);
}

/// Claude Code's settings with `hook relay install`'s `PreToolUse` entry (it asks to fail
/// closed) beside `guard`'s hooks.
fn with_relay_entry(guard: Option<&str>) -> String {
    let entry = json!({"type": "command", "timeout": 605, "onFailure": "block",
        "command": "/opt/bin/hook relay --dialect verboo --event PreToolUse --scope user || exit 2 # hook-relay-install"});
    let mut settings: Value = match guard {
        Some(text) => serde_json::from_str(text).unwrap(),
        None => json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}]}}),
    };
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": "Bash", "hooks": [entry]}));
    settings.to_string()
}

#[test]
fn the_relays_entries_of_either_configuration_are_named_once_and_decide_nothing() {
    let setup = Scene::new();
    let guarded = setup.write(
        "guarded.json",
        &with_relay_entry(Some(&guard(verboo(), "rm -rf"))),
    );
    let entry_only = setup.write("entry.json", &with_relay_entry(None));
    let file = fixture_file("claude");
    let lines = setup.json_with(
        "verboo",
        &file,
        &guarded,
        &["--compare", entry_only.to_str().unwrap()],
    );
    // Each configuration's entry once, the compared one marked.
    let named: Vec<(String, bool)> = summary(&lines)["not_replayed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert_eq!(e["reason"], "relay_entry", "{e}");
            assert_eq!(e["instead"], "--relay", "{e}");
            (
                e["key"].as_str().unwrap().to_owned(),
                e["compared"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("user:settings.json:PreToolUse:Bash:1".to_owned(), false),
            ("user:settings.json:PreToolUse:Bash:0".to_owned(), true),
        ]
    );
    // The guard blocks the rm call alone: the entry, which asks to fail closed, is not a
    // failure that blocks every Bash call, nor a hook of either table.
    assert_eq!(
        blocked(&lines),
        [("toolu_05".to_owned(), "rm -rf build".to_owned())]
    );
    assert_eq!(summary(&lines)["differing"], 1);
    let keys = |table: &str| -> Vec<String> {
        summary(&lines)[table]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["key"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(keys("hooks"), ["user:settings.json:PreToolUse:Bash:0"]);
    assert!(keys("compared_hooks").is_empty());

    // The text report: once each, the compared one said so.
    let out = setup.replay_with(
        "verboo",
        &file,
        &guarded,
        &["--compare", entry_only.to_str().unwrap()],
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "  user:settings.json:PreToolUse:Bash:0  `/opt/bin/hook relay --dialect verboo \
             --event PreToolUse --scope user || exit 2 # hook-relay-install` (the compared \
             configuration)"
        ),
        "{text}"
    );
    assert_eq!(text.matches("hook-relay-install").count(), 2, "{text}");
}

#[test]
fn a_hooks_files_are_judged_where_it_runs_as_hook_run_judges_them() {
    let setup = Scene::new();
    let home = setup.root().join("home").display().to_string();
    let project = setup.root().join("project");
    super::write(
        &project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "sh ./guard.sh"}]}]}}"#,
    );
    // Trusted with the project's `guard.sh`; the session ran in `sub/`, whose `guard.sh` (a
    // script nobody trusted) is what the hook would run there.
    super::write(&project.join("guard.sh"), "exit 0\n");
    super::write(
        &project.join("sub/guard.sh"),
        "grep -q 'rm -rf' && { echo 'untrusted script ran' >&2; exit 2; }\nexit 0\n",
    );
    let project_arg = project.to_str().unwrap();
    let location = [
        "--dialect",
        "verboo",
        "--home",
        &home,
        "--project",
        project_arg,
    ];
    let mut trust = vec!["trust", "--all"];
    trust.extend(location);
    assert!(super::output(&trust, "").status.success());
    let sub = project.join("sub").display().to_string();
    let transcript = setup.write(
        "session.jsonl",
        &std::fs::read_to_string(fixture_file("claude"))
            .unwrap()
            .replace("/replay/project", &sub),
    );
    let lines = setup.json("verboo", &[transcript.to_str().unwrap(), "--home", &home]);
    assert!(blocked(&lines).is_empty(), "{lines:?}");
    let hooks = summary(&lines)["hooks"].as_array().unwrap().clone();
    assert_eq!(hooks.len(), 1, "{hooks:?}");
    assert_eq!(hooks[0]["skipped"], 5, "{hooks:?}");
    // `hook run` on the session's rm call says the same.
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "transcript_path": "/t.jsonl", "cwd": sub, "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build"}, "tool_use_id": "t"});
    let mut run = vec!["run", "--event", "PreToolUse"];
    run.extend(location);
    let out = super::output(&run, &event.to_string());
    let outcome: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(outcome["decision"], "continue", "{outcome}");
    assert_eq!(outcome["runs"][0]["skip_reason"], "modified", "{outcome}");
    for event in of_type(&lines, "event") {
        for run in event["result"]["hooks"].as_array().unwrap() {
            assert_eq!(run["skip_reason"], "modified", "{run}");
        }
    }
}

#[test]
fn json_lines_validate_against_the_committed_schema() {
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/replay-report.schema.json"),
    )
    .unwrap();
    let setup = Scene::new();
    let printed = setup.replay("verboo", &["--schema"]);
    let printed = String::from_utf8(printed.stdout).unwrap();
    assert_eq!(
        printed, committed,
        "hook-cli/schemas/replay-report.schema.json is stale: write `hook replay --dialect verboo --schema` into it"
    );
    let schema: Value = serde_json::from_str(&committed).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let rm = setup.write("rm.json", &guard(verboo(), "rm -rf"));
    let git = setup.write("git.json", &guard(verboo(), "git status"));
    let broken = setup.write(
        "broken.jsonl",
        &format!(
            "{}\n{{not json\n",
            std::fs::read_to_string(fixture_file("claude")).unwrap()
        ),
    );
    let lines = setup.json(
        "verboo",
        &[
            broken.to_str().unwrap(),
            "--config",
            rm.to_str().unwrap(),
            "--compare",
            git.to_str().unwrap(),
        ],
    );
    assert!(!of_type(&lines, "bad_line").is_empty());
    for line in &lines {
        let errors: Vec<String> = validator.iter_errors(line).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{line}: {errors:?}");
    }
    // The schema is strict: an unknown field is refused.
    let mut extra = lines[0].clone();
    extra["surprise"] = Value::Bool(true);
    assert!(!validator.is_valid(&extra));
}

#[test]
fn bad_lines_are_counted_with_their_place_and_the_good_ones_still_replayed() {
    let setup = Scene::new();
    let config = setup.write("guard.json", &guard(verboo(), "rm -rf"));
    let original = std::fs::read_to_string(fixture_file("claude")).unwrap();
    let mut lines: Vec<String> = original.lines().map(str::to_owned).collect();
    // Line 2: corrupt; line 3: a newer agent's entry type (skipped and counted, not bad); line
    // 4: a huge tool result (over the cap below); the last line: cut short, as by a crash while
    // writing.
    lines.insert(1, "{\"type\": \"user\", \"message\": ".to_owned());
    lines.insert(
        2,
        "{\"type\": \"hologram\", \"sessionId\": \"x\"}".to_owned(),
    );
    lines.insert(
        3,
        format!(
            "{{\"type\": \"user\", \"message\": {{\"content\": \"{}\"}}}}",
            "y".repeat(300_000)
        ),
    );
    let last = lines.pop().unwrap();
    lines.push(last[..last.len() / 2].to_owned());
    let broken = setup.write("broken.jsonl", &lines.join("\n"));
    let out = setup.json_with("verboo", &broken, &config, &["--max-line-bytes", "100000"]);
    let bad: Vec<(u64, String)> = of_type(&out, "bad_line")
        .into_iter()
        .map(|b| {
            (
                b["line"].as_u64().unwrap(),
                b["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let total = lines.len() as u64;
    assert_eq!(
        bad,
        [
            (2, "corrupt".to_owned()),
            (4, "too_long".to_owned()),
            (total, "truncated".to_owned()),
        ]
    );
    let summary = summary(&out);
    assert_eq!(summary["bad_lines"], 3);
    assert_eq!(
        summary["skipped_entries"],
        serde_json::json!({"hologram": 1})
    );
    assert_eq!(summary["lines"], total);
    // Every good event is still replayed, and the guard still finds its call.
    assert_eq!(
        blocked(&out),
        [("toolu_05".to_owned(), "rm -rf build".to_owned())]
    );
    assert_eq!(summary["rebuilt"]["PreToolUse"], 7);

    // The text report lists them with file:line.
    let text = setup.replay_with("verboo", &broken, &config, &["--max-line-bytes", "100000"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("3 lines not replayed"), "{text}");
    assert!(
        text.contains(
            "Skipped 1 entry of types replay does not model (a newer agent's): hologram 1."
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}:2: corrupt", broken.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}:{total}: truncated", broken.display())),
        "{text}"
    );
}

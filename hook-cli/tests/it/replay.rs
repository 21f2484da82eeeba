//! `hook replay`: the recorded sessions of the real agents (`tests/fixtures/replay/`, Claude Code
//! 2.1 and Codex 0.169) replayed through a guard, blocking exactly the calls it should;
//! `--compare` showing only what differs; `--json` valid against the committed schema; bad
//! lines counted while the good ones are still replayed.
// Setup helpers panic on a broken test environment, like the tests themselves.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixtures(agent: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/replay")
        .join(agent)
}

fn fixture_file(agent: &str) -> PathBuf {
    let dir = fixtures(agent);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files.remove(0)
}

/// A guard that blocks any Bash command containing `needle` (exit 2, reason on stderr).
fn guard(dialect: &str, needle: &str) -> String {
    let command =
        format!("grep -q '{needle}' && {{ echo 'no {needle} here' >&2; exit 2; }} || exit 0");
    match dialect {
        "verboo" => serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command}]}]}})
        .to_string(),
        _ => format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n\
             type = \"command\"\ncommand = {}\n",
            Value::from(command)
        ),
    }
}

struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Setup { dir }
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn replay(&self, dialect: &str, args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_hook"))
            .args(["replay", "--dialect", dialect, "--project"])
            .arg(self.dir.path().join("project"))
            .args(args)
            .env("HOME", self.dir.path().join("home"))
            .env("CODEX_HOME", self.dir.path().join("home/.codex"))
            .output()
            .unwrap()
    }

    /// `hook replay FILE --config CONFIG EXTRA...`.
    fn replay_with(
        &self,
        dialect: &str,
        file: &Path,
        config: &Path,
        extra: &[&str],
    ) -> std::process::Output {
        let mut args = vec![file.to_str().unwrap(), "--config", config.to_str().unwrap()];
        args.extend(extra);
        self.replay(dialect, &args)
    }

    /// [`Setup::replay_with`]'s `--json` lines.
    fn json_with(&self, dialect: &str, file: &Path, config: &Path, extra: &[&str]) -> Vec<Value> {
        let mut args = vec![file.to_str().unwrap(), "--config", config.to_str().unwrap()];
        args.extend(extra);
        self.json(dialect, &args)
    }

    /// `--json` lines of a successful replay.
    fn json(&self, dialect: &str, args: &[&str]) -> Vec<Value> {
        let mut all = args.to_vec();
        all.push("--json");
        let out = self.replay(dialect, &all);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

fn of_type<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["type"] == kind).collect()
}

fn summary(lines: &[Value]) -> &Value {
    let summaries = of_type(lines, "summary");
    assert_eq!(summaries.len(), 1);
    assert_eq!(lines.last().unwrap()["type"], "summary");
    summaries[0]
}

/// (tool_use_id, subject) of each blocked event.
fn blocked(lines: &[Value]) -> Vec<(String, String)> {
    of_type(lines, "event")
        .into_iter()
        .filter(|e| e["result"]["decision"] == "block")
        .map(|e| {
            (
                e["tool_use_id"].as_str().unwrap_or_default().to_owned(),
                e["subject"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_claude_code_session_replayed_through_a_guard_blocks_exactly_the_rm_call() {
    let setup = Setup::new();
    let config = setup.write("guard.json", &guard("verboo", "rm -rf"));
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
fn post_tool_use_and_stop_are_replayed_on_request_and_not_after_a_block() {
    let setup = Setup::new();
    let config = setup.write("guard.json", &guard("verboo", "rm -rf"));
    let file = fixture_file("claude");
    let lines = setup.json_with(
        "verboo",
        &file,
        &config,
        &["--events", "PreToolUse,PostToolUse,PostToolUseFailure,Stop"],
    );
    let events = of_type(&lines, "event");
    let names = |name: &str| events.iter().filter(|e| e["event"] == name).count();
    // The blocked call's PostToolUse is not sent: the agent would not have run it.
    assert_eq!(names("PostToolUse"), 4);
    assert_eq!(names("PostToolUseFailure"), 2);
    assert_eq!(names("Stop"), 2);
    assert_eq!(summary(&lines)["skipped_after_block"], 1);
    let failure = events
        .iter()
        .find(|e| e["event"] == "PostToolUseFailure")
        .unwrap();
    assert_eq!(failure["subject"], "false");
}

#[test]
fn a_codex_session_replayed_through_a_guard_blocks_exactly_the_rm_call() {
    let setup = Setup::new();
    let config = setup.write("guard.toml", &guard("lime", "rm -rf"));
    let file = fixture_file("codex");
    let args = [file.to_str().unwrap(), "--config", config.to_str().unwrap()];
    // lime: every hook needs trust; untrusted, it is reported and not run.
    let lines = setup.json("lime", &args);
    assert!(blocked(&lines).is_empty());
    let hooks = summary(&lines)["hooks"].as_array().unwrap().clone();
    assert_eq!(hooks[0]["skipped"], hooks[0]["matched"]);
    let first = of_type(&lines, "event")
        .into_iter()
        .find(|e| e["event"] == "PreToolUse")
        .unwrap();
    assert_eq!(first["result"]["hooks"][0]["skip_reason"], "untrusted");

    let mut trusted = args.to_vec();
    trusted.push("--trust-all-for-replay");
    let lines = setup.json("lime", &trusted);
    assert_eq!(
        blocked(&lines),
        [("call-4".to_owned(), "rm -rf build".to_owned())]
    );
    // Codex's tools as Codex gives them to hooks: exec_command is Bash with `command`,
    // apply_patch keeps its name with the patch as `command`.
    let pre: Vec<&Value> = of_type(&lines, "event")
        .into_iter()
        .filter(|e| e["event"] == "PreToolUse")
        .collect();
    let tools: Vec<&str> = pre.iter().map(|e| e["tool"].as_str().unwrap()).collect();
    assert_eq!(
        tools,
        ["Bash", "Bash", "apply_patch", "Bash", "Bash", "Bash"]
    );
    assert!(
        pre[2]["subject"]
            .as_str()
            .unwrap()
            .starts_with("*** Begin Patch")
    );
    let summary = summary(&lines);
    assert_eq!(summary["rebuilt"]["UserPromptSubmit"], 2);
    assert_eq!(summary["rebuilt"]["Stop"], 2);
    assert_eq!(summary["hooks"][0]["matched"], 5);
    assert_eq!(summary["hooks"][0]["blocked"], 1);
}

#[test]
fn the_hooks_get_the_event_codex_would_send() {
    let setup = Setup::new();
    let seen = setup.dir.path().join("seen");
    std::fs::create_dir_all(&seen).unwrap();
    let config = setup.write(
        "save.toml",
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Edit\"\n[[hooks.PreToolUse.hooks]]\n\
             type = \"command\"\ncommand = \"cat > {}/$$.json\"\n",
            seen.display()
        ),
    );
    let file = fixture_file("codex");
    setup.json_with("lime", &file, &config, &["--trust-all-for-replay"]);
    // `Edit` reaches apply_patch through lime's aliases, as in Codex.
    let saved: Vec<PathBuf> = std::fs::read_dir(&seen)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1);
    let event: Value = serde_json::from_slice(&std::fs::read(&saved[0]).unwrap()).unwrap();
    assert_eq!(event["hook_event_name"], "PreToolUse");
    assert_eq!(event["tool_name"], "apply_patch");
    assert_eq!(event["tool_use_id"], "call-3");
    assert_eq!(event["session_id"], "01a23d57-3036-7e22-b36a-2b478782dd8e");
    assert_eq!(event["turn_id"], "01a23d57-305a-7cf3-b144-9dcc95a667dd");
    assert_eq!(event["model"], "gpt-5.1-codex");
    assert_eq!(event["permission_mode"], "bypassPermissions");
    assert!(
        event["transcript_path"]
            .as_str()
            .unwrap()
            .ends_with(".jsonl")
    );
    assert!(
        event["tool_input"]["command"]
            .as_str()
            .unwrap()
            .contains("*** Update File: /replay/project/notes.txt")
    );
}

#[test]
fn compare_shows_only_the_events_whose_outcome_differs() {
    let setup = Setup::new();
    let rm = setup.write("rm.json", &guard("verboo", "rm -rf"));
    let git = setup.write("git.json", &guard("verboo", "git status"));
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

#[test]
fn json_lines_validate_against_the_committed_schema() {
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/replay-report.schema.json"),
    )
    .unwrap();
    let setup = Setup::new();
    let printed = setup.replay("verboo", &["--schema"]);
    let printed = String::from_utf8(printed.stdout).unwrap();
    assert_eq!(
        printed, committed,
        "hook-cli/schemas/replay-report.schema.json is stale: write `hook replay --dialect verboo --schema` into it"
    );
    let schema: Value = serde_json::from_str(&committed).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let rm = setup.write("rm.json", &guard("verboo", "rm -rf"));
    let git = setup.write("git.json", &guard("verboo", "git status"));
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
    let setup = Setup::new();
    let config = setup.write("guard.json", &guard("verboo", "rm -rf"));
    let original = std::fs::read_to_string(fixture_file("claude")).unwrap();
    let mut lines: Vec<String> = original.lines().map(str::to_owned).collect();
    // Line 2: corrupt; line 3: a newer agent's entry type; line 4: a huge tool result (over the
    // cap below); the last line: cut short, as by a crash while writing.
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
            (3, "unknown_type".to_owned()),
            (4, "too_long".to_owned()),
            (total, "truncated".to_owned()),
        ]
    );
    let summary = summary(&out);
    assert_eq!(summary["bad_lines"], 4);
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
    assert!(text.contains("4 lines not replayed"), "{text}");
    assert!(
        text.contains(&format!("{}:2: corrupt", broken.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}:{total}: truncated", broken.display())),
        "{text}"
    );
}

#[test]
fn only_runs_the_named_hook() {
    let setup = Setup::new();
    let config = setup.write(
        "two.json",
        &serde_json::json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]},
            {"matcher": "Bash", "hooks": [{"type": "command",
                "command": "grep -q 'rm -rf' && { echo no >&2; exit 2; } || exit 0"}]}
        ]}})
        .to_string(),
    );
    let file = fixture_file("claude");
    let base = [file.to_str().unwrap(), "--config", config.to_str().unwrap()];
    let all = setup.json("verboo", &base);
    assert_eq!(summary(&all)["hooks"].as_array().unwrap().len(), 2);
    let mut only = base.to_vec();
    only.extend(["--only", "user:settings.json:PreToolUse:Bash:0"]);
    let lines = setup.json("verboo", &only);
    let hooks = summary(&lines)["hooks"].as_array().unwrap().clone();
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0]["key"], "user:settings.json:PreToolUse:Bash:0");
    assert!(blocked(&lines).is_empty());
}

#[test]
fn the_current_projects_sessions_are_found_where_the_agents_keep_them() {
    let setup = Setup::new();
    let project = setup.dir.path().join("project").canonicalize().unwrap();
    // Claude Code: ~/.claude/projects/<the project's path, non-alphanumerics as `-`>/.
    let name: String = project
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let claude = setup.dir.path().join("home/.claude/projects").join(name);
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::copy(fixture_file("claude"), claude.join("s.jsonl")).unwrap();
    std::fs::write(
        setup.dir.path().join("home/.claude/settings.json"),
        guard("verboo", "rm -rf"),
    )
    .unwrap();
    let lines = setup.json("verboo", &[]);
    assert_eq!(summary(&lines)["sessions"], 1);
    assert_eq!(blocked(&lines).len(), 1);

    // Codex: the rollouts under $CODEX_HOME/sessions whose cwd is the project.
    let day = setup.dir.path().join("home/.codex/sessions/2026/12/03");
    std::fs::create_dir_all(&day).unwrap();
    let rollout = std::fs::read_to_string(fixture_file("codex")).unwrap();
    std::fs::write(
        day.join("rollout-a.jsonl"),
        rollout.replace("/replay/project", &project.display().to_string()),
    )
    .unwrap();
    std::fs::write(day.join("rollout-b.jsonl"), &rollout).unwrap();
    let lines = setup.json("lime", &[]);
    assert_eq!(summary(&lines)["sessions"], 1);
}

/// (event name, `field`) of each dispatched event, in order.
fn seen(lines: &[Value], field: &str) -> Vec<(String, String)> {
    of_type(lines, "event")
        .iter()
        .map(|e| {
            (
                e["event"].as_str().unwrap().to_owned(),
                e[field].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn pair(event: &str, value: &str) -> (String, String) {
    (event.to_owned(), value.to_owned())
}

/// Writes `entries` (one JSON value a line) as a transcript.
fn transcript(setup: &Setup, name: &str, entries: &[Value]) -> PathBuf {
    let text: String = entries.iter().map(|e| format!("{e}\n")).collect();
    setup.write(name, &text)
}

#[test]
fn codex_entries_of_other_versions_and_escalated_calls() {
    let setup = Setup::new();
    let config = setup.write("all.toml", &guard("lime", "never matches this"));
    let file = transcript(
        &setup,
        "rollout.jsonl",
        &[
            serde_json::json!({"type": "session_meta", "payload": {"id": "s1", "cwd": "/gone"}}),
            serde_json::json!({"type": "turn_context", "payload": {"turn_id": "t1", "cwd": "/gone",
                "approval_policy": "on-request", "model": "m"}}),
            // An older prompt record, and the same prompt again as 0.169 writes it: one event.
            serde_json::json!({"type": "event_msg", "payload": {"type": "user_message", "message": "Do it."}}),
            serde_json::json!({"type": "event_msg", "payload": {"type": "item_completed",
                "item": {"type": "UserMessage", "content": [{"type": "text", "text": "Do it."}]}}}),
            // Older shells: an argv (`bash -lc X` is X) and a local shell call.
            serde_json::json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "shell", "call_id": "c1",
                "arguments": "{\"command\": [\"bash\", \"-lc\", \"make test\"]}"}}),
            serde_json::json!({"type": "response_item", "payload": {"type": "local_shell_call",
                "call_id": "c2", "action": {"command": ["ls", "-l", "a b"]}}}),
            // A call that asks to leave the sandbox: Codex asks PermissionRequest hooks.
            serde_json::json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "exec_command", "call_id": "c3",
                "arguments": "{\"cmd\": \"touch /etc/x\", \"sandbox_permissions\": \"require_escalated\", \"justification\": \"needs /etc\"}"}}),
            // apply_patch as a JSON function, and a tool that runs no hooks.
            serde_json::json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "apply_patch", "call_id": "c4", "arguments": "{\"input\": \"*** Begin Patch\\n*** End Patch\\n\"}"}}),
            serde_json::json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "update_plan", "call_id": "c5", "arguments": "{}"}}),
            serde_json::json!({"type": "something_new", "payload": {}}),
        ],
    );
    let lines = setup.json_with("lime", &file, &config, &["--trust-all-for-replay"]);
    assert_eq!(
        seen(&lines, "subject"),
        [
            pair("UserPromptSubmit", "Do it."),
            pair("PreToolUse", "make test"),
            pair("PreToolUse", "ls -l 'a b'"),
            pair("PreToolUse", "touch /etc/x"),
            pair("PermissionRequest", "touch /etc/x"),
            pair("PreToolUse", "*** Begin Patch *** End Patch"),
        ]
    );
    let bad = of_type(&lines, "bad_line");
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["kind"], "unknown_type");
    assert_eq!(bad[0]["line"], 10);
}

#[test]
fn claude_code_permission_requests_where_the_mode_could_ask() {
    let setup = Setup::new();
    let config = setup.write("g.json", &guard("verboo", "never matches this"));
    let call = |id: &str, name: &str, input: Value| {
        serde_json::json!({"type": "assistant", "sessionId": "s", "cwd": "/gone",
            "message": {"content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}})
    };
    let file = transcript(
        &setup,
        "s.jsonl",
        &[
            serde_json::json!({"type": "user", "sessionId": "s", "cwd": "/gone",
                "permissionMode": "acceptEdits", "message": {"content": [{"type": "text", "text": "Go."}]}}),
            // A meta entry, a built-in command run locally and an interrupt's marker are no
            // prompts.
            serde_json::json!({"type": "user", "isMeta": true, "message": {"content": "Caveat: local commands"}}),
            serde_json::json!({"type": "user", "message": {"content": "<command-name>/clear</command-name>"}}),
            serde_json::json!({"type": "user", "message": {"content": [{"type": "text", "text": "[Request interrupted by user]"}]}}),
            call("t1", "Read", serde_json::json!({"file_path": "/a"})),
            call("t2", "Edit", serde_json::json!({"file_path": "/a"})),
            call("t3", "Bash", serde_json::json!({"command": "make"})),
            // Claude Code writes a message once per content block: a call is replayed once.
            call("t3", "Bash", serde_json::json!({"command": "make"})),
        ],
    );
    let lines = setup.json_with("verboo", &file, &config, &[]);
    // acceptEdits: reads and edits are not asked, Bash is.
    assert_eq!(
        seen(&lines, "tool"),
        [
            pair("UserPromptSubmit", ""),
            pair("PreToolUse", "Read"),
            pair("PreToolUse", "Edit"),
            pair("PreToolUse", "Bash"),
            pair("PermissionRequest", "Bash"),
        ]
    );
}

#[test]
fn codex_rollouts_of_the_first_format_are_read_too() {
    let setup = Setup::new();
    let config = setup.write("g.toml", &guard("lime", "rm -rf"));
    // No `{timestamp, type, payload}` wrapper: metadata, then the items themselves.
    let file = transcript(
        &setup,
        "rollout-old.jsonl",
        &[
            serde_json::json!({"id": "old-1", "timestamp": "2025-05-01T10:00:00Z", "instructions": null}),
            serde_json::json!({"record_type": "state"}),
            serde_json::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Clean."}]}),
            serde_json::json!({"type": "local_shell_call", "call_id": "c1", "status": "completed",
                "action": {"type": "exec", "command": ["bash", "-lc", "rm -rf dist"]}}),
            serde_json::json!({"type": "function_call_output", "call_id": "c1", "output": "{\"output\":\"\"}"}),
        ],
    );
    let lines = setup.json_with("lime", &file, &config, &["--trust-all-for-replay"]);
    assert_eq!(
        blocked(&lines),
        [("c1".to_owned(), "rm -rf dist".to_owned())]
    );
    assert_eq!(of_type(&lines, "event")[0]["session"], "old-1");
    assert_eq!(summary(&lines)["bad_lines"], 0);
}

/// Saves every payload of `events` a replay of `agent`'s fixture sends, by event name.
fn payloads(setup: &Setup, dialect: &str, agent: &str) -> Vec<Value> {
    let seen = setup.dir.path().join(format!("seen-{agent}"));
    std::fs::create_dir_all(&seen).unwrap();
    let command = format!("cat > {}/$(date +%s%N).json", seen.display());
    let events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"];
    let config = match dialect {
        "verboo" => {
            let mut hooks = serde_json::Map::new();
            for event in events {
                hooks.insert(
                    event.into(),
                    serde_json::json!([{"hooks": [{"type": "command", "command": command}]}]),
                );
            }
            setup.write(
                "save.json",
                &serde_json::json!({ "hooks": hooks }).to_string(),
            )
        }
        _ => {
            let text: String = events
                .iter()
                .map(|event| {
                    format!(
                        "[[hooks.{event}]]\n[[hooks.{event}.hooks]]\ntype = \"command\"\ncommand = {}\n",
                        Value::from(command.as_str())
                    )
                })
                .collect();
            setup.write("save.toml", &text)
        }
    };
    setup.json_with(
        dialect,
        &fixture_file(agent),
        &config,
        &["--events", &events.join(","), "--trust-all-for-replay"],
    );
    std::fs::read_dir(&seen)
        .unwrap()
        .map(|e| serde_json::from_slice(&std::fs::read(e.unwrap().path()).unwrap()).unwrap())
        .collect()
}

#[test]
fn rebuilt_events_have_the_fields_the_real_agents_send() {
    let conformance = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/conformance");
    let keys = |value: &Value| -> std::collections::BTreeSet<String> {
        value.as_object().unwrap().keys().cloned().collect()
    };
    // What the real agent sends that a transcript does not record.
    let unrecorded = ["duration_ms", "background_tasks", "session_crons"];
    for (dialect, agent, cases) in [
        (
            "verboo",
            "claude",
            [
                "pre-deny-reason--PreToolUse",
                "post-context--PostToolUse",
                "prompt-context--UserPromptSubmit",
                "stop-context--Stop",
            ],
        ),
        (
            "lime",
            "codex",
            [
                "pre-deny-reason--PreToolUse",
                "post-context--PostToolUse",
                "prompt-context--UserPromptSubmit",
                "stop-context--Stop",
            ],
        ),
    ] {
        let setup = Setup::new();
        let rebuilt = payloads(&setup, dialect, agent);
        for case in cases {
            let real: Value = serde_json::from_slice(
                &std::fs::read(conformance.join(agent).join(format!("{case}--0.0.json"))).unwrap(),
            )
            .unwrap();
            let event = &real["hook_event_name"];
            let ours: Vec<&Value> = rebuilt
                .iter()
                .filter(|p| &p["hook_event_name"] == event)
                .collect();
            assert!(!ours.is_empty(), "{agent} {case}: no rebuilt event");
            for payload in ours {
                let expected: std::collections::BTreeSet<String> = keys(&real)
                    .into_iter()
                    .filter(|k| !unrecorded.contains(&k.as_str()))
                    .collect();
                assert_eq!(keys(payload), expected, "{agent} {case}: {payload}");
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_dev_zero_link_named_jsonl_is_a_bad_file_not_a_hang() {
    let setup = Setup::new();
    let config = setup.write("guard.json", &guard("verboo", "rm -rf"));
    let folder = setup.dir.path().join("sessions");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(fixture_file("claude"), folder.join("b-real.jsonl")).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(folder.join("a-fifo.jsonl"))
            .status()
            .unwrap()
            .success()
    );
    std::os::unix::fs::symlink("/dev/zero", folder.join("c-zero.jsonl")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hook"))
        .args(["replay", "--dialect", "verboo", "--json", "--project"])
        .arg(setup.dir.path().join("project"))
        .arg(&folder)
        .arg("--config")
        .arg(&config)
        .env("HOME", setup.dir.path().join("home"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("hook replay hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let unreadable: Vec<String> = of_type(&lines, "bad_line")
        .into_iter()
        .filter(|b| b["kind"] == "unreadable")
        .map(|b| b["detail"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(unreadable.len(), 2, "{unreadable:?}");
    assert!(
        unreadable.iter().any(|d| d.contains("FIFO")),
        "{unreadable:?}"
    );
    assert!(
        unreadable.iter().any(|d| d.contains("character device")),
        "{unreadable:?}"
    );
    // The real session is still replayed.
    assert_eq!(
        blocked(&lines),
        [("toolu_05".to_owned(), "rm -rf build".to_owned())]
    );
}

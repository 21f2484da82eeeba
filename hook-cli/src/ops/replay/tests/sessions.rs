//! Replays as a whole: the guard's decisions, `--only`, `--events`, `--dry-run`, the warnings,
//! and what the report keeps.

use serde_json::{Value, json};

use super::*;

#[test]
fn only_runs_the_named_hook() {
    let setup = Setup::new();
    let config = setup.write(
        "two.json",
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]},
            {"matcher": "Bash", "hooks": [{"type": "command",
                "command": "grep -q 'rm -rf' && { echo no >&2; exit 2; } || exit 0"}]}
        ]}})
        .to_string(),
    );
    let file = fixture_file("claude");
    let options = setup.options(Dialect::Verboo, &file, &config);
    let (all, _) = replay_json(options.clone());
    assert_eq!(summary(&all)["hooks"].as_array().unwrap().len(), 2);
    let mut only = options;
    only.only = vec!["user:settings.json:PreToolUse:Bash:0".to_owned()];
    let (lines, warnings) = replay_json(only);
    let hooks = summary(&lines)["hooks"].as_array().unwrap().clone();
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0]["key"], "user:settings.json:PreToolUse:Bash:0");
    assert!(blocked(&lines).is_empty());
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn what_the_user_should_know_is_returned_in_order_not_printed() {
    let setup = Setup::new();
    let config = setup.write("g.json", &guard(Dialect::Verboo, "rm -rf"));
    let empty = setup.dir.path().join("no-sessions");
    std::fs::create_dir_all(&empty).unwrap();
    let mut options = setup.options(Dialect::Verboo, &empty, &config);
    options.only = vec!["user:settings.json:Stop::0".to_owned()];
    let prepared = prepare(options).unwrap();
    assert!(prepared.files.is_empty());
    match prepared.warnings.as_slice() {
        [Warning::UnknownOnlyKey(key), Warning::NoTranscripts(paths)] => {
            assert_eq!(key, "user:settings.json:Stop::0");
            assert_eq!(paths, &[empty]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn wuu_and_unknown_events_are_refused_before_anything_runs() {
    let setup = Setup::new();
    let config = setup.write("g.json", &guard(Dialect::Verboo, "rm -rf"));
    let file = fixture_file("claude");
    let wuu = prepare(setup.options(Dialect::Wuu, &file, &config))
        .err()
        .unwrap();
    assert!(
        wuu.to_string().contains("wuu keeps no session transcripts"),
        "{wuu}"
    );
    let mut options = setup.options(Dialect::Verboo, &file, &config);
    options.events = vec!["pretooluse".to_owned()];
    let unknown = prepare(options).err().unwrap();
    assert!(
        unknown.to_string().contains("did you mean `PreToolUse`?"),
        "{unknown}"
    );
}

#[test]
fn a_transcript_path_that_does_not_exist_is_an_error_not_an_empty_replay() {
    let setup = Setup::new();
    let config = setup.write("g.json", &guard(Dialect::Verboo, "rm -rf"));
    let missing = setup.dir.path().join("nope.jsonl");
    let error = prepare(setup.options(Dialect::Verboo, &missing, &config))
        .err()
        .unwrap();
    let text = format!("{error:#}");
    assert!(text.contains("nope.jsonl does not exist"), "{text}");
    assert!(
        text.contains("give a transcript (.jsonl) or a folder"),
        "{text}"
    );
}

#[test]
fn a_dry_run_rebuilds_every_event_and_dispatches_none() {
    let setup = Setup::new();
    let config = setup.write("g.json", &guard(Dialect::Verboo, "rm -rf"));
    let file = fixture_file("claude");
    let mut options = setup.options(Dialect::Verboo, &file, &config);
    options.dry_run = true;
    let prepared = prepare(options).unwrap();
    let total = prepared.total_bytes;
    let listener = Collect::default();
    let report = run(prepared, &listener).unwrap();
    assert!(listener.lines.borrow().is_empty());
    assert_eq!(*listener.read.borrow(), total);
    assert_eq!(*listener.sessions.borrow(), [(1, 1)]);
    assert_eq!(report.summary.events, 0);
    assert_eq!(report.summary.bytes, total);
    assert_eq!(report.summary.rebuilt["PreToolUse"], 7);
    assert!(report.notable.is_empty() && report.summary.hooks.is_empty());
}

#[test]
fn without_json_the_report_keeps_the_notable_events_most_recent_first() {
    let setup = Setup::new();
    let config = setup.write("g.json", &guard(Dialect::Verboo, "rm -rf"));
    let file = fixture_file("claude");
    let mut options = setup.options(Dialect::Verboo, &file, &config);
    options.stream = false;
    let prepared = prepare(options).unwrap();
    let listener = Collect::default();
    let report = run(prepared, &listener).unwrap();
    assert!(listener.lines.borrow().is_empty());
    assert_eq!(report.notable_count, 1);
    let event = &report.notable[0];
    assert_eq!(event.tool_use_id.as_deref(), Some("toolu_05"));
    assert_eq!(event.subject.as_deref(), Some("rm -rf build"));
    assert_eq!(event.result.reason.as_deref(), Some("no rm -rf here"));
    assert_eq!(report.summary.decisions["block"], 1);
}

#[test]
fn post_tool_use_and_stop_are_replayed_on_request_and_not_after_a_block() {
    let setup = Setup::new();
    let config = setup.write("guard.json", &guard(Dialect::Verboo, "rm -rf"));
    let file = fixture_file("claude");
    let mut options = setup.options(Dialect::Verboo, &file, &config);
    options.events = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop"]
        .map(str::to_owned)
        .to_vec();
    let (lines, _) = replay_json(options);
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
    let config = setup.write("guard.toml", &guard(Dialect::Lime, "rm -rf"));
    let file = fixture_file("codex");
    let options = setup.options(Dialect::Lime, &file, &config);
    // lime: every hook needs trust; untrusted, it is reported and not run.
    let (lines, _) = replay_json(options.clone());
    assert!(blocked(&lines).is_empty());
    let hooks = summary(&lines)["hooks"].as_array().unwrap().clone();
    assert_eq!(hooks[0]["skipped"], hooks[0]["matched"]);
    let first = of_type(&lines, "event")
        .into_iter()
        .find(|e| e["event"] == "PreToolUse")
        .unwrap();
    assert_eq!(first["result"]["hooks"][0]["skip_reason"], "untrusted");

    let mut trusted = options;
    trusted.trust_all_for_replay = true;
    let (lines, _) = replay_json(trusted);
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

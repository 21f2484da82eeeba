//! The agents' transcript formats, rebuilt into the events each agent sends its hooks.

use serde_json::{Value, json};

use super::*;

#[test]
fn codex_entries_of_other_versions_and_escalated_calls() {
    let setup = Setup::new();
    let config = setup.write("all.toml", &guard(Dialect::Lime, "never matches this"));
    let file = setup.transcript(
        "rollout.jsonl",
        &[
            json!({"type": "session_meta", "payload": {"id": "s1", "cwd": "/gone"}}),
            json!({"type": "turn_context", "payload": {"turn_id": "t1", "cwd": "/gone",
                "approval_policy": "on-request", "model": "m"}}),
            // An older prompt record, and the same prompt again as 0.169 writes it: one event.
            json!({"type": "event_msg", "payload": {"type": "user_message", "message": "Do it."}}),
            json!({"type": "event_msg", "payload": {"type": "item_completed",
                "item": {"type": "UserMessage", "content": [{"type": "text", "text": "Do it."}]}}}),
            // Older shells: an argv (`bash -lc X` is X) and a local shell call.
            json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "shell", "call_id": "c1",
                "arguments": "{\"command\": [\"bash\", \"-lc\", \"make test\"]}"}}),
            json!({"type": "response_item", "payload": {"type": "local_shell_call",
                "call_id": "c2", "action": {"command": ["ls", "-l", "a b"]}}}),
            // A call that asks to leave the sandbox: Codex asks PermissionRequest hooks.
            json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "exec_command", "call_id": "c3",
                "arguments": "{\"cmd\": \"touch /etc/x\", \"sandbox_permissions\": \"require_escalated\", \"justification\": \"needs /etc\"}"}}),
            // apply_patch as a JSON function, and a tool that runs no hooks.
            json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "apply_patch", "call_id": "c4", "arguments": "{\"input\": \"*** Begin Patch\\n*** End Patch\\n\"}"}}),
            json!({"type": "response_item", "payload": {"type": "function_call",
                "name": "update_plan", "call_id": "c5", "arguments": "{}"}}),
            json!({"type": "something_new", "payload": {}}),
        ],
    );
    let mut options = setup.options(Dialect::Lime, &file, &config);
    options.trust_all_for_replay = true;
    let (lines, _) = replay_json(options);
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
    // A newer Codex's entry type is skipped and counted, not a bad line.
    assert!(of_type(&lines, "bad_line").is_empty());
    assert_eq!(
        summary(&lines)["skipped_entries"],
        json!({"something_new": 1})
    );
}

#[test]
fn claude_code_permission_requests_where_the_mode_could_ask() {
    let setup = Setup::new();
    let config = setup.write("g.json", &guard(Dialect::Verboo, "never matches this"));
    let call = |id: &str, name: &str, input: Value| {
        json!({"type": "assistant", "sessionId": "s", "cwd": "/gone",
            "message": {"content": [{"type": "tool_use", "id": id, "name": name, "input": input}]}})
    };
    let file = setup.transcript(
        "s.jsonl",
        &[
            json!({"type": "user", "sessionId": "s", "cwd": "/gone",
                "permissionMode": "acceptEdits", "message": {"content": [{"type": "text", "text": "Go."}]}}),
            // A meta entry, a built-in command run locally and an interrupt's marker are no
            // prompts.
            json!({"type": "user", "isMeta": true, "message": {"content": "Caveat: local commands"}}),
            json!({"type": "user", "message": {"content": "<command-name>/clear</command-name>"}}),
            json!({"type": "user", "message": {"content": [{"type": "text", "text": "[Request interrupted by user]"}]}}),
            call("t1", "Read", json!({"file_path": "/a"})),
            call("t2", "Edit", json!({"file_path": "/a"})),
            call("t3", "Bash", json!({"command": "make"})),
            // Claude Code writes a message once per content block: a call is replayed once.
            call("t3", "Bash", json!({"command": "make"})),
        ],
    );
    let (lines, _) = replay_json(setup.options(Dialect::Verboo, &file, &config));
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
    let config = setup.write("g.toml", &guard(Dialect::Lime, "rm -rf"));
    // No `{timestamp, type, payload}` wrapper: metadata, then the items themselves.
    let file = setup.transcript(
        "rollout-old.jsonl",
        &[
            json!({"id": "old-1", "timestamp": "2025-05-01T10:00:00Z", "instructions": null}),
            json!({"record_type": "state"}),
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Clean."}]}),
            json!({"type": "local_shell_call", "call_id": "c1", "status": "completed",
                "action": {"type": "exec", "command": ["bash", "-lc", "rm -rf dist"]}}),
            json!({"type": "function_call_output", "call_id": "c1", "output": "{\"output\":\"\"}"}),
        ],
    );
    let mut options = setup.options(Dialect::Lime, &file, &config);
    options.trust_all_for_replay = true;
    let (lines, _) = replay_json(options);
    assert_eq!(
        blocked(&lines),
        [("c1".to_owned(), "rm -rf dist".to_owned())]
    );
    assert_eq!(of_type(&lines, "event")[0]["session"], "old-1");
    assert_eq!(summary(&lines)["bad_lines"], 0);
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
    let mut options = setup.options(Dialect::Lime, &file, &config);
    options.trust_all_for_replay = true;
    replay_json(options);
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

/// Saves every payload of `events` a replay of `agent`'s fixture sends, by event name.
fn payloads(setup: &Setup, dialect: Dialect, agent: &str) -> Vec<Value> {
    let seen = setup.dir.path().join(format!("seen-{agent}"));
    std::fs::create_dir_all(&seen).unwrap();
    let command = format!("cat > {}/$(date +%s%N).json", seen.display());
    let events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"];
    let config = match dialect {
        Dialect::Verboo => {
            let mut hooks = serde_json::Map::new();
            for event in events {
                hooks.insert(
                    event.into(),
                    json!([{"hooks": [{"type": "command", "command": command}]}]),
                );
            }
            setup.write("save.json", &json!({ "hooks": hooks }).to_string())
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
    let mut options = setup.options(dialect, &fixture_file(agent), &config);
    options.events = events.map(str::to_owned).to_vec();
    options.trust_all_for_replay = true;
    replay_json(options);
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
    let cases = [
        "pre-deny-reason--PreToolUse",
        "post-context--PostToolUse",
        "prompt-context--UserPromptSubmit",
        "stop-context--Stop",
    ];
    for (dialect, agent) in [(Dialect::Verboo, "claude"), (Dialect::Lime, "codex")] {
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

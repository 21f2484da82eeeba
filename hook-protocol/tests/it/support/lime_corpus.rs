//! The lime conformance corpus: hook outputs, valid and invalid, with the reference schemas
//! they are checked against. Shared by `hook-protocol`'s conformance test and `hook-cli`'s
//! (`hook validate` must give the reference's verdict on every document).
// Not every includer uses every item.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use hook_protocol::{Dialect, Event, HandlerResult, interpret};
use serde_json::{Value, json};

/// The ten events the reference publishes schemas for (lime's events minus `SessionEnd` and
/// `Interrupt`).
pub const REFERENCE_EVENTS: [Event; 10] = [
    Event::PreToolUse,
    Event::PermissionRequest,
    Event::PostToolUse,
    Event::PreCompact,
    Event::PostCompact,
    Event::SessionStart,
    Event::Stop,
    Event::SubagentStart,
    Event::SubagentStop,
    Event::UserPromptSubmit,
];

/// The folder of the reference schemas: `$HOOK_REFERENCE_DIR/lime-wire-schemas`.
///
/// The schemas are third-party test data kept outside the repository (`.ci/run` points
/// `HOOK_REFERENCE_DIR` at them). With the variable unset the test says it was skipped and
/// returns `None`; with it set, a missing folder fails the test.
pub fn reference_dir() -> Option<PathBuf> {
    let root = reference_root("the lime conformance corpus")?;
    let dir = root.join("lime-wire-schemas");
    assert!(
        dir.is_dir(),
        "HOOK_REFERENCE_DIR={} has no lime-wire-schemas/ folder: point it at the folder that \
         holds the reference schemas",
        root.display()
    );
    Some(dir)
}

/// `$HOOK_REFERENCE_DIR`, or `None` after saying on stderr that `what` is skipped.
#[allow(clippy::print_stderr)]
pub fn reference_root(what: &str) -> Option<PathBuf> {
    match std::env::var_os("HOOK_REFERENCE_DIR") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => {
            skip_notice(&format!(
                "skipped: {what} needs HOOK_REFERENCE_DIR (the folder of third-party reference \
                 schemas; .ci/run sets it)"
            ));
            None
        }
    }
}

/// `PreToolUse` -> `pre-tool-use`.
pub fn kebab(event: &Event) -> String {
    let mut out = String::new();
    for (i, c) in event.as_str().chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The reference output schema of `event`, read from disk.
pub fn reference_schema(dir: &Path, event: &Event) -> Value {
    let path = dir.join(format!("{}.command.output.schema.json", kebab(event)));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "cannot read the reference schema of {event} at {}: {error}",
            path.display()
        )
    });
    serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{} is not JSON: {error}", path.display()))
}

/// Documents checked against every reference event: common fields, fields of other events,
/// unknown and snake_case fields, non-object documents. `name` is the event's own name and
/// `other` the name of a different event.
pub fn shared_table(name: &str, other: &str) -> Vec<Value> {
    vec![
        // The empty object and the common fields, right and wrong.
        json!({}),
        json!({"continue": true}),
        json!({"continue": false, "stopReason": "done"}),
        json!({"continue": "false"}),
        json!({"continue": null}),
        json!({"continue": 0}),
        json!({"stopReason": "stop here"}),
        json!({"stopReason": 1}),
        json!({"stopReason": null}),
        json!({"suppressOutput": true}),
        json!({"suppressOutput": "yes"}),
        json!({"suppressOutput": null}),
        json!({"systemMessage": "hello"}),
        json!({"systemMessage": ["hello"]}),
        json!({"systemMessage": null}),
        json!({"continue": true, "stopReason": "", "suppressOutput": false, "systemMessage": ""}),
        // Unknown top-level fields and other spellings.
        json!({"unknownField": 1}),
        json!({"continue": true, "extra": null}),
        json!({"stop_reason": "x"}),
        json!({"suppress_output": true}),
        json!({"system_message": "x"}),
        json!({"Continue": true}),
        json!({"additionalContext": "top-level context"}),
        json!({"updatedInput": {"command": "ls"}}),
        json!({"permissionDecision": "allow"}),
        // Not an object.
        json!([]),
        json!([{}]),
        json!("{}"),
        json!(42),
        json!(null),
        json!(true),
        // Top-level `decision` and `reason` (valid only on some events).
        json!({"decision": "block"}),
        json!({"decision": "block", "reason": "because"}),
        json!({"decision": "approve"}),
        json!({"decision": "deny"}),
        json!({"decision": "allow"}),
        json!({"decision": "BLOCK"}),
        json!({"decision": ""}),
        json!({"decision": null}),
        json!({"decision": true}),
        json!({"decision": {"behavior": "allow"}}),
        json!({"reason": "why"}),
        json!({"reason": 7}),
        json!({"reason": null}),
        // `hookSpecificOutput` (valid only on some events).
        json!({"hookSpecificOutput": {"hookEventName": name}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "additionalContext": "ctx"}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "additionalContext": null}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "additionalContext": 3}}),
        json!({"hookSpecificOutput": {"hookEventName": other}}),
        json!({"hookSpecificOutput": {"hookEventName": other, "additionalContext": "ctx"}}),
        json!({"hookSpecificOutput": {"hookEventName": name.to_lowercase()}}),
        json!({"hookSpecificOutput": {"hookEventName": null}}),
        json!({"hookSpecificOutput": {"additionalContext": "ctx"}}),
        json!({"hookSpecificOutput": {}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "unknown": true}}),
        json!({"hookSpecificOutput": {"hook_event_name": name}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "additional_context": "x"}}),
        json!({"hookSpecificOutput": null}),
        json!({"hookSpecificOutput": "ctx"}),
        json!({"hookSpecificOutput": []}),
        json!({"hook_specific_output": {"hookEventName": name}}),
        // Fields of one event's `hookSpecificOutput` used on another.
        json!({"hookSpecificOutput": {"hookEventName": name, "permissionDecision": "allow"}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "permissionDecisionReason": "r"}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "updatedInput": {}}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "updatedMCPToolOutput": {}}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "decision": {"behavior": "allow"}}}),
    ]
}

/// `PreToolUse` documents beyond the shared table.
pub fn pre_tool_use_table() -> Vec<Value> {
    let specific = |fields: Value| {
        let mut object = json!({"hookEventName": "PreToolUse"});
        if let (Some(object), Value::Object(fields)) = (object.as_object_mut(), fields) {
            object.extend(fields);
        }
        json!({ "hookSpecificOutput": object })
    };
    vec![
        specific(json!({"permissionDecision": "allow"})),
        specific(json!({"permissionDecision": "deny", "permissionDecisionReason": "no rm -rf"})),
        specific(json!({"permissionDecision": "ask", "permissionDecisionReason": "check"})),
        specific(json!({"permissionDecision": "defer"})),
        specific(json!({"permissionDecision": "Allow"})),
        specific(json!({"permissionDecision": "block"})),
        specific(json!({"permissionDecision": "approve"})),
        specific(json!({"permissionDecision": null})),
        specific(json!({"permissionDecision": 1})),
        specific(json!({"permissionDecisionReason": "reason alone"})),
        specific(json!({"permissionDecisionReason": 1})),
        specific(json!({"permissionDecisionReason": null})),
        specific(json!({"permissionDecision": "allow", "updatedInput": {"command": "ls -la"}})),
        specific(json!({"updatedInput": null})),
        specific(json!({"updatedInput": "ls"})),
        specific(json!({"updatedInput": [1, 2]})),
        specific(json!({"updatedInput": 3})),
        specific(json!({"additionalContext": "ctx", "permissionDecision": "ask"})),
        specific(json!({"permission_decision": "deny"})),
        specific(json!({"updated_input": {}})),
        specific(json!({"permissionDecisionReason": "r", "updatedPermissions": []})),
        specific(json!({"interrupt": true})),
        json!({
            "continue": true,
            "suppressOutput": false,
            "systemMessage": "rewrote the command",
            "decision": "approve",
            "reason": "safe",
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "permissionDecisionReason": "safe",
                "updatedInput": {"command": "ls"},
                "additionalContext": "listed instead"
            }
        }),
        json!({
            "decision": "block",
            "reason": "dangerous",
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
        }),
        json!({"decision": "approve", "reason": null}),
        json!({"decision": "block", "reason": ["dangerous"]}),
        // Rules the engine enforces beyond the reference schema.
        json!({"decision": "block", "reason": "  "}),
        json!({"continue": true, "decision": "block", "reason": "dangerous"}),
        specific(json!({"permissionDecision": "deny", "permissionDecisionReason": " \n"})),
        specific(json!({"permissionDecision": "allow", "updatedInput": null})),
        specific(
            json!({"permissionDecision": "deny", "permissionDecisionReason": "r", "updatedInput": {}}),
        ),
        specific(
            json!({"permissionDecision": "deny", "permissionDecisionReason": "r", "updatedInput": null}),
        ),
    ]
}

/// `PostToolUse` documents beyond the shared table.
pub fn post_tool_use_table() -> Vec<Value> {
    let specific = |fields: Value| {
        let mut object = json!({"hookEventName": "PostToolUse"});
        if let (Some(object), Value::Object(fields)) = (object.as_object_mut(), fields) {
            object.extend(fields);
        }
        json!({ "hookSpecificOutput": object })
    };
    vec![
        specific(json!({"updatedMCPToolOutput": {"content": [{"type": "text", "text": "x"}]}})),
        specific(json!({"updatedMCPToolOutput": null})),
        specific(json!({"updatedMCPToolOutput": "plain text"})),
        specific(json!({"updatedMCPToolOutput": 0})),
        specific(json!({"updatedMCPToolOutput": [], "additionalContext": "ctx"})),
        specific(json!({"updatedMcpToolOutput": {}})),
        specific(json!({"updated_mcp_tool_output": {}})),
        json!({
            "decision": "block",
            "reason": "the output leaks a secret",
            "systemMessage": "redacted",
            "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "ctx"}
        }),
        json!({"decision": "approve", "reason": "fine"}),
        // `continue: false` makes a block feedback with a reason of its own.
        json!({"continue": false, "decision": "block"}),
        json!({"continue": false, "decision": "block", "reason": ""}),
        json!({"continue": true, "decision": "block", "reason": ""}),
        json!({"decision": "block", "reason": "  "}),
    ]
}

/// `PermissionRequest` documents beyond the shared table.
pub fn permission_request_table() -> Vec<Value> {
    let decision = |decision: Value| json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}});
    vec![
        decision(json!({"behavior": "allow"})),
        decision(json!({"behavior": "deny"})),
        decision(json!({"behavior": "deny", "message": "not on main"})),
        decision(json!({"behavior": "bad"})),
        decision(json!({"behavior": "Allow"})),
        decision(json!({"behavior": "ask"})),
        decision(json!({"behavior": null})),
        decision(json!({"behavior": true})),
        decision(json!({})),
        decision(json!({"message": "no behavior"})),
        decision(json!({"behavior": "allow", "interrupt": false})),
        decision(json!({"behavior": "deny", "interrupt": true})),
        decision(json!({"behavior": "deny", "interrupt": "yes"})),
        decision(json!({"behavior": "deny", "interrupt": null})),
        decision(json!({"behavior": "deny", "message": 1})),
        decision(json!({"behavior": "deny", "message": null})),
        decision(json!({"behavior": "allow", "updatedInput": {"command": "ls"}})),
        decision(json!({"behavior": "allow", "updatedInput": null})),
        decision(json!({"behavior": "allow", "updatedInput": "ls"})),
        decision(json!({"behavior": "allow", "updatedPermissions": []})),
        decision(json!({"behavior": "allow", "updatedPermissions": null})),
        decision(json!({"behavior": "allow", "updatedPermissions": {"mode": "acceptEdits"}})),
        decision(json!({"behavior": "deny", "reason": "unknown field"})),
        decision(json!({"behavior": "allow", "updated_input": {}})),
        decision(json!({"behavior": "allow", "updated_permissions": []})),
        decision(json!("allow")),
        decision(json!(null)),
        decision(json!([{"behavior": "allow"}])),
        json!({
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "allow"},
                "additionalContext": "ctx"
            }
        }),
        json!({
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "permissionDecision": "allow"
            }
        }),
        json!({
            "continue": true,
            "stopReason": "n/a",
            "suppressOutput": true,
            "systemMessage": "denied git push",
            "hookSpecificOutput": {
                "hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": "no pushes", "interrupt": false}
            }
        }),
        json!({"hookSpecificOutput": {"decision": {"behavior": "allow"}}}),
    ]
}

/// `Stop` and `SubagentStop` documents beyond the shared table.
pub fn stop_table() -> Vec<Value> {
    vec![
        json!({"decision": "block", "reason": "tests still fail"}),
        json!({"decision": "block", "reason": ""}),
        json!({"decision": "block", "reason": "keep going", "continue": false, "stopReason": "x"}),
        json!({"decision": "approve", "reason": "done"}),
        json!({"decision": "block", "reason": false}),
        json!({"decision": "block", "hookSpecificOutput": {"additionalContext": "ctx"}}),
        json!({"decision": "block", "reason": " \t"}),
    ]
}

/// `UserPromptSubmit` documents beyond the shared table.
pub fn user_prompt_submit_table() -> Vec<Value> {
    vec![
        json!({
            "decision": "block",
            "reason": "contains a secret",
            "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "c"}
        }),
        json!({"decision": "block", "reason": "no", "updatedPrompt": "rewritten"}),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "prompt": "x"}}),
        json!({"decision": "block", "reason": " "}),
    ]
}

/// `SessionStart` and `SubagentStart` documents beyond the shared table.
pub fn start_table(name: &str) -> Vec<Value> {
    vec![
        json!({
            "continue": true,
            "systemMessage": "loaded",
            "hookSpecificOutput": {"hookEventName": name, "additionalContext": "repo notes"}
        }),
        json!({"hookSpecificOutput": {"hookEventName": name, "additionalContext": ""}}),
        json!({"hookSpecificOutput": {"hookEventName": name, "additionalContext": ["a", "b"]}}),
        json!({"decision": "block", "reason": "not here"}),
    ]
}

/// `PreCompact` and `PostCompact` documents beyond the shared table.
pub fn compact_table() -> Vec<Value> {
    vec![
        json!({"continue": false, "stopReason": "do not compact", "systemMessage": "kept"}),
        json!({"continue": false, "reason": "do not compact"}),
        json!({"trigger": "manual"}),
        json!({"customInstructions": "keep the plan"}),
    ]
}

/// The whole corpus: every shared document for every reference event, then each event's own.
pub fn corpus() -> Vec<(Event, Value)> {
    let mut docs = Vec::new();
    for event in REFERENCE_EVENTS {
        let other = if event == Event::Stop {
            "PreToolUse"
        } else {
            "Stop"
        };
        for doc in shared_table(event.as_str(), other) {
            docs.push((event.clone(), doc));
        }
        let own = match event {
            Event::PreToolUse => pre_tool_use_table(),
            Event::PostToolUse => post_tool_use_table(),
            Event::PermissionRequest => permission_request_table(),
            Event::Stop | Event::SubagentStop => stop_table(),
            Event::UserPromptSubmit => user_prompt_submit_table(),
            Event::SessionStart | Event::SubagentStart => start_table(event.as_str()),
            Event::PreCompact | Event::PostCompact => compact_table(),
            _ => Vec::new(),
        };
        for doc in own {
            docs.push((event.clone(), doc));
        }
    }
    docs
}

/// Whether lime's engine accepts `document` as `event`'s output of a run that exited 0 (it is
/// read, not failed), or `None` when the engine reads it as plain text rather than JSON
/// (stdout not starting with `{` or `[`: context, ignored or refused by the event's plain-text
/// rule, which no schema describes).
pub fn engine_accepts(event: &Event, document: &Value) -> Option<bool> {
    let stdout = document.to_string();
    if !Dialect::Lime
        .rules()
        .output()
        .reads_as_json(stdout.as_bytes())
    {
        return None;
    }
    let result = interpret(Dialect::Lime, event, Some(0), stdout.as_bytes(), b"");
    Some(!matches!(result, HandlerResult::Failed(_)))
}

/// Says on the terminal that a test was skipped, also without `--nocapture`: the test harness
/// captures `eprintln!`, not writes to the stderr handle.
fn skip_notice(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

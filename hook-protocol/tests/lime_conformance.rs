//! Conformance of the generated lime output schemas with the reference wire schemas.
//!
//! SPEC.md requires lime's generated output schemas to accept and reject exactly the documents
//! that the published command-hook schemas of the system lime is modelled on accept and reject.
//! Those reference schemas (draft-07) live outside the repository, in
//! `../shared/reference/lime-wire-schemas/`, and are read at test time: they are test data, never
//! copied into the project. Every document of a table-driven corpus of hook outputs is checked
//! against the reference schema, the generated schema (draft 2020-12) and
//! [`validate_output_value`], which must all give the same verdict.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hook_protocol::schema::schema;
use hook_protocol::{Dialect, Event, SchemaKind, validate_output_value};
use serde_json::{Value, json};

/// The ten events the reference publishes schemas for (lime's events minus `SessionEnd` and
/// `Interrupt`).
const REFERENCE_EVENTS: [Event; 10] = [
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

/// The folder of the reference schemas; fails the test (never skips it) when it is missing.
fn reference_dir() -> PathBuf {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/lime-wire-schemas");
    assert!(
        dir.is_dir(),
        "the reference lime wire schemas are missing: expected the folder {} \
         (the repository's parent folder must hold shared/reference/lime-wire-schemas/); \
         this conformance test cannot run without them",
        dir.display()
    );
    dir
}

/// `PreToolUse` -> `pre-tool-use`.
fn kebab(event: &Event) -> String {
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
fn reference_schema(dir: &Path, event: &Event) -> Value {
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

/// The generated lime output schema of `event`.
fn generated_schema(event: &Event) -> Value {
    schema(Dialect::Lime, event, SchemaKind::Output)
        .unwrap_or_else(|| panic!("no generated lime output schema for {event}"))
}

/// Documents checked against every reference event: common fields, fields of other events,
/// unknown and snake_case fields, non-object documents. `name` is the event's own name and
/// `other` the name of a different event.
fn shared_table(name: &str, other: &str) -> Vec<Value> {
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
fn pre_tool_use_table() -> Vec<Value> {
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
    ]
}

/// `PostToolUse` documents beyond the shared table.
fn post_tool_use_table() -> Vec<Value> {
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
    ]
}

/// `PermissionRequest` documents beyond the shared table.
fn permission_request_table() -> Vec<Value> {
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
fn stop_table() -> Vec<Value> {
    vec![
        json!({"decision": "block", "reason": "tests still fail"}),
        json!({"decision": "block", "reason": ""}),
        json!({"decision": "block", "reason": "keep going", "continue": false, "stopReason": "x"}),
        json!({"decision": "approve", "reason": "done"}),
        json!({"decision": "block", "reason": false}),
        json!({"decision": "block", "hookSpecificOutput": {"additionalContext": "ctx"}}),
    ]
}

/// `UserPromptSubmit` documents beyond the shared table.
fn user_prompt_submit_table() -> Vec<Value> {
    vec![
        json!({
            "decision": "block",
            "reason": "contains a secret",
            "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "c"}
        }),
        json!({"decision": "block", "reason": "no", "updatedPrompt": "rewritten"}),
        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "prompt": "x"}}),
    ]
}

/// `SessionStart` and `SubagentStart` documents beyond the shared table.
fn start_table(name: &str) -> Vec<Value> {
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
fn compact_table() -> Vec<Value> {
    vec![
        json!({"continue": false, "stopReason": "do not compact", "systemMessage": "kept"}),
        json!({"continue": false, "reason": "do not compact"}),
        json!({"trigger": "manual"}),
        json!({"customInstructions": "keep the plan"}),
    ]
}

/// The whole corpus: every shared document for every reference event, then each event's own.
fn corpus() -> Vec<(Event, Value)> {
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

#[test]
fn generated_lime_output_schemas_agree_with_the_reference() {
    let dir = reference_dir();
    let mut reference = BTreeMap::new();
    let mut generated = BTreeMap::new();
    for event in REFERENCE_EVENTS {
        assert!(
            Dialect::Lime.events().contains(&event),
            "{event} has a reference schema but is not a lime event"
        );
        let schema = reference_schema(&dir, &event);
        let validator = jsonschema::validator_for(&schema).unwrap_or_else(|error| {
            panic!("the reference schema of {event} does not compile: {error}")
        });
        reference.insert(event.clone(), validator);
        let schema = generated_schema(&event);
        let validator = jsonschema::validator_for(&schema).unwrap_or_else(|error| {
            panic!("the generated lime schema of {event} does not compile: {error}")
        });
        generated.insert(event, validator);
    }

    let corpus = corpus();
    assert!(
        corpus.len() >= 120,
        "the corpus holds {} documents; at least 120 are required",
        corpus.len()
    );

    // event -> (valid, invalid) by the reference's verdict.
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for (event, doc) in &corpus {
        let by_reference = reference[event].is_valid(doc);
        let by_generated = generated[event].is_valid(doc);
        let by_validate = validate_output_value(Dialect::Lime, event, doc);
        let entry = counts.entry(event.to_string()).or_default();
        if by_reference {
            entry.0 += 1;
        } else {
            entry.1 += 1;
        }
        if by_reference != by_generated || by_reference != by_validate.is_ok() {
            let validate = match &by_validate {
                Ok(()) => "valid".to_owned(),
                Err(error) => format!("invalid ({error})"),
            };
            disagreements.push(format!(
                "event {event}, document {doc}\n  reference schema: {}\n  generated schema: {}\n  \
                 validate_output_value: {validate}",
                verdict(by_reference),
                verdict(by_generated),
            ));
        }
    }

    println!("lime conformance corpus: {} documents", corpus.len());
    for (event, (valid, invalid)) in &counts {
        println!("  {event:<18} valid {valid:>3}  invalid {invalid:>3}");
    }

    assert!(
        disagreements.is_empty(),
        "{} of {} documents get different verdicts:\n{}",
        disagreements.len(),
        corpus.len(),
        disagreements.join("\n")
    );
    for event in REFERENCE_EVENTS {
        let (valid, invalid) = counts.get(event.as_str()).copied().unwrap_or_default();
        assert!(
            valid > 0 && invalid > 0,
            "the corpus needs valid and invalid documents for {event}: {valid} valid, \
             {invalid} invalid"
        );
    }
}

fn verdict(valid: bool) -> &'static str {
    if valid { "valid" } else { "invalid" }
}

#[test]
fn every_generated_lime_output_schema_compiles_and_accepts_the_empty_object() {
    let events = Dialect::Lime.events();
    assert_eq!(events.len(), 12, "lime has 12 events: {events:?}");
    for event in events {
        let schema = generated_schema(event);
        let validator = jsonschema::validator_for(&schema).unwrap_or_else(|error| {
            panic!("the generated lime output schema of {event} does not compile: {error}")
        });
        assert!(
            validator.is_valid(&json!({})),
            "the generated lime output schema of {event} rejects {{}}"
        );
        assert!(
            validate_output_value(Dialect::Lime, event, &json!({})).is_ok(),
            "validate_output_value rejects {{}} for lime {event}"
        );
    }
}

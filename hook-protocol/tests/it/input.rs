//! Reading event inputs: typed per dialect, unknown fields kept, errors located.

use hook_protocol::input::{EventInput, InputError, parse_input};
use hook_protocol::input::{lime, verboo, wuu};
use hook_protocol::schema::SchemaKind;
use hook_protocol::{Dialect, Event, schema};
use serde_json::{Value, json};

fn sample(dialect: Dialect) -> Value {
    match dialect {
        Dialect::Wuu => json!({
            "hook_event_name": "PreToolUse", "session_id": "", "cwd": "/p",
            "tool_name": "bash", "tool_input": {"command": "go test ./..."}
        }),
        Dialect::Verboo => json!({
            "hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": "/t.jsonl",
            "cwd": "/p", "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": "ls"}, "tool_use_id": "toolu_1"
        }),
        Dialect::Lime => json!({
            "hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": null,
            "cwd": "/p", "model": "m", "permission_mode": "default", "turn_id": "t1",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "c1"
        }),
    }
}

#[test]
fn every_dialect_reads_its_pre_tool_use_and_round_trips_it_with_unknown_fields() {
    for dialect in Dialect::ALL {
        let mut value = sample(dialect);
        value["from_a_newer_agent"] = json!({"nested": [1, 2]});
        let input = parse_input(dialect, value.to_string().as_bytes()).unwrap();
        assert_eq!(input.dialect(), dialect);
        assert_eq!(input.event(), Event::PreToolUse);
        assert_eq!(input.cwd(), "/p");
        assert_eq!(
            input.to_value(),
            value,
            "{dialect}: the input survives a round trip"
        );
    }
}

#[test]
fn typed_fields_are_reachable() {
    let EventInput::Wuu(wuu::Input::PreToolUse(input)) =
        parse_input(Dialect::Wuu, sample(Dialect::Wuu).to_string().as_bytes()).unwrap()
    else {
        panic!("expected a wuu PreToolUse")
    };
    assert_eq!(input.tool_name, "bash");
    assert_eq!(input.tool_input["command"], "go test ./...");

    let EventInput::Lime(lime::Input::PreToolUse(input)) =
        parse_input(Dialect::Lime, sample(Dialect::Lime).to_string().as_bytes()).unwrap()
    else {
        panic!("expected a lime PreToolUse")
    };
    assert_eq!(input.turn_id, "t1");
    assert_eq!(input.common.transcript_path, None);

    let stop = json!({"hook_event_name": "MessageDisplay", "cwd": "/", "turn_id": "t",
        "message_id": "m", "delta": "hi", "final": true});
    let EventInput::Verboo(verboo::Input::MessageDisplay(input)) =
        parse_input(Dialect::Verboo, stop.to_string().as_bytes()).unwrap()
    else {
        panic!("expected a verboo MessageDisplay")
    };
    assert!(input.r#final);
}

#[test]
fn malformed_json_says_where() {
    let error = parse_input(Dialect::Wuu, b"{\n  \"cwd\": \"/\",\n  oops\n}").unwrap_err();
    assert_eq!(
        error,
        InputError::NotJson {
            line: 3,
            column: 3,
            message: "key must be a string".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "input is not valid JSON at line 3, column 3: key must be a string"
    );
}

#[test]
fn non_objects_and_missing_event_names_are_refused() {
    assert_eq!(
        parse_input(Dialect::Lime, b"[1]").unwrap_err(),
        InputError::NotAnObject { found: "an array" }
    );
    assert_eq!(
        parse_input(Dialect::Lime, br#"{"cwd": "/"}"#).unwrap_err(),
        InputError::MissingEventName
    );
}

#[test]
fn a_wrong_type_names_its_field_by_json_pointer() {
    let mut value = sample(Dialect::Verboo);
    value["tool_name"] = json!(42);
    let error = parse_input(Dialect::Verboo, value.to_string().as_bytes()).unwrap_err();
    let InputError::Field {
        event,
        pointer,
        message,
    } = &error
    else {
        panic!("{error:?}")
    };
    assert_eq!(event, "PreToolUse");
    assert_eq!(pointer, "/tool_name");
    assert!(message.contains("expected a string"), "{message}");
    assert!(
        error
            .to_string()
            .starts_with("input field at /tool_name of PreToolUse: invalid type")
    );

    let mut value = sample(Dialect::Lime);
    value.as_object_mut().unwrap().remove("turn_id");
    let error = parse_input(Dialect::Lime, value.to_string().as_bytes()).unwrap_err();
    assert!(
        error.to_string().contains("missing field `turn_id`"),
        "{error}"
    );
}

#[test]
fn an_event_the_dialect_does_not_know_is_kept() {
    let value =
        json!({"hook_event_name": "Interrupt", "session_id": "", "cwd": "/", "turn_id": "t"});
    let input = parse_input(Dialect::Wuu, value.to_string().as_bytes()).unwrap();
    assert!(matches!(input, EventInput::Wuu(wuu::Input::Other(_))));
    assert_eq!(input.event(), Event::Interrupt);
    assert_eq!(input.to_value(), value);
}

#[test]
fn typed_inputs_match_their_generated_schemas() {
    for dialect in Dialect::ALL {
        let value = sample(dialect);
        let schema = schema::schema(dialect, &Event::PreToolUse, SchemaKind::Input).unwrap();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let input = parse_input(dialect, value.to_string().as_bytes()).unwrap();
        assert!(validator.is_valid(&input.to_value()), "{dialect}");
    }
}

/// Payloads shaped as the real agents send them (issue 11): fields they leave out, and fields
/// this engine does not know, which are kept.
#[test]
fn real_agent_payloads_are_accepted_and_their_unknown_fields_kept() {
    let lime_common = json!({"session_id": "s", "transcript_path": null, "cwd": "/p"});
    let with = |base: &Value, extra: Value| {
        let mut value = base.clone();
        for (key, field) in extra.as_object().unwrap() {
            value[key] = field.clone();
        }
        value
    };
    let table: Vec<(Dialect, Value)> = vec![
        // Codex sends SessionEnd without `model`.
        (
            Dialect::Lime,
            with(
                &lime_common,
                json!({"hook_event_name": "SessionEnd", "reason": "other"}),
            ),
        ),
        (
            Dialect::Lime,
            with(
                &lime_common,
                json!({"hook_event_name": "Stop", "model": "m", "turn_id": "t",
                       "stop_hook_active": false, "last_assistant_message": null,
                       "effort": "medium", "duration_ms": 1200}),
            ),
        ),
        // Claude Code: SessionStart without `model`, PermissionRequest without `tool_use_id`.
        (
            Dialect::Verboo,
            json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": "/p",
                   "source": "startup", "transcript_path": "/t.jsonl"}),
        ),
        (
            Dialect::Verboo,
            json!({"hook_event_name": "PermissionRequest", "session_id": "s", "cwd": "/p",
                   "tool_name": "Bash", "tool_input": {"command": "ls"},
                   "permission_mode": "default", "permission_suggestions": []}),
        ),
        (
            Dialect::Verboo,
            json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": "/p",
                   "prompt": "hi", "prompt_id": "p1", "effort": {"level": "high"}}),
        ),
        (
            Dialect::Verboo,
            json!({"hook_event_name": "Stop", "session_id": "s", "cwd": "/p",
                   "stop_hook_active": false, "background_tasks": [{"id": 1}],
                   "session_crons": [], "duration_ms": 5}),
        ),
    ];
    for (dialect, value) in table {
        let event = Event::from_name(value["hook_event_name"].as_str().unwrap());
        let input = hook_protocol::input::input_from_value(dialect, value.clone())
            .unwrap_or_else(|e| panic!("{dialect} {event}: {e}"));
        assert_eq!(
            input.to_value(),
            value,
            "{dialect} {event}: not kept as sent"
        );
        let generated = hook_protocol::schema::schema(dialect, &event, SchemaKind::Input).unwrap();
        let validator = jsonschema::validator_for(&generated).unwrap();
        assert!(
            validator.is_valid(&value),
            "{dialect} {event}: schema refuses it"
        );
    }
    // Every other lime event still needs `model`, as the published schemas say.
    let missing = with(
        &lime_common,
        json!({"hook_event_name": "Stop", "turn_id": "t", "stop_hook_active": false,
               "last_assistant_message": null}),
    );
    let error = hook_protocol::input::input_from_value(Dialect::Lime, missing.clone()).unwrap_err();
    assert!(
        error.to_string().contains("missing field `model`"),
        "{error}"
    );
    let generated =
        hook_protocol::schema::schema(Dialect::Lime, &Event::Stop, SchemaKind::Input).unwrap();
    assert!(
        !jsonschema::validator_for(&generated)
            .unwrap()
            .is_valid(&missing)
    );
}

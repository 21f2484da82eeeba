//! The generated schemas: one input and one output schema per (dialect, event), the outcome
//! schema, and validation of third-party output against them.

use hook_protocol::schema::SchemaKind;
use hook_protocol::schema::{all, outcome_schema, schema};
use hook_protocol::{
    Decision, Dialect, Event, HandlerType, Layer, Outcome, Run, RunStatus, SkipReason, Source,
    ValidateError, validate_output,
};
use serde_json::json;

#[test]
fn every_known_pair_has_both_schemas_and_they_compile() {
    for dialect in Dialect::ALL {
        for event in dialect.events() {
            for kind in [SchemaKind::Input, SchemaKind::Output] {
                let schema = schema(dialect, event, kind).unwrap();
                assert_eq!(
                    schema["$schema"],
                    "https://json-schema.org/draft/2020-12/schema"
                );
                assert_eq!(
                    schema["title"],
                    format!("{dialect} {event} {}", kind.as_str())
                );
                jsonschema::validator_for(&schema)
                    .unwrap_or_else(|e| panic!("{dialect} {event} {kind:?}: {e}"));
            }
        }
        assert_eq!(
            schema(dialect, &Event::from_name("Nope"), SchemaKind::Output),
            None
        );
    }
    assert_eq!(
        schema(Dialect::Wuu, &Event::Interrupt, SchemaKind::Input),
        None
    );
    assert_eq!(all().len(), 1 + 2 * (13 + 34 + 12));
}

#[test]
fn the_outcome_schema_accepts_a_real_outcome() {
    let mut outcome = Outcome::new(Dialect::Lime, Event::PreToolUse);
    outcome.decision = Decision::Block;
    outcome.reason = Some("no".into());
    let mut run = Run::new(
        "user:config.toml:PreToolUse:Bash:0",
        Source::new(Layer::User),
        HandlerType::Command,
    );
    run.status = RunStatus::Skipped;
    run.skip_reason = Some(SkipReason::Untrusted);
    outcome.runs.push(run);
    let validator = jsonschema::validator_for(&outcome_schema()).unwrap();
    let value = serde_json::to_value(&outcome).unwrap();
    assert!(validator.is_valid(&value), "{value}");
    assert_eq!(value["runs"][0]["type"], "command");
    assert_eq!(value["runs"][0]["skip_reason"], "untrusted");
    let back: Outcome = serde_json::from_value(value).unwrap();
    assert_eq!(back, outcome);

    let mut bad = serde_json::to_value(&outcome).unwrap();
    bad["decision"] = json!("deny");
    assert!(!validator.is_valid(&bad));
}

#[test]
fn validation_reports_every_error_with_its_pointer_and_a_hint() {
    let output = br#"{"continue": "yes", "hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permission_decision": "deny"}, "decision": "deny"}"#;
    let error = validate_output(Dialect::Lime, &Event::PreToolUse, output).unwrap_err();
    let ValidateError::Invalid { issues, .. } = &error else {
        panic!("{error:?}")
    };
    let found: Vec<(&str, &str, Option<&str>)> = issues
        .iter()
        .map(|i| (i.pointer.as_str(), i.message.as_str(), i.hint.as_deref()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("/continue", "expected boolean, found a string", None),
            (
                "/decision",
                r#""deny" is not one of ["approve","block"]"#,
                Some(
                    "a top-level `decision` takes \"block\"; permission decisions go in hookSpecificOutput.permissionDecision"
                ),
            ),
            (
                "/hookSpecificOutput",
                "unknown field `permission_decision` is not allowed here",
                Some("lime fields are camelCase: did you mean `permissionDecision`?"),
            ),
        ]
    );
}

#[test]
fn validation_names_a_missing_event_tag_and_an_unknown_event() {
    let error = validate_output(
        Dialect::Verboo,
        &Event::PreToolUse,
        br#"{"hookSpecificOutput": {}}"#,
    )
    .unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("/hookSpecificOutput: missing required field `hookEventName`"),
        "{text}"
    );

    let error = validate_output(Dialect::Lime, &Event::Notification, b"{}").unwrap_err();
    assert!(matches!(error, ValidateError::UnknownEvent { .. }));
    assert!(error.to_string().starts_with(
        "`Notification` is not a lime event; lime events are: SessionStart, SessionEnd"
    ));

    let error = validate_output(Dialect::Wuu, &Event::Stop, b"{} trailing").unwrap_err();
    assert!(
        matches!(
            error,
            ValidateError::NotJson {
                line: 1,
                column: 4,
                ..
            }
        ),
        "{error:?}"
    );
}

#[test]
fn wuu_and_verboo_accept_null_and_unknown_fields_as_their_readers_do() {
    assert_eq!(
        validate_output(Dialect::Wuu, &Event::Stop, br#"{"reason": null, "x": 1}"#),
        Ok(())
    );
    assert_eq!(
        validate_output(
            Dialect::Verboo,
            &Event::Stop,
            br#"{"stopReason": null, "x": 1}"#
        ),
        Ok(())
    );
    assert!(validate_output(Dialect::Lime, &Event::Stop, br#"{"stopReason": null}"#).is_err());
}

/// Every field the output schema of a wuu or verboo event defines, misspelt by one letter, is
/// a warning (not an error) that names the field; the fields spelt right are not; lime has no
/// warnings, only errors.
#[test]
fn every_misspelt_output_field_is_a_warning_naming_the_field() {
    use hook_protocol::unknown_output_fields;
    // Drops the second letter: `decision` -> `dcision`.
    let misspell = |name: &str| {
        let mut chars: Vec<char> = name.chars().collect();
        chars.remove(1);
        chars.into_iter().collect::<String>()
    };
    let mut checked = 0;
    for dialect in [Dialect::Wuu, Dialect::Verboo] {
        for event in dialect.events() {
            let output = schema(dialect, event, SchemaKind::Output).unwrap();
            let known: Vec<&String> = output["properties"].as_object().unwrap().keys().collect();
            let mut object = serde_json::Map::new();
            for name in &known {
                object.insert((*name).clone(), json!(null));
                object.insert(misspell(name), json!(null));
            }
            let found =
                unknown_output_fields(dialect, event, &serde_json::Value::Object(object)).unwrap();
            let found: Vec<(String, Option<String>)> = found
                .into_iter()
                .map(|field| (field.name, field.suggestion))
                .collect();
            let mut expected: Vec<(String, Option<String>)> = known
                .iter()
                .map(|name| (misspell(name), Some((*name).clone())))
                .collect();
            expected.sort();
            assert_eq!(found, expected, "{dialect} {event}");
            checked += expected.len();

            // Some events have no `hookSpecificOutput` at all (the schema refuses one), and some
            // have no `additionalContext` in it.
            let context = output
                .pointer("/properties/hookSpecificOutput/anyOf/0/$ref")
                .and_then(|r| r.as_str())
                .and_then(|r| r.rsplit('/').next())
                .and_then(|name| {
                    output.pointer(&format!("/$defs/{name}/properties/additionalContext"))
                })
                .is_some();
            if dialect == Dialect::Verboo && context {
                let typo = json!({"hookSpecificOutput": {
                    "hookEventName": event.as_str(),
                    "additionalContxt": "x"
                }});
                let found = unknown_output_fields(dialect, event, &typo).unwrap();
                assert_eq!(found.len(), 1, "{event}: {found:?}");
                assert_eq!(found[0].pointer, "/hookSpecificOutput/additionalContxt");
            }
        }
    }
    assert!(checked > 100, "{checked}");
    let typo = json!({"decison": "block"});
    for event in Dialect::Lime.events() {
        assert_eq!(
            unknown_output_fields(Dialect::Lime, event, &typo).unwrap(),
            []
        );
    }
}

//! A minimal valid input for any event of any dialect, for testing hooks (`hook test`).

use serde_json::{Map, Value, json};

use crate::schema::{SchemaKind, schema};
use crate::{Dialect, Event, MatchTarget};

/// The smallest input `dialect` accepts for `event`: every required field, with plain values
/// (`cwd` as given, the match value a real agent would send, `tool_name` as given), or `None`
/// when the dialect does not know the event. It always reads back with
/// [`parse_input`](crate::input::parse_input).
pub fn example_input(
    dialect: Dialect,
    event: &Event,
    cwd: &str,
    tool: Option<&str>,
) -> Option<Value> {
    let schema = schema(dialect, event, SchemaKind::Input)?;
    let mut input = Map::new();
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        let property = properties.get(name).cloned().unwrap_or(Value::Bool(true));
        input.insert(name.to_owned(), placeholder(&schema, &property));
    }
    input.insert("hook_event_name".into(), event.as_str().into());
    input.insert("cwd".into(), cwd.into());
    let rules = dialect.rules();
    if input.contains_key("session_id") || rules.input().session_id_always() {
        input.insert("session_id".into(), "hook-test".into());
    }
    if rules.input().transcript_and_model_always() {
        // Codex sends it on every event, `null` when there is no transcript.
        input.insert("transcript_path".into(), Value::Null);
    }
    let shell = rules.matching().tool_name("Bash");
    let tool_name = tool.unwrap_or(&shell);
    if input.contains_key("tool_name") {
        input.insert("tool_name".into(), tool_name.into());
        let tool_input = match tool_name.to_ascii_lowercase().as_str() {
            "bash" | "shell" => json!({"command": "echo hello"}),
            "read" => json!({"file_path": format!("{cwd}/README.md")}),
            "write" => json!({"file_path": format!("{cwd}/README.md"), "content": ""}),
            "edit" => json!({
                "file_path": format!("{cwd}/README.md"),
                "old_string": "",
                "new_string": ""
            }),
            _ => json!({}),
        };
        input.insert("tool_input".into(), tool_input);
    }
    let match_value = match event.match_target(dialect) {
        MatchTarget::Source => Some("startup"),
        MatchTarget::Trigger if *event == Event::Setup => Some("init"),
        MatchTarget::Trigger => Some("manual"),
        MatchTarget::EndReason => Some("other"),
        MatchTarget::AgentType => Some("general-purpose"),
        MatchTarget::NotificationType => Some("idle_prompt"),
        MatchTarget::LoadReason => Some("session_start"),
        MatchTarget::CommandName => Some("review"),
        MatchTarget::ErrorKind => Some("unknown"),
        MatchTarget::McpServerName => Some("example-server"),
        MatchTarget::ToModel => Some("claude-sonnet-4-6"),
        MatchTarget::FileName | MatchTarget::ToolName | MatchTarget::Nothing => None,
    };
    if let (Some(value), Some(field)) = (match_value, event.match_target(dialect).field())
        && input.contains_key(field)
    {
        input.insert(field.into(), value.into());
    }
    if matches!(event, Event::PreModelSwitch | Event::PostModelSwitch) {
        input.insert("from_model".into(), "claude-opus-4-6".into());
        input.insert("source".into(), "command".into());
    }
    if *event == Event::PreSkillShellCommand {
        input.insert("command_name".into(), "deploy".into());
    }
    if *event == Event::SubagentStart || *event == Event::SubagentStop {
        input.insert("agent_id".into(), "agent-1".into());
        input.insert("agent_type".into(), "general-purpose".into());
    }
    Some(Value::Object(input))
}

/// A plain value of `property`'s schema: "" for strings, false, 0, [], {}, null where allowed,
/// the first value of an enum.
fn placeholder(root: &Value, property: &Value) -> Value {
    let property = match property.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap_or_default();
            root.pointer(&format!("/$defs/{name}")).unwrap_or(property)
        }
        None => property,
    };
    if let Some(first) = property
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(constant) = property.get("const") {
        return constant.clone();
    }
    let types: Vec<&str> = match property.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    match types.first().copied() {
        _ if types.contains(&"null") => Value::Null,
        Some("string") => "".into(),
        Some("boolean") => false.into(),
        Some("integer" | "number") => 0.into(),
        Some("array") => json!([]),
        Some("object") | None => json!({}),
        Some(_) => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_input;

    #[test]
    fn every_event_of_every_dialect_has_an_example_that_reads_back() {
        for dialect in Dialect::ALL {
            for event in dialect.events() {
                let value = example_input(dialect, event, "/work", None).unwrap();
                let input = parse_input(dialect, value.to_string().as_bytes())
                    .unwrap_or_else(|e| panic!("{dialect} {event}: {e}\n{value}"));
                assert_eq!(&input.event(), event);
                assert_eq!(input.cwd(), "/work");
                let validator =
                    crate::validate::validator(dialect, event, SchemaKind::Input).unwrap();
                assert!(validator.is_valid(&value), "{dialect} {event}: {value}");
            }
        }
        assert_eq!(
            example_input(Dialect::Lime, &Event::Notification, "/", None),
            None
        );
    }

    #[test]
    fn tool_events_carry_the_tool_asked_for() {
        let value =
            example_input(Dialect::Verboo, &Event::PreToolUse, "/p", Some("Write")).unwrap();
        assert_eq!(value["tool_name"], "Write");
        assert_eq!(value["tool_input"]["file_path"], "/p/README.md");
        let value = example_input(Dialect::Lime, &Event::SessionStart, "/p", None).unwrap();
        assert_eq!(value["source"], "startup");
        assert_eq!(value["transcript_path"], Value::Null);
    }
}

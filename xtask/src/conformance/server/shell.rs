//! The shell tool a model request offers, and the arguments of the fake model's call to it:
//! the command, and every other field the tool's schema requires, filled.

use serde_json::{Map, Value, json};

/// The shell tools the fake model calls, in this order of preference: Claude Code's (`Bash`),
/// Qwen Code's and Gemini CLI's (`run_shell_command`), Copilot CLI's (`bash`, whose
/// `description` is required too).
pub(crate) const SHELL_TOOLS: &[&str] = &["Bash", "run_shell_command", "bash"];

/// The shell tool an Anthropic Messages request offers (`tools[].name`), with its input schema.
pub(super) fn messages_shell(request: &Value) -> Option<(&str, &Value)> {
    let tools = request["tools"].as_array()?;
    preferred(
        tools
            .iter()
            .filter_map(|tool| Some((tool["name"].as_str()?, &tool["input_schema"]))),
    )
}

/// The first of `offered` (name, schema) whose name is the most preferred of [`SHELL_TOOLS`].
pub(super) fn preferred<'a>(
    offered: impl Iterator<Item = (&'a str, &'a Value)> + Clone,
) -> Option<(&'a str, &'a Value)> {
    SHELL_TOOLS
        .iter()
        .find_map(|want| offered.clone().find(|(name, _)| name == want))
}

/// The arguments of a call running `command`: `command` (or `cmd`) where the schema has it, and
/// each other required field with a value of its type (an enum's `sync` if it offers one, else
/// its first; text that reads as a description for a field named so).
pub(crate) fn call_arguments(schema: &Value, command: &str) -> Value {
    let properties = schema["properties"].as_object();
    let mut arguments = Map::new();
    let named_command = |key: &str| key == "command" || key == "cmd";
    for key in properties.into_iter().flat_map(|p| p.keys()) {
        if named_command(key) {
            arguments.insert(key.clone(), json!(command));
        }
    }
    if arguments.is_empty() {
        arguments.insert("command".to_owned(), json!(command));
    }
    let required = schema["required"].as_array().into_iter().flatten();
    for key in required.filter_map(Value::as_str) {
        if arguments.contains_key(key) {
            continue;
        }
        let property = properties.and_then(|p| p.get(key)).unwrap_or(&Value::Null);
        arguments.insert(key.to_owned(), filler(key, property));
    }
    Value::Object(arguments)
}

/// A value for the required field `key` of schema `property`.
fn filler(key: &str, property: &Value) -> Value {
    if let Some(options) = property["enum"].as_array() {
        let sync = json!("sync");
        return if options.contains(&sync) {
            sync
        } else {
            options.first().cloned().unwrap_or(Value::Null)
        };
    }
    let kind = match &property["type"] {
        Value::Array(kinds) => kinds.first().and_then(Value::as_str).unwrap_or("string"),
        Value::String(kind) => kind.as_str(),
        _ => "string",
    };
    match kind.to_ascii_lowercase().as_str() {
        "number" | "integer" => json!(30),
        "boolean" => json!(false),
        "array" => json!([]),
        "object" => json!({}),
        _ if key.to_ascii_lowercase().contains("desc") => json!("Run the conformance command"),
        _ => json!("conformance"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{call_arguments, messages_shell};

    /// Copilot CLI 1.0.102's `bash` (its required fields and an enum), as it offers it.
    fn copilot_bash() -> Value {
        json!({"type": "object", "required": ["command", "description"], "properties": {
            "command": {"type": "string"}, "description": {"type": "string"},
            "shellId": {"type": "string"}, "mode": {"type": "string", "enum": ["sync", "async"]},
            "detach": {"type": "boolean"}, "initial_wait": {"type": "number"}}})
    }

    #[test]
    fn each_agents_shell_tool_gets_the_command_and_its_required_fields() {
        // Claude Code's Bash and Qwen Code's run_shell_command require the command alone.
        let claude = json!({"type": "object", "required": ["command"], "properties": {
            "command": {"type": "string"}, "timeout": {"type": "number"},
            "description": {"type": "string"}}});
        assert_eq!(
            call_arguments(&claude, "rm -rf victim"),
            json!({"command": "rm -rf victim"})
        );
        let qwen = json!({"type": "object", "required": ["command"], "properties": {
            "command": {"type": "string"}, "is_background": {"type": "boolean"},
            "timeout": {"type": "integer"}, "description": {"type": "string"},
            "directory": {"type": "string"}}});
        assert_eq!(
            call_arguments(&qwen, "touch allowed-marker"),
            json!({"command": "touch allowed-marker"})
        );
        // A schema as GenAI's `parameters` writes it (types upper case), a flag required.
        let gemini = json!({"type": "OBJECT", "required": ["command", "is_background"],
            "properties": {"command": {"type": "STRING"}, "is_background": {"type": "BOOLEAN"}}});
        assert_eq!(
            call_arguments(&gemini, "ls"),
            json!({"command": "ls", "is_background": false})
        );
        // Copilot CLI's needs a description, and only the required fields are filled.
        assert_eq!(
            call_arguments(&copilot_bash(), "rm -rf victim"),
            json!({"command": "rm -rf victim", "description": "Run the conformance command"})
        );
        let with_mode = json!({"required": ["cmd", "mode", "wait", "args"], "properties": {
            "cmd": {"type": "string"}, "mode": {"enum": ["async", "sync"]},
            "wait": {"type": ["integer", "null"]}, "args": {"type": "array"}}});
        assert_eq!(
            call_arguments(&with_mode, "ls"),
            json!({"cmd": "ls", "mode": "sync", "wait": 30, "args": []})
        );
        // No schema: the command alone.
        assert_eq!(call_arguments(&Value::Null, "ls"), json!({"command": "ls"}));
    }

    #[test]
    fn the_shell_tool_is_found_by_each_agents_name() {
        let request = |names: &[&str]| {
            json!({"tools": names.iter().map(|name| json!({"name": name,
                "input_schema": {"title": name}})).collect::<Vec<_>>()})
        };
        let found = |names: &[&str]| {
            messages_shell(&request(names)).map(|(name, schema)| {
                assert_eq!(schema["title"], name);
                name.to_owned()
            })
        };
        assert_eq!(found(&["Read", "Bash"]).as_deref(), Some("Bash"));
        assert_eq!(
            found(&["agent", "run_shell_command"]).as_deref(),
            Some("run_shell_command")
        );
        assert_eq!(found(&["bash", "read_bash"]).as_deref(), Some("bash"));
        assert_eq!(found(&["bash", "Bash"]).as_deref(), Some("Bash"));
        assert_eq!(found(&["Read", "Write"]), None);
        assert_eq!(messages_shell(&json!({"messages": []})), None);
    }
}

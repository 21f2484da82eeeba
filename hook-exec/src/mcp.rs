//! `mcp_tool` handlers: expanding `${path}` placeholders of the handler's `input` from the event
//! JSON, and reading the tool's result as hook output.
//!
//! Expansion rules (the seeds say "only fields the event provides, and the expanded types are
//! checked"):
//! - `${a.b.c}` names a field of the event JSON by a dotted path; a segment that is a number
//!   indexes an array (`${tool_input.files.0}`).
//! - A string that is exactly one placeholder becomes the field's value with its JSON type
//!   (`"${tool_input}"` is an object, `"${tool_input.timeout}"` a number).
//! - A placeholder inside a longer string is replaced by the field's text: a string as is, a
//!   number or boolean as JSON; a null, object or array there is an error (there is no one right
//!   way to write it into text).
//! - A path the event does not have is an error: the handler fails and the tool is never called.
//! - Placeholders are expanded in string values at any depth, never in object keys; `$` not
//!   followed by `{` is kept as written.
//!
//! Reading the result: a result with `isError: true` fails the run (with its text); otherwise the
//! hook output is the result's `structuredContent` when it is an object, else the text of its
//! only text `content` item, else the result itself, and that is read like the stdout of a
//! command that exited 0.

use serde_json::Value;

/// Expands every `${path}` placeholder of `input` from `event`.
pub(crate) fn expand(input: &Value, event: &Value) -> Result<Value, String> {
    match input {
        Value::String(text) => expand_string(text, event),
        Value::Array(items) => items
            .iter()
            .map(|item| expand(item, event))
            .collect::<Result<_, _>>()
            .map(Value::Array),
        Value::Object(fields) => fields
            .iter()
            .map(|(key, value)| Ok((key.clone(), expand(value, event)?)))
            .collect::<Result<_, String>>()
            .map(Value::Object),
        other => Ok(other.clone()),
    }
}

fn expand_string(text: &str, event: &Value) -> Result<Value, String> {
    if let Some(path) = text
        .strip_prefix("${")
        .and_then(|rest| rest.strip_suffix('}'))
        .filter(|path| !path.contains('}'))
    {
        return lookup(event, path).cloned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find('}') else {
            return Err(format!("`{text}`: a `${{` is never closed by `}}`"));
        };
        let path = &after[..end];
        match lookup(event, path)? {
            Value::String(s) => out.push_str(s),
            value @ (Value::Number(_) | Value::Bool(_)) => out.push_str(&value.to_string()),
            other => {
                return Err(format!(
                    "`${{{path}}}` is {} and cannot be written inside the text `{text}`; make the placeholder the whole string to pass it as JSON",
                    hook_protocol::json_type(other)
                ));
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(Value::String(out))
}

fn lookup<'a>(event: &'a Value, path: &str) -> Result<&'a Value, String> {
    if path.is_empty() {
        return Err("`${}` names no field: write a path such as `${tool_input.command}`".into());
    }
    let mut at = event;
    for segment in path.split('.') {
        let next = match at {
            Value::Object(fields) => fields.get(segment),
            Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        at = next.ok_or_else(|| {
            format!("`${{{path}}}` names a field this event does not have; the tool was not called")
        })?;
    }
    Ok(at)
}

/// The hook output carried by a tool result, as bytes to interpret, or the error it reports.
pub(crate) fn output_of(result: &Value) -> Result<Vec<u8>, String> {
    let text_items = || {
        result
            .get("content")
            .and_then(Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter(|item| item.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|item| item.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    };
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        let text = text_items().join("\n");
        return Err(if text.is_empty() {
            "the tool reported an error".to_owned()
        } else {
            format!("the tool reported an error: {text}")
        });
    }
    if let Some(structured) = result.get("structuredContent").filter(|s| s.is_object()) {
        return Ok(structured.to_string().into_bytes());
    }
    if let [only] = text_items()[..] {
        return Ok(only.as_bytes().to_vec());
    }
    Ok(result.to_string().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event() -> Value {
        json!({"session_id": "s", "tool_input": {"command": "ls", "timeout": 5, "files": ["a", "b"]}})
    }

    #[test]
    fn a_whole_string_placeholder_keeps_its_type() {
        let input = json!({
            "command": "${tool_input.command}",
            "timeout": "${tool_input.timeout}",
            "all": "${tool_input}",
            "first": "${tool_input.files.0}",
            "nested": ["${session_id}", 3, null],
        });
        assert_eq!(
            expand(&input, &event()).unwrap(),
            json!({"command": "ls", "timeout": 5,
                "all": {"command": "ls", "timeout": 5, "files": ["a", "b"]},
                "first": "a", "nested": ["s", 3, null]})
        );
    }

    #[test]
    fn embedded_placeholders_become_text() {
        let input = json!("run `${tool_input.command}` for ${tool_input.timeout}s in $HOME");
        assert_eq!(
            expand(&input, &event()).unwrap(),
            json!("run `ls` for 5s in $HOME")
        );
    }

    #[test]
    fn missing_paths_and_untextable_values_are_errors() {
        let missing = expand(&json!({"x": "${tool_input.nope}"}), &event()).unwrap_err();
        assert!(missing.contains("does not have"), "{missing}");
        let object = expand(&json!("all: ${tool_input}"), &event()).unwrap_err();
        assert!(object.contains("is an object"), "{object}");
        assert!(expand(&json!("${unclosed"), &event()).is_err());
        assert!(expand(&json!("${}"), &event()).is_err());
    }

    #[test]
    fn tool_results_become_hook_output() {
        let structured = json!({"content": [], "structuredContent": {"decision": "block"}});
        assert_eq!(
            output_of(&structured).unwrap(),
            br#"{"decision":"block"}"#.to_vec()
        );
        let text = json!({"content": [{"type": "text", "text": "{\"continue\":true}"}]});
        assert_eq!(output_of(&text).unwrap(), br#"{"continue":true}"#.to_vec());
        let plain = json!({"decision": "block"});
        assert_eq!(output_of(&plain).unwrap(), plain.to_string().into_bytes());
        let error = json!({"isError": true, "content": [{"type": "text", "text": "boom"}]});
        assert_eq!(
            output_of(&error).unwrap_err(),
            "the tool reported an error: boom"
        );
    }
}

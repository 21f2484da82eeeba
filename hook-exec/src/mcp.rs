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

use crate::client::McpError;

/// Why a handler's `input` could not be expanded: the tool is not called.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ExpandError {
    /// `${` without its `}`.
    #[error("`{text}`: a `${{` is never closed by `}}`")]
    Unclosed {
        /// The string value.
        text: String,
    },
    /// `${}`.
    #[error("`${{}}` names no field: write a path such as `${{tool_input.command}}`")]
    EmptyPath,
    /// A path the event does not have.
    #[error("`${{{path}}}` names a field this event does not have; the tool was not called")]
    Missing {
        /// The dotted path.
        path: String,
    },
    /// A null, object or array placeholder inside a longer string.
    #[error(
        "`${{{path}}}` is {kind} and cannot be written inside the text `{text}`; make the placeholder the whole string to pass it as JSON"
    )]
    NotText {
        /// The dotted path.
        path: String,
        /// Its JSON type, with an article ("an object").
        kind: String,
        /// The string value.
        text: String,
    },
}

/// Why an `mcp_tool` call gave no hook output.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ToolError {
    /// The embedder's client failed.
    #[error("the MCP tool call failed: {source}")]
    Call {
        #[source]
        source: McpError,
    },
    /// The tool answered `isError: true`.
    #[error("the tool reported an error{}", if text.is_empty() { String::new() } else { format!(": {text}") })]
    Reported {
        /// Its text content, joined by newlines.
        text: String,
    },
}

/// Expands every `${path}` placeholder of `input` from `event`.
pub(crate) fn expand(input: &Value, event: &Value) -> Result<Value, ExpandError> {
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
            .collect::<Result<_, ExpandError>>()
            .map(Value::Object),
        other => Ok(other.clone()),
    }
}

fn expand_string(text: &str, event: &Value) -> Result<Value, ExpandError> {
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
            return Err(ExpandError::Unclosed {
                text: text.to_owned(),
            });
        };
        let path = &after[..end];
        match lookup(event, path)? {
            Value::String(s) => out.push_str(s),
            value @ (Value::Number(_) | Value::Bool(_)) => out.push_str(&value.to_string()),
            other => {
                return Err(ExpandError::NotText {
                    path: path.to_owned(),
                    kind: hook_protocol::text::json_type(other).to_string(),
                    text: text.to_owned(),
                });
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(Value::String(out))
}

fn lookup<'a>(event: &'a Value, path: &str) -> Result<&'a Value, ExpandError> {
    if path.is_empty() {
        return Err(ExpandError::EmptyPath);
    }
    let mut at = event;
    for segment in path.split('.') {
        let next = match at {
            Value::Object(fields) => fields.get(segment),
            Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        at = next.ok_or_else(|| ExpandError::Missing {
            path: path.to_owned(),
        })?;
    }
    Ok(at)
}

/// The hook output carried by a tool result, as bytes to interpret, or the error it reports.
pub(crate) fn output_of(result: &Value) -> Result<Vec<u8>, ToolError> {
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
        return Err(ToolError::Reported {
            text: text_items().join("\n"),
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
        assert!(
            matches!(&missing, ExpandError::Missing { path } if path == "tool_input.nope"),
            "{missing:?}"
        );
        assert!(missing.to_string().contains("does not have"), "{missing}");
        let object = expand(&json!("all: ${tool_input}"), &event()).unwrap_err();
        assert!(object.to_string().contains("is an object"), "{object}");
        assert!(matches!(
            expand(&json!("${unclosed"), &event()),
            Err(ExpandError::Unclosed { .. })
        ));
        assert_eq!(expand(&json!("${}"), &event()), Err(ExpandError::EmptyPath));
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
            output_of(&error).unwrap_err().to_string(),
            "the tool reported an error: boom"
        );
    }
}
